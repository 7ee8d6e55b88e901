/**
 * The demo's header and its one-screen summary.
 */
import * as Effect from "effect/Effect"
import * as Ansi from "./Ansi.js"
import { Terminal } from "./Terminal.js"
import type { Stats } from "./Transcript.js"
import { describeInput, Transcript } from "./Transcript.js"

export interface Facts {
  readonly stats: Stats
  readonly sandboxFile: string
  /** The number of lines of the file in the sandbox, when it exists. */
  readonly sandboxFileLines: number | undefined
  readonly outsideFileExists: boolean
  readonly auditPath: string
  readonly auditRecords: ReadonlyArray<{ readonly event?: string; readonly tool?: string; readonly decision?: string }>
  readonly root: string
  readonly mode: "scripted" | "live"
}

export const header = (
  options: { readonly model: string; readonly project: string; readonly mode: string; readonly inventory: boolean }
) =>
  Effect.gen(function*() {
    const { columns, line, style } = yield* Terminal
    const bar = style.magenta("▌")
    yield* line()
    yield* line(`${bar} ${style.bold("claude-effect demo")}`)
    yield* line(`${bar} ${style.dim("the real Claude Code CLI, steered by Effect hooks and a permission gate")}`)
    yield* line()
    const row = (label: string, value: string) => line(`${style.dim(label.padEnd(9))}${value}`)
    yield* row("model", options.model)
    if (options.mode === "scripted") {
      yield* row("", style.dim("(set ANTHROPIC_API_KEY or pass --live for the real API)"))
    }
    yield* row("project", options.project)
    const policy = (label: string, name: string, what: string) =>
      row(label, `${style.bold(name.padEnd(11))}${style.dim(Ansi.truncate(what, columns - 21))}`)
    yield* policy("policies", "guard", "PreToolUse hook on Bash: denies destructive commands")
    yield* policy("", "gate", "permission gate: keeps writes inside the project")
    yield* policy("", "audit", "Pre/PostToolUse hooks: every tool call → AuditLog (JSONL)")
    yield* policy("", "done-check", "Stop hook: the notes must be in sandbox/ and reported")
    if (options.inventory) yield* policy("tools", "inventory", "in-process MCP server (Effect handler): lookup(sku)")
    yield* line()
  })

const number = (n: number | undefined) => n === undefined ? "?" : n.toLocaleString("en-US")

const seconds = (millis: number | undefined) => millis === undefined ? "?" : `${(millis / 1000).toFixed(1)} s`

export const print = (facts: Facts) =>
  Effect.gen(function*() {
    const { columns, line, style } = yield* Terminal
    const transcript = yield* Transcript
    const { stats } = facts
    const result = stats.result
    const row = (label: string, value: string) => line(` ${style.dim(label.padEnd(11))}${value}`)
    const ok = style.green("✔")
    const no = style.red("✖")

    yield* line()
    yield* line(style.dim("─".repeat(Math.min(columns, 72))))
    yield* line(` ${style.bold("summary")}`)

    if (result === undefined) {
      yield* row("result", `${no} no result: the run did not finish`)
    } else {
      // API failures come as subtype "success" with is_error: true; terminal_reason says what happened.
      const status = result.is_error
        ? `${no} failed (${result.terminal_reason ?? result.subtype})`
        : `${ok} ${result.subtype}`
      const turns = `${result.num_turns} turn${result.num_turns === 1 ? "" : "s"}`
      const time = `${seconds(result.duration_ms)} (API ${seconds(result.duration_api_ms)})`
      yield* row("result", `${status} · ${turns} · ${time}`)
      if (result.is_error && facts.mode === "live") {
        yield* row("", style.yellow("the live run needs ANTHROPIC_API_KEY or a logged-in Claude Code;"))
        yield* row("", style.yellow("without --live (and without a key) the demo uses the scripted model"))
      }
      const cost = `$${result.total_cost_usd.toFixed(4)}`
      yield* row(
        "cost",
        facts.mode === "scripted"
          ? `${cost} ${style.dim("(as the CLI prices it; the scripted model bills nothing)")}`
          : cost
      )
      const usage = result.usage
      yield* row(
        "tokens",
        `${number(usage.input_tokens)} in · ${number(usage.output_tokens)} out · ` +
          `${number(usage.cache_read_input_tokens ?? 0)} cache read · ${
            number(usage.cache_creation_input_tokens ?? 0)
          } cache write`
      )
    }

    const byWho = (who: string) => stats.decisions.filter((d) => d.who === who)
    const call = (toolUseId: string | undefined) => stats.toolCalls.find((c) => c.id === toolUseId)
    const callText = (toolUseId: string | undefined) => {
      const found = call(toolUseId)
      return found === undefined ? "" : transcript.shorten(`${found.name} ${describeInput(found.name, found.input)}`)
    }

    const guardDenials = byWho("guard").filter((d) => d.verdict === "deny")
    yield* row(
      "guard",
      guardDenials.length === 0
        ? style.dim("no destructive command was tried")
        : guardDenials.map((d) => `${no} denied ${Ansi.truncate(callText(d.toolUseId), 50)}`).join("; ")
    )

    const gate = byWho("gate")
    const rewrites = gate.filter((d) => d.verdict === "rewrite")
    const gateParts = [
      ...rewrites.map((d) => `${style.blue("↪")} ${transcript.shorten(d.why ?? "")}`),
      `${gate.filter((d) => d.verdict === "allow").length} allowed`,
      `${gate.filter((d) => d.verdict === "deny").length} denied`
    ]
    yield* row("gate", gateParts.join(" · "))

    yield* row(
      "sandbox",
      facts.sandboxFileLines !== undefined
        ? `${ok} ${transcript.shorten(facts.sandboxFile)} is there (${facts.sandboxFileLines} lines)` +
          (facts.outsideFileExists
            ? ` ${no} but a file was written outside the project`
            : "; nothing was written outside the project")
        : `${no} ${transcript.shorten(facts.sandboxFile)} was not written`
    )

    const stops = byWho("done-check")
    yield* row(
      "done-check",
      stops.length === 0
        ? style.dim("not called")
        : stops.map((d) =>
          d.verdict === "block" ? `${style.yellow("✋")} blocked` : d.verdict === "pass" ? `${ok} passed` : d.verdict
        ).join(" → ")
    )

    const mcpCalls = stats.toolCalls.filter((c) => c.name.startsWith("mcp__"))
    if (mcpCalls.length > 0) {
      yield* row(
        "mcp tool",
        mcpCalls.map((c) => {
          const outcome = stats.toolResults.get(c.id)
          const mark = outcome === undefined ? style.dim("?") : outcome.isError ? no : ok
          return `${mark} ${c.name.replace(/^mcp__(.+?)__/, "$1.")} ${JSON.stringify(c.input)} → ${
            Ansi.truncate(outcome?.text ?? "no result", 40)
          }`
        }).join("; ")
      )
    }

    yield* row("audit log", `${facts.auditRecords.length} records → ${facts.auditPath}`)
    const byEvent = new Map<string, number>()
    for (const record of facts.auditRecords) {
      const key = [record.event, record.decision].filter((s) => s !== undefined).join(" ")
      byEvent.set(key, (byEvent.get(key) ?? 0) + 1)
    }
    if (byEvent.size > 0) {
      yield* row("", style.dim(Array.from(byEvent, ([key, count]) => `${count} × ${key}`).join(" · ")))
    }

    yield* row("files", `kept in ${facts.root}`)
    yield* line()
  })
