/**
 * CliProcess on its own, without a session: the real CLI 2.1.328 (a turn against the testkit's ScriptedModel),
 * a stand-in CLI (test/fixtures/fake-claude.mjs) and shell scripts. Run by both test projects, so under each
 * spawner (`spawnerName`). Each test asserts the effect: lines byte for byte, a bounded close with every pid
 * gone, a typed error naming what to fix, a secret absent from every surface.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeChildProcessSpawner from "@effect/platform-node/NodeChildProcessSpawner"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ChildProcess from "effect/process/ChildProcess"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import * as Util from "node:util"
import type { CliExitError } from "../src/ClaudeError.js"
import * as CliLocator from "../src/CliLocator.js"
import * as CliProcess from "../src/CliProcess.js"
import * as CliSpawner from "../src/CliSpawner.js"
import { isAlive, processesIn, spawnerLayer, spawnerName } from "./utils/harness.js"

const PATH = process.env.PATH ?? "/usr/bin:/bin"
const fakeCli = NodePath.join(import.meta.dirname, "fixtures", "fake-claude.mjs")

/** The stand-in CLI doing `fake` (see the fixture), in `cwd` when given. */
const fake = (fake: string, env: Record<string, string> = {}, cwd?: string): CliProcess.SpawnConfig => ({
  executable: process.execPath,
  args: [fakeCli],
  env: { PATH, CLAUDE_EFFECT_FAKE: fake, ...env },
  ...(cwd !== undefined ? { cwd } : {})
})

const sh = (script: string): CliProcess.SpawnConfig => ({ executable: "/bin/sh", args: ["-c", script], env: { PATH } })

// The spawner under test, and the file system that spawn failures are explained with.
const layer = Layer.merge(NodeServices.layer, spawnerLayer)

/** Waits (bounded) until `holds` does, polling. */
const eventually = (holds: () => boolean, what: string, millis = 10_000) =>
  Effect.gen(function*() {
    const until = Date.now() + millis
    while (!holds()) {
      if (Date.now() > until) return yield* Effect.die(new Error(`timed out waiting for ${what}`))
      yield* Effect.sleep("20 millis")
    }
  })

const tempDir = Effect.map(
  Effect.flatMap(Effect.service(FileSystem.FileSystem), (fs) => fs.makeTempDirectoryScoped({ prefix: "cli-process-" })),
  (dir) => Fs.realpathSync(dir)
)

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined

// An API key that is easy to look for, in whole or in part.
const apiKey = "sk-ant-api03-CLIPROCESS-0123456789abcdefghijklmnopqrstuvwxyz"
/** Every `size`-character piece of a secret: none may appear anywhere. */
const piecesOf = (secret: string, size = 8) =>
  Array.from({ length: secret.length - size + 1 }, (_, i) => secret.slice(i, i + size))
const assertNoPieceOf = (secret: string, text: string, where: string) => {
  for (const piece of piecesOf(secret)) assert.notInclude(text, piece, `${where} holds a piece of the secret`)
}

// Text whose multi-byte characters land on every possible chunk boundary somewhere (as the fixture's).
const bigText = (chars: number) => {
  const unit = "héllo wörld 🌍 ünïcødé ✓ "
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars)
}

const userMessage = (content: string) =>
  JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: "" })

describe(`CliProcess (${spawnerName} spawner)`, () => {
  describe("the real CLI", () => {
    it.live("a turn written to stdin comes back as lines up to its result; ending stdin ends the CLI, its pid gone", () =>
      Effect.gen(function*() {
        const cwd = yield* tempDir
        const cli = yield* CliProcess.make({
          executable: yield* CliLocator.locate(),
          args: ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"],
          env: { PATH, ...(yield* ScriptedModel.cliEnv) },
          cwd
        })
        assert.deepStrictEqual(processesIn(cwd), [cli.pid])
        yield* cli.writeLine(userMessage("say hello"))
        const messages: Array<{ readonly type: string; readonly subtype?: string; readonly result?: string }> = []
        // Read as the router reads: pushed batches (readLines), which the spawner may push outside any fiber.
        const read = cli.readLines !== undefined
          ? cli.readLines((lines) =>
            Effect.sync(() => {
              for (const line of lines) messages.push(JSON.parse(line))
            })
          )
          : Stream.runForEach(cli.lines, (line) => Effect.sync(() => void messages.push(JSON.parse(line))))
        const reading = yield* Effect.forkChild(read, { startImmediately: true })
        yield* eventually(() => messages.some((m) => m.type === "result"), "the turn's result", 30_000)
        assert.deepStrictEqual([messages[0]?.type, messages[0]?.subtype], ["system", "init"])
        assert.strictEqual(messages.find((m) => m.type === "result")?.result, "hello from the model")
        const started = Date.now()
        const status = yield* cli.shutdown()
        assert.deepStrictEqual(status, { code: 0, signal: null }, "the CLI ended by itself once its stdin ended")
        assert.isBelow(Date.now() - started, 5_000)
        assert.isTrue(Exit.isSuccess(yield* Fiber.await(reading)), "the lines ended with stdout")
        assert.isFalse(isAlive(cli.pid))
        assert.deepStrictEqual(processesIn(cwd), [])
      }).pipe(
        Effect.provide(
          ScriptedModel.layerNode([ScriptedModel.text("hello from the model")]).pipe(Layer.provideMerge(layer))
        )
      ))
  })

  describe("stdout and stdin", () => {
    for (const reader of ["lines", "readLines"] as const) {
      it.live(
        `a 20 MB line out and a 10 MB line in arrive intact, byte for byte (${reader})`,
        () =>
          Effect.gen(function*() {
            const out = bigText(20 * 1024 * 1024)
            const back = bigText(10 * 1024 * 1024 + 7)
            const cli = yield* CliProcess.make(fake("echo", { CLAUDE_EFFECT_BIG_LINE: String(out.length) }))
            yield* cli.writeLine(back)
            yield* cli.writeLine("last")
            yield* cli.endInput
            const lines: Array<string> = []
            if (reader === "lines" || cli.readLines === undefined) {
              yield* Stream.runForEach(cli.lines, (line) => Effect.sync(() => void lines.push(line)))
            } else {
              yield* cli.readLines((batch) => Effect.sync(() => void lines.push(...batch)))
            }
            assert.strictEqual(lines.length, 3)
            assert.isTrue(lines[0] === out, "the 20 MB line")
            assert.isTrue(lines[1] === back, "the 10 MB line")
            assert.strictEqual(lines[2], "last")
            assert.deepStrictEqual(yield* cli.awaitExit, { code: 0, signal: null })
          }).pipe(Effect.provide(layer)),
        { timeout: 60_000 }
      )
    }

    it.live("a line past maxLineChars fails the lines with a typed LineTooLong, its excerpt redacted", () =>
      Effect.gen(function*() {
        const cli = yield* CliProcess.make({
          ...sh(`printf 'key=${apiKey} '; head -c 5000 /dev/zero | tr '\\0' y; echo`),
          maxLineChars: 1000,
          redact: [apiKey]
        })
        const error = yield* Stream.runDrain(cli.lines).pipe(Effect.flip)
        assert.strictEqual(error.reason, "LineTooLong")
        assert.include(error.line, "key=<redacted> yyy")
        assert.isBelow(error.line.length, 600)
        assertNoPieceOf(apiKey, `${error.message} ${JSON.stringify(error)}`, "the error")
      }).pipe(Effect.provide(layer)))

    it.live("an exit is a CliExitError with its code or signal and the stderr tail; writing after it fails with it", () =>
      Effect.gen(function*() {
        const failing = yield* CliProcess.make(sh("echo oops >&2; exit 3"))
        const status = yield* failing.awaitExit
        assert.deepStrictEqual(status, { code: 3, signal: null })
        yield* eventually(() => Effect.runSync(failing.stderrTail) === "oops\n", "the stderr tail")
        const error = yield* failing.exitError(status, { duringTurn: true })
        assert.deepStrictEqual([error.reason, error.exitCode, error.signal, error.duringTurn], [
          "Exited",
          3,
          null,
          true
        ])
        assert.include(error.message, "exited with code 3 before the running turn finished")
        assert.include(error.message, "oops")
        const written = yield* failing.writeLine("{}").pipe(Effect.flip)
        assert.deepStrictEqual([written._tag, written.exitCode], ["CliExitError", 3])
        assert.isFalse((failing.unsafeWriteLine ?? (() => false))("{}"))

        const killed = yield* CliProcess.make(sh("kill -KILL $$"))
        const death = yield* killed.awaitExit
        assert.deepStrictEqual(death, { code: null, signal: "SIGKILL" })
        const signaled = yield* killed.exitError(death)
        assert.strictEqual(signaled.reason, "Signaled")
        assert.include(signaled.message, "was killed by SIGKILL")
      }).pipe(Effect.provide(layer)))
  })

  describe("stderr", () => {
    it.live("a line that never ends is cut at maxStderrLineChars, a secret across the cut is redacted whole", () =>
      Effect.gen(function*() {
        const seen: Array<string> = []
        const secret = "sk-ant-CUTLINE-0123456789abcdef"
        const cli = yield* CliProcess.make({
          executable: "/bin/sh",
          args: ["-c", `printf 'aaaaaaaaaa${secret}bbbbbbbbbb' >&2; printf 'rest\\nnext line\\npartial' >&2`],
          env: { PATH },
          redact: [secret],
          maxStderrLineChars: 16,
          onStderr: (text) => Effect.sync(() => void seen.push(text)),
          onStderrEnd: Effect.sync(() => void seen.push("<end>"))
        })
        yield* cli.awaitExit
        yield* eventually(() => seen.includes("<end>"), "the end of stderr", 5_000)
        assert.strictEqual(seen.join(""), "aaaaaaaaaa<redac…\nnext line\npartial<end>")
      }).pipe(Effect.provide(layer)))

    it.live("onStderr never sees a secret, even one the CLI wrote in two pieces", () =>
      Effect.gen(function*() {
        const seen: Array<string> = []
        const half = Math.floor(apiKey.length / 2)
        const cli = yield* CliProcess.make({
          executable: "/bin/sh",
          args: [
            "-c",
            `printf 'key=${apiKey.slice(0, half)}' >&2; sleep 0.2; printf '${apiKey.slice(half)} done\\n' >&2`
          ],
          env: { PATH },
          redact: [apiKey],
          onStderr: (text) => Effect.sync(() => void seen.push(text))
        })
        yield* cli.awaitExit
        yield* eventually(() => seen.join("").includes("done"), "the stderr line")
        assert.strictEqual(seen.join(""), "key=<redacted> done\n")
        assertNoPieceOf(apiKey, seen.join("|"), "onStderr")
      }).pipe(Effect.provide(layer)))

    it.live("a stderr tail that starts in the middle of the key hides the rest of it", () =>
      Effect.gen(function*() {
        // 16 KiB are kept: the tail starts 12 characters before the end of the key.
        const filler = 16 * 1024 - 12
        const cli = yield* CliProcess.make({
          ...sh(`printf 'token=${apiKey}' >&2; head -c ${filler} /dev/zero | tr '\\0' x >&2; exit 1`),
          redact: [apiKey]
        })
        const status = yield* cli.awaitExit
        yield* eventually(() => Effect.runSync(cli.stderrTail).endsWith("x".repeat(100)), "the stderr tail")
        const error = yield* cli.exitError(status)
        // The 16 KiB kept are redacted text: the key's piece is gone, the filler is all there.
        assert.strictEqual(error.stderrTail.length, 16 * 1024)
        assert.include(error.stderrTail, "acted>" + "x".repeat(filler))
        for (const surface of [error.message, JSON.stringify(error), Util.inspect(error, { depth: 10 })]) {
          for (const piece of piecesOf(apiKey.slice(-12), 4)) assert.notInclude(surface, piece)
        }
      }).pipe(Effect.provide(layer)))

    it.live("a flood of 5 MB on stderr that nobody reads does not hold the CLI back", () =>
      Effect.gen(function*() {
        const cli = yield* CliProcess.make(sh("head -c 5000000 /dev/zero | tr '\\0' e >&2; echo done"))
        const lines = yield* Stream.runCollect(cli.lines).pipe(Effect.timeout("10 seconds"))
        assert.deepStrictEqual(lines, ["done"])
        assert.deepStrictEqual(yield* cli.awaitExit, { code: 0, signal: null })
        assert.strictEqual((yield* cli.stderrTail).length, 16 * 1024)
      }).pipe(Effect.provide(layer)))
  })

  describe("a shutdown that cannot hang, and leaves nothing behind", () => {
    it.live("a CLI that started a background job and a tool, each in a session of its own: a bounded close, every pid gone", () =>
      Effect.gen(function*() {
        const cwd = yield* tempDir
        const scope = yield* Scope.make()
        const cli = yield* CliProcess.make({ ...fake("tools", {}, cwd), closeGracePeriod: 1000 }).pipe(
          Scope.provide(scope)
        )
        const first = yield* Stream.runHead(cli.lines)
        const { background, foreground } = JSON.parse(first._tag === "Some" ? first.value : "{}")
        const pids = [cli.pid, background, foreground]
        yield* eventually(() => pids.every(isAlive), "the tool and the background job")
        assert.sameMembers(processesIn(cwd), pids)
        const started = Date.now()
        yield* Scope.close(scope, Exit.void)
        // grace 1 s + SIGTERM's 2 s at the most, with room for a loaded machine
        assert.isBelow(Date.now() - started, 5_000)
        for (const pid of pids) assert.isFalse(isAlive(pid), `pid ${pid} is still alive`)
        assert.deepStrictEqual(processesIn(cwd), [])
      }).pipe(Effect.provide(layer)))

    it.live("shutdown returns within its bounds for a child that ignores SIGTERM and its stdin", () =>
      Effect.gen(function*() {
        const cli = yield* CliProcess.make({
          ...sh("trap '' TERM; while :; do sleep 1; done"),
          killGracePeriod: 300
        })
        const started = Date.now()
        const status = yield* cli.shutdown({ gracePeriod: 200 })
        assert.isBelow(Date.now() - started, 3_000)
        assert.strictEqual(status.signal, "SIGKILL")
        assert.isFalse(isAlive(cli.pid))
      }).pipe(Effect.provide(layer)))

    it.live("a stopped CLI (SIGSTOP) is terminated within the bounds", () =>
      Effect.gen(function*() {
        const scope = yield* Scope.make()
        const cli = yield* CliProcess.make({ ...fake("echo"), closeGracePeriod: 500 }).pipe(Scope.provide(scope))
        process.kill(cli.pid, "SIGSTOP")
        const started = Date.now()
        yield* Scope.close(scope, Exit.void)
        // 0.5 s, then SIGTERM with SIGCONT
        assert.isBelow(Date.now() - started, 1_400)
        assert.isFalse(isAlive(cli.pid))
      }).pipe(Effect.provide(layer)))

    it.live("a CLI that exits while a grandchild holds its stdout: the lines end shortly after, the grandchild is gone", () =>
      Effect.gen(function*() {
        const cwd = yield* tempDir
        const pidFile = NodePath.join(cwd, "holder.pid")
        const cli = yield* CliProcess.make(fake("hold-stdout", { CLAUDE_EFFECT_PID_FILE: pidFile }, cwd))
        const started = Date.now()
        // the holder sleeps 30 s: the lines end once the CLI has exited and the drain is over
        const lines = yield* Stream.runCollect(cli.lines)
        assert.deepStrictEqual(lines, ["bye"])
        assert.isBelow(Date.now() - started, 5_000)
        yield* (cli.linesCut ?? Effect.void)
        const holder = Number(Fs.readFileSync(pidFile, "utf8"))
        yield* eventually(() => !isAlive(holder), "the grandchild to be gone", 3_000)
      }).pipe(Effect.provide(layer)))

    it.live("with a spawner that does not spawn detached: the pid is signalled, never after it exited", () =>
      Effect.gen(function*() {
        const signalled: Array<{ readonly target: number; readonly signal: string | number | undefined }> = []
        const kill = process.kill
        yield* Effect.acquireRelease(
          Effect.sync(() => {
            process.kill = ((target: number, signal?: string | number) => {
              signalled.push({ target, signal })
              return kill.call(process, target, signal)
            }) as typeof process.kill
          }),
          () => Effect.sync(() => (process.kill = kill))
        )
        // A child that ignores SIGTERM: only SIGKILL, sent to its pid (it leads no group), ends it.
        const stubborn = yield* CliProcess.make({
          ...sh("trap '' TERM; while :; do sleep 1; done"),
          killGracePeriod: 300
        })
        const status = yield* stubborn.shutdown({ gracePeriod: 200 })
        assert.strictEqual(status.signal, "SIGKILL")
        assert.isFalse(isAlive(stubborn.pid))
        // (its orphaned `sleep`, which keeps the process tag, may be killed too as a leftover: not counted here)
        const sent = signalled.filter((s) => s.signal !== 0 && Math.abs(s.target) === stubborn.pid)
        assert.deepStrictEqual(sent.map((s) => s.target), [stubborn.pid, stubborn.pid, stubborn.pid])
        assert.deepStrictEqual(sent.map((s) => s.signal), ["SIGTERM", "SIGCONT", "SIGKILL"])

        // A child that exits by itself: once it has, its pid is never signalled again.
        const scope = yield* Scope.make()
        const quick = yield* CliProcess.make({ executable: "/bin/sh", args: ["-c", "exit 0"], env: {} }).pipe(
          Scope.provide(scope)
        )
        yield* quick.awaitExit
        signalled.length = 0
        yield* quick.shutdown()
        yield* Scope.close(scope, Exit.void)
        assert.deepStrictEqual(signalled.filter((s) => Math.abs(s.target) === quick.pid), [])
      }).pipe(Effect.provide(Layer.merge(NodeServices.layer, nonDetachedSpawner))))
  })

  describe("spawn failures explain themselves", () => {
    const spawnFailure = (config: CliProcess.SpawnConfig) =>
      Effect.map(Effect.exit(Effect.scoped(CliProcess.make(config))), (exit) => {
        const error = failureOf(exit)
        assert.strictEqual(error?._tag, "CliExitError", String(exit))
        assert.strictEqual(error?.reason, "SpawnFailed")
        return error!
      })

    it.live("a missing executable, a missing #! interpreter, a file without its exec bit, a directory", () =>
      Effect.gen(function*() {
        const dir = yield* tempDir
        const missing = yield* spawnFailure({ executable: NodePath.join(dir, "claude"), args: [], env: {} })
        assert.include(missing.message, `${NodePath.join(dir, "claude")} does not exist (option \`executable\`)`)
        assert.strictEqual((missing.cause as { readonly code?: string }).code, "ENOENT")

        const interpreted = NodePath.join(dir, "interpreted")
        Fs.writeFileSync(interpreted, "#!/nonexistent/interpreter\n", { mode: 0o755 })
        const noInterpreter = yield* spawnFailure({ executable: interpreted, args: [], env: {} })
        assert.include(noInterpreter.message, "its interpreter /nonexistent/interpreter (its #! line) does not")

        const plain = NodePath.join(dir, "plain")
        Fs.writeFileSync(plain, "#!/bin/sh\n", { mode: 0o644 })
        const notExecutable = yield* spawnFailure({ executable: plain, args: [], env: {} })
        assert.include(notExecutable.message, `chmod +x ${plain}`)
        assert.strictEqual((notExecutable.cause as { readonly code?: string }).code, "EACCES")

        const directory = yield* spawnFailure({ executable: dir, args: [], env: {} })
        assert.include(directory.message, `${dir} is a directory, not the claude binary`)
      }).pipe(Effect.provide(layer)))

    it.live("a cwd that does not exist, or is a file, names the option and the path", () =>
      Effect.gen(function*() {
        const dir = yield* tempDir
        const file = NodePath.join(dir, "a-file")
        Fs.writeFileSync(file, "")
        const aFile = yield* spawnFailure({ ...sh("exit 0"), cwd: file })
        assert.include(aFile.message, `${file} (option \`cwd\`) is not a directory`)
        const missing = NodePath.join(dir, "no-such-dir")
        const notThere = yield* spawnFailure({ ...sh("exit 0"), cwd: missing })
        assert.include(notThere.message, `${missing} (option \`cwd\`) does not exist`)
      }).pipe(Effect.provide(layer)))

    it.live("an argument list too long for the OS is a typed SpawnFailed naming the flag", () =>
      Effect.gen(function*() {
        const error = yield* spawnFailure({
          ...sh("exit 0"),
          args: ["-c", "exit 0", "--append-system-prompt", "x".repeat(200_000)]
        })
        assert.include(error.message, "longer than the operating system accepts")
        assert.include(error.message, "the longest, for --append-system-prompt, has 200000")
        assert.strictEqual((error.cause as { readonly code?: string }).code, "E2BIG")
      }).pipe(Effect.provide(layer)))

    it.live("no surface of a spawn failure carries the arguments or a secret", () =>
      Effect.gen(function*() {
        const dir = yield* tempDir
        const executable = NodePath.join(dir, "claude")
        Fs.writeFileSync(executable, "#!/nonexistent/interpreter\n", { mode: 0o755 })
        const token = "tok_MCP_SECRET_abcdef0123456789"
        const error: CliExitError = yield* spawnFailure({
          executable,
          args: ["--mcp-config", JSON.stringify({ headers: { Authorization: `Bearer ${token}` } })],
          env: { ANTHROPIC_API_KEY: apiKey },
          redact: [apiKey, token]
        })
        const surfaces = [
          error.message,
          JSON.stringify(error),
          Util.inspect(error, { depth: 10 }),
          String(error.cause),
          Util.inspect(error.cause, { depth: 10 }),
          Cause.pretty(Cause.fail(error))
        ]
        for (const surface of surfaces) {
          assertNoPieceOf(token, surface, "the spawn error")
          assertNoPieceOf(apiKey, surface, "the spawn error")
        }
      }).pipe(Effect.provide(layer)))
  })
})

/**
 * effect's ChildProcessSpawner with every command started without `detached`, as a custom spawner may: the
 * child then leads no process group of its own, and the spawner does not say so.
 */
const nonDetachedSpawner = Layer.effect(
  CliSpawner.CliSpawner,
  Effect.gen(function*() {
    const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
    return CliSpawner.fromChildProcessSpawner(ChildProcessSpawner.make((command) =>
      spawner.spawn(
        command._tag === "StandardCommand"
          ? ChildProcess.make(command.command, command.args, { ...command.options, detached: false })
          : command
      )
    ))
  })
).pipe(Layer.provide(NodeChildProcessSpawner.layer), Layer.provide(NodeServices.layer))
