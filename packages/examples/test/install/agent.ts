/**
 * Installed-package fixture (see ../install.test.ts): a program written from
 * docs/getting-started.md, run offline against the testkit's scripted model
 * on the real CLI. The model tries to write `denied.txt` (the hook refuses)
 * and `allowed.txt` (the gate allows). Usage: `node agent.js <working dir>`.
 * It prints one JSON line: the result text and the gate's questions.
 */
import { ClaudeCode, CliSpawner } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect, Layer } from "effect"
import { asked, gate, guard } from "./policy.js"

const cwd = process.argv[2] ?? process.cwd()

const model = ScriptedModel.layerNode([
  ScriptedModel.toolUse("Bash", { command: `echo secret > ${cwd}/denied.txt`, description: "write denied.txt" }),
  ScriptedModel.toolUse("Bash", { command: `echo fine > ${cwd}/allowed.txt`, description: "write allowed.txt" }),
  ScriptedModel.text("Wrote allowed.txt; denied.txt was refused.")
])

// The CLI talks to the scripted model: its environment comes from the model.
const claude = Layer.unwrap(Effect.map(ScriptedModel.cliEnv, (env) => ClaudeCode.layer({ cwd, env })))

ClaudeCode.result("Write the two files.").pipe(
  Effect.flatMap((result) => Console.log(JSON.stringify({ result: result.result, asked }))),
  Effect.provide(Layer.mergeAll(guard, gate, claude)),
  Effect.provide(model),
  // The CLI started through effect's ChildProcessSpawner, as getting-started.md shows (ai-agent.ts and bundle.ts
  // start it with the default, NodeCliSpawner).
  Effect.provide(CliSpawner.layerChildProcess.pipe(Layer.provideMerge(NodeServices.layer))),
  NodeRuntime.runMain
)
