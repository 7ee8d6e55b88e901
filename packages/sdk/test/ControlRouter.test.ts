/**
 * The router on its own, over a CLI process made of in-memory queues: what the
 * CLI writes is pushed line by line, what the router writes is read back, and
 * the exit happens when the test says so. No process, no model, no real time:
 * every edge of the protocol the real CLI reaches only by accident — a cancel
 * mid-handler, an exit before a reply, responses out of order, a line that
 * breaks the framing — is reached on purpose.
 *
 * Each test runs over both shapes of `CliProcess`: lines pulled from `lines`
 * and written by `writeLine` (the optional members absent), and lines pushed
 * through `readLines` and written by `unsafeWriteLine` (the real process's).
 */
import { assert, describe, it, vi } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as References from "effect/References"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import * as Tracer from "effect/Tracer"
import { CliExitError, ControlError, ControlTimeoutError, ProtocolError } from "../src/ClaudeError.js"
import { CliProcess, type ExitStatus } from "../src/CliProcess.js"
import * as ControlRequest from "../src/ControlRequest.js"
import * as ControlRouter from "../src/ControlRouter.js"
import * as GuardedRun from "../src/internal/guardedRun.js"
import type * as Protocol from "../src/Protocol.js"
import * as Telemetry from "../src/Telemetry.js"

// Nothing here waits on a process or a network: a test that hangs has failed.
vi.setConfig({ testTimeout: 5_000 })

// -----------------------------------------------------------------------------
// The wire: a CliProcess over in-memory queues
// -----------------------------------------------------------------------------

/** A line the router wrote, parsed. */
interface Written {
  readonly type: string
  readonly request_id?: string
  readonly request?: { readonly subtype: string; readonly [key: string]: unknown }
  readonly response?: {
    readonly subtype: string
    readonly request_id: string
    readonly response?: unknown
    readonly error?: string
  }
}

interface Wire {
  /** Writes lines to the router as the CLI's stdout: strings as they are, anything else as its JSON. */
  readonly emit: (...lines: ReadonlyArray<unknown>) => Effect.Effect<void>
  /** Fails the lines as the framing guard does. */
  readonly breakFraming: (error: ProtocolError) => Effect.Effect<void>
  /** The CLI exits with `status`; its stdout ends unless `holdStdout` (a process it left holds the pipe). */
  readonly exit: (status: ExitStatus, options?: { readonly holdStdout?: boolean }) => Effect.Effect<void>
  /** Says the lines are to be taken as ended (`linesCut`; the pushing shape only). */
  readonly cutLines: Effect.Effect<void>
  /** Every line the router wrote, parsed, in order. */
  readonly written: () => ReadonlyArray<Written>
  /** The first line the router wrote that matches, once it is written. */
  readonly awaitWritten: (predicate: (written: Written) => boolean) => Effect.Effect<Written>
  /** How often the router shut the CLI down. */
  readonly shutdowns: () => number
}

type Shape = "pulled" | "pushed"

const makeWire = (shape: Shape): Effect.Effect<readonly [Wire, CliProcess["Service"]]> =>
  Effect.gen(function*() {
    const stdout = yield* Queue.unbounded<string, ProtocolError | Cause.Done>()
    const exited = yield* Deferred.make<ExitStatus>()
    const cut = yield* Deferred.make<void>()
    let status: ExitStatus | undefined
    let shutdowns = 0
    const written: Array<Written> = []
    const listeners = new Set<() => void>()
    const record = (line: string) => {
      written.push(JSON.parse(line))
      for (const listener of listeners) listener()
    }
    const exitError = (exitStatus: ExitStatus, options?: { readonly duringTurn?: boolean | undefined }) =>
      Effect.succeed(
        new CliExitError({
          reason: exitStatus.signal !== null ? "Signaled" : "Exited",
          exitCode: exitStatus.code,
          signal: exitStatus.signal,
          stderrTail: "",
          ...(options?.duringTurn === true ? { duringTurn: true } : {})
        })
      )
    const exit = (exitStatus: ExitStatus, options?: { readonly holdStdout?: boolean }) =>
      Effect.suspend(() => {
        if (status !== undefined) return Effect.void
        status = exitStatus
        return Effect.andThen(
          options?.holdStdout === true ? Effect.void : Queue.end(stdout),
          Deferred.succeed(exited, exitStatus)
        )
      })
    const lines = Stream.fromQueue(stdout)
    const cli: CliProcess["Service"] = {
      pid: 4242,
      lines,
      writeLine: (line) =>
        Effect.suspend(() =>
          status === undefined ? Effect.sync(() => record(line)) : Effect.flatMap(exitError(status), Effect.fail)
        ),
      endInput: Effect.void,
      awaitExit: Deferred.await(exited),
      exitStatus: Effect.sync(() => Option.fromUndefinedOr(status)),
      stderrTail: Effect.succeed(""),
      shutdown: () =>
        Effect.suspend(() => {
          shutdowns++
          return Effect.andThen(exit({ code: null, signal: "SIGTERM" }), Deferred.await(exited))
        }),
      exitError,
      ...(shape === "pushed"
        ? {
          readLines: (onLines) => Stream.runForEachArray(lines, onLines),
          unsafeWriteLine: (line) => {
            if (status !== undefined) return false
            record(line)
            return true
          },
          linesCut: Deferred.await(cut)
        }
        : {})
    }
    const wire: Wire = {
      emit: (...items) =>
        Effect.asVoid(
          Queue.offerAll(stdout, items.map((item) => typeof item === "string" ? item : JSON.stringify(item)))
        ),
      breakFraming: (error) => Effect.asVoid(Queue.fail(stdout, error)),
      exit,
      cutLines: Effect.asVoid(Deferred.succeed(cut, undefined)),
      written: () => written,
      awaitWritten: (predicate) =>
        Effect.callback<Written>((resume) => {
          const check = () => {
            const found = written.find(predicate)
            if (found === undefined) return
            listeners.delete(check)
            resume(Effect.succeed(found))
          }
          listeners.add(check)
          check()
          return Effect.sync(() => listeners.delete(check))
        }),
      shutdowns: () => shutdowns
    }
    return [wire, cli] as const
  })

/** A router over a fresh wire, in a scope of its own. */
const withRouter = <A, E>(
  shape: Shape,
  options: ControlRouter.MakeOptions,
  body: (router: ControlRouter.ControlRouter["Service"], wire: Wire) => Effect.Effect<A, E>
) =>
  Effect.gen(function*() {
    const [wire, cli] = yield* makeWire(shape)
    const router = yield* ControlRouter.make(options).pipe(Effect.provideService(CliProcess, cli))
    return yield* body(router, wire)
  }).pipe(Effect.scoped)

// -----------------------------------------------------------------------------
// Lines of the CLI
// -----------------------------------------------------------------------------

const sessionId = "5f0c6a1e-2a55-4a0f-9c53-2e8d0b8c7a11"
let uuids = 0
const uuid = () => `00000000-0000-4000-8000-${String(++uuids).padStart(12, "0")}`

const assistantText = (text: string) => ({
  type: "assistant",
  message: {
    id: `msg_${uuid().slice(-12)}`,
    type: "message",
    role: "assistant",
    model: "claude-opus-5-5",
    content: [{ type: "text", text }],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    context_management: null
  },
  parent_tool_use_id: null,
  session_id: sessionId,
  uuid: uuid()
})

const inbound = (requestId: string, request: Record<string, unknown>) => ({
  type: "control_request",
  request_id: requestId,
  request
})

const success = (requestId: string, response?: unknown) => ({
  type: "control_response",
  response: { subtype: "success", request_id: requestId, ...(response === undefined ? {} : { response }) }
})

const textOf = (messages: ReadonlyArray<Protocol.Message>): Array<string> =>
  messages.flatMap((message) =>
    message.type === "assistant"
      ? (message as { readonly message: { readonly content: ReadonlyArray<{ readonly text?: string }> } }).message
        .content.flatMap((block) => block.text === undefined ? [] : [block.text])
      : []
  )

const typesOf = (messages: ReadonlyArray<Protocol.Message>): Array<string> => messages.map((message) => message.type)

const collect = (router: ControlRouter.ControlRouter["Service"]) => Stream.runCollect(Stream.fromQueue(router.messages))

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined

// The router's reply to an inbound request.
const replyTo = (wire: Wire, requestId: string) =>
  wire.awaitWritten((written) => written.type === "control_response" && written.response?.request_id === requestId)

const isRequest = (subtype: string) => (written: Written) =>
  written.type === "control_request" && written.request?.subtype === subtype

// Lets forked fibers run up to their wait.
const settle = Effect.repeat(Effect.yieldNow, { times: 20 })

const quiet = Effect.provide(Logger.layer([]))

const mcpStatus = ControlRequest.requests.mcp_status

const serversOf = (status: Protocol.McpStatusResponse) => status.mcpServers.map((server) => server.name)

// A request the CLI makes that the SDK answers with an Effect: `probe` (a subtype the protocol does not know).
const probe = (
  handle: (
    request: Protocol.InboundControlRequest,
    context: ControlRouter.InboundContext
  ) => ControlRouter.InboundAnswer,
  extra?: Partial<ControlRouter.InboundHandler>
): ControlRouter.InboundHandler => ({ subtype: "probe", handle, ...extra })

// -----------------------------------------------------------------------------
// The specification, over both shapes of CliProcess
// -----------------------------------------------------------------------------

for (const shape of ["pulled", "pushed"] as const) {
  describe(`ControlRouter: messages (${shape} lines)`, () => {
    it.effect("messages arrive in order, seen by observe first; keep_alive, garbage and control traffic are not delivered; unknown types are kept", () => {
      const observed: Array<string> = []
      return withRouter(
        shape,
        { handlers: [], observe: (message) => observed.push(message.type) },
        (router, wire) =>
          Effect.gen(function*() {
            yield* wire.emit(
              assistantText("one"),
              { type: "keep_alive" },
              "not json at all {",
              "",
              "null",
              "[1,2]",
              success("nobody-asked"),
              { type: "control_cancel_request", request_id: "nothing-running" },
              { type: "brand_new_message_type", detail: "from a newer CLI" },
              assistantText("two")
            )
            yield* wire.emit(assistantText("three"))
            yield* wire.exit({ code: 0, signal: null })
            const messages = yield* collect(router).pipe(quiet)
            assert.deepStrictEqual(typesOf(messages), ["assistant", "brand_new_message_type", "assistant", "assistant"])
            assert.deepStrictEqual(textOf(messages), ["one", "two", "three"])
            assert.deepStrictEqual(observed, typesOf(messages))
            assert.deepStrictEqual(wire.written(), [], "nothing was answered: no request came")
          })
      )
    })

    it.effect("how the exit ends the messages: code 0 ends them, another code fails them, classifyExit decides, expectExit ends them", () =>
      Effect.gen(function*() {
        const endsWith = (
          status: ExitStatus,
          options: Partial<ControlRouter.MakeOptions>,
          expectExit = false
        ) =>
          withRouter(shape, { handlers: [], ...options }, (router, wire) =>
            Effect.gen(function*() {
              yield* wire.emit(assistantText("before the exit"))
              if (expectExit) yield* router.expectExit
              yield* wire.exit(status)
              const exit = yield* Effect.exit(collect(router))
              return Exit.isSuccess(exit) ? textOf(exit.value) : failureOf(exit)
            }))

        assert.deepStrictEqual(yield* endsWith({ code: 0, signal: null }, {}), ["before the exit"])
        const crashed = yield* endsWith({ code: 1, signal: null }, {})
        assert.instanceOf(crashed, CliExitError)
        assert.deepStrictEqual([crashed.reason, crashed.exitCode, crashed.duringTurn], ["Exited", 1, undefined])
        const killed = yield* endsWith({ code: null, signal: "SIGKILL" }, {})
        assert.instanceOf(killed, CliExitError)
        assert.strictEqual(killed.reason, "Signaled")

        const classified: Array<ExitStatus> = []
        const duringTurn = yield* endsWith({ code: 0, signal: null }, {
          classifyExit: (status) => {
            classified.push(status)
            return "duringTurn"
          }
        })
        assert.instanceOf(duringTurn, CliExitError)
        assert.isTrue(duringTurn.duringTurn, "a turn was cut short")
        assert.deepStrictEqual(classified, [{ code: 0, signal: null }])
        const failed = yield* endsWith({ code: 0, signal: null }, { classifyExit: () => "fail" })
        assert.instanceOf(failed, CliExitError)
        assert.isUndefined(failed.duringTurn)
        assert.deepStrictEqual(yield* endsWith({ code: 1, signal: null }, { classifyExit: () => "end" }), [
          "before the exit"
        ])
        assert.deepStrictEqual(
          yield* endsWith({ code: 1, signal: null }, { classifyExit: () => "duringTurn" }, true),
          ["before the exit"],
          "an exit the SDK asked for is no crash"
        )
      }))

    it.effect("a line that breaks the framing fails the messages with its ProtocolError, shuts the CLI down and closes pending requests", () =>
      withRouter(shape, { handlers: [] }, (router, wire) =>
        Effect.gen(function*() {
          const pending = yield* Effect.forkChild(Effect.exit(router.request(mcpStatus, {})))
          yield* wire.awaitWritten(isRequest("mcp_status"))
          yield* wire.emit(assistantText("before the long line"))
          const tooLong = new ProtocolError({
            reason: "LineTooLong",
            line: "{\"type\":\"assistant\",...",
            lineLength: 20_000_000,
            detail: "longer than 10000000 characters"
          })
          yield* wire.breakFraming(tooLong)
          const exit = yield* Effect.exit(collect(router))
          assert.strictEqual(failureOf(exit), tooLong)
          assert.strictEqual(wire.shutdowns(), 1, "nothing after the line can be trusted: the CLI is stopped")
          const closed = failureOf(yield* Fiber.join(pending))
          assert.instanceOf(closed, ControlError)
          assert.strictEqual(closed.reason, "Closed")
        })))

    it.effect("a line that holds a secret is reported redacted", () => {
      const secret = "sk-ant-api03-in-memory-secret-0123456789abcdef"
      const entries: Array<string> = []
      const logger = Logger.make(({ fiber, message }) => {
        entries.push(JSON.stringify({ message, annotations: fiber.getRef(References.CurrentLogAnnotations) }))
      })
      return withRouter(
        shape,
        { handlers: [], redact: (text) => text.replaceAll(secret, "<redacted>") },
        (router, wire) =>
          Effect.gen(function*() {
            yield* wire.emit(`oops, not json: ${secret}`, assistantText("fine"))
            yield* wire.exit({ code: 0, signal: null })
            assert.deepStrictEqual(textOf(yield* collect(router)), ["fine"])
            const warning = entries.find((entry) => entry.includes("not a valid message"))
            assert.isDefined(warning, "the unreadable line is reported")
            assert.include(warning, "oops, not json")
            assert.include(warning, "<redacted>")
            for (const entry of entries) assert.notInclude(entry, secret.slice(8, 24))
          })
      ).pipe(Effect.provide(Logger.layer([logger])))
    })

    if (shape === "pushed") {
      it.effect("stdout held open after the exit: linesCut ends the messages as stdout's end would", () =>
        withRouter(shape, { handlers: [] }, (router, wire) =>
          Effect.gen(function*() {
            yield* wire.emit(assistantText("last words"))
            yield* wire.exit({ code: 0, signal: null }, { holdStdout: true })
            const reader = yield* Effect.forkChild(collect(router))
            yield* settle
            assert.isUndefined(reader.pollUnsafe(), "stdout is still open")
            yield* wire.cutLines
            assert.deepStrictEqual(textOf(yield* Fiber.join(reader)), ["last words"])
          })))
    }
  })

  describe(`ControlRouter.takeMessages (${shape} lines)`, () => {
    type Taken = readonly [messages: ReadonlyArray<Protocol.Message>, done: boolean]
    const texts = (taken: ReadonlyArray<Taken>) => taken.flatMap(([messages]) => textOf(messages))

    it.effect.prop(
      "each read's messages reach the waiting taker as they are routed, in order, then the end",
      [
        Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 4 }))).check(
          Schema.isMinLength(1),
          Schema.isMaxLength(6)
        )
      ],
      ([reads]) =>
        withRouter(shape, { handlers: [] }, (router, wire) =>
          Effect.gen(function*() {
            const taken: Array<Taken> = []
            const taker = yield* Effect.forkChild(Effect.gen(function*() {
              for (;;) {
                const next = yield* router.takeMessages
                taken.push(next)
                if (next[1]) return
              }
            }))
            const expected: Array<string> = []
            for (const size of reads) {
              yield* settle
              const lines = Array.from({ length: size }, () => `message ${expected.length + 1}`)
              for (const line of lines) expected.push(line)
              yield* wire.emit(...lines.map(assistantText))
              yield* settle
              assert.deepStrictEqual(texts(taken), expected, "taken before the next read")
            }
            yield* wire.exit({ code: 0, signal: null })
            yield* Fiber.join(taker)
            assert.deepStrictEqual(texts(taken), expected)
            assert.isTrue(taken[taken.length - 1][1], "the last take says the messages ended")
          })),
      { arbitrary: { runs: 20 } }
    )

    it.effect("two takers waiting at once are both served: neither is left waiting", () =>
      withRouter(shape, { handlers: [] }, (router, wire) =>
        Effect.gen(function*() {
          const first = yield* Effect.forkChild(router.takeMessages)
          const second = yield* Effect.forkChild(router.takeMessages)
          yield* settle
          yield* wire.emit(assistantText("one"))
          yield* settle
          yield* wire.emit(assistantText("two"))
          const taken = [yield* Fiber.join(first), yield* Fiber.join(second)]
          assert.sameMembers(texts(taken), ["one", "two"])
        })))

    it.effect("a taker interrupted while it waits leaves the next taker to be woken", () =>
      withRouter(shape, { handlers: [] }, (router, wire) =>
        Effect.gen(function*() {
          const interrupted = yield* Effect.forkChild(router.takeMessages)
          yield* settle
          yield* Fiber.interrupt(interrupted)
          const next = yield* Effect.forkChild(router.takeMessages)
          yield* settle
          yield* wire.emit(assistantText("after the interruption"))
          assert.deepStrictEqual(texts([yield* Fiber.join(next)]), ["after the interruption"])
        })))

    it.effect("a waiting taker is woken by the CLI's death, with its error", () =>
      withRouter(shape, { handlers: [] }, (router, wire) =>
        Effect.gen(function*() {
          const taker = yield* Effect.forkChild(router.takeMessages)
          yield* settle
          yield* wire.exit({ code: 1, signal: null })
          assert.instanceOf(failureOf(yield* Fiber.await(taker)), CliExitError)
        })))
  })

  describe(`ControlRouter.request (${shape} lines)`, () => {
    it.effect("each request gets its own response by id, whatever their order; unknown ids are ignored", () =>
      withRouter(shape, { handlers: [] }, (router, wire) =>
        Effect.gen(function*() {
          const first = yield* Effect.forkChild(router.request(mcpStatus, {}))
          const firstId = (yield* wire.awaitWritten(isRequest("mcp_status"))).request_id!
          const second = yield* Effect.forkChild(router.request(mcpStatus, { liveReply: true }))
          const secondId = (yield* wire.awaitWritten((written) =>
            isRequest("mcp_status")(written) && written.request_id !== firstId
          )).request_id!
          assert.notStrictEqual(firstId, secondId, "each request has its own id")
          assert.deepStrictEqual(
            wire.written().map((written) => written.request),
            [{ subtype: "mcp_status" }, { subtype: "mcp_status", liveReply: true }],
            "the payloads as encoded by the request's schema"
          )
          // An echoed response to a request the SDK never sent (--replay-user-messages does that): ignored.
          yield* wire.emit(success("not-ours", { mcpServers: [{ name: "nobody", status: "connected" }] }))
          yield* wire.emit(success(secondId, { mcpServers: [{ name: "server-2", status: "connected" }] }))
          assert.deepStrictEqual(serversOf(yield* Fiber.join(second)), ["server-2"])
          yield* settle
          assert.isUndefined(first.pollUnsafe(), "the first request is still waiting")
          yield* wire.emit(success(firstId, { mcpServers: [{ name: "server-1", status: "connected", extra: 1 }] }))
          const answer = yield* Fiber.join(first)
          assert.deepStrictEqual(serversOf(answer), ["server-1"])
          assert.deepStrictEqual(answer.mcpServers[0], { name: "server-1", status: "connected", extra: 1 })
        })))

    it.effect("a reply that does not decode is ControlError InvalidResponse; an error reply is ErrorResponse", () =>
      withRouter(shape, { handlers: [] }, (router, wire) =>
        Effect.gen(function*() {
          const invalid = yield* Effect.forkChild(Effect.exit(router.request(mcpStatus, {})))
          const invalidId = (yield* wire.awaitWritten(isRequest("mcp_status"))).request_id!
          yield* wire.emit(success(invalidId, { mcpServers: "not a list" }))
          const invalidError = failureOf(yield* Fiber.join(invalid))
          assert.instanceOf(invalidError, ControlError)
          assert.deepStrictEqual(
            [invalidError.reason, invalidError.subtype, invalidError.requestId],
            ["InvalidResponse", "mcp_status", invalidId]
          )
          assert.include(invalidError.error, "mcpServers")

          const refused = yield* Effect.forkChild(
            Effect.exit(router.request(ControlRequest.requests.set_permission_mode, { mode: "plan" }))
          )
          const refusedId = (yield* wire.awaitWritten(isRequest("set_permission_mode"))).request_id!
          yield* wire.emit({
            type: "control_response",
            response: {
              subtype: "error",
              request_id: refusedId,
              error: "Cannot set permission mode: must be one of acceptEdits, default",
              error_code: "invalid_mode"
            }
          })
          const refusedError = failureOf(yield* Fiber.join(refused))
          assert.instanceOf(refusedError, ControlError)
          assert.deepStrictEqual(
            [refusedError.reason, refusedError.subtype, refusedError.errorCode],
            ["ErrorResponse", "set_permission_mode", "invalid_mode"]
          )
          assert.include(refusedError.error, "must be one of")
        })))

    it.effect("a payload its schema refuses is ControlError InvalidRequest, and nothing is written", () =>
      withRouter(shape, { handlers: [] }, (router, wire) =>
        Effect.gen(function*() {
          const Sized = ControlRequest.make("set_size", {
            payload: { size: Schema.Int.check(Schema.isGreaterThan(0)) },
            success: Schema.Unknown
          })
          const error = failureOf(yield* Effect.exit(router.request(Sized, { size: -1 })))
          assert.instanceOf(error, ControlError)
          assert.strictEqual(error.reason, "InvalidRequest")
          assert.include(error.error, "size")
          assert.deepStrictEqual(wire.written(), [])
        })))

    it.effect("a request whose schema transforms is encoded and decoded by its schema", () =>
      withRouter(shape, { handlers: [] }, (router, wire) =>
        Effect.gen(function*() {
          const Counted = ControlRequest.make("count", {
            payload: { count: Schema.NumberFromString },
            success: Schema.Struct({ total: Schema.NumberFromString })
          })
          const answer = yield* Effect.forkChild(router.request(Counted, { count: 2 }))
          const written = yield* wire.awaitWritten(isRequest("count"))
          assert.deepStrictEqual(written.request, { subtype: "count", count: "2" })
          yield* wire.emit(success(written.request_id!, { total: "3" }))
          assert.deepStrictEqual(yield* Fiber.join(answer), { total: 3 })
        })))

    it.effect("an exit before the reply is ControlError Closed; a request after the exit fails at once", () =>
      withRouter(shape, { handlers: [] }, (router, wire) =>
        Effect.gen(function*() {
          const pending = yield* Effect.forkChild(Effect.exit(router.request(ControlRequest.requests.set_model, {})))
          yield* wire.awaitWritten(isRequest("set_model"))
          yield* wire.exit({ code: 0, signal: null })
          const error = failureOf(yield* Fiber.join(pending))
          assert.instanceOf(error, ControlError)
          assert.deepStrictEqual([error.reason, error.subtype], ["Closed", "set_model"])
          assert.include(error.error, "code 0")
          yield* Effect.exit(collect(router))
          const late = failureOf(yield* Effect.exit(router.request(mcpStatus, {})))
          assert.instanceOf(late, ControlError)
          assert.deepStrictEqual([late.reason, late.error], ["Closed", "the CLI has exited"])
          assert.lengthOf(wire.written(), 1, "the late request was never written")
        })))

    it.effect("no reply in time is ControlTimeoutError, and a control_cancel_request naming the request is written", () =>
      withRouter(shape, { handlers: [], controlTimeout: "30 seconds" }, (router, wire) =>
        Effect.gen(function*() {
          const short = yield* Effect.forkChild(Effect.exit(router.request(mcpStatus, {}, { timeout: "5 seconds" })))
          const shortId = (yield* wire.awaitWritten(isRequest("mcp_status"))).request_id!
          const long = yield* Effect.forkChild(Effect.exit(router.request(ControlRequest.requests.set_model, {})))
          const longId = (yield* wire.awaitWritten(isRequest("set_model"))).request_id!
          yield* TestClock.adjust("4999 millis")
          assert.isUndefined(short.pollUnsafe(), "not before its deadline")
          yield* TestClock.adjust("1 millis")
          const error = failureOf(yield* Fiber.join(short))
          assert.instanceOf(error, ControlTimeoutError)
          assert.deepStrictEqual([error.subtype, error.requestId, error.timeoutMillis], ["mcp_status", shortId, 5_000])
          const cancel = yield* wire.awaitWritten((written) => written.type === "control_cancel_request")
          assert.strictEqual(cancel.request_id, shortId)
          // A reply after the deadline is ignored; the other request keeps the default timeout.
          yield* wire.emit(success(shortId, { mcpServers: [] }))
          yield* TestClock.adjust("24999 millis")
          assert.isUndefined(long.pollUnsafe(), "the default timeout is 30 seconds")
          yield* TestClock.adjust("1 millis")
          const longError = failureOf(yield* Fiber.join(long))
          assert.instanceOf(longError, ControlTimeoutError)
          assert.strictEqual(longError.requestId, longId)
        })))
  })

  describe(`ControlRouter: telemetry (${shape} lines)`, () => {
    it.effect("one span per inbound request, named by its handler, ended as it is answered or cancelled; outbound spans; line metrics", () => {
      const spans: Array<Tracer.NativeSpan> = []
      const tracer = Tracer.make({
        span: (options) => {
          const span = new Tracer.NativeSpan(options)
          spans.push(span)
          return span
        }
      })
      const release = Effect.runSync(Deferred.make<void>())
      const handler = probe(
        (_, { requestId }) =>
          ControlRouter.answerWith(requestId === "cut-1" ? Effect.never : Effect.as(Deferred.await(release), 1)),
        {
          spanName: () => "claude.test.probe",
          attributes: (request) => ({ "test.echo": (request as { readonly echo?: unknown }).echo })
        }
      )
      // The router's own series: metric attributes of the context it was made in.
      const series = { router: `telemetry-${shape}` }
      const count = (metric: Metric.Metric<number, Metric.CounterState<number>>) =>
        Effect.map(Metric.value(Metric.withAttributes(metric, series)), (state) => state.count)
      const turn = Tracer.externalSpan({ traceId: "a".repeat(32), spanId: "b".repeat(16) })
      return withRouter(
        shape,
        { handlers: [handler], parentSpan: () => turn },
        (router, wire) =>
          Effect.gen(function*() {
            yield* wire.emit(
              inbound("probe-1", { subtype: "probe", echo: "hello" }),
              inbound("cut-1", { subtype: "probe" }),
              "not json",
              { type: "brand_new_message_type" },
              assistantText("one")
            )
            yield* settle
            const [probed, cut] = spans.filter((span) => span.name === "claude.test.probe")
            assert.deepStrictEqual(
              [probed.status._tag, probed.kind],
              ["Started", "server"],
              "open while the handler runs"
            )
            assert.strictEqual(Option.getOrUndefined(probed.parent), turn, "a child of the running turn's span")
            assert.deepStrictEqual(Object.fromEntries(probed.attributes), {
              [Telemetry.attributes.requestId]: "probe-1",
              [Telemetry.attributes.subtype]: "probe",
              "test.echo": "hello"
            })
            yield* wire.emit({ type: "control_cancel_request", request_id: "cut-1" })
            yield* settle
            assert.isTrue(cut.status._tag === "Ended" && Exit.hasInterrupts(cut.status.exit), "a cancel ends its span")
            yield* Deferred.succeed(release, undefined)
            yield* replyTo(wire, "probe-1")
            assert.isTrue(probed.status._tag === "Ended" && Exit.isSuccess(probed.status.exit), "the answer ends it")

            const status = yield* Effect.forkChild(router.request(mcpStatus, {}))
            const requestId = (yield* wire.awaitWritten(isRequest("mcp_status"))).request_id!
            assert.strictEqual(
              yield* Metric.value(Metric.withAttributes(Telemetry.pendingControlRequests, series)).pipe(
                Effect.map((state) => state.value)
              ),
              1
            )
            yield* wire.emit(success(requestId, { mcpServers: [] }))
            yield* Fiber.join(status)
            const outbound = spans.filter((span) => span.name === Telemetry.spans.outbound)
            assert.lengthOf(outbound, 1)
            assert.strictEqual(outbound[0].kind, "client")
            assert.strictEqual(outbound[0].attributes.get(Telemetry.attributes.requestId), requestId)
            assert.strictEqual(outbound[0].attributes.get(Telemetry.attributes.subtype), "mcp_status")
            assert.strictEqual(
              yield* Metric.value(Metric.withAttributes(Telemetry.pendingControlRequests, series)).pipe(
                Effect.map((state) => state.value)
              ),
              0
            )

            yield* settle
            assert.strictEqual(yield* count(Telemetry.linesDecoded), 7)
            assert.strictEqual(yield* count(Telemetry.unknownMessages), 1)
            assert.strictEqual(yield* count(Telemetry.protocolErrors), 1)
          })
      ).pipe(
        quiet,
        Effect.provideService(Tracer.Tracer, tracer),
        Effect.provideService(Metric.CurrentMetricAttributes, series)
      )
    })
  })

  describe(`ControlRouter: inbound requests (${shape} lines)`, () => {
    it.effect("inbound requests run concurrently; control_cancel_request interrupts the one it names, which gets no answer", () =>
      Effect.gen(function*() {
        const started: Array<string> = []
        const finalized: Array<string> = []
        const release = yield* Deferred.make<void>()
        const handler = probe((_, { requestId }) =>
          ControlRouter.answerWith(
            Effect.sync(() => started.push(requestId)).pipe(
              Effect.andThen(Deferred.await(release)),
              Effect.as({ answered: requestId }),
              Effect.onInterrupt(() => Effect.sync(() => finalized.push(requestId)))
            )
          )
        )
        yield* withRouter(shape, { handlers: [handler] }, (_, wire) =>
          Effect.gen(function*() {
            yield* wire.emit(inbound("keep-1", { subtype: "probe" }), inbound("cut-1", { subtype: "probe" }))
            yield* settle
            assert.deepStrictEqual(started, ["keep-1", "cut-1"], "both run before either answers")
            yield* wire.emit({ type: "control_cancel_request", request_id: "cut-1" })
            yield* settle
            assert.deepStrictEqual(finalized, ["cut-1"], "the cancelled handler's finalizer ran")
            yield* Deferred.succeed(release, undefined)
            const reply = yield* replyTo(wire, "keep-1")
            assert.deepStrictEqual(reply.response, {
              subtype: "success",
              request_id: "keep-1",
              response: { answered: "keep-1" }
            })
            yield* settle
            assert.deepStrictEqual(
              wire.written().map((written) => written.response?.request_id),
              ["keep-1"],
              "a cancelled request gets no answer"
            )
          }))
      }))

    it.effect("a cancelled guarded handler is not answered by its fallback at the deadline", () =>
      Effect.gen(function*() {
        const finalized = yield* Deferred.make<void>()
        const policy: GuardedRun.Policy<unknown> = {
          kind: "permission",
          fallsBack: "fell back to deny",
          validate: Result.succeed,
          fallback: () => ({ behavior: "deny", message: "fallback" }),
          decisionOf: () => "deny"
        }
        const handler = probe(() =>
          ControlRouter.guarded({
            policy,
            call: {
              subject: "permission gate",
              evaluate: () => Effect.onInterrupt(Effect.never, () => Deferred.succeed(finalized, undefined)),
              timeout: GuardedRun.defaultTimeouts.permission,
              annotations: () => ({})
            }
          })
        )
        yield* withRouter(shape, { handlers: [handler] }, (_, wire) =>
          Effect.gen(function*() {
            yield* wire.emit(inbound("cut-1", { subtype: "probe" }), inbound("timed-1", { subtype: "probe" }))
            yield* settle
            yield* wire.emit({ type: "control_cancel_request", request_id: "cut-1" })
            yield* Deferred.await(finalized)
            // Well past the 60 s deadline: the other request's fallback answers, the cancelled one stays silent.
            yield* TestClock.adjust("2 minutes")
            const reply = yield* replyTo(wire, "timed-1")
            assert.deepStrictEqual(reply.response?.response, { behavior: "deny", message: "fallback" })
            assert.deepStrictEqual(wire.written().map((written) => written.response?.request_id), ["timed-1"])
          })).pipe(quiet)
      }))

    it.effect("an inbound request of an unknown subtype gets an error reply naming it, and the router goes on", () =>
      withRouter(shape, { handlers: [probe(() => ControlRouter.answerWith(Effect.succeed({ ok: true })))] }, (
        _,
        wire
      ) =>
        Effect.gen(function*() {
          yield* wire.emit(inbound("odd-1", { subtype: "definitely_not_a_subtype", payload: 1 }))
          const reply = yield* replyTo(wire, "odd-1")
          assert.strictEqual(reply.response?.subtype, "error")
          assert.include(reply.response?.error, "definitely_not_a_subtype")
          yield* wire.emit(inbound("probe-1", { subtype: "probe" }))
          assert.deepStrictEqual((yield* replyTo(wire, "probe-1")).response?.response, { ok: true })
        })))

    it.effect("a request that does not decode is answered by its handler's undecodable, else with an error reply", () => {
      const seen: Array<unknown> = []
      const canUseTool: ControlRouter.InboundHandler = {
        subtype: "can_use_tool",
        handle: () => ControlRouter.answerWith(Effect.succeed({ behavior: "allow" })),
        undecodable: (raw) => {
          seen.push(raw)
          return { behavior: "deny", message: "the SDK could not read this request" }
        }
      }
      const hook: ControlRouter.InboundHandler = {
        subtype: "hook_callback",
        handle: () => ControlRouter.answerWith(Effect.succeed({}))
      }
      return withRouter(shape, { handlers: [canUseTool, hook] }, (_, wire) =>
        Effect.gen(function*() {
          const raw = { subtype: "can_use_tool", tool_name: 42, input: "not an object" }
          yield* wire.emit(inbound("bad-1", raw), inbound("bad-2", { subtype: "hook_callback", callback_id: 7 }))
          const denied = yield* replyTo(wire, "bad-1")
          assert.deepStrictEqual(denied.response, {
            subtype: "success",
            request_id: "bad-1",
            response: { behavior: "deny", message: "the SDK could not read this request" }
          })
          assert.deepStrictEqual(seen, [raw], "the handler sees the raw request")
          const refused = yield* replyTo(wire, "bad-2")
          assert.strictEqual(refused.response?.subtype, "error")
          assert.include(refused.response?.error, "could not read this hook_callback request")
        })).pipe(quiet)
    })

    it.effect("a handler that fails with InboundHandlerError gets an error reply carrying its message; a defect, a generic one", () =>
      withRouter(shape, {
        handlers: [
          probe(() =>
            ControlRouter.answerWith(new ControlRouter.InboundHandlerError({ message: "no such server: x" }))
          ),
          {
            subtype: "defective",
            handle: () => ControlRouter.answerWith(Effect.die(new Error("a bug with a secret inside")))
          }
        ]
      }, (_, wire) =>
        Effect.gen(function*() {
          yield* wire.emit(inbound("fail-1", { subtype: "probe" }), inbound("die-1", { subtype: "defective" }))
          const failed = yield* replyTo(wire, "fail-1")
          assert.deepStrictEqual(failed.response, {
            subtype: "error",
            request_id: "fail-1",
            error: "no such server: x"
          })
          const died = yield* replyTo(wire, "die-1")
          assert.deepStrictEqual(died.response, {
            subtype: "error",
            request_id: "die-1",
            error: "defective handler failed"
          })
        })).pipe(quiet))

    it.effect("an answer JSON cannot write gets an error reply; the next request is answered", () => {
      let asked = 0
      return withRouter(shape, {
        handlers: [probe(() => ControlRouter.answerWith(Effect.sync(() => ++asked === 1 ? { n: 1n } : { n: 1 })))]
      }, (_, wire) =>
        Effect.gen(function*() {
          yield* wire.emit(inbound("bigint-1", { subtype: "probe" }))
          const first = yield* replyTo(wire, "bigint-1")
          assert.strictEqual(first.response?.subtype, "error")
          assert.include(first.response?.error, "could not encode its answer")
          yield* wire.emit(inbound("plain-1", { subtype: "probe" }))
          assert.deepStrictEqual((yield* replyTo(wire, "plain-1")).response?.response, { n: 1 })
        })).pipe(quiet)
    })

    it.effect("a slow consumer never delays a control answer", () =>
      withRouter(shape, { handlers: [probe(() => ControlRouter.answerWith(Effect.succeed({ ok: true })))] }, (
        router,
        wire
      ) =>
        Effect.gen(function*() {
          // A consumer stuck on its first message, and many messages behind it.
          yield* Effect.forkChild(Stream.runForEach(Stream.fromQueue(router.messages), () => Effect.never))
          yield* wire.emit(...Array.from({ length: 5_000 }, (_, i) => assistantText(`line ${i}`)))
          // The messages are routed before the request is read, in a read of its own.
          yield* settle
          yield* wire.emit(inbound("probe-1", { subtype: "probe" }))
          const reply = yield* TestClock.withLive(Effect.timeoutOption(replyTo(wire, "probe-1"), "2 seconds"))
          assert.deepStrictEqual(Option.getOrUndefined(reply)?.response?.response, { ok: true })
        })))

    it.effect("handlers see the request, its id and the log annotations of the moment; the reply carries the id", () => {
      const annotations: Array<unknown> = []
      let turn = 0
      return withRouter(shape, {
        logAnnotations: () => ({ turn }),
        handlers: [
          probe((request, { requestId }) =>
            ControlRouter.answerWith(
              Effect.flatMap(
                Effect.service(References.CurrentLogAnnotations),
                (current) =>
                  Effect.sync(() => {
                    annotations.push(current)
                    return { requestId, echo: (request as { readonly echo?: unknown }).echo }
                  })
              )
            )
          )
        ]
      }, (_, wire) =>
        Effect.gen(function*() {
          turn = 1
          yield* wire.emit(inbound("one", { subtype: "probe", echo: "first" }))
          assert.deepStrictEqual((yield* replyTo(wire, "one")).response?.response, { requestId: "one", echo: "first" })
          turn = 2
          yield* wire.emit(inbound("two", { subtype: "probe", echo: "second" }))
          assert.deepStrictEqual((yield* replyTo(wire, "two")).response?.response, { requestId: "two", echo: "second" })
          assert.deepStrictEqual(annotations, [{ turn: 1 }, { turn: 2 }])
        }))
    })
  })
}
