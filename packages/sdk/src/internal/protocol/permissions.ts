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
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionMode = Schema.Literals([
  "default",
  "acceptEdits",
  "bypassPermissions",
  "plan",
  "dontAsk",
  "auto"
])

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionMode = typeof PermissionMode.Type

/**
 * Where a permission update is stored.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateDestination = Schema.Literals([
  "userSettings",
  "projectSettings",
  "localSettings",
  "session",
  "cliArg"
])

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateDestination = typeof PermissionUpdateDestination.Type

/**
 * The behavior a permission rule applies.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionBehavior = Schema.Literals(["allow", "deny", "ask"])

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionBehavior = typeof PermissionBehavior.Type

/**
 * A permission rule: a tool name and an optional content pattern, as in
 * `Bash(npm test:*)`.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionRuleValue = closedStruct({
  toolName: Schema.String,
  ruleContent: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Permissions
 */
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

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateAddRules = rulesUpdate("addRules")

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateAddRules = typeof PermissionUpdateAddRules.Type

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateReplaceRules = rulesUpdate("replaceRules")

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateReplaceRules = typeof PermissionUpdateReplaceRules.Type

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateRemoveRules = rulesUpdate("removeRules")

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateRemoveRules = typeof PermissionUpdateRemoveRules.Type

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateSetMode = closedStruct({
  type: Schema.Literal("setMode"),
  mode: PermissionMode,
  destination: PermissionUpdateDestination
})

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateSetMode = typeof PermissionUpdateSetMode.Type

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateAddDirectories = directoriesUpdate("addDirectories")

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateAddDirectories = typeof PermissionUpdateAddDirectories.Type

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateRemoveDirectories = directoriesUpdate("removeDirectories")

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateRemoveDirectories = typeof PermissionUpdateRemoveDirectories.Type

/**
 * A change to the permission rules, the mode or the working directories: sent
 * by the CLI as `permission_suggestions`, returned by the SDK as
 * `updatedPermissions`.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdate = Schema.Union([
  PermissionUpdateAddRules,
  PermissionUpdateReplaceRules,
  PermissionUpdateRemoveRules,
  PermissionUpdateSetMode,
  PermissionUpdateAddDirectories,
  PermissionUpdateRemoveDirectories
])

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdate = typeof PermissionUpdate.Type

/**
 * How the user classified a decision (for the CLI's telemetry and rules).
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionDecisionClassification = Schema.Literals(["user_temporary", "user_permanent", "user_reject"])

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionDecisionClassification = typeof PermissionDecisionClassification.Type

/**
 * Let the tool run, optionally with a rewritten input and new rules.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionAllow = closedStruct({
  behavior: Schema.Literal("allow"),
  updatedInput: optional(JsonObject),
  updatedPermissions: optional(Schema.Array(PermissionUpdate)),
  toolUseID: optional(Schema.String),
  decisionClassification: optional(PermissionDecisionClassification)
})

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionAllow = typeof PermissionAllow.Type

/**
 * Refuse the tool. `message` becomes the tool result the model sees (the CLI
 * treats a deny without a message as an invalid answer); `interrupt` also
 * stops the turn.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionDeny = closedStruct({
  behavior: Schema.Literal("deny"),
  message: Schema.String,
  interrupt: optional(Schema.Boolean),
  toolUseID: optional(Schema.String),
  decisionClassification: optional(PermissionDecisionClassification)
})

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionDeny = typeof PermissionDeny.Type

/**
 * The answer to a `can_use_tool` request.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionResult = Schema.Union([PermissionAllow, PermissionDeny])

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionResult = typeof PermissionResult.Type

/**
 * The MCP server a tool belongs to (`{ name: "calc", source: "sdk" }`).
 *
 * @since 0.1.0
 * @category Permissions
 */
export const McpServerProvenance = openStruct({
  name: Schema.String,
  source: Schema.String
})

/**
 * @since 0.1.0
 * @category Permissions
 */
export type McpServerProvenance = typeof McpServerProvenance.Type
