/**
 * Finding every process a CLI started, wherever it went. The CLI runs its
 * Bash tool's shells in sessions of their own, so a background job
 * (`sleep 120 &`) is in neither the CLI's process group nor, once its shell
 * has exited, its process tree. It does keep the environment it inherited:
 * each CLI process gets a variable with a value of its own, and whatever
 * still carries it after the CLI has gone is a leftover of that CLI.
 *
 * The value starts with its host's identity (pid, start time, pid namespace,
 * thread): what this host's watchdog looks for once the host has died, and
 * what tells a later host's {@link sweepOrphans} that a process outlived
 * its host, even when the host's pid has been reused since.
 *
 * Where there is no `/proc` (macOS, Windows) nothing is found, and only the
 * process group is signalled.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import { threadId } from "node:worker_threads"

/** The variable that marks a CLI process and everything it starts. */
export const variable = "CLAUDE_EFFECT_PROCESS_TAG"

/**
 * Who started a tagged process: a host's pid, its start time (clock ticks
 * since boot, `/proc/<pid>/stat`), its pid namespace (`/proc/<pid>/ns/pid`)
 * and the worker thread its SDK runs in. `"0"` where not known (no `/proc`).
 *
 * @internal
 */
export interface Host {
  readonly pid: number
  readonly start: string
  readonly namespace: string
  readonly thread: number
}

const readText = (path: string): string | undefined => {
  try {
    return Fs.readFileSync(path, "latin1")
  } catch {
    return undefined
  }
}

// The fields of /proc/<pid>/stat after "(comm) ", whose comm may hold spaces and parentheses.
const statFields = (pid: number | "self"): Array<string> | undefined => {
  const stat = readText(`/proc/${pid}/stat`)
  return stat === undefined ? undefined : stat.slice(stat.lastIndexOf(")") + 2).split(" ")
}

/**
 * The start time of a live process (not a zombie), as in {@link Host};
 * `undefined` when there is no such process.
 *
 * @internal
 */
export const startTimeOf = (pid: number | "self"): string | undefined => {
  const fields = statFields(pid)
  // state is the 3rd field of stat, starttime the 22nd
  return fields === undefined || fields[0] === "Z" ? undefined : fields[19]
}

const namespaceOf = (pid: number | "self"): string => {
  try {
    return /\[(\d+)\]/.exec(Fs.readlinkSync(`/proc/${pid}/ns/pid`))?.[1] ?? "0"
  } catch {
    return "0"
  }
}

let self: Host | undefined

/** This host (this process, this thread). @internal */
export const host = (): Host =>
  self ??= {
    pid: process.pid,
    start: (process.platform === "linux" ? startTimeOf("self") : undefined) ?? "0",
    namespace: process.platform === "linux" ? namespaceOf("self") : "0",
    thread: threadId
  }

/**
 * What every tag of `of`'s CLIs starts with (the value of the variable, up
 * to the part that is each CLI's own).
 *
 * @internal
 */
export const hostPrefix = (of: Host = host()): string => `${of.pid}.${of.start}.${of.namespace}.${of.thread}.`

const TAG = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\.[0-9a-z]+$/

/** The host a tag names; `undefined` for a value of another form. @internal */
export const hostOf = (tag: string): Host | undefined => {
  const match = TAG.exec(tag)
  return match === null
    ? undefined
    : { pid: Number(match[1]), start: match[2], namespace: match[3], thread: Number(match[4]) }
}

/**
 * What the environment of every process of this host's CLIs holds, where a
 * scan of `/proc` finds them: the host's watchdog looks for it.
 *
 * @internal
 */
export const hostMarker = (): string | undefined =>
  findsTagged() && procShowsOurNamespace() ? `${variable}=${hostPrefix()}` : undefined

let made = 0

/** A new tag, unique to one CLI process of this host. */
export const make = (): string => hostPrefix() + (++made).toString(36) + Math.random().toString(36).slice(2, 8)

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
    Effect.sync(() => signalNow([tag], signal, window)),
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
  const value = Number(readText(path)?.trim())
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined
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

// Calls `visit` with the environment of each process (other than this one) it can read, whose pid `candidate`
// accepts; the buffer is shared, valid during the call only. Nothing where the scan finds nothing (no /proc).
const forEachEnviron = (
  candidate: ((pid: number) => boolean) | undefined,
  visit: (pid: number, environ: Buffer) => void
): void => {
  if (!findsTagged()) return
  let entries: Array<string>
  try {
    entries = Fs.readdirSync("/proc")
  } catch {
    return
  }
  for (const entry of entries) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    if (candidate !== undefined && !candidate(pid)) continue
    const environ = readEnviron(`/proc/${entry}/environ`)
    if (environ !== undefined) visit(pid, environ)
  }
}

const trySignal = (pid: number, signal: NodeJS.Signals): boolean => {
  try {
    process.kill(pid, signal)
    return true
  } catch {
    return false // gone in the meantime
  }
}

// Sends `signal` to every process whose environment holds one of `tags`, now; the pids signalled.
const signalNow = (
  tags: ReadonlyArray<string>,
  signal: NodeJS.Signals,
  window: PidWindow | undefined
): Array<number> => {
  const signalled: Array<number> = []
  if (tags.length === 0) return signalled
  const needles = tags.map((tag) => Buffer.from(`${variable}=${tag}\0`))
  forEachEnviron(window === undefined ? undefined : sinceWindow(window), (pid, environ) => {
    if (needles.some((needle) => environ.indexOf(needle) !== -1) && trySignal(pid, signal)) signalled.push(pid)
  })
  return signalled
}

/**
 * {@link signalTagged} for several tags at once, synchronously and without
 * waiting for the processes to be gone: for a handler of the host's `exit`,
 * where nothing asynchronous runs any more.
 *
 * @internal
 */
export const unsafeSignalTagged = (tags: ReadonlyArray<string>, signal: NodeJS.Signals): ReadonlyArray<number> =>
  signalNow(tags, signal, undefined)

const variablePrefix = Buffer.from(`${variable}=`)

// The value of the variable in an environment, if it holds it (as a variable of its own, not inside another's value).
const tagIn = (environ: Buffer): string | undefined => {
  let at = environ.indexOf(variablePrefix)
  while (at > 0 && environ[at - 1] !== 0) at = environ.indexOf(variablePrefix, at + 1)
  if (at === -1) return undefined
  const start = at + variablePrefix.length
  const end = environ.indexOf(0, start)
  return environ.toString("latin1", start, end === -1 ? environ.length : end)
}

const ownerOf = (pid: number): number | undefined => {
  try {
    return Fs.statSync(`/proc/${pid}`).uid
  } catch {
    return undefined
  }
}

/**
 * Kills (SIGKILL) every process of this user that carries a tag whose host
 * is gone: no live process has the host's pid, or the one that has it
 * started at another time (the pid was reused). For what a host's watchdog
 * could not stop (the watchdog died with its host). Tags of another pid
 * namespace are left alone: their pids are not this namespace's. Reads the
 * environment of every process once; the pids killed.
 *
 * @internal
 */
export const sweepOrphans = (): ReadonlyArray<number> => {
  const killed: Array<number> = []
  const us = host()
  if (!findsTagged() || !procShowsOurNamespace() || us.namespace === "0") return killed
  const uid = process.getuid?.()
  const alive = new Map<string, boolean>()
  forEachEnviron(undefined, (pid, environ) => {
    const tag = tagIn(environ)
    const of = tag === undefined ? undefined : hostOf(tag)
    if (of === undefined || of.namespace !== us.namespace) return
    const key = `${of.pid}.${of.start}`
    let hostAlive = alive.get(key)
    if (hostAlive === undefined) {
      hostAlive = startTimeOf(of.pid) === of.start
      alive.set(key, hostAlive)
    }
    if (hostAlive || ownerOf(pid) !== uid) return
    if (trySignal(pid, "SIGKILL")) killed.push(pid)
  })
  return killed
}

// Grown to the largest environment read so far (an environment is bounded by the OS's argument limit).
let environBuffer = Buffer.allocUnsafe(64 * 1024)

/** The environment file at `path`, in the shared buffer; `undefined` when it cannot be read (gone, another user's). */
const readEnviron = (path: string): Buffer | undefined => {
  let fd: number
  try {
    fd = Fs.openSync(path, "r")
  } catch {
    return undefined
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
    return environBuffer.subarray(0, length)
  } catch {
    return undefined
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
