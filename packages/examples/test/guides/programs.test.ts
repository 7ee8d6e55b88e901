/**
 * The programs the README and the guides show with `NodeRuntime.runMain`, run
 * as a reader runs them (`npx tsx <file>`), each in a process of its own
 * whose environment points the CLI at a scripted model of this test: what
 * they print, what the model was sent, and what they did on disk.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

const examples = Path.resolve(import.meta.dirname, "..", "..")
const tsx = Path.join(examples, "node_modules", ".bin", "tsx")

interface Output {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a guide file with tsx in `cwd`, the scripted model's environment over this process's; killed with the fiber. */
const runFile = (file: string, cwd: string = examples) =>
  Effect.flatMap(ScriptedModel.cliEnv, (cliEnv) =>
    Effect.callback<Output>((resume) => {
      const child = ChildProcess.spawn(tsx, [Path.join(examples, file)], {
        cwd,
        env: { ...process.env, ...cliEnv, NO_COLOR: "1" }
      })
      let stdout = ""
      let stderr = ""
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => void (stdout += chunk))
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => void (stderr += chunk))
      child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
      return Effect.sync(() => child.kill("SIGKILL"))
    })).pipe(
      Effect.timeoutOrElse({ duration: "90 seconds", orElse: () => Effect.fail(new Error(`${file} did not finish`)) }),
      Effect.orDie,
      Effect.tap((output) => Effect.sync(() => assert.strictEqual(output.code, 0, output.stderr)))
    )

/** A fresh directory, removed with the scope. */
const tempDir = Effect.acquireRelease(
  Effect.sync(() => Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-guide-")))),
  (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
)

/** Runs a test body with a scripted model, in a scope (its temporary directories). */
const scripted =
  (script: ReadonlyArray<ScriptedModel.Step>) =>
  <A, E>(self: Effect.Effect<A, E, ScriptedModel.ScriptedModel | Scope.Scope>) =>
    self.pipe(Effect.provide(ScriptedModel.layerNode(script)), Effect.provide(NodeServices.layer), Effect.scoped)

describe("README and guides, their programs run as files against the scripted model", () => {
  it.live("README, Install: the minimal program prints the model's answer", () =>
    Effect.gen(function*() {
      const output = yield* runFile("src/guides/install.ts", yield* tempDir)
      assert.strictEqual(output.stdout.trim(), "Paris")
      assert.include((yield* ScriptedModel.lastTurnRequest).lastUserText, "What is the capital of France? One word.")
    }).pipe(scripted([ScriptedModel.text("Paris")])), 120_000)

  it.live(
    "README, In code: the guard stops rm -rf, the gate refuses Write and lets Bash run",
    () =>
      Effect.gen(function*() {
        const cwd = yield* tempDir
        Fs.mkdirSync(Path.join(cwd, "tmp"))
        Fs.writeFileSync(Path.join(cwd, "tmp", "cache.bin"), "x".repeat(1000))
        yield* ScriptedModel.push(
          ScriptedModel.toolUse("Bash", { command: "rm -rf tmp", description: "Delete tmp" }),
          ScriptedModel.toolUse("Write", { file_path: Path.join(cwd, "freed.txt"), content: "freed" }),
          ScriptedModel.toolUse("Bash", { command: "ls tmp > listed.txt", description: "List tmp" }),
          ScriptedModel.text("I could not free anything.")
        )
        const output = yield* runFile("src/guides/readme.ts", cwd)
        // the effects on disk: nothing deleted, nothing written, the allowed command ran
        assert.isTrue(Fs.existsSync(Path.join(cwd, "tmp", "cache.bin")))
        assert.isFalse(Fs.existsSync(Path.join(cwd, "freed.txt")))
        assert.isTrue(Fs.existsSync(Path.join(cwd, "listed.txt")))
        // what the model was told
        const results = yield* ScriptedModel.toolResults
        assert.include(results[0]!.content, "rm -rf is not allowed here")
        assert.include(results[1]!.content, "Write is not allowed in this session")
        assert.isFalse(results[2]!.isError)
        // what the program printed: each message's type, the result last
        const types = output.stdout.trim().split("\n")
        assert.includeMembers(types, ["system", "assistant", "user"])
        assert.strictEqual(types.at(-1), "result")
      }).pipe(scripted([])),
    120_000
  )

  it.live("packages/ai README: the LanguageModel program prints the agent's text", () =>
    Effect.gen(function*() {
      const output = yield* runFile("src/guides/ai-readme.ts", yield* tempDir)
      assert.strictEqual(output.stdout.trim(), "It drives the Claude Code CLI from Effect.")
      assert.include((yield* ScriptedModel.lastTurnRequest).lastUserText, "What does this repository do?")
    }).pipe(scripted([ScriptedModel.text("It drives the Claude Code CLI from Effect.")])), 120_000)

  it.live(
    "Getting started: the first query, through effect's ChildProcessSpawner, and on the lean layers, each print the answer",
    () =>
      Effect.gen(function*() {
        const output = yield* runFile("src/guides/getting-started.ts", yield* tempDir)
        const lines = output.stdout.trim().split("\n")
        assert.strictEqual(lines.filter((line) => line === "Paris").length, 3, output.stdout)
        assert.strictEqual(lines.filter((line) => /^1 turn\(s\), \$\d+\.\d{4}$/.test(line)).length, 3, output.stdout)
        const prompts = (yield* ScriptedModel.turnRequests).map((request) => request.lastUserText)
        assert.strictEqual(prompts.filter((text) => text.includes("What is the capital of France?")).length, 3)
      }).pipe(scripted([ScriptedModel.rule(() => ScriptedModel.text("Paris"))])),
    120_000
  )
})
