/**
 * A PostToolUse hook that adds context: after a tool ran, the hook tells the
 * model something it could not know. The model gets the text right after
 * the tool's result ("PostToolUse:Bash hook additional context: ...").
 *
 *   npx tsx src/examples/post-tool-use-context.ts          # offline, against the scripted model
 *   npx tsx src/examples/post-tool-use-context.ts --live   # the real API
 */
import { ClaudeCode, HookLayer, HookResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Example from "../Example.js"

const knownFlakes = HookLayer.postToolUse({ matcher: "Bash" }, (input) => {
  const output = JSON.stringify(input.tool_response)
  return Effect.succeed(
    output.includes("FAIL network")
      ? HookResult.additionalContext(
        "Known issue: the `network` test fails on machines without IPv6. It is not a regression; do not try to fix it."
      )
      : HookResult.empty
  )
})

export const program = ClaudeCode.query(
  "Run this test report and tell me whether the build is healthy: " +
    "printf 'PASS core\\nFAIL network (timeout after 5s)\\nPASS cli\\n'",
  { allowedTools: ["Bash"], maxTurns: 3 }
).pipe(
  Stream.runForEach(Example.print),
  Effect.provide(knownFlakes)
)

/** What the scripted model does offline: its answer depends on whether the hook's context reached it. */
export const script = [
  ScriptedModel.toolUse("Bash", {
    command: "printf 'PASS core\\nFAIL network (timeout after 5s)\\nPASS cli\\n'",
    description: "Run the test report"
  }),
  ScriptedModel.rule((request) =>
    ScriptedModel.text(
      request.includes("Known issue: the `network` test")
        ? "The build is healthy: the only failure is the known IPv6 flake in `network`."
        : "The build is broken: `network` failed."
    )
  )
]

Example.main(import.meta, program, script)
