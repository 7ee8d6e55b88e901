import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import {
  ClaudeCode,
  HookLayer,
  HookResult,
  McpServer,
  McpTool,
  PermissionGate,
  PermissionResult
} from "../src/index.js"
import type * as Protocol from "../src/Protocol.js"
import { harness } from "./utils/harness.js"

// -----------------------------------------------------------------------------
// an application service, and tools that use it
// -----------------------------------------------------------------------------

class Inventory extends Context.Service<Inventory, {
  readonly stock: (sku: string, warehouse: "north" | "south") => Effect.Effect<number, WarehouseOffline>
  readonly calls: Ref.Ref<ReadonlyArray<{ readonly sku: string; readonly minimum: number | undefined }>>
}>()("test/Inventory") {}

class WarehouseOffline extends Schema.TaggedError<WarehouseOffline>()("WarehouseOffline", {
  message: Schema.String
}) {}

const LookupParams = Schema.Struct({
  sku: Schema.String.check(Schema.isPattern(/^SKU-\d+$/)),
  warehouse: Schema.Literals(["north", "south"]),
  minimum: Schema.optionalKey(Schema.NumberFromString)
})

const lookup = McpTool.make("lookup", {
  description: "Look up the stock of a product in a warehouse",
  parameters: LookupParams,
  annotations: { readOnlyHint: true }
}, ({ minimum, sku, warehouse }) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    // typed, decoded arguments: `minimum` is a number here, the model sent a string
    yield* Ref.update(inventory.calls, (calls) => [...calls, { sku, minimum }])
    const stock = yield* inventory.stock(sku, warehouse)
    return McpTool.structured({ sku, warehouse, stock, enough: stock >= (minimum ?? 1) })
  }))

const inventoryService = Effect.map(
  Ref.make<ReadonlyArray<{ sku: string; minimum: number | undefined }>>([]),
  (calls) =>
    Inventory.of({
      stock: (sku, warehouse) =>
        warehouse === "south"
          ? Effect.fail(new WarehouseOffline({ message: `the ${warehouse} warehouse is offline` }))
          : Effect.succeed(sku === "SKU-1" ? 42 : 0),
      calls
    })
)

/** The inventory server, made under a fresh Inventory service; both are returned. */
const makeInventory = (...extra: ReadonlyArray<McpTool.McpTool<string, any, Inventory>>) =>
  Effect.gen(function*() {
    const service = yield* inventoryService
    const server = yield* McpServer.make({ name: "inventory", tools: [lookup, ...extra] }).pipe(
      Effect.provideService(Inventory, service)
    )
    return { server, calls: service.calls }
  })

const collect = <E, R>(stream: Stream.Stream<Protocol.Message, E, R>) => Stream.runCollect(stream)

const resultOf = (messages: ReadonlyArray<Protocol.Message>) =>
  messages.find((message) => message.type === "result") as any

const lookupCall = (input: Record<string, unknown>) => ScriptedModel.toolUse("mcp__inventory__lookup", input)

// The CLI asks permission for MCP tools: a server-wide allow rule grants them all.
const allowInventory = { allowedTools: ["mcp__inventory"] }

// -----------------------------------------------------------------------------

// The handler's interruption follows the CLI's cancellation in its own time: wait for it, boundedly.
const interruptedReaches = (interrupted: Ref.Ref<number>, count: number) =>
  Effect.gen(function*() {
    const until = Date.now() + 5_000
    while ((yield* Ref.get(interrupted)) < count && Date.now() < until) yield* Effect.sleep("20 millis")
    return yield* Ref.get(interrupted)
  })

describe("in-process MCP tools on the real CLI", () => {
  it.live("the model calls mcp__inventory__lookup: the Effect handler runs with typed args, the model gets the result", () =>
    Effect.gen(function*() {
      const { calls, server } = yield* makeInventory()
      const started = Date.now()
      const messages = yield* collect(ClaudeCode.query("how many SKU-1 in the north?", {
        mcpServers: { inventory: server },
        ...allowInventory
      }))
      const elapsed = Date.now() - started
      assert.strictEqual(resultOf(messages).result, "42 in stock")
      assert.deepStrictEqual(yield* Ref.get(calls), [{ sku: "SKU-1", minimum: 10 }])
      // the model's next request carries the tool's result
      const last = yield* ScriptedModel.lastTurnRequest
      assert.strictEqual(last.latestToolResults.length, 1)
      assert.isFalse(last.latestToolResults[0].isError)
      assert.deepStrictEqual(JSON.parse(last.latestToolResults[0].content), {
        sku: "SKU-1",
        warehouse: "north",
        stock: 42,
        enough: true
      })
      // the CLI announced the server and its tool, connected
      const init = messages.find((m) => m.type === "system" && (m as any).subtype === "init") as any
      assert.include(init.tools, "mcp__inventory__lookup")
      assert.deepStrictEqual(init.mcp_servers, [{ name: "inventory", status: "connected", source: "sdk" }])
      // MCP tools are deferred behind ToolSearch: not in the API tools array, yet callable by name
      const first = (yield* ScriptedModel.turnRequests)[0]
      assert.include(first.tools, "ToolSearch")
      assert.notInclude(first.tools, "mcp__inventory__lookup")
      // no 60 s handshake stall: the whole query takes a few seconds at most
      assert.isBelow(elapsed, 10_000)
    }).pipe(Effect.provide(harness([
      lookupCall({ sku: "SKU-1", warehouse: "north", minimum: "10" }),
      ScriptedModel.text("42 in stock")
    ]))))

  it.live("arguments the Schema rejects: the handler does not run and the model reads the Schema's message", () =>
    Effect.gen(function*() {
      const { calls, server } = yield* makeInventory()
      const messages = yield* collect(ClaudeCode.query("look it up", {
        mcpServers: { inventory: server },
        ...allowInventory
      }))
      assert.strictEqual(resultOf(messages).subtype, "success")
      assert.deepStrictEqual(yield* Ref.get(calls), [{ sku: "SKU-2", minimum: undefined }])
      const [bad, corrected] = yield* ScriptedModel.toolResults
      assert.isTrue(bad.isError)
      assert.include(bad.content, "Invalid arguments for tool lookup:")
      // effect 4's wording (effect 3: `the pattern ...`, `actual`)
      assert.include(bad.content, "- sku: Expected a string matching the RegExp ^SKU-\\d+$, got \"widget\"")
      assert.include(bad.content, "- warehouse: Expected \"north\" | \"south\", got \"east\"")
      // the model corrected itself and the call went through
      assert.isFalse(corrected.isError)
      assert.include(corrected.content, "\"stock\":0")
    }).pipe(Effect.provide(harness([
      lookupCall({ sku: "widget", warehouse: "east" }),
      lookupCall({ sku: "SKU-2", warehouse: "north" }),
      ScriptedModel.text("done")
    ]))))

  it.live("a failing or dying handler gives an error result; the session goes on", () =>
    Effect.gen(function*() {
      const explode = McpTool.make("explode", { description: "always breaks", parameters: Schema.Struct({}) }, () =>
        Effect.die(new Error("null pointer in the warehouse robot")))
      const { server } = yield* makeInventory(explode)
      yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session({ mcpServers: { inventory: server }, ...allowInventory })
        const first = yield* collect(session.turn("check the south warehouse"))
        assert.strictEqual(resultOf(first).subtype, "success")
        const [failed, died] = yield* ScriptedModel.toolResults
        assert.isTrue(failed.isError)
        assert.include(failed.content, "WarehouseOffline: the south warehouse is offline")
        assert.isTrue(died.isError)
        assert.include(died.content, "null pointer in the warehouse robot")
        // the session is still usable, and so are the tools
        yield* ScriptedModel.push(lookupCall({ sku: "SKU-1", warehouse: "north" }), ScriptedModel.text("second"))
        const second = yield* collect(session.turn("and the north?"))
        assert.strictEqual(resultOf(second).result, "second")
        const last = yield* ScriptedModel.lastTurnRequest
        assert.include(last.latestToolResults[0].content, "\"stock\":42")
      }))
    }).pipe(Effect.provide(harness([
      lookupCall({ sku: "SKU-1", warehouse: "south" }),
      ScriptedModel.toolUse("mcp__inventory__explode", {}),
      ScriptedModel.text("both failed")
    ]))))

  it.live("a PreToolUse deny hook on mcp__inventory__.* stops the call: the handler is not called", () =>
    Effect.gen(function*() {
      const { calls, server } = yield* makeInventory()
      const seen = yield* Ref.make<ReadonlyArray<string>>([])
      yield* collect(ClaudeCode.query("look it up", { mcpServers: { inventory: server }, ...allowInventory })).pipe(
        Effect.provide(HookLayer.preToolUse({ matcher: "mcp__inventory__.*" }, (input) =>
          Effect.as(
            Ref.update(seen, (names) => [...names, input.tool_name]),
            HookResult.deny("the inventory is closed for stocktaking")
          )))
      )
      assert.deepStrictEqual(yield* Ref.get(seen), ["mcp__inventory__lookup"])
      assert.deepStrictEqual(yield* Ref.get(calls), [])
      const [denied] = yield* ScriptedModel.toolResults
      assert.isTrue(denied.isError)
      assert.include(denied.content, "the inventory is closed for stocktaking")
    }).pipe(Effect.provide(harness([lookupCall({ sku: "SKU-1", warehouse: "north" }), ScriptedModel.text("ok")]))))

  it.live("the PermissionGate sees the MCP tool by its full name and decides", () =>
    Effect.gen(function*() {
      const { calls, server } = yield* makeInventory()
      const asked = yield* Ref.make<ReadonlyArray<readonly [string, unknown, unknown]>>([])
      const gate = PermissionGate.layer((request) =>
        Effect.as(
          Ref.update(asked, (all) => [...all, [request.tool_name, request.input, request.mcp_server] as const]),
          (request.input as { warehouse?: string }).warehouse === "north"
            ? PermissionResult.allow()
            : PermissionResult.deny("only the north warehouse today")
        )
      )
      yield* collect(ClaudeCode.query("look them up", { mcpServers: { inventory: server } })).pipe(
        Effect.provide(gate)
      )
      const questions = yield* Ref.get(asked)
      assert.deepStrictEqual(questions.map(([name]) => name), ["mcp__inventory__lookup", "mcp__inventory__lookup"])
      assert.deepStrictEqual(questions[0][1], { sku: "SKU-1", warehouse: "north" })
      assert.strictEqual((questions[0][2] as { name: string }).name, "inventory")
      // allowed: ran; denied: did not
      assert.deepStrictEqual(yield* Ref.get(calls), [{ sku: "SKU-1", minimum: undefined }])
      const [allowed, denied] = yield* ScriptedModel.toolResults
      assert.isFalse(allowed.isError)
      assert.isTrue(denied.isError)
      assert.include(denied.content, "only the north warehouse today")
    }).pipe(Effect.provide(harness([
      lookupCall({ sku: "SKU-1", warehouse: "north" }),
      lookupCall({ sku: "SKU-1", warehouse: "south" }),
      ScriptedModel.text("ok")
    ]))))

  it.live("mcpServerStatus lists the server as connected, with its tools", () =>
    Effect.gen(function*() {
      const { server } = yield* makeInventory()
      yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session({ mcpServers: { inventory: server }, ...allowInventory })
        // the CLI took the manifests from initialize: connected before the first turn
        assert.deepStrictEqual((session.initialization as any).sdk_mcp_manifests_parked, { inventory: "parked" })
        const before = yield* session.mcpServerStatus
        assert.deepStrictEqual(before.map((s) => [s.name, s.status]), [["inventory", "connected"]])
        yield* collect(session.turn("hi"))
        const [status] = yield* session.mcpServerStatus
        assert.strictEqual(status.name, "inventory")
        assert.strictEqual(status.status, "connected")
        assert.strictEqual(status.source, "sdk")
        assert.deepStrictEqual(status.serverInfo, { name: "inventory", version: "1.0.0" })
        assert.deepStrictEqual(status.tools?.map((tool) => tool.name), ["lookup"])
      }))
    }).pipe(Effect.provide(harness([ScriptedModel.text("hello")]))))

  it.live("interrupting the turn, or closing the session, interrupts a running tool handler", () =>
    Effect.gen(function*() {
      const started = yield* Ref.make<Deferred.Deferred<void> | undefined>(undefined)
      const interrupted = yield* Ref.make(0)
      const slow = McpTool.make(
        "recount",
        { description: "recount the stock", parameters: Schema.Struct({}) },
        () =>
          Effect.gen(function*() {
            const signal = yield* Ref.get(started)
            if (signal !== undefined) yield* Deferred.succeed(signal, void 0)
            return yield* Effect.never
          }).pipe(Effect.onInterrupt(() => Ref.update(interrupted, (n) => n + 1)))
      )
      const { server } = yield* makeInventory(slow)
      const waitStarted = Effect.gen(function*() {
        const signal = yield* Deferred.make<void>()
        yield* Ref.set(started, signal)
        return Deferred.await(signal).pipe(Effect.timeout("20 seconds"))
      })

      // 1. session.interrupt: the CLI cancels the call (notifications/cancelled) and the handler is interrupted
      yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session({ mcpServers: { inventory: server }, ...allowInventory })
        const running = yield* waitStarted
        yield* session.send("recount")
        yield* running
        yield* session.interrupt
        const turn = yield* collect(session.receiveTurn)
        assert.strictEqual(resultOf(turn).subtype, "error_during_execution")
        assert.strictEqual(yield* interruptedReaches(interrupted, 1), 1)
        // the session goes on
        yield* ScriptedModel.push(ScriptedModel.text("still here"))
        assert.strictEqual(resultOf(yield* collect(session.turn("still there?"))).result, "still here")
      }))

      // 2. closing the session's scope mid-call interrupts the handler too
      yield* ScriptedModel.push(ScriptedModel.toolUse("mcp__inventory__recount", {}), ScriptedModel.text("never"))
      const running = yield* waitStarted
      yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session({ mcpServers: { inventory: server }, ...allowInventory })
        yield* session.send("recount again")
        yield* running
      }))
      assert.strictEqual(yield* interruptedReaches(interrupted, 2), 2)
    }).pipe(Effect.provide(harness([ScriptedModel.toolUse("mcp__inventory__recount", {})]))))

  it.live("SDK servers sit next to external ones in mcpServers, and the server's key names its tools", () =>
    Effect.gen(function*() {
      const { calls, server } = yield* makeInventory()
      const messages = yield* collect(ClaudeCode.query("look it up", {
        mcpServers: { stock: server, broken: { command: "/nonexistent/mcp-server" } },
        allowedTools: ["mcp__stock"]
      }))
      const init = messages.find((m) => m.type === "system" && (m as any).subtype === "init") as any
      assert.include(init.tools, "mcp__stock__lookup")
      const byName = Object.fromEntries(init.mcp_servers.map((s: any) => [s.name, s.status]))
      assert.strictEqual(byName.stock, "connected")
      assert.strictEqual(byName.broken, "failed")
      assert.deepStrictEqual(yield* Ref.get(calls), [{ sku: "SKU-1", minimum: undefined }])
    }).pipe(Effect.provide(harness([
      ScriptedModel.toolUse("mcp__stock__lookup", { sku: "SKU-1", warehouse: "north" }),
      ScriptedModel.text("ok")
    ]))))
})
