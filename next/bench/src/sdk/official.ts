/**
 * The scenarios, driven by the official `@anthropic-ai/claude-agent-sdk`, used
 * the way its documentation shows.
 *
 * @since 0.1.0
 */
import {
  type Options,
  prewarm,
  type Query,
  query,
  type SDKUserMessage,
  type SpawnedProcess,
  type SpawnOptions
} from "@anthropic-ai/claude-agent-sdk"
import { spawn } from "node:child_process"
import { EventEmitter } from "node:events"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { PassThrough, type Readable, type Writable } from "node:stream"
import type { Job, ScenarioOutput } from "../jobs.js"
import { runFrom, STOP_PROMPTS } from "../jobs.js"
import { awaitGone, awaitGroupReaped, awaitProcessNamed, groupOf, processesUnder } from "../procs.js"
import {
  awaitCliPid,
  isResult,
  isTextDelta,
  LargeChecks,
  lastOfSessions,
  Marks,
  now,
  PARK_MILLIS,
  PROMPT
} from "./common.js"
import { eachLine } from "./rawCli.js"
import { fakeCliPipes, loadReplay, pingPongPipes } from "./replayFeed.js"

/** A prompt stream fed by hand: the official SDK's streaming-input mode. */
class Input implements AsyncIterable<SDKUserMessage> {
  private readonly queue: Array<SDKUserMessage> = []
  private wake: (() => void) | undefined
  private ended = false

  push(text: string): void {
    this.queue.push({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null } as any)
    this.wake?.()
  }

  end(): void {
    this.ended = true
    this.wake?.()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    while (true) {
      while (this.queue.length > 0) yield this.queue.shift()!
      if (this.ended) return
      await new Promise<void>((resolve) => {
        this.wake = resolve
      })
      this.wake = undefined
    }
  }
}

const base = (job: Job, cwd = job.cwd): Options => ({
  pathToClaudeCodeExecutable: job.executable,
  env: { ...process.env, ...job.env },
  cwd
})

const allow: Options["canUseTool"] = async () => ({ behavior: "allow" })

const noOpinion = async () => ({})

const drain = async (q: Query, see: (m: any) => void): Promise<void> => {
  for await (const message of q) see(message)
}

/** Reads messages until one passes `test` (or the stream ends). */
const until = async (iterator: AsyncIterator<any>, test: (m: any) => boolean, see?: (m: any) => void) => {
  while (true) {
    const next = await iterator.next()
    if (next.done === true) return undefined
    see?.(next.value)
    if (test(next.value)) return next.value
  }
}

const cold = async (job: Job): Promise<ScenarioOutput> => {
  const marks = new Marks()
  await drain(query({ prompt: PROMPT, options: base(job) }), (m) => marks.see(m))
  const end = now() - marks.t0
  return { metrics: { init: marks.init, firstAssistant: marks.firstAssistant, result: marks.result, end } }
}

// The hooks row's permission gate and hooks (the replay and in-process rows answer the same requests).
const gateAndHooks = {
  canUseTool: allow,
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [noOpinion] }],
    PostToolUse: [{ matcher: "Bash", hooks: [noOpinion] }]
  }
}

const hooks = (job: Job): Promise<ScenarioOutput> =>
  lastOfSessions(
    job,
    (marks) => drain(query({ prompt: PROMPT, options: { ...base(job), ...gateAndHooks } }), (m) => marks.see(m))
  )

const partial = async (job: Job): Promise<ScenarioOutput> => {
  const marks = new Marks()
  await drain(query({ prompt: PROMPT, options: { ...base(job), includePartialMessages: true } }), (m) => marks.see(m))
  return {
    metrics: {
      messages: marks.messagesSinceFirstDelta,
      rate: marks.messagesSinceFirstDelta / ((marks.result - marks.firstDelta) / 1000),
      streamMillis: marks.result - marks.firstDelta,
      streamCpuMillis: marks.cpuAtResult - marks.cpuAtFirstDelta
    }
  }
}

/** A child process that is only the replay feed: the SDK's own spawn hook gets it. */
class FakeProcess extends EventEmitter {
  readonly stdin
  readonly stdout
  killed = false
  exitCode: number | null = null
  signalCode: NodeJS.Signals | null = null

  constructor(pipes: { readonly stdin: Writable; readonly stdout: Readable; readonly done: Promise<void> }) {
    super()
    this.stdin = pipes.stdin
    this.stdout = pipes.stdout
    void pipes.done.then(() =>
      setImmediate(() => {
        if (this.killed) return
        this.exitCode = 0
        this.emit("exit", 0, null)
      })
    )
  }

  kill(signal: NodeJS.Signals): boolean {
    if (this.exitCode !== null || this.killed) return false
    this.killed = true
    this.signalCode = signal
    this.stdout.destroy()
    setImmediate(() => this.emit("exit", null, signal))
    return true
  }
}

const replay = async (job: Job): Promise<ScenarioOutput> => {
  const recorded = loadReplay(job.replayFile!)
  const input = new Input()
  let delivered = 0
  const t0 = now()
  const q = query({
    prompt: input,
    options: {
      ...base(job),
      ...gateAndHooks,
      spawnClaudeCodeProcess: () =>
        new FakeProcess(fakeCliPipes(recorded, job.params.lines, { paced: job.params.paced === 1 })) as any
    }
  })
  for await (const message of q) {
    if (message.type !== undefined) delivered++
  }
  const elapsed = now() - t0
  input.end()
  return {
    metrics: { lines: job.params.lines, delivered, rate: job.params.lines / (elapsed / 1000), elapsed }
  }
}

const pingpong = async (job: Job): Promise<ScenarioOutput> => {
  const pipes = pingPongPipes(loadReplay(job.replayFile!), job.params.rounds, job.params.pauseMillis ?? 0)
  const input = new Input()
  const q = query({
    prompt: input,
    options: {
      ...base(job),
      ...gateAndHooks,
      spawnClaudeCodeProcess: () => new FakeProcess(pipes) as any
    }
  })
  await drain(q, () => {})
  input.end()
  return { metrics: { requests: job.params.rounds * 3 }, samples: pipes.latencies }
}

const largeTool = async (job: Job): Promise<ScenarioOutput> => {
  const checks = new LargeChecks(job.params.bytes)
  const marks = new Marks()
  await drain(query({ prompt: PROMPT, options: { ...base(job), canUseTool: allow } }), (m) => {
    marks.see(m)
    checks.see(m)
  })
  return {
    metrics: { result: marks.result },
    checks: { toolInput: checks.toolInput, toolEcho: checks.toolEcho, file: checks.fileIntact(job.cwd) }
  }
}

const largeInput = async (job: Job): Promise<ScenarioOutput> => {
  const checks = new LargeChecks(job.params.bytes)
  const marks = new Marks()
  const notes: Array<string> = []
  await drain(
    query({ prompt: checks.blob, options: { ...base(job), extraArgs: { "replay-user-messages": null } } }),
    (m) => {
      marks.see(m)
      checks.see(m)
    }
  ).catch((error) => notes.push(`query failed after the result: ${String(error).slice(0, 200)}`))
  return { metrics: { result: marks.result }, checks: { promptEcho: checks.promptEcho }, notes }
}

const concurrency = async (job: Job): Promise<ScenarioOutput> => {
  const t0 = now()
  let results = 0
  const sessions = Array.from({ length: job.params.sessions }, (_, i) => {
    const cwd = Path.join(job.cwd, `s${i}`)
    Fs.mkdirSync(cwd, { recursive: true })
    const input = new Input()
    const q = query({ prompt: input, options: { ...base(job, cwd), canUseTool: allow } })
    return { input, q, iterator: q[Symbol.asyncIterator]() }
  })
  await Promise.all(sessions.map(async ({ input, iterator }) => {
    for (let k = 0; k < job.params.turns; k++) {
      input.push(`${PROMPT} (turn ${k + 1})`)
      await until(iterator, isResult)
      results++
    }
  }))
  const work = now() - t0
  await Promise.all(sessions.map(async ({ input, iterator }) => {
    input.end()
    await until(iterator, () => false)
  }))
  return { metrics: { wall: work, wallClosed: now() - t0, results } }
}

const leftoversAfter = async (cwd: string, pid: number | undefined, t0: number) => {
  const gone = pid === undefined ? Number.NaN : await awaitGone(pid, 12_000)
  await new Promise((resolve) => setTimeout(resolve, 300))
  return { exit: gone - t0, leftovers: processesUnder(cwd).length }
}

const stopSession = async (job: Job): Promise<ScenarioOutput> => {
  const input = new Input()
  const q = query({ prompt: input, options: { ...base(job), includePartialMessages: true, canUseTool: allow } })
  const iterator = q[Symbol.asyncIterator]()
  // 7a: interrupt mid-stream
  input.push(STOP_PROMPTS.stream)
  await until(iterator, isTextDelta)
  const pid = await awaitCliPid()
  let t0 = now()
  void q.interrupt()
  await until(iterator, isResult)
  const midStream = now() - t0
  // 7b: interrupt mid-tool
  input.push(STOP_PROMPTS.tool)
  const sleeper = await awaitProcessNamed(job.cwd, "sleep", 15_000)
  const toolGroup = sleeper === undefined ? undefined : groupOf(sleeper)
  t0 = now()
  void q.interrupt()
  await until(iterator, isResult)
  const midTool = now() - t0
  await new Promise((resolve) => setTimeout(resolve, 300))
  const toolLeft = processesUnder(job.cwd).filter((p) => p.pid !== pid).length
  // 7c starts once 7b's killed tool is reaped (PID 1 may take a second), see awaitGroupReaped
  if (toolGroup !== undefined) await awaitGroupReaped(toolGroup, 5_000)
  // 7c: close() mid-stream
  input.push(STOP_PROMPTS.close)
  await until(iterator, isTextDelta)
  t0 = now()
  q.close()
  const closed = await leftoversAfter(job.cwd, pid, t0)
  return {
    metrics: {
      interruptStream: midStream,
      interruptTool: midTool,
      toolLeft,
      closeExit: closed.exit,
      closeLeftovers: closed.leftovers
    },
    checks: { sleeperSeen: sleeper !== undefined }
  }
}

const stopBreak = async (job: Job): Promise<ScenarioOutput> => {
  const q = query({ prompt: STOP_PROMPTS.stream, options: { ...base(job), includePartialMessages: true } })
  let t0 = Number.NaN
  let pid: number | undefined
  for await (const message of q) {
    if (isTextDelta(message)) {
      pid = (await awaitCliPid()) ?? undefined
      t0 = now()
      break
    }
  }
  const returned = now() - t0
  const closed = await leftoversAfter(job.cwd, pid, t0)
  const notes: Array<string> = []
  if (Number.isNaN(closed.exit)) {
    notes.push("after `break`, the CLI was still running 12 s later; closed it with close()")
    q.close()
  }
  return { metrics: { breakExit: closed.exit, breakReturn: returned, breakLeftovers: closed.leftovers }, notes }
}

const stopAbort = async (job: Job): Promise<ScenarioOutput> => {
  const abortController = new AbortController()
  const q = query({ prompt: STOP_PROMPTS.tool, options: { ...base(job), canUseTool: allow, abortController } })
  const consumer = drain(q, () => {}).catch(() => {})
  const pid = await awaitCliPid()
  const sleeper = await awaitProcessNamed(job.cwd, "sleep", 15_000)
  const t0 = now()
  abortController.abort()
  await consumer
  const returned = now() - t0
  const closed = await leftoversAfter(job.cwd, pid, t0)
  return {
    metrics: { abortExit: closed.exit, abortReturn: returned, abortLeftovers: closed.leftovers },
    checks: { sleeperSeen: sleeper !== undefined }
  }
}

/**
 * Spawns the CLI as the official SDK would, with its stdout passed through a tee that notes when each line
 * arrived (by the message's `uuid`): what the SDK hands over at a read may have been written long before.
 */
const spawnNotingArrivals = (arrivals: Map<string, number>) => (options: SpawnOptions): SpawnedProcess => {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "ignore"]
  })
  const tee = new PassThrough()
  // Lines are noted before their chunk is passed on (listeners run in the order they were added).
  eachLine(child.stdout, (line) => {
    try {
      const uuid = JSON.parse(line.toString("utf8"))?.uuid
      if (typeof uuid === "string") arrivals.set(uuid, now())
    } catch {
      // Not a message: nothing to note.
    }
  })
  child.stdout.on("data", (chunk: Buffer) => tee.write(chunk))
  child.stdout.on("end", () => tee.end())
  return {
    stdin: child.stdin,
    stdout: tee,
    get killed() {
      return child.killed
    },
    get exitCode() {
      return child.exitCode
    },
    get signalCode() {
      return child.signalCode
    },
    kill: (signal) => child.kill(signal),
    on: (event: "exit" | "error", listener: (...args: Array<any>) => void) => void child.on(event, listener),
    once: (event: "exit" | "error", listener: (...args: Array<any>) => void) => void child.once(event, listener),
    off: (event: "exit" | "error", listener: (...args: Array<any>) => void) => void child.off(event, listener)
  }
}

// A spare from `prewarm()` (the official way to have a process ready before the session is known); then
// `claim()` with the job's folder and the prompt, timed from the claim. The spare's parked CLI writes a
// `system/ui_invalidate` after its initialize answer, which the SDK hands over at the first read after the claim:
// `fresh` is the first message whose line arrived after the claim.
const claim = async (job: Job): Promise<ScenarioOutput> => {
  const started = now()
  const arrivals = new Map<string, number>()
  const { cwd: _cwd, ...options } = base(job)
  const spare = await prewarm({ options: { ...options, spawnClaudeCodeProcess: spawnNotingArrivals(arrivals) } })
  const ready = now() - started
  await new Promise((resolve) => setTimeout(resolve, PARK_MILLIS))
  const marks = new Marks()
  let fresh = Number.NaN
  let freshType = ""
  const q = spare.claim({ prompt: PROMPT, options: { cwd: job.cwd } })
  spare.claimed.catch(() => {})
  await drain(q, (m) => {
    marks.see(m)
    const arrived = typeof m?.uuid === "string" ? arrivals.get(m.uuid) : undefined
    if (Number.isNaN(fresh) && (arrived === undefined || arrived >= marks.t0)) {
      fresh = now() - marks.t0
      freshType = m?.subtype !== undefined ? `${m.type}/${m.subtype}` : String(m?.type)
    }
  })
  const claimed = await spare.claimed.then(() => "claimed", (error) => `claim refused: ${String(error)}`)
  return {
    metrics: { ready, first: marks.first, fresh, init: marks.init, result: marks.result },
    notes: [`first message: ${marks.firstType}; first written after the claim: ${freshType}; ${claimed}`]
  }
}

/**
 * @since 0.1.0
 * @category Scenarios
 */
export const run: (job: Job) => Promise<ScenarioOutput> = runFrom("the official SDK", {
  cold,
  hooks,
  partial,
  replay,
  pingpong,
  "large-tool": largeTool,
  "large-input": largeInput,
  concurrency,
  "stop-session": stopSession,
  "stop-break": stopBreak,
  "stop-abort": stopAbort,
  claim
})
