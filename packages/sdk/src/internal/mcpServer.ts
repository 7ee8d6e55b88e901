/**
 * The engine of in-process MCP servers: building a server from its tools,
 * answering the JSON-RPC messages the CLI sends over `mcp_message`, and the
 * pieces a session adds to its router and its initialize request.
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import type * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as JSONSchema from "effect/JSONSchema"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import type * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import type { Options as ClaudeOptions } from "../ClaudeOptions.js"
import type { InboundHandler } from "../ControlRouter.js"
import type * as McpPrompt from "../McpPrompt.js"
import type * as McpResource from "../McpResource.js"
import type { McpServer, Options as ServerOptions } from "../McpServer.js"
import type * as McpTool from "../McpTool.js"
import type * as Protocol from "../Protocol.js"
import * as AnswerIssues from "./answerIssues.js"
import * as Elicitation from "./elicitation.js"
import * as GuardedRun from "./guardedRun.js"
import * as IssuePath from "./issuePath.js"
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
  options: ServerOptions<
    ReadonlyArray<McpTool.McpTool.Any>,
    ReadonlyArray<McpResource.McpResource.Any>,
    ReadonlyArray<McpPrompt.McpPrompt.Any>
  >,
  context: Context.Context<never>
): Effect.Effect<McpServer> =>
  Effect.suspend(() => {
    const problems: Array<string> = []
    const seen = new Set<string>()
    const listings: Array<Mcp.ToolListing> = []
    const alwaysLoad = options.alwaysLoad === true
    const tools = options.tools ?? []
    for (const tool of tools) {
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
    const resources = options.resources ?? []
    const uris = new Set<string>()
    for (const resource of resources) {
      const uri = resource._tag === "Resource" ? resource.uri : resource.uriTemplate
      if (uris.has(uri)) problems.push(`resource ${JSON.stringify(uri)} is defined twice`)
      uris.add(uri)
      if (resource._tag === "Template") {
        const compiled = compileTemplate(resource)
        if (typeof compiled === "string") problems.push(compiled)
      }
    }
    const prompts = options.prompts ?? []
    const promptNames = new Set<string>()
    for (const prompt of prompts) {
      if (promptNames.has(prompt.name)) problems.push(`prompt ${JSON.stringify(prompt.name)} is defined twice`)
      promptNames.add(prompt.name)
      const args = promptArguments(prompt)
      if (typeof args === "string") problems.push(args)
    }
    if (problems.length > 0) {
      return Effect.dieMessage(`McpServer.make(${JSON.stringify(options.name)}): ${problems.join("; ")}`)
    }
    return Effect.succeed(Model.fromParts({ ...options, tools, resources, prompts, alwaysLoad, listings, context }))
  })

/** The `initialize` result of a server. @internal */
export const initializeResult = (server: McpServer, protocolVersion: string = Mcp.LATEST_PROTOCOL_VERSION) => ({
  protocolVersion,
  capabilities: {
    tools: {},
    ...(server.resources.length > 0 ? { resources: {} } : {}),
    ...(server.prompts.length > 0 ? { prompts: {} } : {})
  },
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

const validateResult = AnswerIssues.validator(Mcp.CallToolResult, "the tool result")

const decodeOptions: AST.ParseOptions = { errors: "all", onExcessProperty: "ignore" }

// What the model reads when a tool's own result cannot be sent.
const errorResult = (text: string): McpTool.CallToolResult => ({ content: [{ type: "text", text }], isError: true })

/**
 * One policy per handler and timeout, built at its first use: a tool (a
 * resource, a prompt) may serve in servers of different timeouts, and its
 * fallback names the one it ran under.
 */
const policyCache = <P>() => {
  const cache = new WeakMap<object, Map<number, P>>()
  return (handler: object, timeout: Duration.Duration, build: () => P): P => {
    let byTimeout = cache.get(handler)
    if (byTimeout === undefined) cache.set(handler, byTimeout = new Map())
    const millis = Duration.toMillis(timeout)
    let policy = byTimeout.get(millis)
    if (policy === undefined) byTimeout.set(millis, policy = build())
    return policy
  }
}

const toolPolicies = policyCache<GuardedRun.Policy<McpTool.CallToolResult>>()

const toolPolicy = (
  tool: McpTool.McpTool.Any,
  timeout: Duration.Duration
): GuardedRun.Policy<McpTool.CallToolResult> =>
  toolPolicies(tool, timeout, () => ({
    kind: "tool",
    fallsBack: "answered an error result",
    validate: (answer) => {
      if (typeof answer === "string") return Either.right(toText(answer))
      return validateResult(answer)
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
  }))

/**
 * One tool call as a guarded run (the one fiber of its request: the router
 * starts it), or the response at once when its arguments do not decode.
 */
const toolRun = (
  server: ServerInternal,
  tool: McpTool.McpTool.Any,
  id: Mcp.JsonRpcId,
  args: unknown,
  context: McpTool.CallContext
): ToolRun => {
  const parameters = tool.parameters as Schema.Schema<unknown, unknown, never>
  const decoded = ParseResult.decodeUnknownEither(parameters, decodeOptions)(args)
  if (Either.isLeft(decoded)) {
    // A Schema with an asynchronous step cannot decode here: it decodes in the handler's fiber.
    if (!isAsyncIssue(decoded.left)) {
      return { _tag: "Response", response: invalidArguments(id, tool.name, decoded.left) }
    }
  }
  const timeout = tool.timeout ?? server.timeout
  const serverContext = server[ContextKey]
  const handler = (input: unknown) =>
    Effect.provide(tool.handler(input, context) as Effect.Effect<McpTool.Result, unknown>, serverContext)
  return {
    _tag: "Guarded",
    id,
    policy: toolPolicy(tool, timeout),
    call: {
      subject: `MCP tool "${tool.name}"`,
      evaluate: Either.isRight(decoded)
        ? () => handler(decoded.right)
        : () =>
          Effect.flatMap(
            Effect.either(ParseResult.decodeUnknown(parameters, decodeOptions)(args)),
            (late) =>
              Either.isRight(late) ? handler(late.right) : Effect.succeed(invalidArgumentsResult(tool.name, late.left))
          ),
      timeout,
      annotations: () => ({
        mcpServer: context.server,
        tool: tool.name,
        requestId: context.requestId,
        ...(context.toolUseId !== undefined ? { toolUseId: context.toolUseId } : {})
      })
    }
  }
}

/** A tool call: a response at once, or a guarded run of the handler. */
type ToolRun =
  | { readonly _tag: "Response"; readonly response: Mcp.JsonRpcResponse }
  | {
    readonly _tag: "Guarded"
    readonly id: Mcp.JsonRpcId
    readonly policy: GuardedRun.Policy<McpTool.CallToolResult>
    readonly call: GuardedRun.Call<never>
  }

/** Whether a synchronous decode stopped at an asynchronous step (which only an Effect decode can run). */
const isAsyncIssue = (issue: ParseResult.ParseIssue): boolean => {
  switch (issue._tag) {
    case "Forbidden":
      return true
    case "Pointer":
    case "Refinement":
    case "Transformation":
      return isAsyncIssue(issue.issue)
    case "Composite":
      return Array.isArray(issue.issues)
        ? issue.issues.some(isAsyncIssue)
        : isAsyncIssue(issue.issues as ParseResult.ParseIssue)
    default:
      return false
  }
}

const toText = (text: string): McpTool.CallToolResult => ({ content: [{ type: "text", text }] })

/** What is wrong with a request's arguments, one line per problem (the CLI hands it to the model verbatim). */
const problemsMessage = (header: string, root: string, problems: ReadonlyArray<IssuePath.Problem>): string =>
  `${header}:\n${problems.map((problem) => `- ${IssuePath.problemLine(problem, root)}`).join("\n")}`

/**
 * Arguments the Schema rejects: a JSON-RPC invalid-params error carrying the
 * Schema's message, one line per problem, with the problems as `data`.
 */
const invalidParams = (
  id: Mcp.JsonRpcId,
  header: string,
  root: string,
  issue: ParseResult.ParseIssue
): Mcp.JsonRpcResponse => {
  const problems = IssuePath.problemsOf(issue)
  return Mcp.failure(
    id,
    Mcp.ErrorCode.InvalidParams,
    problemsMessage(header, root, problems),
    { issues: problems.map((problem) => ({ path: problem.path.map(String), message: problem.message })) }
  )
}

const argumentsHeader = (tool: string) => `Invalid arguments for tool ${tool}`

const invalidArguments = (id: Mcp.JsonRpcId, tool: string, issue: ParseResult.ParseIssue): Mcp.JsonRpcResponse =>
  invalidParams(id, argumentsHeader(tool), "(arguments)", issue)

/** The same message as an error result, for arguments found wrong in the handler's fiber (an asynchronous Schema). */
const invalidArgumentsResult = (tool: string, issue: ParseResult.ParseIssue): McpTool.CallToolResult =>
  errorResult(problemsMessage(argumentsHeader(tool), "(arguments)", IssuePath.problemsOf(issue)))

/** A request's params decoded, or the invalid-params error that says what is wrong with them. */
const decodeParams = <A, I>(
  schema: Schema.Schema<A, I, never>,
  method: string,
  id: Mcp.JsonRpcId,
  params: unknown
): Either.Either<A, Mcp.JsonRpcResponse> =>
  Either.mapLeft(
    ParseResult.decodeUnknownEither(schema)(params),
    (issue) => Mcp.failure(id, Mcp.ErrorCode.InvalidParams, `Invalid ${method} params: ${IssuePath.describe(issue)}`)
  )

// -----------------------------------------------------------------------------
// elicitation from a tool
// -----------------------------------------------------------------------------

/** The JSON Schema types an MCP elicitation form may use (MCP forms are flat). */
const FORM_TYPES: ReadonlySet<unknown> = new Set(["string", "number", "integer", "boolean", "array"])

/**
 * The `requested_schema` of a form Schema: its JSON Schema (as for tool
 * parameters), checked to be flat — every property a primitive, an
 * enumeration or a list of strings. What is wrong, or the schema.
 */
const formSchemaOf = (schema: Schema.Schema.Any): Either.Either<Record<string, unknown>, string> => {
  let json: Record<string, unknown>
  try {
    json = inputSchemaOf(schema)
  } catch (cause) {
    return Either.left(
      `the form has no JSON Schema (${cause instanceof Error ? cause.message.split("\n")[0] : String(cause)})`
    )
  }
  const properties = isPlainObject(json.properties) ? json.properties : undefined
  if (properties === undefined || json.anyOf !== undefined || json.oneOf !== undefined) {
    return Either.left("the form must be one object of named fields")
  }
  const nested = Object.entries(properties).filter(([, property]) => {
    if (!isPlainObject(property)) return true
    if (property.type === undefined) return !Array.isArray(property.enum) && !Array.isArray(property.anyOf)
    if (!FORM_TYPES.has(property.type)) return true
    return property.type === "array" && (!isPlainObject(property.items) || property.items.type !== "string" &&
        !Array.isArray(property.items.enum))
  })
  return nested.length > 0
    ? Either.left(`the fields ${nested.map(([name]) => JSON.stringify(name)).join(", ")} are not flat`)
    : Either.right(json)
}

/**
 * A tool's `context.elicit`: the question goes to the session's elicitation
 * answerer as an `elicitation` request of this server, and an accepted form
 * is decoded with the tool's Schema.
 */
const elicitFor = (
  answer: Elicitation.Answer,
  server: string,
  requestId: string
): McpTool.CallContext["elicit"] => {
  let asked = 0
  return <A, I extends { readonly [key: string]: unknown }, R>(message: string, schema: Schema.Schema<A, I, R>) =>
    Effect.suspend(() => {
      const requested = formSchemaOf(schema)
      if (Either.isLeft(requested)) {
        return Effect.fail(new Mcp.ElicitationError({ reason: "InvalidSchema", detail: requested.left }))
      }
      const request: Protocol.ElicitationRequest = {
        subtype: "elicitation",
        mcp_server_name: server,
        message,
        mode: "form",
        requested_schema: requested.right,
        property_order: Object.keys(requested.right.properties as Record<string, unknown>)
      }
      return Effect.flatMap(
        answer(request, { requestId: `${requestId}:elicitation:${++asked}` }),
        (result): Effect.Effect<McpTool.Elicited<A>, McpTool.ElicitationError, R> =>
          result.action === "accept"
            ? Effect.mapBoth(ParseResult.decodeUnknown(schema, decodeOptions)(result.content ?? {}), {
              onFailure: (issue) =>
                new Mcp.ElicitationError({
                  reason: "InvalidContent",
                  detail: IssuePath.describe(issue, { whole: "(form)" }),
                  cause: issue
                }),
              onSuccess: (content) => ({ action: "accept" as const, content })
            })
            : Effect.succeed({ action: result.action })
      )
    })
}

// -----------------------------------------------------------------------------
// resources and prompts
// -----------------------------------------------------------------------------

/**
 * What a resource read or a prompt answers once its handler settled: the
 * result, or the message of an MCP error (a failure, a timeout, an answer
 * that is not valid). Every server handler runs under the guarded run.
 */
type Served<A> = { readonly _tag: "Served"; readonly result: A } | { readonly _tag: "Failed"; readonly message: string }

const servedPolicies = policyCache<GuardedRun.Policy<Served<any>>>()

/** The policy of a resource or a prompt. */
const servedPolicy = <A>(
  handler: object,
  schema: Schema.Schema<A, any, never>,
  what: string,
  timeout: Duration.Duration
): GuardedRun.Policy<Served<A>> =>
  servedPolicies(handler, timeout, () => {
    const validate = AnswerIssues.validator(schema, `the result of ${what}`)
    return {
      kind: "tool",
      fallsBack: "answered an MCP error",
      validate: (answer) => Either.map(validate(answer), (result) => ({ _tag: "Served", result })),
      fallback: (reason, cause) => ({
        _tag: "Failed",
        message: reason === "timeout"
          ? `${what} did not finish within ${Duration.format(timeout)}; it was stopped.`
          : reason === "invalid_output"
          ? `${what} returned a result that is not valid.`
          : causeMessage(cause!)
      }),
      decisionOf: (served) => (served._tag === "Served" ? "result" : "error")
    }
  })

/** What a resource or a prompt serves: its result's Schema, how messages and spans name it. */
interface Serving<A> {
  /** The resource, template or prompt (its timeout, else the server's). */
  readonly handler: { readonly timeout: Duration.Duration | undefined }
  readonly result: Schema.Schema<A, any, never>
  /** What the MCP error says: `The resource orders://{id}`. */
  readonly what: string
  /** What the fallback's warning says: `MCP resource template "orders://{id}"`. */
  readonly subject: string
  readonly annotations: Record<string, unknown>
}

/** Runs a server handler under the guarded run and answers with a JSON-RPC result or error. */
const serve = <A>(
  server: ServerInternal,
  id: Mcp.JsonRpcId,
  serving: Serving<A>,
  evaluate: () => Effect.Effect<unknown, unknown>
): Effect.Effect<Mcp.JsonRpcResponse> => {
  const timeout = serving.handler.timeout ?? server.timeout
  return Effect.flatMap(
    Effect.option(Effect.currentSpan),
    (span) =>
      GuardedRun.run(servedPolicy(serving.handler, serving.result, serving.what, timeout), {
        subject: serving.subject,
        span: Option.getOrUndefined(span),
        evaluate,
        timeout,
        annotations: () => serving.annotations
      }, (served) =>
        served._tag === "Served"
          ? Mcp.success(id, served.result)
          : Mcp.failure(id, Mcp.ErrorCode.InternalError, served.message))
  ).pipe(
    Effect.provide(server[ContextKey])
  )
}

/**
 * A handler's parameters decoded by its Schema (in the server's context: a
 * Schema may use services), then `serve`d; parameters the Schema rejects are
 * an invalid-params error.
 */
const withParameters = <P>(
  server: ServerInternal,
  id: Mcp.JsonRpcId,
  parameters: Schema.Schema<P, any, any>,
  raw: unknown,
  invalid: { readonly header: string; readonly root: string },
  served: (params: P) => Effect.Effect<Mcp.JsonRpcResponse>
): Effect.Effect<Mcp.JsonRpcResponse> =>
  Effect.flatMap(
    Effect.either(ParseResult.decodeUnknown(parameters as Schema.Schema<P, unknown, never>, decodeOptions)(raw)).pipe(
      Effect.provide(server[ContextKey])
    ),
    (decoded) =>
      Either.isLeft(decoded)
        ? Effect.succeed(invalidParams(id, invalid.header, invalid.root, decoded.left))
        : served(decoded.right)
  )

const VARIABLE = /\{([^{}]*)\}/g
const VARIABLE_NAME = /^[A-Za-z0-9_]+$/

/** A template's URI matcher, or what is wrong with the template. */
interface CompiledTemplate {
  readonly pattern: RegExp
  readonly variables: ReadonlyArray<string>
}

const compiled = new WeakMap<McpResource.McpResourceTemplate<any, any>, CompiledTemplate>()

/**
 * Compiles `scheme://{a}/{b}` (RFC 6570 simple expansion; one variable per
 * segment) into a matcher, checking the variables against the fields of the
 * parameters Schema's encoded side.
 */
const compileTemplate = (template: McpResource.McpResourceTemplate<any, any>): CompiledTemplate | string => {
  const known = compiled.get(template)
  if (known !== undefined) return known
  const label = `resource template ${JSON.stringify(template.uriTemplate)}`
  const variables: Array<string> = []
  let pattern = "^"
  let last = 0
  for (const match of template.uriTemplate.matchAll(VARIABLE)) {
    const name = match[1]
    if (!VARIABLE_NAME.test(name)) {
      return `${label}: {${name}} is not a simple variable (use {name}, letters, digits and "_")`
    }
    if (variables.includes(name)) return `${label}: {${name}} appears twice`
    variables.push(name)
    pattern += escapeRegExp(template.uriTemplate.slice(last, match.index)) + "([^/?#]+)"
    last = match.index! + match[0].length
  }
  pattern += escapeRegExp(template.uriTemplate.slice(last)) + "$"
  if (variables.length === 0) return `${label} has no {variable}: use McpResource.make for a fixed URI`
  const encoded = AST.encodedAST(template.parameters.ast)
  const fields = AST.getPropertySignatures(encoded)
  const names = fields.map((field) => String(field.name))
  const unknown = variables.filter((name) => !names.includes(name))
  const missing = fields.filter((field) => !field.isOptional && !variables.includes(String(field.name)))
  if (unknown.length > 0 || missing.length > 0) {
    return `${label}: ${
      [
        unknown.length > 0
          ? `{${unknown.join("}, {")}} ${unknown.length === 1 ? "is" : "are"} not a field of its parameters`
          : "",
        missing.length > 0
          ? `the required field(s) ${missing.map((field) => String(field.name)).join(", ")} are not in the URI`
          : ""
      ].filter((text) => text.length > 0).join("; ")
    }`
  }
  const result = { pattern: new RegExp(pattern), variables }
  compiled.set(template, result)
  return result
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The arguments a prompt lists, from its parameters Schema, or what is wrong with it. */
const promptArguments = (prompt: McpPrompt.McpPrompt.Any): ReadonlyArray<typeof Mcp.PromptArgument.Type> | string => {
  const label = `prompt ${JSON.stringify(prompt.name)}`
  const encoded = AST.encodedAST(prompt.parameters.ast)
  if (!AST.isTypeLiteral(encoded) || encoded.indexSignatures.length > 0) {
    return `${label}: its parameters must be a Struct of named fields`
  }
  const described = new Map<string, string>()
  for (const field of AST.getPropertySignatures(prompt.parameters.ast)) {
    const description = Option.orElse(
      AST.getDescriptionAnnotation(field),
      () => AST.getDescriptionAnnotation(field.type)
    )
    if (Option.isSome(description)) described.set(String(field.name), description.value)
  }
  const args: Array<typeof Mcp.PromptArgument.Type> = []
  for (const field of encoded.propertySignatures) {
    const name = String(field.name)
    if (typeof field.name !== "string") return `${label}: its parameters must have string keys`
    const description = described.get(name) ?? Option.getOrUndefined(AST.getDescriptionAnnotation(field.type))
    args.push({ name, ...(description !== undefined ? { description } : {}), required: !field.isOptional })
  }
  return args
}

/** The listing fields a resource and a template share (those that are set). */
const describedListing = (described: McpResource.Described) => ({
  name: described.name,
  ...(described.title !== undefined ? { title: described.title } : {}),
  ...(described.description !== undefined ? { description: described.description } : {}),
  ...(described.mimeType !== undefined ? { mimeType: described.mimeType } : {}),
  ...(described.annotations !== undefined ? { annotations: described.annotations } : {})
})

/** The `resources/list` entry of a resource. @internal */
export const resourceListing = (resource: McpResource.McpResource<any>): Mcp.ResourceListing => ({
  uri: resource.uri,
  ...describedListing(resource),
  ...(resource.size !== undefined ? { size: resource.size } : {})
})

/** The `resources/templates/list` entry of a template. @internal */
export const templateListing = (template: McpResource.McpResourceTemplate<any, any>): Mcp.ResourceTemplateListing => ({
  uriTemplate: template.uriTemplate,
  ...describedListing(template)
})

/** The `prompts/list` entry of a prompt. @internal */
export const promptListing = (prompt: McpPrompt.McpPrompt.Any): Mcp.PromptListing => {
  const args = promptArguments(prompt)
  return {
    name: prompt.name,
    ...(prompt.title !== undefined ? { title: prompt.title } : {}),
    ...(prompt.description !== undefined ? { description: prompt.description } : {}),
    ...(typeof args !== "string" && args.length > 0 ? { arguments: args } : {})
  }
}

/** A handler's content as a `resources/read` result. */
const readResult = (uri: string, mimeType: string | undefined, content: unknown): unknown =>
  typeof content === "string"
    ? { contents: [Mcp.textContents(uri, content, mimeType)] }
    : content instanceof Uint8Array
    ? { contents: [Mcp.blobContents(uri, content, mimeType)] }
    : content

/** A handler's content as a `prompts/get` result. */
const promptResult = (description: string | undefined, content: unknown): unknown => {
  const messages = typeof content === "string"
    ? [{ role: "user", content: { type: "text", text: content } }]
    : Array.isArray(content)
    ? content
    : undefined
  if (messages === undefined) return content
  return description === undefined ? { messages } : { description, messages }
}

/** Reads a resource of the server: a fixed one by its URI, else the first template that matches. */
const readResource = (
  server: ServerInternal,
  id: Mcp.JsonRpcId,
  uri: string
): Effect.Effect<Mcp.JsonRpcResponse> => {
  for (const resource of server.resources) {
    if (resource._tag === "Resource" && resource.uri === uri) {
      return serve(server, id, {
        handler: resource,
        result: Mcp.ReadResourceResult,
        what: `The resource ${uri}`,
        subject: `MCP resource "${uri}"`,
        annotations: { resource: uri }
      }, () =>
        Effect.map(resource.content, (content) => readResult(uri, resource.mimeType, content)) as Effect.Effect<
          unknown,
          unknown
        >)
    }
  }
  for (const resource of server.resources) {
    if (resource._tag !== "Template") continue
    const template = compileTemplate(resource)
    if (typeof template === "string") continue
    const match = template.pattern.exec(uri)
    if (match === null) continue
    const raw: Record<string, string> = {}
    try {
      template.variables.forEach((name, i) => (raw[name] = decodeURIComponent(match[i + 1])))
    } catch {
      return Effect.succeed(Mcp.failure(id, Mcp.ErrorCode.InvalidParams, `Invalid percent-encoding in ${uri}`))
    }
    return withParameters(
      server,
      id,
      resource.parameters,
      raw,
      { header: `Invalid URI for resource template ${resource.uriTemplate}`, root: "(uri)" },
      (params) =>
        serve(server, id, {
          handler: resource,
          result: Mcp.ReadResourceResult,
          what: `The resource ${resource.uriTemplate}`,
          subject: `MCP resource template "${resource.uriTemplate}"`,
          annotations: { resource: uri, resourceTemplate: resource.uriTemplate }
        }, () =>
          Effect.map(resource.content(params, uri), (content) =>
            readResult(uri, resource.mimeType, content)) as Effect.Effect<unknown, unknown>)
    )
  }
  return Effect.succeed(Mcp.failure(id, Mcp.RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri }))
}

/** Fills in a prompt of the server with its arguments, decoded by its Schema. */
const getPrompt = (
  server: ServerInternal,
  id: Mcp.JsonRpcId,
  name: string,
  args: Readonly<Record<string, string>>
): Effect.Effect<Mcp.JsonRpcResponse> => {
  const prompt = server.prompts.find((candidate) => candidate.name === name)
  if (prompt === undefined) {
    return Effect.succeed(Mcp.failure(id, Mcp.ErrorCode.InvalidParams, `Unknown prompt: ${name}`))
  }
  return withParameters(
    server,
    id,
    prompt.parameters,
    args,
    { header: `Invalid arguments for prompt ${name}`, root: "(arguments)" },
    (params) =>
      serve(server, id, {
        handler: prompt,
        result: Mcp.GetPromptResult,
        what: `The prompt ${name}`,
        subject: `MCP prompt "${name}"`,
        annotations: { prompt: name }
      }, () =>
        Effect.map(prompt.content(params), (content) =>
          promptResult(prompt.description, content)) as Effect.Effect<
            unknown,
            unknown
          >)
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
  /**
   * The same answer as the router runs it: a tool call is a guarded run (the request's one fiber, its
   * answer the `mcp_message` reply), anything else an Effect.
   */
  readonly answer: (message: unknown, site: { readonly requestId: string }) => Answer
}

/**
 * How a connection answers one message.
 *
 * @internal
 */
export type Answer =
  | { readonly _tag: "Effect"; readonly effect: Effect.Effect<Mcp.JsonRpcResponse> }
  | {
    readonly _tag: "Guarded"
    readonly id: Mcp.JsonRpcId
    readonly guarded: GuardedRun.Guarded<McpTool.CallToolResult>
  }

/**
 * What a connection needs from its session: who answers the elicitations of
 * its tools (default: nobody, every one is declined).
 *
 * @internal
 */
export interface ConnectOptions {
  readonly elicit?: Elicitation.Answer | undefined
}

/** @internal */
export const connect = (server: McpServer, name: string = server.name, options?: ConnectOptions): Connection => {
  const internal = server as ServerInternal
  const elicit = options?.elicit ?? Elicitation.answer(undefined)
  const tools = new Map(server.tools.map((tool) => [tool.name, tool] as const))
  const resourceListings = server.resources.flatMap((resource) =>
    resource._tag === "Resource" ? [resourceListing(resource)] : []
  )
  const templateListings = server.resources.flatMap((resource) =>
    resource._tag === "Template" ? [templateListing(resource)] : []
  )
  const promptListings = server.prompts.map(promptListing)
  // The tool calls running, by JSON-RPC id: `notifications/cancelled` answers one in its handler's place.
  const inFlight = new Map<string, GuardedRun.Answerable<McpTool.CallToolResult>>()
  const idKey = (id: Mcp.JsonRpcId) => `${typeof id}:${id}`

  const callTool = (id: Mcp.JsonRpcId, params: Readonly<Record<string, unknown>>, requestId: string): Answer => {
    const decoded = decodeParams(Mcp.CallToolParams, "tools/call", id, params)
    if (Either.isLeft(decoded)) return immediate(decoded.left)
    const call = decoded.right
    const tool = tools.get(call.name)
    if (tool === undefined) return immediate(Mcp.failure(id, Mcp.ErrorCode.InvalidParams, `Unknown tool: ${call.name}`))
    const toolUseId = call._meta?.["claudecode/toolUseId"]
    const context: McpTool.CallContext = {
      server: name,
      tool: call.name,
      toolUseId: typeof toolUseId === "string" ? toolUseId : undefined,
      requestId,
      elicit: elicitFor(elicit, name, requestId)
    }
    const run = toolRun(internal, tool, id, call.arguments ?? {}, context)
    if (run._tag === "Response") return immediate(run.response)
    const key = idKey(id)
    return {
      _tag: "Guarded",
      id,
      guarded: {
        policy: run.policy,
        call: run.call,
        encode: (result) => ({ mcp_response: Mcp.success(id, result) }),
        track: (running) => {
          if (running === undefined) inFlight.delete(key)
          else inFlight.set(key, running)
        }
      }
    }
  }

  // Only what the initialize result declares: a server without resources or prompts knows no such method.
  const declared = (method: string) =>
    method.startsWith("resources/") ?
      server.resources.length > 0
      : method.startsWith("prompts/") ?
      server.prompts.length > 0
      : true

  const request = (
    id: Mcp.JsonRpcId,
    method: string,
    params: Readonly<Record<string, unknown>>
  ): Effect.Effect<Mcp.JsonRpcResponse> => {
    switch (declared(method) ? method : "") {
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
      case "resources/list":
        return Effect.succeed(Mcp.success(id, { resources: resourceListings }))
      case "resources/templates/list":
        return Effect.succeed(Mcp.success(id, { resourceTemplates: templateListings }))
      case "resources/read": {
        const decoded = decodeParams(Mcp.ReadResourceParams, method, id, params)
        return Either.isLeft(decoded) ? Effect.succeed(decoded.left) : readResource(internal, id, decoded.right.uri)
      }
      case "prompts/list":
        return Effect.succeed(Mcp.success(id, { prompts: promptListings }))
      case "prompts/get": {
        const decoded = decodeParams(Mcp.GetPromptParams, method, id, params)
        return Either.isLeft(decoded)
          ? Effect.succeed(decoded.left)
          : getPrompt(internal, id, decoded.right.name, decoded.right.arguments ?? {})
      }
      default:
        return Effect.succeed(Mcp.failure(id, Mcp.ErrorCode.MethodNotFound, `Method not found: ${method}`))
    }
  }

  const notification = (method: string, params: Readonly<Record<string, unknown>>) =>
    Effect.suspend(() => {
      if (method === "notifications/cancelled") {
        // The CLI cancels a call it stopped waiting for (an interrupted turn): the handler is stopped, the
        // call answered with an error result.
        const target = params.requestId
        const running = typeof target === "string" || typeof target === "number"
          ? inFlight.get(idKey(target))
          : undefined
        running?.answer(errorResult("The tool call was cancelled."), "cancelled")
      }
      return Effect.void
    })

  const answer = (message: unknown, site: { readonly requestId: string }): Answer => {
    const incoming = Mcp.classify(message)
    switch (incoming._tag) {
      case "Request":
        return incoming.method === "tools/call" && declared(incoming.method)
          ? callTool(incoming.id, incoming.params, site.requestId)
          : { _tag: "Effect", effect: request(incoming.id, incoming.method, incoming.params) }
      case "Notification":
        return {
          _tag: "Effect",
          effect: Effect.as(notification(incoming.method, incoming.params), Mcp.notificationAck)
        }
      case "Response":
        // We never send requests to the client: nothing waits for this.
        return immediate(Mcp.notificationAck)
      case "Invalid":
        return immediate(Mcp.failure(incoming.id, Mcp.ErrorCode.InvalidRequest, incoming.reason))
    }
  }

  return {
    answer,
    handle: (message, site) =>
      Effect.suspend(() => {
        const answered = answer(message, site)
        if (answered._tag === "Effect") return answered.effect
        return GuardedRun.runGuarded(answered.guarded, (result) => Mcp.success(answered.id, result))
      })
  }
}

const immediate = (response: Mcp.JsonRpcResponse): Answer => ({ _tag: "Effect", effect: Effect.succeed(response) })

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
 * The SDK servers of one session, by the name the CLI knows them by: the
 * ones in the `mcpServers` option, then whatever `setMcpServers` put in
 * their place (the CLI replaces all SDK servers, the initial ones included).
 *
 * @internal
 */
export interface SessionServers {
  /** The router's `mcp_message` handler, routing each message to its server's connection. */
  readonly handler: InboundHandler
  /** The initialize fields of the servers of the options (none when there are none). */
  readonly initialize: Readonly<Record<string, unknown>>
  /** The servers now served. */
  readonly current: () => ReadonlyMap<string, McpServer>
  /**
   * Serves exactly these servers from now on: new ones get a connection,
   * absent ones lose theirs; a server already served under its name keeps its
   * connection (and its calls in flight).
   */
  readonly replace: (servers: ReadonlyMap<string, McpServer>) => void
  /** Answers one JSON-RPC message as the server `name` does; `undefined` when no server has that name. */
  readonly call: (name: string, message: unknown, requestId: string) => Effect.Effect<Mcp.JsonRpcResponse> | undefined
}

/**
 * The SDK servers among the options, with what they add to a session: the
 * `mcp_message` handler (always: servers may be added later), and the
 * initialize fields `sdkMcpServers` and `sdkMcpServerManifests` (the CLI
 * 2.1.328 takes the manifests: the servers are connected when initialize
 * returns, with no handshake over `mcp_message`; a CLI that does not take
 * them, and servers added later, handshake as usual, which the handler
 * answers too). `elicit` answers the elicitations of their tools.
 *
 * @internal
 */
export const sessionServers = (options: ClaudeOptions, connectOptions?: ConnectOptions): SessionServers => {
  const initial = sdkServers(options)
  const connections = new Map<string, { readonly server: McpServer; readonly connection: Connection }>()
  const replace = (servers: ReadonlyMap<string, McpServer>) => {
    for (const name of Array.from(connections.keys())) {
      if (servers.get(name) !== connections.get(name)!.server) connections.delete(name)
    }
    for (const [name, server] of servers) {
      if (!connections.has(name)) connections.set(name, { server, connection: connect(server, name, connectOptions) })
    }
  }
  replace(initial)
  const call = (name: string, message: unknown, requestId: string) =>
    connections.get(name)?.connection.handle(message, { requestId })
  const answer = (name: string, message: unknown, requestId: string) =>
    connections.get(name)?.connection.answer(message, { requestId })
  return {
    handler: inboundHandler(answer),
    initialize: initial.size === 0 ? {} : {
      sdkMcpServers: Array.from(initial.keys()),
      sdkMcpServerManifests: Object.fromEntries(Array.from(initial, ([name, server]) => [name, manifest(server)]))
    },
    current: () => new Map(Array.from(connections, ([name, { server }]) => [name, server] as const)),
    replace,
    call
  }
}

/**
 * The router's handler for `mcp_message`: routes each JSON-RPC message to
 * the connection of the server it names. It never answers with an error
 * reply (the CLI would mark the server failed): problems are JSON-RPC errors
 * or error results.
 */
const inboundHandler = (
  answer: (name: string, message: unknown, requestId: string) => Answer | undefined
): InboundHandler => {
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
      const message = request as Protocol.McpMessageRequest
      const method = methodOf(request)
      const tool = method === "tools/call"
        ? (message.message as { readonly params?: { readonly name?: unknown } }).params?.name
        : undefined
      return {
        [Telemetry.attributes.mcpServer]: message.server_name,
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
      const message = request as Protocol.McpMessageRequest
      const answered = answer(message.server_name, message.message, requestId)
      if (answered === undefined) {
        return { _tag: "Effect", effect: Effect.succeed(unknownServer(message.server_name, message.message)) }
      }
      // A tool call is the request's one fiber: the router starts its guarded run.
      return answered._tag === "Guarded"
        ? { _tag: "Guarded", guarded: answered.guarded }
        : { _tag: "Effect", effect: Effect.map(answered.effect, (response) => ({ mcp_response: response })) }
    }
  }
}
