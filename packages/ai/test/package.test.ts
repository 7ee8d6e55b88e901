/**
 * The published manifest: every module the index re-exports is reachable on
 * its own path, nothing else is, and `@effect/ai` is a peer at the version
 * the workspace tests against.
 */
import * as PackageManifest from "@claude-effect/test-support/PackageManifest"
import { assert, describe, it } from "@effect/vitest"
import * as Path from "node:path"

const pkg = PackageManifest.load(Path.join(import.meta.dirname, ".."))
const { manifest, modules } = pkg

describe("@claude-effect/ai package", () => {
  it("publishes exactly the index's modules, each with types and code from the build", () => {
    assert.isAbove(modules.length, 3)
    PackageManifest.assertPublishesIndexModules(pkg)
  })

  it("takes @effect/ai as a peer, in the range of the version it is tested with", () => {
    assert.strictEqual(manifest.peerDependencies["@effect/ai"], "^0.37.0")
    assert.match(pkg.installedVersion("@effect/ai"), /^0\.37\./)
    assert.strictEqual(manifest.dependencies["@claude-effect/sdk"], "workspace:^")
    PackageManifest.assertShipsBuild(pkg, ["README.md"])
  })
})
