/**
 * The code of docs/sessions.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import type { Protocol } from "@claude-effect/sdk"
import { ClaudeCode } from "@claude-effect/sdk"
import { Console, Effect, Fiber, References, Stream } from "effect"
// #endregion

// #region pool-imports
import { HookLayer, HookResult, PermissionGate, PermissionResult, SessionPool } from "@claude-effect/sdk"
import { NodeServices } from "@effect/platform-node"
import { Layer } from "effect"
// #endregion

// #region turns
const conversation = Effect.scoped(
  Effect.gen(function*() {
    // One CLI process for the whole scope.
    const session = yield* ClaudeCode.session({ model: "sonnet" })
    yield* session.turn("Read package.json and tell me the project's name.").pipe(Stream.runDrain)
    // The second turn remembers the first.
    const answer = yield* session.turn("Now its version.").pipe(Stream.runCollect)
    yield* Console.log(`${answer.length} messages; session ${yield* session.sessionId}`)
  })
) // the scope closes: the CLI is shut down
// #endregion

// #region interrupt
const impatient = Effect.scoped(
  Effect.gen(function*() {
    const session = yield* ClaudeCode.session()
    const long = yield* session.turn("Write a 2,000-word essay on type systems.").pipe(
      Stream.runCollect,
      Effect.forkChild
    )
    yield* Effect.sleep("3 seconds")
    yield* session.interrupt // the turn ends with an error_during_execution result
    yield* Fiber.join(long)
    // The session is still usable.
    yield* session.turn("In one sentence instead, please.").pipe(Stream.runDrain)
  })
)
// #endregion

// #region control
const tuned = Effect.scoped(
  Effect.gen(function*() {
    const session = yield* ClaudeCode.session()
    yield* session.setPermissionMode("acceptEdits") // from the next turn on
    yield* session.setModel("opus") // from the next API request on
    const usage = yield* session.getContextUsage
    const servers = yield* session.mcpServerStatus
    const commands = yield* session.supportedCommands
    yield* Console.log(`${usage.totalTokens}/${usage.maxTokens} tokens, ${servers.length} MCP servers`)
    yield* Console.log(`${commands.length} slash commands`)
  })
)
// #endregion

// #region messages
// `messages` is every message until the CLI exits; `send` queues a user message.
const firehose = Effect.scoped(
  Effect.gen(function*() {
    const session = yield* ClaudeCode.session()
    yield* session.send("List the files here.")
    yield* session.send("Then count them.")
    yield* session.endInput // the CLI finishes what it was given, then exits
    yield* session.messages.pipe(
      Stream.runForEach((message: Protocol.Message) => Console.log(message.type))
    )
  })
)
// #endregion

// #region chunks
// Synchronous handling, a chunk at a time: no effect per message, nothing held past its use.
const tallied = Effect.scoped(
  Effect.gen(function*() {
    const session = yield* ClaudeCode.session({ includePartialMessages: true })
    yield* session.send("Write a long story.")
    yield* session.endInput
    const counts = new Map<string, number>()
    yield* session.messages.pipe(
      Stream.runForEachArray((chunk) => {
        for (const message of chunk) counts.set(message.type, (counts.get(message.type) ?? 0) + 1)
        return Effect.void
      })
    )
    return counts
  })
)
// #endregion

// #region stream-prompt
// A query fed by a stream of prompts: it ends when the input has ended and the CLI has finished.
const batch = ClaudeCode.query(
  Stream.make("What is 2 + 2?", "And 3 + 3?")
).pipe(Stream.runCollect)
// #endregion

// #region stderr
// The CLI's stderr, line by line and redacted, while the session runs (here its debug log).
const diagnosed = Effect.scoped(
  Effect.gen(function*() {
    const session = yield* ClaudeCode.session({ extraArgs: { "debug-to-stderr": null } })
    yield* session.stderr.pipe(
      Stream.filter((line) => line.includes("[ERROR]")),
      Stream.runForEach((line) => Console.error(line)),
      Effect.forkChild
    )
    yield* session.turn("Check the MCP servers.").pipe(Stream.runDrain)
  })
)
// #endregion

// #region stderr-sink
// Or as a sink: every line goes to the program's logger (here at Debug level).
const logged = ClaudeCode.query("Hi", { stderr: Effect.logDebug }).pipe(
  Stream.runDrain,
  Effect.provideService(References.MinimumLogLevel, "Debug")
)
// #endregion

// #region verbatim
// Text assembled from content the user did not type: no @file expansion, no slash command.
const verbatim = ClaudeCode.query(`Summarize this ticket: ${"@billing /refund all"}`, { verbatimPrompts: true })
// #endregion

// #region pool
// Two processes for this folder, spawned and initialized ahead of time; each claim takes one and starts its
// replacement. The pool's hooks and gate are those of the layers it is built with.
const Pool = SessionPool.layer({ size: 2, options: { cwd: "/srv/project" } }).pipe(
  Layer.provide(Layer.mergeAll(
    PermissionGate.layer((request) =>
      Effect.succeed(
        request.tool_name === "Bash" ? PermissionResult.deny("read only") : PermissionResult.allow()
      )
    ),
    HookLayer.postToolUse((input) => Effect.as(Console.log(`ran ${input.tool_name}`), HookResult.empty))
  )),
  Layer.provide(ClaudeCode.layer())
)

// One prompt on a claimed process: gone when the stream ends, like ClaudeCode.query.
const answer = SessionPool.query("Summarize README.md in one line.").pipe(
  Stream.filter((message) => message.type === "result"),
  Stream.runForEach((message) => Console.log(message))
)

// A multi-turn session from the pool, with a model chosen at the claim.
const chat = Effect.scoped(
  Effect.gen(function*() {
    const session = yield* SessionPool.session({ model: "opus" })
    yield* session.turn("What does this project do?").pipe(Stream.runDrain)
    yield* session.turn("And how is it tested?").pipe(Stream.runDrain)
  })
)

// Run with NodeRuntime.runMain: the pool's processes are shut down when the program ends.
const main = Effect.andThen(answer, chat).pipe(Effect.provide(Pool), Effect.provide(NodeServices.layer))
// #endregion

// #region pool-status
// What the pool holds: the pids of the ready processes, the warm-ups under way, the last warm-up failure.
const health = Effect.gen(function*() {
  const pool = yield* SessionPool.SessionPool
  const status = yield* pool.status
  yield* Console.log(`${status.ready.length}/${status.size} ready, ${status.warming} warming`)
})
// #endregion

export {
  answer,
  batch,
  chat,
  conversation,
  diagnosed,
  firehose,
  health,
  impatient,
  logged,
  main,
  tallied,
  tuned,
  verbatim
}
