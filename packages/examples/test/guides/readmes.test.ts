/**
 * The examples of packages/sdk/README.md and packages/sql/README.md, run on
 * the real CLI against the scripted model.
 */
import { ClaudeCode } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Example from "../../src/Example.js"
import * as sdk from "../../src/guides/sdk-readme.js"
import * as sql from "../../src/guides/sql-readme.js"
import { inTempDir } from "./tempDir.js"

describe("packages/sdk/README.md, on the real CLI", () => {
  it.live("an in-process tool: the model calls lookup, the handler asks Inventory, the answer is structured", () =>
    Effect.gen(function*() {
      const asked: Array<string> = []
      yield* sdk.program.pipe(
        Effect.provide(Layer.succeed(sdk.Inventory, { stock: (sku) => Effect.sync(() => (asked.push(sku), 17)) }))
      )
      assert.deepStrictEqual(asked, ["SKU-1"])
      assert.deepStrictEqual(JSON.parse((yield* ScriptedModel.toolResults)[0]!.content), { sku: "SKU-1", stock: 17 })
    }).pipe(Effect.provide(Example.layerScripted([
      ScriptedModel.toolUse("mcp__inventory__lookup", { sku: "SKU-1" }),
      ScriptedModel.text("17 left.")
    ]))))
})

describe("packages/sql/README.md, on the real CLI", () => {
  it.live("the store: sessions.db in the working directory, and a resume from it under another HOME", () =>
    Effect.gen(function*() {
      // the store's file is relative: make the working directory a fresh one before the layer opens it
      const { dir } = yield* inTempDir("claude-effect-readme-")
      yield* Effect.gen(function*() {
        const env = yield* ScriptedModel.cliEnv
        const first = yield* ClaudeCode.result("The code word is plum.", { cwd: dir, env })
        assert.isTrue(Fs.statSync(Path.join(dir, "sessions.db")).size > 0)
        // a machine that never saw the session: another HOME, the same database
        const otherHome = Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-other-home-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(otherHome, { recursive: true, force: true })))
        yield* ClaudeCode.result("What was the code word?", {
          cwd: dir,
          env: { ...env, HOME: otherHome, CLAUDE_CONFIG_DIR: Path.join(otherHome, ".claude") },
          resume: first.session_id
        })
        const last = yield* ScriptedModel.lastTurnRequest
        assert.isTrue(last.includes("The code word is plum."))
      }).pipe(Effect.provide(sql.store), Effect.scoped)
    }).pipe(
      Effect.scoped,
      Effect.provide(Example.layerScripted([ScriptedModel.text("Noted."), ScriptedModel.text("Plum.")]))
    ))
})
