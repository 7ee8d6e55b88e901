/**
 * The scenarios, driven by {@link RawCli}: the floor every SDK is compared to.
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { Readable } from "node:stream"
import type { Job, ScenarioOutput } from "../jobs.js"
import { runFrom, STOP_PROMPTS } from "../jobs.js"
import { awaitGone, awaitGroupReaped, awaitProcessNamed, groupOf, isAlive, processesUnder } from "../procs.js"
import { isResult, isTextDelta, LargeChecks, lastOfSessions, Marks, now, PARK_MILLIS, PROMPT } from "./common.js"
import { answerOf, eachLine, RawCli, type RawCliOptions } from "./rawCli.js"
import { fakeCliPipes, loadReplay, pingPongPipes } from "./replayFeed.js"

const HOOKS = {
  PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["pre"] }],
  PostToolUse: [{ matcher: "Bash", hookCallbackIds: ["post"] }]
}

const open = (job: Job, options: Partial<RawCliOptions> = {}) =>
  new RawCli({ executable: job.executable, cwd: job.cwd, env: job.env, ...options })

const turn = async (cli: RawCli, prompt: string): Promise<void> => {
  const done = cli.waitFor(isResult)
  cli.user(prompt)
  await done
}

const cold = async (job: Job): Promise<ScenarioOutput> => {
  const marks = new Marks()
  const cli = open(job, { onMessage: (m) => marks.see(m) })
  await turn(cli, PROMPT)
  cli.endInput()
  await cli.exited
  const end = now() - marks.t0
  return {
    metrics: { init: marks.init, firstAssistant: marks.firstAssistant, result: marks.result, end }
  }
}

const hooks = (job: Job): Promise<ScenarioOutput> =>
  lastOfSessions(job, async (marks) => {
    const cli = open(job, { gate: true, hooks: HOOKS, onMessage: (m) => marks.see(m) })
    await turn(cli, PROMPT)
    cli.endInput()
    await cli.exited
  })

const partial = async (job: Job): Promise<ScenarioOutput> => {
  const marks = new Marks()
  const cli = open(job, { partial: true, onMessage: (m) => marks.see(m) })
  await turn(cli, PROMPT)
  cli.endInput()
  await cli.exited
  return {
    metrics: {
      messages: marks.messagesSinceFirstDelta,
      rate: marks.messagesSinceFirstDelta / ((marks.result - marks.firstDelta) / 1000),
      streamMillis: marks.result - marks.firstDelta,
      streamCpuMillis: marks.cpuAtResult - marks.cpuAtFirstDelta
    }
  }
}

/** The same work as RawCli, on fake pipes: frame, parse, answer control requests, deliver. */
const driveFake = (pipes: { readonly stdout: Readable; readonly onStdin: (chunk: Uint8Array) => void }) => {
  const send = (message: unknown) => pipes.onStdin(Buffer.from(JSON.stringify(message) + "\n"))
  send({ type: "control_request", request_id: "init", request: { subtype: "initialize", hooks: HOOKS } })
  const counts = { lines: 0, delivered: 0 }
  eachLine(pipes.stdout, (line) => {
    const message = JSON.parse(line.toString("utf8"))
    counts.lines++
    if (message.type === "control_request") send(answerOf(message))
    else if (message.type !== "control_response" && message.type !== "keep_alive") counts.delivered++
  })
  return counts
}

const replay = async (job: Job): Promise<ScenarioOutput> => {
  const recorded = loadReplay(job.replayFile!)
  const t0 = now()
  const pipes = fakeCliPipes(recorded, job.params.lines, { paced: job.params.paced === 1 })
  const counts = driveFake(pipes)
  await pipes.done
  const elapsed = now() - t0
  const lines = counts.lines - 1
  return { metrics: { lines, delivered: counts.delivered, rate: lines / (elapsed / 1000), elapsed } }
}

const pingpong = async (job: Job): Promise<ScenarioOutput> => {
  const pipes = pingPongPipes(loadReplay(job.replayFile!), job.params.rounds, job.params.pauseMillis ?? 0)
  driveFake(pipes)
  await pipes.done
  return { metrics: { requests: job.params.rounds * 3 }, samples: pipes.latencies }
}

const largeTool = async (job: Job): Promise<ScenarioOutput> => {
  const checks = new LargeChecks(job.params.bytes)
  const marks = new Marks()
  const cli = open(job, {
    gate: true,
    onMessage: (m) => {
      marks.see(m)
      checks.see(m)
    }
  })
  await turn(cli, PROMPT)
  cli.endInput()
  await cli.exited
  return {
    metrics: { result: marks.result },
    checks: { toolInput: checks.toolInput, toolEcho: checks.toolEcho, file: checks.fileIntact(job.cwd) }
  }
}

const largeInput = async (job: Job): Promise<ScenarioOutput> => {
  const checks = new LargeChecks(job.params.bytes)
  const marks = new Marks()
  const cli = open(job, {
    args: ["--replay-user-messages"],
    onMessage: (m) => {
      marks.see(m)
      checks.see(m)
    }
  })
  await turn(cli, checks.blob)
  cli.endInput()
  await cli.exited
  return { metrics: { result: marks.result }, checks: { promptEcho: checks.promptEcho } }
}

const concurrency = async (job: Job): Promise<ScenarioOutput> => {
  const t0 = now()
  const sessions = Array.from({ length: job.params.sessions }, (_, i) => {
    const cwd = Path.join(job.cwd, `s${i}`)
    Fs.mkdirSync(cwd, { recursive: true })
    return new RawCli({ executable: job.executable, cwd, env: job.env, gate: true })
  })
  let results = 0
  await Promise.all(sessions.map(async (cli) => {
    for (let k = 0; k < job.params.turns; k++) {
      const done = cli.waitFor(isResult)
      cli.user(`${PROMPT} (turn ${k + 1})`)
      await done
      results++
    }
  }))
  const work = now() - t0
  for (const cli of sessions) cli.endInput()
  await Promise.all(sessions.map((cli) => cli.exited))
  return { metrics: { wall: work, wallClosed: now() - t0, results } }
}

const leftoversAfter = async (cwd: string, pid: number, t0: number) => {
  const gone = await awaitGone(pid, 12_000)
  await new Promise((resolve) => setTimeout(resolve, 300))
  return { exit: gone - t0, leftovers: processesUnder(cwd).length }
}

const stopSession = async (job: Job): Promise<ScenarioOutput> => {
  const cli = open(job, { gate: true, partial: true })
  // 7a: interrupt mid-stream
  const streaming = cli.waitFor(isTextDelta)
  const firstResult = cli.waitFor(isResult)
  cli.user(STOP_PROMPTS.stream)
  await streaming
  let t0 = now()
  void cli.request("interrupt")
  await firstResult
  const midStream = now() - t0
  // 7b: interrupt mid-tool
  const secondResult = cli.waitFor(isResult)
  cli.user(STOP_PROMPTS.tool)
  const sleeper = await awaitProcessNamed(job.cwd, "sleep", 15_000)
  const toolGroup = sleeper === undefined ? undefined : groupOf(sleeper)
  t0 = now()
  void cli.request("interrupt")
  await secondResult
  const midTool = now() - t0
  await new Promise((resolve) => setTimeout(resolve, 300))
  const toolLeft = processesUnder(job.cwd).filter((p) => p.pid !== cli.pid).length
  // 7c starts once 7b's killed tool is reaped (PID 1 may take a second), see awaitGroupReaped
  if (toolGroup !== undefined) await awaitGroupReaped(toolGroup, 5_000)
  // 7c: close mid-stream
  const streaming3 = cli.waitFor(isTextDelta)
  cli.user(STOP_PROMPTS.close)
  await streaming3
  t0 = now()
  void cli.request("interrupt")
  cli.endInput()
  const closed = await leftoversAfter(job.cwd, cli.pid, t0)
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
  const cli = open(job, { partial: true })
  const streaming = cli.waitFor(isTextDelta)
  cli.user(STOP_PROMPTS.stream)
  await streaming
  const t0 = now()
  void cli.request("interrupt")
  cli.endInput()
  const returned = now() - t0
  const closed = await leftoversAfter(job.cwd, cli.pid, t0)
  return { metrics: { breakExit: closed.exit, breakReturn: returned, breakLeftovers: closed.leftovers } }
}

const stopAbort = async (job: Job): Promise<ScenarioOutput> => {
  const cli = open(job, { gate: true })
  cli.user(STOP_PROMPTS.tool)
  const sleeper = await awaitProcessNamed(job.cwd, "sleep", 15_000)
  const t0 = now()
  cli.child.kill("SIGTERM")
  const returned = now() - t0
  const closed = await leftoversAfter(job.cwd, cli.pid, t0)
  return {
    metrics: { abortExit: closed.exit, abortReturn: returned, abortLeftovers: closed.leftovers },
    checks: { sleeperSeen: sleeper !== undefined, cliGone: !isAlive(cli.pid) }
  }
}

// The floor of a prewarmed claim: spawn, initialize, park; then write the prompt, timed from the write.
const claim = async (job: Job): Promise<ScenarioOutput> => {
  const started = now()
  let marks: Marks | undefined = undefined
  let initialized: () => void = () => {}
  const ready = new Promise<void>((resolve) => (initialized = resolve))
  const cli = open(job, {
    onLine: (line) => {
      if (line.includes("\"control_response\"") && line.includes("\"request_id\":\"init\"")) initialized()
    },
    onMessage: (m) => marks?.see(m)
  })
  await ready
  const readyMillis = now() - started
  await new Promise((resolve) => setTimeout(resolve, PARK_MILLIS))
  marks = new Marks()
  await turn(cli, PROMPT)
  cli.endInput()
  await cli.exited
  return {
    metrics: { ready: readyMillis, first: marks.first, fresh: marks.first, init: marks.init, result: marks.result },
    notes: [`first message: ${marks.firstType}`]
  }
}

/**
 * @since 0.1.0
 * @category Scenarios
 */
export const run: (job: Job) => Promise<ScenarioOutput> = runFrom("raw", {
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
