/**
 * Claude Code as an `effect/ai` `LanguageModel`: a provider-agnostic
 * program (a toolkit whose handler uses an application service,
 * `generateText`, `generateObject`) run on Claude Code, then a `Chat` of two
 * turns on one CLI process.
 *
 *   npx tsx src/examples/effect-ai.ts          # offline, against the scripted model
 *   npx tsx src/examples/effect-ai.ts --live   # the real API
 */
import { ClaudeCodeChat, ClaudeCodeLanguageModel } from "@claude-effect/ai"
import { ScriptedModel } from "@claude-effect/testkit"
import * as LanguageModel from "effect/ai/LanguageModel"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Example from "../Example.js"

class Orders extends Context.Service<Orders, {
  readonly status: (id: string) => Effect.Effect<"shipped" | "pending", UnknownOrder>
}>()("example/Orders") {}

class UnknownOrder extends Schema.TaggedError<UnknownOrder>()("UnknownOrder", { id: Schema.String }) {}

const OrderStatus = Tool.make("OrderStatus", {
  description: "The shipping status of an order, by id (e.g. A-1001)",
  parameters: Schema.Struct({ id: Schema.String }),
  success: Schema.Struct({ id: Schema.String, status: Schema.Literals(["shipped", "pending"]) }),
  failure: UnknownOrder,
  failureMode: "return"
})

const Support = Toolkit.make(OrderStatus)

const SupportLive = Support.toLayer(Effect.gen(function*() {
  const orders = yield* Orders
  return { OrderStatus: ({ id }) => Effect.map(orders.status(id), (status) => ({ id, status })) }
})).pipe(Layer.provide(Layer.succeed(Orders, {
  status: (id) =>
    id === "A-1001"
      ? Effect.succeed("shipped")
      : id === "A-2002"
      ? Effect.succeed("pending")
      : Effect.fail(new UnknownOrder({ id }))
})))

class Summary extends Schema.Class<Summary>("Summary")({
  shipped: Schema.Array(Schema.String),
  pending: Schema.Array(Schema.String)
}) {}

// The program knows LanguageModel only; the layer below makes it Claude Code.
const support = Effect.gen(function*() {
  const answer = yield* LanguageModel.generateText({ prompt: "Where are orders A-1001 and A-2002?", toolkit: Support })
  for (const call of answer.toolCalls) yield* Console.log(`  tool:   ${call.name} ${JSON.stringify(call.params)}`)
  for (const result of answer.toolResults) yield* Console.log(`  result: ${JSON.stringify(result.result)}`)
  yield* Console.log(`  claude: ${answer.text}`)
  const summary = yield* LanguageModel.generateObject({
    prompt: "Orders A-1001 is shipped and A-2002 is pending. Summarize them.",
    schema: Summary
  })
  yield* Console.log(
    `  object: shipped ${summary.value.shipped.join(", ")}; pending ${summary.value.pending.join(", ")}`
  )
})

// A chat: two turns, one CLI process.
const chat = Effect.scoped(Effect.gen(function*() {
  const chat = yield* ClaudeCodeChat.make({ maxTurns: 4 })
  const first = yield* chat.generateText({ prompt: "Remember the number 7." })
  const second = yield* chat.generateText({ prompt: "Which number did I ask you to remember?" })
  yield* Console.log(`  chat:   ${first.text} / ${second.text}`)
}))

export const program = Effect.andThen(support, chat).pipe(
  Effect.provide(SupportLive),
  Effect.provide(ClaudeCodeLanguageModel.layer({ maxTurns: 6 }))
)

/** What the scripted model does offline. */
export const script = [
  // generateText: two lookups through the app's tool, then an answer from their results
  ScriptedModel.turn(
    ScriptedModel.toolUse("mcp__app__OrderStatus", { id: "A-1001" }),
    ScriptedModel.toolUse("mcp__app__OrderStatus", { id: "A-2002" })
  ),
  ScriptedModel.rule((request) =>
    request.latestToolResults.length === 2
      ? ScriptedModel.text(`Statuses: ${request.latestToolResults.map((result) => result.content).join("; ")}.`)
      : undefined, { times: 1 }),
  // generateObject: the answer through the CLI's structured-output tool
  ScriptedModel.structuredOutput({ shipped: ["A-1001"], pending: ["A-2002"] }),
  // the chat's two turns
  ScriptedModel.text("Noted: 7."),
  ScriptedModel.rule((request) =>
    request.includes("Noted: 7.") ? ScriptedModel.text("You asked me to remember 7.") : undefined
  )
]

Example.main(import.meta, program, script)
