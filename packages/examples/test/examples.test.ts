/**
 * Every runnable example runs to completion offline, against its own script,
 * and prints what it is about.
 */
import { afterEach, assert, describe, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Example from "../src/Example.js"
import * as effectAi from "../src/examples/effect-ai.js"
import * as mcpTool from "../src/examples/mcp-tool.js"
import * as permissionGate from "../src/examples/permission-gate.js"
import * as postToolUseContext from "../src/examples/post-tool-use-context.js"
import * as preToolUseGuard from "../src/examples/pre-tool-use-guard.js"
import * as query from "../src/examples/query.js"
import * as sessionInterrupt from "../src/examples/session-interrupt.js"
import * as stopBlock from "../src/examples/stop-block.js"
import * as userPromptSubmitBlock from "../src/examples/user-prompt-submit-block.js"

interface Runnable {
  readonly program: Effect.Effect<unknown, unknown, Example.Services>
  readonly script: Example.Script
}

/** Runs an example offline and returns what it printed. */
const run = (example: Runnable) =>
  Effect.gen(function*() {
    const printed: Array<string> = []
    vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => void printed.push(args.join(" ")))
    yield* Example.runScripted(example.program, example.script)
    return printed.join("\n")
  })

afterEach(() => {
  vi.restoreAllMocks()
})

describe("examples", () => {
  it.live("query", () =>
    Effect.gen(function*() {
      const out = yield* run(query)
      assert.include(out, "claude: Effect is a TypeScript library")
      assert.match(out, /done in 1 turn\(s\)/)
    }))

  it.live("session with interrupt", () =>
    Effect.gen(function*() {
      const out = yield* run(sessionInterrupt)
      assert.include(out, "turn 1 → success: Hello!")
      assert.include(out, "turn 2 → error_during_execution (aborted_streaming)")
      assert.include(out, "turn 3 → success: Yes — still here")
    }))

  it.live("PreToolUse guard", () =>
    Effect.gen(function*() {
      const out = yield* run(preToolUseGuard)
      assert.include(out, "error:  PreToolUse:Bash hook error: rm -r / rm -f are not allowed here")
      assert.include(out, "mv tmp trash/")
    }))

  it.live("PostToolUse context", () =>
    Effect.gen(function*() {
      const out = yield* run(postToolUseContext)
      assert.include(out, "claude: The build is healthy: the only failure is the known IPv6 flake")
    }))

  it.live("UserPromptSubmit block", () =>
    Effect.gen(function*() {
      const out = yield* run(userPromptSubmitBlock)
      assert.include(out, "0 turn(s) — UserPromptSubmit operation blocked by hook: the prompt contains what looks like")
      assert.include(out, "claude: Usually because it was revoked")
    }))

  it.live("Stop block", () =>
    Effect.gen(function*() {
      const out = yield* run(stopBlock)
      assert.include(out, "claude: Plan:")
      assert.include(out, "claude: Biggest risk:")
    }))

  it.live("in-process MCP tool", () =>
    Effect.gen(function*() {
      const out = yield* run(mcpTool)
      assert.include(out, "result: widget-42: 17 in stock")
      assert.include(out, "claude: In stock: widget-42: 17 in stock; gadget-1: 230 in stock.")
    }))

  it.live("permission gate", () =>
    Effect.gen(function*() {
      const out = yield* run(permissionGate)
      assert.include(out, "result: [dry run] rm notes.txt")
      assert.include(out, "error:  This session is read-only")
    }))

  it.live("effect/ai LanguageModel on Claude Code", () =>
    Effect.gen(function*() {
      const out = yield* run(effectAi)
      assert.include(out, `tool:   OrderStatus {"id":"A-1001"}`)
      assert.include(out, `result: {"id":"A-2002","status":"pending"}`)
      assert.include(out, "claude: Statuses:")
      assert.include(out, "object: shipped A-1001; pending A-2002")
      assert.include(out, "chat:   Noted: 7. / You asked me to remember 7.")
    }))
})
