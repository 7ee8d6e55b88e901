/**
 * The permission gate answers the CLI's `can_use_tool` questions. Its
 * presence adds `--permission-prompt-tool stdio`; without it the CLI decides
 * alone (and denies what would need asking). The handler runs under a timeout
 * and error recovery: whatever goes wrong — a failure, a defect, a timeout, an
 * answer that is not a valid permission result — is logged and answered with
 * a deny. The CLI itself never times these requests out.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Tracer from "effect/Tracer"
import type { InboundHandler } from "./ControlRouter.js"
import * as AnswerIssues from "./internal/answerIssues.js"
import * as Deadline from "./internal/deadline.js"
import * as InternalTelemetry from "./internal/telemetry.js"
import * as PermissionResult from "./PermissionResult.js"
// The hook modules only: the Protocol facade would load every schema (command hooks start on each call).
import * as ProtocolPermissions from "./internal/protocol/permissions.js"
import type * as Protocol from "./Protocol.js"
import * as Telemetry from "./Telemetry.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class PermissionGate extends Context.Tag("@claude-effect/sdk/PermissionGate")<
  PermissionGate,
  PermissionGate.Service
>() {}

/**
 * @since 0.1.0
 */
export declare namespace PermissionGate {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /** The user's handler, with its services provided. Use {@link decide} to run it. */
    readonly handler: Handler<unknown, never>
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
 * @since 0.1.0
 * @category Models
 */
export interface Decision {
  readonly result: Protocol.PermissionResult
  readonly fallback: "timeout" | "failure" | "defect" | "invalid_output" | undefined
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
  readonly timeout?: Duration.DurationInput | undefined
}

const DEFAULT_TIMEOUT = Duration.seconds(60)

const validateResult = Schema.validateEither(ProtocolPermissions.PermissionResult, { onExcessProperty: "preserve" })

/**
 * Runs the gate on one request under its timeout and error recovery. Never
 * fails: a failure, a defect, a timeout or an answer that is not a valid
 * permission result is logged and becomes a deny. Shared by sessions and
 * `HookTest`, so both answer alike.
 *
 * @since 0.1.0
 * @category Decisions
 */
export const decide = (
  gate: PermissionGate.Service,
  request: Protocol.CanUseToolRequest,
  context: PermissionContext,
  defaultTimeout: Duration.DurationInput = DEFAULT_TIMEOUT
): Effect.Effect<Decision> =>
  Effect.useSpan(Telemetry.spans.permission, {
    // A stack trace per span costs more than the rest of a control round trip.
    captureStackTrace: false,
    attributes: {
      [Telemetry.attributes.tool]: request.tool_name,
      [Telemetry.attributes.requestId]: context.requestId,
      [Telemetry.attributes.toolUseId]: context.toolUseId
    }
  }, (span) => runGate(gate, request, context, defaultTimeout, span))

// The hot path of every can_use_tool: plain functions wherever no effect is needed.
const runGate = (
  gate: PermissionGate.Service,
  request: Protocol.CanUseToolRequest,
  context: PermissionContext,
  defaultTimeout: Duration.DurationInput,
  span: Tracer.Span
): Effect.Effect<Decision> =>
  Effect.clockWith((clock) => {
    const started = clock.unsafeCurrentTimeMillis()
    const timeout = gate.timeout ?? Duration.decode(defaultTimeout)
    const done = (result: Protocol.PermissionResult, fallback: Decision["fallback"]) =>
      InternalTelemetry.recordPermission(span, request.tool_name, {
        result,
        fallback,
        durationMillis: clock.unsafeCurrentTimeMillis() - started
      })
    const fallback = (reason: NonNullable<Decision["fallback"]>, cause: Cause.Cause<unknown> | string) =>
      Effect.logWarning(`permission gate fell back to deny (${reason})`, cause).pipe(
        Effect.annotateLogs({ tool: request.tool_name, requestId: context.requestId, toolUseId: context.toolUseId }),
        Effect.withParentSpan(span),
        Effect.zipRight(done(
          PermissionResult.deny(`Denied: the permission gate did not give a valid answer (${reason}); failing closed.`),
          reason
        ))
      )
    return Effect.flatMap(
      // The span is the handler's parent (set as its fiber is created), not this fiber's: it costs less.
      Deadline.exitWithin(() => gate.handler(request, context), timeout, span),
      Option.match({
        onNone: () => fallback("timeout", `timed out after ${Duration.format(timeout)}`),
        onSome: Exit.match({
          onFailure: (cause) => fallback(Cause.isFailure(cause) ? "failure" : "defect", cause),
          onSuccess: (result) => {
            const valid = validateResult(result)
            if (Either.isLeft(valid)) {
              return fallback("invalid_output", AnswerIssues.format(valid.left, "the permission result"))
            }
            // What cannot be written as JSON (a BigInt, a cycle) would never reach the CLI, which then waits.
            try {
              JSON.stringify(valid.right)
            } catch (error) {
              return fallback("invalid_output", `the result cannot be written as JSON: ${String(error)}`)
            }
            return done(valid.right, undefined)
          }
        })
      })
    )
  })

/**
 * The router's handler for `can_use_tool`.
 *
 * @since 0.1.0
 * @category Decisions
 */
export const inboundHandler = (
  gate: PermissionGate.Service,
  defaultTimeout?: Duration.DurationInput
): InboundHandler => ({
  subtype: "can_use_tool",
  // An error reply also keeps the tool from running, but an explicit deny says why.
  undecodable: () => PermissionResult.deny("Denied: the SDK could not read this permission request; failing closed."),
  handle: (request, { requestId }) => {
    const call = request as Protocol.CanUseToolRequest
    return Effect.map(
      decide(gate, call, {
        requestId,
        toolUseId: call.tool_use_id,
        suggestions: call.permission_suggestions ?? []
      }, defaultTimeout),
      (decision) => decision.result
    )
  }
})

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
      handler: (request, permissionContext) => Effect.provide(handler(request, permissionContext), context),
      timeout: options?.timeout !== undefined ? Duration.decode(options.timeout) : undefined
    }))

/**
 * A gate from a handler that may use the application's services.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = <E, R>(handler: Handler<E, R>, options?: Options): Layer.Layer<PermissionGate, never, R> =>
  Layer.effect(PermissionGate, make(handler, options))
