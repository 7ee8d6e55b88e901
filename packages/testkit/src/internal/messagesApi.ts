/**
 * Loose Schemas of the Messages API request body, as the CLI sends it.
 *
 * They check only what the scripted model reads and keep every other field:
 * the CLI adds fields with each release (`context_management`,
 * `output_config`, ...) and a test server must never reject them.
 *
 * @internal
 */
import * as Schema from "effect/Schema"

// v4 has no `onExcessProperty: "preserve"`: an index signature beside the declared fields keeps the rest.
const Rest = Schema.Record(Schema.String, Schema.Unknown)

const open = <const F extends Schema.Struct.Fields>(fields: F) => Schema.StructWithRest(Schema.Struct(fields), [Rest])

/** @internal */
export const ContentBlock = open({ type: Schema.String })

/** @internal */
export type ContentBlock = typeof ContentBlock.Type

/** @internal */
export const Content = Schema.Union([Schema.String, Schema.Array(ContentBlock)])

/** @internal */
export const Message = open({
  // The CLI also sends `role: "system"` messages (environment, hook context), so any role is accepted.
  role: Schema.String,
  content: Content
})

/** @internal */
export type Message = typeof Message.Type

/** @internal */
export const Tool = open({ name: Schema.String })

/** @internal */
export const MessagesRequest = open({
  model: Schema.optional(Schema.String),
  messages: Schema.Array(Message),
  system: Schema.optional(Content),
  tools: Schema.optional(Schema.Array(Tool)),
  stream: Schema.optional(Schema.Boolean),
  max_tokens: Schema.optional(Schema.Number),
  thinking: Schema.optional(Schema.Unknown)
})

/** @internal */
export type MessagesRequest = typeof MessagesRequest.Type

/** @internal */
export const MessagesRequestFromJson = Schema.fromJsonString(MessagesRequest)

// --- text extraction ---------------------------------------------------------------------------

const isString = (u: unknown): u is string => typeof u === "string"

/** The text of a content value: string content, `text` blocks, and the text inside `tool_result` blocks. @internal */
export const contentText = (content: typeof Content.Type | unknown): string => {
  if (isString(content)) return content
  if (!Array.isArray(content)) return ""
  const parts: Array<string> = []
  for (const block of content as ReadonlyArray<ContentBlock>) {
    if (block.type === "text" && isString(block.text)) parts.push(block.text)
    else if (block.type === "tool_result") parts.push(contentText(block.content))
  }
  return parts.join("\n")
}

const reminderPattern = /<system-reminder>\n?([\s\S]*?)\n?<\/system-reminder>/g

/** @internal */
export const systemReminders = (text: string): Array<string> =>
  Array.from(text.matchAll(reminderPattern), (match) => match[1]!)
