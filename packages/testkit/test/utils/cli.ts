/**
 * Runs the real `claude` binary against the ScriptedModel in context.
 *
 * Written around the known traps of `@effect/platform` Command: stderr is
 * always drained, stdin is one stream given at spawn time, and the shutdown is
 * bounded (the Command finalizer alone sends SIGTERM and waits forever).
 */
import * as CliLocator from "@claude-effect/sdk/CliLocator"
import * as Command from "@effect/platform/Command"
import type { PlatformError } from "@effect/platform/Error"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { ScriptedModel } from "../../src/index.js"

export interface Line {
  /** Milliseconds since the process was started. */
  readonly at: number
  readonly raw: string
  readonly message: any
}

export interface CliProcess {
  readonly lines: Effect.Effect<ReadonlyArray<Line>>
  /** Waits for the `count`-th stdout message matching the predicate. */
  readonly awaitMessage: (predicate: (message: any) => boolean, count?: number) => Effect.Effect<Line>
  /** Writes one JSON line on stdin. */
  readonly send: (message: unknown) => Effect.Effect<void>
  /** Ends stdin. */
  readonly endInput: Effect.Effect<void>
  /** Waits for the process to exit. */
  readonly exit: Effect.Effect<CliResult, PlatformError>
}

export interface CliResult {
  readonly exitCode: number
  readonly lines: ReadonlyArray<Line>
  readonly messages: ReadonlyArray<any>
  readonly stderr: string
  /** The last `result` message. */
  readonly result: any
}

export const userMessage = (content: string) => ({
  type: "user",
  message: { role: "user", content },
  parent_tool_use_id: null,
  session_id: ""
})

/** The stream-json arguments, with `-p` style set by `--input-format`. */
export const streamJsonArgs = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"]

/**
 * Starts `claude` with `args` in `cwd`, with the scripted model's `cliEnv`
 * merged over `process.env`. Stdin is fed from a queue (one stream for the
 * whole life of the process).
 */
export const startCli = Effect.fnUntraced(function*(options: {
  readonly args: ReadonlyArray<string>
  readonly cwd: string
  readonly env?: Readonly<Record<string, string>>
}) {
  const executable = yield* CliLocator.locate()
  const env = yield* ScriptedModel.cliEnv
  const input = yield* Queue.unbounded<string | null>()
  const stdin = Stream.fromQueue(input).pipe(
    Stream.takeWhile((chunk): chunk is string => chunk !== null),
    Stream.encodeText
  )
  const command = Command.make(executable, ...options.args).pipe(
    Command.workingDirectory(options.cwd),
    Command.env({ ...env, ...options.env }),
    Command.stdin(stdin)
  )
  const startedAt = yield* Clock.currentTimeMillis
  const proc = yield* Command.start(command)
  // Runs before Command's own finalizer: SIGTERM with a bound, then SIGKILL.
  yield* Effect.addFinalizer(() =>
    Effect.gen(function*() {
      if (!(yield* Effect.orElseSucceed(proc.isRunning, () => false))) return
      yield* proc.kill("SIGTERM").pipe(
        Effect.interruptible,
        Effect.timeout("3 seconds"),
        Effect.catchAll(() => proc.kill("SIGKILL").pipe(Effect.interruptible, Effect.timeout("3 seconds"))),
        Effect.ignore
      )
    })
  )

  const stderrFiber = yield* proc.stderr.pipe(
    Stream.decodeText(),
    Stream.runFold("", (acc, chunk) => (acc + chunk).slice(-64 * 1024)),
    Effect.fork
  )
  const lines = yield* SubscriptionRef.make<ReadonlyArray<Line>>([])
  const stdoutFiber = yield* proc.stdout.pipe(
    Stream.decodeText(),
    Stream.splitLines,
    Stream.filter((raw) => raw.trim().length > 0),
    Stream.runForEach((raw) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        let message: any
        try {
          message = JSON.parse(raw)
        } catch {
          message = { type: "unparsed", raw }
        }
        return SubscriptionRef.update(lines, (all) => [...all, { at: now - startedAt, raw, message }])
      })
    ),
    Effect.fork
  )

  const awaitMessage = (predicate: (message: any) => boolean, count = 1) =>
    lines.changes.pipe(
      Stream.map((all) => all.filter((line) => predicate(line.message))),
      Stream.filter((matching) => matching.length >= count),
      Stream.map((matching) => matching[count - 1]!),
      Stream.runHead,
      Effect.flatten,
      Effect.orDie
    )

  const exit = Effect.gen(function*() {
    yield* Fiber.join(stdoutFiber)
    const exitCode = yield* proc.exitCode
    const stderr = yield* Fiber.join(stderrFiber)
    const all = yield* SubscriptionRef.get(lines)
    const messages = all.map((line) => line.message)
    return {
      exitCode,
      lines: all,
      messages,
      stderr,
      result: messages.filter((message) => message.type === "result").at(-1)
    }
  })

  return {
    lines: SubscriptionRef.get(lines),
    awaitMessage,
    send: (message) => Queue.offer(input, JSON.stringify(message) + "\n"),
    endInput: Queue.offer(input, null),
    exit
  } satisfies CliProcess
})

/**
 * Runs one prompt to the end: writes it as a stream-json user message, ends
 * stdin, and waits (bounded) for the process to exit.
 */
export const runPrompt = (prompt: string, options: {
  readonly cwd: string
  readonly args?: ReadonlyArray<string>
  readonly env?: Readonly<Record<string, string>>
  readonly timeout?: Duration.DurationInput
}) =>
  Effect.scoped(
    Effect.gen(function*() {
      const cli = yield* startCli({
        args: [...streamJsonArgs, ...(options.args ?? [])],
        cwd: options.cwd,
        ...(options.env !== undefined ? { env: options.env } : {})
      })
      yield* cli.send(userMessage(prompt))
      yield* cli.endInput
      return yield* cli.exit
    })
  ).pipe(Effect.timeoutFail({
    duration: options.timeout ?? Duration.seconds(30),
    onTimeout: () => new Error(`claude did not finish in ${Duration.format(options.timeout ?? Duration.seconds(30))}`)
  }))
