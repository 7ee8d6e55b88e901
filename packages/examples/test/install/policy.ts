/**
 * Installed-package fixture (see ../install.test.ts): the policy the program
 * and the vitest file share, written as a user of the published packages
 * would, importing `@claude-effect/sdk` by name.
 */
import { HookLayer, HookResult, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import { Effect } from "effect"

/** A PreToolUse hook: no shell command may touch `denied.txt`. */
export const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
  Effect.succeed(
    String((input.tool_input as { command?: unknown }).command).includes("denied.txt")
      ? HookResult.deny("denied.txt is off limits")
      : HookResult.empty
  ))

/** The questions the gate was asked, by tool name. */
export const asked: Array<string> = []

/** A permission gate: Bash and Read are allowed, everything else is refused. */
export const gate = PermissionGate.layer((request) =>
  Effect.sync(() => {
    asked.push(request.tool_name)
    return request.tool_name === "Bash" || request.tool_name === "Read"
      ? PermissionResult.allow()
      : PermissionResult.deny(`${request.tool_name} is not allowed here`)
  })
)
