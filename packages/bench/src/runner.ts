/**
 * Runs jobs: one worker process per SDK per run, each against a fresh
 * scripted model and in a fresh directory, with a deadline; then collects
 * what the worker measured (and what the line tap logged) and removes
 * everything the job started or wrote.
 *
 * @since 0.1.0
 */
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { WorkerCommand } from "./build.js"
import type { Job, Scenario, Sdk, WorkerResult } from "./jobs.js"
import { SDKS } from "./jobs.js"
import { scriptFor, withModel } from "./model.js"
import { killProcessesUnder } from "./procs.js"
import { RawCli } from "./sdk/rawCli.js"
import { installTap, readTapLog } from "./tap.js"

/**
 * One scenario with its sizes, as run by every SDK.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Spec {
  readonly key: string
  readonly scenario: Scenario
  readonly params: Readonly<Record<string, number>>
  /** Put the line tap between the SDK and the CLI (`burst`: and hand over each turn's stream at once). */
  readonly tap?: "pass" | "burst" | undefined
  readonly timeoutMillis: number
  /** At most this many runs (unless `--runs` is given explicitly). */
  readonly maxRuns?: number | undefined
  /** The columns that run it (default: all four). */
  readonly sdks?: ReadonlyArray<Sdk> | undefined
  /** Run the workers built with every package external (effect loaded from node_modules), not as shipped. */
  readonly fromModules?: boolean | undefined
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface Context {
  /** A scratch directory for this invocation; every job directory lives below it. */
  readonly root: string
  /** The real CLI. */
  readonly cli: string
  /** The workers as shipped, and built with every package external (build.ts). */
  readonly worker: WorkerCommand
  readonly modulesWorker: WorkerCommand
  /** The same two of the effect-3 baseline (effect3.ts), whose `ours` is the `ours3` column. */
  readonly effect3Worker: WorkerCommand
  readonly effect3ModulesWorker: WorkerCommand
  readonly replayFile?: string | undefined
  /** Spec keys whose workers run with `--cpu-prof`, and where the profiles go. */
  readonly profile?: { readonly keys: ReadonlySet<string>; readonly dir: string } | undefined
  readonly log: (line: string) => void
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface Outcome {
  readonly sdk: Sdk
  readonly run: number
  readonly result?: WorkerResult | undefined
  readonly error?: string | undefined
  /** SDK-side latencies from the line tap, by control request subtype. */
  readonly latencies?: Readonly<Record<string, ReadonlyArray<number>>> | undefined
  readonly unanswered?: number | undefined
  /** Processes still running in the job's directory after the worker exited (killed by the runner). */
  readonly strays: number
  readonly wallMillis: number
  /** The worker file that ran the job (ours3's is the effect-3 baseline's, in its tree). */
  readonly worker?: string | undefined
}

const workerEnv = (): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== "NODE_OPTIONS") env[key] = value
  }
  // Diagnostics: e.g. BENCH_WORKER_NODE_OPTIONS="--import ./probe.mjs".
  if (process.env.BENCH_WORKER_NODE_OPTIONS !== undefined) env.NODE_OPTIONS = process.env.BENCH_WORKER_NODE_OPTIONS
  return env
}

const workerOf = (ctx: Context, spec: Spec, sdk: Sdk): WorkerCommand =>
  sdk === "ours3"
    ? (spec.fromModules === true ? ctx.effect3ModulesWorker : ctx.effect3Worker)
    : spec.fromModules === true
    ? ctx.modulesWorker
    : ctx.worker

const runWorker = (
  ctx: Context,
  spec: Spec,
  sdk: Sdk,
  job: Job,
  dir: string
): Promise<{ readonly timedOut: boolean }> =>
  new Promise((resolve) => {
    const out = Fs.openSync(Path.join(dir, "worker.log"), "w")
    const profile = ctx.profile?.keys.has(spec.key) === true
      ? [
        "--cpu-prof",
        "--cpu-prof-interval=250",
        `--cpu-prof-dir=${ctx.profile.dir}`,
        `--cpu-prof-name=${spec.key}-${sdk}-${Date.now()}.cpuprofile`
      ]
      : []
    // Diagnostics: e.g. BENCH_WORKER_WRAP="strace -f -tt -T -o /tmp/worker.strace" runs the worker under strace;
    // a script running `perf record -k CLOCK_MONOTONIC --no-inherit -e cpu-clock -g -- "$@"`, with
    // BENCH_WORKER_NODE_ARGS="--perf-basic-prof" and BENCH_WINDOW_DIR (worker.ts), samples CPU time only: V8's
    // profiler samples wall time, and charges to the running frame the time the worker was preempted.
    const wrap = (process.env.BENCH_WORKER_WRAP ?? "").split(" ").filter((part) => part.length > 0)
    // and BENCH_WORKER_NODE_ARGS="--no-flush-bytecode" passes node/V8 flags to the worker.
    const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? "").split(" ").filter((part) => part.length > 0)
    const worker = workerOf(ctx, spec, sdk)
    const command = [...wrap, process.execPath, ...nodeArgs, ...profile, ...worker.args, Path.join(dir, "job.json")]
    const child = spawn(command[0], command.slice(1), {
      cwd: dir,
      detached: true,
      stdio: ["ignore", out, out],
      env: workerEnv()
    })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      try {
        process.kill(-child.pid!, "SIGKILL")
      } catch {
        // gone
      }
    }, spec.timeoutMillis)
    child.once("exit", () => {
      clearTimeout(timer)
      Fs.closeSync(out)
      resolve({ timedOut })
    })
  })

const tail = (file: string, chars = 1500): string => {
  try {
    const text = Fs.readFileSync(file, "utf8")
    return text.slice(-chars)
  } catch {
    return ""
  }
}

/**
 * Runs one job: `spec` by `sdk`, run number `run`.
 *
 * @since 0.1.0
 * @category Running
 */
export const runJob = async (ctx: Context, spec: Spec, sdk: Sdk, run: number): Promise<Outcome> => {
  const started = performance.now()
  const dir = Fs.mkdtempSync(Path.join(ctx.root, `${spec.key}-${sdk}-${run}-`))
  const cwd = Path.join(dir, "cwd")
  Fs.mkdirSync(cwd)
  const tap = spec.tap !== undefined ? installTap(dir, ctx.cli, spec.tap) : undefined
  try {
    return await withModel(scriptFor(spec.scenario, spec.params, cwd), async (model) => {
      const job: Job = {
        // The baseline's worker runs its own SDK as `ours`.
        sdk: sdk === "ours3" ? "ours" : sdk,
        scenario: spec.scenario,
        params: spec.params,
        executable: tap?.executable ?? ctx.cli,
        env: model.cliEnv,
        cwd,
        resultFile: Path.join(dir, "result.json"),
        replayFile: ctx.replayFile
      }
      Fs.writeFileSync(Path.join(dir, "job.json"), JSON.stringify(job))
      const { timedOut } = await runWorker(ctx, spec, sdk, job, dir)
      const strays = killProcessesUnder(dir)
      const wallMillis = performance.now() - started
      let parsed: (WorkerResult & { readonly error?: string }) | undefined
      try {
        parsed = JSON.parse(Fs.readFileSync(job.resultFile, "utf8"))
      } catch {
        parsed = undefined
      }
      if (timedOut || parsed === undefined || parsed.error !== undefined) {
        const error = timedOut
          ? `timed out after ${spec.timeoutMillis} ms`
          : parsed?.error ?? "the worker wrote no result"
        return {
          sdk,
          run,
          worker: workerOf(ctx, spec, sdk).args.at(-1),
          error: `${error}\n--- worker log ---\n${tail(Path.join(dir, "worker.log"))}`,
          strays,
          wallMillis
        }
      }
      const tapped = tap !== undefined ? readTapLog(tap.log) : undefined
      return {
        sdk,
        run,
        result: parsed,
        worker: workerOf(ctx, spec, sdk).args.at(-1),
        latencies: tapped?.latencies,
        unanswered: tapped?.unanswered,
        strays,
        wallMillis
      }
    })
  } finally {
    killProcessesUnder(dir)
    // Diagnostics: BENCH_KEEP_JOBS=1 keeps each job's directory (job.json, worker.log, tap.log).
    if (process.env.BENCH_KEEP_JOBS === undefined) Fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
    else ctx.log(`  kept ${dir}`)
  }
}

/**
 * The SDK order of run `run`: A/B/C/D, then B/C/D/A, then C/D/A/B, ...
 *
 * @since 0.1.0
 * @category Running
 */
export const orderOf = (run: number, sdks: ReadonlyArray<Sdk> = SDKS): ReadonlyArray<Sdk> =>
  sdks.map((_, i) => sdks[(i + run) % sdks.length])

/**
 * Runs `spec` `runs` times for every SDK, alternating the order.
 *
 * @since 0.1.0
 * @category Running
 */
export const runSpec = async (ctx: Context, spec: Spec, runs: number): Promise<ReadonlyArray<Outcome>> => {
  const outcomes: Array<Outcome> = []
  for (let run = 0; run < runs; run++) {
    for (const sdk of orderOf(run, spec.sdks)) {
      const outcome = await runJob(ctx, spec, sdk, run)
      outcomes.push(outcome)
      ctx.log(
        `  ${spec.key} run ${run + 1}/${runs} ${sdk.padEnd(8)} ${
          outcome.error !== undefined ? `FAILED: ${outcome.error.split("\n")[0]}` : "ok"
        } (${(outcome.wallMillis / 1000).toFixed(1)} s)`
      )
    }
  }
  return outcomes
}

/**
 * Records the stream the replay scenario plays back: one real session (hooks,
 * the permission gate, Bash calls and a long text, partial messages on)
 * driven by the raw driver, every stdout line kept. The initialize answer
 * goes first.
 *
 * @since 0.1.0
 * @category Replay
 */
export const recordReplay = async (
  ctx: Omit<Context, "replayFile">,
  file: string,
  params: { readonly toolCalls: number; readonly deltas: number }
): Promise<{ readonly lines: number; readonly bytes: number }> => {
  const dir = Fs.mkdtempSync(Path.join(ctx.root, "record-"))
  const cwd = Path.join(dir, "cwd")
  Fs.mkdirSync(cwd)
  try {
    return await withModel(scriptFor("record", params, cwd), async (model) => {
      const lines: Array<Buffer> = []
      let init: Buffer | undefined
      const cli = new RawCli({
        executable: ctx.cli,
        cwd,
        env: model.cliEnv,
        gate: true,
        partial: true,
        hooks: {
          PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["pre"] }],
          PostToolUse: [{ matcher: "Bash", hookCallbackIds: ["post"] }]
        },
        onLine: (line) => {
          const copy = Buffer.from(line)
          if (init === undefined && copy.includes("\"request_id\":\"init\"") && copy.includes("\"control_response\"")) {
            init = copy
          } else {
            lines.push(copy)
          }
        }
      })
      const done = cli.waitFor((m) => m.type === "result")
      cli.user("Record a session.")
      await done
      cli.endInput()
      await cli.exited
      if (init === undefined) throw new Error("the recording has no initialize answer")
      const body = Buffer.concat(lines.flatMap((line) => [line, Buffer.from("\n")]))
      Fs.writeFileSync(file, Buffer.concat([init, Buffer.from("\n"), body]))
      return { lines: lines.length, bytes: body.length }
    })
  } finally {
    killProcessesUnder(dir)
    Fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  }
}
