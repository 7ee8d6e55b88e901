/**
 * A multi-turn conversation with one CLI process, alive for the scope that
 * opened it (see `ClaudeCode.session`).
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type { ClaudeError, ControlError, ControlTimeoutError } from "./ClaudeError.js"
import type * as ControlRequest from "./ControlRequest.js"
import type * as McpServer from "./McpServer.js"
import type * as Protocol from "./Protocol.js"

/**
 * What can be sent as a user turn: text, content blocks, or a complete user
 * message.
 *
 * @since 0.1.0
 * @category Models
 */
export type Prompt = string | ReadonlyArray<Protocol.ContentBlockInput> | Protocol.UserInput

/**
 * @since 0.1.0
 * @category Models
 */
export type ControlFailure = ControlError | ControlTimeoutError

/**
 * How thinking is shown: summarized, omitted, or as one-line highlights (the
 * last only for Anthropic-hosted remote sessions).
 *
 * @since 0.1.0
 * @category Models
 */
export type ThinkingDisplay = "summarized" | "omitted" | "highlights"

/**
 * Settings as in a settings file (`permissions`, `env`, `model`, ...), kept
 * as JSON: the CLI validates them.
 *
 * @since 0.1.0
 * @category Models
 */
export type Settings = { readonly [key: string]: unknown }

/**
 * A plugin to load: a local directory.
 *
 * @since 0.1.0
 * @category Models
 */
export interface PluginConfig {
  readonly type: "local"
  /** The plugin's directory (absolute for `reloadPlugins`). */
  readonly path: string
  /** Load its skills, hooks, agents and commands, not its MCP servers. */
  readonly skipMcpDiscovery?: boolean | undefined
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface Session {
  /** The CLI's process id. */
  readonly pid: number
  /** The CLI's answer to the initialize request: commands, models, agents, account, ... */
  readonly initialization: Protocol.InitializeResponse
  /** The session id, once the CLI has announced it (after the first turn started). */
  readonly sessionId: Effect.Effect<string | undefined>
  /** Sends a user message. It runs as the next turn (or joins the running one). */
  readonly send: (prompt: Prompt) => Effect.Effect<void, ClaudeError>
  /** Sends a prompt and streams the messages of its turn, up to and including its `result`. */
  readonly turn: (prompt: Prompt) => Stream.Stream<Protocol.Message, ClaudeError>
  /** Streams the messages of the next turn, up to and including its `result`, without sending. */
  readonly receiveTurn: Stream.Stream<Protocol.Message, ClaudeError>
  /**
   * Sends a prompt, runs its turn to the `result` and returns it; the turn's
   * other messages are read (hooks, the permission gate and a session store
   * see them) but not kept. A result that reports an error (`is_error`, or an
   * error subtype such as `error_max_turns`) fails with a `ResultError`, as
   * `ClaudeCode.result` does. When only the result matters it costs less than
   * running `turn`'s stream: running any stream takes ~500 Effect runtime
   * steps of its own, about what a short turn's messages cost.
   */
  readonly result: (prompt: Prompt) => Effect.Effect<Protocol.ResultSuccess, ClaudeError>
  /**
   * Every message from now until the CLI exits. One consumer at a time.
   *
   * Messages arrive in chunks of what the CLI has written, at most 64 messages
   * each, and a chunk always ends at a turn's `result`: a consumer that stops
   * at the end of a turn (`turn`, `receiveTurn`, `Stream.takeUntil` on
   * results) leaves the next turn's messages for the next reader. One that
   * stops in the middle of a chunk (`Stream.take(n)`) drops the rest of that
   * chunk, as with any stream over a queue: to read part of a turn and
   * continue later, keep one reader.
   */
  readonly messages: Stream.Stream<Protocol.Message, ClaudeError>
  /** Ends the input: the CLI finishes what it is doing and exits. */
  readonly endInput: Effect.Effect<void>
  /**
   * The CLI's stderr, line by line, with the session's secrets redacted: the last 1,024 lines so far, then
   * each line as it comes; it ends when stderr closes (the CLI has exited). Any number of readers, each
   * with a buffer of 1,024 lines that slides: a reader that falls behind loses the oldest lines it has not
   * read, and never holds the CLI back. A line longer than 8 Ki characters is cut (ending in `…`). Empty
   * when the session's `CliProcess` came from the calling context.
   */
  readonly stderr: Stream.Stream<string>
  // ---------------------------------------------------------------------------
  // Control: the official SDK's `Query` methods, each one request of the table
  // (`ControlRequest.requests`). Every one fails with `ControlError` (reason
  // `ErrorResponse` when the CLI refuses, `InvalidResponse` when its reply does
  // not decode, `Closed` when it has exited) or `ControlTimeoutError`.
  // ---------------------------------------------------------------------------

  /**
   * Interrupts the running turn (its `result` has subtype
   * `error_during_execution`); the session stays usable. Answers the uuids of
   * queued user messages that will still run.
   */
  readonly interrupt: Effect.Effect<Protocol.InterruptResponse, ControlFailure>
  /**
   * Changes the permission mode; a `system/status` message follows. The CLI
   * refuses an unknown mode (`errorCode: "invalid_mode"`) and
   * `bypassPermissions` unless the session started in it
   * (`"bypass_not_launched"`).
   */
  readonly setPermissionMode: (mode: Protocol.PermissionMode) => Effect.Effect<void, ControlFailure>
  /**
   * Pins (or clears, with `null`) a per-MCP-server permission mode that can
   * only tighten: `default` asks for each action, `auto` routes through the
   * auto-mode classifier. Answers a `warning` when no known server has that
   * name (the override is stored anyway).
   */
  readonly setMcpPermissionModeOverride: (
    serverName: string,
    mode: "default" | "auto" | null
  ) => Effect.Effect<Protocol.McpPermissionModeOverrideResponse, ControlFailure>
  /**
   * Switches the model from the next API request on (the running turn's
   * included); no model restores the default. The CLI accepts any string.
   */
  readonly setModel: (model?: string | undefined) => Effect.Effect<void, ControlFailure>
  /**
   * Sets the thinking budget (`null` restores the session's default) and,
   * when given, the thinking display for the rest of the session (`null`
   * clears it).
   */
  readonly setMaxThinkingTokens: (
    maxThinkingTokens: number | null,
    thinkingDisplay?: ThinkingDisplay | null | undefined
  ) => Effect.Effect<void, ControlFailure>
  /**
   * Merges settings into the flag settings layer (the `settings` option,
   * mid-session): from the next turn on, a `permissions.allow` rule lets a
   * tool run without asking, for example. Top-level keys replace earlier
   * ones; `null` clears a key.
   */
  readonly applyFlagSettings: (settings: Settings) => Effect.Effect<void, ControlFailure>
  /**
   * Writes settings to a settings file through the CLI's own writer (as
   * `/config` does) and applies them. Allowlisted keys only: `outputStyle`
   * for `localSettings` (written to `.claude/settings.local.json`),
   * `effortLevel` for `userSettings`; anything else is refused.
   */
  readonly updateSettings: (
    source: "localSettings" | "userSettings",
    settings: Settings
  ) => Effect.Effect<void, ControlFailure>
  /** The slash commands and skills, from the initialize result. */
  readonly supportedCommands: Effect.Effect<ReadonlyArray<Protocol.SlashCommand>>
  /** The models the session can switch to, from the initialize result. */
  readonly supportedModels: Effect.Effect<ReadonlyArray<Protocol.ModelInfo>>
  /** The subagents the session can use, from the initialize result. */
  readonly supportedAgents: Effect.Effect<ReadonlyArray<Protocol.AgentInfo>>
  /** The account the CLI runs as, from the initialize result. */
  readonly accountInfo: Effect.Effect<Protocol.AccountInfo>
  /**
   * The MCP servers and their status (`connected`, `failed`, `disabled`,
   * ...). SDK-hosted servers appear once connected, at the first turn.
   * Secrets are hidden (`"<redacted>"`): every value of a server config's
   * `headers` and `env`, of secret-looking keys and flags, and the session's
   * secrets wherever they occur.
   */
  readonly mcpServerStatus: Effect.Effect<ReadonlyArray<Protocol.McpServerStatus>, ControlFailure>
  /**
   * {@link mcpServerStatus} with the configs as the CLI has them: header and
   * `env` values included. For a program that needs them back; never log it.
   */
  readonly mcpServerStatusUnredacted: Effect.Effect<ReadonlyArray<Protocol.McpServerStatus>, ControlFailure>
  /** How the context window is used, by category. */
  readonly getContextUsage: Effect.Effect<Protocol.ContextUsageResponse, ControlFailure>
  /**
   * The session's cost and token totals, and the plan's rate limits where
   * they apply (`usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET` in
   * the official SDK). `skipBehaviors` skips the scan of local transcripts.
   */
  readonly usage: (
    options?: { readonly skipBehaviors?: boolean | undefined }
  ) => Effect.Effect<Protocol.UsageResponse, ControlFailure>
  /**
   * Reads a file of the session's filesystem (relative to its cwd), under the
   * Read tool's permission rules. A denied or missing file fails with
   * `ControlError` reason `ErrorResponse` (`read denied: <path>`) where the
   * official SDK answers `null`.
   */
  readonly readFile: (
    path: string,
    options?: {
      readonly maxBytes?: number | undefined
      readonly encoding?: "utf-8" | "base64" | undefined
    }
  ) => Effect.Effect<Protocol.ReadFileResponse, ControlFailure>
  /**
   * Reloads the plugins from disk; answers the session's commands, agents,
   * plugins and MCP servers (their secrets hidden, as by `mcpServerStatus`).
   */
  readonly reloadPlugins: (
    options?: {
      readonly holdOnCacheImpact?: boolean | undefined
      readonly addPlugins?: ReadonlyArray<PluginConfig> | undefined
      readonly refuseIfBusy?: boolean | undefined
    }
  ) => Effect.Effect<Protocol.ReloadPluginsResponse, ControlFailure>
  /** Reloads the skills from disk (a skill written after the start becomes usable). */
  readonly reloadSkills: Effect.Effect<Protocol.ReloadSkillsResponse, ControlFailure>
  /** Reloads the output styles from disk. */
  readonly reloadOutputStyles: Effect.Effect<Protocol.ReloadOutputStylesResponse, ControlFailure>
  /**
   * Restores the files changed since the user message `userMessageId` (send
   * prompts as `UserInput` with a `uuid` to know it). Needs the
   * `enableFileCheckpointing` option; without it the answer is
   * `{ canRewind: false, error: "File rewinding is not enabled." }`.
   */
  readonly rewindFiles: (
    userMessageId: string,
    options?: { readonly dryRun?: boolean | undefined }
  ) => Effect.Effect<Protocol.RewindFilesResponse, ControlFailure>
  /**
   * Records that `path` was read at `mtime` (floored milliseconds), so that
   * an Edit of it needs no fresh Read. Skipped by the CLI when the file
   * changed since.
   */
  readonly seedReadState: (path: string, mtime: number) => Effect.Effect<void, ControlFailure>
  /** Reconnects an MCP server (an unknown one fails: `Server not found`). */
  readonly reconnectMcpServer: (serverName: string) => Effect.Effect<void, ControlFailure>
  /** Enables or disables an MCP server (an unknown one fails: `Server not found`). */
  readonly toggleMcpServer: (serverName: string, enabled: boolean) => Effect.Effect<void, ControlFailure>
  /**
   * Reads a resource of an MCP server. For a server the CLI started or
   * dialed, a `ui://` resource (MCP Apps) of a connected server; any other
   * scheme is refused. For an in-process server (`McpServer`), any of its
   * resources, read in process (the CLI refuses SDK servers here).
   */
  readonly readMcpResource: (
    serverName: string,
    uri: string
  ) => Effect.Effect<Protocol.McpReadResourceResponse, ControlFailure>
  /**
   * Replaces the MCP servers added at runtime, and the session's in-process
   * servers (`McpServer` values, served from now on; the ones it started with
   * are replaced too): `{}` removes them all. Servers from the `mcpServers`
   * option that the CLI runs itself (stdio, sse, http) stay.
   */
  readonly setMcpServers: (
    servers: { readonly [name: string]: Protocol.McpServerConfig | McpServer.McpServer }
  ) => Effect.Effect<Protocol.McpSetServersResponse, ControlFailure>
  /**
   * Stops a background task (a `task_notification` with status `stopped`
   * follows). The CLI answers an unknown id with success.
   */
  readonly stopTask: (taskId: string) => Effect.Effect<void, ControlFailure>
  /**
   * Sends the running foreground tasks (Bash commands, subagents) to the
   * background, or only the one started by `toolUseId`: their tool calls
   * return at once and the turn goes on. `false` when `toolUseId` matched no
   * foreground task.
   */
  readonly backgroundTasks: (toolUseId?: string | undefined) => Effect.Effect<boolean, ControlFailure>
  /**
   * The end (at most 8 KiB) of a background shell task's output. An unknown
   * id fails.
   */
  readonly getTaskOutput: (taskId: string) => Effect.Effect<Protocol.TaskOutputResponse, ControlFailure>
  /**
   * Any control request, typed by its definition: one of the table
   * (`ControlRequest.requests.get_settings`) or one declared with
   * `ControlRequest.make` for a subtype the table does not know.
   */
  readonly request: <R extends ControlRequest.Any>(
    request: R,
    payload: ControlRequest.Payload<R>
  ) => Effect.Effect<ControlRequest.Success<R>, ControlFailure>
}
