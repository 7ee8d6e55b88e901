/**
 * The program of packages/ai/README.md, copied there by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file and
 * test/guides/programs.test.ts runs it as a file.
 */
// #region minimal
import { ClaudeCodeLanguageModel } from "@claude-effect/ai"
import { ClaudeCode } from "@claude-effect/sdk"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { LanguageModel } from "effect/ai"

LanguageModel.generateText({ prompt: "What does this repository do?" }).pipe(
  Effect.flatMap((response) => Console.log(response.text)),
  Effect.provide(ClaudeCodeLanguageModel.layer({ allowedTools: ["Read", "Glob", "Grep"] })),
  Effect.provide(ClaudeCode.layer()),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
// #endregion
