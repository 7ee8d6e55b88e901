import { CliLocator } from "@claude-effect/sdk"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Command from "@effect/platform/Command"
import * as FileSystem from "@effect/platform/FileSystem"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"

describe("CliLocator", () => {
  it.effect("finds the pinned real CLI and it runs (--version)", () =>
    Effect.gen(function*() {
      const executable = yield* CliLocator.locate()
      assert.include(executable, "claude-code-")
      const version = yield* Command.string(Command.make(executable, "--version"))
      assert.match(version, /^2\.1\.328 \(Claude Code\)/)
    }).pipe(Effect.provide(NodeContext.layer)))

  it.effect("an explicit executable wins and is checked", () =>
    Effect.gen(function*() {
      const error = yield* CliLocator.locate({ executable: "/nonexistent/claude" }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "CliNotFoundError")
      assert.strictEqual(error.reason, "NotFound")
      assert.deepStrictEqual(error.attempts.map((a) => a.source), ["option"])
    }).pipe(Effect.provide(NodeContext.layer)))

  it.scoped("lists every place tried when nothing is found", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const empty = yield* fs.makeTempDirectoryScoped()
      const error = yield* CliLocator.locate({ searchFrom: [empty], pathEnv: empty }).pipe(Effect.flip)
      assert.deepStrictEqual(error.attempts.map((a) => a.source), ["platform-package", "wrapper-package", "path"])
      assert.include(error.message, "@anthropic-ai/claude-code")
      assert.include(error.message, "Fix:")
    }).pipe(Effect.provide(NodeContext.layer)))

  it.scoped("skips the wrapper's postinstall stub", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const root = yield* fs.makeTempDirectoryScoped()
      const wrapper = `${root}/node_modules/@anthropic-ai/claude-code`
      yield* fs.makeDirectory(`${wrapper}/bin`, { recursive: true })
      yield* fs.writeFileString(`${wrapper}/package.json`, JSON.stringify({ name: "@anthropic-ai/claude-code" }))
      yield* fs.writeFileString(`${wrapper}/bin/claude.exe`, "echo \"Error: claude native binary not installed.\"\n")
      yield* fs.chmod(`${wrapper}/bin/claude.exe`, 0o755)
      const error = yield* CliLocator.locate({ searchFrom: [root], pathEnv: root }).pipe(Effect.flip)
      const wrapperAttempt = error.attempts.find((a) => a.source === "wrapper-package")
      assert.strictEqual(wrapperAttempt?.problem, "postinstall stub, not the binary")
    }).pipe(Effect.provide(NodeContext.layer)))
})
