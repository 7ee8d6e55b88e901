/**
 * A multi-turn conversation with one CLI process, alive for the scope that
 * opened it (see `ClaudeCode.session`).
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type { ClaudeError, ControlError, ControlTimeoutError } from "./ClaudeError.js"
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
   * Every message from now until the CLI exits. One consumer at a time.
   *
   * Messages arrive in chunks of what the CLI has written, and a chunk always
   * ends at a turn's `result`: a consumer that stops at the end of a turn
   * (`turn`, `receiveTurn`, `Stream.takeUntil` on results) leaves the next
   * turn's messages for the next reader. One that stops in the middle of a
   * chunk (`Stream.take(n)`) drops the rest of that chunk, as with any stream
   * over a queue: to read part of a turn and continue later, keep one reader.
   */
  readonly messages: Stream.Stream<Protocol.Message, ClaudeError>
  /** Ends the input: the CLI finishes what it is doing and exits. */
  readonly endInput: Effect.Effect<void>
  /** Interrupts the running turn; the session stays usable. */
  readonly interrupt: Effect.Effect<Protocol.InterruptResponse, ControlFailure>
  readonly setPermissionMode: (mode: Protocol.PermissionMode) => Effect.Effect<void, ControlFailure>
  /** Switches the model from the next API request on; `undefined` restores the default. */
  readonly setModel: (model: string | undefined) => Effect.Effect<void, ControlFailure>
  readonly setMaxThinkingTokens: (tokens: number | null) => Effect.Effect<void, ControlFailure>
  readonly mcpServerStatus: Effect.Effect<ReadonlyArray<Protocol.McpServerStatus>, ControlFailure>
  readonly supportedCommands: Effect.Effect<ReadonlyArray<Protocol.SlashCommand>>
  readonly supportedModels: Effect.Effect<ReadonlyArray<Protocol.ModelInfo>>
  readonly getContextUsage: Effect.Effect<Protocol.ContextUsageResponse, ControlFailure>
  readonly rewindFiles: (
    userMessageId: string,
    options?: { readonly dryRun?: boolean | undefined }
  ) => Effect.Effect<Protocol.RewindFilesResponse, ControlFailure>
  readonly stopTask: (taskId: string) => Effect.Effect<void, ControlFailure>
  /** Any control request the CLI accepts, answered with its raw response body. */
  readonly request: (request: Protocol.OutboundControlRequestPayload) => Effect.Effect<unknown, ControlFailure>
}
