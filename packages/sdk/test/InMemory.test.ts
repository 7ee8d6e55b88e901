/**
 * The router and the session over an in-memory CLI (the testkit's FakeCli):
 * no process, no model, no real time. What the CLI does is scripted line by
 * line (lines recorded from CLI 2.1.328), so that every edge of the protocol
 * the real CLI reaches only by accident — a cancel mid-handler, an exit mid-
 * turn, two turns in one read, an answer that does not decode — is reached on
 * purpose, in milliseconds.
 *
 * The behaviours both suites share (test/utils/behaviours.ts) run here too,
 * against the fake, to prove the fake and the real CLI agree. The router on its
 * own (takeMessages, answers JSON cannot write) is test/ControlRouter.test.ts.
 */
import { FakeCli } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it, vi } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as References from "effect/References"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import {
  ClaudeCode,
  type ClaudeError,
  HookLayer,
  HookResult,
  PermissionGate,
  PermissionResult,
  type Protocol
} from "../src/index.js"
import { behaviours, type Scenario } from "./utils/behaviours.js"

// Nothing here waits on a process or a network: a test that hangs has failed.
vi.setConfig({ testTimeout: 5_000 })

// -----------------------------------------------------------------------------
// The fake, and how a test runs a session over it
// -----------------------------------------------------------------------------

// No CLI is spawned: any existing executable keeps the locator out of the way.
const claude = ClaudeCode.layer({ executable: process.execPath }).pipe(
  Layer.provideMerge(NodeServices.layer),
  Layer.orDie
)

type Cli = FakeCli.FakeCli.Service

/**
 * Runs `body` with a fresh fake (one per session) in a scope of its own; then
 * checks that every line the SDK wrote decoded with the stdin Schema (some bad
 * lines kill the real CLI).
 */
const withFake = <A, E, R>(script: FakeCli.FakeCli.Script, body: (cli: Cli) => Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const cli = yield* FakeCli.FakeCli
    const result = yield* Effect.scoped(body(cli))
    const invalid = (yield* cli.written).filter((written) => Result.isFailure(written.message))
    assert.deepStrictEqual(invalid.map((written) => written.line), [], "every line the SDK wrote decodes")
    return result
  }).pipe(Effect.provide(FakeCli.layer(script)), Effect.provide(claude))

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

// What the SDK wrote to the fake, decoded (`withFake` checks that every line decodes).
const writtenMessages = (cli: Cli) =>
  Effect.map(
    cli.written,
    (lines) => lines.flatMap((line) => Result.isSuccess(line.message) ? [line.message.success] : [])
  )

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined

// A prompt whose reading throws, as one from a closed store or a revoked Proxy would.
const unreadablePrompt: Protocol.UserInput = {
  type: "user",
  get message(): Protocol.UserInput["message"] {
    throw new Error("the prompt's store is closed")
  },
  parent_tool_use_id: null,
  session_id: ""
}

const textOf = (messages: ReadonlyArray<Protocol.Message>) =>
  messages.flatMap((message) =>
    message.type === "assistant" ? (message as any).message.content.map((block: any) => block.text) : []
  )

const preToolUse = (command: string) => ({
  hook_event_name: "PreToolUse",
  permission_mode: "default",
  tool_name: "Bash",
  tool_input: { command, description: "run a command" },
  tool_use_id: "toolu_mwr25czf0"
})

const postToolUse = (command: string) => ({
  hook_event_name: "PostToolUse",
  permission_mode: "default",
  tool_name: "Bash",
  tool_input: { command, description: "run a command" },
  tool_response: { stdout: "", stderr: "", interrupted: false },
  tool_use_id: "toolu_mwr25czf0"
})

// -----------------------------------------------------------------------------
// The shared behaviours, against the fake
// -----------------------------------------------------------------------------

/**
 * A turn as the CLI plays it: for Bash, the PreToolUse hooks first (a deny
 * stops the tool, and its reason is the tool's error), else the permission
 * gate; then the model's answer and the result.
 */
const play = (scenario: Scenario): FakeCli.FakeCli.Turn => {
  if (scenario._tag === "Text") return FakeCli.textTurn(scenario.text)
  return (cli) =>
    Effect.gen(function*() {
      const toolUseId = "toolu_mwr25czf0"
      yield* cli.emit(FakeCli.state("running"), FakeCli.init(), FakeCli.toolUse("Bash", scenario.input, toolUseId))
      const hooks = yield* cli.hook({ ...preToolUse(scenario.input.command), tool_input: scenario.input }, {
        toolUseId
      })
      const denied = hooks.map(FakeCli.responseOf).find((output) =>
        output?.hookSpecificOutput?.permissionDecision === "deny"
      )
      if (denied !== undefined) {
        const reason = denied.hookSpecificOutput.permissionDecisionReason
        yield* cli.emit(FakeCli.toolResult(`PreToolUse:Bash hook error: ${reason}`, { isError: true, toolUseId }))
      } else {
        const decision = FakeCli.responseOf(yield* cli.canUseTool("Bash", scenario.input, { toolUseId }))
        yield* cli.emit(
          decision?.behavior === "allow"
            ? FakeCli.toolResult("", { toolUseId })
            : FakeCli.toolResult(decision?.message ?? "denied", { isError: true, toolUseId })
        )
      }
      yield* cli.emit(
        FakeCli.assistantText(scenario.then),
        FakeCli.result({ result: scenario.then }),
        FakeCli.state("idle")
      )
    })
}

behaviours({
  name: "FakeCli",
  live: false,
  timeout: 5_000,
  layer: (scenario) => Layer.merge(FakeCli.layer({ turns: [play(scenario)] }), claude)
})

// -----------------------------------------------------------------------------
// The router
// -----------------------------------------------------------------------------

describe("the control router in a session over FakeCli", () => {
  it.effect("control responses reach their request by id, whatever their order; unknown ids are ignored", () => {
    let calls = 0
    return withFake({
      control: {
        // The first request is answered only after the second one.
        mcp_status: () => {
          const call = ++calls
          return Effect.succeed({ mcpServers: [{ name: `server-${call}`, status: "connected" }] }).pipe(
            call === 1 ? Effect.delay("1 second") : (self) => self
          )
        }
      }
    }, (cli) =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        // An echoed response to a request the SDK never sent (--replay-user-messages does that): ignored.
        yield* cli.emit({ type: "control_response", response: { subtype: "success", request_id: "not-ours" } })
        const first = yield* Effect.forkChild(session.mcpServerStatus)
        yield* cli.awaitWritten((m) => (m as any).request?.subtype === "mcp_status")
        const second = yield* session.mcpServerStatus
        assert.isUndefined(first.pollUnsafe(), "the first request is still waiting")
        yield* TestClock.adjust("1 second")
        assert.deepStrictEqual((yield* Fiber.join(first)).map((s) => s.name), ["server-1"])
        assert.deepStrictEqual(second.map((s) => s.name), ["server-2"])
        const ids = (yield* cli.written).flatMap(({ message }) =>
          Result.isSuccess(message) && (message.success as any).request?.subtype === "mcp_status"
            ? [(message.success as any).request_id]
            : []
        )
        assert.strictEqual(new Set(ids).size, 2, "each request has its own id")
      }))
  })

  it.effect("control_cancel_request interrupts the running handler: its finalizer runs, no answer is sent", () => {
    const started = Deferred.makeUnsafe<void>()
    const finalized = Deferred.makeUnsafe<void>()
    const gate = PermissionGate.layer(() =>
      Deferred.succeed(started, void 0).pipe(
        Effect.andThen(Effect.never),
        Effect.onInterrupt(() => Deferred.succeed(finalized, void 0))
      )
    )
    return withFake({}, (cli) =>
      Effect.gen(function*() {
        yield* ClaudeCode.session()
        const asked = yield* Effect.forkChild(cli.canUseTool("Bash", { command: "sleep 100" }, { requestId: "cut-1" }))
        yield* Deferred.await(started)
        yield* cli.cancel("cut-1")
        yield* TestClock.withLive(Effect.timeout(Deferred.await(finalized), "1 second"))
        // Well past the gate's own 60 s timeout: a fallback would have answered by now if the fiber lived.
        yield* TestClock.adjust("2 minutes")
        assert.isTrue(Option.isNone(yield* cli.answered("cut-1")), "a cancelled request gets no answer")
        yield* Fiber.interrupt(asked)
      })).pipe(Effect.provide(gate))
  })

  it.effect("an inbound request of an unknown subtype gets an error reply, and the session goes on", () =>
    withFake({ turns: [FakeCli.textTurn("still here")] }, (cli) =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const answer = yield* cli.request({ subtype: "definitely_not_a_subtype", payload: 1 })
        assert.strictEqual(answer.subtype, "error")
        assert.include((answer as { readonly error: string }).error, "definitely_not_a_subtype")
        assert.deepStrictEqual(textOf(yield* collect(session.turn("hi"))), ["still here"])
      })))

  it.effect("a can_use_tool request that does not decode is denied, not left waiting", () =>
    withFake({}, (cli) =>
      Effect.gen(function*() {
        yield* ClaudeCode.session()
        const answer = yield* cli.request({ subtype: "can_use_tool", tool_name: 42, input: "not an object" })
        assert.strictEqual(answer.subtype, "success")
        assert.strictEqual(FakeCli.responseOf(answer).behavior, "deny")
      })).pipe(Effect.provide(PermissionGate.layer(() => Effect.succeed(PermissionResult.allow())))))

  it.effect("garbage and unknown lines are skipped or kept, never fatal", () =>
    withFake({
      turns: [[
        FakeCli.state("running"),
        FakeCli.init(),
        "not json at all {",
        "null",
        "[1,2]",
        { type: "brand_new_message_type", detail: "from a newer CLI" },
        FakeCli.assistantText("fine"),
        FakeCli.result({ result: "fine" }),
        FakeCli.state("idle")
      ]]
    }, (_cli) =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const messages = yield* collect(session.turn("hi"))
        assert.deepStrictEqual(textOf(messages), ["fine"])
        assert.isDefined(
          messages.find((message) => (message as { readonly type: string }).type === "brand_new_message_type"),
          "an unknown message type is kept"
        )
      })))

  it.effect("a slow consumer never delays a control answer", () =>
    withFake({}, (cli) =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        // A consumer stuck on its first message, and many messages behind it.
        yield* Effect.forkChild(Stream.runForEach(session.messages, () => Effect.never))
        yield* cli.emit(FakeCli.state("running"), FakeCli.init())
        yield* cli.emit(...Array.from({ length: 5_000 }, (_, i) => FakeCli.assistantText(`line ${i}`)))
        const answer = yield* cli.canUseTool("Bash", { command: "ls" })
        assert.strictEqual(FakeCli.responseOf(answer).behavior, "allow")
      })).pipe(Effect.provide(PermissionGate.layer(() => Effect.succeed(PermissionResult.allow())))))

  it.effect("a control response that does not decode fails with ControlError InvalidResponse; an error reply with ErrorResponse", () =>
    withFake({
      control: {
        get_context_usage: () => Effect.succeed({ categories: "not a list", totalTokens: "many" }),
        set_permission_mode: () => Effect.fail("Cannot set permission mode: must be one of acceptEdits, default")
      },
      turns: [FakeCli.textTurn("still fine")]
    }, () =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const invalid = failureOf(yield* Effect.exit(session.getContextUsage)) as ClaudeError.ControlError | undefined
        assert.deepStrictEqual([invalid?._tag, invalid?.reason, invalid?.subtype], [
          "ControlError",
          "InvalidResponse",
          "get_context_usage"
        ])
        const refused = failureOf(yield* Effect.exit(session.setPermissionMode("plan"))) as
          | ClaudeError.ControlError
          | undefined
        assert.deepStrictEqual([refused?._tag, refused?.reason], ["ControlError", "ErrorResponse"])
        assert.include(refused?.error, "must be one of")
        // Neither is fatal to the session.
        assert.deepStrictEqual(textOf(yield* collect(session.turn("hi"))), ["still fine"])
      })))

  it.effect("pending outbound requests fail with ControlError Closed when the CLI exits", () =>
    withFake({ control: { set_model: () => Effect.never } }, (cli) =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const pending = yield* Effect.forkChild(Effect.exit(session.setModel("claude-sonnet-5-5")))
        yield* cli.awaitWritten((m) => (m as any).request?.subtype === "set_model")
        yield* cli.exit({ code: 0 })
        const error = failureOf(yield* Fiber.join(pending)) as ClaudeError.ControlError | undefined
        assert.strictEqual(error?._tag, "ControlError")
        assert.strictEqual(error?.reason, "Closed")
        assert.strictEqual(error?.subtype, "set_model")
      })))
})

// -----------------------------------------------------------------------------
// Hooks and the permission gate: every way a handler can go wrong is answered
// -----------------------------------------------------------------------------

const cyclic = (): Record<string, unknown> => {
  const value: Record<string, unknown> = { command: "ls" }
  value.self = value
  return value
}

// Each way a handler can go wrong, for a hook and for the gate.
const misbehaviours: ReadonlyArray<{
  readonly how: string
  readonly hook: () => Effect.Effect<any, any>
  readonly gate: () => Effect.Effect<any, any>
}> = [
  { how: "fails", hook: () => Effect.fail("backend down"), gate: () => Effect.fail("backend down") },
  { how: "dies", hook: () => Effect.die(new Error("a bug")), gate: () => Effect.die(new Error("a bug")) },
  {
    how: "throws before returning an effect",
    hook: () => {
      throw new Error("thrown synchronously")
    },
    gate: () => {
      throw new Error("thrown synchronously")
    }
  },
  {
    how: "answers garbage",
    hook: () => Effect.succeed({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "maybe" } }),
    gate: () => Effect.succeed({ behavior: "maybe" })
  },
  {
    how: "answers what JSON cannot hold",
    hook: () => Effect.succeed(HookResult.updatedInput(cyclic())),
    gate: () => Effect.succeed(PermissionResult.allow({ updatedInput: cyclic() }))
  }
]

describe("fallbacks over FakeCli", () => {
  for (const { gate, hook, how } of misbehaviours) {
    it.effect(`a hook that ${how}: PreToolUse is denied, PostToolUse gets {}`, () =>
      withFake({}, (cli) =>
        Effect.gen(function*() {
          yield* ClaudeCode.session()
          const [pre] = yield* cli.hook(preToolUse("rm -rf /"))
          assert.strictEqual(pre?.subtype, "success")
          assert.strictEqual(FakeCli.responseOf(pre!).hookSpecificOutput?.permissionDecision, "deny")
          const [post] = yield* cli.hook(postToolUse("ls"))
          assert.deepStrictEqual(post, { subtype: "success", request_id: post!.request_id, response: {} })
        })).pipe(Effect.provide(Layer.mergeAll(
          HookLayer.preToolUse({ matcher: "Bash" }, hook),
          HookLayer.postToolUse({ matcher: "Bash" }, hook)
        ))))

    it.effect(`a permission gate that ${how}: the tool is denied`, () =>
      withFake({}, (cli) =>
        Effect.gen(function*() {
          yield* ClaudeCode.session()
          const answer = yield* cli.canUseTool("Bash", { command: "rm -rf /" })
          assert.strictEqual(answer.subtype, "success")
          assert.strictEqual(FakeCli.responseOf(answer).behavior, "deny")
        })).pipe(Effect.provide(PermissionGate.layer(gate))))
  }

  it.effect("a hook and a gate that outlive their timeouts are answered deny at the deadline, not before", () =>
    withFake({}, (cli) =>
      Effect.gen(function*() {
        yield* ClaudeCode.session()
        const hook = yield* Effect.forkChild(cli.hook(preToolUse("sleep 1000")))
        const gate = yield* Effect.forkChild(cli.canUseTool("Bash", { command: "sleep 1000" }))
        yield* TestClock.adjust("4 seconds")
        assert.isUndefined(hook.pollUnsafe(), "the hook still has a second")
        assert.isUndefined(gate.pollUnsafe(), "the gate still has a second")
        yield* TestClock.adjust("1 second")
        const [pre] = yield* Fiber.join(hook)
        assert.strictEqual(FakeCli.responseOf(pre!).hookSpecificOutput?.permissionDecision, "deny")
        assert.strictEqual(FakeCli.responseOf(yield* Fiber.join(gate)).behavior, "deny")
      })).pipe(Effect.provide(Layer.mergeAll(
        HookLayer.preToolUse({ matcher: "Bash", timeout: "5 seconds" }, () => Effect.never),
        PermissionGate.layer(() => Effect.never, { timeout: "5 seconds" })
      ))))
})

// -----------------------------------------------------------------------------
// The session: turns, exits, failures
// -----------------------------------------------------------------------------

describe("Session over FakeCli", () => {
  it.effect("a query's prompt is encoded while the CLI starts, and written once the initialize answer is in", () => {
    // Each event once: the encoder reads the prompt's message more than once (check, then JSON).
    const events: Array<string> = []
    const note = (event: string) => {
      if (!events.includes(event)) events.push(event)
    }
    const prompt: Protocol.UserInput = {
      type: "user",
      get message() {
        note("prompt read")
        return { role: "user" as const, content: "hello" }
      },
      parent_tool_use_id: null,
      session_id: ""
    }
    return withFake({
      initialize: () => Effect.as(Effect.sync(() => note("initialize answered")), FakeCli.initializeResponse),
      turns: [(cli, message) =>
        Effect.andThen(
          Effect.sync(() => note(`prompt written: ${JSON.stringify((message as any).message.content)}`)),
          cli.emit(...FakeCli.textTurn("hi"))
        )]
    }, (cli) =>
      Effect.gen(function*() {
        const messages = yield* collect(ClaudeCode.query(prompt))
        assert.strictEqual((messages[messages.length - 1] as any).result, "hi")
        assert.deepStrictEqual(events, ["prompt read", "initialize answered", "prompt written: \"hello\""])
        const written = yield* writtenMessages(cli)
        assert.deepStrictEqual(written.map((message) => message.type), ["control_request", "user"])
      }))
  })

  it.effect("a query whose initialize is rejected fails with InitializeError, and its prompt is never written", () =>
    withFake(
      { initialize: () => Effect.fail("hooks: PreToolUse matcher is not a valid pattern") },
      (cli) =>
        Effect.gen(function*() {
          const error = failureOf(yield* Effect.exit(collect(ClaudeCode.query("rm -rf build"))))
          assert.strictEqual(error?._tag, "InitializeError")
          assert.strictEqual(error?._tag === "InitializeError" ? error.reason : undefined, "Rejected")
          const written = yield* writtenMessages(cli)
          assert.deepStrictEqual(written.map((message) => message.type), ["control_request"])
        })
    ))

  it.effect("a prompt that throws as it is read fails its query with a ProtocolError, after the initialize", () =>
    // With `verbatimPrompts` the session reads the prompt itself (to mark it), before the codec does.
    Effect.forEach([{}, { verbatimPrompts: true }], (options) =>
      withFake({}, (cli) =>
        Effect.gen(function*() {
          const error = failureOf(yield* Effect.exit(collect(ClaudeCode.query(unreadablePrompt, options))))
          assert.strictEqual(error?._tag, "ProtocolError")
          assert.strictEqual(error?._tag === "ProtocolError" ? error.reason : undefined, "EncodeFailed")
          assert.include(error?.message, "the prompt's store is closed")
          const written = yield* writtenMessages(cli)
          assert.strictEqual((written[0] as any)?.request?.subtype, "initialize")
          assert.isFalse(written.some((message) => message.type === "user"))
        }))))

  it.effect("a prompt that fails to encode starts no turn: the session's close interrupts nothing", () =>
    withFake({}, (cli) =>
      Effect.gen(function*() {
        yield* Effect.scoped(Effect.gen(function*() {
          const session = yield* ClaudeCode.session()
          const error = failureOf(yield* Effect.exit(session.send(unreadablePrompt)))
          assert.strictEqual(error?._tag === "ProtocolError" ? error.reason : error?._tag, "EncodeFailed")
        }))
        const written = yield* writtenMessages(cli)
        assert.deepStrictEqual(
          written.flatMap((message) => message.type === "control_request" ? [(message as any).request.subtype] : []),
          ["initialize"]
        )
      })))

  it.effect("a session's first turn with another prompt than the one prepared writes that prompt", () =>
    withFake({ turns: [FakeCli.textTurn("uno")] }, (cli) =>
      Effect.gen(function*() {
        const claude = yield* ClaudeCode.ClaudeCode
        const session = yield* claude.startSession(claude.defaults, "prepared, never sent")
        yield* collect(session.turn("sent instead"))
        const prompts = (yield* writtenMessages(cli)).flatMap((message) =>
          message.type === "user" ? [(message as any).message.content] : []
        )
        assert.deepStrictEqual(prompts, ["sent instead"])
      })))

  it.effect("two turns written in one read: the first ends at its result, the next loses nothing", () =>
    withFake({ turns: [[...FakeCli.textTurn("uno"), ...FakeCli.textTurn("dos")]] }, () =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const first = yield* collect(session.turn("one"))
        const second = yield* collect(session.receiveTurn)
        assert.deepStrictEqual(textOf(first), ["uno"])
        assert.strictEqual((first[first.length - 1] as any).result, "uno")
        assert.deepStrictEqual(textOf(second), ["dos"])
        assert.strictEqual((second[second.length - 1] as any).result, "dos")
        // The idle state of the first turn opens the second; nothing was dropped between them.
        assert.strictEqual(first.length + second.length, 10 - 1)
      })))

  it.effect("the CLI exiting with code 0 mid-turn fails the turn with CliExitError duringTurn", () =>
    withFake({
      turns: [(cli) =>
        Effect.andThen(
          cli.emit(FakeCli.state("running"), FakeCli.init(), FakeCli.assistantText("half an ans")),
          cli.exit({ code: 0 })
        )]
    }, () =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const error = failureOf(yield* Effect.exit(collect(session.turn("hi"))))
        assert.strictEqual(error?._tag, "CliExitError")
        if (error?._tag !== "CliExitError") return
        assert.strictEqual(error.exitCode, 0)
        assert.isTrue(error.duringTurn)
      })))

  it.effect("a signal mid-turn fails the turn with CliExitError Signaled and the stderr tail", () =>
    withFake({
      turns: [(cli) =>
        Effect.all([
          cli.emit(FakeCli.state("running"), FakeCli.init()),
          cli.stderr("killed by the OOM killer\n"),
          cli.exit({ signal: "SIGKILL" })
        ])]
    }, () =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const error = failureOf(yield* Effect.exit(collect(session.turn("hi"))))
        assert.strictEqual(error?._tag, "CliExitError")
        if (error?._tag !== "CliExitError") return
        assert.deepStrictEqual([error.reason, error.signal, error.duringTurn], ["Signaled", "SIGKILL", true])
        assert.include(error.stderrTail, "OOM killer")
      })))

  it.effect("exit 1 while idle after an error result ends the messages normally", () =>
    withFake({
      turns: [[
        FakeCli.state("running"),
        FakeCli.init(),
        FakeCli.apiError("server_error", "API Error: 529 fake 529."),
        FakeCli.result({ isError: true, result: "API Error: 529 fake 529." }),
        FakeCli.state("idle")
      ]]
    }, (cli) =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const turn = yield* collect(session.turn("hi"))
        assert.isTrue((turn[turn.length - 1] as any).is_error)
        yield* cli.exit({ code: 1 })
        // What is left (the idle state) is read, and the messages end without an error.
        const rest = yield* collect(session.messages)
        assert.deepStrictEqual(rest.map((message) => (message as any).subtype), ["session_state_changed"])
      })))

  it.effect("exit 1 while idle after a successful result fails the messages", () =>
    withFake({ turns: [FakeCli.textTurn("ok")] }, (cli) =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        yield* collect(session.turn("hi"))
        yield* cli.exit({ code: 1 })
        const error = failureOf(yield* Effect.exit(collect(session.messages)))
        assert.strictEqual(error?._tag, "CliExitError")
        if (error?._tag !== "CliExitError") return
        assert.strictEqual(error.exitCode, 1)
        assert.isUndefined(error.duringTurn)
      })))

  it.effect("a turn that failed for want of credentials fails with ResultError AuthenticationFailed", () =>
    withFake({
      turns: [[
        FakeCli.state("running"),
        FakeCli.init(),
        FakeCli.apiError("authentication_failed", "Not logged in · Please run /login"),
        FakeCli.result({ isError: true, result: "Not logged in · Please run /login" }),
        FakeCli.state("idle")
      ]]
    }, () =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const error = failureOf(yield* Effect.exit(collect(session.turn("hi"))))
        assert.strictEqual(error?._tag, "ResultError")
        if (error?._tag !== "ResultError") return
        assert.strictEqual(error.reason, "AuthenticationFailed")
        assert.include(error.errors.join(" "), "/login")
      })))

  it.effect("the session writes what the CLI reads: initialize with the hooks, then the user message", () =>
    withFake({ turns: [FakeCli.textTurn("ok")] }, (cli) =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        yield* collect(session.turn("hello there"))
        const initialize = (yield* cli.initializeRequest) as any
        assert.deepStrictEqual(Object.keys(initialize.request.hooks ?? {}), ["PreToolUse"])
        const written = yield* writtenMessages(cli)
        const user = written.find((message) => message.type === "user") as any
        assert.strictEqual(user?.message?.content, "hello there")
        assert.strictEqual(session.initialization.claude_code_version, "2.1.328")
      })).pipe(Effect.provide(HookLayer.preToolUse({}, () => Effect.succeed(HookResult.empty)))))

  it.effect("a line holding a secret is logged redacted", () => {
    const secret = "sk-ant-api03-in-memory-secret-0123456789abcdef"
    const entries: Array<string> = []
    const logger = Logger.make(({ fiber, message }) => {
      entries.push(JSON.stringify({ message, annotations: fiber.getRef(References.CurrentLogAnnotations) }))
    })
    return withFake({
      turns: [[
        FakeCli.state("running"),
        FakeCli.init(),
        `oops, not json: ${secret}`,
        FakeCli.assistantText("fine"),
        FakeCli.result({ result: "fine" }),
        FakeCli.state("idle")
      ]]
    }, () =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session({ env: { ANTHROPIC_API_KEY: secret } })
        yield* collect(session.turn("hi"))
        const warning = entries.find((entry) => entry.includes("not a valid message"))
        assert.isDefined(warning, "the unreadable line is reported")
        assert.include(warning, "oops, not json")
        assert.include(warning, "<redacted>")
        for (const entry of entries) assert.notInclude(entry, secret.slice(8, 24))
      })).pipe(Effect.provide(Logger.layer([logger])))
  })
})
