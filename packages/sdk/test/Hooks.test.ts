import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import { ClaudeCode, HookLayer, HookResult, PermissionGate, PermissionResult, Protocol } from "../src/index.js"
import { bash, harness, Logs, Workspace } from "./utils/harness.js"

const runQuery = (prompt: string, options: Parameters<typeof ClaudeCode.query>[1] = {}) =>
  ClaudeCode.query(prompt, options).pipe(Stream.runCollect)

const resultOf = (messages: ReadonlyArray<Protocol.Message>) => {
  const result = messages.find(Protocol.isResultMessage)
  assert.isDefined(result, "the turn has a result")
  return result!
}

/** The text of a successful result (an error result has none). */
const resultText = (messages: ReadonlyArray<Protocol.Message>) => {
  const result = resultOf(messages)
  return Protocol.isResultSuccess(result) ? result.result : `<${result.subtype}>`
}

const warnings = Effect.map(Effect.service(Logs), (logs) => logs.filter((entry) => entry.level === "Warn"))

/** The `command` of a Bash tool input. */
const commandOf = (toolInput: unknown): string =>
  typeof toolInput === "object" && toolInput !== null && "command" in toolInput ? String(toolInput.command) : ""

const allowAll = PermissionGate.layer(() => Effect.succeed(PermissionResult.allow()))

describe("hooks on the real CLI", () => {
  it.live("a PreToolUse deny stops the Bash command: the file is not created and the model hears why", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      yield* runQuery("create the file").pipe(
        Effect.provide(Layer.mergeAll(
          allowAll,
          HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
            Effect.succeed(
              commandOf(input.tool_input).includes("touch")
                ? HookResult.deny("touching files is not allowed here")
                : HookResult.empty
            ))
        ))
      )
      assert.isFalse(workspace.exists("created.txt"))
      const last = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(last.includes("touching files is not allowed here"))
    }).pipe(Effect.provide(harness([bash("touch created.txt"), ScriptedModel.text("ok")]))))

  it.live("a PreToolUse updatedInput rewrites the command, and the rewritten command is what ran", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      yield* runQuery("run it").pipe(
        Effect.provide(HookLayer.preToolUse({ matcher: "Bash" }, () =>
          Effect.succeed(
            HookResult.allow({
              reason: "rewritten by policy",
              updatedInput: { command: "echo rewritten-output; echo rewritten > out.txt", description: "safe" }
            })
          )))
      )
      assert.strictEqual(workspace.read("out.txt").trim(), "rewritten")
      const results = yield* ScriptedModel.toolResults
      assert.include(results[0].content, "rewritten-output")
      assert.notInclude(results[0].content, "original")
    }).pipe(Effect.provide(harness([bash("echo original > out.txt"), ScriptedModel.text("ok")]))))

  it.live("a failing, dying or garbage PreToolUse hook falls back to deny: the tool does not run", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      yield* runQuery("go").pipe(
        Effect.provide(Layer.mergeAll(
          allowAll,
          HookLayer.preToolUse({ matcher: "Bash", name: "failing" }, () => Effect.fail("policy store down")),
          HookLayer.preToolUse({ matcher: "Bash", name: "dying" }, () => Effect.die(new Error("bug in hook")))
        ))
      )
      yield* ScriptedModel.push(bash("touch second.txt"), ScriptedModel.text("ok"))
      yield* runQuery("again").pipe(
        Effect.provide(Layer.mergeAll(
          allowAll,
          HookLayer.preToolUse(
            { matcher: "Bash", name: "garbage" },
            () => Effect.succeed({ hookSpecificOutput: { hookEventName: "PostToolUse", nonsense: 42 } })
          )
        ))
      )
      assert.isFalse(workspace.exists("first.txt"))
      assert.isFalse(workspace.exists("second.txt"))
      const logs = yield* warnings
      assert.isTrue(
        logs.some((entry) => entry.message.includes("failing") && entry.message.includes("policy store down"))
      )
      assert.isTrue(logs.some((entry) => entry.message.includes("dying") && entry.message.includes("bug in hook")))
      assert.isTrue(logs.some((entry) => entry.message.includes("garbage") && entry.message.includes("invalid_output")))
    }).pipe(Effect.provide(harness([bash("touch first.txt"), ScriptedModel.text("ok")]))))

  it.live("a failing PermissionRequest hook falls back to deny; a failing PostToolUse hook answers {} and the run goes on", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const gateAsked = yield* Ref.make(0)
      // The gate is slow, so the PermissionRequest hook's (fallback) answer is the one the CLI takes.
      const slowGate = PermissionGate.layer(() =>
        Ref.update(gateAsked, (n) => n + 1).pipe(
          Effect.andThen(Effect.sleep("3 seconds")),
          Effect.as(PermissionResult.allow())
        )
      )
      const messages = yield* runQuery("go").pipe(
        Effect.provide(Layer.mergeAll(
          slowGate,
          HookLayer.permissionRequest({ matcher: "Bash" }, () => Effect.fail("cannot decide")),
          HookLayer.postToolUse({}, () => Effect.die("post hook crashed"))
        ))
      )
      assert.isFalse(workspace.exists("perm.txt"))
      // the gate was asked too, and would have allowed: the hook's fallback deny is what decided
      assert.strictEqual(yield* Ref.get(gateAsked), 1)
      assert.strictEqual(resultOf(messages).subtype, "success")
      const last = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(last.includes("failing closed"))
    }).pipe(Effect.provide(harness([bash("touch perm.txt"), ScriptedModel.text("ok")]))))

  it.live("a failing PostToolUse hook answers {}: the tool ran and the session goes on", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const messages = yield* runQuery("go", { allowedTools: ["Bash"] }).pipe(
        Effect.provide(HookLayer.postToolUse({}, () => Effect.die("post hook crashed")))
      )
      assert.isTrue(workspace.exists("post.txt"))
      assert.strictEqual(resultText(messages), "finished")
      assert.isTrue((yield* warnings).some((entry) => entry.message.includes("post hook crashed")))
    }).pipe(Effect.provide(harness([bash("touch post.txt"), ScriptedModel.text("finished")]))))

  it.live("a hook that outlives its timeout is answered with the fallback in time, and its fiber is interrupted", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const finalized = yield* Deferred.make<void>()
      const started = yield* Ref.make(0)
      let toolResultAt = 0
      yield* ClaudeCode.query("go", { allowedTools: ["Bash"] }).pipe(
        Stream.runForEach((message) =>
          Effect.sync(() => {
            if (message.type === "user" && toolResultAt === 0) toolResultAt = Date.now()
          })
        ),
        Effect.provide(HookLayer.preToolUse({ matcher: "Bash", timeout: "1 second" }, () =>
          Effect.gen(function*() {
            yield* Ref.set(started, Date.now())
            return yield* Effect.never
          }).pipe(Effect.onInterrupt(() => Deferred.succeed(finalized, void 0)))))
      )
      const elapsed = toolResultAt - (yield* Ref.get(started))
      assert.isAtLeast(elapsed, 950)
      assert.isBelow(elapsed, 4000)
      yield* Deferred.await(finalized).pipe(Effect.timeout("2 seconds"))
      assert.isFalse(workspace.exists("late.txt"))
    }).pipe(Effect.provide(harness([bash("touch late.txt"), ScriptedModel.text("ok")]))))

  it.live("hooks on one event run concurrently, and a slow consumer never delays their answers", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const spans = yield* Ref.make<Array<readonly [number, number]>>([])
      const sleepy = (name: string) =>
        HookLayer.preToolUse({ matcher: "Bash", name }, () =>
          Effect.gen(function*() {
            const start = Date.now()
            yield* Effect.sleep("500 millis")
            yield* Ref.update(spans, (all) => [...all, [start, Date.now()] as const])
            return HookResult.allow()
          }))
      const seen = yield* ClaudeCode.query("go").pipe(
        // The consumer stalls on the first message; the hooks and the tool must go on regardless.
        Stream.zipWithIndex,
        Stream.mapEffect(([, index]) =>
          index === 0
            ? Effect.sleep("4 seconds").pipe(Effect.map(() => workspace.exists("fast.txt")))
            : Effect.succeed(undefined)
        ),
        Stream.runCollect,
        Effect.provide(Layer.mergeAll(sleepy("a"), sleepy("b")))
      )
      const all = yield* Ref.get(spans)
      assert.strictEqual(all.length, 2)
      const wall = Math.max(...all.map(([, end]) => end)) - Math.min(...all.map(([start]) => start))
      assert.isBelow(wall, 900, `two 500 ms hooks took ${wall} ms`)
      assert.isTrue(seen[0], "the file existed while the consumer slept on the first message")
    }).pipe(Effect.provide(harness([bash("touch fast.txt"), ScriptedModel.text("ok")]))))

  it.live("hook handlers use the application's services, and merged hook layers all fire", () =>
    Effect.gen(function*() {
      class AuditLog extends Context.Service<AuditLog, Ref.Ref<Array<string>>>()("test/AuditLog") {}
      const record = (entry: string) =>
        Effect.flatMap(Effect.service(AuditLog), (log) => Ref.update(log, (all) => [...all, entry]))
      const audit = HookLayer.preToolUse({}, (input) => record(`pre:${input.tool_name}`))
      const auditPost = HookLayer.postToolUse({}, (input) => record(`post:${input.tool_name}`))
      const stop = HookLayer.stop(() => record("stop"))
      // The requirement shows in the type: the merged layer needs AuditLog.
      const hooks: Layer.Layer<never, never, AuditLog> = Layer.mergeAll(audit, auditPost, stop)
      const entries = yield* Ref.make<Array<string>>([])
      yield* runQuery("go", { allowedTools: ["Bash"] }).pipe(
        Effect.provide(hooks.pipe(Layer.provide(Layer.succeed(AuditLog, entries))))
      )
      assert.deepStrictEqual(yield* Ref.get(entries), ["pre:Bash", "post:Bash", "stop"])
    }).pipe(Effect.provide(harness([bash("echo audited"), ScriptedModel.text("ok")]))))

  it.live("a Stop hook's block makes the agent take one more turn", () =>
    Effect.gen(function*() {
      const calls = yield* Ref.make(0)
      const messages = yield* runQuery("go").pipe(
        Effect.provide(HookLayer.stop((input) =>
          Effect.map(
            Ref.getAndUpdate(calls, (n) => n + 1),
            (n) =>
              n === 0 && input.stop_hook_active !== true
                ? HookResult.block("please also check the tests")
                : HookResult.empty
          )
        ))
      )
      assert.strictEqual(yield* Ref.get(calls), 2)
      const turns = yield* ScriptedModel.turnRequests
      assert.strictEqual(turns.length, 2)
      assert.isTrue(turns[1].includes("please also check the tests"))
      assert.strictEqual(resultText(messages), "second answer")
    }).pipe(Effect.provide(harness([ScriptedModel.text("first answer"), ScriptedModel.text("second answer")]))))

  it.live("a UserPromptSubmit block stops the prompt before any model call", () =>
    Effect.gen(function*() {
      const messages = yield* runQuery("do the forbidden thing").pipe(
        Effect.provide(HookLayer.userPromptSubmit((input) =>
          Effect.succeed(
            input.prompt.includes("forbidden") ? HookResult.block("prompt rejected by policy") : HookResult.empty
          )
        ))
      )
      assert.include(resultText(messages), "prompt rejected by policy")
      assert.deepStrictEqual(yield* ScriptedModel.turnRequests, [])
    }).pipe(Effect.provide(harness([ScriptedModel.text("never")]))))

  it.live("PostToolUse additionalContext reaches the model's next request", () =>
    Effect.gen(function*() {
      yield* runQuery("go", { allowedTools: ["Bash"] }).pipe(
        Effect.provide(HookLayer.postToolUse({ matcher: "Bash" }, () =>
          Effect.succeed(HookResult.additionalContext("the build server is at 10.0.0.7"))))
      )
      const last = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(last.includes("the build server is at 10.0.0.7"))
    }).pipe(Effect.provide(harness([bash("echo hi"), ScriptedModel.text("ok")]))))

  it.live("halt (continue: false) ends the run with its stopReason", () =>
    Effect.gen(function*() {
      const messages = yield* runQuery("go").pipe(
        Effect.provide(HookLayer.userPromptSubmit(() => Effect.succeed(HookResult.halt("maintenance window"))))
      )
      assert.include(resultText(messages), "maintenance window")
      assert.deepStrictEqual(yield* ScriptedModel.turnRequests, [])
    }).pipe(Effect.provide(harness([ScriptedModel.text("never")]))))

  it.live("halt from PostToolUse stops the turn after the tool", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const messages = yield* runQuery("go", { allowedTools: ["Bash"] }).pipe(
        Effect.provide(HookLayer.postToolUse({}, () => Effect.succeed(HookResult.halt("enough"))))
      )
      assert.isTrue(workspace.exists("halt.txt"))
      assert.strictEqual(resultOf(messages).terminal_reason, "hook_stopped")
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1)
    }).pipe(Effect.provide(harness([bash("touch halt.txt"), ScriptedModel.text("never")]))))
})
