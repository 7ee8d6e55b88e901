/**
 * An in-process MCP server: the `inventory` server with one `lookup` tool,
 * an Effect handler with Schema-typed arguments. No child process, no port:
 * the CLI reaches it over the control channel, as `mcp__inventory__lookup`.
 */
import { McpServer, McpTool } from "@claude-effect/sdk"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const stock: Readonly<Record<string, number>> = {
  "widget-42": 17,
  "widget-7": 0,
  "gadget-1": 230
}

export const lookup = McpTool.make("lookup", {
  description: "How many units of a product are in stock, by SKU (e.g. widget-42).",
  parameters: Schema.Struct({ sku: Schema.String.check(Schema.isPattern(/^[a-z]+-\d+$/)) }),
  annotations: { readOnlyHint: true }
}, ({ sku }) =>
  Effect.succeed(
    sku in stock
      ? McpTool.structured({ sku, inStock: stock[sku]! }, { text: `${sku}: ${stock[sku]} in stock` })
      : McpTool.error(`unknown SKU ${sku}; known: ${Object.keys(stock).join(", ")}`)
  ))

/** The server; put it in the `mcpServers` option under the name the model should see. */
export const server = McpServer.make({ name: "inventory", tools: [lookup], alwaysLoad: true })
