/**
 * docs/history.md, run: sessions the real CLI kept (against the scripted
 * model, in its isolated configuration directory), listed, read, organized,
 * forked, resumed and imported as the guide shows.
 */
import { ClaudeCode, SessionHistory, SessionStore } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { afterEach, assert, describe, it, vi } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Example from "../../src/Example.js"
import * as guide from "../../src/guides/history.js"

afterEach(() => {
  vi.restoreAllMocks()
})

const printed = () => {
  const lines: Array<string> = []
  vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => void lines.push(args.join(" ")))
  return lines
}

/** The CLI's configuration directory in this test: the scripted model's isolated one. */
const configDir = Effect.map(ScriptedModel.cliEnv, (env) => env.CLAUDE_CONFIG_DIR!)

/** CLAUDE_CONFIG_DIR of this process, for the scope: what `SessionHistory.layer()` reads. */
const processConfigDir = Effect.flatMap(configDir, (dir) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const before = process.env.CLAUDE_CONFIG_DIR
      process.env.CLAUDE_CONFIG_DIR = dir
      return before
    }),
    (before) =>
      Effect.sync(() => {
        if (before === undefined) delete process.env.CLAUDE_CONFIG_DIR
        else process.env.CLAUDE_CONFIG_DIR = before
      })
  ))

/** One session in this process's working directory (what `recent` lists), and its id. */
const firstSession = Effect.gen(function*() {
  const env = yield* ScriptedModel.cliEnv
  const result = yield* ClaudeCode.result("Plan the release", { cwd: process.cwd(), env })
  return result.session_id
})

const history = Layer.unwrap(Effect.map(configDir, (dir) => SessionHistory.layer({ configDir: dir })))

describe("docs/history.md, on the real CLI", () => {
  it.live("list, read, layers, errors: the session is listed, read back, and looked up", () =>
    Effect.gen(function*() {
      const id = yield* firstSession
      yield* processConfigDir
      const lines = printed()
      // list, through the guide's program (SessionHistory.layer(): CLAUDE_CONFIG_DIR) and layerConfig
      yield* guide.program
      yield* guide.recent.pipe(
        Effect.provide(guide.configured),
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { AGENT_CONFIG_DIR: yield* configDir } })))
      )
      assert.strictEqual(lines.filter((line) => line.startsWith(`${id}  `)).length, 2, lines.join("\n"))
      lines.length = 0
      // read
      yield* guide.transcript(id).pipe(Effect.provide(history))
      assert.include(lines, "> Plan the release")
      assert.include(lines, "Step 1: tag. Step 2: publish.")
      // errors
      assert.match(yield* guide.titleOf("not-a-session").pipe(Effect.provide(history)), /^not a session id: /)
      assert.strictEqual(
        yield* guide.titleOf("00000000-0000-4000-8000-000000000000").pipe(Effect.provide(history)),
        "no such session"
      )
      assert.strictEqual(yield* guide.titleOf(id).pipe(Effect.provide(history)), "Plan the release")
      // a configuration directory without sessions lists none
      assert.deepStrictEqual(
        yield* SessionHistory.listSessions({ dir: process.cwd() }).pipe(Effect.provide(guide.isolated)),
        []
      )
    }).pipe(
      Effect.scoped,
      Effect.provide(
        Example.layerScripted([ScriptedModel.rule(() => ScriptedModel.text("Step 1: tag. Step 2: publish."))])
      )
    ))

  it.live("organize, fork, import: renamed and tagged; the fork resumes with the conversation; the store has it", () =>
    Effect.gen(function*() {
      const id = yield* firstSession
      yield* guide.organize(id).pipe(Effect.provide(history))
      const [info] = yield* SessionHistory.listSessions({ dir: process.cwd() }).pipe(Effect.provide(history))
      assert.deepInclude(info, { sessionId: id, tag: "release", summary: "Release checklist" })
      // fork: the resumed copy's first request carries the first conversation
      yield* guide.tryAnotherWay(id).pipe(Effect.provide(history))
      const last = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(last.includes("Plan the release"))
      assert.strictEqual(last.lastUserText, "Now do it without the database migration.")
      // import into a store, then read it there
      const store = yield* Layer.build(SessionStore.layerMemory)
      yield* guide.migrate(id, Layer.succeedContext(store)).pipe(Effect.provide(history))
      const entries = yield* SessionStore.SessionStore.pipe(
        Effect.flatMap((s) => s.load({ projectKey: SessionStore.projectKey(process.cwd()), sessionId: id })),
        Effect.provide(store)
      )
      assert.isTrue(Option.isSome(entries) && JSON.stringify(entries.value).includes("Plan the release"))
    }).pipe(
      Effect.scoped,
      Effect.provide(
        Example.layerScripted([ScriptedModel.text("Plan: tag, publish."), ScriptedModel.text("Without it.")])
      )
    ))

  it.live("subagents: the subagent of a session, its type, description and messages", () =>
    Effect.gen(function*() {
      const env = yield* ScriptedModel.cliEnv
      const result = yield* ClaudeCode.result("Delegate", { cwd: process.cwd(), env, allowedTools: ["Agent"] })
      const lines = printed()
      yield* guide.subagents(result.session_id).pipe(Effect.provide(history))
      assert.strictEqual(lines.length, 1)
      assert.match(lines[0]!, /^general-purpose "look around": [1-9]\d* messages$/)
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.subagent(ScriptedModel.text("Looked around.")),
      ScriptedModel.toolUse("Agent", {
        description: "look around",
        prompt: "Look around",
        subagent_type: "general-purpose"
      }),
      ScriptedModel.text("Delegated.")
    ]))))
})
