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
import * as Layer from "effect/Layer"
import type * as HookRegistry from "./HookRegistry.js"
import type * as HookResult from "./HookResult.js"
import { capture } from "./internal/handlerContext.js"
import { nextOrder, registrationContext } from "./internal/hookRegistry.js"
import type * as Protocol from "./Protocol.js"

/**
 * What a handler learns about the call besides its input.
 *
 * @since 0.1.0
 * @category Models
 */
export interface HookContext {
  /** The hook's event. */
  readonly event: string
  /** The hook's callback id (see `HookRegistry`). */
  readonly callbackId: string
  /** The id of the `hook_callback` control request. */
  readonly requestId: string
  /** The tool use's id, for tool events. */
  readonly toolUseId: string | undefined
}

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
  readonly timeout?: Duration.Input | undefined
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
  Layer.effectContext(
    Effect.gen(function*() {
      const registration: HookRegistry.HookRegistration = {
        event,
        active: { current: true },
        order: nextOrder(),
        matcher: options.matcher,
        timeout: options.timeout,
        name: options.name ?? (options.matcher ? `${event}(${options.matcher})` : event),
        // Run with `services` (the guarded run creates the handler's fiber with them), so `R` is met.
        handler: (input, hookContext) =>
          handler(input as Protocol.HookInputFor<Event>, hookContext) as Effect.Effect<HookAnswer, E>,
        services: capture(yield* Effect.context<R>())
      }
      // Retired at the close: a fiber forked while the layer was provided still carries its Context.
      yield* Effect.addFinalizer(() => Effect.sync(() => registration.active.current = false))
      // The output is a Context, not a patch of the provider's refs: nothing to remove at the close (v3 had to).
      return registrationContext(registration)
    })
  )

/**
 * A shorthand for one event: takes the handler and the options in either
 * order, `(options, handler)` or `(handler, options?)`.
 *
 * @since 0.1.0
 * @category Models
 */
export interface EventLayer<Event extends Protocol.HookEvent> {
  <E, R>(options: HookOptions, handler: HookHandler<Event, E, R>): Layer.Layer<never, never, R>
  <E, R>(handler: HookHandler<Event, E, R>, options?: HookOptions): Layer.Layer<never, never, R>
}

/**
 * The shorthand for an event.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const forEvent = <Event extends Protocol.HookEvent>(event: Event): EventLayer<Event> =>
  (<E, R>(first: HookOptions | HookHandler<Event, E, R>, second?: HookOptions | HookHandler<Event, E, R>) =>
    typeof first === "function"
      ? make(event, (second as HookOptions | undefined) ?? {}, first)
      : make(event, first, second as HookHandler<Event, E, R>)) as EventLayer<Event>

/**
 * @since 0.1.0
 * @category Constructors
 */
export const preToolUse: EventLayer<"PreToolUse"> = forEvent("PreToolUse")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const postToolUse: EventLayer<"PostToolUse"> = forEvent("PostToolUse")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const postToolUseFailure: EventLayer<"PostToolUseFailure"> = forEvent("PostToolUseFailure")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const permissionRequest: EventLayer<"PermissionRequest"> = forEvent("PermissionRequest")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const userPromptSubmit: EventLayer<"UserPromptSubmit"> = forEvent("UserPromptSubmit")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const stop: EventLayer<"Stop"> = forEvent("Stop")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const subagentStart: EventLayer<"SubagentStart"> = forEvent("SubagentStart")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const subagentStop: EventLayer<"SubagentStop"> = forEvent("SubagentStop")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const sessionStart: EventLayer<"SessionStart"> = forEvent("SessionStart")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const sessionEnd: EventLayer<"SessionEnd"> = forEvent("SessionEnd")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const notification: EventLayer<"Notification"> = forEvent("Notification")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const preCompact: EventLayer<"PreCompact"> = forEvent("PreCompact")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const postCompact: EventLayer<"PostCompact"> = forEvent("PostCompact")

/**
 * @since 0.1.0
 * @category Constructors
 */
export const stopFailure: EventLayer<"StopFailure"> = forEvent("StopFailure")
