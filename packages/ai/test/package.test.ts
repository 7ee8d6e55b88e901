/**
 * The published manifest: every module the index re-exports is reachable on
 * its own path, nothing else is, and `@effect/ai` is a peer at the version
 * the workspace tests against.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"

const packageDir = Path.join(import.meta.dirname, "..")
const read = (file: string) => JSON.parse(Fs.readFileSync(file, "utf8"))
const manifest = read(Path.join(packageDir, "package.json"))
const index = Fs.readFileSync(Path.join(packageDir, "src", "index.ts"), "utf8")
const modules = [...index.matchAll(/^export \* as (\w+) from "\.\/(\w+)\.js"$/gm)].map((match) => match[2]!)

describe("@claude-effect/ai package", () => {
  it("publishes exactly the index's modules, each with types and code from the build", () => {
    assert.isAbove(modules.length, 3)
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
  })

  it("takes @effect/ai as a peer, in the range of the version it is tested with", () => {
    const installed = read(Path.join(packageDir, "node_modules", "@effect", "ai", "package.json"))
    assert.strictEqual(manifest.peerDependencies["@effect/ai"], "^0.37.0")
    assert.match(installed.version, /^0\.37\./)
    assert.strictEqual(manifest.dependencies["@claude-effect/sdk"], "workspace:^")
    assert.strictEqual(manifest.scripts.prepack, "tsc -b tsconfig.src.json")
    assert.includeMembers(manifest.files, ["build/src", "src", "LICENSE", "README.md"])
  })
})
