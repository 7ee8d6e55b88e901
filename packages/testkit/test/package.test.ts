/**
 * The published manifest: what an installed package lets users import. Every
 * module the index re-exports is reachable on its own path, nothing else is
 * (no `./internal/*`), and the bin is shipped.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Testkit from "../src/index.js"

const packageDir = Path.join(import.meta.dirname, "..")
const manifest = JSON.parse(Fs.readFileSync(Path.join(packageDir, "package.json"), "utf8"))
const index = Fs.readFileSync(Path.join(packageDir, "src", "index.ts"), "utf8")
const modules = [...index.matchAll(/^export \* as (\w+) from "\.\/(\w+)\.js"$/gm)].map((match) => match[2]!)

describe("@claude-effect/testkit package", () => {
  it("publishes exactly the index's modules, each with types and code from the build", () => {
    assert.deepStrictEqual(modules.slice().sort(), [
      "Arbitraries",
      "FakeCli",
      "HookTest",
      "PostgresServer",
      "ScriptFile",
      "ScriptedModel",
      "ToolInputs"
    ])
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

  it("every namespace of the index is a loaded module", () => {
    for (const module of modules) {
      const namespace = (Testkit as Record<string, unknown>)[module]
      assert.strictEqual(typeof namespace, "object", module)
      assert.isAbove(Object.keys(namespace ?? {}).length, 0, module)
    }
  })

  it("ships the bin, the build, the license and the sources its source maps point at", () => {
    assert.deepStrictEqual(manifest.bin, { "claude-effect-testkit": "./bin/claude-effect-testkit.mjs" })
    assert.includeMembers(manifest.files, ["bin", "build/src", "src", "LICENSE"])
    assert.isTrue(Fs.existsSync(Path.join(packageDir, "LICENSE")))
    assert.strictEqual(manifest.license, "MIT")
    assert.strictEqual(manifest.scripts.prepack, "tsc -b tsconfig.src.json")
  })
})
