/**
 * Elicitation: an MCP server asks the user for input. The answer's schema,
 * the one policy every elicitation runs under (timeout, validation, the
 * decline fallback), and the two ways a question arrives — the CLI's
 * `elicitation` control request (an MCP server the CLI connected to asked),
 * and a tool of an in-process server asking directly (the CLI 2.1.328 does
 * not relay `elicitation/create` from SDK servers: it declares no
 * elicitation capability to them and answers "Method not found").
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { InboundHandler } from "../ControlRouter.js"
import type { ElicitationHandler } from "../ElicitationHandler.js"
import type * as Protocol from "../Protocol.js"
import * as AnswerIssues from "./answerIssues.js"
import * as GuardedRun from "./guardedRun.js"
import { closedStruct, JsonNumber, JsonObject, optional } from "./protocol/json.js"
import * as Telemetry from "./telemetry.js"

/** A value of a form field: MCP elicitation forms are flat. @internal */
export const ContentValue = Schema.Union(Schema.String, JsonNumber, Schema.Boolean, Schema.Array(Schema.String))

/** The submitted form. @internal */
export const Content = Schema.Record({ key: Schema.String, value: ContentValue })

/**
 * The answer to an elicitation, as MCP's `ElicitResult` and the CLI's
 * `elicitation` response: `accept` with the form's content, `decline` (the
 * user said no), `cancel` (the user dismissed it).
 *
 * @internal
 */
export const ElicitationResult = Schema.Union(
  closedStruct({ action: Schema.Literal("accept"), content: optional(Content), _meta: optional(JsonObject) }),
  closedStruct({ action: Schema.Literal("decline", "cancel"), _meta: optional(JsonObject) })
).annotations({ identifier: "ElicitationResult" })

/** @internal */
export type ElicitationResult = typeof ElicitationResult.Type

/** The fallback, and the answer when no handler is provided (as the official SDK answers). @internal */
export const declined: ElicitationResult = { action: "decline" }

/** The one policy of elicitations: a handler that fails, dies, times out or answers badly declines. @internal */
export const policy: GuardedRun.Policy<ElicitationResult> = {
  kind: "elicitation",
  fallsBack: "fell back to decline",
  validate: AnswerIssues.validator(ElicitationResult, "the elicitation result"),
  fallback: () => declined,
  decisionOf: (result) => result.action
}

/** @internal */
export interface Site {
  readonly requestId: string
}

const callOf = (
  service: ElicitationHandler.Service,
  request: Protocol.ElicitationRequest,
  site: Site,
  defaultTimeout: Duration.DurationInput
): GuardedRun.Call<never> => ({
  subject: `elicitation handler (MCP server "${request.mcp_server_name}")`,
  evaluate: () => service.handler(request, site),
  timeout: service.timeout ?? Duration.decode(defaultTimeout),
  annotations: () => ({ mcpServer: request.mcp_server_name, requestId: site.requestId })
})

/**
 * Answers one elicitation with the handler under the policy; without a
 * handler, declines. Never fails.
 *
 * @internal
 */
export type Answer = (request: Protocol.ElicitationRequest, site: Site) => Effect.Effect<ElicitationResult>

/** @internal */
export const answer = (
  service: ElicitationHandler.Service | undefined,
  defaultTimeout: Duration.DurationInput = GuardedRun.defaultTimeouts.elicitation
): Answer =>
(request, site) =>
  service === undefined
    ? Effect.succeed(declined)
    : GuardedRun.run(policy, callOf(service, request, site, defaultTimeout), GuardedRun.answerOf)

/**
 * The router's handler for `elicitation`: the handler under the policy, or a
 * decline when there is none (an error reply would tell the CLI to cancel, and
 * say nothing about why).
 *
 * @internal
 */
export const inboundHandler = (
  service: ElicitationHandler.Service | undefined,
  defaultTimeout: Duration.DurationInput = GuardedRun.defaultTimeouts.elicitation
): InboundHandler => ({
  subtype: "elicitation",
  attributes: (request) => ({
    [Telemetry.attributes.mcpServer]: (request as Protocol.ElicitationRequest).mcp_server_name
  }),
  undecodable: () => declined,
  handle: (request, site) =>
    service === undefined
      ? { _tag: "Effect", effect: Effect.succeed(declined) }
      : {
        _tag: "Guarded",
        guarded: { policy, call: callOf(service, request as Protocol.ElicitationRequest, site, defaultTimeout) }
      }
})
