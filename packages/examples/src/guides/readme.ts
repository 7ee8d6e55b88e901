/**
 * The example of the root README.md, copied there by scripts/sync-guides.mjs;
 * `pnpm check` type-checks this file.
 */
// #region example
import { ClaudeCode, HookLayer, HookResult, NodeCliSpawner, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect, Layer, Stream } from "effect"

// A hook: refuse `rm -rf` before it runs. The model is told why.
const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
  Effect.succeed(
    String((input.tool_input as { command?: unknown }).command).includes("rm -rf")
      ? HookResult.deny("rm -rf is not allowed here")
      : HookResult.empty
  ))

// A gate: answer the CLI's permission questions in code.
const gate = PermissionGate.layer((request) =>
  Effect.succeed(
    request.tool_name === "Bash" || request.tool_name === "Read"
      ? PermissionResult.allow()
      : PermissionResult.deny(`${request.tool_name} is not allowed in this session`)
  )
)

ClaudeCode.query("Free some disk space in ./tmp").pipe(
  Stream.runForEach((message) => Console.log(message.type)),
  Effect.provide(Layer.mergeAll(guard, gate, ClaudeCode.layer())),
  // NodeCliSpawner: the CLI started with node:child_process directly (docs/getting-started.md).
  Effect.provide(Layer.merge(NodeCliSpawner.layer, NodeServices.layer)),
  NodeRuntime.runMain
)
// #endregion
