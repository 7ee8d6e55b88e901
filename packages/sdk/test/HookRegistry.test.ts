import { HookLayer, HookRegistry, HookResult, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import { assert, describe, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import { currentHooks } from "../src/internal/hookRegistry.js"

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

  it.effect("a hook whose layer has closed is not registered by a fiber that still carries it", () =>
    Effect.gen(function*() {
      const go = yield* Deferred.make<void>()
      // Forked while the layer is provided: the fiber's refs keep the hook after the layer's scope has closed.
      const late = yield* Effect.forkDaemon(Effect.zipRight(Deferred.await(go), registered)).pipe(
        Effect.provide(HookLayer.preToolUse({ name: "closed" }, () => Effect.succeed(HookResult.empty)))
      )
      yield* Deferred.succeed(go, undefined)
      assert.strictEqual(yield* Fiber.join(late), 0)
    }))

  it.effect("merged hook layers provided again and again leave no registration behind in the providing fiber", () =>
    Effect.gen(function*() {
      const hooks = (i: number) =>
        Layer.mergeAll(
          HookLayer.preToolUse({ name: `pre ${i}` }, () => Effect.succeed(HookResult.empty)),
          HookLayer.postToolUse({ name: `post ${i}` }, () => Effect.succeed(HookResult.empty))
        )
      for (let i = 0; i < 50; i++) assert.strictEqual(yield* registered.pipe(Effect.provide(hooks(i))), 2)
      // Each left its two registrations (handler and services held) in this fiber's refs before.
      assert.strictEqual(HashSet.size(yield* FiberRef.get(currentHooks)), 0)
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
