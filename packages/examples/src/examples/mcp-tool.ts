/**
 * An in-process MCP tool: an Effect handler with Schema-typed arguments,
 * served to the CLI over the control channel (no child process, no port).
 * The model calls it as `mcp__inventory__lookup`; the handler uses an
 * application service.
 *
 *   npx tsx src/examples/mcp-tool.ts          # offline, against the scripted model
 *   npx tsx src/examples/mcp-tool.ts --live   # the real API
 */
import { ClaudeCode, McpServer, McpTool } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Example from "../Example.js"

class Warehouse extends Context.Service<Warehouse, {
  readonly stock: (sku: string) => Effect.Effect<number | undefined>
}>()("example/Warehouse") {}

const lookup = McpTool.make("lookup", {
  description: "How many units of a product are in stock, by SKU (e.g. widget-42)",
  parameters: Schema.Struct({ sku: Schema.String }),
  annotations: { readOnlyHint: true }
}, ({ sku }) =>
  Effect.flatMap(Effect.service(Warehouse), (warehouse) => warehouse.stock(sku)).pipe(
    Effect.map((stock) =>
      stock === undefined ? McpTool.error(`unknown SKU: ${sku}`) : McpTool.text(`${sku}: ${stock} in stock`)
    )
  ))

const warehouse = Warehouse.of({
  stock: (sku) => Effect.succeed(({ "widget-42": 17, "gadget-1": 230 } as Record<string, number>)[sku])
})

export const program = Effect.gen(function*() {
  const inventory = yield* McpServer.make({ name: "inventory", tools: [lookup], alwaysLoad: true })
  yield* ClaudeCode.query("How many widget-42 and gadget-1 do we have in stock?", {
    mcpServers: { inventory },
    allowedTools: ["mcp__inventory"],
    maxTurns: 4
  }).pipe(Stream.runForEach(Example.print))
}).pipe(Effect.provideService(Warehouse, warehouse))

/** What the scripted model does offline: two lookups, then an answer built from their results. */
export const script = [
  ScriptedModel.turn(
    ScriptedModel.toolUse("mcp__inventory__lookup", { sku: "widget-42" }),
    ScriptedModel.toolUse("mcp__inventory__lookup", { sku: "gadget-1" })
  ),
  ScriptedModel.rule((request) =>
    ScriptedModel.text(`In stock: ${request.latestToolResults.map((result) => result.content).join("; ")}.`)
  )
]

Example.main(import.meta, program, script)
