/**
 * Typed errors of `@claude-effect/ai`, the causes of its `AiError`s.
 *
 * @since 0.1.0
 */
export * as ClaudeCodeAiError from "./ClaudeCodeAiError.js"

/**
 * Claude Code as an `@effect/ai` `LanguageModel`.
 *
 * @since 0.1.0
 */
export * as ClaudeCodeLanguageModel from "./ClaudeCodeLanguageModel.js"
