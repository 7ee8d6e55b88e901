/**
 * The CLI's messages as `effect/ai` response parts (encoded): text and
 * reasoning, the agent's tool calls and their results, response metadata
 * and the finish part with usage, cost and session id.
 *
 * Tool activity: a call of a tool of the request's toolkit (an app tool
 * served over MCP, or a provider-defined `ClaudeCodeTool`) becomes a
 * `tool-call` part and its result a `tool-result` part, both
 * `providerExecuted` (the agent ran them; `LanguageModel` must not run them
 * again). Every call, of any tool, is also listed in the finish part's
 * metadata (`claudeCode.toolCalls`), so that none is lost: the calls of
 * built-in tools that are not in the toolkit, of subagents, and results a
 * tool's Schemas cannot carry (a call denied before its handler ran) are
 * there.
 *
 * @internal
 */
import { Protocol } from "@claude-effect/sdk"
import type * as Response from "effect/ai/Response"
import * as AiTool from "effect/ai/Tool"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { Mutable } from "effect/Types"
import type { Outcome } from "./tools.js"

/** The key of this provider's metadata on response parts. @internal */
export const metadataKey = "claudeCode"

/** One tool call of the turn, as the finish metadata lists it. @internal */
export const ToolCallRecord = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  input: Schema.Unknown,
  /** Set for the calls of a subagent: the id of the `Agent` call it runs under. */
  parentToolUseId: Schema.optional(Schema.String),
  /** The text of the result the model got. */
  result: Schema.optional(Schema.String),
  isError: Schema.optional(Schema.Boolean)
})

/** @internal */
export type ToolCallRecord = typeof ToolCallRecord.Type

/** The metadata of a `finish` part. @internal */
export const ProviderMetadata = Schema.Struct({
  sessionId: Schema.optional(Schema.String),
  pid: Schema.Number,
  costUsd: Schema.optional(Schema.Number),
  durationMs: Schema.optional(Schema.Number),
  durationApiMs: Schema.optional(Schema.Number),
  numTurns: Schema.optional(Schema.Number),
  stopReason: Schema.optional(Schema.NullOr(Schema.String)),
  terminalReason: Schema.optional(Schema.String),
  permissionDenials: Schema.optional(Schema.Array(Schema.Unknown)),
  modelUsage: Schema.optional(Schema.Unknown),
  toolCalls: Schema.Array(ToolCallRecord),
  text: Schema.optional(Schema.Array(Schema.String))
})

/** @internal */
export type ProviderMetadata = typeof ProviderMetadata.Type

const decodeProviderMetadata = Schema.decodeUnknownOption(ProviderMetadata)

/** Provider metadata is JSON: fields left undefined are dropped, as JSON drops them. */
const jsonOf = (value: { readonly [key: string]: unknown }): Schema.Json => JSON.parse(JSON.stringify(value))

/** The provider metadata of a response's finish part, when it is one of ours. @internal */
export const getProviderMetadata = (
  response: ReadonlyArray<Response.AnyPart> | { readonly content: ReadonlyArray<Response.AnyPart> }
): ProviderMetadata | undefined => {
  const parts: ReadonlyArray<Response.AnyPart> = "content" in response ? response.content : response
  const finish = parts.find((part) => part.type === "finish")
  return finish === undefined ? undefined : Option.getOrUndefined(decodeProviderMetadata(finish.metadata[metadataKey]))
}

/** @internal */
export interface TranslatorOptions {
  /** `generate`: whole parts; `stream`: start/delta/end parts as they come. */
  readonly mode: "generate" | "stream"
  /** Partial messages are on: text and reasoning come from `stream_event` deltas (stream mode only). */
  readonly partial: boolean
  /** The answer is structured output: text goes to the metadata, the answer is the result's value. */
  readonly json: boolean
  /** The tools of the request by the name the CLI calls them. */
  readonly tools: ReadonlyMap<string, AiTool.Any>
  /** The outcomes the app's tool handlers recorded, by tool use id. */
  readonly outcomes: ReadonlyMap<string, Outcome>
  readonly pid: number
  readonly structuredOutputTool: string
}

type Part = Response.StreamPartEncoded | Response.PartEncoded

/** The fields of the API stream events read here; the rest stays as the CLI sent it. */
const StreamEventFields = Schema.Struct({
  type: Schema.String,
  index: Schema.optional(Schema.Number),
  content_block: Schema.optional(Schema.Struct({ type: Schema.String })),
  delta: Schema.optional(Schema.Struct({
    type: Schema.String,
    text: Schema.optional(Schema.String),
    thinking: Schema.optional(Schema.String)
  }))
})
const decodeStreamEvent = Schema.decodeUnknownResult(StreamEventFields)

const ResultFields = Schema.Struct({
  session_id: Schema.optional(Schema.String),
  stop_reason: Schema.optional(Schema.NullOr(Schema.String)),
  terminal_reason: Schema.optional(Schema.String),
  total_cost_usd: Schema.optional(Schema.Number),
  duration_ms: Schema.optional(Schema.Number),
  duration_api_ms: Schema.optional(Schema.Number),
  num_turns: Schema.optional(Schema.Number),
  permission_denials: Schema.optional(Schema.Array(Schema.Unknown)),
  modelUsage: Schema.optional(Schema.Unknown),
  usage: Schema.optional(Schema.Struct({
    input_tokens: Schema.optional(Schema.Number),
    output_tokens: Schema.optional(Schema.Number),
    cache_read_input_tokens: Schema.optional(Schema.NullOr(Schema.Number)),
    cache_creation_input_tokens: Schema.optional(Schema.NullOr(Schema.Number)),
    output_tokens_details: Schema.optional(Schema.Struct({ thinking_tokens: Schema.optional(Schema.Number) }))
  }))
})
const decodeResult = Schema.decodeUnknownResult(ResultFields)

const decodes = (schema: Schema.Top, value: unknown): boolean =>
  Result.isSuccess(Schema.decodeUnknownResult(schema as Schema.Top as Schema.Codec<unknown, unknown>)(value))

/**
 * The Schema `LanguageModel` decodes a tool's result with (Response's tool
 * parts): the provider's payload for the CLI's tools, the JSON encoding of
 * the handler's result for the app's.
 */
const resultSchema = (tool: AiTool.Any): Schema.Top => {
  const failure = AiTool.failureResultSchema(tool)
  return AiTool.isProviderDefined(tool)
    ? Schema.Union([tool.successSchema, failure])
    : Schema.Union([Schema.toCodecJson(tool.successSchema), Schema.toCodecJson(failure)])
}

const textOf = (content: unknown): string => {
  if (typeof content === "string") return content
  if (!Array.isArray(content)) return content === undefined ? "" : JSON.stringify(content)
  return content.flatMap((block: unknown) =>
    typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text"
      ? [String((block as { text?: unknown }).text ?? "")]
      : []
  ).join("\n")
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** The finish reason of a turn from the CLI's `stop_reason` (of its last API response). @internal */
export const finishReason = (stopReason: string | null | undefined): Response.FinishReason => {
  switch (stopReason) {
    case "end_turn":
    case "stop_sequence":
      return "stop"
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length"
    case "tool_use":
    case "tool_deferred":
      return "tool-calls"
    case "refusal":
      return "content-filter"
    case "pause_turn":
      return "pause"
    case null:
      return "other"
    default:
      return "unknown"
  }
}

/** @internal */
export interface Translator {
  /** The parts of one message (none for a `result`: see {@link Translator.finish}). */
  readonly push: (message: Protocol.Message) => ReadonlyArray<Part>
  /** Closes what a cut-off stream left open, and the finish part of the result. */
  readonly finish: (result: Protocol.ResultMessage) => ReadonlyArray<Part>
  /**
   * Whether a part was produced that makes an assistant message of the
   * chat's history (`Prompt.fromResponseParts`: whole text and reasoning,
   * ended deltas, tool calls and results).
   */
  readonly producedContent: () => boolean
}

/** @internal */
export const make = (options: TranslatorOptions): Translator => {
  const calls: Array<Mutable<ToolCallRecord>> = []
  const callsById = new Map<string, Mutable<ToolCallRecord>>()
  const represented = new Map<string, AiTool.Any>()
  const prose: Array<string> = []
  const open = new Map<string, "text" | "reasoning">()
  let blockCounter = 0
  let started = false
  let produced = false
  const streaming = options.mode === "stream"

  const textParts = (id: string, kind: "text" | "reasoning", text: string, signature?: string): Array<Part> => {
    produced = true
    const metadata = signature !== undefined ? { metadata: { [metadataKey]: jsonOf({ signature }) } } : {}
    if (!streaming) return [kind === "text" ? { type: "text", text } : { type: "reasoning", text, ...metadata }]
    return kind === "text"
      ? [{ type: "text-start", id }, { type: "text-delta", id, delta: text }, { type: "text-end", id }]
      : [
        { type: "reasoning-start", id },
        { type: "reasoning-delta", id, delta: text },
        { type: "reasoning-end", id, ...metadata }
      ]
  }

  const streamEvent = (message: Protocol.StreamEvent): Array<Part> => {
    if (!streaming || !options.partial || message.parent_tool_use_id !== null || options.json) return []
    const decoded = decodeStreamEvent(message.event)
    if (Result.isFailure(decoded)) return []
    const event = decoded.success
    const key = `${message.api_message_id ?? "message"}:${event.index ?? 0}`
    switch (event.type) {
      case "content_block_start": {
        const kind = event.content_block?.type === "text"
          ? "text"
          : event.content_block?.type === "thinking"
          ? "reasoning"
          : undefined
        if (kind === undefined) return []
        open.set(key, kind)
        return [{ type: kind === "text" ? "text-start" : "reasoning-start", id: key }]
      }
      case "content_block_delta": {
        const kind = open.get(key)
        if (kind === "text" && event.delta?.type === "text_delta" && event.delta.text !== undefined) {
          // An unended text block is kept by the chat's history (`Prompt.fromResponseParts`).
          if (event.delta.text.length > 0) produced = true
          return [{ type: "text-delta", id: key, delta: event.delta.text }]
        }
        if (kind === "reasoning" && event.delta?.type === "thinking_delta" && event.delta.thinking !== undefined) {
          return [{ type: "reasoning-delta", id: key, delta: event.delta.thinking }]
        }
        return []
      }
      case "content_block_stop": {
        const kind = open.get(key)
        if (kind === undefined) return []
        open.delete(key)
        produced = true
        return [{ type: kind === "text" ? "text-end" : "reasoning-end", id: key }]
      }
      default:
        return []
    }
  }

  const toolCall = (block: Protocol.ToolUseBlock, parent: string | null): Array<Part> => {
    if (options.json && block.name === options.structuredOutputTool) return []
    const record: Mutable<ToolCallRecord> = {
      id: block.id,
      name: block.name,
      input: block.input,
      ...(parent !== null ? { parentToolUseId: parent } : {})
    }
    calls.push(record)
    callsById.set(block.id, record)
    const tool = parent === null ? options.tools.get(block.name) : undefined
    if (tool === undefined || !decodes(tool.parametersSchema, block.input)) return []
    represented.set(block.id, tool)
    produced = true
    return [{
      type: "tool-call",
      id: block.id,
      name: tool.name,
      params: block.input,
      providerExecuted: true,
      metadata: { [metadataKey]: jsonOf({ toolName: block.name }) }
    }]
  }

  const toolResult = (
    block: { readonly tool_use_id: string; readonly content?: unknown; readonly is_error?: boolean | undefined },
    structured: unknown
  ): Array<Part> => {
    const record = callsById.get(block.tool_use_id)
    if (record === undefined) return []
    const text = textOf(block.content)
    const isError = block.is_error === true
    record.result = text
    record.isError = isError
    const tool = represented.get(block.tool_use_id)
    if (tool === undefined) return []
    const outcome = options.outcomes.get(block.tool_use_id)
    // The handler's own outcome; otherwise what the CLI reported (a call denied before it ran, a built-in tool).
    const isFailure = outcome?.isFailure ?? isError
    const result = outcome !== undefined
      ? outcome.encodedResult
      : isError
      ? text
      : AiTool.isProviderDefined(tool)
      ? (structured ?? text)
      : parseJson(text)
    if (!decodes(resultSchema(tool), result)) return []
    produced = true
    return [{
      type: "tool-result",
      id: block.tool_use_id,
      name: tool.name,
      result,
      isFailure,
      providerExecuted: true,
      metadata: { [metadataKey]: jsonOf({ toolName: record.name }) }
    }]
  }

  const assistant = (message: Protocol.AssistantMessage): Array<Part> => {
    if (message.is_api_error_message === true) return []
    const parts: Array<Part> = []
    const parent = message.parent_tool_use_id
    for (const block of message.message.content) {
      switch (block.type) {
        case "text": {
          if (parent !== null) break
          const text = (block as Protocol.TextBlock).text
          if (options.json) prose.push(text)
          else if (!(streaming && options.partial)) {
            parts.push(...textParts(`${message.message.id}:${blockCounter++}`, "text", text))
          }
          break
        }
        case "thinking": {
          if (parent !== null || options.json || (streaming && options.partial)) break
          const thinking = block as Protocol.ThinkingBlock
          parts.push(
            ...textParts(`${message.message.id}:${blockCounter++}`, "reasoning", thinking.thinking, thinking.signature)
          )
          break
        }
        case "tool_use":
          parts.push(...toolCall(block as Protocol.ToolUseBlock, parent))
          break
      }
    }
    return parts
  }

  const user = (message: Protocol.UserMessage): Array<Part> => {
    const content = message.message.content
    if (typeof content === "string") return []
    const results = content.filter((block): block is Protocol.ToolResultBlock => block.type === "tool_result")
    const structured = results.length === 1 ? message.tool_use_result : undefined
    return results.flatMap((block) => toolResult(block, structured))
  }

  return {
    push: (message) => {
      if (Protocol.isSystemMessage(message, "init")) {
        if (started) return []
        started = true
        return [{
          type: "response-metadata",
          id: message.session_id,
          modelId: message.model,
          timestamp: new Date().toISOString(),
          metadata: {
            [metadataKey]: jsonOf({
              sessionId: message.session_id,
              pid: options.pid,
              cwd: message.cwd,
              permissionMode: message.permissionMode,
              claudeCodeVersion: message.claude_code_version
            })
          }
        }]
      }
      if (Protocol.isStreamEvent(message)) return streamEvent(message)
      if (Protocol.isAssistantMessage(message)) return assistant(message)
      if (Protocol.isUserMessage(message)) return user(message)
      return []
    },
    finish: (result) => {
      const closing: Array<Part> = []
      for (const [id, kind] of open) closing.push({ type: kind === "text" ? "text-end" : "reasoning-end", id })
      if (open.size > 0) produced = true
      open.clear()
      const fields = Result.getOrElse(decodeResult(result), (): typeof ResultFields.Type => ({}))
      const usage = fields.usage
      const uncached = usage?.input_tokens
      const cacheRead = usage?.cache_read_input_tokens ?? undefined
      const cacheWrite = usage?.cache_creation_input_tokens ?? undefined
      const output = usage?.output_tokens
      const structured = options.json && Protocol.isResultSuccess(result) && result.structured_output !== undefined
      return [...closing, {
        type: "finish",
        reason: structured ? "stop" : finishReason(fields.stop_reason),
        usage: {
          inputTokens: {
            uncached,
            total: uncached !== undefined ? uncached + (cacheRead ?? 0) + (cacheWrite ?? 0) : undefined,
            cacheRead,
            cacheWrite
          },
          outputTokens: { total: output, reasoning: usage?.output_tokens_details?.thinking_tokens }
        },
        metadata: {
          [metadataKey]: jsonOf({
            sessionId: fields.session_id,
            pid: options.pid,
            costUsd: fields.total_cost_usd,
            durationMs: fields.duration_ms,
            durationApiMs: fields.duration_api_ms,
            numTurns: fields.num_turns,
            stopReason: fields.stop_reason,
            terminalReason: fields.terminal_reason,
            permissionDenials: fields.permission_denials,
            modelUsage: fields.modelUsage,
            toolCalls: calls.map((call) => ({ ...call })),
            ...(options.json ? { text: prose } : {})
          })
        }
      }]
    },
    producedContent: () => produced
  }
}
