/**
 * The queue in front of a child's stdin: lines are offered without waiting,
 * from anywhere (a fiber, or none: the router answers a control request as
 * its handler ends), and one long-lived writer takes everything queued at
 * once, as a stream of chunks for the process's stdin sink.
 *
 * A `Mailbox` would do, at about twice the runtime steps per wake-up: its
 * take is guarded against interruption and its offer reaches the writer
 * through two scheduler hops. Here a take is one `Effect.async`, and an
 * offer resumes the waiting writer directly; what is offered before the
 * writer runs is taken with it.
 *
 * @internal
 */
import * as Channel from "effect/Channel"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

/** @internal */
export interface WriteQueue<A> {
  /** Queues an item; `false` once the queue has ended (the item is dropped). */
  readonly offer: (item: A) => boolean
  /** Ends the queue: the stream ends once everything queued before has been taken. Idempotent. */
  readonly end: () => void
  /** Everything offered, in order, in chunks of what had queued up. Single consumer, run once. */
  readonly stream: Stream.Stream<A>
  /** The same, as a channel (to pipe into a sink's without a stream run). */
  readonly channel: Channel.Channel<Chunk.Chunk<A>, unknown, never, unknown, void, unknown>
}

/** @internal */
export const make = <A>(): WriteQueue<A> => {
  let queued: Array<A> = []
  let ended = false
  let waiting: ((take: Effect.Effect<Chunk.Chunk<A> | undefined>) => void) | undefined

  // What has queued up by the time the writer runs, or `undefined` at the end.
  const takeQueued = Effect.sync((): Chunk.Chunk<A> | undefined => {
    if (queued.length === 0) return undefined
    const taken = queued
    queued = []
    return Chunk.unsafeFromArray(taken)
  })

  const wake = () => {
    const resume = waiting
    if (resume !== undefined) {
      waiting = undefined
      resume(takeQueued)
    }
  }

  // No canceler: an interrupted writer's resume is ignored, and what it would have taken stays queued (the
  // take runs only in a resumed fiber). A canceler would wrap every wait in an interruption handler.
  const wait = Effect.async<Chunk.Chunk<A> | undefined>((resume) => {
    waiting = resume
  })
  const take: Effect.Effect<Chunk.Chunk<A> | undefined> = Effect.suspend(() =>
    queued.length > 0 || ended ? takeQueued : wait
  )

  const loop: Channel.Channel<Chunk.Chunk<A>, unknown, never, unknown, void, unknown> = Channel.flatMap(
    Channel.fromEffect(take),
    (chunk) => chunk === undefined ? Channel.void : Channel.zipRight(Channel.write(chunk), loop)
  )

  return {
    offer: (item) => {
      if (ended) return false
      queued.push(item)
      wake()
      return true
    },
    end: () => {
      if (ended) return
      ended = true
      wake()
    },
    stream: Stream.fromChannel(loop),
    channel: loop
  }
}
