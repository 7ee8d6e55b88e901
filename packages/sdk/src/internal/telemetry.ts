/**
 * The SDK's metrics, built once per tag set, and the record of a turn's
 * result. Handlers (hooks, the gate, tools) are recorded by the guarded run
 * (`guardedRun.ts`).
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as MetricLabel from "effect/MetricLabel"
import * as Telemetry from "../Telemetry.js"

// Tagged metrics are built once per tag combination: building (and hashing) a new key on every
// decision showed up in the hook round-trip benchmark.
const taggedCache = new WeakMap<object, Map<string, unknown>>()

/**
 * `metric` tagged with `tags` (name, value, name, value, ...), built once per tag set.
 *
 * @internal
 */
export const tagged = <Type, In, Out>(
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
