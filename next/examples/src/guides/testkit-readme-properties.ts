/**
 * The Arbitraries example of packages/testkit/README.md, copied there by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file. Not a test:
 * the README shows these two properties failing for the naive guard of its
 * HookTest section (packages/testkit/test/GuardPolicy.test.ts runs them
 * against a complete guard).
 */
import { HookLayer, HookResult } from "@claude-effect/sdk"
import { it } from "@effect/vitest"
import { Effect } from "effect"

const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
  Effect.succeed(
    String((input.tool_input as { command?: unknown }).command).includes("rm -rf")
      ? HookResult.deny("no rm -rf")
      : HookResult.empty
  ))

// #region properties
import { Arbitraries, HookTest } from "@claude-effect/testkit"

const calls = (kind: Arbitraries.CommandKind) => Arbitraries.preToolUse("Bash", Arbitraries.bash({ kind }))

it.effect.prop(
  "denies every deletion outside the working directory",
  [calls("deletesOutside")],
  ([input]) =>
    Effect.map(HookTest.run(input), (outcome) => outcome.permissionDecision === "deny").pipe(Effect.provide(guard))
)

it.effect.prop(
  "never denies a harmless command",
  [calls("harmless")],
  ([input]) =>
    Effect.map(HookTest.run(input), (outcome) => outcome.permissionDecision !== "deny").pipe(Effect.provide(guard))
)
// #endregion
