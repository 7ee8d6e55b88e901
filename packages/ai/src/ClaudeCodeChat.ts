/**
 * An `effect/ai` `Chat` backed by one Claude Code session: every turn of
 * the chat is a turn of the same CLI process, which holds the conversation
 * (the files it read, the commands it ran, its context) from one turn to the
 * next.
 *
 * ```ts
 * const program = Effect.scoped(
 *   Effect.gen(function*() {
 *     const chat = yield* ClaudeCodeChat.make({ allowedTools: ["Read"] })
 *     yield* chat.generateText({ prompt: "Read package.json." })
 *     const answer = yield* chat.generateText({ prompt: "Which version is it?" })
 *     yield* Console.log(answer.text)
 *   })
 * ) // the scope closes: the CLI is shut down
 * ```
 *
 * The session opens at the first turn, with that turn's system messages as
 * its system prompt, its toolkit as its MCP server and its response format
 * (text, or the object of `generateObject`); later turns must keep the same
 * toolkit and response format (an `UnsupportedInputError` says so
 * otherwise), and add user messages only. The chat's `history` is
 * `effect/ai`'s, for export and persistence; the session is the truth the
 * agent works from. A turn that fails (or is interrupted) is not added to
 * the history, but the session saw it; an interrupted turn is stopped in the
 * CLI before the next one starts.
 *
 * @since 0.1.0
 */
import type { ClaudeCode } from "@claude-effect/sdk"
import * as Chat from "effect/ai/Chat"
import type * as Prompt from "effect/ai/Prompt"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { Config } from "./ClaudeCodeLanguageModel.js"
import * as internal from "./internal/chat.js"

/**
 * A chat on one session, closed with the scope. `options.prompt` starts it
 * with a history (given to the agent with the first turn).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (
  config: Config = {},
  options?: { readonly prompt?: Prompt.RawInput | undefined }
): Effect.Effect<Chat.Chat, never, ClaudeCode.ClaudeCode | Scope.Scope> => internal.make(config, options?.prompt)

/**
 * `effect/ai`'s `Chat` service on one session, for the layer's lifetime.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = (
  config: Config = {},
  options?: { readonly prompt?: Prompt.RawInput | undefined }
): Layer.Layer<Chat.Chat, never, ClaudeCode.ClaudeCode> => Layer.effect(Chat.Chat, make(config, options))
