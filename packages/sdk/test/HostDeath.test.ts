/**
 * Nothing outlives its host: a host program (test/fixtures/host-program.ts, in a process of its own) runs a
 * CliProcess whose CLI (the stand-in, test/fixtures/fake-claude.mjs) has started a background job and a
 * foreground tool, each in a session of its own as the real CLI's shells are; the host then dies (SIGKILL,
 * `process.exit`, an uncaught exception). Checked by pid: the CLI, the tool and the background job are gone.
 * Then the watchdog on its own: what it kills once its input ends, and what it leaves.
 *
 * (The same deaths with a session on the real CLI, and "the model gets no further request", come with the
 * session's port.)
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as HostWatchdog from "../src/internal/hostWatchdog.js"
import * as ProcessTag from "../src/internal/processTag.js"
import { buildHostProgram } from "./fixtures/host-program-build.js"
import { isAlive, processesIn } from "./utils/harness.js"

const built: Array<{ readonly remove: () => void }> = []
let hostProgram: Promise<string> | undefined
const hostProgramFile = Effect.promise(() =>
  hostProgram ??= buildHostProgram().then((program) => {
    built.push(program)
    return program.file
  })
)
afterAll(() => {
  for (const program of built.splice(0)) program.remove()
})

const fakeCli = Path.join(import.meta.dirname, "fixtures", "fake-claude.mjs")

/** A fresh working directory for the host's CLI, removed when the scope closes. */
const workspace = Effect.acquireRelease(
  Effect.sync(() => Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "host-death-")))),
  (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
)

interface Host {
  readonly pid: number
  /** The CLI's pid, once the host has started it. */
  readonly cli: Effect.Effect<number>
  readonly exited: Effect.Effect<void>
  readonly tell: (line: string) => void
  readonly output: () => string
}

/** The host program in a process of its own, its CLI in `cwd`; SIGKILLed when the scope closes if it still runs. */
const startHost = (cwd: string, fake = "tools") =>
  Effect.gen(function*() {
    const file = yield* hostProgramFile
    return yield* Effect.acquireRelease(
      Effect.sync((): Host => {
        const child = ChildProcess.spawn(process.execPath, [file], {
          cwd: Path.dirname(file),
          env: { ...process.env, HOST_CWD: cwd, HOST_FAKE: fake, FAKE_CLI: fakeCli },
          stdio: ["pipe", "pipe", "pipe"]
        })
        let output = ""
        const onOutput = (chunk: string) => void (output = (output + chunk).slice(-100_000))
        child.stdout.setEncoding("utf8").on("data", onOutput)
        child.stderr.setEncoding("utf8").on("data", onOutput)
        child.stdin.on("error", () => {})
        const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()))
        const cli = new Promise<number>((resolve) => {
          const look = () => {
            const match = /"event":"cli","pid":(\d+)/.exec(output)
            if (match !== null) {
              child.stdout.off("data", look)
              resolve(Number(match[1]))
            }
          }
          child.stdout.on("data", look)
        })
        return {
          pid: child.pid!,
          cli: Effect.promise(() => cli),
          exited: Effect.promise(() => exit),
          tell: (line) => void child.stdin.write(`${line}\n`),
          output: () => output
        }
      }),
      (host) =>
        Effect.sync(() => {
          try {
            process.kill(host.pid, "SIGKILL")
          } catch {
            // gone
          }
        })
    )
  })

const cmdline = (pid: number): string => {
  try {
    return Fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim()
  } catch {
    return ""
  }
}

/** Waits (bounded) until `holds` does, polling every 20 ms; the milliseconds waited. */
const within = (millis: number, what: string | (() => string), holds: () => boolean) =>
  Effect.gen(function*() {
    const started = Date.now()
    while (!holds()) {
      if (Date.now() - started > millis) {
        return yield* Effect.die(new Error(`not within ${millis} ms: ${typeof what === "string" ? what : what()}`))
      }
      yield* Effect.sleep("20 millis")
    }
    return Date.now() - started
  })

// The background job's and the tool's command lines as /proc shows them (their arguments joined by spaces).
const backgroundJob = `${process.execPath} -e setTimeout(() => {}, 300000)`
const foregroundTool = `${process.execPath} -e setTimeout(() => {}, 300001)`

/**
 * Runs the host until its CLI has started the tool and the background job; the processes then in the workspace
 * (the CLI and both) and the host's watchdog.
 */
const midTool = (host: Host, cwd: string) =>
  Effect.gen(function*() {
    const cli = yield* host.cli
    yield* within(
      10_000,
      () => `the tool and the background job run: ${described(processesIn(cwd))}\n${host.output()}`,
      () => running(cwd, foregroundTool).length === 1 && running(cwd, backgroundJob).length === 1
    )
    const pids = processesIn(cwd)
    assert.include(pids, cli)
    assert.strictEqual(pids.length, 3)
    const watchdog = yield* within(5_000, "the host's watchdog runs", () => watchdogOf(host.pid) !== undefined).pipe(
      Effect.map(() => watchdogOf(host.pid)!)
    )
    return { cli, pids, watchdog }
  })

/** The live processes in `cwd` running `command` exactly. */
const running = (cwd: string, command: string) => processesIn(cwd).filter((pid) => cmdline(pid) === command)

/** The watchdog the host started (a child of its own, named so in `ps`), if it runs. */
const watchdogOf = (hostPid: number): number | undefined =>
  Fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).map(Number).find((pid) => {
    try {
      const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      return Number(ppid) === hostPid && state !== "Z" && cmdline(pid).includes(HostWatchdog.processName)
    } catch {
      return false
    }
  })

/** Kills the host's watchdog and waits until it is gone: the host is then on its own. */
const killWatchdog = (watchdog: number) =>
  Effect.gen(function*() {
    process.kill(watchdog, "SIGKILL")
    yield* within(2_000, "the watchdog gone", () => !isAlive(watchdog))
  })

const gone = (pids: ReadonlyArray<number>) => pids.every((pid) => !isAlive(pid))
const described = (pids: ReadonlyArray<number>) => pids.map((pid) => `${pid}: ${cmdline(pid)}`).join("; ")

describe.runIf(process.platform === "linux")("nothing outlives its host", () => {
  it.live(
    "a host SIGKILLed mid-tool: its CLI, the tool and the background job are gone within 2 s",
    () =>
      Effect.gen(function*() {
        const cwd = yield* workspace
        const host = yield* startHost(cwd)
        const { pids, watchdog } = yield* midTool(host, cwd)
        process.kill(host.pid, "SIGKILL")
        yield* within(2_000, `every process of the dead host gone (${described(pids)})`, () => gone(pids))
        assert.deepStrictEqual(processesIn(cwd), [])
        yield* within(1_000, "the watchdog exits once it has done its work", () => !isAlive(watchdog))
      }),
    { timeout: 60_000 }
  )

  for (const ending of ["exit", "throw"] as const) {
    it.live(
      `a host that ends by ${
        ending === "exit" ? "process.exit" : "an uncaught exception"
      } mid-tool kills its CLI, the tool and the background job as it exits (its watchdog dead)`,
      () =>
        Effect.gen(function*() {
          const cwd = yield* workspace
          const host = yield* startHost(cwd)
          const { pids, watchdog } = yield* midTool(host, cwd)
          yield* killWatchdog(watchdog)
          host.tell(ending)
          yield* host.exited
          yield* within(500, `every process of the host gone as it exited (${described(pids)})`, () => gone(pids))
          assert.deepStrictEqual(processesIn(cwd), [])
        }),
      { timeout: 60_000 }
    )
  }

  it.live(
    "what a host killed together with its watchdog left is killed when the next host starts a CLI",
    () =>
      Effect.gen(function*() {
        const cwd = yield* workspace
        const first = yield* startHost(cwd)
        const { pids, watchdog } = yield* midTool(first, cwd)
        const [background] = running(cwd, backgroundJob)
        yield* killWatchdog(watchdog)
        process.kill(first.pid, "SIGKILL")
        yield* within(2_000, "the host gone", () => !isAlive(first.pid))
        // Nothing stops it now: it would run its 300 s.
        yield* Effect.sleep("200 millis")
        assert.isTrue(isAlive(background!), "the background job outlived its host and its watchdog")
        const next = yield* startHost(cwd, "echo")
        yield* next.cli
        yield* within(2_000, `what the dead host left gone (${described(pids)})`, () => gone(pids))
      }),
    { timeout: 60_000 }
  )
})

/** `command` in a session of its own (as the CLI's shells are), with `env`; SIGKILLed when the scope closes. */
const startDetached = (command: string, env: Record<string, string> = {}) =>
  Effect.acquireRelease(
    Effect.callback<number>((resume) => {
      const child = ChildProcess.spawn("/bin/sh", ["-c", command], {
        detached: true,
        stdio: "ignore",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }
      })
      child.once("spawn", () => resume(Effect.succeed(child.pid!)))
    }),
    (pid) =>
      Effect.sync(() => {
        try {
          process.kill(-pid, "SIGKILL")
        } catch {
          // gone
        }
      })
  )

/** The pids of the process group `group`. */
const groupMembers = (group: number) =>
  Fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => {
    try {
      const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) === group
    } catch {
      return false
    }
  })

describe.runIf(process.platform === "linux")("the host's watchdog", () => {
  it.live(
    "when its input ends (its host is gone) it kills the host's tagged processes and the process groups it was given, nothing else, and exits",
    () =>
      Effect.gen(function*() {
        // A host of its own (another thread id): this test process's own CLIs are not its business.
        const fakeHost = { ...ProcessTag.host(), thread: 1_000_000 + Math.floor(Math.random() * 1_000_000) }
        const tagged = yield* startDetached("exec sleep 60", {
          [ProcessTag.variable]: `${ProcessTag.hostPrefix(fakeHost)}cli1`
        })
        const group = yield* startDetached("sleep 60 & exec sleep 60")
        const removed = yield* startDetached("exec sleep 60")
        const anotherHosts = yield* startDetached("exec sleep 60", { [ProcessTag.variable]: ProcessTag.make() })
        yield* within(2_000, "the group's two processes run", () => groupMembers(group).length === 2)
        const members = groupMembers(group)

        let exited = false
        const watchdog = HostWatchdog.start(`${ProcessTag.variable}=${ProcessTag.hostPrefix(fakeHost)}`, () => {
          exited = true
        })
        assert.isDefined(watchdog)
        watchdog!.add(-group)
        watchdog!.add(-removed)
        watchdog!.remove(-removed)
        yield* Effect.sleep("200 millis")
        assert.isTrue([tagged, ...members, removed].every(isAlive), "nothing is killed while the input is open")

        watchdog!.close()
        yield* within(1_000, "the tagged process and the group gone", () => gone([tagged, ...members]))
        yield* within(1_000, "the watchdog exited", () => exited && !isAlive(watchdog!.pid!))
        assert.isTrue(isAlive(removed), "a group no longer given is left alone")
        assert.isTrue(isAlive(anotherHosts), "another host's tagged process is left alone")
      })
  )
})
