/**
 * Recording the SDK's metrics and span attributes, in one place so that every
 * path (sessions, HookTest, command hooks) reports alike.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as MetricLabel from "effect/MetricLabel"
import type { DispatchOutcome } from "../HookRegistry.js"
import type { Decision } from "../PermissionGate.js"
import * as Telemetry from "../Telemetry.js"

// Tagged metrics are built once per tag combination: building (and hashing) a new key on every
// decision showed up in the hook round-trip benchmark.
const taggedCache = new WeakMap<object, Map<string, unknown>>()

const tagged = <Type, In, Out>(
  metric: Metric.Metric<Type, In, Out>,
  tags: Record<string, string>
): Metric.Metric<Type, In, Out> => {
  let byTags = taggedCache.get(metric)
  if (byTags === undefined) {
    byTags = new Map()
    taggedCache.set(metric, byTags)
  }
  const key = Object.entries(tags).map(([k, v]) => `${k}=${v}`).join("\u0000")
  let found = byTags.get(key) as Metric.Metric<Type, In, Out> | undefined
  if (found === undefined) {
    found = Metric.taggedWithLabels(metric, Object.entries(tags).map(([k, v]) => MetricLabel.make(k, v)))
    byTags.set(key, found)
  }
  return found
}

const recordFallback = (kind: "hook" | "permission", cause: string | undefined) =>
  cause === undefined
    ? Effect.void
    : Metric.increment(tagged(Telemetry.fallbacks, { kind, cause }))

/** @internal */
export const recordHook = (event: string, outcome: DispatchOutcome): Effect.Effect<void> =>
  Effect.all([
    Effect.annotateCurrentSpan({
      [Telemetry.attributes.decision]: outcome.fallback !== undefined
        ? `fallback:${outcome.decision}`
        : outcome.decision,
      ...(outcome.fallback !== undefined ? { [Telemetry.attributes.fallback]: outcome.fallback } : {})
    }),
    Metric.increment(
      tagged(Telemetry.hookDecisions, { event, decision: outcome.decision })
    ),
    recordFallback("hook", outcome.fallback),
    Metric.update(tagged(Telemetry.handlerLatency, { kind: "hook" }), outcome.durationMillis)
  ], { discard: true })

/** @internal */
export const recordPermission = (tool: string, decision: Decision): Effect.Effect<void> =>
  Effect.all([
    Effect.annotateCurrentSpan({
      [Telemetry.attributes.decision]: decision.fallback !== undefined
        ? `fallback:${decision.result.behavior}`
        : decision.result.behavior,
      ...(decision.fallback !== undefined ? { [Telemetry.attributes.fallback]: decision.fallback } : {})
    }),
    Metric.increment(
      tagged(Telemetry.permissionDecisions, { tool, decision: decision.result.behavior })
    ),
    recordFallback("permission", decision.fallback),
    Metric.update(tagged(Telemetry.handlerLatency, { kind: "permission" }), decision.durationMillis)
  ], { discard: true })

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
      tagged(Telemetry.results, {
        subtype: String(result.subtype ?? "unknown"),
        is_error: String(result.is_error === true)
      })
    ),
    Metric.incrementBy(Telemetry.modelTurns, number(result.num_turns)),
    Metric.incrementBy(Telemetry.costUsd, number(result.total_cost_usd)),
    Metric.incrementBy(tagged(Telemetry.tokens, { type: "input" }), number(usage.input_tokens)),
    Metric.incrementBy(tagged(Telemetry.tokens, { "type": "output" }), number(usage.output_tokens)),
    Metric.incrementBy(
      tagged(Telemetry.tokens, { "type": "cache_read" }),
      number(usage.cache_read_input_tokens)
    ),
    Metric.incrementBy(
      tagged(Telemetry.tokens, { "type": "cache_creation" }),
      number(usage.cache_creation_input_tokens)
    )
  ], { discard: true })
}
