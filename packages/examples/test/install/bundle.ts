/**
 * Installed-package fixture (see ../install.test.ts): bundled with esbuild
 * into one file, run from elsewhere. The SDK must still find the CLI that
 * came with it. It prints the located executable, then the scripted answer.
 */
import { ClaudeCode, CliLocator } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect, Layer } from "effect"

const claude = Layer.unwrap(Effect.map(ScriptedModel.cliEnv, (env) => ClaudeCode.layer({ env })))

Effect.gen(function*() {
  yield* Console.log(`executable: ${yield* CliLocator.locate()}`)
  const result = yield* ClaudeCode.result("Hello?")
  yield* Console.log(`answer: ${result.result}`)
}).pipe(
  Effect.provide(claude),
  Effect.provide(ScriptedModel.layerNode([ScriptedModel.text("Hello from a bundle.")])),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
