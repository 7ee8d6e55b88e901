/**
 * What a hook handler answers, in words rather than wire fields. Each result
 * is turned into the hook output the CLI expects for the event at hand:
 * `deny` is a `permissionDecision` for PreToolUse and PreModelSwitch, a `decision.behavior` for
 * PermissionRequest and a `decision: "block"` elsewhere.
 *
 * @since 0.1.0
 */
import type * as Data from "effect/Data"
import * as internal from "./internal/hookResult.js"
import type * as Protocol from "./Protocol.js"

/**
 * @since 0.1.0
 * @category Type Ids
 */
export const TypeId: unique symbol = internal.TypeId

/**
 * @since 0.1.0
 * @category Type Ids
 */
export type TypeId = typeof TypeId

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

/**
 * @since 0.1.0
 * @category Guards
 */
export const isHookResult: (u: unknown) => u is HookResult = internal.isHookResult

/**
 * @since 0.1.0
 * @category Constructors
 */
export const empty: HookResult = internal.empty

/**
 * @since 0.1.0
 * @category Constructors
 */
export const allow: (
  options?: {
    readonly reason?: string | undefined
    readonly updatedInput?: Readonly<Record<string, unknown>> | undefined
  }
) => HookResult = internal.allow

/**
 * @since 0.1.0
 * @category Constructors
 */
export const deny: (reason: string) => HookResult = internal.deny

/**
 * @since 0.1.0
 * @category Constructors
 */
export const ask: (reason: string) => HookResult = internal.ask

/**
 * @since 0.1.0
 * @category Constructors
 */
export const defer: HookResult = internal.defer

/**
 * @since 0.1.0
 * @category Constructors
 */
export const block: (reason: string) => HookResult = internal.block

/**
 * @since 0.1.0
 * @category Constructors
 */
export const halt: (stopReason: string) => HookResult = internal.halt

/**
 * @since 0.1.0
 * @category Constructors
 */
export const additionalContext: (text: string) => HookResult = internal.additionalContext

/**
 * @since 0.1.0
 * @category Constructors
 */
export const updatedInput: (input: Readonly<Record<string, unknown>>) => HookResult = internal.updatedInput

/**
 * @since 0.1.0
 * @category Constructors
 */
export const output: (output: Protocol.SyncHookOutput) => HookResult = internal.output

/**
 * The events whose answer is a permission decision (PreToolUse,
 * PermissionRequest, PreModelSwitch): their hooks vote, and a failing hook
 * on them is answered with a deny.
 *
 * @since 0.1.0
 * @category Constants
 */
export const permissionEvents: ReadonlySet<string> = internal.permissionEvents

/**
 * The events whose hook-specific output takes `additionalContext`, read from
 * the Protocol schemas.
 *
 * @since 0.1.0
 * @category Constants
 */
export const contextEvents: ReadonlySet<string> = internal.contextEvents

/**
 * The wire output of a result for an event.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const toOutput: (event: string, result: HookResult) => Protocol.SyncHookOutput = internal.toOutput

/**
 * The answer used when a handler fails, dies, times out or returns something
 * that is not a valid output: deny for permission decisions, `{}` elsewhere.
 *
 * @since 0.1.0
 * @category Conversions
 */
export const fallbackOutput: (event: string, why: string) => Protocol.SyncHookOutput = internal.fallbackOutput
