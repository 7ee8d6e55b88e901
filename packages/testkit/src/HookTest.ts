/**
 * Test hook layers and permission gates without a CLI. `HookTest.run` feeds
 * one hook input to every hook in scope that the CLI would call for it (its
 * matcher rules, emulated), all at once as the CLI does, through the
 * runtime's own dispatch (timeouts, fallbacks, error recovery), and returns
 * each hook's wire answer and what the CLI would conclude from all of them.
 * `HookTest.decide` does the same for the permission gate. No process is
 * spawned, so a property test can run thousands of inputs.
 *
 * ```ts
 * it.effect("the guard denies rm -rf /", () =>
 *   Effect.gen(function*() {
 *     const outcome = yield* HookTest.run(HookTest.preToolUse("Bash", { command: "rm -rf /" }))
 *     assert.strictEqual(outcome.permissionDecision, "deny")
 *   }).pipe(Effect.provide(guard)))
 * ```
 *
 * Hooks are timed with the Effect `Clock`: under `it.effect` (a `TestClock`)
 * a hook that sleeps needs `TestClock.adjust`; use `it.live` for real time.
 *
 * @since 0.1.0
 */
import type { PermissionGate as Gate, Protocol } from "@claude-effect/sdk"
import * as HookRegistry from "@claude-effect/sdk/HookRegistry"
import * as PermissionGate from "@claude-effect/sdk/PermissionGate"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"

// -----------------------------------------------------------------------------
// Models
// -----------------------------------------------------------------------------

/**
 * One hook's answer: the registry's own record of a run.
 *
 * @since 0.1.0
 * @category Models
 */
export type HookRun = HookRegistry.HookRun

/**
 * A permission decision, as a hook gives it.
 *
 * @since 0.1.0
 * @category Models
 */
export type PermissionDecision = HookRegistry.PermissionVote

/**
 * What the CLI would make of all the answers to one input.
 *
 * @since 0.1.0
 * @category Models
 */
export interface HookOutcome {
  readonly event: string
  /** Every hook the CLI would call, in registration order. Empty when none matched. */
  readonly runs: ReadonlyArray<HookRun>
  /**
   * The permission decision (PreToolUse, PermissionRequest, PreModelSwitch),
   * with the CLI's precedence: deny > ask > allow > defer. A top-level
   * `decision: "block"` counts as deny and `"approve"` as allow.
   */
  readonly permissionDecision: PermissionDecision | undefined
  /** The reason given with the winning permission decision, else with the first block. */
  readonly reason: string | undefined
  /**
   * The input the tool would run with, when a hook rewrote it: the last
   * rewrite in registration order, whatever the decision (gone on deny).
   */
  readonly updatedInput: Readonly<Record<string, unknown>> | undefined
  /** Whether any hook answered `decision: "block"`. */
  readonly blocked: boolean
  /** Whether any hook answered `continue: false`. */
  readonly halted: boolean
  /** The `stopReason` of the first hook that halted. */
  readonly stopReason: string | undefined
  /** Every `additionalContext`, in registration order. */
  readonly additionalContext: ReadonlyArray<string>
  /** Every `systemMessage`, in registration order. */
  readonly systemMessages: ReadonlyArray<string>
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface RunOptions {
  /** The timeout of hooks that set none: the session's `hookTimeout` (default 60 s). */
  readonly defaultTimeout?: Duration.Input | undefined
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface DecideOptions {
  /** The timeout of a gate that sets none: the session's `permissionTimeout` (default 60 s). */
  readonly defaultTimeout?: Duration.Input | undefined
}

// -----------------------------------------------------------------------------
// Combining
// -----------------------------------------------------------------------------

/**
 * Combines the answers of several hooks to one input as the CLI does — the
 * SDK's own reading (`HookRegistry.tally`), the same that command hooks
 * answer with: permission decisions by precedence (deny > ask > allow >
 * defer, the first hook at the winning rank gives the reason), the last
 * rewrite of the input, and every block, halt, context and system message.
 *
 * @since 0.1.0
 * @category Combinators
 */
export const combine = (event: string, runs: ReadonlyArray<HookRun>): HookOutcome => {
  const tally = HookRegistry.tally(event, runs.map((run) => run.output))
  return {
    event,
    runs,
    permissionDecision: tally.winner?.vote,
    reason: tally.winner !== undefined ? tally.winner.reason : tally.blockReasons[0],
    updatedInput: tally.updatedInput,
    blocked: tally.blocked,
    halted: tally.halted,
    stopReason: tally.stopReason,
    additionalContext: tally.additionalContext,
    systemMessages: tally.systemMessages
  }
}

// -----------------------------------------------------------------------------
// Running
// -----------------------------------------------------------------------------

let counter = 0

/**
 * Runs every hook layer in scope that the CLI would call for `input` — same
 * event, and a matcher that selects it by the CLI's rules — all at once, each
 * through the runtime's dispatch (its timeout, its fallback on failure,
 * defect, timeout or invalid output), and combines their answers.
 *
 * Matchers: none, `""` or `"*"` select everything; plain names and `A|B`
 * (or `A, B`) lists select exact, case-sensitive names; anything else is an
 * unanchored regular expression. Events without a value to match (Stop,
 * UserPromptSubmit, ...) call every hook whatever its matcher.
 *
 * @since 0.1.0
 * @category Running
 */
export const run = (input: Protocol.HookInput, options?: RunOptions): Effect.Effect<HookOutcome> =>
  Effect.flatMap(HookRegistry.make({ defaultTimeout: options?.defaultTimeout }), (registry) =>
    Effect.map(
      registry.run(input, {
        requestId: `hooktest_${++counter}`,
        // The request-level tool_use_id: the tool's id, or a fresh UUID for other events.
        toolUseId: typeof input.tool_use_id === "string" ? input.tool_use_id : randomUUID()
      }),
      (runs) => combine(input.hook_event_name, runs)
    ))

/**
 * A `can_use_tool` request: `tool_name` and `input`, and any other field the
 * CLI sends (the rest is filled in).
 *
 * @since 0.1.0
 * @category Models
 */
export type CanUseToolRequest =
  & Pick<Protocol.CanUseToolRequest, "tool_name" | "input">
  & Partial<Protocol.CanUseToolRequest>

/**
 * Asks the permission gate in scope, as a session does: under the gate's
 * timeout (or `defaultTimeout`), with a deny for whatever goes wrong. The
 * decision's `result` is the `can_use_tool` response the CLI would get.
 *
 * @since 0.1.0
 * @category Running
 */
export const decide = (
  request: CanUseToolRequest,
  options?: DecideOptions
): Effect.Effect<Gate.Outcome, never, PermissionGate.PermissionGate> =>
  Effect.flatMap(PermissionGate.PermissionGate, (gate) => {
    const id = ++counter
    const full = {
      subtype: "can_use_tool",
      display_name: request.tool_name,
      tool_use_id: `toolu_hooktest_${id}`,
      ...request
    } as Protocol.CanUseToolRequest
    return PermissionGate.decide(gate, full, {
      requestId: `hooktest_${id}`,
      toolUseId: full.tool_use_id,
      suggestions: full.permission_suggestions ?? []
    }, options?.defaultTimeout)
  })

// -----------------------------------------------------------------------------
// Inputs
// -----------------------------------------------------------------------------

/**
 * The working directory of the inputs built here: `/home/user/project`, the
 * same as the arbitraries' default.
 *
 * @since 0.1.0
 * @category Inputs
 */
export const defaultCwd: string = "/home/user/project"

const sessionId = "5f1c7a3e-2b9d-4c61-8e0f-3a7d9b2c4e10"

type BaseKey = "session_id" | "transcript_path" | "cwd" | "hook_event_name"

/**
 * The fields of an event's input beyond the base ones, which default to
 * plausible values and may be overridden.
 *
 * @since 0.1.0
 * @category Inputs
 */
export type InputFields<E extends Protocol.HookEvent> =
  & { readonly [K in keyof Protocol.HookInputFor<E> as K extends BaseKey ? never : K]: Protocol.HookInputFor<E>[K] }
  & { readonly session_id?: string; readonly transcript_path?: string; readonly cwd?: string }

/**
 * Overrides of an input's base fields.
 *
 * @since 0.1.0
 * @category Inputs
 */
export interface BaseOverrides {
  readonly session_id?: string
  readonly transcript_path?: string
  readonly cwd?: string
  readonly prompt_id?: string
  readonly permission_mode?: Protocol.PermissionMode | (string & {})
  readonly agent_id?: string
  readonly agent_type?: string
  readonly effort?: Protocol.HookEffort
  /** Any other field, e.g. `tool_use_id`. */
  readonly [field: string]: unknown
}

// Events whose input the CLI sends without `effort` or `permission_mode` (PROTOCOL §9.1).
const withoutEffort: ReadonlySet<string> = new Set(["UserPromptSubmit", "StopFailure"])
const withoutPermissionMode: ReadonlySet<string> = new Set(["StopFailure"])

/**
 * Any event's input: the base fields the CLI sends (`session_id`,
 * `transcript_path`, `cwd` = {@link defaultCwd}, `permission_mode`,
 * `effort`, ...) and the given fields.
 *
 * @since 0.1.0
 * @category Inputs
 */
export const input = <E extends Protocol.HookEvent>(event: E, fields: InputFields<E>): Protocol.HookInputFor<E> =>
  ({
    session_id: sessionId,
    transcript_path: `/home/user/.claude/projects/-home-user-project/${sessionId}.jsonl`,
    cwd: defaultCwd,
    prompt_id: "0b6f2e9a-7c41-4d3e-9a58-1e2f3c4d5b6a",
    ...(withoutPermissionMode.has(event) ? {} : { permission_mode: "default" }),
    ...(withoutEffort.has(event) ? {} : { effort: { level: "medium" } }),
    hook_event_name: event,
    ...fields
  }) as Protocol.HookInputFor<E>

/**
 * A PreToolUse input.
 *
 * @since 0.1.0
 * @category Inputs
 */
export const preToolUse = (
  toolName: string,
  toolInput: Readonly<Record<string, unknown>>,
  overrides?: BaseOverrides
): Protocol.PreToolUseHookInput =>
  input("PreToolUse", {
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: `toolu_hooktest_${++counter}`,
    ...overrides
  })

/**
 * A PostToolUse input.
 *
 * @since 0.1.0
 * @category Inputs
 */
export const postToolUse = (
  toolName: string,
  toolInput: Readonly<Record<string, unknown>>,
  toolResponse: unknown,
  overrides?: BaseOverrides
): Protocol.PostToolUseHookInput =>
  input("PostToolUse", {
    tool_name: toolName,
    tool_input: toolInput,
    tool_response: toolResponse,
    tool_use_id: `toolu_hooktest_${++counter}`,
    ...overrides
  })

/**
 * A PermissionRequest input (sent alongside `can_use_tool`).
 *
 * @since 0.1.0
 * @category Inputs
 */
export const permissionRequest = (
  toolName: string,
  toolInput: Readonly<Record<string, unknown>>,
  overrides?: BaseOverrides
): Protocol.PermissionRequestHookInput =>
  input("PermissionRequest", { tool_name: toolName, tool_input: toolInput, ...overrides })

/**
 * A UserPromptSubmit input.
 *
 * @since 0.1.0
 * @category Inputs
 */
export const userPromptSubmit = (prompt: string, overrides?: BaseOverrides): Protocol.UserPromptSubmitHookInput =>
  input("UserPromptSubmit", { prompt, ...overrides })
