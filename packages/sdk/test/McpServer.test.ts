import { ClaudeOptions, type ControlRouter, McpServer, McpTool } from "@claude-effect/sdk"
import * as InternalMcp from "@claude-effect/sdk/internal/mcpServer"
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"

class Inventory extends Context.Tag("test/Inventory")<Inventory, {
  readonly stock: (sku: string) => Effect.Effect<number, OutOfCatalog>
}>() {}

class OutOfCatalog extends Schema.TaggedError<OutOfCatalog>()("OutOfCatalog", { message: Schema.String }) {}

const Sku = Schema.String.pipe(Schema.pattern(/^SKU-\d+$/)).annotations({ identifier: "Sku" })

const lookup = McpTool.make("lookup", {
  description: "Look up the stock of a product",
  parameters: Schema.Struct({ sku: Sku, minimum: Schema.optional(Schema.NumberFromString) }),
  annotations: { readOnlyHint: true }
}, ({ minimum, sku }) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    const stock = yield* inventory.stock(sku)
    // `minimum` arrives decoded: a number, not the string the model sent
    return McpTool.structured({ sku, stock, enough: stock >= (minimum ?? 0) })
  }))

const inventoryLayer = Effect.provideService(Inventory, {
  stock: (sku) =>
    sku === "SKU-0" ? Effect.fail(new OutOfCatalog({ message: `${sku} is not in the catalog` })) : Effect.succeed(7)
})

const makeServer = (...tools: ReadonlyArray<McpTool.McpTool<string, any, never>>) =>
  McpServer.make({ name: "inventory", version: "2.0.0", tools: [lookup, ...tools] }).pipe(inventoryLayer)

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
  return (response as { result: McpTool.CallToolResult }).result
}

const textOf = (result: McpTool.CallToolResult) =>
  result.content.map((block) => block.type === "text" ? block.text : `[${block.type}]`).join("\n")

describe("McpServer JSON-RPC", () => {
  it.effect("initialize: protocol 2025-11-25, the tools capability, serverInfo", () =>
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
          capabilities: { tools: {} },
          serverInfo: { name: "inventory", version: "2.0.0" }
        }
      })
      // an older version we know is echoed; an unknown one gets ours
      const older = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18" }
      })
      assert.strictEqual((older as any).result.protocolVersion, "2025-06-18")
      const future = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: "x",
        method: "initialize",
        params: { protocolVersion: "2099-01-01" }
      })
      assert.strictEqual((future as any).result.protocolVersion, "2025-11-25")
      assert.strictEqual((future as any).id, "x")
    }))

  it.effect("instructions are part of the initialize result", () =>
    Effect.gen(function*() {
      const server = yield* McpServer.make({ name: "s", tools: [], instructions: "Use lookup for stock." })
      const response = yield* McpServer.handle(server, { jsonrpc: "2.0", id: 0, method: "initialize", params: {} })
      assert.strictEqual((response as any).result.instructions, "Use lookup for stock.")
      assert.deepStrictEqual((response as any).result.serverInfo, { name: "s", version: "1.0.0" })
    }))

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
        yield* McpServer.handle(server, { jsonrpc: "2.0", id: 5, method: "resources/list" }),
        { jsonrpc: "2.0", id: 5, error: { code: -32601, message: "Method not found: resources/list" } }
      )
      assert.deepStrictEqual(
        yield* McpServer.handle(server, { jsonrpc: "2.0", id: "p", method: "ping" }),
        { jsonrpc: "2.0", id: "p", result: {} }
      )
    }))

  it.effect("malformed messages get an invalid-request error", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      const notObject = yield* McpServer.handle(server, "hello")
      assert.deepStrictEqual((notObject as any).error.code, -32600)
      assert.strictEqual((notObject as any).id, null)
      const noMethod = yield* McpServer.handle(server, { jsonrpc: "2.0", id: 3 })
      assert.deepStrictEqual((noMethod as any).error.code, -32600)
      assert.strictEqual((noMethod as any).id, 3)
      const badParams = yield* McpServer.handle(server, { jsonrpc: "2.0", id: 4, method: "tools/list", params: [1] })
      assert.deepStrictEqual((badParams as any).error, { code: -32600, message: "params must be an object" })
      // params of the wrong shape: invalid params, naming the field
      const badCall = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 6,
        method: "tools/call",
        params: { name: 42 }
      })
      assert.deepStrictEqual((badCall as any).error, {
        code: -32602,
        message: "Invalid tools/call params: name: Expected string, actual 42"
      })
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
      const tools = (response as any).result.tools
      assert.strictEqual(tools.length, 1)
      const [tool] = tools
      assert.strictEqual(tool.name, "lookup")
      assert.strictEqual(tool.description, "Look up the stock of a product")
      assert.deepStrictEqual(tool.annotations, { readOnlyHint: true })
      const schema = tool.inputSchema
      assert.strictEqual(schema.type, "object")
      assert.isUndefined(schema.$schema)
      assert.deepStrictEqual(schema.required, ["sku"])
      assert.strictEqual(schema.additionalProperties, false)
      // self-contained: references into $defs are inlined
      assert.isUndefined(schema.$defs)
      assert.deepStrictEqual(schema.properties.sku, {
        type: "string",
        description: "a string matching the pattern ^SKU-\\d+$",
        pattern: "^SKU-\\d+$"
      })
      // NumberFromString: the model sends a string
      assert.strictEqual(schema.properties.minimum.type, "string")
      assert.deepStrictEqual(server.listings, tools)
    }))

  it.effect("tools/list: a top-level identifier is inlined, an empty Struct is an empty object, _meta carries the hints", () =>
    Effect.gen(function*() {
      class Query extends Schema.Class<Query>("Query")({ text: Schema.String }) {}
      const search = McpTool.make("search", {
        description: "search",
        parameters: Query,
        alwaysLoad: true,
        searchHint: "find products"
      }, (query) => Effect.succeed(`found ${query.text}`))
      const ping = McpTool.make(
        "ping",
        { description: "ping", parameters: Schema.Struct({}) },
        () => Effect.succeed("pong")
      )
      const server = yield* McpServer.make({ name: "s", tools: [search, ping] })
      const [searchListing, pingListing] = server.listings
      assert.deepStrictEqual(searchListing.inputSchema, {
        type: "object",
        required: ["text"],
        properties: { text: { type: "string" } },
        additionalProperties: false
      })
      assert.deepStrictEqual(searchListing._meta, {
        "anthropic/alwaysLoad": true,
        "anthropic/searchHint": "find products"
      })
      assert.deepStrictEqual(pingListing.inputSchema, { type: "object", properties: {} })
      assert.isUndefined(pingListing._meta)
      // a recursive schema keeps its definition
      interface Category {
        readonly name: string
        readonly children: ReadonlyArray<Category>
      }
      const Category: Schema.Schema<Category> = Schema.Struct({
        name: Schema.String,
        children: Schema.Array(Schema.suspend(() => Category))
      }).annotations({ identifier: "Category" })
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

  it.effect("tools/call: the handler's context names the server, the tool and the tool_use id", () =>
    Effect.gen(function*() {
      const seen = yield* Ref.make<McpTool.CallContext | undefined>(undefined)
      const probe = McpTool.make(
        "probe",
        { description: "p", parameters: Schema.Struct({}) },
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

  it.effect("tools/call with arguments the Schema rejects: an invalid-params error carrying the Schema's message", () =>
    Effect.gen(function*() {
      const called = yield* Ref.make(false)
      const strict = McpTool.make("strict", {
        description: "s",
        parameters: Schema.Struct({
          sku: Sku,
          quantity: Schema.Int,
          tags: Schema.Array(Schema.String),
          size: Schema.optional(Schema.Literal("S", "M"))
        })
      }, () => Effect.as(Ref.set(called, true), "ran"))
      const server = yield* McpServer.make({ name: "s", tools: [strict] })
      const response = yield* call(server, "strict", { sku: "nope", quantity: 1.5, tags: ["a", 2], size: "XL" }, 9)
      assert.isTrue("error" in response)
      const error = (response as any).error
      assert.strictEqual((response as any).id, 9)
      assert.strictEqual(error.code, -32602)
      // errors: "all": every problem at once, one line each
      assert.strictEqual(
        error.message,
        [
          "Invalid arguments for tool strict:",
          "- sku: Expected a string matching the pattern ^SKU-\\d+$, actual \"nope\"",
          "- quantity: Expected an integer, actual 1.5",
          "- tags[1]: Expected string, actual 2",
          "- size: Expected \"S\" | \"M\" | undefined, actual \"XL\""
        ].join("\n")
      )
      assert.deepStrictEqual(error.data.issues[2], { path: ["tags", "1"], message: "Expected string, actual 2" })
      assert.isFalse(yield* Ref.get(called))
      // a value that itself reads ", actual ": the union's branches still merge into one line
      const tricky = yield* call(server, "strict", { sku: "SKU-1", quantity: 1, tags: [], size: "L, actual M" })
      assert.strictEqual(
        (tricky as any).error.message,
        "Invalid arguments for tool strict:\n- size: Expected \"S\" | \"M\" | undefined, actual \"L, actual M\""
      )
      // missing arguments read as {}
      const missing = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "strict" }
      })
      assert.include((missing as any).error.message, "- sku: is missing")
      const notObject = yield* call(server, "strict", null)
      assert.include((notObject as any).error.message, "- sku: is missing")
    }))

  it.effect("tools/call for an unknown tool or with malformed params: an invalid-params error", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      assert.deepStrictEqual(yield* call(server, "nope", {}, 3), {
        jsonrpc: "2.0",
        id: 3,
        error: { code: -32602, message: "Unknown tool: nope" }
      })
      const bad = yield* McpServer.handle(server, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: 1 } })
      assert.strictEqual((bad as any).error.code, -32602)
      assert.strictEqual((bad as any).id, 4)
    }))

  it.effect("a failing or dying handler gives an error result with the cause's message", () =>
    Effect.gen(function*() {
      const dying = McpTool.make("dying", { description: "d", parameters: Schema.Struct({}) }, () =>
        Effect.die(new Error("bug in the tool")))
      const failingString = McpTool.make("failing", { description: "f", parameters: Schema.Struct({}) }, () =>
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
        McpTool.make("plain", { description: "t", parameters: Schema.Struct({}) }, () => Effect.succeed("hello")),
        McpTool.make("picture", { description: "t", parameters: Schema.Struct({}) }, () =>
          Effect.succeed(McpTool.image(new Uint8Array([1, 2, 3]), "image/png", { caption: "three bytes" }))),
        McpTool.make("refuse", { description: "t", parameters: Schema.Struct({}) }, () =>
          Effect.succeed(McpTool.error("not today"))),
        McpTool.make("garbage", { description: "t", parameters: Schema.Struct({}) }, () =>
          Effect.succeed({ content: [{ type: "video", url: 1 }] } as any))
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
        { description: "h", parameters: Schema.Struct({}), timeout: "200 millis" },
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
      const hang = McpTool.make("hang", { description: "h", parameters: Schema.Struct({}) }, () => Effect.never)
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
      const interrupted = yield* Ref.make(0)
      const slow = McpTool.make(
        "slow",
        { description: "s", parameters: Schema.Struct({}) },
        () =>
          Deferred.succeed(started, void 0).pipe(
            Effect.zipRight(Effect.never),
            Effect.onInterrupt(() => Ref.update(interrupted, (n) => n + 1))
          )
      )
      const server = yield* McpServer.make({ name: "s", tools: [slow] })
      const connection = InternalMcp.connect(server, "s")
      const running = yield* Effect.fork(
        connection.handle({ jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "slow", arguments: {} } }, {
          requestId: "r1"
        })
      )
      yield* Deferred.await(started)
      yield* connection.handle(
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 11, reason: "user" } },
        { requestId: "r2" }
      )
      const answer = yield* Fiber.join(running)
      assert.strictEqual((answer as any).id, 11)
      assert.isTrue((answer as any).result.isError)
      assert.include(JSON.stringify(answer), "cancelled")
      yield* Effect.sleep("50 millis")
      assert.strictEqual(yield* Ref.get(interrupted), 1)

      // the session closing interrupts the request's fiber, and the handler with it
      const again = yield* Deferred.make<void>()
      const slow2 = McpTool.make(
        "slow",
        { description: "s", parameters: Schema.Struct({}) },
        () =>
          Deferred.succeed(again, void 0).pipe(
            Effect.zipRight(Effect.never),
            Effect.onInterrupt(() => Ref.update(interrupted, (n) => n + 1))
          )
      )
      const server2 = yield* McpServer.make({ name: "s", tools: [slow2] })
      const fiber = yield* Effect.fork(call(server2, "slow", {}))
      yield* Deferred.await(again)
      const exit = yield* Fiber.interrupt(fiber)
      assert.isTrue(Exit.isInterrupted(exit))
      yield* Effect.sleep("50 millis")
      assert.strictEqual(yield* Ref.get(interrupted), 2)
    }))

  it.effect("make rejects duplicate and unusable tool names as a defect naming the tool", () =>
    Effect.gen(function*() {
      const a = McpTool.make("same", { description: "a", parameters: Schema.Struct({}) }, () => Effect.succeed("a"))
      const dup = yield* Effect.exit(McpServer.make({ name: "s", tools: [a, a] }))
      assert.isTrue(Exit.isFailure(dup))
      assert.include(String(Exit.isFailure(dup) ? dup.cause : ""), "tool \"same\" is defined twice")
      const spaced = McpTool.make("has space", { description: "a", parameters: Schema.Struct({}) }, () =>
        Effect.succeed("a"))
      const bad = yield* Effect.exit(McpServer.make({ name: "s", tools: [spaced] }))
      assert.include(String(Exit.isFailure(bad) ? bad.cause : ""), "tool name \"has space\"")
      const opaque = McpTool.make("opaque", {
        description: "a",
        parameters: Schema.Struct({
          at: Schema.declare((u): u is Date =>
            u instanceof Date
          )
        })
      }, () => Effect.succeed("a"))
      const noJsonSchema = yield* Effect.exit(McpServer.make({ name: "s", tools: [opaque] }))
      assert.include(
        String(Exit.isFailure(noJsonSchema) ? noJsonSchema.cause : ""),
        "tool \"opaque\": its parameters have no JSON Schema"
      )
    }))
})

describe("McpServer in the options and the session", () => {
  it.effect("an SDK server decodes in mcpServers next to external servers; only external ones reach the CLI's config", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      const options = yield* ClaudeOptions.decode({
        mcpServers: { inventory: server, demo: { command: "node", args: ["server.mjs"] } }
      })
      assert.strictEqual(options.mcpServers!.inventory, server)
      assert.isTrue(McpServer.isMcpServer(options.mcpServers!.inventory))
      assert.isFalse(ClaudeOptions.isExternalMcpServer(server))
      const external = { demo: { command: "node", args: ["server.mjs"] } }
      assert.deepStrictEqual(ClaudeOptions.toInitializeFields(options).mcpServers, external)
      const args = ClaudeOptions.toCliArgs({ ...options, mcpServersDelivery: "argv" }, { permissionPromptTool: false })
      const config = args[args.indexOf("--mcp-config") + 1]
      assert.deepStrictEqual(JSON.parse(config), { mcpServers: external })
      assert.deepStrictEqual(JSON.parse(JSON.stringify(server)), { type: "sdk", name: "inventory" })
      // a plain object is not a server
      const error = yield* Effect.flip(ClaudeOptions.decode({ mcpServers: { calc: { type: "sdk", name: "calc" } } }))
      assert.include(error.detail, "mcpServers.calc")
    }))

  it.effect("a session gets the mcp_message handler and sdkMcpServers, by the names in mcpServers", () =>
    Effect.gen(function*() {
      const server = yield* makeServer()
      const none = InternalMcp.sessionServers({ mcpServers: { demo: { command: "x" } } })
      assert.deepStrictEqual(none.initialize, {})
      assert.strictEqual(none.current().size, 0)
      const extras = InternalMcp.sessionServers({ mcpServers: { stock: server, demo: { command: "x" } } })
      assert.deepStrictEqual(extras.initialize, {
        sdkMcpServers: ["stock"],
        sdkMcpServerManifests: {
          stock: {
            initializeResult: {
              protocolVersion: "2025-11-25",
              capabilities: { tools: {} },
              serverInfo: { name: "inventory", version: "2.0.0" }
            },
            toolsListResult: { tools: server.listings }
          }
        }
      })
      // the manifests are exactly what the server answers over mcp_message
      const initialize = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25" }
      })
      const manifests = extras.initialize.sdkMcpServerManifests as any
      assert.deepStrictEqual((initialize as any).result, manifests.stock.initializeResult)
      const listed = yield* McpServer.handle(server, { jsonrpc: "2.0", id: 1, method: "tools/list" })
      assert.deepStrictEqual((listed as any).result, manifests.stock.toolsListResult)
      const handler = extras.handler
      assert.strictEqual(handler.subtype, "mcp_message")
      // The MCP handler answers by an Effect (the router runs it in the request's one fiber).
      const effectOf = (answer: ControlRouter.InboundAnswer) =>
        answer._tag === "Effect" ? answer.effect : Effect.die("expected an Effect answer")
      const routed = yield* effectOf(handler.handle(
        { subtype: "mcp_message", server_name: "stock", message: { jsonrpc: "2.0", id: 1, method: "tools/list" } },
        { requestId: "r" }
      ))
      assert.strictEqual((routed as any).mcp_response.result.tools[0].name, "lookup")
      const unknown = yield* effectOf(handler.handle(
        { subtype: "mcp_message", server_name: "nope", message: { jsonrpc: "2.0", id: 1, method: "tools/list" } },
        { requestId: "r" }
      ))
      assert.deepStrictEqual((unknown as any).mcp_response.error.message, "SDK MCP server not found: nope")
      assert.deepStrictEqual(handler.undecodable?.({ message: { jsonrpc: "2.0", method: "x" } }), {
        mcp_response: { jsonrpc: "2.0", result: {}, id: 0 }
      })
    }))
})
