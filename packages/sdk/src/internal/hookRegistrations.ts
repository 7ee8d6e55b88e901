/**
 * Where hook layers put their hooks: a FiberRef, so that any number of hook
 * layers compose with `Layer.mergeAll` the way logger layers do, and every
 * session started under them sees them all.
 *
 * @internal
 */
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as HashSet from "effect/HashSet"
import type * as HookResult from "../HookResult.js"
import type * as Protocol from "../Protocol.js"

/** @internal */
export interface HookContext {
  readonly event: string
  readonly callbackId: string
  readonly requestId: string
  readonly toolUseId: string | undefined
}

/** @internal */
export interface HookRegistration {
  readonly event: string
  readonly matcher: string | undefined
  readonly timeout: Duration.DurationInput | undefined
  /**
   * Cleared when the hook layer's scope closes. Layers merged with
   * `Layer.mergeAll` are built in other fibers, whose FiberRef restore does not
   * reach the fiber that provided them: this flag is what retires them.
   */
  readonly active: { current: boolean }
  /** When the hook layer was built: hooks are registered in this order. */
  readonly order: number
  /** A label for logs and traces (defaults to the event and matcher). */
  readonly name: string
  /** The handler with the application's context already provided. */
  readonly handler: (
    input: Protocol.HookInput,
    context: HookContext
  ) => Effect.Effect<HookResult.HookResult | Protocol.HookOutput | void, unknown>
}

/**
 * A set, not an array: hook layers merged with `Layer.mergeAll` are built in
 * parallel fibers, and only a set's patches (add this, add that) join without
 * one branch overwriting the other. `order` restores registration order.
 *
 * @internal
 */
export const currentHooks: FiberRef.FiberRef<HashSet.HashSet<HookRegistration>> = globalValue(
  Symbol.for("@claude-effect/sdk/currentHooks"),
  () => FiberRef.unsafeMakeHashSet(HashSet.empty<HookRegistration>())
)

let registrationCounter = 0

/** @internal */
export const nextOrder = (): number => ++registrationCounter

/** @internal */
export const registrationsInOrder = (hooks: HashSet.HashSet<HookRegistration>): ReadonlyArray<HookRegistration> =>
  Array.from(hooks).filter((hook) => hook.active.current).sort((a, b) => a.order - b.order)
