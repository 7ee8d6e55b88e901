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
import * as Layer from "effect/Layer"
import type { Readable } from "node:stream"
import { CliSpawner, type Pull } from "./CliSpawner.js"
import * as internal from "./internal/nodeCliSpawner.js"

/**
 * @since 0.1.0
 * @category Constructors
 */
export const spawner: CliSpawner.Service = internal.spawner

/**
 * A `Pull` over a Node `Readable`, as this spawner reads the CLI's stdout and
 * stderr: for a `CliSpawner` of your own (a CLI in a container, behind a
 * tunnel, or a test double) whose output is a Node stream.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const pullReadable: (readable: Readable) => Pull = internal.pullOf

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer: Layer.Layer<CliSpawner> = Layer.succeed(CliSpawner, internal.spawner)
