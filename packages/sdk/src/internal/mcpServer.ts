/**
 * The engine of in-process MCP servers: building a server from its tools,
 * answering the JSON-RPC messages the CLI sends over `mcp_message`, and the
 * pieces a session adds to its router and its initialize request.
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import type * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as JSONSchema from "effect/JSONSchema"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import type { Options as ClaudeOptions } from "../ClaudeOptions.js"
import type { InboundHandler } from "../ControlRouter.js"
import type { McpServer, Options as ServerOptions } from "../McpServer.js"
import type * as McpTool from "../McpTool.js"
import type * as Protocol from "../Protocol.js"
import * as AnswerIssues from "./answerIssues.js"
import * as GuardedRun from "./guardedRun.js"
import { formatPath } from "./issuePath.js"
import * as Mcp from "./mcpProtocol.js"
import * as Model from "./mcpServerModel.js"
import { ContextKey, isServer, type ServerInternal } from "./mcpServerModel.js"
import * as Telemetry from "./telemetry.js"

// -----------------------------------------------------------------------------
// servers
// -----------------------------------------------------------------------------

/** @internal */
export { ContextKey, DEFAULT_TIMEOUT, isServer, type ServerInternal, TypeId } from "./mcpServerModel.js"

/** MCP tool names, kept to what the Messages API accepts in a tool name. @internal */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/

const DEFS = "#/$defs/"

/** Keys whose value maps names to schemas (a property named `$ref` is not a reference). */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(["properties", "patternProperties", "$defs", "definitions"])

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A self-contained JSON Schema: every reference into `$defs` inlined, except
 * recursive ones (kept, with their definitions), and Effect's internal `$id`s
 * dropped. Not every client resolves `$ref`.
 *
 * @internal
 */
export const inlineDefinitions = (root: Record<string, unknown>): Record<string, unknown> => {
  const { $defs, $schema: _, ...top } = root
  const defs = isPlainObject($defs) ? $defs : {}
  const kept = new Set<string>()
  const walk = (node: unknown, stack: ReadonlyArray<string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, stack))
    if (!isPlainObject(node)) return node
    const { $id: _id, $ref, ...rest } = node
    let out: Record<string, unknown> = {}
    if (typeof $ref === "string") {
      const name = $ref.startsWith(DEFS) ? $ref.slice(DEFS.length).replace(/~1/g, "/").replace(/~0/g, "~") : undefined
      if (name !== undefined && isPlainObject(defs[name]) && !stack.includes(name)) {
        out = walk(defs[name], [...stack, name]) as Record<string, unknown>
      } else {
        if (name !== undefined) kept.add(name)
        out = { $ref }
      }
    }
    for (const [key, value] of Object.entries(rest)) {
      out[key] = SCHEMA_MAPS.has(key) && isPlainObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, walk(schema, stack)]))
        : walk(value, stack)
    }
    return out
  }
  const schema = walk(top, []) as Record<string, unknown>
  if (kept.size === 0) return schema
  // Recursive definitions stay, themselves inlined up to their own recursion.
  const kept$defs: Record<string, unknown> = {}
  for (let size = -1; size !== kept.size;) {
    size = kept.size
    for (const name of Array.from(kept)) kept$defs[name] ??= walk(defs[name], [name])
  }
  return { ...schema, $defs: kept$defs }
}

/**
 * The JSON Schema `tools/list` announces for a tool: derived from the
 * parameters Schema (its encoded side: what the model writes) by
 * `JSONSchema.make`, made self-contained (see {@link inlineDefinitions}),
 * with `type: "object"` at the top as MCP requires (`Schema.Struct({})`, "any
 * object", becomes an empty object schema).
 *
 * @internal
 */
export const inputSchemaOf = (parameters: Schema.Schema.Any): Record<string, unknown> => {
  const made = JSONSchema.make(parameters as Schema.Schema<unknown, unknown, never>, { target: "jsonSchema2020-12" })
  let schema: Record<string, any> = inlineDefinitions(made as unknown as Record<string, unknown>)
  if (schema.type !== "object") {
    const empty = AST.getPropertySignatures(AST.encodedAST(parameters.ast)).length === 0 &&
      AST.isTypeLiteral(AST.encodedAST(parameters.ast))
    schema = empty ? { type: "object", properties: {} } : { type: "object", ...schema }
  }
  if (schema.properties === undefined && schema.anyOf === undefined && schema.oneOf === undefined) {
    schema = { ...schema, properties: {} }
  }
  return schema
}

/** The `tools/list` entry of a tool. @internal */
export const toolListing = (tool: McpTool.McpTool.Any, serverAlwaysLoad: boolean): Mcp.ToolListing => {
  const meta: Record<string, unknown> = {}
  if (tool.alwaysLoad || serverAlwaysLoad) meta["anthropic/alwaysLoad"] = true
  if (tool.searchHint !== undefined) meta["anthropic/searchHint"] = tool.searchHint
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: inputSchemaOf(tool.parameters),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {})
  }
}

/**
 * Builds a server, checking its tools: names must be unique and fit for the
 * Messages API, and every parameters Schema must have a JSON Schema. A
 * failed check is a defect (a programming error), with a message that says
 * which tool.
 *
 * @internal
 */
export const makeServer = (
  options: ServerOptions<ReadonlyArray<McpTool.McpTool.Any>>,
  context: Context.Context<never>
): Effect.Effect<McpServer> =>
  Effect.suspend(() => {
    const problems: Array<string> = []
    const seen = new Set<string>()
    const listings: Array<Mcp.ToolListing> = []
    const alwaysLoad = options.alwaysLoad === true
    for (const tool of options.tools) {
      if (!TOOL_NAME.test(tool.name)) {
        problems.push(`tool name ${JSON.stringify(tool.name)} must be 1-64 letters, digits, "_" or "-"`)
      }
      if (seen.has(tool.name)) problems.push(`tool ${JSON.stringify(tool.name)} is defined twice`)
      seen.add(tool.name)
      try {
        listings.push(toolListing(tool, alwaysLoad))
      } catch (cause) {
        problems.push(
          `tool ${JSON.stringify(tool.name)}: its parameters have no JSON Schema (${
            cause instanceof Error ? cause.message.split("\n")[0] : String(cause)
          })`
        )
      }
    }
    if (problems.length > 0) {
      return Effect.dieMessage(`McpServer.make(${JSON.stringify(options.name)}): ${problems.join("; ")}`)
    }
    return Effect.succeed(Model.fromParts({ ...options, alwaysLoad, listings, context }))
  })

/** The `initialize` result of a server. @internal */
export const initializeResult = (server: McpServer, protocolVersion: string = Mcp.LATEST_PROTOCOL_VERSION) => ({
  protocolVersion,
  capabilities: { tools: {} },
  serverInfo: { name: server.name, version: server.version },
  ...(server.instructions !== undefined ? { instructions: server.instructions } : {})
})

/**
 * The handshake results the CLI may take from the initialize request instead
 * of asking over `mcp_message` (`sdkMcpServerManifests`): with them the
 * server is connected at once and the first turn makes no handshake round
 * trips. They are exactly what the server answers to `initialize` (with the
 * protocol version the CLI asks for) and `tools/list`.
 *
 * @internal
 */
export const manifest = (server: McpServer) => ({
  initializeResult: initializeResult(server),
  toolsListResult: { tools: server.listings }
})

// -----------------------------------------------------------------------------
// tool calls
// -----------------------------------------------------------------------------

/** The message of an error value, for the model. @internal */
export const errorMessage = (error: unknown): string => {
  if (typeof error === "string") return error
  if (typeof error === "object" && error !== null) {
    const record = error as { readonly message?: unknown; readonly _tag?: unknown; readonly name?: unknown }
    const tag = typeof record._tag === "string" ? record._tag : undefined
    const message = typeof record.message === "string" ? record.message : undefined
    if (message !== undefined && message.length > 0) return tag !== undefined ? `${tag}: ${message}` : message
    if (tag !== undefined) return tag
    if (error instanceof Error) return error.name
  }
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}

/** The message of a cause: its first failure, else its first defect. @internal */
export const causeMessage = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.failureOption(cause)
  if (failure._tag === "Some") return errorMessage(failure.value)
  const defect = Cause.dieOption(cause)
  if (defect._tag === "Some") return errorMessage(defect.value)
  return Cause.isInterruptedOnly(cause) ? "the tool call was interrupted" : Cause.pretty(cause)
}

const validateResult = Schema.validateEither(Mcp.CallToolResult, { onExcessProperty: "preserve" })

const decodeOptions: AST.ParseOptions = { errors: "all", onExcessProperty: "ignore" }

// What the model reads when a tool's own result cannot be sent.
const errorResult = (text: string): McpTool.CallToolResult => ({ content: [{ type: "text", text }], isError: true })

// One policy per tool and timeout, built at its first call.
const toolPolicies = new WeakMap<McpTool.McpTool.Any, GuardedRun.Policy<McpTool.CallToolResult>>()

const toolPolicy = (
  tool: McpTool.McpTool.Any,
  timeout: Duration.Duration
): GuardedRun.Policy<McpTool.CallToolResult> => {
  let policy = toolPolicies.get(tool)
  if (policy === undefined) {
    policy = {
      kind: "tool",
      fallsBack: "answered an error result",
      validate: (answer) => {
        if (typeof answer === "string") return Either.right(toText(answer))
        return Either.mapLeft(validateResult(answer), (error) => AnswerIssues.format(error, "the tool result"))
      },
      fallback: (reason, cause) =>
        errorResult(
          reason === "timeout"
            ? `The tool ${tool.name} did not finish within ${Duration.format(timeout)}; it was stopped.`
            : reason === "invalid_output"
            ? `The tool ${tool.name} returned a result that is not a valid MCP tool result.`
            : causeMessage(cause!)
        ),
      decisionOf: (result) => (result.isError === true ? "error" : "result")
    }
    toolPolicies.set(tool, policy)
  }
  return policy
}

const runTool = (
  server: ServerInternal,
  tool: McpTool.McpTool.Any,
  id: Mcp.JsonRpcId,
  args: unknown,
  context: McpTool.CallContext
): Effect.Effect<Mcp.JsonRpcResponse> =>
  Effect.flatMap(
    Effect.either(
      ParseResult.decodeUnknown(tool.parameters as Schema.Schema<unknown, unknown, never>, decodeOptions)(args)
    ),
    (decoded) => {
      if (Either.isLeft(decoded)) return Effect.succeed(invalidArguments(id, tool.name, decoded.left))
      const timeout = tool.timeout ?? server.timeout
      // Recorded on the span the call runs in (the router's `claude.mcp.tool` span), if any.
      return Effect.flatMap(Effect.option(Effect.currentSpan), (span) =>
        GuardedRun.run(toolPolicy(tool, timeout), {
          subject: `MCP tool "${tool.name}"`,
          span: Option.getOrUndefined(span),
          evaluate: () => tool.handler(decoded.right, context) as Effect.Effect<McpTool.Result, unknown>,
          timeout,
          annotations: () => ({
            mcpServer: context.server,
            tool: tool.name,
            requestId: context.requestId,
            ...(context.toolUseId !== undefined ? { toolUseId: context.toolUseId } : {})
          })
        }, (result) => Mcp.success(id, result)))
    }
  ).pipe(Effect.provide(server[ContextKey]))

const toText = (text: string): McpTool.CallToolResult => ({ content: [{ type: "text", text }] })

const EXPECTED = /^Expected (.*), actual (.*)$/s

/** `Expected "a", actual "c"` and `Expected "b", actual "c"` at one path → `Expected "a" | "b", actual "c"`. */
const mergeUnionBranches = (
  issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>
): ReadonlyArray<ParseResult.ArrayFormatterIssue> => {
  const out: Array<ParseResult.ArrayFormatterIssue> = []
  for (const issue of issues) {
    const match = EXPECTED.exec(issue.message)
    const index = match === null ?
      -1 :
      out.findIndex((other) =>
        other.path.length === issue.path.length && other.path.every((segment, i) => segment === issue.path[i]) &&
        EXPECTED.exec(other.message)?.[2] === match[2]
      )
    if (index < 0 || match === null) {
      out.push(issue)
      continue
    }
    const previous = EXPECTED.exec(out[index].message)!
    out[index] = { ...out[index], message: `Expected ${previous[1]} | ${match[1]}, actual ${match[2]}` }
  }
  return out
}

/**
 * Arguments the Schema rejects: a JSON-RPC invalid-params error carrying the
 * Schema's message, one line per problem (the CLI hands the message to the
 * model verbatim as an error tool result), with the issues as `data`.
 */
const invalidArguments = (id: Mcp.JsonRpcId, tool: string, issue: ParseResult.ParseIssue): Mcp.JsonRpcResponse => {
  const issues = mergeUnionBranches(ParseResult.ArrayFormatter.formatIssueSync(issue))
  const lines = issues.map((entry) => `- ${formatPath(entry.path, "(arguments)")}: ${entry.message}`)
  return Mcp.failure(
    id,
    Mcp.ErrorCode.InvalidParams,
    `Invalid arguments for tool ${tool}:\n${lines.join("\n")}`,
    { issues: issues.map((entry) => ({ path: entry.path.map(String), message: entry.message })) }
  )
}

// -----------------------------------------------------------------------------
// JSON-RPC
// -----------------------------------------------------------------------------

/**
 * One connection of a client to a server: the state of one session (the
 * calls in flight, so that `notifications/cancelled` can stop them).
 *
 * @internal
 */
export interface Connection {
  /** Answers one JSON-RPC message; a notification gets the acknowledgement the CLI expects. */
  readonly handle: (message: unknown, site: { readonly requestId: string }) => Effect.Effect<Mcp.JsonRpcResponse>
}

/** @internal */
export const connect = (server: McpServer, name: string = server.name): Connection => {
  const internal = server as ServerInternal
  const tools = new Map(server.tools.map((tool) => [tool.name, tool] as const))
  const inFlight = new Map<string, Deferred.Deferred<void>>()
  const idKey = (id: Mcp.JsonRpcId) => `${typeof id}:${id}`

  const callTool = (id: Mcp.JsonRpcId, params: Readonly<Record<string, unknown>>, requestId: string) =>
    Effect.gen(function*() {
      const decoded = Schema.decodeUnknownEither(Mcp.CallToolParams)(params)
      if (Either.isLeft(decoded)) {
        return Mcp.failure(
          id,
          Mcp.ErrorCode.InvalidParams,
          `Invalid tools/call params: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`
        )
      }
      const call = decoded.right
      const tool = tools.get(call.name)
      if (tool === undefined) return Mcp.failure(id, Mcp.ErrorCode.InvalidParams, `Unknown tool: ${call.name}`)
      const toolUseId = call._meta?.["claudecode/toolUseId"]
      const context: McpTool.CallContext = {
        server: name,
        tool: call.name,
        toolUseId: typeof toolUseId === "string" ? toolUseId : undefined,
        requestId
      }
      const cancelled = yield* Deferred.make<void>()
      const key = idKey(id)
      inFlight.set(key, cancelled)
      // The CLI cancels a call it stopped waiting for (an interrupted turn) with notifications/cancelled.
      return yield* Effect.raceFirst(
        runTool(internal, tool, id, call.arguments ?? {}, context),
        Effect.as(
          Deferred.await(cancelled),
          Mcp.success(id, { content: [{ type: "text", text: "The tool call was cancelled." }], isError: true })
        )
      ).pipe(Effect.ensuring(Effect.sync(() => inFlight.delete(key))))
    })

  const request = (id: Mcp.JsonRpcId, method: string, params: Readonly<Record<string, unknown>>, requestId: string) => {
    switch (method) {
      case "initialize": {
        const asked = params.protocolVersion
        const version = typeof asked === "string" && Mcp.SUPPORTED_PROTOCOL_VERSIONS.includes(asked)
          ? asked
          : Mcp.LATEST_PROTOCOL_VERSION
        return Effect.succeed(Mcp.success(id, initializeResult(server, version)))
      }
      case "ping":
        return Effect.succeed(Mcp.success(id, {}))
      case "tools/list":
        return Effect.succeed(Mcp.success(id, { tools: server.listings }))
      case "tools/call":
        return callTool(id, params, requestId)
      default:
        return Effect.succeed(Mcp.failure(id, Mcp.ErrorCode.MethodNotFound, `Method not found: ${method}`))
    }
  }

  const notification = (method: string, params: Readonly<Record<string, unknown>>) =>
    Effect.suspend(() => {
      if (method === "notifications/cancelled") {
        const target = params.requestId
        const deferred = typeof target === "string" || typeof target === "number"
          ? inFlight.get(idKey(target))
          : undefined
        if (deferred !== undefined) return Effect.asVoid(Deferred.succeed(deferred, void 0))
      }
      return Effect.void
    })

  return {
    handle: (message, site) =>
      Effect.suspend(() => {
        const incoming = Mcp.classify(message)
        switch (incoming._tag) {
          case "Request":
            return request(incoming.id, incoming.method, incoming.params, site.requestId)
          case "Notification":
            return Effect.as(notification(incoming.method, incoming.params), Mcp.notificationAck)
          case "Response":
            // We never send requests to the client: nothing waits for this.
            return Effect.succeed(Mcp.notificationAck)
          case "Invalid":
            return Effect.succeed(Mcp.failure(incoming.id, Mcp.ErrorCode.InvalidRequest, incoming.reason))
        }
      })
  }
}

// -----------------------------------------------------------------------------
// sessions
// -----------------------------------------------------------------------------

/** The SDK servers among the `mcpServers` option, by the name the CLI knows them by. @internal */
export const sdkServers = (options: ClaudeOptions): ReadonlyMap<string, McpServer> => {
  const servers = new Map<string, McpServer>()
  for (const [name, config] of Object.entries(options.mcpServers ?? {})) {
    if (isServer(config)) servers.set(name, config)
  }
  return servers
}

const methodOf = (request: Protocol.InboundControlRequest): unknown =>
  ((request as Protocol.McpMessageRequest).message as { readonly method?: unknown } | undefined)?.method

const requestIdOf = (message: unknown): Mcp.JsonRpcId | undefined => {
  const id = typeof message === "object" && message !== null ? (message as { id?: unknown }).id : undefined
  return typeof id === "string" || typeof id === "number" ? id : undefined
}

/**
 * The router's handler for `mcp_message`: routes each JSON-RPC message to
 * the connection of the server it names. It never answers with an error
 * reply (the CLI would mark the server failed): problems are JSON-RPC errors
 * or error results.
 *
 * @internal
 */
export const inboundHandler = (servers: ReadonlyMap<string, McpServer>): InboundHandler => {
  const connections = new Map(Array.from(servers, ([name, server]) => [name, connect(server, name)] as const))
  const unknownServer = (name: string, message: unknown) => {
    const id = requestIdOf(message)
    return {
      mcp_response: id === undefined
        ? Mcp.notificationAck
        : Mcp.failure(id, Mcp.ErrorCode.MethodNotFound, `SDK MCP server not found: ${name}`)
    }
  }
  return {
    subtype: "mcp_message",
    // A tool call's span is the tool's (`claude.mcp.tool`); other MCP messages have the request's.
    spanName: (request) => methodOf(request) === "tools/call" ? Telemetry.spans.mcpTool : Telemetry.spans.inbound,
    attributes: (request) => {
      const call = request as Protocol.McpMessageRequest
      const method = methodOf(request)
      const tool = method === "tools/call"
        ? (call.message as { readonly params?: { readonly name?: unknown } }).params?.name
        : undefined
      return {
        [Telemetry.attributes.mcpServer]: call.server_name,
        ...(typeof method === "string" ? { [Telemetry.attributes.mcpMethod]: method } : {}),
        ...(typeof tool === "string" ? { [Telemetry.attributes.tool]: tool } : {})
      }
    },
    undecodable: (raw) => {
      const message = (raw as { message?: unknown } | undefined)?.message
      const id = requestIdOf(message)
      return {
        mcp_response: id === undefined
          ? Mcp.notificationAck
          : Mcp.failure(id, Mcp.ErrorCode.InvalidRequest, "the SDK could not read this mcp_message request")
      }
    },
    handle: (request, { requestId }) => {
      const call = request as Protocol.McpMessageRequest
      const connection = connections.get(call.server_name)
      return {
        _tag: "Effect",
        effect: connection === undefined
          ? Effect.succeed(unknownServer(call.server_name, call.message))
          : Effect.map(connection.handle(call.message, { requestId }), (response) => ({ mcp_response: response }))
      }
    }
  }
}

/**
 * What the SDK servers among the options add to a session: the `mcp_message`
 * handler, and the initialize fields `sdkMcpServers` and
 * `sdkMcpServerManifests` (the CLI 2.1.328 takes the manifests: the servers
 * are connected when initialize returns, with no handshake over
 * `mcp_message`; a CLI that does not take them handshakes as usual, which the
 * handler answers too). Nothing when there are none.
 *
 * @internal
 */
export const sessionExtras = (options: ClaudeOptions): {
  readonly handlers: ReadonlyArray<InboundHandler>
  readonly initialize: Readonly<Record<string, unknown>>
} => {
  const servers = sdkServers(options)
  if (servers.size === 0) return { handlers: [], initialize: {} }
  return {
    handlers: [inboundHandler(servers)],
    initialize: {
      sdkMcpServers: Array.from(servers.keys()),
      sdkMcpServerManifests: Object.fromEntries(Array.from(servers, ([name, server]) => [name, manifest(server)]))
    }
  }
}
