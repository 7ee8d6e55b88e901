/**
 * One session: the CLI process, the router, the hook registry and the
 * permission gate wired together, the initialize handshake, and the turn
 * bookkeeping that lets the session shut down quickly and cleanly.
 *
 * @internal
 */
import type * as CommandExecutor from "@effect/platform/CommandExecutor"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { identity } from "effect/Function"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as Tracer from "effect/Tracer"
import { type ClaudeError, type CliExitError, InitializeError, type ProtocolError } from "../ClaudeError.js"
import * as ClaudeOptions from "../ClaudeOptions.js"
import * as CliProcess from "../CliProcess.js"
import * as ControlRouter from "../ControlRouter.js"
import * as HookRegistry from "../HookRegistry.js"
import * as PermissionGate from "../PermissionGate.js"
import type * as Protocol from "../Protocol.js"
import type { Prompt, Session } from "../Session.js"
import * as Telemetry from "../Telemetry.js"
import * as InternalTelemetry from "./telemetry.js"

/** @internal */
export interface SessionEnvironment {
  readonly executable: string
  readonly options: ClaudeOptions.Options
  readonly gate: Option.Option<PermissionGate.PermissionGate.Service>
  readonly extraHandlers: ReadonlyArray<ControlRouter.InboundHandler>
  readonly extraInitialize: Readonly<Record<string, unknown>>
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

/** @internal */
export const make = (
  env: SessionEnvironment
): Effect.Effect<Session, ClaudeError, CommandExecutor.CommandExecutor | Scope.Scope> =>
  Effect.gen(function*() {
    const options = env.options
    const settings = ClaudeOptions.runtimeSettings(options)
    const hooks = yield* HookRegistry.make({ defaultTimeout: settings.hookTimeout })
    const processEnv = ClaudeOptions.toEnv(options, process.env)
    const secrets = Object.entries(processEnv)
      .filter(([key, value]) => ClaudeOptions.isSecretEnvKey(key) && value.length >= 8)
      .map(([, value]) => value)

    const sessionSpan = yield* Effect.makeSpanScoped(Telemetry.spans.session, { kind: "client" })
    yield* Effect.acquireRelease(
      Metric.incrementBy(Telemetry.liveSessions, 1),
      () => Metric.incrementBy(Telemetry.liveSessions, -1)
    )
    let turnSpan: Tracer.Span | undefined
    let turnIndex = 0

    const cli = yield* CliProcess.make({
      executable: env.executable,
      args: ClaudeOptions.toCliArgs(options, { permissionPromptTool: Option.isSome(env.gate) }),
      env: processEnv,
      cwd: settings.cwd,
      maxLineChars: settings.maxLineBytes,
      closeGracePeriod: settings.closeGracePeriod,
      redact: secrets
    })

    const router = yield* ControlRouter.make({
      handlers: [
        hooks.inboundHandler,
        ...(Option.isSome(env.gate) ? [PermissionGate.inboundHandler(env.gate.value, settings.permissionTimeout)] : []),
        ...env.extraHandlers
      ],
      controlTimeout: settings.controlTimeout,
      parentSpan: () => turnSpan ?? sessionSpan,
      logAnnotations: () => ({ pid: cli.pid, turn: turnIndex, ...(sessionId !== undefined ? { sessionId } : {}) })
    }).pipe(Effect.provideService(CliProcess.CliProcess, cli))
    sessionSpan.attribute(Telemetry.attributes.pid, cli.pid)

    let turnsInFlight = 0
    let sessionId: string | undefined

    const startTurn = Effect.suspend(() => {
      if (turnSpan !== undefined) return Effect.void
      turnIndex++
      return Effect.map(
        Effect.makeSpan(Telemetry.spans.turn, {
          parent: sessionSpan,
          attributes: { [Telemetry.attributes.turn]: turnIndex }
        }),
        (span) => {
          turnSpan = span
        }
      )
    })

    const endTurn = (result: Record<string, unknown>) =>
      Effect.gen(function*() {
        yield* InternalTelemetry.recordResult(result)
        const span = turnSpan
        turnSpan = undefined
        if (span === undefined) return
        span.attribute(Telemetry.attributes.resultSubtype, result.subtype)
        span.attribute(Telemetry.attributes.isError, result.is_error === true)
        if (typeof result.total_cost_usd === "number") {
          span.attribute(Telemetry.attributes.costUsd, result.total_cost_usd)
        }
        if (typeof result.num_turns === "number") span.attribute(Telemetry.attributes.numTurns, result.num_turns)
        span.end(yield* Clock.currentTimeNanos, Exit.void)
      })

    // Closing mid-turn: interrupt first (the CLI then stops its tools and shells itself), then end stdin.
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        yield* router.expectExit
        const busy = turnsInFlight > 0
        if (busy) {
          yield* router.request({ subtype: "interrupt" } as Protocol.OutboundControlRequestPayload, {
            timeout: Duration.seconds(1)
          }).pipe(Effect.ignore)
        }
        yield* cli.shutdown({ gracePeriod: busy ? Duration.seconds(1) : settings.closeGracePeriod })
      })
    )

    const initializeRequest = {
      subtype: "initialize",
      ...(hooks.initializeHooks !== undefined ? { hooks: hooks.initializeHooks } : {}),
      ...ClaudeOptions.toInitializeFields(options),
      ...env.extraInitialize
    } as Protocol.OutboundControlRequestPayload

    const initialization = yield* router.request(initializeRequest, {
      timeout: settings.initializeTimeout
    }).pipe(
      Effect.catchAll((error) =>
        Effect.flatMap(cli.exitStatus, (status) =>
          Option.isSome(status)
            ? Effect.flatMap(
              cli.exitError(status.value),
              (exit) => new InitializeError({ reason: "CliExited", detail: exit.message, cause: exit })
            )
            : new InitializeError({
              reason: error._tag === "ControlTimeoutError" ? "Timeout" : "Rejected",
              detail: error.message,
              cause: error
            }))
      )
    ) as Effect.Effect<Protocol.InitializeResponse, InitializeError>

    // What a pull took from the router beyond the end of a turn: the next pull starts with it.
    let leftover: ReadonlyArray<Protocol.Message> = []

    // Messages go to the consumer a chunk at a time (one stream step per chunk, not per message), and a
    // chunk always ends at a turn's result, so that a consumer stopping at the end of a turn
    // (`receiveTurn`, `Stream.takeUntil` on results) leaves the next turn's messages for the next read.
    const deliver = (
      taken: ReadonlyArray<Protocol.Message>
    ): Effect.Effect<Chunk.Chunk<Protocol.Message>> => {
      let messages = taken
      let bookkeeping: Array<Effect.Effect<void>> | undefined
      for (let i = 0; i < messages.length; i++) {
        const message = messages[i]
        if (message.type === "system" && (message as { subtype?: string }).subtype === "init") {
          sessionId = (message as { session_id?: string }).session_id ?? sessionId
          if (sessionId !== undefined) sessionSpan.attribute(Telemetry.attributes.sessionId, sessionId)
          // Turns the CLI starts by itself (background task notifications) get a span too.
          bookkeeping ??= []
          bookkeeping.push(startTurn)
        } else if (message.type === "result") {
          turnsInFlight = Math.max(0, turnsInFlight - 1)
          sessionId = (message as { session_id?: string }).session_id ?? sessionId
          bookkeeping ??= []
          bookkeeping.push(endTurn(message as unknown as Record<string, unknown>))
          if (i + 1 < messages.length) {
            leftover = messages.slice(i + 1)
            messages = messages.slice(0, i + 1)
          }
          break
        }
      }
      const chunk = Chunk.unsafeFromArray(messages)
      return bookkeeping === undefined
        ? Effect.succeed(chunk)
        : Effect.as(Effect.forEach(bookkeeping, identity, { discard: true }), chunk)
    }

    const pull: Effect.Effect<Chunk.Chunk<Protocol.Message>, Option.Option<CliExitError | ProtocolError>> = Effect
      .suspend(() => {
        if (leftover.length > 0) {
          const taken = leftover
          leftover = []
          return deliver(taken)
        }
        return Effect.matchEffect(router.messages.takeAll, {
          onFailure: (error) => Effect.fail(Option.some(error)),
          onSuccess: ([taken, done]) =>
            taken.length > 0
              ? deliver(Chunk.toReadonlyArray(taken))
              : done
              ? Effect.fail(Option.none())
              : pull
        })
      })

    const messages: Stream.Stream<Protocol.Message, ClaudeError> = Stream.repeatEffectChunkOption(pull)
    const receiveTurn = messages.pipe(Stream.takeUntil((message) => message.type === "result"))

    const send = (prompt: Prompt) =>
      Effect.suspend(() => {
        const input = toUserInput(prompt)
        if ((input as { shouldQuery?: boolean }).shouldQuery === false) {
          return router.send(input as Protocol.StdinMessage)
        }
        turnsInFlight++
        return Effect.zipRight(startTurn, router.send(input as Protocol.StdinMessage))
      })

    const request = (payload: Protocol.OutboundControlRequestPayload) => router.request(payload)
    const requestAs = <A>(payload: Record<string, unknown>) =>
      router.request(payload as Protocol.OutboundControlRequestPayload) as Effect.Effect<A, any>

    return {
      pid: cli.pid,
      initialization,
      sessionId: Effect.sync(() => sessionId),
      send,
      turn: (prompt) => Stream.unwrap(Effect.as(send(prompt), receiveTurn)),
      receiveTurn,
      messages,
      endInput: cli.endInput,
      interrupt: requestAs<Protocol.InterruptResponse>({ subtype: "interrupt" }).pipe(
        Effect.map((response) => response ?? ({ still_queued: [] } as unknown as Protocol.InterruptResponse))
      ),
      setPermissionMode: (mode) => Effect.asVoid(requestAs({ subtype: "set_permission_mode", mode })),
      setModel: (model) =>
        Effect.asVoid(requestAs(model === undefined ? { subtype: "set_model" } : { subtype: "set_model", model })),
      setMaxThinkingTokens: (tokens) =>
        Effect.asVoid(requestAs({ subtype: "set_max_thinking_tokens", max_thinking_tokens: tokens })),
      mcpServerStatus: Effect.map(
        requestAs<Protocol.McpStatusResponse | undefined>({ subtype: "mcp_status" }),
        (response) => response?.mcpServers ?? []
      ),
      supportedCommands: Effect.sync(() => initialization.commands ?? []),
      supportedModels: Effect.sync(() => initialization.models ?? []),
      getContextUsage: requestAs<Protocol.ContextUsageResponse>({ subtype: "get_context_usage" }),
      rewindFiles: (userMessageId, rewindOptions) =>
        requestAs<Protocol.RewindFilesResponse>({
          subtype: "rewind_files",
          user_message_id: userMessageId,
          ...(rewindOptions?.dryRun !== undefined ? { dry_run: rewindOptions.dryRun } : {})
        }),
      stopTask: (taskId) => Effect.asVoid(requestAs({ subtype: "stop_task", task_id: taskId })),
      request
    } satisfies Session
  })
