import { ClaudeCode, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import { bash, harness, Logs, Workspace } from "./utils/harness.js"

const runQuery = (prompt: string) => ClaudeCode.query(prompt).pipe(Stream.runCollect, Effect.map(Chunk.toReadonlyArray))

const resultOf = (messages: ReadonlyArray<any>) => messages.find((m) => m.type === "result")

describe("PermissionGate on the real CLI", () => {
  it.live("allow with updatedInput: the rewritten command is what ran", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      yield* runQuery("go").pipe(Effect.provide(PermissionGate.layer((request) =>
        Effect.succeed(PermissionResult.allow({
          updatedInput: { ...request.input, command: "echo gated > gated.txt" }
        }))
      )))
      assert.strictEqual(workspace.read("gated.txt").trim(), "gated")
      assert.isFalse(workspace.exists("original.txt"))
    }).pipe(Effect.provide(harness([bash("echo original > original.txt"), ScriptedModel.text("ok")]))))

  it.live("deny with a message: the tool does not run and the model gets the message", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const messages = yield* runQuery("go").pipe(
        Effect.provide(PermissionGate.layer(() => Effect.succeed(PermissionResult.deny("no writing today"))))
      )
      assert.isFalse(workspace.exists("denied.txt"))
      const results = yield* ScriptedModel.toolResults
      assert.include(results[0].content, "no writing today")
      assert.isTrue(results[0].isError)
      assert.strictEqual(resultOf(messages).subtype, "success")
    }).pipe(Effect.provide(harness([bash("touch denied.txt"), ScriptedModel.text("ok")]))))

  it.live("deny with interrupt: the tool does not run and the turn stops", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const messages = yield* runQuery("go").pipe(Effect.provide(PermissionGate.layer(() =>
        Effect.succeed(PermissionResult.deny("stop everything", { interrupt: true }))
      )))
      assert.isFalse(workspace.exists("interrupted.txt"))
      const result = resultOf(messages)
      assert.strictEqual(result.subtype, "error_during_execution")
      // the model was not asked again after the denial
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1)
    }).pipe(Effect.provide(harness([bash("touch interrupted.txt"), ScriptedModel.text("never")]))))

  it.live("updatedPermissions: a later identical call is not asked again", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const asked = yield* Ref.make(0)
      yield* runQuery("go").pipe(Effect.provide(PermissionGate.layer((request) =>
        Effect.as(
          Ref.update(asked, (n) => n + 1),
          PermissionResult.allow({
            updatedPermissions: [{
              type: "addRules",
              rules: [{ toolName: request.tool_name, ruleContent: "touch:*" }],
              behavior: "allow",
              destination: "session"
            }]
          })
        )
      )))
      assert.isTrue(workspace.exists("one.txt"))
      assert.isTrue(workspace.exists("two.txt"))
      assert.strictEqual(yield* Ref.get(asked), 1)
    }).pipe(Effect.provide(harness([bash("touch one.txt"), bash("touch two.txt"), ScriptedModel.text("ok")]))))

  it.live("a gate that fails, dies, hangs or answers garbage falls back to deny", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const gates = [
        PermissionGate.layer(() => Effect.fail("gate backend down")),
        PermissionGate.layer(() => Effect.die(new Error("gate bug"))),
        PermissionGate.layer(() => Effect.never, { timeout: "500 millis" }),
        PermissionGate.layer(() => Effect.succeed({ behavior: "perhaps" } as any))
      ]
      for (const [index, gate] of gates.entries()) {
        if (index > 0) yield* ScriptedModel.push(bash(`touch gate${index}.txt`), ScriptedModel.text("ok"))
        yield* runQuery("go").pipe(Effect.provide(gate))
      }
      for (const index of [0, 1, 2, 3]) assert.isFalse(workspace.exists(`gate${index}.txt`), `gate${index}.txt`)
      const results = yield* ScriptedModel.toolResults
      assert.strictEqual(results.length, 4)
      for (const result of results) assert.include(result.content, "failing closed")
      const warnings = (yield* Logs).filter((entry) => entry.level === "WARN").map((entry) => entry.message)
      for (const reason of ["failure", "defect", "timeout", "invalid_output"]) {
        assert.isTrue(warnings.some((w) => w.includes(`(${reason})`)), reason)
      }
    }).pipe(Effect.provide(harness([bash("touch gate0.txt"), ScriptedModel.text("ok")]))))
})
