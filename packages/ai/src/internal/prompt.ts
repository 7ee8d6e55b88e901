/**
 * An `effect/ai` `Prompt` as the CLI takes it: a system prompt when the
 * session starts, and user turns made of content blocks (text, images,
 * documents). The CLI accepts no assistant message on its input, so earlier
 * turns of a one-shot prompt are given as a transcript at the head of the
 * user turn; everything else that cannot map is an `UnsupportedInputError`.
 *
 * @internal
 */
import type { Protocol } from "@claude-effect/sdk"
import type * as Prompt from "effect/ai/Prompt"
import * as Effect from "effect/Effect"
import * as Base64 from "effect/encoding/Base64"
import { UnsupportedInputError } from "./aiError.js"

/** What one call sends: the system prompt (when the session starts) and the user turn. @internal */
export interface TurnInput {
  readonly system: string | undefined
  readonly content: ReadonlyArray<Protocol.ContentBlockInput>
}

const path = (index: number, part?: number): string =>
  `prompt.content[${index}]` + (part !== undefined ? `.content[${part}]` : "")

const imageTypes: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"])

const base64 = (data: string | Uint8Array): string => typeof data === "string" ? data : Base64.encode(data)

const utf8 = (data: string | Uint8Array): string => typeof data === "string" ? data : new TextDecoder().decode(data)

/**
 * A file as the Messages API takes it: an image (JPEG, PNG, GIF, WebP) or a
 * PDF, inline (base64) or by URL; plain text, inline. Anything else fails.
 */
const fileBlock = (
  part: Prompt.FilePart,
  at: string
): Effect.Effect<Protocol.ContentBlockInput, UnsupportedInputError> => {
  const mediaType = part.mediaType === "image/*" ? "image/jpeg" : part.mediaType
  const url = part.data instanceof URL ? part.data : undefined
  if (url !== undefined && url.protocol !== "https:" && url.protocol !== "http:") {
    return Effect.fail(
      new UnsupportedInputError({
        reason: "FileType",
        path: at,
        detail: `the file ${part.fileName ?? url.href} is a ${url.protocol} URL; the Messages API fetches http(s) ` +
          `URLs only: pass the bytes instead`
      })
    )
  }
  const inline = url === undefined ? (part.data as string | Uint8Array) : undefined
  const title = part.fileName !== undefined ? { title: part.fileName } : {}
  if (imageTypes.has(mediaType)) {
    return Effect.succeed({
      type: "image",
      source: inline === undefined
        ? { type: "url", url: url!.href }
        : { type: "base64", media_type: mediaType, data: base64(inline) }
    })
  }
  if (mediaType === "application/pdf") {
    return Effect.succeed({
      type: "document",
      source: inline === undefined
        ? { type: "url", url: url!.href }
        : { type: "base64", media_type: mediaType, data: base64(inline) },
      ...title
    })
  }
  if (mediaType === "text/plain" && inline !== undefined) {
    return Effect.succeed({
      type: "document",
      source: { type: "text", media_type: "text/plain", data: utf8(inline) },
      ...title
    })
  }
  return Effect.fail(
    new UnsupportedInputError({
      reason: "FileType",
      path: at,
      detail:
        `the file ${part.fileName ?? ""}${part.fileName !== undefined ? " " : ""}is ${mediaType}${
          url !== undefined ? " by URL" : ""
        }; Claude Code takes images (JPEG, PNG, GIF, WebP), PDFs and inline plain text: convert it, or pass its ` +
        `text as a text part`
    })
  )
}

const json = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? "null"
  } catch {
    return String(value)
  }
}

const attribute = (value: string): string => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;")

/** The blocks of one earlier message in the transcript: its text, and its files in place. */
const historyBlocks = (
  message: Exclude<Prompt.Message, Prompt.SystemMessage>,
  index: number
): Effect.Effect<Array<Protocol.ContentBlockInput>, UnsupportedInputError> =>
  Effect.gen(function*() {
    const blocks: Array<Protocol.ContentBlockInput> = []
    let text = `<${message.role}>\n`
    const flush = () => {
      if (text.length > 0) blocks.push({ type: "text", text })
      text = ""
    }
    for (let i = 0; i < message.content.length; i++) {
      const part = message.content[i]
      switch (part.type) {
        case "text":
          text += `${part.text}\n`
          break
        case "reasoning":
          text += `<reasoning>${part.text}</reasoning>\n`
          break
        case "tool-call":
          text += `<tool_call id="${attribute(part.id)}" name="${attribute(part.name)}">${
            json(part.params)
          }</tool_call>\n`
          break
        case "tool-result":
          text += `<tool_result id="${attribute(part.id)}" name="${attribute(part.name)}"${
            part.isFailure ? ` is_error="true"` : ""
          }>${json(part.result)}</tool_result>\n`
          break
        case "tool-approval-request":
          text += `<tool_approval_request id="${attribute(part.approvalId)}" tool_call_id="${
            attribute(part.toolCallId)
          }"/>\n`
          break
        case "tool-approval-response":
          text += `<tool_approval_response id="${attribute(part.approvalId)}" approved="${part.approved}"${
            part.reason !== undefined ? ` reason="${attribute(part.reason)}"` : ""
          }/>\n`
          break
        case "file":
          text += `<file${part.fileName !== undefined ? ` name="${attribute(part.fileName)}"` : ""} type="${
            attribute(part.mediaType)
          }">\n`
          flush()
          blocks.push(yield* fileBlock(part, path(index, i)))
          text = "</file>\n"
          break
      }
    }
    text += `</${message.role}>\n`
    flush()
    return blocks
  })

/** The blocks of the user messages that make the turn. */
const userBlocks = (
  messages: ReadonlyArray<Prompt.UserMessage>,
  offset: number
): Effect.Effect<Array<Protocol.ContentBlockInput>, UnsupportedInputError> =>
  Effect.gen(function*() {
    const blocks: Array<Protocol.ContentBlockInput> = []
    for (let m = 0; m < messages.length; m++) {
      const content = messages[m].content
      for (let i = 0; i < content.length; i++) {
        const part = content[i]
        blocks.push(
          part.type === "text" ? { type: "text", text: part.text } : yield* fileBlock(part, path(offset + m, i))
        )
      }
    }
    return blocks
  })

/**
 * The input of a call that starts a session (a one-shot call, or a chat's
 * first turn): the leading system messages are the system prompt; the user
 * messages at the end are the turn; anything between is earlier conversation,
 * given as a transcript at the head of the turn.
 *
 * @internal
 */
export const fresh = (prompt: Prompt.Prompt): Effect.Effect<TurnInput, UnsupportedInputError> =>
  Effect.gen(function*() {
    const messages = prompt.content
    let start = 0
    const system: Array<string> = []
    while (start < messages.length && messages[start].role === "system") {
      system.push((messages[start] as Prompt.SystemMessage).content)
      start++
    }
    return {
      system: system.length > 0 ? system.join("\n\n") : undefined,
      content: yield* conversation(messages, start)
    }
  })

/**
 * The input of a later turn of a session that already holds the messages
 * before `held`: only user messages may follow.
 *
 * @internal
 */
export const continued = (
  prompt: Prompt.Prompt,
  held: number
): Effect.Effect<ReadonlyArray<Protocol.ContentBlockInput>, UnsupportedInputError> =>
  Effect.gen(function*() {
    const messages = prompt.content
    if (messages.length <= held) {
      return yield* new UnsupportedInputError({
        reason: messages.length < held ? "HistoryChanged" : "EmptyPrompt",
        path: "prompt",
        detail: messages.length < held
          ? `the chat's history has ${messages.length} messages, fewer than the ${held} its session holds: a ` +
            `Claude Code session cannot forget turns; start a new chat`
          : "no new message: add a user message to the chat"
      })
    }
    for (let i = held; i < messages.length; i++) {
      const message = messages[i]
      if (message.role !== "user") {
        return yield* new UnsupportedInputError({
          reason: message.role === "system" ? "SystemMessagePosition" : "HistoryChanged",
          path: path(i),
          detail: message.role === "system"
            ? "a system message in the middle of a chat: the session's system prompt was set at its first turn"
            : `a ${message.role} message added to the chat: a turn of a chat sends user messages only (the ` +
              `session produced the assistant's turns)`
        })
      }
    }
    return yield* userBlocks(messages.slice(held) as ReadonlyArray<Prompt.UserMessage>, held)
  })

const conversation = (
  messages: ReadonlyArray<Prompt.Message>,
  start: number
): Effect.Effect<ReadonlyArray<Protocol.ContentBlockInput>, UnsupportedInputError> =>
  Effect.gen(function*() {
    if (start === messages.length) {
      return yield* new UnsupportedInputError({
        reason: "EmptyPrompt",
        path: "prompt",
        detail: "the prompt has no user message: give the model something to answer"
      })
    }
    for (let i = start; i < messages.length; i++) {
      if (messages[i].role === "system") {
        return yield* new UnsupportedInputError({
          reason: "SystemMessagePosition",
          path: path(i),
          detail: "a system message after the conversation started: the CLI takes its system prompt when it " +
            "starts; put every system message first"
        })
      }
    }
    const last = messages[messages.length - 1]
    if (last.role !== "user") {
      return yield* new UnsupportedInputError({
        reason: "LastMessage",
        path: path(messages.length - 1),
        detail: `the prompt ends with a ${last.role} message: Claude Code answers a user turn (it cannot continue ` +
          `an assistant message or take a tool result of yours); end the prompt with a user message`
      })
    }
    let turnStart = messages.length
    while (turnStart > start && messages[turnStart - 1].role === "user") turnStart--
    const turn = yield* userBlocks(messages.slice(turnStart) as ReadonlyArray<Prompt.UserMessage>, turnStart)
    if (turnStart === start) return turn
    const history: Array<Protocol.ContentBlockInput> = [{
      type: "text",
      text: "The conversation so far (earlier turns, oldest first):\n<conversation>\n"
    }]
    for (let i = start; i < turnStart; i++) {
      history.push(...yield* historyBlocks(messages[i] as Exclude<Prompt.Message, Prompt.SystemMessage>, i))
    }
    history.push({ type: "text", text: "</conversation>\nThe user's new message follows." })
    return [...history, ...turn]
  })
