/**
 * The queue in front of a child's stdin: lines are offered without waiting,
 * from anywhere (a fiber, or none: the router answers a control request as
 * its handler ends), and one long-lived writer takes everything queued at
 * once, as a stream of chunks for the process's stdin sink.
 *
 * effect 4's `Queue` with `Stream.fromQueue` (a take of everything queued,
 * offers without a fiber through `offerUnsafe`): effect 3's `Mailbox` cost
 * twice the runtime steps per wake-up, which a hand-made queue worked around.
 *
 * @internal
 */
import type * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"

/** @internal */
export interface WriteQueue<A> {
  /** Queues an item; `false` once the queue has ended (the item is dropped). */
  readonly offer: (item: A) => boolean
  /** Ends the queue: the stream ends once everything queued before has been taken. Idempotent. */
  readonly end: () => void
  /** Everything offered, in order, in chunks of what had queued up. Single consumer, run once. */
  readonly stream: Stream.Stream<A>
}

/** @internal */
export const make = <A>(): Effect.Effect<WriteQueue<A>> =>
  Effect.map(Queue.unbounded<A, Cause.Done>(), (queue) => ({
    offer: (item) => Queue.offerUnsafe(queue, item),
    end: () => void Queue.endUnsafe(queue),
    stream: Stream.fromQueue(queue)
  }))
