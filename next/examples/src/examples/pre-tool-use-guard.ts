/**
 * A PreToolUse hook as a guard: it denies destructive shell commands before
 * they run. The tool does not run, and the model gets the reason as the
 * tool's error, so it can change course.
 *
 *   npx tsx src/examples/pre-tool-use-guard.ts          # offline, against the scripted model
 *   npx tsx src/examples/pre-tool-use-guard.ts --live   # the real API
 */
import { ClaudeCode, HookLayer, HookResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Example from "../Example.js"

const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) => {
  const command = String((input.tool_input as { readonly command?: unknown }).command ?? "")
  return Effect.succeed(
    /\brm\s+-\w*[rf]/.test(command)
      ? HookResult.deny("rm -r / rm -f are not allowed here: move files to ./trash instead")
      : HookResult.empty
  )
})

export const program = ClaudeCode.query(
  "Create tmp/ with a file in it, then get rid of tmp/.",
  { allowedTools: ["Bash"], maxTurns: 5 }
).pipe(
  Stream.runForEach(Example.print),
  Effect.provide(guard)
)

/** What the scripted model does offline: it tries `rm -rf`, hears why not, and follows the advice. */
export const script = [
  ScriptedModel.toolUse("Bash", { command: "mkdir -p tmp && touch tmp/scratch.txt", description: "Create tmp/" }),
  ScriptedModel.toolUse("Bash", { command: "rm -rf tmp", description: "Remove tmp/" }),
  ScriptedModel.rule(
    (request) =>
      request.latestToolResults.some((result) => result.isError && result.content.includes("./trash"))
        ? ScriptedModel.toolUse("Bash", {
          command: "mkdir -p trash && mv tmp trash/",
          description: "Move tmp/ to trash"
        })
        : undefined,
    { times: 1 }
  ),
  ScriptedModel.text("tmp/ is out of the way: the guard refused rm -rf, so I moved it to ./trash.")
]

Example.main(import.meta, program, script)
