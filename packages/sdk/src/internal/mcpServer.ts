/**
 * The parts of in-process MCP servers that effect/ai's `McpServer` does not
 * express, registered on its registry: building a server from our tools,
 * resources and prompts (names checked, JSON Schemas derived once), and the
 * handlers effect/ai calls — arguments decoded by the tool's Schema with our
 * messages, the handler under the guarded run (timeout, fallback, result
 * validation), elicitation answered in process, resource templates whose
 * variables a Struct decodes, prompts whose arguments a Struct decodes.
 *
 * @internal
 */
import * as McpSchema from "effect/ai/McpSchema"
import type * as EffectMcpServer from "effect/ai/McpServer"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import * as Tracer from "effect/Tracer"
import type * as McpPrompt from "../McpPrompt.js"
import type * as McpResource from "../McpResource.js"
import type { McpServer, Options as ServerOptions } from "../McpServer.js"
import type * as McpTool from "../McpTool.js"
import type * as Protocol from "../Protocol.js"
import type * as Elicitation from "./elicitation.js"
import * as GuardedRun from "./guardedRun.js"
import * as HandlerContext from "./handlerContext.js"
import * as Issues from "./mcpIssues.js"
import * as Model from "./mcpServerModel.js"
import { ContextKey, DescriptorsKey, type ServerInternal } from "./mcpServerModel.js"

/** @internal */
export { ContextKey, DEFAULT_TIMEOUT, isServer, type ServerInternal, TypeId } from "./mcpServerModel.js"

// -----------------------------------------------------------------------------
// JSON Schemas
// -----------------------------------------------------------------------------

/** MCP tool names, kept to what the Messages API accepts in a tool name. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/

const DEFS = "#/$defs/"

/** Keys whose value maps names to schemas (a property named `$ref` is not a reference). */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(["properties", "patternProperties", "$defs", "definitions"])

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A self-contained JSON Schema: every reference into `$defs` inlined, except
 * recursive ones (kept, with their definitions). Not every client resolves
 * `$ref`; effect 4's generator references every schema with an identifier.
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

const objectsOf = (ast: SchemaAST.AST): SchemaAST.Objects | undefined => {
  const encoded = SchemaAST.toEncoded(ast)
  return SchemaAST.isObjects(encoded) ? encoded : undefined
}

/**
 * The JSON Schema `tools/list` announces for a tool: effect's generator on
 * the parameters' encoded side (what the model writes), made self-contained,
 * closed (`additionalProperties: false`), with an object root as MCP requires
 * (`Schema.Struct({})` is an empty object schema). Throws what is wrong.
 *
 * @internal
 */
export const inputSchemaOf = (parameters: Schema.Top): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(parameters, { onExcessProperty: "error" })
  const definitions = document.definitions as Record<string, unknown>
  let schema = inlineDefinitions(
    Object.keys(definitions).length > 0 ? { ...document.schema, $defs: definitions } : { ...document.schema }
  )
  const objects = objectsOf(parameters.ast)
  if (objects !== undefined && objects.propertySignatures.length === 0 && objects.indexSignatures.length === 0) {
    return { type: "object", properties: {} }
  }
  if (schema.type !== "object") {
    if (schema.anyOf === undefined && schema.oneOf === undefined) {
      throw new Error("its JSON Schema has no object root: use a Schema.Struct (or Class)")
    }
    schema = { type: "object", ...schema }
  }
  if (schema.properties === undefined && schema.anyOf === undefined && schema.oneOf === undefined) {
    schema = { ...schema, properties: {} }
  }
  return schema
}

const decodeTool = Schema.decodeUnknownResult(McpSchema.Tool, Issues.decodeOptions)

/** The `tools/list` entry of a tool (effect/ai's `McpSchema.Tool`). Throws what is wrong. @internal */
export const toolListing = (tool: McpTool.McpTool.Any, serverAlwaysLoad: boolean): McpSchema.Tool => {
  const meta: Record<string, unknown> = {}
  if (tool.alwaysLoad || serverAlwaysLoad) meta["anthropic/alwaysLoad"] = true
  if (tool.searchHint !== undefined) meta["anthropic/searchHint"] = tool.searchHint
  const decoded = decodeTool({
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: inputSchemaOf(tool.parameters),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {})
  })
  if (Result.isFailure(decoded)) throw new Error(Issues.describe(decoded.failure, "(tool)"))
  return decoded.success
}

// -----------------------------------------------------------------------------
// resource templates and prompt arguments
// -----------------------------------------------------------------------------

const VARIABLE = /\{([^{}]*)\}/g
const VARIABLE_NAME = /^[A-Za-z0-9_]+$/

/** A template's variables, in order, and the path effect/ai's URI matcher (find-my-way) reads. @internal */
export interface CompiledTemplate {
  readonly variables: ReadonlyArray<string>
  readonly routerPath: string
}

/**
 * Compiles `scheme://{a}/{b}` (RFC 6570 simple expansion; one variable per
 * segment) into effect/ai's router path (`scheme:://:0/:1`), checking the
 * variables against the fields of the parameters Schema's encoded side.
 *
 * @internal
 */
export const compileTemplate = (template: McpResource.McpResourceTemplate<any, any>): CompiledTemplate | string => {
  const label = `resource template ${JSON.stringify(template.uriTemplate)}`
  const variables: Array<string> = []
  const escape = (literal: string) => literal.replace(/:/g, "::")
  let routerPath = ""
  let last = 0
  for (const match of template.uriTemplate.matchAll(VARIABLE)) {
    const name = match[1]
    if (!VARIABLE_NAME.test(name)) {
      return `${label}: {${name}} is not a simple variable (use {name}, letters, digits and "_")`
    }
    if (variables.includes(name)) return `${label}: {${name}} appears twice`
    routerPath += `${escape(template.uriTemplate.slice(last, match.index))}:${variables.length}`
    variables.push(name)
    last = match.index + match[0].length
  }
  routerPath += escape(template.uriTemplate.slice(last))
  if (variables.length === 0) return `${label} has no {variable}: use McpResource.make for a fixed URI`
  const fields = objectsOf(template.parameters.ast)?.propertySignatures ?? []
  const names = fields.map((field) => String(field.name))
  const unknown = variables.filter((name) => !names.includes(name))
  const missing = fields.filter((field) => !SchemaAST.isOptional(field.type) && !variables.includes(String(field.name)))
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
  return { variables, routerPath }
}

/** The arguments a prompt lists, from its parameters Schema, or what is wrong with it. @internal */
export const promptArguments = (prompt: McpPrompt.McpPrompt.Any): ReadonlyArray<McpSchema.PromptArgument> | string => {
  const label = `prompt ${JSON.stringify(prompt.name)}`
  const encoded = objectsOf(prompt.parameters.ast)
  if (encoded === undefined || encoded.indexSignatures.length > 0) {
    return `${label}: its parameters must be a Struct of named fields`
  }
  const typeSide = SchemaAST.isObjects(prompt.parameters.ast) ? prompt.parameters.ast.propertySignatures : []
  const args: Array<McpSchema.PromptArgument> = []
  for (const field of encoded.propertySignatures) {
    if (typeof field.name !== "string") return `${label}: its parameters must have string keys`
    const typed = typeSide.find((candidate) => candidate.name === field.name)
    const description = (typed !== undefined ? SchemaAST.resolveDescription(typed.type) : undefined) ??
      SchemaAST.resolveDescription(field.type)
    args.push({
      name: field.name,
      ...(description !== undefined ? { description } : {}),
      required: !SchemaAST.isOptional(field.type)
    })
  }
  return args
}

const describedFields = (described: McpResource.Described) => ({
  name: described.name,
  ...(described.title !== undefined ? { title: described.title } : {}),
  ...(described.description !== undefined ? { description: described.description } : {}),
  ...(described.mimeType !== undefined ? { mimeType: described.mimeType } : {}),
  ...(described.annotations !== undefined ? { annotations: described.annotations } : {})
})

const decodeResource = Schema.decodeUnknownResult(McpSchema.Resource, Issues.decodeOptions)
const decodeTemplate = Schema.decodeUnknownResult(McpSchema.ResourceTemplate, Issues.decodeOptions)
const decodePrompt = Schema.decodeUnknownResult(McpSchema.Prompt, Issues.decodeOptions)

/** effect/ai's listing of a resource or a template, or what is wrong with it. */
const resourceDescriptor = (
  resource: McpResource.McpResource.Any
): Result.Result<McpSchema.Resource | McpSchema.ResourceTemplate, string> =>
  Result.mapError<McpSchema.Resource | McpSchema.ResourceTemplate, Schema.SchemaError, string>(
    resource._tag === "Resource"
      ? decodeResource({
        uri: resource.uri,
        ...describedFields(resource),
        ...(resource.size !== undefined ? { size: resource.size } : {})
      })
      : decodeTemplate({ uriTemplate: resource.uriTemplate, ...describedFields(resource) }),
    (error) => Issues.describe(error, "(resource)")
  )

// -----------------------------------------------------------------------------
// make
// -----------------------------------------------------------------------------

const problemOf = (cause: unknown) => (cause instanceof Error ? cause.message.split("\n")[0] : String(cause))

/**
 * Builds a server, checking its parts: tool names unique and fit for the
 * Messages API, every parameters Schema with an object-rooted JSON Schema,
 * resource URIs and prompt names unique, template variables the fields of
 * their parameters. A failed check is a defect naming the culprit.
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
    const listings: Array<McpSchema.Tool> = []
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
          `tool ${JSON.stringify(tool.name)}: its parameters have no usable JSON Schema (${problemOf(cause)})`
        )
      }
    }
    const resources = options.resources ?? []
    const uris = new Set<string>()
    const resourceDescriptors: Array<McpSchema.Resource | McpSchema.ResourceTemplate> = []
    for (const resource of resources) {
      const uri = resource._tag === "Resource" ? resource.uri : resource.uriTemplate
      if (uris.has(uri)) problems.push(`resource ${JSON.stringify(uri)} is defined twice`)
      uris.add(uri)
      if (resource._tag === "Template") {
        const compiled = compileTemplate(resource)
        if (typeof compiled === "string") problems.push(compiled)
      }
      const descriptor = resourceDescriptor(resource)
      if (Result.isFailure(descriptor)) problems.push(`resource ${JSON.stringify(uri)}: ${descriptor.failure}`)
      else resourceDescriptors.push(descriptor.success)
    }
    const prompts = options.prompts ?? []
    const promptNames = new Set<string>()
    const promptDescriptors: Array<McpSchema.Prompt> = []
    for (const prompt of prompts) {
      if (promptNames.has(prompt.name)) problems.push(`prompt ${JSON.stringify(prompt.name)} is defined twice`)
      promptNames.add(prompt.name)
      const args = promptArguments(prompt)
      if (typeof args === "string") {
        problems.push(args)
        continue
      }
      const descriptor = decodePrompt({
        name: prompt.name,
        ...(prompt.title !== undefined ? { title: prompt.title } : {}),
        ...(prompt.description !== undefined ? { description: prompt.description } : {}),
        ...(args.length > 0 ? { arguments: args } : {})
      })
      if (Result.isFailure(descriptor)) {
        problems.push(`prompt ${JSON.stringify(prompt.name)}: ${Issues.describe(descriptor.failure, "(prompt)")}`)
      } else promptDescriptors.push(descriptor.success)
    }
    if (problems.length > 0) {
      return Effect.die(new Error(`McpServer.make(${JSON.stringify(options.name)}): ${problems.join("; ")}`))
    }
    return Effect.succeed(Model.fromParts({
      ...options,
      tools,
      resources,
      prompts,
      alwaysLoad,
      listings,
      descriptors: { resources: resourceDescriptors, prompts: promptDescriptors },
      context: HandlerContext.capture(context)
    }))
  })

// -----------------------------------------------------------------------------
// handlers
// -----------------------------------------------------------------------------

/**
 * Where the call being served comes from: the `mcp_message` control request
 * that carried it. The connection provides it around each message it feeds
 * the server (effect/ai's request fibers inherit the writer's services).
 *
 * @internal
 */
export const CallSite = Context.Reference<{ readonly requestId: string }>("@claude-effect/sdk/McpServer/CallSite", {
  defaultValue: () => ({ requestId: "local" })
})

/** What a connection adds to every handler: the name the CLI knows the server by, who answers elicitations. @internal */
export interface Serving {
  readonly name: string
  readonly elicit: Elicitation.Answer
}

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
  const failure = Cause.findErrorOption(cause)
  if (Option.isSome(failure)) return errorMessage(failure.value)
  const defect = Cause.findDefect(cause)
  if (Result.isSuccess(defect)) return errorMessage(defect.success)
  return Cause.hasInterruptsOnly(cause) ? "the call was interrupted" : Cause.pretty(cause)
}

const errorResult = (text: string): McpSchema.CallToolResult =>
  new McpSchema.CallToolResult({ content: [{ type: "text", text }], isError: true })

const decodeCallToolResult = Schema.decodeUnknownResult(McpSchema.CallToolResult)

/** A handler's answer as effect/ai's result: a string is one text block; an object, the wire shape. */
const toolResultOf = (answer: unknown): Result.Result<McpSchema.CallToolResult, string> => {
  if (typeof answer === "string") {
    return Result.succeed(new McpSchema.CallToolResult({ content: [{ type: "text", text: answer }] }))
  }
  if (answer instanceof McpSchema.CallToolResult) return Result.succeed(answer)
  return Result.mapError(decodeCallToolResult(answer), (error) => Issues.describe(error, "(result)"))
}

const toolPolicy = (tool: string, timeout: Duration.Duration): GuardedRun.Policy<McpSchema.CallToolResult> => ({
  kind: "tool",
  fallsBack: "answered an error result",
  validate: toolResultOf,
  fallback: (reason, cause) =>
    errorResult(
      reason === "timeout"
        ? `The tool ${tool} did not finish within ${Duration.format(timeout)}; it was stopped.`
        : reason === "invalid_output"
        ? `The tool ${tool} returned a result that is not a valid MCP tool result.`
        : causeMessage(cause!)
    ),
  decisionOf: (result) => (result.isError === true ? "error" : "result")
})

/** The JSON Schema types an MCP elicitation form may use (MCP forms are flat). */
const FORM_TYPES: ReadonlySet<unknown> = new Set(["string", "number", "integer", "boolean", "array"])

/**
 * The `requested_schema` of a form Schema: its JSON Schema (as for tool
 * parameters), checked to be flat — every property a primitive, an
 * enumeration or a list of strings. What is wrong, or the schema.
 */
const formSchemaOf = (schema: Schema.Top): Result.Result<Record<string, unknown>, string> => {
  let json: Record<string, unknown>
  try {
    json = inputSchemaOf(schema)
  } catch (cause) {
    return Result.fail(`the form has no JSON Schema (${problemOf(cause)})`)
  }
  const properties = isPlainObject(json.properties) ? json.properties : undefined
  if (properties === undefined || json.anyOf !== undefined || json.oneOf !== undefined) {
    return Result.fail("the form must be one object of named fields")
  }
  const nested = Object.entries(properties).filter(([, property]) => {
    if (!isPlainObject(property)) return true
    if (property.type === undefined) return !Array.isArray(property.enum) && !Array.isArray(property.anyOf)
    if (!FORM_TYPES.has(property.type)) return true
    return property.type === "array" && (!isPlainObject(property.items) || property.items.type !== "string" &&
        !Array.isArray(property.items.enum))
  })
  return nested.length > 0
    ? Result.fail(`the fields ${nested.map(([name]) => JSON.stringify(name)).join(", ")} are not flat`)
    : Result.succeed(json)
}

/**
 * A tool's `context.elicit`: the question goes to the session's elicitation
 * answerer as an `elicitation` request of this server, and an accepted form
 * is decoded with the tool's Schema.
 */
const elicitFor = (serving: Serving, requestId: string): McpTool.CallContext["elicit"] => {
  let asked = 0
  return <A, I extends { readonly [key: string]: unknown }, R>(
    message: string,
    schema: Schema.Codec<A, I, R, unknown>
  ) =>
    Effect.suspend(() => {
      const requested = formSchemaOf(schema)
      if (Result.isFailure(requested)) {
        return Effect.fail(new Model.ElicitationError({ reason: "InvalidSchema", detail: requested.failure }))
      }
      const request: Protocol.ElicitationRequest = {
        subtype: "elicitation",
        mcp_server_name: serving.name,
        message,
        mode: "form",
        requested_schema: requested.success,
        property_order: Object.keys(requested.success.properties as Record<string, unknown>)
      }
      return Effect.flatMap(
        serving.elicit(request, { requestId: `${requestId}:elicitation:${++asked}` }),
        (result): Effect.Effect<McpTool.Elicited<A>, Model.ElicitationError, R> =>
          result.action === "accept"
            ? Schema.decodeUnknownEffect(schema, Issues.decodeOptions)(result.content ?? {}).pipe(
              Effect.mapBoth({
                onFailure: (error) =>
                  new Model.ElicitationError({
                    reason: "InvalidContent",
                    detail: Issues.describe(error, "(form)"),
                    cause: error
                  }),
                onSuccess: (content) => ({ action: "accept" as const, content })
              })
            )
            : Effect.succeed({ action: result.action })
      )
    })
}

type Registry = EffectMcpServer.McpServer["Service"]

/** The span of the request being served (effect/ai's `tools/call <name>`...): the run records its decision on it. */
const requestSpan = Effect.map(
  Effect.serviceOption(Tracer.ParentSpan),
  (span) => (Option.isSome(span) && span.value._tag === "Span" ? span.value : undefined)
)

/** A `tools/call` handler for effect/ai's registry: decode, guarded run, effect/ai's result. */
const toolHandler = (server: ServerInternal, tool: McpTool.McpTool.Any, serving: Serving) => {
  const decode = Schema.decodeUnknownEffect(tool.parameters, Issues.decodeOptions)
  const timeout = tool.timeout ?? server.timeout
  const policy = toolPolicy(tool.name, timeout)
  const services = server[ContextKey]
  const header = `Invalid arguments for tool ${tool.name}`
  return (
    payload: unknown
  ): Effect.Effect<McpSchema.CallToolResult, McpSchema.InvalidParams, McpSchema.McpRequestContext> =>
    Effect.gen(function*() {
      const site = yield* CallSite
      const request = yield* McpSchema.McpRequestContext
      const args = yield* Effect.result(
        Effect.provideContext(decode(payload ?? {}), services as Context.Context<unknown>)
      )
      // effect/ai answers InvalidParams from a tool as an isError result (protocol 2025-11-25).
      if (Result.isFailure(args)) {
        return yield* new McpSchema.InvalidParams({
          message: Issues.problemsMessage(header, "(arguments)", args.failure)
        })
      }
      const toolUseId = request.requestMetadata?.["claudecode/toolUseId"]
      const context: McpTool.CallContext = {
        server: serving.name,
        tool: tool.name,
        toolUseId: typeof toolUseId === "string" ? toolUseId : undefined,
        requestId: site.requestId,
        elicit: elicitFor(serving, site.requestId)
      }
      return yield* GuardedRun.run(policy, {
        subject: `MCP tool "${tool.name}"`,
        evaluate: () => tool.handler(args.success, context),
        context: services,
        span: yield* requestSpan,
        timeout,
        annotations: () => ({
          mcpServer: serving.name,
          tool: tool.name,
          requestId: site.requestId,
          ...(context.toolUseId !== undefined ? { toolUseId: context.toolUseId } : {})
        })
      }, GuardedRun.answerOf)
    })
}

/** What a resource read or a prompt answers once its handler settled: the result, or an MCP error message. */
type Served<A> = { readonly _tag: "Served"; readonly result: A } | { readonly _tag: "Failed"; readonly message: string }

/** Runs a resource's or a prompt's handler under the guarded run: its result, or effect/ai's InternalError. */
const serve = <A>(
  server: ServerInternal,
  handler: { readonly timeout: Duration.Duration | undefined },
  what: string,
  subject: string,
  annotations: Record<string, unknown>,
  validate: (answer: unknown) => Result.Result<A, string>,
  evaluate: () => Effect.Effect<unknown, unknown, unknown>
): Effect.Effect<A, McpSchema.InternalError> => {
  const timeout = handler.timeout ?? server.timeout
  const policy: GuardedRun.Policy<Served<A>> = {
    kind: "tool",
    fallsBack: "answered an MCP error",
    validate: (answer) => Result.map(validate(answer), (result) => ({ _tag: "Served", result })),
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
  return Effect.flatMap(
    Effect.flatMap(requestSpan, (span) =>
      GuardedRun.run(policy, {
        subject,
        // Its services are the server's, given as the run's context.
        evaluate: evaluate as () => Effect.Effect<unknown, unknown>,
        context: server[ContextKey],
        span,
        timeout,
        annotations: () => annotations
      }, GuardedRun.answerOf)),
    (served) =>
      served._tag === "Served"
        ? Effect.succeed(served.result)
        : Effect.fail(new McpSchema.InternalError({ message: served.message }))
  )
}

const decodeReadResult = Schema.decodeUnknownResult(McpSchema.ReadResourceResult, Issues.decodeOptions)

/** A content handler's answer as effect/ai's read result. */
const readResultOf =
  (uri: string, mimeType: string | undefined) =>
  (content: unknown): Result.Result<McpSchema.ReadResourceResult, string> =>
    typeof content === "string"
      ? Result.succeed({
        contents: [mimeType !== undefined ? { uri, mimeType, text: content } : { uri, text: content }]
      })
      : content instanceof Uint8Array
      ? Result.succeed({
        contents: [mimeType !== undefined ? { uri, mimeType, blob: content } : { uri, blob: content }]
      })
      : Result.mapError(decodeReadResult(content), (error) => Issues.describe(error, "(result)"))

const decodePromptResult = Schema.decodeUnknownResult(McpSchema.GetPromptResult, Issues.decodeOptions)

/** A prompt handler's answer as effect/ai's `prompts/get` result. */
const promptResultOf =
  (description: string | undefined) => (content: unknown): Result.Result<McpSchema.GetPromptResult, string> => {
    const messages = typeof content === "string"
      ? [{ role: "user", content: { type: "text", text: content } }]
      : Array.isArray(content)
      ? content
      : undefined
    return Result.mapError(
      decodePromptResult(
        messages === undefined ? content : description === undefined ? { messages } : { description, messages }
      ),
      (error) => Issues.describe(error, "(result)")
    )
  }

/** Decodes a handler's parameters (a Schema may use the server's services); rejected ones are InvalidParams. */
const decodeParameters = <P>(
  server: ServerInternal,
  parameters: Schema.Codec<P, unknown, unknown, unknown>,
  raw: unknown,
  header: string,
  root: string
): Effect.Effect<P, McpSchema.InvalidParams> =>
  Effect.provideContext(
    Schema.decodeUnknownEffect(parameters, Issues.decodeOptions)(raw),
    server[ContextKey] as Context.Context<unknown>
  ).pipe(
    Effect.mapError((error) => new McpSchema.InvalidParams({ message: Issues.problemsMessage(header, root, error) }))
  ) as Effect.Effect<P, McpSchema.InvalidParams>

/**
 * Registers the server's tools, resources, templates and prompts on one
 * effect/ai registry (one per connection: registries are not shared).
 *
 * @internal
 */
export const register = (server: McpServer, registry: Registry, serving: Serving): Effect.Effect<void> =>
  Effect.gen(function*() {
    const internal = server as ServerInternal
    const descriptors = internal[DescriptorsKey]
    for (const [index, tool] of server.tools.entries()) {
      yield* registry.addTool({
        tool: server.listings[index],
        annotations: Context.empty(),
        handle: toolHandler(internal, tool, serving)
      })
    }
    for (const [index, resource] of server.resources.entries()) {
      if (resource._tag === "Resource") {
        const uri = resource.uri
        yield* registry.addResource({
          resource: descriptors.resources[index] as McpSchema.Resource,
          annotations: Context.empty(),
          handle: serve(
            internal,
            resource,
            `The resource ${uri}`,
            `MCP resource "${uri}"`,
            { mcpServer: serving.name, resource: uri },
            readResultOf(uri, resource.mimeType),
            () => resource.content
          )
        })
        continue
      }
      const compiled = compileTemplate(resource) as CompiledTemplate
      const header = `Invalid URI for resource template ${resource.uriTemplate}`
      yield* registry.addResourceTemplate({
        template: descriptors.resources[index] as McpSchema.ResourceTemplate,
        annotations: Context.empty(),
        routerPath: compiled.routerPath,
        completions: {},
        handle: (uri, values) =>
          Effect.flatMap(
            decodeParameters(
              internal,
              resource.parameters,
              Object.fromEntries(compiled.variables.map((name, i) => [name, values[i]])),
              header,
              "(uri)"
            ),
            (params) =>
              serve(
                internal,
                resource,
                `The resource ${resource.uriTemplate}`,
                `MCP resource template "${resource.uriTemplate}"`,
                { mcpServer: serving.name, resource: uri, resourceTemplate: resource.uriTemplate },
                readResultOf(uri, resource.mimeType),
                () => resource.content(params, uri)
              )
          )
      })
    }
    for (const [index, prompt] of server.prompts.entries()) {
      yield* registry.addPrompt({
        prompt: descriptors.prompts[index],
        annotations: Context.empty(),
        completions: {},
        handle: (params) =>
          Effect.flatMap(
            decodeParameters(
              internal,
              prompt.parameters,
              params,
              `Invalid arguments for prompt ${prompt.name}`,
              "(arguments)"
            ),
            (decoded) =>
              serve(
                internal,
                prompt,
                `The prompt ${prompt.name}`,
                `MCP prompt "${prompt.name}"`,
                { mcpServer: serving.name, prompt: prompt.name },
                promptResultOf(prompt.description),
                () => prompt.content(decoded)
              )
          )
      })
    }
  })
