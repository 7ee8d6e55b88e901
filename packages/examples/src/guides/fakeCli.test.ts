/**
 * The FakeCli section of docs/testing.md — and a test suite: vitest runs this file.
 * Each `#region` is copied into the guide by scripts/sync-guides.mjs.
 */
// #region imports
import { ClaudeCode, HookLayer, HookResult } from "@claude-effect/sdk"
import { FakeCli } from "@claude-effect/testkit"
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
// #endregion

const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) => {
  const command = String((input.tool_input as { readonly command?: unknown }).command ?? "")
  return Effect.succeed(command.includes("rm -rf") ? HookResult.deny("rm -rf is not allowed") : HookResult.empty)
})

describe("testing guide: FakeCli", () => {
  // #region fake-cli
  // A session over an in-memory CLI: one FakeCli per session. Nothing is spawned or located, so the test
  // runs under the TestClock, in milliseconds.
  const inMemory = (script: FakeCli.FakeCli.Script) =>
    Layer.merge(FakeCli.layer(script), ClaudeCode.layer()).pipe(
      Layer.provideMerge(NodeServices.layer)
    )

  // The CLI's side of one turn: the model wants to run Bash; the CLI asks the SDK's PreToolUse hooks first.
  const cleanUp: FakeCli.FakeCli.Turn = (cli) =>
    Effect.gen(function*() {
      const input = { command: "rm -rf build", description: "Delete build output" }
      yield* cli.emit(FakeCli.state("running"), FakeCli.init(), FakeCli.toolUse("Bash", input))
      const [answer] = yield* cli.hook({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: input })
      const reason = FakeCli.responseOf(answer!)?.hookSpecificOutput?.permissionDecisionReason
      yield* cli.emit(
        FakeCli.toolResult(`PreToolUse:Bash hook error: ${reason}`, { isError: true }),
        FakeCli.assistantText("I left build/ alone."),
        FakeCli.result({ result: "I left build/ alone." }),
        FakeCli.state("idle")
      )
    })

  it.effect("FakeCli: the guard's deny, through a whole session, in memory", () =>
    Effect.gen(function*() {
      const cli = yield* FakeCli.FakeCli
      const session = yield* ClaudeCode.session()
      const messages = yield* Stream.runCollect(session.turn("Clean up the build output"))
      const last = Array.from(messages).at(-1)
      assert.strictEqual(last?.type === "result" ? last.result : undefined, "I left build/ alone.")
      // Everything the session wrote, decoded: the initialize request (with the guard's hook), the prompt,
      // and the guard's answer.
      const written = yield* cli.written
      assert.isTrue(written.some(({ line }) => line.includes("rm -rf is not allowed")))
    }).pipe(Effect.scoped, Effect.provide(guard), Effect.provide(inMemory({ turns: [cleanUp] }))))

  it.effect("FakeCli: the CLI dying mid-turn is a CliExitError that says so", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session()
      const error = yield* Stream.runDrain(session.turn("hi")).pipe(Effect.flip)
      assert.strictEqual(error._tag, "CliExitError")
      assert.isTrue(error._tag === "CliExitError" && error.duringTurn)
    }).pipe(
      Effect.scoped,
      Effect.provide(inMemory({
        turns: [(cli) => Effect.andThen(cli.emit(FakeCli.state("running"), FakeCli.init()), cli.exit({ code: 1 }))]
      }))
    ))
  // #endregion
})
