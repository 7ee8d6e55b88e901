/**
 * Recording the SDK's metrics and span attributes, in one place so that every
 * path (sessions, HookTest, command hooks) reports alike.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Metric from "effect/Metric"
import * as MetricLabel from "effect/MetricLabel"
import type * as Tracer from "effect/Tracer"
import type { DispatchOutcome } from "../HookRegistry.js"
import type { Decision } from "../PermissionGate.js"
import * as Telemetry from "../Telemetry.js"

// Tagged metrics are built once per tag combination: building (and hashing) a new key on every
// decision showed up in the hook round-trip benchmark.
const taggedCache = new WeakMap<object, Map<string, unknown>>()

const tagged = <Type, In, Out>(
  metric: Metric.Metric<Type, In, Out>,
  ...tags: ReadonlyArray<string>
): Metric.Metric<Type, In, Out> => {
  let byTags = taggedCache.get(metric)
  if (byTags === undefined) {
    byTags = new Map()
    taggedCache.set(metric, byTags)
  }
  const key = tags.join("\u0000")
  let found = byTags.get(key) as Metric.Metric<Type, In, Out> | undefined
  if (found === undefined) {
    const labels: Array<MetricLabel.MetricLabel> = []
    for (let i = 0; i + 1 < tags.length; i += 2) labels.push(MetricLabel.make(tags[i], tags[i + 1]))
    found = Metric.taggedWithLabels(metric, labels)
    byTags.set(key, found)
  }
  return found
}

/**
 * Records a hook's decision on its span and in the metrics, and returns the
 * outcome. One effect: this runs on every hook_callback.
 *
 * @internal
 */
export const recordHook = (
  span: Tracer.Span,
  event: string,
  outcome: DispatchOutcome
): Effect.Effect<DispatchOutcome> =>
  Effect.withFiberRuntime((fiber) => {
    const labels = fiber.getFiberRef(FiberRef.currentMetricLabels)
    span.attribute(
      Telemetry.attributes.decision,
      outcome.fallback !== undefined ? `fallback:${outcome.decision}` : outcome.decision
    )
    tagged(Telemetry.hookDecisions, "event", event, "decision", outcome.decision).unsafeUpdate(1, labels)
    if (outcome.fallback !== undefined) {
      span.attribute(Telemetry.attributes.fallback, outcome.fallback)
      tagged(Telemetry.fallbacks, "kind", "hook", "cause", outcome.fallback).unsafeUpdate(1, labels)
    }
    tagged(Telemetry.handlerLatency, "kind", "hook").unsafeUpdate(outcome.durationMillis, labels)
    return Effect.succeed(outcome)
  })

/**
 * Records a permission decision on its span and in the metrics, and returns
 * it. One effect: this runs on every can_use_tool.
 *
 * @internal
 */
export const recordPermission = (span: Tracer.Span, tool: string, decision: Decision): Effect.Effect<Decision> =>
  Effect.withFiberRuntime((fiber) => {
    const labels = fiber.getFiberRef(FiberRef.currentMetricLabels)
    const behavior = decision.result.behavior
    span.attribute(Telemetry.attributes.decision, decision.fallback !== undefined ? `fallback:${behavior}` : behavior)
    tagged(Telemetry.permissionDecisions, "tool", tool, "decision", behavior).unsafeUpdate(1, labels)
    if (decision.fallback !== undefined) {
      span.attribute(Telemetry.attributes.fallback, decision.fallback)
      tagged(Telemetry.fallbacks, "kind", "permission", "cause", decision.fallback).unsafeUpdate(1, labels)
    }
    tagged(Telemetry.handlerLatency, "kind", "permission").unsafeUpdate(decision.durationMillis, labels)
    return Effect.succeed(decision)
  })

/** @internal */
export const recordResult = (result: {
  readonly subtype?: unknown
  readonly is_error?: unknown
  readonly num_turns?: unknown
  readonly total_cost_usd?: unknown
  readonly usage?: unknown
}): Effect.Effect<void> => {
  const usage = (result.usage ?? {}) as Record<string, unknown>
  const number = (value: unknown) => typeof value === "number" && Number.isFinite(value) ? value : 0
  return Effect.all([
    Metric.increment(
      tagged(
        Telemetry.results,
        "subtype",
        String(result.subtype ?? "unknown"),
        "is_error",
        String(result.is_error === true)
      )
    ),
    Metric.incrementBy(Telemetry.modelTurns, number(result.num_turns)),
    Metric.incrementBy(Telemetry.costUsd, number(result.total_cost_usd)),
    Metric.incrementBy(tagged(Telemetry.tokens, "type", "input"), number(usage.input_tokens)),
    Metric.incrementBy(tagged(Telemetry.tokens, "type", "output"), number(usage.output_tokens)),
    Metric.incrementBy(
      tagged(Telemetry.tokens, "type", "cache_read"),
      number(usage.cache_read_input_tokens)
    ),
    Metric.incrementBy(
      tagged(Telemetry.tokens, "type", "cache_creation"),
      number(usage.cache_creation_input_tokens)
    )
  ], { discard: true })
}
