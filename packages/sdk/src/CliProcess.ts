/**
 * The `claude` child process: spawned once per session, with its stdout
 * framed into lines, its stdin fed by one long-lived writer, its stderr
 * always drained (the tail is kept for error reports), and a bounded shutdown
 * that never leaves the process behind.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/platform/Command"
import type * as CommandExecutor from "@effect/platform/CommandExecutor"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { CliExitError, type ProtocolError } from "./ClaudeError.js"
import * as LineFraming from "./internal/lineFraming.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class CliProcess extends Context.Tag("@claude-effect/sdk/CliProcess")<CliProcess, CliProcess.Service>() {}

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
     * when stdout closes; fails only when a line breaks the size guard.
     */
    readonly lines: Stream.Stream<string, ProtocolError>
    /** Queues one line for stdin; the newline is added. Fails once the process has exited. */
    readonly writeLine: (line: string) => Effect.Effect<void, CliExitError>
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
     * SIGTERM and, after `killGracePeriod`, SIGKILL. Idempotent; also run by
     * the scope's finalizer.
     */
    readonly shutdown: (options?: { readonly gracePeriod?: Duration.DurationInput | undefined }) => Effect.Effect<
      ExitStatus
    >
    /** A `CliExitError` for an exit status, with the stderr tail. */
    readonly exitError: (status: ExitStatus) => Effect.Effect<CliExitError>
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
  /** How long `shutdown` waits after ending stdin (default 5 s). */
  readonly closeGracePeriod?: Duration.DurationInput | undefined
  /** How long `shutdown` waits after SIGTERM before SIGKILL (default 2 s). */
  readonly killGracePeriod?: Duration.DurationInput | undefined
  /** Values (secrets) that must never appear in the stderr tail kept for error reports. */
  readonly redact?: ReadonlyArray<string> | undefined
  /** Called with each stderr chunk, decoded. */
  readonly onStderr?: ((text: string) => Effect.Effect<void>) | undefined
}

const DEFAULT_MAX_LINE_CHARS = 256 * 1024 * 1024
const DEFAULT_STDERR_TAIL = 16 * 1024

// Node reports a signal death as a failed exitCode whose message names the signal.
const signalFromError = (error: unknown): string | null => {
  const match = /signal: (SIG[A-Z0-9]+)/.exec(String((error as { message?: unknown })?.message ?? error))
  return match ? match[1] : null
}

/**
 * Spawns the CLI in the current scope. Closing the scope runs `shutdown`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (
  config: SpawnConfig
) => Effect.Effect<CliProcess.Service, CliExitError, CommandExecutor.CommandExecutor | Scope.Scope> = Effect
  .fnUntraced(function*(config: SpawnConfig) {
    const tailLimit = config.stderrTailBytes ?? DEFAULT_STDERR_TAIL
    let stderrTail = ""

    const command = Command.make(config.executable, ...config.args).pipe(
      Command.env(config.env, { extendEnv: false }),
      config.cwd !== undefined ? Command.workingDirectory(config.cwd) : (c) => c
    )
    const proc = yield* Command.start(command).pipe(
      Effect.mapError((cause) =>
        new CliExitError({ reason: "SpawnFailed", exitCode: null, signal: null, stderrTail: "", cause })
      )
    )

    const exited = yield* Deferred.make<ExitStatus>()
    // Also kept in a plain variable: every write checks it.
    let exitStatus: ExitStatus | undefined
    yield* proc.exitCode.pipe(
      Effect.map((code): ExitStatus => ({ code, signal: null })),
      Effect.catchAll((error) => Effect.succeed<ExitStatus>({ code: null, signal: signalFromError(error) })),
      Effect.flatMap((status) => {
        exitStatus = status
        return Deferred.succeed(exited, status)
      }),
      Effect.forkDaemon
    )

    // stderr must always be drained: a full pipe blocks the child.
    const decoder = new TextDecoder()
    yield* proc.stderr.pipe(
      Stream.runForEach((bytes) => {
        const text = decoder.decode(bytes, { stream: true })
        stderrTail = (stderrTail + text).slice(-tailLimit)
        return config.onStderr ? config.onStderr(text) : Effect.void
      }),
      Effect.ignore,
      Effect.forkDaemon
    )

    // One writer for the whole life of the process: stdin is a single sink run once.
    const input = yield* Mailbox.make<Uint8Array>()
    const encoder = new TextEncoder()
    yield* Mailbox.toStream(input).pipe(Stream.run(proc.stdin), Effect.ignore, Effect.forkDaemon)

    const redactedTail = () => {
      let tail = stderrTail
      for (const secret of config.redact ?? []) tail = tail.split(secret).join("[redacted]")
      return tail
    }

    const exitError = (status: ExitStatus) =>
      Effect.sync(() =>
        new CliExitError({
          reason: status.signal !== null ? "Signaled" : "Exited",
          exitCode: status.code,
          signal: status.signal,
          stderrTail: redactedTail()
        })
      )

    // One step on the hot path: the mailbox is unbounded, so offering never waits.
    const writeLine = (line: string): Effect.Effect<void, CliExitError> =>
      Effect.suspend(() => {
        if (exitStatus !== undefined) return Effect.flip(exitError(exitStatus))
        return input.unsafeOffer(encoder.encode(line + "\n"))
          ? Effect.void
          : Effect.flip(Effect.flatMap(Deferred.await(exited), exitError))
      })

    const endInput = Effect.asVoid(input.end)
    const awaitExit = Deferred.await(exited)
    const closeGrace = config.closeGracePeriod ?? Duration.seconds(5)
    const killGrace = config.killGracePeriod ?? Duration.seconds(2)

    const signal = (name: "SIGTERM" | "SIGKILL") =>
      Effect.sync(() => {
        // The CLI runs in its own process group (it is spawned detached): signal the group so that
        // the shells and tools it started go too.
        try {
          process.kill(-proc.pid, name)
        } catch {
          try {
            process.kill(proc.pid, name)
          } catch {
            // already gone
          }
        }
      })

    const shutdown = (options?: { readonly gracePeriod?: Duration.DurationInput | undefined }) =>
      Effect.gen(function*() {
        yield* endInput
        const graceful = yield* awaitExit.pipe(Effect.timeoutOption(options?.gracePeriod ?? closeGrace))
        if (Option.isSome(graceful)) return graceful.value
        yield* signal("SIGTERM")
        const terminated = yield* awaitExit.pipe(Effect.timeoutOption(killGrace))
        if (Option.isSome(terminated)) return terminated.value
        yield* signal("SIGKILL")
        return yield* awaitExit
      }).pipe(Effect.uninterruptible)

    // Runs before Command's own finalizer (finalizers run in reverse order), which would otherwise
    // send SIGTERM and wait without bound.
    yield* Effect.addFinalizer(() =>
      shutdown().pipe(
        // Whatever the CLI left in its process group goes too.
        Effect.zipRight(signal("SIGKILL"))
      )
    )

    const lines = LineFraming.frameLines(config.maxLineChars ?? DEFAULT_MAX_LINE_CHARS)(proc.stdout)

    return CliProcess.of({
      pid: proc.pid,
      lines,
      writeLine,
      endInput,
      awaitExit,
      exitStatus: Effect.flatMap(
        Deferred.poll(exited),
        (o) => Option.isSome(o) ? Effect.asSome(o.value) : Effect.succeedNone
      ),
      stderrTail: Effect.sync(redactedTail),
      shutdown,
      exitError
    })
  })

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (config: SpawnConfig): Layer.Layer<CliProcess, CliExitError, CommandExecutor.CommandExecutor> =>
  Layer.scoped(CliProcess, make(config))
