/**
 * The errors `@claude-effect/ai` adds to the SDK's own. Every failure of a
 * `LanguageModel` call reaches the caller as an `effect/ai` `AiError` whose
 * `reason` says what kind of failure it is, with the typed error that says
 * what happened as the reason's `cause` (read it with {@link cause}):
 *
 * | typed error | `AiError` reason |
 * | --- | --- |
 * | {@link UnsupportedInputError} (below), `OptionsError` | `InvalidUserInputError` |
 * | `StructuredOutputError` | `StructuredOutputError` |
 * | `ProtocolError` | `InvalidOutputError` |
 * | any other `ClaudeError` (`CliExitError`, `ResultError`, ...) | `UnknownError` |
 *
 * ```ts
 * LanguageModel.generateText({ prompt }).pipe(
 *   Effect.catchTag("AiError", (error) => {
 *     const typed = ClaudeCodeAiError.cause(error)
 *     return Console.error(typed?._tag === "UnsupportedInputError" ? typed.path : error.message)
 *   })
 * )
 * ```
 *
 * @since 0.1.0
 */
import type * as AiError from "effect/ai/AiError"
import * as internal from "./internal/aiError.js"

export {
  /**
   * @since 0.1.0
   * @category Errors
   */
  UnsupportedInputError
} from "./internal/aiError.js"

/**
 * Every typed error behind an `AiError` of this provider: the SDK's
 * `ClaudeError`s and {@link UnsupportedInputError}.
 *
 * @since 0.1.0
 * @category Errors
 */
export type CallError = internal.CallError

/**
 * The typed error behind an `AiError` of this provider (its reason's
 * `cause`); `undefined` for an `AiError` of anything else (a tool's handler,
 * `LanguageModel`'s own decoding).
 *
 * @since 0.1.0
 * @category Accessors
 */
export const cause: (error: AiError.AiError) => CallError | undefined = internal.cause
