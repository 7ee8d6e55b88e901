/**
 * The control requests the SDK sends the CLI, as typed request/response
 * pairs.
 *
 * A `ControlRequest` declares one subtype the way an `@effect/rpc` `Rpc`
 * declares a procedure: the schema of its payload and the schema of its
 * successful response, together. {@link requests} is the one table of every
 * request the pinned CLI (2.1.328) accepts; the union of outbound payloads
 * (`Protocol.OutboundControlRequestPayload`) is derived from it.
 *
 * `ControlRouter.request(def, payload)` and `Session.request(def, payload)`
 * encode the payload with the definition's schema (a payload that does not
 * encode fails with `ControlError` reason `InvalidRequest`, and is never
 * written), and decode the CLI's reply with its success schema (a reply that
 * does not decode fails with `ControlError` reason `InvalidResponse`). An
 * error reply is a `ControlError` with reason `ErrorResponse`, carrying the
 * CLI's message and `error_code`.
 *
 * ```ts
 * import { ControlRequest } from "@claude-effect/sdk"
 *
 * // a subtype of the table: the answer is a `Protocol.SettingsResponse`
 * const settings = session.request(ControlRequest.requests.get_settings, {})
 *
 * // a subtype the table does not know: declare it
 * const GetPlan = ControlRequest.make("get_plan", { payload: {}, success: Schema.Unknown })
 * const plan = session.request(GetPlan, {})
 * ```
 *
 * Adding a request to the SDK is one entry in the table and, where the
 * official SDK has one, its `Session` method.
 *
 * @since 0.1.0
 */
import type * as Schema from "effect/Schema"
import * as internal from "./internal/protocol/control.js"

/**
 * @since 0.1.0
 * @category Type ids
 */
export const TypeId: unique symbol = internal.ControlRequestTypeId

/**
 * @since 0.1.0
 * @category Type ids
 */
export type TypeId = typeof TypeId

/**
 * One control request: its subtype, the schema of the `request` object on
 * the wire (the subtype included), and the schema of the response body.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ControlRequest<
  out Subtype extends string,
  out PayloadSchema extends Schema.Top,
  out SuccessSchema extends Schema.Top
> {
  readonly [TypeId]: TypeId
  readonly subtype: Subtype
  /** The schema of the `request` object of the `control_request` line, `subtype` included. */
  readonly payloadSchema: PayloadSchema
  /**
   * The schema of the success reply's `response` body. It receives
   * `undefined` when the CLI sent none.
   */
  readonly successSchema: SuccessSchema
}

/**
 * Any control request definition that can be sent: its schemas need no
 * services.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Any extends ControlRequest<string, Schema.Codec<unknown, unknown>, Schema.Codec<unknown, unknown>> {}

/**
 * The `request` object written on the wire, `subtype` included.
 *
 * @since 0.1.0
 * @category Models
 */
export type Request<R extends Any> = R["payloadSchema"]["Type"]

/**
 * What the caller passes: the request's fields without `subtype`.
 *
 * @since 0.1.0
 * @category Models
 */
export type Payload<R extends Any> = {
  readonly [K in keyof Request<R> as K extends "subtype" ? never : K]: Request<R>[K]
}

/**
 * The decoded response body.
 *
 * @since 0.1.0
 * @category Models
 */
export type Success<R extends Any> = R["successSchema"]["Type"]

/**
 * Declares a control request from the fields of its payload (a closed
 * struct: a misspelled field is a compile error, unknown keys are still kept
 * at run time) and the schema of its response. Use `Protocol.NoResponse` for
 * a request the CLI answers without a body.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: <
  const Subtype extends string,
  Fields extends Schema.Struct.Fields,
  SuccessSchema extends Schema.Top
>(
  subtype: Subtype,
  options: { readonly payload: Fields; readonly success: SuccessSchema }
) => ControlRequest<Subtype, Schema.Struct<{ readonly subtype: Schema.Literal<Subtype> } & Fields>, SuccessSchema> =
  internal.makeControlRequest

/**
 * Declares a control request whose payload schema is given whole (its
 * `subtype` field included), for an open request such as `initialize`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const fromSchema: <
  const Subtype extends string,
  PayloadSchema extends Schema.Top,
  SuccessSchema extends Schema.Top
>(
  subtype: Subtype,
  options: { readonly payload: PayloadSchema; readonly success: SuccessSchema }
) => ControlRequest<Subtype, PayloadSchema, SuccessSchema> = internal.controlRequestFromSchema

/**
 * Whether a value is a control request definition.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isControlRequest: (u: unknown) => u is Any = internal.isControlRequest

/**
 * Every control request the CLI 2.1.328 accepts, by subtype: the one table.
 * Requests the CLI refuses in this release (`set_color`) are left out;
 * requests of the remote, desktop and UI features are left out too (declare
 * them with {@link make} to send them).
 *
 * @since 0.1.0
 * @category Table
 */
export const requests: typeof internal.controlRequests = internal.controlRequests

/**
 * The table's type.
 *
 * @since 0.1.0
 * @category Table
 */
export type Requests = typeof requests

/**
 * A request of the table.
 *
 * @since 0.1.0
 * @category Table
 */
export type Known = Requests[keyof Requests]
