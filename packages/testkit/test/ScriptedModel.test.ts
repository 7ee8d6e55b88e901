import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FileSystem from "effect/FileSystem"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Layer from "effect/Layer"
import * as Path from "effect/Path"
import * as Scope from "effect/Scope"
import { ScriptedModel } from "../src/index.js"
import { runPrompt, startCli, streamJsonArgs, userMessage } from "./utils/cli.js"

// -------------------------------------------------------------------------------------------------
// helpers
//
// Every test is `effect.pipe(Effect.scoped, Effect.provide(ScriptedModel.layerNode(...)))`: the CLI
// and the temp dirs live in the inner scope, so they are gone before the model and its HOME are.
// -------------------------------------------------------------------------------------------------

const tempDir = Effect.flatMap(FileSystem.FileSystem, (fs) => fs.makeTempDirectoryScoped({ prefix: "scripted-cwd-" }))

const readFile = (dir: string, name: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    return yield* fs.readFileString(path.join(dir, name))
  })

/** A Messages request like the CLI's main loop (tools and thinking) or a side call (neither). */
const messagesBody = (options: { readonly stream: boolean; readonly side?: boolean; readonly content?: string }) => ({
  model: "claude-test-model",
  max_tokens: 1024,
  stream: options.stream,
  system: [{ type: "text", text: "You are a scripted test." }],
  messages: [{ role: "user", content: [{ type: "text", text: options.content ?? "hello" }] }],
  ...(options.side === true ? {} : {
    tools: [{ name: "Bash", input_schema: { type: "object" } }],
    thinking: { type: "adaptive" },
    context_management: { edits: [] }
  })
})

const post = (path: string, body: unknown) =>
  Effect.gen(function*() {
    const url = yield* ScriptedModel.url
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.post(`${url}${path}`).pipe(
        HttpClientRequest.setHeader("x-api-key", "sk-secret-value"),
        HttpClientRequest.bodyJsonUnsafe(body)
      )
    )
    return { status: response.status, headers: response.headers, text: yield* response.text }
  })

interface SseEvent {
  readonly event: string
  readonly data: any
}

const parseSse = (text: string): Array<SseEvent> =>
  text.split("\n\n").filter((frame) => frame.trim().length > 0).map((frame) => {
    const lines = frame.split("\n")
    const event = lines.find((line) => line.startsWith("event: "))!.slice("event: ".length)
    const data = JSON.parse(lines.find((line) => line.startsWith("data: "))!.slice("data: ".length))
    return { event, data }
  })

const assistantBlocks = (messages: ReadonlyArray<any>): Array<any> =>
  messages.filter((message) => message.type === "assistant").flatMap((message) => message.message.content)

// -------------------------------------------------------------------------------------------------
// The server itself (plain HTTP, no CLI)
// -------------------------------------------------------------------------------------------------

layer(Layer.merge(NodeServices.layer, FetchHttpClient.layer), { excludeTestServices: true })(
  "ScriptedModel server",
  (it) => {
    it.effect("streams text, thinking and tool_use as Messages API SSE events", () =>
      Effect.gen(function*() {
        const response = yield* post("/v1/messages?beta=true", messagesBody({ stream: true }))
        assert.strictEqual(response.status, 200)
        assert.strictEqual(response.headers["content-type"], "text/event-stream")
        const events = parseSse(response.text)
        assert.deepStrictEqual(events.map((e) => e.event), [
          "message_start",
          "content_block_start",
          "content_block_delta",
          "content_block_delta",
          "content_block_stop",
          "content_block_start",
          "content_block_delta",
          "content_block_stop",
          "content_block_start",
          "content_block_delta",
          "content_block_stop",
          "message_delta",
          "message_stop"
        ])
        assert.strictEqual(events[0]!.data.message.model, "claude-test-model")
        assert.deepStrictEqual(events[1]!.data.content_block, { type: "thinking", thinking: "", signature: "" })
        assert.deepStrictEqual(events[2]!.data.delta, { type: "thinking_delta", thinking: "pondering" })
        assert.deepStrictEqual(events[3]!.data.delta, { type: "signature_delta", signature: "sig-1" })
        assert.deepStrictEqual(events[6]!.data.delta, { type: "text_delta", text: "Running it." })
        assert.deepStrictEqual(events[8]!.data.content_block, {
          type: "tool_use",
          id: "toolu_fixed",
          name: "Bash",
          input: {}
        })
        assert.deepStrictEqual(JSON.parse(events[9]!.data.delta.partial_json), { command: "echo hi" })
        assert.strictEqual(events[11]!.data.delta.stop_reason, "tool_use")
        assert.isAbove(events[11]!.data.usage.output_tokens, 0)

        const [recorded] = yield* ScriptedModel.requests
        assert.strictEqual(recorded!.kind, "turn")
        assert.strictEqual(recorded!.path, "/v1/messages")
        assert.strictEqual(recorded!.url, "/v1/messages?beta=true")
        assert.isTrue(recorded!.stream)
        assert.strictEqual(recorded!.system, "You are a scripted test.")
        assert.deepStrictEqual(recorded!.tools, ["Bash"])
        assert.isUndefined(recorded!.headers["x-api-key"])
        // Unknown fields are kept.
        assert.deepStrictEqual(recorded!.body?.context_management, { edits: [] })
      }).pipe(
        Effect.scoped,
        Effect.provide(ScriptedModel.layerNode([
          ScriptedModel.turn(
            ScriptedModel.thinking("pondering", { signature: "sig-1" }),
            ScriptedModel.text("Running it."),
            ScriptedModel.toolUse("Bash", { command: "echo hi" }, { id: "toolu_fixed" })
          )
        ]))
      ))

    it.effect("answers non-streaming requests, count_tokens, and 404s everything else", () =>
      Effect.gen(function*() {
        const message = yield* post("/v1/messages", messagesBody({ stream: false }))
        assert.strictEqual(message.status, 200)
        const json = JSON.parse(message.text)
        assert.strictEqual(json.type, "message")
        assert.deepStrictEqual(json.content, [{ type: "tool_use", id: "toolu_scripted_1", name: "Read", input: {} }])
        assert.strictEqual(json.stop_reason, "tool_use")

        const count = yield* post("/v1/messages/count_tokens?beta=true", messagesBody({ stream: false }))
        assert.strictEqual(count.status, 200)
        assert.isAbove(JSON.parse(count.text).input_tokens, 0)

        const client = yield* HttpClient.HttpClient
        const missing = yield* client.get(`${yield* ScriptedModel.url}/v1/models?beta=true`)
        assert.strictEqual(missing.status, 404)
        assert.include(yield* missing.text, "not GET /v1/models")

        const bad = yield* post("/v1/messages", { messages: "not an array" })
        assert.strictEqual(bad.status, 400)

        const recorded = yield* ScriptedModel.requests
        assert.deepStrictEqual(recorded.map((r) => r.kind), ["turn", "count_tokens", "not_found", "bad_request"])
        assert.deepStrictEqual(recorded.map((r) => r.index), [0, 1, 2, 3])
        assert.strictEqual(recorded[0]!.reply?._tag, "Turn")
        assert.strictEqual(recorded[2]!.path, "/v1/models")
      }).pipe(Effect.scoped, Effect.provide(ScriptedModel.layerNode([ScriptedModel.toolUse("Read", {})]))))

    it.effect("a delayed reply arrives after its delay, and completes", () =>
      Effect.gen(function*() {
        const started = Date.now()
        const message = yield* post("/v1/messages", messagesBody({ stream: false }))
        const elapsed = Date.now() - started
        assert.strictEqual(message.status, 200)
        assert.deepStrictEqual(JSON.parse(message.text).content, [{ type: "text", text: "late" }])
        assert.isAtLeast(elapsed, 280)
        assert.isBelow(elapsed, 5000)
      }).pipe(
        Effect.scoped,
        Effect.provide(ScriptedModel.layerNode([ScriptedModel.delayed(ScriptedModel.text("late"), "300 millis")]))
      ))

    it.effect("answers side calls without consuming the script, with JSON when a schema is asked for", () =>
      Effect.gen(function*() {
        const title = yield* post("/v1/messages", {
          ...messagesBody({ stream: false, side: true }),
          tools: [],
          output_config: {
            format: {
              type: "json_schema",
              schema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] }
            }
          }
        })
        assert.deepStrictEqual(JSON.parse(JSON.parse(title.text).content[0].text), { title: "Side answer" })
        const probe = yield* post("/v1/messages", { ...messagesBody({ stream: true, side: true }), max_tokens: 1 })
        assert.include(probe.text, "Side answer")

        const main = yield* post("/v1/messages", messagesBody({ stream: false }))
        assert.strictEqual(JSON.parse(main.text).content[0].text, "the only turn")
        const recorded = yield* ScriptedModel.requests
        assert.deepStrictEqual(recorded.map((r) => r.kind), ["side", "side", "turn"])
        assert.strictEqual(yield* ScriptedModel.remaining, 0)
      }).pipe(
        Effect.scoped,
        Effect.provide(ScriptedModel.layerNode([ScriptedModel.text("the only turn")], {
          sideReply: "Side answer"
        }))
      ))

    it.effect("sends HTTP errors with retry-after, and a recognizable text when the script is exhausted", () =>
      Effect.gen(function*() {
        const overloaded = yield* post("/v1/messages", messagesBody({ stream: true }))
        assert.strictEqual(overloaded.status, 529)
        assert.strictEqual(overloaded.headers["retry-after"], "0.25")
        assert.strictEqual(overloaded.headers["retry-after-ms"], "250")
        assert.strictEqual(JSON.parse(overloaded.text).error.type, "overloaded_error")

        const limited = yield* post("/v1/messages", messagesBody({ stream: false }))
        assert.strictEqual(limited.status, 429)
        assert.deepStrictEqual(JSON.parse(limited.text).error, { type: "rate_limit_error", message: "slow down" })

        const exhausted = yield* post("/v1/messages", messagesBody({ stream: false }))
        assert.strictEqual(exhausted.status, 200)
        assert.strictEqual(JSON.parse(exhausted.text).content[0].text, ScriptedModel.exhaustedText(2))
        const recorded = yield* ScriptedModel.requests
        assert.deepStrictEqual(recorded.map((r) => r.exhausted), [false, false, true])
        assert.isTrue(ScriptedModel.exhaustedText(2).startsWith(ScriptedModel.exhaustedMarker))
      }).pipe(
        Effect.scoped,
        Effect.provide(ScriptedModel.layerNode([
          ScriptedModel.error(529, { retryAfter: "250 millis" }),
          ScriptedModel.error(429, { message: "slow down" })
        ]))
      ))

    it.effect("rules answer in place, fall through on undefined, and leave after `times`", () =>
      Effect.gen(function*() {
        const ask = (content: string) =>
          Effect.map(
            post("/v1/messages", messagesBody({ stream: false, content })),
            (response) => JSON.parse(response.text).content[0].text as string
          )
        assert.strictEqual(yield* ask("ping"), "pong")
        assert.strictEqual(yield* ask("other"), "first")
        assert.strictEqual(yield* ask("ping"), "pong")
        assert.strictEqual(yield* ask("twice"), "once-or-twice #3")
        assert.strictEqual(yield* ask("twice"), "once-or-twice #4")
        assert.strictEqual(yield* ask("twice"), "second")
        assert.include(yield* ask("boom"), "rule failed at request #6")
        assert.strictEqual(yield* ask("other"), ScriptedModel.exhaustedText(7))
      }).pipe(
        Effect.scoped,
        Effect.provide(ScriptedModel.layerNode([
          ScriptedModel.rule((request) => request.lastUserText === "ping" ? ScriptedModel.text("pong") : undefined),
          ScriptedModel.rule(
            (request) => request.includes("twice") ? ScriptedModel.text(`once-or-twice #${request.index}`) : undefined,
            { times: 2 }
          ),
          ScriptedModel.rule((request) => {
            if (request.includes("boom")) throw new Error("kaboom")
            return undefined
          }),
          ScriptedModel.text("first"),
          ScriptedModel.text("second")
        ]))
      ))

    it.effect("grows with push, and awaitRequests waits for requests to arrive", () =>
      Effect.gen(function*() {
        const model = yield* ScriptedModel.ScriptedModel
        const waiter = yield* Effect.forkChild(model.awaitRequests(2, "turn"), { startImmediately: true })
        yield* post("/v1/messages", messagesBody({ stream: false }))
        assert.isUndefined(waiter.pollUnsafe(), "one request is not two")
        yield* model.push(ScriptedModel.text("pushed"))
        assert.strictEqual(yield* model.remaining, 1)
        const second = yield* post("/v1/messages", messagesBody({ stream: false }))
        assert.strictEqual(JSON.parse(second.text).content[0].text, "pushed")
        const arrived = yield* Fiber.join(waiter).pipe(Effect.timeout("2 seconds"))
        assert.strictEqual(arrived.length, 2)
        assert.strictEqual((yield* model.lastTurnRequest).index, 1)
      }).pipe(Effect.scoped, Effect.provide(ScriptedModel.layerNode([ScriptedModel.text("initial")]))))

    it.effect("stops when its scope closes, cutting a running slow stream and a pending delay short", () =>
      Effect.gen(function*() {
        const scope = yield* Scope.make()
        const context = yield* Layer.buildWithScope(
          ScriptedModel.layerNode([
            ScriptedModel.slow(ScriptedModel.text("x".repeat(100)), { delay: "1 second", chunkSize: 1 }),
            ScriptedModel.delayed(ScriptedModel.text("too late"), "1 minute")
          ]),
          scope
        )
        const model = Context.get(context, ScriptedModel.ScriptedModel)
        const client = yield* HttpClient.HttpClient
        const inFlight = (stream: boolean) =>
          client.execute(
            HttpClientRequest.post(`${model.url}/v1/messages`).pipe(
              HttpClientRequest.bodyJsonUnsafe(messagesBody({ stream }))
            )
          ).pipe(
            Effect.flatMap((response) => response.text),
            Effect.result,
            Effect.forkChild({ startImmediately: true })
          )
        const slowRequest = yield* inFlight(true)
        yield* model.awaitRequests(1).pipe(Effect.timeout("2 seconds"))
        const delayedRequest = yield* inFlight(false)
        yield* model.awaitRequests(2).pipe(Effect.timeout("2 seconds"))
        const fs = yield* FileSystem.FileSystem
        assert.isTrue(yield* fs.exists(model.home))

        const start = Date.now()
        yield* Scope.close(scope, Exit.void).pipe(Effect.timeout("5 seconds"))
        assert.isBelow(Date.now() - start, 3000)
        yield* Fiber.join(slowRequest).pipe(Effect.timeout("5 seconds"))
        yield* Fiber.join(delayedRequest).pipe(Effect.timeout("5 seconds"))
        assert.isFalse(yield* fs.exists(model.home))
        const after = yield* client.get(`${model.url}/v1/messages`).pipe(Effect.result)
        assert.isTrue(after._tag === "Failure", "the port is closed")
      }))
  }
)

// -------------------------------------------------------------------------------------------------
// Driving the real CLI
// -------------------------------------------------------------------------------------------------

layer(NodeServices.layer, { excludeTestServices: true })("ScriptedModel with the real claude CLI", (it) => {
  it.effect("text only", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const run = yield* runPrompt("Say hello", { cwd })
      assert.strictEqual(run.exitCode, 0, run.stderr)
      assert.strictEqual(run.result.result, "Hello from the script")
      assert.isFalse(run.result.is_error)

      const requests = yield* ScriptedModel.turnRequests
      assert.strictEqual(requests.length, 1)
      const request = requests[0]!
      assert.strictEqual(request.lastUserText.split("\n").at(-1), "Say hello")
      assert.isTrue(request.stream)
      assert.include(request.tools, "Bash")
      assert.include(request.system, "x-anthropic-billing-header")
      // What else the model saw: the environment as a role:"system" message, and system reminders.
      assert.isTrue(request.systemMessages.some((text) => text.includes(cwd)))
      assert.isAbove(request.systemReminders.length, 0)
      assert.isUndefined(request.headers["x-api-key"])
      assert.strictEqual(request.headers["x-app"], "cli")
    }).pipe(Effect.scoped, Effect.provide(ScriptedModel.layerNode([ScriptedModel.text("Hello from the script")]))))

  it.effect("a single tool: Bash runs, and the follow-up request carries its tool_result", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const run = yield* runPrompt("Write the file", { cwd, args: ["--allowedTools", "Bash"] })
      assert.strictEqual(run.exitCode, 0, run.stderr)
      assert.strictEqual(run.result.result, "done")
      assert.strictEqual(yield* readFile(cwd, "out.txt"), "hi\n")

      const [first, second] = yield* ScriptedModel.turnRequests
      assert.deepStrictEqual(first!.latestToolResults, [])
      assert.strictEqual(second!.latestToolResults.length, 1)
      const result = second!.latestToolResults[0]!
      assert.strictEqual(result.toolUseId, "toolu_echo")
      assert.isFalse(result.isError)
      assert.deepStrictEqual(yield* ScriptedModel.toolResults, [result])
      // The assistant turn is replayed as it was streamed.
      const assistant = second!.messages.find((message) => message.role === "assistant")!
      assert.deepStrictEqual((assistant.content as ReadonlyArray<any>).find((b) => b.type === "tool_use").input, {
        command: "echo hi > out.txt",
        description: "write the file"
      })
    }).pipe(
      Effect.scoped,
      Effect.provide(ScriptedModel.layerNode([
        ScriptedModel.toolUse("Bash", { command: "echo hi > out.txt", description: "write the file" }, {
          id: "toolu_echo"
        }),
        ScriptedModel.text("done")
      ]))
    ))

  it.effect("several tools in one turn", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const path = yield* Path.Path
      yield* ScriptedModel.push(
        ScriptedModel.turn(
          ScriptedModel.text("Two things at once."),
          ScriptedModel.toolUse("Bash", { command: "echo from-bash > a.txt", description: "a" }),
          ScriptedModel.toolUse("Write", { file_path: path.join(cwd, "b.txt"), content: "from-write\n" })
        ),
        ScriptedModel.text("both done")
      )
      const run = yield* runPrompt("Do both", { cwd, args: ["--allowedTools", "Bash,Write"] })
      assert.strictEqual(run.exitCode, 0, run.stderr)
      assert.strictEqual(run.result.result, "both done")
      assert.strictEqual(yield* readFile(cwd, "a.txt"), "from-bash\n")
      assert.strictEqual(yield* readFile(cwd, "b.txt"), "from-write\n")

      const last = yield* ScriptedModel.lastTurnRequest
      assert.deepStrictEqual(
        last.latestToolResults.map((result) => [result.toolUseId, result.isError]),
        [["toolu_scripted_1", false], ["toolu_scripted_2", false]]
      )
      assert.isTrue(last.latestToolResults[1]!.content.includes("b.txt"))
    }).pipe(Effect.scoped, Effect.provide(ScriptedModel.layerNode([]))))

  it.effect("thinking blocks stream with their signature and are replayed to the model", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const run = yield* runPrompt("Think first", { cwd, args: ["--allowedTools", "Bash"] })
      assert.strictEqual(run.exitCode, 0, run.stderr)
      assert.strictEqual(run.result.result, "thought it through")
      const blocks = assistantBlocks(run.messages)
      assert.deepStrictEqual(blocks.find((block) => block.type === "thinking"), {
        type: "thinking",
        thinking: "The user wants me to think.",
        signature: "sig-abc"
      })

      const last = yield* ScriptedModel.lastTurnRequest
      const replayed = last.messages.flatMap((message) =>
        message.role === "assistant" && typeof message.content !== "string" ? message.content : []
      )
      const thinkingBlock = replayed.find((block) => block.type === "thinking")
      assert.strictEqual(thinkingBlock?.thinking, "The user wants me to think.")
      assert.strictEqual(thinkingBlock?.signature, "sig-abc")
    }).pipe(
      Effect.scoped,
      Effect.provide(ScriptedModel.layerNode([
        ScriptedModel.turn(
          ScriptedModel.thinking("The user wants me to think.", { signature: "sig-abc" }),
          ScriptedModel.toolUse("Bash", { command: "true", description: "nothing" })
        ),
        ScriptedModel.text("thought it through")
      ]))
    ))

  it.effect("529 overloaded, then success: the CLI retries and the retry gets the next turn", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const run = yield* runPrompt("Try hard", { cwd })
      assert.strictEqual(run.exitCode, 0, run.stderr)
      assert.strictEqual(run.result.result, "recovered")
      const retries = run.messages.filter((message) => message.type === "system" && message.subtype === "api_retry")
      assert.strictEqual(retries.length, 1)
      assert.strictEqual(retries[0].error_status, 529)
      assert.strictEqual(retries[0].error, "overloaded")

      const requests = yield* ScriptedModel.turnRequests
      assert.deepStrictEqual(
        requests.map((request) => request.reply?._tag === "ErrorReply" ? request.reply.status : "turn"),
        [529, "turn"]
      )
    }).pipe(
      Effect.scoped,
      Effect.provide(ScriptedModel.layerNode([
        ScriptedModel.error(529, { retryAfter: "10 millis" }),
        ScriptedModel.text("recovered")
      ]))
    ))

  it.effect("a slow stream: deltas arrive over time", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const run = yield* runPrompt("Stream slowly", { cwd, args: ["--include-partial-messages"] })
      assert.strictEqual(run.exitCode, 0, run.stderr)
      assert.strictEqual(run.result.result, "one two six ten red big cat dog ")
      const deltas = run.lines.filter((line) =>
        line.message.type === "stream_event" && line.message.event.type === "content_block_delta" &&
        line.message.event.delta.type === "text_delta"
      )
      assert.strictEqual(deltas.length, 8)
      assert.deepStrictEqual(deltas.map((line) => line.message.event.delta.text).slice(0, 2), ["one ", "two "])
      // 7 gaps of 80 ms: the CLI saw the deltas spread out, not in one burst.
      assert.isAtLeast(deltas.at(-1)!.at - deltas[0]!.at, 7 * 80 * 0.75)
    }).pipe(
      Effect.scoped,
      Effect.provide(ScriptedModel.layerNode([
        ScriptedModel.text("one two six ten red big cat dog ").pipe(
          ScriptedModel.slow({ delay: "80 millis", chunkSize: 4 })
        )
      ]))
    ))

  it.effect("a rule reacts to the request: a tool call first, done once its result is there", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const run = yield* runPrompt("React", { cwd, args: ["--allowedTools", "Bash"] })
      assert.strictEqual(run.exitCode, 0, run.stderr)
      assert.strictEqual(run.result.result, "done: rule-output")
      const requests = yield* ScriptedModel.turnRequests
      assert.strictEqual(requests.length, 2)
      assert.isTrue(requests[1]!.includes("rule-output"))
    }).pipe(
      Effect.scoped,
      Effect.provide(ScriptedModel.layerNode([
        ScriptedModel.rule((request) => {
          const [result] = request.latestToolResults
          return result === undefined
            ? ScriptedModel.toolUse("Bash", { command: "echo rule-output", description: "echo" })
            : ScriptedModel.text(`done: ${result.content.trim()}`)
        })
      ]))
    ))

  it.effect("hook additionalContext reaches the model and shows in the recorded request", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const hookOutput = JSON.stringify({
        hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "CTX-FROM-HOOK" }
      })
      const settings = JSON.stringify({
        hooks: {
          PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${hookOutput}'` }] }]
        }
      })
      const run = yield* runPrompt("Hook it", { cwd, args: ["--allowedTools", "Bash", "--settings", settings] })
      assert.strictEqual(run.exitCode, 0, run.stderr)
      const last = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(last.includes("PostToolUse:Bash hook additional context: CTX-FROM-HOOK"))
      const first = (yield* ScriptedModel.turnRequests)[0]!
      assert.isFalse(first.includes("CTX-FROM-HOOK"))
    }).pipe(
      Effect.scoped,
      Effect.provide(ScriptedModel.layerNode([
        ScriptedModel.toolUse("Bash", { command: "echo hooked", description: "echo" }),
        ScriptedModel.text("ok")
      ]))
    ))

  it.effect("side calls (a session title) do not consume the script", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const cli = yield* startCli({ args: streamJsonArgs, cwd })
      yield* cli.send({
        type: "control_request",
        request_id: "title-1",
        request: { subtype: "generate_session_title", description: "fix the login bug" }
      })
      const reply = yield* cli.awaitMessage((message) =>
        message.type === "control_response" && message.response.request_id === "title-1"
      ).pipe(Effect.timeout("20 seconds"))
      assert.deepStrictEqual(reply.message.response.response, { title: "Scripted reply." })
      yield* cli.send(userMessage("Now the real question"))
      yield* cli.endInput
      const run = yield* cli.exit.pipe(Effect.timeout("20 seconds"))
      assert.strictEqual(run.result.result, "the scripted answer")
      const requests = yield* ScriptedModel.requests
      assert.deepStrictEqual(requests.map((request) => request.kind), ["side", "turn"])
      assert.isFalse(requests[1]!.exhausted)
    }).pipe(Effect.scoped, Effect.provide(ScriptedModel.layerNode([ScriptedModel.text("the scripted answer")]))))

  it.effect("a multi-turn session whose script grows while it runs", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const cli = yield* startCli({ args: streamJsonArgs, cwd })
      yield* cli.send(userMessage("first question"))
      const first = yield* cli.awaitMessage((message) => message.type === "result").pipe(Effect.timeout("20 seconds"))
      assert.strictEqual(first.message.result, "first answer")

      yield* ScriptedModel.push(ScriptedModel.text("second answer"))
      yield* cli.send(userMessage("second question"))
      const second = yield* cli.awaitMessage((message) => message.type === "result", 2).pipe(
        Effect.timeout("20 seconds")
      )
      assert.strictEqual(second.message.result, "second answer")
      yield* cli.endInput
      const run = yield* cli.exit.pipe(Effect.timeout("20 seconds"))
      assert.strictEqual(run.exitCode, 0, run.stderr)

      const [, last] = yield* ScriptedModel.awaitRequests(2, "turn")
      assert.isTrue(last!.includes("first question"))
      assert.strictEqual(last!.lastUserText.split("\n").at(-1), "second question")
    }).pipe(Effect.scoped, Effect.provide(ScriptedModel.layerNode([ScriptedModel.text("first answer")]))))

  it.effect("an exhausted script answers with a recognizable text instead of hanging", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const run = yield* runPrompt("Anything", { cwd })
      assert.strictEqual(run.exitCode, 0, run.stderr)
      assert.isTrue(run.result.result.startsWith(ScriptedModel.exhaustedMarker))
      const [request] = yield* ScriptedModel.requests
      assert.isTrue(request!.exhausted)
    }).pipe(Effect.scoped, Effect.provide(ScriptedModel.layerNode([]))))
})
