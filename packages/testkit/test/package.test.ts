/**
 * The published manifest: what an installed package lets users import. Every
 * module the index re-exports is reachable on its own path, nothing else is
 * (no `./internal/*`), the bin is shipped, under the public name, and the
 * SDK is a dependency at the workspace's version.
 */
import * as PackageManifest from "@claude-effect/test-support/PackageManifest"
import { assert, describe, it } from "@effect/vitest"
import * as Path from "node:path"
import * as Testkit from "../src/index.js"

const pkg = PackageManifest.load(Path.join(import.meta.dirname, ".."))
const { manifest, modules } = pkg

describe("@claude-effect/testkit package", () => {
  it("is published as @claude-effect/testkit, publicly, and depends on the SDK at the workspace's version", () => {
    PackageManifest.assertPublishedAs(pkg, "@claude-effect/testkit")
    assert.strictEqual(manifest.dependencies["@claude-effect/sdk"], "workspace:^")
  })

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
    PackageManifest.assertPublishesIndexModules(pkg)
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
    PackageManifest.assertShipsBuild(pkg, ["bin"])
    assert.isTrue(pkg.has("bin", "claude-effect-testkit.mjs"))
  })
})
