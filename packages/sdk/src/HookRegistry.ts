/**
 * The hooks of one session: every handler contributed by the hook layers in
 * scope, each with its callback id. It builds the `hooks` map of the
 * initialize request and answers `hook_callback` requests by running the
 * handler under its timeout and error recovery: a handler that fails, dies,
 * outlives its timeout or answers garbage is logged with its cause and
 * answered with the fallback (deny for PreToolUse and PermissionRequest, `{}`
 * elsewhere). The session never crashes because a hook did.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Tracer from "effect/Tracer"
import type { InboundHandler } from "./ControlRouter.js"
import * as HookResult from "./HookResult.js"
import * as AnswerIssues from "./internal/answerIssues.js"
import * as Deadline from "./internal/deadline.js"
import * as HookMatchers from "./internal/hookMatchers.js"
import {
  currentHooks,
  type HookContext,
  type HookRegistration,
  registrationsInOrder
} from "./internal/hookRegistrations.js"
import * as InternalTelemetry from "./internal/telemetry.js"
// The hook modules only: the Protocol facade would load every schema (command hooks start on each call).
import * as ProtocolHooks from "./internal/protocol/hooks.js"
import type * as Protocol from "./Protocol.js"
import * as Telemetry from "./Telemetry.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class HookRegistry extends Context.Tag("@claude-effect/sdk/HookRegistry")<
  HookRegistry,
  HookRegistry.Service
>() {}

/**
 * @since 0.1.0
 */
export declare namespace HookRegistry {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    readonly hooks: ReadonlyArray<RegisteredHook>
    /** The `hooks` field of the initialize request, or undefined when there are none. */
    readonly initializeHooks: Protocol.InitializeRequest["hooks"] | undefined
    /** Runs the hook registered under `callbackId`. Never fails. */
    readonly dispatch: (
      callbackId: string,
      input: Protocol.HookInput,
      context: { readonly requestId: string; readonly toolUseId: string | undefined }
    ) => Effect.Effect<DispatchOutcome>
    /** The router's handler for `hook_callback`. */
    readonly inboundHandler: InboundHandler
  }
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface RegisteredHook extends HookRegistration {
  readonly callbackId: string
  readonly timeoutMillis: number
}

/**
 * How a dispatch went: the output sent, and when the fallback was used, why.
 *
 * @since 0.1.0
 * @category Models
 */
export interface DispatchOutcome {
  readonly output: Protocol.SyncHookOutput
  readonly decision: Decision
  readonly fallback: FallbackReason | undefined
  readonly durationMillis: number
}

/**
 * @since 0.1.0
 * @category Models
 */
export type Decision = "allow" | "deny" | "ask" | "defer" | "block" | "halt" | "context" | "rewrite" | "empty" | "other"

/**
 * @since 0.1.0
 * @category Models
 */
export type FallbackReason = "timeout" | "failure" | "defect" | "invalid_output" | "unknown_callback"

/**
 * @since 0.1.0
 * @category Models
 */
export interface MakeOptions {
  /** The timeout of hooks that set none (default 60 s). */
  readonly defaultTimeout?: Duration.DurationInput | undefined
}

type HookMatcherConfig = NonNullable<Protocol.InitializeRequest["hooks"]>[string][number]

const DEFAULT_TIMEOUT = Duration.seconds(60)

// The CLI's own per-matcher timeout sits above ours, so that our fallback is what answers.
const CLI_TIMEOUT_MARGIN_SECONDS = 5

/**
 * Whether a matcher selects a value, with the CLI's rules: empty or `*`
 * selects everything; a plain name or `A|B` list (for most events also
 * `A, B`) selects exact, case-sensitive names, legacy tool names included;
 * anything else is an unanchored, case-sensitive regular expression. An event
 * with nothing to match on ignores matchers.
 *
 * @since 0.1.0
 * @category Matching
 */
export const matches = (matcher: string | undefined, value: string | undefined, event = "PreToolUse"): boolean =>
  HookMatchers.selects(event, matcher, value)

/**
 * The value a matcher is compared with for an input: the tool name for tool
 * events; the source, trigger, reason, notification type, agent type, ... for
 * the others; `undefined` for events the CLI does not match on.
 *
 * @since 0.1.0
 * @category Matching
 */
export const matchValue: (input: Protocol.HookInput) => string | undefined = HookMatchers.matchValue

/**
 * Whether the CLI calls `hook` for `input`: same event, and a matcher that
 * selects the input.
 *
 * @since 0.1.0
 * @category Matching
 */
export const selects = (
  hook: { readonly event: string; readonly matcher: string | undefined },
  input: Protocol.HookInput
): boolean =>
  hook.event === input.hook_event_name && HookMatchers.selects(hook.event, hook.matcher, HookMatchers.matchValue(input))

/**
 * A permission decision a hook can vote for.
 *
 * @since 0.1.0
 * @category Precedence
 */
export type PermissionVote = "allow" | "deny" | "ask" | "defer"

/**
 * What one hook output says about a permission (PreToolUse, PermissionRequest,
 * PreModelSwitch), read as the CLI reads it: a top-level `decision: "block"`
 * is a deny (whatever else the output says) and `"approve"` an allow.
 *
 * @since 0.1.0
 * @category Precedence
 */
export interface Ballot {
  readonly vote: PermissionVote | undefined
  readonly reason: string | undefined
  /** The input the hook rewrote the tool call to, if any. */
  readonly updatedInput: Record<string, unknown> | undefined
  /** PermissionRequest: the `decision` object as the hook gave it. */
  readonly decision: Record<string, unknown> | undefined
}

/**
 * The events whose hooks vote on a permission (PreModelSwitch: on a model switch).
 *
 * @since 0.1.0
 * @category Precedence
 */
export const votingEvents: ReadonlySet<string> = new Set(["PreToolUse", "PermissionRequest", "PreModelSwitch"])

const isRecord = (u: unknown): u is Record<string, any> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * @since 0.1.0
 * @category Precedence
 */
export const ballotOf = (event: string, output: Protocol.SyncHookOutput): Ballot => {
  const o = output as Record<string, any>
  const specific = isRecord(o.hookSpecificOutput) ? o.hookSpecificOutput : undefined
  const topReason = typeof o.reason === "string" ? o.reason : undefined
  let vote: PermissionVote | undefined = o.decision === "approve" ? "allow" : undefined
  let reason = vote !== undefined ? topReason : undefined
  let updatedInput: Record<string, unknown> | undefined
  let decision: Record<string, unknown> | undefined
  if (specific !== undefined) {
    if (event !== "PermissionRequest" && typeof specific.permissionDecision === "string") {
      vote = specific.permissionDecision as PermissionVote
      reason = typeof specific.permissionDecisionReason === "string" ? specific.permissionDecisionReason : topReason
    }
    if (event === "PermissionRequest" && isRecord(specific.decision)) {
      decision = specific.decision
      vote = specific.decision.behavior === "allow" ? "allow" : "deny"
      reason = typeof specific.decision.message === "string" ? specific.decision.message : undefined
      if (vote === "allow" && isRecord(specific.decision.updatedInput)) updatedInput = specific.decision.updatedInput
    }
    if (isRecord(specific.updatedInput)) updatedInput = specific.updatedInput
  }
  if (o.decision === "block") {
    vote = "deny"
    reason = reason ?? topReason
    decision = undefined
  }
  return { vote, reason, updatedInput, decision }
}

const voteRank: Record<PermissionVote, number> = { deny: 3, ask: 2, allow: 1, defer: 0 }

/**
 * The ballot that decides, by the CLI's precedence: deny > ask > allow >
 * defer, the first ballot at the winning rank. `undefined` when none votes.
 *
 * @since 0.1.0
 * @category Precedence
 */
export const winningBallot = (ballots: ReadonlyArray<Ballot>): Ballot | undefined => {
  let winner: Ballot | undefined
  for (const ballot of ballots) {
    if (ballot.vote !== undefined && (winner === undefined || voteRank[ballot.vote] > voteRank[winner.vote!])) {
      winner = ballot
    }
  }
  return winner
}

/**
 * The last rewrite of the tool input among the ballots, in order.
 *
 * @since 0.1.0
 * @category Precedence
 */
export const lastRewrite = (ballots: ReadonlyArray<Ballot>): Record<string, unknown> | undefined =>
  ballots.reduce<Ballot["updatedInput"]>((last, ballot) => ballot.updatedInput ?? last, undefined)

const decisionOf = (output: Protocol.SyncHookOutput): Decision => {
  const o = output as Record<string, any>
  if (o.continue === false) return "halt"
  const specific = o.hookSpecificOutput as Record<string, any> | undefined
  if (specific?.permissionDecision !== undefined) return specific.permissionDecision as Decision
  if (specific?.decision?.behavior === "allow") return specific.decision.updatedInput ? "rewrite" : "allow"
  if (specific?.decision?.behavior === "deny") return "deny"
  if (o.decision === "block") return "block"
  if (o.decision === "approve") return "allow"
  if (specific?.updatedInput !== undefined) return "rewrite"
  if (specific?.additionalContext !== undefined) return "context"
  return Object.keys(o).length === 0 ? "empty" : "other"
}

const validateSyncOutput = Schema.validateEither(ProtocolHooks.SyncHookOutput, { onExcessProperty: "preserve" })

// What cannot be written as JSON (a BigInt, a cycle) would never reach the CLI, which then waits.
const jsonSafe = <A>(output: A): Either.Either<A, string> => {
  try {
    JSON.stringify(output)
    return Either.right(output)
  } catch (error) {
    return Either.left(`the output cannot be written as JSON: ${String(error)}`)
  }
}

// An output whose hookEventName names another event makes the CLI fail the tool call with an
// opaque error: catch it here, where the fallback can say why.
const validateOutput = (event: string, output: unknown): Either.Either<Protocol.SyncHookOutput, string> => {
  const safe = jsonSafe(output)
  if (Either.isLeft(safe)) return Either.left(safe.left)
  const valid = validateSyncOutput(output)
  if (Either.isLeft(valid)) return Either.left(AnswerIssues.format(valid.left, "the hook output"))
  const specific = (valid.right as { readonly hookSpecificOutput?: { readonly hookEventName?: unknown } })
    .hookSpecificOutput
  if (specific !== undefined && specific.hookEventName !== event) {
    return Either.left(`hookSpecificOutput.hookEventName is ${String(specific.hookEventName)}, not ${event}`)
  }
  return Either.right(valid.right)
}

/**
 * Runs one hook under its timeout and error recovery. Shared by sessions,
 * `HookTest` and command hooks, so that all three answer alike.
 *
 * @since 0.1.0
 * @category Dispatch
 */
export const dispatchHook = (
  hook: RegisteredHook,
  input: Protocol.HookInput,
  context: HookContext
): Effect.Effect<DispatchOutcome> =>
  Effect.useSpan(Telemetry.spans.hook, {
    // A stack trace per span costs more than the rest of a control round trip.
    captureStackTrace: false,
    attributes: {
      [Telemetry.attributes.event]: hook.event,
      [Telemetry.attributes.hookName]: hook.name,
      [Telemetry.attributes.callbackId]: hook.callbackId,
      [Telemetry.attributes.requestId]: context.requestId,
      ...(hook.matcher !== undefined ? { [Telemetry.attributes.matcher]: hook.matcher } : {}),
      ...(context.toolUseId !== undefined ? { [Telemetry.attributes.toolUseId]: context.toolUseId } : {}),
      ...(typeof (input as { tool_name?: unknown }).tool_name === "string"
        ? { [Telemetry.attributes.tool]: (input as { tool_name: string }).tool_name }
        : {})
    }
  }, (span) => runHook(hook, input, context, span))

// The hot path of every hook_callback: plain functions wherever no effect is needed.
const runHook = (
  hook: RegisteredHook,
  input: Protocol.HookInput,
  context: HookContext,
  span: Tracer.Span
): Effect.Effect<DispatchOutcome> =>
  Effect.clockWith((clock) => {
    const started = clock.unsafeCurrentTimeMillis()
    const done = (output: Protocol.SyncHookOutput, fallback: FallbackReason | undefined) =>
      InternalTelemetry.recordHook(span, hook.event, {
        output,
        decision: decisionOf(output),
        fallback,
        durationMillis: clock.unsafeCurrentTimeMillis() - started
      })
    const fallbackWith = (reason: FallbackReason, cause: Cause.Cause<unknown> | string) =>
      Effect.logWarning(`hook "${hook.name}" fell back (${reason})`, cause).pipe(
        Effect.annotateLogs({
          event: hook.event,
          callbackId: hook.callbackId,
          requestId: context.requestId,
          ...(context.toolUseId !== undefined ? { toolUseId: context.toolUseId } : {})
        }),
        Effect.withParentSpan(span),
        Effect.zipRight(done(HookResult.fallbackOutput(hook.event, reason), reason))
      )
    return Effect.flatMap(
      // The span is the handler's parent (set as its fiber is created), not this fiber's: it costs less.
      Deadline.exitWithin(() => hook.handler(input, context), Duration.millis(hook.timeoutMillis), span),
      Option.match({
        onNone: () => fallbackWith("timeout", `timed out after ${hook.timeoutMillis} ms`),
        onSome: Exit.match({
          onFailure: (cause) => fallbackWith(Cause.isFailure(cause) ? "failure" : "defect", cause),
          onSuccess: (answer) => {
            const valid = answer === undefined || answer === null
              ? Either.right({})
              : !HookResult.isHookResult(answer)
              ? validateOutput(hook.event, answer)
              : answer._tag === "Output"
              ? validateOutput(hook.event, answer.output)
              // Built by toOutput, valid by construction: only user data (an updated input) can break it.
              : jsonSafe(HookResult.toOutput(hook.event, answer))
            return Either.isRight(valid)
              ? done(valid.right, undefined)
              : fallbackWith("invalid_output", valid.left)
          }
        })
      })
    )
  })

/**
 * Registers the given hooks, numbering their callback ids.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const fromRegistrations = (
  registrations: ReadonlyArray<HookRegistration>,
  options?: MakeOptions
): HookRegistry.Service => {
  const defaultMillis = Duration.toMillis(Duration.decode(options?.defaultTimeout ?? DEFAULT_TIMEOUT))
  const hooks: ReadonlyArray<RegisteredHook> = registrations.map((registration, index) => ({
    ...registration,
    callbackId: `hook_${index}_${registration.event}`,
    timeoutMillis: registration.timeout !== undefined
      ? Duration.toMillis(Duration.decode(registration.timeout))
      : defaultMillis
  }))
  const byId = new Map(hooks.map((hook) => [hook.callbackId, hook] as const))

  let initializeHooks: Record<string, Array<HookMatcherConfig>> | undefined
  for (const hook of hooks) {
    initializeHooks ??= {}
    const seconds = Number.isFinite(hook.timeoutMillis)
      ? Math.ceil(hook.timeoutMillis / 1000) + CLI_TIMEOUT_MARGIN_SECONDS
      : undefined
    const entry: HookMatcherConfig = {
      ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
      hookCallbackIds: [hook.callbackId],
      ...(seconds !== undefined ? { timeout: seconds } : {}),
      // Should an answer ever fail to reach the CLI, a permission event still fails closed.
      ...(HookResult.permissionEvents.has(hook.event) ? { onFailure: "block" as const } : {})
    }
    ;(initializeHooks[hook.event] ??= []).push(entry)
  }

  const dispatch: HookRegistry.Service["dispatch"] = (callbackId, input, context) => {
    const hook = byId.get(callbackId)
    if (hook === undefined) {
      const event = input.hook_event_name
      return Effect.logWarning(`hook_callback for an unknown callback id "${callbackId}"`).pipe(
        Effect.as<DispatchOutcome>({
          output: HookResult.fallbackOutput(event, "unknown callback id"),
          decision: HookResult.permissionEvents.has(event) ? "deny" : "empty",
          fallback: "unknown_callback",
          durationMillis: 0
        })
      )
    }
    return dispatchHook(hook, input, { event: hook.event, callbackId, ...context })
  }

  return HookRegistry.of({
    hooks,
    initializeHooks: initializeHooks as Protocol.InitializeRequest["hooks"] | undefined,
    dispatch,
    inboundHandler: {
      subtype: "hook_callback",
      // An error reply would mean "no opinion" (the tool runs): answer the event's fallback instead.
      undecodable: (raw) => {
        const event = (raw as { input?: { hook_event_name?: unknown } })?.input?.hook_event_name
        return HookResult.fallbackOutput(typeof event === "string" ? event : "PreToolUse", "undecodable input")
      },
      handle: (request, { requestId }) => {
        const call = request as Protocol.HookCallbackRequest
        return Effect.map(
          dispatch(call.callback_id, call.input, {
            requestId,
            // For events without a tool the CLI sends a random id here: it names nothing, so leave it out.
            toolUseId: typeof (call.input as { tool_use_id?: unknown }).tool_use_id === "string"
              ? call.tool_use_id ?? undefined
              : undefined
          }),
          (outcome) => outcome.output
        )
      }
    }
  })
}

/**
 * Collects the hooks of every hook layer in scope.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (options?: MakeOptions): Effect.Effect<HookRegistry.Service> =>
  Effect.map(FiberRef.get(currentHooks), (hooks) => fromRegistrations(registrationsInOrder(hooks), options))

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (options?: MakeOptions): Layer.Layer<HookRegistry> => Layer.effect(HookRegistry, make(options))
