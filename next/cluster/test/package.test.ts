/**
 * The manifest, as far as it applies before the flip (the package is private under its `next` name): every module
 * the index re-exports is reachable on its own path, the peers (effect, whose `effect/cluster` the package is
 * written on, `@effect/platform-node` and the SDK) are asked for at the versions the package is tested with, and
 * SQLite is no dependency at all: `layerSingle` runs on Node's own node:sqlite. What ships (publishConfig, files,
 * the build) waits for the flip (PORT-DEBT).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"

const dir = Path.join(import.meta.dirname, "..")
const Strings = Schema.Record(Schema.String, Schema.String)
const Manifest = Schema.Struct({
  engines: Strings,
  dependencies: Strings,
  peerDependencies: Strings,
  devDependencies: Strings
})
const read = (...segments: ReadonlyArray<string>) => Fs.readFileSync(Path.join(dir, ...segments), "utf8")
const manifest = Schema.decodeUnknownSync(Schema.fromJsonString(Manifest))(read("package.json"))
const modules = [...read("src", "index.ts").matchAll(/^export \* as (\w+) from "\.\/(\w+)\.js"$/gm)].map((m) => m[2]!)
const installedVersion = (name: string): string =>
  Schema.decodeUnknownSync(Schema.fromJsonString(Schema.Struct({ version: Schema.String })))(
    read("node_modules", ...name.split("/"), "package.json")
  ).version

describe("@claude-effect/cluster package", () => {
  it("the index's modules, each reachable on its own path", async () => {
    assert.deepStrictEqual(modules.slice().sort(), ["ClaudeCluster", "ClaudeSession"])
    const index = await import("@claude-effect-next/cluster")
    for (const module of modules) {
      const own: Record<string, unknown> = await import(`@claude-effect-next/cluster/${module}`)
      assert.strictEqual((index as Record<string, unknown>)[module], own, module)
    }
  })

  it("takes effect, @effect/platform-node and the SDK as peers, in the ranges of the versions it is tested with", () => {
    assert.match(manifest.peerDependencies["@claude-effect/sdk"]!, /^workspace:/)
    assert.match(manifest.dependencies["@claude-effect/sql"]!, /^workspace:/)
    for (const peer of ["effect", "@effect/platform-node"]) {
      assert.strictEqual(manifest.peerDependencies[peer], "^4.1.5", peer)
      const [major, minor, patch] = installedVersion(peer).split(".").map(Number) as [number, number, number]
      assert.isTrue(major === 4 && (minor > 1 || (minor === 1 && patch >= 5)), `${peer} ${installedVersion(peer)}`)
    }
    // effect/cluster, effect/rpc and effect/sql are part of effect 4
    for (const gone of ["@effect/cluster", "@effect/rpc", "@effect/sql", "@effect/platform", "@effect/workflow"]) {
      assert.notProperty(manifest.peerDependencies, gone)
      assert.notProperty(manifest.dependencies, gone)
    }
    assert.deepStrictEqual(manifest.engines, { node: ">=22.19" }) // node:sqlite without a flag
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
