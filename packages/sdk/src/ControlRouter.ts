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
import type * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as DefaultServices from "effect/DefaultServices"
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
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Runtime from "effect/Runtime"
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
    /**
     * `messages.takeAll`, with a cheaper wait when nothing is buffered: one
     * `Effect.async` that the router resumes as it routes the next batch of
     * lines, in place of the mailbox's interruption-guarded wait and its two
     * scheduler hops (about half the runtime steps per wake-up; each message
     * of a live session arrives alone). The same messages, end and failure.
     */
    readonly takeMessages: Effect.Effect<
      readonly [messages: Chunk.Chunk<Protocol.Message>, done: boolean],
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
  /**
   * Log annotations for everything done for one request (session id, turn, ...). Asked once per request:
   * the object it returned last time, returned again, says nothing changed.
   */
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
    ? IssuePath.describe(error.issue)
    : error.message

// Each request's payload encoder, compiled once, on first use, as the response decoders below: the
// payload checked in place where its schema only checks values (as the line codec encodes stdin lines),
// encoded by the Schema interpreter otherwise.
const requestEncoders = new WeakMap<
  ControlRequest.Any,
  (payload: unknown) => Either.Either<unknown, ParseResult.ParseIssue>
>()

/** The `control_request` line of a request: its payload encoded by the request's own schema. */
const encodeRequest = <R extends ControlRequest.Any>(
  definition: R,
  payload: ControlRequest.Payload<R>,
  requestId: string
): Either.Either<string, ParseResult.ParseError | Cause.UnknownException> => {
  let encode = requestEncoders.get(definition)
  if (encode === undefined) {
    encode = validatorFor(definition.payloadSchema) ?? ParseResult.encodeUnknownEither(definition.payloadSchema)
    requestEncoders.set(definition, encode)
  }
  return Either.flatMap(
    Either.mapLeft(
      encode({ ...payload, subtype: definition.subtype }),
      (issue) => new ParseResult.ParseError({ issue })
    ),
    (request) =>
      Either.try({
        try: () => JSON.stringify({ type: "control_request", request_id: requestId, request }),
        catch: (cause) => new Cause.UnknownException(cause, `not JSON: ${String(cause)}`)
      })
  )
}

// Each request's response decoder, compiled once, on first use: the response checked in place (and
// handed back as it came, unknown fields included) where its schema only checks values, as the line
// codec does; decoded by the Schema interpreter otherwise. The initialize response is large: ~10x
// cheaper checked in place.
const responseDecoders = new WeakMap<
  ControlRequest.Any,
  (body: unknown) => Either.Either<unknown, ParseResult.ParseIssue>
>()

/** The response body, decoded by the request's own success schema. */
const decodeResponse = <R extends ControlRequest.Any>(
  definition: R,
  body: unknown
): Either.Either<ControlRequest.Success<R>, ParseResult.ParseError> => {
  let decode = responseDecoders.get(definition)
  if (decode === undefined) {
    decode = validatorFor(definition.successSchema) ?? ParseResult.decodeUnknownEither(definition.successSchema)
    responseDecoders.set(definition, decode)
  }
  return Either.mapLeft(
    decode(body) as Either.Either<ControlRequest.Success<R>, ParseResult.ParseIssue>,
    (issue) => new ParseResult.ParseError({ issue })
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
    // Inbound requests run as daemons of the router's creator (its services, tracer, logger, refs).
    const runtime = yield* Effect.runtime<never>()
    const messages = yield* Mailbox.make<Protocol.Message, CliExitError | ProtocolError>()
    // The taker waiting for the next batch of messages (see `takeMessages`), resumed with the mailbox's take,
    // which runs in its fiber. One slot, no canceler: an interrupted taker's resume stays here until the next
    // wake-up, where it is ignored (and nothing is taken for it); meanwhile another taker waits the mailbox's
    // own way, so a concurrent or later taker is never left unwoken.
    let messageTaker: ((take: ControlRouter.Service["takeMessages"]) => void) | undefined
    const nothingToTake = () => {
      const size = messages.unsafeSize()
      return Option.isSome(size) && size.value === 0
    }
    // After each batch of lines, and at the end: a batch with only control traffic wakes no one.
    const wakeMessageTaker = () => {
      const resume = messageTaker
      if (resume === undefined || nothingToTake()) return
      messageTaker = undefined
      resume(messages.takeAll)
    }
    // Checked again as the wait starts: the fiber may have yielded to the router in between.
    const awaitMessages: ControlRouter.Service["takeMessages"] = Effect.async((resume) => {
      if (messageTaker === undefined && nothingToTake()) messageTaker = resume
      else resume(messages.takeAll)
    })
    const takeMessages: ControlRouter.Service["takeMessages"] = Effect.suspend(() =>
      messageTaker === undefined && nothingToTake() ? awaitMessages : messages.takeAll
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
    // Plain work on the router's own state: added as it is, without `Effect.addFinalizer`'s restoring of refs.
    yield* Scope.addFinalizer(yield* Effect.scope, interruptAllInbound)
    const handlers = new Map(options.handlers.map((h) => [h.subtype, h] as const))
    const controlTimeout = options.controlTimeout ?? Duration.seconds(30)
    // Set once the CLI has exited and every pending request has been told: later requests fail at once.
    let closed = false
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

    // The runtime inbound requests run in: the router creator's, with the annotations of
    // `logAnnotations` (pid, turn, session id) added to its logs, rebuilt only when those change.
    // Each request's own annotations (request id, subtype) go on the SDK's logs for it, not on its
    // handler's fiber: setting them there would cost a copy of the fiber refs per request.
    let annotationSource: Record<string, unknown> = {}
    let currentRuntime = runtime
    const creatorAnnotations = FiberRefs.getOrDefault(runtime.fiberRefs, FiberRef.currentLogAnnotations)
    const requestRuntime = (): Runtime.Runtime<never> => {
      const source = options.logAnnotations?.() ?? annotationSource
      if (source === annotationSource) return currentRuntime
      const keys = Object.keys(source)
      if (
        keys.length !== Object.keys(annotationSource).length ||
        keys.some((key) => source[key] !== annotationSource[key])
      ) {
        annotationSource = source
        let annotations = creatorAnnotations
        for (const key of keys) annotations = HashMap.set(annotations, key, source[key])
        currentRuntime = Runtime.make({
          context: runtime.context,
          runtimeFlags: runtime.runtimeFlags,
          fiberRefs: FiberRefs.updateAs(runtime.fiberRefs, {
            fiberId: FiberId.none,
            fiberRef: FiberRef.currentLogAnnotations,
            value: annotations
          })
        })
      }
      return currentRuntime
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
      Effect.catchAll(cli.writeLine(line), (error) =>
        Effect.logWarning("could not answer a control request").pipe(
          Effect.annotateLogs({ requestId, subtype, error: error.message })
        ))
    // An answer written outside any fiber: queued at once when the process can take a line so, else
    // (the CLI has exited, or a CliProcess without `unsafeWriteLine`) by `writeReply` in a fiber.
    const unsafeWriteLine = cli.unsafeWriteLine
    const writeReplyNow = (
      requestRuntime: Runtime.Runtime<never>,
      requestId: string,
      subtype: string,
      line: string
    ): void => {
      if (unsafeWriteLine === undefined || !unsafeWriteLine(line)) {
        Runtime.runFork(requestRuntime, writeReply(requestId, subtype, line))
      }
    }
    const clock = Context.get(
      FiberRefs.getOrDefault(runtime.fiberRefs, DefaultServices.currentServices),
      Clock.Clock
    )

    // Whether inbound requests get spans: the tracer of the router creator's refs, which are fixed.
    const tracing = InternalTelemetry.isTracing(runtime.fiberRefs)
    // One request: one span (named by its handler), one fiber (the handler's), one stringify of the answer.
    const handleInbound = (envelope: Protocol.ControlRequest) => {
      const requestId = envelope.request_id
      const request = envelope.request
      const subtype = request.subtype
      const handler = handlers.get(subtype)
      // Attributes are built only for a span that is made (a tracer is installed).
      const span = tracing
        ? InternalTelemetry.startSpan(
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
        : undefined
      const forRequest = requestRuntime()
      const fiberRefs = forRequest.fiberRefs
      // What the SDK's own logs for this request carry, on top of the runtime's annotations.
      const annotations = { requestId, subtype }
      const log = (effect: Effect.Effect<void>) => Runtime.runFork(forRequest, Effect.annotateLogs(effect, annotations))
      const entry: Inbound = { running: undefined, span, fiberRefs }
      inbound.set(requestId, entry)
      const settle = (line: string, exit: Exit.Exit<unknown, unknown>): void => {
        if (inbound.get(requestId) === entry) inbound.delete(requestId)
        if (span !== undefined) InternalTelemetry.endSpan(span, fiberRefs, exit)
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
          const value = (exit as Option.Some<Exit.Exit<unknown, InboundHandlerError>>).value
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
              Option.match(Cause.failureOption(value.cause), {
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
        subtype,
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
          settlePending(
            entry,
            response.subtype === "success"
              ? Effect.succeed((response as Protocol.ControlSuccess).response)
              : Effect.fail(
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
          )
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
          // The mailbox is unbounded: offering never waits, so it needs no effect of its own.
          messages.unsafeOffer(message as Protocol.Message)
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

    // Metrics are flushed once per chunk of lines, not once per line, with the router creator's metric
    // labels (the reader's): this loop is the hot path.
    const metricLabels = FiberRefs.getOrDefault(runtime.fiberRefs, FiberRef.currentMetricLabels)
    let flushed = { lines: 0, unknownMessages: 0, protocolErrors: 0 }
    const flushMetrics = () => {
      Telemetry.linesDecoded.unsafeUpdate(stats.lines - flushed.lines, metricLabels)
      if (stats.unknownMessages > flushed.unknownMessages) {
        Telemetry.unknownMessages.unsafeUpdate(stats.unknownMessages - flushed.unknownMessages, metricLabels)
      }
      if (stats.protocolErrors > flushed.protocolErrors) {
        Telemetry.protocolErrors.unsafeUpdate(stats.protocolErrors - flushed.protocolErrors, metricLabels)
      }
      flushed = { lines: stats.lines, unknownMessages: stats.unknownMessages, protocolErrors: stats.protocolErrors }
    }

    // Messages and inbound requests are routed synchronously (a handler that does not answer at once gets
    // a fiber of its own); only control responses and unreadable requests yield effects, run in order after the batch.
    const routeLines = (lines: Iterable<string>): Effect.Effect<void> => {
      let effect: Effect.Effect<void> = Effect.void
      for (const line of lines) {
        const routed = route(line)
        if (routed !== Effect.void) effect = effect === Effect.void ? routed : Effect.zipRight(effect, routed)
      }
      flushMetrics()
      wakeMessageTaker()
      return effect
    }
    const readLines = cli.readLines !== undefined
      ? cli.readLines(routeLines)
      : cli.lines.pipe(Stream.runForEachChunk(routeLines))
    // Stdout held open after the CLI's exit ends the reading as stdout's end would (one race per session).
    yield* (cli.linesCut === undefined ? readLines : Effect.raceFirst(readLines, cli.linesCut)).pipe(
      Effect.matchCauseEffect({
        onFailure: (cause) =>
          Effect.gen(function*() {
            // A line broke the framing guard: nothing after it can be trusted.
            const error = cause._tag === "Fail" ? cause.error : undefined
            if (error instanceof ProtocolError) yield* messages.fail(error)
            else yield* messages.failCause(cause as any)
            wakeMessageTaker()
            const status = yield* cli.shutdown({ gracePeriod: 0 })
            yield* closeAll(status)
          }),
        onSuccess: () =>
          Effect.gen(function*() {
            const status = yield* cli.awaitExit
            yield* closeAll(status)
            const outcome = exitExpected ? "end" : classifyExit(status)
            if (outcome === "end") yield* messages.end
            else yield* messages.fail(yield* cli.exitError(status, { duringTurn: outcome === "duringTurn" }))
            wakeMessageTaker()
          })
      }),
      Effect.forkScoped
    )

    const setPendingGauge = () => Telemetry.pendingControlRequests.unsafeUpdate(pending.size, metricLabels)
    const request = <R extends ControlRequest.Any>(
      definition: R,
      payload: ControlRequest.Payload<R>,
      requestOptions?: { readonly timeout?: Duration.DurationInput | undefined }
    ): Effect.Effect<ControlRequest.Success<R>, ControlError | ControlTimeoutError> =>
      // A new request id each time the Effect runs (a retry is another request).
      Effect.suspend(() => requestOnce(definition, payload, requestOptions))
    const requestOnce = <R extends ControlRequest.Any>(
      definition: R,
      payload: ControlRequest.Payload<R>,
      requestOptions?: { readonly timeout?: Duration.DurationInput | undefined }
    ): Effect.Effect<ControlRequest.Success<R>, ControlError | ControlTimeoutError> => {
      const requestId = `req_${++requestCounter}_${Math.random().toString(36).slice(2, 10)}`
      const subtype = definition.subtype
      const exchange = Effect.suspend((): Effect.Effect<unknown, ControlError | ControlTimeoutError> => {
        // Encoded once, by this request's own schema: a payload it refuses is never written, and the
        // session is fine (the request is not).
        const line = encodeRequest(definition, payload, requestId)
        if (Either.isLeft(line)) {
          return new ControlError({
            reason: "InvalidRequest",
            subtype,
            requestId,
            error: `invalid ${subtype} request: ${describeFailure(line.left)}`,
            cause: line.left
          })
        }
        if (closed) return new ControlError({ reason: "Closed", subtype, requestId, error: "the CLI has exited" })
        const entry: Pending = { subtype, settle: undefined, early: undefined }
        pending.set(requestId, entry)
        setPendingGauge()
        const forget = () => {
          if (pending.get(requestId) === entry) pending.delete(requestId)
          setPendingGauge()
        }
        const written = unsafeWriteLine !== undefined && unsafeWriteLine(line.right)
          ? Effect.void
          : Effect.catchAll(cli.writeLine(line.right), (error) =>
            Effect.suspend(() => {
              forget()
              return new ControlError({ reason: "Closed", subtype, requestId, error: error.message, cause: error })
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
            return Effect.zipRight(
              Effect.ignore(send({ type: "control_cancel_request", request_id: requestId } as Protocol.StdinMessage)),
              Effect.fail(
                new ControlTimeoutError({
                  subtype,
                  requestId,
                  timeoutMillis: Duration.toMillis(Duration.decode(timeout))
                })
              )
            )
          }
        )
        return Effect.zipRight(written, Effect.ensuring(answered, Effect.sync(setPendingGauge)))
      })
      return InternalTelemetry.withSpanIfTracing(
        Effect.flatMap(exchange, (body) => {
          // Decoded by this request's own success schema (`undefined` when the CLI sent no body).
          const decoded = decodeResponse(definition, body)
          return Either.isLeft(decoded)
            ? new ControlError({
              reason: "InvalidResponse",
              subtype,
              requestId,
              error: `unexpected ${subtype} response: ${describeFailure(decoded.left)}`,
              cause: decoded.left
            })
            : Effect.succeed(decoded.right)
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
  Layer.scoped(ControlRouter, make(options))
