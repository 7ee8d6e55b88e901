import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Observability from "../src/demo/Observability.js"
import * as Program from "../src/demo/Program.js"
import * as Terminal from "../src/demo/Terminal.js"

/** A stand-in OTLP/HTTP collector on loopback that keeps what it receives; closed with the scope. */
const collector = Effect.acquireRelease(
  Effect.callback<{ readonly url: string; readonly bodies: Map<string, Array<any>>; readonly server: Http.Server }>(
    (resume) => {
      const bodies = new Map<string, Array<any>>()
      const server = Http.createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk) => chunks.push(chunk))
        request.on("end", () => {
          const list = bodies.get(request.url ?? "") ?? []
          list.push(JSON.parse(Buffer.concat(chunks).toString("utf8")))
          bodies.set(request.url ?? "", list)
          response.writeHead(200, { "content-type": "application/json" }).end("{}")
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, bodies, server }))
      })
    }
  ),
  ({ server }) =>
    Effect.callback<void>((resume) => {
      server.close(() => resume(Effect.void))
    })
)

const spanNames = (bodies: Array<any>): Array<string> =>
  bodies.flatMap((body) =>
    body.resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans.map((s: any) => s.name)))
  )

const metricNames = (bodies: Array<any>): Array<string> =>
  bodies.flatMap((body) =>
    body.resourceMetrics.flatMap((rm: any) => rm.scopeMetrics.flatMap((sm: any) => sm.metrics.map((m: any) => m.name)))
  )

describe("the demo's telemetry", () => {
  it.live("exports the SDK's spans and metrics to an OTLP endpoint", () =>
    Effect.gen(function*() {
      const otlp = yield* collector
      const fs = yield* FileSystem.FileSystem
      const root = yield* fs.makeTempDirectoryScoped({ prefix: "claude-effect-otlp-test-" })
      // the exporter flushes when its layer's scope closes, at the end of this inner scope
      yield* Program.run({ sink: Terminal.memory(), mode: "scripted", root }).pipe(
        Effect.provide(Observability.otlp(otlp.url))
      )
      const spans = spanNames(otlp.bodies.get("/v1/traces") ?? [])
      for (
        const name of ["claude.session", "claude.turn", "claude.hook", "claude.permission", "claude.control.outbound"]
      ) {
        assert.include(spans, name)
      }
      const metrics = metricNames(otlp.bodies.get("/v1/metrics") ?? [])
      for (const name of ["claude_hook_decisions_total", "claude_permission_decisions_total", "claude_results_total"]) {
        assert.include(metrics, name)
      }
    }).pipe(Effect.scoped, Effect.provide(NodeServices.layer)), { timeout: 90_000 })
})
