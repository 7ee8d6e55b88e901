import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import * as ChildProcess from "effect/process/ChildProcess"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import * as NodePath from "node:path"
import * as CliLocator from "../src/CliLocator.js"

// A fake install: the wrapper package and the platform package with an executable `claude` in it.
const fakeCli = Effect.fnUntraced(function*(wrapperDir: string, platformDir: string) {
  const fs = yield* FileSystem.FileSystem
  yield* fs.makeDirectory(`${wrapperDir}/bin`, { recursive: true })
  yield* fs.writeFileString(`${wrapperDir}/package.json`, JSON.stringify({ name: "@anthropic-ai/claude-code" }))
  yield* fs.makeDirectory(platformDir, { recursive: true })
  yield* fs.writeFileString(`${platformDir}/package.json`, JSON.stringify({ name: CliLocator.platformPackageName() }))
  yield* fs.writeFileString(`${platformDir}/claude`, "#!/bin/sh\necho fake\n")
  yield* fs.chmod(`${platformDir}/claude`, 0o755)
  return `${platformDir}/claude`
})

// Where the SDK's compiled files sit inside its package.
const sdkFiles = (sdkDir: string) => `${sdkDir}/build/src`

describe("CliLocator", () => {
  it.effect("finds the pinned real CLI and it runs (--version)", () =>
    Effect.gen(function*() {
      const executable = yield* CliLocator.locate()
      assert.include(executable, "claude-code-")
      const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
      const version = yield* spawner.string(ChildProcess.make(executable, ["--version"]))
      assert.match(version, /^2\.1\.328 \(Claude Code\)/)
    }).pipe(Effect.provide(NodeServices.layer)))

  it.effect("an explicit executable wins and is checked", () =>
    Effect.gen(function*() {
      const error = yield* CliLocator.locate({ executable: "/nonexistent/claude" }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "CliNotFoundError")
      assert.strictEqual(error.reason, "NotFound")
      assert.deepStrictEqual(error.attempts.map((a) => a.source), ["option"])
    }).pipe(Effect.provide(NodeServices.layer)))

  it.effect("lists every place tried when nothing is found", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const empty = yield* fs.makeTempDirectoryScoped()
      const error = yield* CliLocator.locate({ searchFrom: [empty], pathEnv: empty }).pipe(Effect.flip)
      assert.deepStrictEqual(error.attempts.map((a) => a.source), ["platform-package", "wrapper-package", "path"])
      assert.include(error.message, "@anthropic-ai/claude-code")
      assert.include(error.message, "Fix:")
    }).pipe(Effect.provide(NodeServices.layer)))

  it.effect("skips the wrapper's postinstall stub", () =>
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
    }).pipe(Effect.provide(NodeServices.layer)))

  describe("finds the CLI next to the SDK in every install layout", () => {
    it.effect("npm, hoisted: node_modules/@anthropic-ai beside node_modules/@claude-effect/sdk", () =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const root = yield* fs.realPath(yield* fs.makeTempDirectoryScoped())
        const modules = `${root}/node_modules`
        const expected = yield* fakeCli(
          `${modules}/@anthropic-ai/claude-code`,
          `${modules}/${CliLocator.platformPackageName()}`
        )
        const sdk = sdkFiles(`${modules}/@claude-effect/sdk`)
        yield* fs.makeDirectory(sdk, { recursive: true })
        assert.strictEqual(yield* CliLocator.locate({ searchFrom: [sdk], pathEnv: "" }), expected)
      }).pipe(Effect.provide(NodeServices.layer)))

    it.effect("npm, not hoisted: the CLI nested under the SDK package wins over another one higher up", () =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const root = yield* fs.realPath(yield* fs.makeTempDirectoryScoped())
        const sdkDir = `${root}/node_modules/@claude-effect/sdk`
        const nested = `${sdkDir}/node_modules`
        // An app-level CLI of another version, hoisted above: the SDK's own must be found first.
        yield* fakeCli(
          `${root}/node_modules/@anthropic-ai/claude-code`,
          `${root}/node_modules/${CliLocator.platformPackageName()}`
        )
        const expected = yield* fakeCli(
          `${nested}/@anthropic-ai/claude-code`,
          `${nested}/${CliLocator.platformPackageName()}`
        )
        yield* fs.makeDirectory(sdkFiles(sdkDir), { recursive: true })
        assert.strictEqual(yield* CliLocator.locate({ searchFrom: [sdkFiles(sdkDir)], pathEnv: "" }), expected)
      }).pipe(Effect.provide(NodeServices.layer)))

    it.effect("pnpm: the platform package resolves from the wrapper's real directory in the store", () =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const root = yield* fs.realPath(yield* fs.makeTempDirectoryScoped())
        const store = `${root}/node_modules/.pnpm`
        const cliStore = `${store}/@anthropic-ai+claude-code@2.1.328/node_modules`
        const platformStore = `${store}/${CliLocator.platformPackageName().replace("/", "+")}@2.1.328/node_modules`
        const expected = yield* fakeCli(
          `${cliStore}/@anthropic-ai/claude-code`,
          `${platformStore}/${CliLocator.platformPackageName()}`
        )
        // pnpm links an optional dependency beside its dependent, and a dependency beside the SDK.
        yield* fs.symlink(
          `${platformStore}/${CliLocator.platformPackageName()}`,
          `${cliStore}/${CliLocator.platformPackageName()}`
        )
        const sdkStore = `${store}/@claude-effect+sdk@0.1.0/node_modules`
        yield* fs.makeDirectory(`${sdkStore}/@anthropic-ai`, { recursive: true })
        yield* fs.symlink(`${cliStore}/@anthropic-ai/claude-code`, `${sdkStore}/@anthropic-ai/claude-code`)
        const sdk = sdkFiles(`${sdkStore}/@claude-effect/sdk`)
        yield* fs.makeDirectory(sdk, { recursive: true })
        const found = yield* CliLocator.locate({ searchFrom: [sdk], pathEnv: "" })
        assert.strictEqual(yield* fs.realPath(found), expected)
      }).pipe(Effect.provide(NodeServices.layer)))

    it.effect("a bundle outside node_modules: found from the entry script, not from the working directory", () =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const path = yield* Path.Path
        const app = yield* fs.realPath(yield* fs.makeTempDirectoryScoped())
        const elsewhere = yield* fs.realPath(yield* fs.makeTempDirectoryScoped())
        const expected = yield* fakeCli(
          `${app}/node_modules/@anthropic-ai/claude-code`,
          `${app}/node_modules/${CliLocator.platformPackageName()}`
        )
        yield* fs.makeDirectory(`${app}/dist`)
        yield* fs.writeFileString(`${app}/dist/main.mjs`, "")
        // `node dist/main.mjs` run from another directory: argv[1] is the bundle.
        const argv = process.argv
        const cwd = process.cwd()
        yield* Effect.acquireRelease(
          Effect.sync(() => {
            process.argv = [argv[0]!, `${app}/dist/main.mjs`]
            process.chdir(elsewhere)
          }),
          () =>
            Effect.sync(() => {
              process.argv = argv
              process.chdir(cwd)
            })
        )
        const roots = CliLocator.defaultSearchFrom()
        assert.include(roots, path.join(app, "dist"))
        assert.strictEqual(roots[roots.length - 1], elsewhere)
        // This module's own directory is in the workspace: leave it out to see the entry script at work.
        const found = yield* CliLocator.locate({ searchFrom: roots.slice(1), pathEnv: "" })
        assert.strictEqual(found, expected)
      }).pipe(Effect.provide(NodeServices.layer)))

    it.effect("the failure names the directories searched", () =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const a = yield* fs.makeTempDirectoryScoped()
        const b = yield* fs.makeTempDirectoryScoped()
        const error = yield* CliLocator.locate({ searchFrom: [a, b], pathEnv: "" }).pipe(Effect.flip)
        assert.strictEqual(error.reason, "NotFound")
        const platform = error.attempts.find((attempt) => attempt.source === "platform-package")
        assert.include(platform?.problem, `searched node_modules from ${a}, ${b}`)
        assert.include(error.message, NodePath.join(b))
      }).pipe(Effect.provide(NodeServices.layer)))
  })
})
