/**
 * The example of packages/sdk/README.md, copied there by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file and
 * test/guides-readmes.test.ts runs it.
 */
// #region mcp-tool
import { ClaudeCode, McpServer, McpTool } from "@claude-effect/sdk"
import { Context, Effect, Schema, Stream } from "effect"

// Your service.
class Inventory extends Context.Service<Inventory, {
  readonly stock: (sku: string) => Effect.Effect<number>
}>()("app/Inventory") {}

const lookup = McpTool.make("lookup", {
  description: "Look up the stock of a product",
  parameters: Schema.Struct({ sku: Schema.String.check(Schema.isPattern(/^SKU-\d+$/)) }),
  annotations: { readOnlyHint: true }
}, ({ sku }) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    return McpTool.structured({ sku, stock: yield* inventory.stock(sku) })
  }))

const program = Effect.gen(function*() {
  // captures the services the handlers need: Inventory shows in its requirements
  const inventory = yield* McpServer.make({ name: "inventory", tools: [lookup] })
  return yield* ClaudeCode.query("How many SKU-1 are left?", {
    mcpServers: { inventory }, // beside any external ones: { github: { type: "http", url } }
    allowedTools: ["mcp__inventory"] // or a PermissionGate
  }).pipe(Stream.runCollect)
})
// #endregion

export { Inventory, program }
