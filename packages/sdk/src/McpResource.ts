/**
 * Resources of in-process MCP servers: data the model can list and read
 * (through the CLI's `ListMcpResourcesTool` and `ReadMcpResourceTool`) and
 * the program can read with `session.readMcpResource`. A resource is a URI,
 * a name and an Effect that produces its content; a template is a family of
 * URIs (`orders://{id}`) whose variables a Schema decodes.
 *
 * ```ts
 * const policy = McpResource.make({
 *   uri: "memo://returns-policy",
 *   name: "returns-policy",
 *   mimeType: "text/markdown"
 * }, Effect.succeed("Returns are accepted within 30 days."))
 *
 * const order = McpResource.template({
 *   uriTemplate: "orders://{id}",
 *   name: "order",
 *   parameters: Schema.Struct({ id: Schema.NumberFromString })
 * }, ({ id }) => Effect.map(Effect.service(Orders), (orders) => orders.describe(id)))
 * ```
 *
 * Put them in `McpServer.make({ resources: [...] })`. Content handlers are
 * Effects that may use the application's services (provided when the server
 * is made); they run under the server's timeout, and a failure is an MCP
 * error the model can read. Served by effect/ai's resource registry; a
 * template's variables are decoded by a Struct here (effect/ai's own
 * templates take one Schema per position).
 *
 * @since 0.1.0
 */
import * as McpSchema from "effect/ai/McpSchema"
import * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as Base64 from "effect/encoding/Base64"
import { type Pipeable, pipeArguments } from "effect/Pipeable"
import type * as Schema from "effect/Schema"

/**
 * @since 0.1.0
 * @category Type ids
 */
export const TypeId: unique symbol = Symbol.for("@claude-effect/sdk/McpResource")

/**
 * @since 0.1.0
 * @category Type ids
 */
export type TypeId = typeof TypeId

/**
 * What a resource is about, for clients: its audience, its priority, when it
 * changed last (MCP's `Annotations`).
 *
 * @since 0.1.0
 * @category Models
 */
export type Annotations = typeof McpSchema.Annotations.Encoded

/**
 * The result of reading a resource (effect/ai's `McpSchema.ReadResourceResult`):
 * one or more contents, each text or base64 bytes.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ReadResourceResult: typeof McpSchema.ReadResourceResult = McpSchema.ReadResourceResult

/**
 * A read result as a handler writes it: the wire shape of
 * {@link ReadResourceResult} (bytes as base64 text).
 *
 * @since 0.1.0
 * @category Models
 */
export type ReadResourceResult = typeof McpSchema.ReadResourceResult.Encoded

/**
 * What a content handler answers: text (one text content with the resource's
 * MIME type), bytes (one blob content), or a complete
 * {@link ReadResourceResult}.
 *
 * @since 0.1.0
 * @category Models
 */
export type Content = string | Uint8Array | ReadResourceResult

/**
 * The fields a resource and a template share.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Descriptor {
  /** A short name, for the model and for listings. */
  readonly name: string
  readonly title?: string | undefined
  /** What the resource holds: the model reads this in the listing. */
  readonly description?: string | undefined
  readonly mimeType?: string | undefined
  readonly annotations?: Annotations | undefined
  /** How long reading may take (default: the server's timeout, 60 s). */
  readonly timeout?: Duration.Input | undefined
}

/**
 * The fields a resource and a template share, as made.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Described extends Pipeable {
  readonly [TypeId]: TypeId
  readonly name: string
  readonly title: string | undefined
  readonly description: string | undefined
  readonly mimeType: string | undefined
  readonly annotations: Annotations | undefined
  readonly timeout: Duration.Duration | undefined
}

/**
 * A resource of a fixed URI.
 *
 * @since 0.1.0
 * @category Models
 */
export interface McpResource<out R> extends Described {
  readonly _tag: "Resource"
  readonly uri: string
  /** The size in bytes, when known. */
  readonly size: number | undefined
  readonly content: Effect.Effect<Content, unknown, R>
}

/**
 * A family of resources: a URI template (RFC 6570 simple expansion,
 * `orders://{id}`) whose variables `parameters` decodes.
 *
 * @since 0.1.0
 * @category Models
 */
export interface McpResourceTemplate<in out A, out R> extends Described {
  readonly _tag: "Template"
  readonly uriTemplate: string
  /** Decodes the template's variables (strings, as they appear in the URI). */
  readonly parameters: Schema.Codec<A, unknown, unknown, unknown>
  readonly content: (params: A, uri: string) => Effect.Effect<Content, unknown, R>
}

/**
 * @since 0.1.0
 */
export declare namespace McpResource {
  /**
   * Any resource or template.
   *
   * @since 0.1.0
   * @category Models
   */
  export type Any = McpResource<any> | McpResourceTemplate<any, any>

  /**
   * The services a resource (or a union of resources) needs.
   *
   * @since 0.1.0
   * @category Models
   */
  export type Requirements<T> = T extends McpResource<infer R> ? R
    : T extends McpResourceTemplate<any, infer R> ? R
    : never
}

const Proto = {
  [TypeId]: TypeId,
  pipe() {
    return pipeArguments(this, arguments)
  }
}

const describe = (target: Record<string, unknown>, options: Descriptor) => {
  target.name = options.name
  target.title = options.title
  target.description = options.description
  target.mimeType = options.mimeType
  target.annotations = options.annotations
  target.timeout = options.timeout !== undefined ? Duration.fromInputUnsafe(options.timeout) : undefined
}

/**
 * A resource of a fixed URI; `content` is run at each read.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = <E = never, R = never>(
  options: Descriptor & {
    readonly uri: string
    /** The size in bytes, when known (clients may show it). */
    readonly size?: number | undefined
  },
  content: Effect.Effect<Content, E, R>
): McpResource<R> => {
  const resource = Object.create(Proto)
  resource._tag = "Resource"
  resource.uri = options.uri
  resource.size = options.size
  describe(resource, options)
  resource.content = content
  return resource
}

/**
 * A resource template: `uriTemplate` names its variables in braces
 * (`orders://{id}`, `files://{dir}/{name}`), `parameters` decodes them (a
 * Struct whose fields are the variables, encoded as strings), and
 * `content(params, uri)` answers a read of a matching URI. A variable matches
 * one segment (no `/`).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const template = <A, I extends { readonly [key: string]: string | undefined }, RP = never, E = never, R = never>(
  options: Descriptor & {
    readonly uriTemplate: string
    readonly parameters: Schema.Codec<A, I, RP, unknown>
  },
  content: (params: A, uri: string) => Effect.Effect<Content, E, R>
): McpResourceTemplate<A, R | RP> => {
  const resource = Object.create(Proto)
  resource._tag = "Template"
  resource.uriTemplate = options.uriTemplate
  resource.parameters = options.parameters
  describe(resource, options)
  resource.content = content
  return resource
}

/**
 * Whether a value is a resource or a template.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isMcpResource = (u: unknown): u is McpResource.Any => typeof u === "object" && u !== null && TypeId in u

/**
 * A text content of `uri`.
 *
 * @since 0.1.0
 * @category Contents
 */
export const text = (
  uri: string,
  text: string,
  options?: { readonly mimeType?: string | undefined }
): ReadResourceResult["contents"][number] =>
  options?.mimeType !== undefined ? { uri, mimeType: options.mimeType, text } : { uri, text }

/**
 * A binary content of `uri`: raw bytes (sent base64-encoded) or base64 text.
 *
 * @since 0.1.0
 * @category Contents
 */
export const blob = (
  uri: string,
  data: Uint8Array | string,
  options?: { readonly mimeType?: string | undefined }
): ReadResourceResult["contents"][number] => {
  const blob = typeof data === "string" ? data : Base64.encode(data)
  return options?.mimeType !== undefined ? { uri, mimeType: options.mimeType, blob } : { uri, blob }
}
