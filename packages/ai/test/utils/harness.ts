/**
 * The end-to-end harness: the workspace's (the real CLI against the testkit's
 * ScriptedModel, in a fresh working directory, `ClaudeCode` pointed at both)
 * with `ClaudeCodeLanguageModel` over it.
 */
import * as Harness from "@claude-effect/test-support/Harness"
import type { ScriptedModel } from "@claude-effect/testkit"
import * as Layer from "effect/Layer"
import { ClaudeCodeLanguageModel } from "../../src/index.js"

export { bash, isAlive, Workspace } from "@claude-effect/test-support/Harness"

/** `LanguageModel` (and `ClaudeCode`) for one test: a ScriptedModel serving `script`, a temp working directory. */
export const harness = (
  script: ReadonlyArray<ScriptedModel.Step>,
  config: ClaudeCodeLanguageModel.Config = {}
) => ClaudeCodeLanguageModel.layer(config).pipe(Layer.provideMerge(Harness.harness(script)))
