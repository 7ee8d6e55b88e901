/**
 * `CliSpawner` over the platform's `CommandExecutor`.
 *
 * @internal
 */
import * as Command from "@effect/platform/Command"
import type * as CommandExecutor from "@effect/platform/CommandExecutor"
import * as PlatformError from "@effect/platform/Error"
import * as Channel from "effect/Channel"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import type { ExitStatus } from "../CliProcess.js"
import type * as CliSpawner from "../CliSpawner.js"
import * as WriteQueue from "./writeQueue.js"

// Node reports a signal death as a failed exitCode whose message names the signal.
const signalFromError = (error: unknown): string | null => {
  const match = /signal: (SIG[A-Z0-9]+)/.exec(String((error as { message?: unknown })?.message ?? error))
  return match ? match[1] : null
}

// A read error closes the pipe, as its end does.
const pullOf = (stream: Stream.Stream<Uint8Array, unknown>) =>
  Effect.map(Stream.toPull(stream), (pull): CliSpawner.Pull => Effect.mapError(pull, () => Option.none()))

/** @internal */
export const fromCommandExecutor = (executor: CommandExecutor.CommandExecutor): CliSpawner.CliSpawner.Service => ({
  spawn: (command) =>
    Effect.gen(function*() {
      const proc = yield* executor.start(
        Command.make(command.executable, ...command.args).pipe(
          Command.env(command.env, { extendEnv: false }),
          command.cwd !== undefined ? Command.workingDirectory(command.cwd) : (c) => c
        )
      ).pipe(
        // A synchronous throw from spawn (ENOTDIR, E2BIG, ...) is a defect of `start`: it is a failure to start.
        Effect.catchAllDefect((cause) =>
          Effect.fail(new PlatformError.SystemError({ reason: "Unknown", module: "Command", method: "spawn", cause }))
        )
      )
      // One writer for the whole life of the process: stdin is a single sink run once (a second run
      // would write nothing). The queue never fails: the sink runs without `Stream.run`'s handling of a
      // failing upstream.
      const input = WriteQueue.make<Uint8Array>()
      yield* Channel.runDrain(Channel.pipeTo(input.channel, Sink.toChannel(proc.stdin))).pipe(
        Effect.ignore,
        Effect.forkDaemon
      )
      const encoder = new TextEncoder()
      return {
        pid: proc.pid,
        stdout: yield* pullOf(proc.stdout),
        stderr: yield* pullOf(proc.stderr),
        write: (text) => input.offer(encoder.encode(text)),
        endInput: input.end,
        exit: proc.exitCode.pipe(
          Effect.map((code): ExitStatus => ({ code, signal: null })),
          Effect.catchAll((error) => Effect.succeed<ExitStatus>({ code: null, signal: signalFromError(error) }))
        ),
        isRunning: Effect.orElseSucceed(proc.isRunning, () => false)
      }
    })
})
