/**
 * Fidelity: the scripted model is good enough for the official
 * `@anthropic-ai/claude-agent-sdk` and for the bare CLI alike. The same
 * tool-use scenario runs through both drivers and is checked the same way.
 */
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk"
import * as CliLocator from "@claude-effect/sdk/CliLocator"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import { ScriptedModel } from "../src/index.js"
import { runPrompt } from "./utils/cli.js"

interface DriverRun {
  readonly result: any
  /** The tools the driver was asked to approve, if it asks. */
  readonly approvals: ReadonlyArray<string>
}

interface Driver {
  readonly name: string
  readonly entrypoint: string
  readonly run: (prompt: string, cwd: string) => Effect.Effect<DriverRun, unknown, any>
}

const officialSdk: Driver = {
  name: "the official Agent SDK",
  entrypoint: "cc_entrypoint=sdk-ts",
  run: (prompt, cwd) =>
    Effect.gen(function*() {
      const executable = yield* CliLocator.locate()
      const cliEnv = yield* ScriptedModel.cliEnv
      const approvals: Array<string> = []
      const messages = yield* Effect.tryPromise(async (signal) => {
        const abortController = new AbortController()
        signal.addEventListener("abort", () => abortController.abort())
        const collected: Array<SDKMessage> = []
        for await (
          const message of query({
            prompt,
            options: {
              pathToClaudeCodeExecutable: executable,
              env: { ...process.env, ...cliEnv },
              cwd,
              abortController,
              // Running as root: bypassPermissions is refused, so approve through the callback.
              canUseTool: async (toolName, input) => {
                approvals.push(toolName)
                return { behavior: "allow", updatedInput: input }
              }
            }
          })
        ) collected.push(message)
        return collected
      })
      return { result: messages.filter((message) => message.type === "result").at(-1), approvals }
    }).pipe(Effect.timeout("30 seconds"))
}

const bareCli: Driver = {
  name: "the bare CLI",
  entrypoint: "cc_entrypoint=sdk-cli",
  run: (prompt, cwd) =>
    Effect.map(runPrompt(prompt, { cwd, args: ["--allowedTools", "Bash"] }), (run) => {
      assert.strictEqual(run.exitCode, 0, run.stderr)
      return { result: run.result, approvals: [] }
    })
}

layer(NodeServices.layer, { excludeTestServices: true })("Fidelity", (it) => {
  for (const driver of [officialSdk, bareCli]) {
    it.effect(`${driver.name} completes a tool-use scenario`, () =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const path = yield* Path.Path
        const cwd = yield* fs.makeTempDirectoryScoped({ prefix: "fidelity-" })

        const run = yield* driver.run("Leave a marker file, then report.", cwd)
        assert.strictEqual(run.result.subtype, "success")
        assert.isFalse(run.result.is_error)
        assert.strictEqual(run.result.result, "marker written")
        assert.strictEqual(yield* fs.readFileString(path.join(cwd, "marker.txt")), "fidelity\n")
        if (driver === officialSdk) assert.deepStrictEqual(run.approvals, ["Bash"])

        const requests = yield* ScriptedModel.turnRequests
        assert.strictEqual(requests.length, 2)
        assert.isTrue(requests.every((request) => request.system.includes(driver.entrypoint)))
        assert.isTrue(requests[0]!.includes("Leave a marker file, then report."))
        const [result] = requests[1]!.latestToolResults
        assert.strictEqual(result?.toolUseId, "toolu_marker")
        assert.isFalse(result?.isError)
        assert.isFalse((yield* ScriptedModel.requests).some((request) => request.exhausted))
      }).pipe(
        Effect.scoped,
        Effect.provide(ScriptedModel.layerNode([
          ScriptedModel.turn(
            ScriptedModel.text("Writing the marker."),
            ScriptedModel.toolUse("Bash", { command: "echo fidelity > marker.txt", description: "marker" }, {
              id: "toolu_marker"
            })
          ),
          ScriptedModel.text("marker written")
        ]))
      ))
  }
})
