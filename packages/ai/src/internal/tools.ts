/**
 * The app's `Toolkit` served to the agent: every user-defined tool becomes a
 * tool of one in-process MCP server, whose handler runs the toolkit's handler
 * (from the context of the call that runs the turn) and records the typed
 * outcome by tool use id, for the response's `tool-result` part.
 *
 * @internal
 */
import { McpServer, McpTool } from "@claude-effect/sdk"
import * as AiTool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { UnsupportedInputError } from "./aiError.js"

/** The names the Messages API accepts for a tool (and the CLI for an MCP server). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/

/** What a toolkit handler answered, encoded as the model gets it. @internal */
export interface Outcome {
  readonly isFailure: boolean
  readonly encodedResult: unknown
}

/** Runs a tool's handler (`Toolkit.WithHandler`'s `handle`) to its final result. */
type Handle = (name: string, params: Schema.Json, toolCallId: string | undefined) => Effect.Effect<Outcome, unknown>

/** The toolkit of the running turn, and where its outcomes go. */
interface Turn {
  readonly handle: Handle
  readonly outcomes: Map<string, Outcome>
}

/** @internal */
export interface Bridge {
  /** The MCP server's key in `mcpServers`: the model calls `mcp__<serverName>__<tool>`. */
  readonly serverName: string
  readonly server: McpServer.McpServer
  /** The names of the tools served, sorted. */
  readonly names: ReadonlyArray<string>
  /** Runs the handlers of `tools` from the current context for the turn that starts; returns its outcomes. */
  readonly beginTurn: (
    tools: ReadonlyArray<AiTool.Any>
  ) => Effect.Effect<ReadonlyMap<string, Outcome>, UnsupportedInputError>
}

/** The prefix of the ids of the `ClaudeCodeTool`s. @internal */
export const idPrefix = "claude-code." as const

/** Whether a tool is a `ClaudeCodeTool` (one of the CLI's built-in tools). @internal */
export const isClaudeCodeTool = (tool: AiTool.Any): tool is AiTool.AnyProviderDefined =>
  AiTool.isProviderDefined(tool) && tool.id.startsWith(idPrefix)

/**
 * Refuses the provider-defined tools of other providers: Claude Code cannot
 * run them (its own are the `ClaudeCodeTool`s).
 *
 * @internal
 */
export const checkProviderTools = (tools: ReadonlyArray<AiTool.Any>): Effect.Effect<void, UnsupportedInputError> => {
  const foreign = tools.filter(AiTool.isProviderDefined).find((tool) => !tool.id.startsWith(idPrefix))
  return foreign === undefined ? Effect.void : Effect.fail(
    new UnsupportedInputError({
      reason: "ForeignTool",
      path: `toolkit.${foreign.name}`,
      detail: `${foreign.name} (${foreign.id}) is a tool another provider runs; Claude Code cannot: use its own ` +
        `built-in tools (ClaudeCodeTool) or a tool of your own with a handler`
    })
  )
}

/** The tools the MCP server serves: the user-defined ones (provider-defined tools are the CLI's own). @internal */
export const served = (tools: ReadonlyArray<AiTool.Any>): ReadonlyArray<AiTool.Any> =>
  tools.filter((tool) => AiTool.isUserDefined(tool))

/** The name the CLI (and the model) knows a served tool by. @internal */
export const cliName = (serverName: string, tool: AiTool.Any): string => `mcp__${serverName}__${tool.name}`

const json = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? "null"
  } catch {
    return String(value)
  }
}

const isRecord = (u: unknown): u is { readonly [key: string]: unknown } =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const annotationsOf = (tool: AiTool.Any): McpTool.Annotations => ({
  readOnlyHint: Context.get(tool.annotations, AiTool.Readonly),
  destructiveHint: Context.get(tool.annotations, AiTool.Destructive),
  idempotentHint: Context.get(tool.annotations, AiTool.Idempotent),
  openWorldHint: Context.get(tool.annotations, AiTool.OpenWorld),
  ...Option.match(Context.getOption(tool.annotations, AiTool.Title), {
    onNone: () => ({}),
    onSome: (title) => ({ title })
  })
})

/**
 * A tool's parameters Schema is a Struct (or `Tool.EmptyParams`): its encoded
 * side is a record. Its requirements, if any, are the caller's, in whose
 * context the MCP server is made.
 */
const recordSchema = (schema: Schema.Constraint) =>
  schema as Schema.Constraint as Schema.Codec<unknown, { readonly [key: string]: unknown }>

/** What the model reads of an outcome. */
const answer = (outcome: Outcome): McpTool.Result => {
  const value = outcome.encodedResult
  if (outcome.isFailure) return McpTool.error(typeof value === "string" ? value : json(value))
  if (typeof value === "string") return McpTool.text(value)
  return isRecord(value) ? McpTool.structured(value) : McpTool.text(json(value))
}

/**
 * The MCP server of a set of tools. Its handlers run the toolkit of the turn
 * begun last; between turns a call is answered with an error result.
 *
 * @internal
 */
export const make = (options: {
  readonly serverName: string
  readonly tools: ReadonlyArray<AiTool.Any>
  readonly timeout: Duration.Input | undefined
}): Effect.Effect<Bridge, UnsupportedInputError> =>
  Effect.gen(function*() {
    let turn: Turn | undefined
    const tools = served(options.tools)
    const badName = tools.find((tool) => !TOOL_NAME.test(tool.name))
    if (badName !== undefined) {
      return yield* new UnsupportedInputError({
        reason: "ToolName",
        path: `toolkit.${badName.name}`,
        detail: `the tool name "${badName.name}" cannot be served to the agent: MCP tool names are 1 to 64 ` +
          `letters, digits, "_" or "-"; rename the tool`
      })
    }
    if (!TOOL_NAME.test(options.serverName) || options.serverName.includes("__")) {
      return yield* new UnsupportedInputError({
        reason: "ToolName",
        path: "toolServerName",
        detail: `"${options.serverName}" cannot name the toolkit's MCP server: use letters, digits, "_" or "-" ` +
          `(no "__", which separates the parts of mcp__<server>__<tool>)`
      })
    }
    const mcpTools = tools.map((tool) => {
      const parameters = recordSchema(tool.parametersSchema)
      // toolkit.handle decodes the parameters itself, from their JSON form: it gets them as the model wrote them.
      const encodeParameters = Schema.encodeUnknownEffect(Schema.toCodecJson(parameters))
      const encodeFailure = Schema.encodeUnknownEffect(
        Schema.toCodecJson(tool.failureSchema as Schema.Constraint as Schema.Codec<unknown, unknown>)
      )
      return McpTool.make(tool.name, {
        description: AiTool.getDescription(tool) ?? tool.name,
        parameters,
        annotations: annotationsOf(tool),
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {})
      }, (args, context) =>
        Effect.gen(function*() {
          const current = turn
          if (current === undefined) return McpTool.error(`${tool.name} cannot run now: no turn is running`)
          const params = (yield* encodeParameters(args)) as Schema.Json
          const handled = yield* Effect.result(current.handle(tool.name, params, context.toolUseId))
          let outcome: Outcome
          if (Result.isSuccess(handled)) {
            outcome = handled.success
          } else {
            // A failure of the tool's failure schema (failureMode "error") goes to the model as an error
            // result, like one returned; anything else (an AiError) fails the call with its message.
            const encoded = yield* Effect.result(encodeFailure(handled.failure))
            if (Result.isFailure(encoded)) return yield* Effect.fail(handled.failure)
            outcome = { isFailure: true, encodedResult: encoded.success }
          }
          if (context.toolUseId !== undefined) current.outcomes.set(context.toolUseId, outcome)
          return answer(outcome)
        }))
    })
    const server = yield* McpServer.make({ name: options.serverName, tools: mcpTools })
    return {
      serverName: options.serverName,
      server,
      names: tools.map((tool) => tool.name).sort(),
      beginTurn: (turnTools) =>
        Effect.gen(function*() {
          const context = yield* Effect.context<never>()
          const userTools = served(turnTools)
          for (const tool of userTools) {
            if (!context.mapUnsafe.has(tool.id)) {
              return yield* new UnsupportedInputError({
                reason: "HandlerMissing",
                path: `toolkit.${tool.name}`,
                detail: `the handler of ${tool.name} is not in the context: pass the Toolkit itself ` +
                  `(\`toolkit: MyToolkit\`) and provide its handlers (\`MyToolkit.toLayer(...)\`) where the call runs`
              })
            }
          }
          // Every handler was found in the context above.
          const toolkit = yield* Effect.provideContext(
            Toolkit.make(...userTools),
            context as Context.Context<AiTool.Handler<string>>
          )
          const outcomes = new Map<string, Outcome>()
          // The handler runs in the context of the call that began the turn (its own services on top).
          const handle: Handle = (name, params, toolCallId) =>
            Effect.flatMap(Effect.context<never>(), (input) =>
              toolkit.handle(name, params, toolCallId).pipe(
                Effect.flatMap((results) =>
                  Stream.runFold(
                    results,
                    (): Outcome | undefined => undefined,
                    (last, result) => result.preliminary ? last : result
                  )
                ),
                Effect.map((last) => last ?? { isFailure: true, encodedResult: `${name} gave no result` }),
                Effect.map((result) => ({ isFailure: result.isFailure, encodedResult: result.encodedResult })),
                Effect.provideContext(Context.merge(context, input))
              ) as Effect.Effect<Outcome, unknown>)
          turn = { handle, outcomes }
          return outcomes
        })
    } satisfies Bridge
  })
