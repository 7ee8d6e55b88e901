/**
 * The session store's tag, schemas, key checks and in-memory store, behind
 * the public `SessionStore` module.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as Path from "node:path"
import type * as SessionStore from "../SessionStore.js"
import * as AnswerIssues from "./answerIssues.js"
import { SessionStoreError } from "./claudeError.js"
import { validatorFor } from "./protocol/validator.js"

/** @internal */
export const TypeId: SessionStore.TypeId = Symbol.for("@claude-effect/sdk/SessionStore") as SessionStore.TypeId

/** @internal */
export const tag = Context.Service<SessionStore.SessionStore>("@claude-effect/sdk/SessionStore")

// -----------------------------------------------------------------------------
// schemas
// -----------------------------------------------------------------------------

const SEPARATORS = /[/\\\0]/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

// Databases store a lone surrogate as U+FFFD, so two such names would become one.
const wellFormed = (what: string, value: string): true | string =>
  LONE_SURROGATE.test(value)
    ? `${what} must be well-formed Unicode (it has a lone surrogate), got ${JSON.stringify(value)}`
    : true

/** One name of a key: it becomes a directory or file name when a transcript is materialized. */
const keyName = (what: string) =>
  Schema.String.check(Schema.makeFilter((value: string) =>
    value.length === 0
      ? `${what} must not be empty`
      : value.length > 255
      ? `${what} must be at most 255 characters (it has ${value.length})`
      : SEPARATORS.test(value)
      ? `${what} must not contain "/", "\\" or NUL (it names one directory), got ${JSON.stringify(value)}`
      : value === "." || value === ".."
      ? `${what} must not be "." or ".."`
      : wellFormed(what, value)
  ))

/** @internal */
export const ProjectKey = keyName("a project key").annotate({ identifier: "ProjectKey" })

/** @internal */
export const SessionId = keyName("a session id").annotate({ identifier: "SessionId" })

/** @internal */
export const Subpath = Schema.String.check(Schema.makeFilter((value: string) => {
  if (value.length === 0) return "a subpath must not be empty (omit it for the main transcript)"
  if (value.includes("\\") || value.includes("\0")) return `a subpath must not contain "\\" or NUL, got ${value}`
  const segments = value.split("/")
  return segments.every((segment) => segment.length > 0 && segment !== "." && segment !== "..")
    ? wellFormed("a subpath", value)
    : `a subpath is relative, made of names separated by "/", without "." or "..", got ${JSON.stringify(value)}`
})).annotate({ identifier: "Subpath" })

const sessionRef = { projectKey: ProjectKey, sessionId: SessionId }

/** @internal */
export const SessionKey = Schema.Struct({ ...sessionRef, subpath: Schema.optional(Subpath) }).annotate({
  identifier: "SessionKey"
})

/** @internal */
export const SessionRef = Schema.Struct(sessionRef).annotate({ identifier: "SessionRef" })

/** An entry's uuid is a key column of the SQL stores: NUL is refused by PostgreSQL and cut off by SQLite. */
const EntryUuid = Schema.String.check(Schema.makeFilter((value: string) =>
  value.includes("\0")
    ? `an entry's uuid must not contain NUL, got ${JSON.stringify(value)}`
    : wellFormed("an entry's uuid", value)
))

/** @internal */
export const Entry = Schema.StructWithRest(
  Schema.Struct({
    type: Schema.String,
    uuid: Schema.optional(EntryUuid),
    timestamp: Schema.optional(Schema.String)
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
).annotate({ identifier: "SessionStoreEntry" })

/** @internal */
export const SessionInfo = Schema.Struct({
  sessionId: Schema.String,
  mtime: Schema.Number
}).annotate({ identifier: "SessionInfo" })

/** @internal */
export const TranscriptMirror = Schema.Struct({
  type: Schema.Literal("transcript_mirror"),
  filePath: Schema.String,
  entries: Schema.Array(Entry)
}).annotate({ identifier: "TranscriptMirror" })

// -----------------------------------------------------------------------------
// checks
// -----------------------------------------------------------------------------

type Operation = SessionStoreError["operation"]

const decodeKey = Schema.decodeUnknownResult(SessionKey)
const decodeRef = Schema.decodeUnknownResult(SessionRef)
const decodeProject = Schema.decodeUnknownResult(ProjectKey)
// In place: the entries themselves when they are valid, every field kept (effect 4 has no "preserve").
const validateEntries = validatorFor(Schema.Array(Entry))

const invalid = (operation: Operation, reason: "InvalidKey" | "InvalidEntry", subject: string) =>
(
  issue: SchemaIssue.Issue
) =>
  new SessionStoreError({
    operation,
    reason,
    detail: AnswerIssues.format(issue, subject)
  })

const check = <A>(
  result: Result.Result<A, Schema.SchemaError>,
  onIssue: (issue: SchemaIssue.Issue) => SessionStoreError
): Effect.Effect<A, SessionStoreError> =>
  Result.isSuccess(result) ? Effect.succeed(result.success) : Effect.fail(onIssue(result.failure.issue))

/** @internal */
export const checkKey = (
  operation: Operation,
  key: unknown
): Effect.Effect<SessionStore.SessionKey, SessionStoreError> =>
  check(decodeKey(key), invalid(operation, "InvalidKey", "the key"))

/** @internal */
export const checkRef = (
  operation: Operation,
  key: unknown
): Effect.Effect<SessionStore.SessionRef, SessionStoreError> =>
  check(decodeRef(key), invalid(operation, "InvalidKey", "the key"))

/** @internal */
export const checkProjectKey = (operation: Operation, projectKey: unknown): Effect.Effect<string, SessionStoreError> =>
  check(decodeProject(projectKey), invalid(operation, "InvalidKey", "the project key"))

/** @internal */
export const checkEntries = (
  entries: unknown
): Effect.Effect<ReadonlyArray<SessionStore.Entry>, SessionStoreError> => {
  const valid = validateEntries(entries)
  return Result.isSuccess(valid)
    ? Effect.succeed(valid.success)
    : Effect.fail(invalid("append", "InvalidEntry", "the entries")(valid.failure))
}

/**
 * A store whose every call checks its key (and, for `append`, its entries)
 * first: an implementation sees valid input only, and a caller gets an
 * `InvalidKey` that names the field, whichever store it uses.
 *
 * @internal
 */
export const make = (implementation: SessionStore.SessionStore.Implementation): SessionStore.SessionStore => ({
  [TypeId]: TypeId,
  append: (key, entries) =>
    Effect.flatMap(
      Effect.zip(checkKey("append", key), checkEntries(entries)),
      ([key, entries]) => entries.length === 0 ? Effect.void : implementation.append(key, entries)
    ),
  load: (key) => Effect.flatMap(checkKey("load", key), implementation.load),
  listSessions: (projectKey) =>
    Effect.flatMap(checkProjectKey("listSessions", projectKey), implementation.listSessions),
  delete: (key) => Effect.flatMap(checkKey("delete", key), implementation.delete),
  listSubkeys: (key) => Effect.flatMap(checkRef("listSubkeys", key), implementation.listSubkeys)
})

// -----------------------------------------------------------------------------
// project keys
// -----------------------------------------------------------------------------

const MAX_SANITIZED = 200

// The CLI's own hash for long project paths (djb2 over UTF-16 code units, base 36).
const djb2 = (value: string): string => {
  let hash = 0
  for (let i = 0; i < value.length; i++) hash = ((hash << 5) - hash + value.charCodeAt(i)) | 0
  return Math.abs(hash).toString(36)
}

const PROJECT_DIR_NAME = /^[A-Za-z0-9_-]{1,64}$/
const RESERVED = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i

/**
 * The project key the CLI files a session under: its `projects/` directory
 * name for the (resolved) working directory, or `CLAUDE_CODE_PROJECT_DIR_NAME`
 * when the environment sets it together with `CLAUDE_CONFIG_DIR`.
 *
 * @internal
 */
export const projectKey = (resolvedCwd: string, env: Readonly<Record<string, string | undefined>> = {}): string => {
  const named = env.CLAUDE_CODE_PROJECT_DIR_NAME
  if (
    env.CLAUDE_CONFIG_DIR !== undefined && env.CLAUDE_CONFIG_DIR !== "" && named !== undefined &&
    PROJECT_DIR_NAME.test(named) && !RESERVED.test(named)
  ) return named
  const sanitized = resolvedCwd.replace(/[^a-zA-Z0-9]/g, "-")
  return sanitized.length <= MAX_SANITIZED ? sanitized : `${sanitized.slice(0, MAX_SANITIZED)}-${djb2(resolvedCwd)}`
}

/**
 * The CLI's configuration directory for an environment: `CLAUDE_CONFIG_DIR`
 * when set and not empty, else `.claude` in its home.
 *
 * @internal
 */
export const configDir = (env: Readonly<Record<string, string | undefined>>): string =>
  env.CLAUDE_CONFIG_DIR !== undefined && env.CLAUDE_CONFIG_DIR !== ""
    ? env.CLAUDE_CONFIG_DIR
    : Path.join(homeDir(env), ".claude")

/** @internal */
export const homeDir = (env: Readonly<Record<string, string | undefined>>): string =>
  env.HOME ?? env.USERPROFILE ?? process.env.HOME ?? "/"

// -----------------------------------------------------------------------------
// in memory
// -----------------------------------------------------------------------------

const keyString = (key: SessionStore.SessionKey): string =>
  key.subpath === undefined ? `${key.projectKey}/${key.sessionId}` : `${key.projectKey}/${key.sessionId}/${key.subpath}`

/** @internal */
export const makeMemory: Effect.Effect<SessionStore.SessionStore> = Effect.sync(() => {
  const transcripts = new Map<string, Array<SessionStore.Entry>>()
  const seen = new Map<string, Set<string>>()
  const mtimes = new Map<string, number>()
  let lastMtime = 0
  // Entries are kept as JSON, as a database keeps them: what is loaded is a copy, deep-equal to what was appended.
  const copy = (entry: SessionStore.Entry): SessionStore.Entry => JSON.parse(JSON.stringify(entry))
  return make({
    append: (key, entries) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const id = keyString(key)
        const transcript = transcripts.get(id) ?? []
        const uuids = seen.get(id) ?? new Set<string>()
        for (const entry of entries) {
          if (entry.uuid !== undefined) {
            if (uuids.has(entry.uuid)) continue
            uuids.add(entry.uuid)
          }
          transcript.push(copy(entry))
        }
        transcripts.set(id, transcript)
        seen.set(id, uuids)
        lastMtime = Math.max(now, lastMtime + 1)
        mtimes.set(id, lastMtime)
      }),
    load: (key) =>
      Effect.sync(() =>
        Option.map(Option.fromNullishOr(transcripts.get(keyString(key))), (entries) => entries.map(copy))
      ),
    listSessions: (projectKey) =>
      Effect.sync(() => {
        const prefix = `${projectKey}/`
        const sessions: Array<SessionStore.SessionInfo> = []
        for (const [id, mtime] of mtimes) {
          if (!id.startsWith(prefix)) continue
          const rest = id.slice(prefix.length)
          if (!rest.includes("/")) sessions.push({ sessionId: rest, mtime })
        }
        return sessions
      }),
    delete: (key) =>
      Effect.sync(() => {
        const id = keyString(key)
        const doomed = [
          id,
          ...(key.subpath === undefined
            ? [...transcripts.keys()].filter((k) => k.startsWith(`${id}/`))
            : [])
        ]
        for (const k of doomed) {
          transcripts.delete(k)
          seen.delete(k)
          mtimes.delete(k)
        }
      }),
    listSubkeys: (key) =>
      Effect.sync(() => {
        const prefix = `${key.projectKey}/${key.sessionId}/`
        return [...transcripts.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length))
      })
  })
})
