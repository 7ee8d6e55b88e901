import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ChildProcess from "node:child_process"
import * as ProcessTag from "../src/internal/processTag.js"
import { isAlive } from "./utils/harness.js"

// A tagged process in a session of its own (as a background job of the CLI's shells is): out of reach of any
// process group, found only by its tag. Killed by the test's finalizer if a scan missed it.
const startTagged = (tag: string) =>
  Effect.acquireRelease(
    Effect.callback<number>((resume) => {
      const child = ChildProcess.spawn("sleep", ["60"], {
        detached: true,
        stdio: "ignore",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", [ProcessTag.variable]: tag }
      })
      child.once("spawn", () => resume(Effect.succeed(child.pid!)))
    }),
    (pid) =>
      Effect.sync(() => {
        try {
          process.kill(pid, "SIGKILL")
        } catch {
          // gone
        }
      })
  )

// As CliProcess does: the fork count read before the spawn of the process standing in for the CLI, and
// the window of pids allocated since that spawn.
const windowOfStandIn = (tag: string) =>
  Effect.gen(function*() {
    const forks = ProcessTag.forkCount()
    const spawn = yield* startTagged(`${tag}-cli`)
    return ProcessTag.pidWindow(spawn, forks)
  })

describe.runIf(process.platform === "linux")("leftovers: processes found by their tag", () => {
  it.live("a process started since the CLI's spawn is found through the window of pids allocated since", () =>
    Effect.gen(function*() {
      const tag = ProcessTag.make()
      const window = yield* windowOfStandIn(tag)
      assert.isDefined(window, "/proc shows this process's namespace here")
      const later = yield* startTagged(tag)
      assert.deepStrictEqual(yield* ProcessTag.signalTagged(tag, "SIGKILL", window), [later])
      assert.isFalse(isAlive(later))
    }))

  it.live("the window leaves out what ran before the spawn: it reads only pids allocated since", () =>
    Effect.gen(function*() {
      const tag = ProcessTag.make()
      const before = yield* startTagged(tag)
      const window = yield* windowOfStandIn(tag)
      assert.deepStrictEqual(yield* ProcessTag.signalTagged(tag, "SIGKILL", window), [])
      assert.isTrue(isAlive(before))
      // Without a window every process is read.
      assert.deepStrictEqual(yield* ProcessTag.signalTagged(tag, "SIGKILL"), [before])
    }))

  it.live("a window the pids may have gone round since (as many forks as a cycle has pids) falls back to every process", () =>
    Effect.gen(function*() {
      const tag = ProcessTag.make()
      const before = yield* startTagged(tag)
      const window = (yield* windowOfStandIn(tag))!
      const lapped = { ...window, forks: window.forks - window.pidMax }
      assert.deepStrictEqual(yield* ProcessTag.signalTagged(tag, "SIGKILL", lapped), [before])
      assert.isFalse(isAlive(before))
    }))
})

// A pid whose process has exited and been reaped: no live process has it (until the kernel hands it out again).
const reapedPid = Effect.callback<number>((resume) => {
  const child = ChildProcess.spawn("true", [], { stdio: "ignore" })
  child.once("exit", () => resume(Effect.succeed(child.pid!)))
})

const awaitGone = (pids: ReadonlyArray<number>) =>
  Effect.gen(function*() {
    for (let waited = 0; waited < 2_000 && pids.some(isAlive); waited += 20) yield* Effect.sleep("20 millis")
    for (const pid of pids) assert.isFalse(isAlive(pid), `pid ${pid} is still alive`)
  })

describe.runIf(process.platform === "linux")("the sweep of what dead hosts left", () => {
  it("a tag names its host: pid, start time, pid namespace, thread", () => {
    const us = ProcessTag.host()
    assert.strictEqual(us.start, ProcessTag.startTimeOf(process.pid))
    assert.match(us.namespace, /^[1-9]\d*$/)
    assert.deepStrictEqual(ProcessTag.hostOf(ProcessTag.make()), us)
    assert.notStrictEqual(ProcessTag.make(), ProcessTag.make())
    assert.isUndefined(ProcessTag.hostOf("12345-lq3x0-abcdefgh"), "a tag of another form names no host")
  })

  it.live(
    "a process whose host is gone is killed, also when the host's pid belongs to another process now; a live host's and another namespace's are left",
    () =>
      Effect.gen(function*() {
        const us = ProcessTag.host()
        const reaped = yield* reapedPid
        const hostGone = yield* startTagged(ProcessTag.hostPrefix({ ...us, pid: reaped }) + "a")
        // This process's pid with another start time: the host that had it died, and the pid was handed out again.
        const pidReused = yield* startTagged(
          ProcessTag.hostPrefix({ ...us, start: String(Number(us.start) - 1) }) + "b"
        )
        const hostAlive = yield* startTagged(ProcessTag.make())
        const otherNamespace = yield* startTagged(
          ProcessTag.hostPrefix({ ...us, pid: reaped, namespace: String(Number(us.namespace) + 1) }) + "c"
        )
        const swept = ProcessTag.sweepOrphans()
        assert.includeMembers([...swept], [hostGone, pidReused])
        assert.notInclude(swept, hostAlive)
        assert.notInclude(swept, otherNamespace)
        yield* awaitGone([hostGone, pidReused])
        assert.isTrue(isAlive(hostAlive))
        assert.isTrue(isAlive(otherNamespace))
      })
  )
})
