/**
 * The code of docs/testing.md — and a test suite: vitest runs this file.
 * Each `#region` is copied into the guide by scripts/sync-guides.mjs.
 */
// #region imports
import { ClaudeCode, HookLayer, HookResult, PermissionGate, PermissionResult, SessionStore } from "@claude-effect/sdk"
import { SqlSessionStore } from "@claude-effect/sql"
import { Arbitraries, HookTest, PostgresServer, ScriptedModel } from "@claude-effect/testkit"
import { NodeServices } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { assert, describe, it } from "@effect/vitest"
import { Effect, FileSystem, Layer, Option, Redacted, Stream } from "effect"
import * as Path from "node:path"
// #endregion

// #region policy
// The policies under test: a guard hook and a sandboxing gate.
const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) => {
  const command = String((input.tool_input as { readonly command?: unknown }).command ?? "")
  return Effect.succeed(command.includes("rm -rf") ? HookResult.deny("rm -rf is not allowed") : HookResult.empty)
})

const isInside = (dir: string, target: string) => {
  if (/^[~$]/.test(target)) return false // the shell's home, not a folder named "~"
  const relative = Path.relative(dir, Path.resolve(dir, target))
  return relative !== "" && !relative.startsWith("..") && !Path.isAbsolute(relative)
}

const sandboxFor = (dir: string) =>
  PermissionGate.layer((request) => {
    const target = request.input.file_path
    if (request.tool_name !== "Write" || typeof target !== "string" || isInside(dir, target)) {
      return Effect.succeed(PermissionResult.allow())
    }
    const name = Path.basename(target)
    return Effect.succeed(
      name === "." || name === ".." // found by the property test below: "/project/.." has no file name
        ? PermissionResult.deny(`${target} is not a file`)
        : PermissionResult.allow({ updatedInput: { ...request.input, file_path: Path.join(dir, "sandbox", name) } })
    )
  })
// #endregion

// #region layer
// The real CLI against a scripted model, in a fresh working directory.
const scripted = (script: ReadonlyArray<ScriptedModel.Step>) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const cwd = yield* fs.makeTempDirectoryScoped()
      const env = yield* ScriptedModel.cliEnv // ANTHROPIC_BASE_URL, a dummy key, an isolated HOME, ...
      return ClaudeCode.layer({ cwd, env })
    })
  ).pipe(
    Layer.provideMerge(ScriptedModel.layerNode(script)),
    Layer.provideMerge(NodeServices.layer)
  )
// #endregion

describe("testing guide", () => {
  // #region end-to-end
  it.live("the guard stops rm -rf, and the model is told why", () =>
    Effect.gen(function*() {
      const messages = yield* ClaudeCode.query("Clean up the build output").pipe(
        Stream.runCollect,
        Effect.provide(guard)
      )
      // What the CLI sent back to the model:
      const [denied] = yield* ScriptedModel.toolResults
      assert.isTrue(denied.isError)
      assert.include(denied.content, "rm -rf is not allowed")
      // The model's next request carried it; its answer ended the run.
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 2)
      assert.isDefined(Array.from(messages).find((message) => message.type === "result"))
    }).pipe(
      Effect.provide(scripted([
        ScriptedModel.toolUse("Bash", { command: "rm -rf build", description: "Delete build output" }),
        ScriptedModel.text("The guard refused; I left build/ alone.")
      ]))
    ))
  // #endregion

  // #region rule
  it.live("a rule answers from what the CLI sent", () =>
    Effect.gen(function*() {
      yield* ClaudeCode.query("Check the disk", { allowedTools: ["Bash"] }).pipe(Stream.runDrain)
      const last = yield* ScriptedModel.lastTurnRequest
      assert.include(last.lastUserText, "disk-ok")
    }).pipe(
      Effect.provide(scripted([
        ScriptedModel.toolUse("Bash", { command: "echo disk-ok", description: "Check the disk" }),
        ScriptedModel.rule((request) =>
          ScriptedModel.text(request.latestToolResults[0]?.content.includes("disk-ok") ? "All good." : "Trouble.")
        )
      ]))
    ))
  // #endregion

  // #region hooktest
  it.effect("HookTest: the guard's answers, without a CLI", () =>
    Effect.gen(function*() {
      const denied = yield* HookTest.run(HookTest.preToolUse("Bash", { command: "rm -rf /" }))
      assert.strictEqual(denied.permissionDecision, "deny")
      assert.strictEqual(denied.reason, "rm -rf is not allowed")
      const fine = yield* HookTest.run(HookTest.preToolUse("Bash", { command: "ls -la" }))
      assert.isUndefined(fine.permissionDecision)
      // The matcher is applied as the CLI applies it: the guard does not see Write calls.
      const other = yield* HookTest.run(HookTest.preToolUse("Write", { file_path: "/tmp/x", content: "rm -rf" }))
      assert.strictEqual(other.runs.length, 0)
    }).pipe(Effect.provide(guard)))
  // #endregion

  // #region decide
  it.effect("HookTest.decide: the gate moves a write out of /etc into the sandbox", () =>
    Effect.gen(function*() {
      const decision = yield* HookTest.decide({
        tool_name: "Write",
        input: { file_path: "/etc/hosts", content: "127.0.0.1 example.com" }
      })
      assert.deepStrictEqual(decision.result, {
        behavior: "allow",
        updatedInput: { file_path: "/home/user/project/sandbox/hosts", content: "127.0.0.1 example.com" }
      })
    }).pipe(Effect.provide(sandboxFor("/home/user/project"))))
  // #endregion

  // #region postgres
  // A throwaway PostgreSQL: this machine's binaries, a fresh data directory, a free port on 127.0.0.1,
  // stopped and removed when the scope closes (and killed with the test process, should that die first).
  const postgres = Layer.unwrap(
    Effect.map(PostgresServer.PostgresServer, (server) => PgClient.layer({ url: Redacted.make(server.url) }))
  ).pipe(Layer.provideMerge(PostgresServer.layer()))

  it.live("the session's transcript is mirrored to PostgreSQL", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const cwd = yield* fs.makeTempDirectoryScoped()
      const result = yield* ClaudeCode.result("Remember: the code word is plum", { cwd })
      const store = yield* SessionStore.SessionStore
      const entries = yield* store.load({ projectKey: SessionStore.projectKey(cwd), sessionId: result.session_id })
      assert.isTrue(Option.isSome(entries) && JSON.stringify(entries.value).includes("the code word is plum"))
    }).pipe(
      Effect.scoped,
      Effect.provide(SqlSessionStore.layer()),
      Effect.provide(postgres),
      Effect.provide(scripted([ScriptedModel.text("Noted: plum.")]))
    ), 60_000)
  // #endregion

  // #region property
  // Every Write the model could make ends up inside the project: 300 generated paths, inside and out.
  it.effect.prop(
    "no Write escapes the project",
    [Arbitraries.canUseTool("Write", Arbitraries.toolInput("Write"))],
    ([request]) =>
      Effect.gen(function*() {
        const { result } = yield* HookTest.decide(request)
        const finalPath = result.behavior === "allow"
          ? (result.updatedInput ?? request.input).file_path
          : undefined
        return finalPath === undefined || isInside(HookTest.defaultCwd, String(finalPath))
      }).pipe(Effect.provide(sandboxFor(HookTest.defaultCwd))),
    { arbitrary: { runs: 300 } }
  )
  // #endregion
})
