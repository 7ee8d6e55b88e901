/**
 * `pnpm bench`: our SDK on effect 4, its last effect-3 build ("ours, effect
 * 3": effect3.ts), the official `@anthropic-ai/claude-agent-sdk` and a raw
 * driver (the floor: spawn the CLI, `JSON.parse` each line, answer control
 * requests by hand), measured in the same run against the same scripted model
 * and the same pinned CLI. Each SDK runs each scenario in a worker process of
 * its own (so CPU time and peak RSS are the SDK's), in A/B/C/D order rotating
 * per run; the table shows medians over the runs and cost ratios per pair.
 *
 * ```sh
 * pnpm bench                      # full: 5 runs (row 6: 3), full sizes; writes packages/bench/RESULTS.md
 * pnpm bench --quick              # 1 run, small sizes
 * pnpm bench --only 2,4,decode    # some rows (1-8, decode, hookcmd, import, consumer)
 * pnpm bench --runs 5 --only 6    # override runs (for every row); --no-write: print only
 * pnpm bench --only 2 --profile hooks   # also write CPU profiles of the workers (see profile.ts)
 *                                       # (CPU time only, under perf: see perfReport.ts)
 * BENCH_NO_MINIFY=1 pnpm bench ...      # ours's bundle not minified (profiles never are)
 * pnpm bench --effect3 <commit>         # the effect-3 baseline (default EFFECT3_BASELINE, or BENCH_EFFECT3_BASELINE)
 * ```
 *
 * @since 0.1.0
 */
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { buildWorker } from "./build.js"
import { measureConsumerCost } from "./consumerCost.js"
import type { DecodeBenchResult } from "./decode.js"
import {
  baselineCommit,
  baselineEffectUrl,
  buildBaselineWorker,
  type Effect3Baseline,
  evaluateInBaseline,
  prepareBaseline
} from "./effect3.js"
import type { Result as HookCommandResult } from "./hookCommand.js"
import { type ImportCost, measureImportCost } from "./importCost.js"
import type { Sdk } from "./jobs.js"
import { killProcessesUnder } from "./procs.js"
import { failures, type Line, markdownTable } from "./report.js"
import { type Context, type Outcome, recordReplay, runJob, runSpec } from "./runner.js"
import { PARK_MILLIS } from "./sdk/common.js"
import { formatNumber, median, percentile } from "./stats.js"
import { rows } from "./suite.js"

const srcDir = Path.dirname(fileURLToPath(import.meta.url))
const benchDir = Path.dirname(srcDir)

interface Args {
  readonly quick: boolean
  /** `--runs` was given: it applies to every row, `maxRuns` included. */
  readonly runsGiven: boolean
  readonly only: ReadonlySet<string> | undefined
  readonly runs: number
  readonly write: boolean
  readonly out: string
  readonly profile: ReadonlySet<string>
  readonly json: string | undefined
  readonly command: string
  /** The effect-3 baseline's commit (effect3.ts). */
  readonly effect3: string
}

const parseArgs = (argv: ReadonlyArray<string>): Args => {
  const value = (name: string) => {
    const i = argv.indexOf(name)
    return i === -1 ? undefined : argv[i + 1]
  }
  const list = (text: string | undefined) =>
    text === undefined ? undefined : new Set(text.split(",").map((s) => s.trim()).filter((s) => s.length > 0))
  const quick = argv.includes("--quick")
  return {
    quick,
    runsGiven: value("--runs") !== undefined,
    only: list(value("--only")),
    runs: Number(value("--runs") ?? (quick ? 1 : 5)),
    write: !argv.includes("--no-write"),
    out: value("--out") ?? Path.join(benchDir, "RESULTS.md"),
    profile: list(value("--profile")) ?? new Set(),
    json: value("--json"),
    command: ["pnpm bench", ...argv].join(" "),
    effect3: baselineCommit(argv)
  }
}

/** The native CLI of the pinned `@anthropic-ai/claude-code`, from its platform package. */
const locateCli = (): string => {
  const require = createRequire(import.meta.url)
  const wrapper = Path.dirname(require.resolve("@anthropic-ai/claude-code/package.json"))
  const platform = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`
  for (const name of [platform, `${platform}-musl`]) {
    try {
      const dir = Path.dirname(createRequire(Path.join(wrapper, "package.json")).resolve(`${name}/package.json`))
      const binary = Path.join(dir, process.platform === "win32" ? "claude.exe" : "claude")
      if (Fs.existsSync(binary)) return binary
    } catch {
      // next
    }
  }
  throw new Error(`no native CLI found for ${platform} (install @anthropic-ai/claude-code with its optional deps)`)
}

const versionOf = (name: string): string => {
  // Not `require.resolve(name/package.json)`: a package's exports may not list it.
  for (let dir = benchDir;; dir = Path.dirname(dir)) {
    const file = Path.join(dir, "node_modules", name, "package.json")
    if (Fs.existsSync(file)) return JSON.parse(Fs.readFileSync(file, "utf8")).version
    if (Path.dirname(dir) === dir) return "?"
  }
}

const gitDescribe = (): Promise<string> =>
  new Promise((resolve) => {
    const child = spawn("git", ["-C", benchDir, "log", "-1", "--format=%h %s"], { stdio: ["ignore", "pipe", "ignore"] })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.on("close", () => {
      const status = spawn("git", ["-C", benchDir, "status", "--porcelain", "--", "../sdk/src"], {
        stdio: ["ignore", "pipe", "ignore"]
      })
      let changes = ""
      status.stdout.on("data", (d) => (changes += d))
      status.on("close", () =>
        resolve(
          `${out.trim().slice(0, 80)}${changes.trim().length > 0 ? " + uncommitted changes in packages/sdk/src" : ""}`
        ))
      status.on("error", () => resolve(out.trim()))
    })
    child.on("error", () => resolve("?"))
  })

const machine = () => {
  const cpus = Os.cpus()
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? "?"}), ${
    (Os.totalmem() / 2 ** 30).toFixed(1)
  } GiB RAM, ${Os.type()} ${Os.release()}, node ${process.version}`
}

const load = () => Os.loadavg().map((l) => l.toFixed(2)).join(" / ")

/** Runs decode.ts (ours, or the effect-3 baseline's) in a process of its own (under tsx, like `pnpm bench` itself). */
const runDecode = (durationMillis: number, bench: string = benchDir): Promise<DecodeBenchResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", Path.join(bench, "src", "decode.ts"), "--json", "--duration", String(durationMillis)],
      { cwd: bench, stdio: ["ignore", "pipe", "pipe"] }
    )
    let out = ""
    let err = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (err += d))
    child.on("close", (code) => {
      try {
        if (code !== 0) throw new Error(err.slice(-500))
        resolve(JSON.parse(out.trim().split("\n").pop()!))
      } catch (error) {
        reject(error)
      }
    })
  })

const methodNotes = (quick: boolean): Array<string> => [
  "Every cell is a median over the runs (latency percentiles: pooled over all runs). Ratios are costs: " +
  "above 1× the first is slower, heavier or lower-rate. Targets: the 'target' column, ours/official, as issue " +
  "'Performance' sets them per row; where it sets none, ours ≤ official (≈ within 5%) and ours ≤ 2× raw.",
  "The 'ours, effect 3' column is our SDK's last effect-3 build (effect3.ts: a commit of this repository extracted " +
  "with `git archive` into a cache under the OS temp dir, installed from its own lockfile), run by that commit's own " +
  "bench code: its worker, bundled by its own build.ts (esbuild, minified, effect 3.22 inside) and given the same " +
  "jobs as ours; its decode, import-cost and command-hook measurements. 'ours/ours, effect 3' is the port's cost.",
  "Each SDK runs each scenario in a worker process of its own, started fresh per run, in A/B/C/D order rotating " +
  "per run; the CLI (2.1.328, the pinned native binary) and the scripted model (testkit ScriptedModel, served by the " +
  "runner on 127.0.0.1) are separate processes, so SDK CPU and peak RSS are the worker's own " +
  "(`process.cpuUsage` over the scenario, `process.resourceUsage().maxRSS`). SDK CPU counts every thread of the " +
  "worker: the 'of which on the main thread' lines (the thread's own run time, `/proc/self/task/<pid>/schedstat`) " +
  "split off V8's background work, its optimizing compiler and concurrent GC, which runs on other threads.",
  "Ours starts the CLI as the docs recommend on Node, through `NodeCliSpawner.layer` (stdin written directly), " +
  "and gets the platform services `ClaudeCode.layer` asks for (FileSystem, Path) from their @effect/platform-node " +
  "layers (on effect 3 it also asked for a CommandExecutor).",
  "Workers are plain ESM bundled by esbuild from the current sources: no TypeScript loader in the measured " +
  "process. Each SDK runs as it ships: the official SDK is published as one minified bundle of itself and its " +
  "dependencies and loads from node_modules as published; ours is bundled with its dependencies (effect, " +
  "@effect/platform-node) and minified, as the README says to ship it. Row 1's 'ours not bundled' lines run ours with " +
  "every package loaded from node_modules, file by file (as every row did before 2026-11-29).",
  "Row 1, 'import in a fresh process' lines (importCost.ts): `node` started per sample, the dynamic `import()` " +
  "timed, variants round-robin: our SDK with its platform services as an application imports them (on effect 4 " +
  "NodeServices, effect and @effect/platform-node; on effect 3 NodeContext, effect and @effect/platform; from " +
  "node_modules, file by file), those effect and platform modules alone, and everything esbuilt into " +
  "one file; the official column is always `@anthropic-ai/claude-agent-sdk` (published as one bundled file).",
  "Row 2: a line tap (a tiny Node program given to each SDK as its executable) spawns the real CLI and timestamps " +
  "control lines both ways; latency = control_request handed to the SDK → its control_response back in the tap " +
  "(two pipe hops included, the same for all three). Wall time per tool call = first tool_use → result over the number " +
  "of tool calls. The 'second session in the same process' lines run the same session twice in one worker and " +
  "measure the second, its start and close included (its own CPU, from the call to the end of its stream): what a " +
  "tool call costs once the SDK's code has run before, as in a server that holds many sessions; the first session " +
  "pays for V8 compiling that code (ours: Effect's runtime is hot enough to be optimized by TurboFan within 50 tool " +
  "calls, 40–100 ms of compiler-thread CPU; the official SDK's code is not). " +
  "The in-process lines replace the CLI by a fake process inside the SDK's worker that sends the " +
  "recorded PreToolUse / can_use_tool / PostToolUse requests one after the other (each SDK's own spawn hook: a fake " +
  "CliSpawner for ours, `spawnClaudeCodeProcess` for the official SDK) and times each answer on the SDK's clock; " +
  "a second run ten times longer shows each SDK's cost once its code is warm. " +
  "The 'ours by level' lines answer the same requests with successively more of our SDK (codec only; ControlRouter " +
  "with a trivial handler; + HookRegistry; + PermissionGate) over a fake CliProcess (whose lines are a Stream: the " +
  "router levels pay a stream step per line that NodeCliSpawner's pushed `readLines` skips), every level warmed up before " +
  "any is timed, then timed in five slices taken in turn (timed one after the other, each level ran on code as " +
  "warm as the levels before had left it).",
  "Row 3: the tap holds the CLI's output from the first stream_event to the result and hands the whole turn over in " +
  "one write, so messages/s measures the SDK (live, the rate is bounded by the CLI and the model server, and all " +
  "three keep up). 'CPU per 1,000 messages' is the whole query's CPU (session start included: row 1's cost, spread " +
  "over the messages) per 1,000 messages; 'the burst alone' is the CPU from the first text delta to the result as " +
  "the consumer sees them (`process.cpuUsage`), per 1,000 messages.",
  "Row 4: a session recorded from the real CLI (hooks, gate, 10 Bash calls, a 2,000-delta text, partial messages) " +
  "replayed in a loop through a fake CLI process: ours through a fake CliSpawner (the real CliProcess, " +
  "ControlRouter and session stream), the official SDK through its `spawnClaudeCodeProcess` option, raw through the " +
  "same Readable. 64 KiB chunks, like a pipe. Each SDK registers the same PreToolUse and PostToolUse hooks and a " +
  "gate, and the recorded hook callback ids are rewritten to the ones it registered, so every replayed control " +
  "request is answered by its hooks. 'ours by stage' runs the same lines through decodeStdoutLine alone, " +
  "CliProcess.lines alone, and CliProcess + ControlRouter with its message queue drained a chunk at a time (each after a " +
  "warm-up pass); the full row adds the session's message stream. Ours consumes it as the README shows " +
  "(`Stream.runForEach` with an effect per message); 'ours consuming each chunk synchronously' is the same run, in " +
  "workers of its own, with `Stream.runForEachArray` (effect 3: `runForEachChunk`) and a handler that loops over the chunk and returns " +
  "`Effect.void`. The difference is V8's, not the SDK's: a stream's sink wraps each chunk's effect with Effect's " +
  "`Channel.fromEffect`, which stores a closure over it in a property (`op.effect = () => effect`); V8 allocates a " +
  "function literal assigned to a property in old space (it expects methods), so the closure, the effect and the " +
  "chunk it holds outlive every young-generation collection until the next full one: a consumer whose effect holds " +
  "the chunk has every message copied twice and promoted (a 20-line reproduction with plain objects, no Effect, " +
  "behaves the same; `Object.defineProperty` or a closure made by another function does not). It lasts until " +
  "TurboFan has optimized Effect's per-chunk code; from then on nothing survives a young-generation collection (with " +
  "TurboFan off, `--max-opt=2`, the promotion lasts the whole run). The session hands over at most 64 messages per " +
  "chunk (a 64 KiB read holds ~240) so that the optimization comes sooner: partway through this row, where " +
  "read-sized chunks did not reach it.",
  `Row 5: the ${
    quick ? "1 MB" : "10 MB"
  } Write makes the CLI compact on its next request; the script answers every later request with text.` +
  " The prompt line is echoed back with `--replay-user-messages` to check it arrived intact.",
  "Row 6: each session runs its turns one after the other and uses only their results. Ours waits for the " +
  "initialize answer without a practical bound, as the official SDK does (64 CLIs starting at once on 2 cores can " +
  "take longer than its 60 s default). Ours runs a turn with " +
  "`session.result(prompt)` (the turn read to its result by pulls, no stream run), the official SDK iterates its " +
  "query until the result, raw reads lines until it. Running a stream costs Effect ~500 runtime steps of its own, " +
  "about what a short turn's messages cost: the line 'ours running each turn's stream' is the same run with " +
  "`Stream.runDrain(session.turn(prompt))`.",
  "Row 7: raw interrupts with the `interrupt` control request, closes with interrupt + end of stdin, aborts with " +
  "SIGTERM. Ours: `session.interrupt`, closing the session's scope, a stream that stops reading " +
  "(`Stream.takeUntil`), `Fiber.interrupt` of the consumer. Official: `interrupt()`, `close()`, `break` out of " +
  "`for await`, `AbortController.abort()`. Leftovers: live processes whose cwd is the session's, 300 ms after the " +
  "CLI exited. The close starts once the mid-tool interrupt's killed tool is reaped: at the end of its input the " +
  "CLI waits (polling every 100 ms) until an interrupted tool's process group is gone, zombies included, and on " +
  "this VM PID 1 reaps the orphaned ones lazily (up to ~1.5 s), which made the close bimodal (~20 ms or ~1 s) for " +
  "all three.",
  "Row 8: ours keeps a `SessionPool` of one (spawned and initialized) and claims it with `SessionPool.query`; the " +
  "official SDK parks a spare with `prewarm()` and claims it with `spare.claim({ prompt, options: { cwd } })`; raw " +
  `spawns the CLI and waits for its initialize answer. Each is left parked ${PARK_MILLIS} ms, then timed from ` +
  "the claim (raw: the prompt's write). The first message differs: `system/session_state_changed` (ours, raw: the " +
  "CLI saying it is running the prompt) and `system/ui_invalidate` (official); system/init and the result are the " +
  "same messages for all three. The first line's target is absolute: at most 5 ms. The official's first message " +
  "is the `ui_invalidate` its parked CLI wrote after the initialize answer, before the claim (its answer to the " +
  "claim_session request is a second `ui_invalidate`), handed over at the first read: the second line times, " +
  "for each, the first message whose line reached the SDK process after the claim (the official spare's stdout " +
  "goes through a tee, `spawnClaudeCodeProcess`, that notes each line's arrival by uuid; ours and raw hold no " +
  "message from before the claim).",
  "Issue 17, stream consumer lines (consumerCost.ts): 3,000 messages, one per event-loop turn (`setImmediate`), as " +
  "a live session's lines arrive, each consumer doing nothing with them; a fresh `node` per sample, variants " +
  "round-robin. The 'ours' column is effect 4.1 (the SDK's runtime), 'ours, effect 3' effect 3.22 (the effect-3 " +
  "baseline's, imported from its tree), each with the stream the line names; the official column an async " +
  "generator read by `for await` (the official SDK's `query`), raw the messages made and handed to nothing. " +
  "'First 300' is the CPU per message over the first 300 (the runtime imported before, its first use included); " +
  "'warm', over messages 1,000–3,000."
]

const main = async () => {
  const args = parseArgs(process.argv.slice(2))
  const startedAt = new Date()
  const loadBefore = load()
  const log = (line: string) => console.error(line)
  const cli = locateCli()
  // Unminified when profiling: profile.ts locates functions by the bundle's source markers.
  const minify = args.profile.size === 0 && process.env.BENCH_NO_MINIFY === undefined
  const worker = await buildWorker({ layout: "shipped", minify })
  const modulesWorker = await buildWorker({ layout: "modules", minify: false })
  const baseline: Effect3Baseline = prepareBaseline(args.effect3, log)
  log(`effect 3 baseline: ${baseline.describe.slice(0, 80)} (${baseline.tree})`)
  const effect3Worker = buildBaselineWorker(baseline, { layout: "shipped", minify })
  const effect3ModulesWorker = buildBaselineWorker(baseline, { layout: "modules", minify: false })
  const root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-bench-"))
  const cleanup = () => {
    killProcessesUnder(root)
    // BENCH_KEEP_JOBS (runner.ts) keeps the jobs' directories, which are under it.
    if (process.env.BENCH_KEEP_JOBS === undefined) Fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 })
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      cleanup()
      process.exit(130)
    })
  }
  const profileDir = Path.join(benchDir, "profiles")
  if (args.profile.size > 0) Fs.mkdirSync(profileDir, { recursive: true })
  const baseCtx: Context = {
    root,
    cli,
    worker,
    modulesWorker,
    effect3Worker,
    effect3ModulesWorker,
    log,
    profile: args.profile.size > 0 ? { keys: args.profile, dir: profileDir } : undefined
  }
  const selected = rows(args.quick).filter((row) =>
    args.only === undefined || args.only.has(row.id) || row.specs.some((s) => args.only!.has(s.key))
  )
  const wants = (id: string) => args.only === undefined || args.only.has(id)
  log(`bench: ${args.runs} run(s), ${args.quick ? "quick" : "full"} sizes, workers: ${worker.mode}; load ${loadBefore}`)

  try {
    const outcomes = new Map<string, ReadonlyArray<Outcome>>()
    let ctx = baseCtx
    if (selected.length > 0 && !args.quick) {
      // Warm the disk cache for the CLI binary and the runner's model server before anything is measured.
      log("warm-up")
      await runJob(ctx, { key: "warmup", scenario: "cold", params: {}, timeoutMillis: 60_000 }, "raw", 0)
    }
    let replayNote = ""
    if (
      selected.some((row) =>
        row.specs.some((spec) =>
          spec.scenario === "replay" || spec.scenario === "pingpong" || spec.scenario === "probe"
        )
      )
    ) {
      const replayFile = Path.join(root, "replay.jsonl")
      const recorded = await recordReplay(ctx, replayFile, { toolCalls: 10, deltas: 2_000 })
      replayNote = `recorded session: ${recorded.lines} lines, ${(recorded.bytes / 1e6).toFixed(2)} MB (${
        Math.round(recorded.bytes / recorded.lines)
      } B/line)`
      log(replayNote)
      ctx = { ...ctx, replayFile }
    }
    for (const row of selected) {
      log(`row ${row.id}: ${row.title}`)
      for (const spec of row.specs) {
        if (args.only !== undefined && !args.only.has(row.id) && !args.only.has(spec.key)) continue
        const runs = args.runsGiven || spec.maxRuns === undefined ? args.runs : Math.min(args.runs, spec.maxRuns)
        outcomes.set(spec.key, await runSpec(ctx, spec, runs))
      }
    }
    const lines: Array<Line> = selected.flatMap((row) => row.lines(outcomes))

    const extra: Array<string> = []
    if (wants("decode")) {
      log("decode: decodeStdoutLine vs JSON.parse (decode.ts)")
      const results: Array<DecodeBenchResult> = []
      const baselineResults: Array<DecodeBenchResult> = []
      for (let run = 0; run < args.runs; run++) {
        try {
          results.push(await runDecode(args.quick ? 400 : 2_000))
          baselineResults.push(await runDecode(args.quick ? 400 : 2_000, baseline.benchDir))
        } catch (error) {
          extra.push(`decode.ts failed: ${String(error).slice(0, 300)}`)
        }
      }
      if (results.length > 0) {
        lines.push({
          row: "issue 3",
          label: `decodeStdoutLine vs JSON.parse, ${results[0].lines} transcript stdout lines (lines/s)`,
          better: "higher",
          values: {
            ours: median(results.map((r) => r.decodeStdoutLine.linesPerSecond)),
            ours3: median(baselineResults.map((r) => r.decodeStdoutLine.linesPerSecond)),
            raw: median(results.map((r) => r.jsonParse.linesPerSecond))
          }
        })
      }
    }

    if (wants("consumer")) {
      log("consumer: a stream consumer's CPU per message, by runtime (consumerCost.ts)")
      try {
        const cost = measureConsumerCost(root, args.quick ? 2 : args.runs, baselineEffectUrl(baseline))
        // The ours column is effect 4.1 (the SDK's runtime), the ours3 column effect 3.22 (the effect-3 build's).
        const shapes = [
          [
            "effect3",
            "the session stream's shape (effect 4: Stream.fromQueue; effect 3: its channel loop), Stream.runForEach"
          ],
          [
            "effect3Mailbox",
            "the runtime's queue-backed stream (effect 4: Stream.fromQueue; effect 3: Mailbox.toStream), " +
            "Stream.runForEach"
          ]
        ] as const
        for (const [effect3, shape] of shapes) {
          for (const [phase, phaseLabel] of [["first", "first 300"], ["warm", "warm"]] as const) {
            lines.push({
              row: "issue 17",
              label: `stream consumer, one message per event-loop turn: ${shape}, CPU per message, ${phaseLabel} (µs)`,
              better: "lower",
              values: {
                ours: cost.effect4[phase],
                ours3: cost[effect3][phase],
                official: cost.asyncGenerator[phase],
                raw: cost.producer[phase]
              }
            })
          }
        }
      } catch (error) {
        extra.push(`consumerCost.ts failed: ${String(error).slice(0, 300)}`)
      }
    }

    if (wants("1") || wants("import")) {
      log("import: the SDK's module import in fresh processes (importCost.ts)")
      try {
        const runs = args.quick ? 3 : 7
        const cost = await measureImportCost(root, runs)
        // The baseline's own importCost.ts, in its tree: its SDK with NodeContext, effect 3 and @effect/platform.
        const cost3 = evaluateInBaseline<ImportCost>(
          baseline,
          "importCost.ts",
          `m.measureImportCost(${JSON.stringify(root)}, ${runs})`
        )
        lines.push(
          {
            row: "1 cold start",
            label: "import in a fresh process: SDK + platform services, effect from node_modules (ms)",
            better: "lower",
            rawIsFloor: false,
            values: { ours: cost.ours, ours3: cost3.ours, official: cost.official }
          },
          {
            row: "1 cold start",
            label: "import in a fresh process: effect + platform modules alone, none of our code (ms)",
            better: "lower",
            rawIsFloor: false,
            values: { ours: cost.dependencies, ours3: cost3.dependencies, official: cost.official }
          },
          {
            row: "1 cold start",
            label: "import in a fresh process: SDK + platform services bundled with effect into one file (ms)",
            better: "lower",
            rawIsFloor: false,
            values: { ours: cost.bundled, ours3: cost3.bundled, official: cost.official }
          },
          {
            row: "1 cold start",
            label: "import of our own modules, effect + platform already loaded, vs the official whole import (ms)",
            better: "lower",
            rawIsFloor: false,
            values: { ours: cost.oursAlone, ours3: cost3.oursAlone, official: cost.official },
            target: { ratio: 1 }
          }
        )
      } catch (error) {
        extra.push(`importCost.ts failed: ${String(error).slice(0, 300)}`)
      }
    }

    let hookCommandTable = ""
    let hookCommandResults: { readonly ours: HookCommandResult; readonly ours3: HookCommandResult } | undefined
    const hookCommandFile = Path.join(srcDir, "hookCommand.ts")
    if (wants("hookcmd") && Fs.existsSync(hookCommandFile)) {
      log("hookcmd: command-hook startup (hookCommand.ts)")
      try {
        const hookCommand = await import("./hookCommand.js")
        const options = { runs: args.quick ? 3 : 10, warmup: 2 }
        // The baseline's bundles only: its `tsc-build` variant needs a `tsc -b` of its tree.
        const effect3 = evaluateInBaseline<HookCommandResult>(
          baseline,
          "hookCommand.ts",
          `m.measure(${JSON.stringify({ ...options, variants: ["bundle", "bundle-v8cache", "bundle-unminified"] })})`
        )
        const ours = await hookCommand.measure(options)
        hookCommandResults = { ours, ours3: effect3 }
        hookCommandTable = hookCommand.format(ours, effect3)
      } catch (error) {
        extra.push(`hookCommand.ts failed: ${String(error).slice(0, 300)}`)
      }
    }

    const hooks = outcomes.get("hooks")
    const pooled = (sdk: Sdk, p: number) =>
      percentile((hooks ?? []).filter((o) => o.sdk === sdk).flatMap((o) => o.latencies?.hook_callback ?? []), p)
    const toolCalls = (hooks ?? []).filter((o) => o.sdk === "ours" && o.result !== undefined)
      .reduce((n, o) => n + (o.result!.metrics.toolCalls ?? 0), 0)
    const callbacks = (hooks ?? []).filter((o) => o.sdk === "ours").reduce(
      (n, o) => n + (o.latencies?.hook_callback?.length ?? 0),
      0
    )
    const issue5 = hooks !== undefined
      ? `Issue 5 — SDK-side hook round-trip (hook_callback), pooled over ${toolCalls} tool calls (${callbacks} callbacks): ` +
        (["ours", "ours3", "official", "raw"] as const).map((sdk) =>
          `${sdk} p50 ${formatNumber(pooled(sdk, 50))} / p99 ${formatNumber(pooled(sdk, 99))} ms`
        ).join(", ") + ". Messages/s on the partial-message turn: row 3."
      : ""

    const finished = new Date()
    const section = [
      `## ${startedAt.toISOString().replace("T", " ").slice(0, 16)} UTC — \`${args.command}\``,
      "",
      `- machine: ${machine()}`,
      `- load average (1/5/15 min): ${loadBefore} before, ${load()} after; ${
        ((finished.getTime() - startedAt.getTime()) / 60_000).toFixed(1)
      } min`,
      `- CLI @anthropic-ai/claude-code ${versionOf("@anthropic-ai/claude-code")}; official SDK ${
        versionOf("@anthropic-ai/claude-agent-sdk")
      }; ours: ${await gitDescribe()}; ours, effect 3: ${baseline.describe.slice(0, 80)}`,
      `- ${args.runs} run(s) per SDK per scenario${
        args.runsGiven || args.quick ? "" : " (row 6: 3 — sixteen CLIs at once take ~20 s a run on 2 cores)"
      }, ${args.quick ? "quick" : "full"} sizes; workers: ${
        worker.mode === "bundle" ? "esbuild bundles" : "tsx (bundling failed)"
      }${replayNote.length > 0 ? `; replay ${replayNote}` : ""}`,
      "",
      markdownTable(lines),
      "",
      ...(issue5.length > 0 ? [issue5, ""] : []),
      ...(hookCommandTable.length > 0 ? ["Command-hook startup (hookCommand.ts):", "", hookCommandTable, ""] : []),
      ...[...failures(outcomes), ...extra].map((f) => `- failed: ${f}`),
      "",
      "<details><summary>Method</summary>",
      "",
      ...methodNotes(args.quick).map((n) => `- ${n}`),
      "",
      "</details>",
      ""
    ].join("\n")

    console.log(section)
    if (args.json !== undefined) {
      Fs.writeFileSync(
        args.json,
        JSON.stringify(
          {
            outcomes: Object.fromEntries(outcomes),
            lines,
            hookCommand: hookCommandResults,
            effect3: baseline.commit,
            failed: extra
          },
          null,
          1
        )
      )
    }
    if (args.write) {
      const title = "# Benchmark results\n\nNewest first. Written by `pnpm bench` (packages/bench/src/main.ts).\n\n"
      const previous = Fs.existsSync(args.out) ? Fs.readFileSync(args.out, "utf8") : ""
      const body = previous.startsWith(title) ? previous.slice(title.length) : previous
      Fs.writeFileSync(args.out, title + section + "\n" + body)
      log(`wrote ${args.out}`)
    }
  } finally {
    cleanup()
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
