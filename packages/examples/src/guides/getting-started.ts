/**
 * The programs of docs/getting-started.md (the rest is in
 * getting-started-options.ts). Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file, and
 * test/guides/programs.test.ts runs it as a file, as a reader would
 * (`npx tsx`): its three programs, against the scripted model.
 */
// #region first-query
import { ClaudeCode, Protocol } from "@claude-effect/sdk"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect, Schema, Stream } from "effect"

const isText = Schema.is(Protocol.TextBlock)

const program = ClaudeCode.query("What is the capital of France? One word.").pipe(
  Stream.runForEach((message) => {
    // Types this SDK does not know yet are kept, never dropped: set them aside first.
    if (Protocol.isUnknownMessage(message)) return Effect.void
    if (message.type === "assistant") {
      return Console.log(message.message.content.filter(isText).map((block) => block.text).join(""))
    }
    if (message.type === "result") {
      return Console.log(`${message.num_turns} turn(s), $${message.total_cost_usd.toFixed(4)}`)
    }
    return Effect.void
  })
)

program.pipe(
  Effect.provide(ClaudeCode.layer()),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
// #endregion

// #region node-spawner
import { CliSpawner } from "@claude-effect/sdk"
import { Layer } from "effect"

// The CLI started through effect's ChildProcessSpawner (from NodeServices.layer), not node:child_process.
const ThroughEffect = CliSpawner.layerChildProcess.pipe(Layer.provideMerge(NodeServices.layer))

program.pipe(
  Effect.provide(ClaudeCode.layer()),
  Effect.provide(ThroughEffect),
  NodeRuntime.runMain
)
// #endregion

// #region lean-start
import { NodeFileSystem, NodePath } from "@effect/platform-node"

// Only the platform services the SDK asks for (FileSystem, Path), provided one after the other.
const ClaudeOnNode = ClaudeCode.layer().pipe(
  Layer.provide(NodeFileSystem.layer),
  Layer.provide(NodePath.layer)
)

program.pipe(Effect.provide(ClaudeOnNode), NodeRuntime.runMain)
// #endregion
