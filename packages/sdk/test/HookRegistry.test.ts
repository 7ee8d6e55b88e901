import { assert, describe, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import * as HookLayer from "../src/HookLayer.js"
import * as HookRegistry from "../src/HookRegistry.js"
import * as HookResult from "../src/HookResult.js"
import * as GuardedRun from "../src/internal/guardedRun.js"
import { currentHooks } from "../src/internal/hookRegistry.js"
import { hookEvents } from "../src/internal/protocol/hooks.js"
import * as PermissionGate from "../src/PermissionGate.js"
import * as PermissionResult from "../src/PermissionResult.js"
import * as Protocol from "../src/Protocol.js"

const registered = Effect.map(HookRegistry.make(), (registry) => registry.hooks.length)

const baseInput = { session_id: "s", transcript_path: "/tmp/t.jsonl", cwd: "/tmp" }

// A hook_callback request as the router gets it: decoded by the Protocol's schema.
const decodeRequest = Schema.decodeUnknownSync(Protocol.InboundControlRequest)

const hookCallback = (callbackId: string, input: Record<string, unknown>): Protocol.InboundControlRequest =>
  decodeRequest({
    subtype: "hook_callback",
    callback_id: callbackId,
    input: { ...baseInput, ...input },
    ...(typeof input.tool_use_id === "string" ? { tool_use_id: input.tool_use_id } : {})
  })

const decodeInput = Schema.decodeUnknownSync(Protocol.HookInput)

const preToolUse = (command: string, tool = "Bash") => ({
  hook_event_name: "PreToolUse",
  tool_name: tool,
  tool_input: { command },
  tool_use_id: "toolu_1"
})

const postToolUse = (tool = "Bash") => ({
  hook_event_name: "PostToolUse",
  tool_name: tool,
  tool_input: { command: "echo hi" },
  tool_response: { stdout: "hi" },
  tool_use_id: "toolu_1"
})

const permissionRequest = { hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "ls" } }
const stop = { hook_event_name: "Stop", stop_hook_active: false }
const userPromptSubmit = (prompt: string) => ({ hook_event_name: "UserPromptSubmit", prompt })

const preModelSwitch = (toModel: string) => ({
  hook_event_name: "PreModelSwitch",
  from_model: "claude-sonnet-4-5",
  to_model: toModel,
  requested_model: null,
  context_tokens: 1000,
  prompt_cache_warm: true,
  cache_ttl: "5m",
  estimated_cache_write_usd: 0.01,
  pricing: "catalog",
  source: "sdk"
})

// The callback id of the hook the registry registered for `event`, as the initialize request names it.
const callbackIdOf = (registry: HookRegistry.HookRegistry.Service, event: string, index = 0): string =>
  registry.initializeHooks![event]![index]!.hookCallbackIds[0]!

// What the router does with a hook_callback: the registry's answer, run as the router runs it.
const answer = (
  registry: HookRegistry.HookRegistry.Service,
  request: Protocol.InboundControlRequest,
  requestId = "r1"
): Effect.Effect<unknown> => {
  const inbound = registry.inboundHandler.handle(request, { requestId })
  return inbound._tag === "Guarded"
    ? GuardedRun.runGuarded(inbound.guarded, GuardedRun.answerOf)
    : Effect.orDie(inbound.effect)
}

// The registry of the hook layers, used while they are provided (as a session uses it).
const withRegistry = <A, E, R, RH>(
  hooks: Layer.Layer<never, never, RH>,
  use: (registry: HookRegistry.HookRegistry.Service) => Effect.Effect<A, E, R>
) => Effect.flatMap(HookRegistry.make(), use).pipe(Effect.provide(hooks))

const captureLogs = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make<unknown, void>(({ cause, logLevel, message }) => {
      const parts = Array.isArray(message) ? message : [message]
      lines.push(
        [logLevel, ...parts.map(String), ...(cause.reasons.length === 0 ? [] : [Cause.pretty(cause)])].join(" ")
      )
    })
    const value = yield* effect.pipe(Effect.provide(Logger.layer([logger])))
    return { value, logs: lines }
  })

const quiet = Effect.provide(Logger.layer([]))

class PolicyStoreDown extends Data.TaggedError("PolicyStoreDown")<{ readonly message: string }> {}

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
      // Forked while the layer is provided: the fiber's Context keeps the hook after the layer's scope has closed.
      const late = yield* Effect.forkDetach(Effect.andThen(Deferred.await(go), registered)).pipe(
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
      // Retired ones included: nothing of the 100 registrations (handlers and services) is held here.
      assert.strictEqual((yield* currentHooks).length, 0)
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
      // Layers provided one inside the other are built outer first: that is their order.
      const nested = yield* HookRegistry.make().pipe(
        Effect.provide(HookLayer.stop(() => Effect.void, { name: "inner" })),
        Effect.provide(HookLayer.stop(() => Effect.void, { name: "outer" }))
      )
      assert.deepStrictEqual(nested.hooks.map((hook) => hook.name), ["outer", "inner"])
      assert.deepStrictEqual(nested.hooks.map((hook) => hook.callbackId), ["hook_0_Stop", "hook_1_Stop"])
    }))

  it.effect("an output that cannot be written as JSON falls back instead of leaving the CLI waiting", () =>
    Effect.gen(function*() {
      const hooks = Layer.mergeAll(
        // A BigInt: no JSON. In a plain output, and in a HookResult's updated input (which no schema checks).
        HookLayer.preToolUse({ name: "output" }, () => Effect.succeed({ systemMessage: "x", extra: 1n })),
        HookLayer.preToolUse({ name: "result" }, () => Effect.succeed(HookResult.allow({ updatedInput: { n: 1n } })))
      )
      const outcomes = yield* withRegistry(
        hooks,
        (registry) =>
          Effect.forEach(
            registry.hooks,
            (hook) =>
              registry.dispatch(hook.callbackId, decodeInput({ ...baseInput, ...preToolUse("ls") }), {
                requestId: "r1",
                toolUseId: "toolu_1"
              })
          )
      ).pipe(quiet)
      assert.deepStrictEqual(outcomes.map((outcome) => [outcome.name, outcome.fallback, outcome.decision]), [
        ["output", "invalid_output", "deny"],
        ["result", "invalid_output", "deny"]
      ])
    }))

  it.effect("additionalContext on an event that takes none answers {} rather than an invalid output", () =>
    Effect.sync(() => {
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
      assert.isTrue(
        HookRegistry.selects({ event: "Stop", matcher: "nonsense" }, decodeInput({ ...baseInput, ...stop }))
      )
      // the value matched is the event's own: a model without its context suffix, a file's base name
      assert.isTrue(
        HookRegistry.selects(
          { event: "PreModelSwitch", matcher: "claude-opus-4-5" },
          decodeInput({ ...baseInput, ...preModelSwitch("claude-opus-4-5[1m]") })
        )
      )
      assert.strictEqual(
        HookRegistry.matchValue(decodeInput({
          ...baseInput,
          hook_event_name: "FileChanged",
          file_path: "/repo/src/.env",
          event: "change"
        })),
        ".env"
      )
    }))

  it.effect("a gate result that cannot be written as JSON is a deny", () =>
    Effect.gen(function*() {
      const gate = yield* PermissionGate.make(() =>
        // A BigInt: no JSON.
        Effect.succeed(PermissionResult.allow({ updatedInput: { n: 1n } }))
      )
      const decision = yield* PermissionGate.decide(gate, {
        subtype: "can_use_tool",
        tool_name: "Bash",
        input: {},
        tool_use_id: "t"
      }, { requestId: "r", toolUseId: "t", suggestions: [] }).pipe(quiet)
      assert.strictEqual(decision.result.behavior, "deny")
      assert.strictEqual(decision.fallback, "invalid_output")
    }))
})

describe("HookRegistry: hook_callback answers (the registry's half of the real-CLI hook tests)", () => {
  it.effect("a PreToolUse deny answers permissionDecision deny with its reason; a tool its matcher skips calls no hook", () =>
    Effect.gen(function*() {
      const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
        Effect.succeed(
          String((input.tool_input as { command?: unknown }).command).includes("touch")
            ? HookResult.deny("touching files is not allowed here")
            : HookResult.empty
        ))
      yield* withRegistry(guard, (registry) =>
        Effect.gen(function*() {
          const id = callbackIdOf(registry, "PreToolUse")
          assert.deepStrictEqual(registry.initializeHooks, {
            PreToolUse: [{ matcher: "Bash", hookCallbackIds: [id], timeout: 65, onFailure: "block" }]
          })
          assert.deepStrictEqual(yield* answer(registry, hookCallback(id, preToolUse("touch created.txt"))), {
            hookSpecificOutput: {
              hookEventName: "PreToolUse",
              permissionDecision: "deny",
              permissionDecisionReason: "touching files is not allowed here"
            }
          })
          assert.deepStrictEqual(yield* answer(registry, hookCallback(id, preToolUse("ls"))), {})
          const context = { requestId: "r2", toolUseId: "toolu_1" }
          assert.lengthOf(yield* registry.run(decodeInput({ ...baseInput, ...preToolUse("touch x") }), context), 1)
          assert.lengthOf(
            yield* registry.run(decodeInput({ ...baseInput, ...preToolUse("touch x", "Write") }), context),
            0
          )
        }))
    }))

  it.effect("allow with an updated input answers permissionDecision allow, the reason and the rewritten input", () =>
    withRegistry(
      HookLayer.preToolUse({ matcher: "Bash" }, () =>
        Effect.succeed(HookResult.allow({
          reason: "rewritten by policy",
          updatedInput: { command: "echo rewritten > out.txt", description: "safe" }
        }))),
      (registry) =>
        Effect.gen(function*() {
          const output = yield* answer(registry, hookCallback(callbackIdOf(registry, "PreToolUse"), preToolUse("x")))
          assert.deepStrictEqual(output, {
            hookSpecificOutput: {
              hookEventName: "PreToolUse",
              permissionDecision: "allow",
              permissionDecisionReason: "rewritten by policy",
              updatedInput: { command: "echo rewritten > out.txt", description: "safe" }
            }
          })
          // PermissionRequest says the same with its decision object.
          assert.deepStrictEqual(
            HookResult.toOutput("PermissionRequest", HookResult.allow({ updatedInput: { command: "ls" } })),
            {
              hookSpecificOutput: {
                hookEventName: "PermissionRequest",
                decision: { behavior: "allow", updatedInput: { command: "ls" } }
              }
            }
          )
        })
    ))

  it.effect("a failing, dying, throwing or garbage PreToolUse hook is answered with a deny, its cause logged", () =>
    Effect.gen(function*() {
      const hooks = Layer.mergeAll(
        HookLayer.preToolUse(
          { matcher: "Bash", name: "failing" },
          () => Effect.fail(new PolicyStoreDown({ message: "policy store down" }))
        ),
        HookLayer.preToolUse({ matcher: "Bash", name: "dying" }, () => Effect.die(new Error("bug in hook"))),
        HookLayer.preToolUse({ matcher: "Bash", name: "throwing" }, (): Effect.Effect<HookResult.HookResult> => {
          throw new Error("thrown before any Effect")
        }),
        HookLayer.preToolUse(
          { matcher: "Bash", name: "garbage" },
          // An output for another event, with a field no event has.
          () => Effect.succeed({ hookSpecificOutput: { hookEventName: "PostToolUse", nonsense: 42 } })
        )
      )
      const { logs, value: outputs } = yield* captureLogs(withRegistry(hooks, (registry) =>
        Effect.forEach(
          registry.initializeHooks!.PreToolUse!,
          (entry) => answer(registry, hookCallback(entry.hookCallbackIds[0]!, preToolUse("touch first.txt")))
        )))
      assert.lengthOf(outputs, 4)
      for (const output of outputs) {
        const specific = (output as Protocol.SyncHookOutput).hookSpecificOutput as Record<string, unknown>
        assert.strictEqual(specific.permissionDecision, "deny")
        assert.include(String(specific.permissionDecisionReason), "failing closed")
      }
      const warnings = logs.filter((line) => line.startsWith("Warn"))
      assert.lengthOf(warnings, 4)
      const warningOf = (name: string) => warnings.find((line) => line.includes(`hook "${name}"`)) ?? ""
      assert.include(warningOf("failing"), "fell back (failure)")
      assert.include(warningOf("failing"), "PolicyStoreDown")
      assert.include(warningOf("failing"), "policy store down")
      assert.include(warningOf("dying"), "fell back (defect)")
      assert.include(warningOf("dying"), "bug in hook")
      assert.include(warningOf("throwing"), "thrown before any Effect")
      assert.include(warningOf("garbage"), "fell back (invalid_output)")
      assert.include(warningOf("garbage"), "hookSpecificOutput")
    }))

  it.effect("a failing PermissionRequest hook answers a deny; a dying PostToolUse hook answers {}", () =>
    Effect.gen(function*() {
      const hooks = Layer.mergeAll(
        HookLayer.permissionRequest({ matcher: "Bash" }, () => Effect.fail("cannot decide")),
        HookLayer.postToolUse({}, () => Effect.die("post hook crashed"))
      )
      const { logs, value } = yield* captureLogs(withRegistry(hooks, (registry) =>
        Effect.all([
          answer(registry, hookCallback(callbackIdOf(registry, "PermissionRequest"), permissionRequest)),
          answer(registry, hookCallback(callbackIdOf(registry, "PostToolUse"), postToolUse()))
        ])))
      const [permission, post] = value
      const decision = (permission as { hookSpecificOutput: { decision: Record<string, unknown> } })
        .hookSpecificOutput.decision
      assert.strictEqual(decision.behavior, "deny")
      assert.include(String(decision.message), "failing closed")
      assert.deepStrictEqual(post, {})
      assert.isTrue(logs.some((line) => line.startsWith("Warn") && line.includes("post hook crashed")))
    }))

  it.effect("a hook that outlives its timeout is answered with the fallback at its deadline, and is interrupted", () =>
    Effect.gen(function*() {
      const interrupted = yield* Deferred.make<void>()
      const hung = HookLayer.preToolUse(
        { matcher: "Bash", timeout: "1 second" },
        () => Effect.never.pipe(Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined)))
      )
      yield* withRegistry(hung, (registry) =>
        Effect.gen(function*() {
          // The CLI's own timeout sits 5 s above ours, so that our fallback is what answers.
          assert.strictEqual(registry.initializeHooks!.PreToolUse![0]!.timeout, 6)
          const pending = yield* Effect.forkChild(
            answer(registry, hookCallback(callbackIdOf(registry, "PreToolUse"), preToolUse("touch late.txt"))),
            { startImmediately: true }
          )
          yield* TestClock.adjust("999 millis")
          assert.isUndefined(pending.pollUnsafe())
          yield* TestClock.adjust("1 millis")
          const output = yield* Fiber.join(pending)
          assert.strictEqual(
            (output as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision,
            "deny"
          )
          yield* Deferred.await(interrupted)
        })).pipe(quiet)
    }))

  it.effect("cancelling a hook_callback interrupts its handler (its finalizer runs) without an answer", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const finalized = yield* Deferred.make<void>()
      const slow = HookLayer.preToolUse(
        () =>
          Deferred.succeed(started, undefined).pipe(
            Effect.andThen(Effect.never),
            Effect.ensuring(Deferred.succeed(finalized, undefined))
          )
      )
      yield* withRegistry(slow, (registry) =>
        Effect.gen(function*() {
          const inbound = registry.inboundHandler.handle(
            hookCallback(callbackIdOf(registry, "PreToolUse"), preToolUse("ls")),
            { requestId: "r1" }
          )
          assert.strictEqual(inbound._tag, "Guarded")
          if (inbound._tag !== "Guarded") return
          const answered: Array<unknown> = []
          const context = yield* Effect.context<never>()
          const clock = yield* Clock.Clock
          const running = GuardedRun.start(inbound.guarded, context, clock, undefined, (settled) => {
            answered.push(settled.answer)
          })
          yield* Deferred.await(started)
          assert.isTrue(running.cancel())
          yield* Deferred.await(finalized)
          assert.deepStrictEqual(answered, [])
        }))
    }))

  it.effect("hooks on one event run at once", () =>
    Effect.gen(function*() {
      const sleepy = (name: string) =>
        HookLayer.preToolUse(
          { matcher: "Bash", name },
          () => Effect.sleep("500 millis").pipe(Effect.as(HookResult.allow()))
        )
      yield* withRegistry(Layer.mergeAll(sleepy("a"), sleepy("b")), (registry) =>
        Effect.gen(function*() {
          const runs = yield* Effect.forkChild(
            registry.run(decodeInput({ ...baseInput, ...preToolUse("touch fast.txt") }), {
              requestId: "r1",
              toolUseId: "toolu_1"
            }),
            { startImmediately: true }
          )
          // One after the other they would need a second.
          yield* TestClock.adjust("500 millis")
          const done = runs.pollUnsafe()
          assert.isDefined(done)
          const all = yield* Fiber.join(runs)
          assert.deepStrictEqual(all.map((run) => [run.name, run.decision, run.fallback]), [
            ["a", "allow", undefined],
            ["b", "allow", undefined]
          ])
        }))
    }))

  it.effect("hook handlers use the application's services, and merged hook layers all fire", () =>
    Effect.gen(function*() {
      class AuditLog extends Context.Service<AuditLog, Ref.Ref<Array<string>>>()("test/AuditLog") {}
      const record = (entry: string) => AuditLog.use((log) => Ref.update(log, (all) => [...all, entry]))
      const audit = HookLayer.preToolUse({}, (input) => record(`pre:${input.tool_name}`))
      const auditPost = HookLayer.postToolUse({}, (input) => record(`post:${input.tool_name}`))
      const stopHook = HookLayer.stop(() => record("stop"))
      // The requirement shows in the type: the merged layer needs AuditLog.
      const hooks: Layer.Layer<never, never, AuditLog> = Layer.mergeAll(audit, auditPost, stopHook)
      const entries = yield* Ref.make<Array<string>>([])
      yield* withRegistry(
        hooks.pipe(Layer.provide(Layer.succeed(AuditLog, entries))),
        (registry) =>
          Effect.gen(function*() {
            yield* answer(registry, hookCallback(callbackIdOf(registry, "PreToolUse"), preToolUse("echo audited")))
            yield* answer(registry, hookCallback(callbackIdOf(registry, "PostToolUse"), postToolUse()))
            yield* answer(registry, hookCallback(callbackIdOf(registry, "Stop"), stop))
          })
      )
      assert.deepStrictEqual(yield* Ref.get(entries), ["pre:Bash", "post:Bash", "stop"])
    }))

  it.effect("block, halt and additionalContext answer each event the way the CLI reads it", () =>
    Effect.gen(function*() {
      const hooks = Layer.mergeAll(
        HookLayer.stop((input) =>
          Effect.succeed(
            input.stop_hook_active ? HookResult.empty : HookResult.block("please also check the tests")
          )
        ),
        HookLayer.userPromptSubmit((input) =>
          Effect.succeed(
            input.prompt.includes("forbidden")
              ? HookResult.block("prompt rejected by policy")
              : input.prompt.includes("maintenance")
              ? HookResult.halt("maintenance window")
              : HookResult.empty
          )
        ),
        HookLayer.postToolUse({ matcher: "Bash" }, (input) =>
          Effect.succeed(
            (input.tool_input as { command?: string }).command === "halt"
              ? HookResult.halt("enough")
              : HookResult.additionalContext("the build server is at 10.0.0.7")
          ))
      )
      yield* withRegistry(hooks, (registry) =>
        Effect.gen(function*() {
          const ask = (event: string, input: Record<string, unknown>) =>
            answer(registry, hookCallback(callbackIdOf(registry, event), input))
          assert.deepStrictEqual(yield* ask("Stop", stop), { decision: "block", reason: "please also check the tests" })
          assert.deepStrictEqual(yield* ask("Stop", { ...stop, stop_hook_active: true }), {})
          assert.deepStrictEqual(yield* ask("UserPromptSubmit", userPromptSubmit("do the forbidden thing")), {
            decision: "block",
            reason: "prompt rejected by policy"
          })
          assert.deepStrictEqual(yield* ask("UserPromptSubmit", userPromptSubmit("maintenance")), {
            continue: false,
            stopReason: "maintenance window"
          })
          assert.deepStrictEqual(yield* ask("PostToolUse", postToolUse()), {
            hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "the build server is at 10.0.0.7" }
          })
          assert.deepStrictEqual(
            yield* ask("PostToolUse", { ...postToolUse(), tool_input: { command: "halt" } }),
            { continue: false, stopReason: "enough" }
          )
        }))
    }))

  it.effect("PreModelSwitch: a deny, a failing and a hung hook refuse the switch; an allow allows it", () =>
    Effect.gen(function*() {
      const decisionOf = (output: unknown) =>
        (output as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision
      const verdicts = yield* Effect.forEach(
        [
          HookLayer.make("PreModelSwitch", {}, () => Effect.succeed(HookResult.deny("not this model"))),
          HookLayer.make("PreModelSwitch", {}, () => Effect.fail("model policy unavailable")),
          HookLayer.make("PreModelSwitch", { timeout: "2 seconds" }, () => Effect.never),
          HookLayer.make("PreModelSwitch", { matcher: "claude-opus-4-5" }, () => Effect.succeed(HookResult.allow()))
        ],
        (hook) =>
          withRegistry(hook, (registry) =>
            Effect.gen(function*() {
              const pending = yield* Effect.forkChild(
                answer(
                  registry,
                  hookCallback(callbackIdOf(registry, "PreModelSwitch"), preModelSwitch("claude-opus-4-5[1m]"))
                ),
                { startImmediately: true }
              )
              yield* TestClock.adjust("2 seconds")
              return decisionOf(yield* Fiber.join(pending))
            }))
      ).pipe(quiet)
      assert.deepStrictEqual(verdicts, ["deny", "deny", "deny", "allow"])
    }))

  it.effect("several hooks' answers combine by the CLI's precedence: deny > ask > allow > defer", () =>
    Effect.gen(function*() {
      const vote = (name: string, result: HookResult.HookResult) =>
        HookLayer.preToolUse({ name }, () => Effect.succeed(result))
      const combined = (...layers: [Layer.Layer<never>, ...Array<Layer.Layer<never>>]) =>
        withRegistry(Layer.mergeAll(...layers), (registry) =>
          Effect.map(
            registry.run(decodeInput({ ...baseInput, ...preToolUse("ls") }), { requestId: "r", toolUseId: "toolu_1" }),
            (runs) => HookRegistry.combine("PreToolUse", runs.map((run) => run.output))
          ))
      const specific = (output: Protocol.SyncHookOutput) => output.hookSpecificOutput as Record<string, unknown>
      const denied = yield* combined(
        vote("allow", HookResult.allow({ reason: "fine", updatedInput: { command: "ls -l" } })),
        vote("ask", HookResult.ask("check with a human")),
        vote("deny", HookResult.deny("no"))
      )
      assert.strictEqual(specific(denied).permissionDecision, "deny")
      assert.strictEqual(specific(denied).permissionDecisionReason, "no")
      // A rewrite never survives a deny.
      assert.isUndefined(specific(denied).updatedInput)
      const asked = yield* combined(
        vote("defer", HookResult.defer),
        vote("allow", HookResult.allow({ updatedInput: { command: "ls -l" } })),
        vote("ask", HookResult.ask("check with a human"))
      )
      assert.deepStrictEqual(specific(asked), {
        hookEventName: "PreToolUse",
        permissionDecision: "ask",
        permissionDecisionReason: "check with a human",
        updatedInput: { command: "ls -l" }
      })
      const allowed = yield* combined(vote("defer", HookResult.defer), vote("allow", HookResult.allow()))
      assert.strictEqual(specific(allowed).permissionDecision, "allow")
      const deferred = yield* combined(
        vote("defer", HookResult.defer),
        vote("context", HookResult.additionalContext("c"))
      )
      assert.deepStrictEqual(specific(deferred), {
        hookEventName: "PreToolUse",
        permissionDecision: "defer",
        additionalContext: "c"
      })
    }))

  it.effect("a callback id no hook has is answered with its event's fallback, and a warning", () =>
    Effect.gen(function*() {
      const { logs, value } = yield* captureLogs(withRegistry(
        HookLayer.stop(() => Effect.void),
        (registry) =>
          Effect.all([
            answer(registry, hookCallback("hook_99_PreToolUse", preToolUse("ls"))),
            answer(registry, hookCallback("hook_99_Stop", stop))
          ])
      ))
      const [pre, stopOutput] = value
      assert.strictEqual(
        (pre as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision,
        "deny"
      )
      assert.deepStrictEqual(stopOutput, {})
      assert.isTrue(logs.some((line) => line.startsWith("Warn") && line.includes(`"hook_99_PreToolUse"`)))
    }))

  it.effect("an undecodable hook_callback is answered with its event's fallback, never an error reply", () =>
    withRegistry(HookLayer.stop(() => Effect.void), (registry) =>
      Effect.sync(() => {
        const undecodable = registry.inboundHandler.undecodable!
        const permissionDecision = (output: unknown) =>
          (output as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision
        assert.strictEqual(permissionDecision(undecodable({ input: { hook_event_name: "PreModelSwitch" } })), "deny")
        // Without an event it is read as a tool call: it does not run.
        assert.strictEqual(permissionDecision(undecodable({ callback_id: 1 })), "deny")
        assert.deepStrictEqual(undecodable({ input: { hook_event_name: "Stop" } }), {})
      })))

  const resultKinds = [
    "empty",
    "allow",
    "deny",
    "ask",
    "defer",
    "block",
    "halt",
    "additionalContext",
    "updatedInput"
  ] as const
  const resultOf = (kind: typeof resultKinds[number], text: string): HookResult.HookResult => {
    switch (kind) {
      case "empty":
        return HookResult.empty
      case "allow":
        return HookResult.allow({ reason: text, updatedInput: { text } })
      case "deny":
        return HookResult.deny(text)
      case "ask":
        return HookResult.ask(text)
      case "defer":
        return HookResult.defer
      case "block":
        return HookResult.block(text)
      case "halt":
        return HookResult.halt(text)
      case "additionalContext":
        return HookResult.additionalContext(text)
      case "updatedInput":
        return HookResult.updatedInput({ text })
    }
  }

  it.effect.prop(
    "every HookResult answers every event with an output the CLI takes (never the fallback)",
    [Schema.String],
    ([text]) =>
      // Every event and every result, for each generated text.
      Effect.forEach(hookEvents, (event) =>
        Effect.forEach(resultKinds, (kind) =>
          Effect.gen(function*() {
            const result = resultOf(kind, text)
            const output = HookResult.toOutput(event, result)
            // The result, and its output answered as a plain object: checked against the event's schema.
            const registry = HookRegistry.fromRegistrations(
              [result, output].map((answer, order) => ({
                event,
                matcher: undefined,
                timeout: undefined,
                active: { current: true },
                order,
                name: `answer ${order}`,
                handler: () => Effect.succeed(answer)
              }))
            )
            const runs = yield* registry.run(
              { ...baseInput, hook_event_name: event } as Protocol.HookInput,
              { requestId: "r", toolUseId: undefined }
            )
            assert.lengthOf(runs, 2)
            for (const run of runs) {
              assert.isUndefined(run.fallback, `${kind} on ${event}: ${JSON.stringify(run.output)}`)
              assert.deepStrictEqual(run.output, output)
            }
          }))).pipe(quiet),
    { arbitrary: { runs: 20 } }
  )
})
