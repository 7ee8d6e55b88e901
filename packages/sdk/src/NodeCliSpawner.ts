/**
 * The CLI started with `node:child_process` directly: stdin is written
 * without a stream in between and stdout is read from its `data` events. The
 * spawner `CliProcess` uses when no `CliSpawner` is provided: against effect's
 * `ChildProcessSpawner` (`CliSpawner.layerChildProcess`) the host spends
 * 0.65–0.75x the CPU per line written and read back (the control-request
 * path), 0.9x per line read, and a close does not wait for the process group
 * (the `ChildProcessSpawner` waits up to 1 s more where a zombie lingers in
 * it); spawn to first line is the same (`test/bench/spawners.ts`). Signals,
 * exit statuses and spawn failures are the same through either; on Linux the
 * CLI stays in the caller's process group (see {@link Options.ownProcessGroup}).
 *
 * ```ts
 * ClaudeCode.layer().pipe(Layer.provide(NodeCliSpawner.layerWith({ ownProcessGroup: true })))
 * ```
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Readable, Writable } from "node:stream"
import type { ExitStatus } from "./CliProcess.js"
import { CliSpawner, type SpawnedProcess } from "./CliSpawner.js"
import * as internal from "./internal/nodeCliSpawner.js"

/**
 * @since 0.1.0
 * @category Constructors
 */
export const spawner: CliSpawner.Service = internal.spawner

/**
 * A CLI's pipes as Node streams, for a `CliSpawner` of your own (a CLI in a
 * container, behind a tunnel, or a test double).
 *
 * @since 0.1.0
 * @category Models
 */
export interface Pipes {
  readonly pid: number
  readonly stdin: Writable
  readonly stdout: Readable
  /** Absent: the process has no stderr to read. */
  readonly stderr?: Readable | undefined
  readonly exit: Effect.Effect<ExitStatus>
  readonly isRunning: Effect.Effect<boolean>
  /** Whether the process leads a process group of its own (see `SpawnedProcess.leadsProcessGroup`). */
  readonly leadsProcessGroup?: boolean | undefined
}

/**
 * The process of a `CliSpawner` over Node streams, read and written as this
 * spawner does its own child's: stdin written directly, stdout and stderr
 * pulled from their `data` events.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const fromPipes: (pipes: Pipes) => SpawnedProcess = internal.fromPipes

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /**
   * Start the CLI in a process group of its own (Node's `detached`, which
   * also gives it a session of its own), rather than in the caller's.
   *
   * Default: only where a CLI's leftovers cannot be found by the
   * environment variable it passes on (no Linux `/proc`: macOS, the BSDs),
   * since there its group is how they are found. On Linux the CLI stays in
   * the caller's group, as with the official SDK: Linux schedules every
   * session as a group of its own (autogroup), so 64 CLIs in sessions of
   * their own weigh 64 times what every other session on a busy machine
   * does, and on 2 cores took 1.8x the wall time of the same work in one
   * session. In the caller's group the CLI also gets the terminal's Ctrl-C,
   * and exits (the SDK's close then finds it gone).
   *
   * `true` keeps a CLI out of the terminal's signals: its program alone
   * decides when it stops (a cluster runner letting its turns finish on
   * Ctrl-C).
   */
  readonly ownProcessGroup?: boolean | undefined
}

/**
 * A spawner with `options`; {@link spawner} is the one with none.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (options?: Options | undefined) => CliSpawner.Service = internal.make

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer: Layer.Layer<CliSpawner> = Layer.succeed(CliSpawner, internal.spawner)

/**
 * {@link layer} with `options`.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerWith = (options: Options): Layer.Layer<CliSpawner> =>
  Layer.succeed(CliSpawner, internal.make(options))
