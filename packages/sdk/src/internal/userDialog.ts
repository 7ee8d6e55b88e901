/**
 * User dialogs: the CLI asks the host to show a blocking dialog of some kind
 * (`request_user_dialog`) and waits for the user's choice. The answer's
 * schema and the one policy dialogs run under (timeout, validation, the
 * `cancelled` fallback, which the CLI takes as "apply the dialog's default").
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as Protocol from "../Protocol.js"
import type { UserDialog } from "../UserDialog.js"
import * as AnswerIssues from "./answerIssues.js"
import * as GuardedRun from "./guardedRun.js"
import { closedStruct, Json } from "./protocol/json.js"

/**
 * The answer to a dialog: `completed` with the user's choice (its shape is
 * the dialog kind's), or `cancelled` (the CLI then applies the dialog's
 * default).
 *
 * @internal
 */
export const UserDialogResult = Schema.Union([
  closedStruct({ behavior: Schema.Literal("completed"), result: Json }),
  closedStruct({ behavior: Schema.Literal("cancelled") })
]).annotate({ identifier: "UserDialogResult" })

/** @internal */
export type UserDialogResult = typeof UserDialogResult.Type

/** The fallback. @internal */
export const cancelled: UserDialogResult = { behavior: "cancelled" }

/** The one policy of dialogs: a handler that fails, dies, times out or answers badly cancels. @internal */
export const policy: GuardedRun.Policy<UserDialogResult> = {
  kind: "dialog",
  fallsBack: "fell back to cancelled",
  validate: AnswerIssues.validator(UserDialogResult, "the dialog result"),
  fallback: () => cancelled,
  decisionOf: (result) => result.behavior
}

/** One call of the handler. @internal */
export const callOf = (
  service: UserDialog.Service,
  request: Protocol.UserDialogRequest,
  site: { readonly requestId: string },
  defaultTimeout: Duration.Input
): GuardedRun.Call<never> => ({
  subject: `user dialog handler ("${request.dialog_kind}")`,
  evaluate: () => service.handler(request, site),
  timeout: service.timeout ?? Duration.fromInputUnsafe(defaultTimeout),
  annotations: () => ({
    dialogKind: request.dialog_kind,
    requestId: site.requestId,
    ...(request.tool_use_id !== undefined ? { toolUseId: request.tool_use_id } : {})
  })
})

/** Runs the handler on one dialog under the policy, as a session does. @internal */
export const answer = (
  service: UserDialog.Service,
  request: Protocol.UserDialogRequest,
  site: { readonly requestId: string },
  defaultTimeout: Duration.Input = GuardedRun.defaultTimeouts.dialog
): Effect.Effect<UserDialogResult> =>
  GuardedRun.run(policy, callOf(service, request, site, defaultTimeout), GuardedRun.answerOf)
