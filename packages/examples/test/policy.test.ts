/**
 * The demo's policies, tested the way the testkit suggests: HookTest and
 * Arbitraries for the decisions (no CLI, thousands of inputs), and the real
 * CLI against the ScriptedModel for what the agent does with them.
 */
import { ClaudeCode, HookLayer, PermissionGate } from "@claude-effect/sdk"
import { Arbitraries, HookTest, ScriptedModel } from "@claude-effect/testkit"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { AuditLog } from "../src/demo/AuditLog.js"
import * as Policies from "../src/demo/Policies.js"
import * as Project from "../src/demo/Project.js"
import * as Example from "../src/Example.js"

const guard = HookLayer.preToolUse({ matcher: "Bash", name: "guard" }, Policies.guard)

/** The gate, over a project at HookTest's working directory, auditing into memory. */
const gateAt = (dir: string) =>
  PermissionGate.layer(Policies.gate).pipe(
    Layer.provide(Layer.succeed(Project.Project, {
      root: Path.dirname(dir),
      dir,
      sandbox: Path.join(dir, "sandbox"),
      contains: (file) => {
        if (/^[~$]/.test(file)) return false
        const relative = Path.relative(dir, Path.resolve(dir, file))
        return relative !== "" && !relative.startsWith("..") && !Path.isAbsolute(relative)
      }
    })),
    Layer.provide(Layer.succeed(AuditLog, { path: "memory", record: () => Effect.void, count: Effect.succeed(0) })),
    Layer.provide(NodePath.layer)
  )

describe("the guard", () => {
  it.effect("denies destructive commands, with the reason the model will read", () =>
    Effect.gen(function*() {
      for (const command of ["rm -rf build", "rm -fr /", "git push --force origin main", "git reset --hard HEAD~3"]) {
        const outcome = yield* HookTest.run(HookTest.preToolUse("Bash", { command }))
        assert.strictEqual(outcome.permissionDecision, "deny", command)
        assert.include(outcome.reason, "Blocked by the guard policy", command)
      }
    }).pipe(Effect.provide(guard)))

  it.effect("has no opinion on ordinary commands, and never sees other tools", () =>
    Effect.gen(function*() {
      for (const command of ["ls -la", "git status", "rm notes.txt"]) {
        const outcome = yield* HookTest.run(HookTest.preToolUse("Bash", { command }))
        assert.isUndefined(outcome.permissionDecision, command)
      }
      const write = yield* HookTest.run(HookTest.preToolUse("Write", { file_path: "/x", content: "rm -rf /" }))
      assert.strictEqual(write.runs.length, 0)
    }).pipe(Effect.provide(guard)))

  it.effect.prop(
    "denies every generated command that runs rm -rf",
    [Arbitraries.command({ kind: "any" })],
    ([command]) =>
      Effect.map(
        HookTest.run(HookTest.preToolUse("Bash", { command: `${command} && rm -rf ./out` })),
        (outcome) => outcome.permissionDecision === "deny"
      ).pipe(Effect.provide(guard)),
    { arbitrary: { runs: 100 } }
  )
})

describe("the gate", () => {
  it.effect.prop(
    "no Write escapes the project: outside paths land in sandbox/, inside paths are untouched",
    [Arbitraries.canUseTool("Write", Arbitraries.toolInput("Write"))],
    ([request]) =>
      Effect.gen(function*() {
        const { result } = yield* HookTest.decide(request)
        if (result.behavior === "deny") return true
        const finalPath = String((result.updatedInput ?? request.input).file_path)
        const dir = HookTest.defaultCwd
        const inside = !Path.relative(dir, Path.resolve(dir, finalPath)).startsWith("..") && !/^[~$]/.test(finalPath)
        return inside && (result.updatedInput === undefined || finalPath.startsWith(Path.join(dir, "sandbox") + "/"))
      }).pipe(Effect.provide(gateAt(HookTest.defaultCwd))),
    { arbitrary: { runs: 300 } }
  )

  it.effect("denies tools the task does not need", () =>
    Effect.gen(function*() {
      const { result } = yield* HookTest.decide({ tool_name: "WebFetch", input: { url: "https://example.com" } })
      assert.strictEqual(result.behavior, "deny")
    }).pipe(Effect.provide(gateAt(HookTest.defaultCwd))))
})

describe("the done-check, on the real CLI", () => {
  it.live("sends the agent back when the release notes are missing; the agent writes them", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const root = yield* fs.makeTempDirectoryScoped({ prefix: "claude-effect-policy-" })
      const project = yield* Project.make(root)
      const notes = Path.join(project.sandbox, Policies.releaseNotes)
      const script = [
        ScriptedModel.text("Done."),
        ScriptedModel.rule((request) =>
          request.includes("The release notes are missing")
            ? ScriptedModel.toolUse("Write", { file_path: notes, content: "# 1.2.0\n" })
            : undefined, { times: 1 }),
        ScriptedModel.text("Written: sandbox/RELEASE_NOTES.md.")
      ]
      yield* ClaudeCode.query("Write the release notes", { cwd: project.dir, permissionMode: "acceptEdits" }).pipe(
        Stream.runDrain,
        Effect.provide(HookLayer.stop(Policies.doneCheck)),
        Effect.provideService(Project.Project, project),
        Effect.provide(Example.layerScripted(script))
      )
      assert.isTrue(Fs.existsSync(notes))
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer)))
})
