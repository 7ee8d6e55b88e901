/**
 * The control channel: requests in both directions, their responses, and
 * cancellations.
 *
 * CLI → SDK requests (`hook_callback`, `can_use_tool`, `mcp_message`, ...)
 * are open structs; SDK → CLI requests are closed structs that keep unknown
 * keys, except `initialize`, which gains fields every release and stays open.
 */
import * as Schema from "effect/Schema"
import { HookCallbackMatcher, HookInput } from "./hooks.js"
import {
  closedStruct,
  Json,
  JsonNumber,
  JsonObject,
  NullableNumber,
  openLiteral,
  openStruct,
  optional,
  otherThan
} from "./json.js"
import { McpServerProvenance, PermissionMode, PermissionUpdate } from "./permissions.js"

// -----------------------------------------------------------------------------
// CLI → SDK
// -----------------------------------------------------------------------------

/**
 * Run the SDK hook `callback_id` on `input`. For tool events `tool_use_id` is
 * the tool's id; for other events a fresh UUID.
 */
export const HookCallbackRequest = openStruct({
  subtype: Schema.Literal("hook_callback"),
  callback_id: Schema.String,
  input: HookInput,
  tool_use_id: optional(Schema.String)
})

export type HookCallbackRequest = typeof HookCallbackRequest.Type

/**
 * Ask whether a tool may run (only with `--permission-prompt-tool stdio`).
 * The CLI waits for the answer without any timeout.
 */
export const CanUseToolRequest = openStruct({
  subtype: Schema.Literal("can_use_tool"),
  tool_name: Schema.String,
  input: JsonObject,
  tool_use_id: Schema.String,
  display_name: optional(Schema.String),
  description: optional(Schema.String),
  title: optional(Schema.String),
  permission_suggestions: optional(Schema.Array(PermissionUpdate)),
  blocked_path: optional(Schema.String),
  decision_reason: optional(Schema.String),
  decision_reason_type: optional(Schema.String),
  decision_reason_hook_event: optional(Schema.String),
  decision_reason_hook_source: optional(Schema.String),
  agent_id: optional(Schema.String),
  mcp_server: optional(McpServerProvenance),
  server_policy_ask_only: optional(Schema.Boolean),
  requires_user_interaction: optional(Schema.Boolean),
  classifier_approvable: optional(Schema.Boolean),
  suppress_always_allow_rule: optional(Schema.Boolean),
  default_to_no: optional(Schema.Boolean),
  matched_ask_rule: optional(openStruct({
    source: Schema.String,
    tool_name: Schema.String,
    rule_content: optional(Schema.String)
  }))
})

export type CanUseToolRequest = typeof CanUseToolRequest.Type

/**
 * A JSON-RPC message for an SDK-hosted MCP server. Reply with
 * `{ mcp_response: <JSON-RPC response> }`.
 */
export const McpMessageRequest = openStruct({
  subtype: Schema.Literal("mcp_message"),
  server_name: Schema.String,
  message: Json
})

export type McpMessageRequest = typeof McpMessageRequest.Type

/**
 * An MCP server asks the user for input.
 */
export const ElicitationRequest = openStruct({
  subtype: Schema.Literal("elicitation"),
  mcp_server_name: Schema.String,
  message: Schema.String,
  mode: optional(openLiteral("form", "url")),
  url: optional(Schema.String),
  elicitation_id: optional(Schema.String),
  requested_schema: optional(JsonObject),
  property_order: optional(Schema.Array(Schema.String)),
  title: optional(Schema.String),
  display_name: optional(Schema.String),
  description: optional(Schema.String)
})

export type ElicitationRequest = typeof ElicitationRequest.Type

/**
 * The CLI asks the host to show a dialog of some kind.
 */
export const UserDialogRequest = openStruct({
  subtype: Schema.Literal("request_user_dialog"),
  dialog_kind: Schema.String,
  payload: JsonObject,
  tool_use_id: optional(Schema.String)
})

export type UserDialogRequest = typeof UserDialogRequest.Type

/**
 * The CLI → SDK request subtypes with a schema of their own.
 */
export const inboundRequestSubtypes = [
  "hook_callback",
  "can_use_tool",
  "mcp_message",
  "elicitation",
  "request_user_dialog"
] as const

/**
 * A request of a subtype this SDK does not know: answer it with an error, the
 * session keeps running.
 */
export const UnknownControlRequest = openStruct({
  subtype: otherThan(inboundRequestSubtypes, "UnknownControlRequestSubtype")
})

export type UnknownControlRequest = typeof UnknownControlRequest.Type

/**
 * What the CLI can ask the SDK.
 */
export const InboundControlRequest = Schema.Union(
  HookCallbackRequest,
  CanUseToolRequest,
  McpMessageRequest,
  ElicitationRequest,
  UserDialogRequest,
  UnknownControlRequest
)

export type InboundControlRequest = typeof InboundControlRequest.Type

/**
 * A request from the CLI. Answer with a {@link ControlResponse} carrying the
 * same `request_id`, and keep reading stdout meanwhile.
 */
export const ControlRequest = openStruct({
  type: Schema.Literal("control_request"),
  request_id: Schema.String,
  request: InboundControlRequest
})

export type ControlRequest = typeof ControlRequest.Type

/**
 * The sender stopped waiting for the answer to one of its own requests (the
 * CLI sends it on interrupt, hook timeout, or when a `PermissionRequest` hook
 * decided first). A reply sent afterwards is ignored.
 */
export const ControlCancelRequest = openStruct({
  type: Schema.Literal("control_cancel_request"),
  request_id: Schema.String
})

export type ControlCancelRequest = typeof ControlCancelRequest.Type

// -----------------------------------------------------------------------------
// Responses (both directions)
// -----------------------------------------------------------------------------

/**
 * A successful reply. The CLI leaves out `response` for some subtypes, and
 * leaves out `request_id` when the request had none.
 */
export const ControlSuccess = openStruct({
  subtype: Schema.Literal("success"),
  request_id: optional(Schema.String),
  response: optional(JsonObject)
})

export type ControlSuccess = typeof ControlSuccess.Type

/**
 * An error reply. The CLI may add `error_code` (`unsupported_request`,
 * `invalid_mode`, `bypass_not_launched`).
 */
export const ControlFailure = openStruct({
  subtype: Schema.Literal("error"),
  request_id: optional(Schema.String),
  error: Schema.String,
  error_code: optional(Schema.String)
})

export type ControlFailure = typeof ControlFailure.Type

/**
 * A reply to a control request, in either direction. The CLI's reply to
 * `initialize` carries more envelope fields (`pending_permission_requests`,
 * ...), which are kept.
 */
export const ControlResponse = openStruct({
  type: Schema.Literal("control_response"),
  response: Schema.Union(ControlSuccess, ControlFailure)
})

export type ControlResponse = typeof ControlResponse.Type

// -----------------------------------------------------------------------------
// SDK → CLI
// -----------------------------------------------------------------------------

const request = <Subtype extends string, Fields extends Schema.Struct.Fields>(subtype: Subtype, fields: Fields) =>
  closedStruct({ subtype: Schema.Literal(subtype), ...fields })

/**
 * An MCP server configuration (`stdio`, `sse`, `http`, or `{ type: "sdk",
 * name }` for an in-process server). Kept as JSON: the CLI validates it.
 */
export const McpServerConfig = JsonObject

export type McpServerConfig = typeof McpServerConfig.Type

/**
 * A subagent definition for `initialize.agents`.
 */
export const AgentDefinition = openStruct({
  description: Schema.String,
  prompt: Schema.String,
  tools: optional(Schema.Array(Schema.String)),
  disallowedTools: optional(Schema.Array(Schema.String)),
  model: optional(Schema.String),
  skills: optional(Schema.Array(Schema.String)),
  maxTurns: optional(JsonNumber),
  permissionMode: optional(PermissionMode)
})

export type AgentDefinition = typeof AgentDefinition.Type

/**
 * The handshake: hooks, SDK MCP servers, prompts, agents and the other
 * session settings the CLI takes over stdin. Every field is optional, and
 * `initialize` itself is optional.
 *
 * `hooks` maps hook event names to matchers; an unknown event name is
 * accepted silently by the CLI. `settings`, `disallowedTools` and
 * `mcpServers` are ignored unless the CLI was launched with
 * `--await-initialize` (and `--initialize-fields` for the first two).
 */
export const InitializeRequest = openStruct({
  subtype: Schema.Literal("initialize"),
  hooks: optional(Schema.Record({ key: Schema.String, value: Schema.Array(HookCallbackMatcher) })),
  sdkMcpServers: optional(Schema.Array(Schema.String)),
  sdkMcpServerConfigs: optional(Schema.Record({ key: Schema.String, value: JsonObject })),
  sdkMcpServerManifests: optional(Schema.Record({
    key: Schema.String,
    value: openStruct({ initializeResult: JsonObject, toolsListResult: optional(JsonObject) })
  })),
  sdkMcpServerManifestsOrigin: optional(Schema.Literal("host_per_send")),
  jsonSchema: optional(JsonObject),
  systemPrompt: optional(Schema.Union(Schema.String, Schema.Array(Schema.String))),
  appendSystemPrompt: optional(Schema.String),
  planModeInstructions: optional(Schema.String),
  systemPromptSnapshot: optional(Schema.Boolean),
  appendSubagentSystemPrompt: optional(Schema.String),
  toolAliases: optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  codeRunningMcpTools: optional(Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })),
  excludeDynamicSections: optional(Schema.Boolean),
  agents: optional(Schema.Record({ key: Schema.String, value: AgentDefinition })),
  title: optional(Schema.String),
  skills: optional(Schema.Array(Schema.String)),
  webSearchIsolationExemptMcpServers: optional(Schema.Array(Schema.String)),
  promptSuggestions: optional(Schema.Boolean),
  agentProgressSummaries: optional(Schema.Boolean),
  forwardSubagentText: optional(Schema.Boolean),
  supportedDialogKinds: optional(Schema.Array(Schema.String)),
  perTaskStopAffordance: optional(Schema.Boolean),
  rapidFollowupPreempt: optional(Schema.Boolean),
  forwardNestedSubagentToolCalls: optional(Schema.Boolean),
  workspaceTrust: optional(openStruct({ accepted: Schema.Boolean, directory: Schema.String })),
  plugins: optional(Schema.Array(JsonObject)),
  managedSettings: optional(JsonObject),
  settings: optional(JsonObject),
  disallowedTools: optional(Schema.Array(Schema.String)),
  mcpServers: optional(Schema.Record({ key: Schema.String, value: McpServerConfig }))
})

export type InitializeRequest = typeof InitializeRequest.Type

/**
 * Stop the running turn. With `cancel_queued` the queued user messages are
 * cancelled too. The session stays usable.
 */
export const InterruptRequest = request("interrupt", {
  cancel_queued: optional(Schema.Boolean)
})

export type InterruptRequest = typeof InterruptRequest.Type

/**
 * Change the permission mode; a `system/status` line follows.
 * `bypassPermissions` works only if the CLI was launched with it.
 */
export const SetPermissionModeRequest = request("set_permission_mode", {
  mode: PermissionMode
})

export type SetPermissionModeRequest = typeof SetPermissionModeRequest.Type

/**
 * Change the model from the next API request on (no `model`: the default).
 * Any string is accepted.
 */
export const SetModelRequest = request("set_model", {
  model: optional(Schema.NullOr(Schema.String))
})

export type SetModelRequest = typeof SetModelRequest.Type

export const SetMaxThinkingTokensRequest = request("set_max_thinking_tokens", {
  max_thinking_tokens: optional(NullableNumber),
  thinking_display: optional(Schema.NullOr(Schema.Literal("summarized", "omitted", "highlights")))
})

export type SetMaxThinkingTokensRequest = typeof SetMaxThinkingTokensRequest.Type

export const McpStatusRequest = request("mcp_status", {
  liveReply: optional(Schema.Boolean)
})

export type McpStatusRequest = typeof McpStatusRequest.Type

/**
 * A JSON-RPC message from an SDK-hosted MCP server to the CLI (for example
 * `notifications/tools/list_changed`).
 */
export const McpMessageOutboundRequest = request("mcp_message", {
  server_name: Schema.String,
  message: Json
})

export type McpMessageOutboundRequest = typeof McpMessageOutboundRequest.Type

/**
 * Replace the dynamic MCP servers (`{}` removes them all).
 */
export const McpSetServersRequest = request("mcp_set_servers", {
  servers: Schema.Record({ key: Schema.String, value: McpServerConfig })
})

export type McpSetServersRequest = typeof McpSetServersRequest.Type

export const McpReconnectRequest = request("mcp_reconnect", {
  serverName: Schema.String
})

export type McpReconnectRequest = typeof McpReconnectRequest.Type

export const McpToggleRequest = request("mcp_toggle", {
  serverName: Schema.String,
  enabled: Schema.Boolean
})

export type McpToggleRequest = typeof McpToggleRequest.Type

/**
 * Call a tool of a process MCP server directly, without a model turn.
 */
export const McpCallRequest = request("mcp_call", {
  tool: Schema.String,
  arguments: optional(JsonObject),
  timeout_ms: optional(JsonNumber)
})

export type McpCallRequest = typeof McpCallRequest.Type

export const McpReadResourceRequest = request("mcp_read_resource", {
  serverName: Schema.String,
  uri: Schema.String
})

export type McpReadResourceRequest = typeof McpReadResourceRequest.Type

/**
 * Restore the files changed since the user message `user_message_id` (needs
 * `CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=true`).
 */
export const RewindFilesRequest = request("rewind_files", {
  user_message_id: Schema.String,
  dry_run: optional(Schema.Boolean)
})

export type RewindFilesRequest = typeof RewindFilesRequest.Type

/**
 * How the context window is used. `full` makes ~25 `count_tokens` calls.
 */
export const GetContextUsageRequest = request("get_context_usage", {
  detail: optional(Schema.Literal("summary", "full"))
})

export type GetContextUsageRequest = typeof GetContextUsageRequest.Type

export const GetSessionCostRequest = request("get_session_cost", {})

export type GetSessionCostRequest = typeof GetSessionCostRequest.Type

export const GetUsageRequest = request("get_usage", {
  skip_behaviors: optional(Schema.Boolean)
})

export type GetUsageRequest = typeof GetUsageRequest.Type

export const ListModelsRequest = request("list_models", {})

export type ListModelsRequest = typeof ListModelsRequest.Type

export const GetBinaryVersionRequest = request("get_binary_version", {})

export type GetBinaryVersionRequest = typeof GetBinaryVersionRequest.Type

export const GetSettingsRequest = request("get_settings", {})

export type GetSettingsRequest = typeof GetSettingsRequest.Type

export const GetStatusRequest = request("get_status", {})

export type GetStatusRequest = typeof GetStatusRequest.Type

export const ListPermissionRulesRequest = request("list_permission_rules", {})

export type ListPermissionRulesRequest = typeof ListPermissionRulesRequest.Type

export const GetHooksListingRequest = request("get_hooks_listing", {})

export type GetHooksListingRequest = typeof GetHooksListingRequest.Type

export const FileSuggestionsRequest = request("file_suggestions", {
  query: Schema.String
})

export type FileSuggestionsRequest = typeof FileSuggestionsRequest.Type

export const ReadFileRequest = request("read_file", {
  path: Schema.String,
  max_bytes: optional(JsonNumber),
  encoding: optional(Schema.Literal("utf-8", "base64"))
})

export type ReadFileRequest = typeof ReadFileRequest.Type

export const SeedReadStateRequest = request("seed_read_state", {
  path: Schema.String,
  mtime: JsonNumber
})

export type SeedReadStateRequest = typeof SeedReadStateRequest.Type

export const ReloadSkillsRequest = request("reload_skills", {})

export type ReloadSkillsRequest = typeof ReloadSkillsRequest.Type

export const ReloadOutputStylesRequest = request("reload_output_styles", {})

export type ReloadOutputStylesRequest = typeof ReloadOutputStylesRequest.Type

export const ReloadPluginsRequest = request("reload_plugins", {})

export type ReloadPluginsRequest = typeof ReloadPluginsRequest.Type

export const ApplyFlagSettingsRequest = request("apply_flag_settings", {
  settings: JsonObject
})

export type ApplyFlagSettingsRequest = typeof ApplyFlagSettingsRequest.Type

export const UpdateSettingsRequest = request("update_settings", {
  source: Schema.Literal("localSettings", "userSettings"),
  settings: JsonObject
})

export type UpdateSettingsRequest = typeof UpdateSettingsRequest.Type

export const RenameSessionRequest = request("rename_session", {
  title: Schema.String
})

export type RenameSessionRequest = typeof RenameSessionRequest.Type

export const SetHasSubscribersRequest = request("set_has_subscribers", {
  has_subscribers: Schema.NullOr(Schema.Boolean)
})

export type SetHasSubscribersRequest = typeof SetHasSubscribersRequest.Type

/**
 * Stop a background task (answered `{}` even for an unknown id).
 */
export const StopTaskRequest = request("stop_task", {
  task_id: Schema.String
})

export type StopTaskRequest = typeof StopTaskRequest.Type

export const GetTaskOutputRequest = request("get_task_output", {
  task_id: Schema.String
})

export type GetTaskOutputRequest = typeof GetTaskOutputRequest.Type

export const BackgroundTasksRequest = request("background_tasks", {
  tool_use_id: optional(Schema.String)
})

export type BackgroundTasksRequest = typeof BackgroundTasksRequest.Type

export const CancelAsyncMessageRequest = request("cancel_async_message", {
  message_uuid: Schema.String
})

export type CancelAsyncMessageRequest = typeof CancelAsyncMessageRequest.Type

export const RegisterRepoRootRequest = request("register_repo_root", {
  directory: Schema.String
})

export type RegisterRepoRootRequest = typeof RegisterRepoRootRequest.Type

/**
 * End the session: the CLI exits 0 by itself, without a `SessionEnd` hook.
 */
export const EndSessionRequest = request("end_session", {})

export type EndSessionRequest = typeof EndSessionRequest.Type

/**
 * Every SDK → CLI request subtype with a schema of its own, each to its
 * schema.
 */
export const outboundRequestBySubtype = {
  initialize: InitializeRequest,
  interrupt: InterruptRequest,
  set_permission_mode: SetPermissionModeRequest,
  set_model: SetModelRequest,
  set_max_thinking_tokens: SetMaxThinkingTokensRequest,
  mcp_status: McpStatusRequest,
  mcp_message: McpMessageOutboundRequest,
  mcp_set_servers: McpSetServersRequest,
  mcp_reconnect: McpReconnectRequest,
  mcp_toggle: McpToggleRequest,
  mcp_call: McpCallRequest,
  mcp_read_resource: McpReadResourceRequest,
  rewind_files: RewindFilesRequest,
  get_context_usage: GetContextUsageRequest,
  get_session_cost: GetSessionCostRequest,
  get_usage: GetUsageRequest,
  list_models: ListModelsRequest,
  get_binary_version: GetBinaryVersionRequest,
  get_settings: GetSettingsRequest,
  get_status: GetStatusRequest,
  list_permission_rules: ListPermissionRulesRequest,
  get_hooks_listing: GetHooksListingRequest,
  file_suggestions: FileSuggestionsRequest,
  read_file: ReadFileRequest,
  seed_read_state: SeedReadStateRequest,
  reload_skills: ReloadSkillsRequest,
  reload_output_styles: ReloadOutputStylesRequest,
  reload_plugins: ReloadPluginsRequest,
  apply_flag_settings: ApplyFlagSettingsRequest,
  update_settings: UpdateSettingsRequest,
  rename_session: RenameSessionRequest,
  set_has_subscribers: SetHasSubscribersRequest,
  stop_task: StopTaskRequest,
  get_task_output: GetTaskOutputRequest,
  background_tasks: BackgroundTasksRequest,
  cancel_async_message: CancelAsyncMessageRequest,
  register_repo_root: RegisterRepoRootRequest,
  end_session: EndSessionRequest
} as const

/**
 * The escape hatch: any other subtype, with any fields. The CLI answers an
 * unknown subtype with an error (`unsupported_request`) and keeps running.
 */
export const OtherOutboundRequest = openStruct({
  subtype: otherThan(Object.keys(outboundRequestBySubtype), "OtherOutboundRequestSubtype")
})

export type OtherOutboundRequest = typeof OtherOutboundRequest.Type

/**
 * What the SDK can ask the CLI.
 */
export const OutboundControlRequestPayload = Schema.Union(
  InitializeRequest,
  InterruptRequest,
  SetPermissionModeRequest,
  SetModelRequest,
  SetMaxThinkingTokensRequest,
  McpStatusRequest,
  McpMessageOutboundRequest,
  McpSetServersRequest,
  McpReconnectRequest,
  McpToggleRequest,
  McpCallRequest,
  McpReadResourceRequest,
  RewindFilesRequest,
  GetContextUsageRequest,
  GetSessionCostRequest,
  GetUsageRequest,
  ListModelsRequest,
  GetBinaryVersionRequest,
  GetSettingsRequest,
  GetStatusRequest,
  ListPermissionRulesRequest,
  GetHooksListingRequest,
  FileSuggestionsRequest,
  ReadFileRequest,
  SeedReadStateRequest,
  ReloadSkillsRequest,
  ReloadOutputStylesRequest,
  ReloadPluginsRequest,
  ApplyFlagSettingsRequest,
  UpdateSettingsRequest,
  RenameSessionRequest,
  SetHasSubscribersRequest,
  StopTaskRequest,
  GetTaskOutputRequest,
  BackgroundTasksRequest,
  CancelAsyncMessageRequest,
  RegisterRepoRootRequest,
  EndSessionRequest,
  OtherOutboundRequest
)

export type OutboundControlRequestPayload = typeof OutboundControlRequestPayload.Type

/**
 * A request from the SDK. The CLI dies on a `control_request` whose `request`
 * is missing or `null`, so both `request_id` and `request` are required.
 */
export const OutboundControlRequest = closedStruct({
  type: Schema.Literal("control_request"),
  request_id: Schema.String,
  request: OutboundControlRequestPayload
})

export type OutboundControlRequest = typeof OutboundControlRequest.Type

/**
 * Set environment variables of the CLI process (accepted without a reply).
 */
export const UpdateEnvironmentVariables = closedStruct({
  type: Schema.Literal("update_environment_variables"),
  variables: Schema.Record({ key: Schema.String, value: Schema.String })
})

export type UpdateEnvironmentVariables = typeof UpdateEnvironmentVariables.Type
