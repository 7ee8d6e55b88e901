/**
 * Permission modes, permission updates and the answers to `can_use_tool`.
 *
 * These are written by the SDK (permission results, `updatedPermissions`) and
 * also read back (`permission_suggestions`), so they are closed structs that
 * keep unknown keys.
 */
import * as Schema from "effect/Schema"
import { closedStruct, JsonObject, openStruct, optional } from "./json.js"

/**
 * The permission modes the CLI accepts (`set_permission_mode` answers "must be
 * one of acceptEdits, auto, bypassPermissions, default, dontAsk, plan").
 */
export const PermissionMode = Schema.Literal("default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto")

export type PermissionMode = typeof PermissionMode.Type

/**
 * Where a permission update is stored.
 */
export const PermissionUpdateDestination = Schema.Literal(
  "userSettings",
  "projectSettings",
  "localSettings",
  "session",
  "cliArg"
)

export type PermissionUpdateDestination = typeof PermissionUpdateDestination.Type

/**
 * The behavior a permission rule applies.
 */
export const PermissionBehavior = Schema.Literal("allow", "deny", "ask")

export type PermissionBehavior = typeof PermissionBehavior.Type

/**
 * A permission rule: a tool name and an optional content pattern, as in
 * `Bash(npm test:*)`.
 */
export const PermissionRuleValue = closedStruct({
  toolName: Schema.String,
  ruleContent: optional(Schema.String)
})

export type PermissionRuleValue = typeof PermissionRuleValue.Type

const rulesUpdate = <Type extends string>(type: Type) =>
  closedStruct({
    type: Schema.Literal(type),
    rules: Schema.Array(PermissionRuleValue),
    behavior: PermissionBehavior,
    destination: PermissionUpdateDestination
  })

const directoriesUpdate = <Type extends string>(type: Type) =>
  closedStruct({
    type: Schema.Literal(type),
    directories: Schema.Array(Schema.String),
    destination: PermissionUpdateDestination
  })

export const PermissionUpdateAddRules = rulesUpdate("addRules")

export type PermissionUpdateAddRules = typeof PermissionUpdateAddRules.Type

export const PermissionUpdateReplaceRules = rulesUpdate("replaceRules")

export type PermissionUpdateReplaceRules = typeof PermissionUpdateReplaceRules.Type

export const PermissionUpdateRemoveRules = rulesUpdate("removeRules")

export type PermissionUpdateRemoveRules = typeof PermissionUpdateRemoveRules.Type

export const PermissionUpdateSetMode = closedStruct({
  type: Schema.Literal("setMode"),
  mode: PermissionMode,
  destination: PermissionUpdateDestination
})

export type PermissionUpdateSetMode = typeof PermissionUpdateSetMode.Type

export const PermissionUpdateAddDirectories = directoriesUpdate("addDirectories")

export type PermissionUpdateAddDirectories = typeof PermissionUpdateAddDirectories.Type

export const PermissionUpdateRemoveDirectories = directoriesUpdate("removeDirectories")

export type PermissionUpdateRemoveDirectories = typeof PermissionUpdateRemoveDirectories.Type

/**
 * A change to the permission rules, the mode or the working directories: sent
 * by the CLI as `permission_suggestions`, returned by the SDK as
 * `updatedPermissions`.
 */
export const PermissionUpdate = Schema.Union(
  PermissionUpdateAddRules,
  PermissionUpdateReplaceRules,
  PermissionUpdateRemoveRules,
  PermissionUpdateSetMode,
  PermissionUpdateAddDirectories,
  PermissionUpdateRemoveDirectories
)

export type PermissionUpdate = typeof PermissionUpdate.Type

/**
 * How the user classified a decision (for the CLI's telemetry and rules).
 */
export const PermissionDecisionClassification = Schema.Literal("user_temporary", "user_permanent", "user_reject")

export type PermissionDecisionClassification = typeof PermissionDecisionClassification.Type

/**
 * Let the tool run, optionally with a rewritten input and new rules.
 */
export const PermissionAllow = closedStruct({
  behavior: Schema.Literal("allow"),
  updatedInput: optional(JsonObject),
  updatedPermissions: optional(Schema.Array(PermissionUpdate)),
  toolUseID: optional(Schema.String),
  decisionClassification: optional(PermissionDecisionClassification)
})

export type PermissionAllow = typeof PermissionAllow.Type

/**
 * Refuse the tool. `message` becomes the tool result the model sees (the CLI
 * treats a deny without a message as an invalid answer); `interrupt` also
 * stops the turn.
 */
export const PermissionDeny = closedStruct({
  behavior: Schema.Literal("deny"),
  message: Schema.String,
  interrupt: optional(Schema.Boolean),
  toolUseID: optional(Schema.String),
  decisionClassification: optional(PermissionDecisionClassification)
})

export type PermissionDeny = typeof PermissionDeny.Type

/**
 * The answer to a `can_use_tool` request.
 */
export const PermissionResult = Schema.Union(PermissionAllow, PermissionDeny)

export type PermissionResult = typeof PermissionResult.Type

/**
 * The MCP server a tool belongs to (`{ name: "calc", source: "sdk" }`).
 */
export const McpServerProvenance = openStruct({
  name: Schema.String,
  source: Schema.String
})

export type McpServerProvenance = typeof McpServerProvenance.Type
