/**
 * The scripted model of each scenario, served by the runner (not by the
 * worker, so that its CPU and memory never count against a SDK). Every job
 * gets a fresh server and a fresh `HOME`.
 *
 * Scripts are rules that look at the request, so that retries, side calls,
 * compaction requests and concurrent sessions all get a sensible answer.
 *
 * @since 0.1.0
 */
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer } from "node:http"
import * as Path from "node:path"
import { makeBlob, type Scenario, SLOW_COMMAND, STOP_PROMPTS, TOOL_COMMAND } from "./jobs.js"

// effect 4's clock turns a pacing delay of zero into a yield, not a 1 ms timer: v3's zero-delay clock is gone.
const bash = (command: string) => ScriptedModel.toolUse("Bash", { command, description: "benchmark command" })

/** `count` text deltas of four characters, sent back to back. */
const deltas = (count: number) =>
  ScriptedModel.slow(ScriptedModel.text("tick".repeat(count)), { delay: 0, chunkSize: 4 })

/**
 * The script of a scenario. `cwd` is the job's working directory.
 *
 * @since 0.1.0
 * @category Scripts
 */
export const scriptFor = (
  scenario: Scenario | "record",
  params: Readonly<Record<string, number>>,
  cwd: string
): ReadonlyArray<ScriptedModel.Step> => {
  switch (scenario) {
    case "cold":
    case "claim":
    case "large-input":
      return [ScriptedModel.rule(() => ScriptedModel.text("Hello from the scripted model."))]
    case "hooks":
      return [
        ScriptedModel.rule((request) =>
          request.toolResults.length < params.toolCalls ? bash(TOOL_COMMAND) : ScriptedModel.text("All done.")
        )
      ]
    case "partial":
      return [ScriptedModel.rule(() => deltas(params.deltas))]
    case "record":
      return [
        ScriptedModel.rule((request) =>
          request.toolResults.length < params.toolCalls ? bash(TOOL_COMMAND) : deltas(params.deltas)
        )
      ]
    case "replay":
    case "replay-stages":
    case "pingpong":
    case "probe":
      return []
    case "large-tool":
      // After a Write this large the CLI compacts on its next request: every later request gets text.
      return [
        ScriptedModel.toolUse("Write", { file_path: Path.join(cwd, "big.txt"), content: makeBlob(params.bytes) }),
        ScriptedModel.rule(() => ScriptedModel.text("Written."))
      ]
    case "concurrency":
      return [
        ScriptedModel.rule((request) =>
          request.latestToolResults.length > 0 ? ScriptedModel.text("Turn done.") : bash(TOOL_COMMAND)
        )
      ]
    case "stop-session":
    case "stop-break":
    case "stop-abort":
      return [
        ScriptedModel.rule((request) => {
          const last = request.lastUserText
          if (last.includes(STOP_PROMPTS.close) || last.includes(STOP_PROMPTS.stream)) {
            return ScriptedModel.slow(ScriptedModel.text("la ".repeat(3000)), { delay: "5 millis", chunkSize: 3 })
          }
          if (last.includes(STOP_PROMPTS.tool) && request.latestToolResults.length === 0) return bash(SLOW_COMMAND)
          return ScriptedModel.text("ok")
        })
      ]
  }
}

/**
 * Serves `script` on a fresh scripted model for the duration of `use`.
 *
 * @since 0.1.0
 * @category Serving
 */
export const withModel = <A>(
  script: ReadonlyArray<ScriptedModel.Step>,
  use: (model: ScriptedModel.Service) => Promise<A>
): Promise<A> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const model = yield* ScriptedModel.make(script)
        return yield* Effect.promise(() => use(model))
      })
    ).pipe(
      Effect.provide(Layer.merge(
        NodeHttpServer.layerServer(createServer, { host: "127.0.0.1", port: 0 }),
        NodeServices.layer
      )),
      Effect.orDie
    )
  )
