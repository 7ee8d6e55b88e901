/**
 * Reliability on the real CLI, with faults injected around it: wrapper executables that ignore
 * SIGTERM, stop, leave a grandchild holding stdout, exit in the middle of a turn, or print secrets.
 * Each test asserts the effect: a bounded close with every pid gone, a stream that ends or fails
 * with a typed error, a secret absent from every surface.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as References from "effect/References"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import * as Util from "node:util"
import type { CliExitError } from "../src/ClaudeError.js"
import {
  ClaudeCode,
  CliLocator,
  HookLayer,
  type HookResult,
  PermissionGate,
  type PermissionResult
} from "../src/index.js"
import type * as Protocol from "../src/Protocol.js"
import { bash, harness, isAlive, Logs, processesIn, Workspace } from "./utils/harness.js"
import { makeRecordingTracer } from "./utils/recordingTracer.js"

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

const resultOf = (messages: ReadonlyArray<Protocol.StdoutMessage>): string | undefined => {
  const results = messages.filter((m) => m.type === "result") as ReadonlyArray<{ readonly result?: string }>
  return results[results.length - 1]?.result
}

const faultyCli = fileURLToPath(new URL("./fixtures/faulty-claude.mjs", import.meta.url))

/** Options that run the real CLI behind the fault-injecting wrapper. */
const withFault = (fault: string, env: Record<string, string> = {}) =>
  Effect.map(CliLocator.locate(), (real) => ({
    executable: faultyCli,
    env: { CLAUDE_EFFECT_REAL_CLI: real, CLAUDE_EFFECT_FAULT: fault, ...env }
  }))

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined

/** Waits (bounded) until `pred` holds, polling. */
const eventually = (pred: () => boolean, what: string, millis = 10_000) =>
  Effect.gen(function*() {
    const until = Date.now() + millis
    while (!pred()) {
      if (Date.now() > until) return yield* Effect.die(new Error(`timed out waiting for ${what}`))
      yield* Effect.sleep("50 millis")
    }
  })

const tempDir = () => Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "claude-effect-reliability-"))

// An API key that is easy to look for, in whole or in part.
const apiKey = "sk-ant-api03-RELIABILITY-0123456789abcdefghijklmnopqrstuvwxyz"
/** Every 8-character piece of a secret: none may appear anywhere. */
const piecesOf = (secret: string, size = 8) =>
  Array.from({ length: secret.length - size + 1 }, (_, i) => secret.slice(i, i + size))
const assertNoPieceOf = (secret: string, text: string, where: string) => {
  for (const piece of piecesOf(secret)) assert.notInclude(text, piece, `${where} holds a piece of the secret`)
}

describe("a shutdown that cannot hang", () => {
  it.live("closing a session after the model started a background shell is bounded, and nothing is left running", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const scope = yield* Scope.make()
      const session = yield* ClaudeCode.session({ allowedTools: ["Bash"], closeGracePeriod: 1000 }).pipe(
        Scope.provide(scope)
      )
      const turn = yield* collect(session.turn("start a background job"))
      assert.strictEqual(resultOf(turn), "started")
      // the CLI and the background job (which the CLI started in a session of its own)
      yield* eventually(() => processesIn(cwd).length >= 2, "the background job")
      const pids = processesIn(cwd)
      const started = Date.now()
      yield* Scope.close(scope, Exit.void)
      // grace 1 s + SIGTERM's 2 s at the most, with room for a loaded machine
      assert.isBelow(Date.now() - started, 5_000)
      for (const pid of pids) assert.isFalse(isAlive(pid), `pid ${pid} is still alive`)
      assert.deepStrictEqual(processesIn(cwd), [])
    }).pipe(Effect.provide(harness([bash(`node -e "setTimeout(() => {}, 120000)" &`), ScriptedModel.text("started")]))))

  it.live("a CLI that ignores SIGTERM and outlives its stdin is killed within the bounds", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const scope = yield* Scope.make()
      const session = yield* ClaudeCode.session({ ...yield* withFault("linger"), closeGracePeriod: 500 }).pipe(
        Scope.provide(scope)
      )
      yield* collect(session.turn("hi"))
      const pids = processesIn(cwd)
      assert.include(pids, session.pid)
      const started = Date.now()
      yield* Scope.close(scope, Exit.void)
      // grace 0.5 s + SIGTERM's 2 s, then SIGKILL
      assert.isBelow(Date.now() - started, 4_500)
      for (const pid of pids) assert.isFalse(isAlive(pid), `pid ${pid} is still alive`)
    }).pipe(Effect.provide(harness([ScriptedModel.text("hello")]))))

  it.live("a stopped CLI (SIGSTOP) is terminated within the bounds, idle or in the middle of a turn", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      for (const midTurn of [false, true]) {
        const scope = yield* Scope.make()
        const session = yield* ClaudeCode.session({ closeGracePeriod: 500 }).pipe(Scope.provide(scope))
        if (midTurn) {
          yield* session.send("talk slowly")
          yield* ScriptedModel.awaitRequests(1, "turn")
        } else {
          yield* collect(session.turn("hi"))
        }
        process.kill(session.pid, "SIGSTOP")
        const started = Date.now()
        yield* Scope.close(scope, Exit.void)
        // idle: 0.5 s, then SIGTERM (with SIGCONT); mid-turn: the interrupt is written and stdin ended at once
        // (its answer, which a stopped CLI never gives, is not waited for), then 1 s, then SIGTERM
        assert.isBelow(Date.now() - started, midTurn ? 1_900 : 1_400, midTurn ? "mid-turn" : "idle")
        assert.isFalse(isAlive(session.pid), `the CLI is still alive (${midTurn ? "mid-turn" : "idle"})`)
        yield* ScriptedModel.push(ScriptedModel.text("hello"))
      }
      assert.deepStrictEqual(processesIn(cwd), [])
    }).pipe(
      Effect.provide(harness([
        ScriptedModel.text("hello"),
        ScriptedModel.slow(ScriptedModel.text("x".repeat(2000)), { delay: "50 millis", chunkSize: 4 })
      ]))
    ))
})

describe("a CLI that exits while a grandchild holds its stdout", () => {
  it.live("the stream ends shortly after the CLI exits, and the grandchild is gone", () =>
    Effect.gen(function*() {
      const { file } = yield* Workspace
      const pidFile = file("holder.pid")
      const started = Date.now()
      const messages = yield* collect(
        ClaudeCode.query(Stream.make("hi"), yield* withFault("hold-stdout", { CLAUDE_EFFECT_PID_FILE: pidFile }))
      )
      // the holder sleeps 30 s; the stream waited for it before
      assert.isBelow(Date.now() - started, 15_000)
      assert.strictEqual(resultOf(messages), "bye")
      const holder = Number(Fs.readFileSync(pidFile, "utf8"))
      yield* eventually(() => !isAlive(holder), "the grandchild to be gone", 3_000)
    }).pipe(Effect.provide(harness([ScriptedModel.text("bye")]))))
})

describe("a turn cannot end silently", () => {
  it.live("a CLI that exits 0 before the turn's result fails the query with CliExitError", () =>
    Effect.gen(function*() {
      const exit = yield* collect(ClaudeCode.query("hi", yield* withFault("exit0-mid-turn"))).pipe(Effect.exit)
      const error = failureOf(exit)
      assert.strictEqual(error?._tag, "CliExitError")
      if (error?._tag !== "CliExitError") return
      assert.strictEqual(error.exitCode, 0)
      assert.isTrue(error.duringTurn)
      assert.include(error.message, "exited with code 0 before the running turn finished")
    }).pipe(Effect.provide(harness([ScriptedModel.text("never seen")]))))

  it.live(
    "a CLI that crashes with exit code 1 on a session's second turn is reported, every time",
    () =>
      Effect.gen(function*() {
        const options = yield* withFault("exit1-second-turn")
        for (let run = 0; run < 5; run++) {
          const [first, second] = yield* Effect.scoped(Effect.gen(function*() {
            const session = yield* ClaudeCode.session(options)
            const first = yield* collect(session.turn("one"))
            const second = yield* collect(session.turn("two")).pipe(Effect.exit)
            return [first, second] as const
          }))
          assert.strictEqual(resultOf(first), "uno", `run ${run}`)
          const error = failureOf(second)
          assert.strictEqual(error?._tag, "CliExitError", `run ${run}`)
          if (error?._tag !== "CliExitError") return
          assert.strictEqual(error.exitCode, 1, `run ${run}`)
          assert.isTrue(error.duringTurn, `run ${run}`)
          yield* ScriptedModel.push(ScriptedModel.text("uno"))
        }
      }).pipe(Effect.provide(harness([ScriptedModel.text("uno")]))),
    { timeout: 120_000 }
  )
})

describe("secrets never leak", () => {
  it.live("a stdout line holding the API key is logged without it, at every level and in every span", () =>
    Effect.gen(function*() {
      const tracer = makeRecordingTracer()
      const messages = yield* collect(ClaudeCode.query("hi", yield* withFault("secret-stdout"))).pipe(
        Effect.provide(tracer.layer),
        Effect.provideService(References.MinimumLogLevel, "All")
      )
      assert.strictEqual(resultOf(messages), "fine")
      const logs = yield* Logs
      const warning = logs.find((entry) => entry.message.includes("not a valid message"))
      assert.isDefined(warning, "the unreadable line is still reported")
      assert.include(JSON.stringify(warning?.annotations), "oops, not json")
      assert.include(JSON.stringify(warning?.annotations), "<redacted>")
      for (const entry of logs) assertNoPieceOf(apiKey, entry.message + JSON.stringify(entry.annotations), "a log")
      assert.isAbove(tracer.spans.length, 0)
      for (const span of tracer.spans) {
        assertNoPieceOf(apiKey, JSON.stringify(Array.from(span.attributes.entries())), `span ${span.name}`)
      }
    }).pipe(Effect.provide(harness([ScriptedModel.text("fine")], {}, { apiKey }))))

  it.live("a stderr tail that starts in the middle of the key hides the rest of it", () =>
    Effect.gen(function*() {
      // 16 KiB are kept: the tail starts 12 characters before the end of the key.
      const exit = yield* ClaudeCode.session(
        yield* withFault("secret-stderr", {
          CLAUDE_EFFECT_FILLER: String(16 * 1024 - 12)
        })
      ).pipe(Effect.scoped, Effect.exit)
      const error = failureOf(exit)
      assert.strictEqual(error?._tag, "InitializeError")
      if (error?._tag !== "InitializeError") return
      const exitError = error.cause as CliExitError
      assert.strictEqual(exitError?._tag, "CliExitError")
      // The 16 KiB kept are redacted text: the key's piece is gone, the filler is all there.
      assert.strictEqual(exitError.stderrTail.length, 16 * 1024)
      assert.include(exitError.stderrTail, "acted>" + "x".repeat(16 * 1024 - 12))
      for (
        const surface of [error.message, JSON.stringify(error), Util.inspect(error, { depth: 10 }), exitError.message]
      ) {
        for (const piece of piecesOf(apiKey.slice(-12), 4)) assert.notInclude(surface, piece)
      }
    }).pipe(Effect.provide(harness([], {}, { apiKey }))))

  it.live("a spawn failure carries no MCP token nor user secret in any of its surfaces", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const executable = NodePath.join(dir, "claude")
      Fs.writeFileSync(executable, "#!/nonexistent/interpreter\n", { mode: 0o755 })
      const token = "tok_MCP_SECRET_abcdef0123456789"
      const userSecret = "user-marked-secret-0123456789"
      const exit = yield* ClaudeCode.session({
        executable,
        secrets: [userSecret],
        extraArgs: { "x-note": userSecret },
        mcpServers: {
          remote: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: `Bearer ${token}` } }
        }
      }).pipe(Effect.scoped, Effect.exit)
      const error = failureOf(exit)
      assert.strictEqual(error?._tag, "CliExitError")
      if (error?._tag !== "CliExitError") return
      assert.strictEqual(error.reason, "SpawnFailed")
      assert.include(error.message, "/nonexistent/interpreter")
      assert.include(error.message, "#! line")
      const surfaces = [
        error.message,
        JSON.stringify(error),
        JSON.stringify(error.toJSON()),
        Util.inspect(error, { depth: 10 }),
        String(error.cause),
        Util.inspect(error.cause, { depth: 10 }),
        Cause.pretty(Cause.fail(error))
      ]
      for (const surface of surfaces) {
        assertNoPieceOf(token, surface, "the spawn error")
        assertNoPieceOf(userSecret, surface, "the spawn error")
      }
      Fs.rmSync(dir, { recursive: true, force: true })
    }).pipe(Effect.provide(harness([]))))
})

describe("spawn failures explain themselves", () => {
  it.live("a cwd that does not exist, or is a file, is an OptionsError naming the option and the path", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const missing = NodePath.join(dir, "no-such-dir")
      const file = NodePath.join(dir, "a-file")
      Fs.writeFileSync(file, "")
      const notThere = yield* ClaudeCode.session({ cwd: missing }).pipe(Effect.scoped, Effect.flip)
      assert.strictEqual(notThere._tag, "OptionsError")
      assert.include(notThere.message, "cwd")
      assert.include(notThere.message, missing)
      assert.include(notThere.message, "does not exist")
      const aFile = yield* ClaudeCode.session({ cwd: file }).pipe(Effect.scoped, Effect.flip)
      assert.strictEqual(aFile._tag, "OptionsError")
      assert.include(aFile.message, file)
      assert.include(aFile.message, "not a directory")
      Fs.rmSync(dir, { recursive: true, force: true })
    }).pipe(Effect.provide(harness([]))))

  it.live("an executable without its exec bit is reported as not executable, not as not found", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const executable = NodePath.join(dir, "claude")
      Fs.writeFileSync(executable, "#!/bin/sh\n", { mode: 0o644 })
      const error = yield* ClaudeCode.session({ executable }).pipe(Effect.scoped, Effect.flip)
      assert.strictEqual(error._tag, "CliNotFoundError")
      if (error._tag !== "CliNotFoundError") return
      assert.strictEqual(error.reason, "NotExecutable")
      assert.include(error.message, `chmod +x ${executable}`)
      assert.notInclude(error.message, "not found")
      Fs.rmSync(dir, { recursive: true, force: true })
    }).pipe(Effect.provide(harness([]))))

  it.live("a 200,000-character system prompt goes over stdin and reaches the model", () =>
    Effect.gen(function*() {
      const systemPrompt = "You are terse. ".repeat(14_000).slice(0, 200_000)
      const messages = yield* collect(ClaudeCode.query("hi", { systemPrompt }))
      assert.strictEqual(resultOf(messages), "ok")
      const request = yield* ScriptedModel.lastTurnRequest
      assert.include(request.system, systemPrompt)
    }).pipe(Effect.provide(harness([ScriptedModel.text("ok")]))))

  it.live("an argument list too long for the OS is a typed SpawnFailed naming the flag", () =>
    Effect.gen(function*() {
      const error = yield* ClaudeCode.session({ extraArgs: { "append-system-prompt": "x".repeat(200_000) } }).pipe(
        Effect.scoped,
        Effect.flip
      )
      assert.strictEqual(error._tag, "CliExitError")
      if (error._tag !== "CliExitError") return
      assert.strictEqual(error.reason, "SpawnFailed")
      assert.include(error.message, "--append-system-prompt")
      assert.include(error.message, "longer than the operating system accepts")
    }).pipe(Effect.provide(harness([]))))
})

describe("a handler that throws before returning its Effect fails closed", () => {
  it.live("a PreToolUse hook that throws denies: the command does not run", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      yield* collect(ClaudeCode.query("touch it", { allowedTools: ["Bash"] })).pipe(
        Effect.provide(HookLayer.preToolUse({ matcher: "Bash" }, (): Effect.Effect<HookResult.HookResult> => {
          throw new Error("the hook threw")
        }))
      )
      assert.isFalse(workspace.exists("hooked.txt"))
      const logs = yield* Logs
      assert.isTrue(logs.some((entry) => entry.message.includes("fell back (defect)")))
      const denied = yield* ScriptedModel.toolResults
      assert.isTrue(denied.some((result) => result.isError))
    }).pipe(Effect.provide(harness([bash("touch hooked.txt"), ScriptedModel.text("done")]))))

  it.live("a permission gate that throws denies: the command does not run", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      yield* collect(ClaudeCode.query("touch it")).pipe(
        Effect.provide(PermissionGate.layer((): Effect.Effect<PermissionResult.PermissionResult> => {
          throw new Error("the gate threw")
        }))
      )
      assert.isFalse(workspace.exists("gated.txt"))
      const logs = yield* Logs
      assert.isTrue(logs.some((entry) => entry.message.includes("permission gate fell back to deny (defect)")))
    }).pipe(Effect.provide(harness([bash("touch gated.txt"), ScriptedModel.text("done")]))))
})
