/**
 * The errors `@claude-effect/ai` adds to the SDK's own. Every failure of a
 * `LanguageModel` call reaches the caller as an `@effect/ai` `AiError`, with
 * the typed error that says what happened as its `cause`:
 *
 * | cause | `AiError` |
 * | --- | --- |
 * | {@link UnsupportedInputError} (below), `OptionsError` | `MalformedInput` |
 * | `StructuredOutputError`, `ProtocolError` | `MalformedOutput` |
 * | any other `ClaudeError` (`CliExitError`, `ResultError`, ...) | `UnknownError` |
 *
 * ```ts
 * LanguageModel.generateText({ prompt }).pipe(
 *   Effect.catchAll((error) =>
 *     Console.error(error.cause instanceof ClaudeCodeAiError.UnsupportedInputError ? error.cause.path : error.message)
 *   )
 * )
 * ```
 *
 * @since 0.1.0
 */
export { UnsupportedInputError } from "./internal/aiError.js"
