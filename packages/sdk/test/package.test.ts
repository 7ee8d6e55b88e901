/**
 * The published manifest: what an installed package lets users import. Every
 * module the index re-exports is reachable on its own path, nothing else is
 * (no `./internal/*`), the CLI comes with the SDK at the version it is tested
 * against, the platform is asked for at the versions it is tested with, and
 * the bin, the hook launcher, the command-hooks guide and the README are
 * shipped, under the public name.
 */
import * as PackageManifest from "@claude-effect/test-support/PackageManifest"
import { assert, describe, it } from "@effect/vitest"
import * as Path from "node:path"

const pkg = PackageManifest.load(Path.join(import.meta.dirname, ".."))
const { manifest, modules } = pkg

describe("@claude-effect/sdk package", () => {
  it("is published as @claude-effect/sdk, publicly", () => {
    PackageManifest.assertPublishedAs(pkg, "@claude-effect/sdk")
  })

  it("publishes exactly the index's modules, each with types and code from the build", () => {
    assert.isAbove(modules.length, 10)
    PackageManifest.assertPublishesIndexModules(pkg)
  })

  it("depends on the exact CLI version the workspace tests against", () => {
    assert.strictEqual(
      manifest.dependencies["@anthropic-ai/claude-code"],
      pkg.installedVersion("@anthropic-ai/claude-code")
    )
    assert.match(manifest.dependencies["@anthropic-ai/claude-code"]!, /^\d+\.\d+\.\d+$/)
  })

  it("takes effect and @effect/platform-node (optional) as peers, in the ranges of the versions it is tested with", () => {
    assert.deepStrictEqual(manifest.peerDependencies, { effect: "~4.1.5", "@effect/platform-node": "~4.1.5" })
    assert.deepStrictEqual(manifest.peerDependenciesMeta, { "@effect/platform-node": { optional: true } })
    assert.deepStrictEqual(manifest.engines, { node: ">=22.19" })
    PackageManifest.assertPeersInstalled(pkg)
  })

  it("ships the bin, the hook launcher, the build, the guide, the README, the license and the sources", () => {
    assert.deepStrictEqual(manifest.bin, { "claude-effect-hooks": "./bin/claude-effect-hooks.mjs" })
    PackageManifest.assertShipsBuild(pkg, ["bin", "docs", "README.md"])
    assert.isTrue(pkg.has("bin", "claude-effect-hooks.mjs"))
    assert.isTrue(pkg.has("bin", "hook-launcher.cjs"))
    assert.isTrue(pkg.has("docs", "command-hooks.md"))
  })
})
