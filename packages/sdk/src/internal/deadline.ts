/**
 * Running a handler under a deadline: the one mechanism behind every hook,
 * permission, MCP tool and command-hook timeout.
 *
 * `Effect.disconnect` + `Effect.timeoutFail` did the same with four fibers
 * and a race that waits for the loser's interruption; on the control-request
 * hot path that was the largest single cost. Here the handler runs in one
 * daemon fiber, started at once in the caller's turn (so a handler that
 * answers synchronously, as most do, costs no trip through the scheduler);
 * the caller waits on its observer and on a timer, and whichever loses is
 * stopped in the background, so the answer never waits for a handler that is
 * slow to stop.
 *
 * The timer is the current `Clock`'s: with the live clock a plain timer, with
 * any other (a `TestClock`) a fiber sleeping on that clock.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Tracer from "effect/Tracer"

// Timers beyond this many milliseconds never fire in Node (the live clock treats them as infinite too).
const MAX_TIMER_MILLIS = 2 ** 31 - 1

const LiveClock = Clock.make().constructor

interface Timer {
  readonly start: (onFire: () => void) => void
  readonly cancel: () => void
}

const liveTimer = (millis: number): Timer => {
  let handle: ReturnType<typeof setTimeout> | undefined
  return {
    start: (onFire) => {
      handle = setTimeout(onFire, millis)
    },
    cancel: () => clearTimeout(handle)
  }
}

const sleepingFiber = (fiber: Fiber.RuntimeFiber<void>): Timer => {
  let observer: ((exit: Exit.Exit<void>) => void) | undefined
  return {
    start: (onFire) => {
      observer = (exit) => {
        if (Exit.isSuccess(exit)) onFire()
      }
      fiber.addObserver(observer)
    },
    cancel: () => {
      if (observer !== undefined) fiber.removeObserver(observer)
      fiber.unsafeInterruptAsFork(FiberId.none)
    }
  }
}

const timerFor = (deadline: Duration.Duration): Effect.Effect<Timer | undefined> =>
  Effect.clockWith((clock) => {
    const millis = Duration.toMillis(deadline)
    if (!Duration.isFinite(deadline) || millis > MAX_TIMER_MILLIS) return Effect.succeed(undefined)
    return clock.constructor === LiveClock
      ? Effect.succeed(liveTimer(millis))
      : Effect.map(Effect.forkDaemon(Effect.interruptible(clock.sleep(deadline))), sleepingFiber)
  })

/**
 * The exit of the handler `evaluate` builds, or `None` when the deadline
 * came first (the handler is then interrupted in the background). `evaluate`
 * runs inside the handler's fiber: a throw is that fiber's defect. Interrupting the caller interrupts
 * the handler in the background and returns at once.
 *
 * `span`, when given, is the handler's parent span: it is placed in the
 * handler fiber's context as that fiber is created, which costs less than
 * `Effect.withParentSpan` around the call.
 *
 * @internal
 */
export const exitWithin = <A, E, R>(
  evaluate: () => Effect.Effect<A, E, R>,
  duration: Duration.DurationInput,
  span?: Tracer.AnySpan
): Effect.Effect<Option.Option<Exit.Exit<A, E>>, never, R> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(
      Effect.map(Effect.runtime<R>(), (runtime) =>
        Runtime.runFork(
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
        )),
      (handler) => Effect.flatMap(timerFor(Duration.decode(duration)), (timer) => restore(race(handler, timer)))
    )
  )

const race = <A, E>(
  handler: Fiber.RuntimeFiber<A, E>,
  timer: Timer | undefined
): Effect.Effect<Option.Option<Exit.Exit<A, E>>> =>
  Effect.async<Option.Option<Exit.Exit<A, E>>>((resume) => {
    let settled = false
    const onHandler = (exit: Exit.Exit<A, E>) => {
      if (settled) return
      settled = true
      timer?.cancel()
      resume(Effect.succeed(Option.some(exit)))
    }
    handler.addObserver(onHandler)
    if (!settled) {
      timer?.start(() => {
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
      timer?.cancel()
    })
  })
