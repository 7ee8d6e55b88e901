/**
 * Elicitation from an in-process tool (`context.elicit`), answered in
 * process by the session's ElicitationHandler: the form the handler sees,
 * the policy (validation, timeout on the Clock, decline fallback), decoding
 * of the accepted form. On the real CLI 2.1.328 (at the end), both routes: an
 * in-process tool asking through `context.elicit` (answered in process: the
 * CLI does not relay SDK servers' elicitations), and a stdio MCP server
 * asking the CLI, which sends the `elicitation` control request; proven by
 * what the tool, the server and the model's next request see.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import { fileURLToPath } from "node:url"
import * as ClaudeCode from "../src/ClaudeCode.js"
import * as ClaudeOptions from "../src/ClaudeOptions.js"
import * as ElicitationHandler from "../src/ElicitationHandler.js"
import * as McpServer from "../src/McpServer.js"
import * as McpTool from "../src/McpTool.js"
import type * as Protocol from "../src/Protocol.js"
import { harness, Logs, processesIn, Workspace } from "./utils/harness.js"

const Seats = Schema.Struct({
  seats: Schema.Int.check(Schema.isGreaterThan(0)).annotate({ description: "How many seats" }),
  window: Schema.optionalKey(Schema.Boolean)
})

const reserve = McpTool.make("reserve", {
  description: "Reserve seats for a show, asking the user how many",
  parameters: Schema.Struct({ show: Schema.String })
}, ({ show }, context) =>
  Effect.gen(function*() {
    const answer = yield* context.elicit(`How many seats for ${show}?`, Seats)
    return answer.action === "accept"
      ? `reserved ${answer.content.seats} seats for ${show}${answer.content.window === true ? " by the window" : ""}`
      : `no reservation: the user chose ${answer.action}`
  }))

const boxOffice = McpServer.make({ name: "box-office", tools: [reserve] })

const call = (id: number, show: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "reserve", arguments: { show } }
})

const resultOf = (response: McpServer.JsonRpcResponse) => {
  assert.isTrue("result" in response, JSON.stringify(response))
  return response.result as McpTool.CallToolResult
}

const textOf = (response: McpServer.JsonRpcResponse) => {
  const [block] = resultOf(response).content
  return block.type === "text" ? block.text : `[${block.type}]`
}

/** The request `reserve` makes: a form that is the JSON Schema of `Seats`' encoded side (effect 4's: no `title`). */
const assertSeatsForm = (request: ElicitationHandler.Request | undefined) => {
  assert.strictEqual(request?.subtype, "elicitation")
  assert.strictEqual(request?.mcp_server_name, "tickets")
  assert.strictEqual(request?.message, "How many seats for Hamlet?")
  assert.strictEqual(request?.mode, "form")
  assert.deepStrictEqual(request?.requested_schema, {
    type: "object",
    properties: {
      seats: { type: "integer", description: "How many seats", exclusiveMinimum: 0, maximum: 9007199254740991 },
      window: { type: "boolean" }
    },
    required: ["seats"],
    additionalProperties: false
  })
  assert.deepStrictEqual(request?.property_order, ["seats", "window"])
}

describe("an in-process tool elicits input (McpServer.handle)", () => {
  it.effect("accept: the handler sees the form and the server's name, the tool gets the decoded content", () =>
    Effect.gen(function*() {
      const seen = yield* Ref.make<ReadonlyArray<ElicitationHandler.Request>>([])
      const server = yield* boxOffice
      const response = yield* McpServer.handle(server, call(1, "Hamlet"), { serverName: "tickets", requestId: "req-1" })
        .pipe(
          Effect.provide(ElicitationHandler.layer((request) =>
            Effect.as(
              Ref.update(seen, (all) => [...all, request]),
              ElicitationHandler.accept({ seats: 2, window: true })
            )
          ))
        )
      assert.strictEqual(textOf(response), "reserved 2 seats for Hamlet by the window")
      const [request] = yield* Ref.get(seen)
      assertSeatsForm(request)
    }))

  it.effect("decline, and no ElicitationHandler at all: the tool sees a decline", () =>
    Effect.gen(function*() {
      const server = yield* boxOffice
      const declined = yield* McpServer.handle(server, call(1, "Hamlet")).pipe(
        Effect.provide(ElicitationHandler.layer(() => Effect.succeed(ElicitationHandler.decline)))
      )
      assert.strictEqual(textOf(declined), "no reservation: the user chose decline")
      assert.strictEqual(
        textOf(yield* McpServer.handle(server, call(2, "Hamlet"))),
        "no reservation: the user chose decline"
      )
    }))
})

describe("elicitation policy (McpServer.handle, TestClock)", () => {
  it.effect("the handler's answer is validated: an unknown action falls back to decline", () =>
    Effect.gen(function*() {
      const server = yield* boxOffice
      const response = yield* McpServer.handle(server, call(1, "Macbeth"), { serverName: "tickets" }).pipe(
        Effect.provide(
          ElicitationHandler.layer(() => Effect.succeed({ action: "maybe" } as unknown as ElicitationHandler.Result))
        )
      )
      assert.deepStrictEqual(resultOf(response).content, [{
        type: "text",
        text: "no reservation: the user chose decline"
      }])
    }))

  it.effect("the timeout is the handler's own, on the Clock: decline once it passes", () =>
    Effect.gen(function*() {
      const server = yield* boxOffice
      // (the tool's own timeout, 60 s by default, bounds the call, the user's answer included)
      const fiber = yield* McpServer.handle(server, call(2, "Lear"), { serverName: "tickets" }).pipe(
        Effect.provide(ElicitationHandler.layer(() => Effect.never, { timeout: "30 seconds" })),
        Effect.forkChild
      )
      yield* TestClock.adjust("29 seconds")
      assert.isUndefined(fiber.pollUnsafe(), "still waiting for the user")
      yield* TestClock.adjust("1 second")
      const response = yield* Fiber.join(fiber)
      assert.include(textOf(response), "decline")
    }))

  it.effect("cancel reaches the tool as cancel; an accepted form that does not decode is an ElicitationError", () =>
    Effect.gen(function*() {
      const server = yield* boxOffice
      const cancelled = yield* McpServer.handle(server, call(3, "Othello")).pipe(
        Effect.provide(ElicitationHandler.layer(() => Effect.succeed(ElicitationHandler.cancel)))
      )
      assert.include(textOf(cancelled), "the user chose cancel")
      const bad = yield* McpServer.handle(server, call(4, "Othello")).pipe(
        Effect.provide(ElicitationHandler.layer(() => Effect.succeed(ElicitationHandler.accept({ seats: -1 }))))
      )
      // the tool did not handle the ElicitationError: the model reads its message as an error result
      assert.isTrue(resultOf(bad).isError)
      assert.strictEqual(
        textOf(bad),
        "ElicitationError: The answer to the elicitation does not match its schema: seats: Expected a value greater than 0, got -1"
      )
    }))

  it.effect("a form that is not flat cannot be asked: InvalidSchema, and no question reaches the handler", () =>
    Effect.gen(function*() {
      const asked = yield* Ref.make(0)
      const nested = McpTool.make("nested", {
        description: "asks for a nested form",
        parameters: Schema.Struct({})
      }, (_, context) =>
        Effect.gen(function*() {
          const answer = yield* Effect.result(
            context.elicit("Address?", Schema.Struct({ address: Schema.Struct({ city: Schema.String }) }))
          )
          return Result.isFailure(answer) ? `${answer.failure.reason}: ${answer.failure.message}` : "asked"
        }))
      const server = yield* McpServer.make({ name: "forms", tools: [nested] })
      const response = yield* McpServer.handle(server, {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "nested", arguments: {} }
      }).pipe(
        Effect.provide(
          ElicitationHandler.layer(() => Effect.as(Ref.update(asked, (n) => n + 1), ElicitationHandler.decline))
        )
      )
      assert.strictEqual(
        textOf(response),
        "InvalidSchema: Cannot ask for this form: the fields \"address\" are not flat. Use a flat Schema.Struct of strings, numbers, booleans, literals or arrays of strings."
      )
      assert.strictEqual(yield* Ref.get(asked), 0)
    }))

  it.effect("ElicitationHandler.respond answers as a session does, with the handler's services", () =>
    Effect.gen(function*() {
      class Directory extends Context.Service<Directory, { readonly name: string }>()("test/Directory") {}
      const request: ElicitationHandler.Request = {
        subtype: "elicitation",
        mcp_server_name: "crm",
        message: "Your name?",
        requested_schema: { type: "object", properties: { name: { type: "string" } } }
      }
      const service = yield* ElicitationHandler.make((asked) =>
        Effect.map(
          Effect.service(Directory),
          (directory) =>
            asked.mcp_server_name === "crm"
              ? ElicitationHandler.accept({ name: directory.name })
              : ElicitationHandler.decline
        )
      ).pipe(Effect.provideService(Directory, { name: "Ada" }))
      assert.deepStrictEqual(yield* ElicitationHandler.respond(service, request, { requestId: "r1" }), {
        action: "accept",
        content: { name: "Ada" }
      })
      assert.deepStrictEqual(yield* ElicitationHandler.respond(undefined, request, { requestId: "r2" }), {
        action: "decline"
      })
      // a failing handler: the decline fallback
      const failing = yield* ElicitationHandler.make(() => Effect.fail("the form service is down"))
      assert.deepStrictEqual(yield* ElicitationHandler.respond(failing, request, { requestId: "r3" }), {
        action: "decline"
      })
    }))
})

describe("the official SDK's callbacks are layers here", () => {
  it.effect("onElicitation, onUserDialog and supportedDialogKinds point at ElicitationHandler and UserDialog", () =>
    Effect.gen(function*() {
      const detailOf = (input: unknown) => Effect.map(Effect.flip(ClaudeOptions.decode(input)), (error) => error.detail)
      assert.include(
        yield* detailOf({ onElicitation: () => null }),
        "onElicitation: not an option: use ElicitationHandler.layer(handler) instead"
      )
      assert.include(
        yield* detailOf({ onUserDialog: () => null }),
        "onUserDialog: not an option: use UserDialog.layer(handler, { kinds }) instead"
      )
      assert.include(
        yield* detailOf({ supportedDialogKinds: ["refusal_fallback_prompt"] }),
        "supportedDialogKinds: not an option: declare them with UserDialog.layer(handler, { kinds }) instead"
      )
    }))
})

// -----------------------------------------------------------------------------
// On the real CLI
// -----------------------------------------------------------------------------

const elicitingServer = fileURLToPath(new URL("./fixtures/eliciting-mcp-server.mjs", import.meta.url))

const collect = <E, R>(stream: Stream.Stream<Protocol.Message, E, R>) => Stream.runCollect(stream)

const reserveCall = ScriptedModel.toolUse("mcp__tickets__reserve", { show: "Hamlet" })

/** The handler's requests, recorded by a handler that answers with `answer`. */
const recording = (answer: (request: ElicitationHandler.Request) => Effect.Effect<ElicitationHandler.Result>) =>
  Effect.map(Ref.make<ReadonlyArray<ElicitationHandler.Request>>([]), (seen) => ({
    seen,
    layer: ElicitationHandler.layer((request) =>
      Effect.andThen(Ref.update(seen, (all) => [...all, request]), answer(request))
    )
  }))

/** Runs one query that calls `reserve` under `handler` (none: no ElicitationHandler), returns the tool's result text. */
const reserveUnder = (handler: Layer.Layer<ElicitationHandler.ElicitationHandler> | undefined) =>
  Effect.gen(function*() {
    const tickets = yield* boxOffice
    const query = collect(ClaudeCode.query("two seats for Hamlet", {
      mcpServers: { tickets },
      allowedTools: ["mcp__tickets"]
    }))
    const messages = yield* (handler === undefined ? query : Effect.provide(query, handler))
    assert.strictEqual((messages.find((m) => m.type === "result") as any).subtype, "success")
    const last = yield* ScriptedModel.lastTurnRequest
    assert.strictEqual(last.latestToolResults.length, 1)
    return last.latestToolResults[0].content
  })

describe("an in-process tool elicits input (real CLI)", () => {
  it.live("accept: the handler sees the form, the tool gets the decoded content, the model reads the result", () =>
    Effect.gen(function*() {
      const { layer, seen } = yield* recording(() =>
        Effect.succeed(ElicitationHandler.accept({ seats: 2, window: true }))
      )
      const result = yield* reserveUnder(layer)
      assert.strictEqual(result, "reserved 2 seats for Hamlet by the window")
      const [request] = yield* Ref.get(seen)
      assertSeatsForm(request)
    }).pipe(Effect.provide(harness([reserveCall, ScriptedModel.text("done")]))))

  it.live("decline: the tool sees the refusal", () =>
    Effect.gen(function*() {
      const { layer } = yield* recording(() => Effect.succeed(ElicitationHandler.decline))
      assert.strictEqual(yield* reserveUnder(layer), "no reservation: the user chose decline")
    }).pipe(Effect.provide(harness([reserveCall, ScriptedModel.text("done")]))))

  it.live("a handler that outlives its timeout: the decline fallback answers, with a warning", () =>
    Effect.gen(function*() {
      const started = Date.now()
      const result = yield* reserveUnder(ElicitationHandler.layer(() => Effect.never, { timeout: "300 millis" }))
      assert.strictEqual(result, "no reservation: the user chose decline")
      assert.isBelow(Date.now() - started, 20_000)
      const logs = yield* Logs
      const warning = logs.find((entry) => entry.message.includes("fell back to decline (timeout)"))
      assert.isDefined(warning)
      assert.include(warning!.message, "elicitation handler (MCP server \"tickets\")")
    }).pipe(Effect.provide(harness([reserveCall, ScriptedModel.text("done")]))))

  it.live("no ElicitationHandler: every elicitation is declined", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* reserveUnder(undefined), "no reservation: the user chose decline")
    }).pipe(Effect.provide(harness([reserveCall, ScriptedModel.text("done")]))))
})

describe("a stdio MCP server elicits input through the CLI (real CLI)", () => {
  const bookCall = ScriptedModel.toolUse("mcp__booking__book", {})
  const bookUnder = (handler: Layer.Layer<ElicitationHandler.ElicitationHandler> | undefined) =>
    Effect.gen(function*() {
      const query = collect(ClaudeCode.query("book seats", {
        mcpServers: { booking: { command: process.execPath, args: [elicitingServer] } },
        allowedTools: ["mcp__booking"]
      }))
      yield* (handler === undefined ? query : Effect.provide(query, handler))
      const last = yield* ScriptedModel.lastTurnRequest
      return last.latestToolResults[0].content
    })

  it.live("the CLI's elicitation request reaches the handler; the server gets its answer", () =>
    Effect.gen(function*() {
      const { layer, seen } = yield* recording(() => Effect.succeed(ElicitationHandler.accept({ seats: 3 })))
      const result = yield* bookUnder(layer)
      // what the server received from the CLI, as it reported it in the tool result
      assert.strictEqual(result, `elicited: {"action":"accept","content":{"seats":3}}`)
      const [request] = yield* Ref.get(seen)
      // the CLI and the server it started are gone with the query
      assert.deepStrictEqual(processesIn((yield* Workspace).cwd), [])
      assert.strictEqual(request.mcp_server_name, "booking")
      assert.strictEqual(request.message, "How many seats?")
      assert.deepStrictEqual((request.requested_schema as any).required, ["seats"])
      assert.deepStrictEqual(request.property_order, ["seats", "window"])
    }).pipe(Effect.provide(harness([bookCall, ScriptedModel.text("done")]))))

  it.live("without a handler the server gets decline (an error reply would have made the CLI cancel)", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* bookUnder(undefined), `elicited: {"action":"decline"}`)
    }).pipe(Effect.provide(harness([bookCall, ScriptedModel.text("done")]))))

  it.live("a failing handler: the server gets the decline fallback", () =>
    Effect.gen(function*() {
      const failing = ElicitationHandler.layer(() => Effect.fail("the form service is down"))
      assert.strictEqual(yield* bookUnder(failing), `elicited: {"action":"decline"}`)
      const logs = yield* Logs
      assert.isDefined(logs.find((entry) => entry.message.includes("fell back to decline (failure)")))
    }).pipe(Effect.provide(harness([bookCall, ScriptedModel.text("done")]))))
})
