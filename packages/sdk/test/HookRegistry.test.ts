import { HookLayer, HookRegistry, HookResult, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const registered = Effect.map(HookRegistry.make(), (registry) => registry.hooks.length)

const preToolUse = (command: string) =>
  ({
    session_id: "s",
    transcript_path: "/tmp/t.jsonl",
    cwd: "/tmp",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_1"
  }) as any

const dispatchFirst = (input: any) =>
  Effect.flatMap(
    HookRegistry.make(),
    (registry) => registry.dispatch(registry.hooks[0].callbackId, input, { requestId: "r1", toolUseId: "toolu_1" })
  )

describe("HookRegistry", () => {
  it.effect("hook layers are registered while provided, and retired afterwards, merged ones included", () =>
    Effect.gen(function*() {
      const hook = (name: string) => HookLayer.preToolUse({ name }, () => Effect.succeed(HookResult.empty))
      const inside = yield* registered.pipe(Effect.provide(Layer.mergeAll(hook("a"), hook("b"), hook("c"))))
      assert.strictEqual(inside, 3)
      assert.strictEqual(yield* registered, 0)
      assert.strictEqual(yield* registered.pipe(Effect.provide(hook("d"))), 1)
      assert.strictEqual(yield* registered, 0)
    }))

  it.effect("registers hooks in the order their layers were built, with distinct callback ids", () =>
    Effect.gen(function*() {
      const registry = yield* HookRegistry.make().pipe(Effect.provide(Layer.mergeAll(
        HookLayer.preToolUse({ name: "first", matcher: "Bash" }, () => Effect.void),
        HookLayer.stop(() => Effect.void, { name: "second" })
      )))
      assert.deepStrictEqual(registry.hooks.map((hook) => hook.name).sort(), ["first", "second"])
      assert.strictEqual(new Set(registry.hooks.map((hook) => hook.callbackId)).size, 2)
      assert.deepStrictEqual(Object.keys(registry.initializeHooks ?? {}).sort(), ["PreToolUse", "Stop"])
    }))

  it.effect("an output that cannot be written as JSON falls back instead of leaving the CLI waiting", () =>
    Effect.gen(function*() {
      const outcome = yield* dispatchFirst(preToolUse("ls")).pipe(
        Effect.provide(HookLayer.preToolUse({}, () => Effect.succeed({ systemMessage: "x", extra: 1n } as any)))
      )
      assert.strictEqual(outcome.fallback, "invalid_output")
      assert.strictEqual(outcome.decision, "deny")
    }))

  it.effect("additionalContext on an event that takes none answers {} rather than an invalid output", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(HookResult.toOutput("SessionEnd", HookResult.additionalContext("x")), {})
      assert.deepStrictEqual(HookResult.toOutput("PostToolUse", HookResult.additionalContext("x")), {
        hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "x" }
      })
      assert.isTrue(HookResult.contextEvents.has("UserPromptSubmit"))
      assert.isFalse(HookResult.contextEvents.has("PermissionRequest"))
    }))

  it.effect("matches follows the CLI's rules", () =>
    Effect.sync(() => {
      assert.isTrue(HookRegistry.matches(undefined, "Bash"))
      assert.isTrue(HookRegistry.matches("*", "Bash"))
      assert.isTrue(HookRegistry.matches("Write|Bash", "Bash"))
      assert.isTrue(HookRegistry.matches("Write, Bash", "Bash"))
      assert.isFalse(HookRegistry.matches("bash", "Bash"))
      assert.isTrue(HookRegistry.matches("Ba.*", "Bash"))
      assert.isTrue(HookRegistry.matches("mcp__inventory__.*", "mcp__inventory__lookup"))
      assert.isFalse(HookRegistry.matches("^Bash$", "BashOutput"))
      assert.isTrue(HookRegistry.matches("Task", "Agent"))
      // events with nothing to match on ignore matchers
      assert.isTrue(HookRegistry.selects({ event: "Stop", matcher: "nonsense" }, { hook_event_name: "Stop" } as any))
    }))

  it.effect("a gate result that cannot be written as JSON is a deny", () =>
    Effect.gen(function*() {
      const gate = yield* PermissionGate.make(() =>
        Effect.succeed({ ...PermissionResult.allow({ updatedInput: { n: 1n } as any }) })
      )
      const decision = yield* PermissionGate.decide(gate, {
        subtype: "can_use_tool",
        tool_name: "Bash",
        input: {},
        tool_use_id: "t"
      } as any, { requestId: "r", toolUseId: "t", suggestions: [] })
      assert.strictEqual(decision.result.behavior, "deny")
      assert.strictEqual(decision.fallback, "invalid_output")
    }))
})
