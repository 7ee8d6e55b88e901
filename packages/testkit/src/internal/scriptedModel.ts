import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpServer from "effect/http/HttpServer"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as NetAddress from "effect/net/NetAddress"
import * as Option from "effect/Option"
import * as Path from "effect/Path"
import { type Pipeable, pipeArguments } from "effect/Pipeable"
import type { Predicate } from "effect/Predicate"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import type * as ScriptedModel from "../ScriptedModel.js"
import * as MessagesApi from "./messagesApi.js"
import * as Sse from "./sse.js"

// -------------------------------------------------------------------------------------------------
// Script parts
// -------------------------------------------------------------------------------------------------

const StepProto: Pipeable = {
  pipe() {
    return pipeArguments(this, arguments)
  }
}

const makeStep = <A extends Pipeable>(fields: Omit<A, "pipe">): A => Object.assign(Object.create(StepProto), fields)

const copy = <A extends Pipeable>(self: A, fields: Partial<Omit<A, "pipe">>): A =>
  Object.assign(Object.create(StepProto), self, fields)

/** @internal */
export const text = (text: string): ScriptedModel.TextBlock =>
  makeStep<ScriptedModel.TextBlock>({ _tag: "Text", text, pacing: undefined })

/** @internal */
export const thinking = (
  thinking: string,
  options?: { readonly signature?: string | undefined }
): ScriptedModel.ThinkingBlock =>
  makeStep<ScriptedModel.ThinkingBlock>({
    _tag: "Thinking",
    thinking,
    signature: options?.signature ?? "scripted-signature",
    pacing: undefined
  })

/** @internal */
export const toolUse = (
  name: string,
  input: unknown,
  options?: { readonly id?: string | undefined }
): ScriptedModel.ToolUseBlock =>
  makeStep<ScriptedModel.ToolUseBlock>({ _tag: "ToolUse", name, input, id: options?.id, pacing: undefined })

/** The tool the CLI adds for structured output (`outputFormat`); its input is the answer. @internal */
export const structuredOutputTool = "StructuredOutput"

/** @internal */
export const structuredOutput = (
  value: unknown,
  options?: { readonly id?: string | undefined }
): ScriptedModel.ToolUseBlock => toolUse(structuredOutputTool, value, options)

/** @internal */
export const turn = (...blocks: ReadonlyArray<ScriptedModel.Block>): ScriptedModel.Turn =>
  makeStep<ScriptedModel.Turn>({ _tag: "Turn", blocks, stopReason: undefined, pacing: undefined, delay: undefined })

const errorTypes: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error"
}

const errorMessages: Record<number, string> = {
  429: "Rate limited (scripted)",
  500: "Internal server error (scripted)",
  529: "Overloaded (scripted)"
}

/** @internal */
export const error = (
  status: number,
  options?: {
    readonly retryAfter?: Duration.Input | undefined
    readonly message?: string | undefined
    readonly errorType?: string | undefined
    readonly headers?: Readonly<Record<string, string>> | undefined
  }
): ScriptedModel.ErrorReply =>
  makeStep<ScriptedModel.ErrorReply>({
    _tag: "ErrorReply",
    status,
    errorType: options?.errorType ?? errorTypes[status] ?? "api_error",
    message: options?.message ?? errorMessages[status] ?? `HTTP ${status} (scripted)`,
    retryAfter: options?.retryAfter,
    headers: options?.headers ?? {}
  })

/** @internal */
export const rule = (
  reply: (request: ScriptedModel.ModelRequest) => ScriptedModel.Reply | undefined,
  options?: { readonly times?: number | undefined }
): ScriptedModel.Rule => makeStep<ScriptedModel.Rule>({ _tag: "Rule", reply, times: options?.times })

const toTurn = (self: ScriptedModel.Block | ScriptedModel.Turn): ScriptedModel.Turn =>
  self._tag === "Turn" ? self : turn(self)

/** @internal */
export const slow = <S extends ScriptedModel.Block | ScriptedModel.Turn>(self: S, pacing: ScriptedModel.Pacing): S =>
  copy<ScriptedModel.Block | ScriptedModel.Turn>(self, { pacing }) as S

/** @internal */
export const delayed = (
  self: ScriptedModel.Block | ScriptedModel.Turn,
  delay: Duration.Input
): ScriptedModel.Turn => copy(toTurn(self), { delay })

/** @internal */
export const withStopReason = (
  self: ScriptedModel.Block | ScriptedModel.Turn,
  stopReason: ScriptedModel.StopReason
): ScriptedModel.Turn => copy(toTurn(self), { stopReason })

/** @internal */
export const exhaustedMarker = "[scripted-model] script exhausted"

/** @internal */
export const exhaustedText = (index: number): string =>
  `${exhaustedMarker} at request #${index}: no scripted turn is left (push more steps or add a rule)`

// -------------------------------------------------------------------------------------------------
// Requests
// -------------------------------------------------------------------------------------------------

/** @internal */
export const isSideCall = (request: ScriptedModel.ModelRequest): boolean =>
  (request.body?.tools ?? []).length === 0 && request.body?.thinking === undefined

// The CLI 2.1.328 asks for a compaction summary with this sentence in the last user message.
const compactionMarker = "Your task is to create a detailed summary of the conversation"

/** @internal */
export const isCompactionRequest = (request: ScriptedModel.ModelRequest): boolean =>
  request.lastUserText.includes(compactionMarker)

// A subagent's requests carry this flag in the billing header, the first block of the system prompt.
const subagentMarker = "cc_is_subagent=true"

/** @internal */
export const isSubagentRequest = (request: ScriptedModel.ModelRequest): boolean =>
  request.system.includes(subagentMarker)

/** @internal */
export const compactionSummary = (
  summary: string,
  options?: { readonly times?: number | undefined }
): ScriptedModel.Rule =>
  rule(
    (request) =>
      isCompactionRequest(request)
        ? text(`<analysis>Scripted compaction.</analysis>\n<summary>${summary}</summary>`)
        : undefined,
    options
  )

const hiddenHeaders = new Set(["x-api-key", "authorization"])

const toolResultsOf = (messages: ReadonlyArray<MessagesApi.Message>): Array<ScriptedModel.ToolResult> =>
  messages.flatMap((message) =>
    typeof message.content === "string" ? [] : message.content.flatMap((block) =>
      block.type === "tool_result"
        ? [{
          toolUseId: String(block.tool_use_id),
          content: MessagesApi.contentText(block.content),
          isError: block.is_error === true,
          block
        }]
        : []
    )
  )

const makeModelRequest = (
  fields: Pick<
    ScriptedModel.ModelRequest,
    "index" | "receivedAt" | "method" | "url" | "path" | "headers" | "kind" | "body"
  >
): ScriptedModel.ModelRequest => {
  const messages = fields.body?.messages ?? []
  const text = messages.map((message) => MessagesApi.contentText(message.content)).filter((t) => t.length > 0).join(
    "\n"
  )
  const lastAssistant = Arr.findLastIndex(messages, (message) => message.role === "assistant")
  const lastUser = Arr.findLast(messages, (message) => message.role === "user")
  return {
    ...fields,
    model: fields.body?.model,
    stream: fields.body?.stream === true,
    system: MessagesApi.contentText(fields.body?.system ?? ""),
    messages,
    tools: (fields.body?.tools ?? []).map((tool) => tool.name),
    text,
    lastUserText: Option.match(lastUser, {
      onNone: () => "",
      onSome: (message) => MessagesApi.contentText(message.content)
    }),
    toolResults: toolResultsOf(messages),
    latestToolResults: toolResultsOf(
      messages.slice(Option.getOrElse(lastAssistant, () => -1) + 1).filter((message) => message.role === "user")
    ),
    systemMessages: messages.filter((message) => message.role === "system").map((message) =>
      MessagesApi.contentText(message.content)
    ),
    systemReminders: MessagesApi.systemReminders(text),
    // `search` ignores the `lastIndex` of a global pattern, so repeated calls agree.
    includes: (needle) => typeof needle === "string" ? text.includes(needle) : text.search(needle) >= 0
  }
}

// -------------------------------------------------------------------------------------------------
// Script state
// -------------------------------------------------------------------------------------------------

interface Entry {
  readonly step: ScriptedModel.Step
  readonly used: number
}

interface State {
  readonly steps: ReadonlyArray<Entry>
  readonly requests: ReadonlyArray<ScriptedModel.RecordedRequest>
  readonly toolIds: number
}

const entry = (step: ScriptedModel.Step): Entry => ({ step, used: 0 })

/** Picks the reply for a request: rules answer in place, any other step is consumed. */
const select = (
  steps: ReadonlyArray<Entry>,
  request: ScriptedModel.ModelRequest
): [ScriptedModel.Reply | undefined, ReadonlyArray<Entry>] => {
  for (let i = 0; i < steps.length; i++) {
    const { step, used } = steps[i]!
    if (step._tag !== "Rule") return [step, Arr.remove(steps, i)]
    let reply: ScriptedModel.Reply | undefined
    try {
      reply = step.reply(request)
    } catch (cause) {
      // A broken rule is a bug in the test: answer at once, visibly, rather than with an error the CLI retries.
      reply = text(`[scripted-model] rule failed at request #${request.index}: ${String(cause)}`)
    }
    if (reply === undefined) continue
    const rest = step.times !== undefined && used + 1 >= step.times
      ? Arr.remove(steps, i)
      : steps.map((other, j) => j === i ? { step, used: used + 1 } : other)
    return [reply, rest]
  }
  return [undefined, steps]
}

/** Fills in the tool ids the script left out, so that the record shows what was sent. */
const resolveIds = (reply: ScriptedModel.Turn, toolIds: number): [ScriptedModel.Turn, number] => {
  let next = toolIds
  if (reply.blocks.every((block) => block._tag !== "ToolUse" || block.id !== undefined)) return [reply, next]
  const blocks = reply.blocks.map((block) =>
    block._tag === "ToolUse" && block.id === undefined ? copy(block, { id: `toolu_scripted_${++next}` }) : block
  )
  return [copy(reply, { blocks }), next]
}

/** A value of a JSON Schema, for side calls that ask for structured output (session titles). */
const sampleOf = (schema: unknown, textValue: string): unknown => {
  if (typeof schema !== "object" || schema === null) return textValue
  const s = schema as Record<string, unknown>
  if ("const" in s) return s.const
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0]
  const variants = (s.anyOf ?? s.oneOf) as ReadonlyArray<unknown> | undefined
  if (Array.isArray(variants) && variants.length > 0) return sampleOf(variants[0], textValue)
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case "object": {
      const properties = (s.properties ?? {}) as Record<string, unknown>
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, sampleOf(value, textValue)]))
    }
    case "array":
      return []
    case "number":
    case "integer":
      return 0
    case "boolean":
      return false
    case "null":
      return null
    default:
      return textValue
  }
}

const sideTurn = (request: ScriptedModel.ModelRequest, replyText: string): ScriptedModel.Turn => {
  const format = (request.body?.output_config as { format?: { type?: unknown; schema?: unknown } } | undefined)
    ?.format
  return turn(
    text(format?.type === "json_schema" ? JSON.stringify(sampleOf(format.schema, replyText)) : replyText)
  )
}

// -------------------------------------------------------------------------------------------------
// Server
// -------------------------------------------------------------------------------------------------

const decodeRequest = Schema.decodeUnknownResult(MessagesApi.MessagesRequestFromJson)

const jsonError = (status: number, type: string, message: string, requestId: string) =>
  HttpServerResponse.jsonUnsafe(
    { type: "error", error: { type, message }, request_id: requestId },
    { status, headers: { "request-id": requestId } }
  )

const retryHeaders = (retryAfter: Duration.Input | undefined): Record<string, string> => {
  if (retryAfter === undefined) return {}
  const millis = Duration.toMillis(Duration.fromInputUnsafe(retryAfter))
  return { "retry-after": String(millis / 1000), "retry-after-ms": String(millis) }
}

/** @internal */
export const make = Effect.fnUntraced(function*(script: Iterable<ScriptedModel.Step>, options?: ScriptedModel.Options) {
  const server = yield* HttpServer.HttpServer
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const address = server.address
  if (!NetAddress.isInetAddress(address)) {
    return yield* Effect.die(new Error("ScriptedModel needs an HttpServer listening on TCP, not on a Unix socket"))
  }
  const url = NetAddress.isUnspecified(address.address)
    ? `http://127.0.0.1:${address.port}`
    : NetAddress.formatUrlUnsafe(address)

  // Not `makeTempDirectoryScoped`: its removal dies on failure, and a CLI still shutting down may write to HOME.
  const home = yield* Effect.acquireRelease(
    fs.makeTempDirectory({ prefix: "scripted-model-home-" }),
    (directory) =>
      fs.remove(directory, { recursive: true, force: true }).pipe(
        Effect.retry({ schedule: Schedule.spaced("50 millis"), times: 3 }),
        Effect.ignore
      )
  )
  const cliEnv: Record<string, string> = {
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: options?.apiKey ?? "sk-ant-scripted-model",
    HOME: home,
    // An inherited CLAUDE_CONFIG_DIR would point the CLI at the developer's real settings and sessions.
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    ...options?.env
  }

  const sideCall = options?.isSideCall ?? isSideCall
  const sideReply = options?.sideReply ?? "Scripted reply."
  const startedAt = yield* Clock.currentTimeMillis
  const state = yield* SubscriptionRef.make<State>({ steps: Array.from(script, entry), requests: [], toolIds: 0 })
  // Completed when the scope closes: running streams end so that the server can close its connections.
  const closing = yield* Deferred.make<void>()

  // Handlers run uninterruptibly, but v4 starts race contenders interruptible: no `Effect.interruptible` needed.
  const untilClosing = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.raceFirst(Effect.asVoid(effect), Deferred.await(closing))

  const record = (
    fields: Parameters<typeof makeModelRequest>[0]
  ): Effect.Effect<ScriptedModel.RecordedRequest> =>
    SubscriptionRef.modify(state, (current) => {
      let request = makeModelRequest({ ...fields, index: current.requests.length })
      if (request.kind === "turn" && sideCall(request)) request = { ...request, kind: "side" }
      let steps = current.steps
      let toolIds = current.toolIds
      let reply: ScriptedModel.Turn | ScriptedModel.ErrorReply | undefined
      let exhausted = false
      if (request.kind === "side") {
        reply = sideTurn(request, sideReply)
      } else if (request.kind === "turn") {
        const [chosen, rest] = select(steps, request)
        steps = rest
        if (chosen === undefined) exhausted = true
        reply = chosen === undefined
          ? turn(text(exhaustedText(request.index)))
          : chosen._tag === "ErrorReply"
          ? chosen
          : toTurn(chosen)
        if (reply._tag === "Turn") [reply, toolIds] = resolveIds(reply, toolIds)
      }
      const recorded: ScriptedModel.RecordedRequest = { ...request, reply, exhausted }
      return [recorded, { steps, requests: [...current.requests, recorded], toolIds }]
    })

  const respond = (
    request: ScriptedModel.RecordedRequest,
    bodyText: string
  ): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
    const requestId = `req_scripted_${request.index}`
    const reply = request.reply
    if (reply === undefined) {
      return Effect.succeed(
        request.kind === "count_tokens"
          ? HttpServerResponse.jsonUnsafe({ input_tokens: Sse.estimateTokens(bodyText) })
          : jsonError(
            404,
            "not_found_error",
            `ScriptedModel serves POST /v1/messages and POST /v1/messages/count_tokens, not ${request.method} ${request.path}`,
            requestId
          )
      )
    }
    if (reply._tag === "ErrorReply") {
      return Effect.succeed(
        jsonError(reply.status, reply.errorType, reply.message, requestId).pipe(
          HttpServerResponse.setHeaders({ ...retryHeaders(reply.retryAfter), ...reply.headers })
        )
      )
    }
    const info: Sse.MessageInfo = {
      id: `msg_scripted_${request.index}`,
      model: request.model ?? "scripted-model",
      inputTokens: Sse.estimateTokens(bodyText)
    }
    const response = request.stream
      ? HttpServerResponse.stream(
        Stream.fromIterable(Sse.turnEvents(reply, info)).pipe(
          Stream.mapEffect((event) =>
            event.delay === undefined
              ? Effect.succeed(Sse.encodeEvent(event))
              : Effect.as(Effect.sleep(event.delay), Sse.encodeEvent(event))
          ),
          Stream.encodeText,
          Stream.interruptWhen(Deferred.await(closing))
        ),
        {
          contentType: "text/event-stream",
          headers: { "cache-control": "no-cache", "request-id": requestId }
        }
      )
      : HttpServerResponse.jsonUnsafe(Sse.messageJson(reply, info), { headers: { "request-id": requestId } })
    return reply.delay === undefined
      ? Effect.succeed(response)
      : Effect.as(untilClosing(Effect.sleep(reply.delay)), response)
  }

  const app = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const receivedAt = (yield* Clock.currentTimeMillis) - startedAt
    const rawPath = request.url.split("?")[0]!
    const pathname = rawPath.length > 1 ? rawPath.replace(/\/+$/, "") : rawPath
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !hiddenHeaders.has(name)))
    const base = { index: 0, receivedAt, method: request.method, url: request.url, path: pathname, headers }

    const isMessages = request.method === "POST" && pathname === "/v1/messages"
    const isCountTokens = request.method === "POST" && pathname === "/v1/messages/count_tokens"
    if (!isMessages && !isCountTokens) {
      return yield* respond(yield* record({ ...base, kind: "not_found", body: undefined }), "")
    }
    const bodyText = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
    const decoded = decodeRequest(bodyText)
    if (isCountTokens) {
      return yield* respond(
        yield* record({ ...base, kind: "count_tokens", body: Result.getOrUndefined(decoded) }),
        bodyText
      )
    }
    if (Result.isFailure(decoded)) {
      const recorded = yield* record({ ...base, kind: "bad_request", body: undefined })
      return jsonError(
        400,
        "invalid_request_error",
        `ScriptedModel could not decode the request body: ${decoded.failure.message}`,
        `req_scripted_${recorded.index}`
      )
    }
    return yield* respond(yield* record({ ...base, kind: "turn", body: decoded.success }), bodyText)
  }).pipe(
    // The CLI's requests carry whole conversations: no body size limit.
    Effect.provideService(HttpIncomingMessage.MaxBodySize, undefined)
  )

  yield* server.serve(app)
  // Added after `serve`, so it runs before the handler is removed and before the server closes.
  yield* Effect.addFinalizer(() => Deferred.succeed(closing, undefined))

  const requests = Effect.map(SubscriptionRef.get(state), (current) => current.requests)
  const turnRequests = Effect.map(requests, Arr.filter((request) => request.kind === "turn"))

  const service: ScriptedModel.Service = {
    url,
    port: address.port,
    home,
    cliEnv,
    requests,
    turnRequests,
    lastTurnRequest: Effect.flatMap(turnRequests, (all) => Effect.fromOption(Arr.last(all))),
    toolResults: Effect.map(requests, (all) => {
      const seen = new Map<string, ScriptedModel.ToolResult>()
      for (const request of all) {
        for (const result of request.toolResults) if (!seen.has(result.toolUseId)) seen.set(result.toolUseId, result)
      }
      return Array.from(seen.values())
    }),
    awaitRequests: (count, filter) => {
      const matches: Predicate<ScriptedModel.RecordedRequest> = filter === undefined
        ? () => true
        : typeof filter === "string"
        ? (request) => request.kind === filter
        : filter
      return SubscriptionRef.changes(state).pipe(
        Stream.map((current) => current.requests.filter(matches)),
        Stream.filter((matching) => matching.length >= count),
        Stream.runHead,
        Effect.map(Option.getOrElse((): ReadonlyArray<ScriptedModel.RecordedRequest> => []))
      )
    },
    push: (...steps) =>
      SubscriptionRef.update(state, (current) => ({ ...current, steps: [...current.steps, ...steps.map(entry)] })),
    remaining: Effect.map(SubscriptionRef.get(state), (current) => current.steps.length)
  }
  return service
})
