/**
 * docs/hooks.md, run: each hook the guide shows, on the real CLI against the
 * scripted model, doing what the guide says it does — seen on disk, in the
 * logs, and in what the model was sent.
 */
import { ClaudeCode, HookLayer, HookResult, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Example from "../../src/Example.js"
import * as hooks from "../../src/guides/hooks.js"

const bash = (command: string) => ScriptedModel.toolUse("Bash", { command, description: "run" })

/** `git` and `npm` stand-ins, first on the CLI's PATH: each appends its command line to calls.txt in its cwd. */
const bin = Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-hooks-bin-"))
for (const name of ["git", "npm"]) {
  Fs.writeFileSync(Path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> calls.txt\n`, { mode: 0o755 })
}
afterAll(() => Fs.rmSync(bin, { recursive: true, force: true }))

/** The stand-ins' command lines that start with `prefix` (the CLI runs git itself too: `git -c ... ls-files`). */
const calls = (cwd: string, prefix: string) =>
  Fs.existsSync(Path.join(cwd, "calls.txt"))
    ? Fs.readFileSync(Path.join(cwd, "calls.txt"), "utf8").trim().split("\n").filter((line) => line.startsWith(prefix))
    : []

/** The layer of one test: the scripted model, a workspace, and the stand-ins on PATH. */
const scripted = (script: ReadonlyArray<ScriptedModel.Step>, options: { readonly allowedTools?: Array<string> } = {}) =>
  Example.layerScripted(script, { ...options, env: { PATH: `${bin}:${process.env.PATH}` } })

describe("docs/hooks.md, on the real CLI", () => {
  it.live("compose: the guard refuses rm -rf (build/ stays), the audit logs the command that ran", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      Fs.mkdirSync(Path.join(cwd, "build"))
      Fs.writeFileSync(Path.join(cwd, "build", "out.js"), "built")
      const logged: Array<string> = []
      yield* hooks.run.pipe(
        Effect.provide(
          Logger.layer([Logger.make(({ message }) => void logged.push(String(message)))])
        )
      )
      assert.isTrue(Fs.existsSync(Path.join(cwd, "build", "out.js")))
      const [denied, listed] = yield* ScriptedModel.toolResults
      assert.isTrue(denied!.isError)
      assert.include(denied!.content, "rm -rf is not allowed in this repository")
      assert.include(listed!.content, "build")
      assert.isTrue(logged.some((line) => line.startsWith("Bash ") && line.includes("\"ls\"")), logged.join("\n"))
    }).pipe(Effect.provide(scripted([bash("rm -rf build"), bash("ls"), ScriptedModel.text("Kept build/.")], {
      allowedTools: ["Bash"]
    }))))

  it.live("rewrite: git push runs with --dry-run appended, without asking the gate", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      yield* ClaudeCode.query("Push it").pipe(Stream.runDrain, Effect.provide(hooks.dryRunGit))
      assert.deepStrictEqual(calls(cwd, "git push"), ["git push origin main --dry-run"])
    }).pipe(Effect.provide(scripted([bash("git push origin main"), ScriptedModel.text("Pushed (dry run).")]))))

  it.live("context: after a known flake, the model is told to ignore it", () =>
    Effect.gen(function*() {
      yield* ClaudeCode.query("Run the tests").pipe(Stream.runDrain, Effect.provide(hooks.flakyTests))
      const last = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(last.includes("The network test is a known flake on this machine; ignore it."))
    }).pipe(Effect.provide(scripted([bash("echo 'FAIL network'"), ScriptedModel.text("Only the flake failed.")], {
      allowedTools: ["Bash"]
    }))))

  it.live("prompt: a prompt with an API key never reaches the model", () =>
    Effect.gen(function*() {
      yield* ClaudeCode.query("Deploy with sk-ant-api03-abcdefgh1234").pipe(
        Stream.runDrain,
        Effect.provide(hooks.noSecrets)
      )
      assert.deepStrictEqual(yield* ScriptedModel.turnRequests, [])
    }).pipe(Effect.provide(scripted([ScriptedModel.text("never")]))))

  it.live("stop: the agent is sent back once, told to run the tests, and then stops", () =>
    Effect.gen(function*() {
      const result = yield* ClaudeCode.result("Fix the bug").pipe(Effect.provide(hooks.reviewFirst))
      assert.strictEqual(result.result, "Tests: 12 passed.")
      const requests = yield* ScriptedModel.turnRequests
      assert.strictEqual(requests.length, 2)
      assert.isTrue(requests[1]!.includes("Before you stop, run the tests and report the result."))
    }).pipe(Effect.provide(scripted([ScriptedModel.text("Fixed."), ScriptedModel.text("Tests: 12 passed.")]))))

  it.live("options: a new file is asked about (the gate decides), an edit is not", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      yield* ScriptedModel.push(
        ScriptedModel.toolUse("Write", { file_path: Path.join(cwd, "notes.md"), content: "# Notes\n" }),
        ScriptedModel.text("Written.")
      )
      const asked: Array<string> = []
      const gate = PermissionGate.layer((request) =>
        Effect.sync(() => {
          asked.push(request.tool_name)
          return PermissionResult.allow()
        })
      )
      yield* ClaudeCode.query("Write notes.md").pipe(
        Stream.runDrain,
        Effect.provide(Layer.merge(hooks.slowPolicy, gate))
      )
      assert.deepStrictEqual(asked, ["Write"])
      assert.strictEqual(Fs.readFileSync(Path.join(cwd, "notes.md"), "utf8"), "# Notes\n")
    }).pipe(Effect.provide(scripted([]))))

  it.live("output: the notice reaches the stream as the CLI's own message", () =>
    Effect.gen(function*() {
      const messages = yield* ClaudeCode.query("Say hi").pipe(Stream.runCollect, Effect.provide(hooks.notice))
      assert.isTrue(
        Array.from(messages).some((message) => JSON.stringify(message).includes("shell commands are logged"))
      )
    }).pipe(Effect.provide(scripted([bash("echo hi"), ScriptedModel.text("Said hi.")], { allowedTools: ["Bash"] }))))

  it.live("remember: npm test is allowed once, and the session rule lets the second run ask nobody", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      let requests = 0
      const counter = HookLayer.permissionRequest({ matcher: "Bash" }, () =>
        Effect.sync(() => {
          requests++
          return HookResult.empty
        }))
      yield* ClaudeCode.query("Test twice").pipe(
        Stream.runDrain,
        Effect.provide(Layer.merge(hooks.allowTests, counter))
      )
      assert.deepStrictEqual(calls(cwd, "npm"), ["npm test", "npm test -- --watch=false"])
      assert.strictEqual(requests, 1)
    }).pipe(Effect.provide(scripted([
      bash("npm test"),
      bash("npm test -- --watch=false"),
      ScriptedModel.text("Both runs passed.")
    ]))))

  it.live("compact: the compaction request carries the PreCompact hook's instructions", () =>
    Effect.gen(function*() {
      yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        yield* session.turn("Look at src/").pipe(Stream.runDrain)
        yield* session.turn("/compact").pipe(Stream.runDrain)
      })).pipe(Effect.provide(hooks.keepPaths))
      const compaction = (yield* ScriptedModel.requests).find(ScriptedModel.isCompactionRequest)
      assert.isDefined(compaction)
      assert.isTrue(compaction!.includes("Keep every file path and every failing test name."))
    }).pipe(
      Effect.provide(scripted([ScriptedModel.compactionSummary("looked at src/"), ScriptedModel.text("Looked.")]))
    ))
})
