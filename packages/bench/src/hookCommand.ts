/**
 * Startup of a command hook program (`HookCommand.main`): the CLI starts one
 * process per hook call, so process start to exit is what a tool call waits.
 *
 * The program measured is a tiny guard (one PreToolUse hook layer on Bash)
 * fed one PreToolUse input on stdin. It is built the ways a team could ship
 * it, and every run is a fresh `node <file>` timed from spawn to exit:
 *
 * - `bundle`: esbuild, one minified ESM file with effect inlined (the
 *   recommended deployment: no module resolution, one file to parse);
 * - `bundle-v8cache`: the same as CommonJS, started by the SDK's
 *   `bin/hook-launcher.cjs`, which keeps a V8 code cache of it (Node's own
 *   compile cache is off by default); the warm-up runs write the cache;
 * - `bundle-unminified`: the same as `bundle`, not minified;
 * - `tsc-build`: the `tsc -b` output of the SDK (`packages/sdk/build`) with
 *   effect loaded from node_modules as published, file by file (what a
 *   hook program importing the published package without a bundler gets);
 * - `node-baseline`: `node -e 0`, the floor.
 *
 * Variants run round-robin, so that a busy machine weighs on all alike.
 * esbuild is the one tsx depends on (this package depends on tsx).
 *
 * ```sh
 * pnpm --filter @claude-effect/bench exec tsx src/hookCommand.ts [runs]
 * ```
 *
 * @since 0.1.0
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * @since 0.1.0
 * @category Models
 */
export type Variant = "bundle" | "bundle-v8cache" | "bundle-unminified" | "tsc-build" | "node-baseline"

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** Timed runs per variant (default 30). */
  readonly runs?: number
  /** Untimed runs per variant first (default 3). */
  readonly warmup?: number
  readonly variants?: ReadonlyArray<Variant>
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface VariantResult {
  readonly variant: Variant
  /** The file run, and its size in bytes (0 for the baseline). */
  readonly file: string
  readonly bytes: number
  /** Wall time of each run, spawn to exit, in milliseconds. */
  readonly millis: ReadonlyArray<number>
  readonly median: number
  readonly p90: number
  readonly min: number
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface Result {
  readonly node: string
  readonly cpus: number
  /** The 1-minute load average before and after: this machine is shared. */
  readonly loadBefore: number
  readonly loadAfter: number
  readonly targetMillis: number
  readonly variants: ReadonlyArray<VariantResult>
}

const srcDir = Path.dirname(fileURLToPath(import.meta.url))
const benchDir = Path.dirname(srcDir)
const sdkDir = Path.join(Path.dirname(benchDir), "sdk")
const outDir = Path.join(benchDir, "build", "hook-command")

const TARGET_MILLIS = 150

/** The hook program: what a team writes, minus their policy (plain JS: the tsc variant runs it as is). */
const programSource = (imports: { readonly sdk: (module: string) => string }) => `
import * as Effect from "effect/Effect"
import * as HookCommand from "${imports.sdk("HookCommand")}"
import * as HookLayer from "${imports.sdk("HookLayer")}"
import * as HookResult from "${imports.sdk("HookResult")}"

const guard = HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
  Effect.succeed(
    String(input.tool_input.command).includes("rm -rf")
      ? HookResult.deny("no rm -rf here")
      : HookResult.empty
  ))

HookCommand.main(guard)
`

/** One PreToolUse input, as the CLI 2.1.328 writes it. */
export const input: string = JSON.stringify({
  session_id: "5f1c7a3e-2b9d-4c61-8e0f-3a7d9b2c4e10",
  transcript_path: "/home/user/.claude/projects/-home-user-project/5f1c7a3e-2b9d-4c61-8e0f-3a7d9b2c4e10.jsonl",
  cwd: "/home/user/project",
  prompt_id: "0b6f2e9a-7c41-4d3e-9a58-1e2f3c4d5b6a",
  permission_mode: "default",
  effort: { level: "medium" },
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "ls -la", description: "list files" },
  tool_use_id: "toolu_01bench"
})

interface Esbuild {
  readonly build: (options: Record<string, unknown>) => Promise<unknown>
}

const loadEsbuild = (): Esbuild => {
  const require = createRequire(createRequire(import.meta.url).resolve("tsx/package.json"))
  return require("esbuild") as Esbuild
}

// The SDK's `tsc -b` output, built here when missing: a fresh clone has none until `pnpm check` or `pnpm build`.
const buildSdk = (): void => {
  if (Fs.existsSync(Path.join(sdkDir, "build", "src", "HookCommand.js"))) return
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
  const out = spawnSync(process.execPath, [tsc, "-b", Path.join(sdkDir, "tsconfig.src.json")], { encoding: "utf8" })
  if (out.status !== 0) throw new Error(`tsc -b ${sdkDir}/tsconfig.src.json failed: ${out.stdout}${out.stderr}`)
}

/**
 * Builds the variants' files under `packages/bench/build/hook-command`.
 *
 * @since 0.1.0
 * @category Building
 */
export const build = async (variants: ReadonlyArray<Variant>): Promise<Record<Variant, string>> => {
  Fs.mkdirSync(outDir, { recursive: true })
  const files = {} as Record<Variant, string>
  for (const variant of variants) {
    if (variant === "node-baseline") {
      files[variant] = ""
    } else if (variant === "tsc-build") {
      buildSdk()
      const file = Path.join(outDir, "program-tsc.mjs")
      const relative = Path.relative(outDir, Path.join(sdkDir, "build", "src")).split(Path.sep).join("/")
      // effect resolves from node_modules as published, file by file.
      Fs.writeFileSync(file, programSource({ sdk: (module) => `${relative}/${module}.js` }))
      files[variant] = file
    } else {
      const cjs = variant === "bundle-v8cache"
      const file = Path.join(outDir, cjs ? "program-v8cache.bundle.cjs" : `program-${variant}.mjs`)
      await loadEsbuild().build({
        stdin: {
          contents: programSource({ sdk: (module) => `@claude-effect/sdk/${module}` }),
          resolveDir: srcDir,
          sourcefile: "hook-program.ts",
          loader: "ts"
        },
        outfile: file,
        bundle: true,
        platform: "node",
        format: cjs ? "cjs" : "esm",
        target: "node20",
        minify: variant !== "bundle-unminified",
        logLevel: "warning"
      })
      if (cjs) {
        const launcher = Path.join(outDir, "program-v8cache.cjs")
        Fs.copyFileSync(Path.join(sdkDir, "bin", "hook-launcher.cjs"), launcher)
        files[variant] = launcher
      } else {
        files[variant] = file
      }
    }
  }
  return files
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => {
  const rank = (p / 100) * (sorted.length - 1)
  const low = Math.floor(rank)
  const high = Math.ceil(rank)
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low)
}

const runOnce = (file: string): number => {
  const started = process.hrtime.bigint()
  const result = file === ""
    ? spawnSync(process.execPath, ["-e", "0"])
    : spawnSync(process.execPath, [file], { input, encoding: "utf8" })
  const millis = Number(process.hrtime.bigint() - started) / 1e6
  if (file !== "" && (result.status !== 0 || String(result.stdout).trim() !== "{}")) {
    throw new Error(`${file} answered ${result.status}: ${String(result.stdout)} ${String(result.stderr)}`)
  }
  return millis
}

/**
 * Builds the hook program and times `runs` starts of each variant.
 *
 * @since 0.1.0
 * @category Measuring
 */
export const measure = async (options?: Options): Promise<Result> => {
  const runs = options?.runs ?? 30
  const warmup = options?.warmup ?? 3
  const variants = options?.variants ?? ["node-baseline", "bundle", "bundle-v8cache", "bundle-unminified", "tsc-build"]
  const files = await build(variants)
  const loadBefore = Os.loadavg()[0]!
  for (let i = 0; i < warmup; i++) for (const variant of variants) runOnce(files[variant])
  const millis = Object.fromEntries(variants.map((variant) => [variant, [] as Array<number>]))
  for (let i = 0; i < runs; i++) for (const variant of variants) millis[variant]!.push(runOnce(files[variant]))
  return {
    node: process.version,
    cpus: Os.cpus().length,
    loadBefore,
    loadAfter: Os.loadavg()[0]!,
    targetMillis: TARGET_MILLIS,
    variants: variants.map((variant) => {
      const sorted = [...millis[variant]!].sort((a, b) => a - b)
      return {
        variant,
        file: files[variant],
        bytes: files[variant] === ""
          ? 0
          : Fs.statSync(variant === "bundle-v8cache" ? files[variant].replace(/\.cjs$/, ".bundle.cjs") : files[variant])
            .size,
        millis: millis[variant]!,
        median: percentile(sorted, 50),
        p90: percentile(sorted, 90),
        min: sorted[0]!
      }
    })
  }
}

/**
 * The result as a table.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const format = (result: Result, effect3?: Result): string => {
  const row = (suffix: string) => (v: VariantResult) =>
    `| ${v.variant}${suffix} | ${
      v.bytes === 0 || v.variant === "tsc-build" ? "–" : `${Math.round(v.bytes / 1024)} KiB`
    } | ${v.median.toFixed(1)} | ${v.p90.toFixed(1)} | ${v.min.toFixed(1)} |`
  // The effect-3 baseline's program (effect3.ts), measured in the same run by its own hookCommand.ts.
  const rows = [...result.variants.map(row("")), ...(effect3?.variants ?? []).map(row(", ours on effect 3"))]
  const verdict = (v: VariantResult | undefined) =>
    v === undefined
      ? []
      : [
        `${v.variant} median ${v.median.toFixed(1)} ms: ${
          v.median < result.targetMillis ? "under" : "OVER"
        } the ${result.targetMillis} ms target`
      ]
  return [
    `Hook program startup, spawn to exit (node ${result.node}, ${result.cpus} CPUs, load ${
      result.loadBefore.toFixed(2)
    } → ${result.loadAfter.toFixed(2)}), ${result.variants[0]?.millis.length ?? 0} runs each`,
    "",
    "| variant | size | median ms | p90 ms | min ms |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    ...verdict(result.variants.find((v) => v.variant === "bundle")),
    ...verdict(result.variants.find((v) => v.variant === "bundle-v8cache"))
  ].join("\n")
}

if (process.argv[1] !== undefined && Path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const runs = process.argv[2] !== undefined ? Number(process.argv[2]) : undefined
  measure(runs !== undefined ? { runs } : {}).then(
    (result) => console.log(format(result)),
    (error) => {
      console.error(error)
      process.exitCode = 1
    }
  )
}
