/**
 * The session pool: `size` slots, each a fiber that warms one session (spawn
 * and initialize handshake), offers it, and warms the next as soon as it is
 * claimed or its process dies while it waits. Claims are served oldest
 * session first; a claim that finds none waits for the next warm-up, and
 * fails with the warm-up's own error when none is under way.
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as SubscriptionRef from "effect/SubscriptionRef"
import type * as HookRegistry from "../HookRegistry.js"
import type { Session } from "../Session.js"
import type * as SessionPool from "../SessionPool.js"
import { type ClaudeError, SessionPoolError } from "./claudeError.js"
import { currentHooks } from "./hookRegistry.js"
import * as InternalSession from "./session.js"

/**
 * What the pool is made from: everything that needs the public modules'
 * values (the `ClaudeCode` service, the permission gate's tag) arrives here
 * resolved.
 *
 * @internal
 */
export interface PoolEnvironment {
  readonly size: number
  /**
   * How long after a claim its replacement starts warming; without one, by the rule of {@link refillLatest}.
   */
  readonly refillDelay: Option.Option<Duration.Duration>
  /** Starts one session in the current scope: spawn, initialize. Run in the pool's context. */
  readonly start: Effect.Effect<Session, ClaudeError, Scope.Scope>
  /** The permission gate the pool's sessions answer with, if any. */
  readonly gate: unknown
  /** The permission gate of the calling context, if any. */
  readonly claimerGate: Effect.Effect<Option.Option<unknown>>
  /**
   * Decodes what a claim asks for (before a session is taken), and gives what applies it to the claimed
   * session over the control channel: `undefined` when it asks for nothing.
   */
  readonly prepareClaim: (
    options: SessionPool.ClaimOptions
  ) => Effect.Effect<((session: Session) => Effect.Effect<void, ClaudeError>) | undefined, ClaudeError>
}

/**
 * How long a slot waits before warming again after a failed warm-up: from
 * 200 ms, doubling, at most 30 s; back to the start after a success.
 */
const warmupRetry = Schedule.exponential(Duration.millis(200), 2).pipe(
  Schedule.modifyDelay(({ duration }) => Effect.succeed(Duration.min(duration, Duration.seconds(30))))
)

/**
 * When a claim's replacement starts warming, given no `refillDelay`: once the claimed session has read its first
 * message from the CLI since the claim, so that the replacement's spawn (which holds the event loop for a few
 * milliseconds) and start-up (a few hundred milliseconds of CPU) do not delay that message; at once when another
 * claim is waiting for a session; and at the latest this long after the claim, for a claimer that sends nothing.
 */
const refillLatest = Duration.seconds(1)

type SlotState = "warming" | "ready" | "cooling"

interface Entry {
  readonly session: Session
  readonly scope: Scope.Closeable
  readonly slot: Slot
  state: "ready" | "claimed" | "dead"
  /** Completed when the entry is claimed: its slot then warms the next one. */
  readonly claimed: Deferred.Deferred<void>
  /** Completed when the claimed session has read a message from its CLI since the claim. */
  readonly heard: Deferred.Deferred<void>
}

interface Slot {
  state: SlotState
}

type Waiter = Deferred.Deferred<Entry, ClaudeError>

const isWarming = (slot: Slot) => slot.state === "warming"

/** @internal */
export const make = (
  env: PoolEnvironment
): Effect.Effect<SessionPool.SessionPool.Service, never, Scope.Scope> =>
  Effect.gen(function*() {
    const outer = yield* Effect.scope
    // Every session the pool starts lives in a scope of its own below this one, claimed ones included:
    // their handlers run in the pool's context, so none outlives the pool.
    const poolScope = yield* Scope.make("parallel")
    // Hook registrations are Context entries: those of the pool's context, seen by every session it starts.
    const poolHooks: ReadonlySet<HookRegistry.HookRegistration> = new Set(yield* currentHooks)

    const slots: Array<Slot> = Array.from({ length: env.size }, () => ({ state: "warming" }))
    const ready: Array<Entry> = []
    const waiters: Array<Waiter> = []
    // Slots whose replacement waits for its moment (see refillLatest): a claim that has to wait starts one now.
    const pendingRefills: Array<() => void> = []
    const refillNow = (): void => {
      pendingRefills.shift()?.()
    }
    // The last warm-up failure, until a warm-up succeeds.
    let failure: Cause.Cause<ClaudeError> | undefined
    let closed = false

    const snapshot = (): SessionPool.Status => ({
      size: env.size,
      ready: ready.map((entry) => entry.session.pid),
      warming: slots.filter(isWarming).length,
      failure: Option.fromNullishOr(failure)
    })
    const status = yield* SubscriptionRef.make(snapshot())
    const publish = SubscriptionRef.update(status, snapshot)

    /** Marks `entry` claimed, at the instant of the claim: its slot then warms the next one. */
    const claimEntry = (entry: Entry): void => {
      entry.state = "claimed"
      entry.slot.state = "warming"
      InternalSession.poolSignals.get(entry.session)?.onNextMessage(() => Deferred.doneUnsafe(entry.heard, Exit.void))
      Deferred.doneUnsafe(entry.claimed, Exit.void)
    }

    /** Hands `entry` to the longest-waiting claimer, or puts it on the shelf. Synchronous: one step. */
    const offer = (entry: Entry): void => {
      const waiter = waiters.shift()
      if (waiter === undefined) {
        entry.slot.state = "ready"
        ready.push(entry)
        return
      }
      claimEntry(entry)
      Deferred.doneUnsafe(waiter, Exit.succeed(entry))
    }

    /** Fails every waiting claimer: nothing under way could serve them. */
    const failWaiters = (cause: Cause.Cause<ClaudeError>): void => {
      for (const waiter of waiters.splice(0)) Deferred.doneUnsafe(waiter, Exit.failCause(cause))
    }

    const warmOne = (slot: Slot) =>
      Effect.gen(function*() {
        slot.state = "warming"
        yield* publish
        const scope = yield* Scope.fork(poolScope, "sequential")
        const started = yield* Effect.exit(Scope.provide(env.start, scope))
        if (Exit.isFailure(started)) {
          yield* Scope.close(scope, started)
          failure = started.cause
          slot.state = "cooling"
          // Published before the waiters fail: a claimer that gets this failure sees it in the status (effect 4 may
          // run the woken claimer before this fiber's next step).
          yield* publish
          // Claimers wait for a warm-up under way; with none left, they get this one's failure.
          if (ready.length === 0 && !slots.some(isWarming)) failWaiters(started.cause)
          yield* Effect.logWarning("a session pool's warm-up failed; retrying", started.cause)
          return false
        }
        failure = undefined
        const entry: Entry = {
          session: started.value,
          scope,
          slot,
          state: "ready",
          claimed: yield* Deferred.make<void>(),
          heard: yield* Deferred.make<void>()
        }
        offer(entry)
        yield* publish
        // Until it is claimed, or its process dies while it waits: then it is replaced.
        const exited = InternalSession.poolSignals.get(entry.session)?.exited ?? Effect.never
        const claimed = yield* Effect.raceFirst(
          Effect.as(Deferred.await(entry.claimed), true),
          Effect.as(exited, false)
        )
        if (claimed) yield* awaitRefillMoment(entry)
        if (!claimed && entry.state === "ready") {
          entry.state = "dead"
          ready.splice(ready.indexOf(entry), 1)
          yield* Effect.logDebug(`a pooled session's CLI (pid ${entry.session.pid}) exited while idle; replacing it`)
          yield* Scope.close(scope, Exit.void)
        }
        return true
      })

    const awaitRefillMoment = (entry: Entry): Effect.Effect<void> => {
      if (Option.isSome(env.refillDelay)) {
        return Duration.isGreaterThan(env.refillDelay.value, Duration.zero)
          ? Effect.sleep(env.refillDelay.value)
          : Effect.void
      }
      if (waiters.length > 0) return Effect.void
      const demanded = Effect.callback<void>((resume) => {
        const wake = () => resume(Effect.void)
        pendingRefills.push(wake)
        return Effect.sync(() => {
          const index = pendingRefills.indexOf(wake)
          if (index !== -1) pendingRefills.splice(index, 1)
        })
      })
      return Effect.raceAll([Deferred.await(entry.heard), demanded, Effect.sleep(refillLatest)]).pipe(
        // The claimer's fiber, woken by the same message, takes it before the spawn holds the event loop.
        Effect.andThen(Effect.yieldNow)
      )
    }

    const runSlot = (slot: Slot) =>
      Effect.gen(function*() {
        // A fresh step after each success: the retry's delays start again from 200 ms.
        let retry = yield* Schedule.toStepWithSleep(warmupRetry)
        while (true) {
          if (yield* warmOne(slot)) retry = yield* Schedule.toStepWithSleep(warmupRetry)
          else yield* Effect.orDie(retry(void 0))
        }
      })

    // The slots run detached, stopped by the pool's finalizer, which is in place before the first one starts.
    const fibers: Array<Fiber.Fiber<never>> = []
    yield* Scope.addFinalizer(
      outer,
      Effect.gen(function*() {
        closed = true
        failWaiters(Cause.fail(poolClosed()))
        yield* Fiber.interruptAll(fibers)
        // Closes every session the pool started: ready, claimed, and those being warmed when it closed.
        yield* Scope.close(poolScope, Exit.void)
        ready.length = 0
        yield* publish
      })
    )
    // Forked from an uninterruptible region, a fiber would inherit it: the slots are made interruptible again.
    yield* Effect.uninterruptible(
      Effect.forEach(
        slots,
        (slot) => Effect.map(Effect.forkDetach(Effect.interruptible(runSlot(slot))), (fiber) => fibers.push(fiber))
      )
    )

    const checkHandlers = Effect.gen(function*() {
      const gate = yield* env.claimerGate
      if (Option.isSome(gate) && gate.value !== env.gate) {
        return yield* new SessionPoolError({
          reason: "HandlersMismatch",
          detail:
            `the claiming context provides a PermissionGate, and the pool's sessions were started ${
              env.gate === undefined ? "without one" : "with another"
            }. A pooled session's handlers are those of the pool's context, fixed when its process starts: ` +
            "provide the gate where the pool is built (SessionPool.layer(...).pipe(Layer.provide(gate))), " +
            "or open this session cold with ClaudeCode.session"
        })
      }
      const hooks = yield* currentHooks
      const extra = hooks.filter((hook) => hook.active.current && !poolHooks.has(hook))
      if (extra.length > 0) {
        return yield* new SessionPoolError({
          reason: "HandlersMismatch",
          detail: `the claiming context registers hooks the pool's sessions were not started with (${
            extra.map((hook) => hook.name).join(", ")
          }). A pooled session's hooks are those of the pool's context, registered when its process starts: ` +
            "provide the hook layers where the pool is built, or open this session cold with ClaudeCode.session"
        })
      }
    })

    /** Takes the oldest ready session, or waits for the next warm-up. The entry is the caller's once taken. */
    const take = Effect.suspend((): Effect.Effect<Entry, ClaudeError> => {
      // One synchronous step from looking at the shelf to joining the queue: a session offered in between
      // would otherwise wait on the shelf while its claimer waits in the queue.
      if (closed) return Effect.fail(poolClosed())
      const entry = ready.shift()
      if (entry !== undefined) {
        claimEntry(entry)
        return Effect.as(publish, entry)
      }
      if (failure !== undefined && !slots.some(isWarming)) return Effect.failCause(failure)
      const waiter = Deferred.makeUnsafe<Entry, ClaudeError>()
      waiters.push(waiter)
      refillNow()
      return Deferred.await(waiter).pipe(
        Effect.onInterrupt(() =>
          Effect.suspend(() => {
            const index = waiters.indexOf(waiter)
            if (index !== -1) waiters.splice(index, 1)
            // Handed a session in the same instant: it is nobody's, close it.
            return Effect.flatMap(Deferred.poll(waiter), (handed) =>
              Option.isSome(handed)
                ? Effect.flatMap(handed.value, (entry) => Scope.close(entry.scope, Exit.void)).pipe(Effect.ignore)
                : Effect.void)
          })
        )
      )
    })

    const claim = (options: SessionPool.ClaimOptions = {}) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.gen(function*() {
          yield* checkHandlers
          const apply = yield* env.prepareClaim(options)
          const entry = yield* restore(take)
          // From here the session belongs to the claimer's scope (and still closes with the pool).
          yield* Effect.addFinalizer((exit) => Scope.close(entry.scope, exit))
          if (apply !== undefined) {
            yield* restore(apply(entry.session)).pipe(
              Effect.onError((cause) => Scope.close(entry.scope, Exit.failCause(cause)))
            )
          }
          return entry.session
        })
      )

    return {
      claim,
      status: SubscriptionRef.get(status),
      changes: SubscriptionRef.changes(status)
    }
  })

const poolClosed = () =>
  new SessionPoolError({
    reason: "Closed",
    detail: "the pool's scope has ended (its layer was released); claim from a pool that is still open"
  })
