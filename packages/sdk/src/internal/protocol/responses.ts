/**
 * The payloads of the CLI's successful replies to SDK control requests: what
 * the runtime reads back from `control_response.response.response`.
 *
 * They are not decoded on the hot path (a `control_response` keeps its payload
 * as a JSON object); the runtime decodes the one it asked for. All are open
 * structs: the CLI adds keys every release.
 */
import * as Schema from "effect/Schema"
import { Json, JsonNumber, NullableString, openLiteral, openStruct, optional } from "./json.js"
import { PermissionMode } from "./permissions.js"

const effortLevel = openLiteral("low", "medium", "high", "xhigh", "max")

/**
 * A slash command (`initialize` reply, `system/commands_changed`).
 */
export const SlashCommand = openStruct({
  name: Schema.String,
  description: Schema.String,
  argumentHint: Schema.String,
  aliases: optional(Schema.Array(Schema.String)),
  builtin: optional(Schema.Boolean)
})

export type SlashCommand = typeof SlashCommand.Type

/**
 * A subagent the session can use.
 */
export const AgentInfo = openStruct({
  name: Schema.String,
  description: Schema.String,
  model: optional(Schema.String)
})

export type AgentInfo = typeof AgentInfo.Type

/**
 * A model the session can switch to (`initialize` reply, `list_models`).
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

export type ModelInfo = typeof ModelInfo.Type

/**
 * Who the CLI is signed in as and how.
 */
export const AccountInfo = openStruct({
  email: optional(Schema.String),
  organization: optional(Schema.String),
  subscriptionType: optional(Schema.String),
  tokenSource: optional(Schema.String),
  apiKeySource: optional(Schema.String),
  apiProvider: optional(Schema.String)
})

export type AccountInfo = typeof AccountInfo.Type

/**
 * The reply to `initialize` (about 17 KB, mostly `commands`).
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
  sdk_mcp_manifests_parked: optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  fast_mode_state: optional(openLiteral("off", "cooldown", "on")),
  fast_mode_disabled_reason: optional(NullableString),
  session_state: optional(Schema.String),
  capabilities: optional(Schema.Array(Schema.String)),
  analytics_disabled: optional(Schema.Boolean)
})

export type InitializeResponse = typeof InitializeResponse.Type

/**
 * One MCP server in the reply to `mcp_status`. SDK-hosted servers appear only
 * after they connect (lazily, at the first user message).
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

export type McpServerStatus = typeof McpServerStatus.Type

/**
 * The reply to `mcp_status`.
 */
export const McpStatusResponse = openStruct({
  mcpServers: Schema.Array(McpServerStatus)
})

export type McpStatusResponse = typeof McpStatusResponse.Type

/**
 * The reply to `mcp_set_servers`.
 */
export const McpSetServersResponse = openStruct({
  added: Schema.Array(Schema.String),
  removed: Schema.Array(Schema.String),
  errors: Schema.Record({ key: Schema.String, value: Schema.String })
})

export type McpSetServersResponse = typeof McpSetServersResponse.Type

/**
 * One category of the context window.
 */
export const ContextUsageCategory = openStruct({
  name: Schema.String,
  tokens: JsonNumber,
  kind: openLiteral("used", "free", "buffer", "deferred"),
  id: optional(Schema.String),
  color: optional(Schema.String),
  isDeferred: optional(Schema.Boolean)
})

export type ContextUsageCategory = typeof ContextUsageCategory.Type

/**
 * The reply to `get_context_usage`. The detailed breakdowns are kept as JSON.
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

export type ContextUsageResponse = typeof ContextUsageResponse.Type

/**
 * The reply to `rewind_files`. Without file checkpointing enabled it is
 * `{ canRewind: false, error: "File rewinding is not enabled." }`.
 */
export const RewindFilesResponse = openStruct({
  canRewind: Schema.Boolean,
  error: optional(Schema.String),
  filesChanged: optional(Schema.Array(Schema.String)),
  insertions: optional(JsonNumber),
  deletions: optional(JsonNumber),
  skippedLinks: optional(JsonNumber)
})

export type RewindFilesResponse = typeof RewindFilesResponse.Type

/**
 * The reply to `interrupt`: the uuids of queued user messages that will still
 * run, and with `cancel_queued` the ones cancelled.
 */
export const InterruptResponse = openStruct({
  still_queued: Schema.Array(Schema.String),
  cancelled: optional(Schema.Array(Schema.String))
})

export type InterruptResponse = typeof InterruptResponse.Type

/**
 * The reply to `set_permission_mode`.
 */
export const SetPermissionModeResponse = openStruct({
  mode: openLiteral(...PermissionMode.literals)
})

export type SetPermissionModeResponse = typeof SetPermissionModeResponse.Type

/**
 * The reply to `set_model`: the resolved model id (aliases resolved).
 */
export const SetModelResponse = openStruct({
  model: Schema.String
})

export type SetModelResponse = typeof SetModelResponse.Type

/**
 * The reply to `list_models`.
 */
export const ListModelsResponse = openStruct({
  models: Schema.Array(ModelInfo)
})

export type ListModelsResponse = typeof ListModelsResponse.Type
