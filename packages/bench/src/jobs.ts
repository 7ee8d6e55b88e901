/**
 * What the runner hands a worker process and what it gets back. Shared by
 * both sides; nothing here may import an SDK (the worker loads exactly one).
 *
 * @since 0.1.0
 */

/**
 * The drivers a worker can load: ours, the official SDK, the raw floor.
 *
 * @since 0.1.0
 * @category Models
 */
export type Driver = "ours" | "official" | "raw"

/**
 * The columns measured side by side: the drivers, and `ours3`, our SDK's last effect-3 build (effect3.ts), run by
 * the worker of that build as its `ours`.
 *
 * @since 0.1.0
 * @category Models
 */
export type Sdk = Driver | "ours3"

/**
 * @since 0.1.0
 * @category Models
 */
export const SDKS: ReadonlyArray<Sdk> = ["ours", "ours3", "official", "raw"]

/**
 * The scenarios a worker can run.
 *
 * @since 0.1.0
 * @category Models
 */
export type Scenario =
  | "cold"
  | "hooks"
  | "partial"
  | "replay"
  | "replay-stages"
  | "pingpong"
  | "probe"
  | "large-tool"
  | "large-input"
  | "concurrency"
  | "stop-session"
  | "stop-break"
  | "stop-abort"
  | "claim"

/**
 * One run of one scenario by one SDK, in its own process.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Job {
  readonly sdk: Driver
  readonly scenario: Scenario
  readonly params: Readonly<Record<string, number>>
  /** The executable to give the SDK: the real CLI, or the line tap in front of it. */
  readonly executable: string
  /** What the CLI needs on top of the parent environment (the scripted model's `cliEnv`). */
  readonly env: Readonly<Record<string, string>>
  /** The working directory for the CLI; everything the job creates lives below it. */
  readonly cwd: string
  readonly resultFile: string
  /** The recorded stdout stream, for `replay`. */
  readonly replayFile?: string | undefined
}

/**
 * The scenarios a driver implements, by name.
 *
 * @since 0.1.0
 * @category Models
 */
export type ScenarioTable = Partial<Record<Scenario, (job: Job) => Promise<ScenarioOutput>>>

/**
 * Runs the job's scenario from a driver's table; a scenario the driver does
 * not have is an error.
 *
 * @since 0.1.0
 * @category Running
 */
export const runFrom = (driver: string, table: ScenarioTable) => (job: Job): Promise<ScenarioOutput> => {
  const scenario = table[job.scenario]
  return scenario !== undefined
    ? scenario(job)
    : Promise.reject(new Error(`${driver} has no ${job.scenario} scenario`))
}

/**
 * What a scenario measured.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ScenarioOutput {
  /** Scalar measurements (milliseconds, counts, rates). */
  readonly metrics: Record<string, number>
  /** Distributions, pooled across runs by the runner. */
  readonly samples?: Record<string, ReadonlyArray<number>> | undefined
  /** Pass/fail facts (data delivered intact, nothing left behind, ...). */
  readonly checks?: Record<string, boolean> | undefined
  readonly notes?: ReadonlyArray<string> | undefined
}

/**
 * What a worker writes to its result file.
 *
 * @since 0.1.0
 * @category Models
 */
export interface WorkerResult extends ScenarioOutput {
  /** Time to import the SDK module, in milliseconds. */
  readonly loadMillis: number
  /** CPU time (user + system) of the worker during the scenario, in milliseconds. */
  readonly cpuMillis: number
  /**
   * The part of `cpuMillis` spent on the main (JavaScript) thread; the rest is V8's background work
   * (optimizing compiler, concurrent GC). Linux only (`/proc/self/task/<pid>/schedstat`).
   */
  readonly mainThreadCpuMillis?: number | undefined
  /** CPU time of the whole worker process, module loading included. */
  readonly totalCpuMillis: number
  /** Peak resident set size of the worker process, in MB. */
  readonly maxRssMb: number
}

/**
 * A deterministic payload of about `bytes` UTF-8 bytes that mixes ASCII with
 * two-, three- and four-byte characters (so that a line cut or decoded at the
 * wrong byte shows).
 *
 * @since 0.1.0
 * @category Payloads
 */
export const makeBlob = (bytes: number): string => {
  const unit = "The quick brown fox jumps over the lazy dog 0123456789 é ✓ 😀\n"
  const unitBytes = Buffer.byteLength(unit)
  return unit.repeat(Math.max(1, Math.round(bytes / unitBytes)))
}

/**
 * The Bash command of the tool scenarios: it writes a file, so the CLI asks
 * the permission gate every time (a read-only command would be auto-allowed).
 *
 * @since 0.1.0
 * @category Payloads
 */
export const TOOL_COMMAND = "echo bench > bench-out.txt"

/**
 * The environment every SDK gives the CLI on top of the parent's; the raw
 * driver sets the same so that the CLI behaves the same for all three.
 *
 * @since 0.1.0
 * @category Payloads
 */
export const SDK_ENV: Readonly<Record<string, string>> = {
  CLAUDE_CODE_ENTRYPOINT: "sdk-ts",
  CLAUDE_CODE_SDK_READS_SESSION_STATE: "1"
}

/**
 * The prompts of the stop scenarios; the scripted model picks its answer by
 * them (a slow text stream, or a long-running Bash command).
 *
 * @since 0.1.0
 * @category Payloads
 */
export const STOP_PROMPTS = {
  stream: "[bench:stream] Talk slowly.",
  tool: "[bench:tool] Run the slow command.",
  close: "[bench:close] Talk slowly again."
} as const

/**
 * The long-running command of the stop scenarios (a loop of short sleeps, so
 * that the CLI does not refuse it as a plain long sleep).
 *
 * @since 0.1.0
 * @category Payloads
 */
export const SLOW_COMMAND = "for i in $(seq 1 300); do sleep 0.1; done; echo finished"
