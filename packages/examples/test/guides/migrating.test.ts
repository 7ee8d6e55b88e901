/**
 * docs/migrating-from-effect-3.md, run: the effect-4 side of each change it
 * shows, on the real CLI against the scripted model.
 */
import { ClaudeCode } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { afterEach, assert, describe, it, vi } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Example from "../../src/Example.js"
import * as guide from "../../src/guides/migrating.js"
import { inTempDir } from "./tempDir.js"

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

const printed = () => {
  const lines: Array<string> = []
  for (const method of ["log", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) => void lines.push(args.join(" ")))
  }
  return lines
}

/** The init message of a query run with `options` under the ClaudeCode in context. */
const initOf = (options: Parameters<typeof ClaudeCode.query>[1]) =>
  ClaudeCode.query("Hi", options).pipe(
    Stream.runCollect,
    Effect.map((messages) =>
      messages.find((message) => message.type === "system" && "subtype" in message && message.subtype === "init")
    )
  )

describe("docs/migrating-from-effect-3.md, on the real CLI", () => {
  it.effect("services: a Context.Service, provided by a layer", () =>
    Effect.gen(function*() {
      const approvals = yield* guide.Approvals
      assert.isTrue(yield* approvals.ask("Bash"))
    }).pipe(Effect.provide(guide.ApproveAll)))

  it.live("config: a bad CLAUDE_PERMISSION_MODE is a ConfigError naming it; no CLI is started", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* guide.configured.pipe(
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { CLAUDE_PERMISSION_MODE: "yolo" } })))
      )
      assert.strictEqual(lines.length, 1, lines.join("\n"))
      assert.match(lines[0]!, /^Fix the environment: /)
      assert.include(lines[0]!, "CLAUDE_PERMISSION_MODE")
      assert.include(lines[0]!, "acceptEdits")
      assert.strictEqual((yield* ScriptedModel.requests).length, 0)
    }).pipe(Effect.provide(Example.layerScripted([]))))

  it.live("config: an empty CLAUDE_MODEL is unset by default, and an error when empty strings are kept", () =>
    Effect.gen(function*() {
      const env = yield* ScriptedModel.cliEnv
      const { cwd } = yield* Example.Workspace
      const query = initOf({ cwd, env }).pipe(Effect.provide(ClaudeCode.layerConfig()))
      // unset: the CLI runs with its own default model
      const init = yield* query.pipe(
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { CLAUDE_MODEL: "" } })))
      )
      assert.isDefined(init)
      assert.isNotEmpty((yield* ScriptedModel.lastTurnRequest).model)
      // the guide's keepEmpty reads process.env, keeping CLAUDE_MODEL= as a value the options refuse
      vi.stubEnv("CLAUDE_MODEL", "")
      const error = yield* query.pipe(Effect.provide(guide.keepEmpty), Effect.flip)
      assert.strictEqual(error._tag, "ConfigError")
      assert.include(error.message, "CLAUDE_MODEL")
    }).pipe(Effect.provide(Example.layerScripted([ScriptedModel.rule(() => ScriptedModel.text("Hello."))]))))

  it.live("config: a fixed configuration in a test reaches the CLI", () =>
    Effect.gen(function*() {
      const env = yield* ScriptedModel.cliEnv
      const { cwd } = yield* Example.Workspace
      const init = yield* initOf({ cwd, env }).pipe(
        Effect.provide(ClaudeCode.layerConfig()),
        Effect.provide(guide.fixed)
      )
      assert.deepInclude(init, { permissionMode: "plan" })
    }).pipe(Effect.provide(Example.layerScripted([ScriptedModel.text("Hello.")]))))

  it.live("streams: the messages are an Array, the last one the result; a forked reader joins", () =>
    Effect.gen(function*() {
      const last = yield* guide.lastMessage
      assert.strictEqual(last?.type, "result")
      const reader = yield* guide.reader
      yield* Fiber.join(reader)
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 2)
    }).pipe(Effect.provide(Example.layerScripted([ScriptedModel.text("Nothing."), ScriptedModel.text("Hello.")]))))

  it.effect("result: a line of the CLI decodes to a Result", () =>
    Effect.sync(() => {
      assert.strictEqual(guide.kind, "keep_alive")
    }))

  it.live("logging: levels are strings; the CLI's stderr goes to the logger at Debug", () =>
    Effect.gen(function*() {
      yield* Effect.logWarning("disk almost full").pipe(Effect.provide(guide.collectWarnings))
      yield* Effect.logInfo("not a warning").pipe(Effect.provide(guide.collectWarnings))
      assert.deepStrictEqual(guide.warnings, ["disk almost full"])
      yield* guide.debugged
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1)
    }).pipe(Effect.provide(Example.layerScripted([ScriptedModel.text("Hello.")]))))

  it.live("sqlite: the store is sessions.db in the working directory, on node:sqlite", () =>
    Effect.gen(function*() {
      const { dir } = yield* inTempDir("claude-effect-migrating-")
      yield* Effect.gen(function*() {
        const env = yield* ScriptedModel.cliEnv
        yield* ClaudeCode.result("The code word is plum.", { cwd: dir, env })
        assert.isTrue(Fs.statSync(Path.join(dir, "sessions.db")).size > 0)
      }).pipe(Effect.provide(guide.store), Effect.scoped)
    }).pipe(Effect.scoped, Effect.provide(Example.layerScripted([ScriptedModel.text("Noted.")]))))

  it.live("platform: FileSystem, Path and a command through effect/process", () =>
    Effect.gen(function*() {
      const { dir } = yield* inTempDir("claude-effect-migrating-")
      ChildProcess.execFileSync("git", ["init", "-q"], { cwd: dir })
      Fs.writeFileSync(Path.join(dir, "a.txt"), "a")
      const result = yield* guide.listing
      assert.deepStrictEqual([...result.files].sort(), [".git", "a.txt"])
      assert.strictEqual(result.git, "?? a.txt\n")
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer)))
})
