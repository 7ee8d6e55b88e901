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
import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import * as FiberRefs from "effect/FiberRefs"
import * as HashMap from "effect/HashMap"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
import * as MetricLabel from "effect/MetricLabel"
import * as Option from "effect/Option"
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

const nativeTracer = Context.get(DefaultServices.liveServices, Tracer.Tracer)

/**
 * Whether spans made with these `fiberRefs` would be read by anyone: tracing
 * is on and a tracer other than Effect's own (which exports nowhere) is
 * installed (an exporter's layer, `Layer.setTracer`).
 *
 * @internal
 */
export const isTracing = (fiberRefs: FiberRefs.FiberRefs): boolean =>
  FiberRefs.getOrDefault(fiberRefs, FiberRef.currentTracerEnabled) &&
  Context.get(FiberRefs.getOrDefault(fiberRefs, DefaultServices.currentServices), Tracer.Tracer) !== nativeTracer

// The metric labels of a runtime's refs, read once per refs (a runtime's refs are fixed: the router answers every
// request of a session with the same ones, and reading a FiberRef's value builds an Option each time).
const metricLabelsByRefs = new WeakMap<FiberRefs.FiberRefs, ReadonlyArray<MetricLabel.MetricLabel>>()

/**
 * The metric labels in `fiberRefs` (`FiberRef.currentMetricLabels`).
 *
 * @internal
 */
export const metricLabelsOf = (fiberRefs: FiberRefs.FiberRefs): ReadonlyArray<MetricLabel.MetricLabel> => {
  let labels = metricLabelsByRefs.get(fiberRefs)
  if (labels === undefined) {
    labels = FiberRefs.getOrDefault(fiberRefs, FiberRef.currentMetricLabels)
    metricLabelsByRefs.set(fiberRefs, labels)
  }
  return labels
}

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
  Effect.withFiberRuntime((fiber) => isTracing(fiber.getFiberRefs()) ? Effect.withSpan(self, name, options()) : self)

/**
 * A span started outside any fiber, as `Effect.withSpan` would start it in a
 * fiber with these `fiberRefs` and `context` (the tracer, its clock, the
 * span annotations; no stack trace); `undefined` when tracing is off. The
 * router's one span per inbound request: started as the line is read, ended
 * (`endSpan`) as the answer is written.
 *
 * @internal
 */
export const startSpan = (
  fiberRefs: FiberRefs.FiberRefs,
  context: Context.Context<never>,
  name: () => string,
  parent: Tracer.AnySpan | undefined,
  kind: Tracer.SpanKind,
  attributes: () => Record<string, unknown>
): Tracer.Span | undefined => {
  // Effect's own tracer exports nowhere: a span per request would be built for nobody to read.
  if (!isTracing(fiberRefs)) return undefined
  const services = FiberRefs.getOrDefault(fiberRefs, DefaultServices.currentServices)
  const tracer = Context.get(services, Tracer.Tracer)
  const timing = FiberRefs.getOrDefault(fiberRefs, FiberRef.currentTracerTimingEnabled)
  const span = tracer.span(
    name(),
    parent !== undefined ? Option.some(parent) : Context.getOption(context, Tracer.ParentSpan),
    Context.empty(),
    [],
    timing ? Context.get(services, Clock.Clock).unsafeCurrentTimeNanos() : BigInt(0),
    kind,
    { captureStackTrace: false }
  )
  const annotations = FiberRefs.getOrDefault(fiberRefs, FiberRef.currentTracerSpanAnnotations)
  if (HashMap.size(annotations) > 0) HashMap.forEach(annotations, (value, key) => span.attribute(key, value))
  const values = attributes()
  for (const key in values) span.attribute(key, values[key])
  return span
}

/**
 * Ends a span of {@link startSpan}.
 *
 * @internal
 */
export const endSpan = (span: Tracer.Span, fiberRefs: FiberRefs.FiberRefs, exit: Exit.Exit<unknown, unknown>): void => {
  const services = FiberRefs.getOrDefault(fiberRefs, DefaultServices.currentServices)
  span.end(
    FiberRefs.getOrDefault(fiberRefs, FiberRef.currentTracerTimingEnabled)
      ? Context.get(services, Clock.Clock).unsafeCurrentTimeNanos()
      : BigInt(0),
    exit
  )
}

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
export const hookDecisions: Metric.Metric.Counter<number> = Metric.counter("claude_hook_decisions_total", {
  description: "Hook answers by event and decision"
})

/**
 * Permission gate decisions, tagged `tool` and `decision` (allow, deny).
 *
 * @since 0.1.0
 * @category Metrics
 */
export const permissionDecisions: Metric.Metric.Counter<number> = Metric.counter("claude_permission_decisions_total", {
  description: "Permission gate answers by tool and decision"
})

/**
 * Fallback answers, tagged `kind` (hook, permission) and `cause` (timeout,
 * failure, defect, invalid_output, unknown_callback).
 *
 * @since 0.1.0
 * @category Metrics
 */
export const fallbacks: Metric.Metric.Counter<number> = Metric.counter("claude_fallbacks_total", {
  description: "Fallback answers by kind and cause"
})

/**
 * How long hook and permission handlers took, in milliseconds, tagged `kind`.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const handlerLatency: Metric.Metric.Histogram<number> = Metric.histogram(
  "claude_handler_duration_ms",
  MetricBoundaries.exponential({ start: 0.25, factor: 2, count: 20 }),
  "Hook and permission handler latency in milliseconds"
)

/**
 * Sessions with a live CLI process.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const liveSessions: Metric.Metric.Gauge<number> = Metric.gauge("claude_sessions_live", {
  description: "Sessions with a live CLI"
})

/**
 * Control requests the SDK sent that await a response.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const pendingControlRequests: Metric.Metric.Gauge<number> = Metric.gauge("claude_control_requests_pending", {
  description: "Outbound control requests awaiting a response"
})

/**
 * stdout lines read.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const linesDecoded: Metric.Metric.Counter<number> = Metric.counter("claude_stdout_lines_total", {
  description: "Lines read from the CLI's stdout"
})

/**
 * Messages of a type this SDK does not know, passed on as unknown messages.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const unknownMessages: Metric.Metric.Counter<number> = Metric.counter("claude_unknown_messages_total", {
  description: "Messages of an unknown type"
})

/**
 * Lines that were not valid messages.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const protocolErrors: Metric.Metric.Counter<number> = Metric.counter("claude_protocol_errors_total", {
  description: "stdout lines that were not valid messages"
})

/**
 * Results, tagged `subtype` and `is_error`.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const results: Metric.Metric.Counter<number> = Metric.counter("claude_results_total", {
  description: "Turn results"
})

/**
 * Model turns the CLI reported in results (`num_turns`).
 *
 * @since 0.1.0
 * @category Metrics
 */
export const modelTurns: Metric.Metric.Counter<number> = Metric.counter("claude_model_turns_total", {
  description: "Model turns reported by results"
})

/**
 * Cost the CLI reported in results, in USD.
 *
 * @since 0.1.0
 * @category Metrics
 */
export const costUsd: Metric.Metric.Counter<number> = Metric.counter("claude_cost_usd_total", {
  description: "Cost reported by results (USD)"
})

/**
 * Tokens the CLI reported in results, tagged `type` (input, output,
 * cache_read, cache_creation).
 *
 * @since 0.1.0
 * @category Metrics
 */
export const tokens: Metric.Metric.Counter<number> = Metric.counter("claude_tokens_total", {
  description: "Tokens reported by results"
})

// Tagged metrics are built once per tag combination: building (and hashing) a new key on every
// decision showed up in the hook round-trip benchmark. `Metric.taggedWithLabels` would still build a
// new label array per update (the tags joined with the fiber's), which misses the metric's hook cache
// (keyed by that array) and looks the metric up in the registry, hashing its key, every time: here the
// joined array is kept per fiber label array (a FiberRef value, stable until it is set), so the
// untagged metric finds its hook at once.
// Found by a walk of nested maps, name by value, which builds nothing per update (a key joined from the tags
// was a new string to hash, and the tags a new array, on every decision).
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

const withLabels = <Type, In, Out>(
  metric: Metric.Metric<Type, In, Out>,
  labels: ReadonlyArray<MetricLabel.MetricLabel>
): Metric.Metric<Type, In, Out> => {
  const joined = new WeakMap<ReadonlyArray<MetricLabel.MetricLabel>, ReadonlyArray<MetricLabel.MetricLabel>>()
  const all = (extra: ReadonlyArray<MetricLabel.MetricLabel>): ReadonlyArray<MetricLabel.MetricLabel> => {
    if (extra.length === 0) return labels
    let found = joined.get(extra)
    if (found === undefined) {
      found = Arr.union(labels, extra)
      joined.set(extra, found)
    }
    return found
  }
  return Metric.make(
    metric.keyType,
    (input, extra) => metric.unsafeUpdate(input, all(extra)),
    (extra) => metric.unsafeValue(all(extra)),
    (input, extra) => metric.unsafeModify(input, all(extra))
  )
}

/**
 * `metric` tagged with one or two tags (name, value), built once per tag set.
 *
 * @internal
 */
export const tagged = <Type, In, Out>(
  metric: Metric.Metric<Type, In, Out>,
  name1: string,
  value1: string,
  name2?: string,
  value2?: string
): Metric.Metric<Type, In, Out> => {
  let root = taggedCache.get(metric)
  if (root === undefined) {
    root = { metric: undefined, children: new Map() }
    taggedCache.set(metric, root)
  }
  let node = childOf(childOf(root, name1), value1)
  if (name2 !== undefined) node = childOf(childOf(node, name2), value2 ?? "")
  if (node.metric === undefined) {
    node.metric = withLabels(
      metric,
      name2 === undefined
        ? [MetricLabel.make(name1, value1)]
        : [MetricLabel.make(name1, value1), MetricLabel.make(name2, value2 ?? "")]
    )
  }
  return node.metric as Metric.Metric<Type, In, Out>
}

/**
 * Records a turn's result on the metrics, with the fiber's metric `labels`.
 *
 * @internal
 */
export const recordResultNow = (result: {
  readonly subtype?: unknown
  readonly is_error?: unknown
  readonly num_turns?: unknown
  readonly total_cost_usd?: unknown
  readonly usage?: unknown
}, labels: ReadonlyArray<MetricLabel.MetricLabel>): void => {
  const usage = (result.usage ?? {}) as Record<string, unknown>
  const number = (value: unknown) => typeof value === "number" && Number.isFinite(value) ? value : 0
  tagged(results, "subtype", String(result.subtype ?? "unknown"), "is_error", String(result.is_error === true))
    .unsafeUpdate(1, labels)
  modelTurns.unsafeUpdate(number(result.num_turns), labels)
  costUsd.unsafeUpdate(number(result.total_cost_usd), labels)
  tagged(tokens, "type", "input").unsafeUpdate(number(usage.input_tokens), labels)
  tagged(tokens, "type", "output").unsafeUpdate(number(usage.output_tokens), labels)
  tagged(tokens, "type", "cache_read").unsafeUpdate(number(usage.cache_read_input_tokens), labels)
  tagged(tokens, "type", "cache_creation").unsafeUpdate(number(usage.cache_creation_input_tokens), labels)
}
