/**
 * NDJSON framing for the CLI's stdout: UTF-8 decoding that keeps multi-byte
 * characters split across chunks intact, and line splitting with a size guard
 * that fails with a typed error instead of growing without bound or cutting a
 * line (which would lose data).
 *
 * @internal
 */
import type * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Pull from "effect/Pull"
import * as Stream from "effect/Stream"
import { StringDecoder } from "node:string_decoder"
import type * as CliSpawner from "../CliSpawner.js"
import { ProtocolError } from "./claudeError.js"
import * as Redaction from "./redaction.js"

/** How much of an offending line an error keeps for display. */
export const DISPLAY_CHARS = 500

/** @internal */
export const truncateForDisplay = (line: string): string =>
  line.length <= DISPLAY_CHARS ? line : `${line.slice(0, DISPLAY_CHARS)}… (${line.length - DISPLAY_CHARS} more chars)`

/**
 * The framing state of one byte stream: UTF-8 decoding that keeps a character
 * split across chunks intact, and line splitting under the size guard.
 * Pending text is kept as a rope (V8 concatenates without copying), flattened
 * once per line, so a 20 MB line costs one copy rather than one per chunk.
 *
 * @internal
 */
export interface Framer {
  /** Adds the lines `bytes` completes to `out`; the error of a line past the guard. */
  readonly push: (bytes: Uint8Array, out: Array<string>) => ProtocolError | undefined
  /** At the end of the bytes: the last line, even without a newline (the CLI may die mid-write). */
  readonly end: (out: Array<string>) => ProtocolError | undefined
}

/** @internal */
export const makeFramer = (maxLineChars: number, redactor: Redaction.Redactor = Redaction.none): Framer => {
  // Node's native decoder keeps a character split across chunks as TextDecoder's stream mode does, for
  // less per chunk: every byte of stdout goes through it.
  const decoder = new StringDecoder("utf8")
  // The start of a line that spans chunks, kept by concatenation: V8 makes it a rope of the chunks' text,
  // flattened once, by whoever reads the line. A join copies into a buffer that grows as it goes: framing a
  // 20 MB line (35 MB as a JS string) peaked at 113 MB of heap that way, 77 MB with the rope.
  let pending = ""

  // Redacted before it is cut for display (a secret cut in two would escape redaction).
  const tooLong = (sample: string, length: number) =>
    new ProtocolError({
      reason: "LineTooLong",
      line: truncateForDisplay(redactor.redact(sample.slice(0, DISPLAY_CHARS + redactor.longest + 1))),
      lineLength: length,
      detail: `a line exceeded the ${maxLineChars} character guard (maxLineChars option)`
    })

  const takeLine = (tail: string): string => {
    const line = pending.length === 0 ? tail : pending + tail
    pending = ""
    return line.endsWith("\r") ? line.slice(0, -1) : line
  }

  // The lines completed by `text`, or the error of a line past the guard.
  const split = (text: string, out: Array<string>): ProtocolError | undefined => {
    let start = 0
    let index = text.indexOf("\n", start)
    while (index !== -1) {
      if (pending.length + index - start > maxLineChars) {
        return tooLong(pending + text.slice(start, index), pending.length + index - start)
      }
      out.push(takeLine(text.slice(start, index)))
      start = index + 1
      index = text.indexOf("\n", start)
    }
    if (start < text.length) {
      const rest = start === 0 ? text : text.slice(start)
      pending += rest
      if (pending.length > maxLineChars) return tooLong(pending, pending.length)
    }
    return undefined
  }

  return {
    push: (bytes, out) => split(decoder.write(bytes), out),
    end: (out) => {
      const error = split(decoder.end(), out)
      if (error !== undefined) return error
      if (pending.length > 0) out.push(takeLine(""))
      return undefined
    }
  }
}

/**
 * Decodes a byte stream as UTF-8 and splits it into lines, in one stream
 * stage (each stage costs a pull per chunk, and on a control request's path
 * every line is a chunk of its own). `maxLineChars` bounds a single line.
 *
 * A failing source ends the lines (after the last, unterminated one): for a
 * child's stdout, a read error means the pipe is gone, and the exit status
 * says why.
 *
 * @internal
 */
export const frameLines = (maxLineChars: number, redactor: Redaction.Redactor = Redaction.none) =>
<E, R>(
  self: Stream.Stream<Uint8Array, E, R>
): Stream.Stream<string, ProtocolError, R> =>
  Stream.transformPull(self, (upstream) =>
    Effect.sync(() => {
      const framer = makeFramer(maxLineChars, redactor)
      let ended = false
      // The source's end or failure: the last line, once, then the end.
      const end = Effect.suspend((): Pull.Pull<Arr.NonEmptyReadonlyArray<string>, ProtocolError> => {
        if (ended) return Cause.done()
        ended = true
        const out: Array<string> = []
        const error = framer.end(out)
        if (error !== undefined) return Effect.fail(error)
        return isNonEmpty(out) ? Effect.succeed(out) : Cause.done()
      })
      const pull: Pull.Pull<Arr.NonEmptyReadonlyArray<string>, ProtocolError> = Effect.suspend(() =>
        ended ? Cause.done() : Effect.matchEffect(upstream, {
          onFailure: () => end,
          onSuccess: (chunk) => {
            const out: Array<string> = []
            for (const bytes of chunk) {
              const error = framer.push(bytes, out)
              if (error !== undefined) return Effect.fail(error)
            }
            // A chunk that completes no line: pull the next one.
            return isNonEmpty(out) ? Effect.succeed(out) : pull
          }
        })
      )
      return pull
    }))

const isNonEmpty = <A>(array: Array<A>): array is Arr.NonEmptyArray<A> => array.length > 0

/**
 * Pulls `pull` in the caller's fiber, one chunk at a time: `f` gets each chunk,
 * `end` gets how the source stopped (`None` at its end, else its error). A
 * stream run adds a sink stage and a fiber of its own, and its setup and
 * teardown cost more than this loop's (a session reads two pipes of its CLI
 * this way).
 */
const pullEach = <A, E, R, E2, R2, E3, R3>(
  pull: Pull.Pull<Arr.NonEmptyReadonlyArray<A>, E, void, R>,
  f: (chunk: Arr.NonEmptyReadonlyArray<A>) => Effect.Effect<void, E2, R2>,
  end: (stopped: Option.Option<E>) => Effect.Effect<void, E3, R3>
): Effect.Effect<void, E2 | E3, R | R2 | R3> => {
  const loop: Effect.Effect<void, E2 | E3, R | R2 | R3> = Effect.matchEffect(pull, {
    onFailure: (error) => end(Cause.isDone(error) ? Option.none() : Option.some(error as E)),
    onSuccess: (chunk) => {
      // Most chunks leave nothing to run (the router routes its lines as they are framed): go on at once.
      const next = f(chunk)
      return next === Effect.void ? loop : Effect.andThen(next, loop)
    }
  })
  return loop
}

/**
 * `Stream.runForEachArray` over a pull (`Stream.toPull`'s), as a loop in the
 * caller's fiber (see {@link pullEach}). Ends with the source, fails with it,
 * or with `f`.
 *
 * @internal
 */
export const forEachChunk = <A, E, R, E2, R2>(
  pull: Pull.Pull<Arr.NonEmptyReadonlyArray<A>, E, void, R>,
  f: (chunk: Arr.NonEmptyReadonlyArray<A>) => Effect.Effect<void, E2, R2>
): Effect.Effect<void, E | E2, R | R2> =>
  pullEach(pull, f, (stopped) => Option.isNone(stopped) ? Effect.void : Effect.fail(stopped.value))

/**
 * The lines of a byte source that pushes its chunks (`CliSpawner.SpawnedProcess.pushStdout`): each chunk
 * is framed and its lines handed to `onLines` as the chunk arrives, outside any fiber, so reading costs no
 * fiber step per chunk. The Effect `onLines` returns for a batch runs in the caller's fiber, in order
 * (`Effect.void`, the common answer, runs nothing). The same lines, end and failures as
 * {@link readLines}; the caller's fiber waits for the end, and interrupting it stops the reading.
 *
 * @internal
 */
export const pushLines = (
  push: (receiver: CliSpawner.StdoutReceiver) => () => void,
  maxLineChars: number,
  redactor: Redaction.Redactor = Redaction.none
) =>
<E2, R2>(
  onLines: (lines: ReadonlyArray<string>) => Effect.Effect<void, E2, R2>
): Effect.Effect<void, ProtocolError | E2, R2> =>
  Effect.suspend(() => {
    const framer = makeFramer(maxLineChars, redactor)
    // What the caller's fiber has to run, in order: the Effects of batches, then how the reading ended.
    const queued: Array<Effect.Effect<void, ProtocolError | E2, R2>> = []
    let finished: Effect.Effect<void, ProtocolError | E2> | undefined
    let wake: (() => void) | undefined
    const notify = () => {
      const resume = wake
      wake = undefined
      resume?.()
    }
    const handOver = (lines: Array<string>) => {
      if (lines.length === 0) return
      const effect = onLines(lines)
      if (effect === Effect.void) return
      queued.push(effect)
      notify()
    }
    // Set once `push` has returned (it hands over what was read before, which may end the reading).
    let unsubscribe: (() => void) | undefined = undefined
    const stop = () => unsubscribe?.()
    const finish = (how: Effect.Effect<void, ProtocolError | E2>) => {
      if (finished !== undefined) return
      finished = how
      stop()
      notify()
    }
    // Frames one step (a chunk, or the end) and hands its lines over; a framing error or a throw ends the reading.
    const frame = (step: (out: Array<string>) => ProtocolError | undefined, last: boolean) => {
      if (finished !== undefined) return
      try {
        const out: Array<string> = []
        const error = step(out)
        if (error !== undefined) return finish(Effect.fail(error))
        handOver(out)
        if (last) finish(Effect.void)
      } catch (defect) {
        finish(Effect.die(defect))
      }
    }
    unsubscribe = push({
      chunk: (bytes) => frame((out) => framer.push(bytes, out), false),
      end: () => frame((out) => framer.end(out), true)
    })
    if (finished !== undefined) stop()
    // Woken for a queued Effect or the end; no canceler: interrupting the wait stops the reading (below).
    const next = Effect.callback<void>((resume) => {
      if (queued.length > 0 || finished !== undefined) return resume(Effect.void)
      wake = () => resume(Effect.void)
    })
    const loop: Effect.Effect<void, ProtocolError | E2, R2> = Effect.suspend(() => {
      const first = queued.shift()
      if (first !== undefined) return Effect.andThen(first, loop)
      if (finished !== undefined) return finished
      return Effect.andThen(next, loop)
    })
    return Effect.ensuring(
      Effect.tapCause(loop, () => Effect.sync(() => finish(Effect.void))),
      Effect.sync(stop)
    )
  })

/**
 * The lines of a byte source, pushed: `onLines` gets each batch of lines as
 * it is framed, in the caller's fiber, one batch at a time. The same lines,
 * end and failures as {@link frameLines}, with no stream stage between the
 * source and `onLines` (the source is pulled by the loop of
 * {@link forEachChunk}; its failure ends the lines, as its end does).
 *
 * @internal
 */
export const readLines = <E, R>(
  pull: Pull.Pull<Arr.NonEmptyReadonlyArray<Uint8Array>, E, void, R>,
  maxLineChars: number,
  redactor: Redaction.Redactor = Redaction.none
) =>
<E2, R2>(
  onLines: (lines: ReadonlyArray<string>) => Effect.Effect<void, E2, R2>
): Effect.Effect<void, ProtocolError | E2, R | R2> =>
  Effect.suspend(() => {
    const framer = makeFramer(maxLineChars, redactor)
    return pullEach(
      pull,
      (chunk): Effect.Effect<void, ProtocolError | E2, R2> => {
        const out: Array<string> = []
        for (const bytes of chunk) {
          const error = framer.push(bytes, out)
          if (error !== undefined) return Effect.fail(error)
        }
        return out.length > 0 ? onLines(out) : Effect.void
      },
      () =>
        Effect.suspend((): Effect.Effect<void, ProtocolError | E2, R2> => {
          const out: Array<string> = []
          const error = framer.end(out)
          return error !== undefined ? Effect.fail(error) : out.length > 0 ? onLines(out) : Effect.void
        })
    )
  })
