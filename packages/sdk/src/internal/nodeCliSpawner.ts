/**
 * `CliSpawner` over `node:child_process`: stdin written directly, stdout and
 * stderr pulled from what their `data` events buffered, or stdout pushed as
 * its `data` events come.
 *
 * @internal
 */
import type * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as PlatformError from "effect/PlatformError"
import * as Scope from "effect/Scope"
import * as ChildProcess from "node:child_process"
import type { Readable } from "node:stream"
import type { ExitStatus } from "../CliProcess.js"
import type * as CliSpawner from "../CliSpawner.js"
import type * as NodeCliSpawner from "../NodeCliSpawner.js"
import * as ProcessTag from "./processTag.js"

// How many chunks a pipe buffers before it is paused until the reader takes them (the child then
// waits on a full pipe, as it would with a slow reader of a stream).
const PAUSE_AT_CHUNKS = 16

const closed: CliSpawner.Pull = Cause.done()

/**
 * A pipe read either way: pulled (`pull`, what its `data` events buffered) or pushed (`push`, each chunk
 * handed over as its `data` event comes, what was buffered first).
 *
 * @internal
 */
export const readerOf = (readable: Readable): {
  readonly pull: CliSpawner.Pull
  readonly push: (receiver: CliSpawner.StdoutReceiver) => () => void
} => {
  let buffered: Array<Uint8Array> = []
  let ended = false
  let waiting: ((take: CliSpawner.Pull) => void) | undefined
  let receiver: CliSpawner.StdoutReceiver | undefined

  const takeBuffered: CliSpawner.Pull = Effect.suspend(() => {
    if (buffered.length === 0) return closed
    const taken = buffered
    buffered = []
    if (!ended && readable.isPaused()) readable.resume()
    return Effect.succeed(taken as Arr.NonEmptyArray<Uint8Array>)
  })
  const wake = () => {
    const resume = waiting
    if (resume !== undefined) {
      waiting = undefined
      resume(takeBuffered)
    }
  }
  const end = () => {
    if (ended) return
    ended = true
    if (receiver !== undefined) receiver.end()
    else wake()
  }
  readable.on("data", (bytes: Uint8Array) => {
    if (receiver !== undefined) return receiver.chunk(bytes)
    buffered.push(bytes)
    if (buffered.length >= PAUSE_AT_CHUNKS) readable.pause()
    wake()
  })
  // A read error closes the pipe, as its end does: the exit status says why.
  readable.on("error", end)
  readable.on("close", end)
  readable.on("end", end)

  // No canceler: an interrupted reader's resume is ignored, and what it would have taken stays buffered
  // (the take runs only in a resumed fiber). A canceler would wrap every wait in an interruption
  // handler: nine more runtime steps per chunk read.
  const wait = Effect.callback<Arr.NonEmptyReadonlyArray<Uint8Array>, Cause.Done>((resume) => {
    waiting = resume
  })
  const pull = Effect.suspend(() => buffered.length > 0 || ended ? takeBuffered : wait)

  const push = (to: CliSpawner.StdoutReceiver) => {
    receiver = to
    const taken = buffered
    buffered = []
    for (const bytes of taken) to.chunk(bytes)
    if (ended) to.end()
    else if (readable.isPaused()) readable.resume()
    return () => {
      if (receiver === to) receiver = undefined
    }
  }
  return { pull, push }
}

/** @internal */
export const fromPipes = (pipes: NodeCliSpawner.Pipes): CliSpawner.SpawnedProcess => {
  const stdin = pipes.stdin
  const stdout = readerOf(pipes.stdout)
  // Writing to a process that has gone fails with EPIPE: its exit status says why, the bytes are dropped.
  stdin.on("error", () => {})
  return {
    pid: pipes.pid,
    stdout: stdout.pull,
    pushStdout: stdout.push,
    stderr: pipes.stderr === undefined ? closed : readerOf(pipes.stderr).pull,
    write: (text) => {
      if (stdin.writableEnded) return false
      stdin.write(text)
      return true
    },
    endInput: () => {
      if (!stdin.writableEnded) stdin.end()
    },
    exit: pipes.exit,
    isRunning: pipes.isRunning,
    leadsProcessGroup: pipes.leadsProcessGroup
  }
}

// Only the error's code: Node's spawn error carries the argument list, which may hold a token.
const spawnError = (error: unknown): PlatformError.PlatformError => {
  const code = (error as { readonly code?: unknown } | null)?.code
  const safeCode = typeof code === "string" ? code : "UNKNOWN"
  return PlatformError.systemError({
    _tag: safeCode === "ENOENT"
      ? "NotFound"
      : safeCode === "EACCES" || safeCode === "EPERM"
      ? "PermissionDenied"
      : "Unknown",
    module: "ChildProcess",
    method: "spawn",
    description: `spawn failed (${safeCode})`,
    cause: Object.assign(new Error(`spawn ${safeCode}`), { code: safeCode })
  })
}

interface Started {
  readonly child: ChildProcess.ChildProcessWithoutNullStreams
  readonly pid: number
}

/**
 * Where the leftovers scan finds what a CLI started (Linux), the CLI stays in the caller's process group, as
 * the official SDK's does: a group of its own comes only with a session of its own (Node's `detached` is
 * `setsid`), and Linux gives every session a scheduling group of its own (autogroup), so each CLI would get
 * the CPU share of a whole desktop session. 64 concurrent sessions on 2 cores took 1.8x the wall time
 * (`packages/bench`, row 6). Elsewhere the group is how its processes are found, and the CLI leads one.
 *
 * @internal
 */
export const make = (options?: NodeCliSpawner.Options | undefined): CliSpawner.CliSpawner.Service => ({
  spawn: (command) =>
    spawn(command, process.platform !== "win32" && (options?.ownProcessGroup ?? !ProcessTag.findsTagged()))
})

const spawn = (command: CliSpawner.Command, ownGroup: boolean) =>
  Effect.gen(function*() {
    const exited = yield* Deferred.make<ExitStatus>()
    const running = (child: ChildProcess.ChildProcess) => child.exitCode === null && child.signalCode === null
    const scope = yield* Effect.scope
    // As `Effect.acquireRelease`, without its restoring of the fiber refs for a release that needs none.
    const { child, pid } = yield* Effect.tap(
      Effect.callback<Started, PlatformError.PlatformError>((resume) => {
        let child: ChildProcess.ChildProcessWithoutNullStreams
        try {
          child = ChildProcess.spawn(command.executable, command.args, {
            stdio: "pipe",
            env: command.env,
            ...(command.cwd !== undefined ? { cwd: command.cwd } : {}),
            // A process group of its own: the shells and tools it starts are signalled with it.
            detached: ownGroup
          })
        } catch (error) {
          resume(Effect.fail(spawnError(error)))
          return
        }
        child.on("exit", (code, signal) => {
          Deferred.doneUnsafe(exited, Effect.succeed({ code, signal }))
        })
        const failed = (error: unknown) => Effect.fail(spawnError(error))
        const onError = (error: unknown) => resume(failed(error))
        child.once("error", onError)
        child.once("spawn", () => {
          child.off("error", onError)
          // Later errors (a signal that could not be sent) change nothing the exit status does not say.
          child.on("error", () => {})
          // Node leaves the pid undefined only where the spawn failed.
          resume(child.pid !== undefined ? Effect.succeed({ child, pid: child.pid }) : failed(undefined))
        })
      }),
      ({ child, pid }) =>
        Scope.addFinalizer(
          scope,
          Effect.sync(() => {
            // Shut down before (CliProcess's finalizer); whatever still runs now is killed, and the pipes
            // are released even when a process the CLI left holds their other ends.
            if (running(child)) {
              try {
                process.kill(ownGroup ? -pid : pid, "SIGKILL")
              } catch {
                child.kill("SIGKILL")
              }
            }
            child.stdin.destroy()
            child.stdout.destroy()
            child.stderr.destroy()
          })
        )
    ).pipe(Effect.uninterruptible)
    return fromPipes({
      pid,
      stdin: child.stdin,
      stdout: child.stdout,
      stderr: child.stderr,
      exit: Deferred.await(exited),
      isRunning: Effect.sync(() => running(child)),
      leadsProcessGroup: ownGroup
    })
  })

/** @internal */
export const spawner: CliSpawner.CliSpawner.Service = make()
