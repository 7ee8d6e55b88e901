/**
 * Builds the worker that the runner starts once per SDK per run. The worker
 * and `@claude-effect/sdk` (from its TypeScript sources, as they are now) are
 * bundled into plain ESM with esbuild (the one tsx ships with), one chunk per
 * driver, so a worker process runs without a TypeScript loader: no loader
 * thread, no transpiling, no extra memory in the figures. Packages from
 * `node_modules` (effect, the official SDK) stay external and load as
 * published. When esbuild cannot be found the workers fall back to
 * `node --import tsx`, and the results say so.
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import { createRequire } from "node:module"
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

// The part of esbuild's API used here (esbuild is tsx's dependency, not ours: no types at hand).
interface Esbuild {
  readonly build: (
    options: Record<string, unknown> & {
      readonly plugins: ReadonlyArray<{
        readonly name: string
        readonly setup: (build: {
          readonly onResolve: (
            options: { readonly filter: RegExp },
            callback: (args: { readonly path: string }) => { readonly path: string; readonly external?: boolean }
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
export const buildWorker = async (): Promise<WorkerCommand> => {
  const outdir = Path.join(benchDir, "build", "worker")
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
      logLevel: "error",
      plugins: [{
        name: "workspace-sources",
        setup(build) {
          build.onResolve({ filter: /^@claude-effect\/(sdk|testkit)(\/.*)?$/ }, (args) => {
            const [, pkg, sub] = /^@claude-effect\/(sdk|testkit)(?:\/(.*))?$/.exec(args.path)!
            return { path: Path.join(packagesDir, pkg, "src", `${sub ?? "index"}.ts`) }
          })
          build.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }))
        }
      }]
    })
    return { args: [Path.join(outdir, "worker.js")], mode: "bundle" }
  } catch (error) {
    console.warn(`could not bundle the worker (${String(error).slice(0, 300)}); falling back to tsx`)
    return { args: ["--import", "tsx", Path.join(srcDir, "worker.ts")], mode: "tsx" }
  }
}
