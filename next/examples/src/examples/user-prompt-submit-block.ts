/**
 * A UserPromptSubmit hook that blocks a prompt before it reaches the model:
 * here, a prompt that contains what looks like an API key. The blocked turn
 * still ends with a `result` (no model call, `num_turns: 0`), and the
 * session goes on with the next prompt.
 *
 *   npx tsx src/examples/user-prompt-submit-block.ts          # offline, against the scripted model
 *   npx tsx src/examples/user-prompt-submit-block.ts --live   # the real API
 */
import { ClaudeCode, HookLayer, HookResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Example from "../Example.js"

const noSecrets = HookLayer.userPromptSubmit((input) =>
  Effect.succeed(
    /\bsk-ant-[\w-]{8,}|\bAKIA[0-9A-Z]{16}\b/.test(input.prompt)
      ? HookResult.block("the prompt contains what looks like an API key, so it was not sent. Remove it and retry.")
      : HookResult.empty
  )
)

export const program = Effect.scoped(
  Effect.gen(function*() {
    const session = yield* ClaudeCode.session({ maxTurns: 1 })
    yield* session.turn("Why is my key sk-ant-api03-AbCdEfGh12345678 rejected?").pipe(Stream.runForEach(Example.print))
    yield* session.turn("Why would an Anthropic API key be rejected? One sentence.").pipe(
      Stream.runForEach(Example.print)
    )
  }).pipe(Effect.provide(noSecrets))
)

/** What the scripted model answers offline: only the second prompt reaches it. */
export const script = [
  ScriptedModel.text("Usually because it was revoked, mistyped, or belongs to another organization.")
]

Example.main(import.meta, program, script)
