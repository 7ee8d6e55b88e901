/**
 * The hooks of one session: every handler contributed by the hook layers in
 * scope, each with its callback id. It builds the `hooks` map of the
 * initialize request and answers `hook_callback` requests by running the
 * handler through the SDK's guarded run: a handler that fails, dies,
 * outlives its timeout or answers garbage is logged with its cause and
 * answered with the fallback (deny for the permission events PreToolUse,
 * PermissionRequest and PreModelSwitch, `{}` elsewhere). The session never
 * crashes because a hook did.
 *
 * The registry is also where the CLI's rules live: which hooks it calls for
 * an input ({@link selects}) and how it combines their answers
 * ({@link tally}, {@link combine}). Command hooks (`HookCommand`) and the
 * testkit's `HookTest` run and combine hooks through it, so that all three
 * answer alike.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { InboundHandler } from "./ControlRouter.js"
import type * as HookLayer from "./HookLayer.js"
import * as internal from "./internal/hookRegistry.js"
import type * as Protocol from "./Protocol.js"

// -----------------------------------------------------------------------------
// Service
// -----------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category Tags
 */
export class HookRegistry extends Context.Service<HookRegistry, HookRegistry.Service>()(
  "@claude-effect/sdk/HookRegistry"
) {}

/**
 * @since 0.1.0
 */
export declare namespace HookRegistry {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /** Every registered hook, in registration order. */
    readonly hooks: ReadonlyArray<RegisteredHook>
    /** The `hooks` field of the initialize request, or undefined when there are none. */
    readonly initializeHooks: Protocol.InitializeRequest["hooks"] | undefined
    /** Runs the hook registered under `callbackId`. Never fails. */
    readonly dispatch: (
      callbackId: string,
      input: Protocol.HookInput,
      context: DispatchContext
    ) => Effect.Effect<HookRun>
    /**
     * Runs every hook the CLI would call for `input` (same event, a matcher
     * that selects it), all at once as the CLI does. Never fails. The runs
     * are in registration order; {@link combine} or {@link tally} them.
     */
    readonly run: (input: Protocol.HookInput, context: DispatchContext) => Effect.Effect<ReadonlyArray<HookRun>>
    /** The router's handler for `hook_callback`. */
    readonly inboundHandler: InboundHandler
  }
}

// -----------------------------------------------------------------------------
// Models
// -----------------------------------------------------------------------------

/**
 * What a hook layer registers.
 *
 * @since 0.1.0
 * @category Models
 */
export interface HookRegistration {
  readonly event: string
  readonly matcher: string | undefined
  readonly timeout: Duration.Input | undefined
  /**
   * Cleared when the hook layer's scope closes: a fiber forked while the
   * layer was provided keeps its Context, registrations included, and this
   * flag is what retires them there.
   */
  readonly active: { current: boolean }
  /** When the hook layer was built: hooks are registered in this order. */
  readonly order: number
  /** A label for logs and traces (defaults to the event and matcher). */
  readonly name: string
  /** The handler: run with `services` when given, else with the application's context already provided. */
  readonly handler: (
    input: Protocol.HookInput,
    context: HookLayer.HookContext
  ) => Effect.Effect<HookLayer.HookAnswer, unknown>
  /**
   * The services the handler runs with (a hook layer's: the context it was built in). Its fiber is
   * created with them, rather than each call providing them.
   */
  readonly services?: Context.Context<never> | undefined
}

/**
 * A registration with its callback id and its timeout resolved.
 *
 * @since 0.1.0
 * @category Models
 */
export interface RegisteredHook extends HookRegistration {
  readonly callbackId: string
  readonly timeout: Duration.Duration
  readonly timeoutMillis: number
}

/**
 * Where a dispatch comes from: the control request's id, and the tool use's
 * id for tool events.
 *
 * @since 0.1.0
 * @category Models
 */
export interface DispatchContext {
  readonly requestId: string
  readonly toolUseId: string | undefined
}

/**
 * One hook's answer to one input, after its guarded run.
 *
 * @since 0.1.0
 * @category Models
 */
export interface HookRun {
  /** The hook's name (`HookOptions.name`, or the event and matcher). */
  readonly name: string
  readonly event: string
  readonly matcher: string | undefined
  readonly callbackId: string
  /** The `hook_callback` response body the CLI gets (the fallback's, when it answered). */
  readonly output: Protocol.SyncHookOutput
  /** What `output` says, as recorded in spans and metrics. */
  readonly decision: Decision
  /** Why the fallback answered instead of the handler, if it did. */
  readonly fallback: FallbackReason | undefined
  readonly durationMillis: number
}

/**
 * What an answer says: the label of the `claude.decision` span attribute and
 * of the decision metrics (a permission gate's answer is `allow` or `deny`).
 *
 * @since 0.1.0
 * @category Models
 */
export type Decision = "allow" | "deny" | "ask" | "defer" | "block" | "halt" | "context" | "rewrite" | "empty" | "other"

/**
 * Why a fallback answered: the handler's (`timeout`, `failure`, `defect`,
 * `invalid_output`), or a callback id the registry does not know.
 *
 * @since 0.1.0
 * @category Models
 */
export type FallbackReason = "timeout" | "failure" | "defect" | "invalid_output" | "unknown_callback"

/**
 * @since 0.1.0
 * @category Models
 */
export interface MakeOptions {
  /** The timeout of hooks that set none (default: the session's `hookTimeout`, 60 s). */
  readonly defaultTimeout?: Duration.Input | undefined
}

// -----------------------------------------------------------------------------
// Matching
// -----------------------------------------------------------------------------

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
export const matches: (matcher: string | undefined, value: string | undefined, event?: string) => boolean =
  internal.matches

/**
 * The value a matcher is compared with for an input: the tool name for tool
 * events; the source, trigger, reason, notification type, agent type, ... for
 * the others; `undefined` for events the CLI does not match on.
 *
 * @since 0.1.0
 * @category Matching
 */
export const matchValue: (input: Protocol.HookInput) => string | undefined = internal.matchValue

/**
 * Whether the CLI calls `hook` for `input`: same event, and a matcher that
 * selects the input.
 *
 * @since 0.1.0
 * @category Matching
 */
export const selects: (
  hook: { readonly event: string; readonly matcher: string | undefined },
  input: Protocol.HookInput
) => boolean = internal.selects

// -----------------------------------------------------------------------------
// Precedence
// -----------------------------------------------------------------------------

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
 * What the CLI concludes from every answer to one input: the one reading of
 * the CLI's precedence, which {@link combine} turns into one output and
 * `HookTest` reports.
 *
 * @since 0.1.0
 * @category Precedence
 */
export interface Tally {
  readonly event: string
  /**
   * The ballot that decides (permission events only), by the CLI's
   * precedence: deny > ask > allow > defer, the first at the winning rank.
   */
  readonly winner: Ballot | undefined
  /**
   * The input the tool runs with when a hook rewrote it: the last rewrite, in
   * order; none after a deny or a defer (PermissionRequest: only with an allow).
   */
  readonly updatedInput: Record<string, unknown> | undefined
  /** Whether any hook answered `decision: "block"`, and their reasons, in order. */
  readonly blocked: boolean
  readonly blockReasons: ReadonlyArray<string>
  /** The first `decision: "approve"`, if any. */
  readonly approved: { readonly reason: string | undefined } | undefined
  /** Whether any hook answered `continue: false`, and the first one's `stopReason`. */
  readonly halted: boolean
  readonly stopReason: string | undefined
  readonly suppressOutput: boolean
  /** Every `additionalContext`, in order. */
  readonly additionalContext: ReadonlyArray<string>
  /** Every `systemMessage`, in order. */
  readonly systemMessages: ReadonlyArray<string>
}

/**
 * @since 0.1.0
 * @category Precedence
 */
export const ballotOf: (event: string, output: Protocol.SyncHookOutput) => Ballot = internal.ballotOf

/**
 * The ballot that decides, by the CLI's precedence: deny > ask > allow >
 * defer, the first ballot at the winning rank. `undefined` when none votes.
 *
 * @since 0.1.0
 * @category Precedence
 */
export const winningBallot: (ballots: ReadonlyArray<Ballot>) => Ballot | undefined = internal.winningBallot

/**
 * Reads every answer to one input as the CLI does (see {@link Tally}).
 *
 * @since 0.1.0
 * @category Precedence
 */
export const tally: (event: string, outputs: ReadonlyArray<Protocol.SyncHookOutput>) => Tally = internal.tally

/**
 * Combines the answers of several hooks to one input into one output, with
 * the CLI's precedence ({@link tally}): for permission decisions (PreToolUse,
 * PermissionRequest, PreModelSwitch) deny > ask > allow > defer (a top-level
 * `decision: "block"` counts as deny, `"approve"` as allow; the first hook at
 * the winning rank gives the reason; the last rewrite of the input wins, and
 * none survives a deny); every block reason, context and system message is
 * kept; the first `continue: false` halts; other fields of
 * `hookSpecificOutput` are the first hook's. One output is returned as it is.
 *
 * @since 0.1.0
 * @category Precedence
 */
export const combine: (event: string, outputs: ReadonlyArray<Protocol.SyncHookOutput>) => Protocol.SyncHookOutput =
  internal.combine

// -----------------------------------------------------------------------------
// Dispatch
// -----------------------------------------------------------------------------

/**
 * What an output says (see {@link Decision}).
 *
 * @since 0.1.0
 * @category Dispatch
 */
export const decisionOf: (output: Protocol.SyncHookOutput) => Decision = internal.decisionOf

/**
 * Runs one hook through the guarded run (its timeout, its fallback on
 * failure, defect, timeout or invalid output), in a `claude.hook` span.
 * Never fails.
 *
 * @since 0.1.0
 * @category Dispatch
 */
export const dispatchHook: (
  hook: RegisteredHook,
  input: Protocol.HookInput,
  context: HookLayer.HookContext
) => Effect.Effect<HookRun> = internal.dispatchHook

// -----------------------------------------------------------------------------
// Constructors
// -----------------------------------------------------------------------------

/**
 * Registers the given hooks, numbering their callback ids.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const fromRegistrations: (
  registrations: ReadonlyArray<HookRegistration>,
  options?: MakeOptions
) => HookRegistry.Service = internal.fromRegistrations

/**
 * Collects the hooks of every hook layer in scope.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (options?: MakeOptions) => Effect.Effect<HookRegistry.Service> = internal.make

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (options?: MakeOptions): Layer.Layer<HookRegistry> => Layer.effect(HookRegistry, make(options))
