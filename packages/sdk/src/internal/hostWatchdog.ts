/**
 * Nothing the SDK started outlives its host process, however the host ends.
 *
 * - Killed (SIGKILL, the OOM killer, a crash in native code): no code of the
 *   host runs any more. A watchdog process, one per host, started with the
 *   first CLI, holds a pipe from the host; the kernel closes the host's end
 *   when the host dies, and the watchdog then SIGKILLs every process that
 *   carries the host's tag prefix (`/proc`, see processTag.ts) and the
 *   process groups of the host's live CLIs, and exits.
 * - Exiting (`process.exit`, an uncaught exception, an unhandled rejection):
 *   the `exit` handler SIGKILLs the live CLIs and what they started, at
 *   once; the watchdog then finds nothing.
 * - Both gone together (the watchdog killed with its host): the next host on
 *   the machine sweeps, at its first CLI, the processes whose host is dead
 *   ({@link ProcessTag.sweepOrphans}).
 *
 * The watchdog is `/bin/sh` (about 1.7 MB resident, 0.2 MB proportional), not
 * Node (42 MB): it only waits for the end of its input and then runs `grep` and
 * `kill`. It runs detached (a session of its own: the terminal's Ctrl-C is not
 * for it), in `/`, and neither it nor its pipe keeps the host alive.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Scope from "effect/Scope"
import * as ChildProcess from "node:child_process"
import * as Net from "node:net"
import type { Writable } from "node:stream"
import * as ProcessTag from "./processTag.js"

/** The watchdog's `$0`: its name in `ps`. */
export const processName = "claude-effect-watchdog"

// Reads `add <target>` / `del <target>` lines (a pid, or a negated process group id) until its input ends, which
// happens when the host has died or exited (no goodbye: nothing of a host may outlive it either way). Then SIGKILLs
// the targets and, with `$1` (the host's tag prefix, as `VARIABLE=prefix`), every process whose environment holds
// it, round after round until none is left (a process may fork between a scan and its kill; a zombie's environment
// is empty). SIGKILL, not SIGTERM first: a CLI and its tool would get it together, and a tool that dies first
// can make the CLI send its result to the model, for nobody.
const script = `trap '' HUP INT QUIT
targets=
while read -r op target; do
  case $op in
    add) targets="$targets $target" ;;
    del) kept=; for t in $targets; do [ "$t" = "$target" ] || kept="$kept $t"; done; targets=$kept ;;
  esac
done
for t in $targets; do kill -s KILL -- "$t" 2>/dev/null; done
[ -n "$1" ] || exit 0
for round in 1 2 3 4 5; do
  found=$(grep -lsF -- "$1" /proc/[0-9]*/environ)
  [ -n "$found" ] || exit 0
  pids=
  for f in $found; do f=\${f#/proc/}; pids="$pids \${f%/environ}"; done
  kill -s KILL $pids 2>/dev/null
done
`

/**
 * A running watchdog: `add` and `remove` tell it the targets to kill besides
 * the tagged processes; `close` ends its input, as the host's death does.
 *
 * @internal
 */
export interface Watchdog {
  readonly pid: number | undefined
  readonly add: (target: number) => void
  readonly remove: (target: number) => void
  readonly close: () => void
}

/**
 * Starts a watchdog for the processes whose environment holds `marker`
 * (none: the targets only). `onExit` is called once when it has gone or could
 * not start. `undefined` where there is no `/bin/sh` to run it (Windows).
 *
 * @internal
 */
export const start = (marker: string | undefined, onExit: () => void): Watchdog | undefined => {
  if (process.platform === "win32") return undefined
  let child: ChildProcess.ChildProcessByStdio<Writable, null, null>
  try {
    child = ChildProcess.spawn("/bin/sh", ["-c", script, processName, marker ?? ""], {
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
      cwd: "/",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }
    })
  } catch {
    return undefined
  }
  let exited = false
  const gone = () => {
    if (exited) return
    exited = true
    onExit()
  }
  child.once("error", gone)
  child.once("exit", gone)
  // A watchdog that has gone makes the writes fail (EPIPE): its exit says so.
  child.stdin.on("error", () => {})
  child.unref()
  if (child.stdin instanceof Net.Socket) child.stdin.unref()
  const write = (line: string) => {
    if (!exited && !child.stdin.writableEnded) child.stdin.write(line)
  }
  return {
    pid: child.pid,
    add: (target) => write(`add ${target}\n`),
    remove: (target) => write(`del ${target}\n`),
    close: () => child.stdin.end()
  }
}

/**
 * A CLI as the host guards it.
 *
 * @internal
 */
export interface Guarded {
  readonly pid: number
  readonly tag: string
  /** Whether it leads a process group of its own (whose id is its pid). */
  readonly ownGroup: boolean
  /** Whether it still runs (has not been reaped): its pid is still its own. */
  readonly running: () => boolean
}

const live = new Set<Guarded>()
let watchdog: Watchdog | undefined
let firstSeen = false
let unavailable = false

// What the watchdog kills besides the tagged processes: the CLI's group; its pid where no scan finds it by its tag.
const targetOf = (cli: Guarded): number | undefined =>
  cli.ownGroup ? -cli.pid : ProcessTag.findsTagged() ? undefined : cli.pid

const startWatchdog = () => {
  if (watchdog !== undefined || unavailable) return
  const started = start(ProcessTag.hostMarker(), () => {
    if (watchdog === started) watchdog = undefined
  })
  if (started === undefined || started.pid === undefined) {
    unavailable = true
    return
  }
  watchdog = started
  for (const cli of live) {
    const target = targetOf(cli)
    if (target !== undefined) started.add(target)
  }
}

const signal = (target: number) => {
  try {
    process.kill(target, "SIGKILL")
  } catch {
    // gone
  }
}

// The host exits: nothing asynchronous runs any more, so the live CLIs and what they started are killed here.
const onHostExit = () => {
  if (live.size === 0) return
  const tags: Array<string> = []
  for (const cli of live) {
    if (cli.ownGroup) signal(-cli.pid)
    else if (cli.running()) signal(cli.pid)
    tags.push(cli.tag)
  }
  ProcessTag.unsafeSignalTagged(tags, "SIGKILL")
}

// Once per host, after its first CLI has been spawned (so that it waits for none of this): the watchdog, and
// the sweep of what dead hosts left.
const firstCli = Effect.suspend(() => {
  startWatchdog()
  const swept = ProcessTag.sweepOrphans()
  return swept.length === 0 ? Effect.void : Effect.logWarning(
    "killed processes left by a host that died before it could stop them (a Claude Code CLI, a tool, a background job)"
  ).pipe(Effect.annotateLogs({ pids: swept }))
})

/**
 * Keeps `cli` from outliving this host until the current scope closes (after
 * the CLI's shutdown: add it before that finalizer).
 *
 * @internal
 */
export const guard = (cli: Guarded): Effect.Effect<void, never, Scope.Scope> =>
  // Uninterruptible: a CLI in `live` always has the finalizer that takes it out.
  Effect.uninterruptible(Effect.flatMap(Effect.scope, (scope) => {
    live.add(cli)
    const target = targetOf(cli)
    if (target !== undefined) watchdog?.add(target)
    const release = Scope.addFinalizer(
      scope,
      Effect.sync(() => {
        live.delete(cli)
        if (target !== undefined) watchdog?.remove(target)
      })
    )
    if (firstSeen) {
      // A watchdog that has gone (killed) is replaced at the next CLI.
      if (watchdog === undefined) startWatchdog()
      return release
    }
    firstSeen = true
    process.on("exit", onHostExit)
    return Effect.andThen(release, Effect.asVoid(Effect.forkDetach(firstCli)))
  }))
