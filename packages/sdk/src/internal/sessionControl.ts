/**
 * The session's control methods: each one request of the table
 * (`controlRequests`), sent through the router, which encodes the payload
 * and decodes the reply with the request's own schemas. MCP server statuses
 * come back with their configs' secrets hidden (`mcpServerStatusUnredacted`
 * is the way to see them).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as ControlRouter from "../ControlRouter.js"
import type { McpServer } from "../McpServer.js"
import type * as Protocol from "../Protocol.js"
import type { Session } from "../Session.js"
import { ControlError } from "./claudeError.js"
import * as IssuePath from "./issuePath.js"
import type { SessionServers } from "./mcpConnection.js"
import { isServer } from "./mcpServer.js"
import * as Secrets from "./options/secrets.js"
import { controlRequests as requests } from "./protocol/control.js"
import { McpReadResourceResponse } from "./protocol/responses.js"
import * as Redaction from "./redaction.js"

/** The members of `Session` that are control requests. */
export type ControlMethods = Omit<
  Session,
  | "pid"
  | "initialization"
  | "sessionId"
  | "send"
  | "turn"
  | "receiveTurn"
  | "result"
  | "messages"
  | "endInput"
  | "stderr"
>

/**
 * Reads a resource of an SDK server in process: the CLI refuses
 * `mcp_read_resource` for SDK servers (their host can read them directly).
 * The answer has the shape of the CLI's; an MCP error is an `ErrorResponse`.
 */
const readInProcess = (
  answered: Effect.Effect<unknown>,
  serverName: string,
  uri: string
): Effect.Effect<Protocol.McpReadResourceResponse, ControlError> =>
  Effect.flatMap(answered, (response) => {
    const requestId = `in-process:${serverName}`
    const error = (response as { readonly error?: { readonly message?: unknown; readonly code?: unknown } }).error
    if (error !== undefined) {
      return Effect.fail(
        new ControlError({
          reason: "ErrorResponse",
          subtype: "mcp_read_resource",
          requestId,
          error: `${serverName}: ${String(error.message)}`,
          ...(error.code !== undefined ? { errorCode: String(error.code) } : {})
        })
      )
    }
    return Result.match(
      Schema.decodeUnknownResult(McpReadResourceResponse)((response as { result?: unknown }).result),
      {
        onFailure: (error) =>
          Effect.fail(
            new ControlError({
              reason: "InvalidResponse",
              subtype: "mcp_read_resource",
              requestId,
              error: `unexpected resources/read result for ${uri}: ${IssuePath.describe(error.issue)}`,
              cause: error
            })
          ),
        onSuccess: Effect.succeed
      }
    )
  })

/**
 * A server's status fit to hand out: every value of its config's `env` and `headers` blocks, of its secret-looking
 * keys and flags hidden, and the session's secrets wherever they occur.
 */
const redactStatus = (redactor: Redaction.Redactor) => (status: Protocol.McpServerStatus): Protocol.McpServerStatus =>
  Redaction.redactJson(
    redactor,
    status.config === undefined
      ? status
      // redactDeep keeps JSON as JSON: strings stand in for what it hides.
      : { ...status, config: Secrets.redactDeep(status.config) as Protocol.McpServerStatus["config"] }
  )

/** @internal */
export const make = (
  router: ControlRouter.ControlRouter.Service,
  initialization: Protocol.InitializeResponse,
  mcp: SessionServers | undefined,
  redactor: Redaction.Redactor
): ControlMethods => ({
  interrupt: router.request(requests.interrupt, {}),
  setPermissionMode: (mode) => Effect.asVoid(router.request(requests.set_permission_mode, { mode })),
  setMcpPermissionModeOverride: (serverName, mode) =>
    Effect.map(
      router.request(requests.set_mcp_permission_mode_override, { serverName, mode }),
      (response) => response ?? {}
    ),
  setModel: (model) => Effect.asVoid(router.request(requests.set_model, model === undefined ? {} : { model })),
  setMaxThinkingTokens: (maxThinkingTokens, thinkingDisplay) =>
    router.request(requests.set_max_thinking_tokens, {
      max_thinking_tokens: maxThinkingTokens,
      ...(thinkingDisplay !== undefined ? { thinking_display: thinkingDisplay } : {})
    }),
  applyFlagSettings: (settings) => router.request(requests.apply_flag_settings, { settings }),
  updateSettings: (source, settings) => router.request(requests.update_settings, { source, settings }),
  supportedCommands: Effect.sync(() => initialization.commands),
  supportedModels: Effect.sync(() => initialization.models),
  supportedAgents: Effect.sync(() => initialization.agents),
  accountInfo: Effect.sync(() => initialization.account),
  mcpServerStatus: Effect.map(
    router.request(requests.mcp_status, {}),
    (response) => response.mcpServers.map(redactStatus(redactor))
  ),
  mcpServerStatusUnredacted: Effect.map(router.request(requests.mcp_status, {}), (response) => response.mcpServers),
  getContextUsage: router.request(requests.get_context_usage, {}),
  usage: (options) =>
    router.request(requests.get_usage, options?.skipBehaviors === true ? { skip_behaviors: true } : {}),
  readFile: (path, options) =>
    router.request(requests.read_file, {
      path,
      ...(options?.maxBytes !== undefined ? { max_bytes: options.maxBytes } : {}),
      ...(options?.encoding !== undefined ? { encoding: options.encoding } : {})
    }),
  reloadPlugins: (options) =>
    Effect.map(
      router.request(requests.reload_plugins, {
        ...(options?.holdOnCacheImpact === true ? { hold_on_cache_impact: true } : {}),
        ...(options?.addPlugins !== undefined && options.addPlugins.length > 0
          ? { add_plugins: options.addPlugins.map((plugin) => ({ ...plugin })) }
          : {}),
        ...(options?.refuseIfBusy === true ? { refuse_if_busy: true } : {})
      }),
      (response) => ({ ...response, mcpServers: response.mcpServers.map(redactStatus(redactor)) })
    ),
  reloadSkills: router.request(requests.reload_skills, {}),
  reloadOutputStyles: router.request(requests.reload_output_styles, {}),
  rewindFiles: (userMessageId, options) =>
    router.request(requests.rewind_files, {
      user_message_id: userMessageId,
      ...(options?.dryRun !== undefined ? { dry_run: options.dryRun } : {})
    }),
  seedReadState: (path, mtime) => router.request(requests.seed_read_state, { path, mtime }),
  reconnectMcpServer: (serverName) => router.request(requests.mcp_reconnect, { serverName }),
  toggleMcpServer: (serverName, enabled) => router.request(requests.mcp_toggle, { serverName, enabled }),
  readMcpResource: (serverName, uri) =>
    Effect.suspend(() => {
      const answered: Effect.Effect<unknown> | undefined = mcp?.call(serverName, {
        jsonrpc: "2.0",
        id: 0,
        method: "resources/read",
        params: { uri }
      }, `readMcpResource:${serverName}`)
      return answered === undefined
        ? router.request(requests.mcp_read_resource, { serverName, uri })
        : readInProcess(answered, serverName, uri)
    }),
  setMcpServers: (servers) =>
    Effect.suspend(() => {
      // In-process servers go to the CLI as `{ type: "sdk", name }` and are served here from now on.
      const sdk = new Map<string, McpServer>()
      const wire: Record<string, Protocol.McpServerConfig> = {}
      for (const [name, config] of Object.entries(servers)) {
        if (isServer(config)) {
          sdk.set(name, config)
          wire[name] = { type: "sdk", name }
        } else {
          wire[name] = config as Protocol.McpServerConfig
        }
      }
      if (mcp === undefined) return router.request(requests.mcp_set_servers, { servers: wire })
      // Served before the request: the CLI connects the new servers as it applies it.
      const previous = mcp.current()
      return Effect.andThen(
        mcp.replace(sdk),
        Effect.tapError(router.request(requests.mcp_set_servers, { servers: wire }), () => mcp.replace(previous))
      )
    }),
  stopTask: (taskId) => router.request(requests.stop_task, { task_id: taskId }),
  backgroundTasks: (toolUseId) =>
    Effect.map(
      router.request(requests.background_tasks, toolUseId === undefined ? {} : { tool_use_id: toolUseId }),
      // CLI 2.1.328 answers `{}`; a later one says `backgrounded: false` when nothing matched.
      (response) => response.backgrounded ?? true
    ),
  getTaskOutput: (taskId) => router.request(requests.get_task_output, { task_id: taskId }),
  request: (request, payload) => router.request(request, payload)
})
