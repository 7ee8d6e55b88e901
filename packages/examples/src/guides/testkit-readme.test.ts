/**
 * The code of packages/testkit/README.md — and a test suite: vitest runs this
 * file. Each `#region` is copied into the README by scripts/sync-guides.mjs.
 */
// #region quick-start
import { ClaudeCode } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { NodeServices } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { Effect, FileSystem, Stream } from "effect"

layer(NodeServices.layer, { excludeTestServices: true })("my agent", (it) => {
  it.effect("runs a tool", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const cwd = yield* fs.makeTempDirectoryScoped()
      const env = yield* ScriptedModel.cliEnv
      // the real CLI, here through @claude-effect/sdk, talking to the scripted model
      yield* ClaudeCode.query("Write hi into out.txt", { cwd, env, allowedTools: ["Bash"] }).pipe(
        Stream.runDrain,
        Effect.provide(ClaudeCode.layer())
      )
      assert.strictEqual(yield* fs.readFileString(`${cwd}/out.txt`), "hi\n")
      const last = yield* ScriptedModel.lastTurnRequest
      assert.strictEqual(last.latestToolResults[0]?.toolUseId, "toolu_scripted_1")
    }).pipe(
      Effect.scoped,
      Effect.provide(ScriptedModel.layerNode([
        ScriptedModel.toolUse("Bash", { command: "echo hi > out.txt", description: "write" }),
        ScriptedModel.text("done")
      ]))
    ))
})
// #endregion

// #region command
import { CliLocator } from "@claude-effect/sdk"
import { ChildProcess } from "effect/process"

// The CLI as a ChildProcess: one prompt on stdin, the stream-json lines on stdout (until stdin ends).
const claudeCommand = (cwd: string, prompt: string) =>
  Effect.gen(function*() {
    const executable = yield* CliLocator.locate()
    return ChildProcess.make(
      executable,
      ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"],
      {
        cwd,
        env: yield* ScriptedModel.cliEnv,
        extendEnv: true, // over process.env, which the CLI still needs (PATH)
        forceKillAfter: "3 seconds", // SIGKILL if SIGTERM has not ended it (the default waits forever)
        stdin: Stream.make(
          JSON.stringify({
            type: "user",
            message: { role: "user", content: prompt },
            parent_tool_use_id: null,
            session_id: ""
          }) + "\n"
        ).pipe(Stream.encodeText)
      }
    )
  })
// #endregion

// #region steps
// Thinking, then two tool calls, in one answer.
const planning = ScriptedModel.turn(
  ScriptedModel.thinking("Let me look."),
  ScriptedModel.toolUse("Bash", { command: "ls" }),
  ScriptedModel.toolUse("Read", { file_path: "/tmp/x" })
)

// A long answer, streamed slowly.
const longAnswer = ScriptedModel.text("a long answer ...").pipe(
  ScriptedModel.slow({ delay: "50 millis", chunkSize: 2 })
)
// #endregion

// #region rule
// A tool call, then an answer that quotes what the tool returned.
const echoTheTool = ScriptedModel.rule((request) =>
  request.latestToolResults.length > 0
    ? ScriptedModel.text(`done: ${request.latestToolResults[0]!.content}`)
    : ScriptedModel.toolUse("Bash", { command: "echo ok" })
)
// #endregion

// #region fake-cli
import { FakeCli } from "@claude-effect/testkit"
import { it } from "@effect/vitest"
import { Layer } from "effect"

const inMemory = (script: FakeCli.FakeCli.Script) =>
  Layer.merge(FakeCli.layer(script), ClaudeCode.layer()).pipe(
    Layer.provideMerge(NodeServices.layer)
  )

it.effect("a crash mid-turn is a CliExitError that says so", () =>
  Effect.gen(function*() {
    const session = yield* ClaudeCode.session()
    const error = yield* Stream.runDrain(session.turn("hi")).pipe(Effect.flip)
    assert.isTrue(error._tag === "CliExitError" && error.duringTurn)
  }).pipe(
    Effect.scoped,
    Effect.provide(inMemory({
      turns: [(cli) => Effect.andThen(cli.emit(FakeCli.state("running"), FakeCli.init()), cli.exit({ code: 1 }))]
    }))
  ))
// #endregion

// #region hooktest
import { HookLayer, HookResult } from "@claude-effect/sdk"
import { HookTest } from "@claude-effect/testkit"

const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
  Effect.succeed(
    String((input.tool_input as { command?: unknown }).command).includes("rm -rf")
      ? HookResult.deny("no rm -rf")
      : HookResult.empty
  ))
const audit = HookLayer.preToolUse({ matcher: "Write|Bash" }, () => Effect.succeed(HookResult.allow()))

it.effect("deny beats allow", () =>
  Effect.gen(function*() {
    const outcome = yield* HookTest.run(HookTest.preToolUse("Bash", { command: "rm -rf /" }))
    assert.strictEqual(outcome.permissionDecision, "deny")
    assert.strictEqual(outcome.reason, "no rm -rf")
    assert.deepStrictEqual(outcome.runs.map((run) => run.name), ["PreToolUse(Bash)", "PreToolUse(Write|Bash)"])
  }).pipe(Effect.provide(Layer.mergeAll(guard, audit))))
// #endregion

// #region tool-inputs
import { ToolInputs } from "@claude-effect/testkit"
import { Option, Schema } from "effect"

const noSecrets = HookLayer.preToolUse({ matcher: "Write" }, (input) =>
  Effect.succeed(
    Option.match(Schema.decodeUnknownOption(ToolInputs.Write)(input.tool_input), {
      onNone: () => HookResult.deny("malformed Write input"),
      onSome: ({ file_path }) => file_path.includes(".env") ? HookResult.deny("no secrets") : HookResult.empty
    })
  ))

it.prop("a schema is a generator", [ToolInputs.Bash.arbitrary], ([bash]) => typeof bash.command === "string")
// #endregion

// #region postgres
import { PostgresServer } from "@claude-effect/testkit"
import { PgClient } from "@effect/sql-pg"
import { Redacted } from "effect"
import { SqlClient } from "effect/sql"

// PgClient on a throwaway server: it starts with the layer and is gone with it.
const PostgresLive = Layer.unwrap(
  Effect.map(PostgresServer.PostgresServer, (server) => PgClient.layer({ url: Redacted.make(server.url) }))
).pipe(Layer.provideMerge(PostgresServer.layer()))

layer(PostgresLive, { excludeTestServices: true, timeout: 60_000 })("a throwaway PostgreSQL", (it) => {
  it.effect("answers on 127.0.0.1", () =>
    Effect.gen(function*() {
      const server = yield* PostgresServer.PostgresServer
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly version: string }>`SELECT version()`
      assert.match(row!.version, /^PostgreSQL/)
      assert.strictEqual(server.url, `postgres://postgres@127.0.0.1:${server.port}/postgres`)
    }))
})
// #endregion

it.effect("the Write hook denies .env files and malformed input, and lets other writes through", () =>
  Effect.gen(function*() {
    const env = yield* HookTest.run(HookTest.preToolUse("Write", { file_path: "/p/.env", content: "K=v" }))
    assert.strictEqual(env.reason, "no secrets")
    const malformed = yield* HookTest.run(HookTest.preToolUse("Write", { path: "/p/a.txt" }))
    assert.strictEqual(malformed.reason, "malformed Write input")
    const fine = yield* HookTest.run(HookTest.preToolUse("Write", { file_path: "/p/a.txt", content: "x" }))
    assert.isUndefined(fine.permissionDecision)
  }).pipe(Effect.provide(noSecrets)))

import { ChildProcessSpawner } from "effect/process"

layer(NodeServices.layer, { excludeTestServices: true })("the README's scripts and command, on the real CLI", (it) => {
  it.effect("the Command runs the CLI against the scripted model", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const cwd = yield* fs.makeTempDirectoryScoped()
      const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
      const out = yield* Effect.flatMap(claudeCommand(cwd, "hi"), (command) => spawner.string(command)).pipe(
        Effect.timeout("60 seconds")
      )
      const result = out.split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line)).at(-1)
      assert.deepInclude(result, { type: "result", result: "Hello from the Command." })
      assert.isTrue((yield* ScriptedModel.lastTurnRequest).lastUserText.endsWith("hi"))
    }).pipe(Effect.scoped, Effect.provide(ScriptedModel.layerNode([ScriptedModel.text("Hello from the Command.")]))))

  it.effect("a turn of thinking and two tool calls, a slow answer, and the rule that quotes a tool", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const cwd = yield* fs.makeTempDirectoryScoped()
      const env = yield* ScriptedModel.cliEnv
      const run = (prompt: string) =>
        ClaudeCode.query(prompt, { cwd, env, allowedTools: ["Bash", "Read"] }).pipe(
          Stream.runCollect,
          Effect.provide(ClaudeCode.layer())
        )
      yield* run("Look around")
      // both calls of the planning turn ran, and their results went back in one request
      const [afterPlanning] = (yield* ScriptedModel.turnRequests).slice(1)
      assert.strictEqual(afterPlanning!.latestToolResults.length, 2)
      const quoted = Array.from(yield* run("Quote the tool")).at(-1)
      assert.strictEqual(quoted?.type === "result" ? quoted.result : undefined, "done: ok")
    }).pipe(Effect.scoped, Effect.provide(ScriptedModel.layerNode([planning, longAnswer, echoTheTool]))))
})
