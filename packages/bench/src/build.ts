/**
 * Builds the worker that the runner starts once per SDK per run. The worker
 * and `@claude-effect/sdk` (from its TypeScript sources, as they are now) are
 * bundled into plain ESM with esbuild (the one tsx ships with), one chunk per
 * driver, so a worker process runs without a TypeScript loader: no loader
 * thread, no transpiling, no extra memory in the figures.
 *
 * Each SDK runs as it ships. The official SDK is published as one minified
 * bundle of itself and its dependencies, and stays external: it loads from
 * `node_modules` as published. Ours is shipped as the README says, bundled with
 * its dependencies (effect, `@effect/platform-node`) by esbuild and minified: the
 * worker bundles them into its chunk. `layout: "modules"` leaves every
 * package external instead (effect loaded file by file from `node_modules`),
 * for the cold-start lines that show that cost; `minify: false` keeps the
 * `// path/to/file.ts` markers that profile.ts reads. When esbuild cannot be
 * found the workers fall back to `node --import tsx`, and the results say so.
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import { createRequire, isBuiltin } from "node:module"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * @since 0.1.0
 * @category Models
 */
export interface WorkerCommand {
  /** `node` arguments before the job file. */
  readonly args: ReadonlyArray<string>
  readonly mode: "bundle" | "tsx"
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface BuildOptions {
  /** `shipped`: ours bundled with effect, as the README says to ship it; `modules`: every package external. */
  readonly layout: "shipped" | "modules"
  readonly minify: boolean
}

// The part of esbuild's API used here (esbuild is tsx's dependency, not ours: no types at hand).
interface Esbuild {
  readonly build: (
    options: Record<string, unknown> & {
      readonly plugins: ReadonlyArray<{
        readonly name: string
        readonly setup: (build: {
          readonly onResolve: (
            options: { readonly filter: RegExp },
            callback: (
              args: { readonly path: string }
            ) => { readonly path: string; readonly external?: boolean } | undefined
          ) => void
        }) => void
      }>
    }
  ) => Promise<unknown>
}

const srcDir = Path.dirname(fileURLToPath(import.meta.url))
const benchDir = Path.dirname(srcDir)
const packagesDir = Path.dirname(benchDir)

/**
 * @since 0.1.0
 * @category Building
 */
export const buildWorker = async (options: BuildOptions): Promise<WorkerCommand> => {
  const outdir = Path.join(benchDir, "build", `worker-${options.layout}`)
  Fs.rmSync(outdir, { recursive: true, force: true })
  try {
    const require = createRequire(createRequire(import.meta.url).resolve("tsx/package.json"))
    const esbuild = require("esbuild") as Esbuild
    await esbuild.build({
      entryPoints: [Path.join(srcDir, "worker.ts")],
      outdir,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      sourcemap: true,
      minify: options.minify,
      logLevel: "error",
      plugins: [{
        name: "workspace-sources",
        setup(build) {
          build.onResolve({ filter: /^@claude-effect\/(sdk|testkit)(\/.*)?$/ }, (args) => {
            const [, pkg, sub] = /^@claude-effect\/(sdk|testkit)(?:\/(.*))?$/.exec(args.path)!
            return { path: Path.join(packagesDir, pkg, "src", `${sub ?? "index"}.ts`) }
          })
          // Node's own modules and the official SDK (a published bundle) stay external; so does every
          // package when ours runs from modules, and none of ours's when it runs as shipped.
          build.onResolve(
            { filter: /^[^./]/ },
            (args) =>
              options.layout === "shipped" && !isBuiltin(args.path) && !args.path.startsWith("@anthropic-ai/")
                ? undefined
                : { path: args.path, external: true }
          )
        }
      }]
    })
    return { args: [Path.join(outdir, "worker.js")], mode: "bundle" }
  } catch (error) {
    console.warn(`could not bundle the worker (${String(error).slice(0, 300)}); falling back to tsx`)
    return { args: ["--import", "tsx", Path.join(srcDir, "worker.ts")], mode: "tsx" }
  }
}
