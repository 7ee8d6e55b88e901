import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"
import { ClaudeCode, CliLocator, HookLayer, HookResult } from "../src/index.js"
import { harness, Workspace } from "./utils/harness.js"

// The real CLI behind a tap that copies what the SDK writes to a file.
const tappedCli = fileURLToPath(new URL("./fixtures/noisy-claude.mjs", import.meta.url))

describe("the initialize handshake", () => {
  it.live("carries hooks with callback ids and timeouts, agents, system prompt fields and the JSON schema", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const env = yield* ScriptedModel.cliEnv
      const stdinLog = workspace.file("stdin.log")
      const messages = yield* ClaudeCode.query("hi", {
        executable: tappedCli,
        env: { ...env, CLAUDE_EFFECT_REAL_CLI: yield* CliLocator.locate(), CLAUDE_EFFECT_STDIN_LOG: stdinLog },
        systemPrompt: "You are a careful reviewer.",
        agents: { reviewer: { description: "Reviews diffs", prompt: "Review the diff.", model: "haiku" } },
        outputFormat: { type: "json_schema", schema: { type: "object", properties: { ok: { type: "boolean" } } } },
        hookTimeout: 7_000
      }).pipe(
        Stream.runCollect,
        Effect.provide(Layer.mergeAll(
          HookLayer.preToolUse({ matcher: "Bash|Write" }, () => Effect.succeed(HookResult.empty)),
          HookLayer.stop(() => Effect.succeed(HookResult.empty), { timeout: "2 seconds" })
        ))
      )
      assert.isAbove(messages.length, 0)
      const written = workspace.read("stdin.log").split("\n").filter((line) => line.length > 0).map((line) =>
        JSON.parse(line)
      )
      const initialize = written.find((line) =>
        line.type === "control_request" && line.request.subtype === "initialize"
      )
      assert.isDefined(initialize)
      const request = initialize.request
      assert.deepStrictEqual(Object.keys(request.hooks).sort(), ["PreToolUse", "Stop"])
      const [pre] = request.hooks.PreToolUse
      assert.strictEqual(pre.matcher, "Bash|Write")
      assert.strictEqual(pre.hookCallbackIds.length, 1)
      // our timeout plus a margin, so that our own fallback answers first
      assert.isAbove(pre.timeout, 7)
      assert.strictEqual(pre.onFailure, "block")
      const [stop] = request.hooks.Stop
      assert.isAbove(stop.timeout, 2)
      assert.isUndefined(stop.matcher)
      assert.notStrictEqual(stop.hookCallbackIds[0], pre.hookCallbackIds[0])
      assert.include(JSON.stringify(request.systemPrompt), "You are a careful reviewer.")
      assert.strictEqual(request.agents.reviewer.description, "Reviews diffs")
      assert.deepStrictEqual(request.jsonSchema.properties, { ok: { type: "boolean" } })
      // the initialize request goes before the user message
      assert.isAbove(written.findIndex((line) => line.type === "user"), written.indexOf(initialize))
    }).pipe(Effect.provide(harness([ScriptedModel.text("{\"ok\":true}")]))))
})
