/**
 * The line codec: one JSON line ↔ one message, in both directions.
 *
 * Decoding is on the hot path (tens of thousands of lines per turn with
 * partial messages). So a line is parsed once with `JSON.parse`, then the
 * `type` (and for `system` / `result` the `subtype`) picks the one member
 * schema to run; its check is compiled once per member, on first use (see
 * `validator.ts`). Nested unions (the request of a `control_request`, the
 * input of a `hook_callback`) are discriminated by literal fields, which the
 * compiled check turns into a direct lookup as well.
 */
import * as Cause from "effect/Cause"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import { ProtocolError } from "../claudeError.js"
import * as IssuePath from "../issuePath.js"
import {
  ControlCancelRequest,
  ControlRequest,
  ControlResponse,
  OutboundControlRequest,
  UpdateEnvironmentVariables
} from "./control.js"
import { fallbackMismatch } from "./json.js"
import {
  ActiveGoalMessage,
  AssistantMessage,
  AuthStatusMessage,
  CommandLifecycleMessage,
  ConversationResetMessage,
  KeepAlive,
  knownStdoutTypes,
  PromptSuggestionMessage,
  RateLimitEvent,
  ResultErrorMessage,
  ResultSuccess,
  StreamEvent,
  SystemMessage,
  systemMessageBySubtype,
  SystemOther,
  ToolProgressMessage,
  ToolUseSummaryMessage,
  UnknownMessage,
  UserInput,
  UserMessage
} from "./messages.js"
import { validatorFor } from "./validator.js"

// -----------------------------------------------------------------------------
// Unions
// -----------------------------------------------------------------------------

/**
 * What a user of the SDK sees in the message stream: every stdout message but
 * the control traffic and keep-alives, unknown types included.
 *
 * @since 0.1.0
 * @category Unions
 */
export const Message = Schema.Union([
  AssistantMessage,
  UserMessage,
  ResultSuccess,
  ResultErrorMessage,
  ...SystemMessage.members,
  StreamEvent,
  ToolProgressMessage,
  ToolUseSummaryMessage,
  AuthStatusMessage,
  RateLimitEvent,
  PromptSuggestionMessage,
  CommandLifecycleMessage,
  ActiveGoalMessage,
  ConversationResetMessage,
  UnknownMessage
])

/**
 * @since 0.1.0
 * @category Unions
 */
export type Message = typeof Message.Type

/**
 * Any line the CLI writes on stdout.
 *
 * @since 0.1.0
 * @category Unions
 */
export const StdoutMessage = Schema.Union([
  Message,
  ControlRequest,
  ControlResponse,
  ControlCancelRequest,
  KeepAlive
])

/**
 * @since 0.1.0
 * @category Unions
 */
export type StdoutMessage = typeof StdoutMessage.Type

/**
 * Any line the SDK writes on stdin. There is no fallback member: the SDK has
 * no business writing a line the CLI does not know, and some bad lines make
 * the CLI exit.
 *
 * @since 0.1.0
 * @category Unions
 */
export const StdinMessage = Schema.Union([
  UserInput,
  OutboundControlRequest,
  ControlResponse,
  ControlCancelRequest,
  KeepAlive,
  UpdateEnvironmentVariables
])

/**
 * @since 0.1.0
 * @category Unions
 */
export type StdinMessage = typeof StdinMessage.Type

const controlTypes: ReadonlySet<string> = new Set([
  "control_request",
  "control_response",
  "control_cancel_request",
  "keep_alive"
])

const knownTypes: ReadonlySet<string> = new Set(knownStdoutTypes)

/**
 * Whether a stdout message belongs to the user-facing stream.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isMessage = (message: StdoutMessage): message is Message => !controlTypes.has(message.type)

/**
 * Whether a stdout message is of a type this SDK does not know. Set these
 * aside before switching on `type`: the fallback's `type` is a string, so a
 * `switch` alone cannot rule it out.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isUnknownMessage = (message: StdoutMessage): message is UnknownMessage => !knownTypes.has(message.type)

/**
 * Whether a message is a `system` message of the given subtype. A decoded
 * message of a known subtype is always that subtype's member (never
 * `SystemOther`), which comparing `subtype` alone cannot tell the type
 * checker.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isSystemMessage = <Subtype extends keyof typeof systemMessageBySubtype>(
  message: StdoutMessage,
  subtype: Subtype
): message is Schema.Schema.Type<typeof systemMessageBySubtype[Subtype]> =>
  message.type === "system" && message.subtype === subtype

/**
 * Whether a message is a `result` of subtype `success` (which still has
 * `is_error: true` when the API failed).
 *
 * @since 0.1.0
 * @category Guards
 */
export const isResultSuccess = (message: StdoutMessage): message is ResultSuccess =>
  message.type === "result" && message.subtype === "success"

/**
 * Whether a message is an `assistant` message. Use the guards rather than
 * comparing `type`: the unknown-message fallback's `type` is any string.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isAssistantMessage = (message: StdoutMessage): message is AssistantMessage => message.type === "assistant"

/**
 * Whether a message is a `user` message (a tool result echo, a synthetic
 * message, a replayed prompt).
 *
 * @since 0.1.0
 * @category Guards
 */
export const isUserMessage = (message: StdoutMessage): message is UserMessage => message.type === "user"

/**
 * Whether a message is a `result`, of any subtype.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isResultMessage = (message: StdoutMessage): message is ResultSuccess | ResultErrorMessage =>
  message.type === "result"

/**
 * Whether a message is a `stream_event` (partial messages).
 *
 * @since 0.1.0
 * @category Guards
 */
export const isStreamEvent = (message: StdoutMessage): message is StreamEvent => message.type === "stream_event"

// -----------------------------------------------------------------------------
// Member lookup
// -----------------------------------------------------------------------------

interface Member {
  readonly check: (input: unknown) => Result.Result<unknown, SchemaIssue.Issue>
}

// Decoding and encoding both check the value in place (see validator.ts) and
// hand back the very object, which keeps every unknown key and the key order.
// The check is built on first use of its member.
const member = (schema: Schema.Top): Member => {
  let check: Member["check"] | undefined
  return { check: (input) => (check ??= validatorFor(schema))(input) }
}

const memberTable = (
  schemas: Record<string, Schema.Top>
): ReadonlyMap<string, Member> => new Map(Object.entries(schemas).map(([key, schema]) => [key, member(schema)]))

const systemMembers = memberTable(systemMessageBySubtype)
const systemOther = member(SystemOther)
const resultSuccess = member(ResultSuccess)
const resultError = member(ResultErrorMessage)
const unknownMessage = member(UnknownMessage)

// `system` and `result` are dispatched on their subtype, below.
const stdoutMembers = memberTable({
  assistant: AssistantMessage,
  user: UserMessage,
  stream_event: StreamEvent,
  tool_progress: ToolProgressMessage,
  tool_use_summary: ToolUseSummaryMessage,
  auth_status: AuthStatusMessage,
  rate_limit_event: RateLimitEvent,
  prompt_suggestion: PromptSuggestionMessage,
  command_lifecycle: CommandLifecycleMessage,
  active_goal: ActiveGoalMessage,
  conversation_reset: ConversationResetMessage,
  keep_alive: KeepAlive,
  control_request: ControlRequest,
  control_response: ControlResponse,
  control_cancel_request: ControlCancelRequest
})

const stdinMembers = memberTable({
  user: UserInput,
  control_request: OutboundControlRequest,
  control_response: ControlResponse,
  control_cancel_request: ControlCancelRequest,
  keep_alive: KeepAlive,
  update_environment_variables: UpdateEnvironmentVariables
})

const stdoutMemberOf = (message: { readonly [key: string]: unknown }, type: string): Member => {
  switch (type) {
    case "system": {
      const subtype = message.subtype
      return (typeof subtype === "string" ? systemMembers.get(subtype) : undefined) ?? systemOther
    }
    case "result":
      return message.subtype === "success" ? resultSuccess : resultError
    default:
      return stdoutMembers.get(type) ?? unknownMessage
  }
}

const stdinMemberOf = (_message: { readonly [key: string]: unknown }, type: string): Member | undefined =>
  stdinMembers.get(type)

// -----------------------------------------------------------------------------
// Errors
// -----------------------------------------------------------------------------

const maxLineShown = 500
const maxDetail = 2_000

const shorten = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max)}… (${text.length - max} more chars)` : text

const protocolError = (
  reason: ProtocolError["reason"],
  line: string,
  detail: string,
  cause?: unknown
): ProtocolError =>
  new ProtocolError({
    reason,
    line: shorten(line, maxLineShown),
    lineLength: line.length,
    detail: shorten(detail, maxDetail),
    ...(cause === undefined ? {} : { cause })
  })

// One line per issue, `path: message` (the tree formatter would start with the
// whole, very long, type of the member). A known discriminator also fails the
// fallback member of its union: that issue only repeats the others, so it is
// left out when there are others.
const formatIssue = (issue: SchemaIssue.Issue): string => {
  const problems = IssuePath.problemsOf(issue)
  const relevant = problems.filter(({ message }) => !message.startsWith(fallbackMismatch))
  return (relevant.length > 0 ? relevant : problems).map((problem) => IssuePath.problemLine(problem)).join("\n")
}

// -----------------------------------------------------------------------------
// Decoding
// -----------------------------------------------------------------------------

type JsonRecord = { readonly [key: string]: unknown }

const parseObject = (line: string): Result.Result<JsonRecord, ProtocolError> => {
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch (cause) {
    return Result.fail(protocolError("InvalidJson", line, String((cause as Error)?.message ?? cause), cause))
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return Result.fail(protocolError("InvalidMessage", line, "expected a JSON object"))
  }
  return Result.succeed(json as JsonRecord)
}

const decodeWith = <A>(
  line: string,
  memberOf: (message: JsonRecord, type: string) => Member | undefined
): Result.Result<A, ProtocolError> => {
  const parsed = parseObject(line)
  if (Result.isFailure(parsed)) return Result.fail(parsed.failure)
  const message = parsed.success
  const type = message.type
  if (typeof type !== "string") {
    return Result.fail(protocolError("InvalidMessage", line, "expected a string field \"type\""))
  }
  const target = memberOf(message, type)
  if (target === undefined) {
    return Result.fail(protocolError("InvalidMessage", line, `unknown message type "${shorten(type, 100)}"`))
  }
  const decoded = target.check(message)
  return Result.isSuccess(decoded)
    ? decoded as Result.Result<A, never>
    : Result.fail(protocolError("InvalidMessage", line, formatIssue(decoded.failure)))
}

/**
 * Decodes one stdout line. Unknown types, subtypes and fields decode (and are
 * kept); a line that is not JSON or breaks a known shape is a
 * {@link ProtocolError}. Never throws.
 *
 * @since 0.1.0
 * @category Codec
 */
export const decodeStdoutLine = (line: string): Result.Result<StdoutMessage, ProtocolError> =>
  decodeWith<StdoutMessage>(line, stdoutMemberOf)

/**
 * Decodes one stdin line (for tests, fakes and tools). Unlike stdout, an
 * unknown `type` is an error: it is not a line the SDK should write.
 *
 * @since 0.1.0
 * @category Codec
 */
export const decodeStdinLine = (line: string): Result.Result<StdinMessage, ProtocolError> =>
  decodeWith<StdinMessage>(line, stdinMemberOf)

// -----------------------------------------------------------------------------
// Encoding
// -----------------------------------------------------------------------------

const describe = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/**
 * The error of a message whose reading threw (a getter, a Proxy): it fails to encode, as one JSON cannot
 * write does, naming what was thrown.
 *
 * @internal
 */
export const unreadableMessage = (cause: unknown): ProtocolError => {
  // Effect 4's type guard rethrows what a getter threw inside a Cause, as the cause of an Error of its own.
  const thrown = cause instanceof Error && Cause.isCause(cause.cause) ? Cause.squash(cause.cause) : cause
  return protocolError("EncodeFailed", "", String((thrown as Error)?.message ?? thrown), thrown)
}

const encodeWith = (
  value: unknown,
  memberOf: (message: JsonRecord, type: string) => Member | undefined
): Result.Result<string, ProtocolError> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return Result.fail(protocolError("EncodeFailed", describe(value), "expected an object"))
  }
  const message = value as JsonRecord
  try {
    const type = message.type
    const target = typeof type === "string" ? memberOf(message, type) : undefined
    if (target === undefined) {
      return Result.fail(
        protocolError("EncodeFailed", describe(value), `unknown message type ${describe(type)}`)
      )
    }
    const encoded = target.check(message)
    if (Result.isFailure(encoded)) {
      return Result.fail(protocolError("EncodeFailed", describe(value), formatIssue(encoded.failure)))
    }
    return Result.succeed(JSON.stringify(encoded.success))
  } catch (cause) {
    return Result.fail(unreadableMessage(cause))
  }
}

/**
 * Encodes a message for stdin, validated by its schema first (some bad lines
 * make the CLI exit). Returns the JSON text without the trailing newline.
 *
 * @since 0.1.0
 * @category Codec
 */
export const encodeStdinLine = (message: StdinMessage): Result.Result<string, ProtocolError> =>
  encodeWith(message, stdinMemberOf)

/**
 * Encodes a message as the CLI would write it on stdout (for tests and
 * fakes). Returns the JSON text without the trailing newline.
 *
 * @since 0.1.0
 * @category Codec
 */
export const encodeStdoutLine = (message: StdoutMessage): Result.Result<string, ProtocolError> =>
  encodeWith(message, stdoutMemberOf)
