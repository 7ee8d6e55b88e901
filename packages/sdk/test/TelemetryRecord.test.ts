/**
 * The telemetry helpers, without a session: tagged metrics built once per tag
 * set, the record of a result, and spans only when a tracer would read them.
 * (packages/sdk/test/Telemetry.test.ts, the span tree and metrics of a real
 * session, is ported with the session.)
 */
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as References from "effect/References"
import * as Tracer from "effect/Tracer"
import * as Telemetry from "../src/internal/telemetry.js"
import * as PublicTelemetry from "../src/Telemetry.js"

// A tracer that keeps the spans it made.
const recordingTracer = () => {
  const spans: Array<Tracer.NativeSpan> = []
  const tracer = Tracer.make({
    span: (options) => {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  return { spans, tracer }
}

const count = (metric: Metric.Metric<number, Metric.CounterState<number>>, tags: Record<string, string>) =>
  Effect.map(Metric.value(Metric.withAttributes(metric, tags)), (state) => state.count)

describe("Telemetry: metrics", () => {
  it("the public module names the internal values", () => {
    assert.strictEqual(PublicTelemetry.fallbacks, Telemetry.fallbacks)
    assert.strictEqual(PublicTelemetry.spans.hook, "claude.hook")
    assert.strictEqual(PublicTelemetry.attributes.decision, "claude.decision")
  })

  it.effect("tagged: one metric per tag set, updating the series of those attributes and the context's", () =>
    Effect.gen(function*() {
      const counter = Metric.counter("test_tagged_total")
      const allow = Telemetry.tagged(counter, "tool", "Bash", "decision", "allow")
      assert.strictEqual(Telemetry.tagged(counter, "tool", "Bash", "decision", "allow"), allow)
      assert.notStrictEqual(Telemetry.tagged(counter, "tool", "Bash", "decision", "deny"), allow)
      const context = yield* Effect.context<never>()
      allow.updateUnsafe(1, context)
      allow.updateUnsafe(1, Context.add(context, Metric.CurrentMetricAttributes, { session: "s-1" }))
      assert.strictEqual(yield* count(counter, { tool: "Bash", decision: "allow" }), 1)
      assert.strictEqual(yield* count(counter, { tool: "Bash", decision: "allow", session: "s-1" }), 1)
      assert.strictEqual(yield* count(counter, { tool: "Bash", decision: "deny" }), 0)
    }))

  it.effect("recordResultNow: one result, its turns, cost and tokens, ignoring what is not a finite number", () =>
    Effect.gen(function*() {
      const before = {
        results: yield* count(Telemetry.results, { subtype: "success", is_error: "true" }),
        input: yield* count(Telemetry.tokens, { type: "input" }),
        cacheRead: yield* count(Telemetry.tokens, { type: "cache_read" }),
        turns: (yield* Metric.value(Telemetry.modelTurns)).count,
        cost: (yield* Metric.value(Telemetry.costUsd)).count
      }
      Telemetry.recordResultNow({
        subtype: "success",
        is_error: true,
        num_turns: 3,
        total_cost_usd: 0.25,
        usage: { input_tokens: 100, output_tokens: 7, cache_read_input_tokens: Infinity }
      }, yield* Effect.context<never>())
      assert.strictEqual(
        (yield* count(Telemetry.results, { subtype: "success", is_error: "true" })) - before.results,
        1
      )
      assert.strictEqual((yield* count(Telemetry.tokens, { type: "input" })) - before.input, 100)
      assert.strictEqual((yield* count(Telemetry.tokens, { type: "cache_read" })) - before.cacheRead, 0)
      assert.strictEqual((yield* Metric.value(Telemetry.modelTurns)).count - before.turns, 3)
      assert.closeTo((yield* Metric.value(Telemetry.costUsd)).count - before.cost, 0.25, 1e-9)
    }))
})

describe("Telemetry: spans only for a tracer that reads them", () => {
  it.effect("isTracing: not with effect's own tracer, nor with tracing off; yes with another tracer", () =>
    Effect.gen(function*() {
      const { tracer } = recordingTracer()
      const context = yield* Effect.context<never>()
      assert.isFalse(Telemetry.isTracing(context))
      assert.isTrue(Telemetry.isTracing(Context.add(context, Tracer.Tracer, tracer)))
      assert.isFalse(
        Telemetry.isTracing(Context.add(Context.add(context, Tracer.Tracer, tracer), References.TracerEnabled, false))
      )
    }))

  it.effect("startSpan: none without a tracer; with one, a span under the context's parent, annotated, ended", () =>
    Effect.gen(function*() {
      const { spans, tracer } = recordingTracer()
      const context = yield* Effect.context<never>()
      let asked = false
      const none = Telemetry.startSpan(
        context,
        () => {
          asked = true
          return "x"
        },
        undefined,
        "server",
        () => ({})
      )
      assert.isUndefined(none)
      assert.isFalse(asked, "nothing is built for nobody to read")

      const parent = Tracer.externalSpan({ spanId: "parent-span", traceId: "trace-1" })
      const traced = Context.add(
        Context.add(Context.add(context, Tracer.Tracer, tracer), Tracer.ParentSpan, parent),
        References.TracerSpanAnnotations,
        { service: "test" }
      )
      const span = Telemetry.startSpan(
        traced,
        () => "claude.hook",
        undefined,
        "server",
        () => ({ "claude.subtype": "x" })
      )
      assert.isDefined(span)
      assert.strictEqual(spans.length, 1)
      assert.strictEqual(span!.name, "claude.hook")
      assert.strictEqual(span!.kind, "server")
      assert.deepStrictEqual(Option.map(span!.parent, (p) => p.spanId), Option.some("parent-span"))
      assert.strictEqual(span!.attributes.get("service"), "test")
      assert.strictEqual(span!.attributes.get("claude.subtype"), "x")
      Telemetry.endSpan(span!, traced, Exit.void)
      assert.strictEqual(spans[0].status._tag, "Ended")

      // an explicit parent wins over the context's
      const own = Telemetry.startSpan(traced, () => "child", span, "internal", () => ({}))
      assert.deepStrictEqual(Option.map(own!.parent, (p) => p.spanId), Option.some(span!.spanId))
    }))

  it.effect("withSpanIfTracing: the effect alone without a tracer, in its span with one", () =>
    Effect.gen(function*() {
      const { spans, tracer } = recordingTracer()
      const inner = Effect.map(Effect.option(Effect.currentSpan), Option.map((span) => span.name))
      const untraced = yield* Telemetry.withSpanIfTracing(inner, "claude.turn", () => ({}))
      assert.isTrue(Option.isNone(untraced))
      const traced = yield* Telemetry.withSpanIfTracing(inner, "claude.turn", () => ({ attributes: { n: 1 } })).pipe(
        Effect.provideService(Tracer.Tracer, tracer)
      )
      assert.deepStrictEqual(traced, Option.some("claude.turn"))
      assert.strictEqual(spans.length, 1)
      assert.strictEqual(spans[0].attributes.get("n"), 1)
    }))
})
