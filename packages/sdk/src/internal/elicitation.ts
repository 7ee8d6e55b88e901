/**
 * Elicitation: an MCP server asks the user for input. The answer's schema,
 * the one policy every elicitation runs under (timeout, validation, the
 * decline fallback), and how one is answered. Questions arrive two ways: the
 * CLI's `elicitation` control request (an MCP server the CLI runs asked), and
 * a tool of an in-process server asking directly (`context.elicit`): the CLI
 * 2.1.328 does not relay `elicitation/create` from SDK servers (it declares no
 * elicitation capability to them), so effect/ai's `McpServer.elicit` cannot
 * reach the user from here.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { ElicitationHandler } from "../ElicitationHandler.js"
import type * as Protocol from "../Protocol.js"
import * as GuardedRun from "./guardedRun.js"
import * as Issues from "./mcpIssues.js"

/** A value of a form field: MCP elicitation forms are flat. @internal */
export const ContentValue = Schema.Union([Schema.String, Schema.Finite, Schema.Boolean, Schema.Array(Schema.String)])

/** The submitted form. @internal */
export const Content = Schema.Record(Schema.String, ContentValue)

const Meta = Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))

/**
 * The answer to an elicitation, as MCP's `ElicitResult` and the CLI's
 * `elicitation` response.
 *
 * @internal
 */
export const ElicitationResult = Schema.Union([
  Schema.Struct({ action: Schema.Literal("accept"), content: Schema.optionalKey(Content), _meta: Meta }),
  Schema.Struct({ action: Schema.Literals(["decline", "cancel"]), _meta: Meta })
]).annotate({ identifier: "ElicitationResult" })

/** @internal */
export type ElicitationResult = typeof ElicitationResult.Type

/** The fallback, and the answer when no handler is provided (as the official SDK answers). @internal */
export const declined: ElicitationResult = { action: "decline" }

const decodeResult = Schema.decodeUnknownResult(ElicitationResult, Issues.decodeOptions)

/** The one policy of elicitations: a handler that fails, dies, times out or answers badly declines. @internal */
export const policy: GuardedRun.Policy<ElicitationResult> = {
  kind: "elicitation",
  fallsBack: "fell back to decline",
  validate: (answer) =>
    Result.mapError(decodeResult(answer), (error) => `the elicitation result: ${Issues.describe(error, "(result)")}`),
  fallback: () => declined,
  decisionOf: (result) => result.action
}

/** @internal */
export interface Site {
  readonly requestId: string
}

/** Answers one elicitation; never fails. @internal */
export type Answer = (request: Protocol.ElicitationRequest, site: Site) => Effect.Effect<ElicitationResult>

/** The handler under the policy; without a handler, a decline. @internal */
export const answer = (
  service: ElicitationHandler.Service | undefined,
  defaultTimeout: Duration.Input = GuardedRun.defaultTimeouts.elicitation
): Answer =>
(request, site) =>
  service === undefined
    ? Effect.succeed(declined)
    : GuardedRun.run(policy, {
      subject: `elicitation handler (MCP server "${request.mcp_server_name}")`,
      evaluate: () => service.handler(request, site),
      timeout: service.timeout ?? Duration.fromInputUnsafe(defaultTimeout),
      annotations: () => ({ mcpServer: request.mcp_server_name, requestId: site.requestId })
    }, GuardedRun.answerOf)
