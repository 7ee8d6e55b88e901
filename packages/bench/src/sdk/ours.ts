/**
 * The scenarios, driven by `@claude-effect/sdk`, written the way its README
 * shows: streams consumed with `Stream.runForEach`, hooks and the permission
 * gate as layers.
 *
 * @since 0.1.0
 */
import {
  ClaudeCode,
  CliProcess,
  CliSpawner,
  ControlRouter,
  HookLayer,
  HookResult,
  NodeCliSpawner,
  PermissionGate,
  PermissionResult,
  Protocol,
  SessionPool
} from "@claude-effect/sdk"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { Readable, Writable } from "node:stream"
import type { Job, ScenarioOutput } from "../jobs.js"
import { STOP_PROMPTS } from "../jobs.js"
import { awaitGone, awaitGroupReaped, awaitProcessNamed, groupOf, processesUnder } from "../procs.js"
import { awaitCliPid, isResult, isTextDelta, LargeChecks, Marks, now, PARK_MILLIS, PROMPT } from "./common.js"
import { probe } from "./oursProbe.js"
import { fakeCliPipes, loadReplay, pingPongPipes, replayChunks } from "./replayFeed.js"

// The platform services ClaudeCode.layer asks for (on effect 4: a file system and paths; the CLI is spawned by
// the CliSpawner), each from its Node layer, provided one after the other: NodeServices.layer adds services the
// SDK never uses.
const platform = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  layer.pipe(
    Layer.provide(NodeFileSystem.layer),
    Layer.provide(NodePath.layer)
  )

// The CLI started as the docs recommend on Node: NodeCliSpawner.
const claude = (job: Job) =>
  ClaudeCode.layer({ executable: job.executable, cwd: job.cwd, env: { ...job.env } }).pipe(
    Layer.provide(NodeCliSpawner.layer),
    platform,
    Layer.orDie
  )

const gate = PermissionGate.layer(() => Effect.succeed(PermissionResult.allow()))

const hookLayers = Layer.mergeAll(
  HookLayer.preToolUse({ matcher: "Bash" }, () => Effect.succeed(HookResult.empty)),
  HookLayer.postToolUse({ matcher: "Bash" }, () => Effect.succeed(HookResult.empty))
)

const see = (marks: Marks) => (message: unknown) => Effect.sync(() => marks.see(message))

const cold = (_job: Job) =>
  Effect.gen(function*() {
    const marks = new Marks()
    yield* ClaudeCode.query(PROMPT).pipe(Stream.runForEach(see(marks)))
    const end = now() - marks.t0
    return { metrics: { init: marks.init, firstAssistant: marks.firstAssistant, result: marks.result, end } }
  })

// As `lastOfSessions` (common.ts), in an Effect: the metrics are the last session's.
const hooks = (job: Job) =>
  Effect.gen(function*() {
    let metrics: Record<string, number> = {}
    for (let i = 0; i < (job.params.sessions ?? 1); i++) {
      const marks = new Marks()
      yield* ClaudeCode.query(PROMPT).pipe(Stream.runForEach(see(marks)))
      metrics = marks.toolCallMetrics()
    }
    return { metrics }
  }).pipe(Effect.provide(Layer.merge(hookLayers, gate)))

const partial = (_job: Job) =>
  Effect.gen(function*() {
    const marks = new Marks()
    yield* ClaudeCode.query(PROMPT, { includePartialMessages: true }).pipe(Stream.runForEach(see(marks)))
    return {
      metrics: {
        messages: marks.messagesSinceFirstDelta,
        rate: marks.messagesSinceFirstDelta / ((marks.result - marks.firstDelta) / 1000),
        streamMillis: marks.result - marks.firstDelta,
        streamCpuMillis: marks.cpuAtResult - marks.cpuAtFirstDelta
      }
    }
  })

const FAKE_PID = 2147483646

/** A CliSpawner whose only process is the replay feed, wired as NodeCliSpawner wires a child. */
const fakeSpawner = (
  pipes: { readonly stdin: Writable; readonly stdout: Readable; readonly done: Promise<void> }
): CliSpawner.CliSpawner.Service => ({
  spawn: () =>
    Effect.sync(() =>
      NodeCliSpawner.fromPipes({
        pid: FAKE_PID,
        stdin: pipes.stdin,
        stdout: pipes.stdout,
        exit: Effect.as(Effect.promise(() => pipes.done), { code: 0, signal: null }),
        isRunning: Effect.succeed(true)
      })
    )
})

/** ClaudeCode whose CLI is the given fake pipes. */
const fakeClaude = (job: Job, pipes: Parameters<typeof fakeSpawner>[0]) =>
  ClaudeCode.layer({ executable: job.executable, cwd: job.cwd, env: { ...job.env } }).pipe(
    Layer.provide(Layer.succeed(CliSpawner.CliSpawner, fakeSpawner(pipes))),
    platform,
    Layer.orDie
  )

const replay = (job: Job) =>
  Effect.gen(function*() {
    const recorded = loadReplay(job.replayFile!)
    const pipes = fakeCliPipes(recorded, job.params.lines, { paced: job.params.paced === 1 })
    const layer = fakeClaude(job, pipes)
    let delivered = 0
    const t0 = now()
    yield* Effect.scoped(
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        yield* session.messages.pipe(
          // `syncChunks`: each chunk handled synchronously, with no Effect of its own that holds it. Every
          // Effect a stream's sink makes per chunk is held by a closure that Effect's `Channel.fromEffect`
          // stores in a property, which V8 allocates in old space: the chunk then outlives young-generation
          // collections, until the next full one (RESULTS.md, row 4's method).
          job.params.syncChunks === 1
            ? Stream.runForEachArray((chunk) => {
              delivered += chunk.length
              return Effect.void
            })
            : Stream.runForEach(() => Effect.sync(() => void delivered++)),
          // The feed stops after a fixed number of lines, wherever that falls: usually inside a turn,
          // which the SDK rightly reports as a CLI gone mid-turn. Every line was delivered by then.
          Effect.catchIf((error) => error._tag === "CliExitError" && error.duringTurn === true, () => Effect.void)
        )
      })
    ).pipe(Effect.provide(Layer.mergeAll(hookLayers, gate)), Effect.provide(layer))
    const elapsed = now() - t0
    return {
      metrics: { lines: job.params.lines, delivered, rate: job.params.lines / (elapsed / 1000), elapsed }
    }
  })

const pingpong = (job: Job) =>
  Effect.gen(function*() {
    const pipes = pingPongPipes(loadReplay(job.replayFile!), job.params.rounds, job.params.pauseMillis ?? 0)
    yield* Effect.scoped(
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        yield* session.messages.pipe(Stream.runDrain)
      })
    ).pipe(Effect.provide(Layer.mergeAll(hookLayers, gate)), Effect.provide(fakeClaude(job, pipes)))
    return { metrics: { requests: job.params.rounds * 3 }, samples: pipes.latencies }
  })

/**
 * Where a replayed line's time goes in our SDK, stage by stage, each stage
 * measured alone over the same lines: `Protocol.decodeStdoutLine` in a plain
 * loop; the CLI process's stdout framing (`CliProcess.lines` over the fake
 * process); framing + the router (`ControlRouter`, its message queue drained
 * a chunk at a time). The replay row itself adds the session's message stream.
 */
const replayStages = (job: Job) =>
  Effect.gen(function*() {
    const recorded = loadReplay(job.replayFile!)
    const lines = job.params.lines
    const texts: Array<string> = []
    for (const chunk of [Buffer.concat(Array.from(replayChunks(recorded, lines)))]) {
      for (const line of chunk.toString("utf8").split("\n")) if (line.length > 0) texts.push(line)
    }
    const rate = (elapsed: number) => lines / (elapsed / 1000)

    for (let i = 0; i < Math.min(20_000, texts.length); i++) Protocol.decodeStdoutLine(texts[i])
    let t0 = now()
    for (const line of texts) Protocol.decodeStdoutLine(line)
    const decode = rate(now() - t0)

    // (On effect 4 CliProcess.make needs no CommandExecutor: the spawner provided is all it uses.)
    const executor = (pipes: Parameters<typeof fakeSpawner>[0]) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(Effect.provideService(CliSpawner.CliSpawner, fakeSpawner(pipes)))
    const spawnFake = CliProcess.make({ executable: job.executable, args: [], env: {} })

    // Each stage runs once on a tenth of the lines to warm up, then on all of them, timed.
    const framingPass = (count: number) =>
      Effect.scoped(Effect.gen(function*() {
        const cli = yield* spawnFake
        yield* Stream.runDrain(cli.lines)
      })).pipe(executor(fakeCliPipes(recorded, count, { waitForInit: false })))
    yield* framingPass(Math.ceil(lines / 10))
    t0 = now()
    yield* framingPass(lines)
    const framing = rate(now() - t0)

    const routerPass = (count: number) =>
      Effect.scoped(Effect.gen(function*() {
        const cli = yield* spawnFake
        const router = yield* ControlRouter.make({ handlers: [] }).pipe(
          Effect.provideService(CliProcess.CliProcess, cli)
        )
        yield* Stream.runDrain(Stream.fromQueue(router.messages))
      })).pipe(executor(fakeCliPipes(recorded, count, { waitForInit: false })))
    yield* routerPass(Math.ceil(lines / 10))
    t0 = now()
    yield* routerPass(lines)
    const router = rate(now() - t0)

    return { metrics: { lines, decode, framing, router } }
  })

const largeTool = (job: Job) =>
  Effect.gen(function*() {
    const checks = new LargeChecks(job.params.bytes)
    const marks = new Marks()
    yield* ClaudeCode.query(PROMPT).pipe(Stream.runForEach((m) =>
      Effect.sync(() => {
        marks.see(m)
        checks.see(m)
      })
    ))
    return {
      metrics: { result: marks.result },
      checks: { toolInput: checks.toolInput, toolEcho: checks.toolEcho, file: checks.fileIntact(job.cwd) }
    }
  }).pipe(Effect.provide(gate))

const largeInput = (job: Job) =>
  Effect.gen(function*() {
    const checks = new LargeChecks(job.params.bytes)
    const marks = new Marks()
    yield* ClaudeCode.query(checks.blob, { extraArgs: { "replay-user-messages": null } }).pipe(
      Stream.runForEach((m) =>
        Effect.sync(() => {
          marks.see(m)
          checks.see(m)
        })
      )
    )
    return { metrics: { result: marks.result }, checks: { promptEcho: checks.promptEcho } }
  })

// Longer than any run of the bench (its own job timeout ends a run that hangs).
const INITIALIZE_UNBOUNDED = 30 * 60_000

const concurrency = (job: Job) =>
  Effect.gen(function*() {
    const t0 = now()
    let results = 0
    let work = 0
    yield* Effect.forEach(
      Array.from({ length: job.params.sessions }, (_, i) => i),
      (i) =>
        Effect.scoped(Effect.gen(function*() {
          const cwd = Path.join(job.cwd, `s${i}`)
          Fs.mkdirSync(cwd, { recursive: true })
          // 64 CLIs starting at once on 2 cores can take longer than the initialize timeout's 60 s default to
          // answer; the official SDK waits for the answer without a bound, so here ours waits as long as it takes.
          const session = yield* ClaudeCode.session({ cwd, initializeTimeout: INITIALIZE_UNBOUNDED })
          for (let k = 0; k < job.params.turns; k++) {
            // Only the result is used: `session.result` runs the turn without running a stream (as the docs
            // recommend); `streams: 1` runs each turn's stream to its end instead.
            const prompt = `${PROMPT} (turn ${k + 1})`
            if (job.params.streams === 1) yield* Stream.runDrain(session.turn(prompt))
            else yield* session.result(prompt)
            results++
          }
          work = Math.max(work, now() - t0)
        })),
      { concurrency: "unbounded", discard: true }
    )
    return { metrics: { wall: work, wallClosed: now() - t0, results } }
  }).pipe(Effect.provide(gate))

const leftoversAfter = async (cwd: string, pid: number | undefined, t0: number) => {
  const gone = pid === undefined ? Number.NaN : await awaitGone(pid, 12_000)
  await new Promise((resolve) => setTimeout(resolve, 300))
  return { exit: gone - t0, leftovers: processesUnder(cwd).length }
}

/** Runs a turn in the background; `started` completes at its first text delta, `result` holds the result time. */
const background = (stream: Stream.Stream<unknown, unknown>) =>
  Effect.gen(function*() {
    const started = yield* Deferred.make<void>()
    const state = { result: Number.NaN }
    const fiber = yield* stream.pipe(
      Stream.runForEach((m) =>
        isTextDelta(m)
          ? Deferred.succeed(started, undefined)
          : isResult(m)
          ? Effect.sync(() => {
            state.result = now()
          })
          : Effect.void
      ),
      Effect.forkChild
    )
    return { started, state, fiber }
  })

const stopSession = (job: Job) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const session = yield* ClaudeCode.session({ includePartialMessages: true }).pipe(Scope.provide(scope))
    const pid = session.pid
    // 7a: interrupt mid-stream
    const first = yield* background(session.turn(STOP_PROMPTS.stream))
    yield* Deferred.await(first.started)
    let t0 = now()
    yield* Effect.forkChild(session.interrupt)
    yield* Fiber.join(first.fiber)
    const midStream = first.state.result - t0
    // 7b: interrupt mid-tool
    const second = yield* background(session.turn(STOP_PROMPTS.tool))
    const sleeper = yield* Effect.promise(() => awaitProcessNamed(job.cwd, "sleep", 15_000))
    const toolGroup = sleeper === undefined ? undefined : groupOf(sleeper)
    t0 = now()
    yield* Effect.forkChild(session.interrupt)
    yield* Fiber.join(second.fiber)
    const midTool = second.state.result - t0
    yield* Effect.sleep("300 millis")
    const toolLeft = processesUnder(job.cwd).filter((p) => p.pid !== pid).length
    // 7c starts once 7b's killed tool is reaped (PID 1 may take a second), see awaitGroupReaped
    if (toolGroup !== undefined) yield* Effect.promise(() => awaitGroupReaped(toolGroup, 5_000))
    // 7c: close the session mid-stream
    const third = yield* background(session.turn(STOP_PROMPTS.close))
    yield* Deferred.await(third.started)
    t0 = now()
    const closing = leftoversAfter(job.cwd, pid, t0)
    yield* Scope.close(scope, Exit.void)
    const closeReturn = now() - t0
    const closed = yield* Effect.promise(() => closing)
    yield* Fiber.interrupt(third.fiber)
    return {
      metrics: {
        interruptStream: midStream,
        interruptTool: midTool,
        toolLeft,
        closeExit: closed.exit,
        closeReturn,
        closeLeftovers: closed.leftovers
      },
      checks: { sleeperSeen: sleeper !== undefined }
    }
  }).pipe(Effect.provide(gate))

const stopBreak = (job: Job) =>
  Effect.gen(function*() {
    let t0 = Number.NaN
    let closing: Promise<{ exit: number; leftovers: number }> | undefined
    yield* ClaudeCode.query(STOP_PROMPTS.stream, { includePartialMessages: true }).pipe(
      Stream.takeUntil(isTextDelta),
      Stream.runForEach((m) =>
        isTextDelta(m)
          ? Effect.promise(() => awaitCliPid()).pipe(Effect.map((pid) => {
            t0 = now()
            closing = leftoversAfter(job.cwd, pid, t0)
          }))
          : Effect.void
      )
    )
    const returned = now() - t0
    const closed = yield* Effect.promise(() => closing ?? Promise.resolve({ exit: Number.NaN, leftovers: -1 }))
    return { metrics: { breakExit: closed.exit, breakReturn: returned, breakLeftovers: closed.leftovers } }
  })

const stopAbort = (job: Job) =>
  Effect.gen(function*() {
    const fiber = yield* ClaudeCode.query(STOP_PROMPTS.tool).pipe(Stream.runDrain, Effect.forkChild)
    const pid = yield* Effect.promise(() => awaitCliPid())
    const sleeper = yield* Effect.promise(() => awaitProcessNamed(job.cwd, "sleep", 15_000))
    const t0 = now()
    const closing = leftoversAfter(job.cwd, pid, t0)
    yield* Fiber.interrupt(fiber)
    const returned = now() - t0
    const closed = yield* Effect.promise(() => closing)
    return {
      metrics: { abortExit: closed.exit, abortReturn: returned, abortLeftovers: closed.leftovers },
      checks: { sleeperSeen: sleeper !== undefined }
    }
  }).pipe(Effect.provide(gate))

// A pool of one, full; then the claim and its turn, timed from the claim.
const claim = (_job: Job) =>
  Effect.gen(function*() {
    const started = now()
    const pool = yield* SessionPool.make({ size: 1 })
    yield* pool.changes.pipe(Stream.filter((status) => status.ready.length === 1), Stream.runHead)
    const ready = now() - started
    yield* Effect.sleep(PARK_MILLIS)
    const marks = new Marks()
    yield* SessionPool.query(PROMPT).pipe(
      Stream.runForEach(see(marks)),
      Effect.provideService(SessionPool.SessionPool, pool)
    )
    return {
      metrics: { ready, first: marks.first, fresh: marks.first, init: marks.init, result: marks.result },
      notes: [`first message: ${marks.firstType}`]
    }
  }).pipe(Effect.scoped)

const scenarios: Record<Job["scenario"], (job: Job) => Effect.Effect<ScenarioOutput, unknown, ClaudeCode.ClaudeCode>> =
  {
    cold,
    hooks,
    partial,
    replay: (job) => Effect.die(`replay runs without the CLI layer (${job.scenario})`),
    "replay-stages": (job) => Effect.die(`replay-stages runs without the CLI layer (${job.scenario})`),
    pingpong: (job) => Effect.die(`pingpong runs without the CLI layer (${job.scenario})`),
    probe: (job) => Effect.die(`probe runs without the CLI layer (${job.scenario})`),
    "large-tool": largeTool,
    "large-input": largeInput,
    concurrency,
    "stop-session": stopSession,
    "stop-break": stopBreak,
    "stop-abort": stopAbort,
    claim
  }

/**
 * @since 0.1.0
 * @category Scenarios
 */
export const run = (job: Job): Promise<ScenarioOutput> => {
  const program: Effect.Effect<ScenarioOutput, unknown> = job.scenario === "replay"
    ? replay(job)
    : job.scenario === "replay-stages"
    ? replayStages(job)
    : job.scenario === "pingpong"
    ? pingpong(job)
    : job.scenario === "probe"
    ? probe(job.replayFile!, job.params.rounds)
    : scenarios[job.scenario](job).pipe(Effect.provide(claude(job)))
  return Effect.runPromise(program)
}
