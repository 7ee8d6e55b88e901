/**
 * docs/effect-ai.md, run: each program the guide shows, on the real CLI
 * against the scripted model, and what it printed, what the model was sent,
 * what ran. (The Anthropic pairing waits: no @effect/ai-anthropic loads on
 * effect 4.1.5.)
 */
import { ClaudeCodeLanguageModel } from "@claude-effect/ai"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { afterEach, assert, describe, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Example from "../../src/Example.js"
import * as guide from "../../src/guides/effect-ai.js"

afterEach(() => {
  vi.restoreAllMocks()
})

/** What the program writes with console.log / console.error / process.stdout.write, while it runs. */
const printed = () => {
  const lines: Array<string> = []
  vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => void lines.push(args.join(" ")))
  vi.spyOn(console, "error").mockImplementation((...args: Array<unknown>) => void lines.push(args.join(" ")))
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk))
    return true
  })
  return lines
}

/**
 * The process environment the CLI inherits, pointed at the scripted model for the scope (programs that
 * provide `ClaudeCode.layer()` themselves take it from there).
 */
const processEnvOfModel = Effect.flatMap(ScriptedModel.cliEnv, (env) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const before = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]))
      Object.assign(process.env, env)
      return before
    }),
    (before) =>
      Effect.sync(() => {
        for (const [key, value] of Object.entries(before)) {
          if (value === undefined) delete process.env[key]
          else process.env[key] = value
        }
      })
  ))

const onClaudeCode = (
  script: ReadonlyArray<ScriptedModel.Step>,
  options?: Parameters<typeof Example.layerScripted>[1]
) => Layer.provideMerge(ClaudeCodeLanguageModel.layer(), Example.layerScripted(script, options))

describe("docs/effect-ai.md, run", () => {
  it.live("test: the program on the real CLI, against the scripted model, as the guide's test writes it", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* guide.scripted, "Order A-1001 has shipped.")
    }))

  it.live("claude-code: the agent calls OrderStatus through the in-process MCP server, deferred behind ToolSearch", () =>
    Effect.gen(function*() {
      yield* processEnvOfModel
      const asked: Array<string> = []
      const text = yield* guide.onClaudeCode.pipe(
        Effect.provide(Layer.succeed(guide.Orders, {
          status: (id) => Effect.sync(() => (asked.push(id), "shipped" as const))
        }))
      )
      assert.strictEqual(text, "A-1001 has shipped.")
      assert.deepStrictEqual(asked, ["A-1001"])
      const [first, second] = yield* ScriptedModel.turnRequests
      // the model was offered ToolSearch, not the toolkit's tool, whose name is in the request's text
      assert.include(first!.tools, "ToolSearch")
      assert.notInclude(first!.tools, "mcp__app__OrderStatus")
      assert.isTrue(first!.includes("mcp__app__OrderStatus"))
      assert.strictEqual(first!.model, (yield* ScriptedModel.lastTurnRequest).model)
      assert.include(second!.latestToolResults[0]!.content, "shipped")
    }).pipe(
      Effect.scoped,
      Effect.provide(ScriptedModel.layerNode([
        ScriptedModel.toolUse("mcp__app__OrderStatus", { id: "A-1001" }),
        ScriptedModel.text("A-1001 has shipped.")
      ])),
      Effect.provide(NodeServices.layer)
    ))

  it.live("metadata: the text, the tokens, the cost, the session and the tool calls are printed", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* guide.withCost
      const init = yield* ScriptedModel.lastTurnRequest
      assert.match(lines[0]!, /^README\.md summarized\. \(\d+ tokens, \$\d/)
      assert.match(lines[1]!, /^session [0-9a-f-]{36}, 0 tool calls$/)
      assert.include(init.lastUserText, "Summarize README.md in one line.")
    }).pipe(Effect.provide(onClaudeCode([ScriptedModel.text("README.md summarized.")]))))

  it.live("object: the agent answers with a Review, decoded", () =>
    Effect.gen(function*() {
      const review = yield* guide.review
      assert.strictEqual(review.verdict, "approve")
      assert.deepStrictEqual(review.comments, [{ file: "src/a.ts", line: 3, text: "fine" }])
    }).pipe(Effect.provide(onClaudeCode([
      ScriptedModel.structuredOutput({ verdict: "approve", comments: [{ file: "src/a.ts", line: 3, text: "fine" }] })
    ]))))

  it.live("builtins: the Bash calls are typed parts; the hook in scope denies rm -rf, and that result is a failure", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* guide.audited
      assert.include(lines, "ran: echo tests-ok")
      assert.include(lines, "ran: rm -rf /")
      assert.isTrue(lines.some((line) => line.startsWith("ClaudeCodeBash failed:") && line.includes("no rm -rf")))
    }).pipe(Effect.provide(onClaudeCode([
      ScriptedModel.toolUse("Bash", { command: "echo tests-ok", description: "test" }),
      ScriptedModel.toolUse("Bash", { command: "rm -rf /", description: "clean" }),
      ScriptedModel.text("Tests ran.")
    ], { allowedTools: ["Bash"] }))))

  it.live("stream: text deltas as they come, the tool call between them, the finish last", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* guide.streamed
      const out = lines.join("")
      assert.include(out, "Two folders.")
      assert.include(out, "[ClaudeCodeRead]")
      assert.match(out, /\n\(stop\)$/, out)
    }).pipe(Effect.provide(onClaudeCode([
      ScriptedModel.toolUse("Read", { file_path: "/etc/hostname" }),
      ScriptedModel.text("Two folders.").pipe(ScriptedModel.slow({ delay: "5 millis", chunkSize: 3 }))
    ], { allowedTools: ["Read"] }))))

  it.live("errors: a system message after the conversation started is refused before anything is spawned", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* guide.careful
      assert.match(lines[0]!, /^SystemMessagePosition at prompt\.content\[1\]: /)
      assert.deepStrictEqual(yield* ScriptedModel.requests, [])
    }).pipe(Effect.provide(onClaudeCode([]))))

  it.live("chat: two turns on one CLI process, which holds the conversation", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* guide.conversation
      assert.deepStrictEqual(lines, ["It is 1.2.3."])
      const [, second] = yield* ScriptedModel.turnRequests
      // the second turn's request carries the first turn
      assert.isTrue(second!.includes("Read package.json."))
      assert.isTrue(second!.includes("I read it."))
    }).pipe(Effect.provide(onClaudeCode([ScriptedModel.text("I read it."), ScriptedModel.text("It is 1.2.3.")]))))

  it.live("override: the calls of the effect run in /tmp", () =>
    Effect.gen(function*() {
      const response = yield* guide.inAnotherDirectory
      assert.strictEqual(response.text, "Listed.")
      const started = response.content.find((part) => part.type === "response-metadata")
      assert.deepInclude(started?.metadata.claudeCode, { cwd: "/tmp" })
    }).pipe(Effect.provide(onClaudeCode([ScriptedModel.text("Listed.")]))))
})
