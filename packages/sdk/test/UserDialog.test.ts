/**
 * User dialogs (`request_user_dialog`) at the router's boundary: a line
 * decoded by the Protocol codec, handed to `UserDialog.inboundHandler` as the
 * router hands it, and the answer the router writes (the guarded run's
 * settled JSON, or the error reply of a failed Effect). The session halves
 * run on the real CLI at the end, behind a tap that sends the session one
 * dialog (the CLI 2.1.328 sends them only for flows an offline session cannot
 * reach) and copies what the SDK writes: `supportedDialogKinds` in the
 * initialize request, the SDK's reply to the dialog, and the turn.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Ref from "effect/Ref"
import * as References from "effect/References"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"
import * as ClaudeCode from "../src/ClaudeCode.js"
import * as CliLocator from "../src/CliLocator.js"
import type * as GuardedRun from "../src/internal/guardedRun.js"
import * as Protocol from "../src/Protocol.js"
import * as UserDialog from "../src/UserDialog.js"
import { harness, Workspace } from "./utils/harness.js"
import { controlLine, replyTo } from "./utils/inbound.js"

/** The warnings logged while `effect` runs, each with its cause. */
const captureWarnings = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make<unknown, void>(({ cause, logLevel, message }) => {
      if (logLevel !== "Warn") return
      const parts = Array.isArray(message) ? message : [message]
      lines.push([...parts.map(String), ...(cause.reasons.length === 0 ? [] : [Cause.pretty(cause)])].join(" "))
    })
    const value = yield* effect.pipe(Effect.provide(Logger.layer([logger])))
    return { value, warnings: lines }
  })

// -----------------------------------------------------------------------------

const refusal = {
  subtype: "request_user_dialog",
  dialog_kind: "refusal_fallback_prompt",
  payload: { originalModel: "claude-fable-5", fallbackModel: "claude-opus-4-8", retractedMessageUuids: [] },
  tool_use_id: "toolu_01"
}

const cancelled = { response: { behavior: "cancelled" } }

// An answer a handler typed loosely might give.
const maybe: unknown = { behavior: "maybe" }

const dialogsOf = <E>(handler: UserDialog.Handler<E, never>, options: UserDialog.Options) =>
  Effect.map(UserDialog.make(handler, options), (service) => UserDialog.inboundHandler(service))

describe("UserDialog.Result", () => {
  it("completed carries the choice, cancelled nothing; both encode as themselves", () => {
    assert.deepStrictEqual(UserDialog.completed("retry_fallback"), { behavior: "completed", result: "retry_fallback" })
    assert.deepStrictEqual(UserDialog.cancelled, { behavior: "cancelled" })
    for (const result of [UserDialog.completed({ choice: ["a", 1, null] }), UserDialog.cancelled]) {
      assert.deepStrictEqual(Schema.encodeUnknownSync(UserDialog.Result)(result), result)
      assert.deepStrictEqual(Schema.decodeUnknownSync(UserDialog.Result)(JSON.parse(JSON.stringify(result))), result)
    }
    for (const answer of [{ behavior: "maybe" }, { behavior: "completed" }, "cancelled", undefined]) {
      assert.isFalse(Schema.is(UserDialog.Result)(answer), JSON.stringify(answer))
    }
  })
})

describe("UserDialog.inboundHandler", () => {
  it.effect("a declared dialog is answered by the handler, which sees the decoded request; kinds are declared once", () =>
    Effect.gen(function*() {
      const seen = yield* Ref.make<ReadonlyArray<readonly [UserDialog.Request, UserDialog.DialogContext]>>([])
      const service = yield* UserDialog.make(
        (request, context) =>
          Effect.as(
            Ref.update(seen, (all) => [...all, [request, context] as const]),
            UserDialog.completed("retry_fallback")
          ),
        { kinds: ["refusal_fallback_prompt", "enum_prompt", "refusal_fallback_prompt"] }
      )
      // What a session declares in its initialize request (`supportedDialogKinds`).
      assert.deepStrictEqual(service.kinds, ["refusal_fallback_prompt", "enum_prompt"])
      const reply = yield* replyTo(UserDialog.inboundHandler(service), controlLine(refusal, "req_9"))
      assert.deepStrictEqual(reply, { response: { behavior: "completed", result: "retry_fallback" } })
      const [[request, context]] = yield* Ref.get(seen)
      assert.strictEqual(request.dialog_kind, "refusal_fallback_prompt")
      assert.strictEqual(request.payload.fallbackModel, "claude-opus-4-8")
      assert.strictEqual(request.tool_use_id, "toolu_01")
      assert.deepStrictEqual(context, { requestId: "req_9" })
    }))

  it.effect("a kind the client did not declare is not settled: an error reply, which the CLI discards", () =>
    Effect.gen(function*() {
      const called = yield* Ref.make(false)
      const handler = yield* dialogsOf(() => Effect.as(Ref.set(called, true), UserDialog.cancelled), {
        kinds: ["enum_prompt"]
      })
      const reply = yield* replyTo(handler, controlLine(refusal))
      assert.deepStrictEqual(reply, {
        error: "the dialog kind \"refusal_fallback_prompt\" was not declared by this client"
      })
      assert.isFalse(yield* Ref.get(called))
    }))

  it.effect("a dialog request the codec cannot read gets the router's error reply, never a settled answer", () =>
    Effect.gen(function*() {
      const called = yield* Ref.make(false)
      const handler = yield* dialogsOf(() => Effect.as(Ref.set(called, true), UserDialog.completed("yes")), {
        kinds: ["refusal_fallback_prompt"]
      })
      const { dialog_kind: _, ...withoutKind } = refusal
      for (const request of [withoutKind, { ...refusal, payload: "retry?" }]) {
        assert.deepStrictEqual(yield* replyTo(handler, controlLine(request)), { error: "undecodable" })
      }
      assert.isFalse(yield* Ref.get(called))
    }))

  it.effect("a handler that fails, dies, throws or answers badly: the cancelled fallback, with a warning saying why", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<[UserDialog.Handler<string, never>, GuardedRun.FallbackReason, string]> = [
        [() => Effect.fail("no screen"), "failure", "no screen"],
        [() => Effect.die(new Error("dialog bug")), "defect", "dialog bug"],
        [
          () => {
            throw new Error("thrown before any Effect")
          },
          "defect",
          "thrown before any Effect"
        ],
        [
          () => Effect.succeed(maybe as UserDialog.Result),
          "invalid_output",
          `behavior: Expected "completed" | "cancelled", actual "maybe"`
        ],
        [() => Effect.succeed(UserDialog.completed(1n)), "invalid_output", "cannot be written as JSON"]
      ]
      for (const [dialog, reason, cause] of cases) {
        const { value, warnings } = yield* captureWarnings(
          Effect.flatMap(
            dialogsOf(dialog, { kinds: ["refusal_fallback_prompt"] }),
            (handler) => replyTo(handler, controlLine(refusal))
          )
        )
        assert.deepStrictEqual(value, cancelled, cause)
        assert.strictEqual(warnings.length, 1, cause)
        assert.include(
          warnings[0],
          `user dialog handler ("refusal_fallback_prompt") fell back to cancelled (${reason})`
        )
        assert.include(warnings[0], cause)
      }
    }))

  it.effect("a handler that outlives its timeout: cancelled at the deadline, on the Clock", () =>
    Effect.gen(function*() {
      const handler = yield* dialogsOf(() => Effect.never, { kinds: ["refusal_fallback_prompt"], timeout: "5 minutes" })
      const fiber = yield* Effect.forkChild(replyTo(handler, controlLine(refusal)), { startImmediately: true })
      yield* TestClock.adjust("299 seconds")
      assert.isUndefined(fiber.pollUnsafe(), "the user still has time")
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(yield* Fiber.join(fiber), cancelled)
    }).pipe(Effect.provide(Logger.layer([]))))

  it.effect("without a timeout of its own, the handler gets 60 s", () =>
    Effect.gen(function*() {
      const handler = yield* dialogsOf(() => Effect.never, { kinds: ["refusal_fallback_prompt"] })
      const fiber = yield* Effect.forkChild(replyTo(handler, controlLine(refusal)), { startImmediately: true })
      yield* TestClock.adjust("59 seconds")
      assert.isUndefined(fiber.pollUnsafe(), "the user still has time")
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(yield* Fiber.join(fiber), cancelled)
    }).pipe(Effect.provide(Logger.layer([]))))

  it.effect("the handler runs with the services it was made with, under the caller's log annotations", () =>
    Effect.gen(function*() {
      class Screen extends Context.Service<Screen, { readonly choose: (kind: string) => string }>()("test/Screen") {}
      const service = yield* UserDialog.make(
        (request) =>
          Effect.gen(function*() {
            const screen = yield* Screen
            const at = yield* Effect.withFiber((fiber) =>
              Effect.succeed(fiber.getRef(References.CurrentLogAnnotations).at)
            )
            return UserDialog.completed(`${screen.choose(request.dialog_kind)} at ${String(at)}`)
          }),
        { kinds: ["refusal_fallback_prompt"] }
      ).pipe(
        Effect.provideService(Screen, { choose: (kind) => `chose for ${kind}` }),
        Effect.annotateLogs("at", "make")
      )
      const reply = yield* replyTo(UserDialog.inboundHandler(service), controlLine(refusal)).pipe(
        Effect.annotateLogs("at", "call")
      )
      assert.deepStrictEqual(reply, {
        response: { behavior: "completed", result: "chose for refusal_fallback_prompt at call" }
      })
    }))
})

describe("UserDialog.respond", () => {
  it.effect("answers as a session does", () =>
    Effect.gen(function*() {
      const service = yield* UserDialog.make(
        (request) => Effect.succeed(UserDialog.completed({ kind: request.dialog_kind })),
        { kinds: ["enum_prompt"] }
      )
      const request: UserDialog.Request = { subtype: "request_user_dialog", dialog_kind: "enum_prompt", payload: {} }
      assert.deepStrictEqual(yield* UserDialog.respond(service, request, { requestId: "r" }), {
        behavior: "completed",
        result: { kind: "enum_prompt" }
      })
      const failing = yield* UserDialog.make(() => Effect.fail("no screen"), { kinds: ["enum_prompt"] })
      assert.deepStrictEqual(
        yield* UserDialog.respond(failing, request, { requestId: "r" }).pipe(Effect.provide(Logger.layer([]))),
        UserDialog.cancelled
      )
    }))
})

// One of several Arbitraries, each as likely (effect's Arbitrary composes fast-check's `oneof` from an index).
const oneOf = <A>(...arbitraries: ReadonlyArray<Arbitrary.Arbitrary<A>>): Arbitrary.Arbitrary<A> =>
  Arbitrary.flatMap(
    Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: arbitraries.length - 1 }))),
    (index) => arbitraries[index]
  )

type Dialog = UserDialog.Handler<unknown, never>

const isResult = Schema.is(UserDialog.Result)

const failingDialogs: Arbitrary.Arbitrary<Dialog> = oneOf<Dialog>(
  Arbitrary.map(Arbitrary.schema(Schema.String), (error): Dialog => () => Effect.fail(error)),
  Arbitrary.map(Arbitrary.schema(Schema.String), (message): Dialog => () => Effect.die(message)),
  Arbitrary.map(Arbitrary.schema(Schema.String), (message): Dialog => () => {
    throw new Error(message)
  }),
  Arbitrary.Constant<Dialog>(() => Effect.never),
  Arbitrary.map(
    Arbitrary.filter(Arbitrary.schema(Schema.Unknown), (answer) => !isResult(answer)),
    (answer): Dialog => () => Effect.succeed(answer as UserDialog.Result)
  ),
  Arbitrary.map(Arbitrary.schema(Schema.BigInt), (n): Dialog => () => Effect.succeed(UserDialog.completed({ n })))
)

describe("UserDialog: cancelled by default", () => {
  it.effect.prop(
    "any decodable dialog of a declared kind, any failing handler: cancelled, the CLI's default",
    [Arbitrary.schema(Protocol.UserDialogRequest), failingDialogs],
    ([request, dialog]) =>
      Effect.gen(function*() {
        const handler = yield* dialogsOf(dialog, { kinds: [request.dialog_kind], timeout: "1 second" })
        const fiber = yield* Effect.forkChild(replyTo(handler, controlLine(request)), { startImmediately: true })
        yield* TestClock.adjust("1 second")
        assert.deepStrictEqual(yield* Fiber.join(fiber), cancelled)
      }).pipe(Effect.provide(Logger.layer([]))),
    { arbitrary: { runs: 200 } }
  )
})

// -----------------------------------------------------------------------------
// The session's side, on the real CLI
// -----------------------------------------------------------------------------

// The real CLI behind a tap that sends one `refusal_fallback_prompt` dialog (request "injected-dialog") and copies
// what the SDK writes to a file.
const dialogCli = fileURLToPath(new URL("./fixtures/dialog-claude.mjs", import.meta.url))

/** The lines the SDK wrote to the CLI, as JSON. */
const writtenLines = (file: string): ReadonlyArray<any> =>
  Fs.readFileSync(file, "utf8").split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line))

/**
 * Runs one turn of a session through the tap, under `dialogs`; returns its result message, the initialize request
 * and the SDK's reply to the injected dialog (waited for, boundedly: the router answers it on a fiber of its own).
 */
const tappedTurn = (dialogs: Layer.Layer<UserDialog.UserDialog> | undefined) =>
  Effect.gen(function*() {
    const workspace = yield* Workspace
    const env = yield* ScriptedModel.cliEnv
    const log = workspace.file("stdin.log")
    const open = ClaudeCode.session({
      executable: dialogCli,
      env: { ...env, CLAUDE_EFFECT_REAL_CLI: yield* CliLocator.locate(), CLAUDE_EFFECT_STDIN_LOG: log }
    })
    const session = yield* (dialogs === undefined ? open : Effect.provide(open, dialogs))
    const messages = yield* Stream.runCollect(session.turn("hello"))
    const replyOf = (lines: ReadonlyArray<any>) =>
      lines.find((line) => line.type === "control_response" && line.response.request_id === "injected-dialog")
    let reply = replyOf(writtenLines(log))
    for (let i = 0; reply === undefined && i < 100; i++) {
      yield* Effect.sleep("50 millis")
      reply = replyOf(writtenLines(log))
    }
    const initialize = writtenLines(log).find((line) =>
      line.type === "control_request" && line.request.subtype === "initialize"
    )
    return {
      result: messages.find((m) => m.type === "result") as any,
      initialize: initialize.request,
      reply: reply?.response
    }
  }).pipe(Effect.scoped)

describe("user dialogs on the real CLI", () => {
  it.live("a session declares its handler's kinds once each; a declared dialog is answered by the handler", () =>
    Effect.gen(function*() {
      const seen = yield* Ref.make<ReadonlyArray<UserDialog.Request>>([])
      const { initialize, reply, result } = yield* tappedTurn(UserDialog.layer(
        (request) => Effect.as(Ref.update(seen, (all) => [...all, request]), UserDialog.completed("retry_fallback")),
        { kinds: ["refusal_fallback_prompt", "enum_prompt", "refusal_fallback_prompt"] }
      ))
      assert.deepStrictEqual(initialize.supportedDialogKinds, ["refusal_fallback_prompt", "enum_prompt"])
      assert.deepStrictEqual(reply, {
        subtype: "success",
        request_id: "injected-dialog",
        response: { behavior: "completed", result: "retry_fallback" }
      })
      const [request] = yield* Ref.get(seen)
      assert.strictEqual(request.dialog_kind, "refusal_fallback_prompt")
      assert.strictEqual(request.payload.fallbackModel, "claude-opus-4-8")
      assert.strictEqual(request.tool_use_id, "toolu_01")
      // the session runs its turn
      assert.strictEqual(result.result, "hi")
    }).pipe(Effect.provide(harness([ScriptedModel.text("hi")]))))

  it.live("a kind the client did not declare is not settled: an error reply, the handler not called", () =>
    Effect.gen(function*() {
      const called = yield* Ref.make(false)
      const { reply, result } = yield* tappedTurn(
        UserDialog.layer(() => Effect.as(Ref.set(called, true), UserDialog.cancelled), { kinds: ["enum_prompt"] })
      )
      assert.strictEqual(reply.subtype, "error")
      assert.include(reply.error, "\"refusal_fallback_prompt\" was not declared")
      assert.isFalse(yield* Ref.get(called))
      assert.strictEqual(result.result, "hi")
    }).pipe(Effect.provide(harness([ScriptedModel.text("hi")]))))

  it.live("without a UserDialog no kind is declared and dialogs get an error reply", () =>
    Effect.gen(function*() {
      const { initialize, reply, result } = yield* tappedTurn(undefined)
      assert.isFalse("supportedDialogKinds" in initialize)
      assert.strictEqual(reply.subtype, "error")
      assert.strictEqual(result.result, "hi")
    }).pipe(Effect.provide(harness([ScriptedModel.text("hi")]))))
})
