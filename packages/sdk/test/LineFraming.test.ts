import { assert, describe, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as LineFraming from "../src/internal/lineFraming.js"

const encoder = new TextEncoder()

const frame = (chunks: ReadonlyArray<Uint8Array>, maxLineChars = 1024 * 1024) =>
  Stream.fromIterable(chunks).pipe(
    LineFraming.frameLines(maxLineChars),
    Stream.runCollect,
    Effect.map(Chunk.toReadonlyArray)
  )

describe("line framing", () => {
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
      const lines = yield* Stream.fromIterable([encoder.encode("a\nb")]).pipe(
        Stream.concat(Stream.fail("the pipe broke")),
        Stream.concat(Stream.make(encoder.encode("never\n"))),
        LineFraming.frameLines(1024),
        Stream.runCollect
      )
      assert.deepStrictEqual(Chunk.toReadonlyArray(lines), ["a", "b"])
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
})
