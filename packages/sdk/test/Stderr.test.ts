/**
 * The CLI's stderr as a live stream of lines (`session.stderr`) and as a
 * sink (`stderr` option): redacted, bounded, never holding the CLI back.
 * Against the real CLI 2.1.328 (its debug log, an MCP server's stderr it
 * passes on) and the fault-injecting wrapper (a flood, a runaway line).
 */
import { FakeCli, ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as References from "effect/References"
import * as Stream from "effect/Stream"
import * as NodePath from "node:path"
import { ClaudeCode, CliLocator } from "../src/index.js"
import { harness, isAlive, Logs } from "./utils/harness.js"

const faultyCli = NodePath.join(import.meta.dirname, "fixtures", "faulty-claude.mjs")
const apiKey = "sk-ant-api03-STDERR-0123456789abcdefghijklmnopqrstuvwxyz"
const serviceToken = "tok_live_STDERR_0123456789abcdef"

const withFault = (fault: string, env: Record<string, string> = {}) =>
  Effect.map(CliLocator.locate(), (real) => ({
    executable: faultyCli,
    env: { CLAUDE_EFFECT_REAL_CLI: real, CLAUDE_EFFECT_FAULT: fault, ...env }
  }))

/** Every piece of `secret` (8 characters and up) is absent from `text`. */
const assertNoPieceOf = (secret: string, text: string, where: string) => {
  for (let at = 0; at + 8 <= secret.length; at++) {
    assert.notInclude(text, secret.slice(at, at + 8), `${where} holds a piece of the secret`)
  }
}

/**
 * An MCP server that writes its token (from a secret-looking variable of its
 * config, which the SDK hides without being told) to stderr and exits: the
 * CLI passes that stderr on in its debug log.
 */
const leakyMcpServer = {
  command: process.execPath,
  args: ["-e", "process.stderr.write('token ' + process.env.SERVICE_TOKEN + '\\n'); process.exit(3)"],
  env: { SERVICE_TOKEN: serviceToken }
}

const debugToStderr = { "debug-to-stderr": null }

describe("session.stderr on the real CLI", () => {
  it.live(
    "streams the CLI's debug log as it is written, with an MCP server's token redacted",
    () =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session({
          extraArgs: debugToStderr,
          mcpServers: { leaky: leakyMcpServer }
        })
        // Read while the session runs: the line that carries the server's stderr comes within a second or two.
        const upToTheServersLine = yield* session.stderr.pipe(
          Stream.takeUntil((line) => line.includes("Server stderr")),
          Stream.runCollect,
          Effect.timeout("30 seconds")
        )
        assert.isAbove(upToTheServersLine.length, 10)
        assert.isTrue(upToTheServersLine.every((line) => !line.includes("\n")), "one line per element")
        assert.match(upToTheServersLine[0], /^\d{4}-\d\d-\d\dT.*\[DEBUG\]/)
        const serverLine = upToTheServersLine[upToTheServersLine.length - 1]
        assert.include(serverLine, "MCP server \"leaky\" Server stderr: token <redacted>")
        assertNoPieceOf(serviceToken, upToTheServersLine.join("\n"), "session.stderr")

        // The session is not disturbed, and a second reader starts from the lines kept so far.
        yield* session.turn("hi").pipe(Stream.runDrain)
        const again = yield* session.stderr.pipe(Stream.take(upToTheServersLine.length), Stream.runCollect)
        assert.deepStrictEqual(again, upToTheServersLine)
      }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("ok")]))),
    60_000
  )

  it.live(
    "the stderr option is a sink: Effect.logDebug logs each line through the program's logger, redacted",
    () =>
      Effect.gen(function*() {
        yield* ClaudeCode.query("hi", {
          extraArgs: debugToStderr,
          mcpServers: { leaky: leakyMcpServer },
          stderr: Effect.logDebug
        }).pipe(Stream.runDrain, Effect.provideService(References.MinimumLogLevel, "Debug"))
        const logged = (yield* Logs).filter((entry) => entry.annotations.source === "stderr")
        assert.isAbove(logged.length, 10)
        assert.isTrue(logged.every((entry) => entry.level === "Debug" && typeof entry.annotations.pid === "number"))
        assert.isTrue(logged.some((entry) => entry.message.includes("Server stderr: token <redacted>")))
        assertNoPieceOf(serviceToken, JSON.stringify(logged), "the logs")
        // Closing let the sink take what the CLI wrote until it exited: its last lines too.
        assert.isTrue(
          logged.some((entry) => /shut(ting)? ?down/i.test(entry.message)),
          logged.slice(-3).map((entry) => entry.message).join("\n")
        )
      }).pipe(Effect.provide(harness([ScriptedModel.text("ok")]))),
    60_000
  )

  it.live(
    "ends when the CLI has exited; a reader that starts then gets the last lines and the end",
    () =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session({ extraArgs: debugToStderr })
        yield* session.turn("hi").pipe(Stream.runDrain)
        yield* session.endInput
        const all = yield* session.stderr.pipe(Stream.runCollect, Effect.timeout("20 seconds"))
        assert.isAbove(all.length, 10)
        assert.isFalse(isAlive(session.pid))
      }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("ok")]))),
    60_000
  )
})

describe("stderr is bounded (the fault-injecting wrapper)", () => {
  it.live(
    "a flood of 5,000 lines and a sink that never returns do not hold the CLI back; a late reader gets the last 1,024",
    () =>
      Effect.gen(function*() {
        const options = yield* withFault("stderr-flood", { CLAUDE_EFFECT_FILLER: "5000" })
        const started = Date.now()
        const { lines, pid } = yield* Effect.scoped(Effect.gen(function*() {
          const session = yield* ClaudeCode.session({ ...options, stderr: () => Effect.never })
          // The turn runs while nothing has read stderr and the sink is stuck on its first line.
          const messages = yield* session.turn("hi").pipe(Stream.runCollect, Effect.timeout("30 seconds"))
          assert.strictEqual(messages[messages.length - 1]?.type, "result")
          const lines = yield* session.stderr.pipe(Stream.take(1024), Stream.runCollect)
          return { lines, pid: session.pid }
        }))
        // Closing waited at most the sink's drain bound (1 s) on top of the CLI's own shutdown.
        assert.isBelow(Date.now() - started, 25_000)
        assert.isFalse(isAlive(pid))
        assert.strictEqual(lines.length, 1024)
        // The wrapper wrote 5,000 numbered lines and a long one before the CLI started: the first lines are gone.
        assert.notInclude(lines, "flood 0")
        assert.notInclude(lines, "flood 3975")
        const long = lines.find((line) => line.startsWith("yyyy"))
        assert.isDefined(long)
        // The runaway line is cut at 8 Ki characters, and the key across the cut is hidden, not halved.
        assert.isTrue(long!.endsWith("…"))
        assert.isAtMost(long!.length, 8 * 1024 + 1)
        assert.include(long!, "<redacted>")
        assertNoPieceOf(apiKey, lines.join("\n"), "session.stderr")
        const lastFlood = lines.filter((line) => line.startsWith("flood ")).pop()
        assert.strictEqual(lastFlood, "flood 4999")
      }).pipe(Effect.provide(harness([ScriptedModel.text("ok")], {}, { apiKey }))),
    60_000
  )

  it.live("a slow reader loses the oldest lines it has not read, and keeps the newest", () =>
    Effect.gen(function*() {
      // The flood comes 3 s after the start, while the reader below is following.
      const options = yield* withFault("stderr-flood", {
        CLAUDE_EFFECT_FILLER: "6000",
        CLAUDE_EFFECT_FLOOD_DELAY: "3000"
      })
      const session = yield* ClaudeCode.session(options)
      const slow = yield* session.stderr.pipe(
        Stream.mapEffect((line) => Effect.as(Effect.sleep("2 millis"), line)),
        Stream.takeUntil((line) => line.startsWith("yyyy")),
        Stream.runCollect,
        Effect.forkChild({ startImmediately: true })
      )
      yield* session.turn("hi").pipe(Stream.runDrain)
      const seen = yield* Fiber.join(slow).pipe(Effect.timeout("30 seconds"))
      const numbers = seen.filter((line) => line.startsWith("flood ")).map((line) => Number(line.slice(6)))
      // It was there from the first line on, fell behind, and lost lines from the middle: the oldest unread.
      assert.strictEqual(numbers[0], 0)
      assert.strictEqual(numbers[numbers.length - 1], 5999)
      assert.isBelow(numbers.length, 6000)
      assert.isTrue(numbers.some((n, i) => i > 0 && n > numbers[i - 1] + 1), "a gap")
      // In order and without repeats: whatever was dropped was older than what was kept.
      assert.deepStrictEqual(numbers, [...numbers].sort((a, b) => a - b))
      assert.strictEqual(new Set(numbers).size, numbers.length)
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("ok")], {}, { apiKey }))), 60_000)
})

describe("a session over a provided CliProcess", () => {
  it.effect("has no stderr lines: session.stderr ends at once", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session()
      assert.deepStrictEqual(yield* Stream.runCollect(session.stderr), [])
    }).pipe(
      Effect.scoped,
      Effect.provide(FakeCli.layer()),
      Effect.provide(
        ClaudeCode.layer({ executable: process.execPath }).pipe(
          Layer.provideMerge(NodeServices.layer),
          Layer.orDie
        )
      )
    ))
})
