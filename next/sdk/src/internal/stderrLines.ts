/**
 * A session's stderr as a stream of lines that any number of readers can
 * follow, and that never holds the CLI back.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import * as Scope from "effect/Scope"
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
export const make: Effect.Effect<StderrLines, never, Scope.Scope> = Effect.suspend(() => {
  // Until the first reader comes, the lines wait in a plain array (most sessions never read them): the
  // hub is made then, in the session's scope, and starts with them.
  let buffered: Array<string> = []
  let ended = false
  let hub: PubSub.PubSub<string | null> | undefined
  const makeHub: Effect.Effect<PubSub.PubSub<string | null>> = Effect.suspend(() =>
    hub !== undefined ? Effect.succeed(hub) : Effect.flatMap(
      PubSub.sliding<string | null>({ capacity: bufferedLines, replay: bufferedLines }),
      (made) => {
        // Made once: a reader that came meanwhile finds it set.
        if (hub !== undefined) return Effect.as(PubSub.shutdown(made), hub)
        hub = made
        const lines: Array<string | null> = ended ? [...buffered, null] : buffered
        buffered = []
        return Effect.as(PubSub.publishAll(made, lines), made)
      }
    )
  )
  const publish = (text: string): Effect.Effect<void> =>
    Effect.suspend(() => {
      const lines = text.split("\n")
      lines.pop() // after the last newline
      const clean = lines.map((line) => line.endsWith("\r") ? line.slice(0, -1) : line)
      if (hub !== undefined) return Effect.asVoid(PubSub.publishAll(hub, clean))
      for (const line of clean) buffered.push(line)
      if (buffered.length > bufferedLines) buffered = buffered.slice(-bufferedLines)
      return Effect.void
    })
  // Shut down with the session's scope, where `make` ran: after what was added since (the CLI's shutdown
  // publishes its last lines first).
  // Added as it is (it needs none of the fiber refs `Effect.addFinalizer` would restore for it).
  return Effect.as(
    Effect.flatMap(
      Effect.scope,
      (scope) => Scope.addFinalizer(scope, Effect.suspend(() => hub === undefined ? Effect.void : PubSub.shutdown(hub)))
    ),
    {
      publish,
      end: Effect.suspend(() => {
        ended = true
        return hub !== undefined ? Effect.asVoid(PubSub.publish(hub, null)) : Effect.void
      }),
      lines: Stream.unwrap(Effect.map(
        makeHub,
        (made) => Stream.fromPubSub(made).pipe(Stream.takeWhile((line): line is string => line !== null))
      ))
    }
  )
})

/** Lines that have already ended: a session whose CLI process came from the calling context. @internal */
export const ended: Effect.Effect<StderrLines, never, Scope.Scope> = Effect.tap(make, (lines) => lines.end)
