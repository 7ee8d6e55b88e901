/**
 * The published manifest: every module the index re-exports is reachable on
 * its own path, nothing else is, and the `@effect` peers (cluster, rpc, sql,
 * workflow, ...) are asked for at the versions the package is tested with.
 * SQLite (a native build) is an optional peer, loaded by `layerSingle` only.
 */
import * as PackageManifest from "@claude-effect/test-support/PackageManifest"
import { assert, describe, it } from "@effect/vitest"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
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

  it(
    "SQLite is an optional peer: without it the package loads, and only layerSingle fails, with MissingDependency",
    () => {
      assert.strictEqual(manifest.peerDependencies["@effect/sql-sqlite-node"], "^0.53.0")
      const raw = JSON.parse(Fs.readFileSync(Path.join(import.meta.dirname, "..", "package.json"), "utf8"))
      assert.deepStrictEqual(raw.peerDependenciesMeta, { "@effect/sql-sqlite-node": { optional: true } })
      const fixtures = Path.join(import.meta.dirname, "fixtures")
      const run = ChildProcess.spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "--import",
          Path.join(fixtures, "block-sqlite.mjs"),
          Path.join(fixtures, "without-sqlite.ts")
        ],
        { cwd: Path.join(import.meta.dirname, ".."), encoding: "utf8", timeout: 60_000 }
      )
      assert.strictEqual(run.status, 0, run.stderr)
      assert.deepStrictEqual(JSON.parse(run.stdout), { loaded: true, single: "MissingDependency" })
    },
    60_000
  )
})
