import { HookLayer, HookResult, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import type * as AiError from "effect/ai/AiError"
import * as LanguageModel from "effect/ai/LanguageModel"
import type * as Response from "effect/ai/Response"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { ClaudeCodeAiError, ClaudeCodeLanguageModel, ClaudeCodeTool } from "../src/index.js"
import { bash, harness, isAlive, Workspace } from "./utils/harness.js"

// -----------------------------------------------------------------------------
// an application service, and a toolkit whose handler uses it
// -----------------------------------------------------------------------------

class OutOfCatalog extends Schema.TaggedError<OutOfCatalog>()("OutOfCatalog", { sku: Schema.String }) {
  override get message() {
    return `${this.sku} is not in the catalog`
  }
}

class Inventory extends Context.Service<Inventory, {
  readonly stock: (sku: string) => Effect.Effect<number, OutOfCatalog>
  readonly lookups: Ref.Ref<ReadonlyArray<string>>
}>()("test/Inventory") {}

const InventoryLive = Layer.effect(
  Inventory,
  Effect.map(Ref.make<ReadonlyArray<string>>([]), (lookups) => ({
    lookups,
    stock: (sku: string) =>
      Ref.update(lookups, (all) => [...all, sku]).pipe(
        Effect.andThen(sku === "SKU-1" ? Effect.succeed(42) : Effect.fail(new OutOfCatalog({ sku })))
      )
  }))
)

const GetStock = Tool.make("GetStock", {
  description: "How many units of a product are in stock",
  parameters: Schema.Struct({ sku: Schema.String }),
  success: Schema.Struct({ sku: Schema.String, stock: Schema.Finite }),
  failure: OutOfCatalog,
  failureMode: "return"
})

const Shop = Toolkit.make(GetStock)

const ShopLive = Shop.toLayer(Effect.gen(function*() {
  const inventory = yield* Inventory
  return {
    GetStock: ({ sku }) => Effect.map(inventory.stock(sku), (stock) => ({ sku, stock }))
  }
})).pipe(Layer.provideMerge(InventoryLive))

const getStock = (sku: string) => ScriptedModel.toolUse("mcp__app__GetStock", { sku })

const claudeCodeMetadata = (metadata: Response.ProviderMetadata | undefined): { readonly pid: number } =>
  metadata?.[ClaudeCodeLanguageModel.metadataKey] as { readonly pid: number }

/** The typed error behind an `AiError` of the provider. */
const typedCause = (error: AiError.AiError) => ClaudeCodeAiError.cause(error)

/** The `UnsupportedInputError` behind an `AiError`, as [reason, path]. */
const unsupported = (error: AiError.AiError): [string, string] | undefined => {
  const cause = typedCause(error)
  return cause instanceof ClaudeCodeAiError.UnsupportedInputError ? [cause.reason, cause.path] : undefined
}

// -----------------------------------------------------------------------------

describe("ClaudeCodeLanguageModel.generateText", () => {
  it.live("runs the agent under the hooks in scope: a denied command leaves no file, and the response says so", () =>
    Effect.gen(function*() {
      const response = yield* LanguageModel.generateText({
        prompt: "Create denied.txt",
        toolkit: Toolkit.make(ClaudeCodeTool.Bash)
      })
      const workspace = yield* Workspace
      assert.isFalse(workspace.exists("denied.txt"))
      assert.strictEqual(response.text, "The hook did not let me create it.")
      // The built-in tool is in the toolkit: its call and its (denied) result are typed parts (effect 4 types
      // the params of a toolkit whose calls it may resolve as unknown: they decode with the tool's Schema).
      const bashParams = Schema.decodeUnknownSync(ClaudeCodeTool.Bash.parametersSchema)
      assert.deepStrictEqual(
        response.toolCalls.map((call) => [call.name, bashParams(call.params).command, call.providerExecuted]),
        [
          ["ClaudeCodeBash", "touch denied.txt", true]
        ]
      )
      const [denied] = response.toolResults
      assert.isTrue(denied.isFailure)
      assert.include(String(denied.result), "NO-BASH-HERE")
      // Usage, cost and session id come from the turn's result.
      assert.strictEqual(response.finishReason, "stop")
      assert.isAbove(response.usage.inputTokens.total ?? 0, 0)
      assert.isAbove(response.usage.outputTokens.total ?? 0, 0)
      const metadata = ClaudeCodeLanguageModel.getProviderMetadata(response)!
      assert.isNumber(metadata.costUsd)
      assert.match(metadata.sessionId!, /^[0-9a-f-]{36}$/)
      assert.deepStrictEqual(
        metadata.permissionDenials?.map((denial) => (denial as { readonly tool_name: string }).tool_name),
        ["Bash"]
      )
      assert.deepStrictEqual(metadata.toolCalls.map((call) => [call.name, call.isError]), [["Bash", true]])
    }).pipe(
      Effect.provide(HookLayer.preToolUse({ matcher: "Bash" }, () => Effect.succeed(HookResult.deny("NO-BASH-HERE")))),
      Effect.provide(harness([bash("touch denied.txt"), ScriptedModel.text("The hook did not let me create it.")]))
    ))

  it.live("a tool of the app's toolkit runs its handler with the app's services; a failure reaches the model as an error result", () =>
    Effect.gen(function*() {
      const response = yield* LanguageModel.generateText({ prompt: "Stock of SKU-1 and SKU-404?", toolkit: Shop })
      // The handler ran, with the Inventory service of the app's layer.
      assert.deepStrictEqual(yield* Ref.get((yield* Inventory).lookups), ["SKU-1", "SKU-404"])
      assert.deepStrictEqual(response.toolCalls.map((call) => [call.name, call.params]), [
        ["GetStock", { sku: "SKU-1" }],
        ["GetStock", { sku: "SKU-404" }]
      ])
      const [found, missing] = response.toolResults
      assert.deepStrictEqual([found.isFailure, found.result], [false, { sku: "SKU-1", stock: 42 }])
      assert.isTrue(missing.isFailure)
      assert.instanceOf(missing.result, OutOfCatalog)
      // The model got both results: the failure as an error result it can read.
      const results = (yield* ScriptedModel.lastTurnRequest).latestToolResults
      assert.deepStrictEqual(JSON.parse(results[0].content), { sku: "SKU-1", stock: 42 })
      assert.isFalse(results[0].isError)
      assert.isTrue(results[1].isError)
      assert.include(results[1].content, "OutOfCatalog")
      assert.strictEqual(response.text, "42 of SKU-1; SKU-404 does not exist.")
    }).pipe(
      Effect.provide(ShopLive),
      Effect.provide(harness([
        ScriptedModel.turn(getStock("SKU-1"), getStock("SKU-404")),
        ScriptedModel.text("42 of SKU-1; SKU-404 does not exist.")
      ]))
    ))

  it.live("the permission gate and the hooks in scope see the toolkit's calls: a denied call never reaches the handler", () =>
    Effect.gen(function*() {
      const seen = yield* Ref.make<ReadonlyArray<string>>([])
      const response = yield* LanguageModel.generateText({ prompt: "Stock of SKU-1?", toolkit: Shop }).pipe(
        Effect.provide(
          HookLayer.preToolUse({}, (input) => Ref.update(seen, (all) => [...all, `hook:${input.tool_name}`]))
        ),
        Effect.provide(PermissionGate.layer((request) =>
          Effect.as(
            Ref.update(seen, (all) => [...all, `gate:${request.tool_name}`]),
            PermissionResult.deny("stock lookups are closed today")
          )
        ))
      )
      assert.deepStrictEqual(yield* Ref.get(seen), ["hook:mcp__app__GetStock", "gate:mcp__app__GetStock"])
      assert.deepStrictEqual(yield* Ref.get((yield* Inventory).lookups), [])
      assert.deepStrictEqual(response.toolCalls.map((call) => call.name), ["GetStock"])
      // A denial is no OutOfCatalog: the tool's Schemas cannot carry it, the metadata does.
      assert.deepStrictEqual(response.toolResults, [])
      const [call] = ClaudeCodeLanguageModel.getProviderMetadata(response)!.toolCalls
      assert.deepStrictEqual([call.name, call.isError], ["mcp__app__GetStock", true])
      assert.include(call.result ?? "", "stock lookups are closed today")
    }).pipe(
      Effect.provide(ShopLive),
      Effect.provide(harness([getStock("SKU-1"), ScriptedModel.text("The lookup was refused.")]))
    ))

  it.live("the prompt maps: system messages to the system prompt, earlier turns to a transcript, files to content blocks", () =>
    Effect.gen(function*() {
      const response = yield* LanguageModel.generateText({
        prompt: [
          { role: "system", content: "Answer in one word." },
          { role: "user", content: "My name is Ada." },
          { role: "assistant", content: "Hello, Ada." },
          {
            role: "user",
            content: [
              { type: "text", text: "What is in the picture, and what does the note say?" },
              { type: "file", mediaType: "image/png", data: Buffer.from(pixel, "base64"), fileName: "pixel.png" },
              { type: "file", mediaType: "text/plain", data: "buy milk", fileName: "note.txt" }
            ]
          }
        ]
      })
      assert.strictEqual(response.text, "Pixel.")
      const request = yield* ScriptedModel.lastTurnRequest
      assert.include(request.system, "Answer in one word.")
      const last = request.messages.filter((message) => message.role === "user").at(-1)!
      const blocks = last.content as ReadonlyArray<any>
      const text = blocks.filter((block) => block.type === "text").map((block) => block.text).join("\n")
      assert.match(
        text,
        /<conversation>[\s\S]*<user>\nMy name is Ada\.[\s\S]*<assistant>\nHello, Ada\.[\s\S]*<\/conversation>/
      )
      assert.include(text, "What is in the picture")
      const image = blocks.find((block) => block.type === "image")
      assert.deepStrictEqual(image?.source, { type: "base64", media_type: "image/png", data: pixel })
      const document = blocks.find((block) => block.type === "document")
      assert.deepStrictEqual(document?.source, { type: "text", media_type: "text/plain", data: "buy milk" })
    }).pipe(Effect.provide(harness([ScriptedModel.text("Pixel.")]))))

  it.live("what cannot map is an InvalidUserInputError whose cause says what, before anything is spawned", () =>
    Effect.gen(function*() {
      const failures = yield* Effect.forEach(
        [
          [{ role: "user", content: "hi" }, { role: "system", content: "late" }, { role: "user", content: "again" }],
          [{ role: "user", content: "hi" }, { role: "assistant", content: "Let me" }],
          [{ role: "user", content: [{ type: "file", mediaType: "audio/mpeg", data: "AAAA" }] }]
        ] as const,
        (prompt) => Effect.flip(LanguageModel.generateText({ prompt }))
      )
      assert.deepStrictEqual(failures.map((error) => [error._tag, error.reason._tag]), [
        ["AiError", "InvalidUserInputError"],
        ["AiError", "InvalidUserInputError"],
        ["AiError", "InvalidUserInputError"]
      ])
      assert.isTrue(failures.every((error) => typedCause(error) instanceof ClaudeCodeAiError.UnsupportedInputError))
      assert.deepStrictEqual(failures.map(unsupported), [
        ["SystemMessagePosition", "prompt.content[1]"],
        ["LastMessage", "prompt.content[1]"],
        ["FileType", "prompt.content[0].content[0]"]
      ])
      assert.include(failures[2].message, "audio/mpeg")
      const required = yield* Effect.flip(
        LanguageModel.generateText({ prompt: "hi", toolkit: Shop, toolChoice: "required" })
      )
      assert.strictEqual(unsupported(required)?.[0], "ToolChoice")
      assert.deepStrictEqual(yield* ScriptedModel.requests, [])
    }).pipe(Effect.provide(ShopLive), Effect.provide(harness([ScriptedModel.text("never")]))))
})

describe("ClaudeCodeLanguageModel configuration", () => {
  it.live("withConfigOverride sets the options of the calls it wraps, over the layer's", () =>
    Effect.gen(function*() {
      const response = yield* LanguageModel.generateText({ prompt: "hi" }).pipe(
        ClaudeCodeLanguageModel.withConfigOverride({ model: "claude-override-model" })
      )
      assert.strictEqual(response.text, "hello")
      const [first] = yield* ScriptedModel.turnRequests
      assert.strictEqual(first.model, "claude-override-model")
      // the next call, outside the override, has the layer's model again
      yield* LanguageModel.generateText({ prompt: "hi again" })
      assert.strictEqual((yield* ScriptedModel.turnRequests)[1].model, "claude-layer-model")
    }).pipe(Effect.provide(harness([ScriptedModel.text("hello"), ScriptedModel.text("hello again")], {
      model: "claude-layer-model"
    }))))

  it.live("a toolkit whose handlers are not in the context, or whose names cannot be served, is refused", () =>
    Effect.gen(function*() {
      // Resolved elsewhere: the handler's layer is not where the call runs.
      const resolved = yield* Effect.provide(Shop, ShopLive)
      const missing = yield* Effect.flip(LanguageModel.generateText({ prompt: "stock?", toolkit: resolved }))
      assert.deepStrictEqual(unsupported(missing), ["HandlerMissing", "toolkit.GetStock"])
      const Dotted = Tool.make("stock.get", {
        parameters: Schema.Struct({ sku: Schema.String }),
        success: Schema.Finite
      })
      const badName = yield* Effect.flip(
        LanguageModel.generateText({ prompt: "stock?", toolkit: Toolkit.make(Dotted) }).pipe(
          Effect.provide(Toolkit.make(Dotted).toLayer({ "stock.get": () => Effect.succeed(1) }))
        )
      )
      assert.strictEqual(unsupported(badName)?.[0], "ToolName")
      assert.deepStrictEqual(yield* ScriptedModel.requests, [])
    }).pipe(Effect.provide(harness([ScriptedModel.text("never")]))))
})

describe("ClaudeCodeLanguageModel.streamText", () => {
  it.live("streams text deltas in order, with the tool calls and results as they happen", () =>
    Effect.gen(function*() {
      const parts = yield* Stream.runCollect(LanguageModel.streamText({ prompt: "How many SKU-1?", toolkit: Shop }))
      // The shape of the stream: metadata, the first text, the call, its result, the answer, the finish.
      const shape = parts.map((part) => part.type).filter((type, i, all) =>
        type !== "text-delta" || all[i - 1] !== type
      )
      assert.deepStrictEqual(shape, [
        "response-metadata",
        "text-start",
        "text-delta",
        "text-end",
        "tool-call",
        "tool-result",
        "text-start",
        "text-delta",
        "text-end",
        "finish"
      ])
      const deltas = parts.filter((part): part is Response.TextDeltaPart => part.type === "text-delta")
      assert.isAbove(deltas.length, 4, "the text arrives in several deltas")
      assert.strictEqual(deltas.map((delta) => delta.delta).join(""), "Checking.There are 42 units of SKU-1.")
      const call = parts.find((part) => part.type === "tool-call")!
      const result = parts.find((part) => part.type === "tool-result")!
      assert.deepStrictEqual([call.name, call.params], ["GetStock", { sku: "SKU-1" }])
      assert.deepStrictEqual([result.name, result.result], ["GetStock", { sku: "SKU-1", stock: 42 }])
      assert.strictEqual((parts.at(-1) as Response.FinishPart).reason, "stop")
    }).pipe(
      Effect.provide(ShopLive),
      Effect.provide(harness([
        ScriptedModel.turn(ScriptedModel.text("Checking."), getStock("SKU-1")),
        ScriptedModel.slow(ScriptedModel.text("There are 42 units of SKU-1."), { delay: "5 millis", chunkSize: 5 })
      ]))
    ))

  it.live("interrupting the stream stops the CLI: its process is gone", () =>
    Effect.gen(function*() {
      const pid = yield* Deferred.make<number>()
      const fiber = yield* LanguageModel.streamText({ prompt: "Talk for a while." }).pipe(
        Stream.tap((part) =>
          part.type === "response-metadata" ? Deferred.succeed(pid, claudeCodeMetadata(part.metadata).pid) : Effect.void
        ),
        Stream.filter((part) => part.type === "text-delta"),
        Stream.runForEach(() => Effect.void),
        Effect.forkChild
      )
      const running = yield* Deferred.await(pid)
      yield* ScriptedModel.awaitRequests(1, "turn")
      yield* Effect.sleep("200 millis")
      assert.isTrue(isAlive(running), "the CLI runs while the text streams")
      yield* Fiber.interrupt(fiber)
      assert.isFalse(isAlive(running), `pid ${running} outlived the interrupted stream`)
    }).pipe(Effect.provide(harness([
      ScriptedModel.slow(ScriptedModel.text("la ".repeat(400)), { delay: "20 millis", chunkSize: 3 })
    ]))))
})

describe("ClaudeCodeLanguageModel.generateObject", () => {
  class Forecast extends Schema.Class<Forecast>("Forecast")({
    city: Schema.String,
    highC: Schema.Finite,
    conditions: Schema.Literals(["sunny", "rain", "snow"])
  }) {}

  it.live("decodes the agent's structured output into the Schema class", () =>
    Effect.gen(function*() {
      const response = yield* LanguageModel.generateObject({ prompt: "Tomorrow in Lyon?", schema: Forecast })
      assert.instanceOf(response.value, Forecast)
      assert.deepStrictEqual({ ...response.value }, { city: "Lyon", highC: 21, conditions: "sunny" })
      // The CLI was asked for structured output: the model answered through its StructuredOutput tool.
      const request = (yield* ScriptedModel.turnRequests)[0]
      assert.include(request.tools, ScriptedModel.structuredOutputTool)
      assert.deepStrictEqual(response.toolCalls, [])
      assert.strictEqual(response.finishReason, "stop")
    }).pipe(Effect.provide(harness([
      ScriptedModel.structuredOutput({ city: "Lyon", highC: 21, conditions: "sunny" })
    ]))))

  it.live("an answer the Schema rejects is a StructuredOutputError caused by the SDK's, with the parse issue", () =>
    Effect.gen(function*() {
      const Launch = Schema.Struct({ title: Schema.String, when: Schema.DateFromString })
      const error = yield* Effect.flip(LanguageModel.generateObject({ prompt: "When?", schema: Launch }))
      assert.strictEqual(error.reason._tag, "StructuredOutputError")
      const cause = typedCause(error)
      assert.strictEqual(cause?._tag, "StructuredOutputError")
      if (cause?._tag !== "StructuredOutputError") return
      assert.strictEqual(cause.reason, "Mismatch")
      assert.include(cause.detail, "when")
    }).pipe(Effect.provide(harness([ScriptedModel.structuredOutput({ title: "Launch", when: "someday" })]))))
})

const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
