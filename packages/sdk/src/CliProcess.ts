/**
 * The `claude` child process: spawned once per session, with its stdout
 * framed into lines, its stdin fed by one long-lived writer, its stderr
 * always drained (the tail is kept for error reports), and a bounded shutdown
 * that never leaves the process behind.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { constVoid } from "effect/Function"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { CliExitError, type ProtocolError } from "./ClaudeError.js"
import * as CliSpawner from "./CliSpawner.js"
import * as GuardedRun from "./internal/guardedRun.js"
import * as HostWatchdog from "./internal/hostWatchdog.js"
import * as LineFraming from "./internal/lineFraming.js"
import * as NodeCliSpawner from "./internal/nodeCliSpawner.js"
import * as ProcessTag from "./internal/processTag.js"
import * as Redaction from "./internal/redaction.js"
import * as SpawnFailure from "./internal/spawnFailure.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class CliProcess extends Context.Service<CliProcess, CliProcess.Service>()("@claude-effect/sdk/CliProcess") {}

/**
 * @since 0.1.0
 */
export declare namespace CliProcess {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /** The operating-system process id. */
    readonly pid: number
    /**
     * The CLI's stdout as lines (without the newline). Single consumer. Ends
     * when stdout closes, or shortly after the CLI exited when a process it
     * started still holds stdout; fails only when a line breaks the size guard.
     */
    readonly lines: Stream.Stream<string, ProtocolError>
    /**
     * The same lines pushed rather than pulled: `onLines` gets each batch as it is read — outside any
     * fiber, as stdout's data arrives, where the spawner pushes it (`NodeCliSpawner`); else in the
     * caller's fiber — and the Effect it returns runs in the caller's fiber, batch after batch, in
     * order (`Effect.void` runs nothing). Ends as `lines` does, and fails as it does or with that
     * Effect's failure. Cheaper than running `lines` (no stream stage between stdout and `onLines`,
     * and with a pushing spawner no fiber step per chunk). Single consumer, shared with `lines`: read
     * one or the other, once. Optional: without it, readers run `lines`.
     */
    readonly readLines?: <E, R>(
      onLines: (lines: ReadonlyArray<string>) => Effect.Effect<void, E, R>
    ) => Effect.Effect<void, ProtocolError | E, R>
    /**
     * Completes when `lines` is to be taken as ended although stdout is still open: the CLI has
     * exited and a process it left (a background shell) holds the pipe past the drain. A reader races
     * it once against its whole read. Absent: the lines end when stdout closes.
     */
    readonly linesCut?: Effect.Effect<void> | undefined
    /** Queues one line for stdin; the newline is added. Fails once the process has exited. */
    readonly writeLine: (line: string) => Effect.Effect<void, CliExitError>
    /**
     * Queues one line for stdin at once, outside any fiber (the router answers a control request as
     * its handler ends); `false` when the line cannot be queued (the process has exited), and
     * `writeLine` then says why. Optional: without it, lines are written by `writeLine`.
     */
    readonly unsafeWriteLine?: ((line: string) => boolean) | undefined
    /** Ends stdin once everything queued before has been written. Idempotent. */
    readonly endInput: Effect.Effect<void>
    /** Waits for the process to exit. */
    readonly awaitExit: Effect.Effect<ExitStatus>
    /** The exit status, if the process has exited. */
    readonly exitStatus: Effect.Effect<Option.Option<ExitStatus>>
    /** The last bytes the CLI wrote to stderr. */
    readonly stderrTail: Effect.Effect<string>
    /**
     * Ends stdin, waits up to `gracePeriod` for the CLI to exit, then sends
     * SIGTERM (and SIGCONT, for a stopped CLI) and, after `killGracePeriod`,
     * SIGKILL, waiting `killGracePeriod` once more. Every step is bounded
     * (also inside a finalizer), so it always returns. Signals go to the CLI's
     * process group when it leads one, else to its pid while it runs.
     * Idempotent; also run by the scope's finalizer.
     */
    readonly shutdown: (options?: { readonly gracePeriod?: Duration.Input | undefined }) => Effect.Effect<
      ExitStatus
    >
    /** A `CliExitError` for an exit status, with the stderr tail; `duringTurn` when it cut a turn short. */
    readonly exitError: (
      status: ExitStatus,
      options?: { readonly duringTurn?: boolean | undefined }
    ) => Effect.Effect<CliExitError>
  }
}

/**
 * How the process ended.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ExitStatus {
  readonly code: number | null
  readonly signal: string | null
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface SpawnConfig {
  readonly executable: string
  readonly args: ReadonlyArray<string>
  /** The complete environment of the child (nothing is inherited implicitly). */
  readonly env: Readonly<Record<string, string>>
  readonly cwd?: string | undefined
  /** The largest stdout line accepted, in characters (default 256 Mi, the CLI's own stdin limit). */
  readonly maxLineChars?: number | undefined
  /** How much of stderr to keep for error reports (default 16 KiB). */
  readonly stderrTailBytes?: number | undefined
  /** How long `shutdown` waits after ending stdin (default 5 s, {@link shutdownDefaults}). */
  readonly closeGracePeriod?: Duration.Input | undefined
  /** How long `shutdown` waits after SIGTERM, and again after SIGKILL (default 2 s). */
  readonly killGracePeriod?: Duration.Input | undefined
  /** How long stdout may stay open after the CLI exited before the lines end (default 500 ms, twice). */
  readonly exitDrainPeriod?: Duration.Input | undefined
  /**
   * Values (secrets) that must never appear in what this process reports: the stderr tail, spawn
   * failures, the excerpt of a line that broke the size guard.
   */
  readonly redact?: ReadonlyArray<string> | undefined
  /**
   * Called with stderr as it arrives, decoded, in whole lines (the last one at the end), redacted. A line longer
   * than `maxStderrLineChars` is cut there (marked with `…`) and the rest of it dropped.
   */
  readonly onStderr?: ((text: string) => Effect.Effect<void>) | undefined
  /** Called once stderr has closed, after the last `onStderr`. */
  readonly onStderrEnd?: Effect.Effect<void> | undefined
  /** The longest stderr line `onStderr` gets, in characters (default 8 Ki): a line is held until it ends. */
  readonly maxStderrLineChars?: number | undefined
}

const DEFAULT_MAX_LINE_CHARS = 256 * 1024 * 1024
const DEFAULT_STDERR_TAIL = 16 * 1024
const DEFAULT_MAX_STDERR_LINE = 8 * 1024

/**
 * The bounds of a shutdown, each stated once: how long the CLI may take to
 * exit after its stdin ends, then after SIGTERM, then after SIGKILL; and how
 * long its stdout may stay open once it has exited (a background shell it
 * started can hold the pipe).
 *
 * @since 0.1.0
 * @category Constants
 */
export const shutdownDefaults: {
  readonly closeGracePeriod: Duration.Duration
  readonly killGracePeriod: Duration.Duration
  readonly exitDrainPeriod: Duration.Duration
} = {
  closeGracePeriod: Duration.seconds(5),
  killGracePeriod: Duration.seconds(2),
  exitDrainPeriod: Duration.millis(500)
}

// Signals `target` (a pid, or a negated process group id); false when there is no such process.
const trySignal = (target: number, signal: NodeJS.Signals | 0): boolean => {
  try {
    process.kill(target, signal)
    return true
  } catch {
    return false
  }
}

/**
 * Spawns the CLI in the current scope, through the `CliSpawner` in context,
 * else with `node:child_process` directly (`NodeCliSpawner.spawner`; see
 * `CliSpawner.layerChildProcess` for effect's `ChildProcessSpawner`). Closing
 * the scope runs `shutdown`.
 *
 * Spawning never throws: every way it can fail (a missing or non-executable
 * file, a missing `#!` interpreter, a bad working directory, an argument list
 * too long for the OS) is a `CliExitError` with reason `SpawnFailed` whose
 * `detail` names the path or option and how to fix it. Its `cause` carries
 * the error code, never the argument list or the environment.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (
  config: SpawnConfig
) => Effect.Effect<CliProcess.Service, CliExitError, Scope.Scope> = Effect
  .fnUntraced(function*(config: SpawnConfig) {
    const tailLimit = config.stderrTailBytes ?? DEFAULT_STDERR_TAIL
    const redactor = Redaction.make(config.redact ?? [])
    // Raw stderr, with room for one secret beyond the tail: the tail is redacted before it is cut.
    const stderrKeep = tailLimit + redactor.longest
    let stderrRaw = ""

    // Marks the CLI and everything it starts, wherever it goes (see processTag.ts).
    const tag = ProcessTag.make()
    const provided = yield* Effect.serviceOption(CliSpawner.CliSpawner)
    const spawner = Option.isSome(provided) ? provided.value : NodeCliSpawner.spawner
    // Before the spawn, so that the leftovers scan counts every fork since (see processTag.ts).
    const forksBefore = ProcessTag.forkCount()
    const proc = yield* spawner.spawn({
      executable: config.executable,
      args: config.args,
      env: { ...config.env, [ProcessTag.variable]: tag },
      cwd: config.cwd
    }).pipe(
      Effect.catchCause((cause) => Effect.flatMap(SpawnFailure.explain(config, cause, redactor), Effect.fail))
    )
    const pid = proc.pid
    // The leftovers scan reads only the processes started since the spawn.
    const pidWindow = ProcessTag.pidWindow(pid, forksBefore)
    // Spawned detached (as @effect/platform-node does), the CLI leads a process group of its own: the shells
    // and tools it starts are in it, and the group is signalled. Otherwise only the process itself is. The
    // spawner says which when it knows: asking the system throws (and builds an error) when there is no group.
    const ownGroup = process.platform !== "win32" && (proc.leadsProcessGroup ?? trySignal(-pid, 0))

    const exited = yield* Deferred.make<ExitStatus>()
    // Also kept in a plain variable: every write checks it. Waits with a deadline (a shutdown's) are
    // told by callback, each with a timer, rather than each racing a sleep in fibers of their own.
    let exitStatus: ExitStatus | undefined
    const exitWaiters = new Set<(status: ExitStatus) => void>()
    const recordExit = (status: ExitStatus) =>
      Effect.suspend(() => {
        exitStatus = status
        for (const waiter of exitWaiters) waiter(status)
        exitWaiters.clear()
        return Deferred.succeed(exited, status)
      })
    const exitCode = Effect.flatMap(proc.exit, recordExit)
    // Until it is closed (this finalizer runs after the shutdown's), the CLI and what it starts die with this
    // host, however the host ends (see hostWatchdog.ts).
    yield* HostWatchdog.guard({ pid, tag, ownGroup, running: () => exitStatus === undefined })

    // stderr must always be drained: a full pipe blocks the child. `onStderr` gets whole lines, redacted:
    // a chunk can end in the middle of a secret, a line cannot. A line is held until it ends, so one that
    // never does is cut: redacted with room for a whole secret past the cut, then cut, the rest dropped.
    const decoder = new TextDecoder()
    const maxStderrLine = config.maxStderrLineChars ?? DEFAULT_MAX_STDERR_LINE
    let partialLine = ""
    let droppingRestOfLine = false
    const wholeLines = (text: string): string => {
      let whole = ""
      let start = 0
      for (;;) {
        const newline = text.indexOf("\n", start)
        if (!droppingRestOfLine) {
          partialLine += text.slice(start, newline < 0 ? text.length : newline)
          if (partialLine.length > maxStderrLine + redactor.longest) {
            whole += redactor.redact(partialLine).slice(0, maxStderrLine) + "…\n"
            partialLine = ""
            droppingRestOfLine = true
          }
        }
        if (newline < 0) return whole
        if (!droppingRestOfLine) whole += partialLine + "\n"
        partialLine = ""
        droppingRestOfLine = false
        start = newline + 1
      }
    }
    const deliverStderr = (text: string): Effect.Effect<void> => {
      if (config.onStderr === undefined || text.length === 0) return Effect.void
      return config.onStderr(redactor.redact(text))
    }
    yield* LineFraming.forEachChunk(proc.stderr, (chunk) => {
      let text = ""
      for (const bytes of chunk) text += decoder.decode(bytes, { stream: true })
      stderrRaw += text
      if (stderrRaw.length > stderrKeep) stderrRaw = stderrRaw.slice(-stderrKeep)
      if (config.onStderr === undefined) return Effect.void
      return deliverStderr(wholeLines(text))
    }).pipe(
      Effect.ignore,
      Effect.andThen(Effect.suspend(() => deliverStderr(wholeLines(decoder.decode()) + partialLine))),
      Effect.andThen(config.onStderrEnd ?? Effect.void),
      Effect.forkDetach
    )

    const redactedTail = () => redactor.redact(stderrRaw).slice(-tailLimit)

    const exitError = (status: ExitStatus, options?: { readonly duringTurn?: boolean | undefined }) =>
      Effect.sync(() =>
        new CliExitError({
          reason: status.signal !== null ? "Signaled" : "Exited",
          exitCode: status.code,
          signal: status.signal,
          stderrTail: redactedTail(),
          ...(options?.duringTurn === true ? { duringTurn: true } : {})
        })
      )

    // One step on the hot path: writing never waits.
    const unsafeWriteLine = (line: string): boolean => exitStatus === undefined && proc.write(line + "\n")
    const writeLine = (line: string): Effect.Effect<void, CliExitError> =>
      Effect.suspend(() => {
        if (exitStatus !== undefined) return Effect.flip(exitError(exitStatus))
        return proc.write(line + "\n")
          ? Effect.void
          : Effect.flip(Effect.flatMap(Deferred.await(exited), (status) => exitError(status)))
      })

    const endInput = Effect.sync(proc.endInput)
    const awaitExit = Deferred.await(exited)
    const closeGrace = config.closeGracePeriod ?? shutdownDefaults.closeGracePeriod
    const killGrace = config.killGracePeriod ?? shutdownDefaults.killGracePeriod
    const drainPeriod = config.exitDrainPeriod ?? shutdownDefaults.exitDrainPeriod

    // Bounded even inside an uninterruptible region (a finalizer): the deadline's timer ends the wait.
    const exitWithin = (duration: Duration.Input): Effect.Effect<Option.Option<ExitStatus>> =>
      GuardedRun.awaitWithin<Option.Option<ExitStatus>, never>(duration, (done) => {
        if (exitStatus !== undefined) {
          done(Effect.succeedSome(exitStatus))
          return constVoid
        }
        const waiter = (status: ExitStatus) => done(Effect.succeedSome(status))
        exitWaiters.add(waiter)
        return () => exitWaiters.delete(waiter)
      }, () => Effect.succeedNone)

    // Checked in the same step as the signal: once the CLI has exited and been reaped its pid may be
    // reused, so it is never signalled again; its group is, when it had one (a group id is not reused
    // while any member lives).
    const signal = (name: NodeJS.Signals) =>
      Effect.flatMap(proc.isRunning, (running) =>
        Effect.sync(() => {
          if (ownGroup && trySignal(-pid, name)) return
          if (running) trySignal(pid, name)
        }))

    const shutdown = (options?: { readonly gracePeriod?: Duration.Input | undefined }) =>
      Effect.gen(function*() {
        yield* endInput
        const graceful = yield* exitWithin(options?.gracePeriod ?? closeGrace)
        if (Option.isSome(graceful)) return graceful.value
        yield* signal("SIGTERM")
        // A stopped CLI acts on SIGTERM only once it runs again.
        yield* signal("SIGCONT")
        const terminated = yield* exitWithin(killGrace)
        if (Option.isSome(terminated)) return terminated.value
        yield* signal("SIGKILL")
        const killed = yield* exitWithin(killGrace)
        if (Option.isSome(killed)) return killed.value
        yield* Effect.logWarning("the Claude Code CLI did not exit after SIGKILL; giving up waiting").pipe(
          Effect.annotateLogs({ pid })
        )
        return { code: null, signal: "SIGKILL" } satisfies ExitStatus
      }).pipe(Effect.uninterruptible)

    // Whatever the CLI left behind once it has gone: its process group, and the background jobs its
    // shells started in sessions of their own.
    const killLeftovers = Effect.andThen(signal("SIGKILL"), ProcessTag.signalTagged(tag, "SIGKILL", pidWindow))

    // Runs before the spawner's own finalizer (finalizers run in reverse order), which kills whatever still
    // runs at once.
    yield* Scope.addFinalizer(yield* Effect.scope, Effect.suspend(() => Effect.andThen(shutdown(), killLeftovers)))

    // Once the CLI has exited, its stdout ends by itself at once, unless a process it started (a
    // background shell) still holds the pipe: after a short drain, that process group is killed, and
    // after another the lines end regardless. Run by the fiber that waits for the exit.
    let stdoutClosed = false
    const stdoutWaiters = new Set<() => void>()
    const stdoutEnded = Effect.sync(() => {
      stdoutClosed = true
      for (const waiter of stdoutWaiters) waiter()
      stdoutWaiters.clear()
    })
    const drained = GuardedRun.awaitWithin(drainPeriod, (done) => {
      if (stdoutClosed) {
        done(Effect.succeed(true))
        return constVoid
      }
      const waiter = () => done(Effect.succeed(true))
      stdoutWaiters.add(waiter)
      return () => stdoutWaiters.delete(waiter)
    }, () => Effect.succeed(false))
    const cutAfterExit = Effect.gen(function*() {
      if (yield* drained) return
      yield* killLeftovers
      yield* drained
    })
    // A signal the reader races once, not a `Stream.interruptWhen` on the lines (which pays a fiber
    // hand-off for every chunk of the hot path).
    const linesCut = yield* Deferred.make<void>()
    yield* Effect.forkDetach(
      Effect.andThen(exitCode, Effect.andThen(cutAfterExit, Deferred.succeed(linesCut, void 0)))
    )
    const maxLineChars = config.maxLineChars ?? DEFAULT_MAX_LINE_CHARS
    const lines = LineFraming.frameLines(maxLineChars, redactor)(
      Stream.ensuring(Stream.fromPull(Effect.succeed(proc.stdout)), stdoutEnded)
    )
    const readLines = <E, R>(onLines: (lines: ReadonlyArray<string>) => Effect.Effect<void, E, R>) =>
      Effect.ensuring(
        proc.pushStdout !== undefined
          ? LineFraming.pushLines(proc.pushStdout, maxLineChars, redactor)(onLines)
          : LineFraming.readLines(proc.stdout, maxLineChars, redactor)(onLines),
        stdoutEnded
      )

    return CliProcess.of({
      pid,
      lines,
      readLines,
      writeLine,
      unsafeWriteLine,
      endInput,
      awaitExit,
      exitStatus: Effect.flatMap(
        Deferred.poll(exited),
        (o) => Option.isSome(o) ? Effect.asSome(o.value) : Effect.succeedNone
      ),
      linesCut: Deferred.await(linesCut),
      stderrTail: Effect.sync(redactedTail),
      shutdown,
      exitError
    })
  })

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (config: SpawnConfig): Layer.Layer<CliProcess, CliExitError> =>
  Layer.effect(CliProcess, make(config))
