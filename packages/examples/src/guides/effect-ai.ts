/**
 * The code of docs/effect-ai.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file — in
 * particular the one provider-agnostic program — and
 * test/guides/effect-ai.test.ts runs it. (Its `anthropic` region waits: no
 * `@effect/ai-anthropic` loads on effect 4.1.5.) A block's own
 * imports are in its region.
 */
// #region imports
import { ClaudeCodeLanguageModel } from "@claude-effect/ai"
import { ClaudeCode, type ClaudeError } from "@claude-effect/sdk"
import { NodeServices } from "@effect/platform-node"
import { Console, Context, Effect, Layer, Schema, Stream } from "effect"
import type { AiError } from "effect/ai"
import { LanguageModel, Tool, Toolkit } from "effect/ai"
// #endregion

// #region agnostic
// An application service, and a tool whose handler uses it.
class Orders extends Context.Service<Orders, {
  readonly status: (id: string) => Effect.Effect<"shipped" | "pending", UnknownOrder>
}>()("app/Orders") {}

class UnknownOrder extends Schema.TaggedError<UnknownOrder>()("UnknownOrder", { id: Schema.String }) {}

const OrderStatus = Tool.make("OrderStatus", {
  description: "The shipping status of an order, by id (e.g. A-1001)",
  parameters: Schema.Struct({ id: Schema.String }),
  success: Schema.Struct({ id: Schema.String, status: Schema.Literals(["shipped", "pending"]) }),
  failure: UnknownOrder,
  failureMode: "return" // the model reads the failure and can say so
})

const Support = Toolkit.make(OrderStatus)

const SupportLive = Support.toLayer(Effect.gen(function*() {
  const orders = yield* Orders
  return { OrderStatus: ({ id }) => Effect.map(orders.status(id), (status) => ({ id, status })) }
}))

// Provider-agnostic: it needs a LanguageModel, any LanguageModel.
const answer = (question: string): Effect.Effect<string, AiError.AiError, LanguageModel.LanguageModel | Orders> =>
  LanguageModel.generateText({ prompt: question, toolkit: Support }).pipe(
    Effect.map((response) => response.text),
    Effect.provide(SupportLive)
  )

// The application's Orders: A-1001 has shipped; any other id is unknown.
const OrdersLive = Layer.succeed(Orders, {
  status: (id) => id === "A-1001" ? Effect.succeed("shipped" as const) : Effect.fail(new UnknownOrder({ id }))
})
// #endregion

// #region claude-code
// On Claude Code: the agent calls OrderStatus (as mcp__app__OrderStatus) through an in-process MCP server.
const onClaudeCode: Effect.Effect<string, AiError.AiError | ClaudeError.OptionsError, Orders> = answer(
  "Where is order A-1001?"
).pipe(
  Effect.provide(ClaudeCodeLanguageModel.layer({ model: "sonnet", maxTurns: 8 })),
  Effect.provide(ClaudeCode.layer()),
  Effect.provide(NodeServices.layer)
)
// #endregion

// #region metadata
const withCost = Effect.gen(function*() {
  const response = yield* LanguageModel.generateText({ prompt: "Summarize README.md in one line." })
  // The finish part's metadata.claudeCode, decoded.
  const meta = ClaudeCodeLanguageModel.getProviderMetadata(response)
  yield* Console.log(`${response.text} (${response.usage.outputTokens.total} tokens, $${meta?.costUsd})`)
  yield* Console.log(`session ${meta?.sessionId}, ${meta?.toolCalls.length} tool calls`)
})
// #endregion

// #region object
class Review extends Schema.Class<Review>("Review")({
  verdict: Schema.Literals(["approve", "request-changes"]),
  comments: Schema.Array(Schema.Struct({ file: Schema.String, line: Schema.Int, text: Schema.String }))
}) {}

// The agent reads the diff with its own tools, then answers with a Review: the CLI checked it against
// Review's JSON Schema, and it was decoded with Review.
const review = LanguageModel.generateObject({
  prompt: "Review the staged changes (git diff --cached).",
  schema: Review
})
  .pipe(Effect.map((response) => response.value))
// #endregion

// #region builtins
import { ClaudeCodeTool } from "@claude-effect/ai"
import { HookLayer, HookResult } from "@claude-effect/sdk"

// The CLI's own tools in the toolkit: their calls become typed parts too.
const Builtins = Toolkit.make(ClaudeCodeTool.Bash, ClaudeCodeTool.Read)

// A call's params are unknown in effect 4's response types: decode them with the tool's schema.
const bashParams = Schema.decodeUnknownSync(ClaudeCodeTool.Bash.parametersSchema)

const audited = Effect.gen(function*() {
  const response = yield* LanguageModel.generateText({ prompt: "Run the tests.", toolkit: Builtins })
  for (const call of response.toolCalls) {
    if (call.name === "ClaudeCodeBash") yield* Console.log(`ran: ${bashParams(call.params).command}`)
  }
  for (const result of response.toolResults) {
    if (result.isFailure) yield* Console.log(`${result.name} failed: ${result.result}`)
  }
}).pipe(
  // Hooks and the permission gate in scope apply to every call the agent makes.
  Effect.provide(HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
    Effect.succeed(
      JSON.stringify(input.tool_input).includes("rm -rf") ? HookResult.deny("no rm -rf") : HookResult.empty
    )))
)
// #endregion

// #region stream
const streamed = LanguageModel.streamText({ prompt: "Explain this repository's layout.", toolkit: Builtins }).pipe(
  Stream.runForEach((part) => {
    switch (part.type) {
      case "text-delta":
        return Effect.sync(() => process.stdout.write(part.delta))
      case "tool-call":
        return Console.log(`\n[${part.name}] ${JSON.stringify(part.params)}`)
      case "finish":
        return Console.log(`\n(${part.reason})`)
      default:
        return Effect.void
    }
  })
)
// #endregion

// #region errors
import { ClaudeCodeAiError } from "@claude-effect/ai"

const careful = LanguageModel.generateText({
  prompt: [
    { role: "user", content: "Hi" },
    { role: "system", content: "Be brief." } // a system message after the conversation started
  ]
}).pipe(
  Effect.catchTag("AiError", (error) => {
    const typed = ClaudeCodeAiError.cause(error)
    return typed?._tag === "UnsupportedInputError"
      // "prompt.content[1]: a system message after the conversation started: ..."
      ? Console.error(`${typed.reason} at ${typed.path}: ${typed.detail}`)
      : Effect.fail(error)
  })
)
// #endregion

// #region chat
import { ClaudeCodeChat } from "@claude-effect/ai"

const conversation = Effect.scoped(Effect.gen(function*() {
  // One CLI process for the whole chat; it holds the conversation.
  const chat = yield* ClaudeCodeChat.make({ allowedTools: ["Read", "Glob"] })
  yield* chat.generateText({ prompt: "Read package.json." })
  const version = yield* chat.generateText({ prompt: "Which version is it?" })
  yield* Console.log(version.text)
})) // the scope closes: the CLI is shut down
// #endregion

// #region override
const inAnotherDirectory = LanguageModel.generateText({ prompt: "List the files here." }).pipe(
  ClaudeCodeLanguageModel.withConfigOverride({ cwd: "/tmp", allowedTools: ["Glob"] })
)
// #endregion

// #region test
import { ScriptedModel } from "@claude-effect/testkit"

// Offline: the real CLI against the testkit's scripted model. The toolkit's tools are deferred (see above): the
// script calls mcp__app__OrderStatus by its name, as the model does once ToolSearch has loaded it.
const scripted = answer("Where is order A-1001?").pipe(
  Effect.provide(ClaudeCodeLanguageModel.layer()),
  Effect.provide(Layer.unwrap(Effect.map(ScriptedModel.cliEnv, (env) => ClaudeCode.layer({ env })))),
  Effect.provide(ScriptedModel.layerNode([
    ScriptedModel.toolUse("mcp__app__OrderStatus", { id: "A-1001" }),
    ScriptedModel.text("Order A-1001 has shipped.")
  ])),
  Effect.provide(OrdersLive),
  Effect.provide(NodeServices.layer)
)
// #endregion

export {
  answer,
  audited,
  careful,
  conversation,
  inAnotherDirectory,
  onClaudeCode,
  Orders,
  OrdersLive,
  review,
  scripted,
  streamed,
  withCost
}
