/**
 * Typed errors of `@claude-effect/ai`, the causes of its `AiError`s.
 *
 * @since 0.1.0
 */
export * as ClaudeCodeAiError from "./ClaudeCodeAiError.js"

/**
 * Claude Code as an `effect/ai` `LanguageModel`.
 *
 * @since 0.1.0
 */
export * as ClaudeCodeLanguageModel from "./ClaudeCodeLanguageModel.js"

/**
 * The CLI's built-in tools as provider-defined tools, for typed tool-call
 * and tool-result parts.
 *
 * @since 0.1.0
 */
export * as ClaudeCodeTool from "./ClaudeCodeTool.js"

/**
 * An `effect/ai` `Chat` on one Claude Code session.
 *
 * @since 0.1.0
 */
export * as ClaudeCodeChat from "./ClaudeCodeChat.js"
