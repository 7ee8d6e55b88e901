/**
 * The permission gate answers the CLI's `can_use_tool` questions. Its
 * presence adds `--permission-prompt-tool stdio`; without it the CLI decides
 * alone (and denies what would need asking). The handler runs through the
 * SDK's guarded run, like hooks and MCP tools: whatever goes wrong — a
 * failure, a defect, a timeout, an answer that is not a valid permission
 * result or cannot be written as JSON — is logged and answered with a deny.
 * The CLI itself never times these requests out.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { guarded, type InboundHandler } from "./ControlRouter.js"
import * as AnswerIssues from "./internal/answerIssues.js"
import * as GuardedRun from "./internal/guardedRun.js"
import * as HandlerContext from "./internal/handlerContext.js"
// The permission schemas only: the Protocol facade would load every schema (command hooks start on each call).
import * as ProtocolPermissions from "./internal/protocol/permissions.js"
import * as PermissionResult from "./PermissionResult.js"
import type * as Protocol from "./Protocol.js"
import * as Telemetry from "./Telemetry.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class PermissionGate extends Context.Service<PermissionGate, PermissionGate.Service>()(
  "@claude-effect/sdk/PermissionGate"
) {}

/**
 * @since 0.1.0
 */
export declare namespace PermissionGate {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /**
     * The user's handler: run with `services` when given, else with its services provided. Use
     * {@link decide} to run it.
     */
    readonly handler: Handler<unknown, never>
    /**
     * The services the handler runs with (the context the gate was built in). Its fiber is created
     * with them, rather than each call providing them.
     */
    readonly services?: Context.Context<never> | undefined
    /** The gate's own timeout; when unset, the session's `permissionTimeout` option (60 s). */
    readonly timeout: Duration.Duration | undefined
  }
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface PermissionContext {
  readonly requestId: string
  readonly toolUseId: string
  /** The permission updates the CLI suggests (what "always allow" would add). */
  readonly suggestions: ReadonlyArray<Protocol.PermissionUpdate>
}

/**
 * How one `can_use_tool` went: the result sent, and when the deny fallback
 * answered, why.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Outcome {
  /** The `can_use_tool` response the CLI gets. */
  readonly result: Protocol.PermissionResult
  readonly fallback: GuardedRun.FallbackReason | undefined
  readonly durationMillis: number
}

/**
 * @since 0.1.0
 * @category Models
 */
export type Handler<E, R> = (
  request: Protocol.CanUseToolRequest,
  context: PermissionContext
) => Effect.Effect<Protocol.PermissionResult, E, R>

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** How long the handler may take before the deny fallback answers (default: the `permissionTimeout` option). */
  readonly timeout?: Duration.Input | undefined
}

// The fail-closed policy, stated once: whatever keeps the gate from answering validly is a deny saying why.
const policy: GuardedRun.Policy<Protocol.PermissionResult> = {
  kind: "permission",
  fallsBack: "fell back to deny",
  validate: AnswerIssues.validator(ProtocolPermissions.PermissionResult, "the permission result"),
  fallback: (reason) =>
    PermissionResult.deny(`Denied: the permission gate did not give a valid answer (${reason}); failing closed.`),
  decisionOf: (result) => result.behavior,
  decisions: Telemetry.permissionDecisions,
  decisionTag: "tool"
}

const toOutcome: GuardedRun.Finish<Protocol.PermissionResult, Outcome> = (
  result,
  _decision,
  fallback,
  durationMillis
) => ({
  result,
  fallback,
  durationMillis
})

// One call of the gate, as the router starts it and as `decide` runs it.
const callOf = (
  gate: PermissionGate.Service,
  request: Protocol.CanUseToolRequest,
  context: PermissionContext,
  defaultTimeout: Duration.Duration
): GuardedRun.Call<never> => ({
  subject: "permission gate",
  evaluate: () => gate.handler(request, context),
  context: gate.services,
  timeout: gate.timeout ?? defaultTimeout,
  decisionTagValue: request.tool_name,
  annotations: () => ({ tool: request.tool_name, requestId: context.requestId, toolUseId: context.toolUseId })
})

/**
 * Runs the gate on one request through the SDK's guarded run, in a
 * `claude.permission` span. Never fails: a failure, a defect, a timeout or an
 * answer that is not a valid permission result is logged and becomes a deny.
 * Shared by sessions and `HookTest`, so both answer alike.
 *
 * @since 0.1.0
 * @category Decisions
 */
export const decide = (
  gate: PermissionGate.Service,
  request: Protocol.CanUseToolRequest,
  context: PermissionContext,
  defaultTimeout: Duration.Input = GuardedRun.defaultTimeouts.permission
): Effect.Effect<Outcome> =>
  // effect 4's `useSpan` captures no stack trace (v3 needed `captureStackTrace: false` on this hot path).
  Effect.useSpan(Telemetry.spans.permission, {
    attributes: {
      [Telemetry.attributes.tool]: request.tool_name,
      [Telemetry.attributes.requestId]: context.requestId,
      [Telemetry.attributes.toolUseId]: context.toolUseId
    }
  }, (span) =>
    GuardedRun.run(
      policy,
      { ...callOf(gate, request, context, Duration.fromInputUnsafe(defaultTimeout)), span },
      toOutcome
    ))

const spanName = () => Telemetry.spans.permission

/**
 * The router's handler for `can_use_tool`: the gate under the guarded run, in
 * the request's `claude.permission` span.
 *
 * @since 0.1.0
 * @category Decisions
 */
export const inboundHandler = (
  gate: PermissionGate.Service,
  defaultTimeout: Duration.Input = GuardedRun.defaultTimeouts.permission
): InboundHandler => {
  // Decoded once, not per request.
  const timeout = Duration.fromInputUnsafe(defaultTimeout)
  return {
    subtype: "can_use_tool",
    spanName,
    attributes: (request) => {
      const call = request as Protocol.CanUseToolRequest
      return {
        [Telemetry.attributes.tool]: call.tool_name,
        ...(typeof call.tool_use_id === "string" ? { [Telemetry.attributes.toolUseId]: call.tool_use_id } : {})
      }
    },
    // An error reply also keeps the tool from running, but an explicit deny says why.
    undecodable: () => PermissionResult.deny("Denied: the SDK could not read this permission request; failing closed."),
    handle: (request, { requestId }) => {
      const call = request as Protocol.CanUseToolRequest
      return guarded({
        policy,
        call: callOf(gate, call, {
          requestId,
          toolUseId: call.tool_use_id,
          suggestions: call.permission_suggestions ?? []
        }, timeout)
      })
    }
  }
}

/**
 * A gate from a handler that may use the application's services.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = <E, R>(
  handler: Handler<E, R>,
  options?: Options
): Effect.Effect<PermissionGate.Service, never, R> =>
  Effect.map(Effect.context<R>(), (context) =>
    PermissionGate.of({
      // Run with `services` (the guarded run creates the handler's fiber with them), so `R` is met.
      handler: (request, permissionContext) =>
        handler(request, permissionContext) as Effect.Effect<Protocol.PermissionResult, E>,
      // Without the run's own entries (log level and annotations, parent span, scope): effect 4 keeps them in
      // the same Context, and captured here they would replace the caller's at every call.
      services: HandlerContext.capture(context),
      timeout: options?.timeout !== undefined ? Duration.fromInputUnsafe(options.timeout) : undefined
    }))

/**
 * A gate from a handler that may use the application's services.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = <E, R>(handler: Handler<E, R>, options?: Options): Layer.Layer<PermissionGate, never, R> =>
  Layer.effect(PermissionGate, make(handler, options))
