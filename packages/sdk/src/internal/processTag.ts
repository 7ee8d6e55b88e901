/**
 * Finding every process a CLI started, wherever it went. The CLI runs its
 * Bash tool's shells in sessions of their own, so a background job
 * (`sleep 120 &`) is in neither the CLI's process group nor, once its shell
 * has exited, its process tree. It does keep the environment it inherited:
 * each CLI process gets a variable with a value of its own, and whatever
 * still carries it after the CLI has gone is a leftover of that CLI.
 *
 * Where there is no `/proc` (macOS, Windows) nothing is found, and only the
 * process group is signalled.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"

/** The variable that marks a CLI process and everything it starts. */
export const variable = "CLAUDE_EFFECT_PROCESS_TAG"

/** A new tag, unique to one CLI process. */
export const make = (): string => `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`

/**
 * Sends `signal` to every live process (other than this one) whose
 * environment carries `tag`. Best effort: processes of other users, and
 * processes gone in the meantime, are skipped.
 *
 * `/proc` is read with synchronous calls, not the platform's `FileSystem`:
 * it is Linux's process table, not a file system a program would swap, and
 * a few hundred tiny synchronous reads (about a millisecond) keep a close
 * fast where as many asynchronous ones took tens of milliseconds.
 *
 * @internal
 */
export const signalTagged = (tag: string, signal: NodeJS.Signals): Effect.Effect<ReadonlyArray<number>> =>
  Effect.flatMap(signalNow(tag, signal), (pids) => Effect.as(awaitGone(pids), pids))

const signalNow = (tag: string, signal: NodeJS.Signals): Effect.Effect<ReadonlyArray<number>> =>
  Effect.sync(() => {
    if (process.platform !== "linux") return []
    let entries: Array<string>
    try {
      entries = Fs.readdirSync("/proc")
    } catch {
      return []
    }
    const needle = Buffer.from(`${variable}=${tag}\0`)
    const signalled: Array<number> = []
    for (const entry of entries) {
      const pid = Number(entry)
      if (!Number.isInteger(pid) || pid === process.pid) continue
      let environ: Buffer
      try {
        environ = Fs.readFileSync(`/proc/${entry}/environ`)
      } catch {
        continue
      }
      if (environ.indexOf(needle) === -1) continue
      try {
        process.kill(pid, signal)
        signalled.push(pid)
      } catch {
        // gone in the meantime
      }
    }
    return signalled
  })

// A process is gone once it has no /proc entry or is a zombie (dead, waiting to be reaped by its parent).
const isGone = (pid: number): boolean => {
  try {
    return /\) Z /.test(Fs.readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return true
  }
}

// How long a close waits for the processes it killed to be gone, polling every 10 ms.
const GONE_WITHIN_MILLIS = 1_000

/** Waits, boundedly, until SIGKILLed processes are gone: when a close returns, nothing it killed still runs. */
const awaitGone = (pids: ReadonlyArray<number>): Effect.Effect<void> =>
  Effect.gen(function*() {
    for (let waited = 0; waited < GONE_WITHIN_MILLIS && !pids.every(isGone); waited += 10) {
      yield* Effect.sleep(Duration.millis(10))
    }
  }).pipe(Effect.interruptible)
