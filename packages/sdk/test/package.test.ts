/**
 * The published manifest: what an installed package lets users import. Every
 * module the index re-exports is reachable on its own path, nothing else is
 * (no `./internal/*`), the CLI comes with the SDK at the version it is tested
 * against, and the bin and the command-hooks guide are shipped.
 */
import * as PackageManifest from "@claude-effect/test-support/PackageManifest"
import { assert, describe, it } from "@effect/vitest"
import * as Path from "node:path"

const pkg = PackageManifest.load(Path.join(import.meta.dirname, ".."))
const { manifest, modules } = pkg

describe("@claude-effect/sdk package", () => {
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

  it("ships the bin, the build, the guide, the license and the sources its source maps point at", () => {
    assert.deepStrictEqual(manifest.bin, { "claude-effect-hooks": "./bin/claude-effect-hooks.mjs" })
    PackageManifest.assertShipsBuild(pkg, ["bin", "docs"])
    assert.isTrue(pkg.has("docs", "command-hooks.md"))
  })
})
