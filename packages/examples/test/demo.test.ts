import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Fs from "node:fs"
import * as Program from "../src/demo/Program.js"
import * as Terminal from "../src/demo/Terminal.js"

describe("the demo", () => {
  it.live("runs to completion against the scripted model: deny, rewrite, audit, Stop hook, summary", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const root = yield* fs.makeTempDirectoryScoped({ prefix: "claude-effect-demo-test-" })
      const sink = Terminal.memory()
      const report = yield* Program.run({ sink, mode: "scripted", root })
      const transcript = sink.text()

      // plain output: no escape sequences, no spinner
      assert.notInclude(transcript, "\x1b[")

      // the guard denies the destructive command, and the model's next turn says so
      assert.include(transcript, "⏺ Bash   rm -rf build")
      assert.include(transcript, "✖ guard · PreToolUse  denied: Blocked by the guard policy: rm -rf")
      assert.include(transcript, "claude › The guard hook refused that")
      assert.isTrue(Fs.existsSync(`${report.project}/build/index.js`), "build/ survived")

      // the gate rewrites the Write outside the project into the sandbox, and the file is there
      assert.include(
        transcript,
        "↪ gate · can_use_tool  rewrote: file_path ../RELEASE_NOTES.md → sandbox/RELEASE_NOTES.md"
      )
      assert.isTrue(Fs.existsSync(report.sandboxFile))
      assert.include(Fs.readFileSync(report.sandboxFile, "utf8"), "# widgets 1.2.0")
      assert.isFalse(Fs.existsSync(report.outsideFile))

      // the audit log: a JSONL file with a record per hook call and gate decision
      const records = Fs.readFileSync(report.auditPath, "utf8").trim().split("\n").map((line) => JSON.parse(line))
      assert.deepStrictEqual(
        records.map((r) => [r.event, r.tool, r.decision].filter((x) => x !== undefined).join(" ")),
        [
          "PreToolUse Bash",
          "PreToolUse Write",
          "can_use_tool Write rewrite",
          "PostToolUse Write",
          "PreToolUse mcp__inventory__lookup",
          "can_use_tool mcp__inventory__lookup allow",
          "PostToolUse mcp__inventory__lookup"
        ]
      )
      for (const record of records) assert.isString(record.at)
      assert.include(transcript, `audit log  7 records → ${report.auditPath}`)

      // the in-process MCP tool: called, allowed by the gate, answered by the Effect handler
      assert.include(transcript, "⏺ inventory.lookup {\"sku\":\"widget-42\"}")
      assert.include(transcript, "✔ gate · can_use_tool  allowed")
      assert.include(transcript, "⎿ {\"sku\":\"widget-42\",\"inStock\":17}")
      assert.match(transcript, /17\s+widget-42\s+are\s+in\s+stock/)

      // the Stop hook sends the model back once, then lets it finish
      assert.include(transcript, "✋ done-check · Stop  blocked: Before you finish")
      assert.include(transcript, "✔ done-check · Stop  passed")
      assert.include(transcript, "claude › Release notes for 1.2.0 are in sandbox/RELEASE_NOTES.md")

      // the summary
      const result = report.summary.stats.result
      assert.isDefined(result)
      assert.isFalse(result!.is_error)
      assert.strictEqual(result!.num_turns, 5)
      assert.match(transcript, /result +✔ success · 5 turns · [\d.]+ s/)
      assert.match(transcript, /cost +\$[\d.]+/)
      assert.match(transcript, /tokens +[\d,]+ in · [\d,]+ out/)
      assert.include(transcript, "done-check ✋ blocked → ✔ passed")
      assert.include(transcript, "sandbox    ✔ sandbox/RELEASE_NOTES.md is there")
      assert.include(transcript, "mcp tool   ✔ inventory.lookup {\"sku\":\"widget-42\"}")
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer)))
})

describe("the demo's terminal", () => {
  it.live("on a terminal: colors, a spinner while waiting, and the cursor given back at the end", () =>
    Effect.gen(function*() {
      const chunks: Array<string> = []
      const sink: Terminal.Sink = { write: (chunk) => void chunks.push(chunk), fancy: true, columns: 80 }
      yield* Effect.scoped(Effect.gen(function*() {
        const terminal = yield* Terminal.make(sink)
        yield* terminal.status("Claude is thinking")
        yield* Effect.sleep("200 millis")
        yield* terminal.line(terminal.style.red("denied"))
      }))
      const output = chunks.join("")
      assert.include(output, "\x1b[?25l")
      assert.include(output, "Claude is thinking")
      assert.include(output, "\x1b[31mdenied\x1b[39m")
      assert.isTrue(output.endsWith("\x1b[?25h"), "the cursor is shown again")
    }))
})
