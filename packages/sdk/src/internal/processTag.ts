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
 * fast where as many asynchronous ones took tens of milliseconds. Every
 * environment is read into one buffer kept for the next scan: a `/proc` file
 * reports no size, so reading each into a new buffer (`readFileSync`) grew
 * one step by step, and cost twice the CPU and ~70 KB of garbage per close.
 *
 * With the {@link PidWindow} of the CLI's spawn, only the environments of
 * processes started since are read (see {@link pidWindow}).
 *
 * @internal
 */
export const signalTagged = (
  tag: string,
  signal: NodeJS.Signals,
  window?: PidWindow | undefined
): Effect.Effect<ReadonlyArray<number>> =>
  Effect.flatMap(
    signalNow(tag, signal, window),
    (pids) => pids.length === 0 ? Effect.succeed(pids) : Effect.as(awaitGone(pids), pids)
  )

/**
 * Where the pids of the processes a CLI starts fall. Linux hands out pids in
 * cycles, upward from the last one allocated, so every process started after
 * the CLI has a pid in the cyclic interval from the CLI's to the last one
 * allocated when the leftovers are looked for, unless the allocation went
 * round a whole cycle in between: fewer forks since the spawn (the kernel's
 * count, `/proc/stat`) than pids in a cycle rule that out. A scan then reads
 * the environments of those pids only, not of every process on the machine
 * (each read is a look into another process's memory: ~10–20 µs each, and a
 * busy host has hundreds).
 *
 * @internal
 */
export interface PidWindow {
  /** The CLI's pid: the first of the window. */
  readonly first: number
  /** The kernel's count of forks at the spawn. */
  readonly forks: number
  readonly pidMax: number
}

const readNumber = (path: string): number | undefined => {
  try {
    const value = Number(Fs.readFileSync(path, "latin1").trim())
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined
  } catch {
    return undefined
  }
}

let scans: boolean | undefined

const readable = (path: string): boolean => {
  try {
    Fs.accessSync(path, Fs.constants.R_OK)
    return true
  } catch {
    return false
  }
}

/**
 * Whether {@link signalTagged} finds processes here: Linux, with this
 * process's own environment readable in `/proc`. Elsewhere only a process
 * group can be signalled.
 *
 * @internal
 */
export const findsTagged = (): boolean => {
  if (scans === undefined) scans = process.platform === "linux" && readable("/proc/self/environ")
  return scans
}

/**
 * The kernel's count of forks so far, for {@link pidWindow}: read before a
 * spawn, so that every pid allocated since is counted.
 *
 * @internal
 */
export const forkCount = (): number | undefined => {
  if (process.platform !== "linux") return undefined
  try {
    const match = /^processes (\d+)$/m.exec(Fs.readFileSync("/proc/stat", "latin1"))
    return match === null ? undefined : Number(match[1])
  } catch {
    return undefined
  }
}

// Whether /proc shows this process's own pid namespace (a container can mount another's): the window's pids
// and the last pid read are then the same numbers as the process table's entries.
let procIsOurs: boolean | undefined
const procShowsOurNamespace = (): boolean => {
  if (procIsOurs === undefined) {
    try {
      procIsOurs = Number(Fs.readlinkSync("/proc/self")) === process.pid
    } catch {
      procIsOurs = false
    }
  }
  return procIsOurs
}

/**
 * The window of a CLI spawned as `pid` with {@link forkCount} read just
 * before; `undefined` where it cannot be known (no `/proc`, another
 * namespace's), and a scan then reads every process's environment.
 *
 * @internal
 */
export const pidWindow = (pid: number, forks: number | undefined): PidWindow | undefined => {
  if (process.platform !== "linux" || !procShowsOurNamespace()) return undefined
  const pidMax = readNumber("/proc/sys/kernel/pid_max")
  if (forks === undefined || pidMax === undefined || pid <= 0 || pid >= pidMax) return undefined
  return { first: pid, forks, pidMax }
}

// The pids allocated since the window opened, as a test on a pid; `undefined` when that cannot be bounded.
// Pids below 300 are handed out only at boot (the kernel's RESERVED_PIDS), so a cycle has pidMax - 300.
const sinceWindow = (window: PidWindow): ((pid: number) => boolean) | undefined => {
  const forks = forkCount()
  const last = readNumber("/proc/sys/kernel/ns_last_pid")
  if (forks === undefined || last === undefined || forks - window.forks >= window.pidMax - 300) return undefined
  const first = window.first
  return last >= first ? (pid) => pid >= first && pid <= last : (pid) => pid >= first || pid <= last
}

const signalNow = (
  tag: string,
  signal: NodeJS.Signals,
  window: PidWindow | undefined
): Effect.Effect<ReadonlyArray<number>> =>
  Effect.sync(() => {
    if (!findsTagged()) return []
    let entries: Array<string>
    try {
      entries = Fs.readdirSync("/proc")
    } catch {
      return []
    }
    const candidate = window === undefined ? undefined : sinceWindow(window)
    const needle = Buffer.from(`${variable}=${tag}\0`)
    const signalled: Array<number> = []
    for (const entry of entries) {
      const pid = Number(entry)
      if (!Number.isInteger(pid) || pid === process.pid) continue
      if (candidate !== undefined && !candidate(pid)) continue
      if (!environHolds(`/proc/${entry}/environ`, needle)) continue
      try {
        process.kill(pid, signal)
        signalled.push(pid)
      } catch {
        // gone in the meantime
      }
    }
    return signalled
  })

// Grown to the largest environment read so far (an environment is bounded by the OS's argument limit).
let environBuffer = Buffer.allocUnsafe(64 * 1024)

/** Whether the environment file at `path` holds `needle`; false when it cannot be read (gone, another user's). */
const environHolds = (path: string, needle: Buffer): boolean => {
  let fd: number
  try {
    fd = Fs.openSync(path, "r")
  } catch {
    return false
  }
  try {
    let length = 0
    for (;;) {
      if (length === environBuffer.length) {
        const larger = Buffer.allocUnsafe(environBuffer.length * 2)
        environBuffer.copy(larger, 0, 0, length)
        environBuffer = larger
      }
      const read = Fs.readSync(fd, environBuffer, length, environBuffer.length - length, null)
      if (read === 0) break
      length += read
    }
    return environBuffer.subarray(0, length).indexOf(needle) !== -1
  } catch {
    return false
  } finally {
    Fs.closeSync(fd)
  }
}

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
