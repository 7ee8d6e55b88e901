/**
 * Test hook layers and permission gates without a CLI: `HookTest.run` feeds a
 * hook input to every hook in scope whose event and matcher select it — the
 * CLI's matcher rules, emulated — through the same dispatch the runtime uses
 * (timeouts, fallbacks, concurrency), and returns what the CLI would receive
 * and what it would conclude. `HookTest.decide` does the same for the
 * permission gate. No process is spawned, so property tests can run
 * thousands of inputs.
 *
 * ```ts
 * it.effect("the guard denies rm -rf", () =>
 *   Effect.gen(function*() {
 *     const outcome = yield* HookTest.run(HookTest.preToolUse("Bash", { command: "rm -rf /" }))
 *     assert.strictEqual(outcome.permissionDecision, "deny")
 *   }).pipe(Effect.provide(guardLayer)))
 * ```
 *
 * @since 0.1.0
 */
import type { PermissionGate as Gate, Protocol } from "@claude-effect/sdk"
import * as HookRegistry from "@claude-effect/sdk/HookRegistry"
import * as PermissionGate from "@claude-effect/sdk/PermissionGate"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/**
 * One hook's answer.
 *
 * @since 0.1.0
 * @category Models
 */
export interface HookRun {
  readonly name: string
  readonly event: string
  readonly matcher: string | undefined
  readonly callbackId: string
  /** The `hook_callback` response body the CLI would get. */
  readonly output: Protocol.SyncHookOutput
  readonly decision: HookRegistry.Decision
  /** Why the fallback answered, if it did. */
  readonly fallback: HookRegistry.FallbackReason | undefined
  readonly durationMillis: number
}

/**
 * What the CLI would make of all the answers to one event.
 *
 * @since 0.1.0
 * @category Models
 */
export interface HookOutcome {
  /** Every hook that matched, in registration order. */
  readonly runs: ReadonlyArray<HookRun>
  /** The permission decision with the CLI's precedence: deny > ask > allow > defer. */
  readonly permissionDecision: "allow" | "deny" | "ask" | "defer" | undefined
  /** The reason given with the winning permission decision or block. */
  readonly reason: string | undefined
  /** The input the tool would run with, when a hook rewrote it. */
  readonly updatedInput: Readonly<Record<string, unknown>> | undefined
  /** `decision: "block"` from any hook. */
  readonly blocked: boolean
  /** `continue: false` from any hook. */
  readonly halted: boolean
  readonly stopReason: string | undefined
  /** Every `additionalContext`, in registration order. */
  readonly additionalContext: ReadonlyArray<string>
  readonly systemMessages: ReadonlyArray<string>
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface RunOptions {
  /** The timeout of hooks that set none (default 60 s, as in sessions). */
  readonly defaultTimeout?: Duration.DurationInput | undefined
  readonly requestId?: string | undefined
}

const precedence = ["deny", "ask", "allow", "defer"] as const

const permissionOf = (output: Protocol.SyncHookOutput) => {
  const o = output as Record<string, any>
  const specific = o.hookSpecificOutput as Record<string, any> | undefined
  if (specific?.permissionDecision !== undefined) {
    return {
      decision: specific.permissionDecision as (typeof precedence)[number],
      reason: specific.permissionDecisionReason as string | undefined,
      updatedInput: specific.updatedInput as Record<string, unknown> | undefined
    }
  }
  if (specific?.decision?.behavior === "allow" || specific?.decision?.behavior === "deny") {
    return {
      decision: specific.decision.behavior as "allow" | "deny",
      reason: specific.decision.message as string | undefined,
      updatedInput: specific.decision.updatedInput as Record<string, unknown> | undefined
    }
  }
  if (o.decision === "block") {
    return { decision: "deny" as const, reason: o.reason as string | undefined, updatedInput: undefined }
  }
  if (o.decision === "approve") {
    return { decision: "allow" as const, reason: o.reason as string | undefined, updatedInput: undefined }
  }
  if (specific?.updatedInput !== undefined) {
    return { decision: undefined, reason: undefined, updatedInput: specific.updatedInput as Record<string, unknown> }
  }
  return undefined
}

/**
 * Combines the answers of several hooks as the CLI does.
 *
 * @since 0.1.0
 * @category Combinators
 */
export const combine = (event: string, runs: ReadonlyArray<HookRun>): HookOutcome => {
  const permissions = runs.map((run) => permissionOf(run.output)).filter((p) => p !== undefined)
  const permissionEvent = event === "PreToolUse" || event === "PermissionRequest"
  const winner = permissionEvent
    ? precedence.map((d) => permissions.find((p) => p.decision === d)).find((p) => p !== undefined)
    : undefined
  const rewrite = winner?.updatedInput ?? permissions.find((p) => p.decision === undefined)?.updatedInput
  const outputs = runs.map((run) => run.output as Record<string, any>)
  const blockedBy = outputs.find((o) => o.decision === "block")
  const haltedBy = outputs.find((o) => o.continue === false)
  return {
    runs,
    permissionDecision: winner?.decision,
    reason: winner?.reason ?? blockedBy?.reason,
    updatedInput: winner?.decision === "deny" ? undefined : rewrite,
    blocked: blockedBy !== undefined,
    halted: haltedBy !== undefined,
    stopReason: haltedBy?.stopReason,
    additionalContext: outputs.flatMap((o) =>
      typeof o.hookSpecificOutput?.additionalContext === "string" ? [o.hookSpecificOutput.additionalContext] : []
    ),
    systemMessages: outputs.flatMap((o) => typeof o.systemMessage === "string" ? [o.systemMessage] : [])
  }
}

let requestCounter = 0

/**
 * Runs every hook layer in scope that the CLI would call for `input`, all at
 * once, as the CLI does, and combines their answers.
 *
 * @since 0.1.0
 * @category Running
 */
export const run = (input: Protocol.HookInput, options?: RunOptions): Effect.Effect<HookOutcome> =>
  Effect.gen(function*() {
    const registry = yield* HookRegistry.make({ defaultTimeout: options?.defaultTimeout })
    const value = HookRegistry.matchValue(input)
    const selected = registry.hooks.filter((hook) =>
      hook.event === input.hook_event_name && HookRegistry.matches(hook.matcher, value)
    )
    const requestId = options?.requestId ?? `hooktest_${++requestCounter}`
    const toolUseId = typeof (input as { tool_use_id?: unknown }).tool_use_id === "string"
      ? (input as { tool_use_id: string }).tool_use_id
      : undefined
    const runs = yield* Effect.forEach(
      selected,
      (hook) =>
        Effect.map(
          HookRegistry.dispatchHook(hook, input, {
            event: hook.event,
            callbackId: hook.callbackId,
            requestId,
            toolUseId
          }),
          (outcome): HookRun => ({
            name: hook.name,
            event: hook.event,
            matcher: hook.matcher,
            callbackId: hook.callbackId,
            output: outcome.output,
            decision: outcome.decision,
            fallback: outcome.fallback,
            durationMillis: outcome.durationMillis
          })
        ),
      { concurrency: "unbounded" }
    )
    return combine(input.hook_event_name, runs)
  })

/**
 * Asks the permission gate in scope, with the session's timeout and deny
 * fallback.
 *
 * @since 0.1.0
 * @category Running
 */
export const decide = (
  request: Pick<Protocol.CanUseToolRequest, "tool_name" | "input"> & Partial<Protocol.CanUseToolRequest>,
  options?: { readonly defaultTimeout?: Duration.DurationInput | undefined }
): Effect.Effect<Gate.Decision, never, PermissionGate.PermissionGate> =>
  Effect.flatMap(PermissionGate.PermissionGate, (gate) => {
    const full = {
      subtype: "can_use_tool",
      tool_use_id: `toolu_hooktest_${++requestCounter}`,
      ...request
    } as Protocol.CanUseToolRequest
    return PermissionGate.decide(gate, full, {
      requestId: `hooktest_${requestCounter}`,
      toolUseId: full.tool_use_id,
      suggestions: full.permission_suggestions ?? []
    }, options?.defaultTimeout)
  })

const base = (event: string, overrides?: Partial<Record<string, unknown>>) => ({
  session_id: "00000000-0000-4000-8000-000000000000",
  transcript_path: "/tmp/hooktest/transcript.jsonl",
  cwd: process.cwd(),
  permission_mode: "default",
  hook_event_name: event,
  ...overrides
})

/**
 * A PreToolUse input with plausible base fields.
 *
 * @since 0.1.0
 * @category Inputs
 */
export const preToolUse = (
  toolName: string,
  toolInput: Readonly<Record<string, unknown>>,
  overrides?: Partial<Record<string, unknown>>
): Protocol.HookInput =>
  base("PreToolUse", {
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: `toolu_hooktest_${++requestCounter}`,
    ...overrides
  }) as unknown as Protocol.HookInput

/**
 * A PostToolUse input with plausible base fields.
 *
 * @since 0.1.0
 * @category Inputs
 */
export const postToolUse = (
  toolName: string,
  toolInput: Readonly<Record<string, unknown>>,
  toolResponse: unknown,
  overrides?: Partial<Record<string, unknown>>
): Protocol.HookInput =>
  base("PostToolUse", {
    tool_name: toolName,
    tool_input: toolInput,
    tool_response: toolResponse,
    tool_use_id: `toolu_hooktest_${++requestCounter}`,
    ...overrides
  }) as unknown as Protocol.HookInput

/**
 * A UserPromptSubmit input with plausible base fields.
 *
 * @since 0.1.0
 * @category Inputs
 */
export const userPromptSubmit = (prompt: string, overrides?: Partial<Record<string, unknown>>): Protocol.HookInput =>
  base("UserPromptSubmit", { prompt, ...overrides }) as unknown as Protocol.HookInput

/**
 * Any event's input with plausible base fields.
 *
 * @since 0.1.0
 * @category Inputs
 */
export const input = (event: Protocol.HookEvent, fields?: Partial<Record<string, unknown>>): Protocol.HookInput =>
  base(event, fields) as unknown as Protocol.HookInput
