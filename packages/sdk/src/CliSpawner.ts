/**
 * How the `claude` child process is started and its pipes reached: the seam
 * under `CliProcess`, as `spawnClaudeCodeProcess` is in the official SDK.
 *
 * Without a `CliSpawner` in context, the CLI is started through the
 * platform's `CommandExecutor` ({@link fromCommandExecutor}). On Node,
 * `NodeCliSpawner.layer` starts it with `node:child_process` directly and
 * writes stdin without a stream in between, which takes about 40 % off the
 * SDK's CPU per control request (`packages/bench`, row 2).
 *
 * @since 0.1.0
 */
import type * as CommandExecutor from "@effect/platform/CommandExecutor"
import type * as PlatformError from "@effect/platform/Error"
import type * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type { ExitStatus } from "./CliProcess.js"
import * as internal from "./internal/commandSpawner.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class CliSpawner extends Context.Tag("@claude-effect/sdk/CliSpawner")<CliSpawner, CliSpawner.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace CliSpawner {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /**
     * Starts `command` with stdin, stdout and stderr piped, in a process group of its own or not, as the
     * spawner chooses (`CliProcess` signals the group when the process leads one, else its pid, and finds
     * what it started by its process tag). Succeeds once the process runs; fails with the platform's
     * error when it could not start (`CliProcess` turns that into a `CliExitError` saying what to fix).
     * Closing the scope releases the pipes, and kills the process if it still runs: `CliProcess` has
     * shut it down gracefully before.
     */
    readonly spawn: (command: Command) => Effect.Effect<SpawnedProcess, PlatformError.PlatformError, Scope.Scope>
  }
}

/**
 * What to start.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Command {
  readonly executable: string
  readonly args: ReadonlyArray<string>
  /** The complete environment of the child (nothing is inherited). */
  readonly env: Readonly<Record<string, string>>
  readonly cwd?: string | undefined
}

/**
 * The next chunk of bytes of an output pipe, as `Stream.toPull` gives them:
 * fails with `None` once the pipe has closed. A read error closes it too (the
 * exit status says why the process went away). Single consumer.
 *
 * @since 0.1.0
 * @category Models
 */
export type Pull = Effect.Effect<Chunk.Chunk<Uint8Array>, Option.Option<never>>

/**
 * A started process.
 *
 * @since 0.1.0
 * @category Models
 */
export interface SpawnedProcess {
  readonly pid: number
  readonly stdout: Pull
  readonly stderr: Pull
  /**
   * Hands stdout to `receiver` as it arrives, a chunk at a time, synchronously as the pipe's data
   * is read (what was read before is handed over first), then tells it the end (or a read error,
   * which closes the pipe as its end does). In place of pulling `stdout`: read one or the other.
   * Returns what stops it. Optional: where the spawner has it, `CliProcess` reads the CLI's lines
   * without a fiber step per chunk.
   */
  readonly pushStdout?: ((receiver: StdoutReceiver) => () => void) | undefined
  /**
   * Writes text to stdin as UTF-8, in order, without waiting (nothing is lost while the process reads
   * slowly: what it has not read yet is buffered). `false` once stdin has ended; what is written to a
   * process that has exited is dropped.
   */
  readonly write: (text: string) => boolean
  /** Ends stdin once everything written before has been. Idempotent. */
  readonly endInput: () => void
  /** Waits for the process to exit. */
  readonly exit: Effect.Effect<ExitStatus>
  /** Whether the process still runs (has not been reaped): its pid is still its own. */
  readonly isRunning: Effect.Effect<boolean>
  /**
   * Whether the spawner started the process as the leader of a process group of its own (the group's
   * id is its pid), which `CliProcess` then signals. Absent: `CliProcess` asks the system, by signalling
   * the group with signal 0.
   */
  readonly leadsProcessGroup?: boolean | undefined
}

/**
 * What {@link SpawnedProcess.pushStdout} hands stdout to. Neither may throw.
 *
 * @since 0.1.0
 * @category Models
 */
export interface StdoutReceiver {
  readonly chunk: (bytes: Uint8Array) => void
  readonly end: () => void
}

/**
 * Starts the CLI through the platform's `CommandExecutor`: stdin is a sink fed
 * by one long-lived writer, stdout and stderr are pulled from its streams.
 * What `CliProcess` uses when no `CliSpawner` is provided.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const fromCommandExecutor: (executor: CommandExecutor.CommandExecutor) => CliSpawner.Service =
  internal.fromCommandExecutor
