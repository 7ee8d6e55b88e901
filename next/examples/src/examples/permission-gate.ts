/**
 * The permission gate answers every tool call the CLI would otherwise ask a
 * human about. Here it allows read-only commands, rewrites `rm` into a dry
 * run (the command that runs is the rewritten one), and denies writes with a
 * message the model reads.
 *
 *   npx tsx src/examples/permission-gate.ts          # offline, against the scripted model
 *   npx tsx src/examples/permission-gate.ts --live   # the real API
 */
import { ClaudeCode, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Example from "../Example.js"

/** One shell word, quoted so that nothing in it runs. */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

const dryRun = PermissionGate.layer((request) =>
  Effect.succeed(
    request.tool_name === "Bash" && typeof request.input.command === "string"
      ? /^\s*rm\s/.test(request.input.command)
        ? PermissionResult.allow({
          updatedInput: { ...request.input, command: `echo ${quoted(`[dry run] ${request.input.command}`)}` }
        })
        : PermissionResult.allow()
      : request.tool_name === "Write" || request.tool_name === "Edit"
      ? PermissionResult.deny("This session is read-only: describe the change instead of making it.")
      : PermissionResult.allow()
  )
)

export const program = ClaudeCode.query(
  "Clean up: delete notes.txt, then write a short CLEANUP.md describing what you did.",
  { maxTurns: 5 }
).pipe(
  Stream.runForEach(Example.print),
  Effect.provide(dryRun)
)

/** What the scripted model does offline: an `rm` (rewritten), a Write (denied), then a summary. */
export const script = [
  ScriptedModel.toolUse("Bash", { command: "rm notes.txt", description: "Delete notes.txt" }),
  ScriptedModel.rule((request) => {
    const cwd = /Primary working directory: (\S+)/.exec(request.systemMessages.join("\n"))?.[1] ?? "/tmp"
    return ScriptedModel.toolUse("Write", { file_path: `${cwd}/CLEANUP.md`, content: "Deleted notes.txt.\n" })
  }, { times: 1 }),
  ScriptedModel.text("The gate ran my rm as a dry run and refused the Write: nothing on disk changed.")
]

Example.main(import.meta, program, script)
