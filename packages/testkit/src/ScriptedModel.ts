/**
 * A scripted fake of the Anthropic Messages API for the real `claude` CLI.
 *
 * `ScriptedModel` is an HTTP server on a loopback port that answers the CLI's
 * `POST /v1/messages` (streaming and non-streaming) and
 * `POST /v1/messages/count_tokens` from a script: a sequence of turns made of
 * text, thinking and tool_use blocks, HTTP errors, slow streams, and rules
 * that compute the reply from the request. Point the CLI at it with
 * {@link Service.cliEnv} and it runs offline, deterministically, without tokens,
 * while every request is recorded so that a test can assert what the model saw.
 *
 * ```ts
 * import { ScriptedModel } from "@claude-effect/testkit"
 *
 * const model = ScriptedModel.layerNode([
 *   ScriptedModel.toolUse("Bash", { command: "echo hi > out.txt" }),
 *   ScriptedModel.text("done")
 * ])
 * // run `claude` with `env: { ...process.env, ...(yield* ScriptedModel.cliEnv) }`, then:
 * // const last = yield* ScriptedModel.lastTurnRequest
 * // last.latestToolResults[0].content
 * ```
 *
 * Requests the CLI makes on the side (session titles, model probes, ...) are
 * answered with a short reply without consuming the script, and a request that
 * finds the script exhausted gets a recognizable text ({@link exhaustedText})
 * instead of hanging.
 *
 * @since 0.1.0
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import { dual } from "effect/Function"
import type * as HttpServer from "effect/http/HttpServer"
import type { ServeError } from "effect/http/HttpServerError"
import * as Layer from "effect/Layer"
import type * as Path from "effect/Path"
import type { Pipeable } from "effect/Pipeable"
import type { PlatformError } from "effect/PlatformError"
import type { Predicate } from "effect/Predicate"
import type * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { createServer } from "node:http"
import * as MessagesApi from "./internal/messagesApi.js"
import * as internal from "./internal/scriptedModel.js"

// -------------------------------------------------------------------------------------------------
// Service
// -------------------------------------------------------------------------------------------------

/**
 * The running scripted model.
 *
 * @since 0.1.0
 * @category Context
 */
export class ScriptedModel extends Context.Service<ScriptedModel, Service>()("@claude-effect/testkit/ScriptedModel") {}

/**
 * What a running {@link ScriptedModel} offers.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Service {
  /** The base URL, e.g. `http://127.0.0.1:38211` (what `ANTHROPIC_BASE_URL` is set to). */
  readonly url: string
  /** The TCP port the server listens on. */
  readonly port: number
  /** The isolated home directory made for the CLI; it is removed when the scope closes. */
  readonly home: string
  /**
   * The environment the CLI needs to talk to this model and nothing else:
   * `ANTHROPIC_BASE_URL`, a dummy `ANTHROPIC_API_KEY`, an isolated `HOME` and
   * `CLAUDE_CONFIG_DIR`, `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`,
   * `DISABLE_TELEMETRY=1`, `DISABLE_AUTOUPDATER=1`, plus {@link Options.env}.
   * Merge it over `process.env` (the CLI still needs `PATH`).
   */
  readonly cliEnv: Readonly<Record<string, string>>
  /** Every request received so far, in arrival order. */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** The requests that were answered from the script (kind `"turn"`), in arrival order. */
  readonly turnRequests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** The last request answered from the script: usually what the model saw last in the main loop. */
  readonly lastTurnRequest: Effect.Effect<RecordedRequest, Cause.NoSuchElementError>
  /** Every distinct `tool_result` the model was sent, in the order they first appeared. */
  readonly toolResults: Effect.Effect<ReadonlyArray<ToolResult>>
  /**
   * Waits until at least `count` requests (of the given kind, or matching the
   * predicate; all requests by default) have arrived, and returns them. It
   * does not time out by itself: add `Effect.timeout` in tests.
   */
  readonly awaitRequests: (
    count: number,
    filter?: RequestKind | Predicate<RecordedRequest>
  ) => Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** Appends steps to the script; the script can grow while the CLI runs. */
  readonly push: (...steps: ReadonlyArray<Step>) => Effect.Effect<void>
  /** The number of steps left in the script (rules included). */
  readonly remaining: Effect.Effect<number>
}

/**
 * Options of {@link make}.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /**
   * Recognizes the requests the CLI makes on the side, which get
   * {@link Options.sideReply} without consuming the script. The default,
   * {@link isSideCall}, is "offers no tools and asks for no thinking". It is
   * called before the request is classified, so the request it gets has
   * `kind: "turn"`.
   */
  readonly isSideCall?: Predicate<ModelRequest> | undefined
  /** The text of the reply to side calls (default `"Scripted reply."`). */
  readonly sideReply?: string | undefined
  /** The dummy API key put in {@link Service.cliEnv} (default `"sk-ant-scripted-model"`). */
  readonly apiKey?: string | undefined
  /** More variables for {@link Service.cliEnv}, e.g. `{ CLAUDE_CODE_MAX_RETRIES: "2" }`. */
  readonly env?: Readonly<Record<string, string>> | undefined
}

// -------------------------------------------------------------------------------------------------
// Script
// -------------------------------------------------------------------------------------------------

/**
 * How a block is streamed: in deltas of `chunkSize` characters (default 4),
 * each one sent after `delay`.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Pacing {
  readonly delay: Duration.Input
  readonly chunkSize?: number | undefined
}

/**
 * A text block of an assistant turn.
 *
 * @since 0.1.0
 * @category Models
 */
export interface TextBlock extends Pipeable {
  readonly _tag: "Text"
  readonly text: string
  readonly pacing: Pacing | undefined
}

/**
 * A thinking block of an assistant turn, streamed as `thinking_delta`s and one
 * `signature_delta`.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ThinkingBlock extends Pipeable {
  readonly _tag: "Thinking"
  readonly thinking: string
  readonly signature: string
  readonly pacing: Pacing | undefined
}

/**
 * A tool_use block of an assistant turn, its input streamed as
 * `input_json_delta`s. Without an `id` one is generated
 * (`toolu_scripted_<n>`, counting from 1 per server).
 *
 * @since 0.1.0
 * @category Models
 */
export interface ToolUseBlock extends Pipeable {
  readonly _tag: "ToolUse"
  readonly name: string
  readonly input: unknown
  readonly id: string | undefined
  readonly pacing: Pacing | undefined
}

/**
 * A content block of an assistant turn.
 *
 * @since 0.1.0
 * @category Models
 */
export type Block = TextBlock | ThinkingBlock | ToolUseBlock

/**
 * The `stop_reason` of a turn. By default `"tool_use"` when the turn has a
 * tool_use block, `"end_turn"` otherwise.
 *
 * @since 0.1.0
 * @category Models
 */
export type StopReason =
  | "end_turn"
  | "tool_use"
  | "max_tokens"
  | "stop_sequence"
  | "pause_turn"
  | "refusal"
  | (string & {})

/**
 * One assistant message.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Turn extends Pipeable {
  readonly _tag: "Turn"
  readonly blocks: ReadonlyArray<Block>
  readonly stopReason: StopReason | undefined
  /** The pacing of the blocks that have none of their own. */
  readonly pacing: Pacing | undefined
  /** A pause before the response starts (before the status line). */
  readonly delay: Duration.Input | undefined
}

/**
 * An HTTP error answer, with the Messages API error body.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ErrorReply extends Pipeable {
  readonly _tag: "ErrorReply"
  readonly status: number
  /** The `error.type` of the body, e.g. `"overloaded_error"`. */
  readonly errorType: string
  readonly message: string
  /** Sent as `retry-after` (seconds) and `retry-after-ms`. */
  readonly retryAfter: Duration.Input | undefined
  readonly headers: Readonly<Record<string, string>>
}

/**
 * What a request can be answered with. A lone block stands for a turn with
 * that block only.
 *
 * @since 0.1.0
 * @category Models
 */
export type Reply = Block | Turn | ErrorReply

/**
 * A reply computed from the request. See {@link rule}.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Rule extends Pipeable {
  readonly _tag: "Rule"
  readonly reply: (request: ModelRequest) => Reply | undefined
  /** How many requests the rule answers before it leaves the script (unlimited by default). */
  readonly times: number | undefined
}

/**
 * One step of a script.
 *
 * @since 0.1.0
 * @category Models
 */
export type Step = Reply | Rule

/**
 * A text block.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const text: (text: string) => TextBlock = internal.text

/**
 * A thinking block. Its `signature` (default `"scripted-signature"`) comes
 * back in later requests, where the CLI replays the block.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const thinking: (thinking: string, options?: { readonly signature?: string | undefined }) => ThinkingBlock =
  internal.thinking

/**
 * A tool_use block: any tool, any input.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const toolUse: (name: string, input: unknown, options?: { readonly id?: string | undefined }) => ToolUseBlock =
  internal.toolUse

/**
 * The name of the tool the CLI adds when it is asked for structured output
 * (the `outputFormat` option, `ClaudeCode.structured`): the model answers by
 * calling it, with the answer as its input.
 *
 * @since 0.1.0
 * @category Constants
 */
export const structuredOutputTool: string = internal.structuredOutputTool

/**
 * The model's structured answer: a call of the CLI's structured-output tool
 * ({@link structuredOutputTool}) with `value` as its input. The CLI checks
 * the value against the JSON Schema it was given: a match ends the turn with
 * `structured_output` set on the result; a mismatch goes back to the model
 * as an error tool result, and the next step of the script answers it.
 *
 * ```ts
 * ScriptedModel.layerNode([ScriptedModel.structuredOutput({ name: "Ada", age: 36 })])
 * ```
 *
 * @since 0.1.0
 * @category Constructors
 */
export const structuredOutput: (value: unknown, options?: { readonly id?: string | undefined }) => ToolUseBlock =
  internal.structuredOutput

/**
 * An assistant turn made of any mix of blocks, e.g. thinking, text and
 * several tool_use blocks (the CLI runs them all before the next request).
 *
 * @since 0.1.0
 * @category Constructors
 */
export const turn: (...blocks: ReadonlyArray<Block>) => Turn = internal.turn

/**
 * An HTTP error: 429, 500, 529 (overloaded), or any status. The CLI retries
 * 429, 5xx and 529 (one `system/api_retry` message per retry), and the retry
 * gets the next step of the script.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const error: (
  status: number,
  options?: {
    readonly retryAfter?: Duration.Input | undefined
    readonly message?: string | undefined
    readonly errorType?: string | undefined
    readonly headers?: Readonly<Record<string, string>> | undefined
  }
) => ErrorReply = internal.error

/**
 * A rule: a function from the request to the reply, for reactive scenarios.
 *
 * A rule answers every request that reaches it for which it returns a reply,
 * and stays in the script (at most `times` times when given). When it returns
 * `undefined` the request goes on to the steps after it. So a rule at the head
 * of the script acts as a standing matcher, and one at the end answers
 * whatever the turns before it left over.
 *
 * ```ts
 * ScriptedModel.rule((request) =>
 *   request.latestToolResults.length > 0
 *     ? ScriptedModel.text("done")
 *     : ScriptedModel.toolUse("Bash", { command: "ls" })
 * )
 * ```
 *
 * A rule that throws is answered with a text that names the failure.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const rule: (
  reply: (request: ModelRequest) => Reply | undefined,
  options?: { readonly times?: number | undefined }
) => Rule = internal.rule

/**
 * Streams a block, or every block of a turn that has no pacing of its own,
 * slowly: in deltas of `chunkSize` characters with `delay` before each one.
 * Handy to test interrupts: the turn is still streaming when the test acts.
 *
 * @since 0.1.0
 * @category Combinators
 */
export const slow: {
  (pacing: Pacing): <S extends Block | Turn>(self: S) => S
  <S extends Block | Turn>(self: S, pacing: Pacing): S
} = dual(2, internal.slow)

/**
 * Waits `delay` before the response starts (before the status line and
 * headers): a slow first byte.
 *
 * @since 0.1.0
 * @category Combinators
 */
export const delayed: {
  (delay: Duration.Input): (self: Block | Turn) => Turn
  (self: Block | Turn, delay: Duration.Input): Turn
} = dual(2, internal.delayed)

/**
 * Sets the `stop_reason` of a turn, e.g. `"max_tokens"` (the CLI then
 * continues with another request) or `"refusal"`.
 *
 * @since 0.1.0
 * @category Combinators
 */
export const withStopReason: {
  (stopReason: StopReason): (self: Block | Turn) => Turn
  (self: Block | Turn, stopReason: StopReason): Turn
} = dual(2, internal.withStopReason)

/**
 * The text sent when a request finds the script exhausted, e.g.
 * `"[scripted-model] script exhausted at request #3"`. Starts with
 * {@link exhaustedMarker}.
 *
 * @since 0.1.0
 * @category Constants
 */
export const exhaustedText: (index: number) => string = internal.exhaustedText

/**
 * The prefix of {@link exhaustedText}: search a CLI result for it.
 *
 * @since 0.1.0
 * @category Constants
 */
export const exhaustedMarker: string = internal.exhaustedMarker

// -------------------------------------------------------------------------------------------------
// Recorded requests
// -------------------------------------------------------------------------------------------------

/**
 * What a request was:
 * - `"turn"`: a Messages request answered from the script (main loop, subagents, compaction);
 * - `"side"`: a Messages request made on the side (see {@link Options.isSideCall});
 * - `"count_tokens"`: `POST /v1/messages/count_tokens`;
 * - `"bad_request"`: a Messages request whose body did not decode (answered 400);
 * - `"not_found"`: anything else (answered 404).
 *
 * @since 0.1.0
 * @category Models
 */
export type RequestKind = "turn" | "side" | "count_tokens" | "bad_request" | "not_found"

/**
 * The Messages API request body, loosely decoded: unknown fields are kept.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const MessagesRequest: Schema.Codec<MessagesRequest, MessagesRequest.Encoded> = MessagesApi.MessagesRequest

/**
 * @since 0.1.0
 * @category Schemas
 */
export type MessagesRequest = typeof MessagesApi.MessagesRequest.Type

/**
 * @since 0.1.0
 * @category Schemas
 */
export declare namespace MessagesRequest {
  /**
   * @since 0.1.0
   */
  export type Encoded = typeof MessagesApi.MessagesRequest.Encoded
}

/**
 * One message of a request. Besides `user` and `assistant`, the CLI sends
 * `role: "system"` messages (environment, skills, hook `additionalContext`).
 *
 * @since 0.1.0
 * @category Models
 */
export type Message = MessagesApi.Message

/**
 * One content block of a message (`text`, `tool_use`, `tool_result`, `thinking`, `image`, ...).
 *
 * @since 0.1.0
 * @category Models
 */
export type ContentBlock = MessagesApi.ContentBlock

/**
 * A `tool_result` block the model was sent.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ToolResult {
  readonly toolUseId: string
  /** The text of the result (string content, or its text blocks joined by newlines). */
  readonly content: string
  readonly isError: boolean
  readonly block: ContentBlock
}

/**
 * A request as a rule sees it: what the CLI sent.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ModelRequest {
  /** The arrival order, from 0, over all requests. */
  readonly index: number
  /** Milliseconds since the server started. */
  readonly receivedAt: number
  readonly method: string
  /** The path and query, e.g. `/v1/messages?beta=true`. */
  readonly url: string
  /** The path without the query. */
  readonly path: string
  /** The headers (lower-case names), without `x-api-key` and `authorization`. */
  readonly headers: Readonly<Record<string, string>>
  readonly kind: RequestKind
  /** The decoded body of a Messages or count_tokens request. */
  readonly body: MessagesRequest | undefined
  readonly model: string | undefined
  readonly stream: boolean
  /** The system prompt as text (its text blocks joined by newlines). */
  readonly system: string
  readonly messages: ReadonlyArray<Message>
  /** The names of the tools offered. */
  readonly tools: ReadonlyArray<string>
  /** The text of all messages: text blocks and tool_result contents, joined by newlines. */
  readonly text: string
  /** The text of the last `role: "user"` message. */
  readonly lastUserText: string
  /** Every `tool_result` in the messages. */
  readonly toolResults: ReadonlyArray<ToolResult>
  /** The `tool_result`s sent since the last assistant message: the answers to the previous turn's tool calls. */
  readonly latestToolResults: ReadonlyArray<ToolResult>
  /** The texts of the `role: "system"` messages (environment, hook `additionalContext`, ...). */
  readonly systemMessages: ReadonlyArray<string>
  /** The contents of every `<system-reminder>` in the messages. */
  readonly systemReminders: ReadonlyArray<string>
  /** Whether {@link ModelRequest.text} contains the string or matches the pattern. */
  readonly includes: (needle: string | RegExp) => boolean
}

/**
 * A request and how it was answered.
 *
 * @since 0.1.0
 * @category Models
 */
export interface RecordedRequest extends ModelRequest {
  /** The turn or error the request was answered with (tool ids filled in); `undefined` for count_tokens, 400 and 404. */
  readonly reply: Turn | ErrorReply | undefined
  /** Whether the script was exhausted and the request got {@link exhaustedText}. */
  readonly exhausted: boolean
}

/**
 * The default side-call recognizer: a Messages request that offers no tools
 * and asks for no thinking. The CLI's main loop always sends `thinking` with
 * current models (even with `--tools ""`), while its side calls (session
 * titles, the model probe after `set_model`) send neither.
 *
 * @since 0.1.0
 * @category Predicates
 */
export const isSideCall: Predicate<ModelRequest> = internal.isSideCall

/**
 * Whether a request is the CLI's compaction request (after `/compact`, or
 * when the context fills up): the one whose answer becomes the conversation's
 * summary. It offers tools and asks for thinking like a main-loop request, so
 * it is a `"turn"`.
 *
 * @since 0.1.0
 * @category Predicates
 */
export const isCompactionRequest: Predicate<ModelRequest> = internal.isCompactionRequest

/**
 * Whether a request comes from a subagent (the `Agent` tool) rather than the
 * main loop. Subagents run concurrently with the main loop: answer them with a
 * {@link rule} on this predicate rather than by position in the script.
 *
 * @since 0.1.0
 * @category Predicates
 */
export const isSubagentRequest: Predicate<ModelRequest> = internal.isSubagentRequest

/**
 * A {@link rule} that answers compaction requests (see
 * {@link isCompactionRequest}) with `<summary>summary</summary>`, the shape the
 * CLI reads the summary from, and lets every other request through. Put it at
 * the head of a script that runs `/compact`:
 *
 * ```ts
 * ScriptedModel.layerNode([ScriptedModel.compactionSummary("the user wants X"), ScriptedModel.text("hi")])
 * ```
 *
 * @since 0.1.0
 * @category Constructors
 */
export const compactionSummary: (
  summary: string,
  options?: { readonly times?: number | undefined }
) => Rule = internal.compactionSummary

/**
 * A rule that answers subagents only: the next `times` (default 1) requests
 * for which {@link isSubagentRequest} holds get `reply`, whatever else the
 * script holds. Put it first in the script; the main loop's turns follow it
 * in order, whenever the subagent's requests arrive.
 *
 * ```ts
 * ScriptedModel.layerNode([
 *   ScriptedModel.subagent(ScriptedModel.text("the helper's report")),
 *   ScriptedModel.toolUse("Agent", { description: "helper", prompt: "look around" }),
 *   ScriptedModel.text("done")
 * ])
 * ```
 *
 * @since 0.1.0
 * @category Constructors
 */
export const subagent = (
  reply: Reply | ((request: ModelRequest) => Reply | undefined),
  options?: { readonly times?: number | undefined }
): Rule =>
  rule(
    (request) => isSubagentRequest(request) ? (typeof reply === "function" ? reply(request) : reply) : undefined,
    { times: options?.times ?? 1 }
  )

// -------------------------------------------------------------------------------------------------
// Constructors and layers
// -------------------------------------------------------------------------------------------------

/**
 * Serves the scripted model on the `HttpServer` in context until the scope
 * closes. Streams still running then are cut short so that the server can
 * stop. The server must listen on TCP (it dies on a Unix socket); bind it to
 * a loopback address.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (
  script: Iterable<Step>,
  options?: Options
) => Effect.Effect<Service, PlatformError, HttpServer.HttpServer | FileSystem.FileSystem | Path.Path | Scope.Scope> =
  internal.make

/**
 * A layer of {@link make}.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = (
  script: Iterable<Step>,
  options?: Options
): Layer.Layer<ScriptedModel, PlatformError, HttpServer.HttpServer | FileSystem.FileSystem | Path.Path> =>
  Layer.effect(ScriptedModel, make(script, options))

/**
 * {@link layer} with its own Node HTTP server on `127.0.0.1` and an ephemeral port.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerNode = (
  script: Iterable<Step>,
  options?: Options
): Layer.Layer<ScriptedModel, PlatformError | ServeError, FileSystem.FileSystem | Path.Path> =>
  layer(script, options).pipe(
    Layer.provide(NodeHttpServer.layerServer(createServer, { host: "127.0.0.1", port: 0 }))
  )

// -------------------------------------------------------------------------------------------------
// Accessors
// -------------------------------------------------------------------------------------------------

/**
 * The environment for the CLI: merge it over `process.env`. See {@link Service.cliEnv}.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const cliEnv: Effect.Effect<Readonly<Record<string, string>>, never, ScriptedModel> = ScriptedModel.useSync(
  (model) => model.cliEnv
)

/**
 * The base URL of the server. See {@link Service.url}.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const url: Effect.Effect<string, never, ScriptedModel> = ScriptedModel.useSync((model) => model.url)

/**
 * Every request received so far. See {@link Service.requests}.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const requests: Effect.Effect<ReadonlyArray<RecordedRequest>, never, ScriptedModel> = ScriptedModel.use(
  (model) => model.requests
)

/**
 * The requests answered from the script. See {@link Service.turnRequests}.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const turnRequests: Effect.Effect<ReadonlyArray<RecordedRequest>, never, ScriptedModel> = ScriptedModel.use(
  (model) => model.turnRequests
)

/**
 * The last request answered from the script. See {@link Service.lastTurnRequest}.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const lastTurnRequest: Effect.Effect<RecordedRequest, Cause.NoSuchElementError, ScriptedModel> = ScriptedModel
  .use((model) => model.lastTurnRequest)

/**
 * Every distinct `tool_result` the model was sent. See {@link Service.toolResults}.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const toolResults: Effect.Effect<ReadonlyArray<ToolResult>, never, ScriptedModel> = ScriptedModel.use((model) =>
  model.toolResults
)

/**
 * Waits for `count` requests. See {@link Service.awaitRequests}.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const awaitRequests = (
  count: number,
  filter?: RequestKind | Predicate<RecordedRequest>
): Effect.Effect<ReadonlyArray<RecordedRequest>, never, ScriptedModel> =>
  ScriptedModel.use((model) => model.awaitRequests(count, filter))

/**
 * Appends steps to the script. See {@link Service.push}.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const push = (...steps: ReadonlyArray<Step>): Effect.Effect<void, never, ScriptedModel> =>
  ScriptedModel.use((model) => model.push(...steps))

/**
 * The number of steps left in the script. See {@link Service.remaining}.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const remaining: Effect.Effect<number, never, ScriptedModel> = ScriptedModel.use((model) => model.remaining)
