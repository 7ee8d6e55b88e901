/**
 * A session's stderr as a stream of lines that any number of readers can
 * follow, and that never holds the CLI back.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"

/**
 * How many lines are kept: for a reader that has fallen behind (the oldest
 * unread lines are dropped beyond it), and for a reader that starts late (it
 * gets the last ones first).
 *
 * @internal
 */
export const bufferedLines = 1024

/** @internal */
export interface StderrLines {
  /** Takes a text of whole lines (each ending in a newline), already redacted. */
  readonly publish: (text: string) => Effect.Effect<void>
  /** Stderr has closed: every reader ends after the lines it has. */
  readonly end: Effect.Effect<void>
  /** The lines, without their newline: the last {@link bufferedLines} so far, then each as it comes. */
  readonly lines: Stream.Stream<string>
}

/**
 * Sliding, not dropping: when a reader falls behind, the newest lines are
 * the ones it keeps, because what the CLI said last is what explains what
 * it does now (the reason the exit error keeps the tail). Never
 * back-pressure: publishing never waits, so the drain of the pipe never
 * stops and the CLI is never blocked on a full stderr.
 *
 * @internal
 */
export const make: Effect.Effect<StderrLines, never, Scope.Scope> = Effect.gen(function*() {
  // `null` ends the readers; as the newest item it is never the one a sliding buffer drops.
  const pubsub = yield* Effect.acquireRelease(
    PubSub.sliding<string | null>({ capacity: bufferedLines, replay: bufferedLines }),
    PubSub.shutdown
  )
  const publish = (text: string): Effect.Effect<void> => {
    const lines = text.split("\n")
    lines.pop() // after the last newline
    return Effect.asVoid(PubSub.publishAll(pubsub, lines.map((line) => line.endsWith("\r") ? line.slice(0, -1) : line)))
  }
  return {
    publish,
    end: Effect.asVoid(PubSub.publish(pubsub, null)),
    lines: Stream.fromPubSub(pubsub).pipe(Stream.takeWhile((line): line is string => line !== null))
  }
})

/** Lines that have already ended: a session whose CLI process came from the calling context. @internal */
export const ended: Effect.Effect<StderrLines, never, Scope.Scope> = Effect.tap(make, (lines) => lines.end)
