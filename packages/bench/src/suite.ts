/**
 * The benchmark suite: which scenarios make up each row of the table, at what
 * size (full or `--quick`), and how their outcomes become table lines.
 *
 * @since 0.1.0
 */
import type { Sdk, WorkerResult } from "./jobs.js"
import { checkLine, type Line, medianLine, type Outcomes, pooledLine, withTarget } from "./report.js"
import type { Spec } from "./runner.js"

/**
 * @since 0.1.0
 * @category Models
 */
export interface Row {
  readonly id: string
  readonly title: string
  readonly specs: ReadonlyArray<Spec>
  readonly lines: (outcomes: Outcomes) => ReadonlyArray<Line>
}

const MiB = 1024 * 1024

const m = (key: string) => (r: WorkerResult) => r.metrics[key] ?? Number.NaN
// The SDK CPU spent on the JavaScript thread; the rest of `cpuMillis` is V8's background compiling and GC.
const mainThread = (r: WorkerResult) => r.mainThreadCpuMillis ?? Number.NaN

// The specs only our SDK runs: on effect 4 and as its effect-3 baseline (effect3.ts).
const OURS: ReadonlyArray<Sdk> = ["ours", "ours3"]

// A line of one spec whose `ours` values come from another spec of ours (the same scenario, run differently).
const oursFrom = (line: Line, ours: Line): Line => ({
  ...line,
  values: { ...line.values, ours: ours.values.ours ?? Number.NaN, ours3: ours.values.ours3 ?? Number.NaN }
})

/**
 * @since 0.1.0
 * @category Suite
 */
export const rows = (quick: boolean): ReadonlyArray<Row> => {
  const size = (full: number, small: number) => (quick ? small : full)
  const toolCalls = size(50, 8)
  const rounds = size(200, 30)
  const deltas = size(20_000, 2_000)
  const lines = size(200_000, 20_000)
  const small = size(8, 2)
  const large = size(16, 4)
  const huge = size(64, 6)
  return [
    {
      id: "1",
      title: "cold start (one text turn)",
      specs: [
        { key: "cold", scenario: "cold", params: {}, timeoutMillis: 60_000 },
        // Ours with effect loaded file by file from node_modules, as an application that does not bundle runs it.
        { key: "cold-modules", scenario: "cold", params: {}, timeoutMillis: 60_000, sdks: OURS, fromModules: true }
      ],
      lines: (o) => [
        medianLine(o, "cold", "1 cold start", "call → system/init (ms)", "lower", m("init")),
        medianLine(o, "cold", "1 cold start", "call → first assistant message (ms)", "lower", m("firstAssistant")),
        medianLine(o, "cold", "1 cold start", "call → result (ms)", "lower", m("result")),
        medianLine(o, "cold", "1 cold start", "call → stream end, CLI gone (ms)", "lower", m("end")),
        withTarget(medianLine(o, "cold", "1 cold start", "SDK CPU, call → end (ms)", "lower", (r) => r.cpuMillis), {
          ratio: 2
        }),
        medianLine(o, "cold", "1 cold start", "of which on the main thread (ms)", "lower", mainThread),
        {
          ...medianLine(o, "cold", "1 cold start", "SDK module import (ms)", "lower", (r) => r.loadMillis),
          rawIsFloor: false
        },
        withTarget(
          medianLine(o, "cold", "1 cold start", "SDK process peak RSS (MB)", "lower", (r) => r.maxRssMb),
          { plus: 10 }
        ),
        ...([
          ["SDK CPU, call → end (ms)", (r: WorkerResult) => r.cpuMillis],
          ["SDK module import (ms)", (r: WorkerResult) => r.loadMillis],
          ["SDK process peak RSS (MB)", (r: WorkerResult) => r.maxRssMb]
        ] as const).map(([label, pick]) =>
          oursFrom(
            medianLine(
              o,
              "cold",
              "1 cold start",
              `ours not bundled, effect from node_modules: ${label}`,
              "lower",
              pick
            ),
            medianLine(o, "cold-modules", "1 cold start", label, "lower", pick)
          )
        )
      ]
    },
    {
      id: "2",
      title: `hooks: ${toolCalls} sequential Bash calls, PreToolUse + PostToolUse hooks + permission gate`,
      specs: [
        { key: "hooks", scenario: "hooks", params: { toolCalls }, tap: "pass", timeoutMillis: 300_000 },
        // The same session twice in one process, the second measured: what a tool call costs once the SDK's
        // code has run (and been compiled by V8) before, as in a process that serves many sessions.
        {
          key: "hooks-warm",
          scenario: "hooks",
          params: { toolCalls, sessions: 2 },
          timeoutMillis: 300_000,
          maxRuns: 3
        },
        { key: "pingpong", scenario: "pingpong", params: { rounds }, timeoutMillis: 120_000 },
        // The same, ten times longer: how far each SDK's cost falls once its code is warm.
        {
          key: "pingpong-warm",
          scenario: "pingpong",
          params: { rounds: rounds * 10 },
          timeoutMillis: 300_000,
          maxRuns: 3
        },
        { key: "probe", scenario: "probe", params: { rounds }, timeoutMillis: 120_000, sdks: OURS }
      ],
      lines: (o) => [
        withTarget(medianLine(o, "hooks", "2 hooks", "wall time per tool call (ms)", "lower", m("perToolCall")), {
          ratio: 1.02
        }),
        withTarget(
          pooledLine(
            o,
            "hooks",
            "2 hooks",
            "hook_callback: line read → answer written, p50 (ms)",
            50,
            (x) => x.latencies?.hook_callback
          ),
          { ratio: 1.1 }
        ),
        withTarget(
          pooledLine(
            o,
            "hooks",
            "2 hooks",
            "hook_callback: line read → answer written, p99 (ms)",
            99,
            (x) => x.latencies?.hook_callback
          ),
          { ratio: 1.3 }
        ),
        withTarget(
          pooledLine(
            o,
            "hooks",
            "2 hooks",
            "can_use_tool: line read → answer written, p50 (ms)",
            50,
            (x) => x.latencies?.can_use_tool
          ),
          { ratio: 1.1 }
        ),
        withTarget(
          pooledLine(
            o,
            "hooks",
            "2 hooks",
            "can_use_tool: line read → answer written, p99 (ms)",
            99,
            (x) => x.latencies?.can_use_tool
          ),
          { ratio: 1.3 }
        ),
        withTarget(
          medianLine(
            o,
            "hooks",
            "2 hooks",
            "SDK CPU per tool call (ms)",
            "lower",
            (r) => r.cpuMillis / m("toolCalls")(r)
          ),
          { ratio: 1.5 }
        ),
        // The same CPU without the session's start and close (row 1's cost): the tool calls alone.
        medianLine(
          o,
          "hooks",
          "2 hooks",
          "SDK CPU per tool call, first tool_use → result only (ms)",
          "lower",
          m("steadyCpuPerToolCall")
        ),
        medianLine(
          o,
          "hooks-warm",
          "2 hooks",
          "SDK CPU per tool call, a second session in the same process (ms)",
          "lower",
          m("sessionCpuPerToolCall")
        ),
        medianLine(
          o,
          "hooks-warm",
          "2 hooks",
          "SDK CPU per tool call, a second session in the same process, first tool_use → result only (ms)",
          "lower",
          m("steadyCpuPerToolCall")
        ),
        medianLine(o, "hooks", "2 hooks", "SDK process peak RSS (MB)", "lower", (r) => r.maxRssMb),
        ...(["hook_callback", "can_use_tool"] as const).flatMap((subtype) =>
          [50, 99].map((p) => {
            const line = pooledLine(
              o,
              "pingpong",
              "2 hooks",
              `${subtype} in-process round trip, fake CLI, ${rounds} tool calls: p${p} (ms)`,
              p,
              (x) => x.result?.samples?.[subtype]
            )
            return p === 50 ? withTarget(line, { ratio: 2 }) : line
          })
        ),
        ...(["hook_callback", "can_use_tool"] as const).map((subtype) =>
          withTarget(
            pooledLine(
              o,
              "pingpong-warm",
              "2 hooks",
              `${subtype} in-process round trip, fake CLI, ${rounds * 10} tool calls: p50 (ms)`,
              50,
              (x) => x.result?.samples?.[subtype]
            ),
            { ratio: 2 }
          )
        ),
        withTarget(
          medianLine(
            o,
            "pingpong",
            "2 hooks",
            "in-process: SDK CPU per control request (ms)",
            "lower",
            (r) => r.cpuMillis / m("requests")(r)
          ),
          { ratio: 2 }
        ),
        medianLine(
          o,
          "pingpong",
          "2 hooks",
          "in-process: of which on the main thread (ms)",
          "lower",
          (r) => mainThread(r) / m("requests")(r)
        ),
        ...([
          ["codec", "decodeStdoutLine + encodeStdinLine only"],
          ["router", "ControlRouter, trivial handler"],
          ["hooks", "ControlRouter + HookRegistry"],
          ["hooksUntraced", "ControlRouter + HookRegistry, tracer off"],
          ["gate", "ControlRouter + PermissionGate"]
        ] as const).flatMap(([level, label]) => [
          medianLine(o, "probe", "2 hooks", `ours by level, ${label}: round trip p50 (ms)`, "lower", m(`${level}P50`)),
          medianLine(o, "probe", "2 hooks", `ours by level, ${label}: CPU per request (ms)`, "lower", m(`${level}Cpu`))
        ])
      ]
    },
    {
      id: "3",
      title: `partial messages: one turn of ${deltas.toLocaleString("en-US")} text deltas`,
      specs: [{ key: "partial", scenario: "partial", params: { deltas }, tap: "burst", timeoutMillis: 180_000 }],
      lines: (o) => [
        withTarget(
          medianLine(
            o,
            "partial",
            "3 partial",
            "messages/s to the consumer (turn handed over at once)",
            "higher",
            m("rate")
          ),
          { ratio: 1 }
        ),
        withTarget(
          medianLine(
            o,
            "partial",
            "3 partial",
            "SDK CPU per 1,000 messages (ms)",
            "lower",
            (r) => (r.cpuMillis / m("messages")(r)) * 1000
          ),
          { ratio: 1.3 }
        ),
        withTarget(
          medianLine(
            o,
            "partial",
            "3 partial",
            "SDK CPU per 1,000 messages, the burst alone (first delta → result)",
            "lower",
            (r) => (m("streamCpuMillis")(r) / m("messages")(r)) * 1000
          ),
          { ratio: 1.3 }
        ),
        medianLine(o, "partial", "3 partial", "SDK process peak RSS (MB)", "lower", (r) => r.maxRssMb)
      ]
    },
    {
      id: "4",
      title: `decode replay: ${lines.toLocaleString("en-US")} recorded stdout lines, no CLI`,
      specs: [
        { key: "replay", scenario: "replay", params: { lines }, timeoutMillis: 180_000 },
        { key: "replay-stages", scenario: "replay-stages", params: { lines }, timeoutMillis: 180_000, sdks: OURS },
        {
          key: "replay-sync-chunks",
          scenario: "replay",
          params: { lines, syncChunks: 1 },
          timeoutMillis: 180_000,
          sdks: OURS
        }
      ],
      lines: (o) => [
        withTarget(medianLine(o, "replay", "4 replay", "lines/s: frame, decode, route, deliver", "higher", m("rate")), {
          ratio: 1
        }),
        withTarget(medianLine(o, "replay", "4 replay", "SDK CPU (ms)", "lower", (r) => r.cpuMillis), { ratio: 1.5 }),
        medianLine(o, "replay", "4 replay", "of which on the main thread (ms)", "lower", mainThread),
        withTarget(medianLine(o, "replay", "4 replay", "SDK process peak RSS (MB)", "lower", (r) => r.maxRssMb), {
          ratio: 1.1
        }),
        medianLine(
          o,
          "replay-stages",
          "4 replay",
          "ours by stage: decodeStdoutLine alone (lines/s)",
          "higher",
          m("decode")
        ),
        medianLine(
          o,
          "replay-stages",
          "4 replay",
          "ours by stage: CliProcess.lines framing alone (lines/s)",
          "higher",
          m("framing")
        ),
        medianLine(
          o,
          "replay-stages",
          "4 replay",
          "ours by stage: framing + ControlRouter, message queue drained by chunk (lines/s)",
          "higher",
          m("router")
        ),
        ...([
          ["lines/s", "higher", m("rate")],
          ["SDK CPU (ms)", "lower", (r: WorkerResult) => r.cpuMillis],
          ["SDK process peak RSS (MB)", "lower", (r: WorkerResult) => r.maxRssMb]
        ] as const).map(([measure, better, pick]) => {
          const label = `ours consuming each chunk synchronously (no Effect per chunk): ${measure}`
          return oursFrom(
            medianLine(o, "replay", "4 replay", label, better, pick),
            medianLine(o, "replay-sync-chunks", "4 replay", label, better, pick)
          )
        })
      ]
    },
    {
      id: "5",
      title: "large lines",
      specs: [
        {
          key: "large-tool",
          scenario: "large-tool",
          params: { bytes: size(10 * MiB, MiB) },
          timeoutMillis: 300_000
        },
        {
          key: "large-input",
          scenario: "large-input",
          params: { bytes: size(20 * MiB, 2 * MiB) },
          timeoutMillis: 180_000
        }
      ],
      lines: (o) => {
        const tool = quick ? "1 MB" : "10 MB"
        const input = quick ? "2 MB" : "20 MB"
        return [
          medianLine(o, "large-tool", "5 large", `${tool} Write tool call: call → result (ms)`, "lower", m("result")),
          checkLine(
            o,
            "large-tool",
            "5 large",
            `${tool} tool input, tool output echo and file intact`,
            (r) => r.checks?.toolInput === true && r.checks.toolEcho === true && r.checks.file === true
          ),
          medianLine(
            o,
            "large-tool",
            "5 large",
            `${tool} Write: SDK process peak RSS (MB)`,
            "lower",
            (r) => r.maxRssMb
          ),
          medianLine(o, "large-input", "5 large", `${input} prompt line: call → result (ms)`, "lower", m("result")),
          checkLine(o, "large-input", "5 large", `${input} prompt echoed back intact`, (r) => r.checks?.promptEcho),
          medianLine(
            o,
            "large-input",
            "5 large",
            `${input} prompt: SDK process peak RSS (MB)`,
            "lower",
            (r) => r.maxRssMb
          )
        ]
      }
    },
    {
      id: "6",
      title: "concurrency: sessions of 3 turns, each turn one Bash call through the gate",
      specs: [
        {
          key: `concurrency-${small}`,
          scenario: "concurrency",
          params: { sessions: small, turns: 3 },
          timeoutMillis: 300_000,
          maxRuns: 3
        },
        {
          key: `concurrency-${large}`,
          scenario: "concurrency",
          params: { sessions: large, turns: 3 },
          timeoutMillis: 300_000,
          maxRuns: 3
        },
        // The same, ours consuming each turn as a stream (`Stream.runDrain(session.turn(prompt))`).
        {
          key: `concurrency-${large}-streams`,
          scenario: "concurrency",
          params: { sessions: large, turns: 3, streams: 1 },
          timeoutMillis: 300_000,
          maxRuns: 3,
          sdks: OURS
        },
        // Sixty-four CLIs on one small machine: a run takes minutes, so fewer runs.
        {
          key: `concurrency-${huge}`,
          scenario: "concurrency",
          params: { sessions: huge, turns: 3 },
          timeoutMillis: 600_000,
          maxRuns: 2
        }
      ],
      lines: (o) =>
        [small, large, huge].flatMap((n) => {
          // The targets hold for 16 and 64 sessions; 8 keeps the default.
          const targeted = n !== small
          const sdkCpu = (r: WorkerResult) => r.cpuMillis
          const cpu = medianLine(o, `concurrency-${n}`, "6 concurrency", `${n} sessions: SDK CPU (ms)`, "lower", sdkCpu)
          const rss = medianLine(
            o,
            `concurrency-${n}`,
            "6 concurrency",
            `${n} sessions: SDK process peak RSS (MB)`,
            "lower",
            (r) => r.maxRssMb
          )
          // The same line, its ours value from the run that consumes each turn as a stream.
          const streams = n === large
            ? [oursFrom(
              {
                ...cpu,
                label:
                  `${n} sessions, ours running each turn's stream (Stream.runDrain) rather than session.result: SDK CPU (ms)`
              },
              medianLine(o, `concurrency-${n}-streams`, "6 concurrency", cpu.label, "lower", sdkCpu)
            )]
            : []
          return [
            medianLine(o, `concurrency-${n}`, "6 concurrency", `${n} sessions: wall time (ms)`, "lower", m("wall")),
            targeted ? withTarget(cpu, { ratio: 2 }) : cpu,
            ...streams,
            targeted ? withTarget(rss, { ratio: 1.2 }) : rss,
            checkLine(
              o,
              `concurrency-${n}`,
              "6 concurrency",
              `${n} sessions: every turn of every session got its result`,
              (r) => r.metrics.results === n * 3
            )
          ]
        })
    },
    {
      id: "7",
      title: "stop: interrupt, close, break, abort",
      specs: [
        { key: "stop-session", scenario: "stop-session", params: {}, timeoutMillis: 120_000 },
        { key: "stop-break", scenario: "stop-break", params: {}, timeoutMillis: 60_000 },
        { key: "stop-abort", scenario: "stop-abort", params: {}, timeoutMillis: 60_000 }
      ],
      lines: (o) => [
        medianLine(o, "stop-session", "7 stop", "interrupt() mid-stream → result (ms)", "lower", m("interruptStream")),
        medianLine(o, "stop-session", "7 stop", "interrupt() mid-tool → result (ms)", "lower", m("interruptTool")),
        checkLine(
          o,
          "stop-session",
          "7 stop",
          "mid-tool interrupt: tool processes gone",
          (r) => r.metrics.toolLeft === 0
        ),
        medianLine(o, "stop-session", "7 stop", "close session mid-stream → CLI exited (ms)", "lower", m("closeExit")),
        checkLine(o, "stop-session", "7 stop", "close: nothing left running", (r) => r.metrics.closeLeftovers === 0),
        medianLine(
          o,
          "stop-break",
          "7 stop",
          "consumer stops reading mid-stream → CLI exited (ms)",
          "lower",
          m("breakExit")
        ),
        checkLine(
          o,
          "stop-break",
          "7 stop",
          "consumer stop: nothing left running",
          (r) => r.metrics.breakLeftovers === 0 && Number.isFinite(r.metrics.breakExit)
        ),
        medianLine(
          o,
          "stop-abort",
          "7 stop",
          "abort / interrupt consumer mid-tool → CLI exited (ms)",
          "lower",
          m("abortExit")
        ),
        checkLine(
          o,
          "stop-abort",
          "7 stop",
          "abort: nothing left running (CLI, shell, tool)",
          (r) => r.metrics.abortLeftovers === 0
        )
      ]
    },
    {
      id: "8",
      title: "prewarmed session: a pool of one (ours), prewarm() (official), an initialized CLI (raw); claim, one turn",
      specs: [{ key: "claim", scenario: "claim", params: {}, timeoutMillis: 60_000 }],
      lines: (o) => [
        withTarget(medianLine(o, "claim", "8 prewarm", "claimed → first message (ms)", "lower", m("first")), {
          atMost: 5
        }),
        medianLine(
          o,
          "claim",
          "8 prewarm",
          "claimed → first message written after the claim (ms)",
          "lower",
          m("fresh")
        ),
        medianLine(o, "claim", "8 prewarm", "claimed → system/init (ms)", "lower", m("init")),
        medianLine(o, "claim", "8 prewarm", "claimed → result (ms)", "lower", m("result")),
        medianLine(o, "claim", "8 prewarm", "start → ready to claim (ms)", "lower", m("ready"))
      ]
    }
  ]
}
