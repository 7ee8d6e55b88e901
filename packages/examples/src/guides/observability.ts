/**
 * The code of docs/observability.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import { ClaudeCode, Telemetry } from "@claude-effect/sdk"
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { ConsoleMetricExporter, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics"
import { ConsoleSpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Console, Effect, Layer, Metric, Stream } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Otlp from "effect/observability/Otlp"
// #endregion

// #region otlp
// Traces, metrics and logs to any OTLP/HTTP collector (Jaeger, Tempo, the OpenTelemetry Collector, ...).
const otlp = Otlp.layerJson({
  baseUrl: "http://127.0.0.1:4318",
  resource: { serviceName: "release-bot" }
}).pipe(Layer.provide(FetchHttpClient.layer))

const traced = ClaudeCode.query("Prepare the release notes").pipe(
  Stream.runDrain,
  Effect.provide(otlp)
)
// #endregion

// #region console
// Spans and metrics printed by the OpenTelemetry SDK's console exporters.
const consoleExport = NodeSdk.layer(() => ({
  resource: { serviceName: "release-bot" },
  spanProcessor: new SimpleSpanProcessor(new ConsoleSpanExporter()),
  metricReader: new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter() })
}))

const printed = ClaudeCode.query("Prepare the release notes").pipe(
  Stream.runDrain,
  Effect.provide(consoleExport)
)
// #endregion

// #region metrics
// The metrics are ordinary Effect metrics: read them in the program, or let an exporter take them.
const fallbacksByTimeout = Metric.withAttributes(Telemetry.fallbacks, { kind: "hook", cause: "timeout" })

const report = Effect.gen(function*() {
  const state = yield* Metric.value(fallbacksByTimeout)
  yield* Console.log(`hooks that timed out and fell back: ${state.count}`)
})
// #endregion

export { printed, report, traced }
