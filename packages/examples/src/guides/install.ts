/**
 * The minimal program of the README's "Install" section, copied there by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region minimal
import { ClaudeCode } from "@claude-effect/sdk"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"

ClaudeCode.result("What is the capital of France? One word.").pipe(
  Effect.flatMap((result) => Console.log(result.result)),
  Effect.provide(ClaudeCode.layer()),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain
)
// #endregion
