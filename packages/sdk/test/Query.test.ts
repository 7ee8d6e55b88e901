import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { ClaudeCode, HookLayer, HookResult, Protocol } from "../src/index.js"
import { bash, harness, isAlive, Logs, processesIn, Workspace } from "./utils/harness.js"

describe("ClaudeCode.query", () => {
  it.live("streams init → assistant → result, ends, and the CLI is gone afterwards", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const seen: Array<number> = []
      const messages = yield* ClaudeCode.query("Say hello").pipe(
        Stream.tap(() => Effect.sync(() => seen.push(...processesIn(cwd)))),
        Stream.runCollect
      )
      const kinds = messages.map((m) => m.type === "system" ? `system/${(m as { subtype?: string }).subtype}` : m.type)
      assert.include(kinds, "system/init")
      assert.isAbove(kinds.indexOf("assistant"), kinds.indexOf("system/init"))
      assert.strictEqual(kinds[kinds.length - 1], "result")
      const result = messages[messages.length - 1]
      assert.isTrue(Protocol.isResultMessage(result))
      assert.strictEqual((result as Protocol.ResultSuccess).result, "Hello from the script")
      assert.isFalse((result as Protocol.ResultSuccess).is_error)
      // the CLI ran in the workspace while streaming, and is gone now
      assert.isAbove(seen.length, 0)
      for (const pid of new Set(seen)) assert.isFalse(isAlive(pid), `pid ${pid} is still alive`)
      assert.deepStrictEqual(processesIn(cwd), [])
      const request = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(request.includes("Say hello"))
    }).pipe(Effect.provide(harness([ScriptedModel.text("Hello from the script")]))))

  it.live("with a stream prompt, every turn's result arrives before the stream ends", () =>
    Effect.gen(function*() {
      const results = yield* ClaudeCode.query(Stream.make("first prompt")).pipe(
        Stream.filter((m) => m.type === "result"),
        Stream.runCollect
      )
      assert.strictEqual(results.length, 1)
      assert.strictEqual((results[0] as Protocol.ResultSuccess).result, "answer one")
    }).pipe(Effect.provide(harness([ScriptedModel.text("answer one")]))))

  it.live("ClaudeCode.result returns the result, and fails with ResultError on an error result", () =>
    Effect.gen(function*() {
      const ok = yield* ClaudeCode.result("say it")
      assert.strictEqual(ok.result, "fine")
      // one model turn allowed, and the model wants a second one (after its tool call)
      const error = yield* ClaudeCode.result("go", { maxTurns: 1, allowedTools: ["Bash"] }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "ResultError")
      assert.strictEqual(error._tag === "ResultError" ? error.reason : undefined, "error_max_turns")
    }).pipe(Effect.provide(harness([
      ScriptedModel.text("fine"),
      ScriptedModel.toolUse("Bash", { command: "echo one", description: "print" }),
      ScriptedModel.text("never")
    ]))))

  it.live("a query's CLI lives in the query's scope, even when the ClaudeCode layer was built in a longer one", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const env = yield* ScriptedModel.cliEnv
      // built in the test's scope, which outlives the query
      const context = yield* Layer.build(ClaudeCode.layer({ cwd, env }))
      const seen: Array<number> = []
      yield* ClaudeCode.query("hi").pipe(
        Stream.tap(() => Effect.sync(() => seen.push(...processesIn(cwd)))),
        Stream.runDrain,
        Effect.provide(context)
      )
      assert.isAbove(seen.length, 0)
      for (const pid of new Set(seen)) assert.isFalse(isAlive(pid), `pid ${pid} outlived its query`)
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("hello")]))))

  it.live("bad options fail with OptionsError before anything is spawned", () =>
    Effect.gen(function*() {
      const error = yield* ClaudeCode.query("hi", { maxTurns: -3 }).pipe(Stream.runDrain, Effect.flip)
      assert.strictEqual(error._tag, "OptionsError")
      assert.include(error.message, "maxTurns")
      const conflict = yield* ClaudeCode.query("hi", { continue: true, resume: "abc" }).pipe(
        Stream.runDrain,
        Effect.flip
      )
      assert.strictEqual(conflict._tag, "OptionsError")
      // nothing reached the model: no CLI was started
      assert.deepStrictEqual(yield* ScriptedModel.requests, [])
    }).pipe(Effect.provide(harness([ScriptedModel.text("never")]))))

  it.live("the env option is merged over the parent environment; replacing it is opt-in", () =>
    Effect.gen(function*() {
      process.env.CLAUDE_EFFECT_PARENT_VAR = "from-parent"
      yield* Effect.addFinalizer(() => Effect.sync(() => delete process.env.CLAUDE_EFFECT_PARENT_VAR))
      const merged = yield* ClaudeCode.query("run", {
        allowedTools: ["Bash"],
        env: { CLAUDE_EFFECT_OPTION_VAR: "from-option" }
      }).pipe(Stream.runDrain, Effect.andThen(ScriptedModel.toolResults))
      assert.include(merged[0].content, "parent=from-parent option=from-option")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([
        ScriptedModel.toolUse("Bash", {
          command: "echo parent=$CLAUDE_EFFECT_PARENT_VAR option=$CLAUDE_EFFECT_OPTION_VAR",
          description: "print"
        }),
        ScriptedModel.text("done")
      ]))
    ))

  it.live("with replaceEnv the parent environment is not inherited", () =>
    Effect.gen(function*() {
      process.env.CLAUDE_EFFECT_PARENT_VAR = "from-parent"
      yield* Effect.addFinalizer(() => Effect.sync(() => delete process.env.CLAUDE_EFFECT_PARENT_VAR))
      const env = yield* ScriptedModel.cliEnv
      yield* ClaudeCode.query("run", {
        allowedTools: ["Bash"],
        replaceEnv: true,
        env: { ...env, PATH: process.env.PATH ?? "", CLAUDE_CODE_MAX_RETRIES: "2" }
      }).pipe(Stream.runDrain)
      const results = yield* ScriptedModel.toolResults
      assert.include(results[0].content, "parent=<>")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([
        ScriptedModel.toolUse("Bash", { command: "echo parent=\"<$CLAUDE_EFFECT_PARENT_VAR>\"", description: "print" }),
        ScriptedModel.text("done")
      ]))
    ))

  it.live("the API key never appears in logs or errors", () =>
    Effect.gen(function*() {
      const env = yield* ScriptedModel.cliEnv
      const apiKey = env.ANTHROPIC_API_KEY
      assert.isDefined(apiKey)
      const failing = HookLayer.preToolUse({ matcher: "Bash" }, () => Effect.die(new Error("boom")))
      const error = yield* ClaudeCode.query("go", { executable: "/definitely/not/claude" }).pipe(
        Stream.runDrain,
        Effect.flip
      )
      yield* ClaudeCode.query("go").pipe(Stream.runDrain, Effect.provide(failing))
      const logs = yield* Logs
      assert.isAbove(logs.length, 0)
      for (const entry of logs) assert.notInclude(JSON.stringify(entry), apiKey)
      assert.notInclude(error.message, apiKey)
    }).pipe(Effect.provide(harness([
      ScriptedModel.toolUse("Bash", { command: "echo hi", description: "print" }),
      ScriptedModel.text("done")
    ]))))

  it.live("what the session's hooks log goes through loggers that hide the session's secrets", () =>
    Effect.gen(function*() {
      const apiKey = (yield* ScriptedModel.cliEnv).ANTHROPIC_API_KEY
      const telling = HookLayer.preToolUse(
        { matcher: "Bash" },
        () => Effect.as(Effect.logWarning(`the key is ${apiKey}`), HookResult.empty)
      )
      yield* ClaudeCode.query("go", { allowedTools: ["Bash"] }).pipe(Stream.runDrain, Effect.provide(telling))
      const told = (yield* Logs).filter((entry) => entry.message.startsWith("the key is"))
      assert.strictEqual(told.length, 1, "the hook ran and logged")
      assert.notInclude(told[0].message, apiKey)
      assert.include(told[0].message, "<redacted>")
    }).pipe(Effect.provide(harness([bash("echo hi"), ScriptedModel.text("done")]))))
})
