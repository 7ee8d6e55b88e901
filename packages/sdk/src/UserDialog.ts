/**
 * Answers the CLI's user dialogs (`request_user_dialog`): blocking dialogs
 * the CLI asks the host to show — a refusal's "retry on the fallback model?",
 * a notice to acknowledge, a choice to make — each of a `dialog_kind` with its
 * own payload and result.
 *
 * The CLI sends only the kinds a client declares it can show: {@link layer}
 * declares `kinds` in the session's initialize request
 * (`supportedDialogKinds`), and without it no dialog is ever sent — each flow
 * behind one degrades to its no-dialog behaviour. The handler runs through the
 * SDK's guarded run: a failure, a defect, an answer that is not a valid result
 * or a handler that outlives its timeout (default 60 s) is logged and
 * answered `cancelled`, which the CLI takes as "apply the dialog's default".
 *
 * ```ts
 * const dialogs = UserDialog.layer(
 *   (request) =>
 *     Effect.succeed(
 *       request.dialog_kind === "refusal_fallback_prompt"
 *         ? UserDialog.completed("retry_fallback")
 *         : UserDialog.cancelled
 *     ),
 *   { kinds: ["refusal_fallback_prompt"] }
 * )
 * ```
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Schema from "effect/Schema"
import { answerWith, guarded, type InboundHandler, InboundHandlerError } from "./ControlRouter.js"
import * as GuardedRun from "./internal/guardedRun.js"
import * as HandlerContext from "./internal/handlerContext.js"
import * as internal from "./internal/userDialog.js"
import type * as Protocol from "./Protocol.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class UserDialog extends Context.Service<UserDialog, UserDialog.Service>()("@claude-effect/sdk/UserDialog") {}

/**
 * @since 0.1.0
 */
export declare namespace UserDialog {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /** The user's handler, with its services provided. */
    readonly handler: Handler<unknown, never>
    /** The dialog kinds the handler can show: the only ones the CLI sends (`supportedDialogKinds`). */
    readonly kinds: ReadonlyArray<string>
    /** How long the handler may take before the `cancelled` fallback answers (default 60 s). */
    readonly timeout: Duration.Duration | undefined
  }
}

/**
 * A dialog the CLI asks for: `dialog_kind`, its `payload` (shaped by the
 * kind), and the `tool_use_id` of the tool call it belongs to, if any.
 *
 * @since 0.1.0
 * @category Models
 */
export type Request = Protocol.UserDialogRequest

/**
 * @since 0.1.0
 * @category Models
 */
export interface DialogContext {
  readonly requestId: string
}

/**
 * The answer: `completed` with the user's choice, or `cancelled`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Result: Schema.Codec<Result> = internal.UserDialogResult

/**
 * @since 0.1.0
 * @category Models
 */
export type Result = internal.UserDialogResult

/**
 * @since 0.1.0
 * @category Models
 */
export type Handler<E, R> = (request: Request, context: DialogContext) => Effect.Effect<Result, E, R>

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /**
   * The dialog kinds the handler can show (`refusal_fallback_prompt`, ...):
   * the CLI sends no other. Declare only kinds the handler really answers.
   */
  readonly kinds: ReadonlyArray<string>
  /** How long the handler may take before the `cancelled` fallback answers (default 60 s). */
  readonly timeout?: Duration.Input | undefined
}

/**
 * The user made a choice; `result` is shaped by the dialog kind.
 *
 * @since 0.1.0
 * @category Results
 */
export const completed = (result: unknown): Result => ({ behavior: "completed", result })

/**
 * The user dismissed the dialog: the CLI applies its default.
 *
 * @since 0.1.0
 * @category Results
 */
export const cancelled: Result = internal.cancelled

/**
 * A handler that may use the application's services.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = <E, R>(handler: Handler<E, R>, options: Options): Effect.Effect<UserDialog.Service, never, R> =>
  Effect.map(Effect.context<R>(), (context) => {
    // Without the run's own entries (log level and annotations, parent span, scope), which effect 4 keeps in the
    // same Context: captured here they would replace the caller's at every call.
    const services = HandlerContext.capture(context) as Context.Context<R>
    return UserDialog.of({
      handler: (request, site) => Effect.provideContext(handler(request, site), services),
      kinds: Array.from(new Set(options.kinds)),
      timeout: options.timeout !== undefined ? Duration.fromInputUnsafe(options.timeout) : undefined
    })
  })

/**
 * A handler as a layer: sessions started under it declare its kinds and
 * answer those dialogs with it.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = <E, R>(handler: Handler<E, R>, options: Options): Layer.Layer<UserDialog, never, R> =>
  Layer.effect(UserDialog, make(handler, options))

/**
 * Answers one dialog as a session does: the handler under its timeout,
 * `cancelled` when it fails. Never fails.
 *
 * @since 0.1.0
 * @category Answers
 */
export const respond = (service: UserDialog.Service, request: Request, context: DialogContext): Effect.Effect<Result> =>
  internal.answer(service, request, context)

/**
 * The router's handler for `request_user_dialog`: the handler under the
 * guarded run for a kind it declared. A kind it did not declare is not
 * answered (an error reply, which the CLI discards): another client of the
 * session may show it, and `cancelled` would settle it.
 *
 * @since 0.1.0
 * @category Answers
 */
export const inboundHandler = (
  service: UserDialog.Service,
  defaultTimeout: Duration.Input = GuardedRun.defaultTimeouts.dialog
): InboundHandler => {
  const kinds = new Set(service.kinds)
  return {
    subtype: "request_user_dialog",
    handle: (request, site) => {
      const dialog = request as Request
      return kinds.has(dialog.dialog_kind)
        ? guarded({ policy: internal.policy, call: internal.callOf(service, dialog, site, defaultTimeout) })
        : answerWith(
          Effect.fail(
            new InboundHandlerError({
              message: `the dialog kind ${JSON.stringify(dialog.dialog_kind)} was not declared by this client`
            })
          )
        )
    }
  }
}
