/**
 * In-process MCP tools: a name, a description, a Schema for the arguments and
 * an Effect that handles a call. The handler gets the arguments decoded and
 * typed by the Schema, may use the application's services (they show in the
 * tool's type and are provided by `McpServer.make`), and answers with text,
 * structured content, images, or an error result.
 *
 * ```ts
 * const lookup = McpTool.make("lookup", {
 *   description: "Look up the stock of a product by SKU",
 *   parameters: Schema.Struct({ sku: Schema.String })
 * }, ({ sku }) =>
 *   Effect.gen(function*() {
 *     const inventory = yield* Inventory
 *     const stock = yield* inventory.stock(sku)
 *     return McpTool.structured({ sku, stock })
 *   }))
 * ```
 *
 * The model calls it as `mcp__<server>__<tool>` (see `McpServer`). A failing
 * or dying handler, a handler that outlives its timeout and arguments the
 * Schema rejects all become error results the model can read: the session
 * never crashes because a tool did. The wire shapes (`CallToolResult`,
 * content blocks) are effect/ai's `McpSchema`, as they are written.
 *
 * @since 0.1.0
 */
import * as McpSchema from "effect/ai/McpSchema"
import * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as Base64 from "effect/encoding/Base64"
import { type Pipeable, pipeArguments } from "effect/Pipeable"
import type * as Schema from "effect/Schema"
import * as internal from "./internal/mcpServerModel.js"

/**
 * @since 0.1.0
 * @category Type ids
 */
export const TypeId: unique symbol = Symbol.for("@claude-effect/sdk/McpTool")

/**
 * @since 0.1.0
 * @category Type ids
 */
export type TypeId = typeof TypeId

/**
 * A tool of an in-process MCP server. `A` is the type of its decoded
 * arguments, `R` the services its handler (and its parameters Schema) need.
 *
 * @since 0.1.0
 * @category Models
 */
export interface McpTool<out Name extends string, in out A, out R> extends Pipeable {
  readonly [TypeId]: TypeId
  /** The tool's name within its server; the model sees `mcp__<server>__<name>`. */
  readonly name: Name
  readonly description: string
  readonly title: string | undefined
  /** Decodes the arguments; its JSON Schema (of the encoded side) is what `tools/list` announces. */
  readonly parameters: Schema.Codec<A, unknown, unknown, unknown>
  readonly annotations: Annotations | undefined
  /** How long the handler may run; when unset, the server's timeout (default 60 s). */
  readonly timeout: Duration.Duration | undefined
  /** List the tool in every prompt instead of deferring it behind tool search. */
  readonly alwaysLoad: boolean
  /** Words that help tool search find the tool. */
  readonly searchHint: string | undefined
  readonly handler: (args: A, context: CallContext) => Effect.Effect<Result, unknown, R>
}

/**
 * @since 0.1.0
 */
export declare namespace McpTool {
  /**
   * Any tool.
   *
   * @since 0.1.0
   * @category Models
   */
  export type Any = McpTool<string, any, any>

  /**
   * The services a tool (or a union of tools) needs.
   *
   * @since 0.1.0
   * @category Models
   */
  export type Requirements<T> = T extends McpTool<any, any, infer R> ? R : never
}

/**
 * Hints about a tool's behaviour, as in MCP's `ToolAnnotations`. Clients may
 * use them; they are not enforced. (effect/ai lists the hints left unset
 * with MCP's defaults.)
 *
 * @since 0.1.0
 * @category Models
 */
export type Annotations = typeof McpSchema.ToolAnnotations.Encoded

/**
 * What a handler learns about the call besides its arguments.
 *
 * @since 0.1.0
 * @category Models
 */
export interface CallContext {
  /** The server's name in the `mcpServers` option (the middle part of `mcp__<server>__<tool>`). */
  readonly server: string
  /** The tool's name. */
  readonly tool: string
  /** The id of the model's `tool_use` block, when the CLI sends it. */
  readonly toolUseId: string | undefined
  /** The id of the `mcp_message` control request. */
  readonly requestId: string
  /**
   * Asks the user for input in the middle of the call (MCP elicitation, form
   * mode): `message` is shown with a form derived from `schema` (a flat
   * Struct of strings, numbers, booleans, literals and lists of strings), and
   * an accepted form comes back decoded by it. The session's
   * `ElicitationHandler` answers (in process: the CLI does not relay
   * elicitations of SDK servers); without one, or when it fails or times
   * out, the answer is `decline`. Fails with an {@link ElicitationError} when
   * the schema has no flat JSON Schema or the accepted content does not
   * decode.
   */
  readonly elicit: <A, I extends { readonly [key: string]: unknown }, R = never>(
    message: string,
    schema: Schema.Codec<A, I, R, unknown>
  ) => Effect.Effect<Elicited<A>, ElicitationError, R>
}

/**
 * The user's answer to an elicitation: the form, decoded, or a refusal
 * (`decline`: the user said no; `cancel`: the user dismissed the question).
 *
 * @since 0.1.0
 * @category Models
 */
export type Elicited<A> =
  | { readonly action: "accept"; readonly content: A }
  | { readonly action: "decline" }
  | { readonly action: "cancel" }

/**
 * An elicitation that could not be made or read: `InvalidSchema` when the
 * form Schema has no flat JSON Schema (MCP forms are flat: strings, numbers,
 * booleans, enumerations and lists of strings), `InvalidContent` when the
 * accepted form does not decode. A tool that does not handle it fails with
 * its message, which the model reads as an error result.
 *
 * @since 0.1.0
 * @category Errors
 */
export const ElicitationError: typeof internal.ElicitationError = internal.ElicitationError

/**
 * @since 0.1.0
 * @category Errors
 */
export type ElicitationError = internal.ElicitationError

/**
 * One content block of a tool result, as written on the wire (binary data as
 * base64 text): text, image, audio, a resource link or an embedded resource.
 *
 * @since 0.1.0
 * @category Models
 */
export type ContentBlock = typeof McpSchema.ContentBlock.Encoded

/**
 * The MCP result of a tool call (effect/ai's `McpSchema.CallToolResult`).
 * `isError: true` tells the model the call failed; `structuredContent` is the
 * machine-readable form of the result.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const CallToolResult: typeof McpSchema.CallToolResult = McpSchema.CallToolResult

/**
 * A tool result as a handler writes it: the wire shape of
 * {@link CallToolResult} (binary data as base64 text).
 *
 * @since 0.1.0
 * @category Models
 */
export type CallToolResult = typeof McpSchema.CallToolResult.Encoded

/**
 * What a handler answers: a string (one text block) or a complete
 * {@link CallToolResult} (see {@link text}, {@link structured}, {@link image},
 * {@link error}).
 *
 * @since 0.1.0
 * @category Models
 */
export type Result = string | CallToolResult

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options<A, I, R> {
  /** What the tool does, for the model. */
  readonly description: string
  /** The arguments: a Struct (or Class) Schema. The model gets the JSON Schema of its encoded side. */
  readonly parameters: Schema.Codec<A, I, R, unknown>
  /** A human-readable title. */
  readonly title?: string | undefined
  readonly annotations?: Annotations | undefined
  /** How long the handler may run before an error result answers (default: the server's, 60 s). */
  readonly timeout?: Duration.Input | undefined
  /**
   * List the tool in every prompt instead of deferring it behind tool search
   * (`_meta["anthropic/alwaysLoad"]`). Default `false`.
   */
  readonly alwaysLoad?: boolean | undefined
  /** Words that help tool search find the tool (`_meta["anthropic/searchHint"]`). */
  readonly searchHint?: string | undefined
}

const Proto = {
  [TypeId]: TypeId,
  pipe() {
    return pipeArguments(this, arguments)
  }
}

/**
 * A tool. `handler(args, context)` gets the arguments decoded by
 * `parameters`; the services it needs show in the tool's type and are
 * provided when `McpServer.make` builds the server.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = <
  const Name extends string,
  A,
  I extends { readonly [key: string]: unknown },
  RP = never,
  E = never,
  R = never
>(
  name: Name,
  options: Options<A, I, RP>,
  handler: (args: A, context: CallContext) => Effect.Effect<Result, E, R>
): McpTool<Name, A, R | RP> => {
  const tool = Object.create(Proto)
  tool.name = name
  tool.description = options.description
  tool.title = options.title
  tool.parameters = options.parameters
  tool.annotations = options.annotations
  tool.timeout = options.timeout !== undefined ? Duration.fromInputUnsafe(options.timeout) : undefined
  tool.alwaysLoad = options.alwaysLoad === true
  tool.searchHint = options.searchHint
  tool.handler = handler
  return tool
}

/**
 * Whether a value is an {@link McpTool}.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isMcpTool = (u: unknown): u is McpTool.Any => typeof u === "object" && u !== null && TypeId in u

// -----------------------------------------------------------------------------
// results
// -----------------------------------------------------------------------------

/**
 * A result of one text block.
 *
 * @since 0.1.0
 * @category Results
 */
export const text = (text: string): CallToolResult => ({ content: [{ type: "text", text }] })

/**
 * A structured result: `value` as `structuredContent`, and as JSON text (or
 * `options.text`) for clients that read only the content.
 *
 * @since 0.1.0
 * @category Results
 */
export const structured = (
  value: { readonly [key: string]: unknown },
  options?: { readonly text?: string | undefined }
): CallToolResult => ({
  content: [{ type: "text", text: options?.text ?? JSON.stringify(value) }],
  structuredContent: value
})

/**
 * A result of one image: raw bytes or base64 text, with its MIME type
 * (`image/png`, `image/jpeg`, ...), optionally followed by a caption.
 *
 * @since 0.1.0
 * @category Results
 */
export const image = (
  data: Uint8Array | string,
  mimeType: string,
  options?: { readonly caption?: string | undefined }
): CallToolResult => ({
  content: [
    { type: "image", data: typeof data === "string" ? data : Base64.encode(data), mimeType },
    ...(options?.caption !== undefined ? [{ type: "text" as const, text: options.caption }] : [])
  ]
})

/**
 * An error result: the model reads `message` as the reason the call failed
 * and can correct itself. (A handler that fails gets the same from its
 * error's message.)
 *
 * @since 0.1.0
 * @category Results
 */
export const error = (message: string): CallToolResult => ({
  content: [{ type: "text", text: message }],
  isError: true
})

/**
 * A result from content blocks.
 *
 * @since 0.1.0
 * @category Results
 */
export const content = (...blocks: ReadonlyArray<ContentBlock>): CallToolResult => ({ content: blocks })
