/**
 * A one-shot query: one prompt, one CLI process, a stream of messages that
 * ends with the turn's `result`. The process is gone when the stream ends.
 *
 *   npx tsx src/examples/query.ts          # offline, against the scripted model
 *   npx tsx src/examples/query.ts --live   # the real API
 */
import { ClaudeCode, Protocol } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Example from "../Example.js"

const isText = Schema.is(Protocol.TextBlock)

export const program = ClaudeCode.query("In one sentence: what is Effect-TS?", { maxTurns: 1 }).pipe(
  Stream.runForEach((message) => {
    // Message types this SDK does not know yet are kept, never dropped: set them aside first.
    if (Protocol.isUnknownMessage(message)) return Effect.void
    if (Protocol.isSystemMessage(message, "init")) {
      return Console.log(`session ${message.session_id} on ${message.model}`)
    }
    if (message.type === "assistant") {
      const text = message.message.content.filter(isText).map((block) => block.text)
      return text.length > 0 ? Console.log(`claude: ${text.join("")}`) : Effect.void
    }
    if (message.type === "result") {
      // API failures arrive as `subtype: "success"` with `is_error: true`: branch on is_error.
      return Console.log(
        `${message.is_error ? "failed" : "done"} in ${message.num_turns} turn(s), ` +
          `${message.duration_ms} ms, $${message.total_cost_usd.toFixed(4)}`
      )
    }
    return Effect.void
  })
)

/** What the scripted model answers offline. */
export const script = [
  ScriptedModel.text("Effect is a TypeScript library for typed, composable, interruptible programs.")
]

Example.main(import.meta, program, script)
