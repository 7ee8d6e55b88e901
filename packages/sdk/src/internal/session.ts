/**
 * One session: the CLI process, the router, the hook registry and the
 * permission gate wired together, the initialize handshake, and the turn
 * bookkeeping that lets the session shut down quickly and cleanly.
 *
 * @internal
 */
import * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as Tracer from "effect/Tracer"
import type { CliExitError } from "../ClaudeError.js"
import type * as ClaudeOptions from "../ClaudeOptions.js"
import type * as CliProcess from "../CliProcess.js"
import type * as ControlRequest from "../ControlRequest.js"
import type * as ControlRouter from "../ControlRouter.js"
import type * as HookRegistry from "../HookRegistry.js"
import type * as Protocol from "../Protocol.js"
import type { Prompt, Session } from "../Session.js"
import {
  type ClaudeError,
  InitializeError,
  noResult,
  type ProtocolError,
  ResultError,
  resultFailure
} from "./claudeError.js"
import type { SessionServers } from "./mcpConnection.js"
import { encodeStdinLine, isResultMessage, isResultSuccess, unreadableMessage } from "./protocol/codec.js"
import { controlRequests } from "./protocol/control.js"
import * as Redaction from "./redaction.js"
import * as SessionControl from "./sessionControl.js"
import type * as SessionStoreMirror from "./sessionStoreMirror.js"
import * as Telemetry from "./telemetry.js"

/**
 * What a session is made from. The composition of its services (which
 * layers, which inbound handlers, which CLI arguments) is the public
 * `ClaudeCode` module's: here they arrive built, through `services`, and the
 * session adds the turn bookkeeping they report to.
 *
 * @internal
 */
export interface SessionEnvironment {
  readonly settings: ClaudeOptions.RuntimeSettings
  /** The secrets every log line, stderr line and error of the session hides. */
  readonly secrets: ReadonlyArray<string>
  /** The initialize fields from the options and the SDK MCP servers (hooks are added here). */
  readonly initialize: ControlRequest.Payload<typeof controlRequests.initialize>
  /** The session's in-process MCP servers (for `setMcpServers` and `readMcpResource`). */
  readonly mcp?: SessionServers | undefined
  /** Builds the session's services in the session's scope, wired to its bookkeeping. */
  readonly services: (
    wiring: SessionWiring
  ) => Effect.Effect<SessionServices, CliExitError, Scope.Scope>
  /** Takes the CLI's `transcript_mirror` frames to the session store, when there is one. */
  readonly mirror?: SessionStoreMirror.Mirror | undefined
}

/**
 * What the session gives the router: the turn bookkeeping fed as lines are
 * read, the exit classification, the redaction, and the span and log
 * annotations of the moment.
 *
 * @internal
 */
export interface SessionWiring {
  readonly observe: (message: Protocol.Message) => void
  readonly classifyExit: (status: CliProcess.ExitStatus) => ControlRouter.ExitOutcome
  readonly redact: (text: string) => string
  readonly parentSpan: () => Tracer.AnySpan | undefined
  readonly logAnnotations: () => Record<string, unknown>
}

/** @internal */
export interface SessionServices {
  readonly cli: CliProcess.CliProcess.Service
  readonly router: ControlRouter.ControlRouter.Service
  readonly hooks: HookRegistry.HookRegistry.Service
  /** The CLI's stderr lines, redacted (see `Session.stderr`). */
  readonly stderr: Stream.Stream<string>
}

/**
 * Turn bookkeeping, kept as the router reads (not as the consumer does), so
 * that it is right when the CLI exits: the prompts written whose turn has not
 * ended, and the CLI's own word on whether it is busy
 * (`session_state_changed`, which it sends when
 * CLAUDE_CODE_SDK_READS_SESSION_STATE is set, as toEnv does). Prompts written
 * back to back while a turn runs are merged into one turn with one result:
 * "idle" resets the count to the prompts written since the last result was
 * read (the "idle" that follows a result can be read after the next prompt
 * was written). Whether a turn is running is decided here, once.
 */
const makeTurnTracker = () => {
  let promptsInFlight = 0
  let sentSinceResult = 0
  let cliState: string | undefined
  let lastResultIsError = false
  let authenticationFailed = false
  const inFlight = () => promptsInFlight > 0 || (cliState !== undefined && cliState !== "idle")
  return {
    inFlight,
    /** A user message was written: every one gets a result, `shouldQuery: false` ones included. */
    sent: () => {
      promptsInFlight++
      sentSinceResult++
    },
    observe: (message: Protocol.Message) => {
      if (message.type === "result") {
        // The turn is over; the CLI says "running" again when it starts another.
        cliState = undefined
        promptsInFlight = Math.max(0, promptsInFlight - 1)
        sentSinceResult = 0
        lastResultIsError = (message as { is_error?: unknown }).is_error === true || message.subtype !== "success"
      } else if (message.type === "system") {
        if (message.subtype === "session_state_changed") {
          cliState = (message as { state?: string }).state
          if (cliState === "idle") promptsInFlight = sentSinceResult
        }
      } else if (message.type === "assistant" && (message as { error?: unknown }).error === "authentication_failed") {
        authenticationFailed = true
      }
    },
    // An exit the SDK did not ask for: a turn in flight is lost whatever the exit code; otherwise 0, or
    // 1 after an error result (the CLI's code for "the last result was an error"), is a normal end.
    classifyExit: (status: CliProcess.ExitStatus): ControlRouter.ExitOutcome =>
      inFlight() ? "duringTurn" : status.code === 0 || (status.code === 1 && lastResultIsError) ? "end" : "fail",
    /** Whether a turn failed for want of credentials since the last call. */
    takeAuthenticationFailure: () => {
      const failed = authenticationFailed
      authenticationFailed = false
      return failed
    }
  }
}

/** How long closing waits for the stderr sink to take the CLI's last lines. */
const stderrSinkDrain = Duration.seconds(1)

/**
 * The most messages the session hands its consumer in one chunk (`Session.messages` documents it). Chosen on
 * effect 3, where smaller chunks kept a 200,000-line replay's CPU and peak memory down (bench row 4); not yet
 * measured again on effect 4.
 */
const maxChunkSize = 64

/** A prompt's user message and its line. */
interface EncodedPrompt {
  readonly input: Protocol.UserInput
  readonly line: string
}

/** A first prompt encoded ahead of its send: the prompt as given, and its encoding (or why it failed). */
interface PreparedPrompt {
  readonly prompt: Prompt
  readonly encoded: Result.Result<EncodedPrompt, ProtocolError>
}

/** @internal */
export const toUserInput = (prompt: Prompt): Protocol.UserInput =>
  typeof prompt === "string" || Array.isArray(prompt)
    ? {
      type: "user",
      message: { role: "user", content: prompt as any },
      parent_tool_use_id: null,
      session_id: ""
    } as Protocol.UserInput
    : prompt as Protocol.UserInput

/**
 * A session on the environment's services. `firstPrompt`, the prompt the caller sends first (a query's), has
 * its line encoded while the CLI starts; sending it then only writes that line.
 *
 * @internal
 */
export const make = (
  env: SessionEnvironment,
  firstPrompt?: Prompt | undefined
): Effect.Effect<Session, ClaudeError, Scope.Scope> =>
  Effect.suspend(() => {
    const redactor = Redaction.make(env.secrets)
    // Everything the session's fibers log (the router, hooks, the gate, MCP tools) goes through
    // loggers that hide the session's secrets, whatever the level and whichever logger is installed.
    // (Effect 3 ran the session in a scope of its own, to spare each finalizer a diff and patch of every fiber
    // ref; effect 4's finalizers restore nothing, so that workaround is gone.)
    return Effect.updateService(
      makeSession(env, redactor, firstPrompt),
      Logger.CurrentLoggers,
      (loggers) => new Set(Array.from(loggers, (logger) => Redaction.redactingLogger(logger, redactor)))
    )
  })

const makeSession = (
  env: SessionEnvironment,
  redactor: Redaction.Redactor,
  firstPrompt: Prompt | undefined
): Effect.Effect<Session, ClaudeError, Scope.Scope> =>
  Effect.gen(function*() {
    const settings = env.settings

    // The session's and its turns' spans, made (as the router's) only when a tracer is installed, and
    // its turn bookkeeping, kept by plain functions as messages are delivered: no effect per turn.
    const context = yield* Effect.context<never>()
    const sessionSpan = Telemetry.startSpan(
      context,
      () => Telemetry.spans.session,
      undefined,
      "client",
      () => ({})
    )
    const scope = yield* Effect.scope
    if (sessionSpan !== undefined) {
      yield* Scope.addFinalizerExit(scope, (exit) => Effect.sync(() => Telemetry.endSpan(sessionSpan, context, exit)))
    }
    Telemetry.liveSessions.modifyUnsafe(1, context)
    yield* Scope.addFinalizer(scope, Effect.sync(() => Telemetry.liveSessions.modifyUnsafe(-1, context)))
    let turnOpen = false
    let turnSpan: Tracer.Span | undefined
    let turnIndex = 0
    let sessionId: string | undefined
    const turns = makeTurnTracker()
    const turnInFlight = turns.inFlight
    const mirror = env.mirror
    // After the CLI has exited (this finalizer runs after the services' own): what it wrote last is stored too.
    if (mirror !== undefined) yield* Scope.addFinalizer(scope, mirror.flush)

    let annotations: { readonly pid: number; readonly turn: number; readonly sessionId?: string } | undefined
    // Who waits for the next message the router reads: the session pool, timing a replacement's start.
    let nextMessage: (() => void) | undefined
    const { cli, hooks, router, stderr } = yield* env.services({
      observe: (message) => {
        turns.observe(message)
        if (mirror !== undefined) mirror.observe(message)
        if (nextMessage !== undefined) {
          const waiter = nextMessage
          nextMessage = undefined
          waiter()
        }
      },
      classifyExit: turns.classifyExit,
      redact: redactor.redact,
      parentSpan: () => turnSpan ?? sessionSpan,
      logAnnotations: (): Record<string, unknown> => {
        // The same object until the turn or the session id changes: the router asks once per request.
        if (annotations === undefined || annotations.turn !== turnIndex || annotations.sessionId !== sessionId) {
          annotations = { pid, turn: turnIndex, ...(sessionId !== undefined ? { sessionId } : {}) }
        }
        return annotations
      }
    })
    const pid = cli.pid
    sessionSpan?.attribute(Telemetry.attributes.pid, pid)

    // The stderr sink reads its own bounded buffer, so a slow one never slows the CLI. At close (this finalizer
    // runs after the shutdown's, added below) it gets what the CLI wrote until it exited, within a bound.
    if (settings.stderr !== undefined) {
      const sink = settings.stderr
      const sinking = yield* stderr.pipe(
        Stream.runForEach((line) =>
          Effect.catchCause(
            sink(line),
            (cause) => Effect.logWarning("the stderr sink failed on a line; the next line goes to it again", cause)
          )
        ),
        Effect.annotateLogs({ pid, source: "stderr" }),
        Effect.forkDetach({ startImmediately: true })
      )
      yield* Scope.addFinalizer(
        scope,
        Effect.andThen(
          Effect.timeoutOption(Effect.interruptible(Fiber.await(sinking)), stderrSinkDrain),
          Fiber.interrupt(sinking)
        )
      )
    }

    const startTurn = () => {
      if (turnOpen) return
      turnOpen = true
      turnIndex++
      turnSpan = Telemetry.startSpan(
        context,
        () => Telemetry.spans.turn,
        sessionSpan,
        "internal",
        () => ({ [Telemetry.attributes.turn]: turnIndex })
      )
    }

    const endTurn = (result: Record<string, unknown>) => {
      Telemetry.recordResultNow(result, context)
      const span = turnSpan
      turnOpen = false
      turnSpan = undefined
      if (span === undefined) return
      span.attribute(Telemetry.attributes.resultSubtype, result.subtype)
      span.attribute(Telemetry.attributes.isError, result.is_error === true)
      if (typeof result.total_cost_usd === "number") {
        span.attribute(Telemetry.attributes.costUsd, result.total_cost_usd)
      }
      if (typeof result.num_turns === "number") span.attribute(Telemetry.attributes.numTurns, result.num_turns)
      Telemetry.endSpan(span, context, Exit.void)
    }

    const closeInterruptLine = JSON.stringify(
      {
        type: "control_request",
        request_id: `close_interrupt_${pid}`,
        request: { subtype: "interrupt" }
      } satisfies Protocol.StdinMessage
    )
    // Closing mid-turn: the interrupt first (the CLI then stops its tools and shells itself), and stdin's
    // end right behind it. The CLI reads the two in order, so its answer is not waited for: that would only
    // add a round trip to every close (and a second to a CLI that never answers). The shutdown's grace bounds it.
    yield* Scope.addFinalizer(
      scope,
      Effect.gen(function*() {
        yield* router.expectExit
        const busy = turnInFlight()
        // A constant line, written as it is (encoding it by the stdin schema costs more than the close's work).
        if (busy) yield* Effect.ignore(cli.writeLine(closeInterruptLine))
        yield* cli.shutdown({ gracePeriod: busy ? Duration.seconds(1) : settings.closeGracePeriod })
      })
    )

    // Reading a prompt may throw (a getter, a Proxy), here as in the codec: either way, a typed encoding failure.
    const encodePrompt = (prompt: Prompt): Result.Result<EncodedPrompt, ProtocolError> => {
      let input: Protocol.UserInput
      try {
        const given = toUserInput(prompt)
        input = settings.verbatimPrompts ? { ...given, client_composed: true as const } : given
      } catch (cause) {
        return Result.fail(unreadableMessage(cause))
      }
      return Result.map(encodeStdinLine(input), (line) => ({ input, line }))
    }

    // The first prompt's line, encoded now, while the CLI starts (it reads nothing before it is up, ~0.4 s).
    // It is not written before the initialize answer: a CLI that rejected the initialize request (its hooks, its
    // gate) must not run it. A line that failed to encode fails the send, as encoding it then would.
    let prepared: PreparedPrompt | undefined = firstPrompt === undefined
      ? undefined
      : { prompt: firstPrompt, encoded: encodePrompt(firstPrompt) }

    const initializeFields: ControlRequest.Payload<typeof controlRequests.initialize> = {
      ...(hooks.initializeHooks !== undefined ? { hooks: hooks.initializeHooks } : {}),
      ...env.initialize
    }

    const initialization: Protocol.InitializeResponse = yield* router.request(
      controlRequests.initialize,
      initializeFields,
      { timeout: settings.initializeTimeout }
    ).pipe(
      Effect.catch((error) =>
        Effect.flatMap(cli.exitStatus, (status) =>
          Option.isSome(status)
            ? Effect.flatMap(
              cli.exitError(status.value),
              (exit) => Effect.fail(new InitializeError({ reason: "CliExited", detail: exit.message, cause: exit }))
            )
            : Effect.fail(
              new InitializeError({
                reason: error._tag === "ControlTimeoutError"
                  ? "Timeout"
                  : error.reason === "InvalidResponse"
                  ? "InvalidResponse"
                  : "Rejected",
                detail: error.message,
                cause: error
              })
            ))
      )
    )

    // What a pull took from the router and has not delivered yet, `held[heldFrom..]`: what follows a turn's
    // result, or a chunk's bound. The next pull starts with it.
    let held: ReadonlyArray<Protocol.Message> = []
    let heldFrom = 0
    // A turn that ended for want of credentials: the next pull fails with it (once).
    let failure: ResultError | undefined

    // Messages go to the consumer a chunk at a time, and a chunk always ends at a turn's result, so that a
    // consumer stopping at the end of a turn (`receiveTurn`, `Stream.takeUntil` on results) leaves the next
    // turn's messages for the next read: `Stream.fromQueue` over the router's queue would hand it both.
    // Whether the chunk `deliver` last returned ended a turn (its result delivered or replaced by a failure).
    let chunkEndedTurn = false
    const deliver = (): ReadonlyArray<Protocol.Message> => {
      const source = held
      const start = heldFrom
      let end = Math.min(source.length, start + maxChunkSize)
      let unauthenticated = false
      chunkEndedTurn = false
      for (let i = start; i < end; i++) {
        const message = source[i]
        if (message.type === "system" && (message as { subtype?: string }).subtype === "init") {
          sessionId = (message as { session_id?: string }).session_id ?? sessionId
          if (sessionId !== undefined) sessionSpan?.attribute(Telemetry.attributes.sessionId, sessionId)
          // Turns the CLI starts by itself (background task notifications) get a span too.
          startTurn()
        } else if (message.type === "result") {
          sessionId = (message as { session_id?: string }).session_id ?? sessionId
          endTurn(message as unknown as Record<string, unknown>)
          chunkEndedTurn = true
          // Without credentials the CLI reports success with `is_error` and a hint meant for a terminal:
          // the turn fails with a typed error that says what is missing, in place of that result.
          unauthenticated = (message as { is_error?: unknown }).is_error === true && turns.takeAuthenticationFailure()
          if (unauthenticated) failure = notAuthenticated(message)
          end = i + 1
          break
        }
      }
      if (end < source.length) {
        heldFrom = end
      } else {
        held = []
        heldFrom = 0
      }
      const last = unauthenticated ? end - 1 : end
      return start === 0 && last === source.length ? source : source.slice(start, last)
    }

    // The next chunk of messages, `undefined` at their end. `turn` bounds the reading to one turn: a
    // chunk that ends with a result ends it.
    const pull = (turn: { ended: boolean } | undefined): Effect.Effect<
      Arr.NonEmptyReadonlyArray<Protocol.Message> | undefined,
      CliExitError | ProtocolError | ResultError
    > =>
      Effect.suspend(() => {
        if (failure !== undefined) {
          const error = failure
          failure = undefined
          return Effect.fail(error)
        }
        if (turn?.ended === true) return Effect.succeed(undefined)
        const delivered = (): Effect.Effect<
          Arr.NonEmptyReadonlyArray<Protocol.Message> | undefined,
          CliExitError | ProtocolError | ResultError
        > => {
          const chunk = deliver()
          // The turn is in the store before its result is delivered; a batch the store refused is reported first.
          if (mirror !== undefined && chunkEndedTurn) {
            return Effect.flatMap(mirror.flush, (reports) => {
              const all = reports.length === 0 ? chunk : [...reports, ...chunk]
              return Arr.isReadonlyArrayNonEmpty(all) ? Effect.succeed(endsTurn(all)) : pull(turn)
            })
          }
          return Arr.isReadonlyArrayNonEmpty(chunk) ? Effect.succeed(endsTurn(chunk)) : pull(turn)
        }
        const endsTurn = (chunk: Arr.NonEmptyReadonlyArray<Protocol.Message>) => {
          if (turn !== undefined && chunk[chunk.length - 1].type === "result") turn.ended = true
          return chunk
        }
        if (heldFrom < held.length) return delivered()
        return Effect.flatMap(router.takeMessages, ([taken, done]) => {
          if (taken.length > 0) {
            // Mirror frames are for the store, not the consumer.
            held = mirror === undefined ? taken : taken.filter((message) => message.type !== "transcript_mirror")
            heldFrom = 0
            return delivered()
          }
          return done ? Effect.succeed(undefined) : pull(turn)
        })
      })

    // A stream over `pull`, one step per chunk. (Effect 3 needed a hand-made channel for this; the router's
    // `takeMessages` is effect 4's `Queue.takeAll`, and the stream is `Stream.fromPull` over it.)
    const streamOf = (
      first: Effect.Effect<void, ClaudeError> | undefined,
      oneTurn: boolean
    ): Stream.Stream<Protocol.Message, ClaudeError> =>
      Stream.fromPull(Effect.sync(() => {
        const turn = oneTurn ? { ended: false } : undefined
        let before = first
        const next = Effect.flatMap(
          Effect.suspend(() => pull(turn)),
          (chunk) => chunk === undefined ? Cause.done() : Effect.succeed(chunk)
        )
        return Effect.suspend(() => {
          if (before === undefined) return next
          const run = before
          before = undefined
          return Effect.andThen(run, next)
        })
      }))

    const messages = streamOf(undefined, false)
    const receiveTurn = streamOf(undefined, true)

    const send = (prompt: Prompt) =>
      Effect.suspend((): Effect.Effect<void, ProtocolError | CliExitError> => {
        // The prepared line serves the first send only, and only of its prompt; either way it is let go.
        const ready = prepared !== undefined && prepared.prompt === prompt ? prepared : undefined
        prepared = undefined
        const encoded = ready?.encoded ?? encodePrompt(prompt)
        // A prompt that cannot be encoded is never written: no turn starts (a turn counted in flight would
        // make the close interrupt the CLI and wait its longer grace).
        if (Result.isFailure(encoded)) return Effect.fail(encoded.failure)
        const { input, line } = encoded.success
        turns.sent()
        if ((input as { shouldQuery?: boolean }).shouldQuery !== false) startTurn()
        return cli.writeLine(line)
      })

    // A turn read to its end by pulls alone: the last message of the chunk that ended it (its result), or
    // `undefined` when the messages ended first.
    const lastOfTurn = (turn: { ended: boolean }): Effect.Effect<Protocol.Message | undefined, ClaudeError> =>
      Effect.flatMap(pull(turn), (chunk) =>
        chunk === undefined
          ? Effect.succeed(undefined)
          : turn.ended
          ? Effect.succeed(chunk[chunk.length - 1])
          : lastOfTurn(turn))

    const session: Session = {
      pid: cli.pid,
      initialization,
      sessionId: Effect.sync(() => sessionId),
      send,
      turn: (prompt) => streamOf(send(prompt), true),
      receiveTurn,
      result: (prompt) =>
        send(prompt).pipe(
          Effect.andThen(Effect.suspend(() => lastOfTurn({ ended: false }))),
          Effect.flatMap(toResult)
        ),
      messages,
      endInput: cli.endInput,
      stderr,
      ...SessionControl.make(router, initialization, env.mcp, redactor)
    }
    poolSignals.set(session, {
      exited: cli.awaitExit,
      onNextMessage: (callback) => {
        nextMessage = callback
      }
    })
    return session
  })

/**
 * What the session pool watches on a session it holds.
 *
 * @internal
 */
export interface PoolSignals {
  /**
   * The CLI process's exit: a pooled session whose process dies while it waits to be claimed is replaced (a
   * consumer of the session learns it from the message stream).
   */
  readonly exited: Effect.Effect<CliProcess.ExitStatus>
  /**
   * Calls `callback` once, when the router next reads a message from the CLI; one at a time (the pool claims a
   * session once), a later call replaces an earlier one.
   */
  readonly onNextMessage: (callback: () => void) => void
}

/** @internal */
export const poolSignals = new WeakMap<Session, PoolSignals>()

/**
 * Whether a query's prompt is a stream of prompts (else it is one prompt).
 *
 * @internal
 */
export const isPromptStream = (
  prompt: Prompt | Stream.Stream<Prompt, ClaudeError>
): prompt is Stream.Stream<Prompt, ClaudeError> => Stream.isStream(prompt)

/**
 * A query on an open session: with a text prompt, its turn up to the `result`; with a stream of prompts, every
 * message until the input has ended (the CLI then finishes its work and exits).
 *
 * @internal
 */
export const query = (
  session: Session,
  prompt: Prompt | Stream.Stream<Prompt, ClaudeError>
): Stream.Stream<Protocol.Message, ClaudeError> => {
  if (isPromptStream(prompt)) {
    const writer = prompt.pipe(
      Stream.runForEach(session.send),
      Effect.ensuring(session.endInput)
    )
    return Stream.merge(session.messages, Stream.fromEffectDrain(writer))
  }
  return session.turn(prompt)
}

/** A turn's last message as its outcome: a successful `result`, or a `ResultError` (an error result, or none). */
const toResult = (last: Protocol.Message | undefined): Effect.Effect<Protocol.ResultSuccess, ResultError> => {
  if (last === undefined || !isResultMessage(last)) return Effect.fail(noResult())
  const failure = resultFailure(last)
  return failure === undefined && isResultSuccess(last) ? Effect.succeed(last) : Effect.fail(failure ?? noResult())
}

const notAuthenticated = (result: Protocol.Message): ResultError => {
  const fields = result as { readonly session_id?: unknown; readonly result?: unknown }
  const text = typeof fields.result === "string" ? fields.result : "authentication failed"
  return new ResultError({
    reason: "AuthenticationFailed",
    sessionId: typeof fields.session_id === "string" ? fields.session_id : "",
    errors: [text],
    result: text
  })
}
