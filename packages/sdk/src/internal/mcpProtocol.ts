/**
 * The part of MCP (protocol `2025-11-25`) an SDK-hosted server speaks over
 * `mcp_message`: JSON-RPC envelopes, error codes, and the shapes of tool,
 * resource and prompt listings and results.
 *
 * Not `@effect/ai`'s `McpSchema`: its schemas are `Rpc`s of `@effect/rpc`
 * (the core would carry `@effect/ai`, `@effect/rpc` and
 * `@effect/experimental` as peers for a few structs), they follow protocol
 * `2025-06-18` and drop the fields they do not declare (a tool's and a
 * resource's `_meta`, where the CLI reads its `anthropic/*` hints such as
 * `anthropic/alwaysLoad`), and they decode base64 to bytes where the wire
 * keeps text.
 * These are closed structs that keep unknown keys, named as MCP names them.
 *
 * @internal
 */
import * as Encoding from "effect/Encoding"
import * as Schema from "effect/Schema"
import { closedStruct, Json, JsonObject, optional } from "./protocol/json.js"

/** The MCP protocol version the CLI 2.1.328 asks for, and the one we answer with. @internal */
export const LATEST_PROTOCOL_VERSION = "2025-11-25"

/** The versions we accept when a client asks for one (newest first). @internal */
export const SUPPORTED_PROTOCOL_VERSIONS: ReadonlyArray<string> = [
  LATEST_PROTOCOL_VERSION,
  "2025-06-18",
  "2025-03-26",
  "2024-11-05"
]

/** JSON-RPC error codes. @internal */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603
} as const

/** A JSON-RPC id: a string or a number. @internal */
export type JsonRpcId = string | number

/** @internal */
export interface JsonRpcError {
  readonly code: number
  readonly message: string
  readonly data?: unknown
}

/** A JSON-RPC response. @internal */
export type JsonRpcResponse =
  | { readonly jsonrpc: "2.0"; readonly id: JsonRpcId; readonly result: unknown }
  | { readonly jsonrpc: "2.0"; readonly id: JsonRpcId | null; readonly error: JsonRpcError }

/**
 * What the TS SDK answers to a notification (a message without `id`): the
 * CLI expects a response body even then.
 *
 * @internal
 */
export const notificationAck: JsonRpcResponse = { jsonrpc: "2.0", result: {}, id: 0 }

/** @internal */
export const success = (id: JsonRpcId, result: unknown): JsonRpcResponse => ({ jsonrpc: "2.0", id, result })

/** @internal */
export const failure = (id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcResponse => ({
  jsonrpc: "2.0",
  id,
  error: data === undefined ? { code, message } : { code, message, data }
})

/** A JSON-RPC message as it arrives: a request, a notification, or a response to us. @internal */
export type Incoming =
  | {
    readonly _tag: "Request"
    readonly id: JsonRpcId
    readonly method: string
    readonly params: Readonly<Record<string, unknown>>
  }
  | { readonly _tag: "Notification"; readonly method: string; readonly params: Readonly<Record<string, unknown>> }
  | { readonly _tag: "Response" }
  | { readonly _tag: "Invalid"; readonly id: JsonRpcId | null; readonly reason: string }

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const isId = (u: unknown): u is JsonRpcId => typeof u === "string" || (typeof u === "number" && Number.isFinite(u))

/** Classifies one JSON-RPC message. @internal */
export const classify = (message: unknown): Incoming => {
  if (!isRecord(message)) return { _tag: "Invalid", id: null, reason: "a JSON-RPC message must be an object" }
  const id = "id" in message && message.id !== null && message.id !== undefined ? message.id : undefined
  if (id !== undefined && !isId(id)) {
    return { _tag: "Invalid", id: null, reason: "a JSON-RPC id must be a string or a number" }
  }
  if (typeof message.method === "string") {
    const params = isRecord(message.params) ? message.params : {}
    if (id === undefined) return { _tag: "Notification", method: message.method, params }
    return message.params !== undefined && !isRecord(message.params)
      ? { _tag: "Invalid", id, reason: "params must be an object" }
      : { _tag: "Request", id, method: message.method, params }
  }
  if ("result" in message || "error" in message) return { _tag: "Response" }
  return { _tag: "Invalid", id: id ?? null, reason: "a JSON-RPC request needs a method" }
}

// -----------------------------------------------------------------------------
// tool results
// -----------------------------------------------------------------------------

const Annotations = Schema.Struct({
  audience: optional(Schema.Array(Schema.Literal("user", "assistant"))),
  priority: optional(Schema.Number),
  lastModified: optional(Schema.String)
}).annotations({ parseOptions: { onExcessProperty: "preserve" } })

const meta = { _meta: optional(JsonObject) }

/** @internal */
export const TextContent = closedStruct({
  type: Schema.Literal("text"),
  text: Schema.String,
  annotations: optional(Annotations),
  ...meta
}).annotations({ identifier: "TextContent" })

/** @internal */
export const ImageContent = closedStruct({
  type: Schema.Literal("image"),
  /** Base64-encoded image bytes. */
  data: Schema.String,
  mimeType: Schema.String,
  annotations: optional(Annotations),
  ...meta
}).annotations({ identifier: "ImageContent" })

/** @internal */
export const AudioContent = closedStruct({
  type: Schema.Literal("audio"),
  /** Base64-encoded audio bytes. */
  data: Schema.String,
  mimeType: Schema.String,
  annotations: optional(Annotations),
  ...meta
}).annotations({ identifier: "AudioContent" })

/** @internal */
export const ResourceLink = closedStruct({
  type: Schema.Literal("resource_link"),
  uri: Schema.String,
  name: Schema.String,
  title: optional(Schema.String),
  description: optional(Schema.String),
  mimeType: optional(Schema.String),
  size: optional(Schema.Number),
  annotations: optional(Annotations),
  ...meta
}).annotations({ identifier: "ResourceLink" })

/** @internal */
export const EmbeddedResource = closedStruct({
  type: Schema.Literal("resource"),
  resource: Schema.Union(
    closedStruct({ uri: Schema.String, mimeType: optional(Schema.String), text: Schema.String, ...meta }),
    closedStruct({ uri: Schema.String, mimeType: optional(Schema.String), blob: Schema.String, ...meta })
  ),
  annotations: optional(Annotations),
  ...meta
}).annotations({ identifier: "EmbeddedResource" })

/** @internal */
export const ContentBlock = Schema.Union(TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource)
  .annotations({ identifier: "ContentBlock" })

/** @internal */
export const CallToolResult = closedStruct({
  content: Schema.Array(ContentBlock),
  structuredContent: optional(JsonObject),
  isError: optional(Schema.Boolean),
  ...meta
}).annotations({ identifier: "CallToolResult" })

/** @internal */
export const ToolAnnotations = closedStruct({
  title: optional(Schema.String),
  readOnlyHint: optional(Schema.Boolean),
  destructiveHint: optional(Schema.Boolean),
  idempotentHint: optional(Schema.Boolean),
  openWorldHint: optional(Schema.Boolean)
}).annotations({ identifier: "ToolAnnotations" })

/** A tool as `tools/list` describes it. @internal */
export const ToolListing = closedStruct({
  name: Schema.String,
  title: optional(Schema.String),
  description: Schema.String,
  inputSchema: JsonObject,
  annotations: optional(ToolAnnotations),
  ...meta
}).annotations({ identifier: "ToolListing" })

/** @internal */
export type ToolListing = typeof ToolListing.Type

/** The params of `tools/call`. @internal */
export const CallToolParams = Schema.Struct({
  name: Schema.String,
  arguments: optional(Schema.Union(JsonObject, Schema.Null)),
  _meta: optional(JsonObject)
}, Schema.Record({ key: Schema.String, value: Json }))

// -----------------------------------------------------------------------------
// resources
// -----------------------------------------------------------------------------

/** Resource not found (MCP's code for `resources/read` of an unknown URI). @internal */
export const RESOURCE_NOT_FOUND = -32002

/** The fields every content of a resource has. */
const resourceContents = { uri: Schema.String, mimeType: optional(Schema.String) }

/** @internal */
export const TextResourceContents = closedStruct({
  ...resourceContents,
  text: Schema.String,
  ...meta
}).annotations({ identifier: "TextResourceContents" })

/** @internal */
export const BlobResourceContents = closedStruct({
  ...resourceContents,
  /** Base64-encoded bytes. */
  blob: Schema.String,
  ...meta
}).annotations({ identifier: "BlobResourceContents" })

/** The result of `resources/read`. @internal */
export const ReadResourceResult = closedStruct({
  contents: Schema.Array(Schema.Union(TextResourceContents, BlobResourceContents)),
  ...meta
}).annotations({ identifier: "ReadResourceResult" })

/** @internal */
export type ReadResourceResult = typeof ReadResourceResult.Type

/** A text content of `uri`. @internal */
export const textContents = (uri: string, text: string, mimeType?: string | undefined) => ({
  uri,
  ...(mimeType !== undefined ? { mimeType } : {}),
  text
})

/** A binary content of `uri`: raw bytes (sent base64-encoded) or base64 text. @internal */
export const blobContents = (uri: string, data: Uint8Array | string, mimeType?: string | undefined) => ({
  uri,
  ...(mimeType !== undefined ? { mimeType } : {}),
  blob: typeof data === "string" ? data : Encoding.encodeBase64(data)
})

/** The fields a resource and a resource template are listed with. */
const resourceDescription = {
  name: Schema.String,
  title: optional(Schema.String),
  description: optional(Schema.String),
  mimeType: optional(Schema.String),
  annotations: optional(Annotations),
  ...meta
}

/** A resource as `resources/list` describes it. @internal */
export const ResourceListing = closedStruct({
  uri: Schema.String,
  ...resourceDescription,
  size: optional(Schema.Number)
}).annotations({ identifier: "ResourceListing" })

/** @internal */
export type ResourceListing = typeof ResourceListing.Type

/** A resource template as `resources/templates/list` describes it. @internal */
export const ResourceTemplateListing = closedStruct({
  uriTemplate: Schema.String,
  ...resourceDescription
}).annotations({ identifier: "ResourceTemplateListing" })

/** @internal */
export type ResourceTemplateListing = typeof ResourceTemplateListing.Type

/** The params of `resources/read`. @internal */
export const ReadResourceParams = Schema.Struct(
  { uri: Schema.String },
  Schema.Record({ key: Schema.String, value: Json })
)

/** Resource annotations (MCP's `Annotations`). @internal */
export const ResourceAnnotations = Annotations

// -----------------------------------------------------------------------------
// prompts
// -----------------------------------------------------------------------------

/** An argument of a prompt, as `prompts/list` describes it. @internal */
export const PromptArgument = closedStruct({
  name: Schema.String,
  title: optional(Schema.String),
  description: optional(Schema.String),
  required: optional(Schema.Boolean)
}).annotations({ identifier: "PromptArgument" })

/** A prompt as `prompts/list` describes it. @internal */
export const PromptListing = closedStruct({
  name: Schema.String,
  title: optional(Schema.String),
  description: optional(Schema.String),
  arguments: optional(Schema.Array(PromptArgument)),
  ...meta
}).annotations({ identifier: "PromptListing" })

/** @internal */
export type PromptListing = typeof PromptListing.Type

/** One message of a prompt. @internal */
export const PromptMessage = closedStruct({
  role: Schema.Literal("user", "assistant"),
  content: ContentBlock
}).annotations({ identifier: "PromptMessage" })

/** The result of `prompts/get`. @internal */
export const GetPromptResult = closedStruct({
  description: optional(Schema.String),
  messages: Schema.Array(PromptMessage),
  ...meta
}).annotations({ identifier: "GetPromptResult" })

/** @internal */
export type GetPromptResult = typeof GetPromptResult.Type

/** The params of `prompts/get`. @internal */
export const GetPromptParams = Schema.Struct({
  name: Schema.String,
  arguments: optional(Schema.Union(Schema.Record({ key: Schema.String, value: Schema.String }), Schema.Null))
}, Schema.Record({ key: Schema.String, value: Json }))

/** The arguments of a prompt that takes none. @internal */
export const NoArguments = Schema.Struct({})

/**
 * An elicitation of a tool that could not be made or read (re-exported by
 * `McpTool`).
 *
 * @internal
 */
export class ElicitationError
  extends Schema.TaggedError<ElicitationError>("@claude-effect/sdk/McpTool/ElicitationError")(
    "ElicitationError",
    {
      reason: Schema.Literal("InvalidSchema", "InvalidContent"),
      detail: Schema.String,
      cause: Schema.optional(Schema.Defect)
    }
  )
{
  override get message(): string {
    return this.reason === "InvalidSchema"
      ? `Cannot ask for this form: ${this.detail}. Use a flat Schema.Struct of strings, numbers, booleans, literals or arrays of strings.`
      : `The answer to the elicitation does not match its schema: ${this.detail}`
  }
}
