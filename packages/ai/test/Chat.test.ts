import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import type * as Response from "effect/ai/Response"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { ClaudeCodeAiError, ClaudeCodeChat, ClaudeCodeLanguageModel } from "../src/index.js"
import { harness, isAlive } from "./utils/harness.js"

const pidOf = (content: ReadonlyArray<Response.AnyPart>): number => {
  const metadata = content.find((part) => part.type === "response-metadata")?.metadata
  return (metadata?.[ClaudeCodeLanguageModel.metadataKey] as { pid: number }).pid
}

describe("ClaudeCodeChat", () => {
  it.live("a chat of three turns runs on one CLI process, which holds the conversation; it ends with the scope", () =>
    Effect.gen(function*() {
      const pids = yield* Effect.scoped(Effect.gen(function*() {
        const chat = yield* ClaudeCodeChat.make()
        const one = yield* chat.generateText({
          prompt: [{ role: "system", content: "Count in Spanish." }, { role: "user", content: "one" }]
        })
        // A turn may stream: the chat is the same.
        const two = yield* Stream.runCollect(chat.streamText({ prompt: "two" }))
        const three = yield* chat.generateText({ prompt: "three" })
        assert.deepStrictEqual([one.text, three.text], ["uno", "tres"])
        assert.strictEqual(
          two.flatMap((part) => part.type === "text-delta" ? [part.delta] : []).join(""),
          "dos"
        )
        const pids = [pidOf(one.content), pidOf(two), pidOf(three.content)]
        assert.isTrue(isAlive(pids[0]), "the session's process lives as long as the chat")
        // The chat's history has the three exchanges (and the system message).
        const history = yield* Ref.get(chat.history)
        assert.deepStrictEqual(history.content.map((message) => message.role), [
          "system",
          "user",
          "assistant",
          "user",
          "assistant",
          "user",
          "assistant"
        ])
        return pids
      }))
      assert.strictEqual(new Set(pids).size, 1, `one process for the chat, saw ${pids}`)
      assert.isFalse(isAlive(pids[0]), "the scope closed: the CLI is gone")
      // Each turn sent only its new message; the session carried the rest to the model.
      const turns = yield* ScriptedModel.turnRequests
      assert.strictEqual(turns.length, 3)
      assert.include(turns[0].system, "Count in Spanish.")
      // (the CLI puts reminders of its own before the first prompt)
      assert.deepStrictEqual(turns.map((turn) => turn.lastUserText.split("\n").at(-1)), ["one", "two", "three"])
      assert.isTrue(turns[2].includes("uno") && turns[2].includes("dos"))
      assert.notInclude(turns[2].text, "<conversation>")
    }).pipe(
      Effect.provide(harness([ScriptedModel.text("uno"), ScriptedModel.text("dos"), ScriptedModel.text("tres")]))
    ))

  it.live("a chat keeps its response format and its toolkit: a turn asking for another is refused, the chat goes on", () =>
    Effect.gen(function*() {
      const chat = yield* ClaudeCodeChat.make()
      const first = yield* chat.generateText({ prompt: "hello" })
      assert.strictEqual(first.text, "hi")
      const refused = yield* Effect.flip(
        chat.generateObject({ prompt: "as an object", schema: Schema.Struct({ greeting: Schema.String }) })
      )
      assert.strictEqual(refused.reason._tag, "InvalidUserInputError")
      const cause = ClaudeCodeAiError.cause(refused)
      assert.instanceOf(cause, ClaudeCodeAiError.UnsupportedInputError)
      assert.strictEqual(cause?._tag === "UnsupportedInputError" ? cause.reason : undefined, "ResponseFormat")
      const second = yield* chat.generateText({ prompt: "again" })
      assert.strictEqual(second.text, "hi again")
      assert.strictEqual(pidOf(first.content), pidOf(second.content))
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 2)
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("hi"), ScriptedModel.text("hi again")]))))

  it.live("an interrupted turn is stopped in the CLI; the next turn answers its own prompt", () =>
    Effect.gen(function*() {
      const chat = yield* ClaudeCodeChat.make()
      const cut = yield* chat.streamText({ prompt: "talk" }).pipe(
        Stream.filter((part) => part.type === "text-delta"),
        Stream.take(3),
        Stream.runCollect
      )
      assert.strictEqual(cut.length, 3)
      const next = yield* chat.generateText({ prompt: "and now?" })
      assert.strictEqual(next.text, "still here")
      const turns = yield* ScriptedModel.turnRequests
      assert.deepStrictEqual(turns.map((turn) => turn.lastUserText.split("\n").at(-1)), ["talk", "and now?"])
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([
        ScriptedModel.slow(ScriptedModel.text("la ".repeat(300)), { delay: "20 millis", chunkSize: 3 }),
        ScriptedModel.text("still here")
      ]))
    ))

  it.live("the app's toolkit serves every turn of the chat, each call with the handlers of its turn", () =>
    Effect.gen(function*() {
      const counted = yield* Ref.make<ReadonlyArray<number>>([])
      const Count = Tool.make("Count", { parameters: Schema.Struct({ n: Schema.Finite }), success: Schema.Finite })
      const Counter = Toolkit.make(Count)
      const CounterLive = Counter.toLayer({
        Count: ({ n }) => Effect.as(Ref.update(counted, (all) => [...all, n]), n + 1)
      })
      const chat = yield* ClaudeCodeChat.make()
      const one = yield* chat.generateText({ prompt: "count from 1", toolkit: Counter }).pipe(
        Effect.provide(CounterLive)
      )
      const two = yield* chat.generateText({ prompt: "count from 2", toolkit: Counter }).pipe(
        Effect.provide(CounterLive)
      )
      assert.deepStrictEqual(yield* Ref.get(counted), [1, 2])
      assert.deepStrictEqual([one.toolResults[0]?.result, two.toolResults[0]?.result], [2, 3])
      assert.strictEqual(pidOf(one.content), pidOf(two.content))
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([
        ScriptedModel.toolUse("mcp__app__Count", { n: 1 }),
        ScriptedModel.text("2"),
        ScriptedModel.toolUse("mcp__app__Count", { n: 2 }),
        ScriptedModel.text("3")
      ]))
    ))
})
