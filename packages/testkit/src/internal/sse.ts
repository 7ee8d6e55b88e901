/**
 * Renders a scripted turn as a Messages API response: the SSE event sequence
 * of a streaming request, or the message JSON of a non-streaming one.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import type * as ScriptedModel from "../ScriptedModel.js"

/** @internal */
export interface MessageInfo {
  readonly id: string
  readonly model: string
  readonly inputTokens: number
}

/** One SSE event and the pause before it. @internal */
export interface PacedEvent {
  readonly delay: Duration.Duration | undefined
  readonly event: string
  readonly data: object
}

const DEFAULT_CHUNK_SIZE = 4

/** Splits by code points so that a delta never ends inside a surrogate pair. @internal */
export const chunks = (value: string, size: number): Array<string> => {
  const points = Array.from(value)
  const out: Array<string> = []
  const step = Math.max(1, Math.floor(size))
  for (let i = 0; i < points.length; i += step) out.push(points.slice(i, i + step).join(""))
  return out
}

/** A rough token count, enough for the CLI's cost and context bookkeeping. @internal */
export const estimateTokens = (value: string): number => Math.max(1, Math.ceil(value.length / 4))

/** The `stop_reason` of a turn: explicit, or derived from its blocks. @internal */
export const stopReasonOf = (turn: ScriptedModel.Turn): string =>
  turn.stopReason ?? (turn.blocks.some((block) => block._tag === "ToolUse") ? "tool_use" : "end_turn")

const toolInputJson = (input: unknown): string => JSON.stringify(input ?? {})

const outputTokens = (turn: ScriptedModel.Turn): number =>
  estimateTokens(
    turn.blocks.map((block) =>
      block._tag === "Text" ? block.text : block._tag === "Thinking" ? block.thinking : toolInputJson(block.input)
    ).join("")
  )

const usage = (info: MessageInfo, output: number) => ({
  input_tokens: info.inputTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: output
})

/** The content of the message JSON (tool ids must already be filled in). @internal */
export const contentOf = (turn: ScriptedModel.Turn): Array<object> =>
  turn.blocks.map((block) => {
    switch (block._tag) {
      case "Text":
        return { type: "text", text: block.text }
      case "Thinking":
        return { type: "thinking", thinking: block.thinking, signature: block.signature }
      case "ToolUse":
        return { type: "tool_use", id: block.id, name: block.name, input: block.input ?? {} }
    }
  })

/** The body of a non-streaming response. @internal */
export const messageJson = (turn: ScriptedModel.Turn, info: MessageInfo): object => ({
  id: info.id,
  type: "message",
  role: "assistant",
  model: info.model,
  content: contentOf(turn),
  stop_reason: stopReasonOf(turn),
  stop_sequence: null,
  usage: usage(info, outputTokens(turn))
})

/** The SSE events of a streaming response, each with the pause before it. @internal */
export const turnEvents = (turn: ScriptedModel.Turn, info: MessageInfo): Array<PacedEvent> => {
  const events: Array<PacedEvent> = []
  const now = (event: string, data: object) => events.push({ delay: undefined, event, data })

  now("message_start", {
    type: "message_start",
    message: {
      id: info.id,
      type: "message",
      role: "assistant",
      model: info.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(info, 1)
    }
  })

  turn.blocks.forEach((block, index) => {
    const pacing = block.pacing ?? turn.pacing
    const delay = pacing === undefined ? undefined : Duration.fromInputUnsafe(pacing.delay)
    // Unpaced blocks go out in one delta: the CLI does not care how a value is split.
    const split = (value: string) =>
      pacing === undefined ? (value.length === 0 ? [] : [value]) : chunks(value, pacing.chunkSize ?? DEFAULT_CHUNK_SIZE)
    const delta = (payload: object) =>
      events.push({ delay, event: "content_block_delta", data: { type: "content_block_delta", index, delta: payload } })

    switch (block._tag) {
      case "Text": {
        now("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } })
        for (const part of split(block.text)) delta({ type: "text_delta", text: part })
        break
      }
      case "Thinking": {
        now("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "thinking", thinking: "", signature: "" }
        })
        for (const part of split(block.thinking)) delta({ type: "thinking_delta", thinking: part })
        delta({ type: "signature_delta", signature: block.signature })
        break
      }
      case "ToolUse": {
        now("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} }
        })
        for (const part of split(toolInputJson(block.input))) delta({ type: "input_json_delta", partial_json: part })
        break
      }
    }
    now("content_block_stop", { type: "content_block_stop", index })
  })

  now("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReasonOf(turn), stop_sequence: null },
    usage: { output_tokens: outputTokens(turn) }
  })
  now("message_stop", { type: "message_stop" })
  return events
}

/** @internal */
export const encodeEvent = (event: PacedEvent): string =>
  `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`
