/**
 * The worker: one process per SDK per run. It loads exactly one driver, runs
 * one scenario, and writes what it measured, with its own CPU time and peak
 * RSS (`process.resourceUsage()`), to the job's result file. The CLI it
 * spawns is a separate process and does not count.
 *
 * ```sh
 * node build/worker/worker.js <job.json>
 * ```
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import type { Job, ScenarioOutput, WorkerResult } from "./jobs.js"

const load = (sdk: Job["sdk"]): Promise<{ readonly run: (job: Job) => Promise<ScenarioOutput> }> => {
  switch (sdk) {
    case "ours":
      return import("./sdk/ours.js")
    case "official":
      return import("./sdk/official.js")
    case "raw":
      return import("./sdk/raw.js")
  }
}

// Time the main thread has run, in ms (Linux: the first field of the thread's schedstat, in ns).
const mainThreadMillis = (): number | undefined => {
  try {
    return Number(Fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6
  } catch {
    return undefined
  }
}

// Under `--cpu-prof` (`pnpm bench --profile`), the scenario's own window (V8's profile clock is the monotonic
// clock `process.hrtime` reads), written beside the profile so that profile.ts can leave out the import.
const writeProfileWindow = (startMicros: number, endMicros: number) => {
  const flag = (name: string) => process.execArgv.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1)
  const dir = flag("--cpu-prof-dir")
  const name = flag("--cpu-prof-name")
  if (dir !== undefined && name !== undefined) {
    Fs.writeFileSync(`${dir}/${name}.window.json`, JSON.stringify({ startMicros, endMicros }))
  }
  // Under a sampling profiler of the whole process (BENCH_WORKER_WRAP="perf record -k CLOCK_MONOTONIC ..."), the
  // window goes to BENCH_WINDOW_DIR as `<pid>.window.json`, on the same clock.
  const windowDir = process.env.BENCH_WINDOW_DIR
  if (windowDir !== undefined) {
    Fs.writeFileSync(`${windowDir}/${process.pid}.window.json`, JSON.stringify({ startMicros, endMicros }))
  }
}

const micros = () => Number(process.hrtime.bigint() / 1000n)

const main = async () => {
  const job = JSON.parse(Fs.readFileSync(process.argv[2], "utf8")) as Job
  try {
    const loadStart = performance.now()
    const driver = await load(job.sdk)
    const loadMillis = performance.now() - loadStart
    const mainStart = mainThreadMillis()
    const cpuStart = process.cpuUsage()
    const runStart = micros()
    const output = await driver.run(job)
    const cpu = process.cpuUsage(cpuStart)
    writeProfileWindow(runStart, micros())
    const mainEnd = mainThreadMillis()
    const usage = process.resourceUsage()
    const result: WorkerResult = {
      ...output,
      loadMillis,
      cpuMillis: (cpu.user + cpu.system) / 1000,
      ...(mainStart !== undefined && mainEnd !== undefined ? { mainThreadCpuMillis: mainEnd - mainStart } : {}),
      totalCpuMillis: (usage.userCPUTime + usage.systemCPUTime) / 1000,
      maxRssMb: usage.maxRSS / 1024
    }
    Fs.writeFileSync(job.resultFile, JSON.stringify(result))
    process.exit(0)
  } catch (error) {
    Fs.writeFileSync(job.resultFile, JSON.stringify({ error: error instanceof Error ? error.stack : String(error) }))
    process.exit(1)
  }
}

void main()
