/**
 * How the `claude` child process is started and its pipes reached: the seam
 * under `CliProcess`, as `spawnClaudeCodeProcess` is in the official SDK.
 *
 * Without a `CliSpawner` in context, the CLI is started with
 * `node:child_process` directly (`NodeCliSpawner`): stdin written without a
 * stream in between and stdout framed as it arrives, the cheaper of the two
 * (see `NodeCliSpawner`). {@link layerChildProcess} starts it through effect's
 * `ChildProcessSpawner` instead (`effect/process`, `NodeServices.layer`).
 *
 * @since 0.1.0
 */
import type * as Arr from "effect/Array"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as PlatformError from "effect/PlatformError"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import type * as Pull_ from "effect/Pull"
import type * as Scope from "effect/Scope"
import type { ExitStatus } from "./CliProcess.js"
import * as internal from "./internal/childProcessSpawner.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class CliSpawner extends Context.Service<CliSpawner, CliSpawner.Service>()("@claude-effect/sdk/CliSpawner") {}

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
 * fails with `Cause.Done` once the pipe has closed. A read error closes it too
 * (the exit status says why the process went away). Single consumer.
 *
 * @since 0.1.0
 * @category Models
 */
export type Pull = Pull_.Pull<Arr.NonEmptyReadonlyArray<Uint8Array>>

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
 * Starts the CLI through effect's `ChildProcessSpawner` (`effect/process`):
 * stdin is a stream fed by one long-lived writer, stdout and stderr are pulled
 * from the handle's streams. The process leads a process group of its own
 * (`ChildProcess`'s `detached` default), which `CliProcess` signals.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const fromChildProcessSpawner: (
  spawner: ChildProcessSpawner.ChildProcessSpawner["Service"]
) => CliSpawner.Service = internal.fromChildProcessSpawner

/**
 * {@link fromChildProcessSpawner} over the `ChildProcessSpawner` in context
 * (`NodeServices.layer` on Node).
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerChildProcess: Layer.Layer<CliSpawner, never, ChildProcessSpawner.ChildProcessSpawner> = Layer
  .effect(
    CliSpawner,
    Effect.map(Effect.service(ChildProcessSpawner.ChildProcessSpawner), internal.fromChildProcessSpawner)
  )
