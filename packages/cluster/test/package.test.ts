/**
 * The published manifest: every module the index re-exports is reachable on its own path, nothing else is, the
 * peers (effect, whose `effect/cluster` the package is written on, `@effect/platform-node` and the SDK) are asked
 * for at the versions the package is tested with, it ships its build and README under the public name, and SQLite
 * is no dependency at all: `layerSingle` runs on Node's own node:sqlite.
 */
import * as PackageManifest from "@claude-effect/test-support/PackageManifest"
import { assert, describe, it } from "@effect/vitest"
import * as ChildProcess from "node:child_process"
import * as Path from "node:path"

const dir = Path.join(import.meta.dirname, "..")
const pkg = PackageManifest.load(dir)
const { manifest, modules } = pkg

describe("@claude-effect/cluster package", () => {
  it("is published as @claude-effect/cluster, publicly", () => {
    PackageManifest.assertPublishedAs(pkg, "@claude-effect/cluster")
  })

  it("publishes exactly the index's modules, each with types and code from the build", () => {
    assert.deepStrictEqual(modules.slice().sort(), ["ClaudeCluster", "ClaudeSession"])
    PackageManifest.assertPublishesIndexModules(pkg)
  })

  it("the index's modules, each reachable on its own path", async () => {
    const index = await import("@claude-effect/cluster")
    for (const module of modules) {
      const own: Record<string, unknown> = await import(`@claude-effect/cluster/${module}`)
      assert.strictEqual((index as Record<string, unknown>)[module], own, module)
    }
  })

  it("takes effect, @effect/platform-node and the SDK as peers, in the ranges of the versions it is tested with", () => {
    assert.strictEqual(manifest.peerDependencies["@claude-effect/sdk"], "workspace:^")
    assert.strictEqual(manifest.dependencies["@claude-effect/sql"], "workspace:^")
    for (const peer of ["effect", "@effect/platform-node"]) {
      assert.strictEqual(manifest.peerDependencies[peer], "~4.1.5", peer)
    }
    PackageManifest.assertPeersInstalled(pkg)
    // effect/cluster, effect/rpc and effect/sql are part of effect 4
    for (const gone of ["@effect/cluster", "@effect/rpc", "@effect/sql", "@effect/platform", "@effect/workflow"]) {
      assert.notProperty(manifest.peerDependencies, gone)
      assert.notProperty(manifest.dependencies, gone)
    }
    assert.deepStrictEqual(manifest.engines, { node: ">=22.19" }) // node:sqlite without a flag
  })

  it("ships the build, the license, the README and the sources its source maps point at", () => {
    PackageManifest.assertShipsBuild(pkg, ["README.md"])
  })

  it(
    "SQLite is no dependency: where no SQLite package loads, the package loads and layerSingle runs on node:sqlite",
    () => {
      const all = { ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.devDependencies }
      assert.notProperty(all, "@effect/sql-sqlite-node")
      assert.notProperty(all, "better-sqlite3")
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
        { cwd: dir, encoding: "utf8", timeout: 60_000 }
      )
      assert.strictEqual(run.status, 0, run.stderr)
      const seen = JSON.parse(run.stdout) as { loaded: boolean; tables: Array<string> }
      assert.isTrue(seen.loaded)
      assert.includeMembers(seen.tables, ["cluster_messages", "cluster_replies", "cluster_runners"])
    },
    60_000
  )
})
