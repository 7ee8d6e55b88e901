/**
 * The CLI started with `node:child_process` directly: stdin is written
 * without a stream in between and stdout is read from its `data` events,
 * which takes about 40 % off the SDK's CPU per control request against the
 * platform's `CommandExecutor` (`packages/bench`, row 2). Signals, process
 * groups, exit statuses and spawn failures are the same as through the
 * `CommandExecutor`.
 *
 * ```ts
 * ClaudeCode.layer().pipe(Layer.provide(NodeCliSpawner.layer), Layer.provide(NodeContext.layer))
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
 * @category Layers
 */
export const layer: Layer.Layer<CliSpawner> = Layer.succeed(CliSpawner, internal.spawner)
