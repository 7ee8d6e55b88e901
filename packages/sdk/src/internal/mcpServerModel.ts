/**
 * What an in-process MCP server is, without the engine that serves it: its
 * identity, its default timeout, its construction from checked parts, and
 * the error of an elicitation a tool could not make. The options schema needs
 * to recognise a server without loading effect/ai's MCP server.
 *
 * @internal
 */
import type * as McpSchema from "effect/ai/McpSchema"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Schema from "effect/Schema"
import type * as McpPrompt from "../McpPrompt.js"
import type * as McpResource from "../McpResource.js"
import type { McpServer, ToolListing } from "../McpServer.js"
import type * as McpTool from "../McpTool.js"
import * as GuardedRun from "./guardedRun.js"

/** @internal */
export const TypeId: unique symbol = Symbol.for("@claude-effect/sdk/McpServer")

/** @internal */
export type TypeId = typeof TypeId

/** The default time a tool, resource or prompt handler may run (the guarded run's). @internal */
export const DEFAULT_TIMEOUT: Duration.Duration = GuardedRun.defaultTimeouts.tool

/** The services the handlers need, captured by `McpServer.make`. @internal */
export const ContextKey: unique symbol = Symbol.for("@claude-effect/sdk/McpServer/context")

/** The listings of a server's resources, templates and prompts, checked by `make`. @internal */
export const DescriptorsKey: unique symbol = Symbol.for("@claude-effect/sdk/McpServer/descriptors")

/** effect/ai's descriptors, by position in `resources` and `prompts`. @internal */
export interface Descriptors {
  readonly resources: ReadonlyArray<McpSchema.Resource | McpSchema.ResourceTemplate>
  readonly prompts: ReadonlyArray<McpSchema.Prompt>
}

/** A server with what the engine needs that users do not see. @internal */
export interface ServerInternal extends McpServer {
  readonly [ContextKey]: Context.Context<never>
  readonly [DescriptorsKey]: Descriptors
}

/** @internal */
export const isServer = (u: unknown): u is McpServer => typeof u === "object" && u !== null && TypeId in u

const Proto = {
  [TypeId]: TypeId,
  type: "sdk" as const,
  toJSON(this: McpServer) {
    return { type: "sdk", name: this.name }
  },
  toString(this: McpServer) {
    return `McpServer(${this.name})`
  }
}

/** A server from checked parts (the engine checks names and derives the listings). @internal */
export const fromParts = (parts: {
  readonly name: string
  readonly version?: string | undefined
  readonly instructions?: string | undefined
  readonly alwaysLoad: boolean
  readonly timeout?: Duration.Input | undefined
  readonly tools: ReadonlyArray<McpTool.McpTool.Any>
  readonly listings: ReadonlyArray<ToolListing>
  readonly resources?: ReadonlyArray<McpResource.McpResource.Any> | undefined
  readonly prompts?: ReadonlyArray<McpPrompt.McpPrompt.Any> | undefined
  readonly descriptors?: Descriptors | undefined
  readonly context: Context.Context<never>
}): McpServer => {
  const server = Object.create(Proto)
  server.name = parts.name
  server.version = parts.version ?? "1.0.0"
  server.instructions = parts.instructions
  server.alwaysLoad = parts.alwaysLoad
  server.timeout = parts.timeout !== undefined ? Duration.fromInputUnsafe(parts.timeout) : DEFAULT_TIMEOUT
  server.tools = parts.tools
  server.listings = parts.listings
  server.resources = parts.resources ?? []
  server.prompts = parts.prompts ?? []
  server[ContextKey] = parts.context
  server[DescriptorsKey] = parts.descriptors ?? { resources: [], prompts: [] }
  return server as McpServer
}

/** A server without tools (for arbitraries and tests). @internal */
export const empty = (name: string): McpServer =>
  fromParts({ name, alwaysLoad: false, tools: [], listings: [], context: Context.empty() })

/**
 * An elicitation of a tool that could not be made or read (re-exported by
 * `McpTool`).
 *
 * @internal
 */
export class ElicitationError extends Schema.TaggedError<ElicitationError>(
  "@claude-effect/sdk/McpTool/ElicitationError"
)("ElicitationError", {
  reason: Schema.Literals(["InvalidSchema", "InvalidContent"]),
  detail: Schema.String,
  cause: Schema.optionalKey(Schema.Defect())
}) {
  override get message(): string {
    return this.reason === "InvalidSchema"
      ? `Cannot ask for this form: ${this.detail}. Use a flat Schema.Struct of strings, numbers, booleans, literals or arrays of strings.`
      : `The answer to the elicitation does not match its schema: ${this.detail}`
  }
}
