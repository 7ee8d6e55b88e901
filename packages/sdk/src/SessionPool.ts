/**
 * Prewarmed sessions: a pool that keeps `size` CLI processes spawned and past
 * the initialize handshake, and hands one out when a session is claimed, so
 * that the first prompt goes to a ready process instead of waiting for a cold
 * start. Each claim starts warming the replacement in the background.
 *
 * ```ts
 * const program = SessionPool.query("Say hi").pipe(Stream.runForEach(Console.log))
 * program.pipe(
 *   Effect.provide(SessionPool.layer({ size: 2, options: { cwd: "/srv/project" } })),
 *   Effect.provide(ClaudeCode.layer()),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 *
 * What is fixed when a pooled process starts, and so for every session the
 * pool hands out:
 * - its options (`cwd`, `env`, tools, MCP servers, system prompt, ...: the
 *   `ClaudeCode` layer's defaults with the pool's `options` over them), except
 *   the three a claim may change over the control channel: `model`,
 *   `permissionMode`, `maxThinkingTokens` ({@link ClaimOptions});
 * - its handlers: the hook layers and the permission gate **of the pool's
 *   context** (where `make` runs, or the layer is built). The initialize
 *   request registers the hooks and the spawn arguments decide whether the CLI
 *   asks a gate, before any claimer is known. A claim from a context that
 *   provides a gate or hooks the pool does not have fails with a
 *   `SessionPoolError` (`HandlersMismatch`) rather than run without them.
 *
 * Sessions live in the pool's scope: a claimed one closes when the claimer's
 * scope closes, or when the pool's does, whichever comes first.
 *
 * @since 0.1.0
 */
import type * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as ClaudeCode from "./ClaudeCode.js"
import { type ClaudeError, OptionsError } from "./ClaudeError.js"
import * as ClaudeOptions from "./ClaudeOptions.js"
import * as InternalSession from "./internal/session.js"
import * as internal from "./internal/sessionPool.js"
import * as PermissionGate from "./PermissionGate.js"
import type * as Protocol from "./Protocol.js"
import type { Prompt, Session } from "./Session.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class SessionPool
  extends Context.Service<SessionPool, SessionPool.Service>()("@claude-effect/sdk/SessionPool")
{}

/**
 * @since 0.1.0
 */
export declare namespace SessionPool {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /**
     * Takes a ready session for the current scope, the one that has waited
     * longest, and starts warming its replacement. With none ready it waits
     * for the next warm-up to finish; with no warm-up under way (every slot
     * waiting to retry after a failure) it fails with the last warm-up's
     * error, as a cold `ClaudeCode.session` would have.
     */
    readonly claim: (options?: ClaimOptions) => Effect.Effect<Session, ClaudeError, Scope.Scope>
    /** What the pool holds now. */
    readonly status: Effect.Effect<Status>
    /** The status now, then after every change. */
    readonly changes: Stream.Stream<Status>
  }
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** How many sessions to keep ready (a positive integer). */
  readonly size: number
  /** The options of every session, over the `ClaudeCode` layer's defaults. */
  readonly options?: ClaudeOptions.OptionsInput | undefined
  /**
   * How long after a claim its replacement starts warming (zero: at once).
   * By default the replacement starts once the claimed session has heard
   * from its CLI after the claim (spawning holds the event loop for a few
   * milliseconds, and a CLI starting up takes a few hundred milliseconds of
   * CPU: started at the claim, it delays the claimed session's first
   * message), at once when another claim is waiting for a session, and at the
   * latest a second after the claim. A delay of a few hundred milliseconds
   * also keeps the replacement's start-up off the claimed session's first
   * turn on a machine with few cores.
   */
  readonly refillDelay?: Duration.Input | undefined
}

/**
 * What a claim may still change on a ready session, each with one control
 * request before the session is handed over (the CLI may refuse: a
 * `permissionMode` of `bypassPermissions` on a session not started in it
 * fails with a `ControlError`, and the session is closed). Everything else is
 * fixed when the process starts.
 *
 * @since 0.1.0
 * @category Models
 */
export type ClaimOptions = Pick<ClaudeOptions.OptionsInput, "model" | "permissionMode" | "maxThinkingTokens">

/**
 * @since 0.1.0
 * @category Models
 */
export interface Status {
  readonly size: number
  /** The process ids of the ready sessions, the longest-waiting first. */
  readonly ready: ReadonlyArray<number>
  /** How many warm-ups are under way (or, after a claim, waiting for their moment: see `refillDelay`). */
  readonly warming: number
  /** Why the last warm-up failed, until one succeeds (its slot retries, from 200 ms up to every 30 s). */
  readonly failure: Option.Option<Cause.Cause<ClaudeError>>
}

const isSize = Schema.is(Schema.Int.check(Schema.isGreaterThan(0)))

/**
 * A pool for the current scope. Warming starts at once, in the background:
 * `make` does not wait for it. When the scope closes, every process the pool
 * started is shut down, those being warmed and those claimed included.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (
  options: Options
): Effect.Effect<SessionPool.Service, OptionsError, ClaudeCode.ClaudeCode | Scope.Scope> =>
  Effect.gen(function*() {
    if (!isSize(options.size)) {
      return yield* new OptionsError({
        reason: "InvalidOptions",
        detail: `size: expected a positive integer (how many sessions to keep ready), got ${String(options.size)}`
      })
    }
    const size = options.size
    // None: the pool's own rule decides when a replacement starts.
    const refillDelay = options.refillDelay === undefined
      ? Option.none<Duration.Duration>()
      : Duration.fromInput(options.refillDelay)
    // (A negative duration is taken as zero: the replacement starts at once.)
    if (options.refillDelay !== undefined && Option.isNone(refillDelay)) {
      return yield* new OptionsError({
        reason: "InvalidOptions",
        detail: `refillDelay: expected a duration (milliseconds, or a string like "250 millis"), got ${
          String(options.refillDelay)
        }`
      })
    }
    const claude = yield* ClaudeCode.ClaudeCode
    const resolved = yield* ClaudeCode.resolveOptions(options.options)
    const gate = yield* Effect.serviceOption(PermissionGate.PermissionGate)
    return yield* internal.make({
      size,
      refillDelay,
      start: claude.startSession(resolved),
      gate: Option.getOrUndefined(gate),
      claimerGate: Effect.serviceOption(PermissionGate.PermissionGate),
      prepareClaim: (input) =>
        Effect.map(decodeClaim(input), (claim) =>
          // A claim that changes nothing costs nothing: no fibers, no control requests.
          Object.keys(claim).length === 0 ? undefined : (session: Session) =>
            Effect.all([
              ...(claim.model !== undefined ? [session.setModel(claim.model)] : []),
              ...(claim.permissionMode !== undefined ? [session.setPermissionMode(claim.permissionMode)] : []),
              ...(claim.maxThinkingTokens !== undefined ? [session.setMaxThinkingTokens(claim.maxThinkingTokens)] : [])
            ], { concurrency: "unbounded", discard: true }))
    })
  })

const claimable: ReadonlyArray<string> = ["model", "permissionMode", "maxThinkingTokens"]

const noClaimOptions: Effect.Effect<ClaudeOptions.Options> = Effect.succeed({})

// Decoded as options are; an option a claim cannot change is named, not silently ignored.
const decodeClaim = (input: ClaimOptions): Effect.Effect<ClaudeOptions.Options, OptionsError> => {
  const keys = Object.keys(input)
  if (keys.length === 0) return noClaimOptions
  const fixed = keys.filter((key) => !claimable.includes(key))
  return fixed.length > 0
    ? new OptionsError({
      reason: "InvalidOptions",
      detail:
        `${fixed.join(", ")}: fixed when a pooled process starts, so a claim cannot set ${
          fixed.length > 1 ? "them" : "it"
        }; a claim may set ${claimable.join(", ")}. Give it in the pool's options, or open the session cold ` +
        "with ClaudeCode.session"
    })
    : ClaudeOptions.decodePartial(input)
}

/**
 * The pool as a layer: built in the layer's context, whose hook layers and
 * permission gate every pooled session registers.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = (options: Options): Layer.Layer<SessionPool, OptionsError, ClaudeCode.ClaudeCode> =>
  Layer.effect(SessionPool, make(options))

/**
 * Claims a ready session from the pool in context, for the current scope
 * (see {@link SessionPool.Service.claim}).
 *
 * @since 0.1.0
 * @category Sessions
 */
export const session = (
  options?: ClaimOptions
): Effect.Effect<Session, ClaudeError, SessionPool | Scope.Scope> =>
  Effect.flatMap(SessionPool, (pool) => pool.claim(options))

/**
 * Runs one prompt on a claimed session, as `ClaudeCode.query` does on a cold
 * one: a text prompt's stream ends after the turn's `result`; a stream of
 * prompts' when the input has ended and the CLI has finished. The process is
 * gone when the stream ends or is interrupted.
 *
 * @since 0.1.0
 * @category Queries
 */
export const query = (
  prompt: Prompt | Stream.Stream<Prompt, ClaudeError>,
  options?: ClaimOptions
): Stream.Stream<Protocol.Message, ClaudeError, SessionPool> =>
  Stream.unwrap(Effect.map(session(options), (claimed) => InternalSession.query(claimed, prompt)))

/**
 * Runs one prompt on a claimed session, as `ClaudeCode.result` does on a cold
 * one: returns the turn's `result` (an error result fails with a
 * `ResultError`), and the process is gone when it returns.
 *
 * @since 0.1.0
 * @category Queries
 */
export const result = (
  prompt: Prompt,
  options?: ClaimOptions
): Effect.Effect<Protocol.ResultSuccess, ClaudeError, SessionPool> =>
  Effect.scoped(Effect.flatMap(session(options), (claimed) => claimed.result(prompt)))
