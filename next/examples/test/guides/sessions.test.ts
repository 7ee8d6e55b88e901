/**
 * docs/sessions.md, run: sessions turn by turn, interrupted, tuned, read as
 * a firehose or a chunk at a time, fed by a stream, their stderr, verbatim
 * prompts and a pool, on the real CLI against the scripted model.
 */
import { SessionPool } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { afterEach, assert, describe, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Example from "../../src/Example.js"
import * as guide from "../../src/guides/sessions.js"

afterEach(() => {
  vi.restoreAllMocks()
})

const printed = () => {
  const lines: Array<string> = []
  for (const method of ["log", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) =>
      void lines.push(args.map((arg) => typeof arg === "string" ? arg : JSON.stringify(arg)).join(" "))
    )
  }
  return lines
}

const text = ScriptedModel.text

describe("docs/sessions.md, on the real CLI", () => {
  it.live("turns: two turns on one process; the second request carries the first turn", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* guide.conversation
      assert.match(lines[0]!, /^\d+ messages; session [0-9a-f-]{36}$/)
      const [first, second] = yield* ScriptedModel.turnRequests
      assert.include(first!.model, "sonnet")
      assert.isTrue(second!.includes("Read package.json and tell me the project's name."))
      assert.isTrue(second!.includes("The project is claude-effect."))
    }).pipe(Effect.provide(Example.layerScripted([text("The project is claude-effect."), text("0.0.0.")]))))

  it.live(
    "interrupt: the long turn is stopped after 3 s, and the session answers the next one",
    () =>
      Effect.gen(function*() {
        yield* guide.impatient
        const requests = yield* ScriptedModel.turnRequests
        assert.strictEqual(requests.length, 2)
        // the next turn's prompt follows the CLI's note of the interruption
        assert.match(
          requests[1]!.lastUserText,
          /^\[Request interrupted by user\][\s\S]*In one sentence instead, please\.$/
        )
      }).pipe(Effect.provide(Example.layerScripted([
        text("Types ".repeat(400)).pipe(ScriptedModel.slow({ delay: "20 millis", chunkSize: 4 })),
        text("Types prevent errors.")
      ]))),
    60_000
  )

  it.live("control: permission mode and model set, context usage, MCP servers and commands read", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* guide.tuned
      assert.match(lines[0]!, /^\d+\/\d+ tokens, 0 MCP servers$/)
      assert.match(lines[1]!, /^[1-9]\d* slash commands$/)
    }).pipe(Effect.provide(Example.layerScripted([]))))

  it.live("messages: two prompts sent, input ended, every message to the CLI's exit", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* guide.firehose
      assert.strictEqual(lines.filter((line) => line === "result").length, 2)
    }).pipe(Effect.provide(Example.layerScripted([text("Two files."), text("2.")]))))

  it.live("chunks: the partial messages are counted a chunk at a time", () =>
    Effect.gen(function*() {
      const counts = yield* guide.tallied
      assert.isAbove(counts.get("stream_event") ?? 0, 10)
      assert.strictEqual(counts.get("result"), 1)
    }).pipe(Effect.provide(Example.layerScripted([
      text("Once upon a time, ".repeat(20)).pipe(ScriptedModel.slow({ delay: "1 millis", chunkSize: 20 }))
    ]))))

  it.live("stream-prompt: a query fed by a stream of two prompts answers both", () =>
    Effect.gen(function*() {
      const messages = yield* guide.batch
      const results = Array.from(messages).flatMap((message) => message.type === "result" ? [message.result] : [])
      assert.deepStrictEqual(results, ["4.", "6."])
    }).pipe(Effect.provide(Example.layerScripted([text("4."), text("6.")]))))

  it.live("stderr: the CLI's debug log is read while the turn runs", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* guide.diagnosed
      assert.isTrue(lines.every((line) => line.includes("[ERROR]")), lines.join("\n"))
      assert.isTrue((yield* ScriptedModel.lastTurnRequest).lastUserText.endsWith("Check the MCP servers."))
    }).pipe(Effect.provide(Example.layerScripted([text("No servers.")]))))

  it.live("stderr-sink: the query runs with its stderr going to the logger", () =>
    Effect.gen(function*() {
      yield* guide.logged
      assert.isTrue((yield* ScriptedModel.lastTurnRequest).lastUserText.endsWith("Hi"))
    }).pipe(Effect.provide(Example.layerScripted([text("Hello.")]))))

  it.live("verbatim: the prompt reaches the model as written, with its @ and / untouched", () =>
    Effect.gen(function*() {
      yield* Stream.runDrain(guide.verbatim)
      assert.isTrue(
        (yield* ScriptedModel.lastTurnRequest).includes("Summarize this ticket: @billing /refund all")
      )
    }).pipe(Effect.provide(Example.layerScripted([text("A refund request.")]))))

  it.live("pool: a one-shot query and a chat on claimed processes; the status of the pool", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      const env = yield* ScriptedModel.cliEnv
      const lines = printed()
      // the guide's Pool is for /srv/project: the same pool here, for the test's directory
      const pool = SessionPool.layer({ size: 2, options: { cwd, env } })
      yield* Effect.gen(function*() {
        yield* guide.health
        yield* guide.answer
        yield* guide.chat
      }).pipe(Effect.provide(pool))
      assert.match(lines[0]!, /^\d\/2 ready, \d warming$/)
      assert.isTrue(lines.some((line) => line.includes("\"result\":\"Summarized.\"")))
      const prompts = (yield* ScriptedModel.turnRequests).map((request) => request.lastUserText.split("\n").at(-1))
      assert.deepStrictEqual(prompts, [
        "Summarize README.md in one line.",
        "What does this project do?",
        "And how is it tested?"
      ])
    }).pipe(
      Effect.provide(Example.layerScripted([text("Summarized."), text("It drives Claude."), text("With vitest.")]))
    ))
})
