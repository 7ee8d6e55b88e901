/**
 * The published manifest: what an installed package lets users import. Every
 * module the index re-exports is reachable on its own path, nothing else is
 * (no `./internal/*`), the CLI comes with the SDK at the version it is tested
 * against, and the bin and the command-hooks guide are shipped.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"

const packageDir = Path.join(import.meta.dirname, "..")
const read = (file: string) => JSON.parse(Fs.readFileSync(file, "utf8"))
const manifest = read(Path.join(packageDir, "package.json"))
const index = Fs.readFileSync(Path.join(packageDir, "src", "index.ts"), "utf8")
const modules = [...index.matchAll(/^export \* as (\w+) from "\.\/(\w+)\.js"$/gm)].map((match) => match[2]!)

describe("@claude-effect/sdk package", () => {
  it("publishes exactly the index's modules, each with types and code from the build", () => {
    assert.isAbove(modules.length, 10)
    const exported = Object.keys(manifest.publishConfig.exports)
    assert.deepStrictEqual(
      exported.slice().sort(),
      [".", "./package.json", ...modules.map((m) => `./${m}`)].slice().sort()
    )
    for (const module of modules) {
      assert.deepStrictEqual(manifest.publishConfig.exports[`./${module}`], {
        types: `./build/src/${module}.d.ts`,
        default: `./build/src/${module}.js`
      })
    }
    assert.isFalse(exported.some((key) => key.includes("internal") || key.includes("*")))
  })

  it("depends on the exact CLI version the workspace tests against", () => {
    const cli = read(Path.join(packageDir, "node_modules", "@anthropic-ai", "claude-code", "package.json"))
    assert.strictEqual(manifest.dependencies["@anthropic-ai/claude-code"], cli.version)
    assert.match(manifest.dependencies["@anthropic-ai/claude-code"], /^\d+\.\d+\.\d+$/)
  })

  it("ships the bin, the build, the guide, the license and the sources its source maps point at", () => {
    assert.deepStrictEqual(manifest.bin, { "claude-effect-hooks": "./bin/claude-effect-hooks.mjs" })
    assert.includeMembers(manifest.files, ["bin", "build/src", "src", "docs", "LICENSE"])
    assert.isTrue(Fs.existsSync(Path.join(packageDir, "LICENSE")))
    assert.isTrue(Fs.existsSync(Path.join(packageDir, "docs", "command-hooks.md")))
    assert.strictEqual(manifest.license, "MIT")
    assert.strictEqual(manifest.scripts.prepack, "tsc -b tsconfig.src.json")
  })
})
