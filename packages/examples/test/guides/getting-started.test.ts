/**
 * docs/getting-started.md, run (its programs are run as files by
 * programs.test.ts): the defaults of a layer and from the environment, the
 * answer and the result, on the real CLI against the scripted model.
 */
import { ClaudeCode } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Example from "../../src/Example.js"
import * as guide from "../../src/guides/getting-started-options.js"

/** The init message of a query run with `options` under the ClaudeCode in context. */
const initOf = (options: Parameters<typeof ClaudeCode.query>[1]) =>
  ClaudeCode.query("Hi", options).pipe(
    Stream.runCollect,
    Effect.map((messages) =>
      messages.find((message) => message.type === "system" && "subtype" in message && message.subtype === "init")
    )
  )

/** A scripted model answering "Hello.", and a fresh directory to run in. */
const model = ScriptedModel.layerNode([ScriptedModel.rule(() => ScriptedModel.text("Hello."))]).pipe(
  Layer.provideMerge(NodeServices.layer)
)

const tempDir = Effect.acquireRelease(
  Effect.sync(() => Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-gs-")))),
  (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
)

describe("docs/getting-started.md, on the real CLI", () => {
  it.live("defaults: the layer's model and permission mode reach the CLI (the cwd given per call)", () =>
    Effect.gen(function*() {
      const env = yield* ScriptedModel.cliEnv
      const init = yield* initOf({ cwd: yield* tempDir, env }).pipe(Effect.provide(guide.Claude))
      assert.deepInclude(init, { permissionMode: "acceptEdits" })
      assert.include((yield* ScriptedModel.lastTurnRequest).model, "sonnet")
    }).pipe(Effect.scoped, Effect.provide(model)))

  it.live("defaults: the answer, the last message of a query that reads README.md", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      Fs.writeFileSync(Path.join(cwd, "README.md"), "# A project\n")
      yield* ScriptedModel.push(
        ScriptedModel.toolUse("Read", { file_path: Path.join(cwd, "README.md") }),
        ScriptedModel.text("A project.")
      )
      const last = yield* guide.answer
      assert.isTrue(Option.isSome(last) && last.value.type === "result")
      assert.include((yield* ScriptedModel.toolResults)[0]!.content, "# A project")
    }).pipe(Effect.provide(Example.layerScripted([]))))

  it.live("config: CLAUDE_MODEL and CLAUDE_PERMISSION_MODE from the configuration", () =>
    Effect.gen(function*() {
      const env = yield* ScriptedModel.cliEnv
      const init = yield* initOf({ cwd: yield* tempDir, env }).pipe(
        Effect.provide(guide.ClaudeFromEnv),
        Effect.provide(ConfigProvider.layer(
          ConfigProvider.fromEnv({ env: { CLAUDE_MODEL: "haiku", CLAUDE_PERMISSION_MODE: "dontAsk" } })
        ))
      )
      assert.deepInclude(init, { permissionMode: "dontAsk" })
      assert.include((yield* ScriptedModel.lastTurnRequest).model, "haiku")
    }).pipe(Effect.scoped, Effect.provide(model)))

  it.live("result: the text of a successful turn", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* guide.lastResult, "All 12 tests pass.")
    }).pipe(Effect.provide(Example.layerScripted([ScriptedModel.text("All 12 tests pass.")]))))

  it.live("result: an API failure arrives as a result with is_error, and says so", () =>
    Effect.gen(function*() {
      assert.match(yield* guide.lastResult, /^failed: success \(/)
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.rule(() => ScriptedModel.error(500, { message: "overloaded on purpose" }))
    ], { env: { CLAUDE_CODE_MAX_RETRIES: "0" } }))))
})
