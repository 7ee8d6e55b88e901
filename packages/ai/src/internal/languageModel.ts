/**
 * The provider behind `ClaudeCodeLanguageModel` and `ClaudeCodeChat`: a call
 * of `effect/ai`'s `LanguageModel` as one turn of a Claude Code session.
 *
 * @internal
 */
import {
  type ClaudeCode,
  ClaudeError,
  ClaudeOptions,
  PermissionGate,
  Protocol,
  type Session,
  StructuredOutput
} from "@claude-effect/sdk"
import type * as LanguageModel from "effect/ai/LanguageModel"
import type * as Response from "effect/ai/Response"
import type * as AiTool from "effect/ai/Tool"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { Mutable } from "effect/Types"
import type { Config } from "../ClaudeCodeLanguageModel.js"
import { type CallError, UnsupportedInputError } from "./aiError.js"
import type * as InternalPrompt from "./prompt.js"
import * as Tools from "./tools.js"
import * as Translate from "./translate.js"

/** The per-call override of the config (`withConfigOverride`). @internal */
export class ConfigOverride extends Context.Service<ConfigOverride, Config>()(
  "@claude-effect/ai/ClaudeCodeLanguageModel/Config"
) {}

/** The default name of the MCP server that serves the app's tools. @internal */
export const defaultToolServerName = "app"

/** @internal */
export type Method = "generateText" | "streamText"

export { type CallError, toAiError } from "./aiError.js"

/** The config of a call: the layer's, under the override in context. @internal */
export const currentConfig = (config: Config): Effect.Effect<Config> =>
  Effect.map(
    Effect.serviceOption(ConfigOverride),
    Option.match({
      onNone: () => config,
      onSome: (override) => ({ ...config, ...override })
    })
  )

/** The SDK options of a config, over the `ClaudeCode` layer's defaults. @internal */
export const baseOptions = (
  claude: ClaudeCode.ClaudeCode.Service,
  config: Config
): Effect.Effect<ClaudeOptions.Options, ClaudeError.OptionsError> => {
  const { toolServerName: _name, toolTimeout: _timeout, ...options } = config
  return Effect.map(ClaudeOptions.decodePartial(options), (decoded) => ClaudeOptions.merge(claude.defaults, decoded))
}

const join = (...texts: ReadonlyArray<string | undefined>): string =>
  texts.filter((text): text is string => text !== undefined && text.length > 0).join("\n\n")

/**
 * Adds the prompt's system text to the system prompt the options already
 * have: it is the system prompt when they have none, otherwise it is appended
 * (after `appendSystemPrompt`, or the preset's `append`, or the custom text).
 *
 * @internal
 */
export const withSystem = (options: Mutable<ClaudeOptions.Options>, system: string | undefined): void => {
  if (system === undefined) return
  const current = options.systemPrompt
  if (options.appendSystemPrompt !== undefined) {
    options.appendSystemPrompt = join(options.appendSystemPrompt, system)
  } else if (current === undefined) {
    options.systemPrompt = system
  } else if (typeof current === "string") {
    options.systemPrompt = join(current, system)
  } else if (Array.isArray(current)) {
    options.systemPrompt = [...current, system]
  } else if ((current as { type: string }).type === "preset") {
    const preset = current as Extract<ClaudeOptions.SystemPrompt, { type: "preset" }>
    options.systemPrompt = { ...preset, append: join(preset.append, system) }
  } else {
    const custom = current as Extract<ClaudeOptions.SystemPrompt, { type: "custom" }>
    options.systemPrompt = {
      ...custom,
      prompt: typeof custom.prompt === "string" ? join(custom.prompt, system) : [...custom.prompt, system]
    }
  }
}

/** Refuses the tool choices the agent cannot be held to. @internal */
export const checkToolChoice = (
  toolChoice: LanguageModel.ToolChoice<string>
): Effect.Effect<void, UnsupportedInputError> => {
  const refuse = (what: string) =>
    Effect.fail(
      new UnsupportedInputError({
        reason: "ToolChoice",
        path: "toolChoice",
        detail: `${what}: Claude Code's agent chooses its tools and cannot be made to call one; use "auto", or ` +
          `{ oneOf: [...] } to offer some tools only`
      })
    )
  if (toolChoice === "required") return refuse(`"required"`)
  if (typeof toolChoice === "object" && "tool" in toolChoice) return refuse(`{ tool: "${toolChoice.tool}" }`)
  if (typeof toolChoice === "object" && toolChoice.mode === "required") return refuse(`{ mode: "required" }`)
  return Effect.void
}

/** The tools of a request offered to the agent: none with `toolChoice: "none"`. @internal */
export const offeredTools = (options: LanguageModel.ProviderOptions): ReadonlyArray<AiTool.Any> =>
  options.toolChoice === "none" ? [] : options.tools

/**
 * The tools a request offers the agent, once the tool choice and the tools
 * are known to be ones Claude Code can honour.
 *
 * @internal
 */
export const requestTools = (
  options: LanguageModel.ProviderOptions
): Effect.Effect<ReadonlyArray<AiTool.Any>, UnsupportedInputError> =>
  Effect.gen(function*() {
    yield* checkToolChoice(options.toolChoice)
    const tools = offeredTools(options)
    yield* Tools.checkProviderTools(tools)
    return tools
  })

/** The MCP server serving a request's own tools; none when it has none. @internal */
export const makeBridge = (
  serverName: string,
  tools: ReadonlyArray<AiTool.Any>,
  config: Config
): Effect.Effect<Tools.Bridge | undefined, UnsupportedInputError> =>
  Tools.served(tools).length > 0
    ? Tools.make({ serverName, tools, timeout: config.toolTimeout })
    : Effect.succeed(undefined)

/** Starts a turn on the bridge (if any): where the outcomes of the toolkit's handlers go. @internal */
export const beginTurn = (
  bridge: Tools.Bridge | undefined,
  tools: ReadonlyArray<AiTool.Any>
): Effect.Effect<ReadonlyMap<string, Tools.Outcome>, UnsupportedInputError> =>
  bridge !== undefined ? bridge.beginTurn(tools) : Effect.succeed(new Map())

/** The translator of one turn's messages into the response parts of `method`. @internal */
export const makeTranslator = (options: {
  readonly method: Method
  readonly partial: boolean
  readonly providerOptions: LanguageModel.ProviderOptions
  readonly serverName: string
  readonly tools: ReadonlyArray<AiTool.Any>
  readonly outcomes: ReadonlyMap<string, Tools.Outcome>
  readonly pid: number
}): Translate.Translator =>
  Translate.make({
    mode: options.method === "streamText" ? "stream" : "generate",
    partial: options.partial,
    json: options.providerOptions.responseFormat.type === "json",
    tools: toolIndex(options.serverName, options.tools),
    outcomes: options.outcomes,
    pid: options.pid,
    structuredOutputTool: StructuredOutput.toolName
  })

/** The tools of the request by the name the CLI calls them. @internal */
export const toolIndex = (serverName: string, tools: ReadonlyArray<AiTool.Any>): ReadonlyMap<string, AiTool.Any> => {
  const index = new Map<string, AiTool.Any>()
  for (const tool of tools) {
    if (Tools.isClaudeCodeTool(tool)) index.set(tool.providerName, tool)
    else if (Tools.served([tool]).length > 0) index.set(Tools.cliName(serverName, tool), tool)
  }
  return index
}

/**
 * The options of a session for a request: the base options, the prompt's
 * system text, the app's tools (allowed by a rule unless a permission gate
 * is in scope, which then decides each call), structured output for a JSON
 * answer, and partial messages for a stream (unless switched off).
 *
 * @internal
 */
export const sessionOptions = (
  base: ClaudeOptions.Options,
  request: {
    readonly system: string | undefined
    readonly bridge: Tools.Bridge | undefined
    readonly responseFormat: LanguageModel.ProviderOptions["responseFormat"]
    readonly method: Method
  }
): Effect.Effect<ClaudeOptions.Options, ClaudeError.OptionsError> =>
  Effect.gen(function*() {
    const options: Mutable<ClaudeOptions.Options> = { ...base }
    withSystem(options, request.system)
    const gate = yield* Effect.serviceOption(PermissionGate.PermissionGate)
    if (request.bridge !== undefined) {
      if (base.mcpServers?.[request.bridge.serverName] !== undefined) {
        return yield* new ClaudeError.OptionsError({
          reason: "Conflict",
          detail: `mcpServers.${request.bridge.serverName}: the toolkit's MCP server has that name (toolServerName); ` +
            `rename one of them`
        })
      }
      options.mcpServers = { ...base.mcpServers, [request.bridge.serverName]: request.bridge.server }
      if (Option.isNone(gate)) {
        options.allowedTools = [...(base.allowedTools ?? []), `mcp__${request.bridge.serverName}`]
      }
    }
    if (request.responseFormat.type === "json") {
      options.outputFormat = yield* StructuredOutput.outputFormat(request.responseFormat.schema)
    }
    if (request.method === "streamText" && base.includePartialMessages === undefined) {
      options.includePartialMessages = true
    }
    return yield* ClaudeOptions.validate(options, { permissionPromptTool: Option.isSome(gate) })
  })

/** @internal */
export type Part = Response.StreamPartEncoded | Response.PartEncoded

/** The parts of a turn translated whole (no deltas): what `generateText` returns. @internal */
export type GenerateParts = Response.PartEncoded

/**
 * One turn's messages as response parts: the translator's parts, and at the
 * result the finish part, after the answer of a JSON request (decoded with
 * its Schema: a missing or mismatching answer fails). An error result fails
 * the stream.
 *
 * @internal
 */
export const translateTurn = (
  messages: Stream.Stream<Protocol.Message, ClaudeError.ClaudeError>,
  translator: Translate.Translator,
  responseFormat: LanguageModel.ProviderOptions["responseFormat"]
): Stream.Stream<Part, CallError> => {
  let sawResult = false
  return messages.pipe(
    Stream.mapEffect((message): Effect.Effect<ReadonlyArray<Part>, CallError> => {
      if (!Protocol.isResultMessage(message)) return Effect.succeed(translator.push(message))
      sawResult = true
      if (responseFormat.type === "json") {
        return StructuredOutput.decode(structuredSchema(responseFormat.schema), message).pipe(
          Effect.as<ReadonlyArray<Part>>([
            { type: "text", text: JSON.stringify((message as Protocol.ResultSuccess).structured_output) },
            ...translator.finish(message)
          ])
        )
      }
      const failure = ClaudeError.resultFailure(message)
      return failure !== undefined ? Effect.fail(failure) : Effect.succeed(translator.finish(message))
    }),
    Stream.flattenIterable,
    Stream.concat(Stream.suspend(() => sawResult ? Stream.empty : Stream.fail(ClaudeError.noResult())))
  )
}

/**
 * The Schema of a JSON request. `LanguageModel.generateObject` requires its
 * decoding services of the caller, in whose fiber this runs.
 */
const structuredSchema = (schema: Schema.Top) => schema as Schema.Top as Schema.Codec<unknown, unknown, never, never>

/**
 * A one-shot call: a fresh session (one CLI process) for the turn, gone when
 * the stream ends or is interrupted.
 *
 * @internal
 */
export const oneShot = (
  claude: ClaudeCode.ClaudeCode.Service,
  layerConfig: Config,
  providerOptions: LanguageModel.ProviderOptions,
  method: Method,
  turnInput: (
    prompt: LanguageModel.ProviderOptions["prompt"]
  ) => Effect.Effect<InternalPrompt.TurnInput, UnsupportedInputError>
): Stream.Stream<Part, CallError> =>
  Stream.unwrap(Effect.gen(function*() {
    const config = yield* currentConfig(layerConfig)
    const serverName = config.toolServerName ?? defaultToolServerName
    const tools = yield* requestTools(providerOptions)
    const input = yield* turnInput(providerOptions.prompt)
    const bridge = yield* makeBridge(serverName, tools, config)
    const outcomes = yield* beginTurn(bridge, tools)
    const options = yield* sessionOptions(yield* baseOptions(claude, config), {
      system: input.system,
      bridge,
      responseFormat: providerOptions.responseFormat,
      method
    })
    // Its prompt given at the start: encoded while the CLI starts (see ClaudeCode's startSession).
    const session: Session.Session = yield* claude.startSession(options, input.content)
    const translator = makeTranslator({
      method,
      partial: options.includePartialMessages === true,
      providerOptions,
      serverName,
      tools,
      outcomes,
      pid: session.pid
    })
    return translateTurn(session.turn(input.content), translator, providerOptions.responseFormat)
  }))
