/**
 * Claude Code as an `effect/ai` `LanguageModel`: `generateText`,
 * `streamText` and `generateObject` run the prompt as one turn of the agent
 * (a fresh CLI process per call, through `ClaudeCode`), so the agent reads,
 * writes and runs tools as it does anywhere, under the hook layers and the
 * permission gate in scope.
 *
 * ```ts
 * const program = LanguageModel.generateText({ prompt: "What does this repository do?" }).pipe(
 *   Effect.provide(ClaudeCodeLanguageModel.layer({ allowedTools: ["Read", "Glob", "Grep"] })),
 *   Effect.provide(ClaudeCode.layer()),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 *
 * What a response holds:
 * - `text` parts: the agent's text, in order (`streamText`: `text-start` /
 *   `text-delta` / `text-end` as the model writes, from partial messages);
 *   `reasoning` parts for thinking;
 * - `tool-call` / `tool-result` parts for the tools of the request's
 *   toolkit: the app's tools, which the agent calls as `mcp__<server>__<name>`
 *   (see {@link Config.toolServerName}), and the `ClaudeCodeTool`s (the CLI's
 *   built-in tools). All are `providerExecuted`: the agent ran them; the
 *   name the CLI knows the tool by is `metadata.claudeCode.toolName`. Every
 *   call of any tool is also listed in the finish part's metadata;
 * - a `response-metadata` part (session id, model) and a `finish` part with
 *   the reason, the usage, and {@link ProviderMetadata} (cost, session id,
 *   pid, tool calls) under `metadata.claudeCode`.
 *
 * The app's toolkit (`toolkit: MyToolkit` with its handlers provided) is
 * served to the agent as an in-process MCP server: the handlers run in the
 * context of the call, their failures reach the model as error results, and
 * the hooks and the permission gate see the calls like any other. The tools
 * are allowed by a rule unless a `PermissionGate` is in scope: then the gate
 * decides each call.
 *
 * The prompt maps faithfully or not at all: the leading system messages are
 * the system prompt; the user messages at the end are the turn (text,
 * images, PDFs, plain text); earlier messages, which the CLI cannot take as
 * such, are given as a transcript at the head of the turn. Anything else (a
 * system message mid-conversation, a prompt ending with an assistant
 * message, an audio file, `toolChoice: "required"`) fails with an
 * `UnsupportedInputError` behind an `InvalidUserInputError`. For a real
 * multi-turn conversation, use `ClaudeCodeChat` (one session, one process).
 *
 * Errors are `AiError`s whose reason has the SDK's typed error as its
 * `cause` (see `ClaudeCodeAiError`). Interrupting the call stops the CLI.
 *
 * @since 0.1.0
 */
import { ClaudeCode } from "@claude-effect/sdk"
import type { ClaudeOptions } from "@claude-effect/sdk"
import type * as AiError from "effect/ai/AiError"
import * as LanguageModel from "effect/ai/LanguageModel"
import * as Model from "effect/ai/Model"
import type * as Response from "effect/ai/Response"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import * as Layer from "effect/Layer"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as internal from "./internal/languageModel.js"
import * as InternalPrompt from "./internal/prompt.js"
import * as Translate from "./internal/translate.js"

/**
 * The configuration of the model: the SDK's options (over those of the
 * `ClaudeCode` layer) and how the app's tools are served.
 *
 * @since 0.1.0
 * @category Configuration
 */
export interface Config extends ClaudeOptions.OptionsInput {
  /**
   * The name of the in-process MCP server that serves the request's toolkit
   * (default `"app"`): the agent calls a tool `GetStock` as
   * `mcp__app__GetStock`, which is also the name hooks and the permission
   * gate see.
   */
  readonly toolServerName?: string | undefined
  /** How long a tool handler may run before the model gets an error result (default 60 s). */
  readonly toolTimeout?: Duration.Input | undefined
}

/**
 * The per-call configuration, set with {@link withConfigOverride}.
 *
 * @since 0.1.0
 * @category Configuration
 */
export const ConfigOverride: typeof internal.ConfigOverride = internal.ConfigOverride

/**
 * The provider metadata of a `finish` part (`metadata.claudeCode`):
 * `sessionId`, `pid` (the CLI's process id), `costUsd` (what the turn cost,
 * as the CLI computed it), `durationMs`, `durationApiMs`, `numTurns` (the
 * agent's API requests), `stopReason` (of the last API response, which the
 * finish reason is read from), `terminalReason` (why the agent loop ended:
 * `completed`, `hook_stopped`, `max_turns`, ...), `permissionDenials`,
 * `modelUsage`, `toolCalls` (every tool call of the turn, of any tool, with
 * the text of its result) and, for `generateObject`, `text` (the agent's
 * text besides the answer). The `response-metadata` part has `sessionId`,
 * `pid`, `cwd`, `permissionMode` and `claudeCodeVersion`.
 *
 * @since 0.1.0
 * @category Models
 */
export const ProviderMetadata: Schema.Codec<ProviderMetadata> = Translate.ProviderMetadata

/**
 * @since 0.1.0
 * @category Models
 */
export type ProviderMetadata = Translate.ProviderMetadata

/**
 * The {@link ProviderMetadata} of a response (or of its parts, streamed),
 * read from its `finish` part; `undefined` when it has none of ours.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const getProviderMetadata: (
  response: ReadonlyArray<Response.AnyPart> | { readonly content: ReadonlyArray<Response.AnyPart> }
) => ProviderMetadata | undefined = Translate.getProviderMetadata

/**
 * The key of this provider's metadata on response parts.
 *
 * @since 0.1.0
 * @category Models
 */
export const metadataKey: string = Translate.metadataKey

/**
 * A `LanguageModel` backed by Claude Code. Every call starts its own CLI
 * process, with the `ClaudeCode` service's defaults under `config`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (config: Config = {}): Effect.Effect<LanguageModel.LanguageModel, never, ClaudeCode.ClaudeCode> =>
  Effect.gen(function*() {
    const claude = yield* ClaudeCode.ClaudeCode
    const run = (options: LanguageModel.ProviderOptions, method: internal.Method) =>
      internal.oneShot(claude, config, options, method, InternalPrompt.fresh).pipe(
        Stream.mapError(internal.toAiError(method))
      )
    return yield* LanguageModel.make({
      // Without partial messages, the parts of a turn are whole: text, reasoning, calls, results, finish.
      generateText: (options) =>
        run(options, "generateText").pipe(
          Stream.runCollect,
          Effect.map((parts) => parts as Array<internal.GenerateParts>)
        ),
      // With partial messages, text and reasoning come as start/delta/end parts.
      streamText: (options) => run(options, "streamText") as Stream.Stream<Response.StreamPartEncoded, AiError.AiError>
    })
  })

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (config?: Config): Layer.Layer<LanguageModel.LanguageModel, never, ClaudeCode.ClaudeCode> =>
  Layer.effect(LanguageModel.LanguageModel, make(config))

/**
 * The model as an `effect/ai` `Model`, provider `"claude-code"`, named by
 * `config.model` (`"default"` when the CLI chooses).
 *
 * @since 0.1.0
 * @category Models
 */
export const model = (
  config?: Config
): Model.Model<"claude-code", LanguageModel.LanguageModel, ClaudeCode.ClaudeCode> =>
  Model.make("claude-code", config?.model ?? "default", layer(config))

/**
 * Runs an effect with part of the configuration overridden for the calls it
 * makes (a model, a working directory, allowed tools, ...).
 *
 * @since 0.1.0
 * @category Configuration
 */
export const withConfigOverride: {
  (config: Config): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, config: Config): Effect.Effect<A, E, R>
} = dual(
  2,
  <A, E, R>(self: Effect.Effect<A, E, R>, config: Config): Effect.Effect<A, E, R> =>
    Effect.flatMap(
      Effect.serviceOption(internal.ConfigOverride),
      (current) =>
        Effect.provideService(
          self,
          internal.ConfigOverride,
          current._tag === "Some" ? { ...current.value, ...config } : config
        )
    )
)
