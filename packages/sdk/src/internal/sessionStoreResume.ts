/**
 * A session started with a session store in its context: the options it runs
 * with (transcript mirroring on; `resume` / `continue` served from the
 * store) and the mirror that takes the CLI's frames, redacting them with the
 * secrets the session hides everywhere else.
 *
 * Resuming from the store follows the official SDK: the transcript (and its
 * subagent transcripts) is loaded and written, with the user's credentials
 * and settings, into a private configuration directory that the CLI is given
 * as `CLAUDE_CONFIG_DIR`; the CLI resumes it from there with its own resume
 * code, and appends to it (mirrored to the store) as it goes. The directory
 * is removed when the session's scope closes, after the CLI has exited.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Path from "effect/Path"
import type * as Scope from "effect/Scope"
import type * as ClaudeOptions from "../ClaudeOptions.js"
import type * as SessionStore from "../SessionStore.js"
import { OptionsError, SessionStoreError } from "./claudeError.js"
import * as Mapping from "./options/mapping.js"
import * as Secrets from "./options/secrets.js"
import * as Redaction from "./redaction.js"
import * as InternalSessionStore from "./sessionStore.js"
import * as Mirror from "./sessionStoreMirror.js"

/** @internal */
export interface Attached {
  readonly options: ClaudeOptions.Options
  readonly mirror: Mirror.Mirror
}

// What the CLI needs beside the transcript to run as the user: credentials, account state, settings.
const CONFIG_FILES = [".credentials.json", ".config.json", "settings.json"]

/** @internal */
export const attach = (
  store: SessionStore.SessionStore,
  options: ClaudeOptions.Options,
  settings: Pick<ClaudeOptions.RuntimeSettings, "loadTimeout" | "sessionStoreFlush" | "sessionStoreRedaction">
): Effect.Effect<Attached, OptionsError | SessionStoreError, FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    if (options.persistSession === false) {
      return yield* new OptionsError({
        reason: "Conflict",
        detail: "persistSession: false cannot be used with a SessionStore: the CLI mirrors the transcript it " +
          "writes locally. Drop persistSession, or give the CLI a private CLAUDE_CONFIG_DIR (in env) to keep no " +
          "lasting local copy"
      })
    }
    if (options.enableFileCheckpointing === true) {
      return yield* new OptionsError({
        reason: "Conflict",
        detail: "enableFileCheckpointing cannot be used with a SessionStore: file backups are not mirrored, so " +
          "rewindFiles would fail after a resume from the store. Drop one of the two"
      })
    }
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const env = Mapping.toEnv(options, process.env)
    const home = InternalSessionStore.homeDir(env)
    const configDir = InternalSessionStore.configDir(env)

    // Every read of a resume is bounded: a store that does not answer fails the session instead of hanging it.
    const loadTimeout = settings.loadTimeout
    const bounded = <A>(
      operation: "load" | "listSessions" | "listSubkeys",
      read: Effect.Effect<A, SessionStoreError>
    ): Effect.Effect<A, SessionStoreError> =>
      Effect.timeoutOrElse(read, {
        duration: loadTimeout,
        orElse: () =>
          Effect.fail(
            new SessionStoreError({
              operation,
              reason: "Timeout",
              detail: `no answer within ${Duration.format(loadTimeout)} while resuming from the store ` +
                "(the loadTimeoutMs option); check the store, or raise the bound"
            })
          )
      })
    const reads: StoreReads = {
      load: (ref) => bounded("load", store.load(ref)),
      listSubkeys: (ref) => bounded("listSubkeys", store.listSubkeys(ref)),
      listSessions: (projectKey) => bounded("listSessions", store.listSessions(projectKey))
    }

    let resolved: ClaudeOptions.Options = { ...options, extraArgs: { ...options.extraArgs, "session-mirror": null } }
    let materialized: string | undefined
    if (options.resume !== undefined || options.continue === true) {
      const cwd = yield* fs.realPath(options.cwd ?? process.cwd()).pipe(
        Effect.orElseSucceed(() => path.resolve(options.cwd ?? "."))
      )
      const projectKey = InternalSessionStore.projectKey(cwd, env)
      let sessionId = options.resume
      if (sessionId === undefined) {
        // `continue` with a store: the project's most recent session in the store, else a new session.
        const sessions = yield* reads.listSessions(projectKey)
        const newest = [...sessions].sort((a, b) => b.mtime - a.mtime)[0]
        sessionId = newest?.sessionId
        const { continue: _continue, ...rest } = resolved
        resolved = sessionId === undefined ? rest : { ...rest, resume: sessionId }
      }
      if (sessionId !== undefined) {
        materialized = yield* materialize(reads, { projectKey, sessionId }, { configDir, home, env })
        if (materialized !== undefined) {
          resolved = { ...resolved, env: { ...resolved.env, CLAUDE_CONFIG_DIR: materialized } }
        }
      }
    }
    const mirror = yield* Mirror.make({
      store,
      configDir: materialized ?? configDir,
      eager: settings.sessionStoreFlush === "eager",
      // The session's own secrets (its logs' and errors'), from the environment the CLI gets.
      redactor: settings.sessionStoreRedaction === "none"
        ? Redaction.none
        : Redaction.make(Secrets.secretValues(options, env))
    })
    return { options: resolved, mirror }
  })

/** The store's reads a resume makes, each bounded by `loadTimeoutMs`. */
type StoreReads = Pick<SessionStore.SessionStore, "load" | "listSubkeys" | "listSessions">

/**
 * Writes the stored transcript of `ref` (and its subagent transcripts) into a
 * new configuration directory, removed when the scope closes; nothing when the
 * store has no transcript for it (the CLI then resumes from its own files).
 */
const materialize = (
  store: StoreReads,
  ref: SessionStore.SessionRef,
  config: {
    readonly configDir: string
    readonly home: string
    readonly env: Readonly<Record<string, string | undefined>>
  }
): Effect.Effect<string | undefined, SessionStoreError, FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    const entries = yield* store.load(ref)
    if (Option.isNone(entries) || entries.value.length === 0) return undefined
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const unavailable = (detail: string) => (cause: unknown) =>
      new SessionStoreError({ operation: "load", reason: "Unavailable", detail, cause })
    const dir = yield* fs.makeTempDirectoryScoped({ prefix: "claude-resume-" }).pipe(
      Effect.mapError(unavailable("no temporary directory to write the transcript to"))
    )
    const sessionDir = path.join(dir, "projects", ref.projectKey)
    const write = (file: string, entries: ReadonlyArray<SessionStore.Entry>) =>
      Effect.andThen(
        fs.makeDirectory(path.dirname(file), { recursive: true }),
        fs.writeFileString(file, entries.map((entry) => JSON.stringify(entry)).join("\n") + "\n", { mode: 0o600 })
      ).pipe(Effect.mapError(unavailable(`cannot write ${file}`)))
    yield* write(path.join(sessionDir, `${ref.sessionId}.jsonl`), entries.value)

    // The user's own files come along (when there are any), so that the resumed CLI runs as the user.
    const copy = (from: string, to: string) =>
      fs.copyFile(from, to).pipe(
        Effect.catchIf(
          (error) => error.reason._tag === "NotFound",
          () => Effect.void
        ),
        Effect.mapError(unavailable(`cannot copy ${from} into the resume directory`))
      )
    for (const name of CONFIG_FILES) yield* copy(path.join(config.configDir, name), path.join(dir, name))
    const ownConfigDir = config.env.CLAUDE_CONFIG_DIR !== undefined && config.env.CLAUDE_CONFIG_DIR !== ""
    yield* copy(
      path.join(ownConfigDir ? config.configDir : config.home, ".claude.json"),
      path.join(dir, ".claude.json")
    )

    // Subagent transcripts, under the session's own directory; their metadata line beside them.
    for (const subpath of yield* store.listSubkeys(ref)) {
      const stored = yield* store.load({ ...ref, subpath })
      if (Option.isNone(stored)) continue
      const base = path.join(sessionDir, ref.sessionId, ...subpath.split("/"))
      const lines = stored.value.filter((entry) => entry.type !== "agent_metadata")
      const metadata = stored.value.filter((entry) => entry.type === "agent_metadata").at(-1)
      if (lines.length > 0) yield* write(`${base}.jsonl`, lines)
      if (metadata !== undefined) {
        const { type: _type, ...fields } = metadata
        yield* fs.writeFileString(`${base}.meta.json`, JSON.stringify(fields), { mode: 0o600 }).pipe(
          Effect.mapError(unavailable(`cannot write ${base}.meta.json`))
        )
      }
    }
    return dir
  })
