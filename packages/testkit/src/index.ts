/**
 * @since 0.1.0
 */

/**
 * A scripted fake of the Anthropic Messages API that the real `claude` CLI
 * talks to: run the CLI offline, deterministically, without tokens, and
 * assert what the model saw.
 *
 * @since 0.1.0
 */
export * as ScriptedModel from "./ScriptedModel.js"
