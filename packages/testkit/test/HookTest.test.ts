import { HookLayer, HookResult, PermissionGate, PermissionResult, Protocol } from "@claude-effect/sdk"
import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as References from "effect/References"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import { HookTest } from "../src/index.js"

// -------------------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------------------

/**
 * Provides hook layers to one run. (v3 ran it in a child fiber whose FiberRefs were dropped: merged hook
 * layers left their registrations in the providing fiber. Effect 4's layers provide a Context: nothing is left.)
 */
const withHooks = <ROut, R>(layer: Layer.Layer<ROut, never, R>) => <A, E, R2>(effect: Effect.Effect<A, E, R2>) =>
  Effect.provide(effect, layer)

/** A hook on `event` that answers `answer`, named after its matcher unless named. */
const answering = (
  event: Protocol.HookEvent,
  answer: HookResult.HookResult | Protocol.HookOutput | void,
  options: { readonly matcher?: string; readonly name?: string; readonly timeout?: Duration.Input } = {}
) => HookLayer.make(event, { name: options.name ?? `[${options.matcher}]`, ...options }, () => Effect.succeed(answer))

/** The names of the hooks that ran, in registration order. */
const ran = (outcome: HookTest.HookOutcome) => outcome.runs.map((run) => run.name)

const bash = HookTest.preToolUse("Bash", { command: "ls -la", description: "List files" })

/** Runs `input` against hooks on `event` with each matcher and returns the matchers that selected it. */
const selecting = (event: Protocol.HookEvent, input: Protocol.HookInput, matchers: ReadonlyArray<string | undefined>) =>
  HookTest.run(input).pipe(
    withHooks(
      Layer.mergeAll(
        ...matchers.map((matcher) =>
          HookLayer.make(
            event,
            { ...(matcher !== undefined ? { matcher } : {}), name: String(matcher) },
            () => Effect.succeed(HookResult.empty)
          )
        ) as [Layer.Layer<never>]
      )
    ),
    Effect.map(ran)
  )

/** Collects warnings logged while running `effect`. */
const withWarnings = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const warnings: Array<{ message: string; annotations: Record<string, unknown> }> = []
    const logger = Logger.make(({ cause, fiber, logLevel, message }) => {
      if (logLevel !== "Warn") return
      const text = (Array.isArray(message) ? message : [message]).map(String).join(" ")
      warnings.push({
        message: `${text} ${String(cause)}`,
        annotations: fiber.getRef(References.CurrentLogAnnotations)
      })
    })
    return Effect.map(Effect.provide(effect, Logger.layer([logger])), (a) => [a, warnings] as const)
  })

const oneOf = <A>(...arbitraries: ReadonlyArray<Arbitrary.Arbitrary<A>>): Arbitrary.Arbitrary<A> =>
  Arbitrary.flatMap(
    Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: arbitraries.length - 1 }))),
    (index) => arbitraries[index]!
  )

/** An input of any known event, generated from the Protocol's schema of that event. */
const anyHookInput: Arbitrary.Arbitrary<Protocol.HookInput> = oneOf<Protocol.HookInput>(
  ...Object.values(Protocol.hookInputByEvent).map((schema) =>
    Arbitrary.schema(schema as Schema.Codec<Protocol.HookInput>)
  )
)

/** A tool name as the CLI has them: a built-in or an MCP tool's. */
const toolName = Schema.String.check(
  Schema.isPattern(/^(?:[A-Z][A-Za-z]{0,20}|mcp__[a-z][a-z0-9_-]{0,15}__[a-z][a-z0-9_]{0,15})$/)
)

const denyOutput = (event: "PreToolUse" | "PermissionRequest", reason: string): Protocol.SyncHookOutput =>
  event === "PreToolUse"
    ? {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason }
    }
    : { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: reason } } }

// -------------------------------------------------------------------------------------------------
// matchers
// -------------------------------------------------------------------------------------------------

describe("HookTest.run: the CLI's matcher rules", () => {
  it.effect("no matcher, \"\" and \"*\" select every tool", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* selecting("PreToolUse", bash, [undefined, "", "*"]), ["undefined", "", "*"])
      const mcp = HookTest.preToolUse("mcp__github__create_issue", { title: "x" })
      assert.deepStrictEqual(yield* selecting("PreToolUse", mcp, [undefined, "", "*"]), ["undefined", "", "*"])
    }))

  it.effect("a plain name selects exactly that name, case-sensitively (no prefixes, no substrings)", () =>
    Effect.gen(function*() {
      const selected = yield* selecting("PreToolUse", bash, [
        "Bash",
        "bash",
        "BASH",
        "Bas",
        "ash",
        "Ba",
        "Bash2",
        "B-ash"
      ])
      assert.deepStrictEqual(selected, ["Bash"])
      const mcp = HookTest.preToolUse("mcp__github__create_issue", {})
      assert.deepStrictEqual(
        yield* selecting("PreToolUse", mcp, ["mcp__github__create_issue", "mcp__github", "mcp__github__"]),
        ["mcp__github__create_issue"]
      )
    }))

  it.effect("A|B lists select exact names; `,` and spaces also separate names on tool events", () =>
    Effect.gen(function*() {
      const selected = yield* selecting("PreToolUse", bash, [
        "Write|Bash",
        "Bash|",
        "Write|Edit",
        "Write, Bash",
        "Write,Bash",
        "Write | Bash",
        "Bash-x|Bash",
        "Write|bash",
        "Bas|Ba"
      ])
      assert.deepStrictEqual(selected, [
        "Write|Bash",
        "Bash|",
        "Write, Bash",
        "Write,Bash",
        "Write | Bash",
        "Bash-x|Bash"
      ])
    }))

  it.effect("anything else is an unanchored, case-sensitive regular expression; an invalid one selects nothing", () =>
    Effect.gen(function*() {
      const selected = yield* selecting("PreToolUse", bash, [
        "Ba.*",
        "^Bash$",
        "(Bash)",
        "sh$",
        "B.sh",
        "^Ba$",
        "^bash$",
        "Bash(",
        "[",
        "Write|.ash"
      ])
      assert.deepStrictEqual(selected, ["Ba.*", "^Bash$", "(Bash)", "sh$", "B.sh", "Write|.ash"])
      const mcp = HookTest.preToolUse("mcp__github__create_issue", {})
      assert.deepStrictEqual(
        yield* selecting("PreToolUse", mcp, ["mcp__github__.*", "mcp__.*__create_issue", "^mcp__linear__", "github"]),
        ["mcp__github__.*", "mcp__.*__create_issue"]
      )
    }))

  it.effect("legacy tool names select the renamed tools (Task → Agent, KillShell → TaskStop)", () =>
    Effect.gen(function*() {
      const agent = HookTest.preToolUse("Agent", { description: "explore", prompt: "look around" })
      assert.deepStrictEqual(
        yield* selecting("PreToolUse", agent, ["Task", "Task|Bash", "^Task$", "Agent", "task"]),
        ["Task", "Task|Bash", "^Task$", "Agent"]
      )
      const stop = HookTest.preToolUse("TaskStop", { task_id: "abc" })
      assert.deepStrictEqual(yield* selecting("PreToolUse", stop, ["KillShell", "KillBash", "TaskStop"]), [
        "KillShell",
        "KillBash",
        "TaskStop"
      ])
    }))

  it.effect("other events match their own field: source, trigger, notification type, agent type, file name", () =>
    Effect.gen(function*() {
      const compact = HookTest.input("SessionStart", { source: "compact" })
      assert.deepStrictEqual(
        yield* selecting("SessionStart", compact, ["compact", "startup", "startup|compact", "comp.*", "Compact"]),
        ["compact", "startup|compact", "comp.*"]
      )
      const preCompact = HookTest.input("PreCompact", { trigger: "manual", custom_instructions: null })
      assert.deepStrictEqual(yield* selecting("PreCompact", preCompact, ["manual", "auto"]), ["manual"])
      const notification = HookTest.input("Notification", {
        message: "Claude needs your permission",
        notification_type: "permission_prompt"
      })
      assert.deepStrictEqual(
        yield* selecting("Notification", notification, ["permission_prompt", "idle_prompt"]),
        ["permission_prompt"]
      )
      const subagent = HookTest.input("SubagentStop", {
        stop_hook_active: false,
        agent_id: "a0123456789abcde",
        agent_type: "Explore",
        agent_transcript_path: "/tmp/agent.jsonl"
      })
      assert.deepStrictEqual(yield* selecting("SubagentStop", subagent, ["Explore", "Plan"]), ["Explore"])
      const changed = HookTest.input("FileChanged", { file_path: `${HookTest.defaultCwd}/.env`, event: "change" })
      assert.deepStrictEqual(yield* selecting("FileChanged", changed, [".env", "package.json", "env$"]), [
        ".env",
        "env$"
      ])
      // StopFailure is not a list event: `,` does not separate names there.
      const failure = HookTest.input("StopFailure", { error: "rate_limit" })
      assert.deepStrictEqual(
        yield* selecting("StopFailure", failure, [
          "rate_limit",
          "server_error",
          "server_error|rate_limit",
          "rate_limit, x"
        ]),
        ["rate_limit", "server_error|rate_limit"]
      )
    }))

  it.effect("events without a value to match (Stop, UserPromptSubmit, ...) call every hook whatever its matcher", () =>
    Effect.gen(function*() {
      const stop = HookTest.input("Stop", { stop_hook_active: false })
      assert.deepStrictEqual(yield* selecting("Stop", stop, ["nonsense", "^x$", undefined]), [
        "nonsense",
        "^x$",
        "undefined"
      ])
      const prompt = HookTest.userPromptSubmit("hello")
      assert.deepStrictEqual(yield* selecting("UserPromptSubmit", prompt, ["Bash", "*"]), ["Bash", "*"])
    }))

  it.effect("hooks of other events never run", () =>
    Effect.gen(function*() {
      const outcome = yield* HookTest.run(bash).pipe(withHooks(Layer.mergeAll(
        answering("PostToolUse", HookResult.block("post"), { matcher: "Bash" }),
        answering("PermissionRequest", HookResult.deny("perm")),
        answering("Stop", HookResult.block("stop"))
      )))
      assert.deepStrictEqual(outcome.runs, [])
      assert.isUndefined(outcome.permissionDecision)
      assert.isFalse(outcome.blocked)
    }))

  it.effect.prop(
    "a matcher that is the exact tool name, a list holding it, or \".*\" always selects it",
    [toolName],
    ([name]) =>
      Effect.gen(function*() {
        const input = HookTest.preToolUse(name, { command: "ls" })
        const matchers = [name, `Other|${name}`, ".*", `^${name}$`]
        assert.deepStrictEqual(yield* selecting("PreToolUse", input, matchers), matchers)
      })
  )
})

// -------------------------------------------------------------------------------------------------
// precedence
// -------------------------------------------------------------------------------------------------

describe("HookTest.run: combining several hooks as the CLI does", () => {
  const decisions = {
    allow: HookResult.allow({ reason: "fine" }),
    deny: HookResult.deny("no way"),
    ask: HookResult.ask("check with the user"),
    defer: HookResult.defer,
    empty: HookResult.empty
  } as const
  type Choice = keyof typeof decisions

  const runWith = (input: Protocol.HookInput, choices: ReadonlyArray<Choice>) =>
    HookTest.run(input).pipe(withHooks(Layer.mergeAll(
      Layer.empty,
      ...choices.map((choice, i) => answering("PreToolUse", decisions[choice], { name: `${i}:${choice}` }))
    )))

  it.effect("deny beats ask, allow and defer, in any order, with the deny's reason", () =>
    Effect.gen(function*() {
      for (const order of [["allow", "deny", "ask", "defer"], ["deny", "allow"], ["defer", "ask", "allow", "deny"]]) {
        const outcome = yield* runWith(bash, order as Array<Choice>)
        assert.strictEqual(outcome.permissionDecision, "deny", order.join(","))
        assert.strictEqual(outcome.reason, "no way")
        assert.strictEqual(outcome.runs.length, order.length)
      }
    }))

  it.effect("ask beats allow and defer; allow beats defer; defer alone defers; no decision is undefined", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* runWith(bash, ["allow", "ask", "defer"])).permissionDecision, "ask")
      assert.strictEqual((yield* runWith(bash, ["allow", "ask"])).reason, "check with the user")
      assert.strictEqual((yield* runWith(bash, ["defer", "allow"])).permissionDecision, "allow")
      assert.strictEqual((yield* runWith(bash, ["empty", "defer"])).permissionDecision, "defer")
      assert.isUndefined((yield* runWith(bash, ["empty", "empty"])).permissionDecision)
      assert.isUndefined((yield* runWith(bash, [])).permissionDecision)
    }))

  it.effect.prop(
    "the decision is the strongest one given (deny > ask > allow > defer)",
    [Schema.Array(Schema.Literals(["allow", "deny", "ask", "defer", "empty"])).check(Schema.isMaxLength(6))],
    ([choices]) =>
      Effect.gen(function*() {
        const outcome = yield* runWith(bash, choices)
        const expected = (["deny", "ask", "allow", "defer"] as const).find((d) => choices.includes(d))
        assert.strictEqual(outcome.permissionDecision, expected)
        assert.deepStrictEqual(ran(outcome), choices.map((choice, i) => `${i}:${choice}`))
      })
  )

  it.effect("each run carries the wire output the CLI gets, in registration order", () =>
    Effect.gen(function*() {
      const outcome = yield* runWith(bash, ["allow", "deny", "empty"])
      assert.deepStrictEqual(outcome.runs.map((run) => run.output), [
        {
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "allow",
            permissionDecisionReason: "fine"
          }
        },
        denyOutput("PreToolUse", "no way"),
        {}
      ])
      assert.deepStrictEqual(outcome.runs.map((run) => run.decision), ["allow", "deny", "empty"])
      assert.deepStrictEqual(outcome.runs.map((run) => run.fallback), [undefined, undefined, undefined])
      assert.deepStrictEqual(outcome.runs.map((run) => run.callbackId), [
        outcome.runs[0]!.callbackId,
        outcome.runs[1]!.callbackId,
        outcome.runs[2]!.callbackId
      ])
      assert.strictEqual(new Set(outcome.runs.map((run) => run.callbackId)).size, 3)
    }))

  it.effect("a top-level decision \"block\" is a deny and \"approve\" an allow", () =>
    Effect.gen(function*() {
      const blocked = yield* HookTest.run(bash).pipe(withHooks(Layer.mergeAll(
        answering("PreToolUse", HookResult.allow()),
        answering("PreToolUse", { decision: "block", reason: "blocked by policy" })
      )))
      assert.strictEqual(blocked.permissionDecision, "deny")
      assert.strictEqual(blocked.reason, "blocked by policy")
      assert.isTrue(blocked.blocked)
      const approved = yield* HookTest.run(bash).pipe(
        Effect.provide(answering("PreToolUse", { decision: "approve", reason: "known command" }))
      )
      assert.strictEqual(approved.permissionDecision, "allow")
      assert.strictEqual(approved.reason, "known command")
    }))

  it.effect("the last rewrite wins whatever the decision, and a deny drops it", () =>
    Effect.gen(function*() {
      const safer = { command: "ls", description: "List files" }
      const asked = yield* HookTest.run(bash).pipe(withHooks(Layer.mergeAll(
        answering("PreToolUse", HookResult.allow({ updatedInput: safer })),
        answering("PreToolUse", HookResult.ask("really?"))
      )))
      assert.strictEqual(asked.permissionDecision, "ask")
      assert.deepStrictEqual(asked.updatedInput, safer)
      const rewritten = yield* HookTest.run(bash).pipe(withHooks(Layer.mergeAll(
        answering("PreToolUse", HookResult.updatedInput({ command: "first" })),
        answering("PreToolUse", HookResult.updatedInput({ command: "second" }))
      )))
      assert.isUndefined(rewritten.permissionDecision)
      assert.deepStrictEqual(rewritten.updatedInput, { command: "second" })
      const denied = yield* HookTest.run(bash).pipe(withHooks(Layer.mergeAll(
        answering("PreToolUse", HookResult.allow({ updatedInput: safer })),
        answering("PreToolUse", HookResult.deny("no"))
      )))
      assert.strictEqual(denied.permissionDecision, "deny")
      assert.isUndefined(denied.updatedInput)
    }))

  it.effect("PermissionRequest: deny beats allow; an allow may rewrite the input", () =>
    Effect.gen(function*() {
      const request = HookTest.permissionRequest("Bash", { command: "rm -rf build" })
      const outcome = yield* HookTest.run(request).pipe(withHooks(Layer.mergeAll(
        answering("PermissionRequest", HookResult.allow()),
        answering("PermissionRequest", HookResult.deny("not today"))
      )))
      assert.strictEqual(outcome.permissionDecision, "deny")
      assert.strictEqual(outcome.reason, "not today")
      assert.deepStrictEqual(outcome.runs[1]!.output, denyOutput("PermissionRequest", "not today"))
      const rewritten = yield* HookTest.run(request).pipe(
        Effect.provide(answering("PermissionRequest", HookResult.updatedInput({ command: "rm -rf build/cache" })))
      )
      assert.strictEqual(rewritten.permissionDecision, "allow")
      assert.deepStrictEqual(rewritten.updatedInput, { command: "rm -rf build/cache" })
    }))

  it.effect("Stop: blocks, halts, context and system messages are all collected; no permission decision", () =>
    Effect.gen(function*() {
      const stop = HookTest.input("Stop", { stop_hook_active: false })
      const outcome = yield* HookTest.run(stop).pipe(withHooks(Layer.mergeAll(
        answering("Stop", HookResult.block("the tests are still red")),
        answering("Stop", HookResult.additionalContext("remember the changelog")),
        answering("Stop", HookResult.halt("budget spent")),
        answering("Stop", { systemMessage: "Stop hook ran" }),
        answering("Stop", HookResult.allow())
      )))
      assert.isTrue(outcome.blocked)
      assert.strictEqual(outcome.reason, "the tests are still red")
      assert.isTrue(outcome.halted)
      assert.strictEqual(outcome.stopReason, "budget spent")
      assert.deepStrictEqual(outcome.additionalContext, ["remember the changelog"])
      assert.deepStrictEqual(outcome.systemMessages, ["Stop hook ran"])
      assert.isUndefined(outcome.permissionDecision)
      assert.deepStrictEqual(outcome.runs.map((run) => run.output), [
        { decision: "block", reason: "the tests are still red" },
        { hookSpecificOutput: { hookEventName: "Stop", additionalContext: "remember the changelog" } },
        { continue: false, stopReason: "budget spent" },
        { systemMessage: "Stop hook ran" },
        {}
      ])
    }))

  it("combine works on runs from anywhere", () => {
    const run = (output: Protocol.SyncHookOutput): HookTest.HookRun => ({
      name: "x",
      event: "PreToolUse",
      matcher: undefined,
      callbackId: "hook_0_PreToolUse",
      output,
      decision: "other",
      fallback: undefined,
      durationMillis: 0
    })
    const outcome = HookTest.combine("PreToolUse", [
      run({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", additionalContext: "a" } }),
      run({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "b" } })
    ])
    assert.strictEqual(outcome.permissionDecision, "ask")
    assert.deepStrictEqual(outcome.additionalContext, ["a", "b"])
  })
})

// -------------------------------------------------------------------------------------------------
// concurrency
// -------------------------------------------------------------------------------------------------

describe("HookTest.run: hooks run concurrently, as the CLI calls them", () => {
  const slow = (name: string, result: HookResult.HookResult) =>
    HookLayer.preToolUse({ matcher: "Bash", name }, () => Effect.as(Effect.sleep("300 millis"), result))

  it.effect("two 300 ms hooks answer after 300 ms of (test) time", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(
        HookTest.run(bash).pipe(
          withHooks(Layer.mergeAll(slow("a", HookResult.allow()), slow("b", HookResult.deny("no"))))
        )
      )
      yield* TestClock.adjust("299 millis")
      assert.isTrue(fiber.pollUnsafe() === undefined)
      yield* TestClock.adjust("1 millis")
      const outcome = yield* Fiber.join(fiber)
      assert.deepStrictEqual(ran(outcome), ["a", "b"])
      assert.strictEqual(outcome.permissionDecision, "deny")
    }))

  it.live("two 300 ms hooks answer in about 300 ms of real time", () =>
    Effect.gen(function*() {
      const start = yield* Clock.currentTimeMillis
      const outcome = yield* HookTest.run(bash).pipe(
        withHooks(Layer.mergeAll(slow("a", HookResult.allow()), slow("b", HookResult.ask("hm"))))
      )
      const elapsed = (yield* Clock.currentTimeMillis) - start
      assert.strictEqual(outcome.permissionDecision, "ask")
      assert.isAtLeast(elapsed, 290)
      assert.isBelow(elapsed, 550)
    }))

  it.effect("hooks that wait for each other complete (they cannot if run one by one)", () =>
    Effect.gen(function*() {
      const first = yield* Deferred.make<void>()
      const second = yield* Deferred.make<void>()
      const handshake = (mine: Deferred.Deferred<void>, theirs: Deferred.Deferred<void>) => () =>
        Deferred.succeed(mine, undefined).pipe(Effect.andThen(Deferred.await(theirs)), Effect.as(HookResult.allow()))
      const outcome = yield* HookTest.run(bash).pipe(withHooks(Layer.mergeAll(
        HookLayer.preToolUse({ name: "first" }, handshake(first, second)),
        HookLayer.preToolUse({ name: "second" }, handshake(second, first))
      )))
      assert.strictEqual(outcome.permissionDecision, "allow")
      assert.deepStrictEqual(outcome.runs.map((run) => run.fallback), [undefined, undefined])
    }))
})

// -------------------------------------------------------------------------------------------------
// timeouts and failures
// -------------------------------------------------------------------------------------------------

describe("HookTest.run: timeouts and failures fall back like a session", () => {
  const hanging = (event: Protocol.HookEvent, timeout?: Duration.Input) =>
    HookLayer.make(
      event,
      { name: "hanging", ...(timeout !== undefined ? { timeout } : {}) },
      () => Effect.as(Effect.sleep("1 hour"), HookResult.allow())
    )

  const afterTimeout = <A>(effect: Effect.Effect<A>, timeout: Duration.Input) =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(effect)
      yield* TestClock.adjust(timeout)
      return yield* Fiber.join(fiber)
    })

  it.effect("PreToolUse and PermissionRequest hooks that outlive their timeout are answered with a deny", () =>
    Effect.gen(function*() {
      const pre = yield* afterTimeout(
        HookTest.run(bash).pipe(Effect.provide(hanging("PreToolUse", "2 seconds"))),
        "2 seconds"
      )
      assert.strictEqual(pre.permissionDecision, "deny")
      assert.strictEqual(pre.runs[0]!.fallback, "timeout")
      assert.strictEqual(pre.runs[0]!.decision, "deny")
      assert.include(pre.reason, "failing closed")
      const request = HookTest.permissionRequest("Bash", { command: "ls" })
      const perm = yield* afterTimeout(
        HookTest.run(request).pipe(Effect.provide(hanging("PermissionRequest", "2 seconds"))),
        "2 seconds"
      )
      assert.strictEqual(perm.permissionDecision, "deny")
      assert.strictEqual(perm.runs[0]!.fallback, "timeout")
      assert.strictEqual(
        (perm.runs[0]!.output.hookSpecificOutput as { readonly decision: { readonly behavior: string } }).decision
          .behavior,
        "deny"
      )
    }))

  it.effect("other events' hooks that time out are answered with {}", () =>
    Effect.gen(function*() {
      for (
        const input of [
          HookTest.postToolUse("Bash", { command: "ls" }, { stdout: "" }),
          HookTest.input("Stop", { stop_hook_active: false }),
          HookTest.userPromptSubmit("hi")
        ]
      ) {
        const outcome = yield* afterTimeout(
          HookTest.run(input).pipe(Effect.provide(hanging(input.hook_event_name as Protocol.HookEvent, "2 seconds"))),
          "2 seconds"
        )
        assert.deepStrictEqual(outcome.runs[0]!.output, {}, input.hook_event_name)
        assert.strictEqual(outcome.runs[0]!.fallback, "timeout")
        assert.isUndefined(outcome.permissionDecision)
      }
    }))

  it.effect("hooks without a timeout get defaultTimeout, else 60 s; a hook that ignores interruption is not waited for", () =>
    Effect.gen(function*() {
      const custom = yield* afterTimeout(
        HookTest.run(bash, { defaultTimeout: "5 seconds" }).pipe(Effect.provide(hanging("PreToolUse"))),
        "5 seconds"
      )
      assert.strictEqual(custom.runs[0]!.fallback, "timeout")
      const fiber = yield* Effect.forkChild(HookTest.run(bash).pipe(Effect.provide(hanging("PreToolUse"))))
      yield* TestClock.adjust("59 seconds")
      assert.isTrue(fiber.pollUnsafe() === undefined)
      yield* TestClock.adjust("1 second")
      assert.strictEqual((yield* Fiber.join(fiber)).runs[0]!.fallback, "timeout")
      const stubborn = HookLayer.preToolUse(
        { timeout: "1 second" },
        () => Effect.uninterruptible(Effect.as(Effect.sleep("1 hour"), HookResult.allow()))
      )
      const answered = yield* afterTimeout(HookTest.run(bash).pipe(Effect.provide(stubborn)), "1 second")
      assert.strictEqual(answered.permissionDecision, "deny")
    }))

  it.effect("a hook that times out does not hold back the others, and its deny still wins", () =>
    Effect.gen(function*() {
      const outcome = yield* afterTimeout(
        HookTest.run(bash).pipe(withHooks(Layer.mergeAll(
          hanging("PreToolUse", "1 second"),
          answering("PreToolUse", HookResult.allow(), { name: "quick" })
        ))),
        "1 second"
      )
      assert.deepStrictEqual(outcome.runs.map((run) => [run.name, run.fallback]), [["hanging", "timeout"], [
        "quick",
        undefined
      ]])
      assert.strictEqual(outcome.permissionDecision, "deny")
    }))

  // What no hook should answer, told to the type checker as an answer.
  const garbage = (answer: unknown) => Effect.succeed(answer as HookLayer.HookAnswer)

  const misbehaving: Record<string, () => Effect.Effect<HookLayer.HookAnswer, unknown>> = {
    failing: () => Effect.fail("policy store down"),
    dying: () => Effect.die(new Error("bug in hook")),
    "wrong event name": () => garbage({ hookSpecificOutput: { hookEventName: "UserPromptSubmit" } }),
    "invalid decision": () =>
      garbage({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "maybe" } }),
    "a number": () => garbage(42),
    "a string": () => garbage("deny")
  }

  const expectedFallback = {
    failing: "failure",
    dying: "defect",
    "wrong event name": "invalid_output",
    "invalid decision": "invalid_output",
    "a number": "invalid_output",
    "a string": "invalid_output"
  } as const

  it.effect("failing, dying and garbage PreToolUse hooks are answered with a deny, and logged", () =>
    Effect.gen(function*() {
      for (const [kind, handler] of Object.entries(misbehaving)) {
        const [outcome, warnings] = yield* withWarnings(
          HookTest.run(bash).pipe(Effect.provide(HookLayer.preToolUse({ matcher: "Bash", name: kind }, handler)))
        )
        assert.strictEqual(outcome.permissionDecision, "deny", kind)
        assert.strictEqual(outcome.runs[0]!.fallback, expectedFallback[kind as keyof typeof expectedFallback], kind)
        assert.strictEqual(outcome.runs[0]!.output.hookSpecificOutput?.hookEventName, "PreToolUse")
        assert.strictEqual(warnings.length, 1, kind)
        assert.include(warnings[0]!.message, `hook "${kind}" fell back`)
        assert.strictEqual(warnings[0]!.annotations.event, "PreToolUse")
      }
    }))

  it.effect("failing, dying and garbage hooks of other events are answered with {}", () =>
    Effect.gen(function*() {
      const input = HookTest.postToolUse("Bash", { command: "ls" }, { stdout: "" })
      for (const [kind, handler] of Object.entries(misbehaving)) {
        const outcome = yield* HookTest.run(input).pipe(
          Effect.provide(HookLayer.postToolUse({ name: kind }, handler)),
          Effect.provide(Logger.layer([]))
        )
        assert.deepStrictEqual(outcome.runs[0]!.output, {}, kind)
        assert.isDefined(outcome.runs[0]!.fallback, kind)
      }
    }))

  it.effect("nothing, null and {} are \"no opinion\", not failures", () =>
    Effect.gen(function*() {
      const outcome = yield* HookTest.run(bash).pipe(withHooks(Layer.mergeAll(
        HookLayer.preToolUse({}, () => Effect.void),
        HookLayer.preToolUse({}, () => garbage(null)),
        answering("PreToolUse", {})
      )))
      assert.deepStrictEqual(outcome.runs.map((run) => [run.output, run.decision, run.fallback]), [
        [{}, "empty", undefined],
        [{}, "empty", undefined],
        [{}, "empty", undefined]
      ])
      assert.isUndefined(outcome.permissionDecision)
    }))

  it.effect("one failing hook among allowing ones: the tool is denied (fail closed)", () =>
    Effect.gen(function*() {
      const outcome = yield* HookTest.run(bash).pipe(withHooks(Layer.mergeAll(
        answering("PreToolUse", HookResult.allow()),
        HookLayer.preToolUse({ name: "broken" }, () => Effect.fail("boom")),
        answering("PreToolUse", HookResult.allow())
      )))
      assert.strictEqual(outcome.permissionDecision, "deny")
    }))

  const results = {
    empty: HookResult.empty,
    allow: HookResult.allow({ reason: "fine", updatedInput: { command: "ls" } }),
    deny: HookResult.deny("no"),
    ask: HookResult.ask("sure?"),
    defer: HookResult.defer,
    block: HookResult.block("blocked"),
    halt: HookResult.halt("enough"),
    updatedInput: HookResult.updatedInput({ command: "ls" })
  }

  it.effect.prop(
    "every HookResult is a valid answer on every event (never the fallback)",
    [anyHookInput, Schema.Literals(Object.keys(results) as Array<keyof typeof results>)],
    ([input, result]) =>
      Effect.map(
        HookTest.run(input).pipe(
          Effect.provide(answering(input.hook_event_name as Protocol.HookEvent, results[result])),
          Effect.provide(Logger.layer([]))
        ),
        (outcome) => assert.isUndefined(outcome.runs[0]!.fallback, `${result} on ${input.hook_event_name}`)
      ),
    { arbitrary: { runs: 300 } }
  )

  it.effect("additionalContext reaches the CLI on the events that take it", () =>
    Effect.gen(function*() {
      const inputs = [
        bash,
        HookTest.postToolUse("Bash", { command: "ls" }, {}),
        HookTest.userPromptSubmit("hi"),
        HookTest.input("Stop", { stop_hook_active: false }),
        HookTest.input("SessionStart", { source: "compact" })
      ]
      for (const input of inputs) {
        const event = input.hook_event_name as Protocol.HookEvent
        const outcome = yield* HookTest.run(input).pipe(
          Effect.provide(answering(event, HookResult.additionalContext("note")))
        )
        assert.deepStrictEqual(outcome.additionalContext, ["note"], event)
        assert.isUndefined(outcome.runs[0]!.fallback, event)
      }
    }))

  it.effect.prop(
    "whatever a hook answers or throws, every event gets a valid hook output; permission events fail closed",
    [
      anyHookInput,
      oneOf<Effect.Effect<unknown, unknown>>(
        Arbitrary.map(Arbitrary.schema(Schema.Unknown), (answer) => Effect.succeed(answer)),
        Arbitrary.map(Arbitrary.schema(Schema.Date), (answer) => Effect.succeed(answer)),
        Arbitrary.map(
          Arbitrary.schema(Schema.Unknown),
          (value) => Effect.succeed(Object.assign(Object.create(null), { value }))
        ),
        Arbitrary.map(Arbitrary.schema(Schema.String), (error) => Effect.fail(error)),
        Arbitrary.Constant(Effect.die("defect"))
      )
    ],
    ([input, answer]) =>
      Effect.gen(function*() {
        const outcome = yield* HookTest.run(input).pipe(
          Effect.provide(
            HookLayer.make(
              input.hook_event_name as Protocol.HookEvent,
              {},
              () => answer as Effect.Effect<HookLayer.HookAnswer, unknown>
            )
          ),
          Effect.provide(Logger.layer([]))
        )
        const [run] = outcome.runs
        assert.isTrue(Schema.is(Protocol.SyncHookOutput)(run!.output))
        // PreModelSwitch votes on the switch: it fails closed too.
        const permissionEvent = HookResult.permissionEvents.has(input.hook_event_name)
        if (permissionEvent && run!.fallback !== undefined) assert.strictEqual(outcome.permissionDecision, "deny")
        if (!permissionEvent && run!.fallback !== undefined) assert.deepStrictEqual(run!.output, {})
      }),
    { arbitrary: { runs: 300 } }
  )
})

// -------------------------------------------------------------------------------------------------
// services
// -------------------------------------------------------------------------------------------------

class Policy extends Context.Service<Policy, { readonly blocked: ReadonlyArray<string> }>()("test/Policy") {}

describe("HookTest.run: hooks that need the application's services", () => {
  const policyHook = HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
    Effect.gen(function*() {
      const policy = yield* Policy
      const command = String((input.tool_input as { command?: unknown }).command)
      return policy.blocked.some((word) => command.includes(word))
        ? HookResult.deny(`policy: ${command}`)
        : HookResult.empty
    }))

  it.effect("the services are provided to the hook layer like to any layer", () =>
    Effect.gen(function*() {
      const requires: Layer.Layer<never, never, Policy> = policyHook
      const strict = requires.pipe(Layer.provide(Layer.succeed(Policy, { blocked: ["ls"] })))
      const lenient = requires.pipe(Layer.provide(Layer.succeed(Policy, { blocked: [] })))
      assert.strictEqual((yield* HookTest.run(bash).pipe(Effect.provide(strict))).permissionDecision, "deny")
      assert.isUndefined((yield* HookTest.run(bash).pipe(Effect.provide(lenient))).permissionDecision)
    }))

  it.effect("the hook sees the call's context: request id, tool_use_id, event", () =>
    Effect.gen(function*() {
      let seen: HookLayer.HookContext | undefined
      const outcome = yield* HookTest.run(bash).pipe(Effect.provide(HookLayer.preToolUse({}, (_input, context) =>
        Effect.sync(() => {
          seen = context
        }))))
      assert.strictEqual(seen?.event, "PreToolUse")
      assert.strictEqual(seen?.toolUseId, bash.tool_use_id)
      assert.strictEqual(seen?.callbackId, outcome.runs[0]!.callbackId)
      assert.match(seen!.requestId, /^hooktest_/)
      const stop = HookTest.input("Stop", { stop_hook_active: false })
      yield* HookTest.run(stop).pipe(Effect.provide(HookLayer.stop((_input, context) =>
        Effect.sync(() => {
          seen = context
        })
      )))
      // For events without a tool, the CLI sends a fresh UUID.
      assert.match(seen!.toolUseId!, /^[0-9a-f-]{36}$/)
    }))
})

// -------------------------------------------------------------------------------------------------
// the permission gate
// -------------------------------------------------------------------------------------------------

describe("HookTest.decide: the permission gate", () => {
  const request = { tool_name: "Bash", input: { command: "rm -rf build" } }

  it.effect("passes the gate's answer through, and fills in the request like the CLI", () =>
    Effect.gen(function*() {
      let seen: { request: Protocol.CanUseToolRequest; context: PermissionGate.PermissionContext } | undefined
      const suggestion: Protocol.PermissionUpdate = {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "rm -rf build" }],
        behavior: "allow",
        destination: "session"
      }
      const gate = PermissionGate.layer((req, context) =>
        Effect.sync(() => {
          seen = { request: req, context }
          return PermissionResult.allow({
            updatedInput: { command: "rm -rf build/cache" },
            updatedPermissions: [suggestion]
          })
        })
      )
      const decision = yield* HookTest.decide({ ...request, permission_suggestions: [suggestion] }).pipe(
        Effect.provide(gate)
      )
      assert.deepStrictEqual(decision.result, {
        behavior: "allow",
        updatedInput: { command: "rm -rf build/cache" },
        updatedPermissions: [suggestion]
      })
      assert.isUndefined(decision.fallback)
      assert.strictEqual(seen?.request.subtype, "can_use_tool")
      assert.strictEqual(seen?.request.display_name, "Bash")
      assert.match(seen!.request.tool_use_id, /^toolu_/)
      assert.strictEqual(seen?.context.toolUseId, seen?.request.tool_use_id)
      assert.deepStrictEqual(seen?.context.suggestions, [suggestion])
    }))

  it.effect("a deny keeps its message and interrupt flag", () =>
    Effect.gen(function*() {
      const decision = yield* HookTest.decide(request).pipe(
        Effect.provide(
          PermissionGate.layer(() => Effect.succeed(PermissionResult.deny("not here", { interrupt: true })))
        )
      )
      assert.deepStrictEqual(decision.result, { behavior: "deny", message: "not here", interrupt: true })
    }))

  it.effect("failing, dying and invalid gates deny, saying why", () =>
    Effect.gen(function*() {
      const gates = {
        failure: () => Effect.fail("no policy"),
        defect: () => Effect.die(new Error("bug")),
        invalid_output: () => Effect.succeed({ behavior: "deny" } as Protocol.PermissionResult)
      } as const
      for (const [reason, handler] of Object.entries(gates)) {
        const decision = yield* HookTest.decide(request).pipe(
          Effect.provide(PermissionGate.layer(handler)),
          Effect.provide(Logger.layer([]))
        )
        assert.strictEqual(decision.result.behavior, "deny", reason)
        assert.strictEqual(decision.fallback, reason)
        assert.include((decision.result as Protocol.PermissionDeny).message, reason)
      }
    }))

  it.effect("a gate that outlives its timeout (its own, else defaultTimeout, else 60 s) denies", () =>
    Effect.gen(function*() {
      const hanging = (options?: PermissionGate.Options) =>
        PermissionGate.layer(() => Effect.as(Effect.sleep("1 hour"), PermissionResult.allow()), options)
      const own = yield* Effect.forkChild(
        HookTest.decide(request).pipe(Effect.provide(hanging({ timeout: "3 seconds" })))
      )
      yield* TestClock.adjust("3 seconds")
      assert.strictEqual((yield* Fiber.join(own)).fallback, "timeout")
      const byDefault = yield* Effect.forkChild(
        HookTest.decide(request, { defaultTimeout: "10 seconds" }).pipe(Effect.provide(hanging()))
      )
      yield* TestClock.adjust("10 seconds")
      const decision = yield* Fiber.join(byDefault)
      assert.strictEqual(decision.fallback, "timeout")
      assert.strictEqual(decision.result.behavior, "deny")
      const sixty = yield* Effect.forkChild(HookTest.decide(request).pipe(Effect.provide(hanging())))
      yield* TestClock.adjust("59 seconds")
      assert.isTrue(sixty.pollUnsafe() === undefined)
      yield* TestClock.adjust("1 second")
      assert.strictEqual((yield* Fiber.join(sixty)).fallback, "timeout")
    }))

  it.effect("a gate may use the application's services", () =>
    Effect.gen(function*() {
      const gate = PermissionGate.layer((req) =>
        Effect.map(Effect.service(Policy), (policy) =>
          policy.blocked.includes(req.tool_name) ? PermissionResult.deny("blocked tool") : PermissionResult.allow())
      ).pipe(Layer.provide(Layer.succeed(Policy, { blocked: ["Bash"] })))
      assert.strictEqual((yield* HookTest.decide(request).pipe(Effect.provide(gate))).result.behavior, "deny")
      assert.strictEqual(
        (yield* HookTest.decide({ tool_name: "Read", input: { file_path: "/x" } }).pipe(Effect.provide(gate))).result
          .behavior,
        "allow"
      )
    }))

  it.effect.prop(
    "a gate that throws denies every request",
    [Schema.String],
    ([command]) =>
      Effect.map(
        HookTest.decide({ tool_name: "Bash", input: { command } }).pipe(
          Effect.provide(PermissionGate.layer(() => Effect.sync(() => JSON.parse("not json")))),
          Effect.provide(Logger.layer([]))
        ),
        (decision) => {
          assert.strictEqual(decision.result.behavior, "deny")
          assert.strictEqual(decision.fallback, "defect")
        }
      ),
    { arbitrary: { runs: 100 } }
  )
})

// -------------------------------------------------------------------------------------------------
// input builders
// -------------------------------------------------------------------------------------------------

describe("HookTest input builders", () => {
  it("build inputs that decode with the Protocol schemas, with the base fields the CLI sends", () => {
    const inputs = [
      HookTest.preToolUse("Write", { file_path: "/tmp/x", content: "" }, { permission_mode: "acceptEdits" }),
      HookTest.postToolUse("Bash", { command: "ls" }, {
        stdout: "a\n",
        stderr: "",
        interrupted: false,
        isImage: false
      }),
      HookTest.permissionRequest("Bash", { command: "ls" }),
      HookTest.userPromptSubmit("hello"),
      HookTest.input("SessionStart", { source: "compact", model: "claude-sonnet-4-5" }),
      HookTest.input("Stop", { stop_hook_active: true, last_assistant_message: "done" }),
      HookTest.input("StopFailure", { error: "server_error" })
    ]
    for (const input of inputs) {
      const decoded = Schema.decodeUnknownSync(Protocol.HookInput)(input)
      assert.strictEqual(decoded.hook_event_name, input.hook_event_name)
      assert.strictEqual(input.cwd, HookTest.defaultCwd)
      assert.match(input.session_id, /^[0-9a-f-]{36}$/)
    }
    assert.strictEqual(inputs[0]!.permission_mode, "acceptEdits")
    assert.isUndefined(HookTest.userPromptSubmit("x").effort)
    assert.isUndefined(HookTest.input("StopFailure", { error: "x" }).permission_mode)
    assert.notStrictEqual(HookTest.preToolUse("Bash", {}).tool_use_id, HookTest.preToolUse("Bash", {}).tool_use_id)
    assert.strictEqual(HookTest.preToolUse("Bash", {}, { cwd: "/srv/app" }).cwd, "/srv/app")
  })
})
