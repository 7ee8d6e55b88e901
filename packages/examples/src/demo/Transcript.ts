/**
 * The live transcript: every message of the run, and every decision a hook
 * or the permission gate took, printed as it happens. Decisions about a tool
 * call are printed under that call (a hook can answer before the consumer has
 * printed the call), and counted for the summary.
 */
import { Protocol } from "@claude-effect/sdk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ansi from "./Ansi.js"
import { Terminal } from "./Terminal.js"

/** What a hook or the gate answered. */
export type Verdict = "allow" | "deny" | "rewrite" | "block" | "pass" | "context" | "halt" | "ask" | "defer" | "failed"

export interface Decision {
  /** Who decided: the hook's or the gate's name. */
  readonly who: string
  /** On what: `PreToolUse`, `can_use_tool`, `Stop`, ... */
  readonly on: string
  readonly verdict: Verdict
  /** Why, in the decider's words. */
  readonly why?: string | undefined
  /** The tool call it is about, if any. */
  readonly toolUseId?: string | undefined
}

export interface ToolCall {
  readonly id: string
  readonly name: string
  readonly input: unknown
}

/** What the run did, for the summary. */
export interface Stats {
  readonly sessionId: string | undefined
  readonly model: string | undefined
  readonly cliVersion: string | undefined
  readonly toolCalls: ReadonlyArray<ToolCall>
  /** The text of each tool call's result, by tool_use id. */
  readonly toolResults: ReadonlyMap<string, { readonly text: string; readonly isError: boolean }>
  readonly decisions: ReadonlyArray<Decision>
  readonly assistantTexts: ReadonlyArray<string>
  readonly result: Protocol.ResultMessage | undefined
}

export class Transcript extends Context.Service<Transcript, {
  readonly message: (message: Protocol.Message) => Effect.Effect<void>
  readonly decision: (decision: Decision) => Effect.Effect<void>
  /** Prints a line of the demo's own. */
  readonly note: (text: string) => Effect.Effect<void>
  /** Shortens the demo's absolute paths for display. */
  readonly shorten: (text: string) => string
  readonly stats: Effect.Effect<Stats>
}>()("@claude-effect/examples/demo/Transcript") {}

/** The folders whose absolute paths are shortened on screen. */
export interface Folders {
  /** The project: its paths are shown relative to it. */
  readonly project: string
  /** The folder around it: shown as `..`. */
  readonly root: string
}

const HOLD_MILLIS = 500

const toolLabel = (name: string) => {
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name)
  return mcp ? `${mcp[1]}.${mcp[2]}` : name
}

const str = (u: unknown): string | undefined => typeof u === "string" ? u : undefined

const lineCount = (text: string) => text.trimEnd().length === 0 ? 0 : text.trimEnd().split("\n").length

/** The input of a tool call, in a few words. */
export const describeInput = (name: string, input: unknown): string => {
  const record = (input ?? {}) as Record<string, unknown>
  switch (name) {
    case "Bash":
      return str(record.command) ?? ""
    case "Write": {
      const content = str(record.content) ?? ""
      return `${str(record.file_path) ?? "?"}  (${lineCount(content)} lines)`
    }
    case "Edit":
    case "Read":
    case "NotebookEdit":
      return str(record.file_path) ?? ""
    case "Glob":
    case "Grep":
      return str(record.pattern) ?? ""
    default:
      return JSON.stringify(input)
  }
}

const resultText = (content: unknown): string => {
  if (typeof content === "string") return content
  if (Array.isArray(content)) {
    return content.map((block) => str((block as { text?: unknown })?.text) ?? "").filter((t) => t.length > 0).join(
      "\n"
    )
  }
  return content === undefined ? "" : JSON.stringify(content)
}

export const make = (folders: Folders) =>
  Effect.gen(function*() {
    const terminal = yield* Terminal
    const { style } = terminal
    const scope = yield* Effect.scope
    const width = terminal.columns

    const shorten = (text: string) =>
      text.split(folders.project + "/").join("").split(folders.project).join(".")
        .split(folders.root + "/").join("../").split(folders.root).join("..")

    let sessionId: string | undefined
    let model: string | undefined
    let cliVersion: string | undefined
    let result: Protocol.ResultMessage | undefined
    const toolCalls: Array<ToolCall> = []
    const toolResults = new Map<string, { readonly text: string; readonly isError: boolean }>()
    const decisions: Array<Decision> = []
    const assistantTexts: Array<string> = []
    const printedTools = new Set<string>()
    const held = new Map<string, Array<Decision>>()
    // Text blocks already shown from partial messages, by API message id.
    const streamed = new Map<string, number>()
    let currentApiMessage: string | undefined
    let streaming = false
    // A blank line opens each response of the model.
    let lastResponse: string | undefined
    const opening = (id: string | undefined) =>
      Effect.suspend(() => {
        if (id === undefined || id === lastResponse) return Effect.void
        lastResponse = id
        return terminal.line()
      })

    const gutter = (label: string, paint: (s: string) => string, pad = 8) =>
      paint(label) + " ".repeat(Math.max(1, pad - Ansi.width(label)))

    /** Wraps at the terminal's width: continuation lines are indented by `indent`; the first starts at `used`. */
    const wrapText = (text: string, indent: number, used = indent): string => {
      const room = Math.max(30, width - indent)
      const lines: Array<string> = []
      for (const paragraph of text.split("\n")) {
        let line = ""
        for (const word of paragraph.split(" ")) {
          const limit = lines.length === 0 ? Math.max(20, width - used) : room
          if (line.length > 0 && Ansi.width(line) + 1 + Ansi.width(word) > limit) {
            lines.push(line)
            line = word
          } else {
            line = line.length > 0 ? `${line} ${word}` : word
          }
        }
        lines.push(line)
      }
      return lines.join("\n" + " ".repeat(indent))
    }

    const verdictLook: Record<Verdict, { icon: string; word: string; paint: (s: string) => string }> = {
      deny: { icon: "✖", word: "denied", paint: style.red },
      failed: { icon: "✖", word: "failed", paint: style.red },
      rewrite: { icon: "↪", word: "rewrote", paint: style.blue },
      block: { icon: "✋", word: "blocked", paint: style.yellow },
      halt: { icon: "■", word: "halted", paint: style.yellow },
      ask: { icon: "?", word: "asks", paint: style.yellow },
      defer: { icon: "⇥", word: "deferred", paint: style.yellow },
      context: { icon: "✚", word: "added context", paint: style.cyan },
      allow: { icon: "✔", word: "allowed", paint: style.green },
      pass: { icon: "✔", word: "passed", paint: style.green }
    }

    const printDecision = (decision: Decision) => {
      const look = verdictLook[decision.verdict]
      const head = `   ${look.paint(look.icon)} ${style.bold(decision.who)} ${style.dim(`· ${decision.on}`)}  `
      const why = decision.why !== undefined ? `: ${shorten(decision.why)}` : ""
      const used = Ansi.width(head) + look.word.length
      return terminal.line(head + look.paint(look.word) + wrapText(why, 6, used))
    }

    const flush = (toolUseId: string) =>
      Effect.suspend(() => {
        const waiting = held.get(toolUseId) ?? []
        held.delete(toolUseId)
        return Effect.forEach(waiting, printDecision, { discard: true })
      })

    const printText = (text: string) =>
      terminal.line(`${gutter("claude ›", (s) => style.bold(style.magenta(s)), 9)}${wrapText(text.trim(), 9)}`)

    const printToolUse = (block: { readonly id: string; readonly name: string; readonly input: unknown }) =>
      Effect.gen(function*() {
        toolCalls.push({ id: block.id, name: block.name, input: block.input })
        const label = toolLabel(block.name)
        const description = Ansi.truncate(
          shorten(describeInput(block.name, block.input)).split("\n")[0] ?? "",
          width - 12
        )
        yield* terminal.line(`${gutter("⏺ " + label, (s) => style.bold(style.cyan(s)), 9)}${description}`)
        printedTools.add(block.id)
        yield* flush(block.id)
        yield* terminal.status(`running ${label}`)
      })

    const printToolResult = (
      block: { readonly tool_use_id: string; readonly content?: unknown; readonly is_error?: boolean | undefined }
    ) => {
      const text = shorten(resultText(block.content)).trim()
      toolResults.set(block.tool_use_id, { text, isError: block.is_error === true })
      const lines = text.split("\n")
      const first = Ansi.truncate(lines[0] ?? "", width - 8)
      const more = lines.length > 1 ? style.dim(`  (+${lines.length - 1} lines)`) : ""
      const paint = block.is_error === true ? style.red : style.gray
      return terminal.line(`   ${paint("⎿")} ${paint(first)}${more}`)
    }

    // Streamed text is word-wrapped as it arrives: a word is written once it is complete.
    const textIndent = 9
    let column = 0
    let partialWord = ""
    let spaceOwed = false
    const emit = (token: string, out: Array<string>) => {
      if (token.length === 0) return
      if (/^\s+$/.test(token)) {
        const breaks = token.split("\n").length - 1
        for (let i = 0; i < breaks; i++) out.push("\n" + " ".repeat(textIndent))
        if (breaks > 0) column = textIndent
        spaceOwed = breaks === 0 && column > textIndent
        return
      }
      if (column > textIndent && column + (spaceOwed ? 1 : 0) + Ansi.width(token) > width) {
        out.push("\n" + " ".repeat(textIndent))
        column = textIndent
        spaceOwed = false
      }
      if (spaceOwed) {
        out.push(" ")
        column++
      }
      out.push(token)
      column += Ansi.width(token)
      spaceOwed = false
    }
    const streamText = (delta: string) =>
      Effect.suspend(() => {
        const tokens = (partialWord + delta).split(/(\s+)/)
        const last = tokens[tokens.length - 1] ?? ""
        partialWord = last.length > 0 && !/^\s+$/.test(last) ? tokens.pop()! : ""
        const out: Array<string> = []
        for (const token of tokens) emit(token, out)
        return terminal.write(out.join(""))
      })

    const onStreamEvent = (message: Protocol.StreamEvent) =>
      Effect.gen(function*() {
        const event = message.event as Record<string, any>
        if (message.parent_tool_use_id !== null) return
        switch (event.type) {
          case "message_start":
            currentApiMessage = str(event.message?.id)
            return
          case "content_block_start":
            if (event.content_block?.type === "text" && currentApiMessage !== undefined) {
              streamed.set(currentApiMessage, (streamed.get(currentApiMessage) ?? 0) + 1)
              streaming = true
              yield* opening(currentApiMessage)
              yield* terminal.write(gutter("claude ›", (s) => style.bold(style.magenta(s)), textIndent))
              column = textIndent
              partialWord = ""
              spaceOwed = false
            }
            return
          case "content_block_delta":
            if (streaming && event.delta?.type === "text_delta") yield* streamText(String(event.delta.text ?? ""))
            return
          case "content_block_stop":
            if (streaming) {
              streaming = false
              const out: Array<string> = []
              emit(partialWord, out)
              partialWord = ""
              yield* terminal.write(out.join(""))
              yield* terminal.line()
            }
            return
        }
      })

    const message = (message: Protocol.Message): Effect.Effect<void> =>
      Effect.gen(function*() {
        if (Protocol.isSystemMessage(message, "init")) {
          cliVersion = message.claude_code_version
          model = message.model
          if (sessionId === undefined) {
            sessionId = message.session_id
            yield* terminal.line()
            yield* terminal.line(style.dim(
              `◆ session ${message.session_id.slice(0, 8)} · ${message.model} · ${message.tools.length} tools · ` +
                `CLI ${message.claude_code_version}`
            ))
          }
          yield* terminal.status("Claude is thinking")
          return
        }
        switch (message.type) {
          case "stream_event":
            return yield* onStreamEvent(message as Protocol.StreamEvent)
          case "assistant": {
            const assistant = message as Protocol.AssistantMessage
            if (assistant.parent_tool_use_id !== null) return
            yield* opening(assistant.message.id)
            for (const block of assistant.message.content) {
              if (block.type === "text") {
                const text = (block as Protocol.TextBlock).text
                assistantTexts.push(text)
                const already = streamed.get(assistant.message.id) ?? 0
                if (already > 0) streamed.set(assistant.message.id, already - 1)
                else yield* printText(text)
              } else if (block.type === "thinking") {
                // Models may send their thinking summarized, or not at all (an empty block).
                const thinking = (block as Protocol.ThinkingBlock).thinking.trim().split("\n")[0] ?? ""
                yield* terminal.line(style.dim(style.italic(`✻ ${Ansi.truncate(thinking || "(thinking)", width - 4)}`)))
              } else if (block.type === "tool_use") {
                yield* printToolUse(block as Protocol.ToolUseBlock)
              }
            }
            return
          }
          case "user": {
            const user = message as Protocol.UserMessage
            if (user.parent_tool_use_id !== null || user.isSynthetic === true) return
            const content = user.message.content
            if (typeof content === "string") {
              if (content.startsWith("[Request interrupted")) yield* terminal.line(style.yellow(`   ${content}`))
              return
            }
            let results = 0
            for (const block of content) {
              if (block.type === "tool_result") {
                results++
                yield* printToolResult(block as Protocol.ToolResultBlock)
              } else if (block.type === "text") {
                const text = (block as Protocol.TextBlock).text
                if (text.startsWith("[Request interrupted")) yield* terminal.line(style.yellow(`   ${text}`))
              }
            }
            if (results > 0) yield* terminal.status("Claude is thinking")
            return
          }
          case "system": {
            if (Protocol.isSystemMessage(message, "informational")) {
              yield* terminal.line(style.dim(`   ℹ ${shorten(message.content)}`))
            } else if (Protocol.isSystemMessage(message, "api_retry")) {
              yield* terminal.line(style.yellow(
                `   ↻ API retry ${message.attempt}/${message.max_retries} (${String(message.error)})`
              ))
            }
            return
          }
          case "result": {
            result = message as Protocol.ResultMessage
            yield* terminal.status(undefined)
            return
          }
        }
      })

    const decision = (decision: Decision): Effect.Effect<void> =>
      Effect.suspend(() => {
        decisions.push(decision)
        const id = decision.toolUseId
        if (id === undefined || printedTools.has(id)) return printDecision(decision)
        // The hook answered before its tool call was printed: show it under the call, or after a moment.
        held.set(id, [...(held.get(id) ?? []), decision])
        return Effect.asVoid(Effect.forkIn(Effect.delay(flush(id), `${HOLD_MILLIS} millis`), scope))
      })

    // Whatever is still held when the run ends is printed then.
    yield* Effect.addFinalizer(() => Effect.forEach(Array.from(held.keys()), flush, { discard: true }))

    return Transcript.of({
      message,
      decision,
      note: (text) => terminal.line(text),
      shorten,
      stats: Effect.sync(() => ({
        sessionId,
        model,
        cliVersion,
        toolCalls,
        toolResults,
        decisions,
        assistantTexts,
        result
      }))
    })
  })

export const layer = (folders: Folders): Layer.Layer<Transcript, never, Terminal> =>
  Layer.effect(Transcript, make(folders))
