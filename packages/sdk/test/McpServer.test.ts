/**
 * In-process MCP servers on effect/ai's `McpServer`, over JSON-RPC as the
 * CLI sends it in `mcp_message` requests (protocol 2025-11-25): the
 * handshake, listings, calls that succeed and fail, arguments the Schema
 * rejects, timeouts, cancellation, and what a session adds to its initialize
 * request. The real-CLI suite (Mcp.test.ts) waits for the session port.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Connection from "../src/internal/mcpConnection.js"
import * as McpServer from "../src/McpServer.js"
import * as McpTool from "../src/McpTool.js"

class Inventory extends Context.Service<Inventory, {
  readonly stock: (sku: string) => Effect.Effect<number, OutOfCatalog>
}>()("test/Inventory") {}

class OutOfCatalog extends Schema.TaggedError<OutOfCatalog>()("OutOfCatalog", { message: Schema.String }) {}

const Sku = Schema.String.check(Schema.isPattern(/^SKU-\d+$/)).annotate({ identifier: "Sku" })

const lookup = McpTool.make("lookup", {
  description: "Look up the stock of a product",
  parameters: Schema.Struct({ sku: Sku, minimum: Schema.optionalKey(Schema.NumberFromString) }),
  annotations: { readOnlyHint: true }
}, ({ minimum, sku }) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    const stock = yield* inventory.stock(sku)
    // `minimum` arrives decoded: a number, not the string the model sent
    return McpTool.structured({ sku, stock, enough: stock >= (minimum ?? 0) })
  }))

const withInventory = Effect.provideService(Inventory, {
  stock: (sku) =>
    sku === "SKU-0" ? Effect.fail(new OutOfCatalog({ message: `${sku} is not in the catalog` })) : Effect.succeed(7)
})

const makeServer = (...tools: ReadonlyArray<McpTool.McpTool<string, any, never>>) =>
  McpServer.make({ name: "inventory", version: "2.0.0", tools: [lookup, ...tools] }).pipe(withInventory)

// The services the handlers need show in make's requirements (a compile-time check).
export const requirementsShow: Effect.Effect<McpServer.McpServer, never, Inventory> = McpServer.make({
  name: "inventory",
  tools: [lookup]
})
// @ts-expect-error: without Inventory the server cannot be made
export const requirementsRequired: Effect.Effect<McpServer.McpServer> = McpServer.make({ name: "i", tools: [lookup] })

const call = (server: McpServer.McpServer, name: string, args: unknown, id: number | string = 7) =>
  McpServer.handle(server, { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })

const resultOf = (response: McpServer.JsonRpcResponse): McpTool.CallToolResult => {
  assert.isTrue("result" in response, JSON.stringify(response))
  return response.result as McpTool.CallToolResult
}

const errorOf = (response: McpServer.JsonRpcResponse) => {
  assert.isTrue("error" in response, JSON.stringify(response))
  return response.error!
}

const textOf = (result: McpTool.CallToolResult) =>
  result.content.map((block) => block.type === "text" ? block.text : `[${block.type}]`).join("\n")

const noArguments = Schema.Struct({})

describe("McpServer JSON-RPC", () => {
  it.effect("initialize: protocol 2025-11-25, effect/ai's capabilities, serverInfo", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      const response = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2" } }
      })
      assert.deepStrictEqual(response, {
        jsonrpc: "2.0",
        id: 0,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { logging: {}, completions: {}, tools: { listChanged: true } },
          serverInfo: { name: "inventory", version: "2.0.0" }
        }
      })
      // an older version we know is echoed; an unknown one gets ours
      const older = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } }
      })
      assert.strictEqual((resultOf(older) as any).protocolVersion, "2025-06-18")
      const future = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: "x",
        method: "initialize",
        params: { protocolVersion: "2099-01-01", capabilities: {}, clientInfo: { name: "c", version: "1" } }
      })
      assert.strictEqual((resultOf(future) as any).protocolVersion, "2025-11-25")
      assert.strictEqual(future.id, "x")
    }))

  it.effect("instructions are part of the initialize result; the manifest is what initialize and tools/list answer", () =>
    Effect.gen(function*() {
      const server = yield* McpServer.make({ name: "s", tools: [], instructions: "Use lookup for stock." })
      const response = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }
      })
      assert.strictEqual((resultOf(response) as any).instructions, "Use lookup for stock.")
      assert.deepStrictEqual((resultOf(response) as any).serverInfo, { name: "s", version: "1.0.0" })
      const connection = yield* Connection.connect(server)
      assert.deepStrictEqual(connection.manifest.initializeResult, resultOf(response))
      assert.deepStrictEqual(connection.manifest.toolsListResult, { tools: [] })
    }).pipe(Effect.scoped))

  it.effect("notifications get the acknowledgement the CLI expects", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      for (const method of ["notifications/initialized", "notifications/cancelled", "notifications/whatever"]) {
        assert.deepStrictEqual(
          yield* McpServer.handle(server, { jsonrpc: "2.0", method }),
          { jsonrpc: "2.0", result: {}, id: 0 }
        )
      }
    }))

  it.effect("unknown methods get a JSON-RPC method-not-found error with the request's id; ping answers", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      assert.deepStrictEqual(
        yield* McpServer.handle(server, { jsonrpc: "2.0", id: 5, method: "nope/unknown" }),
        { jsonrpc: "2.0", id: 5, error: { code: -32601, message: "Method not found: nope/unknown" } }
      )
      assert.deepStrictEqual(
        yield* McpServer.handle(server, { jsonrpc: "2.0", id: "p", method: "ping" }),
        { jsonrpc: "2.0", id: "p", result: {} }
      )
    }))

  it.effect("malformed messages get an error reply, never silence", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      const notObject = yield* McpServer.handle(server, "hello")
      assert.strictEqual(errorOf(notObject).code, -32600)
      assert.strictEqual(notObject.id, null)
      const noMethod = yield* McpServer.handle(server, { jsonrpc: "2.0", id: 3 })
      assert.strictEqual(errorOf(noMethod).code, -32600)
      assert.strictEqual(noMethod.id, 3)
      // params of the wrong shape: effect/ai's invalid params
      const badParams = yield* McpServer.handle(server, { jsonrpc: "2.0", id: 4, method: "tools/list", params: [1] })
      assert.deepStrictEqual(errorOf(badParams), { code: -32602, message: "Invalid method parameters" })
      const badCall = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 6,
        method: "tools/call",
        params: { name: 42 }
      })
      assert.deepStrictEqual(errorOf(badCall), { code: -32602, message: "Invalid method parameters" })
      assert.strictEqual(badCall.id, 6)
      // a response to a request we never sent is acknowledged and ignored
      assert.deepStrictEqual(
        yield* McpServer.handle(server, { jsonrpc: "2.0", id: 5, result: {} }),
        { jsonrpc: "2.0", result: {}, id: 0 }
      )
    }))

  it.effect("tools/list: the input JSON Schema is derived from the parameters Schema (encoded side)", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      const response = yield* McpServer.handle(server, { jsonrpc: "2.0", id: 1, method: "tools/list" })
      const tools = (resultOf(response) as any).tools
      assert.strictEqual(tools.length, 1)
      const [tool] = tools
      assert.strictEqual(tool.name, "lookup")
      assert.strictEqual(tool.description, "Look up the stock of a product")
      assert.isTrue(tool.annotations.readOnlyHint)
      assert.deepStrictEqual(tool.inputSchema, {
        type: "object",
        // self-contained: the reference to Sku is inlined
        properties: { sku: { type: "string" }, minimum: { type: "string" } }, // NumberFromString: the model sends a string
        required: ["sku"],
        additionalProperties: false
      })
      // the listing is what the server announces
      const connection = yield* Connection.connect(server)
      assert.deepStrictEqual(connection.manifest.toolsListResult, resultOf(response))
    }).pipe(Effect.scoped))

  it.effect("tools/list: a Class is inlined, an empty Struct is an empty object, _meta carries the hints, recursion keeps its definition", () =>
    Effect.gen(function*() {
      class Query extends Schema.Class<Query>("Query")({ text: Schema.String }) {}
      const search = McpTool.make("search", {
        description: "search",
        parameters: Query,
        alwaysLoad: true,
        searchHint: "find products"
      }, (query) => Effect.succeed(`found ${query.text}`))
      const ping = McpTool.make("ping", { description: "ping", parameters: noArguments }, () => Effect.succeed("pong"))
      const server = yield* McpServer.make({ name: "s", tools: [search, ping] })
      const [searchListing, pingListing] = server.listings
      assert.deepStrictEqual(searchListing.inputSchema, {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
        additionalProperties: false
      })
      assert.deepStrictEqual(searchListing._meta, {
        "anthropic/alwaysLoad": true,
        "anthropic/searchHint": "find products"
      })
      assert.deepStrictEqual(pingListing.inputSchema, { type: "object", properties: {} })
      assert.isUndefined(pingListing._meta)
      interface Category {
        readonly name: string
        readonly children: ReadonlyArray<Category>
      }
      const Category: Schema.Codec<Category> = Schema.Struct({
        name: Schema.String,
        children: Schema.Array(Schema.suspend(() => Category))
      }).annotate({ identifier: "Category" })
      const tree = McpTool.make(
        "tree",
        { description: "t", parameters: Schema.Struct({ root: Category }) },
        () => Effect.succeed("ok")
      )
      const [treeListing] = (yield* McpServer.make({ name: "s", tools: [tree] })).listings
      const treeSchema = treeListing.inputSchema as any
      assert.strictEqual(treeSchema.properties.root.properties.children.items.$ref, "#/$defs/Category")
      assert.strictEqual(treeSchema.$defs.Category.properties.children.items.$ref, "#/$defs/Category")
      // a server-wide alwaysLoad marks every tool
      const eager = yield* McpServer.make({ name: "s", tools: [ping], alwaysLoad: true })
      assert.deepStrictEqual(eager.listings[0]._meta, { "anthropic/alwaysLoad": true })
    }))

  it.effect("tools/call: the handler gets decoded, typed arguments and the services captured by make", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      const result = resultOf(yield* call(server, "lookup", { sku: "SKU-1", minimum: "10" }))
      assert.deepStrictEqual(result.structuredContent, { sku: "SKU-1", stock: 7, enough: false })
      assert.isUndefined(result.isError)
      assert.strictEqual(textOf(result), JSON.stringify({ sku: "SKU-1", stock: 7, enough: false }))
    }))

  it.effect("tools/call: the handler's context names the server, the tool, the tool_use id and the control request", () =>
    Effect.gen(function*() {
      const seen = yield* Ref.make<McpTool.CallContext | undefined>(undefined)
      const probe = McpTool.make(
        "probe",
        { description: "p", parameters: noArguments },
        (_, context) => Effect.as(Ref.set(seen, context), "ok")
      )
      const server = yield* McpServer.make({ name: "inventory-server", tools: [probe] })
      yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "probe", arguments: {}, _meta: { "claudecode/toolUseId": "toolu_1", progressToken: 2 } }
      }, { serverName: "inventory", requestId: "req-9" })
      const context = yield* Ref.get(seen)
      assert.deepStrictEqual(
        { server: context?.server, tool: context?.tool, toolUseId: context?.toolUseId, requestId: context?.requestId },
        { server: "inventory", tool: "probe", toolUseId: "toolu_1", requestId: "req-9" }
      )
    }))

  it.effect("tools/call with arguments the Schema rejects: the handler does not run, the model reads every problem", () =>
    Effect.gen(function*() {
      const called = yield* Ref.make(false)
      const strict = McpTool.make("strict", {
        description: "s",
        parameters: Schema.Struct({
          sku: Sku,
          quantity: Schema.Int,
          tags: Schema.Array(Schema.String),
          size: Schema.optionalKey(Schema.Literals(["S", "M"]))
        })
      }, () => Effect.as(Ref.set(called, true), "ran"))
      const server = yield* McpServer.make({ name: "s", tools: [strict] })
      const response = yield* call(server, "strict", { sku: "nope", quantity: 1.5, tags: ["a", 2], size: "XL" }, 9)
      // protocol 2025-11-25: input validation errors are tool results the model can correct itself from
      assert.strictEqual(response.id, 9)
      const result = resultOf(response)
      assert.isTrue(result.isError)
      assert.strictEqual(
        textOf(result),
        [
          "Invalid arguments for tool strict:",
          "- sku: Expected a string matching the RegExp ^SKU-\\d+$, got \"nope\"",
          "- quantity: Expected an integer, got 1.5",
          "- tags[1]: Expected string, got 2",
          "- size: Expected \"S\" | \"M\", got \"XL\""
        ].join("\n")
      )
      assert.isFalse(yield* Ref.get(called))
      // missing arguments read as {}
      const missing = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "strict" }
      })
      assert.include(textOf(resultOf(missing)), "- sku: Missing key")
      // arguments that are not an object are effect/ai's invalid params (v3 read null as {})
      const notObject = yield* call(server, "strict", null)
      assert.deepStrictEqual(errorOf(notObject), { code: -32602, message: "Invalid method parameters" })
      assert.isFalse(yield* Ref.get(called))
    }))

  it.effect("tools/call for an unknown tool: an invalid-params error", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      assert.deepStrictEqual(yield* call(server, "nope", {}, 3), {
        jsonrpc: "2.0",
        id: 3,
        error: { code: -32602, message: "Tool 'nope' not found" }
      })
    }))

  it.effect("a failing or dying handler gives an error result with the cause's message", () =>
    Effect.gen(function*() {
      const dying = McpTool.make("dying", { description: "d", parameters: noArguments }, () =>
        Effect.die(new Error("bug in the tool")))
      const failingString = McpTool.make("failing", { description: "f", parameters: noArguments }, () =>
        Effect.fail("warehouse offline"))
      const server = yield* makeServer(dying, failingString)
      const typed = resultOf(yield* call(server, "lookup", { sku: "SKU-0" }))
      assert.isTrue(typed.isError)
      assert.strictEqual(textOf(typed), "OutOfCatalog: SKU-0 is not in the catalog")
      const died = resultOf(yield* call(server, "dying", {}))
      assert.isTrue(died.isError)
      assert.strictEqual(textOf(died), "bug in the tool")
      const failed = resultOf(yield* call(server, "failing", {}))
      assert.strictEqual(textOf(failed), "warehouse offline")
    }))

  it.effect("results: strings, images, explicit errors, and invalid results", () =>
    Effect.gen(function*() {
      const tools = [
        McpTool.make("plain", { description: "t", parameters: noArguments }, () => Effect.succeed("hello")),
        McpTool.make("picture", { description: "t", parameters: noArguments }, () =>
          Effect.succeed(McpTool.image(new Uint8Array([1, 2, 3]), "image/png", { caption: "three bytes" }))),
        McpTool.make("refuse", { description: "t", parameters: noArguments }, () =>
          Effect.succeed(McpTool.error("not today"))),
        McpTool.make("garbage", { description: "t", parameters: noArguments }, () =>
          Effect.succeed({ content: [{ type: "video", url: 1 }] } as unknown as McpTool.CallToolResult))
      ]
      const server = yield* McpServer.make({ name: "s", tools })
      assert.deepStrictEqual(resultOf(yield* call(server, "plain", {})), { content: [{ type: "text", text: "hello" }] })
      assert.deepStrictEqual(resultOf(yield* call(server, "picture", {})).content, [
        { type: "image", data: "AQID", mimeType: "image/png" },
        { type: "text", text: "three bytes" }
      ])
      assert.deepStrictEqual(resultOf(yield* call(server, "refuse", {})), {
        content: [{ type: "text", text: "not today" }],
        isError: true
      })
      const garbage = resultOf(yield* call(server, "garbage", {}))
      assert.isTrue(garbage.isError)
      assert.include(textOf(garbage), "not a valid MCP tool result")
    }))

  it.live("a handler that outlives its timeout is answered with an error result and interrupted", () =>
    Effect.gen(function*() {
      const interrupted = yield* Deferred.make<void>()
      const hang = McpTool.make(
        "hang",
        { description: "h", parameters: noArguments, timeout: "200 millis" },
        () => Effect.never.pipe(Effect.onInterrupt(() => Deferred.succeed(interrupted, void 0)))
      )
      const server = yield* McpServer.make({ name: "s", tools: [hang] })
      const started = Date.now()
      const result = resultOf(yield* call(server, "hang", {}))
      const elapsed = Date.now() - started
      assert.isTrue(result.isError)
      assert.include(textOf(result), "did not finish within 200ms")
      assert.isAtLeast(elapsed, 190)
      assert.isBelow(elapsed, 2000)
      yield* Deferred.await(interrupted).pipe(Effect.timeout("2 seconds"))
    }))

  it.live("the server's timeout applies to tools that set none", () =>
    Effect.gen(function*() {
      const hang = McpTool.make("hang", { description: "h", parameters: noArguments }, () => Effect.never)
      const server = yield* McpServer.make({ name: "s", tools: [hang], timeout: "100 millis" })
      const result = resultOf(yield* call(server, "hang", {}))
      assert.include(textOf(result), "did not finish within 100ms")
      // The same tool in a server with another timeout: stopped, and reported, at that one.
      const other = yield* McpServer.make({ name: "t", tools: [hang], timeout: "150 millis" })
      assert.include(textOf(resultOf(yield* call(other, "hang", {}))), "did not finish within 150ms")
    }))

  it.live("notifications/cancelled interrupts the call it names; interrupting the caller interrupts the handler", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      // Set by the handler's finalizer: the proof that it was interrupted, not merely abandoned.
      const finalized = yield* Ref.make(0)
      const slow = McpTool.make(
        "slow",
        { description: "s", parameters: noArguments },
        () =>
          Deferred.succeed(started, void 0).pipe(
            Effect.andThen(Effect.never),
            Effect.ensuring(Ref.update(finalized, (n) => n + 1))
          )
      )
      const server = yield* McpServer.make({ name: "s", tools: [slow] })
      const connection = yield* Connection.connect(server, "s")
      const running = yield* Effect.forkChild(
        connection.answer({ jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "slow", arguments: {} } }, {
          requestId: "r1"
        }),
        { startImmediately: true }
      )
      yield* Deferred.await(started)
      assert.strictEqual(yield* Ref.get(finalized), 0)
      assert.deepStrictEqual(
        yield* connection.answer(
          { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 11, reason: "user" } },
          { requestId: "r2" }
        ),
        { jsonrpc: "2.0", result: {}, id: 0 }
      )
      const answer = yield* Fiber.join(running)
      assert.deepStrictEqual(answer, {
        jsonrpc: "2.0",
        id: 11,
        result: { content: [{ type: "text", text: "The tool call was cancelled." }], isError: true }
      })
      yield* Effect.sleep("50 millis")
      assert.strictEqual(yield* Ref.get(finalized), 1)

      // the caller stops waiting on a connection that stays open: the handler is interrupted
      const waiting = yield* Effect.forkChild(
        connection.answer({ jsonrpc: "2.0", id: 12, method: "tools/call", params: { name: "slow" } }, {
          requestId: "r3"
        }),
        { startImmediately: true }
      )
      yield* Effect.sleep("20 millis")
      yield* Fiber.interrupt(waiting)
      yield* Effect.sleep("50 millis")
      assert.strictEqual(yield* Ref.get(finalized), 2)

      // the caller stops waiting and the connection closes (a one-shot `handle`): the handler is interrupted too
      const again = yield* Deferred.make<void>()
      const slow2 = McpTool.make(
        "slow",
        { description: "s", parameters: noArguments },
        () =>
          Deferred.succeed(again, void 0).pipe(
            Effect.andThen(Effect.never),
            Effect.ensuring(Ref.update(finalized, (n) => n + 1))
          )
      )
      const server2 = yield* McpServer.make({ name: "s", tools: [slow2] })
      const fiber = yield* Effect.forkChild(call(server2, "slow", {}), { startImmediately: true })
      yield* Deferred.await(again)
      const exit = yield* Fiber.interrupt(fiber).pipe(Effect.andThen(Fiber.await(fiber)))
      assert.isTrue(Exit.hasInterrupts(exit))
      yield* Effect.sleep("50 millis")
      assert.strictEqual(yield* Ref.get(finalized), 3)
    }).pipe(Effect.scoped))

  it.effect("make rejects duplicate and unusable tool names, and parameters without an object root, naming the tool", () =>
    Effect.gen(function*() {
      const defect = (exit: Exit.Exit<unknown>) => Exit.isFailure(exit) ? String(exit.cause) : ""
      const a = McpTool.make("same", { description: "a", parameters: noArguments }, () => Effect.succeed("a"))
      assert.include(
        defect(yield* Effect.exit(McpServer.make({ name: "s", tools: [a, a] }))),
        "tool \"same\" is defined twice"
      )
      const spaced = McpTool.make("has space", { description: "a", parameters: noArguments }, () => Effect.succeed("a"))
      assert.include(
        defect(yield* Effect.exit(McpServer.make({ name: "s", tools: [spaced] }))),
        "tool name \"has space\""
      )
      const opaque = McpTool.make("opaque", {
        description: "a",
        parameters: Schema.declare((u): u is { readonly at: Date } => typeof u === "object" && u !== null)
      }, () => Effect.succeed("a"))
      const noObject = defect(yield* Effect.exit(McpServer.make({ name: "s", tools: [opaque] })))
      assert.include(noObject, "McpServer.make(\"s\")")
      assert.include(noObject, "tool \"opaque\": its parameters have no usable JSON Schema")
    }))
})

describe("McpServer in a session", () => {
  it.effect("a session gets sdkMcpServers and their manifests, and routes mcp_message by the names in mcpServers", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      const none = yield* Connection.sessionServers({ demo: { command: "x" } })
      assert.deepStrictEqual(none.initialize, {})
      assert.strictEqual(none.current().size, 0)
      const servers = yield* Connection.sessionServers({ stock: server, demo: { command: "x" } })
      const manifests = servers.initialize.sdkMcpServerManifests as Record<string, Connection.Manifest>
      assert.deepStrictEqual(servers.initialize.sdkMcpServers, ["stock"])
      assert.deepStrictEqual(manifests.stock.initializeResult, {
        protocolVersion: "2025-11-25",
        capabilities: { logging: {}, completions: {}, tools: { listChanged: true } },
        serverInfo: { name: "inventory", version: "2.0.0" }
      })
      // the manifests are exactly what the server answers over mcp_message
      const listed = yield* McpServer.handle(server, { jsonrpc: "2.0", id: 1, method: "tools/list" })
      assert.deepStrictEqual(manifests.stock.toolsListResult, resultOf(listed))
      // a CLI that took the manifests calls at once, without a handshake
      const routed = yield* servers.answer(
        "stock",
        { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "lookup", arguments: { sku: "SKU-1" } } },
        { requestId: "r" }
      )
      assert.deepStrictEqual(resultOf(routed.mcp_response).structuredContent, { sku: "SKU-1", stock: 7, enough: true })
      const unknown = yield* servers.answer(
        "nope",
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { requestId: "r" }
      )
      assert.deepStrictEqual(unknown.mcp_response, {
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32601, message: "SDK MCP server not found: nope" }
      })
      assert.deepStrictEqual(servers.undecodable({ message: { jsonrpc: "2.0", method: "x" } }), {
        mcp_response: { jsonrpc: "2.0", result: {}, id: 0 }
      })
    }).pipe(Effect.scoped))

  it.live("each server of a session has its own registry; replacing one stops its running handlers", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const finalized = yield* Ref.make(false)
      const slow = McpTool.make(
        "slow",
        { description: "s", parameters: noArguments },
        () =>
          Deferred.succeed(started, void 0).pipe(
            Effect.andThen(Effect.never),
            Effect.ensuring(Ref.set(finalized, true))
          )
      )
      const first = yield* McpServer.make({ name: "first", tools: [slow] })
      const second = yield* makeServer()
      const servers = yield* Connection.sessionServers({ first, second })
      const list = (name: string) =>
        Effect.map(
          servers.answer(name, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { requestId: "r" }),
          (reply) => (resultOf(reply.mcp_response) as any).tools.map((tool: { name: string }) => tool.name)
        )
      assert.deepStrictEqual(yield* list("first"), ["slow"])
      assert.deepStrictEqual(yield* list("second"), ["lookup"])
      const pending = yield* Effect.forkChild(
        servers.answer("first", { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow" } }, {
          requestId: "r"
        }),
        { startImmediately: true }
      )
      yield* Deferred.await(started)
      yield* servers.replace(new Map([["second", second]]))
      assert.isTrue(yield* Ref.get(finalized))
      assert.deepStrictEqual(Array.from(servers.current().keys()), ["second"])
      assert.deepStrictEqual(yield* list("second"), ["lookup"])
      assert.strictEqual(
        (yield* servers.answer("first", { jsonrpc: "2.0", id: 3, method: "tools/list" }, { requestId: "r" }))
          .mcp_response.error?.message,
        "SDK MCP server not found: first"
      )
      yield* Fiber.interrupt(pending)
    }).pipe(Effect.scoped))
})
