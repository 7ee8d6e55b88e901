/**
 * The Node edge of a command hook: the process's stdio, and `main`, which
 * owns the process (stdout discipline, watchdog, exit code).
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type * as HookCommand from "../HookCommand.js"
import * as internal from "./hookCommand.js"
import { HookCommandError, type StdioService } from "./hookCommandBase.js"

// Whether the text read so far is one complete JSON object: the CLI may not close stdin at once.
const isCompleteObject = (text: string): boolean => {
  const trimmed = text.trimEnd()
  if (!trimmed.endsWith("}")) return false
  try {
    JSON.parse(trimmed)
    return true
  } catch {
    return false
  }
}

const writeTo = (write: (text: string, done: () => void) => void, text: string): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    write(text, () => resume(Effect.void))
  })

/**
 * The Node stdio. `stdout` writes with the given function: `main` hands in
 * the real stdout's `write`, having pointed `process.stdout.write` at stderr.
 *
 * @internal
 */
export const makeStdio = (
  stdoutWrite: (text: string, done: () => void) => void = (text, done) => process.stdout.write(text, () => done())
): StdioService => ({
  readAll: (maxBytes) =>
    Effect.callback<string, HookCommandError>((resume) => {
      const stdin = process.stdin
      const chunks: Array<Buffer> = []
      let size = 0
      let done = false
      const text = () => Buffer.concat(chunks, size).toString("utf8")
      const cleanup = () => {
        stdin.off("data", onData)
        stdin.off("end", onEnd)
        stdin.off("error", onError)
        stdin.pause()
      }
      const finish = (effect: Effect.Effect<string, HookCommandError>) => {
        if (done) return
        done = true
        cleanup()
        resume(effect)
      }
      const onData = (chunk: Buffer | string) => {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk
        if (size + bytes.length > maxBytes) {
          return finish(Effect.fail(
            new HookCommandError({ reason: "StdinTooLarge", detail: `the hook input is over ${maxBytes} bytes` })
          ))
        }
        chunks.push(bytes)
        size += bytes.length
        if (bytes[bytes.length - 1] === 0x7d || bytes[bytes.length - 1] === 0x0a) {
          const sofar = text()
          if (isCompleteObject(sofar)) finish(Effect.succeed(sofar))
        }
      }
      const onEnd = () => finish(Effect.succeed(text()))
      const onError = (error: Error) =>
        finish(Effect.fail(
          new HookCommandError({
            reason: "StdinFailed",
            detail: `stdin could not be read: ${error.message}`,
            cause: error
          })
        ))
      stdin.on("data", onData)
      stdin.once("end", onEnd)
      stdin.once("error", onError)
      return Effect.sync(cleanup)
    }),
  writeStdout: (text) => writeTo(stdoutWrite, text),
  writeStderr: (text) => writeTo((t, done) => process.stderr.write(t, () => done()), text)
})

const WATCHDOG_GRACE_MILLIS = 2_000

/**
 * The entry point of a hook program.
 *
 * @internal
 */
export const main = <E, R>(layers: Layer.Layer<never, E, R>, options?: HookCommand.MainOptions<R>): void => {
  const resolved = internal.resolveOptions(options)

  // stdout carries the output JSON and nothing else: whatever else writes to it (console.log in a
  // handler, a library's banner) goes to stderr. A line the CLI cannot parse would make it run the tool.
  const stdout = process.stdout
  const realWrite = stdout.write.bind(stdout)
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write
  // A reader that went away must not turn into an uncaught EPIPE (exit 1 = "no opinion").
  stdout.on("error", () => {})
  process.stderr.on("error", () => {})

  let finished = false
  let event: string | undefined
  const finish = (outcome: HookCommand.Outcome) => {
    if (finished) return
    finished = true
    if (outcome.stderr.length > 0) process.stderr.write(outcome.stderr)
    const exit = () => process.exit(outcome.exitCode)
    if (outcome.stdout.length > 0) {
      realWrite(outcome.stdout, exit)
      // Should the reader never take the answer, do not wait for it forever.
      setTimeout(exit, WATCHDOG_GRACE_MILLIS)
    } else {
      exit()
    }
  }
  const watchdog = setTimeout(
    () => finish(internal.fallbackOutcome(event, "timeout", "the hook program outlived its deadline", resolved)),
    resolved.deadlineMillis + WATCHDOG_GRACE_MILLIS
  )

  const provided: Layer.Layer<never, unknown, never> = options?.platform !== undefined
    ? Layer.provide(layers, options.platform)
    : (layers as Layer.Layer<never, E, never>)

  const program = internal.answerStdin(
    makeStdio((text, done) => realWrite(text, () => done())),
    provided,
    resolved,
    (parsedEvent) => {
      event = parsedEvent
    }
  ).pipe(Effect.provide(Logger.layer([Logger.withConsoleError(Logger.formatSimple)])))

  void Effect.runPromiseExit(program).then((exit) => {
    clearTimeout(watchdog)
    finish(
      Exit.isSuccess(exit)
        ? exit.value
        : internal.fallbackOutcome(event, "failure", `the hook program failed: ${Cause.pretty(exit.cause)}`, resolved)
    )
  })
}
