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
 *   a permission decision, `{}` for other hooks, an error result for a tool,
 *   decline for an elicitation, cancelled for a user dialog);
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
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
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
  tool: Duration.seconds(60),
  elicitation: Duration.seconds(60),
  dialog: Duration.seconds(60)
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
  readonly validate: (answer: unknown) => Result.Result<A, string>
  /** The answer when the handler's own cannot be sent; `cause` is the handler's, when it failed or died. */
  readonly fallback: (reason: FallbackReason, cause: Cause.Cause<unknown> | undefined) => A
  /** The decision an answer stands for (span attribute, metric tag). */
  readonly decisionOf: (answer: A) => string
  /** The counter of decisions, tagged with `decisionTag` (`event`, `tool`) and `decision`. */
  readonly decisions?: Metric.Counter<number> | undefined
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
  /** Builds the handler's Effect, as the run starts; a throw is the handler's defect. */
  readonly evaluate: () => Effect.Effect<unknown, unknown, R>
  /**
   * The services the handler runs with (a hook layer's, a gate's: the context it was built in), over
   * the caller's (as `Effect.provideContext` would: effect 4 keeps the fiber's references, the logger
   * and the tracer among them, in the same Context; leave out of it what belongs to the run). Its fiber
   * is created with them, which costs a fraction of an `Effect.provide` around every call.
   */
  readonly context?: Context.Context<never> | undefined
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
 * A {@link Finish} that keeps the answer alone.
 *
 * @internal
 */
export const answerOf = <A>(answer: A): A => answer

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
// The run: a synchronous core, and an Effect over it
// -----------------------------------------------------------------------------

/**
 * A run's result, settled: the answer, what it stands for, and its JSON — the
 * answer's wire form (`encode`) stringified once, which is also the JSON-safety
 * check.
 *
 * @internal
 */
export interface Settled<A> extends Outcome<A> {
  readonly json: string
}

/**
 * One handler under one policy, as the router and {@link run} start it.
 *
 * @internal
 */
export interface Guarded<A> {
  readonly policy: Policy<A>
  readonly call: Call<never>
  /** The wire form of an answer, whose JSON {@link Settled.json} is (default: the answer itself). */
  readonly encode?: ((answer: A) => unknown) | undefined
  /**
   * Told the run as it starts, for an owner that may have to answer in the handler's place (an MCP
   * tool call the client cancelled); told `undefined` once the run has settled, however it did.
   */
  readonly track?: ((running: Answerable<A> | undefined) => void) | undefined
}

/**
 * A started run: `cancel` stops it without an answer (the handler is
 * interrupted in the background, never waited for). Idempotent; nothing after
 * the run settled.
 *
 * @internal
 */
export interface Running {
  /** `false` when the run had already settled. */
  readonly cancel: () => boolean
}

/**
 * A started run that its owner may also settle with an answer of its own:
 * the handler is interrupted in the background, and `answer` is delivered and
 * recorded (as a `defect`-free fallback would be: no warning, `reason` on the
 * span). Nothing once the run has settled.
 *
 * @internal
 */
export interface Answerable<A> extends Running {
  readonly answer: (answer: A, reason: string) => void
}

// An answer whose getters throw (a Proxy, a class with accessors) is an invalid answer, not an
// exception in the middle of settling the run.
const validateSafely = <A>(policy: Policy<A>, answer: unknown): Result.Result<A, string> => {
  try {
    return policy.validate(answer)
  } catch (error) {
    return Result.fail(`the answer cannot be read: ${String(error)}`)
  }
}

/**
 * `JSON.stringify(value)` (`undefined` for `undefined`), or `null` when it
 * throws (a BigInt, a cycle, a getter that throws): the JSON-safety check of
 * every answer the SDK writes.
 *
 * @internal
 */
export const stringify = (value: unknown): string | undefined | null => {
  try {
    return JSON.stringify(value)
  } catch {
    return null
  }
}

/**
 * Starts `guarded` in ONE fiber run with `context` (the handler's own), under
 * its deadline on `clock`. Whichever of the handler's exit, the deadline and
 * `cancel` comes first settles the run: the exit is classified, validated and
 * stringified by plain functions, the fallback (with its warning) answers
 * whatever went wrong, the run is recorded on `span` and the metrics, and
 * `deliver` is called with the answer. Settling runs no Effect of its own (the
 * warning, on the rare fallback path, is logged in a fiber run with `context`): when
 * the handler answers synchronously, as most do, `deliver` has been called
 * before `start` returns, with no timer set and no trip through the scheduler.
 *
 * `span`, when given, is the handler's parent (placed in its fiber's context as
 * the fiber is created) and receives the decision attributes; `annotations`
 * are added to the fallback's warning.
 *
 * @internal
 */
export const start = <A>(
  guarded: Guarded<A>,
  context: Context.Context<never>,
  clock: Clock.Clock,
  span: Tracer.Span | undefined,
  deliver: (settled: Settled<A>) => void,
  annotations?: Record<string, unknown>
): Answerable<A> => {
  const { call, policy } = guarded
  const encode = guarded.encode
  const track = guarded.track
  const started = clock.currentTimeMillisUnsafe()
  let done = false
  const settle = (value: A, json: string, fallback: FallbackReason | undefined): void => {
    done = true
    if (track !== undefined) track(undefined)
    const decision = policy.decisionOf(value)
    const durationMillis = clock.currentTimeMillisUnsafe() - started
    record(policy, call, span, decision, fallback, durationMillis, context)
    deliver({ answer: value, json, decision, fallback, durationMillis })
  }
  const fallBack = (reason: FallbackReason, detail: Cause.Cause<unknown> | string): void => {
    const value = policy.fallback(reason, typeof detail === "string" ? undefined : detail)
    // The fallback's encoding is known-good (built by the SDK from plain data).
    const json = JSON.stringify(encode === undefined ? value : encode(value))
    const log = Effect.logWarning(`${call.subject} ${policy.fallsBack} (${reason})`, detail).pipe(
      Effect.annotateLogs(annotations === undefined ? call.annotations() : { ...annotations, ...call.annotations() })
    )
    // Logged before the answer is delivered (a fiber runs synchronously as far as it can).
    Effect.runForkWith(context)(span === undefined ? log : Effect.withParentSpan(log, span))
    settle(value, json, reason)
  }
  const onExit = (exit: Option.Option<Exit.Exit<unknown, unknown>>): void => {
    if (Option.isNone(exit)) return fallBack("timeout", `timed out after ${Duration.format(call.timeout)}`)
    if (Exit.isFailure(exit.value)) {
      return fallBack(Cause.hasFails(exit.value.cause) ? "failure" : "defect", exit.value.cause)
    }
    const valid = validateSafely(policy, exit.value.value)
    if (Result.isFailure(valid)) return fallBack("invalid_output", valid.failure)
    const json = stringify(encode === undefined ? valid.success : encode(valid.success))
    return typeof json === "string"
      ? settle(valid.success, json, undefined)
      : fallBack("invalid_output", jsonProblem(valid.success) ?? "the answer cannot be written as JSON")
  }
  const effect = evaluateSafely(call.evaluate)
  // A decision made as the handler was called has settled the run already: no fiber, nothing to cancel.
  if (isExitOf(effect)) {
    onExit(Option.some(effect))
    return settledAnswerable
  }
  const handlerContext = call.context === undefined ? context : Context.merge(context, call.context)
  const running = watchFiber(handlerContext, clock, effect, call.timeout, span, onExit)
  const answerable: Answerable<A> = {
    cancel: () => {
      if (!running.cancel()) return false
      done = true
      if (track !== undefined) track(undefined)
      return true
    },
    // The rare path (a cancelled MCP call).
    answer: (value, reason) => {
      if (!running.cancel()) return
      span?.attribute(Telemetry.attributes.fallback, reason)
      settle(value, JSON.stringify(encode === undefined ? value : encode(value)), undefined)
    }
  }
  if (track !== undefined && !done) track(answerable)
  return answerable
}

// The run of a handler that had its exit at once, as its owner sees it: settled, nothing to cancel or answer.
const settledAnswerable: Answerable<unknown> = { cancel: () => false, answer: () => {} }

/**
 * Runs one handler under the policy: never fails, answers by the deadline.
 * `finish` shapes the result (the hot path builds one object per run). The
 * Effect over {@link start}: the same run, for callers outside the router
 * (`HookTest`, command hooks, MCP tool calls).
 *
 * @internal
 */
export const run = <A, B, R>(policy: Policy<A>, call: Call<R>, finish: Finish<A, B>): Effect.Effect<B, never, R> =>
  runGuarded({ policy, call: call as Call<never> }, finish) as Effect.Effect<B, never, R>

/**
 * {@link run} of a {@link Guarded} (its `encode` and `track` included).
 *
 * @internal
 */
export const runGuarded = <A, B>(guarded: Guarded<A>, finish: Finish<A, B>): Effect.Effect<B> => {
  const call = guarded.call
  return Effect.clockWith((clock) =>
    Effect.contextWith((context: Context.Context<never>) =>
      Effect.callback<B>((resume) => {
        const running = start(
          guarded,
          context,
          clock,
          call.span,
          (settled) =>
            resume(Effect.succeed(finish(settled.answer, settled.decision, settled.fallback, settled.durationMillis)))
        )
        return Effect.sync(running.cancel)
      })
    )
  )
}

// One function records every kind: the span's attributes, then the metrics (built once per tag set).
const record = (
  policy: Policy<any>,
  call: Call<unknown>,
  span: Tracer.Span | undefined,
  decision: string,
  fallback: FallbackReason | undefined,
  durationMillis: number,
  context: Context.Context<never>
): void => {
  if (span !== undefined) {
    span.attribute(Telemetry.attributes.decision, fallback !== undefined ? `fallback:${decision}` : decision)
    if (fallback !== undefined) span.attribute(Telemetry.attributes.fallback, fallback)
  }
  if (policy.decisions !== undefined && policy.decisionTag !== undefined) {
    Telemetry.tagged(policy.decisions, policy.decisionTag, call.decisionTagValue ?? "", "decision", decision)
      .updateUnsafe(1, context)
  }
  if (fallback !== undefined) {
    Telemetry.tagged(Telemetry.fallbacks, "kind", policy.kind, "cause", fallback).updateUnsafe(1, context)
  }
  Telemetry.tagged(Telemetry.handlerLatency, "kind", policy.kind).updateUnsafe(durationMillis, context)
}

// -----------------------------------------------------------------------------
// The deadline
// -----------------------------------------------------------------------------

// Timers beyond this many milliseconds never fire in Node (the live clock treats them as infinite too).
const MAX_TIMER_MILLIS = 2 ** 31 - 1

// The clock of Effect's default services, whose `sleep` is a plain timer: with it the deadline is that
// timer, set directly. Any other clock (a TestClock, one the user provides) is slept on with its own
// `sleep`, in a fiber of its own.
const defaultClock = Context.get(Context.empty(), Clock.Clock)

/** Starts the timer, returns its cancel. */
type StartTimer = (onFire: () => void) => () => void

const timerOn = (
  clock: Clock.Clock,
  duration: Duration.Duration,
  context: Context.Context<never>
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
    const sleeping = Effect.runForkWith(context)(Effect.interruptible(clock.sleep(duration)))
    const stopObserving = sleeping.addObserver((exit) => {
      if (Exit.isSuccess(exit)) onFire()
    })
    return () => {
      stopObserving()
      sleeping.interruptUnsafe()
    }
  }
}

/**
 * Waits for whichever comes first: the callback `register` arranges (it gets
 * `done`, and returns what stops the wait), or the deadline (a timer of the
 * current `Clock`: `onTimeout` answers). No fiber is forked and no race is run
 * for the common case (Effect's own clock), and the deadline holds inside an
 * uninterruptible region (a finalizer) too: the timer ends the wait itself.
 * Interrupting the caller stops the wait.
 *
 * @internal
 */
export const awaitWithin = <A, E>(
  duration: Duration.Input,
  register: (done: (result: Effect.Effect<A, E>) => void) => () => void,
  onTimeout: () => Effect.Effect<A, E>
): Effect.Effect<A, E> =>
  Effect.clockWith((clock) =>
    Effect.contextWith((context: Context.Context<never>) =>
      Effect.callback<A, E>((resume) => {
        let settled = false
        let cancelTimer: (() => void) | undefined
        const stopWaiting = register((result) => {
          if (settled) return
          settled = true
          cancelTimer?.()
          resume(result)
        })
        if (!settled) {
          cancelTimer = timerOn(clock, Duration.fromInputUnsafe(duration), context)?.(() => {
            if (settled) return
            settled = true
            stopWaiting()
            resume(onTimeout())
          })
        }
        return Effect.sync(() => {
          if (settled) return
          settled = true
          cancelTimer?.()
          stopWaiting()
        })
      })
    )
  )

// The run of a handler that had its exit at once: nothing left to cancel.
const settledRun: Running = { cancel: () => false }

// An Effect that is an Exit is an Exit of its own success and error types.
const isExitOf = <A, E, R>(effect: Effect.Effect<A, E, R>): effect is Exit.Exit<A, E> => Exit.isExit(effect)

/**
 * The one mechanism under every deadline: starts `evaluate`'s Effect in one
 * fiber run with `context` (a throw is the handler's defect; `span`, when
 * given, is its parent), and settles once, with whichever comes first:
 *
 * - the handler's exit: `onExit(Some(exit))` is called as the handler's fiber
 *   ends (an Effect that answers synchronously, as most do, has answered
 *   before `watch` returns, with no timer set);
 * - the deadline (a timer of `clock`): the handler is interrupted in the
 *   background, and `onExit(None)` is called;
 * - `cancel`: the handler is interrupted in the background, nothing is called.
 *
 * A handler whose Effect is already an `Exit` (`Effect.succeed`, `Effect.fail`,
 * `Effect.void`: a decision made as the handler was called) has that exit at
 * once, without a fiber: there is nothing to run, time or interrupt.
 *
 * `onExit` is a plain function: it runs outside any fiber and must not throw.
 * Nobody waits for a handler that is slow to stop.
 *
 * @internal
 */
export const watch = <A, E, R>(
  context: Context.Context<R>,
  clock: Clock.Clock,
  evaluate: () => Effect.Effect<A, E, R>,
  duration: Duration.Input,
  span: Tracer.AnySpan | undefined,
  onExit: (exit: Option.Option<Exit.Exit<A, E>>) => void
): Running => {
  const effect = evaluateSafely(evaluate)
  if (isExitOf(effect)) {
    onExit(Option.some(effect))
    return settledRun
  }
  return watchFiber(context, clock, effect, duration, span, onExit)
}

// The handler's Effect, built here rather than in its fiber (the same synchronous call either way); a throw is
// its defect.
const evaluateSafely = <A, E, R>(evaluate: () => Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  try {
    return evaluate()
  } catch (defect) {
    return Exit.die(defect)
  }
}

// `watch` of an Effect that is not an Exit: its fiber, its deadline.
const watchFiber = <A, E, R>(
  context: Context.Context<R>,
  clock: Clock.Clock,
  effect: Effect.Effect<A, E, R>,
  duration: Duration.Input,
  span: Tracer.AnySpan | undefined,
  onExit: (exit: Option.Option<Exit.Exit<A, E>>) => void
): Running => {
  let settled = false
  let cancelTimer: (() => void) | undefined
  // The fiber's own exit is a success carrying the handler's (a failing handler is not an unhandled
  // error of its fiber), or its interruption: by `cancel` or the deadline, which have settled the run,
  // or from outside (a runtime going down), which settles it as the handler's defect.
  const handler = Effect.runForkWith(span === undefined ? context : Context.add(context, Tracer.ParentSpan, span))(
    // A handler that returns no Effect is a defect of its fiber, classified like any other failure,
    // never an exception escaping to the caller.
    Effect.exit(Effect.suspend(() => effect))
  )
  handler.addObserver((exit) => {
    if (settled) return
    settled = true
    cancelTimer?.()
    onExit(Option.some(Exit.isSuccess(exit) ? exit.value : Exit.failCause(exit.cause)))
  })
  if (!settled) {
    const startTimer = timerOn(clock, Duration.fromInputUnsafe(duration), context as Context.Context<never>)
    if (startTimer !== undefined) {
      cancelTimer = startTimer(() => {
        if (settled) return
        settled = true
        handler.interruptUnsafe()
        onExit(Option.none())
      })
    }
  }
  return {
    cancel: () => {
      if (settled) return false
      settled = true
      cancelTimer?.()
      handler.interruptUnsafe()
      return true
    }
  }
}

/**
 * The exit of the handler `evaluate` builds, or `None` when the deadline came
 * first (the handler is then interrupted in the background). Interrupting the
 * caller interrupts the handler (in the background) and returns at once. The
 * Effect over {@link watch}.
 *
 * @internal
 */
export const exitWithin = <A, E, R>(
  evaluate: () => Effect.Effect<A, E, R>,
  duration: Duration.Input,
  span?: Tracer.AnySpan
): Effect.Effect<Option.Option<Exit.Exit<A, E>>, never, R> =>
  Effect.clockWith((clock) =>
    Effect.contextWith((context: Context.Context<R>) =>
      Effect.callback<Option.Option<Exit.Exit<A, E>>>((resume) => {
        const running = watch(context, clock, evaluate, duration, span, (exit) => resume(Effect.succeed(exit)))
        return Effect.sync(running.cancel)
      })
    )
  )
