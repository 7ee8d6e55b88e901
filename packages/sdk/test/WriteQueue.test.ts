import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as WriteQueue from "../src/internal/writeQueue.js"

describe("the stdin write queue", () => {
  it.effect("hands the writer every item in order, what queued up together in one chunk, and ends after them", () =>
    Effect.gen(function*() {
      const queue = yield* WriteQueue.make<number>()
      queue.offer(1)
      queue.offer(2)
      const chunks: Array<ReadonlyArray<number>> = []
      const writer = yield* queue.stream.pipe(
        Stream.runForEachArray((chunk) => Effect.sync(() => chunks.push([...chunk]))),
        Effect.forkChild
      )
      while (chunks.length === 0) yield* Effect.yieldNow
      // Offered while the writer waits: taken when it next runs, together.
      queue.offer(3)
      queue.offer(4)
      queue.end()
      assert.isFalse(queue.offer(5), "nothing is queued once the queue has ended")
      yield* Fiber.join(writer)
      assert.deepStrictEqual(chunks, [[1, 2], [3, 4]])
    }))

  it.effect("ends at once when ended empty, and the end is idempotent", () =>
    Effect.gen(function*() {
      const queue = yield* WriteQueue.make<string>()
      queue.end()
      queue.end()
      assert.deepStrictEqual(yield* Stream.runCollect(queue.stream), [])
    }))

  it.effect("a writer interrupted while it waits leaves the queue usable for nobody, without failing an offer", () =>
    Effect.gen(function*() {
      const queue = yield* WriteQueue.make<number>()
      const writer = yield* Effect.forkChild(Stream.runDrain(queue.stream))
      yield* Effect.yieldNow
      yield* Fiber.interrupt(writer)
      assert.isTrue(queue.offer(1))
    }))
})
