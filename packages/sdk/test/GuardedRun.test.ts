import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as Metric from "effect/Metric"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import type * as Tracer from "effect/Tracer"
import * as GuardedRun from "../src/internal/guardedRun.js"
import * as Telemetry from "../src/Telemetry.js"

// A policy for answers that must be objects with a string `text`; the fallback says why it answered.
interface Answer {
  readonly text: string
}

const decisions = Metric.counter("test_guarded_run_decisions_total")

class Greeting extends Context.Service<Greeting, string>()("test/Greeting") {}

const failureOf = (cause: Cause.Cause<unknown> | undefined): string => {
  const fail = cause?.reasons.length === 1 ? cause.reasons.find(Cause.isFailReason) : undefined
  return fail !== undefined ? `:${String(fail.error)}` : ""
}

const policy: GuardedRun.Policy<Answer> = {
  kind: "tool",
  fallsBack: "fell back",
  validate: (answer) =>
    typeof answer === "object" && answer !== null && typeof (answer as { text?: unknown }).text === "string"
      ? Result.succeed(answer as Answer)
      : Result.fail(`text: Expected string, actual ${JSON.stringify((answer as { text?: unknown })?.text)}`),
  fallback: (reason, cause) => ({ text: `fallback:${reason}${failureOf(cause)}` }),
  decisionOf: (answer) => answer.text.startsWith("fallback:") ? "fallback" : "answer",
  decisions,
  decisionTag: "site"
}

const call = (
  evaluate: () => Effect.Effect<unknown, unknown>,
  timeout: Duration.Input = "1 second",
  span?: Tracer.Span
): GuardedRun.Call<never> => ({
  subject: "test handler",
  evaluate,
  timeout: Duration.fromInputUnsafe(timeout),
  span,
  decisionTagValue: "unit",
  annotations: () => ({ site: "unit" })
})

const run = (evaluate: () => Effect.Effect<unknown, unknown>, timeout?: Duration.Input) =>
  GuardedRun.run(policy, call(evaluate, timeout), GuardedRun.outcome)

const captureLogs = <A>(effect: Effect.Effect<A>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make<unknown, void>(({ cause, message }) => {
      const parts = Array.isArray(message) ? message : [message]
      lines.push([...parts.map(String), ...(cause.reasons.length === 0 ? [] : [Cause.pretty(cause)])].join(" "))
    })
    const value = yield* effect.pipe(Effect.provide(Logger.layer([logger])))
    return { value, logs: lines }
  })

const quiet = Effect.provide(Logger.layer([]))

describe("GuardedRun.run: exit classification", () => {
  it.effect("a valid answer is sent as it is, with no fallback and no log", () =>
    Effect.gen(function*() {
      const { logs, value } = yield* captureLogs(run(() => Effect.succeed({ text: "hi" })))
      assert.deepStrictEqual(value.answer, { text: "hi" })
      assert.strictEqual(value.decision, "answer")
      assert.isUndefined(value.fallback)
      assert.deepStrictEqual(logs, [])
    }))

  it.effect("failure, defect, a synchronous throw and an interruption each fall back, logged with the cause", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, () => Effect.Effect<unknown, unknown>, string]> = [
        ["failure", () => Effect.fail("boom"), "fallback:failure:boom"],
        ["defect", () => Effect.die(new Error("kaput")), "fallback:defect"],
        ["defect", () => {
          throw new Error("thrown before any Effect")
        }, "fallback:defect"],
        ["defect", () => Effect.interrupt, "fallback:defect"]
      ]
      for (const [reason, evaluate, text] of cases) {
        const { logs, value } = yield* captureLogs(run(evaluate))
        assert.strictEqual(value.fallback, reason, text)
        assert.strictEqual(value.answer.text, text)
        assert.strictEqual(value.decision, "fallback")
        assert.strictEqual(logs.length, 1)
        assert.include(logs[0], `test handler fell back (${reason})`)
      }
      const thrown = yield* captureLogs(run(() => {
        throw new Error("thrown before any Effect")
      }))
      assert.include(thrown.logs[0], "thrown before any Effect")
    }))

  it.effect("an invalid answer falls back; the warning names the wrong field", () =>
    Effect.gen(function*() {
      const { logs, value } = yield* captureLogs(run(() => Effect.succeed({ text: 42 })))
      assert.strictEqual(value.fallback, "invalid_output")
      assert.strictEqual(value.answer.text, "fallback:invalid_output")
      assert.include(logs[0], "test handler fell back (invalid_output)")
      assert.include(logs[0], "text: Expected string, actual 42")
    }))

  it.effect("an answer that JSON cannot write (a BigInt, a cycle) falls back instead of leaving the CLI waiting", () =>
    Effect.gen(function*() {
      const cyclic: Record<string, unknown> = { text: "loop" }
      cyclic.self = cyclic
      for (const answer of [{ text: "big", n: 1n }, cyclic]) {
        const { logs, value } = yield* captureLogs(run(() => Effect.succeed(answer)))
        assert.strictEqual(value.fallback, "invalid_output")
        assert.include(logs[0], "cannot be written as JSON")
      }
    }))
})

describe("GuardedRun.run: the deadline", () => {
  it.effect("a handler that outlives its timeout is answered by the fallback at the deadline, and interrupted", () =>
    Effect.gen(function*() {
      const interrupted = yield* Deferred.make<void>()
      const fiber = yield* Effect.forkChild(
        run(() => Effect.onInterrupt(Effect.never, () => Deferred.succeed(interrupted, void 0)), "30 seconds").pipe(
          quiet
        )
      )
      yield* TestClock.adjust("29 seconds")
      assert.isUndefined(fiber.pollUnsafe())
      yield* TestClock.adjust("1 second")
      const outcome = yield* Fiber.join(fiber)
      assert.strictEqual(outcome.fallback, "timeout")
      assert.strictEqual(outcome.answer.text, "fallback:timeout")
      assert.strictEqual(outcome.durationMillis, 30_000)
      yield* Deferred.await(interrupted)
    }))

  it.effect("a handler that answers before the deadline is not waited past its answer", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(
        run(() => Effect.as(Effect.sleep("2 seconds"), { text: "late but fine" }), "5 seconds")
      )
      yield* TestClock.adjust("2 seconds")
      const outcome = yield* Fiber.join(fiber)
      assert.deepStrictEqual(outcome.answer, { text: "late but fine" })
      assert.strictEqual(outcome.durationMillis, 2_000)
    }))

  it.effect("a handler that ignores interruption is not waited for", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(run(() => Effect.uninterruptible(Effect.never), "5 seconds").pipe(quiet))
      yield* TestClock.adjust("5 seconds")
      assert.strictEqual((yield* Fiber.join(fiber)).fallback, "timeout")
    }))

  it.effect("interrupting the caller interrupts the handler and returns at once", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const stopped = yield* Deferred.make<void>()
      const fiber = yield* Effect.forkChild(run(() =>
        Deferred.succeed(started, void 0).pipe(
          Effect.andThen(Effect.never),
          Effect.onInterrupt(() => Deferred.succeed(stopped, void 0))
        )
      ))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(stopped)
    }))

  it.effect("the timer is the current Clock's: set only when the handler does not answer at once", () =>
    Effect.gen(function*() {
      let sleeps = 0
      const clock = yield* Effect.clockWith((clock) => Effect.succeed(clock))
      const counting: Clock.Clock = {
        currentTimeMillisUnsafe: () => clock.currentTimeMillisUnsafe(),
        currentTimeMillis: clock.currentTimeMillis,
        currentTimeNanosUnsafe: () => clock.currentTimeNanosUnsafe(),
        currentTimeNanos: clock.currentTimeNanos,
        monotonicTimeNanosUnsafe: () => clock.monotonicTimeNanosUnsafe(),
        monotonicTimeNanos: clock.monotonicTimeNanos,
        sleep: (duration) =>
          Effect.suspend(() => {
            sleeps++
            return clock.sleep(duration)
          })
      }
      const withCounting = <A>(effect: Effect.Effect<A>) => Effect.provideService(effect, Clock.Clock, counting)
      yield* withCounting(run(() => Effect.succeed({ text: "at once" })))
      assert.strictEqual(sleeps, 0, "a synchronous answer sets no timer")
      const fiber = yield* Effect.forkChild(withCounting(run(() => Effect.never, "3 seconds").pipe(quiet)))
      yield* TestClock.adjust("3 seconds")
      assert.strictEqual((yield* Fiber.join(fiber)).fallback, "timeout")
      assert.strictEqual(sleeps, 1, "the deadline slept on the given clock")
    }))

  it.live("with the default (live) clock the deadline is a plain timer", () =>
    Effect.gen(function*() {
      const outcome = yield* run(() => Effect.never, "20 millis").pipe(quiet)
      assert.strictEqual(outcome.fallback, "timeout")
      assert.isAtLeast(outcome.durationMillis, 15)
      const fast = yield* run(() => Effect.as(Effect.sleep("5 millis"), { text: "ok" }), "1 second")
      assert.isUndefined(fast.fallback)
    }))

  it.effect("an infinite timeout sets no timer and waits for the handler", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(
        run(() => Effect.as(Effect.sleep("100 days"), { text: "eventually" }), Duration.infinity)
      )
      yield* TestClock.adjust("100 days")
      assert.deepStrictEqual((yield* Fiber.join(fiber)).answer, { text: "eventually" })
    }))
})

describe("GuardedRun.run: the record", () => {
  const count = <I, S>(metric: Metric.Metric<I, S>, tags: Record<string, string>) =>
    Metric.value(Metric.withAttributes(metric, tags))

  it.effect("span attributes, decision, fallback and latency metrics: one record per run", () =>
    Effect.gen(function*() {
      const before = yield* count(Telemetry.fallbacks, { kind: "tool", cause: "failure" })
      const decided = yield* count(decisions, { site: "unit", decision: "fallback" })
      const latency = yield* count(Telemetry.handlerLatency, { kind: "tool" })
      const span = yield* Effect.makeSpan("test")
      yield* GuardedRun.run(policy, call(() => Effect.fail("no"), "1 second", span), GuardedRun.outcome).pipe(quiet)
      assert.strictEqual(span.attributes.get(Telemetry.attributes.decision), "fallback:fallback")
      assert.strictEqual(span.attributes.get(Telemetry.attributes.fallback), "failure")
      assert.strictEqual(
        (yield* count(Telemetry.fallbacks, { kind: "tool", cause: "failure" })).count - before.count,
        1
      )
      assert.strictEqual((yield* count(decisions, { site: "unit", decision: "fallback" })).count - decided.count, 1)
      assert.strictEqual((yield* count(Telemetry.handlerLatency, { kind: "tool" })).count - latency.count, 1)

      const ok = yield* Effect.makeSpan("test")
      yield* GuardedRun.run(policy, call(() => Effect.succeed({ text: "fine" }), "1 second", ok), GuardedRun.outcome)
      assert.strictEqual(ok.attributes.get(Telemetry.attributes.decision), "answer")
      assert.isFalse(ok.attributes.has(Telemetry.attributes.fallback))
    }))

  it.effect("the span is the handler's parent", () =>
    Effect.gen(function*() {
      const span = yield* Effect.makeSpan("parent")
      const outcome = yield* GuardedRun.run(
        policy,
        call(() => Effect.map(Effect.currentParentSpan, (parent) => ({ text: parent.spanId })), "1 second", span),
        GuardedRun.outcome
      )
      assert.strictEqual(outcome.answer.text, span.spanId)
    }))

  it.effect("the handler runs with its own services over the caller's, and logs through the caller's logger", () =>
    Effect.gen(function*() {
      const handler = Effect.gen(function*() {
        const greeting = yield* Greeting
        yield* Effect.logInfo(`handler sees ${greeting}`)
        return { text: greeting }
      })
      const { logs, value } = yield* captureLogs(
        GuardedRun.run(
          policy,
          {
            subject: "test handler",
            evaluate: () => handler,
            timeout: Duration.seconds(1),
            context: Context.make(Greeting, "the handler's greeting"),
            annotations: () => ({})
          },
          GuardedRun.outcome
        ).pipe(Effect.provideService(Greeting, "the caller's greeting"))
      )
      assert.strictEqual(value.answer.text, "the handler's greeting")
      assert.deepStrictEqual(logs, ["handler sees the handler's greeting"])
    }))
})

// One of several Arbitraries, each as likely (fast-check's `oneof`; effect's Arbitrary composes it from an index).
const oneOf = <A>(...arbitraries: ReadonlyArray<Arbitrary.Arbitrary<A>>): Arbitrary.Arbitrary<A> =>
  Arbitrary.flatMap(
    Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: arbitraries.length - 1 }))),
    (index) => arbitraries[index]
  )

type Handler = () => Effect.Effect<unknown, unknown>

// Handlers that do not answer: a failure, a defect, a throw before any Effect.
const failingHandlers: ReadonlyArray<Arbitrary.Arbitrary<Handler>> = [
  Arbitrary.map(Arbitrary.schema(Schema.String), (error): Handler => () => Effect.fail(error)),
  Arbitrary.map(Arbitrary.schema(Schema.String), (message): Handler => () => Effect.die(message)),
  Arbitrary.map(Arbitrary.schema(Schema.String), (message): Handler => () => {
    throw new Error(message)
  })
]

// Any value a handler might answer with: JSON, and what JSON cannot write or reads back otherwise (a BigInt, a
// Date, an object without a prototype), as fast-check's `anything({ withBigInt, withDate, withNullPrototype })`.
const anything: Arbitrary.Arbitrary<unknown> = oneOf<unknown>(
  Arbitrary.schema(Schema.Unknown),
  Arbitrary.map(Arbitrary.schema(Schema.BigInt), (n) => ({ text: "big", n })),
  Arbitrary.map(Arbitrary.schema(Schema.Array(Schema.BigInt)), (ns) => [ns]),
  Arbitrary.schema(Schema.Date),
  Arbitrary.map(Arbitrary.schema(Schema.Unknown), (value) => Object.assign(Object.create(null), { value })),
  Arbitrary.map(Arbitrary.schema(Schema.String), (text) => Object.assign(Object.create(null), { text }))
)

describe("GuardedRun.run: whatever the handler does", () => {
  it.effect.prop(
    "the caller gets the valid answer or the fallback, never a failure, and always JSON it can write",
    [
      oneOf<Handler>(
        Arbitrary.map(anything, (answer): Handler => () => Effect.succeed(answer)),
        Arbitrary.map(
          Arbitrary.filter(Arbitrary.schema(Schema.String), (text) => !text.startsWith("fallback:")),
          (text): Handler => () => Effect.succeed({ text })
        ),
        ...failingHandlers
      )
    ],
    ([evaluate]) =>
      Effect.gen(function*() {
        const outcome = yield* run(evaluate).pipe(quiet)
        assert.doesNotThrow(() => JSON.stringify(outcome.answer))
        assert.isString(outcome.answer.text)
        assert.strictEqual(outcome.fallback === undefined, outcome.decision === "answer")
        if (outcome.fallback !== undefined) assert.strictEqual(outcome.answer.text.split(":")[1], outcome.fallback)
      }),
    { arbitrary: { runs: 200 } }
  )

  it.effect.prop(
    "an answer the handler made at once (an Exit, no fiber) settles as the same answer made in its fiber",
    [
      oneOf<Handler>(
        Arbitrary.map(
          Arbitrary.schema(Schema.String),
          (text): Handler => () => Effect.succeed(text.startsWith("fallback:") ? { text: "x" } : { text })
        ),
        Arbitrary.map(anything, (answer): Handler => () => Effect.succeed(answer)),
        Arbitrary.Constant<Handler>(() => Effect.void),
        ...failingHandlers
      )
    ],
    ([handler]) =>
      Effect.gen(function*() {
        const atOnce = yield* run(handler).pipe(quiet)
        // The same answer after a yield: made in the handler's fiber, under its deadline.
        const inFiber = yield* run(() => Effect.flatMap(Effect.yieldNow, handler)).pipe(quiet)
        assert.deepStrictEqual(
          [atOnce.answer, atOnce.decision, atOnce.fallback],
          [inFiber.answer, inFiber.decision, inFiber.fallback]
        )
      }),
    { arbitrary: { runs: 200 } }
  )

  it("jsonProblem says why a value cannot be written, and nothing for one that can", () => {
    assert.isUndefined(GuardedRun.jsonProblem({ a: [1, "two", null] }))
    assert.include(GuardedRun.jsonProblem({ n: 1n }), "cannot be written as JSON")
  })
})

describe("GuardedRun.defaultTimeouts", () => {
  it("one default per kind of handler, 60 s each", () => {
    for (const kind of ["hook", "permission", "tool"] as const) {
      assert.strictEqual(Duration.toMillis(GuardedRun.defaultTimeouts[kind]), 60_000, kind)
    }
  })
})
