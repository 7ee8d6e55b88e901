/**
 * Hooks are Layers. A hook layer adds one handler for one hook event; merge
 * any number of them with `Layer.mergeAll` and every session started under
 * them registers them all. A handler is an Effect that may use the
 * application's services: they show in the layer's requirements and are
 * provided like any other layer's.
 *
 * ```ts
 * const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) => {
 *   const { command } = input.tool_input as { readonly command?: string }
 *   return Effect.succeed(command?.includes("rm -rf") ? HookResult.deny("destructive command") : HookResult.empty)
 * })
 * ```
 *
 * @since 0.1.0
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import type * as HookResult from "./HookResult.js"
import { currentHooks, type HookContext as InternalHookContext, nextOrder } from "./internal/hookRegistrations.js"
import type * as Protocol from "./Protocol.js"

/**
 * What a handler learns about the call besides its input.
 *
 * @since 0.1.0
 * @category Models
 */
export interface HookContext extends InternalHookContext {}

/**
 * @since 0.1.0
 * @category Models
 */
export interface HookOptions {
  /**
   * Which calls the hook sees, with the CLI's rules: empty or `*` for all, a
   * name or `A|B` list for exact names, otherwise a regular expression. For
   * tool events it is matched against the tool name.
   */
  readonly matcher?: string | undefined
  /** How long the handler may run before the fallback answers (default: the `hookTimeout` option, 60 s). */
  readonly timeout?: Duration.DurationInput | undefined
  /** A name for logs and traces. */
  readonly name?: string | undefined
}

/**
 * What a handler may answer: a {@link HookResult.HookResult}, a complete hook
 * output, or nothing (no opinion).
 *
 * @since 0.1.0
 * @category Models
 */
export type HookAnswer = HookResult.HookResult | Protocol.HookOutput | void

/**
 * @since 0.1.0
 * @category Models
 */
export type HookHandler<Event extends Protocol.HookEvent, E, R> = (
  input: Protocol.HookInputFor<Event>,
  context: HookContext
) => Effect.Effect<HookAnswer, E, R>

/**
 * A layer that registers one hook handler for `event`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = <Event extends Protocol.HookEvent, E, R>(
  event: Event,
  options: HookOptions,
  handler: HookHandler<Event, E, R>
): Layer.Layer<never, never, R> =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const context = yield* Effect.context<R>()
      const active = { current: true }
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          active.current = false
        })
      )
      yield* Effect.locallyScopedWith(currentHooks, (hooks) =>
        HashSet.add(hooks, {
          event,
          active,
          order: nextOrder(),
          matcher: options.matcher,
          timeout: options.timeout,
          name: options.name ?? (options.matcher ? `${event}(${options.matcher})` : event),
          handler: (input, hookContext) =>
            Effect.provide(handler(input as Protocol.HookInputFor<Event>, hookContext), context)
        }))
    })
  )

/**
 * @since 0.1.0
 * @category Constructors
 */
export const preToolUse = <E, R>(
  options: HookOptions,
  handler: HookHandler<"PreToolUse", E, R>
): Layer.Layer<never, never, R> => make("PreToolUse", options, handler)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const postToolUse = <E, R>(
  options: HookOptions,
  handler: HookHandler<"PostToolUse", E, R>
): Layer.Layer<never, never, R> => make("PostToolUse", options, handler)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const postToolUseFailure = <E, R>(
  options: HookOptions,
  handler: HookHandler<"PostToolUseFailure", E, R>
): Layer.Layer<never, never, R> => make("PostToolUseFailure", options, handler)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const permissionRequest = <E, R>(
  options: HookOptions,
  handler: HookHandler<"PermissionRequest", E, R>
): Layer.Layer<never, never, R> => make("PermissionRequest", options, handler)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const userPromptSubmit = <E, R>(
  handler: HookHandler<"UserPromptSubmit", E, R>,
  options: HookOptions = {}
): Layer.Layer<never, never, R> => make("UserPromptSubmit", options, handler)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const stop = <E, R>(
  handler: HookHandler<"Stop", E, R>,
  options: HookOptions = {}
): Layer.Layer<never, never, R> => make("Stop", options, handler)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const subagentStop = <E, R>(
  handler: HookHandler<"SubagentStop", E, R>,
  options: HookOptions = {}
): Layer.Layer<never, never, R> => make("SubagentStop", options, handler)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const sessionStart = <E, R>(
  handler: HookHandler<"SessionStart", E, R>,
  options: HookOptions = {}
): Layer.Layer<never, never, R> => make("SessionStart", options, handler)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const sessionEnd = <E, R>(
  handler: HookHandler<"SessionEnd", E, R>,
  options: HookOptions = {}
): Layer.Layer<never, never, R> => make("SessionEnd", options, handler)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const notification = <E, R>(
  handler: HookHandler<"Notification", E, R>,
  options: HookOptions = {}
): Layer.Layer<never, never, R> => make("Notification", options, handler)

/**
 * @since 0.1.0
 * @category Constructors
 */
export const preCompact = <E, R>(
  handler: HookHandler<"PreCompact", E, R>,
  options: HookOptions = {}
): Layer.Layer<never, never, R> => make("PreCompact", options, handler)
