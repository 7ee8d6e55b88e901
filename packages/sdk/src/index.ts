/**
 * @since 0.1.0
 */

/**
 * The errors of `@claude-effect/sdk`.
 *
 * @since 0.1.0
 */
export * as ClaudeError from "./ClaudeError.js"

/**
 * Finds the `claude` executable.
 *
 * @since 0.1.0
 */
export * as CliLocator from "./CliLocator.js"
