/**
 * The code of docs/hooks.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import { ClaudeCode, HookLayer, HookResult } from "@claude-effect/sdk"
import { Context, Effect, Layer, Stream } from "effect"
// #endregion

// #region deny
// PreToolUse on Bash: refuse destructive commands before they run.
const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) => {
  const command = String((input.tool_input as { readonly command?: unknown }).command ?? "")
  return Effect.succeed(
    command.includes("rm -rf")
      ? HookResult.deny("rm -rf is not allowed in this repository")
      : HookResult.empty // no opinion: the CLI goes on as if there were no hook
  )
})
// #endregion

// #region services
// A handler may use the application's services; they show in the layer's type.
class AuditLog extends Context.Service<AuditLog, {
  readonly record: (line: string) => Effect.Effect<void>
}>()("app/AuditLog") {}

const audit: Layer.Layer<never, never, AuditLog> = HookLayer.postToolUse(
  { name: "audit" },
  (input) => Effect.flatMap(AuditLog, (log) => log.record(`${input.tool_name} ${JSON.stringify(input.tool_input)}`))
)

const AuditLogConsole = Layer.succeed(AuditLog, {
  record: (line) => Effect.log(line)
})
// #endregion

// #region compose
// Any number of hook layers compose; every session started under them registers them all.
const policies = Layer.mergeAll(guard, audit).pipe(Layer.provide(AuditLogConsole))

const run = ClaudeCode.query("Clean the build folder").pipe(
  Stream.runDrain,
  Effect.provide(policies)
)
// #endregion

// #region rewrite
// Rewrite the input and allow it: the rewritten command runs, without asking the permission gate.
const dryRunGit = HookLayer.preToolUse({ matcher: "Bash" }, (input) => {
  const command = String((input.tool_input as { readonly command?: unknown }).command ?? "")
  return Effect.succeed(
    command.startsWith("git push")
      ? HookResult.allow({
        reason: "pushes are dry runs here",
        updatedInput: { ...(input.tool_input as object), command: `${command} --dry-run` }
      })
      : HookResult.empty
  )
})
// #endregion

// #region context
// PostToolUse: tell the model something after the tool ran.
const flakyTests = HookLayer.postToolUse({ matcher: "Bash" }, (input) =>
  Effect.succeed(
    JSON.stringify(input.tool_response).includes("FAIL network")
      ? HookResult.additionalContext("The network test is a known flake on this machine; ignore it.")
      : HookResult.empty
  ))
// #endregion

// #region prompt
// UserPromptSubmit: refuse a prompt before any model call.
const noSecrets = HookLayer.userPromptSubmit((input) =>
  Effect.succeed(
    /sk-ant-[\w-]{8,}/.test(input.prompt)
      ? HookResult.block("the prompt contains an API key")
      : HookResult.empty
  )
)
// #endregion

// #region stop
// Stop: send the agent back once; `stop_hook_active` is true on the next Stop.
const reviewFirst = HookLayer.stop((input) =>
  Effect.succeed(
    input.stop_hook_active
      ? HookResult.empty
      : HookResult.block("Before you stop, run the tests and report the result.")
  )
)
// #endregion

// #region options
const slowPolicy = HookLayer.preToolUse(
  {
    matcher: "Write|Edit", // "" or "*" for all; names (A|B) match exactly; anything else is a regex
    timeout: "5 seconds", // after this, the fallback answers (deny for PreToolUse)
    name: "policy-service" // for logs
  },
  (input) => Effect.succeed(input.tool_name === "Write" ? HookResult.ask("new files need a look") : HookResult.empty)
)
// #endregion

// #region output
// Any output the CLI accepts, as it is: here a notice shown as a `system/informational` message.
const notice = HookLayer.preToolUse(
  { matcher: "Bash" },
  () => Effect.succeed(HookResult.output({ systemMessage: "shell commands are logged" }))
)
// #endregion

// #region remember
// PermissionRequest: allow `npm test` now, and add a session rule so the next call asks nobody.
const allowTests = HookLayer.permissionRequest({ matcher: "Bash" }, (input) =>
  Effect.succeed(
    String((input.tool_input as { readonly command?: unknown }).command ?? "").startsWith("npm test")
      ? HookResult.output({
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: {
            behavior: "allow",
            updatedPermissions: [{
              type: "addRules",
              rules: [{ toolName: "Bash", ruleContent: "npm test:*" }],
              behavior: "allow",
              destination: "session"
            }]
          }
        }
      })
      : HookResult.empty // the permission gate decides
  ))
// #endregion

// #region compact
// PreCompact: a systemMessage is added to the compaction instructions (after the text of `/compact ...`).
const keepPaths = HookLayer.preCompact(() =>
  Effect.succeed(HookResult.output({ systemMessage: "Keep every file path and every failing test name." }))
)
// #endregion

export { allowTests, dryRunGit, flakyTests, keepPaths, noSecrets, notice, reviewFirst, run, slowPolicy }
