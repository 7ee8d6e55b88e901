/**
 * The control channel: requests in both directions, their responses, and
 * cancellations.
 *
 * CLI → SDK requests (`hook_callback`, `can_use_tool`, `mcp_message`, ...)
 * are open structs; SDK → CLI requests are closed structs that keep unknown
 * keys, except `initialize`, which gains fields every release and stays open.
 */
import * as Schema from "effect/Schema"
import type * as ControlRequestApi from "../../ControlRequest.js"
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
import {
  BackgroundTasksResponse,
  BinaryVersionResponse,
  CancelAsyncMessageResponse,
  ContextUsageResponse,
  FileSuggestionsResponse,
  HooksListingResponse,
  InitializeResponse,
  InterruptResponse,
  ListModelsResponse,
  McpCallResponse,
  McpPermissionModeOverrideResponse,
  McpReadResourceResponse,
  McpSetServersResponse,
  McpStatusResponse,
  NoResponse,
  PermissionRulesResponse,
  ReadFileResponse,
  ReloadOutputStylesResponse,
  ReloadPluginsResponse,
  ReloadSkillsResponse,
  RewindFilesResponse,
  SessionCostResponse,
  SetModelResponse,
  SetPermissionModeResponse,
  SettingsResponse,
  StatusResponse,
  TaskOutputResponse,
  UsageResponse
} from "./responses.js"

// -----------------------------------------------------------------------------
// CLI → SDK
// -----------------------------------------------------------------------------

/**
 * Run the SDK hook `callback_id` on `input`. For tool events `tool_use_id` is
 * the tool's id; for other events a fresh UUID.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const HookCallbackRequest = openStruct({
  subtype: Schema.Literal("hook_callback"),
  callback_id: Schema.String,
  input: HookInput,
  tool_use_id: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type HookCallbackRequest = typeof HookCallbackRequest.Type

/**
 * Ask whether a tool may run (only with `--permission-prompt-tool stdio`).
 * The CLI waits for the answer without any timeout.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
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

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type CanUseToolRequest = typeof CanUseToolRequest.Type

/**
 * A JSON-RPC message for an SDK-hosted MCP server. Reply with
 * `{ mcp_response: <JSON-RPC response> }`.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const McpMessageRequest = openStruct({
  subtype: Schema.Literal("mcp_message"),
  server_name: Schema.String,
  message: Json
})

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type McpMessageRequest = typeof McpMessageRequest.Type

/**
 * An MCP server asks the user for input.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
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

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type ElicitationRequest = typeof ElicitationRequest.Type

/**
 * The CLI asks the host to show a dialog of some kind.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const UserDialogRequest = openStruct({
  subtype: Schema.Literal("request_user_dialog"),
  dialog_kind: Schema.String,
  payload: JsonObject,
  tool_use_id: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
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
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const UnknownControlRequest = openStruct({
  subtype: otherThan(inboundRequestSubtypes, "UnknownControlRequestSubtype")
})

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type UnknownControlRequest = typeof UnknownControlRequest.Type

/**
 * What the CLI can ask the SDK.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const InboundControlRequest = Schema.Union([
  HookCallbackRequest,
  CanUseToolRequest,
  McpMessageRequest,
  ElicitationRequest,
  UserDialogRequest,
  UnknownControlRequest
])

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type InboundControlRequest = typeof InboundControlRequest.Type

/**
 * A request from the CLI. Answer with a {@link ControlResponse} carrying the
 * same `request_id`, and keep reading stdout meanwhile.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const ControlRequest = openStruct({
  type: Schema.Literal("control_request"),
  request_id: Schema.String,
  request: InboundControlRequest
})

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type ControlRequest = typeof ControlRequest.Type

/**
 * The sender stopped waiting for the answer to one of its own requests (the
 * CLI sends it on interrupt, hook timeout, or when a `PermissionRequest` hook
 * decided first). A reply sent afterwards is ignored.
 *
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export const ControlCancelRequest = openStruct({
  type: Schema.Literal("control_cancel_request"),
  request_id: Schema.String
})

/**
 * @since 0.1.0
 * @category Control (CLI to SDK)
 */
export type ControlCancelRequest = typeof ControlCancelRequest.Type

// -----------------------------------------------------------------------------
// Responses (both directions)
// -----------------------------------------------------------------------------

/**
 * A successful reply. The CLI leaves out `response` for some subtypes, and
 * leaves out `request_id` when the request had none.
 *
 * @since 0.1.0
 * @category Control responses
 */
export const ControlSuccess = openStruct({
  subtype: Schema.Literal("success"),
  request_id: optional(Schema.String),
  response: optional(JsonObject)
})

/**
 * @since 0.1.0
 * @category Control responses
 */
export type ControlSuccess = typeof ControlSuccess.Type

/**
 * An error reply. The CLI may add `error_code` (`unsupported_request`,
 * `invalid_mode`, `bypass_not_launched`).
 *
 * @since 0.1.0
 * @category Control responses
 */
export const ControlFailure = openStruct({
  subtype: Schema.Literal("error"),
  request_id: optional(Schema.String),
  error: Schema.String,
  error_code: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Control responses
 */
export type ControlFailure = typeof ControlFailure.Type

/**
 * A reply to a control request, in either direction. The CLI's reply to
 * `initialize` carries more envelope fields (`pending_permission_requests`,
 * ...), which are kept.
 *
 * @since 0.1.0
 * @category Control responses
 */
export const ControlResponse = openStruct({
  type: Schema.Literal("control_response"),
  response: Schema.Union([ControlSuccess, ControlFailure])
})

/**
 * @since 0.1.0
 * @category Control responses
 */
export type ControlResponse = typeof ControlResponse.Type

// -----------------------------------------------------------------------------
// SDK → CLI
// -----------------------------------------------------------------------------

/**
 * An MCP server configuration (`stdio`, `sse`, `http`, or `{ type: "sdk",
 * name }` for an in-process server). Kept as JSON: the CLI validates it.
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const McpServerConfig = JsonObject

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type McpServerConfig = typeof McpServerConfig.Type

/**
 * A subagent definition for `initialize.agents`.
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
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

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
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
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const InitializeRequest = openStruct({
  subtype: Schema.Literal("initialize"),
  hooks: optional(Schema.Record(Schema.String, Schema.Array(HookCallbackMatcher))),
  sdkMcpServers: optional(Schema.Array(Schema.String)),
  sdkMcpServerConfigs: optional(Schema.Record(Schema.String, JsonObject)),
  sdkMcpServerManifests: optional(
    Schema.Record(Schema.String, openStruct({ initializeResult: JsonObject, toolsListResult: optional(JsonObject) }))
  ),
  sdkMcpServerManifestsOrigin: optional(Schema.Literal("host_per_send")),
  jsonSchema: optional(JsonObject),
  systemPrompt: optional(Schema.Union([Schema.String, Schema.Array(Schema.String)])),
  appendSystemPrompt: optional(Schema.String),
  planModeInstructions: optional(Schema.String),
  systemPromptSnapshot: optional(Schema.Boolean),
  appendSubagentSystemPrompt: optional(Schema.String),
  toolAliases: optional(Schema.Record(Schema.String, Schema.String)),
  codeRunningMcpTools: optional(Schema.Record(Schema.String, Schema.Array(Schema.String))),
  excludeDynamicSections: optional(Schema.Boolean),
  agents: optional(Schema.Record(Schema.String, AgentDefinition)),
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
  mcpServers: optional(Schema.Record(Schema.String, McpServerConfig))
})

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type InitializeRequest = typeof InitializeRequest.Type

// The constructors of `ControlRequest` (the public module re-exports them).

export const ControlRequestTypeId: ControlRequestApi.TypeId = Symbol.for(
  "@claude-effect/sdk/ControlRequest"
) as ControlRequestApi.TypeId

export const controlRequestFromSchema = <
  const Subtype extends string,
  PayloadSchema extends Schema.Top,
  SuccessSchema extends Schema.Top
>(
  subtype: Subtype,
  options: { readonly payload: PayloadSchema; readonly success: SuccessSchema }
): ControlRequestApi.ControlRequest<Subtype, PayloadSchema, SuccessSchema> => ({
  [ControlRequestTypeId]: ControlRequestTypeId,
  subtype,
  payloadSchema: options.payload,
  successSchema: options.success
})

export const makeControlRequest = <
  const Subtype extends string,
  Fields extends Schema.Struct.Fields,
  SuccessSchema extends Schema.Top
>(
  subtype: Subtype,
  options: { readonly payload: Fields; readonly success: SuccessSchema }
): ControlRequestApi.ControlRequest<
  Subtype,
  Schema.Struct<{ readonly subtype: Schema.Literal<Subtype> } & Fields>,
  SuccessSchema
> =>
  controlRequestFromSchema(subtype, {
    payload: closedStruct<{ readonly subtype: Schema.Literal<Subtype> } & Fields>({
      subtype: Schema.Literal(subtype),
      ...options.payload
    }),
    success: options.success
  })

export const isControlRequest = (u: unknown): u is ControlRequestApi.Any =>
  typeof u === "object" && u !== null && ControlRequestTypeId in u

/** A table whose keys are its requests' subtypes (checked by the compiler). */
const table = <
  const T extends {
    readonly [K in keyof T]: ControlRequestApi.ControlRequest<
      K & string,
      Schema.Codec<unknown, unknown>,
      Schema.Codec<unknown, unknown>
    >
  }
>(requests: T): T => requests

const make = makeControlRequest

/**
 * Every SDK → CLI control request the CLI 2.1.328 accepts, by subtype, each
 * with its payload and response schemas. The replies are as seen on the wire
 * in `protocol/PROTOCOL.md` §6; where the CLI answers without a body, the
 * response is {@link NoResponse}.
 */
export const controlRequests = table({
  /** The handshake (see {@link InitializeRequest}). */
  initialize: controlRequestFromSchema("initialize", { payload: InitializeRequest, success: InitializeResponse }),
  /**
   * Stop the running turn. With `cancel_queued` the queued user messages are
   * cancelled too. The session stays usable.
   */
  interrupt: make("interrupt", {
    payload: { cancel_queued: optional(Schema.Boolean) },
    success: InterruptResponse
  }),
  /**
   * Change the permission mode; a `system/status` line follows.
   * `bypassPermissions` works only if the CLI was launched with it
   * (`error_code: bypass_not_launched`); an unknown mode is refused
   * (`invalid_mode`).
   */
  set_permission_mode: make("set_permission_mode", {
    payload: { mode: PermissionMode },
    success: SetPermissionModeResponse
  }),
  /**
   * Pin (or clear, with `mode: null`) a per-MCP-server permission mode
   * override. Tighten-only: `default` or `auto`.
   */
  set_mcp_permission_mode_override: make("set_mcp_permission_mode_override", {
    payload: { serverName: Schema.String, mode: Schema.NullOr(Schema.Literals(["default", "auto"])) },
    // no body unless there is a warning
    success: Schema.UndefinedOr(McpPermissionModeOverrideResponse)
  }),
  /** Change the model from the next API request on (no `model`: the default). Any string is accepted. */
  set_model: make("set_model", {
    payload: { model: optional(Schema.NullOr(Schema.String)) },
    success: SetModelResponse
  }),
  /**
   * Set the thinking budget (`null` resets it to the session's default;
   * absent leaves it) and, optionally, the thinking display.
   */
  set_max_thinking_tokens: make("set_max_thinking_tokens", {
    payload: {
      max_thinking_tokens: optional(NullableNumber),
      thinking_display: optional(Schema.NullOr(Schema.Literals(["summarized", "omitted", "highlights"])))
    },
    success: NoResponse
  }),
  /** The MCP servers and their status. SDK servers show only once connected (at the first turn). */
  mcp_status: make("mcp_status", { payload: { liveReply: optional(Schema.Boolean) }, success: McpStatusResponse }),
  /**
   * A JSON-RPC message from an SDK-hosted MCP server to the CLI (for example
   * `notifications/tools/list_changed`).
   */
  mcp_message: make("mcp_message", { payload: { server_name: Schema.String, message: Json }, success: NoResponse }),
  /** Replace the dynamic MCP servers (`{}` removes them all). */
  mcp_set_servers: make("mcp_set_servers", {
    payload: { servers: Schema.Record(Schema.String, McpServerConfig) },
    success: McpSetServersResponse
  }),
  /** Reconnect an MCP server (an unknown one: `Server not found`). */
  mcp_reconnect: make("mcp_reconnect", { payload: { serverName: Schema.String }, success: NoResponse }),
  /** Enable or disable an MCP server (an unknown one: `Server not found`). */
  mcp_toggle: make("mcp_toggle", {
    payload: { serverName: Schema.String, enabled: Schema.Boolean },
    success: NoResponse
  }),
  /** Call a tool of a process MCP server directly, without a model turn (SDK servers are refused). */
  mcp_call: make("mcp_call", {
    payload: { tool: Schema.String, arguments: optional(JsonObject), timeout_ms: optional(JsonNumber) },
    success: McpCallResponse
  }),
  /** Read a `ui://` resource of an MCP server the CLI itself connected. */
  mcp_read_resource: make("mcp_read_resource", {
    payload: { serverName: Schema.String, uri: Schema.String },
    success: McpReadResourceResponse
  }),
  /**
   * Restore the files changed since the user message `user_message_id` (needs
   * `CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=true`).
   */
  rewind_files: make("rewind_files", {
    payload: { user_message_id: Schema.String, dry_run: optional(Schema.Boolean) },
    success: RewindFilesResponse
  }),
  /** How the context window is used. `full` makes ~25 `count_tokens` calls. */
  get_context_usage: make("get_context_usage", {
    payload: { detail: optional(Schema.Literals(["summary", "full"])) },
    success: ContextUsageResponse
  }),
  /** The text `/cost` prints. */
  get_session_cost: make("get_session_cost", { payload: {}, success: SessionCostResponse }),
  /** Cost and usage of the session, and the plan's rate limits. */
  get_usage: make("get_usage", { payload: { skip_behaviors: optional(Schema.Boolean) }, success: UsageResponse }),
  /** The models the session can switch to. */
  list_models: make("list_models", { payload: {}, success: ListModelsResponse }),
  /** The CLI's version. */
  get_binary_version: make("get_binary_version", { payload: {}, success: BinaryVersionResponse }),
  /** The effective settings and their sources. */
  get_settings: make("get_settings", { payload: {}, success: SettingsResponse }),
  /** What `/status` shows. */
  get_status: make("get_status", { payload: {}, success: StatusResponse }),
  /** The permission rules in force. */
  list_permission_rules: make("list_permission_rules", { payload: {}, success: PermissionRulesResponse }),
  /** The settings hooks (SDK callback hooks are not listed). */
  get_hooks_listing: make("get_hooks_listing", { payload: {}, success: HooksListingResponse }),
  /** File path completions for `query`. */
  file_suggestions: make("file_suggestions", { payload: { query: Schema.String }, success: FileSuggestionsResponse }),
  /**
   * Read a file under the Read tool's permission rules (a denied or missing
   * file is an error reply: `read denied: <path>`).
   */
  read_file: make("read_file", {
    payload: {
      path: Schema.String,
      max_bytes: optional(JsonNumber),
      encoding: optional(Schema.Literals(["utf-8", "base64"]))
    },
    success: ReadFileResponse
  }),
  /** Record that a file was read at `mtime`, so that an Edit needs no fresh Read. */
  seed_read_state: make("seed_read_state", {
    payload: { path: Schema.String, mtime: JsonNumber },
    success: NoResponse
  }),
  /** Re-read the skills from disk. */
  reload_skills: make("reload_skills", { payload: {}, success: ReloadSkillsResponse }),
  /** Re-read the output styles from disk. */
  reload_output_styles: make("reload_output_styles", { payload: {}, success: ReloadOutputStylesResponse }),
  /** Re-read the plugins from disk. */
  reload_plugins: make("reload_plugins", {
    payload: {
      hold_on_cache_impact: optional(Schema.Boolean),
      add_plugins: optional(Schema.Array(JsonObject)),
      refuse_if_busy: optional(Schema.Boolean)
    },
    success: ReloadPluginsResponse
  }),
  /**
   * Merge settings into the flag settings layer (the inline `settings`
   * option, mid-session); `null` clears a key.
   */
  apply_flag_settings: make("apply_flag_settings", { payload: { settings: JsonObject }, success: NoResponse }),
  /**
   * Write settings to a settings file through the CLI's own writer, allowlisted
   * keys only (`localSettings`: `outputStyle`; `userSettings`: `effortLevel`).
   */
  update_settings: make("update_settings", {
    payload: { source: Schema.Literals(["localSettings", "userSettings"]), settings: JsonObject },
    success: NoResponse
  }),
  /** Set the session title (`system/session_title_changed` follows). */
  rename_session: make("rename_session", { payload: { title: Schema.String }, success: NoResponse }),
  set_has_subscribers: make("set_has_subscribers", {
    payload: { has_subscribers: Schema.NullOr(Schema.Boolean) },
    success: NoResponse
  }),
  /** Stop a background task (answered `{}` even for an unknown id). */
  stop_task: make("stop_task", { payload: { task_id: Schema.String }, success: NoResponse }),
  /** The end of a background shell task's output. */
  get_task_output: make("get_task_output", { payload: { task_id: Schema.String }, success: TaskOutputResponse }),
  /** Send the running foreground tasks (or the one of `tool_use_id`) to the background (Ctrl+B). */
  background_tasks: make("background_tasks", {
    payload: { tool_use_id: optional(Schema.String) },
    success: BackgroundTasksResponse
  }),
  cancel_async_message: make("cancel_async_message", {
    payload: { message_uuid: Schema.String },
    success: CancelAsyncMessageResponse
  }),
  /** Add a working directory under cwd or an `--add-dir` root. */
  register_repo_root: make("register_repo_root", {
    payload: {
      directory: Schema.String,
      reload_claude_md: optional(Schema.Boolean),
      reload_plugins: optional(Schema.Boolean),
      reload_skills: optional(Schema.Boolean)
    },
    success: NoResponse
  }),
  /** End the session: the CLI exits 0 by itself, without a `SessionEnd` hook. */
  end_session: make("end_session", { payload: {}, success: NoResponse })
})

type ControlRequests = typeof controlRequests

/**
 * The escape hatch: any other subtype, with any fields. The CLI answers an
 * unknown subtype with an error (`unsupported_request`) and keeps running.
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const OtherOutboundRequest = openStruct({
  subtype: otherThan(Object.keys(controlRequests), "OtherOutboundRequestSubtype")
})

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type OtherOutboundRequest = typeof OtherOutboundRequest.Type

const knownPayloads: ReadonlyArray<ControlRequests[keyof ControlRequests]["payloadSchema"]> = Object.values(
  controlRequests
).map((request) => request.payloadSchema)

/**
 * What the SDK can ask the CLI: the payload of every request of the table
 * (`ControlRequest.requests`), derived from it, and any other subtype.
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const OutboundControlRequestPayload = Schema.Union([...knownPayloads, OtherOutboundRequest])

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type OutboundControlRequestPayload = typeof OutboundControlRequestPayload.Type

/**
 * A request from the SDK. The CLI dies on a `control_request` whose `request`
 * is missing or `null`, so both `request_id` and `request` are required.
 *
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export const OutboundControlRequest = closedStruct({
  type: Schema.Literal("control_request"),
  request_id: Schema.String,
  request: OutboundControlRequestPayload
})

/**
 * @since 0.1.0
 * @category Control (SDK to CLI)
 */
export type OutboundControlRequest = typeof OutboundControlRequest.Type

/**
 * Set environment variables of the CLI process (accepted without a reply).
 *
 * @since 0.1.0
 * @category Stdin messages
 */
export const UpdateEnvironmentVariables = closedStruct({
  type: Schema.Literal("update_environment_variables"),
  variables: Schema.Record(Schema.String, Schema.String)
})

/**
 * @since 0.1.0
 * @category Stdin messages
 */
export type UpdateEnvironmentVariables = typeof UpdateEnvironmentVariables.Type
