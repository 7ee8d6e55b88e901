/**
 * Where session transcripts live beyond one machine: the official SDK's
 * `sessionStore` adapter as an Effect service.
 *
 * With a `SessionStore` in the context, every session started there mirrors
 * its transcript to the store (the CLI's `--session-mirror`: it still writes
 * its local JSONL file, and reports each batch of lines it wrote as a
 * `transcript_mirror` frame, which the SDK appends to the store). Batches are
 * flushed at the end of each turn, before its `result` reaches the consumer,
 * so a turn whose result was seen is in the store. A batch the store refused
 * is retried, then kept and sent again at the next turn's end (entries are
 * keyed by `uuid`, so a batch sent twice is stored once), and the consumer
 * sees a `system` message with subtype `mirror_error` — never a silent loss.
 *
 * `resume` (or `continue`) with a store in the context resumes from the
 * store: the transcript is loaded and written to a private configuration
 * directory for the CLI, which then resumes it as if it had written it — on
 * a machine that never saw the session.
 *
 * ```ts
 * import { ClaudeCode, SessionStore } from "@claude-effect/sdk"
 *
 * const firstMachine = ClaudeCode.result("Remember: the code word is plum").pipe(
 *   Effect.provide(SessionStore.layerMemory)
 * )
 * // elsewhere, with the same store: ClaudeCode.session({ resume: sessionId })
 * ```
 *
 * The contract is the official adapter's: `append` batches by key, `load`
 * for resume, `listSessions` of a project, `delete`, `listSubkeys` for
 * subagent transcripts. An implementation is made with {@link make}, which
 * checks keys and entries before the implementation sees them.
 * `SqlSessionStore` (package `@claude-effect/sql`) keeps transcripts in
 * SQLite or PostgreSQL.
 *
 * @since 0.1.0
 */
import type * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import type { SessionStoreError } from "./internal/claudeError.js"
import * as internal from "./internal/sessionStore.js"

/**
 * @since 0.1.0
 * @category Type Ids
 */
export const TypeId: unique symbol = internal.TypeId

/**
 * @since 0.1.0
 * @category Type Ids
 */
export type TypeId = typeof TypeId

/**
 * The session store service: what every store offers, keys and entries
 * checked.
 *
 * @since 0.1.0
 * @category Models
 */
export interface SessionStore extends SessionStore.Implementation {
  readonly [TypeId]: TypeId
}

/**
 * @since 0.1.0
 */
export declare namespace SessionStore {
  /**
   * What a store implements (see {@link make}). Each call gets a checked key.
   *
   * @since 0.1.0
   * @category Models
   */
  export interface Implementation {
    /**
     * Stores a batch of transcript lines under `key`, after those already
     * there, in order. An entry with a `uuid` already stored under `key` is
     * skipped (a batch sent again is stored once); one without is appended.
     */
    readonly append: (key: SessionKey, entries: ReadonlyArray<Entry>) => Effect.Effect<void, SessionStoreError>
    /** The whole transcript under `key`, deep-equal to what was appended; `None` when nothing was. */
    readonly load: (key: SessionKey) => Effect.Effect<Option.Option<ReadonlyArray<Entry>>, SessionStoreError>
    /** The main transcripts of a project, with their last write time (epoch ms), in no order. */
    readonly listSessions: (projectKey: string) => Effect.Effect<ReadonlyArray<SessionInfo>, SessionStoreError>
    /** Removes the transcript under `key`; for a main transcript, its subagent transcripts too. */
    readonly delete: (key: SessionKey) => Effect.Effect<void, SessionStoreError>
    /** The subpaths stored under a session (its subagent transcripts), in no order. */
    readonly listSubkeys: (key: SessionRef) => Effect.Effect<ReadonlyArray<string>, SessionStoreError>
  }
}

/**
 * @since 0.1.0
 * @category Tags
 */
export const SessionStore: Context.Service<SessionStore, SessionStore> = internal.tag

/**
 * Where one transcript is kept: a project (by default the CLI's directory
 * name for the working directory, see {@link projectKey}), a session, and
 * for a subagent's transcript the subpath under the session
 * (`subagents/agent-<id>`). Names are single path segments: no `/`, `\`,
 * `.` or `..`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SessionKey: Schema.Codec<SessionKey> = internal.SessionKey

/**
 * @since 0.1.0
 * @category Models
 */
export interface SessionKey extends SessionRef {
  /** Absent for the main transcript; never empty. */
  readonly subpath?: string | undefined
}

/**
 * A session of a project, without a subpath.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SessionRef: Schema.Codec<SessionRef> = internal.SessionRef

/**
 * @since 0.1.0
 * @category Models
 */
export interface SessionRef {
  readonly projectKey: string
  readonly sessionId: string
}

/**
 * One line of a transcript: a JSON object with a string `type`, usually a
 * `uuid` and a `timestamp`; everything else is kept as it is.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Entry: Schema.Codec<Entry> = internal.Entry

/**
 * @since 0.1.0
 * @category Models
 */
export interface Entry {
  readonly type: string
  readonly uuid?: string | undefined
  readonly timestamp?: string | undefined
  readonly [key: string]: unknown
}

/**
 * @since 0.1.0
 * @category Schemas
 */
export const SessionInfo: Schema.Codec<SessionInfo> = internal.SessionInfo

/**
 * @since 0.1.0
 * @category Models
 */
export interface SessionInfo {
  readonly sessionId: string
  /** When the session was last written to, epoch milliseconds. */
  readonly mtime: number
}

/**
 * The frame the CLI writes for each batch of transcript lines when it runs
 * with `--session-mirror`: the local file it appended to, and the lines.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const TranscriptMirror: Schema.Codec<TranscriptMirror> = internal.TranscriptMirror

/**
 * @since 0.1.0
 * @category Models
 */
export interface TranscriptMirror {
  readonly type: "transcript_mirror"
  readonly filePath: string
  readonly entries: ReadonlyArray<Entry>
}

/**
 * A store over an implementation: every call's key is checked (a bad one
 * fails with `SessionStoreError` `InvalidKey`, naming the field), `append`'s
 * entries too (`InvalidEntry`), and an empty batch is not passed on.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (implementation: SessionStore.Implementation) => SessionStore = internal.make

/**
 * A store in this process's memory, for tests and for trying things out: a
 * transcript lives as long as the store.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const makeMemory: Effect.Effect<SessionStore> = internal.makeMemory

/**
 * @since 0.1.0
 * @category Layers
 */
export const layerMemory: Layer.Layer<SessionStore> = Layer.effect(SessionStore, makeMemory)

/**
 * The project key the CLI files a session under, for a resolved (real)
 * working directory: its path with every character other than a letter or
 * digit made `-` (long paths cut at 200 and suffixed with a hash), or the
 * environment's `CLAUDE_CODE_PROJECT_DIR_NAME` when it sets one together
 * with `CLAUDE_CONFIG_DIR` (a tenant's name, so that its sessions are found
 * whatever directory a machine runs them in).
 *
 * @since 0.1.0
 * @category Keys
 */
export const projectKey: (resolvedCwd: string, env?: Readonly<Record<string, string | undefined>>) => string =
  internal.projectKey

/**
 * The directory a CLI run with this environment keeps its configuration and
 * transcripts in (`<configDir>/projects/<projectKey>/<sessionId>.jsonl`):
 * `CLAUDE_CONFIG_DIR` when it is set and not empty, else `.claude` in `HOME`.
 *
 * @since 0.1.0
 * @category Keys
 */
export const configDir: (env: Readonly<Record<string, string | undefined>>) => string = internal.configDir
