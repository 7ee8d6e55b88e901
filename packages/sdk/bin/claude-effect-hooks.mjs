#!/usr/bin/env node
// claude-effect-hooks: adds command hooks (hook programs built on @claude-effect/sdk/HookCommand)
// to Claude Code settings files. Run `claude-effect-hooks --help`.
//
// Which code runs:
// - the compiled build (`build/src/internal/hookCommandCli.js`): what a published package ships
//   (`pnpm build`, run by `prepack`), run by plain node;
// - in this repository (where `tsconfig.src.json` sits beside this package's manifest, and is not
//   published), or when CLAUDE_EFFECT_HOOKS_FROM_SOURCE=1: the TypeScript source through tsx, when
//   tsx is found next to this package or in the workspace's examples and bench packages, so that
//   the bin never runs a stale (or half-written) build of the source being worked on.
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import process from "node:process"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const built = join(root, "build", "src", "internal", "hookCommandCli.js")
const source = join(root, "src", "internal", "hookCommandCli.ts")

const inWorkspace = existsSync(join(root, "tsconfig.src.json"))

// tsx's ESM API (`tsx/esm/api`, import condition), found from its package.json.
const findTsx = () => {
  const from = [
    join(root, "package.json"),
    join(root, "..", "bench", "package.json"),
    join(root, "..", "examples", "package.json")
  ]
  for (const base of from) {
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
  const wantSource = process.env.CLAUDE_EFFECT_HOOKS_FROM_SOURCE === "1" || inWorkspace
  if (wantSource && existsSync(source)) {
    const tsx = findTsx()
    if (tsx !== undefined) {
      const { register } = await import(pathToFileURL(tsx).href)
      register()
      return import(pathToFileURL(source).href)
    }
  }
  if (existsSync(built)) return import(pathToFileURL(built).href)
  throw new Error(
    `no build of @claude-effect/sdk at ${built}, and no tsx to run its source: run \`pnpm build\` (or install tsx)`
  )
}

try {
  const { cli } = await load()
  const Effect = await import("effect/Effect")
  const NodeServices = await import("@effect/platform-node/NodeServices")
  process.exitCode = await Effect.runPromise(Effect.provide(cli(process.argv.slice(2)), NodeServices.layer))
} catch (error) {
  process.stderr.write(`claude-effect-hooks: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
}
