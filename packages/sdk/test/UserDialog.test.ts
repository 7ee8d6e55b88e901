/**
 * User dialogs (`request_user_dialog`). The CLI 2.1.328 sends them only for
 * flows an offline session cannot reach (a model refusal with a fallback
 * model armed, subscription and billing notices), so the exchange is proven
 * over the testkit's FakeCli, which speaks the protocol line by line; the real
 * CLI proves that a session declaring its dialog kinds starts and runs.
 */
import { ClaudeCode, UserDialog } from "@claude-effect/sdk"
import { FakeCli, ScriptedModel } from "@claude-effect/testkit"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { assert, describe, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import { harness } from "./utils/harness.js"

// No CLI is spawned: any existing executable keeps the locator out of the way.
const claude = ClaudeCode.layer({ executable: process.execPath }).pipe(
  Layer.provideMerge(NodeContext.layer),
  Layer.orDie
)

const refusal = {
  subtype: "request_user_dialog",
  dialog_kind: "refusal_fallback_prompt",
  payload: { originalModel: "claude-fable-5", fallbackModel: "claude-opus-4-8", retractedMessageUuids: [] },
  tool_use_id: "toolu_01"
}

/** A session over a fake CLI, under `dialogs`; `body` gets the fake. */
const withFake = <A, E>(
  dialogs: Layer.Layer<UserDialog.UserDialog> | undefined,
  body: (cli: FakeCli.FakeCli.Service) => Effect.Effect<A, E, ClaudeCode.ClaudeCode>
) =>
  Effect.gen(function*() {
    const cli = yield* FakeCli.FakeCli
    return yield* Effect.scoped(
      Effect.zipRight(
        dialogs === undefined ? ClaudeCode.session() : Effect.provide(ClaudeCode.session(), dialogs),
        body(cli)
      )
    )
  }).pipe(Effect.provide(FakeCli.layer()), Effect.provide(claude))

describe("user dialogs over the protocol (FakeCli)", () => {
  it.effect("the session declares the handler's kinds; a declared dialog is answered by the handler", () =>
    Effect.gen(function*() {
      const seen = yield* Ref.make<ReadonlyArray<UserDialog.Request>>([])
      const dialogs = UserDialog.layer(
        (request) => Effect.as(Ref.update(seen, (all) => [...all, request]), UserDialog.completed("retry_fallback")),
        { kinds: ["refusal_fallback_prompt", "enum_prompt", "refusal_fallback_prompt"] }
      )
      yield* withFake(dialogs, (cli) =>
        Effect.gen(function*() {
          const initialize = (yield* cli.initializeRequest) as any
          assert.deepStrictEqual(initialize.request.supportedDialogKinds, ["refusal_fallback_prompt", "enum_prompt"])
          const answer = yield* cli.request(refusal)
          assert.deepStrictEqual(FakeCli.responseOf(answer), { behavior: "completed", result: "retry_fallback" })
        }))
      const [request] = yield* Ref.get(seen)
      assert.strictEqual(request.dialog_kind, "refusal_fallback_prompt")
      assert.strictEqual(request.payload.fallbackModel, "claude-opus-4-8")
      assert.strictEqual(request.tool_use_id, "toolu_01")
    }))

  it.effect("a kind the client did not declare is not settled: an error reply, which the CLI discards", () =>
    Effect.gen(function*() {
      const called = yield* Ref.make(false)
      const dialogs = UserDialog.layer(() => Effect.as(Ref.set(called, true), UserDialog.cancelled), {
        kinds: ["enum_prompt"]
      })
      yield* withFake(dialogs, (cli) =>
        Effect.gen(function*() {
          const answer = yield* cli.request(refusal)
          assert.strictEqual(answer.subtype, "error")
          assert.include((answer as any).error, "\"refusal_fallback_prompt\" was not declared")
        }))
      assert.isFalse(yield* Ref.get(called))
    }))

  it.effect("without a UserDialog no kind is declared and dialogs get an error reply", () =>
    withFake(undefined, (cli) =>
      Effect.gen(function*() {
        const initialize = (yield* cli.initializeRequest) as any
        assert.isUndefined(initialize.request.supportedDialogKinds)
        const answer = yield* cli.request(refusal)
        assert.strictEqual(answer.subtype, "error")
      })))

  it.effect("a handler that fails, answers badly or outlives its timeout: the cancelled fallback", () =>
    Effect.gen(function*() {
      const failing = UserDialog.layer(() => Effect.fail("no screen"), { kinds: ["refusal_fallback_prompt"] })
      yield* withFake(
        failing,
        (cli) =>
          Effect.map(
            cli.request(refusal),
            (answer) => assert.deepStrictEqual(FakeCli.responseOf(answer), { behavior: "cancelled" })
          )
      )
      const invalid = UserDialog.layer(() => Effect.succeed({ behavior: "maybe" } as any), {
        kinds: ["refusal_fallback_prompt"]
      })
      yield* withFake(
        invalid,
        (cli) =>
          Effect.map(
            cli.request(refusal),
            (answer) => assert.deepStrictEqual(FakeCli.responseOf(answer), { behavior: "cancelled" })
          )
      )
      const slow = UserDialog.layer(() => Effect.never, { kinds: ["refusal_fallback_prompt"], timeout: "5 minutes" })
      yield* withFake(slow, (cli) =>
        Effect.gen(function*() {
          const fiber = yield* Effect.fork(cli.request(refusal))
          yield* TestClock.adjust("299 seconds")
          assert.isNull(fiber.unsafePoll(), "the user still has time")
          yield* TestClock.adjust("1 second")
          assert.deepStrictEqual(FakeCli.responseOf(yield* Fiber.join(fiber)), { behavior: "cancelled" })
        }))
    }))

  it.effect("UserDialog.respond answers as a session does", () =>
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
    }))
})

describe("user dialogs on the real CLI", () => {
  it.live("a session declaring dialog kinds starts and runs a turn", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session().pipe(
        Effect.provide(UserDialog.layer(() => Effect.succeed(UserDialog.cancelled), {
          kinds: ["refusal_fallback_prompt"]
        }))
      )
      const messages = yield* session.turn("hello").pipe(Stream.runCollect, Effect.map(Chunk.toReadonlyArray))
      assert.strictEqual((messages.find((m) => m.type === "result") as any).result, "hi")
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("hi")]))))
})
