/**
 * What an installed package lets its users import, checked the same way for
 * every published package of the workspace: its `package.json` (decoded) and
 * the modules its index re-exports.
 *
 * @since 0.1.0
 */
import { assert } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Fs from "node:fs"
import * as Path from "node:path"

const Strings = Schema.Record(Schema.String, Schema.String)
const orNone = <S extends Schema.Codec<Record<string, unknown>>>(schema: S) =>
  schema.pipe(Schema.withDecodingDefaultKey(Effect.succeed({})))

/**
 * The fields of a `package.json` the checks read.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Manifest = Schema.Struct({
  name: Schema.String,
  private: Schema.optionalKey(Schema.Boolean),
  license: Schema.optionalKey(Schema.String),
  scripts: orNone(Strings),
  files: Schema.mutable(Schema.Array(Schema.String)).pipe(Schema.withDecodingDefaultKey(Effect.succeed([]))),
  bin: Schema.optionalKey(Strings),
  engines: orNone(Strings),
  dependencies: orNone(Strings),
  peerDependencies: orNone(Strings),
  devDependencies: orNone(Strings),
  peerDependenciesMeta: orNone(Schema.Record(Schema.String, Schema.Struct({ optional: Schema.Boolean }))),
  publishConfig: Schema.Struct({
    access: Schema.optionalKey(Schema.String),
    exports: Schema.Record(Schema.String, Schema.Unknown)
  })
})

/**
 * @since 0.1.0
 * @category Schemas
 */
export type Manifest = typeof Manifest.Type

const Installed = Schema.Struct({ version: Schema.String })

const decodeManifest = Schema.decodeUnknownSync(Schema.fromJsonString(Manifest))
const decodeInstalled = Schema.decodeUnknownSync(Schema.fromJsonString(Installed))

/**
 * @since 0.1.0
 * @category Models
 */
export interface Package {
  readonly dir: string
  readonly manifest: Manifest
  /** The modules `src/index.ts` re-exports (`export * as X from "./X.js"`), by file name. */
  readonly modules: ReadonlyArray<string>
  /** The version of a dependency as installed for the package (its `node_modules`). */
  readonly installedVersion: (name: string) => string
  /** Whether a file of the package exists. */
  readonly has: (...segments: ReadonlyArray<string>) => boolean
}

/**
 * The package in `dir`: its manifest, decoded, and its index's modules.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const load = (dir: string): Package => {
  const read = (...segments: ReadonlyArray<string>) => Fs.readFileSync(Path.join(dir, ...segments), "utf8")
  const index = read("src", "index.ts")
  return {
    dir,
    manifest: decodeManifest(read("package.json")),
    modules: [...index.matchAll(/^export \* as (\w+) from "\.\/(\w+)\.js"$/gm)].map((match) => match[2]!),
    installedVersion: (name) => decodeInstalled(read("node_modules", ...name.split("/"), "package.json")).version,
    has: (...segments) => Fs.existsSync(Path.join(dir, ...segments))
  }
}

/**
 * The package is published under `name`, publicly (no `private`, access
 * `public`), and every package of the workspace it depends on or asks for as a
 * peer is `workspace:^` (what `pnpm pack` writes as `^<version>`).
 *
 * @since 0.1.0
 * @category Assertions
 */
export const assertPublishedAs = ({ manifest }: Package, name: string): void => {
  assert.strictEqual(manifest.name, name)
  assert.notProperty(manifest, "private")
  assert.strictEqual(manifest.publishConfig.access, "public")
  const ours = [...Object.entries(manifest.dependencies), ...Object.entries(manifest.peerDependencies)]
  for (const [dependency, wanted] of ours) {
    if (dependency.startsWith("@claude-effect/")) assert.strictEqual(wanted, "workspace:^", dependency)
  }
}

/**
 * The published exports are exactly the index's modules (and `.`,
 * `./package.json`), each with its types and code from the build; nothing
 * internal and no wildcard.
 *
 * @since 0.1.0
 * @category Assertions
 */
export const assertPublishesIndexModules = ({ manifest, modules }: Package): void => {
  const exported = Object.keys(manifest.publishConfig.exports)
  assert.deepStrictEqual(
    exported.slice().sort(),
    [".", "./package.json", ...modules.map((m) => `./${m}`)].slice().sort()
  )
  for (const module of modules) {
    assert.deepStrictEqual(manifest.publishConfig.exports[`./${module}`], {
      types: `./build/src/${module}.d.ts`,
      default: `./build/src/${module}.js`
    })
  }
  assert.isFalse(exported.some((key) => key.includes("internal") || key.includes("*")))
}

const range = /^([~^])(\d+)\.(\d+)\.(\d+)$/
const release = /^(\d+)\.(\d+)\.(\d+)$/

/**
 * Every peer dependency (other than the workspace's own packages) is a caret
 * or tilde range (`^x.y.z`, `~x.y.z`, as the manifests write them) that the
 * version installed for the package's tests satisfies: what users are asked
 * for is what is tested.
 *
 * @since 0.1.0
 * @category Assertions
 */
export const assertPeersInstalled = (pkg: Package): void => {
  for (const [name, wantedRange] of Object.entries(pkg.manifest.peerDependencies)) {
    if (wantedRange.startsWith("workspace:")) continue
    const wanted = range.exec(wantedRange)
    assert.isNotNull(wanted, `peer ${name}: ${wantedRange} is not a ^x.y.z or ~x.y.z range`)
    const installed = pkg.installedVersion(name)
    const found = release.exec(installed)
    assert.isNotNull(found, `peer ${name}: installed ${installed} is not a release`)
    const [major, minor, patch] = wanted!.slice(2).map(Number) as [number, number, number]
    const [x, y, z] = found!.slice(1).map(Number) as [number, number, number]
    // ~x.y.z and ^0.y.z admit x.y.* from z on; ^x.y.z (x > 0) admits x.*.* from x.y.z on
    const sameMinor = y === minor && z >= patch
    const inRange = x === major && (wanted![1] === "~" || major === 0 ? sameMinor : y > minor || sameMinor)
    assert.isTrue(inRange, `peer ${name}: ${wantedRange} does not admit the tested ${installed}`)
  }
}

/**
 * The package ships its build (made by `prepack`), its sources (the source maps point at them), its MIT
 * license and the `extra` entries (`bin`, `README.md`, ...), each of which exists in the package.
 *
 * @since 0.1.0
 * @category Assertions
 */
export const assertShipsBuild = (pkg: Package, extra: ReadonlyArray<string> = []): void => {
  const shipped = ["src", "LICENSE", ...extra]
  assert.includeMembers(pkg.manifest.files, ["build/src", ...shipped])
  for (const entry of shipped) assert.isTrue(pkg.has(entry), `${entry} is in the package`)
  assert.strictEqual(pkg.manifest.license, "MIT")
  assert.strictEqual(pkg.manifest.scripts.prepack, "tsc -b tsconfig.src.json")
}
