/**
 * The payloads of the CLI's successful replies to SDK control requests: what
 * the runtime reads back from `control_response.response.response`.
 *
 * They are not decoded by the line codec (a `control_response` keeps its
 * payload as a JSON object): the router decodes each reply with the success
 * schema of the request it answers (see the table in `control.ts`), and a
 * reply that does not decode is a `ControlError` with reason
 * `InvalidResponse`. All are open structs: the CLI adds keys every release.
 */
import * as Schema from "effect/Schema"
import { Json, JsonNumber, JsonObject, NullableString, openLiteral, openStruct, optional } from "./json.js"
import { PermissionMode } from "./permissions.js"

const effortLevel = openLiteral("low", "medium", "high", "xhigh", "max")

/**
 * A slash command (`initialize` reply, `system/commands_changed`).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const SlashCommand = openStruct({
  name: Schema.String,
  description: Schema.String,
  argumentHint: Schema.String,
  aliases: optional(Schema.Array(Schema.String)),
  builtin: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type SlashCommand = typeof SlashCommand.Type

/**
 * A subagent the session can use.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const AgentInfo = openStruct({
  name: Schema.String,
  description: Schema.String,
  model: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type AgentInfo = typeof AgentInfo.Type

/**
 * A model the session can switch to (`initialize` reply, `list_models`).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ModelInfo = openStruct({
  value: Schema.String,
  displayName: Schema.String,
  description: Schema.String,
  resolvedModel: optional(Schema.String),
  supportsEffort: optional(Schema.Boolean),
  supportedEffortLevels: optional(Schema.Array(effortLevel)),
  supportsAdaptiveThinking: optional(Schema.Boolean),
  supportsFastMode: optional(Schema.Boolean),
  supportsAutoMode: optional(Schema.Boolean),
  supportsThinkingOff: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ModelInfo = typeof ModelInfo.Type

/**
 * Who the CLI is signed in as and how.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const AccountInfo = openStruct({
  email: optional(Schema.String),
  organization: optional(Schema.String),
  subscriptionType: optional(Schema.String),
  tokenSource: optional(Schema.String),
  apiKeySource: optional(Schema.String),
  apiProvider: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type AccountInfo = typeof AccountInfo.Type

/**
 * The reply to `initialize` (about 17 KB, mostly `commands`).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const InitializeResponse = openStruct({
  commands: Schema.Array(SlashCommand),
  agents: Schema.Array(AgentInfo),
  output_style: Schema.String,
  available_output_styles: Schema.Array(Schema.String),
  models: Schema.Array(ModelInfo),
  account: AccountInfo,
  user_output_styles_dir: optional(Schema.String),
  pid: optional(JsonNumber),
  claude_code_version: optional(Schema.String),
  current_permission_mode: optional(openLiteral(...PermissionMode.literals)),
  hooks_applied: optional(Schema.Boolean),
  hook_on_failure_supported: optional(Schema.Boolean),
  plugins_applied: optional(Schema.Boolean),
  mcp_servers_applied: optional(Schema.Boolean),
  sdk_mcp_manifests_parked: optional(Schema.Record(Schema.String, Schema.String)),
  fast_mode_state: optional(openLiteral("off", "cooldown", "on")),
  fast_mode_disabled_reason: optional(NullableString),
  session_state: optional(Schema.String),
  capabilities: optional(Schema.Array(Schema.String)),
  analytics_disabled: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type InitializeResponse = typeof InitializeResponse.Type

/**
 * One MCP server in the reply to `mcp_status`. SDK-hosted servers appear only
 * after they connect (lazily, at the first user message).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpServerStatus = openStruct({
  name: Schema.String,
  status: openLiteral("connected", "failed", "needs-auth", "pending", "disabled"),
  serverInfo: optional(openStruct({ name: Schema.String, version: Schema.String })),
  error: optional(Schema.String),
  config: optional(Json),
  scope: optional(Schema.String),
  source: optional(Schema.String),
  transport: optional(Schema.String),
  tools: optional(Schema.Array(openStruct({
    name: Schema.String,
    description: optional(Schema.String),
    annotations: optional(Json)
  })))
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpServerStatus = typeof McpServerStatus.Type

/**
 * The reply to `mcp_status`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpStatusResponse = openStruct({
  mcpServers: Schema.Array(McpServerStatus)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpStatusResponse = typeof McpStatusResponse.Type

/**
 * The reply to `mcp_set_servers`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpSetServersResponse = openStruct({
  added: Schema.Array(Schema.String),
  removed: Schema.Array(Schema.String),
  errors: Schema.Record(Schema.String, Schema.String)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpSetServersResponse = typeof McpSetServersResponse.Type

/**
 * One category of the context window.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ContextUsageCategory = openStruct({
  name: Schema.String,
  tokens: JsonNumber,
  kind: openLiteral("used", "free", "buffer", "deferred"),
  id: optional(Schema.String),
  color: optional(Schema.String),
  isDeferred: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ContextUsageCategory = typeof ContextUsageCategory.Type

/**
 * The reply to `get_context_usage`. The detailed breakdowns are kept as JSON.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ContextUsageResponse = openStruct({
  categories: Schema.Array(ContextUsageCategory),
  totalTokens: JsonNumber,
  maxTokens: JsonNumber,
  percentage: JsonNumber,
  model: Schema.String,
  rawMaxTokens: optional(JsonNumber),
  autoCompactThreshold: optional(JsonNumber),
  isAutoCompactEnabled: optional(Schema.Boolean),
  gridRows: optional(Json),
  memoryFiles: optional(Json),
  mcpTools: optional(Json),
  agents: optional(Json),
  apiUsage: optional(Json)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ContextUsageResponse = typeof ContextUsageResponse.Type

/**
 * The reply to `rewind_files`. Without file checkpointing enabled it is
 * `{ canRewind: false, error: "File rewinding is not enabled." }`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const RewindFilesResponse = openStruct({
  canRewind: Schema.Boolean,
  error: optional(Schema.String),
  filesChanged: optional(Schema.Array(Schema.String)),
  insertions: optional(JsonNumber),
  deletions: optional(JsonNumber),
  skippedLinks: optional(JsonNumber)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type RewindFilesResponse = typeof RewindFilesResponse.Type

/**
 * The reply to `interrupt`: the uuids of queued user messages that will still
 * run, and with `cancel_queued` the ones cancelled.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const InterruptResponse = openStruct({
  still_queued: Schema.Array(Schema.String),
  cancelled: optional(Schema.Array(Schema.String))
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type InterruptResponse = typeof InterruptResponse.Type

/**
 * The reply to `set_permission_mode`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const SetPermissionModeResponse = openStruct({
  mode: openLiteral(...PermissionMode.literals)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type SetPermissionModeResponse = typeof SetPermissionModeResponse.Type

/**
 * The reply to `set_model`: the resolved model id (aliases resolved).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const SetModelResponse = openStruct({
  model: Schema.String
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type SetModelResponse = typeof SetModelResponse.Type

/**
 * The reply to `list_models`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ListModelsResponse = openStruct({
  models: Schema.Array(ModelInfo)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ListModelsResponse = typeof ListModelsResponse.Type

/**
 * The reply of a request the CLI answers without a body (`set_max_thinking_tokens`,
 * `apply_flag_settings`, `seed_read_state`, `mcp_toggle`, `mcp_reconnect`, ...)
 * or with `{}` (`stop_task`, `update_settings`). Whatever it sends is accepted
 * and ignored.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const NoResponse = Schema.Void.annotate({ identifier: "NoResponse" })

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type NoResponse = typeof NoResponse.Type

/**
 * The reply to `set_mcp_permission_mode_override`: a `warning` when the server
 * name matches no known server (the override is stored anyway).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpPermissionModeOverrideResponse = openStruct({
  warning: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpPermissionModeOverrideResponse = typeof McpPermissionModeOverrideResponse.Type

/**
 * The reply to `mcp_call`: the MCP `tools/call` result.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpCallResponse = openStruct({
  content: optional(Schema.Array(Json)),
  structuredContent: optional(Json),
  isError: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpCallResponse = typeof McpCallResponse.Type

/**
 * One item of an MCP resource.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpResourceContent = openStruct({
  uri: Schema.String,
  mimeType: optional(Schema.String),
  text: optional(Schema.String),
  /** Base64, for a binary item. */
  blob: optional(Schema.String),
  _meta: optional(JsonObject)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpResourceContent = typeof McpResourceContent.Type

/**
 * The reply to `mcp_read_resource`: the `resources/read` result of a `ui://`
 * resource.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const McpReadResourceResponse = openStruct({
  contents: Schema.Array(McpResourceContent)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type McpReadResourceResponse = typeof McpReadResourceResponse.Type

/**
 * The reply to `get_session_cost`: the text `/cost` prints.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const SessionCostResponse = openStruct({
  text: Schema.String
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type SessionCostResponse = typeof SessionCostResponse.Type

/**
 * The reply to `get_usage`: the session's cost and token totals, and the plan
 * rate limits where they apply (`rate_limits_available: false` and
 * `rate_limits: null` for API keys and cloud providers).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const UsageResponse = openStruct({
  session: openStruct({
    total_cost_usd: JsonNumber,
    total_api_duration_ms: JsonNumber,
    total_duration_ms: JsonNumber,
    total_lines_added: JsonNumber,
    total_lines_removed: JsonNumber,
    model_usage: Schema.Record(Schema.String, Json)
  }),
  subscription_type: NullableString,
  rate_limits_available: Schema.Boolean,
  rate_limits: Json,
  behaviors: optional(Json)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type UsageResponse = typeof UsageResponse.Type

/**
 * The reply to `get_binary_version`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const BinaryVersionResponse = openStruct({
  version: Schema.String,
  buildTime: optional(Schema.String),
  oldestDesktopSdk: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type BinaryVersionResponse = typeof BinaryVersionResponse.Type

/**
 * The reply to `get_settings`: the effective settings, each source's own, and
 * what the session applies.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const SettingsResponse = openStruct({
  effective: JsonObject,
  sources: Schema.Array(openStruct({ source: Schema.String, settings: JsonObject })),
  applied: optional(JsonObject)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type SettingsResponse = typeof SettingsResponse.Type

/**
 * The reply to `get_status`: the sections `/status` shows.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const StatusResponse = openStruct({
  sections: Schema.Array(openStruct({
    title: Schema.String,
    rows: Schema.Array(openStruct({ label: Schema.String, value: Json }))
  }))
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type StatusResponse = typeof StatusResponse.Type

/**
 * The reply to `list_permission_rules`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const PermissionRulesResponse = openStruct({
  state: openStruct({
    rules: Schema.Array(openStruct({ behavior: Schema.String, source: Schema.String, rule: Json })),
    workspaceDirectories: optional(Schema.Array(Json)),
    originalCwd: optional(Schema.String),
    managedOnly: optional(Schema.Boolean)
  })
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type PermissionRulesResponse = typeof PermissionRulesResponse.Type

/**
 * The reply to `get_hooks_listing` (SDK callback hooks are not listed).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const HooksListingResponse = openStruct({
  events: Schema.Array(Json),
  hooks: Schema.Array(Json),
  eventCatalog: optional(Schema.Array(openStruct({
    name: Schema.String,
    summary: optional(Schema.String),
    supportsMatcher: optional(Schema.Boolean)
  })))
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type HooksListingResponse = typeof HooksListingResponse.Type

/**
 * The reply to `file_suggestions`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const FileSuggestionsResponse = openStruct({
  suggestions: Schema.Array(Json),
  cwd: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type FileSuggestionsResponse = typeof FileSuggestionsResponse.Type

/**
 * The reply to `read_file`. `contents` is UTF-8 text (`lossy` when the bytes
 * were not all valid UTF-8) or base64 (`encoding: "base64"`).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ReadFileResponse = openStruct({
  contents: Schema.String,
  absPath: Schema.String,
  truncated: optional(Schema.Boolean),
  encoding: optional(openLiteral("base64")),
  lossy: optional(Schema.Boolean),
  requested_path: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ReadFileResponse = typeof ReadFileResponse.Type

/**
 * The reply to `reload_skills`: the skills as slash commands.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ReloadSkillsResponse = openStruct({
  skills: Schema.Array(SlashCommand)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ReloadSkillsResponse = typeof ReloadSkillsResponse.Type

/**
 * The reply to `reload_output_styles`: every style name, built-in and custom.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ReloadOutputStylesResponse = openStruct({
  available_output_styles: Schema.Array(Schema.String)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ReloadOutputStylesResponse = typeof ReloadOutputStylesResponse.Type

/**
 * A plugin loaded in the session.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const PluginInfo = openStruct({
  name: Schema.String,
  path: Schema.String,
  source: optional(Schema.String),
  version: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type PluginInfo = typeof PluginInfo.Type

/**
 * The reply to `reload_plugins`: the session's commands, agents, plugins and
 * MCP servers after the reload. With `hold_on_cache_impact`, `held: true`
 * says nothing was applied and `cache_impact` what applying would change.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const ReloadPluginsResponse = openStruct({
  commands: Schema.Array(SlashCommand),
  agents: Schema.Array(AgentInfo),
  plugins: Schema.Array(PluginInfo),
  mcpServers: Schema.Array(McpServerStatus),
  error_count: JsonNumber,
  held: optional(Schema.Boolean),
  cache_impact: optional(Json)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type ReloadPluginsResponse = typeof ReloadPluginsResponse.Type

/**
 * The reply to `get_task_output`: the end (at most 8 KiB) of a background
 * shell task's output.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const TaskOutputResponse = openStruct({
  output: Schema.String,
  total_bytes: optional(JsonNumber),
  truncated: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type TaskOutputResponse = typeof TaskOutputResponse.Type

/**
 * The reply to `background_tasks` (`{}` from CLI 2.1.328; a later CLI says
 * `backgrounded: false` when `tool_use_id` matched no foreground task).
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const BackgroundTasksResponse = openStruct({
  backgrounded: optional(Schema.Boolean)
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type BackgroundTasksResponse = typeof BackgroundTasksResponse.Type

/**
 * The reply to `cancel_async_message`.
 *
 * @since 0.1.0
 * @category Response payloads
 */
export const CancelAsyncMessageResponse = openStruct({
  cancelled: Schema.Boolean
})

/**
 * @since 0.1.0
 * @category Response payloads
 */
export type CancelAsyncMessageResponse = typeof CancelAsyncMessageResponse.Type
