/**
 * The SDK messages of the stream: what the CLI writes on stdout besides the
 * control traffic (`assistant`, `user` echoes, `result`, `system/*`,
 * `stream_event` and the other events), and the `user` message the SDK writes
 * on stdin.
 *
 * Everything the CLI writes is an open struct (unknown fields are kept).
 * Deep, open-ended payloads (tool inputs and results, raw stream events,
 * usage details) stay JSON so that decoding the hot path stays cheap.
 */
import * as Schema from "effect/Schema"
import {
  closedStruct,
  Json,
  JsonNumber,
  JsonObject,
  NullableNumber,
  NullableString,
  openLiteral,
  openStruct,
  optional,
  otherThan
} from "./json.js"
import { PermissionMode } from "./permissions.js"
import { SlashCommand } from "./responses.js"

// -----------------------------------------------------------------------------
// Content blocks
// -----------------------------------------------------------------------------

/**
 * The content block types with a schema of their own; any other type decodes
 * as {@link UnknownContentBlock}.
 */
export const contentBlockTypes = [
  "text",
  "thinking",
  "redacted_thinking",
  "tool_use",
  "server_tool_use",
  "tool_result",
  "image",
  "document"
] as const

/**
 * @since 0.1.0
 * @category Content
 */
export const TextBlock = openStruct({
  type: Schema.Literal("text"),
  text: Schema.String
})

/**
 * @since 0.1.0
 * @category Content
 */
export type TextBlock = typeof TextBlock.Type

/**
 * @since 0.1.0
 * @category Content
 */
export const ThinkingBlock = openStruct({
  type: Schema.Literal("thinking"),
  thinking: Schema.String,
  signature: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Content
 */
export type ThinkingBlock = typeof ThinkingBlock.Type

/**
 * @since 0.1.0
 * @category Content
 */
export const RedactedThinkingBlock = openStruct({
  type: Schema.Literal("redacted_thinking"),
  data: Schema.String
})

/**
 * @since 0.1.0
 * @category Content
 */
export type RedactedThinkingBlock = typeof RedactedThinkingBlock.Type

/**
 * @since 0.1.0
 * @category Content
 */
export const ToolUseBlock = openStruct({
  type: Schema.Literal("tool_use"),
  id: Schema.String,
  name: Schema.String,
  input: Json
})

/**
 * @since 0.1.0
 * @category Content
 */
export type ToolUseBlock = typeof ToolUseBlock.Type

/**
 * @since 0.1.0
 * @category Content
 */
export const ServerToolUseBlock = openStruct({
  type: Schema.Literal("server_tool_use"),
  id: Schema.String,
  name: Schema.String,
  input: Json
})

/**
 * @since 0.1.0
 * @category Content
 */
export type ServerToolUseBlock = typeof ServerToolUseBlock.Type

/**
 * @since 0.1.0
 * @category Content
 */
export const ToolResultBlock = openStruct({
  type: Schema.Literal("tool_result"),
  tool_use_id: Schema.String,
  // A string or blocks, per the API; but a PostToolUse `updatedMCPToolOutput`
  // is passed through as is (an object was seen on the wire).
  content: optional(Json),
  is_error: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Content
 */
export type ToolResultBlock = typeof ToolResultBlock.Type

/**
 * @since 0.1.0
 * @category Content
 */
export const ImageBlock = openStruct({
  type: Schema.Literal("image"),
  source: Json
})

/**
 * @since 0.1.0
 * @category Content
 */
export type ImageBlock = typeof ImageBlock.Type

/**
 * @since 0.1.0
 * @category Content
 */
export const DocumentBlock = openStruct({
  type: Schema.Literal("document"),
  source: Json
})

/**
 * @since 0.1.0
 * @category Content
 */
export type DocumentBlock = typeof DocumentBlock.Type

/**
 * A content block of a type without a schema here; kept whole.
 *
 * @since 0.1.0
 * @category Content
 */
export const UnknownContentBlock = openStruct({
  type: otherThan(contentBlockTypes, "UnknownContentBlockType")
})

/**
 * @since 0.1.0
 * @category Content
 */
export type UnknownContentBlock = typeof UnknownContentBlock.Type

/**
 * A block of message content.
 *
 * @since 0.1.0
 * @category Content
 */
export const ContentBlock = Schema.Union([
  TextBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ToolUseBlock,
  ServerToolUseBlock,
  ToolResultBlock,
  ImageBlock,
  DocumentBlock,
  UnknownContentBlock
])

/**
 * @since 0.1.0
 * @category Content
 */
export type ContentBlock = typeof ContentBlock.Type

const contentBlockInputTypes = ["text", "image", "document", "tool_result"] as const

/**
 * A content block of another type in a user message written by the SDK.
 *
 * @since 0.1.0
 * @category Content
 */
export const UnknownContentBlockInput = openStruct({
  type: otherThan(contentBlockInputTypes, "UnknownContentBlockInputType")
})

/**
 * @since 0.1.0
 * @category Content
 */
export type UnknownContentBlockInput = typeof UnknownContentBlockInput.Type

/**
 * A block of a user message written by the SDK (`text` and base64 `image`
 * were checked live).
 *
 * @since 0.1.0
 * @category Content
 */
export const ContentBlockInput = Schema.Union([
  TextBlock,
  ImageBlock,
  DocumentBlock,
  ToolResultBlock,
  UnknownContentBlockInput
])

/**
 * @since 0.1.0
 * @category Content
 */
export type ContentBlockInput = typeof ContentBlockInput.Type

// -----------------------------------------------------------------------------
// Shared parts
// -----------------------------------------------------------------------------

/**
 * Token usage. Only the totals are typed; the rest (cache details, server
 * tools, service tier, ...) is kept as is.
 *
 * @since 0.1.0
 * @category Messages
 */
export const Usage = openStruct({
  input_tokens: JsonNumber,
  output_tokens: JsonNumber,
  cache_creation_input_tokens: optional(NullableNumber),
  cache_read_input_tokens: optional(NullableNumber)
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type Usage = typeof Usage.Type

/**
 * Usage and cost of one model in a `result`.
 *
 * @since 0.1.0
 * @category Results
 */
export const ModelUsage = openStruct({
  inputTokens: JsonNumber,
  outputTokens: JsonNumber,
  cacheReadInputTokens: JsonNumber,
  cacheCreationInputTokens: JsonNumber,
  webSearchRequests: JsonNumber,
  costUSD: JsonNumber,
  contextWindow: JsonNumber,
  maxOutputTokens: JsonNumber,
  thinkingTokens: optional(JsonNumber)
})

/**
 * @since 0.1.0
 * @category Results
 */
export type ModelUsage = typeof ModelUsage.Type

/**
 * What started a turn (`task-notification` for the turn a background agent
 * starts by itself, ...).
 *
 * @since 0.1.0
 * @category Messages
 */
export const MessageOrigin = openStruct({
  kind: openLiteral(
    "human",
    "channel",
    "peer",
    "task-notification",
    "coordinator",
    "unclassified",
    "observer",
    "auto-continuation",
    "observer-activity"
  )
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type MessageOrigin = typeof MessageOrigin.Type

/**
 * A tool call that was denied during the turn.
 *
 * @since 0.1.0
 * @category Results
 */
export const PermissionDenial = openStruct({
  tool_name: Schema.String,
  tool_use_id: Schema.String,
  tool_input: Json
})

/**
 * @since 0.1.0
 * @category Results
 */
export type PermissionDenial = typeof PermissionDenial.Type

/**
 * The tool call a PreToolUse `defer` stopped the turn at.
 *
 * @since 0.1.0
 * @category Results
 */
export const DeferredToolUse = openStruct({
  id: Schema.String,
  name: Schema.String,
  input: JsonObject
})

/**
 * @since 0.1.0
 * @category Results
 */
export type DeferredToolUse = typeof DeferredToolUse.Type

const assistantErrors = openLiteral(
  "authentication_failed",
  "oauth_org_not_allowed",
  "account_on_hold",
  "verification_required",
  "billing_error",
  "rate_limit",
  "overloaded",
  "invalid_request",
  "model_not_found",
  "server_error",
  "unknown",
  "max_output_tokens",
  "cloud_credential_error"
)

const permissionMode = openLiteral(...PermissionMode.literals)

const fastModeState = openLiteral("off", "cooldown", "on")

const sdkMessageFields = {
  uuid: Schema.String,
  session_id: Schema.String
}

// -----------------------------------------------------------------------------
// assistant / user
// -----------------------------------------------------------------------------

/**
 * The API message inside an `assistant` line. The CLI writes one line per
 * content block; `stop_reason` is `null` and `usage` is not final there (the
 * final figures are on the `result`).
 *
 * @since 0.1.0
 * @category Messages
 */
export const AssistantMessageBody = openStruct({
  id: Schema.String,
  type: Schema.Literal("message"),
  role: Schema.Literal("assistant"),
  model: Schema.String,
  content: Schema.Array(ContentBlock),
  stop_reason: NullableString,
  stop_sequence: NullableString,
  usage: Usage
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type AssistantMessageBody = typeof AssistantMessageBody.Type

/**
 * A model response block (`model: "<synthetic>"` for API errors and local
 * command output).
 *
 * @since 0.1.0
 * @category Messages
 */
export const AssistantMessage = openStruct({
  type: Schema.Literal("assistant"),
  message: AssistantMessageBody,
  parent_tool_use_id: NullableString,
  ...sdkMessageFields,
  error: optional(assistantErrors),
  request_id: optional(Schema.String),
  timestamp: optional(Schema.String),
  user_message_uuid: optional(Schema.String),
  user_message_uuids: optional(Schema.Array(Schema.String)),
  aborted: optional(Schema.Boolean),
  agent_id: optional(Schema.String),
  subagent_type: optional(Schema.String),
  task_description: optional(Schema.String),
  is_api_error_message: optional(Schema.Boolean),
  api_error_status: optional(NullableNumber),
  api_error_type: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type AssistantMessage = typeof AssistantMessage.Type

/**
 * The API message inside a `user` line on stdout.
 *
 * @since 0.1.0
 * @category Messages
 */
export const UserMessageBody = openStruct({
  role: Schema.Literal("user"),
  content: Schema.Union([Schema.String, Schema.Array(ContentBlock)])
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type UserMessageBody = typeof UserMessageBody.Type

/**
 * A `user` line on stdout: a tool result (with the tool's structured output in
 * `tool_use_result`), a synthetic line (interrupts, Stop-hook feedback,
 * compaction summary), or a replay of a user message.
 *
 * @since 0.1.0
 * @category Messages
 */
export const UserMessage = openStruct({
  type: Schema.Literal("user"),
  message: UserMessageBody,
  parent_tool_use_id: NullableString,
  session_id: Schema.String,
  uuid: optional(Schema.String),
  timestamp: optional(Schema.String),
  tool_use_result: optional(Json),
  isSynthetic: optional(Schema.Boolean),
  isReplay: optional(Schema.Boolean),
  priority: optional(openLiteral("now", "next", "later")),
  origin: optional(MessageOrigin),
  shouldQuery: optional(Schema.Boolean),
  agent_id: optional(Schema.String),
  subagent_type: optional(Schema.String),
  task_description: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type UserMessage = typeof UserMessage.Type

// -----------------------------------------------------------------------------
// result
// -----------------------------------------------------------------------------

const resultFields = {
  type: Schema.Literal("result"),
  duration_ms: JsonNumber,
  duration_api_ms: JsonNumber,
  is_error: Schema.Boolean,
  num_turns: JsonNumber,
  stop_reason: NullableString,
  total_cost_usd: JsonNumber,
  usage: Usage,
  modelUsage: Schema.Record(Schema.String, ModelUsage),
  permission_denials: Schema.Array(PermissionDenial),
  ...sdkMessageFields,
  terminal_reason: optional(openLiteral(
    "blocking_limit",
    "rapid_refill_breaker",
    "prompt_too_long",
    "image_error",
    "model_error",
    "api_error",
    "malformed_tool_use_exhausted",
    "aborted_streaming",
    "aborted_tools",
    "stop_hook_prevented",
    "hook_stopped",
    "tool_deferred",
    "max_turns",
    "background_requested",
    "completed",
    "budget_exhausted",
    "structured_output_retry_exhausted",
    "tool_deferred_unavailable",
    "turn_setup_failed"
  )),
  result_index: optional(JsonNumber),
  queued_turn_count: optional(JsonNumber),
  api_error_status: optional(NullableNumber),
  fast_mode_state: optional(fastModeState),
  fast_mode_disabled_reason: optional(NullableString),
  origin: optional(MessageOrigin),
  user_message_uuid: optional(Schema.String),
  user_message_uuids: optional(Schema.Array(Schema.String))
}

/**
 * The end of a turn that ran to completion. API failures also arrive here,
 * with `is_error: true`: branch on `is_error`, not on `subtype`.
 *
 * @since 0.1.0
 * @category Results
 */
export const ResultSuccess = openStruct({
  ...resultFields,
  subtype: Schema.Literal("success"),
  result: Schema.String,
  structured_output: optional(Json),
  deferred_tool_use: optional(DeferredToolUse),
  local_command: optional(Schema.String),
  ttft_ms: optional(JsonNumber)
})

/**
 * @since 0.1.0
 * @category Results
 */
export type ResultSuccess = typeof ResultSuccess.Type

/**
 * The error subtypes of `result` known to the pinned CLI.
 */
export const resultErrorSubtypes = [
  "error_during_execution",
  "error_max_turns",
  "error_max_budget_usd",
  "error_max_structured_output_retries"
] as const

/**
 * The subtype of an error `result`: one of the known error subtypes, or any
 * other string but `"success"` (a future error subtype still decodes).
 *
 * @since 0.1.0
 * @category Results
 */
export const ResultErrorSubtype = Schema.Union([
  Schema.Literals(resultErrorSubtypes),
  otherThan([...resultErrorSubtypes, "success"], "UnknownResultErrorSubtype")
])

/**
 * @since 0.1.0
 * @category Results
 */
export type ResultErrorSubtype = typeof ResultErrorSubtype.Type

/**
 * The end of a turn that stopped on an error (interrupt, max turns, budget,
 * structured output retries). It has `errors` and no `result`.
 *
 * @since 0.1.0
 * @category Results
 */
export const ResultErrorMessage = openStruct({
  ...resultFields,
  subtype: ResultErrorSubtype,
  errors: Schema.Array(Schema.String)
})

/**
 * @since 0.1.0
 * @category Results
 */
export type ResultErrorMessage = typeof ResultErrorMessage.Type

/**
 * The end of a turn. One user message can produce several (background agents
 * start turns of their own).
 *
 * @since 0.1.0
 * @category Results
 */
export const ResultMessage = Schema.Union([ResultSuccess, ResultErrorMessage])

/**
 * @since 0.1.0
 * @category Results
 */
export type ResultMessage = typeof ResultMessage.Type

// -----------------------------------------------------------------------------
// stream_event
// -----------------------------------------------------------------------------

/**
 * A raw Anthropic streaming event (`message_start`, `content_block_delta`,
 * ...). Only `type` is checked; the rest is the API's.
 *
 * @since 0.1.0
 * @category Messages
 */
export const ApiStreamEvent = openStruct({
  type: Schema.String
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type ApiStreamEvent = typeof ApiStreamEvent.Type

/**
 * A partial-message event (only with `--include-partial-messages`).
 *
 * @since 0.1.0
 * @category Messages
 */
export const StreamEvent = openStruct({
  type: Schema.Literal("stream_event"),
  event: ApiStreamEvent,
  parent_tool_use_id: NullableString,
  ...sdkMessageFields,
  api_message_id: optional(Schema.String),
  ttft_ms: optional(JsonNumber)
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type StreamEvent = typeof StreamEvent.Type

// -----------------------------------------------------------------------------
// system
// -----------------------------------------------------------------------------

const system = <Subtype extends string, Fields extends Schema.Struct.Fields>(subtype: Subtype, fields: Fields) =>
  openStruct({
    type: Schema.Literal("system"),
    subtype: Schema.Literal(subtype),
    ...sdkMessageFields,
    ...fields
  })

/**
 * A connected MCP server as listed in `system/init`.
 *
 * @since 0.1.0
 * @category System messages
 */
export const McpServerSummary = openStruct({
  name: Schema.String,
  status: openLiteral("connected", "failed", "needs-auth", "pending", "disabled"),
  source: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type McpServerSummary = typeof McpServerSummary.Type

/**
 * A plugin as listed in `system/init`.
 *
 * @since 0.1.0
 * @category System messages
 */
export const PluginSummary = openStruct({
  name: Schema.String,
  path: Schema.String,
  version: optional(Schema.String),
  source: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type PluginSummary = typeof PluginSummary.Type

/**
 * The start of every turn (not once per process): tools, model, permission
 * mode and the rest of the session's current configuration.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemInit = system("init", {
  apiKeySource: Schema.String,
  claude_code_version: Schema.String,
  cwd: Schema.String,
  tools: Schema.Array(Schema.String),
  mcp_servers: Schema.Array(McpServerSummary),
  model: Schema.String,
  permissionMode,
  slash_commands: Schema.Array(Schema.String),
  output_style: Schema.String,
  skills: Schema.Array(Schema.String),
  plugins: Schema.Array(PluginSummary),
  agents: optional(Schema.Array(Schema.String)),
  betas: optional(Schema.Array(Schema.String)),
  terminal_slash_commands: optional(Schema.Array(Schema.String)),
  capabilities: optional(Schema.Array(Schema.String)),
  fast_mode_state: optional(fastModeState),
  fast_mode_disabled_reason: optional(NullableString),
  effort: optional(Schema.NullOr(openLiteral("low", "medium", "high", "xhigh", "max"))),
  user_message_uuids: optional(Schema.Array(Schema.String)),
  original_cwd: optional(Schema.String),
  additional_directories: optional(Schema.Array(Schema.String))
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemInit = typeof SystemInit.Type

/**
 * A status change: `requesting` (partial-message mode), `compacting`, or
 * `null` with the new `permissionMode`.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemStatus = system("status", {
  status: Schema.NullOr(openLiteral("compacting", "requesting")),
  permissionMode: optional(permissionMode),
  compact_result: optional(openLiteral("success", "failed")),
  compact_error: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemStatus = typeof SystemStatus.Type

/**
 * The boundary a compaction leaves in the conversation.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemCompactBoundary = system("compact_boundary", {
  compact_metadata: openStruct({
    trigger: openLiteral("manual", "auto"),
    pre_tokens: JsonNumber,
    post_tokens: optional(JsonNumber),
    duration_ms: optional(JsonNumber)
  }),
  logical_parent_uuid: optional(NullableString)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemCompactBoundary = typeof SystemCompactBoundary.Type

/**
 * An API request failed and will be retried.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemApiRetry = system("api_retry", {
  attempt: JsonNumber,
  max_retries: JsonNumber,
  retry_delay_ms: JsonNumber,
  error_status: NullableNumber,
  error: assistantErrors
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemApiRetry = typeof SystemApiRetry.Type

/**
 * A notice for the user (hook `systemMessage`, hook failures, a blocked
 * prompt, ...).
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemInformational = system("informational", {
  content: Schema.String,
  level: openLiteral("info", "notice", "suggestion", "warning"),
  tool_use_id: optional(Schema.String),
  prevent_continuation: optional(Schema.Boolean),
  tag: optional(Schema.String),
  prompt_submit_outcome: optional(Json)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemInformational = typeof SystemInformational.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemNotification = system("notification", {
  key: Schema.String,
  text: Schema.String,
  priority: openLiteral("low", "medium", "high", "immediate"),
  color: optional(Schema.String),
  timeout_ms: optional(JsonNumber)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemNotification = typeof SystemNotification.Type

/**
 * A tool call denied without asking (mode, missing prompt tool, ...).
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemPermissionDenied = system("permission_denied", {
  tool_name: Schema.String,
  tool_use_id: Schema.String,
  message: Schema.String,
  agent_id: optional(Schema.String),
  decision_reason_type: optional(Schema.String),
  decision_reason: optional(Schema.String),
  decision_reason_code: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemPermissionDenied = typeof SystemPermissionDenied.Type

const hookRunFields = {
  hook_id: Schema.String,
  hook_name: Schema.String,
  hook_event: Schema.String
}

/**
 * A settings-file command hook started (only with `--include-hook-events`;
 * never for SDK callback hooks).
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemHookStarted = system("hook_started", hookRunFields)

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemHookStarted = typeof SystemHookStarted.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemHookProgress = system("hook_progress", {
  ...hookRunFields,
  stdout: Schema.String,
  stderr: Schema.String,
  output: Schema.String
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemHookProgress = typeof SystemHookProgress.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemHookResponse = system("hook_response", {
  ...hookRunFields,
  output: Schema.String,
  stdout: Schema.String,
  stderr: Schema.String,
  exit_code: optional(JsonNumber),
  outcome: openLiteral("success", "error", "cancelled")
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemHookResponse = typeof SystemHookResponse.Type

/**
 * Tokens, tool uses and time a task has used.
 *
 * @since 0.1.0
 * @category System messages
 */
export const TaskUsage = openStruct({
  total_tokens: JsonNumber,
  tool_uses: JsonNumber,
  duration_ms: JsonNumber
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type TaskUsage = typeof TaskUsage.Type

/**
 * A task (subagent, long-running Bash) started.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemTaskStarted = system("task_started", {
  task_id: Schema.String,
  description: Schema.String,
  run_id: optional(Schema.String),
  tool_use_id: optional(Schema.String),
  subagent_type: optional(Schema.String),
  is_backgrounded: optional(Schema.Boolean),
  spawn_depth: optional(JsonNumber),
  parent_task_id: optional(Schema.String),
  task_type: optional(Schema.String),
  prompt: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemTaskStarted = typeof SystemTaskStarted.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemTaskProgress = system("task_progress", {
  task_id: Schema.String,
  description: Schema.String,
  usage: TaskUsage,
  run_id: optional(Schema.String),
  tool_use_id: optional(Schema.String),
  subagent_type: optional(Schema.String),
  last_tool_name: optional(Schema.String),
  summary: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemTaskProgress = typeof SystemTaskProgress.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemTaskUpdated = system("task_updated", {
  task_id: Schema.String,
  patch: openStruct({
    status: optional(openLiteral("pending", "running", "completed", "failed", "killed", "paused")),
    description: optional(Schema.String),
    end_time: optional(JsonNumber),
    error: optional(Schema.String),
    is_backgrounded: optional(Schema.Boolean)
  }),
  run_id: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemTaskUpdated = typeof SystemTaskUpdated.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemTaskNotification = system("task_notification", {
  task_id: Schema.String,
  status: openLiteral("completed", "failed", "stopped"),
  output_file: Schema.String,
  summary: Schema.String,
  run_id: optional(Schema.String),
  tool_use_id: optional(Schema.String),
  usage: optional(TaskUsage)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemTaskNotification = typeof SystemTaskNotification.Type

/**
 * A background task in `system/background_tasks_changed`.
 *
 * @since 0.1.0
 * @category System messages
 */
export const BackgroundTask = openStruct({
  task_id: Schema.String,
  task_type: Schema.String,
  description: Schema.String,
  run_id: optional(Schema.String),
  subagent_type: optional(Schema.String),
  parent_task_id: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type BackgroundTask = typeof BackgroundTask.Type

/**
 * The set of background tasks changed (the list replaces the previous one).
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemBackgroundTasksChanged = system("background_tasks_changed", {
  tasks: Schema.Array(BackgroundTask)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemBackgroundTasksChanged = typeof SystemBackgroundTasksChanged.Type

/**
 * Only with `CLAUDE_CODE_SDK_READS_SESSION_STATE=1`; `idle` comes after the
 * `result`.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemSessionStateChanged = system("session_state_changed", {
  state: openLiteral("idle", "running", "requires_action")
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemSessionStateChanged = typeof SystemSessionStateChanged.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemSessionTitleChanged = system("session_title_changed", {
  title: Schema.String
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemSessionTitleChanged = typeof SystemSessionTitleChanged.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemThinkingTokens = system("thinking_tokens", {
  estimated_tokens: JsonNumber,
  estimated_tokens_delta: JsonNumber
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemThinkingTokens = typeof SystemThinkingTokens.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemLocalCommandOutput = system("local_command_output", {
  content: Schema.String
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemLocalCommandOutput = typeof SystemLocalCommandOutput.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemFilesPersisted = system("files_persisted", {
  files: Schema.Array(openStruct({ filename: Schema.String, file_id: Schema.String })),
  failed: Schema.Array(openStruct({ filename: Schema.String, error: Schema.String })),
  processed_at: Schema.String
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemFilesPersisted = typeof SystemFilesPersisted.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemElicitationComplete = system("elicitation_complete", {
  mcp_server_name: Schema.String,
  elicitation_id: Schema.String
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemElicitationComplete = typeof SystemElicitationComplete.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemCommandsChanged = system("commands_changed", {
  commands: Schema.Array(SlashCommand)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemCommandsChanged = typeof SystemCommandsChanged.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemControlRequestProgress = system("control_request_progress", {
  request_id: Schema.String,
  status: openLiteral("started", "api_retry"),
  attempt: optional(JsonNumber),
  max_retries: optional(JsonNumber),
  retry_delay_ms: optional(JsonNumber),
  error_status: optional(NullableNumber)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemControlRequestProgress = typeof SystemControlRequestProgress.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemMemoryRecall = system("memory_recall", {
  mode: openLiteral("select", "synthesize"),
  memories: Schema.Array(openStruct({
    path: Schema.String,
    scope: openLiteral("personal", "team", "organization"),
    content: optional(Schema.String)
  }))
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemMemoryRecall = typeof SystemMemoryRecall.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemMirrorError = system("mirror_error", {
  error: Schema.String,
  key: openStruct({
    projectKey: Schema.String,
    sessionId: Schema.String,
    subpath: optional(Schema.String)
  })
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemMirrorError = typeof SystemMirrorError.Type

const refusalFields = {
  original_model: Schema.String,
  request_id: NullableString,
  content: Schema.String,
  api_refusal_category: optional(NullableString),
  api_refusal_explanation: optional(NullableString),
  refused_user_message_uuid: optional(NullableString)
}

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemModelRefusalFallback = system("model_refusal_fallback", {
  ...refusalFields,
  trigger: openLiteral("refusal"),
  direction: openLiteral("retry", "revert", "sticky"),
  fallback_model: Schema.String,
  scope: optional(openLiteral("session", "local")),
  retracted_message_uuids: optional(Schema.Array(Schema.String))
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemModelRefusalFallback = typeof SystemModelRefusalFallback.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemModelRefusalNoFallback = system("model_refusal_no_fallback", refusalFields)

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemModelRefusalNoFallback = typeof SystemModelRefusalNoFallback.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemPluginInstall = system("plugin_install", {
  status: openLiteral("started", "installed", "failed", "completed"),
  name: optional(Schema.String),
  error: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemPluginInstall = typeof SystemPluginInstall.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemSessionWritesLost = system("session_writes_lost", {
  error_code: openLiteral("ENOSPC", "EDQUOT"),
  lost: Schema.Array(Schema.String),
  transcript_session_ids: optional(Schema.Array(Schema.String))
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemSessionWritesLost = typeof SystemSessionWritesLost.Type

/**
 * @since 0.1.0
 * @category System messages
 */
export const SystemWorkerShuttingDown = system("worker_shutting_down", {
  reason: Schema.String
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemWorkerShuttingDown = typeof SystemWorkerShuttingDown.Type

/**
 * The `system` subtypes with a schema of their own, each to its schema.
 */
export const systemMessageBySubtype = {
  init: SystemInit,
  status: SystemStatus,
  compact_boundary: SystemCompactBoundary,
  api_retry: SystemApiRetry,
  informational: SystemInformational,
  notification: SystemNotification,
  permission_denied: SystemPermissionDenied,
  hook_started: SystemHookStarted,
  hook_progress: SystemHookProgress,
  hook_response: SystemHookResponse,
  task_started: SystemTaskStarted,
  task_progress: SystemTaskProgress,
  task_updated: SystemTaskUpdated,
  task_notification: SystemTaskNotification,
  background_tasks_changed: SystemBackgroundTasksChanged,
  session_state_changed: SystemSessionStateChanged,
  session_title_changed: SystemSessionTitleChanged,
  thinking_tokens: SystemThinkingTokens,
  local_command_output: SystemLocalCommandOutput,
  files_persisted: SystemFilesPersisted,
  elicitation_complete: SystemElicitationComplete,
  commands_changed: SystemCommandsChanged,
  control_request_progress: SystemControlRequestProgress,
  memory_recall: SystemMemoryRecall,
  mirror_error: SystemMirrorError,
  model_refusal_fallback: SystemModelRefusalFallback,
  model_refusal_no_fallback: SystemModelRefusalNoFallback,
  plugin_install: SystemPluginInstall,
  session_writes_lost: SystemSessionWritesLost,
  worker_shutting_down: SystemWorkerShuttingDown
} as const

/**
 * A `system` message of a subtype without a schema here (the CLI has dozens
 * of internal ones); kept whole.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemOther = openStruct({
  type: Schema.Literal("system"),
  subtype: otherThan(Object.keys(systemMessageBySubtype), "UnknownSystemSubtype"),
  uuid: optional(Schema.String),
  session_id: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemOther = typeof SystemOther.Type

/**
 * Any `system` message.
 *
 * @since 0.1.0
 * @category System messages
 */
export const SystemMessage = Schema.Union([
  SystemInit,
  SystemStatus,
  SystemCompactBoundary,
  SystemApiRetry,
  SystemInformational,
  SystemNotification,
  SystemPermissionDenied,
  SystemHookStarted,
  SystemHookProgress,
  SystemHookResponse,
  SystemTaskStarted,
  SystemTaskProgress,
  SystemTaskUpdated,
  SystemTaskNotification,
  SystemBackgroundTasksChanged,
  SystemSessionStateChanged,
  SystemSessionTitleChanged,
  SystemThinkingTokens,
  SystemLocalCommandOutput,
  SystemFilesPersisted,
  SystemElicitationComplete,
  SystemCommandsChanged,
  SystemControlRequestProgress,
  SystemMemoryRecall,
  SystemMirrorError,
  SystemModelRefusalFallback,
  SystemModelRefusalNoFallback,
  SystemPluginInstall,
  SystemSessionWritesLost,
  SystemWorkerShuttingDown,
  SystemOther
])

/**
 * @since 0.1.0
 * @category System messages
 */
export type SystemMessage = typeof SystemMessage.Type

// -----------------------------------------------------------------------------
// Other events
// -----------------------------------------------------------------------------

/**
 * A heartbeat every 30 s while a tool runs (`tool_use_id` is
 * `<id>-heartbeat-N`, `parent_tool_use_id` the real id).
 *
 * @since 0.1.0
 * @category Messages
 */
export const ToolProgressMessage = openStruct({
  type: Schema.Literal("tool_progress"),
  tool_use_id: Schema.String,
  tool_name: Schema.String,
  parent_tool_use_id: NullableString,
  elapsed_time_seconds: JsonNumber,
  ...sdkMessageFields,
  task_id: optional(Schema.String),
  heartbeat: optional(Schema.Boolean),
  subagent_type: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type ToolProgressMessage = typeof ToolProgressMessage.Type

/**
 * @since 0.1.0
 * @category Messages
 */
export const ToolUseSummaryMessage = openStruct({
  type: Schema.Literal("tool_use_summary"),
  summary: Schema.String,
  preceding_tool_use_ids: Schema.Array(Schema.String),
  ...sdkMessageFields
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type ToolUseSummaryMessage = typeof ToolUseSummaryMessage.Type

/**
 * @since 0.1.0
 * @category Messages
 */
export const AuthStatusMessage = openStruct({
  type: Schema.Literal("auth_status"),
  isAuthenticating: Schema.Boolean,
  output: Schema.Array(Schema.String),
  error: optional(Schema.String),
  ...sdkMessageFields
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type AuthStatusMessage = typeof AuthStatusMessage.Type

/**
 * @since 0.1.0
 * @category Messages
 */
export const RateLimitInfo = openStruct({
  status: openLiteral("allowed", "allowed_warning", "rejected"),
  resetsAt: optional(JsonNumber),
  rateLimitType: optional(Schema.String),
  utilization: optional(JsonNumber)
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type RateLimitInfo = typeof RateLimitInfo.Type

/**
 * @since 0.1.0
 * @category Messages
 */
export const RateLimitEvent = openStruct({
  type: Schema.Literal("rate_limit_event"),
  rate_limit_info: RateLimitInfo,
  ...sdkMessageFields
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type RateLimitEvent = typeof RateLimitEvent.Type

/**
 * @since 0.1.0
 * @category Messages
 */
export const PromptSuggestionMessage = openStruct({
  type: Schema.Literal("prompt_suggestion"),
  suggestion: Schema.String,
  ...sdkMessageFields
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type PromptSuggestionMessage = typeof PromptSuggestionMessage.Type

/**
 * The lifecycle of a user message that carried a `uuid`: `queued` →
 * `started` → `completed` / `cancelled` (`completed` comes after the result).
 *
 * @since 0.1.0
 * @category Messages
 */
export const CommandLifecycleMessage = openStruct({
  type: Schema.Literal("command_lifecycle"),
  command_uuid: Schema.String,
  state: openLiteral("queued", "started", "completed", "cancelled"),
  ...sdkMessageFields
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type CommandLifecycleMessage = typeof CommandLifecycleMessage.Type

/**
 * @since 0.1.0
 * @category Messages
 */
export const ActiveGoalMessage = openStruct({
  type: Schema.Literal("active_goal"),
  value: Schema.NullOr(openStruct({
    condition: Schema.String,
    iterations: JsonNumber,
    set_at: JsonNumber,
    tokens_at_start: JsonNumber,
    last_reason: optional(Schema.String)
  })),
  ...sdkMessageFields
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type ActiveGoalMessage = typeof ActiveGoalMessage.Type

/**
 * @since 0.1.0
 * @category Messages
 */
export const ConversationResetMessage = openStruct({
  type: Schema.Literal("conversation_reset"),
  new_conversation_id: Schema.String,
  ...sdkMessageFields,
  trigger: optional(openLiteral("clear", "plan_mode_exit", "fresh_session", "onboarding")),
  user_message_uuid: optional(Schema.String),
  timestamp: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type ConversationResetMessage = typeof ConversationResetMessage.Type

/**
 * A keep-alive, accepted in both directions.
 *
 * @since 0.1.0
 * @category Messages
 */
export const KeepAlive = openStruct({
  type: Schema.Literal("keep_alive")
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type KeepAlive = typeof KeepAlive.Type

/**
 * Every top-level `type` the CLI writes that has a schema of its own
 * (including the control traffic, defined beside the control requests).
 */
export const knownStdoutTypes = [
  "assistant",
  "user",
  "result",
  "system",
  "stream_event",
  "tool_progress",
  "tool_use_summary",
  "auth_status",
  "rate_limit_event",
  "prompt_suggestion",
  "command_lifecycle",
  "active_goal",
  "conversation_reset",
  "keep_alive",
  "control_request",
  "control_response",
  "control_cancel_request"
] as const

/**
 * A line of a type this SDK does not know yet: its `type` and every other
 * field, kept as the CLI wrote them.
 *
 * @since 0.1.0
 * @category Messages
 */
export const UnknownMessage = openStruct({
  type: otherThan(knownStdoutTypes, "UnknownMessageType")
})

/**
 * @since 0.1.0
 * @category Messages
 */
export type UnknownMessage = typeof UnknownMessage.Type

// -----------------------------------------------------------------------------
// stdin: user
// -----------------------------------------------------------------------------

/**
 * The API message of a user message the SDK writes. `role` must be `"user"`:
 * anything else (or no `message` at all) makes the CLI exit.
 *
 * @since 0.1.0
 * @category Stdin messages
 */
export const UserInputBody = closedStruct({
  role: Schema.Literal("user"),
  content: Schema.Union([Schema.String, Schema.Array(ContentBlockInput)])
})

/**
 * @since 0.1.0
 * @category Stdin messages
 */
export type UserInputBody = typeof UserInputBody.Type

/**
 * A user message on stdin. `session_id` may be `""` (the CLI uses its own).
 * A `uuid` turns on `command_lifecycle` messages and is the id `rewind_files`
 * takes; `shouldQuery: false` adds the message to the history without calling
 * the model. `client_composed: true` delivers the text as written: no `@path`
 * expansion, no slash command, no turn-start attachments (the
 * `verbatimPrompts` option sets it on every message).
 *
 * @since 0.1.0
 * @category Stdin messages
 */
export const UserInput = closedStruct({
  type: Schema.Literal("user"),
  message: UserInputBody,
  parent_tool_use_id: NullableString,
  session_id: Schema.String,
  uuid: optional(Schema.String),
  priority: optional(Schema.Literals(["now", "next", "later"])),
  shouldQuery: optional(Schema.Boolean),
  isSynthetic: optional(Schema.Boolean),
  client_composed: optional(Schema.Literal(true))
})

/**
 * @since 0.1.0
 * @category Stdin messages
 */
export type UserInput = typeof UserInput.Type
