/**
 * The errors of `@claude-effect/ai`, exported by the public
 * `ClaudeCodeAiError` module, and their mapping into `effect/ai`'s `AiError`.
 *
 * @internal
 */
import { ClaudeError } from "@claude-effect/sdk"
import * as AiError from "effect/ai/AiError"
import * as Schema from "effect/Schema"

/**
 * A request that Claude Code cannot carry out as asked, refused before
 * anything is spawned (or, mid-chat, before anything is sent). Nothing of a
 * prompt is dropped silently: what cannot map is this error, and `path` says
 * which part of the request it is (`prompt.content[2].content[0]`,
 * `toolChoice`, `toolkit.GetStock`).
 *
 * - `SystemMessagePosition`: a system message after the conversation started;
 *   the CLI takes its system prompt when it starts.
 * - `LastMessage`: the prompt does not end with a user message (an assistant
 *   prefill, a tool result): Claude Code answers user turns.
 * - `EmptyPrompt`: nothing to answer.
 * - `FileType`: a file the Messages API does not take as input (only images,
 *   PDFs and plain text are).
 * - `ToolChoice`: a tool choice Claude Code cannot enforce (`required`, one
 *   named tool): the agent chooses its tools.
 * - `HistoryChanged`: a chat's history was rewritten, or it gained messages
 *   other than user messages; the session behind it holds the conversation.
 * - `ToolkitChanged`: a chat's turn brings a toolkit other than the one its
 *   session started with.
 * - `HandlerMissing`: a toolkit tool whose handler is not in the context.
 * - `ForeignTool`: a provider-defined tool of another provider in the
 *   toolkit: Claude Code cannot run it.
 * - `ToolName`: a tool (or `toolServerName`) whose name cannot be an MCP
 *   tool's (1 to 64 letters, digits, `_`, `-`).
 * - `ResponseFormat`: a chat's turn asks for another response format (text,
 *   or an object of another schema) than its session started with: the CLI
 *   takes the structured-output schema when it starts.
 *
 * @since 0.1.0
 * @category Errors
 */
export class UnsupportedInputError
  extends Schema.TaggedError<UnsupportedInputError>("@claude-effect/ai/UnsupportedInputError")(
    "UnsupportedInputError",
    {
      reason: Schema.Literals([
        "SystemMessagePosition",
        "LastMessage",
        "EmptyPrompt",
        "FileType",
        "ToolChoice",
        "HistoryChanged",
        "ToolkitChanged",
        "HandlerMissing",
        "ForeignTool",
        "ToolName",
        "ResponseFormat"
      ]),
      path: Schema.String,
      detail: Schema.String
    }
  )
{
  /**
   * @since 0.1.0
   */
  override get message(): string {
    return `${this.path}: ${this.detail}`
  }
}

/** Every error a call can meet before it becomes an `AiError`. @internal */
export type CallError = ClaudeError.ClaudeError | UnsupportedInputError

/** The key of this provider's entry in an `AiError` reason's metadata. */
const metadataKey = "claudeCode"

const errorMetadata = (error: CallError) => ({
  [metadataKey]: { _tag: error._tag, message: error.message }
})

/**
 * Our typed error as an `AiError`: bad input is an `InvalidUserInputError`,
 * an answer that does not fit a `StructuredOutputError` (the Schema's) or an
 * `InvalidOutputError` (the protocol's), anything else (the CLI failed, the
 * turn ended in error) an `UnknownError`. The typed error is the reason's
 * `cause`, and its tag and message are in the reason's metadata.
 *
 * @internal
 */
export const toAiError = (method: string) => (error: CallError): AiError.AiError => {
  const reason = toReason(error)
  // The reason's own Error `cause`: where `ClaudeCodeAiError.cause` reads the typed error back.
  Object.defineProperty(reason, "cause", { value: error, enumerable: false, configurable: true, writable: true })
  return AiError.make({ module: "ClaudeCodeLanguageModel", method, reason })
}

const toReason = (error: CallError): AiError.AiErrorReason => {
  switch (error._tag) {
    case "UnsupportedInputError":
    case "OptionsError":
      return new AiError.InvalidUserInputError({ description: error.message })
    case "StructuredOutputError":
      return new AiError.StructuredOutputError({
        description: error.message,
        responseText: "",
        metadata: errorMetadata(error)
      })
    case "ProtocolError":
      return new AiError.InvalidOutputError({ description: error.message, metadata: errorMetadata(error) })
    default:
      return new AiError.UnknownError({ description: error.message, metadata: errorMetadata(error) })
  }
}

const isCallError = (u: unknown): u is CallError => u instanceof UnsupportedInputError || ClaudeError.isClaudeError(u)

/** The typed error behind an `AiError` of this provider; `undefined` for any other. @internal */
export const cause = (error: AiError.AiError): CallError | undefined => {
  const value: unknown = (error.reason as { readonly cause?: unknown }).cause
  return isCallError(value) ? value : undefined
}
