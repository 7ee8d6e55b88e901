/**
 * Answers MCP elicitations: an MCP server asks the user for input (a form, or
 * a URL to open) in the middle of a tool call. Provide a handler with
 * {@link layer} and every session started under it answers with it:
 *
 * - the CLI's `elicitation` control requests, sent when an MCP server the CLI
 *   connected to (stdio, http, sse) calls `elicitation/create`;
 * - the questions of in-process tools (`context.elicit` in an `McpTool`
 *   handler), answered in process: the CLI does not relay elicitations of SDK
 *   servers.
 *
 * The handler runs through the SDK's guarded run, like hooks and the
 * permission gate: a failure, a defect, an answer that is not a valid result
 * or a handler that outlives its timeout (default 60 s) is logged and
 * answered with a **decline**. Without a handler every elicitation is
 * declined, as with the official SDK.
 *
 * ```ts
 * const answers = ElicitationHandler.layer((request) =>
 *   Effect.succeed(
 *     request.mcp_server_name === "shop"
 *       ? ElicitationHandler.accept({ quantity: 3 })
 *       : ElicitationHandler.decline
 *   )
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
import * as internal from "./internal/elicitation.js"
import * as HandlerContext from "./internal/handlerContext.js"
import type * as Protocol from "./Protocol.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class ElicitationHandler extends Context.Service<ElicitationHandler, ElicitationHandler.Service>()(
  "@claude-effect/sdk/ElicitationHandler"
) {}

/**
 * @since 0.1.0
 */
export declare namespace ElicitationHandler {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /** The user's handler, with its services provided. */
    readonly handler: Handler<unknown, never>
    /** How long the handler may take before the decline fallback answers (default 60 s). */
    readonly timeout: Duration.Duration | undefined
  }
}

/**
 * What an MCP server asks: `message` to show, and in `form` mode (the
 * default) `requested_schema`, the flat JSON Schema of the form; in `url`
 * mode, a `url` to open. `mcp_server_name` names the server.
 *
 * @since 0.1.0
 * @category Models
 */
export type Request = Protocol.ElicitationRequest

/**
 * @since 0.1.0
 * @category Models
 */
export interface ElicitationContext {
  /** The id of the control request (or, for an in-process tool, of its call). */
  readonly requestId: string
}

/**
 * The answer: `accept` with the form's values, `decline` (the user said no)
 * or `cancel` (the user dismissed the question).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Result: Schema.Codec<Result> = internal.ElicitationResult

/**
 * @since 0.1.0
 * @category Models
 */
export type Result = internal.ElicitationResult

/**
 * A form field's value: MCP forms are flat (strings, numbers, booleans and
 * lists of strings).
 *
 * @since 0.1.0
 * @category Models
 */
export type ContentValue = typeof internal.ContentValue.Type

/**
 * @since 0.1.0
 * @category Models
 */
export type Handler<E, R> = (request: Request, context: ElicitationContext) => Effect.Effect<Result, E, R>

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** How long the handler may take before the decline fallback answers (default 60 s). */
  readonly timeout?: Duration.Input | undefined
}

/**
 * The user filled in the form (in `url` mode: agreed to open the URL).
 *
 * @since 0.1.0
 * @category Results
 */
export const accept = (content?: { readonly [field: string]: ContentValue }): Result =>
  content === undefined ? { action: "accept" } : { action: "accept", content }

/**
 * The user said no.
 *
 * @since 0.1.0
 * @category Results
 */
export const decline: Result = internal.declined

/**
 * The user dismissed the question without answering.
 *
 * @since 0.1.0
 * @category Results
 */
export const cancel: Result = { action: "cancel" }

/**
 * A handler that may use the application's services.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = <E, R>(
  handler: Handler<E, R>,
  options?: Options
): Effect.Effect<ElicitationHandler.Service, never, R> =>
  Effect.map(Effect.context<R>(), (context) => {
    const services = HandlerContext.capture(context)
    return {
      handler: (request, site) => Effect.provideContext(handler(request, site), services as Context.Context<R>),
      timeout: options?.timeout !== undefined ? Duration.fromInputUnsafe(options.timeout) : undefined
    }
  })

/**
 * A handler that may use the application's services, as a layer: sessions
 * started under it answer elicitations with it.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = <E, R>(handler: Handler<E, R>, options?: Options): Layer.Layer<ElicitationHandler, never, R> =>
  Layer.effect(ElicitationHandler, make(handler, options))

/**
 * Answers one elicitation as a session does: the handler under its timeout,
 * a decline when it fails or when there is no handler. Never fails. Useful in
 * tests, and to answer elsewhere.
 *
 * @since 0.1.0
 * @category Answers
 */
export const respond = (
  service: ElicitationHandler.Service | undefined,
  request: Request,
  context: ElicitationContext
): Effect.Effect<Result> => internal.answer(service)(request, context)
