/**
 * Runs the real `claude` binary against the ScriptedModel in context, on
 * `effect/process` ChildProcess: stderr is always drained, stdin is one
 * stream fed by a queue for the whole life of the process, and the shutdown
 * is bounded (SIGTERM, then SIGKILL after 3 s, when the scope closes).
 */
import type * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type { PlatformError } from "effect/PlatformError"
import * as ChildProcess from "effect/process/ChildProcess"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { ScriptedModel } from "../../src/index.js"

/**
 * The pinned CLI's native binary: the platform package beside
 * `@anthropic-ai/claude-code` (its own `bin/claude.exe` is a stub until its
 * postinstall runs, which pnpm skips). The SDK's `CliLocator` does this for
 * users; it is not ported yet, and the testkit does not need the rest of it.
 */
export const claudeExecutable: string = (() => {
  const wrapper = createRequire(import.meta.url).resolve("@anthropic-ai/claude-code/package.json")
  const musl = process.platform === "linux" &&
    (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
        ?.glibcVersionRuntime === undefined
  const name = `@anthropic-ai/claude-code-${process.platform}-${process.arch}${musl ? "-musl" : ""}`
  const binary = Path.join(Path.dirname(createRequire(wrapper).resolve(`${name}/package.json`)), "claude")
  Fs.accessSync(binary, Fs.constants.X_OK)
  return binary
})()

export interface Line {
  /** Milliseconds since the process was started. */
  readonly at: number
  readonly raw: string
  readonly message: any
}

export interface CliProcess {
  readonly pid: number
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
  const env = yield* ScriptedModel.cliEnv
  const input = yield* Queue.unbounded<string, Cause.Done>()
  const startedAt = yield* Clock.currentTimeMillis
  const proc = yield* ChildProcess.make(claudeExecutable, options.args, {
    cwd: options.cwd,
    env: { ...env, ...options.env },
    extendEnv: true,
    stdin: Stream.fromQueue(input).pipe(Stream.encodeText),
    killSignal: "SIGTERM",
    forceKillAfter: Duration.seconds(3)
  })

  const stderrFiber = yield* proc.stderr.pipe(
    Stream.decodeText,
    Stream.runFold(() => "", (acc, chunk) => (acc + chunk).slice(-64 * 1024)),
    Effect.forkScoped
  )
  const lines = yield* SubscriptionRef.make<ReadonlyArray<Line>>([])
  const stdoutFiber = yield* proc.stdout.pipe(
    Stream.decodeText,
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
    Effect.forkScoped
  )

  const awaitMessage = (predicate: (message: any) => boolean, count = 1) =>
    SubscriptionRef.changes(lines).pipe(
      Stream.map((all) => all.filter((line) => predicate(line.message))),
      Stream.filter((matching) => matching.length >= count),
      Stream.map((matching) => matching[count - 1]!),
      Stream.runHead,
      Effect.flatMap(Effect.fromOption),
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
    pid: proc.pid,
    lines: SubscriptionRef.get(lines),
    awaitMessage,
    send: (message) => Effect.asVoid(Queue.offer(input, JSON.stringify(message) + "\n")),
    endInput: Effect.asVoid(Queue.end(input)),
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
  readonly timeout?: Duration.Input
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
  ).pipe(Effect.timeoutOrElse({
    duration: options.timeout ?? Duration.seconds(30),
    orElse: () =>
      Effect.fail(
        new Error(
          `claude did not finish in ${
            Duration.format(Duration.fromInputUnsafe(options.timeout ?? Duration.seconds(30)))
          }`
        )
      )
  }))
