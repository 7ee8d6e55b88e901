/**
 * The "ours, effect 3" column: the last effect-3 build of our SDK, measured in
 * the same run as ours on effect 4. The bench extracts a named commit of this
 * repository (`git archive`) into a cache directory under the OS temp dir,
 * keyed by the commit, installs what that tree needs once (its own frozen
 * lockfile, no install scripts: the SDK needs no native build), and runs that
 * commit's own bench code from it: its worker, bundled there by its own
 * build.ts (esbuild, minified, effect 3 inside, as it ships), which speaks the
 * protocol of jobs.ts (a `job.json` in, a result file out); and its
 * import-cost, decode and command-hook measurements. Nothing here depends on
 * `packages/` being in the working tree: only on the commit.
 *
 * The commit is {@link EFFECT3_BASELINE}, or `BENCH_EFFECT3_BASELINE`, or
 * `pnpm bench --effect3 <commit>`.
 *
 * @since 0.1.0
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import type { BuildOptions, WorkerCommand } from "./build.js"

/**
 * The last effect-3 commit: its `packages/sdk` is the effect-3 SDK as it shipped. In full, so that a shallow
 * clone can fetch it.
 *
 * @since 0.1.0
 * @category Baseline
 */
export const EFFECT3_BASELINE = "9e102b3768a4f6c838d94b3512f5757173c5f654"

/**
 * @since 0.1.0
 * @category Models
 */
export interface Effect3Baseline {
  /** The full commit. */
  readonly commit: string
  /** `<short commit> <subject>`, for the report. */
  readonly describe: string
  /** The extracted and installed tree. */
  readonly tree: string
  /** That commit's bench package in the tree. */
  readonly benchDir: string
}

// What the effect-3 SDK, its bench and their workspace siblings need, at that commit.
const PATHS = [
  "package.json",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  "tsconfig.base.json",
  "packages/sdk",
  "packages/testkit",
  "packages/test-support",
  "packages/cluster",
  "packages/bench"
]

const repoDir = Path.dirname(Path.dirname(Path.dirname(Path.dirname(fileURLToPath(import.meta.url)))))

// The environment without npm's own settings: under `npx -c` (the tests' Node 22) they would steer the nested npx.
const cleanEnv = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env).flatMap(([key, value]) =>
      value === undefined || key.toLowerCase().startsWith("npm_") ? [] : [[key, value]]
    )
  )

const run = (command: string, args: ReadonlyArray<string>, cwd: string, input?: Buffer): Buffer => {
  const out = spawnSync(command, args, {
    cwd,
    input,
    env: cleanEnv(),
    maxBuffer: 1 << 30,
    stdio: ["pipe", "pipe", "pipe"]
  })
  if (out.error !== undefined || out.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} (in ${cwd}) failed: ${out.error?.message ?? ""}${
        out.stderr?.toString("utf8").slice(-1500) ?? ""
      }`
    )
  }
  return out.stdout
}

/**
 * The baseline commit asked for: `--effect3 <commit>`, else `BENCH_EFFECT3_BASELINE`, else {@link EFFECT3_BASELINE}.
 *
 * @since 0.1.0
 * @category Baseline
 */
export const baselineCommit = (argv: ReadonlyArray<string> = process.argv): string => {
  const flag = argv.indexOf("--effect3")
  return (flag !== -1 ? argv[flag + 1] : undefined) ?? process.env.BENCH_EFFECT3_BASELINE ?? EFFECT3_BASELINE
}

const revParse = (commit: string): string =>
  run("git", ["-C", repoDir, "rev-parse", "--verify", `${commit}^{commit}`], repoDir).toString().trim()

// A commit a shallow clone lacks is fetched, alone, from its origin; failing that, named with what to do.
const resolveCommit = (commit: string): string => {
  try {
    return revParse(commit)
  } catch (cause) {
    try {
      run("git", ["-C", repoDir, "fetch", "--quiet", "--depth", "1", "origin", commit], repoDir)
      return revParse(commit)
    } catch {
      throw new Error(
        `The effect-3 baseline commit ${commit} is not in this repository's history and could not be fetched from ` +
          `origin: fetch it (git fetch --unshallow), or name another commit with --effect3 <commit> or ` +
          `BENCH_EFFECT3_BASELINE.`,
        { cause }
      )
    }
  }
}

/**
 * Extracts and installs `commit`'s effect-3 tree, once per commit: a tree
 * already prepared (its `.ready` file written last) is reused.
 *
 * @since 0.1.0
 * @category Baseline
 */
export const prepareBaseline = (commit: string, log: (line: string) => void = () => {}): Effect3Baseline => {
  const full = resolveCommit(commit)
  const describe = run("git", ["-C", repoDir, "log", "-1", "--format=%h %s", full], repoDir).toString().trim()
  const tree = Path.join(Os.tmpdir(), `claude-effect-bench-effect3-${full.slice(0, 12)}`)
  const ready = Path.join(tree, ".ready")
  if (!Fs.existsSync(ready)) {
    log(`effect 3 baseline: extracting and installing ${describe.slice(0, 60)} in ${tree}`)
    // Built beside the cache entry and renamed into place, so that an interrupted install is never reused.
    const staging = `${tree}.${process.pid}`
    Fs.rmSync(staging, { recursive: true, force: true })
    Fs.mkdirSync(staging, { recursive: true })
    try {
      run("tar", ["-x", "-C", staging], repoDir, run("git", ["-C", repoDir, "archive", full, ...PATHS], repoDir))
      const manager = (JSON.parse(Fs.readFileSync(Path.join(staging, "package.json"), "utf8")) as {
        readonly packageManager?: string
      }).packageManager ?? "pnpm@10"
      run("npx", [
        "--yes",
        manager.split("+")[0],
        "install",
        "--frozen-lockfile",
        "--ignore-scripts",
        "--prefer-offline",
        "--filter",
        "@claude-effect/bench..."
      ], staging)
      Fs.writeFileSync(Path.join(staging, ".ready"), `${full}\n`)
      Fs.rmSync(tree, { recursive: true, force: true })
      Fs.renameSync(staging, tree)
    } catch (error) {
      Fs.rmSync(staging, { recursive: true, force: true })
      throw error
    }
  }
  return { commit: full, describe, tree, benchDir: Path.join(tree, "packages", "bench") }
}

/**
 * Runs `expression` (an async expression over the module `module` of the
 * baseline's bench, bound as `m`) in that tree under its own tsx, and returns
 * what it evaluated to (JSON).
 *
 * @since 0.1.0
 * @category Baseline
 */
export const evaluateInBaseline = <A>(baseline: Effect3Baseline, module: string, expression: string): A => {
  const script = `const m = await import(${JSON.stringify(`./src/${module}`)}); ` +
    `const value = await (${expression}); process.stdout.write("\\n@@result@@" + JSON.stringify(value))`
  const out = run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], baseline.benchDir)
    .toString("utf8")
  const at = out.lastIndexOf("@@result@@")
  if (at === -1) throw new Error(`the effect 3 baseline's ${module} printed no result: ${out.slice(-500)}`)
  return JSON.parse(out.slice(at + "@@result@@".length)) as A
}

/**
 * The baseline's worker, built by its own build.ts (in its own tree).
 *
 * @since 0.1.0
 * @category Baseline
 */
export const buildBaselineWorker = (baseline: Effect3Baseline, options: BuildOptions): WorkerCommand => {
  const worker = evaluateInBaseline<WorkerCommand>(baseline, "build.ts", `m.buildWorker(${JSON.stringify(options)})`)
  if (worker.mode !== "bundle") throw new Error("the effect 3 baseline's worker could not be bundled")
  return worker
}

/**
 * The ESM entry of the baseline's effect (3.22), as its SDK resolves it.
 *
 * @since 0.1.0
 * @category Baseline
 */
export const baselineEffectUrl = (baseline: Effect3Baseline): string =>
  run(
    process.execPath,
    ["--input-type=module", "-e", "process.stdout.write(import.meta.resolve('effect'))"],
    Path.join(baseline.tree, "packages", "sdk")
  ).toString("utf8")
