/**
 * What the three drivers share: message predicates, first-seen time marks,
 * the checks of the large-line scenario, and the CLI pid lookup.
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { type Job, makeBlob, type ScenarioOutput } from "../jobs.js"
import { childrenOf } from "../procs.js"

/** @since 0.1.0 */
export const now = (): number => performance.now()

/** @since 0.1.0 */
export const isInit = (m: any): boolean => m?.type === "system" && m.subtype === "init"

/** @since 0.1.0 */
export const isResult = (m: any): boolean => m?.type === "result"

/** @since 0.1.0 */
export const isTextDelta = (m: any): boolean =>
  m?.type === "stream_event" && m.event?.type === "content_block_delta" && m.event.delta?.type === "text_delta"

/** @since 0.1.0 */
export const toolUses = (m: any): number =>
  m?.type === "assistant" && Array.isArray(m.message?.content)
    ? m.message.content.filter((b: any) => b?.type === "tool_use").length
    : 0

// The process's CPU time so far, in ms.
const cpuMillis = (): number => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/**
 * First-seen times of the interesting messages of a turn, relative to `t0`.
 *
 * @since 0.1.0
 * @category Marks
 */
export class Marks {
  readonly t0 = now()
  /** The process's CPU time (ms) when the session started (these marks were made). */
  readonly cpuAtStart = cpuMillis()
  first = Number.NaN
  /** The type (and subtype) of the first message. */
  firstType = ""
  init = Number.NaN
  firstAssistant = Number.NaN
  firstToolUse = Number.NaN
  firstDelta = Number.NaN
  result = Number.NaN
  /** The process's CPU time (ms) when the first tool use, the first text delta and the (last) result were seen. */
  cpuAtFirstToolUse = Number.NaN
  cpuAtFirstDelta = Number.NaN
  cpuAtResult = Number.NaN
  messages = 0
  messagesSinceFirstDelta = 0
  toolCalls = 0
  lastResult: any = undefined

  see(m: any): void {
    const t = now() - this.t0
    if (this.messages === 0) {
      this.first = t
      this.firstType = m?.subtype !== undefined ? `${m?.type}/${m.subtype}` : String(m?.type)
    }
    this.messages++
    if (!Number.isNaN(this.firstDelta)) this.messagesSinceFirstDelta++
    switch (m?.type) {
      case "system":
        if (m.subtype === "init" && Number.isNaN(this.init)) this.init = t
        break
      case "assistant": {
        if (Number.isNaN(this.firstAssistant)) this.firstAssistant = t
        const uses = toolUses(m)
        if (uses > 0 && Number.isNaN(this.firstToolUse)) {
          this.firstToolUse = t
          this.cpuAtFirstToolUse = cpuMillis()
        }
        this.toolCalls += uses
        break
      }
      case "stream_event":
        if (Number.isNaN(this.firstDelta) && isTextDelta(m)) {
          this.firstDelta = t
          this.cpuAtFirstDelta = cpuMillis()
          this.messagesSinceFirstDelta = 1
        }
        break
      case "result":
        this.result = t
        this.cpuAtResult = cpuMillis()
        this.lastResult = m
        break
    }
  }

  /**
   * The hooks row's metrics, taken as the session has ended: per tool call, the wall time, the CPU from the
   * first tool use to the result, and the session's whole CPU (its start and close included).
   */
  toolCallMetrics(): Record<string, number> {
    const calls = Math.max(1, this.toolCalls)
    return {
      toolCalls: this.toolCalls,
      perToolCall: (this.result - this.firstToolUse) / calls,
      steadyCpuPerToolCall: (this.cpuAtResult - this.cpuAtFirstToolUse) / calls,
      sessionCpuPerToolCall: (cpuMillis() - this.cpuAtStart) / calls,
      result: this.result
    }
  }
}

/**
 * The checks of the large-line scenarios: the tool input, its echo and the
 * file on disk carry the payload byte for byte; the echoed prompt equals the
 * one sent.
 *
 * @since 0.1.0
 * @category Checks
 */
export class LargeChecks {
  readonly blob: string
  toolInput = false
  toolEcho = false
  promptEcho = false
  maxLineChars = 0

  constructor(readonly bytes: number) {
    this.blob = makeBlob(bytes)
  }

  see(m: any): void {
    if (m?.type === "assistant") {
      for (const block of m.message?.content ?? []) {
        if (block?.type === "tool_use" && block.input?.content === this.blob) this.toolInput = true
      }
    } else if (m?.type === "user") {
      if (m.tool_use_result?.content === this.blob) this.toolEcho = true
      const content = m.message?.content
      if (content === this.blob) this.promptEcho = true
      if (Array.isArray(content) && content.some((b: any) => b?.type === "text" && b.text === this.blob)) {
        this.promptEcho = true
      }
    }
  }

  fileIntact(cwd: string): boolean {
    try {
      return Fs.readFileSync(Path.join(cwd, "big.txt"), "utf8") === this.blob
    } catch {
      return false
    }
  }
}

/**
 * The CLI processes this worker spawned (directly, or through the tap).
 *
 * @since 0.1.0
 * @category Processes
 */
export const cliPids = (): Array<number> =>
  childrenOf(process.pid).filter((p) => p.comm === "claude" || p.comm === "node").map((p) => p.pid)

/**
 * Polls until the worker has spawned a CLI; resolves with its pid.
 *
 * @since 0.1.0
 * @category Processes
 */
export const awaitCliPid = (timeoutMillis = 10_000): Promise<number | undefined> =>
  new Promise((resolve) => {
    const deadline = now() + timeoutMillis
    const poll = () => {
      const pids = cliPids()
      if (pids.length > 0) return resolve(pids[0])
      if (now() > deadline) return resolve(undefined)
      setTimeout(poll, 2)
    }
    poll()
  })

/**
 * How long a prewarmed process is left parked before the claim, so that what
 * the CLI does right after its start-up is over.
 *
 * @since 0.1.0
 */
export const PARK_MILLIS = 300

/**
 * The prompt of every scenario (the scripted model ignores it).
 *
 * @since 0.1.0
 */
export const PROMPT = "Run the benchmark scenario."

/**
 * The hooks row's scenario for a driver of promises: `session` run `job.params.sessions` times (once unless
 * given) one after the other in this process, each with marks of its own; the metrics are the last session's
 * (the "second session in the same process" lines). Ours does the same in an Effect.
 *
 * @since 0.1.0
 */
export const lastOfSessions = async (
  job: Job,
  session: (marks: Marks) => Promise<void>
): Promise<ScenarioOutput> => {
  let metrics: Record<string, number> = {}
  for (let i = 0; i < (job.params.sessions ?? 1); i++) {
    const marks = new Marks()
    await session(marks)
    metrics = marks.toolCallMetrics()
  }
  return { metrics }
}
