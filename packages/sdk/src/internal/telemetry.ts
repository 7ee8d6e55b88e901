/**
 * The SDK's metrics, built once per tag set, and the record of a turn's
 * result. Handlers (hooks, the gate, tools) are recorded by the guarded run
 * (`guardedRun.ts`).
 *
 * The span names, attribute keys and metrics are declared (and documented)
 * here, and exported by the public `Telemetry` module.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as LogLevel from "effect/LogLevel"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as References from "effect/References"
import * as Tracer from "effect/Tracer"

/**
 * Span names.
 *
 * @since 0.1.0
 * @category Spans
 */
export const spans = {
  session: "claude.session",
  turn: "claude.turn",
  inbound: "claude.control.inbound",
  outbound: "claude.control.outbound",
  hook: "claude.hook",
  permission: "claude.permission",
  mcpTool: "claude.mcp.tool"
} as const

/**
 * Whether spans made with this `context` would be read by anyone: tracing
 * is on and a tracer other than Effect's own (which exports nowhere) is
 * installed (an exporter's layer, `Tracer.Tracer` provided).
 *
 * @internal
 */
export const isTracing = (context: Context.Context<never>): boolean =>
  Context.get(context, References.TracerEnabled) && Context.get(context, Tracer.Tracer) !== Tracer.nativeTracer

/**
 * `self` in a span named `name`, when a tracer is installed ({@link isTracing});
 * `self` alone otherwise (no span is built for nobody to read).
 *
 * @internal
 */
export const withSpanIfTracing = <A, E, R>(
  self: Effect.Effect<A, E, R>,
  name: string,
  options: () => Tracer.SpanOptions
): Effect.Effect<A, E, R> =>
  Effect.contextWith((context: Context.Context<never>) =>
    isTracing(context) ? Effect.withSpan(self, name, options()) : self
  )

/**
 * A span started outside any fiber, as `Effect.withSpan` would start it in a
 * fiber with this `context` (the tracer, its clock, the span annotations and
 * links, the trace level; no stack trace); `undefined` when tracing is off.
 * The router's one span per inbound request: started as the line is read,
 * ended (`endSpan`) as the answer is written.
 *
 * @internal
 */
export const startSpan = (
  context: Context.Context<never>,
  name: () => string,
  parent: Tracer.AnySpan | undefined,
  kind: Tracer.SpanKind,
  attributes: () => Record<string, unknown>
): Tracer.Span | undefined => {
  // Effect's own tracer exports nowhere: a span per request would be built for nobody to read.
  if (!isTracing(context)) return undefined
  const parentSpan = parent !== undefined ? Option.some(parent) : Context.getOption(context, Tracer.ParentSpan)
  const sampled = Option.isSome(parentSpan) && parentSpan.value.sampled === false
    ? false
    : !LogLevel.isGreaterThan(
      Context.get(context, Tracer.MinimumTraceLevel),
      Context.get(context, Tracer.CurrentTraceLevel)
    )
  const span = Context.get(context, Tracer.Tracer).span({
    name: name(),
    parent: parentSpan,
    annotations: Context.empty(),
    links: [...Context.get(context, References.TracerSpanLinks)],
    startTime: Context.get(context, References.TracerTimingEnabled)
      ? Context.get(context, Clock.Clock).currentTimeNanosUnsafe()
      : BigInt(0),
    kind,
    root: false,
    sampled
  })
  const annotations = Context.get(context, References.TracerSpanAnnotations)
  for (const key in annotations) span.attribute(key, annotations[key])
  const values = attributes()
  for (const key in values) span.attribute(key, values[key])
  return span
}

/**
 * Ends a span of {@link startSpan}.
 *
 * @internal
 */
export const endSpan = (span: Tracer.Span, context: Context.Context<never>, exit: Exit.Exit<unknown, unknown>): void =>
  span.end(
    Context.get(context, References.TracerTimingEnabled)
      ? Context.get(context, Clock.Clock).currentTimeNanosUnsafe()
      : BigInt(0),
    exit
  )

/**
 * Span attribute keys.
 *
 * @since 0.1.0
 * @category Spans
 */
export const attributes = {
  sessionId: "claude.session_id",
  pid: "claude.pid",
  turn: "claude.turn",
  requestId: "claude.request_id",
  subtype: "claude.subtype",
  event: "claude.hook.event",
  matcher: "claude.hook.matcher",
  callbackId: "claude.hook.callback_id",
  hookName: "claude.hook.name",
  tool: "claude.tool",
  toolUseId: "claude.tool_use_id",
  decision: "claude.decision",
  fallback: "claude.fallback",
  mcpServer: "claude.mcp.server",
  mcpMethod: "claude.mcp.method",
  resultSubtype: "claude.result.subtype",
  isError: "claude.result.is_error",
  costUsd: "claude.result.cost_usd",
  numTurns: "claude.result.num_turns"
} as const

/**
 * Hook decisions, tagged `event` and `decision` (allow, deny, ask, defer,
 * block, halt, context, rewrite, empty, other).
 *
 * @since 0.1.0
 * @category Metrics
 */
export const hookDecisions: Metric.Counter<number> = Metric.counter("claude_hook_decisions_total", {
  description: "Hook answers by event and decision"
})

/**
 * Permission gate decisions, tagged `tool` and `decision` (allow, deny).
 *
 * @since 0.1.0
 * @category Metrics
 */
export const permissionDecisions: Metric.Counter<number> = Metric.counter("claude_permission_decisions_total", {
  description: "Permission gate answers by tool and decision"
})

/**
 * Fallback answers, tagged `kind` (hook, permission) and `cause` (timeout,
 * failure, defect, invalid_output, unknown_callback).
 *
 * @since 0.1.0
 * @category Metrics
 */
export const fallbacks: Metric.Counter<number> = Metric.counter("claude_fallbacks_total", {
  description: "Fallback answers by kind and cause"
})

/**
 * How long hook and permission handlers took, in milliseconds, tagged `kind`.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const handlerLatency: Metric.Histogram<number> = Metric.histogram("claude_handler_duration_ms", {
  description: "Hook and permission handler latency in milliseconds",
  boundaries: Metric.exponentialBoundaries({ start: 0.25, factor: 2, count: 20 })
})

/**
 * Sessions with a live CLI process.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const liveSessions: Metric.Gauge<number> = Metric.gauge("claude_sessions_live", {
  description: "Sessions with a live CLI"
})

/**
 * Control requests the SDK sent that await a response.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const pendingControlRequests: Metric.Gauge<number> = Metric.gauge("claude_control_requests_pending", {
  description: "Outbound control requests awaiting a response"
})

/**
 * stdout lines read.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const linesDecoded: Metric.Counter<number> = Metric.counter("claude_stdout_lines_total", {
  description: "Lines read from the CLI's stdout"
})

/**
 * Messages of a type this SDK does not know, passed on as unknown messages.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const unknownMessages: Metric.Counter<number> = Metric.counter("claude_unknown_messages_total", {
  description: "Messages of an unknown type"
})

/**
 * Lines that were not valid messages.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const protocolErrors: Metric.Counter<number> = Metric.counter("claude_protocol_errors_total", {
  description: "stdout lines that were not valid messages"
})

/**
 * Results, tagged `subtype` and `is_error`.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const results: Metric.Counter<number> = Metric.counter("claude_results_total", {
  description: "Turn results"
})

/**
 * Model turns the CLI reported in results (`num_turns`).
 *
 * @since 0.1.0
 * @category Metrics
 */
export const modelTurns: Metric.Counter<number> = Metric.counter("claude_model_turns_total", {
  description: "Model turns reported by results"
})

/**
 * Cost the CLI reported in results, in USD.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const costUsd: Metric.Counter<number> = Metric.counter("claude_cost_usd_total", {
  description: "Cost reported by results (USD)"
})

/**
 * Tokens the CLI reported in results, tagged `type` (input, output,
 * cache_read, cache_creation).
 *
 * @since 0.1.0
 * @category Metrics
 */
export const tokens: Metric.Counter<number> = Metric.counter("claude_tokens_total", {
  description: "Tokens reported by results"
})

// Tagged metrics are built once per tag combination, found by a walk of nested maps, name by value (which builds
// nothing per update). Effect 4's `Metric.withAttributes` merges the context's attributes once per attribute set
// itself: the label-join cache effect 3 needed here is gone.
interface TagNode {
  metric: unknown
  readonly children: Map<string, TagNode>
}
const taggedCache = new WeakMap<object, TagNode>()
const childOf = (node: TagNode, key: string): TagNode => {
  let child = node.children.get(key)
  if (child === undefined) {
    child = { metric: undefined, children: new Map() }
    node.children.set(key, child)
  }
  return child
}

/**
 * `metric` tagged with one or two tags (name, value), built once per tag set.
 *
 * @internal
 */
export const tagged = <Input, State>(
  metric: Metric.Metric<Input, State>,
  name1: string,
  value1: string,
  name2?: string,
  value2?: string
): Metric.Metric<Input, State> => {
  let root = taggedCache.get(metric)
  if (root === undefined) {
    root = { metric: undefined, children: new Map() }
    taggedCache.set(metric, root)
  }
  let node = childOf(childOf(root, name1), value1)
  if (name2 !== undefined) node = childOf(childOf(node, name2), value2 ?? "")
  if (node.metric === undefined) {
    node.metric = Metric.withAttributes(
      metric,
      name2 === undefined ? { [name1]: value1 } : { [name1]: value1, [name2]: value2 ?? "" }
    )
  }
  return node.metric as Metric.Metric<Input, State>
}

/**
 * Records a turn's result on the metrics, with the metric attributes and
 * registry of `context`.
 *
 * @internal
 */
export const recordResultNow = (result: {
  readonly subtype?: unknown
  readonly is_error?: unknown
  readonly num_turns?: unknown
  readonly total_cost_usd?: unknown
  readonly usage?: unknown
}, context: Context.Context<never>): void => {
  const usage = (result.usage ?? {}) as Record<string, unknown>
  const number = (value: unknown) => typeof value === "number" && Number.isFinite(value) ? value : 0
  tagged(results, "subtype", String(result.subtype ?? "unknown"), "is_error", String(result.is_error === true))
    .updateUnsafe(1, context)
  modelTurns.updateUnsafe(number(result.num_turns), context)
  costUsd.updateUnsafe(number(result.total_cost_usd), context)
  tagged(tokens, "type", "input").updateUnsafe(number(usage.input_tokens), context)
  tagged(tokens, "type", "output").updateUnsafe(number(usage.output_tokens), context)
  tagged(tokens, "type", "cache_read").updateUnsafe(number(usage.cache_read_input_tokens), context)
  tagged(tokens, "type", "cache_creation").updateUnsafe(number(usage.cache_creation_input_tokens), context)
}
