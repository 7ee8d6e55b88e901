/**
 * What an in-process MCP server is, without the engine that serves it: its
 * identity, its default tool timeout and its construction from parts. The
 * options schema needs to recognise a server (and to make one for its
 * arbitrary) without loading JSON Schema derivation and the JSON-RPC engine.
 *
 * @internal
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
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

/** The services the tools' handlers need, captured by `McpServer.make`. @internal */
export const ContextKey: unique symbol = Symbol.for("@claude-effect/sdk/McpServer/context")

/** A server with what the engine needs that users do not see. @internal */
export interface ServerInternal extends McpServer {
  readonly [ContextKey]: Context.Context<never>
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
  readonly timeout?: Duration.DurationInput | undefined
  readonly tools: ReadonlyArray<McpTool.McpTool.Any>
  readonly listings: ReadonlyArray<ToolListing>
  readonly resources?: ReadonlyArray<McpResource.McpResource.Any> | undefined
  readonly prompts?: ReadonlyArray<McpPrompt.McpPrompt.Any> | undefined
  readonly context: Context.Context<never>
}): McpServer => {
  const server = Object.create(Proto)
  server.name = parts.name
  server.version = parts.version ?? "1.0.0"
  server.instructions = parts.instructions
  server.alwaysLoad = parts.alwaysLoad
  server.timeout = parts.timeout !== undefined ? Duration.decode(parts.timeout) : DEFAULT_TIMEOUT
  server.tools = parts.tools
  server.listings = parts.listings
  server.resources = parts.resources ?? []
  server.prompts = parts.prompts ?? []
  server[ContextKey] = parts.context
  return server as McpServer
}

/** A server without tools (for arbitraries and tests). @internal */
export const empty = (name: string): McpServer =>
  fromParts({ name, alwaysLoad: false, tools: [], listings: [], context: Context.empty() })
