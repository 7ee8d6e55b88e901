#!/usr/bin/env node
// claude-effect-testkit: the testkit's command line. Run `claude-effect-testkit --help`.
//
//   claude-effect-testkit serve --script script.json [--port 0]
//
// serves a ScriptedModel from a script file on 127.0.0.1 and prints the environment for the CLI.
//
// Which code runs: the compiled build (`build/src/bin/serveCli.js`), what a published package
// ships; in this repository (where `tsconfig.src.json` sits beside this package's manifest, and is not
// published) the TypeScript source through tsx when tsx is there.
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import process from "node:process"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const built = join(root, "build", "src", "bin", "serveCli.js")
const source = join(root, "src", "bin", "serveCli.ts")
const inWorkspace = existsSync(join(root, "tsconfig.src.json"))

// tsx's ESM API (`tsx/esm/api`, import condition), found from the workspace's packages.
const findTsx = () => {
  for (const base of [join(root, "package.json"), join(root, "..", "examples", "package.json")]) {
    if (!existsSync(base)) continue
    try {
      const manifest = createRequire(base).resolve("tsx/package.json")
      const entry = JSON.parse(readFileSync(manifest, "utf8")).exports["./esm/api"].import.default
      return join(dirname(manifest), entry)
    } catch {
      // not there
    }
  }
  return undefined
}

const load = async () => {
  if (inWorkspace && existsSync(source)) {
    const tsx = findTsx()
    if (tsx !== undefined) {
      const { register } = await import(pathToFileURL(tsx).href)
      register()
      return import(pathToFileURL(source).href)
    }
  }
  if (existsSync(built)) return import(pathToFileURL(built).href)
  throw new Error(`no build of @claude-effect/testkit at ${built}: run \`pnpm build\``)
}

try {
  const { cli } = await load()
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
  const Effect = await import("effect/Effect")
  const NodeContext = await import("@effect/platform-node/NodeContext")
  const NodeRuntime = await import("@effect/platform-node/NodeRuntime")
  NodeRuntime.runMain(
    Effect.flatMap(
      Effect.provide(cli(process.argv, version), NodeContext.layer),
      (code) => Effect.sync(() => void (process.exitCode = code))
    ),
    { disableErrorReporting: true }
  )
} catch (error) {
  process.stderr.write(`claude-effect-testkit: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
}
