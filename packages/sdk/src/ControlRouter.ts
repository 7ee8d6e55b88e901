/**
 * The control-protocol router. One reader fiber decodes every stdout line and
 * routes it: SDK messages to an unbounded queue (control traffic must never
 * wait behind a slow consumer), control responses to the pending request with
 * the same id, inbound control requests to a fiber of their own (cancellable
 * by `control_cancel_request`), keep-alives nowhere.
 *
 * The router knows framing and correlation only. What to answer is decided by
 * the {@link InboundHandler}s it is given, one per inbound subtype.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Pull from "effect/Pull"
import * as Queue from "effect/Queue"
import * as References from "effect/References"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as Tracer from "effect/Tracer"
import { type CliExitError, ControlError, ControlTimeoutError, ProtocolError } from "./ClaudeError.js"
import { CliProcess, type ExitStatus } from "./CliProcess.js"
import type * as ControlRequest from "./ControlRequest.js"
import * as GuardedRun from "./internal/guardedRun.js"
import * as IssuePath from "./internal/issuePath.js"
import { validatorFor } from "./internal/protocol/validator.js"
import * as InternalTelemetry from "./internal/telemetry.js"
import * as Protocol from "./Protocol.js"
import * as Telemetry from "./Telemetry.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class ControlRouter extends Context.Service<ControlRouter, ControlRouter.Service>()(
  "@claude-effect/sdk/ControlRouter"
) {}

/**
 * @since 0.1.0
 */
export declare namespace ControlRouter {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /**
     * Every SDK message the CLI writes, in order. Ends (`Cause.Done`) when the
     * CLI exits cleanly; fails with `CliExitError` when it dies, or with the
     * `ProtocolError` of a line that broke the framing guard.
     */
    readonly messages: Queue.Dequeue<Protocol.Message, CliExitError | ProtocolError | Cause.Done>
    /**
     * The messages buffered now, or the next ones as they come: `done` once
     * the messages have ended (with an empty batch). Fails as `messages` does.
     */
    readonly takeMessages: Effect.Effect<
      readonly [messages: ReadonlyArray<Protocol.Message>, done: boolean],
      CliExitError | ProtocolError
    >
    /** Writes one message to the CLI's stdin, validated by the stdin Schema first. */
    readonly send: (message: Protocol.StdinMessage) => Effect.Effect<void, ProtocolError | CliExitError>
    /**
     * Sends a control request and waits for its response, decoded with the
     * request's success schema. Fails with `ControlError`: `InvalidRequest`
     * when the payload does not encode (nothing is written),
     * `InvalidResponse` when the reply does not decode, `ErrorResponse` when
     * the CLI refuses, `Closed` when it exits first; with
     * `ControlTimeoutError` when no reply comes in time (the request is then
     * cancelled).
     */
    readonly request: <R extends ControlRequest.Any>(
      request: R,
      payload: ControlRequest.Payload<R>,
      options?: { readonly timeout?: Duration.Input | undefined }
    ) => Effect.Effect<ControlRequest.Success<R>, ControlError | ControlTimeoutError>
    /** Marks the coming exit as requested by the SDK, so it is not reported as a crash. */
    readonly expectExit: Effect.Effect<void>
  }
}

/**
 * How the CLI's exit ends the messages: normally, with a failure, or with a
 * failure that says a turn was cut short.
 *
 * @since 0.1.0
 * @category Models
 */
export type ExitOutcome = "end" | "fail" | "duringTurn"

/**
 * The answer to one kind of inbound control request. `handle` says how the
 * request is answered, without running anything: the router starts it in the
 * request's one fiber, in the request's one span.
 *
 * @since 0.1.0
 * @category Models
 */
export interface InboundHandler {
  readonly subtype: string
  readonly handle: (request: Protocol.InboundControlRequest, context: InboundContext) => InboundAnswer
  /**
   * The answer to a request of this subtype that failed to decode (raw JSON),
   * or `undefined` for an error reply.
   */
  readonly undecodable?: ((raw: unknown) => unknown) | undefined
  /** The name of the request's span (`claude.hook`, `claude.permission`, ...; default `claude.control.inbound`). */
  readonly spanName?: ((request: Protocol.InboundControlRequest) => string) | undefined
  /** The attributes of the request's span (what the request is about: a hook, a tool, a server). */
  readonly attributes?: ((request: Protocol.InboundControlRequest) => Record<string, unknown>) | undefined
}

/**
 * How one inbound request is answered: by a user handler under the SDK's
 * guarded run (deadline, validation, fallback, record: it always answers), or
 * by an Effect whose failure becomes an error reply carrying its message.
 *
 * @since 0.1.0
 * @category Models
 */
export type InboundAnswer =
  | { readonly _tag: "Guarded"; readonly guarded: GuardedRun.Guarded<any> }
  | { readonly _tag: "Effect"; readonly effect: Effect.Effect<unknown, InboundHandlerError> }

/**
 * An answer computed by an Effect (no deadline); a failure is an error reply.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const answerWith = (effect: Effect.Effect<unknown, InboundHandlerError>): InboundAnswer => ({
  _tag: "Effect",
  effect
})

/** @internal */
export const guarded = <A>(guarded: GuardedRun.Guarded<A>): InboundAnswer => ({ _tag: "Guarded", guarded })

/**
 * @since 0.1.0
 * @category Models
 */
export interface InboundContext {
  readonly requestId: string
}

/**
 * @since 0.1.0
 * @category Errors
 */
export class InboundHandlerError extends Data.TaggedError("InboundHandlerError")<{
  /** Sent to the CLI as the error reply. */
  readonly message: string
  readonly cause?: unknown
}> {}

/**
 * @since 0.1.0
 * @category Models
 */
export interface MakeOptions {
  readonly handlers: ReadonlyArray<InboundHandler>
  /** Default timeout of outbound control requests (default 30 s). */
  readonly controlTimeout?: Duration.Input | undefined
  /** The span inbound requests belong to (the running turn's, else the session's). */
  readonly parentSpan?: (() => Tracer.AnySpan | undefined) | undefined
  /** Log annotations for everything done for one request (session id, turn, ...). Asked once per request. */
  readonly logAnnotations?: (() => Record<string, unknown>) | undefined
  /**
   * Sees every SDK message as it is read, before the consumer does (the session keeps its turn
   * bookkeeping here, so that it is up to date when the CLI exits, whatever the consumer has read).
   */
  readonly observe?: ((message: Protocol.Message) => void) | undefined
  /**
   * How an exit the SDK did not ask for ends `messages`: `"end"` ends them; `"fail"` fails them with
   * the CLI's exit error, `"duringTurn"` with one that says a turn was cut short. Default: exit code 0
   * ends them, anything else fails them.
   */
  readonly classifyExit?: ((status: ExitStatus) => ExitOutcome) | undefined
  /** Hides secrets in what the router logs and reports (an unreadable line, ...). */
  readonly redact?: ((text: string) => string) | undefined
}

let requestCounter = 0

const ended = Exit.void
const interrupted = Exit.interrupt()

const describeFailure = (error: Schema.SchemaError | Cause.UnknownError): string =>
  Schema.isSchemaError(error) ? IssuePath.describe(error.issue) : error.message

// Whether a schema only checks values (no encoding anywhere in it): then a value is checked in place and
// handed on as it is, unknown fields included, as the line codec does; else the Schema interpreter runs.
const checksOnly = (schema: Schema.Top): boolean =>
  SchemaAST.toType(schema.ast) === schema.ast && SchemaAST.toEncoded(schema.ast) === schema.ast

type Codec = (input: unknown) => Result.Result<unknown, SchemaIssue.Issue>

const issueOf = (error: Schema.SchemaError): SchemaIssue.Issue => error.issue

// Each request's payload encoder, compiled once, on first use, as the response decoders below.
const requestEncoders = new WeakMap<ControlRequest.Any, Codec>()

/** The `control_request` line of a request: its payload encoded by the request's own schema. */
const encodeRequest = <R extends ControlRequest.Any>(
  definition: R,
  payload: ControlRequest.Payload<R>,
  requestId: string
): Result.Result<string, Schema.SchemaError | Cause.UnknownError> => {
  let encode = requestEncoders.get(definition)
  if (encode === undefined) {
    const schema = definition.payloadSchema
    const encodeUnknown = Schema.encodeUnknownResult(schema)
    encode = checksOnly(schema) ? validatorFor(schema) : (input) => Result.mapError(encodeUnknown(input), issueOf)
    requestEncoders.set(definition, encode)
  }
  return Result.flatMap(
    Result.mapError(encode({ ...payload, subtype: definition.subtype }), (issue) => new Schema.SchemaError(issue)),
    (request) =>
      Result.try({
        try: () => JSON.stringify({ type: "control_request", request_id: requestId, request }),
        catch: (cause) => new Cause.UnknownError(cause, `not JSON: ${String(cause)}`)
      })
  )
}

// Each request's response decoder, compiled once, on first use. The initialize response is large: ~10x
// cheaper checked in place (effect 3's measurement).
const responseDecoders = new WeakMap<ControlRequest.Any, Codec>()

/** The response body, decoded by the request's own success schema. */
const decodeResponse = <R extends ControlRequest.Any>(
  definition: R,
  body: unknown
): Result.Result<ControlRequest.Success<R>, Schema.SchemaError> => {
  let decode = responseDecoders.get(definition)
  if (decode === undefined) {
    const schema = definition.successSchema
    const decodeUnknown = Schema.decodeUnknownResult(schema)
    decode = checksOnly(schema) ? validatorFor(schema) : (input) => Result.mapError(decodeUnknown(input), issueOf)
    responseDecoders.set(definition, decode)
  }
  return Result.mapError(
    decode(body) as Result.Result<ControlRequest.Success<R>, SchemaIssue.Issue>,
    (issue) => new Schema.SchemaError(issue)
  )
}

/**
 * @since 0.1.0
 * @category Constructors
 */
export const make: (
  options: MakeOptions
) => Effect.Effect<ControlRouter.Service, never, CliProcess | Scope.Scope> = Effect.fnUntraced(
  function*(options: MakeOptions) {
    const cli = yield* CliProcess
    // Inbound requests run as fibers of the router creator's context (its services, tracer, logger, references).
    const context = yield* Effect.context<never>()
    const messages = yield* Queue.unbounded<Protocol.Message, CliExitError | ProtocolError | Cause.Done>()
    // Effect 4's Queue wakes a taker cheaply: effect 3's hand-made wait for the next batch is gone.
    const takeMessages: ControlRouter.Service["takeMessages"] = Queue.takeAll(messages).pipe(
      Effect.map((batch): readonly [ReadonlyArray<Protocol.Message>, boolean] => [batch, false]),
      Pull.catchDone(() => Effect.succeed([[], true] as const))
    )

    // Each outbound request awaiting its response: `settle` completes its wait (the response, an error
    // response, or the CLI's exit); a response that arrives before the wait began is kept in `early`.
    interface Pending {
      readonly subtype: string
      settle: ((result: Effect.Effect<unknown, ControlError>) => void) | undefined
      early: Effect.Effect<unknown, ControlError> | undefined
    }
    const pending = new Map<string, Pending>()
    const settlePending = (entry: Pending, result: Effect.Effect<unknown, ControlError>) => {
      if (entry.settle !== undefined) entry.settle(result)
      else entry.early = result
    }
    // Each inbound request being handled, by request id: a cancel stops its run, sends no answer and
    // ends its span; its handler is interrupted in the background, never waited for.
    interface Inbound {
      running: GuardedRun.Running | undefined
      readonly span: Tracer.Span | undefined
      readonly context: Context.Context<never>
    }
    const inbound = new Map<string, Inbound>()
    const cancelInbound = (entry: Inbound) => {
      entry.running?.cancel()
      if (entry.span !== undefined) InternalTelemetry.endSpan(entry.span, entry.context, interrupted)
    }
    const interruptAllInbound = Effect.sync(() => {
      const handling = Array.from(inbound.values())
      inbound.clear()
      for (const entry of handling) cancelInbound(entry)
    })
    yield* Scope.addFinalizer(yield* Effect.scope, interruptAllInbound)
    const handlers = new Map(options.handlers.map((h) => [h.subtype, h] as const))
    const controlTimeout = options.controlTimeout ?? Duration.seconds(30)
    // Set once the CLI has exited and every pending request has been told: later requests fail at once.
    let closed = false
    let exitExpected = false
    const redact = options.redact
    const observe = options.observe
    const classifyExit = options.classifyExit ?? ((status: ExitStatus) => status.code === 0 ? "end" : "fail")
    // What the reader saw, for the metrics (flushed once per batch).
    const stats = { lines: 0, unknownMessages: 0, protocolErrors: 0 }

    const send = (message: Protocol.StdinMessage): Effect.Effect<void, ProtocolError | CliExitError> =>
      Result.match(Protocol.encodeStdinLine(message), {
        onFailure: (error) => Effect.fail(error),
        onSuccess: (line) => cli.writeLine(line)
      })

    // The context inbound requests run in: the router creator's, with the annotations of `logAnnotations`
    // (pid, turn, session id) added to its logs. Effect 4 adds a reference to a Context cheaply: effect 3's
    // runtime cache, rebuilt only when the annotations changed, is gone. Each request's own annotations
    // (request id, subtype) go on the SDK's logs for it, not on its handler's fiber.
    const creatorAnnotations = Context.get(context, References.CurrentLogAnnotations)
    const requestContext = (): Context.Context<never> => {
      const source = options.logAnnotations?.()
      return source === undefined
        ? context
        : Context.add(context, References.CurrentLogAnnotations, { ...creatorAnnotations, ...source })
    }

    // An answer's line, built around its JSON (stringified once, by the guarded run or here): the
    // envelope is fixed and the request id a string, so the line is valid by construction.
    const successLine = (requestId: string, json: string | undefined) =>
      json === undefined
        ? `{"type":"control_response","response":{"subtype":"success","request_id":${JSON.stringify(requestId)}}}`
        : `{"type":"control_response","response":{"subtype":"success","request_id":${
          JSON.stringify(requestId)
        },"response":${json}}}`
    const errorLine = (requestId: string, error: string) =>
      `{"type":"control_response","response":{"subtype":"error","request_id":${JSON.stringify(requestId)},"error":${
        JSON.stringify(error)
      }}}`
    const writeReply = (requestId: string, subtype: string, line: string): Effect.Effect<void> =>
      Effect.catch(cli.writeLine(line), (error) =>
        Effect.logWarning("could not answer a control request").pipe(
          Effect.annotateLogs({ requestId, subtype, error: error.message })
        ))
    // An answer written outside any fiber: queued at once when the process can take a line so, else
    // (the CLI has exited, or a CliProcess without `unsafeWriteLine`) by `writeReply` in a fiber.
    const unsafeWriteLine = cli.unsafeWriteLine
    const writeReplyNow = (
      forRequest: Context.Context<never>,
      requestId: string,
      subtype: string,
      line: string
    ): void => {
      if (unsafeWriteLine === undefined || !unsafeWriteLine(line)) {
        Effect.runForkWith(forRequest)(writeReply(requestId, subtype, line))
      }
    }
    const clock = Context.get(context, Clock.Clock)

    // Whether inbound requests get spans: the tracer of the router creator's context, which is fixed.
    const tracing = InternalTelemetry.isTracing(context)
    // One request: one span (named by its handler), one fiber (the handler's), one stringify of the answer.
    const handleInbound = (envelope: Protocol.ControlRequest) => {
      const requestId = envelope.request_id
      const request = envelope.request
      const subtype = request.subtype
      const handler = handlers.get(subtype)
      // Attributes are built only for a span that is made (a tracer is installed).
      const span = tracing
        ? InternalTelemetry.startSpan(
          context,
          () => handler?.spanName?.(request) ?? Telemetry.spans.inbound,
          options.parentSpan?.(),
          "server",
          () =>
            handler?.attributes === undefined
              ? { [Telemetry.attributes.requestId]: requestId, [Telemetry.attributes.subtype]: subtype }
              : {
                [Telemetry.attributes.requestId]: requestId,
                [Telemetry.attributes.subtype]: subtype,
                ...handler.attributes(request)
              }
        )
        : undefined
      const forRequest = requestContext()
      // What the SDK's own logs for this request carry, on top of the context's annotations.
      const annotations = { requestId, subtype }
      const log = (effect: Effect.Effect<void>) =>
        Effect.runForkWith(forRequest)(Effect.annotateLogs(effect, annotations))
      const entry: Inbound = { running: undefined, span, context: forRequest }
      inbound.set(requestId, entry)
      const settle = (line: string, exit: Exit.Exit<unknown, unknown>): void => {
        if (inbound.get(requestId) === entry) inbound.delete(requestId)
        if (span !== undefined) InternalTelemetry.endSpan(span, forRequest, exit)
        writeReplyNow(forRequest, requestId, subtype, line)
      }
      if (handler === undefined) {
        settle(errorLine(requestId, `Unsupported control request subtype: ${subtype}`), ended)
        return
      }
      const answer = handler.handle(request, { requestId })
      // Started now, in the reader's turn: a handler that answers synchronously (most do) has answered
      // before the next line is read, without a trip through the scheduler.
      entry.running = answer._tag === "Guarded"
        ? GuardedRun.start(
          answer.guarded,
          forRequest,
          clock,
          span,
          (settled) => settle(successLine(requestId, settled.json), ended),
          annotations
        )
        : GuardedRun.watch(forRequest, clock, () => answer.effect, Duration.infinity, span, (exit) => {
          // No deadline: the exit is always there.
          if (Option.isNone(exit)) return settle(errorLine(requestId, `${subtype} handler failed`), interrupted)
          const value = exit.value
          if (Exit.isSuccess(value)) {
            const json = GuardedRun.stringify(value.value)
            if (json === null) {
              log(Effect.logWarning("an inbound control request's answer cannot be written as JSON"))
              return settle(errorLine(requestId, "the SDK could not encode its answer"), value)
            }
            return settle(successLine(requestId, json), value)
          }
          log(Effect.logWarning("inbound control request handler failed", value.cause))
          return settle(
            errorLine(
              requestId,
              Option.match(Cause.findErrorOption(value.cause), {
                onNone: () => `${subtype} handler failed`,
                onSome: (error) => error.message
              })
            ),
            value
          )
        })
    }

    // In the background: the reader must not wait for a handler to stop.
    const interruptInbound = (requestId: string) => {
      const entry = inbound.get(requestId)
      if (entry !== undefined) {
        inbound.delete(requestId)
        cancelInbound(entry)
      }
    }

    // A control request the Schema rejects still waits for an answer (can_use_tool forever): give the
    // one that fails closed. Handlers that know the subtype decide what that is.
    const answerUndecodable = (line: string): Effect.Effect<void> => {
      let raw: unknown
      try {
        raw = JSON.parse(line)
      } catch {
        return Effect.void
      }
      if (typeof raw !== "object" || raw === null) return Effect.void
      const envelope = raw as { readonly type?: unknown; readonly request_id?: unknown; readonly request?: unknown }
      const requestId = envelope.request_id
      if (envelope.type !== "control_request" || typeof requestId !== "string") return Effect.void
      const body = envelope.request as { readonly subtype?: unknown } | null | undefined
      const subtype = typeof body?.subtype === "string" ? body.subtype : "unknown"
      const fallback = handlers.get(subtype)?.undecodable?.(envelope.request)
      return writeReply(
        requestId,
        subtype,
        fallback !== undefined
          ? successLine(requestId, JSON.stringify(fallback))
          : errorLine(requestId, `the SDK could not read this ${subtype} request`)
      )
    }

    // The error of an unreadable line, as reported: when the line holds a secret, the error of the
    // redacted line (its excerpt and the parser's message quote the line, possibly cut mid-secret).
    const reportable = (line: string, error: ProtocolError): ProtocolError => {
      if (redact === undefined) return error
      const redacted = redact(line)
      if (redacted === line) return error
      const again = Protocol.decodeStdoutLine(redacted)
      return Result.isFailure(again)
        ? again.failure
        : new ProtocolError({
          reason: error.reason,
          line: redacted,
          lineLength: line.length,
          detail: "not a valid message"
        })
    }

    const route = (line: string): Effect.Effect<void> => {
      stats.lines++
      if (line.length === 0 || line.trim().length === 0) return Effect.void
      const decoded = Protocol.decodeStdoutLine(line)
      if (Result.isFailure(decoded)) {
        stats.protocolErrors++
        const error = reportable(line, decoded.failure)
        return Effect.logWarning("skipped a stdout line that is not a valid message").pipe(
          Effect.annotateLogs({ reason: error.reason, detail: error.detail, line: error.line }),
          Effect.andThen(answerUndecodable(line))
        )
      }
      const message = decoded.success
      switch (message.type) {
        case "control_response": {
          const response = (message as Protocol.ControlResponse).response
          const requestId = response.request_id
          const entry = requestId === undefined ? undefined : pending.get(requestId)
          if (requestId === undefined || entry === undefined) return Effect.void
          pending.delete(requestId)
          if (response.subtype === "success") {
            settlePending(entry, Effect.succeed((response as Protocol.ControlSuccess).response))
          } else {
            const failure = response as Protocol.ControlFailure
            settlePending(
              entry,
              Effect.fail(
                new ControlError({
                  reason: "ErrorResponse",
                  subtype: entry.subtype,
                  requestId,
                  error: String(failure.error),
                  ...(failure.error_code !== undefined ? { errorCode: String(failure.error_code) } : {})
                })
              )
            )
          }
          return Effect.void
        }
        case "control_request":
          handleInbound(message as Protocol.ControlRequest)
          return Effect.void
        case "control_cancel_request":
          interruptInbound((message as Protocol.ControlCancelRequest).request_id)
          return Effect.void
        case "keep_alive":
          return Effect.void
        default: {
          if (Protocol.isUnknownMessage(message)) stats.unknownMessages++
          if (observe !== undefined) observe(message as Protocol.Message)
          // The queue is unbounded: offering never waits, so it needs no effect of its own.
          Queue.offerUnsafe(messages, message as Protocol.Message)
          return Effect.void
        }
      }
    }

    const closeAll = (status: ExitStatus) =>
      Effect.suspend(() => {
        closed = true
        const waiting = Array.from(pending)
        pending.clear()
        for (const [requestId, entry] of waiting) {
          settlePending(
            entry,
            Effect.fail(
              new ControlError({
                reason: "Closed",
                subtype: entry.subtype,
                requestId,
                error: `the CLI exited (${status.signal ?? `code ${status.code}`}) before answering`
              })
            )
          )
        }
        return interruptAllInbound
      })

    // Metrics are flushed once per batch of lines, not once per line, with the router creator's metric
    // attributes (its context's): this loop is the hot path.
    let flushed = { lines: 0, unknownMessages: 0, protocolErrors: 0 }
    const flushMetrics = () => {
      Telemetry.linesDecoded.updateUnsafe(stats.lines - flushed.lines, context)
      if (stats.unknownMessages > flushed.unknownMessages) {
        Telemetry.unknownMessages.updateUnsafe(stats.unknownMessages - flushed.unknownMessages, context)
      }
      if (stats.protocolErrors > flushed.protocolErrors) {
        Telemetry.protocolErrors.updateUnsafe(stats.protocolErrors - flushed.protocolErrors, context)
      }
      flushed = { lines: stats.lines, unknownMessages: stats.unknownMessages, protocolErrors: stats.protocolErrors }
    }

    // Messages and inbound requests are routed synchronously (a handler that does not answer at once gets
    // a fiber of its own); only unreadable lines yield effects, run in order after the batch.
    const routeLines = (lines: ReadonlyArray<string>): Effect.Effect<void> => {
      let effect: Effect.Effect<void> = Effect.void
      for (const line of lines) {
        const routed = route(line)
        if (routed !== Effect.void) effect = effect === Effect.void ? routed : Effect.andThen(effect, routed)
      }
      flushMetrics()
      return effect
    }
    const readLines = cli.readLines !== undefined
      ? cli.readLines(routeLines)
      : cli.lines.pipe(Stream.runForEachArray(routeLines))
    // Stdout held open after the CLI's exit ends the reading as stdout's end would (one race per session).
    yield* (cli.linesCut === undefined ? readLines : Effect.raceFirst(readLines, cli.linesCut)).pipe(
      Effect.matchCauseEffect({
        onFailure: (cause) =>
          Effect.gen(function*() {
            // A line broke the framing guard: nothing after it can be trusted.
            const error = Cause.findErrorOption(cause)
            if (Option.isSome(error)) yield* Queue.fail(messages, error.value)
            else yield* Queue.failCause(messages, cause)
            const status = yield* cli.shutdown({ gracePeriod: 0 })
            yield* closeAll(status)
          }),
        onSuccess: () =>
          Effect.gen(function*() {
            const status = yield* cli.awaitExit
            yield* closeAll(status)
            const outcome = exitExpected ? "end" : classifyExit(status)
            if (outcome === "end") yield* Queue.end(messages)
            else yield* Queue.fail(messages, yield* cli.exitError(status, { duringTurn: outcome === "duringTurn" }))
          })
      }),
      Effect.forkScoped
    )

    const setPendingGauge = () => Telemetry.pendingControlRequests.updateUnsafe(pending.size, context)
    const request = <R extends ControlRequest.Any>(
      definition: R,
      payload: ControlRequest.Payload<R>,
      requestOptions?: { readonly timeout?: Duration.Input | undefined }
    ): Effect.Effect<ControlRequest.Success<R>, ControlError | ControlTimeoutError> =>
      // A new request id each time the Effect runs (a retry is another request).
      Effect.suspend(() => requestOnce(definition, payload, requestOptions))
    const requestOnce = <R extends ControlRequest.Any>(
      definition: R,
      payload: ControlRequest.Payload<R>,
      requestOptions?: { readonly timeout?: Duration.Input | undefined }
    ): Effect.Effect<ControlRequest.Success<R>, ControlError | ControlTimeoutError> => {
      const requestId = `req_${++requestCounter}_${Math.random().toString(36).slice(2, 10)}`
      const subtype = definition.subtype
      const exchange = Effect.suspend((): Effect.Effect<unknown, ControlError | ControlTimeoutError> => {
        // Encoded once, by this request's own schema: a payload it refuses is never written, and the
        // session is fine (the request is not).
        const line = encodeRequest(definition, payload, requestId)
        if (Result.isFailure(line)) {
          return Effect.fail(
            new ControlError({
              reason: "InvalidRequest",
              subtype,
              requestId,
              error: `invalid ${subtype} request: ${describeFailure(line.failure)}`,
              cause: line.failure
            })
          )
        }
        if (closed) {
          return Effect.fail(new ControlError({ reason: "Closed", subtype, requestId, error: "the CLI has exited" }))
        }
        const entry: Pending = { subtype, settle: undefined, early: undefined }
        pending.set(requestId, entry)
        setPendingGauge()
        const forget = () => {
          if (pending.get(requestId) === entry) pending.delete(requestId)
          setPendingGauge()
        }
        const written = unsafeWriteLine !== undefined && unsafeWriteLine(line.success)
          ? Effect.void
          : Effect.catch(cli.writeLine(line.success), (error) =>
            Effect.suspend(() => {
              forget()
              return Effect.fail(
                new ControlError({ reason: "Closed", subtype, requestId, error: error.message, cause: error })
              )
            }))
        const timeout = requestOptions?.timeout ?? controlTimeout
        // The deadline is a timer that ends the wait itself: it holds inside a finalizer too (closing
        // mid-turn interrupts the CLI first).
        const answered = GuardedRun.awaitWithin<unknown, ControlError | ControlTimeoutError>(
          timeout,
          (settle) => {
            if (entry.early !== undefined) settle(entry.early)
            else entry.settle = settle
            return forget
          },
          () => {
            forget()
            return Effect.andThen(
              Effect.ignore(send({ type: "control_cancel_request", request_id: requestId })),
              Effect.fail(
                new ControlTimeoutError({
                  subtype,
                  requestId,
                  timeoutMillis: Duration.toMillis(Duration.fromInputUnsafe(timeout))
                })
              )
            )
          }
        )
        return Effect.andThen(written, Effect.ensuring(answered, Effect.sync(setPendingGauge)))
      })
      return InternalTelemetry.withSpanIfTracing(
        Effect.flatMap(exchange, (body) => {
          // Decoded by this request's own success schema (`undefined` when the CLI sent no body).
          const decoded = decodeResponse(definition, body)
          return Result.isFailure(decoded)
            ? Effect.fail(
              new ControlError({
                reason: "InvalidResponse",
                subtype,
                requestId,
                error: `unexpected ${subtype} response: ${describeFailure(decoded.failure)}`,
                cause: decoded.failure
              })
            )
            : Effect.succeed(decoded.success)
        }),
        Telemetry.spans.outbound,
        () => ({
          // A stack trace per span costs more than the rest of a control round trip.
          captureStackTrace: false,
          kind: "client",
          attributes: { [Telemetry.attributes.subtype]: subtype, [Telemetry.attributes.requestId]: requestId }
        })
      )
    }

    return ControlRouter.of({
      messages,
      takeMessages,
      send,
      request,
      expectExit: Effect.sync(() => {
        exitExpected = true
      })
    })
  }
)

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (options: MakeOptions): Layer.Layer<ControlRouter, never, CliProcess> =>
  Layer.effect(ControlRouter, make(options))
