/**
 * What importing the SDK costs, and where that cost lies. Each variant is
 * imported in a fresh `node` process, timed around the dynamic `import()`,
 * round-robin:
 *
 * - `ours`: `@claude-effect/sdk` + `@effect/platform-node/NodeServices` (what
 *   an application imports), our sources bundled, effect and
 *   @effect/platform-node loaded from node_modules as published, file by file;
 * - `dependencies`: only the effect and @effect/platform-node modules that
 *   bundle imports, without any of our code;
 * - `bundled`: the same entry with effect and @effect/platform-node bundled in
 *   (one file, as an application bundle or a packaged CLI ships it);
 * - `oursAlone`: `ours` imported after `dependencies` (effect and
 *   @effect/platform-node already loaded, as in any Effect application): the
 *   cost of our own modules;
 * - `official`: `@anthropic-ai/claude-agent-sdk`, which is published as one
 *   bundled file.
 *
 * @since 0.1.0
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { median } from "./stats.js"

const srcDir = Path.dirname(fileURLToPath(import.meta.url))
const benchDir = Path.dirname(srcDir)
const packagesDir = Path.dirname(benchDir)

/**
 * @since 0.1.0
 * @category Models
 */
export type ImportVariant = "ours" | "dependencies" | "bundled" | "oursAlone" | "official"

/**
 * @since 0.1.0
 * @category Models
 */
export type ImportCost = Readonly<Record<ImportVariant, number>>

const esbuildOf = (): any => createRequire(createRequire(import.meta.url).resolve("tsx/package.json"))("esbuild")

const ENTRY = `import "@claude-effect/sdk"\nimport "@effect/platform-node/NodeServices"\n`

const build = async (dir: string, bundleDependencies: boolean): Promise<string> => {
  const entry = Path.join(dir, "entry.ts")
  Fs.writeFileSync(entry, ENTRY)
  const outfile = Path.join(dir, bundleDependencies ? "bundled.mjs" : "ours.mjs")
  await esbuildOf().build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "error",
    // Bundled code that calls `require` (CommonJS dependencies) needs one in ESM.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    nodePaths: [Path.join(benchDir, "node_modules"), Path.join(packagesDir, "sdk", "node_modules")],
    plugins: [{
      name: "imports",
      setup(b: any) {
        b.onResolve(
          { filter: /^@claude-effect\/sdk$/ },
          () => ({ path: Path.join(packagesDir, "sdk", "src", "index.ts") })
        )
        if (!bundleDependencies) b.onResolve({ filter: /^[^./]/ }, (args: any) => ({ path: args.path, external: true }))
      }
    }]
  })
  return outfile
}

// The same external imports as `ours`, and nothing else.
const dependenciesOnly = (dir: string, oursFile: string): string => {
  const specifiers = new Set<string>()
  for (const match of Fs.readFileSync(oursFile, "utf8").matchAll(/from\s+"([^".][^"]*)"/g)) specifiers.add(match[1])
  for (const match of Fs.readFileSync(oursFile, "utf8").matchAll(/import\s+"([^".][^"]*)"/g)) specifiers.add(match[1])
  const file = Path.join(dir, "dependencies.mjs")
  Fs.writeFileSync(file, Array.from(specifiers).map((s) => `import ${JSON.stringify(s)}`).join("\n") + "\n")
  return file
}

const timeImport = (target: string, cwd: string, preload?: string): number => {
  const script = `${
    preload === undefined ? "" : `await import(${JSON.stringify(preload)}); `
  }const t = performance.now(); await import(${
    JSON.stringify(target)
  }); process.stdout.write(String(performance.now() - t))`
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd, encoding: "utf8" })
  if (out.status !== 0) throw new Error(`importing ${target} failed: ${out.stderr.slice(0, 500)}`)
  return Number(out.stdout)
}

/**
 * Median import time of each variant, in milliseconds.
 *
 * @since 0.1.0
 * @category Measuring
 */
export const measureImportCost = async (scratch: string, runs: number): Promise<ImportCost> => {
  const dir = Fs.mkdtempSync(Path.join(scratch, "import-"))
  // Inside the bench package, so that bare specifiers resolve from its node_modules.
  Fs.mkdirSync(Path.join(benchDir, "build"), { recursive: true })
  const local = Fs.mkdtempSync(Path.join(benchDir, "build", "import-"))
  try {
    const ours = await build(local, false)
    const bundled = await build(dir, true)
    const dependencies = pathToFileURL(dependenciesOnly(local, ours)).href
    const targets: Record<ImportVariant, string> = {
      ours: pathToFileURL(ours).href,
      dependencies,
      bundled: pathToFileURL(bundled).href,
      oursAlone: pathToFileURL(ours).href,
      official: "@anthropic-ai/claude-agent-sdk"
    }
    const preloads: Partial<Record<ImportVariant, string>> = { oursAlone: dependencies }
    const samples: Record<ImportVariant, Array<number>> = {
      ours: [],
      dependencies: [],
      bundled: [],
      oursAlone: [],
      official: []
    }
    const variants = Object.keys(targets) as Array<ImportVariant>
    for (const variant of variants) timeImport(targets[variant], benchDir, preloads[variant]) // warm the disk cache
    for (let run = 0; run < runs; run++) {
      for (const variant of variants) samples[variant].push(timeImport(targets[variant], benchDir, preloads[variant]))
    }
    return {
      ours: median(samples.ours),
      dependencies: median(samples.dependencies),
      bundled: median(samples.bundled),
      oursAlone: median(samples.oursAlone),
      official: median(samples.official)
    }
  } finally {
    Fs.rmSync(dir, { recursive: true, force: true })
    Fs.rmSync(local, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  measureImportCost(Fs.mkdtempSync(Path.join((await import("node:os")).tmpdir(), "bench-")), 5).then(
    (cost) => console.log(cost),
    (error) => {
      console.error(error)
      process.exit(1)
    }
  )
}
