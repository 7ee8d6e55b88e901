/**
 * The spawners under CliProcess, one suite against each: effect's ChildProcessSpawner and
 * node:child_process. Real processes (sh, cat, head), checked by what they did and by pid.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import * as Scope from "effect/Scope"
import { PassThrough } from "node:stream"
import * as CliSpawner from "../src/CliSpawner.js"
import * as NodeCliSpawner from "../src/NodeCliSpawner.js"
import { isAlive } from "./utils/harness.js"

// Each with whether its child leads a process group of its own: effect's ChildProcess spawns detached;
// NodeCliSpawner only where leftovers cannot be found by their tag (no Linux /proc), or when asked to.
const spawners: ReadonlyArray<readonly [string, Effect.Effect<CliSpawner.CliSpawner.Service>, boolean]> = [
  [
    "ChildProcessSpawner",
    Effect.map(Effect.service(ChildProcessSpawner.ChildProcessSpawner), CliSpawner.fromChildProcessSpawner).pipe(
      Effect.provide(NodeServices.layer)
    ),
    true
  ],
  ["NodeCliSpawner", Effect.succeed(NodeCliSpawner.spawner), process.platform !== "linux"],
  ["NodeCliSpawner, ownProcessGroup", Effect.succeed(NodeCliSpawner.make({ ownProcessGroup: true })), true]
]

const PATH = process.env.PATH ?? "/usr/bin:/bin"
const sh = (script: string, env: Record<string, string> = {}): CliSpawner.Command => ({
  executable: "/bin/sh",
  args: ["-c", script],
  env: { PATH, ...env }
})

/** Everything a pipe gives until it closes, decoded; `pause` between pulls makes a slow reader. */
const readAll = (pull: CliSpawner.Pull, pause?: Effect.Effect<void>) =>
  Effect.suspend(() => {
    let bytes = 0
    const decoder = new TextDecoder()
    let text = ""
    const loop: Effect.Effect<{ readonly bytes: number; readonly text: string }> = Effect.matchEffect(pull, {
      onFailure: () => Effect.sync(() => ({ bytes, text: text + decoder.decode() })),
      onSuccess: (chunk) => {
        for (const piece of chunk) {
          bytes += piece.length
          if (text.length < 1 << 16) text += decoder.decode(piece, { stream: true })
        }
        return pause === undefined ? loop : Effect.andThen(pause, loop)
      }
    })
    return loop
  })

for (const [name, makeSpawner, ownGroup] of spawners) {
  describe(`CliSpawner: ${name}`, () => {
    it.live("stdin is written in order, ends when told, and stdout gives it back until the pipe closes", () =>
      Effect.gen(function*() {
        const spawner = yield* makeSpawner
        const cat = yield* spawner.spawn({ executable: "cat", args: [], env: { PATH } })
        assert.isTrue(cat.write("first line\n"))
        assert.isTrue(cat.write("ünïcödé ✓\n"))
        cat.endInput()
        assert.isFalse(cat.write("after the end\n"), "nothing is written once stdin has ended")
        const out = yield* readAll(cat.stdout)
        assert.strictEqual(out.text, "first line\nünïcödé ✓\n")
        assert.deepStrictEqual(yield* cat.exit, { code: 0, signal: null })
        assert.isFalse(yield* cat.isRunning)
      }))

    it.live("an exit code, a death by signal and stderr are reported as they happened", () =>
      Effect.gen(function*() {
        const spawner = yield* makeSpawner
        const failing = yield* spawner.spawn(sh("echo oops >&2; exit 3"))
        assert.strictEqual((yield* readAll(failing.stderr)).text, "oops\n")
        assert.deepStrictEqual(yield* failing.exit, { code: 3, signal: null })
        const killed = yield* spawner.spawn(sh("kill -TERM $$; sleep 5"))
        assert.deepStrictEqual(yield* killed.exit, { code: null, signal: "SIGTERM" })
      }))

    it.live("the environment is exactly the one given: nothing is inherited", () =>
      Effect.gen(function*() {
        const spawner = yield* makeSpawner
        const child = yield* spawner.spawn(sh("echo \"[$HOME][$GIVEN]\"", { GIVEN: "yes" }))
        assert.strictEqual((yield* readAll(child.stdout)).text, "[][yes]\n")
      }))

    it.live("a slow reader loses nothing: 8 MiB arrive whole, whatever the pace of the pulls", () =>
      Effect.gen(function*() {
        const spawner = yield* makeSpawner
        const child = yield* spawner.spawn({
          executable: "head",
          args: ["-c", String(8 << 20), "/dev/zero"],
          env: { PATH }
        })
        const out = yield* readAll(child.stdout, Effect.sleep("1 millis"))
        assert.strictEqual(out.bytes, 8 << 20)
        assert.deepStrictEqual(yield* child.exit, { code: 0, signal: null })
      }))

    it.live(`the process ${ownGroup ? "leads a group of its own" : "stays in ours"}, and closing the scope kills what still runs`, () =>
      Effect.gen(function*() {
        const spawner = yield* makeSpawner
        const scope = yield* Scope.make()
        const child = yield* spawner.spawn(sh("sleep 30")).pipe(Scope.provide(scope))
        assert.isTrue(isAlive(child.pid))
        if (ownGroup) {
          assert.doesNotThrow(() => process.kill(-child.pid, 0), "the child's pid is its process group's id")
        } else {
          assert.throws(() => process.kill(-child.pid, 0), /ESRCH/, "no process group has the child's pid as its id")
        }
        assert.isTrue(yield* child.isRunning)
        yield* Scope.close(scope, Exit.void)
        const until = Date.now() + 5_000
        while (isAlive(child.pid) && Date.now() < until) yield* Effect.sleep("20 millis")
        assert.isFalse(isAlive(child.pid))
      }))

    it.live("a missing executable fails with the platform's NotFound, with the error's code as its cause", () =>
      Effect.gen(function*() {
        const spawner = yield* makeSpawner
        const error = yield* Effect.flip(
          spawner.spawn({ executable: "/nonexistent/claude", args: ["--token=SECRET-ARGUMENT"], env: {} })
        )
        assert.strictEqual(error._tag, "PlatformError")
        assert.strictEqual(error.reason._tag, "NotFound")
        assert.strictEqual((error.cause as { readonly code?: unknown } | undefined)?.code, "ENOENT")
        if (name.startsWith("NodeCliSpawner")) {
          // (ChildProcess's error quotes the command line; CliProcess keeps only the code of either.)
          assert.notInclude(`${String(error)} ${JSON.stringify(error)}`, "SECRET-ARGUMENT")
        }
      }))
  })
}

describe("NodeCliSpawner.fromPipes", () => {
  it.live("a reader interrupted while it waits loses nothing: the next pull gets what arrived since", () =>
    Effect.gen(function*() {
      const pipe = new PassThrough()
      const pull = NodeCliSpawner.fromPipes({
        pid: 0,
        stdin: new PassThrough(),
        stdout: pipe,
        exit: Effect.never,
        isRunning: Effect.succeed(true)
      }).stdout
      const waiting = yield* Effect.forkChild(pull, { startImmediately: true })
      yield* Effect.sleep("20 millis")
      yield* Fiber.interrupt(waiting)
      pipe.write("after the interruption\n")
      pipe.end()
      // The data event has come and woken the interrupted reader's (dead) resume before the next pull.
      yield* Effect.sleep("20 millis")
      const out = yield* readAll(pull)
      assert.strictEqual(out.text, "after the interruption\n")
    }))
})
