import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { Readable } from "node:stream"
import * as LineFraming from "../src/internal/lineFraming.js"
import { readerOf } from "../src/internal/nodeCliSpawner.js"

const encoder = new TextEncoder()

// Any Unicode text: effect's generator draws `.` (dotAll, unicode) from every code point, 4-byte ones included,
// which the cuts split.
const AnyText = Schema.String.check(Schema.isPattern(/^.*$/su))

// `readLines` over a stream's pull, as the CLI's spawner gives stdout.
const readStream =
  <E>(source: Stream.Stream<Uint8Array, E>, maxLineChars: number) =>
  <E2>(onLines: (lines: ReadonlyArray<string>) => Effect.Effect<void, E2>) =>
    Effect.scoped(Effect.flatMap(Stream.toPull(source), (pull) => LineFraming.readLines(pull, maxLineChars)(onLines)))

// `pushLines` over a source that pushes what it read (as NodeCliSpawner pushes stdout): here every chunk
// the stream gives, handed over as reading starts, then its end (a read error ends it too).
const pushStream =
  <E>(source: Stream.Stream<Uint8Array, E>, maxLineChars: number) =>
  <E2>(onLines: (lines: ReadonlyArray<string>) => Effect.Effect<void, E2>) =>
    Effect.flatMap(
      Stream.runCollect(Stream.catch(source, () => Stream.empty)),
      (chunks) =>
        LineFraming.pushLines((receiver) => {
          for (const bytes of chunks) receiver.chunk(bytes)
          receiver.end()
          return () => {}
        }, maxLineChars)(onLines)
    )

const collect = <E>(
  read: (onLines: (lines: ReadonlyArray<string>) => Effect.Effect<void>) => Effect.Effect<void, E>
) =>
  Effect.suspend(() => {
    const lines: Array<string> = []
    return Effect.as(read((batch) => Effect.sync(() => lines.push(...batch))), lines as ReadonlyArray<string>)
  })

// The ways to read lines: pulled (a stream of lines), pushed to a consumer from a pulled source, and pushed
// to a consumer by the source itself.
const readers = {
  pulled: <E>(source: Stream.Stream<Uint8Array, E>, maxLineChars: number) =>
    source.pipe(
      LineFraming.frameLines(maxLineChars),
      Stream.runCollect,
      Effect.map((lines): ReadonlyArray<string> => lines)
    ),
  pushed: <E>(source: Stream.Stream<Uint8Array, E>, maxLineChars: number) => collect(readStream(source, maxLineChars)),
  "pushed by the source": <E>(source: Stream.Stream<Uint8Array, E>, maxLineChars: number) =>
    collect(pushStream(source, maxLineChars))
}

for (const [name, read] of Object.entries(readers)) {
  const frame = (chunks: ReadonlyArray<Uint8Array>, maxLineChars = 1024 * 1024) =>
    read(Stream.fromIterable(chunks), maxLineChars)

  describe(`line framing, ${name}`, () => {
    it.effect("keeps a multi-byte character split across chunks intact", () =>
      Effect.gen(function*() {
        const bytes = encoder.encode("{\"text\":\"héllo 🌍 ünïcødé\"}\n{\"b\":1}\n")
        // split inside the 4-byte emoji and inside a 2-byte character
        const emoji = bytes.indexOf(0xf0)
        const lines = yield* frame([bytes.slice(0, 11), bytes.slice(11, emoji + 2), bytes.slice(emoji + 2)])
        assert.deepStrictEqual(lines, ["{\"text\":\"héllo 🌍 ünïcødé\"}", "{\"b\":1}"])
      }))

    it.effect("joins a line delivered in many chunks, byte for byte", () =>
      Effect.gen(function*() {
        const big = "x".repeat(3_000_000) + "é"
        const bytes = encoder.encode(big + "\nnext\n")
        const chunks: Array<Uint8Array> = []
        for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.slice(i, i + 65536))
        const lines = yield* frame(chunks, 10_000_000)
        assert.strictEqual(lines.length, 2)
        assert.strictEqual(lines[0], big)
        assert.strictEqual(lines[1], "next")
      }))

    it.effect("emits a last line that has no newline", () =>
      Effect.gen(function*() {
        const lines = yield* frame([encoder.encode("a\nb")])
        assert.deepStrictEqual(lines, ["a", "b"])
      }))

    it.effect("fails with a typed LineTooLong error past the guard", () =>
      Effect.gen(function*() {
        const error = yield* frame([encoder.encode("y".repeat(5000))], 1000).pipe(Effect.flip)
        assert.strictEqual(error._tag, "ProtocolError")
        assert.strictEqual(error.reason, "LineTooLong")
        assert.strictEqual(error.lineLength, 5000)
        assert.isBelow(error.line.length, 600)
      }))

    it.effect("ends at a failing source, after its last unterminated line", () =>
      Effect.gen(function*() {
        const lines = yield* read(
          Stream.fromIterable([encoder.encode("a\nb")]).pipe(
            Stream.concat(Stream.fail("the pipe broke")),
            Stream.concat(Stream.make(encoder.encode("never\n")))
          ),
          1024
        )
        assert.deepStrictEqual(lines, ["a", "b"])
      }))

    it.effect("decodes a character cut off by the end of the source as U+FFFD (the CLI died mid-write)", () =>
      Effect.gen(function*() {
        const bytes = encoder.encode("é")
        const lines = yield* frame([bytes.slice(0, 1)])
        assert.deepStrictEqual(lines, ["\ufffd"])
      }))

    it.effect("strips a carriage return before the newline", () =>
      Effect.gen(function*() {
        const lines = yield* frame([encoder.encode("a\r\nb\r\n")])
        assert.deepStrictEqual(lines, ["a", "b"])
      }))

    it.prop(
      "any text cut anywhere reads as its lines",
      [Schema.Array(AnyText), Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 40 })))],
      ([texts, cuts]) => {
        const expected = texts.map((line) => line.replace(/[\r\n]/g, ""))
        const bytes = encoder.encode(expected.map((line) => line + "\n").join(""))
        const chunks: Array<Uint8Array> = []
        for (let offset = 0, i = 0; offset < bytes.length; i++) {
          const size = cuts.length === 0 ? bytes.length : cuts[i % cuts.length]!
          chunks.push(bytes.slice(offset, offset + size))
          offset += size
        }
        assert.deepStrictEqual(Effect.runSync(frame(chunks)), expected)
      }
    )
  })
}

describe("line framing, pushed: the consumer", () => {
  it.effect("gets the lines a batch at a time, in order, and its failure ends the reading", () =>
    Effect.gen(function*() {
      const batches: Array<ReadonlyArray<string>> = []
      const error = yield* readStream(
        Stream.fromArrays([encoder.encode("a\nb\n")], [encoder.encode("c\n")], [encoder.encode("d\n")]),
        1024
      )((batch) => {
        batches.push(batch)
        return batch.includes("c") ? Effect.fail("consumer refused c" as const) : Effect.void
      }).pipe(Effect.flip)
      assert.strictEqual(error, "consumer refused c")
      assert.deepStrictEqual(batches, [["a", "b"], ["c"]])
    }))

  it.effect("a consumer's failure on the last, unterminated line is its own, not the source's", () =>
    Effect.gen(function*() {
      const error = yield* readStream(Stream.make(encoder.encode("a\nlast")), 1024)((batch) =>
        batch.includes("last") ? Effect.fail("refused" as const) : Effect.void
      ).pipe(Effect.flip)
      assert.strictEqual(error, "refused")
    }))
})

describe("line framing, pushed by the source (NodeCliSpawner's stdout)", () => {
  // A pipe's end as NodeCliSpawner reads it: what was read before the reading started is handed over first.
  const pipe = () => {
    const readable = new Readable({ read() {} })
    return { readable, reader: readerOf(readable) }
  }
  // A pipe, and a fiber reading its lines into `seen`, answering each batch with `answer`'s Effect.
  const reading = <E>(answer: (batch: ReadonlyArray<string>) => Effect.Effect<void, E>) =>
    Effect.gen(function*() {
      const { readable, reader } = pipe()
      const seen: Array<string> = []
      const fiber = yield* LineFraming.pushLines(reader.push, 1024)((batch) => {
        seen.push(...batch)
        return answer(batch)
      }).pipe(Effect.forkChild)
      return { readable, reader, seen, fiber }
    })

  it.live("lines reach the consumer as the data arrives, outside its fiber; its Effects run in its fiber, in order", () =>
    Effect.gen(function*() {
      const { readable, reader } = pipe()
      readable.push(encoder.encode("before\n"))
      const seen: Array<string> = []
      const fiber = yield* LineFraming.pushLines(reader.push, 1024)((batch) => {
        seen.push(...batch.map((line) => `line ${line}`))
        return batch.includes("undecodable")
          ? Effect.sync(() => void seen.push("effect for undecodable"))
          : Effect.void
      }).pipe(Effect.forkChild)
      yield* Effect.sleep("10 millis")
      readable.push(encoder.encode("a\nundec"))
      // Routed at once, as the data event comes: no fiber step in between.
      assert.deepStrictEqual(seen, ["line before", "line a"])
      readable.push(encoder.encode("odable\nb\n"))
      readable.push(null)
      yield* Fiber.join(fiber)
      assert.deepStrictEqual(seen, [
        "line before",
        "line a",
        "line undecodable",
        "line b",
        "effect for undecodable"
      ])
    }))

  it.live("the consumer's failing Effect ends the reading: later data goes to no one", () =>
    Effect.gen(function*() {
      const { fiber, readable, seen } = yield* reading((batch) =>
        batch.includes("stop") ? Effect.fail("refused stop" as const) : Effect.void
      )
      readable.push(encoder.encode("a\nstop\n"))
      const error = yield* Fiber.join(fiber).pipe(Effect.flip)
      assert.strictEqual(error, "refused stop")
      readable.push(encoder.encode("later\n"))
      yield* Effect.sleep("10 millis")
      assert.deepStrictEqual(seen, ["a", "stop"])
    }))

  it.live("interrupting the reader stops the reading; what comes later stays with the pipe", () =>
    Effect.gen(function*() {
      const { fiber, readable, reader, seen } = yield* reading(() => Effect.void)
      readable.push(encoder.encode("a\n"))
      yield* Effect.sleep("10 millis")
      yield* Fiber.interrupt(fiber)
      readable.push(encoder.encode("b\n"))
      yield* Effect.sleep("10 millis")
      assert.deepStrictEqual(seen, ["a"])
      // Not lost: a later reader gets it.
      const chunk = yield* reader.pull
      assert.strictEqual(new TextDecoder().decode(chunk[0]), "b\n")
    }))

  it.live("a line past the guard fails the reading with LineTooLong", () =>
    Effect.gen(function*() {
      const { readable, reader } = pipe()
      const fiber = yield* LineFraming.pushLines(reader.push, 8)(() => Effect.void).pipe(Effect.forkChild)
      readable.push(encoder.encode("0123456789abcdef\n"))
      const error = yield* Fiber.join(fiber).pipe(Effect.flip)
      assert.strictEqual(error._tag === "ProtocolError" ? error.reason : error, "LineTooLong")
    }))
})
