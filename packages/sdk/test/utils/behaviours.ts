/**
 * Behaviours of a session that hold whatever runs behind it: one suite, run
 * against the real CLI (test/Behaviours.test.ts) and against the in-memory
 * FakeCli (test/InMemory.test.ts), as @effect/platform-node's rpc e2e suite
 * runs against several transports. The two agreeing is what lets the
 * in-memory suite stand in for the real one where it goes further.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { ClaudeCode, HookLayer, HookResult, PermissionGate, PermissionResult, type Protocol } from "../../src/index.js"

/** What the model does in a behaviour: answer with text, or call Bash and then answer. */
export type Scenario =
  | { readonly _tag: "Text"; readonly text: string }
  | {
    readonly _tag: "Bash"
    readonly input: { readonly command: string; readonly description: string }
    readonly then: string
  }

export interface Backend {
  readonly name: string
  /** Whether the backend needs real time (a real process, a real HTTP server). */
  readonly live: boolean
  /** How long one behaviour may take, in milliseconds. */
  readonly timeout: number
  /** `ClaudeCode` running one session, the model acting out the scenario. */
  readonly layer: (scenario: Scenario) => Layer.Layer<ClaudeCode.ClaudeCode>
}

const bash = (command: string, then = "done"): Scenario => ({
  _tag: "Bash",
  input: { command, description: "run a command" },
  then
})

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

const isState = (message: Protocol.Message) =>
  message.type === "system" && (message as { readonly subtype?: string }).subtype === "session_state_changed"

const toolResults = (messages: ReadonlyArray<Protocol.Message>) =>
  messages.flatMap((message) => {
    const content = message.type === "user" ? (message as any).message?.content : undefined
    return Array.isArray(content) ? content.filter((block: any) => block?.type === "tool_result") : []
  }) as ReadonlyArray<{ readonly is_error?: boolean; readonly content: unknown }>

const lastResult = (messages: ReadonlyArray<Protocol.Message>) => {
  const last = messages[messages.length - 1] as any
  assert.strictEqual(last?.type, "result", "the turn ends at its result")
  return last as { readonly subtype: string; readonly is_error: boolean; readonly result: string }
}

const denyBash = HookLayer.preToolUse({ matcher: "Bash" }, () => Effect.succeed(HookResult.deny("NO-BASH-HERE")))
const denyingGate = PermissionGate.layer(() => Effect.succeed(PermissionResult.deny("NOT-ALLOWED-BY-GATE")))

export const behaviours = (backend: Backend) =>
  describe(`session behaviours (${backend.name})`, () => {
    const test = (
      name: string,
      scenario: Scenario,
      body: Effect.Effect<void, unknown, ClaudeCode.ClaudeCode>
    ) =>
      (backend.live ? it.live : it.effect)(name, () => Effect.provide(body, backend.layer(scenario)), backend.timeout)

    test(
      "a turn streams system/init, the assistant's text, then its result",
      { _tag: "Text", text: "hello from the model" },
      Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const messages = (yield* collect(session.turn("say hello"))).filter((message) => !isState(message))
        const first = messages[0] as any
        assert.deepStrictEqual([first?.type, first?.subtype], ["system", "init"])
        const texts = messages.flatMap((message) =>
          message.type === "assistant" ? (message as any).message.content.map((block: any) => block.text) : []
        )
        assert.deepStrictEqual(texts, ["hello from the model"])
        const result = lastResult(messages)
        assert.deepStrictEqual([result.subtype, result.is_error, result.result], [
          "success",
          false,
          "hello from the model"
        ])
        assert.strictEqual(yield* session.sessionId, first.session_id)
      }))
    )

    test(
      "a PreToolUse hook that denies keeps the tool from running, and the model is told why",
      bash("touch hook-denied"),
      Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const messages = yield* collect(session.turn("run it"))
        const results = toolResults(messages)
        assert.strictEqual(results.length, 1)
        assert.isTrue(results[0].is_error)
        assert.include(String(results[0].content), "NO-BASH-HERE")
        assert.strictEqual(lastResult(messages).result, "done")
      })).pipe(Effect.provide(denyBash))
    )

    test(
      "a permission gate that denies keeps the tool from running, with its message",
      bash("touch gate-denied"),
      Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const messages = yield* collect(session.turn("run it"))
        const results = toolResults(messages)
        assert.strictEqual(results.length, 1)
        assert.isTrue(results[0].is_error)
        assert.include(String(results[0].content), "NOT-ALLOWED-BY-GATE")
        assert.strictEqual(lastResult(messages).result, "done")
      })).pipe(Effect.provide(denyingGate))
    )
  })
