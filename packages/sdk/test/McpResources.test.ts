/**
 * Resources and prompts of in-process MCP servers over JSON-RPC, served by
 * effect/ai's registry: listings, fixed URIs, templates whose variables a
 * Struct decodes, errors, timeouts on the Clock, prompts with typed
 * arguments. The real-CLI part of the v3 suite (the model lists and reads,
 * `session.readMcpResource`, `setMcpServers`) waits for the session port.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import * as McpPrompt from "../src/McpPrompt.js"
import * as McpResource from "../src/McpResource.js"
import * as McpServer from "../src/McpServer.js"
import * as McpTool from "../src/McpTool.js"

class Orders extends Context.Service<Orders, {
  readonly describe: (id: number) => Effect.Effect<string, OrderNotFound>
  readonly reads: Ref.Ref<ReadonlyArray<number>>
}>()("test/Orders") {}

class OrderNotFound extends Schema.TaggedError<OrderNotFound>()("OrderNotFound", { message: Schema.String }) {}

const ordersService = Effect.map(Ref.make<ReadonlyArray<number>>([]), (reads) =>
  Orders.of({
    describe: (id) =>
      Effect.andThen(
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
  parameters: Schema.Struct({ id: Schema.NumberFromString.check(Schema.isInt()) })
}, ({ id }) => Effect.flatMap(Effect.service(Orders), (orders) => orders.describe(id)))

const logo = McpResource.make({
  uri: "memo://logo",
  name: "logo",
  mimeType: "image/png"
}, Effect.succeed(new Uint8Array([137, 80, 78, 71])))

const triage = McpPrompt.make("triage", {
  description: "Triage a support ticket",
  parameters: Schema.Struct({
    ticket: Schema.String.annotate({ description: "The ticket id" }),
    urgency: Schema.optionalKey(Schema.Literals(["low", "high"]))
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

const pick = (name: string) =>
  McpTool.make(
    name,
    { description: `Answers ${name}`, parameters: Schema.Struct({}) },
    () => Effect.succeed(`${name} answered`)
  )

const rpc = (server: McpServer.McpServer, method: string, params?: Record<string, unknown>) =>
  McpServer.handle(server, { jsonrpc: "2.0", id: 1, method, ...(params !== undefined ? { params } : {}) })

const resultOf = (response: McpServer.JsonRpcResponse): any => ("result" in response ? response.result : undefined)
const errorOf = (response: McpServer.JsonRpcResponse): any => ("error" in response ? response.error : undefined)

const initializeParams = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }

describe("resources and prompts over JSON-RPC", () => {
  it.effect("initialize declares resources and prompts; the listings describe them", () =>
    Effect.gen(function*() {
      const { server } = yield* makeLibrary
      const initialize = resultOf(yield* rpc(server, "initialize", initializeParams))
      assert.deepStrictEqual(initialize.capabilities, {
        logging: {},
        completions: {},
        resources: { listChanged: true, subscribe: true },
        prompts: { listChanged: true }
      })
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
      // a server without resources or prompts declares none (effect/ai lists them empty if asked)
      const plain = yield* McpServer.make({ name: "plain", tools: [pick("alpha")] })
      assert.deepStrictEqual(resultOf(yield* rpc(plain, "initialize", initializeParams)).capabilities, {
        logging: {},
        completions: {},
        tools: { listChanged: true }
      })
      assert.deepStrictEqual(resultOf(yield* rpc(plain, "prompts/list")), { prompts: [] })
    }))

  it.effect("resources/read: a fixed URI, a template's URI decoded by its Schema, bad and unknown URIs", () =>
    Effect.gen(function*() {
      const { reads, server } = yield* makeLibrary
      assert.deepStrictEqual(resultOf(yield* rpc(server, "resources/read", { uri: "orders://42" })), {
        contents: [{ uri: "orders://42", mimeType: "text/plain", text: "Order 42: two tickets for Hamlet, paid" }]
      })
      assert.deepStrictEqual(resultOf(yield* rpc(server, "resources/read", { uri: "memo://logo" })), {
        contents: [{ uri: "memo://logo", mimeType: "image/png", blob: "iVBORw==" }]
      })
      // the variable does not decode: invalid params naming it; the handler does not run
      const bad = errorOf(yield* rpc(server, "resources/read", { uri: "orders://4.5" }))
      assert.strictEqual(bad.code, -32602)
      assert.strictEqual(
        bad.message,
        "Invalid URI for resource template orders://{id}:\n- id: Expected an integer, got 4.5"
      )
      // a failing handler: an MCP error carrying its message
      const failed = errorOf(yield* rpc(server, "resources/read", { uri: "orders://7" }))
      assert.deepStrictEqual(failed, { code: -32603, message: "OrderNotFound: no order 7" })
      assert.deepStrictEqual(yield* Ref.get(reads), [42, 7])
      const unknown = errorOf(yield* rpc(server, "resources/read", { uri: "orders://42/items" }))
      assert.deepStrictEqual(unknown, { code: -32002, message: "Resource 'orders://42/items' not found" })
      assert.strictEqual(errorOf(yield* rpc(server, "resources/read", {})).code, -32602)
    }))

  it.effect("a resource read that outlives its timeout is an MCP error, on the Clock", () =>
    Effect.gen(function*() {
      const slow = McpResource.make({ uri: "memo://slow", name: "slow", timeout: "10 seconds" }, Effect.never)
      const server = yield* McpServer.make({ name: "slow", resources: [slow] })
      const fiber = yield* Effect.forkChild(rpc(server, "resources/read", { uri: "memo://slow" }))
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
      assert.strictEqual(
        invalid.message,
        "Invalid arguments for prompt triage:\n- ticket: Missing key\n- urgency: Expected \"low\" | \"high\", got \"extreme\""
      )
      assert.deepStrictEqual(errorOf(yield* rpc(server, "prompts/get", { name: "nope" })), {
        code: -32602,
        message: "Prompt 'nope' not found"
      })
    }))

  it.effect("make rejects duplicate URIs, templates whose variables are not their parameters' fields, invalid annotations", () =>
    Effect.gen(function*() {
      const mismatched = McpResource.template({
        uriTemplate: "files://{dir}/{name}",
        name: "file",
        parameters: Schema.Struct({ dir: Schema.String, size: Schema.String })
      }, () => Effect.succeed(""))
      // MCP's annotations: a priority is between 0 and 1 (effect/ai's schema checks it, at make)
      const loud = McpResource.make(
        { uri: "memo://loud", name: "loud", annotations: { priority: 5 } },
        Effect.succeed("!")
      )
      const exit = yield* Effect.exit(
        McpServer.make({ name: "broken", resources: [returnsPolicy, returnsPolicy, mismatched, loud] })
      )
      assert.isTrue(Exit.isFailure(exit))
      const message = Exit.isFailure(exit) ? String(exit.cause) : ""
      assert.include(message, "McpServer.make(\"broken\")")
      assert.include(message, "resource \"memo://returns-policy\" is defined twice")
      assert.include(message, "{name} is not a field of its parameters")
      assert.include(message, "the required field(s) size are not in the URI")
      assert.include(message, "resource \"memo://loud\": annotations.priority: Expected a value between 0 and 1, got 5")
    }))
})
