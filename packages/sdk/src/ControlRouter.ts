/**
 * The control-protocol router. One reader fiber decodes every stdout line and
 * routes it: SDK messages to an unbounded mailbox (control traffic must never
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
import * as DefaultServices from "effect/DefaultServices"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as FiberRef from "effect/FiberRef"
import * as FiberRefs from "effect/FiberRefs"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Runtime from "effect/Runtime"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as Tracer from "effect/Tracer"
import { type CliExitError, ControlError, ControlTimeoutError, ProtocolError } from "./ClaudeError.js"
import { CliProcess, type ExitStatus } from "./CliProcess.js"
import type * as ControlRequest from "./ControlRequest.js"
import * as GuardedRun from "./internal/guardedRun.js"
import * as InternalTelemetry from "./internal/telemetry.js"
import * as Protocol from "./Protocol.js"
import * as Telemetry from "./Telemetry.js"

/**
 * @since 0.1.0
 * @category Tags
 */
export class ControlRouter extends Context.Tag("@claude-effect/sdk/ControlRouter")<
  ControlRouter,
  ControlRouter.Service
>() {}

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
     * Every SDK message the CLI writes, in order. Ends when the CLI exits
     * cleanly; fails with `CliExitError` when it dies, or with the
     * `ProtocolError` of a line that broke the framing guard.
     */
    readonly messages: Mailbox.ReadonlyMailbox<Protocol.Message, CliExitError | ProtocolError>
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
      options?: { readonly timeout?: Duration.DurationInput | undefined }
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
  readonly controlTimeout?: Duration.DurationInput | undefined
  /** The span inbound requests belong to (the running turn's, else the session's). */
  readonly parentSpan?: (() => Tracer.AnySpan | undefined) | undefined
  /** Log annotations for everything done for one request (session id, turn, ...). */
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
const interrupted = Exit.interrupt(FiberId.none)

const describeFailure = (error: ParseResult.ParseError | Cause.UnknownException): string =>
  error._tag === "ParseError"
    ? ParseResult.ArrayFormatter.formatIssueSync(error.issue)
      .map(({ message, path }) => (path.length > 0 ? `${path.join(".")}: ${message}` : message))
      .join("; ")
    : error.message

/** The `control_request` line of a request: its payload encoded by the request's own schema. */
const encodeRequest = <R extends ControlRequest.Any>(
  definition: R,
  payload: ControlRequest.Payload<R>,
  requestId: string
): Either.Either<string, ParseResult.ParseError | Cause.UnknownException> =>
  Either.flatMap(
    Either.mapLeft(
      ParseResult.encodeUnknownEither(definition.payloadSchema)({ ...payload, subtype: definition.subtype }),
      (issue) => new ParseResult.ParseError({ issue })
    ),
    (request) =>
      Either.try({
        try: () => JSON.stringify({ type: "control_request", request_id: requestId, request }),
        catch: (cause) => new Cause.UnknownException(cause, `not JSON: ${String(cause)}`)
      })
  )

/** The response body, decoded by the request's own success schema. */
const decodeResponse = <R extends ControlRequest.Any>(
  definition: R,
  body: unknown
): Either.Either<ControlRequest.Success<R>, ParseResult.ParseError> =>
  Either.mapLeft(
    ParseResult.decodeUnknownEither(definition.successSchema)(body),
    (issue) => new ParseResult.ParseError({ issue })
  )

/**
 * @since 0.1.0
 * @category Constructors
 */
export const make: (
  options: MakeOptions
) => Effect.Effect<ControlRouter.Service, never, CliProcess | Scope.Scope> = Effect.fnUntraced(
  function*(options: MakeOptions) {
    const cli = yield* CliProcess
    // Inbound requests run as daemons of the router's creator (its services, tracer, logger, refs).
    const runtime = yield* Effect.runtime<never>()
    const messages = yield* Mailbox.make<Protocol.Message, CliExitError | ProtocolError>()
    const pending = new Map<
      string,
      { readonly subtype: string; readonly deferred: Deferred.Deferred<unknown, ControlError> }
    >()
    // Each inbound request being handled, by request id: a cancel stops its run, sends no answer and
    // ends its span; its handler is interrupted in the background, never waited for.
    interface Inbound {
      running: GuardedRun.Running | undefined
      readonly span: Tracer.Span | undefined
      readonly fiberRefs: FiberRefs.FiberRefs
    }
    const inbound = new Map<string, Inbound>()
    const cancelInbound = (entry: Inbound) => {
      entry.running?.cancel()
      if (entry.span !== undefined) InternalTelemetry.endSpan(entry.span, entry.fiberRefs, interrupted)
    }
    const interruptAllInbound = Effect.sync(() => {
      const handling = Array.from(inbound.values())
      inbound.clear()
      for (const entry of handling) cancelInbound(entry)
    })
    yield* Effect.addFinalizer(() => interruptAllInbound)
    const handlers = new Map(options.handlers.map((h) => [h.subtype, h] as const))
    const controlTimeout = options.controlTimeout ?? Duration.seconds(30)
    const done = yield* Deferred.make<ExitStatus>()
    let exitExpected = false
    const redact = options.redact
    const observe = options.observe
    const classifyExit = options.classifyExit ?? ((status: ExitStatus) => status.code === 0 ? "end" : "fail")
    // What the reader saw, for the metrics (flushed once per chunk).
    const stats = { lines: 0, unknownMessages: 0, protocolErrors: 0 }

    const send = (message: Protocol.StdinMessage): Effect.Effect<void, ProtocolError | CliExitError> =>
      Either.match(Protocol.encodeStdinLine(message), {
        onLeft: (error) => Effect.fail(error),
        onRight: (line) => cli.writeLine(line)
      })

    // The annotations every inbound request's logs carry: the router creator's and `logAnnotations`,
    // rebuilt only when those change (a new turn, the session id).
    let annotationSource: Record<string, unknown> = {}
    let annotationBase = FiberRefs.getOrDefault(runtime.fiberRefs, FiberRef.currentLogAnnotations)
    const creatorAnnotations = annotationBase
    const baseAnnotations = (): HashMap.HashMap<string, unknown> => {
      const source = options.logAnnotations?.() ?? {}
      const keys = Object.keys(source)
      if (
        keys.length !== Object.keys(annotationSource).length ||
        keys.some((key) => source[key] !== annotationSource[key])
      ) {
        annotationSource = source
        annotationBase = creatorAnnotations
        for (const key of keys) annotationBase = HashMap.set(annotationBase, key, source[key])
      }
      return annotationBase
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
    const writeReply = (requestId: string, line: string): Effect.Effect<void> =>
      Effect.catchAll(cli.writeLine(line), (error) =>
        Effect.logWarning("could not answer a control request").pipe(
          Effect.annotateLogs({ requestId, error: error.message })
        ))
    const clock = Context.get(
      FiberRefs.getOrDefault(runtime.fiberRefs, DefaultServices.currentServices),
      Clock.Clock
    )

    // One request: one span (named by its handler), one fiber (the handler's), one stringify of the answer.
    const handleInbound = (envelope: Protocol.ControlRequest) => {
      const requestId = envelope.request_id
      const request = envelope.request
      const subtype = request.subtype
      const handler = handlers.get(subtype)
      // Attributes are built only for a span that is made (a tracer is installed).
      const span = InternalTelemetry.startSpan(
        runtime.fiberRefs,
        runtime.context,
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
      // Its log annotations are set as its fiber is created, rather than by an effect around it.
      const annotations = HashMap.set(HashMap.set(baseAnnotations(), "requestId", requestId), "subtype", subtype)
      const fiberRefs = FiberRefs.updateAs(runtime.fiberRefs, {
        fiberId: FiberId.none,
        fiberRef: FiberRef.currentLogAnnotations,
        value: annotations
      })
      const requestRuntime = Runtime.make({ context: runtime.context, runtimeFlags: runtime.runtimeFlags, fiberRefs })
      const entry: Inbound = { running: undefined, span, fiberRefs }
      inbound.set(requestId, entry)
      const settle = (line: string, exit: Exit.Exit<unknown, unknown>): Effect.Effect<void> => {
        if (inbound.get(requestId) === entry) inbound.delete(requestId)
        if (span !== undefined) InternalTelemetry.endSpan(span, fiberRefs, exit)
        return writeReply(requestId, line)
      }
      if (handler === undefined) {
        Runtime.runFork(
          requestRuntime,
          settle(errorLine(requestId, `Unsupported control request subtype: ${subtype}`), ended)
        )
        return
      }
      const answer = handler.handle(request, { requestId })
      // Started now, in the reader's turn: a handler that answers synchronously (most do) has answered
      // before the next line is read, without a trip through the scheduler.
      entry.running = answer._tag === "Guarded"
        ? GuardedRun.start(
          answer.guarded,
          requestRuntime,
          clock,
          span,
          (settled) => settle(successLine(requestId, settled.json), ended)
        )
        : GuardedRun.watch(requestRuntime, clock, () => answer.effect, Duration.infinity, span, (exit) => {
          const value = (exit as Option.Some<Exit.Exit<unknown, InboundHandlerError>>).value
          if (Exit.isSuccess(value)) {
            let json: string | undefined
            try {
              json = value.value === undefined ? undefined : JSON.stringify(value.value)
            } catch {
              return Effect.zipRight(
                Effect.logWarning("an inbound control request's answer cannot be written as JSON"),
                settle(errorLine(requestId, "the SDK could not encode its answer"), value)
              )
            }
            return settle(successLine(requestId, json), value)
          }
          return Effect.zipRight(
            Effect.logWarning("inbound control request handler failed", value.cause),
            settle(
              errorLine(
                requestId,
                Option.match(Cause.failureOption(value.cause), {
                  onNone: () => `${subtype} handler failed`,
                  onSome: (error) => error.message
                })
              ),
              value
            )
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
      let raw: any
      try {
        raw = JSON.parse(line)
      } catch {
        return Effect.void
      }
      if (raw?.type !== "control_request" || typeof raw.request_id !== "string") return Effect.void
      const subtype = typeof raw.request?.subtype === "string" ? raw.request.subtype : "unknown"
      const handler = handlers.get(subtype)
      const fallback = handler?.undecodable?.(raw.request)
      return writeReply(
        raw.request_id,
        fallback !== undefined
          ? successLine(raw.request_id, JSON.stringify(fallback))
          : errorLine(raw.request_id, `the SDK could not read this ${subtype} request`)
      )
    }

    // The error of an unreadable line, as reported: when the line holds a secret, the error of the
    // redacted line (its excerpt and the parser's message quote the line, possibly cut mid-secret).
    const reportable = (line: string, error: ProtocolError): ProtocolError => {
      if (redact === undefined) return error
      const redacted = redact(line)
      if (redacted === line) return error
      const again = Protocol.decodeStdoutLine(redacted)
      return Either.isLeft(again)
        ? again.left
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
      if (Either.isLeft(decoded)) {
        stats.protocolErrors++
        const error = reportable(line, decoded.left)
        return Effect.logWarning("skipped a stdout line that is not a valid message").pipe(
          Effect.annotateLogs({ reason: error.reason, detail: error.detail, line: error.line }),
          Effect.zipRight(answerUndecodable(line))
        )
      }
      const message = decoded.right
      switch (message.type) {
        case "control_response": {
          const response = (message as Protocol.ControlResponse).response
          const requestId = response.request_id
          const entry = requestId === undefined ? undefined : pending.get(requestId)
          if (requestId === undefined || entry === undefined) return Effect.void
          pending.delete(requestId)
          return response.subtype === "success"
            ? Deferred.succeed(entry.deferred, (response as Protocol.ControlSuccess).response)
            : Deferred.fail(
              entry.deferred,
              new ControlError({
                reason: "ErrorResponse",
                subtype: entry.subtype,
                requestId,
                error: String((response as Protocol.ControlFailure).error),
                ...((response as Protocol.ControlFailure).error_code !== undefined
                  ? { errorCode: String((response as Protocol.ControlFailure).error_code) }
                  : {})
              })
            )
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
          // The mailbox is unbounded: offering never waits, so it needs no effect of its own.
          messages.unsafeOffer(message as Protocol.Message)
          return Effect.void
        }
      }
    }

    const closeAll = (status: ExitStatus) =>
      Effect.gen(function*() {
        for (const [requestId, entry] of pending) {
          yield* Deferred.fail(
            entry.deferred,
            new ControlError({
              reason: "Closed",
              subtype: entry.subtype,
              requestId,
              error: `the CLI exited (${status.signal ?? `code ${status.code}`}) before answering`
            })
          )
        }
        pending.clear()
        yield* interruptAllInbound
      })

    // Metrics are flushed once per chunk of lines, not once per line, in one step: this loop is the hot path.
    let flushed = { lines: 0, unknownMessages: 0, protocolErrors: 0 }
    const flushMetrics = Effect.withFiberRuntime<void>((fiber) => {
      const labels = fiber.getFiberRef(FiberRef.currentMetricLabels)
      Telemetry.linesDecoded.unsafeUpdate(stats.lines - flushed.lines, labels)
      if (stats.unknownMessages > flushed.unknownMessages) {
        Telemetry.unknownMessages.unsafeUpdate(stats.unknownMessages - flushed.unknownMessages, labels)
      }
      if (stats.protocolErrors > flushed.protocolErrors) {
        Telemetry.protocolErrors.unsafeUpdate(stats.protocolErrors - flushed.protocolErrors, labels)
      }
      flushed = { lines: stats.lines, unknownMessages: stats.unknownMessages, protocolErrors: stats.protocolErrors }
      return Effect.void
    })

    const readLines = cli.lines.pipe(
      Stream.runForEachChunk((chunk) => {
        // Messages and inbound requests are routed synchronously (a request starts its own fiber); only
        // control responses and unreadable requests yield effects, run in order after the chunk.
        let effect: Effect.Effect<void> = flushMetrics
        for (const line of chunk) {
          const routed = route(line)
          if (routed !== Effect.void) effect = effect === flushMetrics ? routed : Effect.zipRight(effect, routed)
        }
        return effect === flushMetrics ? flushMetrics : Effect.zipRight(effect, flushMetrics)
      })
    )
    // Stdout held open after the CLI's exit ends the reading as stdout's end would (one race per session).
    yield* (cli.linesCut === undefined ? readLines : Effect.raceFirst(readLines, cli.linesCut)).pipe(
      Effect.matchCauseEffect({
        onFailure: (cause) =>
          Effect.gen(function*() {
            // A line broke the framing guard: nothing after it can be trusted.
            const error = cause._tag === "Fail" ? cause.error : undefined
            if (error instanceof ProtocolError) yield* messages.fail(error)
            else yield* messages.failCause(cause as any)
            const status = yield* cli.shutdown({ gracePeriod: 0 })
            yield* closeAll(status)
            yield* Deferred.succeed(done, status)
          }),
        onSuccess: () =>
          Effect.gen(function*() {
            const status = yield* cli.awaitExit
            yield* closeAll(status)
            const outcome = exitExpected ? "end" : classifyExit(status)
            if (outcome === "end") yield* messages.end
            else yield* messages.fail(yield* cli.exitError(status, { duringTurn: outcome === "duringTurn" }))
            yield* Deferred.succeed(done, status)
          })
      }),
      Effect.forkScoped
    )

    const request = <R extends ControlRequest.Any>(
      definition: R,
      payload: ControlRequest.Payload<R>,
      requestOptions?: { readonly timeout?: Duration.DurationInput | undefined }
    ): Effect.Effect<ControlRequest.Success<R>, ControlError | ControlTimeoutError> =>
      Effect.gen(function*() {
        const requestId = `req_${++requestCounter}_${Math.random().toString(36).slice(2, 10)}`
        const subtype = definition.subtype
        // Encoded once, by this request's own schema: a payload it refuses is never written, and the
        // session is fine (the request is not).
        const line = encodeRequest(definition, payload, requestId)
        if (Either.isLeft(line)) {
          return yield* new ControlError({
            reason: "InvalidRequest",
            subtype,
            requestId,
            error: `invalid ${subtype} request: ${describeFailure(line.left)}`,
            cause: line.left
          })
        }
        if (Option.isSome(yield* Deferred.poll(done))) {
          return yield* new ControlError({ reason: "Closed", subtype, requestId, error: "the CLI has exited" })
        }
        const deferred = yield* Deferred.make<unknown, ControlError>()
        pending.set(requestId, { subtype, deferred })
        yield* Effect.annotateCurrentSpan(Telemetry.attributes.requestId, requestId)
        yield* Metric.set(Telemetry.pendingControlRequests, pending.size)
        yield* cli.writeLine(line.right).pipe(
          Effect.catchAll((error) =>
            Effect.suspend(() => {
              pending.delete(requestId)
              return new ControlError({ reason: "Closed", subtype, requestId, error: error.message, cause: error })
            })
          )
        )
        const timeout = requestOptions?.timeout ?? controlTimeout
        // Interruptible, so that the timeout holds inside a finalizer too (closing mid-turn interrupts first).
        const body = yield* Effect.interruptible(Deferred.await(deferred)).pipe(
          Effect.timeoutFail({
            duration: timeout,
            onTimeout: () =>
              new ControlTimeoutError({
                subtype,
                requestId,
                timeoutMillis: Duration.toMillis(Duration.decode(timeout))
              })
          }),
          Effect.tapError((error) =>
            error._tag === "ControlTimeoutError"
              ? Effect.suspend(() => {
                pending.delete(requestId)
                return Effect.ignore(
                  send({ type: "control_cancel_request", request_id: requestId } as Protocol.StdinMessage)
                )
              })
              : Effect.void
          ),
          Effect.onInterrupt(() => Effect.sync(() => pending.delete(requestId))),
          Effect.ensuring(Metric.set(Telemetry.pendingControlRequests, pending.size))
        )
        // Decoded by this request's own success schema (`undefined` when the CLI sent no body).
        const decoded = decodeResponse(definition, body)
        if (Either.isLeft(decoded)) {
          return yield* new ControlError({
            reason: "InvalidResponse",
            subtype,
            requestId,
            error: `unexpected ${subtype} response: ${describeFailure(decoded.left)}`,
            cause: decoded.left
          })
        }
        return decoded.right
      }).pipe(
        Effect.withSpan(Telemetry.spans.outbound, {
          // A stack trace per span costs more than the rest of a control round trip.
          captureStackTrace: false,
          kind: "client",
          attributes: { [Telemetry.attributes.subtype]: definition.subtype }
        })
      )

    return ControlRouter.of({
      messages,
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
  Layer.scoped(ControlRouter, make(options))
