/**
 * A Stop hook that blocks the stop: the agent is about to finish, and the
 * hook sends it back with a reason, once. The model gets the reason and
 * takes another turn; the next Stop call has `stop_hook_active: true`, which
 * is how a hook avoids sending the agent back forever.
 *
 *   npx tsx src/examples/stop-block.ts          # offline, against the scripted model
 *   npx tsx src/examples/stop-block.ts --live   # the real API
 */
import { ClaudeCode, HookLayer, HookResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Example from "../Example.js"

const askForRisks = HookLayer.stop((input) =>
  Effect.succeed(
    input.stop_hook_active || /\brisk\b/i.test(input.last_assistant_message ?? "")
      ? HookResult.empty
      : HookResult.block("Before you stop: name the biggest risk of this plan, in one sentence.")
  )
)

export const program = ClaudeCode.query(
  "Give me a one-line plan for migrating a small service from REST to gRPC.",
  { maxTurns: 3 }
).pipe(
  Stream.runForEach(Example.print),
  Effect.provide(askForRisks)
)

/** What the scripted model answers offline: a plan, then — sent back by the hook — the risk. */
export const script = [
  ScriptedModel.text("Plan: define the protobufs, serve gRPC next to REST, move clients over, then retire REST."),
  ScriptedModel.text("Biggest risk: clients that cannot speak HTTP/2 would be cut off when REST is retired.")
]

Example.main(import.meta, program, script)
