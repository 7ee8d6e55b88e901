/**
 * The published manifest: every module the index re-exports is reachable on
 * its own path, nothing else is, and the peers (effect, whose `effect/sql` the
 * store is written on, and the SDK) are asked for at the versions the package
 * is tested with, under the public name, with the README.
 */
import * as PackageManifest from "@claude-effect/test-support/PackageManifest"
import { assert, describe, it } from "@effect/vitest"
import * as Path from "node:path"

const pkg = PackageManifest.load(Path.join(import.meta.dirname, ".."))
const { manifest, modules } = pkg

describe("@claude-effect/sql package", () => {
  it("is published as @claude-effect/sql, publicly", () => {
    PackageManifest.assertPublishedAs(pkg, "@claude-effect/sql")
  })

  it("publishes exactly the index's modules, each with types and code from the build", () => {
    assert.deepStrictEqual(modules, ["SqliteClient", "SqlSessionStore"])
    PackageManifest.assertPublishesIndexModules(pkg)
  })

  it("takes effect and the SDK as peers, in the ranges of the versions it is tested with", () => {
    assert.strictEqual(manifest.peerDependencies["@claude-effect/sdk"], "workspace:^")
    assert.strictEqual(manifest.peerDependencies["effect"], "~4.1.5")
    assert.notProperty(manifest.peerDependencies, "@effect/sql") // part of effect 4
    assert.deepStrictEqual(manifest.engines, { node: ">=22.19" }) // node:sqlite without a flag
    PackageManifest.assertPeersInstalled(pkg)
  })

  it("ships the build, the license, the README and the sources its source maps point at", () => {
    PackageManifest.assertShipsBuild(pkg, ["README.md"])
  })
})
