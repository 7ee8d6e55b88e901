import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"
import { ClaudeCode, CliLocator, PermissionGate, PermissionResult } from "../src/index.js"
import * as Protocol from "../src/Protocol.js"
import { harness, Logs, Workspace } from "./utils/harness.js"

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

const noisyCli = fileURLToPath(new URL("./fixtures/noisy-claude.mjs", import.meta.url))

// Text whose multi-byte characters land on every possible chunk boundary somewhere in 20 MB.
const bigText = (chars: number) => {
  const unit = "héllo wörld 🌍 ünïcødé ✓ "
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars)
}

/** The content blocks of the assistant messages, in order. */
const blocksOf = (messages: ReadonlyArray<Protocol.StdoutMessage>): ReadonlyArray<any> =>
  messages.filter(Protocol.isAssistantMessage).flatMap((m) => m.message.content)

describe("robustness on the real CLI", () => {
  it.live("a 20 MB line and a 10 MB tool input arrive intact, byte for byte", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const answer = yield* collect(ClaudeCode.query("say a lot"))
      const text = blocksOf(answer).filter((block) => block.type === "text").map((block) => block.text).join("")
      assert.strictEqual(text.length, twentyMb.length)
      assert.isTrue(text === twentyMb)
      assert.isTrue((answer[answer.length - 1] as { result?: string }).result === twentyMb)

      // The write's input is 10 MB; the context overflows afterwards and the CLI compacts: not our concern here.
      const written = yield* collect(ClaudeCode.query("write big things", { allowedTools: ["Write"] }))
      const toolUse = blocksOf(written).find((block) => block.type === "tool_use")
      assert.isTrue(toolUse.input.content === tenMb)
      assert.isTrue(workspace.read("big.txt") === tenMb)
    }).pipe(Effect.provide(harness([
      ScriptedModel.text(twentyMb),
      ScriptedModel.toolUse("Write", { file_path: "big.txt", content: tenMb })
    ]))), { timeout: 180_000 })

  it.live("a line that is not JSON is logged and skipped, an unknown type reaches the user, an unreadable permission request is denied", () =>
    Effect.gen(function*() {
      const real = yield* CliLocator.locate()
      const env = yield* ScriptedModel.cliEnv
      const workspace = yield* Workspace
      const stdinLog = workspace.file("stdin.log")
      const messages = yield* collect(ClaudeCode.query("hi", {
        executable: noisyCli,
        env: { ...env, CLAUDE_EFFECT_REAL_CLI: real, CLAUDE_EFFECT_STDIN_LOG: stdinLog }
      })).pipe(Effect.provide(PermissionGate.layer(() => Effect.succeed(PermissionResult.allow()))))
      const unknown = messages.find((m) => m.type === "brand_new_type") as any
      assert.isDefined(unknown)
      assert.deepStrictEqual(unknown.payload, { x: 1 })
      assert.strictEqual(unknown.note, "from the future")
      assert.strictEqual((messages[messages.length - 1] as { result?: string }).result, "still fine")
      // the permission request it could not read was answered, and with a deny
      const answer = workspace.read("stdin.log").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l))
        .find((l) => l.type === "control_response" && l.response.request_id === "undecodable-permission")
      assert.strictEqual(answer?.response.response.behavior, "deny")
      const warnings = (yield* Logs).filter((entry) => entry.level === "Warn")
      assert.isTrue(
        warnings.some((entry) =>
          entry.message.includes("not a valid message") &&
          JSON.stringify(entry.annotations).includes("this line is not json")
        )
      )
    }).pipe(Effect.provide(harness([ScriptedModel.text("still fine")]))))
})

const tenMb = bigText(10 * 1024 * 1024)
const twentyMb = bigText(20 * 1024 * 1024)
