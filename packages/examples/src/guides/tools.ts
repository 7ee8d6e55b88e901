/**
 * The code of docs/tools.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import {
  ClaudeCode,
  ElicitationHandler,
  HookLayer,
  HookResult,
  McpPrompt,
  McpResource,
  McpServer,
  McpTool,
  UserDialog
} from "@claude-effect/sdk"
import { Context, Effect, Layer, Schema, Stream } from "effect"
// #endregion

// #region tool
// An application service the tool uses.
class Inventory extends Context.Service<Inventory, {
  readonly stock: (sku: string) => Effect.Effect<number, OutOfCatalog>
}>()("app/Inventory") {}

class OutOfCatalog extends Schema.TaggedError<OutOfCatalog>()("OutOfCatalog", { message: Schema.String }) {}

const lookup = McpTool.make("lookup", {
  description: "How many units of a product are in stock",
  parameters: Schema.Struct({
    sku: Schema.String.check(Schema.isPattern(/^SKU-\d+$/)),
    minimum: Schema.optional(Schema.NumberFromString) // the model sends "10"; the handler gets 10
  }),
  annotations: { readOnlyHint: true }
}, ({ minimum, sku }) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    const stock = yield* inventory.stock(sku) // an OutOfCatalog failure becomes an error result
    return McpTool.structured({ sku, stock, enough: stock >= (minimum ?? 1) })
  }))
// #endregion

// #region server
// `make` captures the services the handlers need: they show in its type.
const inventoryServer: Effect.Effect<McpServer.McpServer, never, Inventory> = McpServer.make({
  name: "inventory",
  tools: [lookup]
})

const InventoryLive = Layer.succeed(Inventory, {
  stock: (sku) =>
    sku === "SKU-1" ? Effect.succeed(42) : Effect.fail(new OutOfCatalog({ message: `${sku} is not sold here` }))
})
// #endregion

// #region use
const program = Effect.gen(function*() {
  const inventory = yield* inventoryServer
  return yield* ClaudeCode.query("How many SKU-1 do we have? Is it at least 10?", {
    mcpServers: { inventory }, // the key is the name the model sees: mcp__inventory__lookup
    allowedTools: ["mcp__inventory"] // MCP tools need permission: allow the whole server
  }).pipe(Stream.runCollect)
}).pipe(Effect.provide(InventoryLive))
// #endregion

// #region results
const results = McpTool.make("report", {
  description: "Results of each kind",
  parameters: Schema.Struct({ kind: Schema.Literals(["text", "structured", "error"]) })
}, ({ kind }) =>
  Effect.succeed(
    kind === "text"
      ? "a plain string is one text block"
      : kind === "structured"
      ? McpTool.structured({ total: 3 }, { text: "3 in total" })
      : McpTool.error("the model reads this as the reason the call failed")
  ))
// #endregion

// #region hooks
// Hooks and the gate see in-process tools by their full name.
const closedForStocktaking = HookLayer.preToolUse(
  { matcher: "mcp__inventory__.*" },
  () => Effect.succeed(HookResult.deny("the inventory is closed for stocktaking"))
)
// #endregion

// #region handle
// Call the server without a CLI: one JSON-RPC message, one answer. Handy in unit tests.
const direct = Effect.gen(function*() {
  const server = yield* inventoryServer
  return yield* McpServer.handle(server, {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "lookup", arguments: { sku: "SKU-1", minimum: "10" } }
  })
}).pipe(Effect.provide(InventoryLive))
// #endregion

// #region resources
// A resource of a fixed URI: its content is an Effect, run at each read.
const returnsPolicy = McpResource.make({
  uri: "memo://returns-policy",
  name: "returns-policy",
  description: "How returns work",
  mimeType: "text/markdown"
}, Effect.succeed("# Returns\nAccepted within 30 days."))

// A template: the variables of the URI are decoded by a Schema.
const stockBySku = McpResource.template({
  uriTemplate: "stock://{sku}",
  name: "stock",
  description: "The stock of one product",
  mimeType: "application/json",
  parameters: Schema.Struct({ sku: Schema.String.check(Schema.isPattern(/^SKU-\d+$/)) })
}, ({ sku }) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    return JSON.stringify({ sku, stock: yield* inventory.stock(sku) })
  }))

const catalog = McpServer.make({ name: "catalog", resources: [returnsPolicy, stockBySku] })
// #endregion

// #region prompts
const restock = McpPrompt.make("restock", {
  description: "Plan a restock",
  parameters: Schema.Struct({
    sku: Schema.String.annotate({ description: "The product" }),
    quantity: Schema.optional(Schema.NumberFromString) // MCP passes "40"; the handler gets 40
  })
}, ({ quantity, sku }) => Effect.succeed(`Plan a restock of ${quantity ?? 10} units of ${sku}.`))

const playbook = McpServer.make({ name: "playbook", prompts: [restock] })
// #endregion

// #region read
const readByModelAndProgram = Effect.gen(function*() {
  const server = yield* catalog
  const session = yield* ClaudeCode.session({ mcpServers: { catalog: server } })
  // The model reads with its ListMcpResourcesTool and ReadMcpResourceTool; the program reads directly.
  const stock = yield* session.readMcpResource("catalog", "stock://SKU-1")
  return stock.contents
}).pipe(Effect.scoped, Effect.provide(InventoryLive))
// #endregion

// #region elicit
const reserve = McpTool.make("reserve", {
  description: "Reserve units of a product, asking the user how many",
  parameters: Schema.Struct({ sku: Schema.String })
}, ({ sku }, context) =>
  Effect.gen(function*() {
    // A flat form, derived from the Schema; an accepted answer comes back decoded by it.
    const answer = yield* context.elicit(
      `How many units of ${sku}?`,
      Schema.Struct({ units: Schema.Int.check(Schema.isGreaterThan(0)), express: Schema.optional(Schema.Boolean) })
    )
    return answer.action === "accept"
      ? `reserved ${answer.content.units} of ${sku}`
      : `nothing reserved (${answer.action})` // "decline" or "cancel"
  }))
// #endregion

// #region answer
// Who answers: a layer, like the permission gate. Without one, every elicitation is declined.
const AskTheWarehouse = ElicitationHandler.layer((request) =>
  Effect.succeed(
    request.mcp_server_name === "inventory" && request.message.startsWith("How many units")
      ? ElicitationHandler.accept({ units: 3 })
      : ElicitationHandler.decline
  ), { timeout: "2 minutes" })

const reserveOnce = Effect.gen(function*() {
  const inventory = yield* McpServer.make({ name: "inventory", tools: [reserve], timeout: "3 minutes" })
  return yield* ClaudeCode.query("Reserve some SKU-1", {
    mcpServers: { inventory },
    allowedTools: ["mcp__inventory"]
  }).pipe(Stream.runCollect)
}).pipe(Effect.provide(AskTheWarehouse))
// #endregion

// #region dialogs
// Only the declared kinds are ever sent; anything that goes wrong answers "cancelled" (the dialog's default).
const Dialogs = UserDialog.layer(
  (request) =>
    Effect.succeed(
      request.dialog_kind === "refusal_fallback_prompt" ? UserDialog.completed("retry_fallback") : UserDialog.cancelled
    ),
  { kinds: ["refusal_fallback_prompt"] }
)
// #endregion

// #region live
const swapServers = Effect.gen(function*() {
  const inventory = yield* inventoryServer
  const catalogServer = yield* catalog
  const session = yield* ClaudeCode.session({ mcpServers: { inventory } })
  yield* session.turn("How many SKU-1?").pipe(Stream.runDrain)
  // Replaces the session's in-process servers (and those added at runtime): inventory goes, catalog comes.
  const { added, removed } = yield* session.setMcpServers({ catalog: catalogServer })
  yield* session.turn("What is the returns policy?").pipe(Stream.runDrain)
  return { added, removed, status: yield* session.mcpServerStatus }
}).pipe(Effect.scoped, Effect.provide(InventoryLive))
// #endregion

export {
  closedForStocktaking,
  Dialogs,
  direct,
  playbook,
  program,
  readByModelAndProgram,
  reserveOnce,
  results,
  swapServers
}
