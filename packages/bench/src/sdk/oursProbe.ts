/**
 * Where a control request's time goes inside our SDK: the same recorded
 * `hook_callback` / `can_use_tool` lines answered sequentially by successively
 * more of the SDK, in-process, with a fake `CliProcess` (lines in from a
 * queue, `writeLine` resolving the wait), so that each level's cost is the
 * SDK's alone:
 *
 * - `codec`: `Protocol.decodeStdoutLine` of the request + `Protocol.encodeStdinLine`
 *   of the answer, in a plain loop (the floor of what the SDK must do);
 * - `router`: `ControlRouter` with a trivial handler (`Effect.succeed({})`);
 * - `hooks`: `ControlRouter` with the `HookRegistry` handler (PreToolUse and
 *   PostToolUse hooks that answer `HookResult.empty`);
 * - `gate`: `ControlRouter` with the `PermissionGate` handler (allow);
 *
 * The `pingpong` scenario adds the real `CliProcess` (stdin writer) and the
 * session on top.
 *
 * @since 0.1.0
 */
import {
  CliProcess,
  ControlRouter,
  HookLayer,
  HookRegistry,
  HookResult,
  PermissionGate,
  PermissionResult,
  Protocol
} from "@claude-effect/sdk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { percentile } from "../stats.js"
import { controlTemplates, loadReplay } from "./replayFeed.js"

const cpuMillis = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

const fakeCli = Effect.gen(function*() {
  const lines = yield* Queue.make<string>()
  let answered: ((line: string) => void) | undefined
  const service = CliProcess.CliProcess.of({
    pid: 0,
    lines: Stream.fromQueue(lines),
    writeLine: (line) =>
      Effect.sync(() => {
        const resolve = answered
        answered = undefined
        resolve?.(line)
      }),
    unsafeWriteLine: (line) => {
      const resolve = answered
      answered = undefined
      resolve?.(line)
      return true
    },
    endInput: Effect.void,
    awaitExit: Effect.never,
    exitStatus: Effect.succeed(Option.none()),
    stderrTail: Effect.succeed(""),
    shutdown: () => Effect.succeed({ code: 0, signal: null }),
    exitError: () => Effect.die("fake")
  })
  const roundTrip = (line: string) =>
    Effect.callback<string>((resume) => {
      answered = (answer) => resume(Effect.succeed(answer))
      Queue.offerUnsafe(lines, line)
    })
  return { service, roundTrip }
})

interface Level {
  readonly p50: number
  readonly p99: number
  readonly cpu: number
}

interface LevelRun {
  readonly requests: ReadonlyArray<string>
  readonly roundTrip: (line: string) => Effect.Effect<unknown>
}

// The levels share most of their code, and V8 optimizes it as it gets hot, part by part: timed one after the
// other, each level ran on code as warm as the levels before had left it (the same level timed six times in a
// row: p50 0.022, 0.017, 0.078, 0.081, 0.010, 0.009 ms). So every level is warmed up before any is timed, and
// the timed requests go in slices, a slice of each level in turn, so that each level's samples span the run.
const slices = 5

const measureLevels = (levels: ReadonlyArray<LevelRun>): Effect.Effect<ReadonlyArray<Level>> =>
  Effect.gen(function*() {
    for (const level of levels) {
      for (const line of level.requests.slice(0, Math.min(300, level.requests.length))) yield* level.roundTrip(line)
    }
    const times = levels.map((): Array<number> => [])
    const cpu = levels.map(() => 0)
    for (let slice = 0; slice < slices; slice++) {
      for (const [index, level] of levels.entries()) {
        const from = Math.floor((level.requests.length * slice) / slices)
        const to = Math.floor((level.requests.length * (slice + 1)) / slices)
        const cpu0 = cpuMillis()
        for (let i = from; i < to; i++) {
          const t0 = performance.now()
          yield* level.roundTrip(level.requests[i])
          times[index].push(performance.now() - t0)
        }
        cpu[index] += cpuMillis() - cpu0
      }
    }
    return levels.map((level, index) => ({
      p50: percentile(times[index], 50),
      p99: percentile(times[index], 99),
      cpu: cpu[index] / level.requests.length
    }))
  })

// A level made of the router with `handlers` over a fake CLI, in the current scope.
const withRouter = (
  requests: ReadonlyArray<string>,
  handlers: ReadonlyArray<ControlRouter.InboundHandler>
): Effect.Effect<LevelRun, never, Scope.Scope> =>
  Effect.gen(function*() {
    const cli = yield* fakeCli
    yield* ControlRouter.make({ handlers }).pipe(Effect.provideService(CliProcess.CliProcess, cli.service))
    return { requests, roundTrip: cli.roundTrip }
  })

/**
 * @since 0.1.0
 * @category Probes
 */
export const probe = (replayFile: string, rounds: number) =>
  Effect.gen(function*() {
    const templates = controlTemplates(loadReplay(replayFile))
    const hooks = yield* HookRegistry.make().pipe(
      Effect.provide(Layer.mergeAll(
        HookLayer.preToolUse({ matcher: "Bash" }, () => Effect.succeed(HookResult.empty)),
        HookLayer.postToolUse({ matcher: "Bash" }, () => Effect.succeed(HookResult.empty))
      ))
    )
    const callbackOf = (event: string) => hooks.hooks.find((hook) => hook.event === event)!.callbackId
    const linesOf = (subtype: string) => {
      const out: Array<string> = []
      for (let i = 0; i < rounds; i++) {
        for (const template of templates) {
          if (template.request.subtype !== subtype) continue
          const request = { ...template.request }
          if (subtype === "hook_callback") request.callback_id = callbackOf(request.input.hook_event_name)
          out.push(JSON.stringify({ ...template, request_id: `probe-${i}-${out.length}`, request }))
        }
      }
      return out
    }
    const hookLines = linesOf("hook_callback")
    const gateLines = linesOf("can_use_tool")
    const gate = yield* PermissionGate.make(() => Effect.succeed(PermissionResult.allow()))

    const codec: LevelRun = {
      requests: hookLines,
      roundTrip: (line) =>
        Effect.sync(() => {
          const decoded = Protocol.decodeStdoutLine(line)
          const message = Result.isSuccess(decoded) ? decoded.success : undefined
          const id = message !== undefined && "request_id" in message ? String(message.request_id) : "x"
          return Protocol.encodeStdinLine({
            type: "control_response",
            response: { subtype: "success", request_id: id, response: {} }
          })
        })
    }
    const trivial: ControlRouter.InboundHandler = {
      subtype: "hook_callback",
      handle: () => ControlRouter.answerWith(Effect.succeed({}))
    }
    const [codecLevel, router, hookLevel, untraced, gateLevel] = yield* Effect.scoped(Effect.flatMap(
      Effect.all([
        withRouter(hookLines, [trivial]),
        withRouter(hookLines, [hooks.inboundHandler]),
        // Issue 10's overhead check: the same level with the tracer off (the router's requests run with its
        // maker's refs). With it on, spans go to Effect's default tracer, which exports nowhere.
        withRouter(hookLines, [hooks.inboundHandler]).pipe(Effect.withTracerEnabled(false)),
        withRouter(gateLines, [PermissionGate.inboundHandler(gate)])
      ]),
      (routers) => measureLevels([codec, ...routers])
    ))
    const metrics: Record<string, number> = {}
    for (
      const [name, level] of Object.entries({
        codec: codecLevel,
        router,
        hooks: hookLevel,
        hooksUntraced: untraced,
        gate: gateLevel
      })
    ) {
      metrics[`${name}P50`] = level.p50
      metrics[`${name}P99`] = level.p99
      metrics[`${name}Cpu`] = level.cpu
    }
    return { metrics }
  })
