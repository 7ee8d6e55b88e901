/**
 * The code of docs/migrating-from-effect-3.md: each region is the effect-4
 * side of a change the guide shows. Each `#region` is copied into the guide
 * by scripts/sync-guides.mjs; `pnpm check` type-checks this file and
 * test/guides/migrating.test.ts runs it on the real CLI.
 */
// #region imports
import { ClaudeCode, Protocol } from "@claude-effect/sdk"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect, FileSystem, Path, Stream } from "effect"
import * as ChildProcess from "effect/process/ChildProcess"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"

// NodeServices.layer: FileSystem, Path, the ChildProcessSpawner, Stdio and Terminal (was NodeContext.layer)
const main = (program: Effect.Effect<void, unknown, ClaudeCode.ClaudeCode>) =>
  program.pipe(Effect.provide(ClaudeCode.layer()), Effect.provide(NodeServices.layer), NodeRuntime.runMain)
// #endregion

// #region services
import { Context, Layer } from "effect"

// Context.Service<Self, Shape>()(key) (was Context.Tag(key)<Self, Shape>())
class Approvals extends Context.Service<Approvals, {
  readonly ask: (tool: string) => Effect.Effect<boolean>
}>()("app/Approvals") {}

const ApproveAll = Layer.succeed(Approvals, { ask: () => Effect.succeed(true) })
// #endregion

// #region config
import { ConfigProvider } from "effect"

// CLAUDE_PERMISSION_MODE=yolo fails with a Config.ConfigError: its `cause` is a Schema.SchemaError, its message
// names the variable and what it accepts (effect 3's ConfigError had `_op: "InvalidData"` and a `path`).
const configured = ClaudeCode.result("Hi").pipe(
  Effect.provide(ClaudeCode.layerConfig()),
  Effect.catchTag("ConfigError", (error) => Console.error(`Fix the environment: ${error.message}`))
)

// An empty variable (CLAUDE_MODEL=) now reads as unset, as if it were not there. To keep empty strings:
const keepEmpty = ConfigProvider.layer(ConfigProvider.fromEnv({ preserveEmptyStrings: true }))

// A fixed configuration, in a test (was ConfigProvider.fromMap(new Map([...]))):
const fixed = ConfigProvider.layer(ConfigProvider.fromEnv({ env: { CLAUDE_PERMISSION_MODE: "plan" } }))
// #endregion

// #region streams
// Stream.runCollect returns an Array (was a Chunk): no Chunk.toReadonlyArray, no Chunk.last.
const lastMessage = ClaudeCode.query("What changed?").pipe(
  Stream.runCollect,
  Effect.map((messages) => messages.at(-1))
)

// Effect.fork is Effect.forkChild, and the fiber starts when the parent yields, not at once.
const reader = Effect.scoped(Effect.gen(function*() {
  const session = yield* ClaudeCode.session()
  const stderr = yield* session.stderr.pipe(Stream.runForEach(Console.error), Effect.forkChild)
  yield* session.turn("Hi").pipe(Stream.runDrain)
  return stderr
}))
// #endregion

// #region result
import { Result } from "effect"

// The SDK's codecs answer with effect's Result (was Either): isSuccess/isFailure, .success/.failure.
const decoded = Protocol.decodeStdoutLine(`{"type":"keep_alive"}`)
const kind = Result.isSuccess(decoded) ? decoded.success.type : `unreadable: ${decoded.failure.message}`
// #endregion

// #region logging
import { Logger, References } from "effect"

// Levels are strings: "Warn", "Debug", ... (effect 3: LogLevel.Warning, whose label was "WARN").
const warnings: Array<string> = []
const collectWarnings = Logger.layer([
  Logger.make(({ logLevel, message }) => {
    if (logLevel === "Warn") warnings.push(String(message))
  })
]) // Logger.layer replaces the loggers (was Logger.replace(Logger.defaultLogger, ...))

// The CLI's stderr at Debug level (was Logger.withMinimumLogLevel(LogLevel.Debug)).
const debugged = ClaudeCode.query("Hi", { stderr: Effect.logDebug }).pipe(
  Stream.runDrain,
  Effect.provideService(References.MinimumLogLevel, "Debug")
)
// #endregion

// #region sqlite
import { SqliteClient, SqlSessionStore } from "@claude-effect/sql"

// SQLite is node:sqlite, through @claude-effect/sql's own client (was @effect/sql-sqlite-node on better-sqlite3).
const store = SqlSessionStore.layer().pipe(Layer.provide(SqliteClient.layer({ filename: "sessions.db" })))
// #endregion

// #region platform
// FileSystem and Path come from effect; a command runs through effect/process (was @effect/platform Command).
const listing = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const files = yield* fs.readDirectory(path.resolve("."))
  const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
  const git = yield* spawner.string(ChildProcess.make("git", ["status", "--short"]))
  return { files, git }
})
// #endregion

export {
  Approvals,
  ApproveAll,
  collectWarnings,
  configured,
  debugged,
  fixed,
  keepEmpty,
  kind,
  lastMessage,
  listing,
  main,
  reader,
  store,
  warnings
}
