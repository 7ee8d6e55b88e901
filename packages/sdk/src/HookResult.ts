/**
 * What a hook handler answers, in words rather than wire fields. Each result
 * is turned into the hook output the CLI expects for the event at hand:
 * `deny` is a `permissionDecision` for PreToolUse, a `decision.behavior` for
 * PermissionRequest and a `decision: "block"` elsewhere.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Predicate from "effect/Predicate"
// The hook modules only: the Protocol facade would load every schema (command hooks start on each call).
import * as ProtocolHooks from "./internal/protocol/hooks.js"
import type * as Protocol from "./Protocol.js"

/**
 * @since 0.1.0
 * @category Type Ids
 */
export const TypeId: unique symbol = Symbol.for("@claude-effect/sdk/HookResult")

/**
 * @since 0.1.0
 * @category Models
 */
export type HookResult = Data.TaggedEnum<{
  /** No opinion: the CLI goes on as if there were no hook. */
  Empty: {}
  /** Allow the tool call without asking, optionally with a rewritten input. */
  Allow: { readonly reason?: string | undefined; readonly updatedInput?: Readonly<Record<string, unknown>> | undefined }
  /** Refuse: the tool does not run (PreToolUse, PermissionRequest) or the action is blocked. */
  Deny: { readonly reason: string }
  /** Ask the permission gate (PreToolUse). */
  Ask: { readonly reason: string }
  /** End the turn and hand the tool call back to the host (PreToolUse). */
  Defer: {}
  /** `decision: "block"`: Stop continues the agent, UserPromptSubmit drops the prompt, ... */
  Block: { readonly reason: string }
  /** `continue: false`: stop the run after this point. */
  Halt: { readonly stopReason: string }
  /** Extra context for the model (PreToolUse, PostToolUse, UserPromptSubmit, Stop, ...). */
  AdditionalContext: { readonly text: string }
  /** Run the tool with this input (PreToolUse: still permission-checked; PermissionRequest: allowed). */
  UpdatedInput: { readonly input: Readonly<Record<string, unknown>> }
  /** A complete hook output, sent as it is. */
  Output: { readonly output: Protocol.SyncHookOutput }
}>

const make = Data.taggedEnum<HookResult>()

const tagged = <A extends HookResult>(a: A): A => Object.assign(a, { [TypeId]: TypeId })

/**
 * @since 0.1.0
 * @category Guards
 */
export const isHookResult = (u: unknown): u is HookResult => Predicate.hasProperty(u, TypeId)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const empty: HookResult = tagged(make.Empty())

/**
 * @since 0.1.0
 * @category Constructors
 */
export const allow = (
  options?: {
    readonly reason?: string | undefined
    readonly updatedInput?: Readonly<Record<string, unknown>> | undefined
  }
): HookResult => tagged(make.Allow({ reason: options?.reason, updatedInput: options?.updatedInput }))

/**
 * @since 0.1.0
 * @category Constructors
 */
export const deny = (reason: string): HookResult => tagged(make.Deny({ reason }))

/**
 * @since 0.1.0
 * @category Constructors
 */
export const ask = (reason: string): HookResult => tagged(make.Ask({ reason }))

/**
 * @since 0.1.0
 * @category Constructors
 */
export const defer: HookResult = tagged(make.Defer())

/**
 * @since 0.1.0
 * @category Constructors
 */
export const block = (reason: string): HookResult => tagged(make.Block({ reason }))

/**
 * @since 0.1.0
 * @category Constructors
 */
export const halt = (stopReason: string): HookResult => tagged(make.Halt({ stopReason }))

/**
 * @since 0.1.0
 * @category Constructors
 */
export const additionalContext = (text: string): HookResult => tagged(make.AdditionalContext({ text }))

/**
 * @since 0.1.0
 * @category Constructors
 */
export const updatedInput = (input: Readonly<Record<string, unknown>>): HookResult =>
  tagged(make.UpdatedInput({ input }))

/**
 * @since 0.1.0
 * @category Constructors
 */
export const output = (output: Protocol.SyncHookOutput): HookResult => tagged(make.Output({ output }))

/**
 * The events whose answer is a permission decision: a failing hook on them
 * is answered with a deny.
 *
 * @since 0.1.0
 * @category Constants
 */
export const permissionEvents: ReadonlySet<string> = new Set(["PreToolUse", "PermissionRequest"])

/**
 * The events whose hook-specific output takes `additionalContext`, read from
 * the Protocol schemas.
 *
 * @since 0.1.0
 * @category Constants
 */
export const contextEvents: ReadonlySet<string> = new Set(
  ProtocolHooks.HookSpecificOutput.members.flatMap((member) =>
    "additionalContext" in member.fields ? [member.fields.hookEventName.literals[0] as string] : []
  )
)

/**
 * The wire output of a result for an event.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const toOutput = (event: string, result: HookResult): Protocol.SyncHookOutput => {
  const specific = (fields: Record<string, unknown>) =>
    ({ hookSpecificOutput: { hookEventName: event, ...fields } }) as Protocol.SyncHookOutput
  switch (result._tag) {
    case "Empty":
      return {}
    case "Output":
      return result.output
    case "Halt":
      return { continue: false, stopReason: result.stopReason }
    case "AdditionalContext":
      // Only some events take extra context; elsewhere the output would be invalid (and fall back).
      return contextEvents.has(event) ? specific({ additionalContext: result.text }) : {}
    case "Allow":
      if (event === "PreToolUse") {
        return specific({
          permissionDecision: "allow",
          ...(result.reason !== undefined ? { permissionDecisionReason: result.reason } : {}),
          ...(result.updatedInput !== undefined ? { updatedInput: result.updatedInput } : {})
        })
      }
      if (event === "PermissionRequest") {
        return specific({
          decision: {
            behavior: "allow",
            ...(result.updatedInput !== undefined ? { updatedInput: result.updatedInput } : {})
          }
        })
      }
      return {}
    // Block and Deny say the same thing; each event has one way of saying it.
    case "Deny":
    case "Block":
      if (event === "PreToolUse") {
        return specific({ permissionDecision: "deny", permissionDecisionReason: result.reason })
      }
      if (event === "PermissionRequest") {
        return specific({ decision: { behavior: "deny", message: result.reason } })
      }
      return { decision: "block", reason: result.reason }
    case "Ask":
      return event === "PreToolUse"
        ? specific({ permissionDecision: "ask", permissionDecisionReason: result.reason })
        : {}
    case "Defer":
      return event === "PreToolUse" ? specific({ permissionDecision: "defer" }) : {}
    case "UpdatedInput":
      if (event === "PermissionRequest") {
        return specific({ decision: { behavior: "allow", updatedInput: result.input } })
      }
      return event === "PreToolUse" ? specific({ updatedInput: result.input }) : {}
  }
}

/**
 * The answer used when a handler fails, dies, times out or returns something
 * that is not a valid output: deny for permission decisions, `{}` elsewhere.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const fallbackOutput = (event: string, why: string): Protocol.SyncHookOutput =>
  permissionEvents.has(event) ?
    toOutput(event, deny(`Denied: the ${event} hook did not give a valid answer (${why}); failing closed.`)) :
    {}
