/**
 * docs/permissions.md, run: each gate the guide shows, on the real CLI
 * against the scripted model — what ran, what was written where, what the
 * model was told.
 */
import { ClaudeCode, Telemetry } from "@claude-effect/sdk"
import { HookTest, ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Example from "../../src/Example.js"
import * as guide from "../../src/guides/permissions.js"

const bashAllowed = Metric.withAttributes(Telemetry.permissionDecisions, { tool: "Bash", decision: "allow" })

describe("docs/permissions.md, on the real CLI", () => {
  it.live("basic: a read-only session reads, and its Write is refused with the gate's reason", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      Fs.writeFileSync(Path.join(cwd, "a.ts"), "export const a = 1\n")
      yield* ScriptedModel.push(
        ScriptedModel.toolUse("Read", { file_path: Path.join(cwd, "a.ts") }),
        ScriptedModel.toolUse("Write", { file_path: Path.join(cwd, "risky.md"), content: "# Risky\n" }),
        ScriptedModel.text("Reviewed.")
      )
      yield* guide.review
      const [read, write] = yield* ScriptedModel.toolResults
      assert.include(read!.content, "export const a = 1")
      assert.isTrue(write!.isError)
      assert.include(write!.content, "Write is not allowed: this session is read-only.")
      assert.isFalse(Fs.existsSync(Path.join(cwd, "risky.md")))
    }).pipe(Effect.provide(Example.layerScripted([]))))

  it.live("sandbox: a write aimed outside the project lands in its sandbox/ folder", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      const outside = Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-outside-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(outside, { recursive: true, force: true })))
      yield* ScriptedModel.push(
        ScriptedModel.toolUse("Write", { file_path: Path.join(outside, "hosts"), content: "127.0.0.1 x\n" }),
        ScriptedModel.toolUse("Write", { file_path: Path.join(cwd, "inside.txt"), content: "in\n" }),
        ScriptedModel.text("Written.")
      )
      const gate = guide.sandbox.pipe(Layer.provide(Layer.succeed(guide.Project, { dir: cwd })))
      yield* ClaudeCode.query("Write the hosts file").pipe(Stream.runDrain, Effect.provide(gate))
      assert.isFalse(Fs.existsSync(Path.join(outside, "hosts")))
      assert.strictEqual(Fs.readFileSync(Path.join(cwd, "sandbox", "hosts"), "utf8"), "127.0.0.1 x\n")
      assert.strictEqual(Fs.readFileSync(Path.join(cwd, "inside.txt"), "utf8"), "in\n")
    }).pipe(Effect.scoped, Effect.provide(Example.layerScripted([]))))

  it.effect("sandbox: SandboxGate, the gate over /path/to/project, moves /etc/hosts into its sandbox/", () =>
    Effect.gen(function*() {
      const { result } = yield* HookTest.decide({
        tool_name: "Write",
        input: { file_path: "/etc/hosts", content: "x" }
      })
      assert.deepStrictEqual(result, {
        behavior: "allow",
        updatedInput: { file_path: "/path/to/project/sandbox/hosts", content: "x" }
      })
    }).pipe(Effect.provide(guide.SandboxGate)))

  it.live("remember: the first touch is allowed with a session rule; the second asks nobody", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      const before = (yield* Metric.value(bashAllowed)).count
      yield* ClaudeCode.query("Touch two files").pipe(Stream.runDrain, Effect.provide(guide.rememberTouch))
      assert.isTrue(Fs.existsSync(Path.join(cwd, "one")) && Fs.existsSync(Path.join(cwd, "two")))
      assert.strictEqual((yield* Metric.value(bashAllowed)).count - before, 1)
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.toolUse("Bash", { command: "touch one", description: "touch" }),
      ScriptedModel.toolUse("Bash", { command: "touch two", description: "touch" }),
      ScriptedModel.text("Touched.")
    ]))))

  it.live("interrupt: a WebFetch is denied and the turn stops there", () =>
    Effect.gen(function*() {
      const result = yield* ClaudeCode.query("Fetch the page").pipe(
        Stream.runCollect,
        Effect.map((messages) => Array.from(messages).at(-1)),
        Effect.provide(guide.stopOnNetwork)
      )
      assert.strictEqual(result?.type === "result" ? result.subtype : undefined, "error_during_execution")
      // the model was not asked again after the denial
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1)
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.toolUse("WebFetch", { url: "https://example.com", prompt: "summarize" }),
      ScriptedModel.text("never")
    ]))))

  it.live("timeout: the human said no, and the model reads why", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      Fs.mkdirSync(Path.join(cwd, "logs"))
      const questions: Array<string> = []
      const approvals = Layer.succeed(guide.Approvals, {
        ask: (tool) => Effect.sync(() => (questions.push(tool), false))
      })
      yield* ClaudeCode.query("Delete the logs").pipe(
        Stream.runDrain,
        Effect.provide(guide.humanInTheLoop.pipe(Layer.provide(approvals)))
      )
      assert.deepStrictEqual(questions, ["Bash"])
      assert.include((yield* ScriptedModel.toolResults)[0]!.content, "a human said no")
      assert.isTrue(Fs.existsSync(Path.join(cwd, "logs")))
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.toolUse("Bash", { command: "rm -r logs", description: "delete" }),
      ScriptedModel.text("Left the logs.")
    ]))))
})
