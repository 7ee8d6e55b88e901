/**
 * The published manifest: every module the index re-exports is reachable on
 * its own path, nothing else is, and effect (whose `effect/ai` the provider
 * is written on) is a peer at the version the workspace tests against, under
 * the public name, with the README.
 */
import * as PackageManifest from "@claude-effect/test-support/PackageManifest"
import { assert, describe, it } from "@effect/vitest"
import * as Path from "node:path"

const pkg = PackageManifest.load(Path.join(import.meta.dirname, ".."))
const { manifest, modules } = pkg

describe("@claude-effect/ai package", () => {
  it("is published as @claude-effect/ai, publicly", () => {
    PackageManifest.assertPublishedAs(pkg, "@claude-effect/ai")
  })

  it("publishes exactly the index's modules, each with types and code from the build", () => {
    assert.deepStrictEqual(modules, [
      "ClaudeCodeAiError",
      "ClaudeCodeLanguageModel",
      "ClaudeCodeTool",
      "ClaudeCodeChat"
    ])
    PackageManifest.assertPublishesIndexModules(pkg)
  })

  it("takes effect as a peer, in the range of the version it is tested with, and depends on the SDK", () => {
    assert.strictEqual(manifest.peerDependencies["effect"], "~4.1.5")
    assert.notProperty(manifest.peerDependencies, "@effect/ai") // part of effect 4
    assert.notProperty(manifest.peerDependencies, "@effect/platform")
    assert.strictEqual(manifest.dependencies["@claude-effect/sdk"], "workspace:^")
    assert.deepStrictEqual(manifest.engines, { node: ">=22.19" })
    PackageManifest.assertPeersInstalled(pkg)
  })

  it("ships the build, the license, the README and the sources its source maps point at", () => {
    PackageManifest.assertShipsBuild(pkg, ["README.md"])
  })
})
