/**
 * Resources and prompts of in-process MCP servers, and in-process servers
 * added to and removed from a live session. On the real CLI 2.1.328: the
 * model lists and reads resources (its ListMcpResourcesTool and
 * ReadMcpResourceTool) and what it read is in its next request;
 * `session.readMcpResource` reads them in process; `setMcpServers` serves a
 * server added mid-session to the next turn and takes a removed one away.
 * The JSON-RPC details (listings, templates, prompts, errors) without a CLI.
 */
import { ClaudeCode, McpPrompt, McpResource, McpServer, McpTool } from "@claude-effect/sdk"
import type * as Protocol from "@claude-effect/sdk/Protocol"
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import { harness } from "./utils/harness.js"

const collect = <E, R>(stream: Stream.Stream<Protocol.Message, E, R>) =>
  Stream.runCollect(stream).pipe(Effect.map(Chunk.toReadonlyArray))

// -----------------------------------------------------------------------------
// an application service, and a server of resources and prompts over it
// -----------------------------------------------------------------------------

class Orders extends Context.Tag("test/Orders")<Orders, {
  readonly describe: (id: number) => Effect.Effect<string, OrderNotFound>
  readonly reads: Ref.Ref<ReadonlyArray<number>>
}>() {}

class OrderNotFound extends Schema.TaggedError<OrderNotFound>()("OrderNotFound", { message: Schema.String }) {}

const ordersService = Effect.map(Ref.make<ReadonlyArray<number>>([]), (reads) =>
  Orders.of({
    describe: (id) =>
      Effect.zipRight(
        Ref.update(reads, (all) => [...all, id]),
        id === 42
          ? Effect.succeed("Order 42: two tickets for Hamlet, paid")
          : Effect.fail(new OrderNotFound({ message: `no order ${id}` }))
      ),
    reads
  }))

const returnsPolicy = McpResource.make({
  uri: "memo://returns-policy",
  name: "returns-policy",
  description: "How returns work",
  mimeType: "text/markdown"
}, Effect.succeed("# Returns\nAccepted within 30 days."))

const order = McpResource.template({
  uriTemplate: "orders://{id}",
  name: "order",
  description: "An order, by id",
  mimeType: "text/plain",
  parameters: Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int()) })
}, ({ id }) => Effect.flatMap(Orders, (orders) => orders.describe(id)))

const logo = McpResource.make({
  uri: "memo://logo",
  name: "logo",
  mimeType: "image/png"
}, Effect.succeed(new Uint8Array([137, 80, 78, 71])))

const triage = McpPrompt.make("triage", {
  description: "Triage a support ticket",
  parameters: Schema.Struct({
    ticket: Schema.String.annotations({ description: "The ticket id" }),
    urgency: Schema.optional(Schema.Literal("low", "high"))
  })
}, ({ ticket, urgency }) => Effect.succeed(`Triage ticket ${ticket} (${urgency ?? "low"} urgency).`))

const greet = McpPrompt.make(
  "greet",
  { description: "Say hello" },
  () => Effect.succeed([McpPrompt.user("Say hello"), McpPrompt.assistant("Hello!")])
)

/** The library server, made under a fresh Orders service; both are returned. */
const makeLibrary = Effect.gen(function*() {
  const orders = yield* ordersService
  const server = yield* McpServer.make({
    name: "library",
    resources: [returnsPolicy, order, logo],
    prompts: [triage, greet]
  }).pipe(Effect.provideService(Orders, orders))
  return { server, reads: orders.reads }
})

// -----------------------------------------------------------------------------

describe("resources on the real CLI", () => {
  it.live("the model lists and reads resources; what it read is in its next request", () =>
    Effect.gen(function*() {
      const { reads, server } = yield* makeLibrary
      const messages = yield* collect(ClaudeCode.query("what is our returns policy, and order 42?", {
        mcpServers: { library: server }
      }))
      assert.strictEqual((messages.find((m) => m.type === "result") as any).result, "done")
      const [listed, policy, order42] = yield* ScriptedModel.toolResults
      assert.isFalse(listed.isError)
      const listing = JSON.parse(listed.content) as ReadonlyArray<Record<string, unknown>>
      assert.deepStrictEqual(
        listing.map(({ mimeType, name, server, uri }) => ({ name, uri, mimeType, server })),
        [
          { name: "returns-policy", uri: "memo://returns-policy", mimeType: "text/markdown", server: "library" },
          { name: "logo", uri: "memo://logo", mimeType: "image/png", server: "library" }
        ]
      )
      assert.deepStrictEqual(JSON.parse(policy.content).contents, [{
        uri: "memo://returns-policy",
        mimeType: "text/markdown",
        text: "# Returns\nAccepted within 30 days."
      }])
      // a template's URI, its variable decoded by the Schema, the content from the app's service
      assert.deepStrictEqual(JSON.parse(order42.content).contents, [{
        uri: "orders://42",
        mimeType: "text/plain",
        text: "Order 42: two tickets for Hamlet, paid"
      }])
      assert.deepStrictEqual(yield* Ref.get(reads), [42])
      const last = yield* ScriptedModel.lastTurnRequest
      assert.include(last.latestToolResults[0].content, "Order 42: two tickets for Hamlet, paid")
    }).pipe(Effect.provide(harness([
      ScriptedModel.toolUse("ListMcpResourcesTool", {}),
      ScriptedModel.toolUse("ReadMcpResourceTool", { server: "library", uri: "memo://returns-policy" }),
      ScriptedModel.toolUse("ReadMcpResourceTool", { server: "library", uri: "orders://42" }),
      ScriptedModel.text("done")
    ]))))

  it.live("session.readMcpResource reads an in-process server's resources in process", () =>
    Effect.gen(function*() {
      const { server } = yield* makeLibrary
      const session = yield* ClaudeCode.session({ mcpServers: { library: server } })
      const read = yield* session.readMcpResource("library", "orders://42")
      assert.deepStrictEqual(read.contents, [{
        uri: "orders://42",
        mimeType: "text/plain",
        text: "Order 42: two tickets for Hamlet, paid"
      }])
      const blob = yield* session.readMcpResource("library", "memo://logo")
      assert.deepStrictEqual(blob.contents, [{ uri: "memo://logo", mimeType: "image/png", blob: "iVBORw==" }])
      const missing = yield* Effect.flip(session.readMcpResource("library", "orders://7"))
      assert.strictEqual(missing._tag, "ControlError")
      assert.include(missing.message, "OrderNotFound: no order 7")
      const unknown = yield* Effect.flip(session.readMcpResource("library", "memo://nothing"))
      assert.include(unknown.message, "Resource not found: memo://nothing")
    }).pipe(Effect.scoped, Effect.provide(harness([]))))
})

// -----------------------------------------------------------------------------

const pick = (name: string) =>
  McpTool.make(
    name,
    { description: `Answers ${name}`, parameters: Schema.Struct({}) },
    () => Effect.succeed(`${name} answered`)
  )

describe("in-process servers added and removed on a live session (real CLI)", () => {
  it.live("a server added by setMcpServers serves the next turn; a removed one is gone", () =>
    Effect.gen(function*() {
      const first = yield* McpServer.make({ name: "first", tools: [pick("alpha")] })
      const second = yield* McpServer.make({ name: "second", tools: [pick("beta")] })
      const session = yield* ClaudeCode.session({
        mcpServers: { first },
        allowedTools: ["mcp__first", "mcp__second"]
      })
      const statusNames = Effect.map(session.mcpServerStatus, (servers) =>
        servers.map((server) => `${server.name}:${server.status}`))

      yield* collect(session.turn("use alpha"))
      assert.strictEqual((yield* ScriptedModel.lastTurnRequest).latestToolResults[0].content, "alpha answered")
      assert.deepStrictEqual(yield* statusNames, ["first:connected"])

      // the CLI replaces every SDK server: first goes, second comes
      const replaced = yield* session.setMcpServers({ second })
      assert.deepStrictEqual(replaced.added, ["second"])
      assert.deepStrictEqual(replaced.removed, ["first"])
      yield* collect(session.turn("use beta"))
      const afterAdd = (yield* ScriptedModel.lastTurnRequest).latestToolResults[0]
      assert.isFalse(afterAdd.isError)
      assert.strictEqual(afterAdd.content, "beta answered")
      assert.deepStrictEqual(yield* statusNames, ["second:connected"])

      const removed = yield* session.setMcpServers({})
      assert.deepStrictEqual(removed.removed, ["second"])
      assert.deepStrictEqual(yield* statusNames, [])
      // the model can no longer call it
      yield* collect(session.turn("use beta again"))
      const afterRemove = (yield* ScriptedModel.lastTurnRequest).latestToolResults[0]
      assert.isTrue(afterRemove.isError)
      assert.notInclude(afterRemove.content, "beta answered")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([
        ScriptedModel.toolUse("mcp__first__alpha", {}),
        ScriptedModel.text("used alpha"),
        ScriptedModel.toolUse("mcp__second__beta", {}),
        ScriptedModel.text("used beta"),
        ScriptedModel.toolUse("mcp__second__beta", {}),
        ScriptedModel.text("could not")
      ]))
    ))
})

// -----------------------------------------------------------------------------
// the JSON-RPC side, without a CLI
// -----------------------------------------------------------------------------

const rpc = (server: McpServer.McpServer, method: string, params?: Record<string, unknown>) =>
  McpServer.handle(server, { jsonrpc: "2.0", id: 1, method, ...(params !== undefined ? { params } : {}) })

const resultOf = (response: McpServer.JsonRpcResponse): any => ("result" in response ? response.result : undefined)
const errorOf = (response: McpServer.JsonRpcResponse): any => ("error" in response ? response.error : undefined)

describe("resources and prompts over JSON-RPC", () => {
  it.effect("initialize declares resources and prompts; the listings describe them", () =>
    Effect.gen(function*() {
      const { server } = yield* makeLibrary
      const initialize = resultOf(yield* rpc(server, "initialize", { protocolVersion: "2025-11-25" }))
      assert.deepStrictEqual(initialize.capabilities, { tools: {}, resources: {}, prompts: {} })
      assert.deepStrictEqual(resultOf(yield* rpc(server, "resources/list")).resources, [
        {
          uri: "memo://returns-policy",
          name: "returns-policy",
          description: "How returns work",
          mimeType: "text/markdown"
        },
        { uri: "memo://logo", name: "logo", mimeType: "image/png" }
      ])
      assert.deepStrictEqual(resultOf(yield* rpc(server, "resources/templates/list")).resourceTemplates, [
        { uriTemplate: "orders://{id}", name: "order", description: "An order, by id", mimeType: "text/plain" }
      ])
      assert.deepStrictEqual(resultOf(yield* rpc(server, "prompts/list")).prompts, [
        {
          name: "triage",
          description: "Triage a support ticket",
          arguments: [
            { name: "ticket", description: "The ticket id", required: true },
            { name: "urgency", required: false }
          ]
        },
        { name: "greet", description: "Say hello" }
      ])
      // a server without resources or prompts declares none and knows no such method
      const plain = yield* McpServer.make({ name: "plain", tools: [pick("alpha")] })
      assert.deepStrictEqual(resultOf(yield* rpc(plain, "initialize")).capabilities, { tools: {} })
      assert.strictEqual(errorOf(yield* rpc(plain, "prompts/list")).code, -32601)
    }))

  it.effect("resources/read: a fixed URI, a template's URI decoded by its Schema, bad and unknown URIs", () =>
    Effect.gen(function*() {
      const { reads, server } = yield* makeLibrary
      assert.deepStrictEqual(resultOf(yield* rpc(server, "resources/read", { uri: "orders://42" })), {
        contents: [{ uri: "orders://42", mimeType: "text/plain", text: "Order 42: two tickets for Hamlet, paid" }]
      })
      // the variable does not decode: invalid params naming it; the handler does not run
      const bad = errorOf(yield* rpc(server, "resources/read", { uri: "orders://4.5" }))
      assert.strictEqual(bad.code, -32602)
      assert.include(
        bad.message,
        "Invalid URI for resource template orders://{id}:\n- id: Expected an integer, actual 4.5"
      )
      // a failing handler: an MCP error carrying its message
      const failed = errorOf(yield* rpc(server, "resources/read", { uri: "orders://7" }))
      assert.deepStrictEqual(failed, { code: -32603, message: "OrderNotFound: no order 7" })
      assert.deepStrictEqual(yield* Ref.get(reads), [42, 7])
      const unknown = errorOf(yield* rpc(server, "resources/read", { uri: "orders://42/items" }))
      assert.deepStrictEqual(unknown, {
        code: -32002,
        message: "Resource not found: orders://42/items",
        data: { uri: "orders://42/items" }
      })
      assert.strictEqual(errorOf(yield* rpc(server, "resources/read", {})).code, -32602)
    }))

  it.effect("a resource read that outlives its timeout is an MCP error, on the Clock", () =>
    Effect.gen(function*() {
      const slow = McpResource.make({ uri: "memo://slow", name: "slow", timeout: "10 seconds" }, Effect.never)
      const server = yield* McpServer.make({ name: "slow", resources: [slow] })
      const fiber = yield* Effect.fork(rpc(server, "resources/read", { uri: "memo://slow" }))
      yield* TestClock.adjust("10 seconds")
      const response = yield* Fiber.join(fiber)
      assert.deepStrictEqual(errorOf(response), {
        code: -32603,
        message: "The resource memo://slow did not finish within 10s; it was stopped."
      })
    }))

  it.effect("prompts/get: typed arguments, text or messages, invalid arguments named", () =>
    Effect.gen(function*() {
      const { server } = yield* makeLibrary
      assert.deepStrictEqual(
        resultOf(yield* rpc(server, "prompts/get", { name: "triage", arguments: { ticket: "T-9", urgency: "high" } })),
        {
          description: "Triage a support ticket",
          messages: [{ role: "user", content: { type: "text", text: "Triage ticket T-9 (high urgency)." } }]
        }
      )
      assert.deepStrictEqual(resultOf(yield* rpc(server, "prompts/get", { name: "greet" })).messages, [
        { role: "user", content: { type: "text", text: "Say hello" } },
        { role: "assistant", content: { type: "text", text: "Hello!" } }
      ])
      const invalid = errorOf(
        yield* rpc(server, "prompts/get", { name: "triage", arguments: { urgency: "extreme" } })
      )
      assert.strictEqual(invalid.code, -32602)
      assert.include(invalid.message, "Invalid arguments for prompt triage:")
      assert.include(invalid.message, "- ticket: is missing")
      assert.include(invalid.message, "- urgency: Expected \"low\" | \"high\" | undefined, actual \"extreme\"")
      assert.strictEqual(errorOf(yield* rpc(server, "prompts/get", { name: "nope" })).message, "Unknown prompt: nope")
    }))

  it.effect("make rejects duplicate URIs and templates whose variables are not their parameters' fields", () =>
    Effect.gen(function*() {
      const mismatched = McpResource.template({
        uriTemplate: "files://{dir}/{name}",
        name: "file",
        parameters: Schema.Struct({ dir: Schema.String, size: Schema.String })
      }, () => Effect.succeed(""))
      const exit = yield* Effect.exit(
        McpServer.make({ name: "broken", resources: [returnsPolicy, returnsPolicy, mismatched] })
      )
      assert.isTrue(Exit.isFailure(exit))
      const message = String(
        Exit.isFailure(exit) && exit.cause._tag === "Die" ? (exit.cause.defect as Error).message : ""
      )
      assert.include(message, "McpServer.make(\"broken\")")
      assert.include(message, "resource \"memo://returns-policy\" is defined twice")
      assert.include(message, "{name} is not a field of its parameters")
      assert.include(message, "the required field(s) size are not in the URI")
    }))
})
