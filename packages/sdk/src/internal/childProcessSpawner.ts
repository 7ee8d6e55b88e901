/**
 * `CliSpawner` over effect's `ChildProcessSpawner` (`effect/process`).
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as PlatformError from "effect/PlatformError"
import * as ChildProcess from "effect/process/ChildProcess"
import type * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import * as Stream from "effect/Stream"
import type { ExitStatus } from "../CliProcess.js"
import type * as CliSpawner from "../CliSpawner.js"
import * as WriteQueue from "./writeQueue.js"

// A signal death is a failed `exitCode` whose cause's message names the signal (`... signal: 'SIGTERM'`).
const signalFromError = (error: PlatformError.PlatformError): string | null => {
  const match = /signal: '?(SIG[A-Z0-9]+)/.exec(String((error.cause as { message?: unknown } | undefined)?.message))
  return match ? match[1] : null
}

// A read error closes the pipe, as its end does.
const pullOf = (stream: Stream.Stream<Uint8Array, PlatformError.PlatformError>) =>
  Effect.map(Stream.toPull(stream), (pull): CliSpawner.Pull => Effect.mapError(pull, () => Cause.Done()))

/** @internal */
export const fromChildProcessSpawner = (
  spawner: ChildProcessSpawner.ChildProcessSpawner["Service"]
): CliSpawner.CliSpawner.Service => ({
  spawn: (command) =>
    Effect.gen(function*() {
      // One writer for the whole life of the process: stdin is a single stream, run once by the spawner.
      const input = yield* WriteQueue.make<Uint8Array>()
      const handle = yield* spawner.spawn(ChildProcess.make(command.executable, command.args, {
        env: command.env,
        extendEnv: false,
        ...(command.cwd !== undefined ? { cwd: command.cwd } : {}),
        stdin: input.stream,
        // What still runs when the scope closes is killed (CliProcess has shut it down gracefully before);
        // the spawner then waits for the group, SIGKILLs it again after this, and waits at most 1 s more.
        killSignal: "SIGKILL",
        forceKillAfter: 100
      })).pipe(
        // A synchronous throw from spawn (ENOTDIR, E2BIG, ...) is a defect of `spawn`: it is a failure to start.
        Effect.catchDefect((cause) =>
          Effect.fail(PlatformError.systemError({ _tag: "Unknown", module: "ChildProcess", method: "spawn", cause }))
        )
      )
      const encoder = new TextEncoder()
      return {
        pid: handle.pid,
        stdout: yield* pullOf(handle.stdout),
        stderr: yield* pullOf(handle.stderr),
        write: (text) => input.offer(encoder.encode(text)),
        endInput: input.end,
        exit: handle.exitCode.pipe(
          Effect.map((code): ExitStatus => ({ code, signal: null })),
          Effect.catch((error) => Effect.succeed<ExitStatus>({ code: null, signal: signalFromError(error) }))
        ),
        isRunning: Effect.orElseSucceed(handle.isRunning, () => false)
      }
    })
})
