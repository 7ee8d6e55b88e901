/**
 * Summarizes `perf record` samples of bench workers: CPU time only, main
 * thread only, within the scenario's window. V8's own profiler
 * (`--profile`, profile.ts) samples wall time and charges to the running
 * frame the time the worker was preempted; on 2 cores shared with the CLI
 * that blurs exactly the rows where ours and the official SDK differ by a few
 * milliseconds. For each worker it prints where the main thread's CPU went
 * (lazy compilation, garbage collection, JS, builtins, system calls), the V8
 * tier the JS ran in (interpreted, baseline, optimized), and the top leaf
 * symbols and the JS functions they ran for, located by the bundle's source
 * markers.
 *
 * ```sh
 * mkdir -p /tmp/perf
 * printf '#!/bin/sh\nexec perf record -q -k CLOCK_MONOTONIC --no-inherit -e cpu-clock -F 4000 -g -o /tmp/perf/$(date +%%s%%N).data -- "$@"\n' > /tmp/perf/wrap.sh
 * chmod +x /tmp/perf/wrap.sh
 * BENCH_NO_MINIFY=1 BENCH_WINDOW_DIR=/tmp/perf BENCH_WORKER_WRAP=/tmp/perf/wrap.sh \
 *   BENCH_WORKER_NODE_ARGS="--perf-basic-prof --interpreted-frames-native-stack" \
 *   pnpm bench --only cold --runs 2 --no-write
 * npx tsx next/bench/src/perfReport.ts /tmp/perf/*.data
 * ```
 *
 * The window is the one the worker writes to `BENCH_WINDOW_DIR` as
 * `<pid>.window.json` (worker.ts), looked for beside each data file.
 *
 * @since 0.1.0
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"
import { locateLine } from "./profile.js"

interface Sample {
  readonly pid: number
  readonly tid: number
  readonly seconds: number
  /** Symbols, leaf first. */
  readonly frames: ReadonlyArray<string>
}

const perfScript = (file: string, fields: ReadonlyArray<string>): string => {
  const run = spawnSync("perf", ["script", "-i", file, ...fields], { encoding: "utf8", maxBuffer: 1 << 30 })
  if (run.error !== undefined) throw run.error
  return run.stdout
}

const samplesOf = (file: string): ReadonlyArray<Sample> =>
  perfScript(file, ["-F", "pid,tid,time,ip,sym"]).split("\n\n").flatMap((block) => {
    const lines = block.split("\n").filter((line) => line.trim().length > 0)
    const head = lines.length === 0 ? null : /^\s*(\d+)\/(\d+)\s+([\d.]+):/.exec(lines[0])
    if (head === null) return []
    const frames = lines.slice(1).map((line) => line.trim().split(/\s+/).slice(1).join(" "))
    return [{ pid: Number(head[1]), tid: Number(head[2]), seconds: Number(head[3]), frames }]
  })

// "JS:^name file:///path/bundle.js:12:3": the tier mark (~ interpreted, ^ baseline, + Maglev, * TurboFan), the
// function and where its bundle line came from.
const jsFrame = /^JS:([~^+*]?)(\S*) (\S+):(\d+):\d+$/

const tierNames: Record<string, string> = {
  "~": "interpreted",
  "^": "baseline (Sparkplug)",
  "+": "Maglev",
  "*": "optimized (TurboFan)",
  "": "interpreted"
}

// Where a sample's time went, by what its stack holds (first match).
const groupOf = (frames: ReadonlyArray<string>): string => {
  const stack = frames.join(" | ")
  if (/Compiler::Compile|CompileLazy|Parser::|BytecodeGenerator/.test(stack)) return "lazy compilation"
  if (/Scaveng|MarkCompact|Heap::CollectGarbage|IncrementalMarking|ConcurrentMarking/.test(stack)) {
    return "garbage collection"
  }
  if (/compiler::|OptimizedCompilation|baseline::/.test(stack)) return "JIT (main-thread part)"
  const leaf = frames[0] ?? ""
  if (leaf.startsWith("JS:")) return "JS"
  if (leaf.startsWith("Builtins_")) return "V8 builtins"
  if (/do_syscall|entry_SYSCALL/.test(stack)) return "system calls"
  return "other native"
}

interface Counts {
  add(key: string, millis: number): void
  top(n: number): ReadonlyArray<readonly [string, number]>
}

const counts = (): Counts => {
  const map = new Map<string, number>()
  return {
    add: (key, millis) => void map.set(key, (map.get(key) ?? 0) + millis),
    top: (n) => Array.from(map).sort((a, b) => b[1] - a[1]).slice(0, n)
  }
}

/**
 * The summary of one `perf record` data file.
 *
 * @since 0.1.0
 * @category Profiles
 */
export const report = (file: string, top = 15): string => {
  const samples = samplesOf(file)
  if (samples.length === 0) return `${file}: no samples`
  const pid = samples[samples.length - 1].pid
  const header = perfScript(file, ["--header-only"])
  const sdk = /-(ours|official|raw)-\d+-/.exec(header)?.[1] ?? "?"
  const windowFile = Path.join(process.env.BENCH_WINDOW_DIR ?? Path.dirname(file), `${pid}.window.json`)
  const window = Fs.existsSync(windowFile)
    ? JSON.parse(Fs.readFileSync(windowFile, "utf8")) as { startMicros: number; endMicros: number }
    : undefined
  const inWindow = (sample: Sample) =>
    window === undefined ||
    (sample.seconds * 1e6 >= window.startMicros && sample.seconds * 1e6 <= window.endMicros)
  const rate = Number(/-F (\d+)/.exec(header)?.[1] ?? 4000)
  const millis = 1000 / rate
  const groups = counts()
  const tiers = counts()
  const leaves = counts()
  const functions = counts()
  let main = 0
  for (const sample of samples) {
    // (`--no-inherit` records the main thread only: V8's compiler and GC threads start after it.)
    if (!inWindow(sample) || sample.tid !== sample.pid) continue
    main += millis
    groups.add(groupOf(sample.frames), millis)
    leaves.add((sample.frames[0] ?? "?").replace(/ file:\S+/, ""), millis)
    const js = sample.frames.map((frame) => jsFrame.exec(frame)).find((match) => match !== null)
    if (js == null) continue
    tiers.add(tierNames[js[1]], millis)
    // A bundle's line is located by its source markers; node's own modules ("node:fs") name themselves.
    const where = js[3].startsWith("file://") ? locateLine(js[3], Number(js[4]) - 1) : `${js[3]}:${js[4]}`
    functions.add(`${js[2] || "(anonymous)"}  (${where})`, millis)
  }
  const rows = (entries: ReadonlyArray<readonly [string, number]>) =>
    entries.map(([key, value]) => `${value.toFixed(1).padStart(9)}  ${key}`)
  return [
    `${sdk} (pid ${pid}, ${Path.basename(file)}): ${
      window === undefined
        ? "whole run (no window file)"
        : `window ${((window.endMicros - window.startMicros) / 1000).toFixed(0)} ms`
    }; main thread ${main.toFixed(1)} ms`,
    "main thread by where the time went (ms):",
    ...rows(groups.top(10)),
    "JS by the tier of the innermost JS frame (ms):",
    ...rows(tiers.top(5)),
    "top leaf symbols (ms):",
    ...rows(leaves.top(top)),
    "top innermost JS functions, their builtins and runtime calls included (ms):",
    ...rows(functions.top(top))
  ].join("\n")
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(Path.resolve(process.argv[1])).href) {
  for (const file of process.argv.slice(2)) console.log(`${report(file)}\n`)
}
