/**
 * docs/tools.md, run: the in-process tools, resources, prompts, elicitation
 * and live server changes the guide shows, on the real CLI against the
 * scripted model (user dialogs, which no offline session raises, over the
 * testkit's FakeCli), and what came back.
 */
import { ClaudeCode, McpServer } from "@claude-effect/sdk"
import { FakeCli, ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Example from "../../src/Example.js"
import * as guide from "../../src/guides/tools.js"

const lookup = (input: Record<string, unknown>) => ScriptedModel.toolUse("mcp__inventory__lookup", input)

describe("docs/tools.md, on the real CLI", () => {
  it.live("use: the model calls lookup; the handler gets the number it was sent as a string, and answers structured", () =>
    Effect.gen(function*() {
      yield* guide.program
      const [found, unknown] = yield* ScriptedModel.toolResults
      assert.deepStrictEqual(JSON.parse(found!.content), { sku: "SKU-1", stock: 42, enough: true })
      // a failure of the service is an error result, with its message
      assert.isTrue(unknown!.isError)
      assert.include(unknown!.content, "SKU-7 is not sold here")
    }).pipe(Effect.provide(Example.layerScripted([
      lookup({ sku: "SKU-1", minimum: "10" }),
      lookup({ sku: "SKU-7" }),
      ScriptedModel.text("42, enough.")
    ]))))

  it.live("hooks: the hook sees the tool by its full name and denies it", () =>
    Effect.gen(function*() {
      yield* guide.program.pipe(Effect.provide(guide.closedForStocktaking))
      const [denied] = yield* ScriptedModel.toolResults
      assert.isTrue(denied!.isError)
      assert.include(denied!.content, "the inventory is closed for stocktaking")
    }).pipe(Effect.provide(Example.layerScripted([lookup({ sku: "SKU-1" }), ScriptedModel.text("Closed.")]))))

  it.effect("handle: one JSON-RPC message to the server, without a CLI", () =>
    Effect.gen(function*() {
      const answer = yield* guide.direct
      assert.deepInclude(answer, { jsonrpc: "2.0", id: 1 })
      assert.deepStrictEqual((answer as { result: { structuredContent: unknown } }).result.structuredContent, {
        sku: "SKU-1",
        stock: 42,
        enough: true
      })
    }))

  it.effect("results: a string, a structured value with its text, an error", () =>
    Effect.gen(function*() {
      const server = yield* McpServer.make({ name: "report", tools: [guide.results] })
      const call = (kind: string) =>
        Effect.map(
          McpServer.handle(server, {
            jsonrpc: "2.0",
            id: kind,
            method: "tools/call",
            params: { name: "report", arguments: { kind } }
          }),
          (answer) => (answer as { result: Record<string, unknown> }).result
        )
      assert.deepStrictEqual((yield* call("text")).content, [{
        type: "text",
        text: "a plain string is one text block"
      }])
      assert.deepInclude(yield* call("structured"), {
        content: [{ type: "text", text: "3 in total" }],
        structuredContent: { total: 3 }
      })
      assert.deepInclude(yield* call("error"), { isError: true })
    }))

  it.live("read: the program reads a templated resource of the session's server", () =>
    Effect.gen(function*() {
      const contents = yield* guide.readByModelAndProgram
      assert.deepStrictEqual(JSON.parse((contents[0] as { text: string }).text), { sku: "SKU-1", stock: 42 })
    }).pipe(Effect.provide(Example.layerScripted([]))))

  it.effect("prompts: prompts/get decodes the arguments MCP passes as strings (the CLI does not ask for prompts)", () =>
    Effect.gen(function*() {
      const playbook = yield* guide.playbook
      const answer = yield* McpServer.handle(playbook, {
        jsonrpc: "2.0",
        id: 1,
        method: "prompts/get",
        params: { name: "restock", arguments: { sku: "SKU-9", quantity: "40" } }
      })
      assert.include(JSON.stringify(answer), "Plan a restock of 40 units of SKU-9.")
    }))

  it.live("elicit and answer: the tool asks how many, the warehouse's handler answers 3", () =>
    Effect.gen(function*() {
      yield* guide.reserveOnce
      assert.strictEqual((yield* ScriptedModel.toolResults)[0]!.content, "reserved 3 of SKU-1")
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.toolUse("mcp__inventory__reserve", { sku: "SKU-1" }),
      ScriptedModel.text("Reserved.")
    ]))))

  it.live("live: inventory goes, catalog comes, and the session's status says so", () =>
    Effect.gen(function*() {
      const { added, removed, status } = yield* guide.swapServers
      assert.deepStrictEqual(added, ["catalog"])
      assert.deepStrictEqual(removed, ["inventory"])
      assert.deepStrictEqual(status.map((server) => server.name), ["catalog"])
    }).pipe(Effect.provide(Example.layerScripted([
      lookup({ sku: "SKU-1" }),
      ScriptedModel.text("42."),
      ScriptedModel.text("Within 30 days.")
    ]))))

  it.effect("dialogs: a refusal-fallback dialog is completed with retry_fallback (over FakeCli)", () =>
    Effect.gen(function*() {
      const cli = yield* FakeCli.FakeCli
      yield* Effect.scoped(
        Effect.gen(function*() {
          yield* ClaudeCode.session()
          const initialize = (yield* cli.initializeRequest) as { request: { supportedDialogKinds: unknown } }
          assert.deepStrictEqual(initialize.request.supportedDialogKinds, ["refusal_fallback_prompt"])
          const answer = yield* cli.request({
            subtype: "request_user_dialog",
            dialog_kind: "refusal_fallback_prompt",
            payload: { originalModel: "claude-a", fallbackModel: "claude-b", retractedMessageUuids: [] },
            tool_use_id: "toolu_01"
          })
          assert.deepStrictEqual(FakeCli.responseOf(answer), { behavior: "completed", result: "retry_fallback" })
        }).pipe(Effect.provide(guide.Dialogs))
      )
    }).pipe(
      Effect.provide(FakeCli.layer()),
      Effect.provide(ClaudeCode.layer({ executable: process.execPath }).pipe(Layer.provideMerge(NodeServices.layer)))
    ))
})
