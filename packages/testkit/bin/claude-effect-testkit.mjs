#!/usr/bin/env node
// claude-effect-testkit: the testkit's command line. Run `claude-effect-testkit --help`.
//
//   claude-effect-testkit serve --script script.json [--port 0]
//
// serves a ScriptedModel from a script file on 127.0.0.1 and prints the environment for the CLI.
//
// Which code runs: the compiled build (`build/src/bin/serveCli.js`), what a published package
// ships; in this repository (where `tsconfig.src.json` sits beside this package's manifest, and is not
// published) the TypeScript source, through Node's own type stripping (Node >= 22.18 runs `.ts`
// files outside node_modules as they are): a resolve hook maps the sources' `.js` specifiers to their
// `.ts` files, so no tsx is needed.
import { existsSync, readFileSync } from "node:fs"
import * as Module from "node:module"
import { dirname, join } from "node:path"
import process from "node:process"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const built = join(root, "build", "src", "bin", "serveCli.js")
const source = join(root, "src", "bin", "serveCli.ts")
const inWorkspace = existsSync(join(root, "tsconfig.src.json"))

const load = async () => {
  if (inWorkspace && existsSync(source)) {
    if (typeof Module.registerHooks !== "function") {
      throw new Error(`Node.js >= 22.19 is required (this is ${process.version})`)
    }
    Module.registerHooks({
      resolve(specifier, context, nextResolve) {
        if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL?.endsWith(".ts")) {
          const ts = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL)
          if (existsSync(fileURLToPath(ts))) return nextResolve(ts.href, context)
        }
        return nextResolve(specifier, context)
      }
    })
    return import(pathToFileURL(source).href)
  }
  if (existsSync(built)) return import(pathToFileURL(built).href)
  throw new Error(`no build of @claude-effect/testkit at ${built}: run \`pnpm build\``)
}

try {
  const { cli } = await load()
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
  const Effect = await import("effect/Effect")
  const NodeServices = await import("@effect/platform-node/NodeServices")
  const NodeRuntime = await import("@effect/platform-node/NodeRuntime")
  NodeRuntime.runMain(
    Effect.flatMap(
      Effect.provide(cli(process.argv, version), NodeServices.layer),
      (code) => Effect.sync(() => void (process.exitCode = code))
    ),
    { disableErrorReporting: true }
  )
} catch (error) {
  process.stderr.write(`claude-effect-testkit: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
}
