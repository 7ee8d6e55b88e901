/**
 * The wire protocol of the Claude Code CLI as Schemas: every line the CLI
 * writes on stdout ({@link StdoutMessage}), every line the SDK writes on stdin
 * ({@link StdinMessage}), the control requests and responses in both
 * directions, hook inputs and outputs, and permission results.
 *
 * Decoding is lossless and tolerant: unknown fields are kept, and unknown
 * message types, system subtypes, control request subtypes and hook events
 * decode to fallback members that keep the raw JSON. A line that is not JSON
 * or breaks a known shape is a `ProtocolError`, never a throw.
 *
 * @since 0.1.0
 */
import * as codec from "./internal/protocol/codec.js"
import * as control from "./internal/protocol/control.js"
import * as hooks from "./internal/protocol/hooks.js"
import * as messages from "./internal/protocol/messages.js"
import * as permissions from "./internal/protocol/permissions.js"
import * as responses from "./internal/protocol/responses.js"

// -----------------------------------------------------------------------------
// permissions
// -----------------------------------------------------------------------------

/**
 * The permission modes the CLI accepts (`set_permission_mode` answers "must be
 * one of acceptEdits, auto, bypassPermissions, default, dontAsk, plan").
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionMode: typeof permissions.PermissionMode = permissions.PermissionMode

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionMode = permissions.PermissionMode

/**
 * Where a permission update is stored.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateDestination: typeof permissions.PermissionUpdateDestination =
  permissions.PermissionUpdateDestination

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateDestination = permissions.PermissionUpdateDestination

/**
 * The behavior a permission rule applies.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionBehavior: typeof permissions.PermissionBehavior = permissions.PermissionBehavior

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionBehavior = permissions.PermissionBehavior

/**
 * A permission rule: a tool name and an optional content pattern, as in
 * `Bash(npm test:*)`.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionRuleValue: typeof permissions.PermissionRuleValue = permissions.PermissionRuleValue

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionRuleValue = permissions.PermissionRuleValue

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateAddRules: typeof permissions.PermissionUpdateAddRules =
  permissions.PermissionUpdateAddRules

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateAddRules = permissions.PermissionUpdateAddRules

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateReplaceRules: typeof permissions.PermissionUpdateReplaceRules =
  permissions.PermissionUpdateReplaceRules

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateReplaceRules = permissions.PermissionUpdateReplaceRules

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateRemoveRules: typeof permissions.PermissionUpdateRemoveRules =
  permissions.PermissionUpdateRemoveRules

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateRemoveRules = permissions.PermissionUpdateRemoveRules

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateSetMode: typeof permissions.PermissionUpdateSetMode = permissions.PermissionUpdateSetMode

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateSetMode = permissions.PermissionUpdateSetMode

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateAddDirectories: typeof permissions.PermissionUpdateAddDirectories =
  permissions.PermissionUpdateAddDirectories

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateAddDirectories = permissions.PermissionUpdateAddDirectories

/**
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdateRemoveDirectories: typeof permissions.PermissionUpdateRemoveDirectories =
  permissions.PermissionUpdateRemoveDirectories

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdateRemoveDirectories = permissions.PermissionUpdateRemoveDirectories

/**
 * A change to the permission rules, the mode or the working directories: sent
 * by the CLI as `permission_suggestions`, returned by the SDK as
 * `updatedPermissions`.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionUpdate: typeof permissions.PermissionUpdate = permissions.PermissionUpdate

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionUpdate = permissions.PermissionUpdate

/**
 * How the user classified a decision (for the CLI's telemetry and rules).
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionDecisionClassification: typeof permissions.PermissionDecisionClassification =
  permissions.PermissionDecisionClassification

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionDecisionClassification = permissions.PermissionDecisionClassification

/**
 * Let the tool run, optionally with a rewritten input and new rules.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionAllow: typeof permissions.PermissionAllow = permissions.PermissionAllow

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionAllow = permissions.PermissionAllow

/**
 * Refuse the tool. `message` becomes the tool result the model sees (the CLI
 * treats a deny without a message as an invalid answer); `interrupt` also
 * stops the turn.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionDeny: typeof permissions.PermissionDeny = permissions.PermissionDeny

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionDeny = permissions.PermissionDeny

/**
 * The answer to a `can_use_tool` request.
 *
 * @since 0.1.0
 * @category Permissions
 */
export const PermissionResult: typeof permissions.PermissionResult = permissions.PermissionResult

/**
 * @since 0.1.0
 * @category Permissions
 */
export type PermissionResult = permissions.PermissionResult

/**
 * The MCP server a tool belongs to (`{ name: "calc", source: "sdk" }`).
 *
 * @since 0.1.0
 * @category Permissions
 */
export const McpServerProvenance: typeof permissions.McpServerProvenance = permissions.McpServerProvenance

/**
 * @since 0.1.0
 * @category Permissions
 */
export type McpServerProvenance = permissions.McpServerProvenance

// -----------------------------------------------------------------------------
// hooks
// -----------------------------------------------------------------------------

/**
 * The name of a hook event.
 *
 * @since 0.1.0
 * @category Hooks
 */
export const HookEvent: typeof hooks.HookEvent = hooks.HookEvent

/**
 * @since 0.1.0
 * @category Hooks
 */
export type HookEvent = hooks.HookEvent

/**
 * The reasoning effort of the current turn, as hooks see it.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const HookEffort: typeof hooks.HookEffort = hooks.HookEffort

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type HookEffort = hooks.HookEffort

/**
 * A background task listed in `Stop` / `SubagentStop` inputs.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const BackgroundTaskSummary: typeof hooks.BackgroundTaskSummary = hooks.BackgroundTaskSummary

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type BackgroundTaskSummary = hooks.BackgroundTaskSummary

/**
 * A session cron listed in `Stop` / `SubagentStop` inputs.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const SessionCronSummary: typeof hooks.SessionCronSummary = hooks.SessionCronSummary

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SessionCronSummary = hooks.SessionCronSummary

/**
 * One call of a `PostToolBatch` input.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostToolBatchToolCall: typeof hooks.PostToolBatchToolCall = hooks.PostToolBatchToolCall

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostToolBatchToolCall = hooks.PostToolBatchToolCall

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PreToolUseHookInput: typeof hooks.PreToolUseHookInput = hooks.PreToolUseHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PreToolUseHookInput = hooks.PreToolUseHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostToolUseHookInput: typeof hooks.PostToolUseHookInput = hooks.PostToolUseHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostToolUseHookInput = hooks.PostToolUseHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostToolUseFailureHookInput: typeof hooks.PostToolUseFailureHookInput = hooks.PostToolUseFailureHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostToolUseFailureHookInput = hooks.PostToolUseFailureHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostToolBatchHookInput: typeof hooks.PostToolBatchHookInput = hooks.PostToolBatchHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostToolBatchHookInput = hooks.PostToolBatchHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const NotificationHookInput: typeof hooks.NotificationHookInput = hooks.NotificationHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type NotificationHookInput = hooks.NotificationHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const UserPromptSubmitHookInput: typeof hooks.UserPromptSubmitHookInput = hooks.UserPromptSubmitHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type UserPromptSubmitHookInput = hooks.UserPromptSubmitHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const UserPromptExpansionHookInput: typeof hooks.UserPromptExpansionHookInput =
  hooks.UserPromptExpansionHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type UserPromptExpansionHookInput = hooks.UserPromptExpansionHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const SessionStartHookInput: typeof hooks.SessionStartHookInput = hooks.SessionStartHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SessionStartHookInput = hooks.SessionStartHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const SessionEndHookInput: typeof hooks.SessionEndHookInput = hooks.SessionEndHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SessionEndHookInput = hooks.SessionEndHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const StopHookInput: typeof hooks.StopHookInput = hooks.StopHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type StopHookInput = hooks.StopHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const StopFailureHookInput: typeof hooks.StopFailureHookInput = hooks.StopFailureHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type StopFailureHookInput = hooks.StopFailureHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const SubagentStartHookInput: typeof hooks.SubagentStartHookInput = hooks.SubagentStartHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SubagentStartHookInput = hooks.SubagentStartHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const SubagentStopHookInput: typeof hooks.SubagentStopHookInput = hooks.SubagentStopHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SubagentStopHookInput = hooks.SubagentStopHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PreCompactHookInput: typeof hooks.PreCompactHookInput = hooks.PreCompactHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PreCompactHookInput = hooks.PreCompactHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostCompactHookInput: typeof hooks.PostCompactHookInput = hooks.PostCompactHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostCompactHookInput = hooks.PostCompactHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PreModelSwitchHookInput: typeof hooks.PreModelSwitchHookInput = hooks.PreModelSwitchHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PreModelSwitchHookInput = hooks.PreModelSwitchHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostModelSwitchHookInput: typeof hooks.PostModelSwitchHookInput = hooks.PostModelSwitchHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostModelSwitchHookInput = hooks.PostModelSwitchHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PermissionRequestHookInput: typeof hooks.PermissionRequestHookInput = hooks.PermissionRequestHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PermissionRequestHookInput = hooks.PermissionRequestHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PermissionDeniedHookInput: typeof hooks.PermissionDeniedHookInput = hooks.PermissionDeniedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PermissionDeniedHookInput = hooks.PermissionDeniedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const SetupHookInput: typeof hooks.SetupHookInput = hooks.SetupHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SetupHookInput = hooks.SetupHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const TeammateIdleHookInput: typeof hooks.TeammateIdleHookInput = hooks.TeammateIdleHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type TeammateIdleHookInput = hooks.TeammateIdleHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const TaskCreatedHookInput: typeof hooks.TaskCreatedHookInput = hooks.TaskCreatedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type TaskCreatedHookInput = hooks.TaskCreatedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const TaskCompletedHookInput: typeof hooks.TaskCompletedHookInput = hooks.TaskCompletedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type TaskCompletedHookInput = hooks.TaskCompletedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const ElicitationHookInput: typeof hooks.ElicitationHookInput = hooks.ElicitationHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type ElicitationHookInput = hooks.ElicitationHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const ElicitationResultHookInput: typeof hooks.ElicitationResultHookInput = hooks.ElicitationResultHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type ElicitationResultHookInput = hooks.ElicitationResultHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const ConfigChangeHookInput: typeof hooks.ConfigChangeHookInput = hooks.ConfigChangeHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type ConfigChangeHookInput = hooks.ConfigChangeHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const WorktreeCreateHookInput: typeof hooks.WorktreeCreateHookInput = hooks.WorktreeCreateHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type WorktreeCreateHookInput = hooks.WorktreeCreateHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const WorktreeRemoveHookInput: typeof hooks.WorktreeRemoveHookInput = hooks.WorktreeRemoveHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type WorktreeRemoveHookInput = hooks.WorktreeRemoveHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const InstructionsLoadedHookInput: typeof hooks.InstructionsLoadedHookInput = hooks.InstructionsLoadedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type InstructionsLoadedHookInput = hooks.InstructionsLoadedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const CwdChangedHookInput: typeof hooks.CwdChangedHookInput = hooks.CwdChangedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type CwdChangedHookInput = hooks.CwdChangedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const FileChangedHookInput: typeof hooks.FileChangedHookInput = hooks.FileChangedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type FileChangedHookInput = hooks.FileChangedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const DirectoryAddedHookInput: typeof hooks.DirectoryAddedHookInput = hooks.DirectoryAddedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type DirectoryAddedHookInput = hooks.DirectoryAddedHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const MessageDisplayHookInput: typeof hooks.MessageDisplayHookInput = hooks.MessageDisplayHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type MessageDisplayHookInput = hooks.MessageDisplayHookInput

/**
 * The input of an event this SDK does not know yet: the base fields and
 * everything else, kept.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const UnknownHookInput: typeof hooks.UnknownHookInput = hooks.UnknownHookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type UnknownHookInput = hooks.UnknownHookInput

/**
 * The input schema of each event, by name.
 *
 * @since 0.1.0
 * @category Hooks
 */
export const hookInputByEvent: typeof hooks.hookInputByEvent = hooks.hookInputByEvent

/**
 * The input of a `hook_callback` request, discriminated by `hook_event_name`.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const HookInput: typeof hooks.HookInput = hooks.HookInput

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type HookInput = hooks.HookInput

/**
 * The input of one event.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export type HookInputFor<E extends HookEvent> = hooks.HookInputFor<E>

/**
 * What a `PreToolUse` hook decides: `permissionDecision` skips (`allow`),
 * blocks (`deny`), asks the permission prompt (`ask`) or ends the turn with
 * the call deferred (`defer`).
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const HookPermissionDecision: typeof hooks.HookPermissionDecision = hooks.HookPermissionDecision

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type HookPermissionDecision = hooks.HookPermissionDecision

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PreToolUseHookSpecificOutput: typeof hooks.PreToolUseHookSpecificOutput =
  hooks.PreToolUseHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PreToolUseHookSpecificOutput = hooks.PreToolUseHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const UserPromptSubmitHookSpecificOutput: typeof hooks.UserPromptSubmitHookSpecificOutput =
  hooks.UserPromptSubmitHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type UserPromptSubmitHookSpecificOutput = hooks.UserPromptSubmitHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const UserPromptExpansionHookSpecificOutput: typeof hooks.UserPromptExpansionHookSpecificOutput =
  hooks.UserPromptExpansionHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type UserPromptExpansionHookSpecificOutput = hooks.UserPromptExpansionHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const SessionStartHookSpecificOutput: typeof hooks.SessionStartHookSpecificOutput =
  hooks.SessionStartHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type SessionStartHookSpecificOutput = hooks.SessionStartHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const SetupHookSpecificOutput: typeof hooks.SetupHookSpecificOutput = hooks.SetupHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type SetupHookSpecificOutput = hooks.SetupHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PreModelSwitchHookSpecificOutput: typeof hooks.PreModelSwitchHookSpecificOutput =
  hooks.PreModelSwitchHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PreModelSwitchHookSpecificOutput = hooks.PreModelSwitchHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PostModelSwitchHookSpecificOutput: typeof hooks.PostModelSwitchHookSpecificOutput =
  hooks.PostModelSwitchHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PostModelSwitchHookSpecificOutput = hooks.PostModelSwitchHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const SubagentStartHookSpecificOutput: typeof hooks.SubagentStartHookSpecificOutput =
  hooks.SubagentStartHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type SubagentStartHookSpecificOutput = hooks.SubagentStartHookSpecificOutput

/**
 * `updatedMCPToolOutput` replaces the result of an MCP tool; `updatedToolOutput`
 * had no effect on built-in tools in 2.1.328.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const PostToolUseHookSpecificOutput: typeof hooks.PostToolUseHookSpecificOutput =
  hooks.PostToolUseHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PostToolUseHookSpecificOutput = hooks.PostToolUseHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PostToolUseFailureHookSpecificOutput: typeof hooks.PostToolUseFailureHookSpecificOutput =
  hooks.PostToolUseFailureHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PostToolUseFailureHookSpecificOutput = hooks.PostToolUseFailureHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PostToolBatchHookSpecificOutput: typeof hooks.PostToolBatchHookSpecificOutput =
  hooks.PostToolBatchHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PostToolBatchHookSpecificOutput = hooks.PostToolBatchHookSpecificOutput

/**
 * Note: on `Stop`, `additionalContext` makes the agent continue (like a block).
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const StopHookSpecificOutput: typeof hooks.StopHookSpecificOutput = hooks.StopHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type StopHookSpecificOutput = hooks.StopHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const SubagentStopHookSpecificOutput: typeof hooks.SubagentStopHookSpecificOutput =
  hooks.SubagentStopHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type SubagentStopHookSpecificOutput = hooks.SubagentStopHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PermissionDeniedHookSpecificOutput: typeof hooks.PermissionDeniedHookSpecificOutput =
  hooks.PermissionDeniedHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PermissionDeniedHookSpecificOutput = hooks.PermissionDeniedHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const NotificationHookSpecificOutput: typeof hooks.NotificationHookSpecificOutput =
  hooks.NotificationHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type NotificationHookSpecificOutput = hooks.NotificationHookSpecificOutput

/**
 * Allow from a `PermissionRequest` hook, optionally with a rewritten input and
 * new rules.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const PermissionRequestAllowDecision: typeof hooks.PermissionRequestAllowDecision =
  hooks.PermissionRequestAllowDecision

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PermissionRequestAllowDecision = hooks.PermissionRequestAllowDecision

/**
 * Deny from a `PermissionRequest` hook.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const PermissionRequestDenyDecision: typeof hooks.PermissionRequestDenyDecision =
  hooks.PermissionRequestDenyDecision

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PermissionRequestDenyDecision = hooks.PermissionRequestDenyDecision

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PermissionRequestDecision: typeof hooks.PermissionRequestDecision = hooks.PermissionRequestDecision

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PermissionRequestDecision = hooks.PermissionRequestDecision

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PermissionRequestHookSpecificOutput: typeof hooks.PermissionRequestHookSpecificOutput =
  hooks.PermissionRequestHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PermissionRequestHookSpecificOutput = hooks.PermissionRequestHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const ElicitationHookSpecificOutput: typeof hooks.ElicitationHookSpecificOutput =
  hooks.ElicitationHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type ElicitationHookSpecificOutput = hooks.ElicitationHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const ElicitationResultHookSpecificOutput: typeof hooks.ElicitationResultHookSpecificOutput =
  hooks.ElicitationResultHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type ElicitationResultHookSpecificOutput = hooks.ElicitationResultHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const CwdChangedHookSpecificOutput: typeof hooks.CwdChangedHookSpecificOutput =
  hooks.CwdChangedHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type CwdChangedHookSpecificOutput = hooks.CwdChangedHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const FileChangedHookSpecificOutput: typeof hooks.FileChangedHookSpecificOutput =
  hooks.FileChangedHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type FileChangedHookSpecificOutput = hooks.FileChangedHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const WorktreeCreateHookSpecificOutput: typeof hooks.WorktreeCreateHookSpecificOutput =
  hooks.WorktreeCreateHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type WorktreeCreateHookSpecificOutput = hooks.WorktreeCreateHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const MessageDisplayHookSpecificOutput: typeof hooks.MessageDisplayHookSpecificOutput =
  hooks.MessageDisplayHookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type MessageDisplayHookSpecificOutput = hooks.MessageDisplayHookSpecificOutput

/**
 * The event-specific part of a hook output. Its `hookEventName` must name the
 * event being answered: the CLI fails the tool call otherwise.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const HookSpecificOutput: typeof hooks.HookSpecificOutput = hooks.HookSpecificOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type HookSpecificOutput = hooks.HookSpecificOutput

/**
 * A hook's answer. `{}` means "no opinion". `continue: false` stops the turn
 * (the tool of a PreToolUse hook still runs); `decision: "block"` blocks.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const SyncHookOutput: typeof hooks.SyncHookOutput = hooks.SyncHookOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type SyncHookOutput = hooks.SyncHookOutput

/**
 * "Answering later": the CLI treats it as no opinion.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const AsyncHookOutput: typeof hooks.AsyncHookOutput = hooks.AsyncHookOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type AsyncHookOutput = hooks.AsyncHookOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const HookOutput: typeof hooks.HookOutput = hooks.HookOutput

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type HookOutput = hooks.HookOutput

/**
 * One matcher of the `hooks` map of `initialize`: which callbacks to call for
 * which tool names. `timeout` is in seconds (the CLI's default is 600);
 * `onFailure: "block"` makes an error reply block the action.
 *
 * @since 0.1.0
 * @category Hooks
 */
export const HookCallbackMatcher: typeof hooks.HookCallbackMatcher = hooks.HookCallbackMatcher

/**
 * @since 0.1.0
 * @category Hooks
 */
export type HookCallbackMatcher = hooks.HookCallbackMatcher

// -----------------------------------------------------------------------------
// messages
// -----------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category Content
 */
export const TextBlock: typeof messages.TextBlock = messages.TextBlock

/**
 * @since 0.1.0
 * @category Content
 */
export type TextBlock = messages.TextBlock

/**
 * @since 0.1.0
 * @category Content
 */
export const ThinkingBlock: typeof messages.ThinkingBlock = messages.ThinkingBlock

/**
 * @since 0.1.0
 * @category Content
 */
export type ThinkingBlock = messages.ThinkingBlock

/**
 * @since 0.1.0
 * @category Content
 */
export const RedactedThinkingBlock: typeof messages.RedactedThinkingBlock = messages.RedactedThinkingBlock

/**
 * @since 0.1.0
 * @category Content
 */
export type RedactedThinkingBlock = messages.RedactedThinkingBlock

/**
 * @since 0.1.0
 * @category Content
 */
export const ToolUseBlock: typeof messages.ToolUseBlock = messages.ToolUseBlock

/**
 * @since 0.1.0
 * @category Content
 */
export type ToolUseBlock = messages.ToolUseBlock

/**
 * @since 0.1.0
 * @category Content
 */
export const ServerToolUseBlock: typeof messages.ServerToolUseBlock = messages.ServerToolUseBlock

/**
 * @since 0.1.0
 * @category Content
 */
export type ServerToolUseBlock = messages.ServerToolUseBlock

/**
 * @since 0.1.0
 * @category Content
 */
export const ToolResultBlock: typeof messages.ToolResultBlock = messages.ToolResultBlock

/**
 * @since 0.1.0
 * @category Content
 */
export type ToolResultBlock = messages.ToolResultBlock

/**
 * @since 0.1.0
 * @category Content
 */
export const ImageBlock: typeof messages.ImageBlock = messages.ImageBlock

/**
 * @since 0.1.0
 * @category Content
 */
export type ImageBlock = messages.ImageBlock

/**
 * @since 0.1.0
 * @category Content
 */
export const DocumentBlock: typeof messages.DocumentBlock = messages.DocumentBlock

/**
 * @since 0.1.0
 * @category Content
 */
export type DocumentBlock = messages.DocumentBlock

/**
 * A content block of a type without a schema here; kept whole.
 *
 * @since 0.1.0
 * @category Content
 */
export const UnknownContentBlock: typeof messages.UnknownContentBlock = messages.UnknownContentBlock

/**
 * @since 0.1.0
 * @category Content
 */
export type UnknownContentBlock = messages.UnknownContentBlock

/**
 * A block of message content.
 *
 * @since 0.1.0
 * @category Content
 */
export const ContentBlock: typeof messages.ContentBlock = messages.ContentBlock

/**
 * @since 0.1.0
 * @category Content
 */
export type ContentBlock = messages.ContentBlock

/**
 * A content block of another type in a user message written by the SDK.
 *
 * @since 0.1.0
 * @category Content
 */
export const UnknownContentBlockInput: typeof messages.UnknownContentBlockInput = messages.UnknownContentBlockInput

/**
 * @since 0.1.0
 * @category Content
 */
export type UnknownContentBlockInput = messages.UnknownContentBlockInput

/**
 * A block of a user message written by the SDK (`text` and base64 `image`
 * were checked live).
 *
 * @since 0.1.0
 * @category Content
 */
export const ContentBlockInput: typeof messages.ContentBlockInput = messages.ContentBlockInput

/**
 * @since 0.1.0
 * @category Content
 */
export type ContentBlockInput = messages.ContentBlockInput

/**
 * Token usage. Only the totals are typed; the rest (cache details, server
 * tools, service tier, ...) is kept as is.
 *
 * @since 0.1.0
 * @category Messages
 */
export const Usage: typeof messages.Usage = messages.Usage

/**
 * @since 0.1.0
 * @category Messages
 */
export type Usage = messages.Usage

/**
 * Usage and cost of one model in a `result`.
 *
 * @since 0.1.0
 * @category Results
 */
export const ModelUsage: typeof messages.ModelUsage = messages.ModelUsage

/**
 * @since 0.1.0
 * @category Results
 */
export type ModelUsage = messages.ModelUsage

/**
 * What started a turn (`task-notification` for the turn a background agent
 * starts by itself, ...).
 *
 * @since 0.1.0
 * @category Messages
 */
export const MessageOrigin: typeof messages.MessageOrigin = messages.MessageOrigin

/**
 * @since 0.1.0
 * @category Messages
 */
export type MessageOrigin = messages.MessageOrigin

/**
 * A tool call that was denied during the turn.
 *
 * @since 0.1.0
 * @category Results
 */
export const PermissionDenial: typeof messages.PermissionDenial = messages.PermissionDenial

/**
 * @since 0.1.0
 * @category Results
 */
export type PermissionDenial = messages.PermissionDenial

/**
 * The tool call a PreToolUse `defer` stopped the turn at.
 *
 * @since 0.1.0
 * @category Results
 */
export const DeferredToolUse: typeof messages.DeferredToolUse = messages.DeferredToolUse

/**
 * @since 0.1.0
 * @category Results
 */
export type DeferredToolUse = messages.DeferredToolUse

/**
 * The API message inside an `assistant` line. The CLI writes one line per
 * content block; `stop_reason` is `null` and `usage` is not final there (the
 * final figures are on the `result`).
 *
 * @since 0.1.0
 * @category Messages
 */
export const AssistantMessageBody: typeof messages.AssistantMessageBody = messages.AssistantMessageBody

/**
 * @since 0.1.0
 * @category Messages
 */
export type AssistantMessageBody = messages.AssistantMessageBody

/**
 * A model response block (`model: "<synthetic>"` for API errors and local
 * command output).
 *
 * @since 0.1.0
 * @category Messages
 */
export const AssistantMessage: typeof messages.AssistantMessage = messages.AssistantMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export type AssistantMessage = messages.AssistantMessage

/**
 * The API message inside a `user` line on stdout.
 *
 * @since 0.1.0
 * @category Messages
 */
export const UserMessageBody: typeof messages.UserMessageBody = messages.UserMessageBody

/**
 * @since 0.1.0
 * @category Messages
 */
export type UserMessageBody = messages.UserMessageBody

/**
 * A `user` line on stdout: a tool result (with the tool's structured output in
 * `tool_use_result`), a synthetic line (interrupts, Stop-hook feedback,
 * compaction summary), or a replay of a user message.
 *
 * @since 0.1.0
 * @category Messages
 */
export const UserMessage: typeof messages.UserMessage = messages.UserMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export type UserMessage = messages.UserMessage

/**
 * The end of a turn that ran to completion. API failures also arrive here,
 * with `is_error: true`: branch on `is_error`, not on `subtype`.
 *
 * @since 0.1.0
 * @category Results
 */
export const ResultSuccess: typeof messages.ResultSuccess = messages.ResultSuccess

/**
 * @since 0.1.0
 * @category Results
 */
export type ResultSuccess = messages.ResultSuccess

/**
 * The subtype of an error `result`: one of the known error subtypes, or any
 * other string but `"success"` (a future error subtype still decodes).
 *
 * @since 0.1.0
 * @category Results
 */
export const ResultErrorSubtype: typeof messages.ResultErrorSubtype = messages.ResultErrorSubtype

/**
 * @since 0.1.0
 * @category Results
 */
export type ResultErrorSubtype = messages.ResultErrorSubtype

/**
 * The end of a turn that stopped on an error (interrupt, max turns, budget,
 * structured output retries). It has `errors` and no `result`.
 *
 * @since 0.1.0
 * @category Results
 */
export const ResultErrorMessage: typeof messages.ResultErrorMessage = messages.ResultErrorMessage

/**
 * @since 0.1.0
 * @category Results
 */
export type ResultErrorMessage = messages.ResultErrorMessage

/**
 * The end of a turn. One user message can produce several (background agents
 * start turns of their own).
 *
 * @since 0.1.0
 * @category Results
 */
export const ResultMessage: typeof messages.ResultMessage = messages.ResultMessage

/**
 * @since 0.1.0
 * @category Results
 */
export type ResultMessage = messages.ResultMessage

/**
 * A raw Anthropic streaming event (`message_start`, `content_block_delta`,
 * ...). Only `type` is checked; the rest is the API's.
 *
 * @since 0.1.0
 * @category Messages
 */
export const ApiStreamEvent: typeof messages.ApiStreamEvent = messages.ApiStreamEvent

/**
 * @since 0.1.0
 * @category Messages
 */
export type ApiStreamEvent = messages.ApiStreamEvent

/**
 * A partial-message event (only with `--include-partial-messages`).
 *
 * @since 0.1.0
 * @category Messages
 */
export const StreamEvent: typeof messages.StreamEvent = messages.StreamEvent

/**
 * @since 0.1.0
 * @category Messages
 */
export type StreamEvent = messages.StreamEvent

/**
 * A connected MCP server as listed in `system/init`.
 *
 * @since 0.1.0
 * @category System messages
 */
export const McpServerSummary: typeof messages.McpServerSummary = messages.McpServerSummary

/**
 * @since 0.1.0
 * @category System messages
 */
export type McpServerSummary = messages.McpServerSummary

/**
 * A plugin as listed in `system/init`.
 *
 * @since 0.1.0
 * @category System messages
 */
export const PluginSummary: typeof messages.PluginSummary = messages.PluginSummary

/**
 * @since 0.1.0
 * @category System messages
 */
export type PluginSummary = messages.PluginSummary

/**
 * The start of every turn (not once per process): tools, model, permission
 * mode and the rest of the session's current configuration.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemInit: typeof messages.SystemInit = messages.SystemInit

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemInit = messages.SystemInit

/**
 * A status change: `requesting` (partial-message mode), `compacting`, or
 * `null` with the new `permissionMode`.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemStatus: typeof messages.SystemStatus = messages.SystemStatus

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemStatus = messages.SystemStatus

/**
 * The boundary a compaction leaves in the conversation.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemCompactBoundary: typeof messages.SystemCompactBoundary = messages.SystemCompactBoundary

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemCompactBoundary = messages.SystemCompactBoundary

/**
 * An API request failed and will be retried.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemApiRetry: typeof messages.SystemApiRetry = messages.SystemApiRetry

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemApiRetry = messages.SystemApiRetry

/**
 * A notice for the user (hook `systemMessage`, hook failures, a blocked
 * prompt, ...).
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemInformational: typeof messages.SystemInformational = messages.SystemInformational

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemInformational = messages.SystemInformational

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemNotification: typeof messages.SystemNotification = messages.SystemNotification

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemNotification = messages.SystemNotification

/**
 * A tool call denied without asking (mode, missing prompt tool, ...).
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemPermissionDenied: typeof messages.SystemPermissionDenied = messages.SystemPermissionDenied

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemPermissionDenied = messages.SystemPermissionDenied

/**
 * A settings-file command hook started (only with `--include-hook-events`;
 * never for SDK callback hooks).
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemHookStarted: typeof messages.SystemHookStarted = messages.SystemHookStarted

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemHookStarted = messages.SystemHookStarted

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemHookProgress: typeof messages.SystemHookProgress = messages.SystemHookProgress

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemHookProgress = messages.SystemHookProgress

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemHookResponse: typeof messages.SystemHookResponse = messages.SystemHookResponse

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemHookResponse = messages.SystemHookResponse

/**
 * Tokens, tool uses and time a task has used.
 *
 * @since 0.1.0
 * @category System messages
 */
export const TaskUsage: typeof messages.TaskUsage = messages.TaskUsage

/**
 * @since 0.1.0
 * @category System messages
 */
export type TaskUsage = messages.TaskUsage

/**
 * A task (subagent, long-running Bash) started.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemTaskStarted: typeof messages.SystemTaskStarted = messages.SystemTaskStarted

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemTaskStarted = messages.SystemTaskStarted

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemTaskProgress: typeof messages.SystemTaskProgress = messages.SystemTaskProgress

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemTaskProgress = messages.SystemTaskProgress

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemTaskUpdated: typeof messages.SystemTaskUpdated = messages.SystemTaskUpdated

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemTaskUpdated = messages.SystemTaskUpdated

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemTaskNotification: typeof messages.SystemTaskNotification = messages.SystemTaskNotification

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemTaskNotification = messages.SystemTaskNotification

/**
 * A background task in `system/background_tasks_changed`.
 *
 * @since 0.1.0
 * @category System messages
 */
export const BackgroundTask: typeof messages.BackgroundTask = messages.BackgroundTask

/**
 * @since 0.1.0
 * @category System messages
 */
export type BackgroundTask = messages.BackgroundTask

/**
 * The set of background tasks changed (the list replaces the previous one).
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemBackgroundTasksChanged: typeof messages.SystemBackgroundTasksChanged =
  messages.SystemBackgroundTasksChanged

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemBackgroundTasksChanged = messages.SystemBackgroundTasksChanged

/**
 * Only with `CLAUDE_CODE_SDK_READS_SESSION_STATE=1`; `idle` comes after the
 * `result`.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemSessionStateChanged: typeof messages.SystemSessionStateChanged = messages.SystemSessionStateChanged

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemSessionStateChanged = messages.SystemSessionStateChanged

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemSessionTitleChanged: typeof messages.SystemSessionTitleChanged = messages.SystemSessionTitleChanged

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemSessionTitleChanged = messages.SystemSessionTitleChanged

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemThinkingTokens: typeof messages.SystemThinkingTokens = messages.SystemThinkingTokens

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemThinkingTokens = messages.SystemThinkingTokens

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemLocalCommandOutput: typeof messages.SystemLocalCommandOutput = messages.SystemLocalCommandOutput

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemLocalCommandOutput = messages.SystemLocalCommandOutput

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemFilesPersisted: typeof messages.SystemFilesPersisted = messages.SystemFilesPersisted

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemFilesPersisted = messages.SystemFilesPersisted

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemElicitationComplete: typeof messages.SystemElicitationComplete = messages.SystemElicitationComplete

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemElicitationComplete = messages.SystemElicitationComplete

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemCommandsChanged: typeof messages.SystemCommandsChanged = messages.SystemCommandsChanged

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemCommandsChanged = messages.SystemCommandsChanged

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemControlRequestProgress: typeof messages.SystemControlRequestProgress =
  messages.SystemControlRequestProgress

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemControlRequestProgress = messages.SystemControlRequestProgress

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemMemoryRecall: typeof messages.SystemMemoryRecall = messages.SystemMemoryRecall

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemMemoryRecall = messages.SystemMemoryRecall

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemMirrorError: typeof messages.SystemMirrorError = messages.SystemMirrorError

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemMirrorError = messages.SystemMirrorError

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemModelRefusalFallback: typeof messages.SystemModelRefusalFallback =
  messages.SystemModelRefusalFallback

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemModelRefusalFallback = messages.SystemModelRefusalFallback

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemModelRefusalNoFallback: typeof messages.SystemModelRefusalNoFallback =
  messages.SystemModelRefusalNoFallback

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemModelRefusalNoFallback = messages.SystemModelRefusalNoFallback

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemPluginInstall: typeof messages.SystemPluginInstall = messages.SystemPluginInstall

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemPluginInstall = messages.SystemPluginInstall

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemSessionWritesLost: typeof messages.SystemSessionWritesLost = messages.SystemSessionWritesLost

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemSessionWritesLost = messages.SystemSessionWritesLost

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemWorkerShuttingDown: typeof messages.SystemWorkerShuttingDown = messages.SystemWorkerShuttingDown

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemWorkerShuttingDown = messages.SystemWorkerShuttingDown

/**
 * A `system` message of a subtype without a schema here (the CLI has dozens
 * of internal ones); kept whole.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemOther: typeof messages.SystemOther = messages.SystemOther

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemOther = messages.SystemOther

/**
 * Any `system` message.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemMessage: typeof messages.SystemMessage = messages.SystemMessage

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemMessage = messages.SystemMessage

/**
 * A heartbeat every 30 s while a tool runs (`tool_use_id` is
 * `<id>-heartbeat-N`, `parent_tool_use_id` the real id).
 *
 * @since 0.1.0
 * @category Messages
 */
export const ToolProgressMessage: typeof messages.ToolProgressMessage = messages.ToolProgressMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export type ToolProgressMessage = messages.ToolProgressMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export const ToolUseSummaryMessage: typeof messages.ToolUseSummaryMessage = messages.ToolUseSummaryMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export type ToolUseSummaryMessage = messages.ToolUseSummaryMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export const AuthStatusMessage: typeof messages.AuthStatusMessage = messages.AuthStatusMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export type AuthStatusMessage = messages.AuthStatusMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export const RateLimitInfo: typeof messages.RateLimitInfo = messages.RateLimitInfo

/**
 * @since 0.1.0
 * @category Messages
 */
export type RateLimitInfo = messages.RateLimitInfo

/**
 * @since 0.1.0
 * @category Messages
 */
export const RateLimitEvent: typeof messages.RateLimitEvent = messages.RateLimitEvent

/**
 * @since 0.1.0
 * @category Messages
 */
export type RateLimitEvent = messages.RateLimitEvent

/**
 * @since 0.1.0
 * @category Messages
 */
export const PromptSuggestionMessage: typeof messages.PromptSuggestionMessage = messages.PromptSuggestionMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export type PromptSuggestionMessage = messages.PromptSuggestionMessage

/**
 * The lifecycle of a user message that carried a `uuid`: `queued` →
 * `started` → `completed` / `cancelled` (`completed` comes after the result).
 *
 * @since 0.1.0
 * @category Messages
 */
export const CommandLifecycleMessage: typeof messages.CommandLifecycleMessage = messages.CommandLifecycleMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export type CommandLifecycleMessage = messages.CommandLifecycleMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export const ActiveGoalMessage: typeof messages.ActiveGoalMessage = messages.ActiveGoalMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export type ActiveGoalMessage = messages.ActiveGoalMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export const ConversationResetMessage: typeof messages.ConversationResetMessage = messages.ConversationResetMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export type ConversationResetMessage = messages.ConversationResetMessage

/**
 * A keep-alive, accepted in both directions.
 *
 * @since 0.1.0
 * @category Messages
 */
export const KeepAlive: typeof messages.KeepAlive = messages.KeepAlive

/**
 * @since 0.1.0
 * @category Messages
 */
export type KeepAlive = messages.KeepAlive

/**
 * A line of a type this SDK does not know yet: its `type` and every other
 * field, kept as the CLI wrote them.
 *
 * @since 0.1.0
 * @category Messages
 */
export const UnknownMessage: typeof messages.UnknownMessage = messages.UnknownMessage

/**
 * @since 0.1.0
 * @category Messages
 */
export type UnknownMessage = messages.UnknownMessage

/**
 * The API message of a user message the SDK writes. `role` must be `"user"`:
 * anything else (or no `message` at all) makes the CLI exit.
 *
 * @since 0.1.0
 * @category Stdin messages
 */
export const UserInputBody: typeof messages.UserInputBody = messages.UserInputBody

/**
 * @since 0.1.0
 * @category Stdin messages
 */
export type UserInputBody = messages.UserInputBody

/**
 * A user message on stdin. `session_id` may be `""` (the CLI uses its own).
 * A `uuid` turns on `command_lifecycle` messages and is the id `rewind_files`
 * takes; `shouldQuery: false` adds the message to the history without calling
 * the model.
 *
 * @since 0.1.0
 * @category Stdin messages
 */
export const UserInput: typeof messages.UserInput = messages.UserInput

/**
 * @since 0.1.0
 * @category Stdin messages
 */
export type UserInput = messages.UserInput

// -----------------------------------------------------------------------------
// control
// -----------------------------------------------------------------------------

/**
 * Run the SDK hook `callback_id` on `input`. For tool events `tool_use_id` is
 * the tool's id; for other events a fresh UUID.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const HookCallbackRequest: typeof control.HookCallbackRequest = control.HookCallbackRequest

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type HookCallbackRequest = control.HookCallbackRequest

/**
 * Ask whether a tool may run (only with `--permission-prompt-tool stdio`).
 * The CLI waits for the answer without any timeout.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const CanUseToolRequest: typeof control.CanUseToolRequest = control.CanUseToolRequest

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type CanUseToolRequest = control.CanUseToolRequest

/**
 * A JSON-RPC message for an SDK-hosted MCP server. Reply with
 * `{ mcp_response: <JSON-RPC response> }`.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const McpMessageRequest: typeof control.McpMessageRequest = control.McpMessageRequest

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type McpMessageRequest = control.McpMessageRequest

/**
 * An MCP server asks the user for input.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const ElicitationRequest: typeof control.ElicitationRequest = control.ElicitationRequest

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type ElicitationRequest = control.ElicitationRequest

/**
 * The CLI asks the host to show a dialog of some kind.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const UserDialogRequest: typeof control.UserDialogRequest = control.UserDialogRequest

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type UserDialogRequest = control.UserDialogRequest

/**
 * A request of a subtype this SDK does not know: answer it with an error, the
 * session keeps running.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const UnknownControlRequest: typeof control.UnknownControlRequest = control.UnknownControlRequest

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type UnknownControlRequest = control.UnknownControlRequest

/**
 * What the CLI can ask the SDK.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const InboundControlRequest: typeof control.InboundControlRequest = control.InboundControlRequest

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type InboundControlRequest = control.InboundControlRequest

/**
 * A request from the CLI. Answer with a {@link ControlResponse} carrying the
 * same `request_id`, and keep reading stdout meanwhile.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const ControlRequest: typeof control.ControlRequest = control.ControlRequest

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type ControlRequest = control.ControlRequest

/**
 * The sender stopped waiting for the answer to one of its own requests (the
 * CLI sends it on interrupt, hook timeout, or when a `PermissionRequest` hook
 * decided first). A reply sent afterwards is ignored.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const ControlCancelRequest: typeof control.ControlCancelRequest = control.ControlCancelRequest

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type ControlCancelRequest = control.ControlCancelRequest

/**
 * A successful reply. The CLI leaves out `response` for some subtypes, and
 * leaves out `request_id` when the request had none.
 *
 * @since 0.1.0
 * @category Control responses
 */
export const ControlSuccess: typeof control.ControlSuccess = control.ControlSuccess

/**
 * @since 0.1.0
 * @category Control responses
 */
export type ControlSuccess = control.ControlSuccess

/**
 * An error reply. The CLI may add `error_code` (`unsupported_request`,
 * `invalid_mode`, `bypass_not_launched`).
 *
 * @since 0.1.0
 * @category Control responses
 */
export const ControlFailure: typeof control.ControlFailure = control.ControlFailure

/**
 * @since 0.1.0
 * @category Control responses
 */
export type ControlFailure = control.ControlFailure

/**
 * A reply to a control request, in either direction. The CLI's reply to
 * `initialize` carries more envelope fields (`pending_permission_requests`,
 * ...), which are kept.
 *
 * @since 0.1.0
 * @category Control responses
 */
export const ControlResponse: typeof control.ControlResponse = control.ControlResponse

/**
 * @since 0.1.0
 * @category Control responses
 */
export type ControlResponse = control.ControlResponse

/**
 * An MCP server configuration (`stdio`, `sse`, `http`, or `{ type: "sdk",
 * name }` for an in-process server). Kept as JSON: the CLI validates it.
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const McpServerConfig: typeof control.McpServerConfig = control.McpServerConfig

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type McpServerConfig = control.McpServerConfig

/**
 * A subagent definition for `initialize.agents`.
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const AgentDefinition: typeof control.AgentDefinition = control.AgentDefinition

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type AgentDefinition = control.AgentDefinition

/**
 * The handshake: hooks, SDK MCP servers, prompts, agents and the other
 * session settings the CLI takes over stdin. Every field is optional, and
 * `initialize` itself is optional.
 *
 * `hooks` maps hook event names to matchers; an unknown event name is
 * accepted silently by the CLI. `settings`, `disallowedTools` and
 * `mcpServers` are ignored unless the CLI was launched with
 * `--await-initialize` (and `--initialize-fields` for the first two).
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const InitializeRequest: typeof control.InitializeRequest = control.InitializeRequest

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type InitializeRequest = control.InitializeRequest

/**
 * The payload schema of each SDK → CLI request is in the table of
 * `ControlRequest.requests`, beside its response schema: for example
 * `ControlRequest.requests.set_model.payloadSchema`.
 */
/**
 * The escape hatch: any other subtype, with any fields. The CLI answers an
 * unknown subtype with an error (`unsupported_request`) and keeps running.
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const OtherOutboundRequest: typeof control.OtherOutboundRequest = control.OtherOutboundRequest

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type OtherOutboundRequest = control.OtherOutboundRequest

/**
 * What the SDK can ask the CLI: the payload of every request of the table
 * (`ControlRequest.requests`), derived from it, and any other subtype.
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const OutboundControlRequestPayload: typeof control.OutboundControlRequestPayload =
  control.OutboundControlRequestPayload

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type OutboundControlRequestPayload = control.OutboundControlRequestPayload

/**
 * A request from the SDK. The CLI dies on a `control_request` whose `request`
 * is missing or `null`, so both `request_id` and `request` are required.
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const OutboundControlRequest: typeof control.OutboundControlRequest = control.OutboundControlRequest

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type OutboundControlRequest = control.OutboundControlRequest

/**
 * Set environment variables of the CLI process (accepted without a reply).
 *
 * @since 0.1.0
 * @category Stdin messages
 */
export const UpdateEnvironmentVariables: typeof control.UpdateEnvironmentVariables = control.UpdateEnvironmentVariables

/**
 * @since 0.1.0
 * @category Stdin messages
 */
export type UpdateEnvironmentVariables = control.UpdateEnvironmentVariables

// -----------------------------------------------------------------------------
// responses
// -----------------------------------------------------------------------------

/**
 * A slash command (`initialize` reply, `system/commands_changed`).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const SlashCommand: typeof responses.SlashCommand = responses.SlashCommand

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type SlashCommand = responses.SlashCommand

/**
 * A subagent the session can use.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const AgentInfo: typeof responses.AgentInfo = responses.AgentInfo

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type AgentInfo = responses.AgentInfo

/**
 * A model the session can switch to (`initialize` reply, `list_models`).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ModelInfo: typeof responses.ModelInfo = responses.ModelInfo

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ModelInfo = responses.ModelInfo

/**
 * Who the CLI is signed in as and how.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const AccountInfo: typeof responses.AccountInfo = responses.AccountInfo

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type AccountInfo = responses.AccountInfo

/**
 * The reply to `initialize` (about 17 KB, mostly `commands`).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const InitializeResponse: typeof responses.InitializeResponse = responses.InitializeResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type InitializeResponse = responses.InitializeResponse

/**
 * One MCP server in the reply to `mcp_status`. SDK-hosted servers appear only
 * after they connect (lazily, at the first user message).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpServerStatus: typeof responses.McpServerStatus = responses.McpServerStatus

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpServerStatus = responses.McpServerStatus

/**
 * The reply to `mcp_status`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpStatusResponse: typeof responses.McpStatusResponse = responses.McpStatusResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpStatusResponse = responses.McpStatusResponse

/**
 * The reply to `mcp_set_servers`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpSetServersResponse: typeof responses.McpSetServersResponse = responses.McpSetServersResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpSetServersResponse = responses.McpSetServersResponse

/**
 * One category of the context window.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ContextUsageCategory: typeof responses.ContextUsageCategory = responses.ContextUsageCategory

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ContextUsageCategory = responses.ContextUsageCategory

/**
 * The reply to `get_context_usage`. The detailed breakdowns are kept as JSON.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ContextUsageResponse: typeof responses.ContextUsageResponse = responses.ContextUsageResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ContextUsageResponse = responses.ContextUsageResponse

/**
 * The reply to `rewind_files`. Without file checkpointing enabled it is
 * `{ canRewind: false, error: "File rewinding is not enabled." }`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const RewindFilesResponse: typeof responses.RewindFilesResponse = responses.RewindFilesResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type RewindFilesResponse = responses.RewindFilesResponse

/**
 * The reply to `interrupt`: the uuids of queued user messages that will still
 * run, and with `cancel_queued` the ones cancelled.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const InterruptResponse: typeof responses.InterruptResponse = responses.InterruptResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type InterruptResponse = responses.InterruptResponse

/**
 * The reply to `set_permission_mode`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const SetPermissionModeResponse: typeof responses.SetPermissionModeResponse = responses.SetPermissionModeResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type SetPermissionModeResponse = responses.SetPermissionModeResponse

/**
 * The reply to `set_model`: the resolved model id (aliases resolved).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const SetModelResponse: typeof responses.SetModelResponse = responses.SetModelResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type SetModelResponse = responses.SetModelResponse

/**
 * The reply to `list_models`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ListModelsResponse: typeof responses.ListModelsResponse = responses.ListModelsResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ListModelsResponse = responses.ListModelsResponse

/**
 * The reply of a request the CLI answers without a body (`set_max_thinking_tokens`,
 * `apply_flag_settings`, `seed_read_state`, `mcp_toggle`, `mcp_reconnect`, ...)
 * or with `{}` (`stop_task`, `update_settings`). Whatever it sends is accepted
 * and ignored.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const NoResponse: typeof responses.NoResponse = responses.NoResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type NoResponse = responses.NoResponse

/**
 * The reply to `set_mcp_permission_mode_override`: a `warning` when the server
 * name matches no known server (the override is stored anyway).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpPermissionModeOverrideResponse: typeof responses.McpPermissionModeOverrideResponse =
  responses.McpPermissionModeOverrideResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpPermissionModeOverrideResponse = responses.McpPermissionModeOverrideResponse

/**
 * The reply to `mcp_call`: the MCP `tools/call` result.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpCallResponse: typeof responses.McpCallResponse = responses.McpCallResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpCallResponse = responses.McpCallResponse

/**
 * One item of an MCP resource.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpResourceContent: typeof responses.McpResourceContent = responses.McpResourceContent

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpResourceContent = responses.McpResourceContent

/**
 * The reply to `mcp_read_resource`: the `resources/read` result of a `ui://`
 * resource.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpReadResourceResponse: typeof responses.McpReadResourceResponse = responses.McpReadResourceResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpReadResourceResponse = responses.McpReadResourceResponse

/**
 * The reply to `get_session_cost`: the text `/cost` prints.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const SessionCostResponse: typeof responses.SessionCostResponse = responses.SessionCostResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type SessionCostResponse = responses.SessionCostResponse

/**
 * The reply to `get_usage`: the session's cost and token totals, and the plan
 * rate limits where they apply (`rate_limits_available: false` and
 * `rate_limits: null` for API keys and cloud providers).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const UsageResponse: typeof responses.UsageResponse = responses.UsageResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type UsageResponse = responses.UsageResponse

/**
 * The reply to `get_binary_version`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const BinaryVersionResponse: typeof responses.BinaryVersionResponse = responses.BinaryVersionResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type BinaryVersionResponse = responses.BinaryVersionResponse

/**
 * The reply to `get_settings`: the effective settings, each source's own, and
 * what the session applies.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const SettingsResponse: typeof responses.SettingsResponse = responses.SettingsResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type SettingsResponse = responses.SettingsResponse

/**
 * The reply to `get_status`: the sections `/status` shows.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const StatusResponse: typeof responses.StatusResponse = responses.StatusResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type StatusResponse = responses.StatusResponse

/**
 * The reply to `list_permission_rules`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const PermissionRulesResponse: typeof responses.PermissionRulesResponse = responses.PermissionRulesResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type PermissionRulesResponse = responses.PermissionRulesResponse

/**
 * The reply to `get_hooks_listing` (SDK callback hooks are not listed).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const HooksListingResponse: typeof responses.HooksListingResponse = responses.HooksListingResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type HooksListingResponse = responses.HooksListingResponse

/**
 * The reply to `file_suggestions`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const FileSuggestionsResponse: typeof responses.FileSuggestionsResponse = responses.FileSuggestionsResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type FileSuggestionsResponse = responses.FileSuggestionsResponse

/**
 * The reply to `read_file`. `contents` is UTF-8 text (`lossy` when the bytes
 * were not all valid UTF-8) or base64 (`encoding: "base64"`).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ReadFileResponse: typeof responses.ReadFileResponse = responses.ReadFileResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ReadFileResponse = responses.ReadFileResponse

/**
 * The reply to `reload_skills`: the skills as slash commands.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ReloadSkillsResponse: typeof responses.ReloadSkillsResponse = responses.ReloadSkillsResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ReloadSkillsResponse = responses.ReloadSkillsResponse

/**
 * The reply to `reload_output_styles`: every style name, built-in and custom.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ReloadOutputStylesResponse: typeof responses.ReloadOutputStylesResponse =
  responses.ReloadOutputStylesResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ReloadOutputStylesResponse = responses.ReloadOutputStylesResponse

/**
 * A plugin loaded in the session.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const PluginInfo: typeof responses.PluginInfo = responses.PluginInfo

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type PluginInfo = responses.PluginInfo

/**
 * The reply to `reload_plugins`: the session's commands, agents, plugins and
 * MCP servers after the reload. With `hold_on_cache_impact`, `held: true`
 * says nothing was applied and `cache_impact` what applying would change.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ReloadPluginsResponse: typeof responses.ReloadPluginsResponse = responses.ReloadPluginsResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ReloadPluginsResponse = responses.ReloadPluginsResponse

/**
 * The reply to `get_task_output`: the end (at most 8 KiB) of a background
 * shell task's output.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const TaskOutputResponse: typeof responses.TaskOutputResponse = responses.TaskOutputResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type TaskOutputResponse = responses.TaskOutputResponse

/**
 * The reply to `background_tasks` (`{}` from CLI 2.1.328; a later CLI says
 * `backgrounded: false` when `tool_use_id` matched no foreground task).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const BackgroundTasksResponse: typeof responses.BackgroundTasksResponse = responses.BackgroundTasksResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type BackgroundTasksResponse = responses.BackgroundTasksResponse

/**
 * The reply to `cancel_async_message`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const CancelAsyncMessageResponse: typeof responses.CancelAsyncMessageResponse =
  responses.CancelAsyncMessageResponse

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type CancelAsyncMessageResponse = responses.CancelAsyncMessageResponse

// -----------------------------------------------------------------------------
// codec
// -----------------------------------------------------------------------------

/**
 * What a user of the SDK sees in the message stream: every stdout message but
 * the control traffic and keep-alives, unknown types included.
 *
 * @since 0.1.0
 * @category Unions
 */
export const Message: typeof codec.Message = codec.Message

/**
 * @since 0.1.0
 * @category Unions
 */
export type Message = codec.Message

/**
 * Any line the CLI writes on stdout.
 *
 * @since 0.1.0
 * @category Unions
 */
export const StdoutMessage: typeof codec.StdoutMessage = codec.StdoutMessage

/**
 * @since 0.1.0
 * @category Unions
 */
export type StdoutMessage = codec.StdoutMessage

/**
 * Any line the SDK writes on stdin. There is no fallback member: the SDK has
 * no business writing a line the CLI does not know, and some bad lines make
 * the CLI exit.
 *
 * @since 0.1.0
 * @category Unions
 */
export const StdinMessage: typeof codec.StdinMessage = codec.StdinMessage

/**
 * @since 0.1.0
 * @category Unions
 */
export type StdinMessage = codec.StdinMessage

/**
 * Whether a stdout message belongs to the user-facing stream.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isMessage: typeof codec.isMessage = codec.isMessage

/**
 * Whether a stdout message is of a type this SDK does not know. Set these
 * aside before switching on `type`: the fallback's `type` is a string, so a
 * `switch` alone cannot rule it out.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isUnknownMessage: typeof codec.isUnknownMessage = codec.isUnknownMessage

/**
 * Whether a message is a `system` message of the given subtype. A decoded
 * message of a known subtype is always that subtype's member (never
 * `SystemOther`), which comparing `subtype` alone cannot tell the type
 * checker.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isSystemMessage: typeof codec.isSystemMessage = codec.isSystemMessage

/**
 * Whether a message is a `result` of subtype `success` (which still has
 * `is_error: true` when the API failed).
 *
 * @since 0.1.0
 * @category Guards
 */
export const isResultSuccess: typeof codec.isResultSuccess = codec.isResultSuccess

/**
 * Whether a message is an `assistant` message. Use the guards rather than
 * comparing `type`: the unknown-message fallback's `type` is any string.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isAssistantMessage: typeof codec.isAssistantMessage = codec.isAssistantMessage

/**
 * Whether a message is a `user` message (a tool result echo, a synthetic
 * message, a replayed prompt).
 *
 * @since 0.1.0
 * @category Guards
 */
export const isUserMessage: typeof codec.isUserMessage = codec.isUserMessage

/**
 * Whether a message is a `result`, of any subtype.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isResultMessage: typeof codec.isResultMessage = codec.isResultMessage

/**
 * Whether a message is a `stream_event` (partial messages).
 *
 * @since 0.1.0
 * @category Guards
 */
export const isStreamEvent: typeof codec.isStreamEvent = codec.isStreamEvent

/**
 * Decodes one stdout line. Unknown types, subtypes and fields decode (and are
 * kept); a line that is not JSON or breaks a known shape is a
 * {@link ProtocolError}. Never throws.
 *
 * @since 0.1.0
 * @category Codec
 */
export const decodeStdoutLine: typeof codec.decodeStdoutLine = codec.decodeStdoutLine

/**
 * Decodes one stdin line (for tests, fakes and tools). Unlike stdout, an
 * unknown `type` is an error: it is not a line the SDK should write.
 *
 * @since 0.1.0
 * @category Codec
 */
export const decodeStdinLine: typeof codec.decodeStdinLine = codec.decodeStdinLine

/**
 * Encodes a message for stdin, validated by its schema first (some bad lines
 * make the CLI exit). Returns the JSON text without the trailing newline.
 *
 * @since 0.1.0
 * @category Codec
 */
export const encodeStdinLine: typeof codec.encodeStdinLine = codec.encodeStdinLine

/**
 * Encodes a message as the CLI would write it on stdout (for tests and
 * fakes). Returns the JSON text without the trailing newline.
 *
 * @since 0.1.0
 * @category Codec
 */
export const encodeStdoutLine: typeof codec.encodeStdoutLine = codec.encodeStdoutLine
