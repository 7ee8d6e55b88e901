/**
 * Hook events: the input of every event the CLI can send in a `hook_callback`
 * request, and the outputs an SDK hook may answer with.
 *
 * Inputs are written by the CLI (open structs: new fields are kept); outputs
 * are written by the SDK (closed structs).
 */
import * as Schema from "effect/Schema"
import {
  closedStruct,
  Json,
  JsonNumber,
  JsonObject,
  NullableString,
  openLiteral,
  openStruct,
  optional,
  otherThan
} from "./json.js"
import { McpServerProvenance, PermissionMode, PermissionUpdate } from "./permissions.js"

// -----------------------------------------------------------------------------
// Events
// -----------------------------------------------------------------------------

/**
 * Every hook event of the pinned CLI (2.1.328), in the order of the official
 * SDK's `HOOK_EVENTS`.
 */
export const hookEvents = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "Notification",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "SessionStart",
  "SessionEnd",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "PreModelSwitch",
  "PostModelSwitch",
  "PermissionRequest",
  "PermissionDenied",
  "Setup",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "Elicitation",
  "ElicitationResult",
  "ConfigChange",
  "WorktreeCreate",
  "WorktreeRemove",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "DirectoryAdded",
  "MessageDisplay"
] as const

/**
 * The name of a hook event.
 *
 * @since 0.1.0
 * @category Hooks
 */
export const HookEvent = Schema.Literals(hookEvents)

/**
 * @since 0.1.0
 * @category Hooks
 */
export type HookEvent = typeof HookEvent.Type

// -----------------------------------------------------------------------------
// Inputs
// -----------------------------------------------------------------------------

/**
 * The reasoning effort of the current turn, as hooks see it.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const HookEffort = openStruct({
  level: openLiteral("low", "medium", "high", "xhigh", "max")
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type HookEffort = typeof HookEffort.Type

/**
 * A background task listed in `Stop` / `SubagentStop` inputs.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const BackgroundTaskSummary = openStruct({
  id: Schema.String,
  type: Schema.String,
  status: Schema.String,
  description: Schema.String,
  command: optional(Schema.String),
  agent_type: optional(Schema.String),
  server: optional(Schema.String),
  tool: optional(Schema.String),
  name: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type BackgroundTaskSummary = typeof BackgroundTaskSummary.Type

/**
 * A session cron listed in `Stop` / `SubagentStop` inputs.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const SessionCronSummary = openStruct({
  id: Schema.String,
  schedule: Schema.String,
  recurring: Schema.Boolean,
  prompt: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SessionCronSummary = typeof SessionCronSummary.Type

/**
 * One call of a `PostToolBatch` input.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostToolBatchToolCall = openStruct({
  tool_name: Schema.String,
  tool_input: Json,
  tool_use_id: Schema.String,
  tool_response: optional(Json)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostToolBatchToolCall = typeof PostToolBatchToolCall.Type

/**
 * The fields every hook input carries. Some events leave out
 * `permission_mode` and `effort`; `agent_id` / `agent_type` appear inside
 * subagents.
 */
export const baseHookInputFields = {
  session_id: Schema.String,
  transcript_path: Schema.String,
  cwd: Schema.String,
  prompt_id: optional(Schema.String),
  permission_mode: optional(openLiteral(...PermissionMode.literals)),
  agent_id: optional(Schema.String),
  agent_type: optional(Schema.String),
  effort: optional(HookEffort)
}

// An event's own field replaces the base one (spreading a generic would type it as both).
type HookInputFields<Event extends HookEvent, Fields extends Schema.Struct.Fields> =
  & Omit<typeof baseHookInputFields, keyof Fields>
  & { readonly hook_event_name: Schema.Literal<Event> }
  & Fields

const hookInput = <Event extends HookEvent, Fields extends Schema.Struct.Fields>(event: Event, fields: Fields) =>
  openStruct<HookInputFields<Event, Fields>>({
    ...baseHookInputFields,
    hook_event_name: Schema.Literal(event),
    ...fields
  })

const toolFields = {
  tool_name: Schema.String,
  tool_input: Json
}

const modelSwitchFields = {
  from_model: Schema.String,
  to_model: Schema.String,
  requested_model: NullableString,
  context_tokens: JsonNumber,
  prompt_cache_warm: Schema.Boolean,
  cache_ttl: openLiteral("5m", "1h"),
  estimated_cache_write_usd: JsonNumber,
  pricing: openLiteral("configured", "catalog", "default")
}

const taskFields = {
  task_id: Schema.String,
  task_subject: Schema.String,
  task_description: optional(Schema.String),
  teammate_name: optional(Schema.String),
  team_name: optional(Schema.String)
}

const elicitationMode = openLiteral("form", "url")
const elicitationAction = openLiteral("accept", "decline", "cancel")

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PreToolUseHookInput = hookInput("PreToolUse", {
  ...toolFields,
  tool_use_id: Schema.String,
  mcp_server: optional(McpServerProvenance)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PreToolUseHookInput = typeof PreToolUseHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostToolUseHookInput = hookInput("PostToolUse", {
  ...toolFields,
  tool_response: Json,
  tool_use_id: Schema.String,
  duration_ms: optional(JsonNumber),
  mcp_server: optional(McpServerProvenance)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostToolUseHookInput = typeof PostToolUseHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostToolUseFailureHookInput = hookInput("PostToolUseFailure", {
  ...toolFields,
  tool_use_id: Schema.String,
  error: Schema.String,
  is_interrupt: optional(Schema.Boolean),
  duration_ms: optional(JsonNumber),
  mcp_server: optional(McpServerProvenance)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostToolUseFailureHookInput = typeof PostToolUseFailureHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostToolBatchHookInput = hookInput("PostToolBatch", {
  tool_calls: Schema.Array(PostToolBatchToolCall)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostToolBatchHookInput = typeof PostToolBatchHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const NotificationHookInput = hookInput("Notification", {
  message: Schema.String,
  title: optional(Schema.String),
  notification_type: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type NotificationHookInput = typeof NotificationHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const UserPromptSubmitHookInput = hookInput("UserPromptSubmit", {
  prompt: Schema.String,
  source: optional(openLiteral("user", "sdk", "system", "loop_wakeup", "schedule_wakeup", "poll_event")),
  session_title: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type UserPromptSubmitHookInput = typeof UserPromptSubmitHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const UserPromptExpansionHookInput = hookInput("UserPromptExpansion", {
  expansion_type: openLiteral("slash_command", "mcp_prompt"),
  command_name: Schema.String,
  command_args: Schema.String,
  command_source: optional(Schema.String),
  prompt: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type UserPromptExpansionHookInput = typeof UserPromptExpansionHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const SessionStartHookInput = hookInput("SessionStart", {
  source: openLiteral("startup", "resume", "clear", "compact", "fork"),
  model: optional(Schema.String),
  session_title: optional(Schema.String),
  seconds_since_last_response: optional(JsonNumber),
  context_tokens: optional(JsonNumber),
  prompt_cache_likely_expired: optional(Schema.Boolean),
  estimated_cache_write_usd: optional(JsonNumber)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SessionStartHookInput = typeof SessionStartHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const SessionEndHookInput = hookInput("SessionEnd", {
  reason: openLiteral("clear", "resume", "logout", "prompt_input_exit", "other")
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SessionEndHookInput = typeof SessionEndHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const StopHookInput = hookInput("Stop", {
  stop_hook_active: Schema.Boolean,
  last_assistant_message: optional(Schema.String),
  background_tasks: optional(Schema.Array(BackgroundTaskSummary)),
  session_crons: optional(Schema.Array(SessionCronSummary))
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type StopHookInput = typeof StopHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const StopFailureHookInput = hookInput("StopFailure", {
  error: Schema.String,
  error_details: optional(Schema.String),
  last_assistant_message: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type StopFailureHookInput = typeof StopFailureHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const SubagentStartHookInput = hookInput("SubagentStart", {
  agent_id: Schema.String,
  agent_type: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SubagentStartHookInput = typeof SubagentStartHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const SubagentStopHookInput = hookInput("SubagentStop", {
  stop_hook_active: Schema.Boolean,
  agent_id: Schema.String,
  agent_transcript_path: Schema.String,
  agent_type: Schema.String,
  last_assistant_message: optional(Schema.String),
  background_tasks: optional(Schema.Array(BackgroundTaskSummary)),
  session_crons: optional(Schema.Array(SessionCronSummary))
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SubagentStopHookInput = typeof SubagentStopHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PreCompactHookInput = hookInput("PreCompact", {
  trigger: openLiteral("manual", "auto"),
  custom_instructions: NullableString
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PreCompactHookInput = typeof PreCompactHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostCompactHookInput = hookInput("PostCompact", {
  trigger: openLiteral("manual", "auto"),
  compact_summary: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostCompactHookInput = typeof PostCompactHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PreModelSwitchHookInput = hookInput("PreModelSwitch", {
  ...modelSwitchFields,
  source: openLiteral("command", "picker", "sdk")
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PreModelSwitchHookInput = typeof PreModelSwitchHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PostModelSwitchHookInput = hookInput("PostModelSwitch", {
  ...modelSwitchFields,
  source: openLiteral("command", "picker", "sdk", "auto", "resume")
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PostModelSwitchHookInput = typeof PostModelSwitchHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PermissionRequestHookInput = hookInput("PermissionRequest", {
  ...toolFields,
  permission_suggestions: optional(Schema.Array(PermissionUpdate)),
  mcp_server: optional(McpServerProvenance)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PermissionRequestHookInput = typeof PermissionRequestHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const PermissionDeniedHookInput = hookInput("PermissionDenied", {
  ...toolFields,
  tool_use_id: Schema.String,
  reason: Schema.String,
  mcp_server: optional(McpServerProvenance)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type PermissionDeniedHookInput = typeof PermissionDeniedHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const SetupHookInput = hookInput("Setup", {
  trigger: openLiteral("init", "maintenance")
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type SetupHookInput = typeof SetupHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const TeammateIdleHookInput = hookInput("TeammateIdle", {
  teammate_name: Schema.String,
  team_name: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type TeammateIdleHookInput = typeof TeammateIdleHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const TaskCreatedHookInput = hookInput("TaskCreated", taskFields)

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type TaskCreatedHookInput = typeof TaskCreatedHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const TaskCompletedHookInput = hookInput("TaskCompleted", taskFields)

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type TaskCompletedHookInput = typeof TaskCompletedHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const ElicitationHookInput = hookInput("Elicitation", {
  mcp_server_name: Schema.String,
  message: Schema.String,
  mode: optional(elicitationMode),
  url: optional(Schema.String),
  elicitation_id: optional(Schema.String),
  requested_schema: optional(JsonObject)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type ElicitationHookInput = typeof ElicitationHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const ElicitationResultHookInput = hookInput("ElicitationResult", {
  mcp_server_name: Schema.String,
  elicitation_id: optional(Schema.String),
  mode: optional(elicitationMode),
  action: elicitationAction,
  content: optional(JsonObject)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type ElicitationResultHookInput = typeof ElicitationResultHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const ConfigChangeHookInput = hookInput("ConfigChange", {
  source: openLiteral("user_settings", "project_settings", "local_settings", "policy_settings", "skills"),
  file_path: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type ConfigChangeHookInput = typeof ConfigChangeHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const WorktreeCreateHookInput = hookInput("WorktreeCreate", {
  name: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type WorktreeCreateHookInput = typeof WorktreeCreateHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const WorktreeRemoveHookInput = hookInput("WorktreeRemove", {
  worktree_path: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type WorktreeRemoveHookInput = typeof WorktreeRemoveHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const InstructionsLoadedHookInput = hookInput("InstructionsLoaded", {
  file_path: Schema.String,
  memory_type: openLiteral("User", "Project", "Local", "Managed"),
  load_reason: openLiteral("session_start", "nested_traversal", "path_glob_match", "include", "compact"),
  globs: optional(Schema.Array(Schema.String)),
  trigger_file_path: optional(Schema.String),
  parent_file_path: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type InstructionsLoadedHookInput = typeof InstructionsLoadedHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const CwdChangedHookInput = hookInput("CwdChanged", {
  old_cwd: Schema.String,
  new_cwd: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type CwdChangedHookInput = typeof CwdChangedHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const FileChangedHookInput = hookInput("FileChanged", {
  file_path: Schema.String,
  event: openLiteral("change", "add", "unlink")
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type FileChangedHookInput = typeof FileChangedHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const DirectoryAddedHookInput = hookInput("DirectoryAdded", {
  directory: Schema.String,
  source: openLiteral("slash_command", "register_repo_root")
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type DirectoryAddedHookInput = typeof DirectoryAddedHookInput.Type

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export const MessageDisplayHookInput = hookInput("MessageDisplay", {
  turn_id: Schema.String,
  message_id: Schema.String,
  index: JsonNumber,
  final: Schema.Boolean,
  delta: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type MessageDisplayHookInput = typeof MessageDisplayHookInput.Type

/**
 * The input of an event this SDK does not know yet: the base fields and
 * everything else, kept.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const UnknownHookInput = openStruct({
  ...baseHookInputFields,
  hook_event_name: otherThan(hookEvents, "UnknownHookEvent")
})

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type UnknownHookInput = typeof UnknownHookInput.Type

/**
 * The input schema of each event, by name.
 *
 * @since 0.1.0
 * @category Hooks
 */
export const hookInputByEvent = {
  PreToolUse: PreToolUseHookInput,
  PostToolUse: PostToolUseHookInput,
  PostToolUseFailure: PostToolUseFailureHookInput,
  PostToolBatch: PostToolBatchHookInput,
  Notification: NotificationHookInput,
  UserPromptSubmit: UserPromptSubmitHookInput,
  UserPromptExpansion: UserPromptExpansionHookInput,
  SessionStart: SessionStartHookInput,
  SessionEnd: SessionEndHookInput,
  Stop: StopHookInput,
  StopFailure: StopFailureHookInput,
  SubagentStart: SubagentStartHookInput,
  SubagentStop: SubagentStopHookInput,
  PreCompact: PreCompactHookInput,
  PostCompact: PostCompactHookInput,
  PreModelSwitch: PreModelSwitchHookInput,
  PostModelSwitch: PostModelSwitchHookInput,
  PermissionRequest: PermissionRequestHookInput,
  PermissionDenied: PermissionDeniedHookInput,
  Setup: SetupHookInput,
  TeammateIdle: TeammateIdleHookInput,
  TaskCreated: TaskCreatedHookInput,
  TaskCompleted: TaskCompletedHookInput,
  Elicitation: ElicitationHookInput,
  ElicitationResult: ElicitationResultHookInput,
  ConfigChange: ConfigChangeHookInput,
  WorktreeCreate: WorktreeCreateHookInput,
  WorktreeRemove: WorktreeRemoveHookInput,
  InstructionsLoaded: InstructionsLoadedHookInput,
  CwdChanged: CwdChangedHookInput,
  FileChanged: FileChangedHookInput,
  DirectoryAdded: DirectoryAddedHookInput,
  MessageDisplay: MessageDisplayHookInput
} as const satisfies { readonly [Event in HookEvent]: Schema.Top }

/**
 * The input of a `hook_callback` request, discriminated by `hook_event_name`.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const HookInput = Schema.Union([
  PreToolUseHookInput,
  PostToolUseHookInput,
  PostToolUseFailureHookInput,
  PostToolBatchHookInput,
  NotificationHookInput,
  UserPromptSubmitHookInput,
  UserPromptExpansionHookInput,
  SessionStartHookInput,
  SessionEndHookInput,
  StopHookInput,
  StopFailureHookInput,
  SubagentStartHookInput,
  SubagentStopHookInput,
  PreCompactHookInput,
  PostCompactHookInput,
  PreModelSwitchHookInput,
  PostModelSwitchHookInput,
  PermissionRequestHookInput,
  PermissionDeniedHookInput,
  SetupHookInput,
  TeammateIdleHookInput,
  TaskCreatedHookInput,
  TaskCompletedHookInput,
  ElicitationHookInput,
  ElicitationResultHookInput,
  ConfigChangeHookInput,
  WorktreeCreateHookInput,
  WorktreeRemoveHookInput,
  InstructionsLoadedHookInput,
  CwdChangedHookInput,
  FileChangedHookInput,
  DirectoryAddedHookInput,
  MessageDisplayHookInput,
  UnknownHookInput
])

/**
 * @since 0.1.0
 * @category Hook inputs
 */
export type HookInput = typeof HookInput.Type

/**
 * The input of one event.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export type HookInputFor<E extends HookEvent> = Extract<HookInput, { readonly hook_event_name: E }>

// -----------------------------------------------------------------------------
// Outputs
// -----------------------------------------------------------------------------

const additionalContext = optional(Schema.String)

const specificOutput = <Event extends HookEvent, Fields extends Schema.Struct.Fields>(event: Event, fields: Fields) =>
  closedStruct({ hookEventName: Schema.Literal(event), ...fields })

/**
 * What a `PreToolUse` hook decides: `permissionDecision` skips (`allow`),
 * blocks (`deny`), asks the permission prompt (`ask`) or ends the turn with
 * the call deferred (`defer`).
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const HookPermissionDecision = Schema.Literals(["allow", "deny", "ask", "defer"])

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type HookPermissionDecision = typeof HookPermissionDecision.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PreToolUseHookSpecificOutput = specificOutput("PreToolUse", {
  permissionDecision: optional(HookPermissionDecision),
  permissionDecisionReason: optional(Schema.String),
  updatedInput: optional(JsonObject),
  additionalContext
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PreToolUseHookSpecificOutput = typeof PreToolUseHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const UserPromptSubmitHookSpecificOutput = specificOutput("UserPromptSubmit", {
  additionalContext,
  sessionTitle: optional(Schema.String),
  suppressOriginalPrompt: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type UserPromptSubmitHookSpecificOutput = typeof UserPromptSubmitHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const UserPromptExpansionHookSpecificOutput = specificOutput("UserPromptExpansion", {
  additionalContext,
  suppressOriginalPrompt: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type UserPromptExpansionHookSpecificOutput = typeof UserPromptExpansionHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const SessionStartHookSpecificOutput = specificOutput("SessionStart", {
  additionalContext,
  initialUserMessage: optional(Schema.String),
  sessionTitle: optional(Schema.String),
  watchPaths: optional(Schema.Array(Schema.String)),
  reloadSkills: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type SessionStartHookSpecificOutput = typeof SessionStartHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const SetupHookSpecificOutput = specificOutput("Setup", { additionalContext })

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type SetupHookSpecificOutput = typeof SetupHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PreModelSwitchHookSpecificOutput = specificOutput("PreModelSwitch", {
  permissionDecision: optional(Schema.Literals(["allow", "deny", "ask"])),
  permissionDecisionReason: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PreModelSwitchHookSpecificOutput = typeof PreModelSwitchHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PostModelSwitchHookSpecificOutput = specificOutput("PostModelSwitch", { additionalContext })

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PostModelSwitchHookSpecificOutput = typeof PostModelSwitchHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const SubagentStartHookSpecificOutput = specificOutput("SubagentStart", { additionalContext })

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type SubagentStartHookSpecificOutput = typeof SubagentStartHookSpecificOutput.Type

/**
 * `updatedMCPToolOutput` replaces the result of an MCP tool; `updatedToolOutput`
 * had no effect on built-in tools in 2.1.328.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const PostToolUseHookSpecificOutput = specificOutput("PostToolUse", {
  additionalContext,
  classifierContext: optional(Schema.String),
  updatedToolOutput: optional(Json),
  updatedMCPToolOutput: optional(Json)
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PostToolUseHookSpecificOutput = typeof PostToolUseHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PostToolUseFailureHookSpecificOutput = specificOutput("PostToolUseFailure", { additionalContext })

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PostToolUseFailureHookSpecificOutput = typeof PostToolUseFailureHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PostToolBatchHookSpecificOutput = specificOutput("PostToolBatch", { additionalContext })

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PostToolBatchHookSpecificOutput = typeof PostToolBatchHookSpecificOutput.Type

/**
 * Note: on `Stop`, `additionalContext` makes the agent continue (like a block).
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const StopHookSpecificOutput = specificOutput("Stop", { additionalContext })

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type StopHookSpecificOutput = typeof StopHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const SubagentStopHookSpecificOutput = specificOutput("SubagentStop", { additionalContext })

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type SubagentStopHookSpecificOutput = typeof SubagentStopHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PermissionDeniedHookSpecificOutput = specificOutput("PermissionDenied", {
  retry: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PermissionDeniedHookSpecificOutput = typeof PermissionDeniedHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const NotificationHookSpecificOutput = specificOutput("Notification", { additionalContext })

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type NotificationHookSpecificOutput = typeof NotificationHookSpecificOutput.Type

/**
 * Allow from a `PermissionRequest` hook, optionally with a rewritten input and
 * new rules.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const PermissionRequestAllowDecision = closedStruct({
  behavior: Schema.Literal("allow"),
  updatedInput: optional(JsonObject),
  updatedPermissions: optional(Schema.Array(PermissionUpdate))
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PermissionRequestAllowDecision = typeof PermissionRequestAllowDecision.Type

/**
 * Deny from a `PermissionRequest` hook.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const PermissionRequestDenyDecision = closedStruct({
  behavior: Schema.Literal("deny"),
  message: optional(Schema.String),
  interrupt: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PermissionRequestDenyDecision = typeof PermissionRequestDenyDecision.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PermissionRequestDecision = Schema.Union([PermissionRequestAllowDecision, PermissionRequestDenyDecision])

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PermissionRequestDecision = typeof PermissionRequestDecision.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const PermissionRequestHookSpecificOutput = specificOutput("PermissionRequest", {
  decision: PermissionRequestDecision
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type PermissionRequestHookSpecificOutput = typeof PermissionRequestHookSpecificOutput.Type

const elicitationOutputFields = {
  action: optional(Schema.Literals(["accept", "decline", "cancel"])),
  content: optional(JsonObject)
}

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const ElicitationHookSpecificOutput = specificOutput("Elicitation", elicitationOutputFields)

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type ElicitationHookSpecificOutput = typeof ElicitationHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const ElicitationResultHookSpecificOutput = specificOutput("ElicitationResult", elicitationOutputFields)

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type ElicitationResultHookSpecificOutput = typeof ElicitationResultHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const CwdChangedHookSpecificOutput = specificOutput("CwdChanged", {
  watchPaths: optional(Schema.Array(Schema.String))
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type CwdChangedHookSpecificOutput = typeof CwdChangedHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const FileChangedHookSpecificOutput = specificOutput("FileChanged", {
  watchPaths: optional(Schema.Array(Schema.String))
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type FileChangedHookSpecificOutput = typeof FileChangedHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const WorktreeCreateHookSpecificOutput = specificOutput("WorktreeCreate", {
  worktreePath: Schema.String
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type WorktreeCreateHookSpecificOutput = typeof WorktreeCreateHookSpecificOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const MessageDisplayHookSpecificOutput = specificOutput("MessageDisplay", {
  displayContent: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type MessageDisplayHookSpecificOutput = typeof MessageDisplayHookSpecificOutput.Type

/**
 * The event-specific part of a hook output. Its `hookEventName` must name the
 * event being answered: the CLI fails the tool call otherwise.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const HookSpecificOutput = Schema.Union([
  PreToolUseHookSpecificOutput,
  UserPromptSubmitHookSpecificOutput,
  UserPromptExpansionHookSpecificOutput,
  SessionStartHookSpecificOutput,
  SetupHookSpecificOutput,
  PreModelSwitchHookSpecificOutput,
  PostModelSwitchHookSpecificOutput,
  SubagentStartHookSpecificOutput,
  PostToolUseHookSpecificOutput,
  PostToolUseFailureHookSpecificOutput,
  PostToolBatchHookSpecificOutput,
  StopHookSpecificOutput,
  SubagentStopHookSpecificOutput,
  PermissionDeniedHookSpecificOutput,
  NotificationHookSpecificOutput,
  PermissionRequestHookSpecificOutput,
  ElicitationHookSpecificOutput,
  ElicitationResultHookSpecificOutput,
  CwdChangedHookSpecificOutput,
  FileChangedHookSpecificOutput,
  WorktreeCreateHookSpecificOutput,
  MessageDisplayHookSpecificOutput
])

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type HookSpecificOutput = typeof HookSpecificOutput.Type

/**
 * A hook's answer. `{}` means "no opinion". `continue: false` stops the turn
 * (the tool of a PreToolUse hook still runs); `decision: "block"` blocks.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const SyncHookOutput = closedStruct({
  continue: optional(Schema.Boolean),
  suppressOutput: optional(Schema.Boolean),
  stopReason: optional(Schema.String),
  decision: optional(Schema.Literals(["approve", "block"])),
  systemMessage: optional(Schema.String),
  terminalSequence: optional(Schema.String),
  reason: optional(Schema.String),
  hookSpecificOutput: optional(HookSpecificOutput)
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type SyncHookOutput = typeof SyncHookOutput.Type

/**
 * "Answering later": the CLI treats it as no opinion.
 *
 * @since 0.1.0
 * @category Hook outputs
 */
export const AsyncHookOutput = closedStruct({
  async: Schema.Literal(true),
  asyncTimeout: optional(JsonNumber)
})

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type AsyncHookOutput = typeof AsyncHookOutput.Type

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export const HookOutput = Schema.Union([AsyncHookOutput, SyncHookOutput])

/**
 * @since 0.1.0
 * @category Hook outputs
 */
export type HookOutput = typeof HookOutput.Type

/**
 * One matcher of the `hooks` map of `initialize`: which callbacks to call for
 * which tool names. `timeout` is in seconds (the CLI's default is 600);
 * `onFailure: "block"` makes an error reply block the action.
 *
 * @since 0.1.0
 * @category Hooks
 */
export const HookCallbackMatcher = closedStruct({
  matcher: optional(Schema.String),
  hookCallbackIds: Schema.Array(Schema.String),
  timeout: optional(JsonNumber),
  onFailure: optional(Schema.Literals(["continue", "block"]))
})

/**
 * @since 0.1.0
 * @category Hooks
 */
export type HookCallbackMatcher = typeof HookCallbackMatcher.Type
