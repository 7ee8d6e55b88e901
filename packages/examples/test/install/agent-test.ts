/**
 * Installed-package fixture (see ../install.test.ts): a vitest file of a
 * user's project, copied there as `src/agent.test.ts`. It tests the policy
 * with `@effect/vitest` and the testkit's `HookTest`, without a CLI.
 */
import { HookTest } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { gate, guard } from "./policy.js"

describe("the policy", () => {
  it.effect("the guard denies a command that touches denied.txt", () =>
    Effect.gen(function*() {
      const outcome = yield* HookTest.run(HookTest.preToolUse("Bash", { command: "cat denied.txt" }))
      assert.strictEqual(outcome.permissionDecision, "deny")
    }).pipe(Effect.provide(Layer.mergeAll(guard, gate))))

  it.effect("the gate refuses Write", () =>
    Effect.gen(function*() {
      const decision = yield* HookTest.decide({ tool_name: "Write", input: { file_path: "/tmp/x", content: "x" } })
      assert.strictEqual(decision.result.behavior, "deny")
    }).pipe(Effect.provide(gate)))
})
