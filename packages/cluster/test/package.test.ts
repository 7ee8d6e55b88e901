/**
 * The published manifest: every module the index re-exports is reachable on
 * its own path, nothing else is, and the `@effect` peers (cluster, rpc, sql,
 * workflow, ...) are asked for at the versions the package is tested with.
 */
import * as PackageManifest from "@claude-effect/test-support/PackageManifest"
import { assert, describe, it } from "@effect/vitest"
import * as Path from "node:path"

const pkg = PackageManifest.load(Path.join(import.meta.dirname, ".."))
const { manifest, modules } = pkg

describe("@claude-effect/cluster package", () => {
  it("publishes exactly the index's modules, each with types and code from the build", () => {
    assert.deepStrictEqual(modules.slice().sort(), ["ClaudeCluster", "ClaudeSession"])
    PackageManifest.assertPublishesIndexModules(pkg)
  })

  it("takes @effect/cluster and the SDK as peers, in the ranges of the versions it is tested with", () => {
    assert.strictEqual(manifest.peerDependencies["@claude-effect/sdk"], "workspace:^")
    assert.strictEqual(manifest.peerDependencies["@effect/cluster"], "^0.60.2")
    assert.strictEqual(manifest.dependencies["@claude-effect/sql"], "workspace:^")
    PackageManifest.assertPeersInstalled(pkg)
  })

  it("ships the build, the license, the README and the sources its source maps point at", () => {
    PackageManifest.assertShipsBuild(pkg, ["README.md"])
  })
})
