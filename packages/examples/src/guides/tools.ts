/**
 * The code of docs/tools.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import { ClaudeCode, HookLayer, HookResult, McpServer, McpTool } from "@claude-effect/sdk"
import { Context, Effect, Layer, Schema, Stream } from "effect"
// #endregion

// #region tool
// An application service the tool uses.
class Inventory extends Context.Tag("app/Inventory")<Inventory, {
  readonly stock: (sku: string) => Effect.Effect<number, OutOfCatalog>
}>() {}

class OutOfCatalog extends Schema.TaggedError<OutOfCatalog>()("OutOfCatalog", { message: Schema.String }) {}

const lookup = McpTool.make("lookup", {
  description: "How many units of a product are in stock",
  parameters: Schema.Struct({
    sku: Schema.String.pipe(Schema.pattern(/^SKU-\d+$/)),
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
  parameters: Schema.Struct({ kind: Schema.Literal("text", "structured", "error") })
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

export { closedForStocktaking, direct, program, results }
