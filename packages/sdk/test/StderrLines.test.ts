/**
 * A session's stderr lines (`session.stderr`) on their own: what any number of readers get, early or late,
 * fast or slow, and that publishing never waits for them. The same behaviours on the real CLI, through a
 * session, come with the session's port (Stderr.test.ts).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as StderrLines from "../src/internal/stderrLines.js"

const numbered = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `line ${from + i}\n`).join("")

describe("stderr lines", () => {
  it.effect("a reader that starts late gets the last 1,024 lines first; after the end, the last ones and the end", () =>
    Effect.gen(function*() {
      const stderr = yield* StderrLines.make
      yield* stderr.publish(numbered(0, 3000))
      yield* stderr.publish("crlf\r\nnot yet a line")
      const lines = yield* Stream.runCollect(Stream.take(stderr.lines, StderrLines.bufferedLines))
      assert.strictEqual(lines[0], `line ${3001 - StderrLines.bufferedLines}`)
      assert.strictEqual(lines.at(-1), "crlf", "a CRLF line without its CR; the unterminated rest is not a line yet")
      yield* stderr.end
      // (the end takes one of the places kept, as in effect 3)
      const afterTheEnd = yield* Stream.runCollect(stderr.lines)
      assert.deepStrictEqual(afterTheEnd, lines.slice(1))
    }))

  it.live("a reader that follows gets each line as it comes; one that falls behind loses the oldest it has not read", () =>
    Effect.gen(function*() {
      const stderr = yield* StderrLines.make
      const fast = yield* Effect.forkChild(Stream.runCollect(stderr.lines), { startImmediately: true })
      const slow = yield* stderr.lines.pipe(
        Stream.mapEffect((line) => Effect.as(Effect.sleep("1 millis"), line)),
        Stream.runCollect,
        Effect.forkChild({ startImmediately: true })
      )
      yield* Effect.sleep("20 millis")
      // Never waits for a reader: 6,000 lines in one go, while the slow reader takes a millisecond each.
      const started = Date.now()
      for (let n = 0; n < 6000; n += 100) yield* stderr.publish(numbered(n, n + 100))
      yield* stderr.end
      assert.isBelow(Date.now() - started, 1_000)
      const all = yield* Fiber.join(fast)
      assert.strictEqual(all.length, 6000)
      const kept = (yield* Fiber.join(slow)).map((line) => Number(line.slice(5)))
      assert.isBelow(kept.length, 6000)
      assert.strictEqual(kept.at(-1), 5999, "the newest lines are kept")
      assert.isTrue(kept.some((n, i) => i > 0 && n > kept[i - 1]! + 1), "a gap")
      assert.deepStrictEqual(kept, [...kept].sort((a, b) => a - b), "in order, what was dropped was older")
    }))

  it.effect("lines that have already ended (a provided CliProcess): a reader ends at once", () =>
    Effect.gen(function*() {
      const stderr = yield* StderrLines.ended
      assert.deepStrictEqual(yield* Stream.runCollect(stderr.lines), [])
    }))
})
