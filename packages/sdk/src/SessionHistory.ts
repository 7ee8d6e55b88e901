/**
 * The sessions the Claude Code CLI has kept on disk: list them, read their
 * conversations and their subagents', rename, tag, archive, delete and fork
 * them. The same operations as the official Agent SDK's `listSessions`,
 * `getSessionInfo`, `getSessionMessages`, `listSubagents`,
 * `getSubagentMessages`, `renameSession`, `tagSession`, `deleteSession`,
 * `archiveSession`, `unarchiveSession` and `forkSession`, over the same files.
 *
 * ```ts
 * const recent = SessionHistory.listSessions({ dir: process.cwd(), limit: 10 })
 * const said = SessionHistory.getSessionMessages(sessionId).pipe(Stream.runCollect)
 * program.pipe(Effect.provide(SessionHistory.layer()), Effect.provide(NodeServices.layer))
 * ```
 *
 * Where the transcripts are: `<config>/projects/<project>/<sessionId>.jsonl`,
 * where `<config>` is `CLAUDE_CONFIG_DIR` or `~/.claude` (as for the CLI:
 * give {@link Options.configDir} when the CLI runs with another one) and
 * `<project>` is the session's working directory with every character but
 * ASCII letters and digits turned into `-`.
 *
 * The messages are decoded with the `Protocol` schemas into the shapes
 * `ClaudeCode.query` streams (`Protocol.AssistantMessage`,
 * `Protocol.UserMessage`, `Protocol.SystemMessage`); an entry that does not
 * decode is an {@link UndecodedEntry}, never a failure.
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import type * as Path from "effect/Path"
import * as Stream from "effect/Stream"
import type { SessionStoreError } from "./internal/claudeError.js"
import * as internal from "./internal/sessionHistory.js"
import type { SessionHistoryError, SessionInfo, SessionMessage, SubagentInfo } from "./internal/sessionHistoryModel.js"
import * as SessionStore from "./SessionStore.js"

export {
  InvalidArgumentError,
  type SessionHistoryError,
  SessionInfo,
  SessionMessage,
  SessionNotFoundError,
  SubagentInfo,
  TranscriptError,
  UndecodedEntry
} from "./internal/sessionHistoryModel.js"

// -------------------------------------------------------------------------------------------------
// Options
// -------------------------------------------------------------------------------------------------

/**
 * Options of {@link make} and {@link layer}.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /**
   * The CLI's configuration directory, which holds `projects/`. Default:
   * `CLAUDE_CONFIG_DIR` (read through the `ConfigProvider`), else
   * `~/.claude`. Give it when the sessions were run with another
   * `CLAUDE_CONFIG_DIR` in their `env`.
   */
  readonly configDir?: string | undefined
}

/**
 * Which project's sessions: the working directory the sessions ran in. Without
 * it every project is searched.
 *
 * @since 0.1.0
 * @category Models
 */
export interface SessionOptions {
  readonly dir?: string | undefined
}

/**
 * Options of {@link SessionHistory.Service.listSessions}.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ListSessionsOptions extends SessionOptions {
  /** At most this many sessions (all by default). */
  readonly limit?: number | undefined
  /** Skip this many of the newest sessions first (default 0). */
  readonly offset?: number | undefined
  /**
   * Include the sessions programs started (SDK entrypoints, daemons); default
   * `true`. `false` lists what the CLI's `/resume` lists.
   */
  readonly includeProgrammatic?: boolean | undefined
}

/**
 * Options of {@link SessionHistory.Service.getSessionMessages}.
 *
 * @since 0.1.0
 * @category Models
 */
export interface GetSessionMessagesOptions extends SessionOptions {
  /** Also the system messages of the conversation (compaction boundaries, notices); default `false`. */
  readonly includeSystemMessages?: boolean | undefined
}

/**
 * Options of {@link SessionHistory.Service.forkSession}.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ForkSessionOptions extends SessionOptions {
  /**
   * Copy up to and including the entry with this uuid (a message's `uuid`
   * from `getSessionMessages`); the whole session by default.
   */
  readonly upToMessageId?: string | undefined
  /** The fork's title; default: the session's title with ` (fork)`. */
  readonly title?: string | undefined
}

/**
 * What {@link SessionHistory.Service.forkSession} returns.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ForkSessionResult {
  /** The new session's id: resume it with `ClaudeCode.session({ resume: sessionId })`. */
  readonly sessionId: string
}

// -------------------------------------------------------------------------------------------------
// Service
// -------------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category Tags
 */
export class SessionHistory extends Context.Service<SessionHistory, SessionHistory.Service>()(
  "@claude-effect/sdk/SessionHistory"
) {}

/**
 * @since 0.1.0
 */
export declare namespace SessionHistory {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /** The configuration directory read. */
    readonly configDir: string
    /** `<configDir>/projects`: one directory per project, one transcript per session. */
    readonly projectsDir: string
    /** The directory that holds (or will hold) the sessions of a working directory. */
    readonly projectDirectory: (dir: string) => Effect.Effect<string>
    /**
     * The sessions, newest first (by the time their transcript was last
     * written). A transcript that cannot be read is left out; the others are
     * still listed.
     */
    readonly listSessions: (options?: ListSessionsOptions) => Effect.Effect<ReadonlyArray<SessionInfo>>
    /** One session. */
    readonly getSessionInfo: (
      sessionId: string,
      options?: SessionOptions
    ) => Effect.Effect<SessionInfo, SessionHistoryError>
    /**
     * The conversation of a session, in order: its user and assistant
     * messages (tool calls and their results among them), as the model saw
     * them when the session last ran.
     */
    readonly getSessionMessages: (
      sessionId: string,
      options?: GetSessionMessagesOptions
    ) => Stream.Stream<SessionMessage, SessionHistoryError>
    /** The subagents that ran in a session. */
    readonly listSubagents: (
      sessionId: string,
      options?: SessionOptions
    ) => Effect.Effect<ReadonlyArray<SubagentInfo>, SessionHistoryError>
    /**
     * The conversation of a subagent: its prompt, its tool calls and results,
     * its answer. `parent_tool_use_id` is the parent's `Agent` tool_use.
     */
    readonly getSubagentMessages: (
      sessionId: string,
      agentId: string,
      options?: SessionOptions
    ) => Stream.Stream<SessionMessage, SessionHistoryError>
    /**
     * Sets a session's title: a `custom-title` entry appended to its
     * transcript, as the CLI's `/rename` does. `resume` then also takes the
     * title.
     */
    readonly renameSession: (
      sessionId: string,
      title: string,
      options?: SessionOptions
    ) => Effect.Effect<void, SessionHistoryError>
    /** Sets a session's tag (`null` clears it): a `tag` entry appended to its transcript. */
    readonly tagSession: (
      sessionId: string,
      tag: string | null,
      options?: SessionOptions
    ) => Effect.Effect<void, SessionHistoryError>
    /** Deletes a session's transcript and its directory (subagent transcripts, marks). */
    readonly deleteSession: (sessionId: string, options?: SessionOptions) => Effect.Effect<void, SessionHistoryError>
    /**
     * Marks a session archived (`<sessionId>/archived.json` beside the
     * transcript). It is still listed, with `archived: true`, and still
     * resumable; a prompt sent in it later unarchives it.
     */
    readonly archiveSession: (sessionId: string, options?: SessionOptions) => Effect.Effect<void, SessionHistoryError>
    /** Marks a session not archived. */
    readonly unarchiveSession: (sessionId: string, options?: SessionOptions) => Effect.Effect<void, SessionHistoryError>
    /**
     * Copies a session (or its beginning) into a new session in the same
     * project: every entry gets a fresh uuid and the new session id, the
     * chain between them is kept, and the copy is titled. The CLI resumes it
     * like any session. Subagent transcripts and file-history snapshots are
     * not copied.
     */
    readonly forkSession: (
      sessionId: string,
      options?: ForkSessionOptions
    ) => Effect.Effect<ForkSessionResult, SessionHistoryError>
    /**
     * Copies a session's local transcript (and, by default, its subagents'
     * transcripts with their metadata) into a `SessionStore`, under the keys
     * a mirrored session would have, in batches of `batchSize` entries: a
     * session that ran without a store can then be resumed from it anywhere.
     * Lines that are not JSON objects with a `type` are skipped. Importing a
     * session the store already holds appends its lines again (those with a
     * `uuid` are stored once). Entries are redacted as a session's mirror
     * redacts them (see {@link ImportSessionOptions.redaction}).
     */
    readonly importSessionToStore: (
      sessionId: string,
      store: SessionStore.SessionStore,
      options?: ImportSessionOptions
    ) => Effect.Effect<void, SessionHistoryError | SessionStoreError>
  }
}

/**
 * Options of {@link SessionHistory.Service.importSessionToStore}.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ImportSessionOptions extends SessionOptions {
  /** Also copy the subagents' transcripts (default `true`). */
  readonly includeSubagents?: boolean | undefined
  /** How many entries one `append` carries at most (default 500). */
  readonly batchSize?: number | undefined
  /**
   * What the store gets hidden, as a session's `sessionStoreRedaction`: `"secrets"` (the default) replaces the
   * values of this process's secret-looking environment variables and the values in `secrets` by
   * `<redacted>`; `"none"` stores the entries as the CLI wrote them.
   */
  readonly redaction?: "secrets" | "none" | undefined
  /** More values to hide in the stored entries (values shorter than 6 characters are ignored). */
  readonly secrets?: ReadonlyArray<string> | undefined
}

// -------------------------------------------------------------------------------------------------
// Constructors and layers
// -------------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category Constructors
 */
export const make: (
  options?: Options
) => Effect.Effect<SessionHistory.Service, never, FileSystem.FileSystem | Path.Path> = internal.make

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (
  options?: Options
): Layer.Layer<SessionHistory, never, FileSystem.FileSystem | Path.Path> => Layer.effect(SessionHistory, make(options))

/**
 * The options from configuration, e.g.
 * `SessionHistory.layerConfig({ configDir: Config.String("AGENT_CONFIG_DIR") })`.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerConfig = (
  options: Config.Wrap<Options>
): Layer.Layer<SessionHistory, Config.ConfigError, FileSystem.FileSystem | Path.Path> =>
  Layer.effect(SessionHistory, Effect.flatMap(Config.unwrap<Options>(options), make))

// -------------------------------------------------------------------------------------------------
// Accessors
// -------------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category Accessors
 */
export const listSessions = (
  options?: ListSessionsOptions
): Effect.Effect<ReadonlyArray<SessionInfo>, never, SessionHistory> =>
  SessionHistory.use((history) => history.listSessions(options))

/**
 * @since 0.1.0
 * @category Accessors
 */
export const getSessionInfo = (
  sessionId: string,
  options?: SessionOptions
): Effect.Effect<SessionInfo, SessionHistoryError, SessionHistory> =>
  SessionHistory.use((history) => history.getSessionInfo(sessionId, options))

/**
 * @since 0.1.0
 * @category Accessors
 */
export const getSessionMessages = (
  sessionId: string,
  options?: GetSessionMessagesOptions
): Stream.Stream<SessionMessage, SessionHistoryError, SessionHistory> =>
  Stream.unwrap(SessionHistory.useSync((history) => history.getSessionMessages(sessionId, options)))

/**
 * @since 0.1.0
 * @category Accessors
 */
export const listSubagents = (
  sessionId: string,
  options?: SessionOptions
): Effect.Effect<ReadonlyArray<SubagentInfo>, SessionHistoryError, SessionHistory> =>
  SessionHistory.use((history) => history.listSubagents(sessionId, options))

/**
 * @since 0.1.0
 * @category Accessors
 */
export const getSubagentMessages = (
  sessionId: string,
  agentId: string,
  options?: SessionOptions
): Stream.Stream<SessionMessage, SessionHistoryError, SessionHistory> =>
  Stream.unwrap(SessionHistory.useSync((history) => history.getSubagentMessages(sessionId, agentId, options)))

/**
 * @since 0.1.0
 * @category Accessors
 */
export const renameSession = (
  sessionId: string,
  title: string,
  options?: SessionOptions
): Effect.Effect<void, SessionHistoryError, SessionHistory> =>
  SessionHistory.use((history) => history.renameSession(sessionId, title, options))

/**
 * @since 0.1.0
 * @category Accessors
 */
export const tagSession = (
  sessionId: string,
  tag: string | null,
  options?: SessionOptions
): Effect.Effect<void, SessionHistoryError, SessionHistory> =>
  SessionHistory.use((history) => history.tagSession(sessionId, tag, options))

/**
 * @since 0.1.0
 * @category Accessors
 */
export const deleteSession = (
  sessionId: string,
  options?: SessionOptions
): Effect.Effect<void, SessionHistoryError, SessionHistory> =>
  SessionHistory.use((history) => history.deleteSession(sessionId, options))

/**
 * @since 0.1.0
 * @category Accessors
 */
export const archiveSession = (
  sessionId: string,
  options?: SessionOptions
): Effect.Effect<void, SessionHistoryError, SessionHistory> =>
  SessionHistory.use((history) => history.archiveSession(sessionId, options))

/**
 * @since 0.1.0
 * @category Accessors
 */
export const unarchiveSession = (
  sessionId: string,
  options?: SessionOptions
): Effect.Effect<void, SessionHistoryError, SessionHistory> =>
  SessionHistory.use((history) => history.unarchiveSession(sessionId, options))

/**
 * @since 0.1.0
 * @category Accessors
 */
export const forkSession = (
  sessionId: string,
  options?: ForkSessionOptions
): Effect.Effect<ForkSessionResult, SessionHistoryError, SessionHistory> =>
  SessionHistory.use((history) => history.forkSession(sessionId, options))

/**
 * Copies a session's local transcript into the `SessionStore` in context
 * (see {@link SessionHistory.Service.importSessionToStore}).
 *
 * @since 0.1.0
 * @category Accessors
 */
export const importSessionToStore = (
  sessionId: string,
  options?: ImportSessionOptions
): Effect.Effect<void, SessionHistoryError | SessionStoreError, SessionHistory | SessionStore.SessionStore> =>
  SessionHistory.use((history) =>
    SessionStore.SessionStore.use((store) => history.importSessionToStore(sessionId, store, options))
  )
