/**
 * The cluster's row: prompt → result through `ClaudeSession` entities
 * (`ClaudeCluster.layerSingle`, SQLite) against `ClaudeCode` directly, in
 * the same run, on the real CLI against the scripted model; and what a
 * session costs a runner, to size runners at a fixed CPU budget.
 *
 *   pnpm --filter @claude-effect/bench run bench:cluster [-- --sessions 12 --idle 10]
 *
 * - cold: a fresh CLI (`ClaudeCode.result` / the first prompt of a new
 *   entity: the entity opens its session, the turn is mirrored and the
 *   prompt persisted);
 * - warm: the next turn on an open session (`session.turn` / the entity's
 *   second prompt);
 * The same comparison as on effect 3 (no effect-3 column: both columns run
 * on this tree).
 *
 * - a runner's CPU per session: the runner process and its CLIs, from
 *   `/proc`, for opening a session and running one prompt, and while the
 *   sessions sit open and idle.
 *
 * @since 0.1.0
 */
import { ClaudeCluster, ClaudeSession } from "@claude-effect/cluster"
import { ClaudeCode } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { childrenOf } from "./procs.js"
import { formatNumber, formatRatio, median } from "./stats.js"

const argument = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(process.argv[index + 1])
}
const SESSIONS = argument("sessions", 12)
const IDLE_SECONDS = argument("idle", 10)

const reply = ScriptedModel.rule((request) =>
  /prompt \S+/.test(request.lastUserText) ? ScriptedModel.text(`answer to ${request.lastUserText}`) : undefined
)

const TICKS_PER_SECOND = 100
/** CPU milliseconds of a process (user + system), from /proc; 0 when it is gone. */
const cpuOf = (pid: number): number => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000
  } catch {
    return 0
  }
}
const rssMbOf = (pid: number): number => {
  try {
    const status = Fs.readFileSync(`/proc/${pid}/status`, "utf8")
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}
const clis = () => childrenOf(process.pid).filter((child) => child.comm === "claude").map((child) => child.pid)
const selfCpu = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

const millis = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = performance.now()
    yield* effect
    return performance.now() - start
  })

const program = Effect.gen(function*() {
  const root = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-bench-cluster-")))
  yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
  const cliEnv = (yield* ScriptedModel.ScriptedModel).cliEnv
  const claude = ClaudeCode.layer({ env: cliEnv, cwd: root })

  // Direct: a fresh CLI per prompt (cold), then turns on one open session (warm).
  const directCold: Array<number> = []
  const directWarm: Array<number> = []
  yield* Effect.gen(function*() {
    for (let i = 0; i < SESSIONS; i++) directCold.push(yield* millis(ClaudeCode.result(`prompt direct-${i}`)))
    yield* Effect.scoped(Effect.gen(function*() {
      const session = yield* ClaudeCode.session()
      for (let i = 0; i < SESSIONS; i++) {
        directWarm.push(yield* millis(Stream.runDrain(session.turn(`prompt warm-${i}`))))
      }
    }))
  }).pipe(Effect.provide(claude))

  // Through the cluster: the first prompt of a new entity (cold), its second prompt (warm).
  const clusterCold: Array<number> = []
  const clusterWarm: Array<number> = []
  const runner = ClaudeSession.layer().pipe(
    Layer.provideMerge(ClaudeCluster.layerSingle({ filename: Path.join(root, "cluster.db") })),
    Layer.provide(claude)
  )
  const cost = yield* Effect.gen(function*() {
    const sessions = yield* ClaudeSession.client
    const cpuBefore = selfCpu()
    for (let i = 0; i < SESSIONS; i++) {
      clusterCold.push(yield* millis(sessions(`s-${i}`).Prompt({ promptId: `s-${i}-1`, prompt: `prompt s-${i}-1` })))
    }
    for (let i = 0; i < SESSIONS; i++) {
      clusterWarm.push(yield* millis(sessions(`s-${i}`).Prompt({ promptId: `s-${i}-2`, prompt: `prompt s-${i}-2` })))
    }
    const open = clis()
    const active = selfCpu() - cpuBefore + open.reduce((sum, pid) => sum + cpuOf(pid), 0)
    const rss = open.reduce((sum, pid) => sum + rssMbOf(pid), 0)
    // Idle: the sessions stay open; what do they cost while nothing happens?
    const idleBefore = selfCpu() + open.reduce((sum, pid) => sum + cpuOf(pid), 0)
    yield* Effect.sleep(`${IDLE_SECONDS} seconds`)
    const idle = selfCpu() + open.reduce((sum, pid) => sum + cpuOf(pid), 0) - idleBefore
    return { active, idle, rss, open: open.length }
  }).pipe(Effect.provide(runner), Effect.scoped)

  const perSessionCpu = cost.active / SESSIONS / 2 // per prompt (half of them open a session)
  const idlePerSessionMinute = (cost.idle / cost.open) * (60 / IDLE_SECONDS)
  // One core for a minute, each session sending one prompt a minute: how many sessions fit.
  const perCoreAtOnePromptPerMinute = 60_000 / (perSessionCpu + idlePerSessionMinute)
  const rows = [
    ["cold: call → result, p50 (ms)", median(directCold), median(clusterCold)],
    ["warm: next turn → result, p50 (ms)", median(directWarm), median(clusterWarm)]
  ] as const
  const lines = [
    `## cluster — ${
      new Date().toISOString().slice(0, 16).replace("T", " ")
    } UTC — \`pnpm --filter @claude-effect/bench run bench:cluster\``,
    "",
    `${SESSIONS} sessions, the real CLI 2.1.328 against the scripted model; the cluster is \`ClaudeCluster.layerSingle\` ` +
    `(SQLite), the transcript mirrored to its \`SqlSessionStore\`.`,
    "",
    "| row | measure | ClaudeCode direct | through the cluster | cluster/direct |",
    "| --- | --- | ---: | ---: | ---: |",
    ...rows.map(([measure, direct, cluster]) =>
      `| cluster | ${measure} | ${formatNumber(direct)} | ${formatNumber(cluster)} | ${formatRatio(cluster / direct)} |`
    ),
    `| cluster | runner CPU per prompt, runner + CLIs (ms) | – | ${formatNumber(perSessionCpu)} | – |`,
    `| cluster | runner CPU per open idle session per minute (ms) | – | ${formatNumber(idlePerSessionMinute)} | – |`,
    `| cluster | CLI RSS per open session (MB) | – | ${formatNumber(cost.rss / Math.max(1, cost.open))} | – |`,
    `| cluster | sessions per runner per core, one prompt per session per minute | – | ${
      formatNumber(perCoreAtOnePromptPerMinute)
    } | – |`
  ]
  yield* Console.log(lines.join("\n"))
}).pipe(
  Effect.scoped,
  Effect.provide(Layer.provideMerge(ScriptedModel.layerNode([reply]), NodeServices.layer))
)

NodeRuntime.runMain(program)
