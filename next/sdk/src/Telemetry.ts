/**
 * What the SDK reports about the agents it hosts, through Effect's own
 * tracing, metrics and logging, so any Effect application gets it through the
 * exporters it already uses (`@effect/opentelemetry`, a console exporter, a
 * test tracer).
 *
 * Spans: `claude.session` (a session's life) ⊃ `claude.turn` (a prompt to
 * its result) ⊃ one span per request from the CLI, named by what answers it:
 * `claude.hook`, `claude.permission`, `claude.mcp.tool`, else
 * `claude.control.inbound` (each carries the request id and subtype; the
 * spans the user's handler opens sit under it), and
 * `claude.control.outbound` for the SDK's own requests. Decisions carry
 * `claude.decision` and, when a fallback answered, `claude.fallback`.
 *
 * Metrics: the counters, gauges and the histogram below; read them with
 * `Metric.value` or export them.
 *
 * The values are declared in `internal/telemetry.ts`, beside the helpers that
 * record them (internal modules import no values from public ones); this
 * module names them.
 *
 * @since 0.1.0
 */
export {
  attributes,
  costUsd,
  fallbacks,
  handlerLatency,
  hookDecisions,
  linesDecoded,
  liveSessions,
  modelTurns,
  pendingControlRequests,
  permissionDecisions,
  protocolErrors,
  results,
  spans,
  tokens,
  unknownMessages
} from "./internal/telemetry.js"
