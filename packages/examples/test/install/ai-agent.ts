/**
 * Installed-package fixture (see ../install.test.ts): a provider-agnostic
 * `effect/ai` program, run with `@claude-effect/ai` on the real CLI against
 * the testkit's scripted model. The agent calls the app's tool (served over
 * MCP) and tries a command a hook denies. Usage: `node ai-agent.js <working
 * dir>`. It prints one JSON line: the text, the tool calls and results, the
 * denied call.
 */
import { ClaudeCodeLanguageModel } from "@claude-effect/ai"
import { ClaudeCode, HookLayer, HookResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect, Layer, Schema } from "effect"
import { LanguageModel, Tool, Toolkit } from "effect/ai"

const cwd = process.argv[2] ?? process.cwd()

const Double = Tool.make("Double", {
  description: "Doubles a number",
  parameters: Schema.Struct({ n: Schema.Number }),
  success: Schema.Number
})
const Maths = Toolkit.make(Double)
const MathsLive = Maths.toLayer({ Double: ({ n }) => Effect.succeed(n * 2) })

// The toolkit's tools are deferred behind ToolSearch: the script calls the tool by its MCP name, as the model
// does once ToolSearch has loaded it (docs/effect-ai.md).
const model = ScriptedModel.layerNode([
  ScriptedModel.turn(
    ScriptedModel.toolUse("mcp__app__Double", { n: 21 }),
    ScriptedModel.toolUse("Bash", { command: `touch ${cwd}/denied.txt`, description: "touch" })
  ),
  ScriptedModel.text("21 doubled is 42.")
])

const claude = Layer.unwrap(Effect.map(ScriptedModel.cliEnv, (env) => ClaudeCode.layer({ cwd, env })))
const guard = HookLayer.preToolUse({ matcher: "Bash" }, () => Effect.succeed(HookResult.deny("no shell here")))

LanguageModel.generateText({ prompt: "Double 21.", toolkit: Maths }).pipe(
  Effect.flatMap((response) => {
    const meta = ClaudeCodeLanguageModel.getProviderMetadata(response)
    return Console.log(JSON.stringify({
      text: response.text,
      calls: response.toolCalls.map((call) => [call.name, call.params]),
      results: response.toolResults.map((result) => [result.name, result.result]),
      denied: (meta?.toolCalls ?? []).filter((call) => call.isError === true).map((call) => call.name)
    }))
  }),
  Effect.provide(MathsLive),
  Effect.provide(guard),
  Effect.provide(ClaudeCodeLanguageModel.layer()),
  Effect.provide(claude),
  Effect.provide(model),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
