/**
 * The minimal program of the README's "Install" section, copied there by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region minimal
import { ClaudeCode } from "@claude-effect/sdk"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect } from "effect"

ClaudeCode.result("What is the capital of France? One word.").pipe(
  Effect.flatMap((result) => Console.log(result.result)),
  Effect.provide(ClaudeCode.layer()),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
// #endregion
