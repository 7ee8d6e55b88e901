/**
 * One session: the CLI process, the router, the hook registry and the
 * permission gate wired together, the initialize handshake, and the turn
 * bookkeeping that lets the session shut down quickly and cleanly.
 *
 * @internal
 */
import type * as CommandExecutor from "@effect/platform/CommandExecutor"
import * as Channel from "effect/Channel"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as FiberRefs from "effect/FiberRefs"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"
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
import type { SessionServers } from "./mcpServer.js"
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
  ) => Effect.Effect<SessionServices, CliExitError, CommandExecutor.CommandExecutor | Scope.Scope>
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
 * The most messages the session hands its consumer in one chunk. One read from the CLI holds up to ~240 of them
 * (64 KiB); a stream's sink makes one Effect per chunk that holds the whole chunk, and until V8 has optimized
 * Effect's per-chunk code that Effect outlives young-generation collections (`Channel.fromEffect` stores a closure
 * over it in a property, which V8 allocates in old space), so every message it holds is copied and promoted.
 * Smaller chunks get that code optimized sooner: replaying 200,000 lines through `Stream.runForEach` went from 1.86×
 * to 1.24× the official SDK's CPU, and from 1.38× to 0.98× its peak memory (bench row 4). Each chunk costs the
 * consumer ~25 runtime steps, which 64 messages share.
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
  readonly encoded: Either.Either<EncodedPrompt, ProtocolError>
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
): Effect.Effect<Session, ClaudeError, CommandExecutor.CommandExecutor | Scope.Scope> =>
  Effect.suspend(() => {
    const redactor = Redaction.make(env.secrets)
    // Everything the session's fibers log (the router, hooks, the gate, MCP tools) goes through
    // loggers that hide the session's secrets, whatever the level and whichever logger is installed.
    return Effect.locallyWith(
      inOwnScope(makeSession(env, redactor, firstPrompt)),
      FiberRef.currentLoggers,
      HashSet.map((logger) => Redaction.redactingLogger(logger, redactor))
    )
  })

/**
 * Runs `effect` in a scope of its own, closed with the same exit by one finalizer of the current scope.
 * Each `Effect.addFinalizer` (the session's, its services', the platform's for the process) restores, as it
 * runs, the fiber refs it was added with: a diff and a patch of every ref, the context and the loggers
 * included. Against the refs of whichever fiber closes the caller's scope that costs, every time; here one
 * finalizer pays it, and the session's own run with refs that differ from theirs by next to nothing.
 */
const inOwnScope = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, Exclude<R, Scope.Scope> | Scope.Scope> =>
  Effect.flatMap(Scope.make(), (own) =>
    Effect.zipRight(
      Effect.addFinalizer((exit) => Scope.close(own, exit)),
      Scope.extend(effect, own)
    ))

const makeSession = (
  env: SessionEnvironment,
  redactor: Redaction.Redactor,
  firstPrompt: Prompt | undefined
): Effect.Effect<Session, ClaudeError, CommandExecutor.CommandExecutor | Scope.Scope> =>
  Effect.gen(function*() {
    const settings = env.settings

    // The session's and its turns' spans, made (as the router's) only when a tracer is installed, and
    // its turn bookkeeping, kept by plain functions as messages are delivered: no effect per turn.
    const runtime = yield* Effect.runtime<never>()
    const metricLabels = FiberRefs.getOrDefault(runtime.fiberRefs, FiberRef.currentMetricLabels)
    const sessionSpan = Telemetry.startSpan(
      runtime.fiberRefs,
      runtime.context,
      () => Telemetry.spans.session,
      undefined,
      "client",
      () => ({})
    )
    // The session's own finalizers are added to its own scope as they are (see `inOwnScope`): they run with the
    // session's refs, which `inOwnScope`'s one finalizer has restored, so they need no restoring of their own.
    const scope = yield* Effect.scope
    if (sessionSpan !== undefined) {
      yield* Scope.addFinalizerExit(
        scope,
        (exit) => Effect.sync(() => Telemetry.endSpan(sessionSpan, runtime.fiberRefs, exit))
      )
    }
    Telemetry.liveSessions.unsafeModify(1, metricLabels)
    yield* Scope.addFinalizer(scope, Effect.sync(() => Telemetry.liveSessions.unsafeModify(-1, metricLabels)))
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
          Effect.catchAllCause(
            sink(line),
            (cause) => Effect.logWarning("the stderr sink failed on a line; the next line goes to it again", cause)
          )
        ),
        Effect.annotateLogs({ pid, source: "stderr" }),
        Effect.forkDaemon
      )
      yield* Effect.addFinalizer(() =>
        Effect.zipRight(
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
        runtime.fiberRefs,
        runtime.context,
        () => Telemetry.spans.turn,
        sessionSpan,
        "internal",
        () => ({ [Telemetry.attributes.turn]: turnIndex })
      )
    }

    const endTurn = (result: Record<string, unknown>) => {
      Telemetry.recordResultNow(result, metricLabels)
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
      Telemetry.endSpan(span, runtime.fiberRefs, Exit.void)
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
        // A constant line, written as it is: encoding it by the stdin schema, a path that is cold at the
        // close, costs more (~2 ms) than the rest of the close's own work.
        if (busy) yield* Effect.ignore(cli.writeLine(closeInterruptLine))
        yield* cli.shutdown({ gracePeriod: busy ? Duration.seconds(1) : settings.closeGracePeriod })
      })
    )

    // Reading a prompt may throw (a getter, a Proxy), here as in the codec: either way, a typed encoding failure.
    const encodePrompt = (prompt: Prompt): Either.Either<EncodedPrompt, ProtocolError> => {
      let input: Protocol.UserInput
      try {
        const given = toUserInput(prompt)
        input = settings.verbatimPrompts ? { ...given, client_composed: true as const } : given
      } catch (cause) {
        return Either.left(unreadableMessage(cause))
      }
      return Either.map(encodeStdinLine(input), (line) => ({ input, line }))
    }

    // The first prompt's line, encoded now, while the CLI starts (it reads nothing before it is up, ~0.4 s):
    // encoded after the initialize answer, a 20 MB prompt (~0.2 s to encode) held its turn back by as much (bench
    // row 5: call → result 1.17–1.23× the official SDK's, which writes the prompt at once; 0.87–1.08× since).
    // It is not written before that answer: a CLI that rejected the initialize request (its hooks, its gate)
    // must not run it. A line that failed to encode fails the send, as encoding it then would.
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
      Effect.catchAll((error) =>
        Effect.flatMap(cli.exitStatus, (status) =>
          Option.isSome(status)
            ? Effect.flatMap(
              cli.exitError(status.value),
              (exit) => new InitializeError({ reason: "CliExited", detail: exit.message, cause: exit })
            )
            : new InitializeError({
              reason: error._tag === "ControlTimeoutError"
                ? "Timeout"
                : error.reason === "InvalidResponse"
                ? "InvalidResponse"
                : "Rejected",
              detail: error.message,
              cause: error
            }))
      )
    )

    // What a pull took from the router and has not delivered yet, `held[heldFrom..]`: what follows a turn's
    // result, or a chunk's bound. The next pull starts with it.
    let held: ReadonlyArray<Protocol.Message> = []
    let heldFrom = 0
    // A turn that ended for want of credentials: the next pull fails with it (once).
    let failure: ResultError | undefined

    // Messages go to the consumer a chunk at a time (one stream step per chunk, not per message), and a
    // chunk always ends at a turn's result, so that a consumer stopping at the end of a turn
    // (`receiveTurn`, `Stream.takeUntil` on results) leaves the next turn's messages for the next read.
    // Whether the chunk `deliver` last returned ended a turn (its result delivered or replaced by a failure).
    let chunkEndedTurn = false
    const deliver = (): Chunk.Chunk<Protocol.Message> => {
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
      return Chunk.unsafeFromArray(start === 0 && last === source.length ? source : source.slice(start, last))
    }

    // The next chunk of messages, `undefined` at their end. `turn` bounds the reading to one turn: a
    // chunk that ends with a result ends it.
    const pull = (turn: { ended: boolean } | undefined): Effect.Effect<
      Chunk.Chunk<Protocol.Message> | undefined,
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
          Chunk.Chunk<Protocol.Message> | undefined,
          CliExitError | ProtocolError | ResultError
        > => {
          const chunk = deliver()
          // The turn is in the store before its result is delivered; a batch the store refused is reported first.
          if (mirror !== undefined && chunkEndedTurn) {
            return Effect.flatMap(mirror.flush, (reports) => {
              const all = reports.length === 0 ? chunk : Chunk.appendAll(Chunk.unsafeFromArray(reports), chunk)
              return Chunk.isEmpty(all) ? pull(turn) : Effect.succeed(endsTurn(all))
            })
          }
          if (Chunk.isEmpty(chunk)) return pull(turn)
          return Effect.succeed(endsTurn(chunk))
        }
        const endsTurn = (chunk: Chunk.Chunk<Protocol.Message>) => {
          if (turn !== undefined && Chunk.unsafeLast(chunk).type === "result") turn.ended = true
          return chunk
        }
        if (heldFrom < held.length) return delivered()
        return Effect.flatMap(router.takeMessages, ([taken, done]) => {
          if (taken.length > 0) {
            // Mirror frames are for the store, not the consumer.
            held = mirror === undefined
              ? Chunk.toReadonlyArray(taken)
              : Chunk.toReadonlyArray(taken).filter((message) => message.type !== "transcript_mirror")
            heldFrom = 0
            return delivered()
          }
          return done ? Effect.succeed(undefined) : pull(turn)
        })
      })

    // A stream over `pull`, one channel step per chunk (no Option per chunk, no stage to cut the turn).
    const streamOf = (
      first: Effect.Effect<void, ClaudeError> | undefined,
      oneTurn: boolean
    ): Stream.Stream<Protocol.Message, ClaudeError> =>
      Stream.fromChannel(Channel.suspend(() => {
        const turn = oneTurn ? { ended: false } : undefined
        const loop: Channel.Channel<Chunk.Chunk<Protocol.Message>, unknown, ClaudeError, unknown, void, unknown> =
          Channel.flatMap(
            Channel.fromEffect(pull(turn)),
            (chunk) => chunk === undefined ? Channel.void : Channel.zipRight(Channel.write(chunk), loop)
          )
        return first === undefined ? loop : Channel.zipRight(Channel.fromEffect(first), loop)
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
        if (Either.isLeft(encoded)) return Effect.fail(encoded.left)
        const { input, line } = encoded.right
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
          ? Effect.succeed(Chunk.unsafeLast(chunk))
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
          Effect.zipRight(Effect.suspend(() => lastOfTurn({ ended: false }))),
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
): prompt is Stream.Stream<Prompt, ClaudeError> => typeof prompt === "object" && Stream.StreamTypeId in prompt

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
    return Stream.merge(session.messages, Stream.execute(writer))
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
