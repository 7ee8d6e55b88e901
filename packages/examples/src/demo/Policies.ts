/**
 * The demo's policies, as plain SDK handlers: a guard against destructive
 * shell commands, a permission gate that keeps writes inside the project, an
 * audit trail, and a definition of done. `Program.ts` turns them into layers
 * (and wraps them to show their decisions); the tests run them as they are.
 */
import type { HookLayer, PermissionGate } from "@claude-effect/sdk"
import { HookResult, PermissionResult } from "@claude-effect/sdk"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import { AuditLog } from "./AuditLog.js"
import { Project } from "./Project.js"

// -----------------------------------------------------------------------------
// guard (PreToolUse on Bash)
// -----------------------------------------------------------------------------

const destructive: ReadonlyArray<readonly [RegExp, string]> = [
  [/\brm\s+(-\w*r\w*f|-\w*f\w*r)\b/, "rm -rf deletes files for good"],
  [/\brm\s+(-\S+\s+)*(-\w*[rR]\w*|--recursive)\b/, "a recursive rm deletes whole trees for good"],
  [/\bfind\b.*\s-delete\b/, "find -delete deletes files for good"],
  [/\bgit\s+push\b.*\s(--force\b|-f\b)/, "a force-push rewrites shared history"],
  [/\bgit\s+(reset\s+--hard|clean\s+-\w*f)/, "it throws away uncommitted work"],
  [/\b(mkfs(\.\w+)?|dd\s+if=)/, "it writes to a raw device"],
  [/\bchmod\s+-R\s+777\b/, "it makes every file world-writable"],
  [/:\(\)\s*\{\s*:\|:&\s*\};:/, "a fork bomb"]
]

/** Why a shell command is destructive, or undefined when it is not. */
export const destructiveReason = (command: string): string | undefined =>
  destructive.find(([pattern]) => pattern.test(command))?.[1]

/** Denies destructive shell commands; has no opinion on the others. */
export const guard: HookLayer.HookHandler<"PreToolUse", never, never> = (input) => {
  const command = (input.tool_input as { readonly command?: unknown }).command
  const why = typeof command === "string" ? destructiveReason(command) : undefined
  return Effect.succeed(
    why === undefined ? HookResult.empty : HookResult.deny(`Blocked by the guard policy: ${why}. Do not retry it.`)
  )
}

// -----------------------------------------------------------------------------
// gate (can_use_tool)
// -----------------------------------------------------------------------------

const fileTools = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"])
const readOnlyTools = new Set(["Read", "Glob", "Grep", "LS", "TodoWrite"])

/**
 * Allows reads, shell commands (the guard has already vetted them) and the
 * inventory tools; moves a write aimed outside the project into the
 * project's `sandbox/` folder; denies everything else. Every decision is
 * audited.
 */
export const gate: PermissionGate.Handler<never, Project | AuditLog | Path.Path> = (request, context) =>
  Effect.gen(function*() {
    const project = yield* Project
    const path = yield* Path.Path
    const audit = yield* AuditLog
    const filePath = request.input.file_path
    const name = typeof filePath === "string" ? path.basename(filePath) : ""
    const result = fileTools.has(request.tool_name) && typeof filePath === "string"
      ? project.contains(filePath)
        ? PermissionResult.allow()
        : name === "" || name === "." || name === ".."
        ? PermissionResult.deny(`${filePath} is not a file path.`)
        : PermissionResult.allow({ updatedInput: { ...request.input, file_path: path.join(project.sandbox, name) } })
      : readOnlyTools.has(request.tool_name) || request.tool_name === "Bash" ||
          request.tool_name.startsWith("mcp__inventory__")
      ? PermissionResult.allow()
      : PermissionResult.deny(`${request.tool_name} is not needed for this task.`)
    yield* audit.record({
      event: "can_use_tool",
      tool: request.tool_name,
      toolUseId: context.toolUseId,
      decision: result.behavior === "allow" && result.updatedInput !== undefined ? "rewrite" : result.behavior,
      detail: result
    }).pipe(Effect.orDie)
    return result
  })

// -----------------------------------------------------------------------------
// audit (PreToolUse and PostToolUse on every tool)
// -----------------------------------------------------------------------------

/** Records every tool call before it runs. Should the log fail, the call is denied: no audit, no tool. */
export const auditBefore: HookLayer.HookHandler<"PreToolUse", unknown, AuditLog> = (input) =>
  Effect.flatMap(
    Effect.service(AuditLog),
    (log) =>
      log.record({ event: "PreToolUse", tool: input.tool_name, toolUseId: input.tool_use_id, detail: input.tool_input })
  )

/** Records what every tool call returned. */
export const auditAfter: HookLayer.HookHandler<"PostToolUse", unknown, AuditLog> = (input) =>
  Effect.flatMap(Effect.service(AuditLog), (log) =>
    log.record({
      event: "PostToolUse",
      tool: input.tool_name,
      toolUseId: input.tool_use_id,
      detail: { durationMs: input.duration_ms, response: input.tool_response }
    }))

// -----------------------------------------------------------------------------
// done-check (Stop)
// -----------------------------------------------------------------------------

export const releaseNotes = "RELEASE_NOTES.md"

/**
 * The definition of done: the release notes are in the sandbox, and the last
 * message tells the user where. Blocks the stop (the agent goes on) at most
 * once in a row.
 */
export const doneCheck: HookLayer.HookHandler<"Stop", unknown, Project | FileSystem.FileSystem | Path.Path> = (
  input
) =>
  Effect.gen(function*() {
    if (input.stop_hook_active) return HookResult.empty
    const project = yield* Project
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const where = path.join(path.basename(project.sandbox), releaseNotes)
    if (!(yield* fs.exists(path.join(project.sandbox, releaseNotes)))) {
      return HookResult.block(`The release notes are missing: write ${releaseNotes} before you finish.`)
    }
    if (!(input.last_assistant_message ?? "").includes(where)) {
      return HookResult.block(`Before you finish, tell the user that the release notes are in ${where}.`)
    }
    return HookResult.empty
  })
