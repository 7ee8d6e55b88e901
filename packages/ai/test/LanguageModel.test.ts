import { ClaudeCodeLanguageModel } from "@claude-effect/ai"
import { HookLayer, HookResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as LanguageModel from "@effect/ai/LanguageModel"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { bash, harness, Workspace } from "./utils/harness.js"

const claudeCodeMetadata = (metadata: Record<string, unknown> | undefined): any =>
  metadata?.[ClaudeCodeLanguageModel.metadataKey]

describe("ClaudeCodeLanguageModel.generateText", () => {
  it.live("runs the agent under the hooks in scope: a denied command leaves no file, and the response says so", () =>
    Effect.gen(function*() {
      const response = yield* LanguageModel.generateText({ prompt: "Create denied.txt" })
      const workspace = yield* Workspace
      assert.isFalse(workspace.exists("denied.txt"))
      assert.strictEqual(response.text, "The hook did not let me create it.")
      assert.strictEqual(response.finishReason, "stop")
      const finish = response.content.find((part) => part.type === "finish")!
      const metadata = claudeCodeMetadata(finish.metadata)
      assert.strictEqual(metadata.toolCalls.length, 1)
      assert.strictEqual(metadata.toolCalls[0].name, "Bash")
      assert.isTrue(metadata.toolCalls[0].isError)
      assert.include(metadata.toolCalls[0].result, "NO-BASH-HERE")
      assert.isAbove(response.usage.inputTokens ?? 0, 0)
      assert.isNumber(metadata.costUsd)
      console.log(JSON.stringify(response.content, null, 1))
    }).pipe(
      Effect.provide(HookLayer.preToolUse({ matcher: "Bash" }, () => Effect.succeed(HookResult.deny("NO-BASH-HERE")))),
      Effect.provide(harness([bash("touch denied.txt"), ScriptedModel.text("The hook did not let me create it.")]))
    ))
})
