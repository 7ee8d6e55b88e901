/**
 * Process bookkeeping on Linux `/proc`: who is a child of whom, who runs in a
 * directory, who is still alive. Used to find the CLI a SDK spawned, to time
 * its exit and to find what it left behind.
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

const readStat = (
  pid: number
): { readonly ppid: number; readonly pgrp: number; readonly state: string; readonly comm: string } | undefined => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // "pid (comm) state ppid ...": comm may contain spaces and parentheses.
    const close = stat.lastIndexOf(")")
    const comm = stat.slice(stat.indexOf("(") + 1, close)
    const fields = stat.slice(close + 2).split(" ")
    return { state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]), comm }
  } catch {
    return undefined
  }
}

const allPids = (): Array<number> => {
  const pids: Array<number> = []
  for (const entry of Fs.readdirSync("/proc")) {
    if (entry.charCodeAt(0) >= 48 && entry.charCodeAt(0) <= 57) pids.push(Number(entry))
  }
  return pids
}

/**
 * Whether a process is alive (a zombie counts as gone).
 *
 * @since 0.1.0
 * @category Processes
 */
export const isAlive = (pid: number): boolean => {
  const stat = readStat(pid)
  return stat !== undefined && stat.state !== "Z" && stat.state !== "X"
}

/**
 * The live direct children of `pid`, with their command names.
 *
 * @since 0.1.0
 * @category Processes
 */
export const childrenOf = (pid: number): Array<{ readonly pid: number; readonly comm: string }> => {
  const out: Array<{ pid: number; comm: string }> = []
  for (const candidate of allPids()) {
    const stat = readStat(candidate)
    if (stat !== undefined && stat.ppid === pid && stat.state !== "Z") out.push({ pid: candidate, comm: stat.comm })
  }
  return out
}

/**
 * The live processes whose working directory is `dir` or below it.
 *
 * @since 0.1.0
 * @category Processes
 */
export const processesUnder = (dir: string): Array<{ readonly pid: number; readonly comm: string }> => {
  const root = Path.resolve(dir)
  const out: Array<{ pid: number; comm: string }> = []
  for (const pid of allPids()) {
    if (pid === process.pid) continue
    let cwd: string
    try {
      cwd = Fs.readlinkSync(`/proc/${pid}/cwd`)
    } catch {
      continue
    }
    if (cwd !== root && !cwd.startsWith(root + "/")) continue
    const stat = readStat(pid)
    if (stat !== undefined && stat.state !== "Z") out.push({ pid, comm: stat.comm })
  }
  return out
}

/**
 * SIGKILLs every live process whose working directory is `dir` or below it.
 * Returns how many there were.
 *
 * @since 0.1.0
 * @category Processes
 */
export const killProcessesUnder = (dir: string): number => {
  const found = processesUnder(dir)
  for (const { pid } of found) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // already gone
    }
  }
  return found.length
}

/**
 * Waits until `pid` is gone, polling every millisecond; resolves with the
 * time it was first seen gone (`performance.now()`), or `NaN` after
 * `timeoutMillis`.
 *
 * @since 0.1.0
 * @category Processes
 */
export const awaitGone = (pid: number, timeoutMillis: number): Promise<number> =>
  new Promise((resolve) => {
    const deadline = performance.now() + timeoutMillis
    const poll = () => {
      const now = performance.now()
      if (!isAlive(pid)) return resolve(now)
      if (now > deadline) return resolve(Number.NaN)
      setTimeout(poll, 1)
    }
    poll()
  })

/**
 * Waits until a process named `comm` runs in `dir` (or below); resolves with
 * its pid, or `undefined` after `timeoutMillis`.
 *
 * @since 0.1.0
 * @category Processes
 */
export const awaitProcessNamed = (dir: string, comm: string, timeoutMillis: number): Promise<number | undefined> =>
  new Promise((resolve) => {
    const deadline = performance.now() + timeoutMillis
    const poll = () => {
      const found = processesUnder(dir).find((p) => p.comm === comm)
      if (found !== undefined) return resolve(found.pid)
      if (performance.now() > deadline) return resolve(undefined)
      setTimeout(poll, 5)
    }
    poll()
  })

/**
 * The process group of `pid`, or `undefined` when it is gone.
 *
 * @since 0.1.0
 * @category Processes
 */
export const groupOf = (pid: number): number | undefined => readStat(pid)?.pgrp

/**
 * Waits until no process of group `pgrp` is left, zombies included (polling
 * every 5 ms); resolves with whether that happened within `timeoutMillis`.
 *
 * A killed tool's processes become zombies; the ones its shell left are
 * reaped by PID 1, which on some machines does it lazily (up to ~1.5 s on the
 * bench's VM). The CLI waits for an interrupted tool's group to be gone before
 * it exits at the end of its input, so a close timed while such a zombie is
 * left measures PID 1, not the SDK.
 *
 * @since 0.1.0
 * @category Processes
 */
export const awaitGroupReaped = (pgrp: number, timeoutMillis: number): Promise<boolean> =>
  new Promise((resolve) => {
    const deadline = performance.now() + timeoutMillis
    const poll = () => {
      if (!allPids().some((pid) => readStat(pid)?.pgrp === pgrp)) return resolve(true)
      if (performance.now() > deadline) return resolve(false)
      setTimeout(poll, 5)
    }
    poll()
  })
