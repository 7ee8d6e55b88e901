/**
 * NDJSON framing for the CLI's stdout: UTF-8 decoding that keeps multi-byte
 * characters split across chunks intact, and line splitting with a size guard
 * that fails with a typed error instead of growing without bound or cutting a
 * line (which would lose data).
 *
 * @internal
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { ProtocolError } from "../ClaudeError.js"

/** How much of an offending line an error keeps for display. */
export const DISPLAY_CHARS = 500

/** @internal */
export const truncateForDisplay = (line: string): string =>
  line.length <= DISPLAY_CHARS ? line : `${line.slice(0, DISPLAY_CHARS)}… (${line.length - DISPLAY_CHARS} more chars)`

/**
 * Splits decoded text into lines. Pending text is kept as a list of pieces,
 * joined once per line, so a 20 MB line costs one copy rather than one per
 * chunk. `maxLineChars` bounds a single line.
 *
 * @internal
 */
export const splitLines = (maxLineChars: number) =>
<E, R>(
  self: Stream.Stream<string, E, R>
): Stream.Stream<string, E | ProtocolError, R> =>
  Stream.suspend(() => {
    let pending: Array<string> = []
    let pendingChars = 0

    const tooLong = (sample: string, length: number) =>
      new ProtocolError({
        reason: "LineTooLong",
        line: truncateForDisplay(sample),
        lineLength: length,
        detail: `a line exceeded the ${maxLineChars} character guard (maxLineBytes option)`
      })

    const takeLine = (tail: string): string => {
      const line = pending.length === 0 ? tail : pending.join("") + tail
      pending = []
      pendingChars = 0
      return line.endsWith("\r") ? line.slice(0, -1) : line
    }

    const lines = Stream.mapChunksEffect(self, (chunk) => {
      const out: Array<string> = []
      for (const text of chunk) {
        let start = 0
        let index = text.indexOf("\n", start)
        while (index !== -1) {
          if (pendingChars + index - start > maxLineChars) {
            return Effect.fail(tooLong(pending.join("") + text.slice(start, index), pendingChars + index - start))
          }
          out.push(takeLine(text.slice(start, index)))
          start = index + 1
          index = text.indexOf("\n", start)
        }
        if (start < text.length) {
          const rest = start === 0 ? text : text.slice(start)
          pending.push(rest)
          pendingChars += rest.length
          if (pendingChars > maxLineChars) {
            return Effect.fail(tooLong(pending.join(""), pendingChars))
          }
        }
      }
      return Effect.succeed(Chunk.unsafeFromArray(out))
    })

    // A last line without a newline still counts: the CLI may die mid-write.
    const remainder = Stream.suspend(() => pendingChars > 0 ? Stream.make(takeLine("")) : Stream.empty)
    return Stream.concat(lines, remainder)
  })
