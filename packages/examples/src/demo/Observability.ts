/**
 * Where the demo's traces and metrics go, chosen by environment:
 *
 * - `OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318`: to an OTLP/HTTP
 *   collector (Jaeger, Tempo, the OpenTelemetry Collector, ...), through
 *   effect's own OTLP exporter (`effect/observability/Otlp`);
 * - `CLAUDE_EFFECT_TELEMETRY=console`: spans and metrics printed by the
 *   OpenTelemetry SDK's console exporters, through `@effect/opentelemetry`'s
 *   NodeSdk layer;
 * - neither: nowhere (Effect's tracer stays the no-op default).
 *
 * The SDK itself only uses `Effect.withSpan` and `effect/Metric`: the
 * application picks the exporter, as with any Effect program.
 */
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { ConsoleMetricExporter, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics"
import { ConsoleSpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Layer from "effect/Layer"
import * as Otlp from "effect/observability/Otlp"
import * as Option from "effect/Option"

const resource = { serviceName: "claude-effect-demo" }

// The layers' own services (OTLP's flusher, OpenTelemetry's resource) are left out of their types: a layer's output
// is contravariant in effect 4, so no Layer.discard is needed (it would also drop the tracer, a Context reference).

/** Traces, metrics and logs to an OTLP/HTTP endpoint. */
export const otlp = (baseUrl: string): Layer.Layer<never> =>
  Otlp.layerJson({ baseUrl, resource, metricsExportInterval: "2 seconds" }).pipe(Layer.provide(FetchHttpClient.layer))

/** Spans and metrics printed on the console. */
export const console: Layer.Layer<never> = NodeSdk.layer(() => ({
  resource,
  spanProcessor: new SimpleSpanProcessor(new ConsoleSpanExporter()),
  metricReader: new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter(), exportIntervalMillis: 5000 })
}))

/** The exporter the environment asks for, if any. */
export const fromEnv: Layer.Layer<never> = Layer.unwrap(
  Effect.gen(function*() {
    const endpoint = yield* Config.option(Config.NonEmptyString("OTEL_EXPORTER_OTLP_ENDPOINT"))
    if (Option.isSome(endpoint)) return otlp(endpoint.value)
    const mode = yield* Config.option(Config.String("CLAUDE_EFFECT_TELEMETRY"))
    return Option.contains(mode, "console") ? console : Layer.empty
  }).pipe(Effect.orDie)
)
