/**
 * docs/structured-output.md and docs/errors.md, run: structured answers
 * decoded (and the error when the model answers in text), the errors the
 * guide catches, on the real CLI against the scripted model.
 */
import { ClaudeCode, ClaudeError } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { afterEach, assert, describe, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"

import * as Example from "../../src/Example.js"
import * as errors from "../../src/guides/errors.js"
import * as structured from "../../src/guides/structured-output.js"

afterEach(() => {
  vi.restoreAllMocks()
})

const printed = () => {
  const lines: Array<string> = []
  for (const method of ["log", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) => void lines.push(args.join(" ")))
  }
  return lines
}

/** ClaudeCode on the guide's own scripted model (its `model` layer). */
const onGuideModel = Layer.unwrap(Effect.map(ScriptedModel.cliEnv, (env) => ClaudeCode.layer({ env }))).pipe(
  Layer.provideMerge(structured.model),
  Layer.provideMerge(NodeServices.layer),
  Layer.orDie
)

describe("docs/structured-output.md, on the real CLI", () => {
  it.live("structured + test: the verdict the guide's scripted model answers, decoded as a Verdict", () =>
    Effect.gen(function*() {
      const verdict = yield* structured.handled
      assert.deepStrictEqual(verdict && { ...verdict }, { safe: true, risk: "low", reasons: ["build/ is generated"] })
      // the CLI was given Verdict's JSON Schema
      assert.include(JSON.stringify((yield* ScriptedModel.lastTurnRequest).body), "\"risk\"")
    }).pipe(Effect.provide(onGuideModel)))

  it.live("errors: a model that answers in text is a Missing StructuredOutputError, caught, with what it said", () =>
    Effect.gen(function*() {
      const lines = printed()
      const verdict = yield* structured.handled
      assert.isUndefined(verdict)
      assert.deepStrictEqual(lines, ["no verdict; the model said: It is safe, I think."])
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.rule(() => ScriptedModel.text("It is safe, I think."))
    ], { env: { CLAUDE_CODE_MAX_RETRIES: "0" } }))))

  it.live("pieces: the same in a session, decoded from the turn's result", () =>
    Effect.gen(function*() {
      const verdict = yield* structured.inSession
      assert.deepStrictEqual({ ...verdict }, { safe: false, risk: "high", reasons: ["it deletes ignored files"] })
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.structuredOutput({ safe: false, risk: "high", reasons: ["it deletes ignored files"] })
    ]))))
})

describe("docs/errors.md, on the real CLI", () => {
  it.live("catch: a CLI that is not there is a CliNotFoundError, and the guide says to install it", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* errors.report.pipe(
        Effect.provide(ClaudeCode.layer({ executable: "/nonexistent/claude" }).pipe(Layer.provide(NodeServices.layer)))
      )
      assert.strictEqual(lines.length, 1)
      assert.match(lines[0]!, /^Install the CLI: /)
      assert.include(lines[0]!, "/nonexistent/claude")
    }))

  it.live("result-error: a turn that ends in an API error is a ResultError", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* errors.mustSucceed
      assert.match(lines[0]!, /^The turn failed \(.+\): /)
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.rule(() => ScriptedModel.error(500, { message: "overloaded on purpose" }))
    ], { env: { CLAUDE_CODE_MAX_RETRIES: "0" } }))))

  it.live("result-error: strict turns an error result into a failure of the stream", () =>
    Effect.gen(function*() {
      const error = yield* ClaudeCode.query("Run the migrations").pipe(errors.strict, Stream.runDrain, Effect.flip)
      assert.isTrue(error instanceof ClaudeError.ResultError)
      assert.strictEqual(error._tag, "ResultError")
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.rule(() => ScriptedModel.error(500, { message: "overloaded on purpose" }))
    ], { env: { CLAUDE_CODE_MAX_RETRIES: "0" } }))))

  it.live("retry: a query that succeeds is not retried", () =>
    Effect.gen(function*() {
      const messages = yield* errors.resilient
      assert.strictEqual(messages.at(-1)?.type, "result")
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1)
    }).pipe(Effect.provide(Example.layerScripted([ScriptedModel.text("It exports ClaudeCode.")]))))

  it.effect("guard: every SDK error is described by its tag, anything else as it is", () =>
    Effect.sync(() => {
      const error = new ClaudeError.ResultError({ reason: "max_turns", sessionId: "s", errors: [] })
      assert.match(errors.describe(error), /^ResultError: /)
      assert.strictEqual(errors.describe("boom"), "boom")
    }))
})
