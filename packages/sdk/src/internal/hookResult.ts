/**
 * The implementation of `HookResult`: the results, their wire outputs per
 * event, and the fallback output.
 *
 * @internal
 */
import * as Data from "effect/Data"
import * as Predicate from "effect/Predicate"
import type * as HookResult from "../HookResult.js"
import type * as Protocol from "../Protocol.js"
// The hook modules only: the Protocol facade would load every schema (command hooks start on each call).
import * as ProtocolHooks from "./protocol/hooks.js"

/** @internal */
export const TypeId: HookResult.TypeId = Symbol.for("@claude-effect/sdk/HookResult") as HookResult.TypeId

const make = Data.taggedEnum<HookResult.HookResult>()

const tagged = <A extends HookResult.HookResult>(a: A): A => Object.assign(a, { [TypeId]: TypeId })

/** @internal */
export const isHookResult = (u: unknown): u is HookResult.HookResult => Predicate.hasProperty(u, TypeId)

/** @internal */
export const empty: HookResult.HookResult = tagged(make.Empty())

/** @internal */
export const allow = (
  options?: {
    readonly reason?: string | undefined
    readonly updatedInput?: Readonly<Record<string, unknown>> | undefined
  }
): HookResult.HookResult => tagged(make.Allow({ reason: options?.reason, updatedInput: options?.updatedInput }))

/** @internal */
export const deny = (reason: string): HookResult.HookResult => tagged(make.Deny({ reason }))

/** @internal */
export const ask = (reason: string): HookResult.HookResult => tagged(make.Ask({ reason }))

/** @internal */
export const defer: HookResult.HookResult = tagged(make.Defer())

/** @internal */
export const block = (reason: string): HookResult.HookResult => tagged(make.Block({ reason }))

/** @internal */
export const halt = (stopReason: string): HookResult.HookResult => tagged(make.Halt({ stopReason }))

/** @internal */
export const additionalContext = (text: string): HookResult.HookResult => tagged(make.AdditionalContext({ text }))

/** @internal */
export const updatedInput = (input: Readonly<Record<string, unknown>>): HookResult.HookResult =>
  tagged(make.UpdatedInput({ input }))

/** @internal */
export const output = (output: Protocol.SyncHookOutput): HookResult.HookResult => tagged(make.Output({ output }))

/**
 * The events whose answer is a permission decision (hooks on them vote), and
 * so whose fallback is a deny.
 *
 * @internal
 */
export const permissionEvents: ReadonlySet<string> = new Set(["PreToolUse", "PermissionRequest", "PreModelSwitch"])

/** @internal */
export const contextEvents: ReadonlySet<string> = new Set(
  ProtocolHooks.HookSpecificOutput.members.flatMap((member) =>
    "additionalContext" in member.fields ? [member.fields.hookEventName.literal] : []
  )
)

// The events that say their decision with `permissionDecision` (PermissionRequest says it with `decision`).
const decisionEvents: ReadonlySet<string> = new Set(["PreToolUse", "PreModelSwitch"])

/** @internal */
export const toOutput = (event: string, result: HookResult.HookResult): Protocol.SyncHookOutput => {
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
      if (decisionEvents.has(event)) {
        return specific({
          permissionDecision: "allow",
          ...(result.reason !== undefined ? { permissionDecisionReason: result.reason } : {}),
          ...(event === "PreToolUse" && result.updatedInput !== undefined ? { updatedInput: result.updatedInput } : {})
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
      if (decisionEvents.has(event)) {
        return specific({ permissionDecision: "deny", permissionDecisionReason: result.reason })
      }
      if (event === "PermissionRequest") {
        return specific({ decision: { behavior: "deny", message: result.reason } })
      }
      return { decision: "block", reason: result.reason }
    case "Ask":
      return decisionEvents.has(event)
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
 * The fallback policy, stated once: when a hook cannot answer, a voting event
 * ({@link permissionEvents}: the tool does not run, the model is not switched)
 * is answered with a deny saying `message`, every other event with `{}` (no
 * opinion). Session hooks and command hooks both fall back through here.
 *
 * @internal
 */
export const failClosed = (event: string, message: string): Protocol.SyncHookOutput =>
  permissionEvents.has(event) ? toOutput(event, deny(message)) : {}

/** @internal */
export const fallbackOutput = (event: string, why: string): Protocol.SyncHookOutput =>
  failClosed(event, `Denied: the ${event} hook did not give a valid answer (${why}); failing closed.`)
