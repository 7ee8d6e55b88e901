/**
 * Where a control request's time goes inside our SDK: the same recorded
 * `hook_callback` / `can_use_tool` lines answered sequentially by successively
 * more of the SDK, in-process, with a fake `CliProcess` (lines in from a
 * mailbox, `writeLine` resolving the wait), so that each level's cost is the
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
import * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import { percentile } from "../stats.js"
import { controlTemplates, loadReplay } from "./replayFeed.js"

const cpuMillis = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

const fakeCli = Effect.gen(function*() {
  const lines = yield* Mailbox.make<string>()
  let answered: ((line: string) => void) | undefined
  const service = CliProcess.CliProcess.of({
    pid: 0,
    lines: Mailbox.toStream(lines),
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
  } as CliProcess.CliProcess.Service)
  const roundTrip = (line: string) =>
    Effect.async<string>((resume) => {
      answered = (answer) => resume(Effect.succeed(answer))
      lines.unsafeOffer(line)
    })
  return { service, roundTrip }
})

interface Level {
  readonly p50: number
  readonly p99: number
  readonly cpu: number
}

const measureLevel = (
  requests: ReadonlyArray<string>,
  roundTrip: (line: string) => Effect.Effect<unknown>
): Effect.Effect<Level> =>
  Effect.gen(function*() {
    // Warm-up, then the timed pass.
    for (const line of requests.slice(0, Math.min(300, requests.length))) yield* roundTrip(line)
    const times: Array<number> = []
    const cpu0 = cpuMillis()
    for (const line of requests) {
      const t0 = performance.now()
      yield* roundTrip(line)
      times.push(performance.now() - t0)
    }
    return { p50: percentile(times, 50), p99: percentile(times, 99), cpu: (cpuMillis() - cpu0) / requests.length }
  })

const withRouter = (
  requests: ReadonlyArray<string>,
  handlers: ReadonlyArray<ControlRouter.InboundHandler>
) =>
  Effect.scoped(Effect.gen(function*() {
    const cli = yield* fakeCli
    yield* ControlRouter.make({ handlers }).pipe(Effect.provideService(CliProcess.CliProcess, cli.service))
    return yield* measureLevel(requests, cli.roundTrip)
  }))

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

    const codec = yield* measureLevel(hookLines, (line) =>
      Effect.sync(() => {
        const decoded = Protocol.decodeStdoutLine(line)
        const id = decoded._tag === "Right" ? (decoded.right as any).request_id : "x"
        return Protocol.encodeStdinLine({
          type: "control_response",
          response: { subtype: "success", request_id: id, response: {} }
        } as any)
      }))
    const trivial: ControlRouter.InboundHandler = {
      subtype: "hook_callback",
      handle: () => ControlRouter.answerWith(Effect.succeed({}))
    }
    const router = yield* withRouter(hookLines, [trivial])
    const hookLevel = yield* withRouter(hookLines, [hooks.inboundHandler])
    // Issue 10's overhead check: the same level with the tracer off. With it on, spans go to Effect's
    // default tracer, which exports nowhere (tracing on, no-op exporter).
    const untraced = yield* withRouter(hookLines, [hooks.inboundHandler]).pipe(Effect.withTracerEnabled(false))
    const gateLevel = yield* withRouter(gateLines, [PermissionGate.inboundHandler(gate)])
    const metrics: Record<string, number> = {}
    for (
      const [name, level] of Object.entries({
        codec,
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
