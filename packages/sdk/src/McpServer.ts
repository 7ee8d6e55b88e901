/**
 * In-process (SDK-hosted) MCP servers. A server is a set of {@link McpTool}s,
 * `McpResource`s and `McpPrompt`s served to the CLI over the control
 * protocol: no child process, no port. Put it in the `mcpServers` option next
 * to ordinary stdio/http/sse servers (or add it to a running session with
 * `session.setMcpServers`); its key there is the name the CLI knows it by,
 * and its tools reach the model as `mcp__<key>__<tool>`.
 *
 * ```ts
 * const program = Effect.gen(function*() {
 *   const inventory = yield* McpServer.make({ name: "inventory", tools: [lookup] })
 *   return yield* ClaudeCode.query("How many SKU-1 are left?", {
 *     mcpServers: { inventory },
 *     allowedTools: ["mcp__inventory__lookup"]
 *   }).pipe(Stream.runCollect)
 * })
 * ```
 *
 * `make` is an Effect because it captures the services the tools' handlers
 * need: they show in its requirements, and a server made under a layer keeps
 * using that layer's services in every session it serves.
 *
 * Each session serves each of its servers with effect/ai's `McpServer` (its
 * JSON-RPC engine, MCP schemas and protocol negotiation), one registry per
 * session and server. Like any MCP tool, an in-process tool goes through the
 * CLI's permission rules (`allowedTools`, a `PermissionGate`) and the
 * `PreToolUse` hooks under its full name.
 *
 * @since 0.1.0
 */
import type * as McpSchema from "effect/ai/McpSchema"
import type * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ElicitationHandler from "./ElicitationHandler.js"
import * as InternalElicitation from "./internal/elicitation.js"
import * as Connection from "./internal/mcpConnection.js"
import * as internal from "./internal/mcpServer.js"
import type * as McpPrompt from "./McpPrompt.js"
import type * as McpResource from "./McpResource.js"
import type * as McpTool from "./McpTool.js"

/**
 * @since 0.1.0
 * @category Type ids
 */
export const TypeId: typeof internal.TypeId = internal.TypeId

/**
 * @since 0.1.0
 * @category Type ids
 */
export type TypeId = typeof TypeId

/**
 * An in-process MCP server, ready to be put in the `mcpServers` option. It
 * serializes as `{ type: "sdk", name }`.
 *
 * @since 0.1.0
 * @category Models
 */
export interface McpServer {
  readonly [TypeId]: TypeId
  readonly type: "sdk"
  /** The name in `serverInfo`. */
  readonly name: string
  readonly version: string
  /** Instructions for the model, sent in the `initialize` result. */
  readonly instructions: string | undefined
  /** Every tool is listed in the prompt rather than deferred behind tool search. */
  readonly alwaysLoad: boolean
  /** The timeout of tools, resources and prompts that set none. */
  readonly timeout: Duration.Duration
  readonly tools: ReadonlyArray<McpTool.McpTool.Any>
  /** The `tools/list` entries, JSON Schemas derived from the parameters Schemas. */
  readonly listings: ReadonlyArray<ToolListing>
  /** Resources and resource templates (`resources/list`, `resources/templates/list`, `resources/read`). */
  readonly resources: ReadonlyArray<McpResource.McpResource.Any>
  /** Prompts (`prompts/list`, `prompts/get`). */
  readonly prompts: ReadonlyArray<McpPrompt.McpPrompt.Any>
  readonly toJSON: () => { readonly type: "sdk"; readonly name: string }
}

/**
 * A tool as `tools/list` describes it (effect/ai's `McpSchema.Tool`).
 *
 * @since 0.1.0
 * @category Models
 */
export type ToolListing = McpSchema.Tool

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options<
  Tools extends ReadonlyArray<McpTool.McpTool.Any>,
  Resources extends ReadonlyArray<McpResource.McpResource.Any> = [],
  Prompts extends ReadonlyArray<McpPrompt.McpPrompt.Any> = []
> {
  /** The server's name in `serverInfo` (the key in `mcpServers` is what the CLI calls it). */
  readonly name: string
  /** Default `"1.0.0"`. */
  readonly version?: string | undefined
  /** Instructions for the model about these tools. */
  readonly instructions?: string | undefined
  readonly tools?: Tools | undefined
  /** Resources and templates (see `McpResource`). */
  readonly resources?: Resources | undefined
  /** Prompts (see `McpPrompt`). */
  readonly prompts?: Prompts | undefined
  /** How long a tool, a resource read or a prompt may run when it sets no timeout of its own (default 60 s). */
  readonly timeout?: Duration.Input | undefined
  /** List every tool in the prompt instead of deferring it behind tool search. Default `false`. */
  readonly alwaysLoad?: boolean | undefined
}

/**
 * A JSON-RPC response, as the server answers a message.
 *
 * @since 0.1.0
 * @category Models
 */
export type JsonRpcResponse = McpSchema.JsonRpcResponse

/**
 * Builds a server from its tools, resources and prompts, capturing the
 * services their handlers need from the context. Tool names must be unique
 * and made of letters, digits, `_` and `-` (at most 64), and every parameters
 * Schema must have an object-rooted JSON Schema (a Struct or Class); resource
 * URIs and prompt names must be unique, and a template's variables must be
 * the fields of its parameters: a server that breaks these rules is a defect,
 * with a message naming the culprit.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = <
  const Tools extends ReadonlyArray<McpTool.McpTool.Any> = [],
  const Resources extends ReadonlyArray<McpResource.McpResource.Any> = [],
  const Prompts extends ReadonlyArray<McpPrompt.McpPrompt.Any> = []
>(
  options: Options<Tools, Resources, Prompts>
): Effect.Effect<McpServer, never, Requirements<Tools, Resources, Prompts>> =>
  Effect.flatMap(
    Effect.context<Requirements<Tools, Resources, Prompts>>(),
    (context) => internal.makeServer(options, context as Context.Context<unknown> as Context.Context<never>)
  )

/**
 * The services the handlers of a server's tools, resources and prompts need.
 *
 * @since 0.1.0
 * @category Models
 */
export type Requirements<
  Tools extends ReadonlyArray<McpTool.McpTool.Any>,
  Resources extends ReadonlyArray<McpResource.McpResource.Any>,
  Prompts extends ReadonlyArray<McpPrompt.McpPrompt.Any>
> =
  | McpTool.McpTool.Requirements<Tools[number]>
  | McpResource.McpResource.Requirements<Resources[number]>
  | McpPrompt.McpPrompt.Requirements<Prompts[number]>

/**
 * Whether a value is an {@link McpServer} (an `mcpServers` entry served in
 * process).
 *
 * @since 0.1.0
 * @category Guards
 */
export const isMcpServer: (u: unknown) => u is McpServer = internal.isServer

/**
 * Answers one JSON-RPC message as the server does in a session (`initialize`,
 * `ping`, `tools/list`, `tools/call`, `resources/list`,
 * `resources/templates/list`, `resources/read`, `prompts/list`,
 * `prompts/get`, ...; method-not-found for anything else; the acknowledgement
 * the CLI expects for notifications). Each call is its own connection,
 * already initialized at protocol 2025-11-25: useful for tests and for
 * serving the tools elsewhere. A tool that elicits input is answered by the
 * `ElicitationHandler` in the context, if any (else `decline`).
 *
 * @since 0.1.0
 * @category Serving
 */
export const handle = (
  server: McpServer,
  message: unknown,
  options?: { readonly serverName?: string | undefined; readonly requestId?: string | undefined }
): Effect.Effect<JsonRpcResponse> =>
  Effect.flatMap(
    Effect.serviceOption(ElicitationHandler.ElicitationHandler),
    (elicitation) =>
      Effect.scoped(
        Effect.flatMap(
          Connection.connect(server, options?.serverName ?? server.name, {
            elicit: InternalElicitation.answer(Option.getOrUndefined(elicitation))
          }),
          (connection) => connection.answer(message, { requestId: options?.requestId ?? "local" })
        )
      )
  )
