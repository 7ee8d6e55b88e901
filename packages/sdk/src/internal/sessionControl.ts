/**
 * The session's control methods: each outbound control request the CLI
 * accepts, as a typed `Session` member.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type * as ControlRouter from "../ControlRouter.js"
import type * as Protocol from "../Protocol.js"
import type { Session } from "../Session.js"

/** The members of `Session` that are control requests. */
export type ControlMethods = Omit<
  Session,
  "pid" | "initialization" | "sessionId" | "send" | "turn" | "receiveTurn" | "messages" | "endInput"
>

/** @internal */
export const make = (
  router: ControlRouter.ControlRouter.Service,
  initialization: Protocol.InitializeResponse
): ControlMethods => {
  const request = (payload: Protocol.OutboundControlRequestPayload) => router.request(payload)
  const requestAs = <A>(payload: Record<string, unknown>) =>
    router.request(payload as Protocol.OutboundControlRequestPayload) as Effect.Effect<A, any>
  return {
    interrupt: requestAs<Protocol.InterruptResponse>({ subtype: "interrupt" }).pipe(
      Effect.map((response) => response ?? ({ still_queued: [] } as unknown as Protocol.InterruptResponse))
    ),
    setPermissionMode: (mode) => Effect.asVoid(requestAs({ subtype: "set_permission_mode", mode })),
    setModel: (model) =>
      Effect.asVoid(requestAs(model === undefined ? { subtype: "set_model" } : { subtype: "set_model", model })),
    setMaxThinkingTokens: (tokens) =>
      Effect.asVoid(requestAs({ subtype: "set_max_thinking_tokens", max_thinking_tokens: tokens })),
    mcpServerStatus: Effect.map(
      requestAs<Protocol.McpStatusResponse | undefined>({ subtype: "mcp_status" }),
      (response) => response?.mcpServers ?? []
    ),
    supportedCommands: Effect.sync(() => initialization.commands ?? []),
    supportedModels: Effect.sync(() => initialization.models ?? []),
    getContextUsage: requestAs<Protocol.ContextUsageResponse>({ subtype: "get_context_usage" }),
    rewindFiles: (userMessageId, rewindOptions) =>
      requestAs<Protocol.RewindFilesResponse>({
        subtype: "rewind_files",
        user_message_id: userMessageId,
        ...(rewindOptions?.dryRun !== undefined ? { dry_run: rewindOptions.dryRun } : {})
      }),
    stopTask: (taskId) => Effect.asVoid(requestAs({ subtype: "stop_task", task_id: taskId })),
    request
  }
}
