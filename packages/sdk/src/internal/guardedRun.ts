/**
 * One guarded run: how every user handler — a hook, the permission gate, an
 * MCP tool, a command hook's hooks — is run. Each policy is stated here once:
 *
 * - **timeout**: the handler runs under a deadline on the current `Clock`
 *   ({@link defaultTimeouts} when it sets none);
 * - **exit classification**: success, `failure` (its error channel),
 *   `defect` (a die, an interruption, or a handler that throws instead of
 *   returning an Effect), `timeout`;
 * - **validation**: the caller's validator says what is wrong with an answer,
 *   naming the field (`invalid_output`);
 * - **JSON safety**: an answer that `JSON.stringify` cannot write (a BigInt, a
 *   cycle) would never reach the CLI, which would then wait (`invalid_output`);
 * - **fallback**: whatever went wrong, the caller's fallback answers (deny for
 *   a permission decision, `{}` for other hooks, an error result for a tool);
 * - **recording**: one warning log with the cause, the span's decision and
 *   fallback attributes, and the decision, fallback and latency metrics.
 *
 * The caller never fails and never waits for a handler past its deadline.
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as FiberRef from "effect/FiberRef"
import type * as Metric from "effect/Metric"
import type * as MetricLabel from "effect/MetricLabel"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Tracer from "effect/Tracer"
import * as Telemetry from "./telemetry.js"

// -----------------------------------------------------------------------------
// Policies stated once
// -----------------------------------------------------------------------------

/**
 * How long a handler may run when neither it nor the session sets a timeout.
 * The one place these defaults live (the options' defaults read them).
 *
 * @internal
 */
export const defaultTimeouts = {
  hook: Duration.seconds(60),
  permission: Duration.seconds(60),
  tool: Duration.seconds(60)
} as const

/**
 * Why the fallback answered instead of the handler.
 *
 * @internal
 */
export type FallbackReason = "timeout" | "failure" | "defect" | "invalid_output"

/**
 * What the user's handler is: the label of its metrics (`kind`).
 *
 * @internal
 */
export type Kind = keyof typeof defaultTimeouts

/**
 * How one kind of answer is checked, replaced and recorded. Build it once (per
 * hook, per gate, per tool), not per call.
 *
 * @internal
 */
export interface Policy<A> {
  readonly kind: Kind
  /** What the fallback does, for the log line: `fell back`, `fell back to deny`, ... */
  readonly fallsBack: string
  /** The answer to send, or what is wrong with it (the field, what it should be, what it was). */
  readonly validate: (answer: unknown) => Either.Either<A, string>
  /** The answer when the handler's own cannot be sent; `cause` is the handler's, when it failed or died. */
  readonly fallback: (reason: FallbackReason, cause: Cause.Cause<unknown> | undefined) => A
  /** The decision an answer stands for (span attribute, metric tag). */
  readonly decisionOf: (answer: A) => string
  /** The counter of decisions, tagged with `decisionTag` (`event`, `tool`) and `decision`. */
  readonly decisions?: Metric.Metric.Counter<number> | undefined
  readonly decisionTag?: string | undefined
}

/**
 * One call of a handler.
 *
 * @internal
 */
export interface Call<R> {
  /** Names the handler in logs: `hook "guard"`, `permission gate`, `MCP tool "lookup"`. */
  readonly subject: string
  /** Builds the handler's Effect; runs in the handler's fiber, so a throw is that fiber's defect. */
  readonly evaluate: () => Effect.Effect<unknown, unknown, R>
  readonly timeout: Duration.Duration
  /** The span to record on (the handler's parent), if any. */
  readonly span?: Tracer.Span | undefined
  /** The value of the policy's `decisionTag` (the event, the tool name). */
  readonly decisionTagValue?: string | undefined
  /** Log annotations, built only when the fallback answers. */
  readonly annotations: () => Record<string, unknown>
}

/**
 * How a run went, in whatever shape the caller records it (a hook run, a
 * permission outcome, a JSON-RPC response): built once, at the end of the run.
 *
 * @internal
 */
export type Finish<A, B> = (
  answer: A,
  decision: string,
  fallback: FallbackReason | undefined,
  durationMillis: number
) => B

/**
 * The plain record of a run.
 *
 * @internal
 */
export interface Outcome<A> {
  readonly answer: A
  readonly decision: string
  readonly fallback: FallbackReason | undefined
  readonly durationMillis: number
}

/**
 * A {@link Finish} that builds an {@link Outcome}.
 *
 * @internal
 */
export const outcome = <A>(
  answer: A,
  decision: string,
  fallback: FallbackReason | undefined,
  durationMillis: number
): Outcome<A> => ({ answer, decision, fallback, durationMillis })

/**
 * Whether `value` can be written as JSON; `undefined` when it can, else why not.
 *
 * @internal
 */
export const jsonProblem = (value: unknown): string | undefined => {
  try {
    JSON.stringify(value)
    return undefined
  } catch (error) {
    return `the answer cannot be written as JSON: ${String(error)}`
  }
}

// -----------------------------------------------------------------------------
// The run
// -----------------------------------------------------------------------------

/**
 * Runs one handler under the policy: never fails, answers by the deadline.
 * `finish` shapes the result (the hot path builds one object per run).
 *
 * @internal
 */
export const run = <A, B, R>(policy: Policy<A>, call: Call<R>, finish: Finish<A, B>): Effect.Effect<B, never, R> =>
  Effect.clockWith((clock) => {
    const started = clock.unsafeCurrentTimeMillis()
    const answer = (value: A, fallback: FallbackReason | undefined): Effect.Effect<B> =>
      Effect.withFiberRuntime((fiber) => {
        const decision = policy.decisionOf(value)
        const durationMillis = clock.unsafeCurrentTimeMillis() - started
        record(policy, call, decision, fallback, durationMillis, fiber.getFiberRef(FiberRef.currentMetricLabels))
        return Effect.succeed(finish(value, decision, fallback, durationMillis))
      })
    const fallBack = (reason: FallbackReason, detail: Cause.Cause<unknown> | string) =>
      Effect.logWarning(`${call.subject} ${policy.fallsBack} (${reason})`, detail).pipe(
        Effect.annotateLogs(call.annotations()),
        (log) => call.span === undefined ? log : Effect.withParentSpan(log, call.span),
        Effect.zipRight(
          Effect.suspend(() => answer(policy.fallback(reason, typeof detail === "string" ? undefined : detail), reason))
        )
      )
    return Effect.flatMap(within(clock, call.evaluate, call.timeout, call.span), (exit) => {
      if (Option.isNone(exit)) return fallBack("timeout", `timed out after ${Duration.format(call.timeout)}`)
      if (Exit.isFailure(exit.value)) {
        return fallBack(Cause.isFailure(exit.value.cause) ? "failure" : "defect", exit.value.cause)
      }
      const valid = policy.validate(exit.value.value)
      if (Either.isLeft(valid)) return fallBack("invalid_output", valid.left)
      const problem = jsonProblem(valid.right)
      return problem === undefined ? answer(valid.right, undefined) : fallBack("invalid_output", problem)
    })
  })

// One function records every kind: the span's attributes, then the metrics (built once per tag set).
const record = (
  policy: Policy<any>,
  call: Call<unknown>,
  decision: string,
  fallback: FallbackReason | undefined,
  durationMillis: number,
  labels: ReadonlyArray<MetricLabel.MetricLabel>
): void => {
  if (call.span !== undefined) {
    call.span.attribute(Telemetry.attributes.decision, fallback !== undefined ? `fallback:${decision}` : decision)
    if (fallback !== undefined) call.span.attribute(Telemetry.attributes.fallback, fallback)
  }
  if (policy.decisions !== undefined && policy.decisionTag !== undefined) {
    Telemetry.tagged(policy.decisions, policy.decisionTag, call.decisionTagValue ?? "", "decision", decision)
      .unsafeUpdate(1, labels)
  }
  if (fallback !== undefined) {
    Telemetry.tagged(Telemetry.fallbacks, "kind", policy.kind, "cause", fallback).unsafeUpdate(1, labels)
  }
  Telemetry.tagged(Telemetry.handlerLatency, "kind", policy.kind).unsafeUpdate(durationMillis, labels)
}

// -----------------------------------------------------------------------------
// The deadline
// -----------------------------------------------------------------------------

// Timers beyond this many milliseconds never fire in Node (the live clock treats them as infinite too).
const MAX_TIMER_MILLIS = 2 ** 31 - 1

// The clock of Effect's default services, whose `sleep` is a plain timer: with it the deadline is that
// timer, set directly. Any other clock (a TestClock, one the user provides) is slept on with its own
// `sleep`, in a fiber of its own.
const defaultClock = Context.get(DefaultServices.liveServices, Clock.Clock)

/** Starts the timer, returns its cancel. */
type StartTimer = (onFire: () => void) => () => void

const timerOn = (
  clock: Clock.Clock,
  duration: Duration.Duration,
  runtime: Runtime.Runtime<never>
): StartTimer | undefined => {
  const millis = Duration.toMillis(duration)
  if (!Duration.isFinite(duration) || millis > MAX_TIMER_MILLIS) return undefined
  if (clock === defaultClock) {
    return (onFire) => {
      const handle = setTimeout(onFire, millis)
      return () => clearTimeout(handle)
    }
  }
  return (onFire) => {
    const sleeping = Runtime.runFork(runtime, Effect.interruptible(clock.sleep(duration)))
    const observer = (exit: Exit.Exit<void>) => {
      if (Exit.isSuccess(exit)) onFire()
    }
    sleeping.addObserver(observer)
    return () => {
      sleeping.removeObserver(observer)
      sleeping.unsafeInterruptAsFork(FiberId.none)
    }
  }
}

/**
 * The exit of the handler `evaluate` builds, or `None` when the deadline came
 * first (the handler is then interrupted in the background).
 *
 * The handler runs in one fiber of its own, started at once in the caller's
 * turn: a handler that answers synchronously, as most do, costs no trip
 * through the scheduler and sets no timer. Otherwise the caller waits on the
 * handler and on a timer of the current `Clock`, and whichever loses is
 * stopped in the background, so the answer never waits for a handler that is
 * slow to stop. Interrupting the caller interrupts the handler (in the
 * background) and returns at once. `Effect.timeout` would do the same with
 * four fibers and a race that waits for the loser's interruption.
 *
 * `evaluate` runs inside the handler's fiber: a throw is that fiber's defect.
 * `span`, when given, is the handler's parent span, placed in the handler
 * fiber's context as it is created (cheaper than `Effect.withParentSpan`).
 *
 * @internal
 */
export const exitWithin = <A, E, R>(
  evaluate: () => Effect.Effect<A, E, R>,
  duration: Duration.DurationInput,
  span?: Tracer.AnySpan
): Effect.Effect<Option.Option<Exit.Exit<A, E>>, never, R> =>
  Effect.clockWith((clock) => within(clock, evaluate, duration, span))

const within = <A, E, R>(
  clock: Clock.Clock,
  evaluate: () => Effect.Effect<A, E, R>,
  duration: Duration.DurationInput,
  span: Tracer.AnySpan | undefined
): Effect.Effect<Option.Option<Exit.Exit<A, E>>, never, R> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(Effect.runtime<R>(), (runtime) => {
      const handler = Runtime.runFork(
        span === undefined
          ? runtime
          : Runtime.make({
            context: Context.add(runtime.context, Tracer.ParentSpan, span),
            runtimeFlags: runtime.runtimeFlags,
            fiberRefs: runtime.fiberRefs
          }),
        // A handler that throws (or returns no Effect) instead of failing is a defect of its fiber,
        // classified like any other failure, never an exception escaping to the caller.
        restore(Effect.suspend(evaluate))
      )
      return restore(race(handler, timerOn(clock, Duration.decode(duration), runtime as Runtime.Runtime<never>)))
    })
  )

const race = <A, E>(
  handler: Fiber.RuntimeFiber<A, E>,
  startTimer: StartTimer | undefined
): Effect.Effect<Option.Option<Exit.Exit<A, E>>> =>
  Effect.async<Option.Option<Exit.Exit<A, E>>>((resume) => {
    let settled = false
    let cancelTimer: (() => void) | undefined
    const onHandler = (exit: Exit.Exit<A, E>) => {
      if (settled) return
      settled = true
      cancelTimer?.()
      resume(Effect.succeed(Option.some(exit)))
    }
    // A handler that already answered calls its observer at once: no timer is set.
    handler.addObserver(onHandler)
    if (!settled && startTimer !== undefined) {
      cancelTimer = startTimer(() => {
        if (settled) return
        settled = true
        handler.removeObserver(onHandler)
        handler.unsafeInterruptAsFork(FiberId.none)
        resume(Effect.succeed(Option.none()))
      })
    }
    return Effect.sync(() => {
      if (settled) return
      settled = true
      handler.removeObserver(onHandler)
      handler.unsafeInterruptAsFork(FiberId.none)
      cancelTimer?.()
    })
  })
