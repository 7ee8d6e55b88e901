/**
 * Serving an in-process MCP server to one client (a session's CLI, or one
 * `McpServer.handle` call) on effect/ai's `McpServer`: its own registry, its
 * own runtime, fed by an in-memory `RpcServer.Protocol` of ours. The
 * `mcp_message` control requests carry JSON-RPC messages in; each request's
 * response is the reply of its control request, and notifications are
 * acknowledged at once, as the CLI expects.
 *
 * Why a protocol of ours rather than `McpServer.layerStdio`: stdio frames
 * lines and interrupts the fiber that built it when its output ends, has one
 * client per process, and its layer shares the memoized `McpServer` registry
 * between servers of one layer graph. Here every connection is built as a
 * plain scoped Effect (no layer memoization, one registry each), and
 * messages go in and out as objects.
 *
 * @internal
 */
import * as McpProtocol from "effect/ai/McpProtocol"
import * as McpSchema from "effect/ai/McpSchema"
import * as EffectMcpServer from "effect/ai/McpServer"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Queue from "effect/Queue"
import type * as RpcMessage from "effect/rpc/RpcMessage"
import * as RpcSerialization from "effect/rpc/RpcSerialization"
import * as RpcServer from "effect/rpc/RpcServer"
import * as Scope from "effect/Scope"
import type { McpServer } from "../McpServer.js"
import type * as Protocol from "../Protocol.js"
import * as Elicitation from "./elicitation.js"
import { CallSite, isServer, register } from "./mcpServer.js"
import * as Telemetry from "./telemetry.js"

/** The MCP protocol version the CLI 2.1.328 asks for; a connection is initialized with it. @internal */
export const LATEST_PROTOCOL_VERSION = "2025-11-25"

/** The versions a client may ask for (newest first: an unknown one gets the first). */
const PROTOCOLS = [
  McpProtocol.v2025_11_25,
  McpProtocol.v2025_06_18,
  McpProtocol.v2025_03_26,
  McpProtocol.v2024_11_05
] as const

/** @internal */
export type JsonRpcId = string | number

/** @internal */
export type JsonRpcResponse = McpSchema.JsonRpcResponse

/** What the TS SDK answers to a notification: the CLI expects a response body even then. @internal */
export const notificationAck: JsonRpcResponse = { jsonrpc: "2.0", result: {}, id: 0 }

const failure = (id: JsonRpcId | null, code: number, message: string): JsonRpcResponse => ({
  jsonrpc: "2.0",
  id,
  error: { code, message }
})

/** A JSON-RPC message as it arrives: a request, a notification, a response to us, or nothing we can read. */
type Incoming =
  | { readonly _tag: "Request"; readonly id: JsonRpcId; readonly method: string; readonly params: unknown }
  | { readonly _tag: "Notification"; readonly method: string; readonly params: unknown }
  | { readonly _tag: "Response" }
  | { readonly _tag: "Invalid"; readonly id: JsonRpcId | null; readonly reason: string }

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const isId = (u: unknown): u is JsonRpcId => typeof u === "string" || (typeof u === "number" && Number.isFinite(u))

// effect/ai's JSON-RPC parsing silently drops what is not an object: every mcp_message needs a reply.
const classify = (message: unknown): Incoming => {
  if (!isRecord(message)) return { _tag: "Invalid", id: null, reason: "a JSON-RPC message must be an object" }
  const id = message.id ?? undefined
  if (id !== undefined && !isId(id)) {
    return { _tag: "Invalid", id: null, reason: "a JSON-RPC id must be a string or a number" }
  }
  if (typeof message.method === "string") {
    return id === undefined
      ? { _tag: "Notification", method: message.method, params: message.params }
      : { _tag: "Request", id, method: message.method, params: message.params }
  }
  if ("result" in message || "error" in message) return { _tag: "Response" }
  return { _tag: "Invalid", id: id ?? null, reason: "a JSON-RPC request needs a method" }
}

/** A response of effect/ai's server (an encoded Exit) as JSON-RPC. */
const toJsonRpc = (id: JsonRpcId, exit: RpcMessage.ResponseExitEncoded["exit"]): JsonRpcResponse => {
  if (exit._tag === "Success") return { jsonrpc: "2.0", id, result: exit.value }
  for (const reason of exit.cause) {
    if (reason._tag === "Fail" && isRecord(reason.error) && typeof reason.error.code === "number") {
      const { code, data, message } = reason.error
      return {
        jsonrpc: "2.0",
        id,
        error: {
          code,
          message: typeof message === "string" ? message : "Error",
          ...(data !== undefined ? { data } : {})
        }
      }
    }
  }
  return failure(id, McpSchema.INTERNAL_ERROR_CODE, "Internal error")
}

/** The answer to a call the client cancelled (effect/ai sends none; the control request still needs one). */
const cancelledAnswer = (id: JsonRpcId, method: string): JsonRpcResponse =>
  method === "tools/call"
    ? {
      jsonrpc: "2.0",
      id,
      result: { content: [{ type: "text", text: "The tool call was cancelled." }], isError: true }
    }
    : failure(id, McpSchema.INTERNAL_ERROR_CODE, "The request was cancelled.")

/** What a connection needs from its session: who answers the elicitations of its tools (default: nobody). @internal */
export interface ConnectOptions {
  readonly elicit?: Elicitation.Answer | undefined
}

/** The handshake results a CLI can take from the initialize request instead of asking (`sdkMcpServerManifests`). @internal */
export interface Manifest {
  readonly initializeResult: unknown
  readonly toolsListResult: unknown
}

/**
 * One client's connection to a server.
 *
 * @internal
 */
export interface Connection {
  /** Answers one JSON-RPC message; a notification gets the acknowledgement the CLI expects. */
  readonly answer: (message: unknown, site: { readonly requestId: string }) => Effect.Effect<JsonRpcResponse>
  /** What the server answered to `initialize` and `tools/list` at connect. */
  readonly manifest: Manifest
}

interface Pending {
  readonly clientId: number
  readonly method: string
  readonly deferred: Deferred.Deferred<JsonRpcResponse>
}

/**
 * Connects to `server` under the name the CLI knows it by: a registry of its
 * own, effect/ai's server running over an in-memory protocol in the current
 * scope, initialized at protocol 2025-11-25 (a CLI that took the manifests
 * calls tools without a handshake). Closing the scope stops it, and with it
 * every handler still running.
 *
 * @internal
 */
export const connect = (
  server: McpServer,
  name: string = server.name,
  options?: ConnectOptions
): Effect.Effect<Connection, never, Scope.Scope> =>
  Effect.gen(function*() {
    const registry = yield* EffectMcpServer.McpServer.make
    yield* register(server, registry, { name, elicit: options?.elicit ?? Elicitation.answer(undefined) })

    // Requests waiting for the server's response, by client and JSON-RPC id.
    const pending = new Map<string, Pending>()
    const keyOf = (clientId: number, id: JsonRpcId) => `${clientId}:${typeof id}:${id}`
    const clientIds = new Set<number>([0])
    // Each `initialize` from the client starts a client of its own (effect/ai keeps the version a client
    // negotiated); client 0 is initialized at connect, so that a CLI that took the manifests can call at once.
    let current = 0
    const disconnects = yield* Queue.make<number>()
    let write!: (clientId: number, message: RpcMessage.FromClientEncoded) => Effect.Effect<void>
    const protocol = yield* RpcServer.Protocol.make((writeRequest) => {
      write = writeRequest
      return Effect.succeed({
        disconnects,
        send: (clientId: number, response: RpcMessage.FromServerEncoded) => {
          // Server-to-client notifications and requests have no route to the CLI (v3 sent none either).
          if (response._tag !== "Exit") return Effect.void
          const key = keyOf(clientId, response.requestId)
          const waiting = pending.get(key)
          if (waiting === undefined) return Effect.void
          pending.delete(key)
          return Deferred.succeed(waiting.deferred, toJsonRpc(response.requestId, response.exit))
        },
        end: () => Effect.void,
        clientIds: Effect.sync(() => clientIds),
        initialMessage: Effect.succeedNone,
        supportsAck: false,
        supportsTransferables: false,
        supportsSpanPropagation: false,
        supportsNotifications: true,
        codecFor: RpcSerialization.json.codecFor
      })
    })
    yield* EffectMcpServer.run({
      name: server.name,
      version: server.version,
      instructions: server.instructions,
      protocols: PROTOCOLS
    }).pipe(
      Effect.provideService(EffectMcpServer.McpServer, registry),
      Effect.provideService(RpcServer.Protocol, protocol),
      Effect.orDie,
      Effect.forkScoped({ startImmediately: true })
    )

    const notify = (clientId: number, method: string, params: unknown) =>
      write(clientId, {
        _tag: "Request",
        id: "",
        tag: method,
        payload: params ?? null,
        headers: [],
        isNotification: true
      })

    const request = (
      clientId: number,
      id: JsonRpcId,
      method: string,
      params: unknown,
      site: { readonly requestId: string }
    ): Effect.Effect<JsonRpcResponse> =>
      Effect.suspend(() => {
        const key = keyOf(clientId, id)
        // effect/ai interrupts the writer of a duplicate id: answer it here instead.
        if (pending.has(key)) {
          return Effect.succeed(failure(id, McpSchema.INVALID_REQUEST_ERROR_CODE, `request id ${id} is already in use`))
        }
        const deferred = Deferred.makeUnsafe<JsonRpcResponse>()
        pending.set(key, { clientId, method, deferred })
        return write(clientId, { _tag: "Request", id, tag: method, payload: params ?? null, headers: [] }).pipe(
          // The request fiber effect/ai forks inherits the writer's services: the handler learns its site.
          Effect.provideService(CallSite, site),
          Effect.andThen(Deferred.await(deferred)),
          // The caller stopped waiting (the session closes, a caller is interrupted): stop the handler.
          Effect.onInterrupt(() =>
            Effect.suspend(() => {
              if (pending.get(key)?.deferred !== deferred) return Effect.void
              pending.delete(key)
              return notify(clientId, "notifications/cancelled", {
                requestId: id,
                reason: "the caller stopped waiting"
              })
            })
          )
        )
      })

    // The client cancels a call it stopped waiting for (an interrupted turn): effect/ai interrupts the
    // handler and sends nothing; the call is answered here, as v3 did.
    const cancel = (params: unknown) =>
      Effect.suspend(() => {
        const target = isRecord(params) ? params.requestId : undefined
        if (!isId(target)) return Effect.void
        let found: [string, Pending] | undefined
        for (let client = current; client >= 0 && found === undefined; client--) {
          const key = keyOf(client, target)
          const waiting = pending.get(key)
          if (waiting !== undefined) found = [key, waiting]
        }
        if (found === undefined) return Effect.void
        const [key, waiting] = found
        pending.delete(key)
        return notify(waiting.clientId, "notifications/cancelled", params).pipe(
          Effect.andThen(Deferred.succeed(waiting.deferred, cancelledAnswer(target, waiting.method)))
        )
      })

    const local = { requestId: "connect" }
    const initialize = yield* request(0, "claude-effect:initialize", "initialize", {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "claude-effect", version: "0.1.0" }
    }, local)
    const toolsList = yield* request(0, "claude-effect:tools/list", "tools/list", {}, local)
    const resultOf = (response: JsonRpcResponse) => ("result" in response ? response.result : undefined)

    const answer = (message: unknown, site: { readonly requestId: string }): Effect.Effect<JsonRpcResponse> =>
      Effect.suspend(() => {
        const incoming = classify(message)
        switch (incoming._tag) {
          case "Request": {
            if (incoming.method === "initialize") clientIds.add(current = current + 1)
            return request(current, incoming.id, incoming.method, incoming.params, site)
          }
          case "Notification":
            return Effect.as(
              incoming.method === "notifications/cancelled"
                ? cancel(incoming.params)
                : notify(current, incoming.method, incoming.params).pipe(Effect.provideService(CallSite, site)),
              notificationAck
            )
          case "Response":
            // We send no requests to the client: nothing waits for this.
            return Effect.succeed(notificationAck)
          case "Invalid":
            return Effect.succeed(failure(incoming.id, McpSchema.INVALID_REQUEST_ERROR_CODE, incoming.reason))
        }
      })

    return {
      answer,
      manifest: { initializeResult: resultOf(initialize), toolsListResult: resultOf(toolsList) }
    }
  })

// -----------------------------------------------------------------------------
// sessions
// -----------------------------------------------------------------------------

/** The SDK servers among the `mcpServers` option, by the name the CLI knows them by. @internal */
export const sdkServers = (
  mcpServers: Readonly<Record<string, unknown>> | undefined
): ReadonlyMap<string, McpServer> => {
  const servers = new Map<string, McpServer>()
  for (const [name, config] of Object.entries(mcpServers ?? {})) {
    if (isServer(config)) servers.set(name, config)
  }
  return servers
}

const requestIdOf = (message: unknown): JsonRpcId | undefined => {
  const id = isRecord(message) ? message.id : undefined
  return isId(id) ? id : undefined
}

const methodOf = (request: Protocol.McpMessageRequest): unknown =>
  isRecord(request.message) ? request.message.method : undefined

/** The name of an `mcp_message` request's span: a tool call's is the tool's (`claude.mcp.tool`). @internal */
export const spanNameOf = (request: Protocol.McpMessageRequest): string =>
  methodOf(request) === "tools/call" ? Telemetry.spans.mcpTool : Telemetry.spans.inbound

/** The attributes of an `mcp_message` request's span: the server, the method, the tool. @internal */
export const attributesOf = (request: Protocol.McpMessageRequest): Record<string, unknown> => {
  const method = methodOf(request)
  const params = isRecord(request.message) && isRecord(request.message.params) ? request.message.params : undefined
  const tool = method === "tools/call" ? params?.name : undefined
  return {
    [Telemetry.attributes.mcpServer]: request.server_name,
    ...(typeof method === "string" ? { [Telemetry.attributes.mcpMethod]: method } : {}),
    ...(typeof tool === "string" ? { [Telemetry.attributes.tool]: tool } : {})
  }
}

/**
 * The SDK servers of one session, by the name the CLI knows them by: the
 * ones in the `mcpServers` option, then whatever `setMcpServers` put in
 * their place (the CLI replaces all SDK servers, the initial ones included).
 *
 * @internal
 */
export interface SessionServers {
  /** The initialize fields: `sdkMcpServers` and their `sdkMcpServerManifests` (none when there are none). */
  readonly initialize: Readonly<Record<string, unknown>>
  /**
   * The reply to an `mcp_message` request (`{ mcp_response }`), routed to the connection of its server.
   * Never an error reply (the CLI would mark the server failed): problems are JSON-RPC errors.
   */
  readonly answer: (
    serverName: string,
    message: unknown,
    site: { readonly requestId: string }
  ) => Effect.Effect<{ readonly mcp_response: JsonRpcResponse }>
  /** The reply to an `mcp_message` request that did not decode (raw JSON). */
  readonly undecodable: (raw: unknown) => { readonly mcp_response: JsonRpcResponse }
  /** The servers now served. */
  readonly current: () => ReadonlyMap<string, McpServer>
  /**
   * Serves exactly these servers from now on: new ones get a connection, absent ones lose theirs (their
   * handlers are interrupted); a server already served under its name keeps its connection.
   */
  readonly replace: (servers: ReadonlyMap<string, McpServer>) => Effect.Effect<void>
  /** Answers one JSON-RPC message as the server `name` does; `undefined` when no server has that name. */
  readonly call: (name: string, message: unknown, requestId: string) => Effect.Effect<JsonRpcResponse> | undefined
}

/**
 * The SDK servers among the options, each connected in the session's scope,
 * with what they add to the session: the `mcp_message` answers (always:
 * servers may be added later), and the initialize fields `sdkMcpServers` and
 * `sdkMcpServerManifests` (the CLI 2.1.328 takes the manifests: the servers
 * are connected when initialize returns, with no handshake over
 * `mcp_message`; a CLI that does not take them, and servers added later,
 * handshake as usual). The router port wires `answer`/`undecodable` as its
 * `mcp_message` handler.
 *
 * @internal
 */
export const sessionServers = (
  mcpServers: Readonly<Record<string, unknown>> | undefined,
  options?: ConnectOptions
): Effect.Effect<SessionServers, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const connections = new Map<
      string,
      { readonly server: McpServer; readonly connection: Connection; readonly scope: Scope.Closeable }
    >()
    const replace = (servers: ReadonlyMap<string, McpServer>) =>
      Effect.gen(function*() {
        for (const [name, entry] of Array.from(connections)) {
          if (servers.get(name) !== entry.server) {
            connections.delete(name)
            yield* Scope.close(entry.scope, Exit.void)
          }
        }
        for (const [name, server] of servers) {
          if (connections.has(name)) continue
          const child = yield* Scope.fork(scope, "sequential")
          const connection = yield* Scope.provide(connect(server, name, options), child)
          connections.set(name, { server, connection, scope: child })
        }
      })
    const initial = sdkServers(mcpServers)
    yield* replace(initial)
    const unknownServer = (name: string, message: unknown): JsonRpcResponse => {
      const id = requestIdOf(message)
      return id === undefined
        ? notificationAck
        : failure(id, McpSchema.METHOD_NOT_FOUND_ERROR_CODE, `SDK MCP server not found: ${name}`)
    }
    return {
      initialize: initial.size === 0 ? {} : {
        sdkMcpServers: Array.from(initial.keys()),
        sdkMcpServerManifests: Object.fromEntries(
          Array.from(initial.keys(), (name) => [name, connections.get(name)!.connection.manifest])
        )
      },
      answer: (serverName, message, site) => {
        const connection = connections.get(serverName)?.connection
        return connection === undefined
          ? Effect.succeed({ mcp_response: unknownServer(serverName, message) })
          : Effect.map(connection.answer(message, site), (response) => ({ mcp_response: response }))
      },
      undecodable: (raw) => {
        const id = requestIdOf(isRecord(raw) ? raw.message : undefined)
        return {
          mcp_response: id === undefined
            ? notificationAck
            : failure(id, McpSchema.INVALID_REQUEST_ERROR_CODE, "the SDK could not read this mcp_message request")
        }
      },
      current: () => new Map(Array.from(connections, ([name, { server }]) => [name, server] as const)),
      replace,
      call: (name, message, requestId) => connections.get(name)?.connection.answer(message, { requestId })
    }
  })
