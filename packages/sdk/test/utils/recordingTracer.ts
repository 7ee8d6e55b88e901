/**
 * A tracer that keeps every span in memory, to assert on the span tree.
 */
import type * as Context from "effect/Context"
import type * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"

export class RecordedSpan implements Tracer.Span {
  readonly _tag = "Span"
  readonly name: string
  readonly spanId: string
  readonly traceId: string
  readonly parent: Option.Option<Tracer.AnySpan>
  readonly annotations: Context.Context<never>
  readonly kind: Tracer.SpanKind
  readonly sampled: boolean
  status: Tracer.SpanStatus
  readonly attributes = new Map<string, unknown>()
  readonly links: Array<Tracer.SpanLink>
  readonly events: Array<{ name: string; attributes?: Record<string, unknown> | undefined }> = []
  constructor(options: Parameters<Tracer.Tracer["span"]>[0], id: number) {
    this.name = options.name
    this.parent = options.parent
    this.annotations = options.annotations
    this.kind = options.kind
    this.sampled = options.sampled
    this.links = [...options.links]
    this.spanId = `span${id}`
    this.traceId = Option.match(options.parent, { onNone: () => `trace${id}`, onSome: (p) => p.traceId })
    this.status = { _tag: "Started", startTime: options.startTime }
  }
  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    this.status = { _tag: "Ended", startTime: this.status.startTime, endTime, exit }
  }
  attribute(key: string, value: unknown): void {
    this.attributes.set(key, value)
  }
  event(name: string, _startTime: bigint, attributes?: Record<string, unknown>): void {
    this.events.push({ name, attributes })
  }
  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    this.links.push(...links)
  }
  get ended(): boolean {
    return this.status._tag === "Ended"
  }
  get parentSpanId(): string | undefined {
    return Option.getOrUndefined(Option.map(this.parent, (p) => p.spanId))
  }
}

export const makeRecordingTracer = () => {
  const spans: Array<RecordedSpan> = []
  let counter = 0
  const tracer = Tracer.make({
    span: (options) => {
      const span = new RecordedSpan(options, ++counter)
      spans.push(span)
      return span
    }
  })
  return { spans, tracer, layer: Layer.succeed(Tracer.Tracer, tracer) }
}
