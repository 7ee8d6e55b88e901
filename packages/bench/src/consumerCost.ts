/**
 * What a stream consumer costs per message, by runtime: the part of the
 * SDK's CPU that its own code does not decide. Each message arrives alone,
 * one per event-loop turn (`setImmediate`), as the CLI's lines arrive in a
 * live session, and the consumer does nothing with it. Each variant runs in a
 * fresh `node` process, round-robin (the order rotating per run):
 *
 * - `producer`: the messages made and handed to nothing (the floor);
 * - `asyncGenerator`: an async generator read by `for await`, the official
 *   SDK's shape (its `query` is one);
 * - `effect4`: effect 4.1 (the SDK's runtime), `Stream.fromQueue` read by
 *   `Stream.runForEach` (the session stream's shape: its messages are a
 *   `Queue`);
 * - `effect3`: effect 3.22 (the runtime of the SDK's effect-3 baseline, for
 *   comparison; effect3.ts), a stream of that SDK's session-stream shape (one
 *   waiting taker resumed directly, a channel loop writing each batch) read by
 *   `Stream.runForEach`;
 * - `effect3Mailbox`: effect 3.22, `Mailbox.toStream` read by
 *   `Stream.runForEach` (its idiomatic queue-backed stream).
 *
 * Per message, process CPU over the first 300 messages (code run for the
 * first time: the runtime's import excluded, its first use included) and over
 * messages 1,000–3,000 (warm).
 *
 * @since 0.1.0
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { median } from "./stats.js"

/**
 * @since 0.1.0
 * @category Models
 */
export type ConsumerVariant = "producer" | "asyncGenerator" | "effect3" | "effect3Mailbox" | "effect4"

/**
 * CPU per message (µs): over the first 300 messages and over messages 1,000–3,000.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ConsumerCost {
  readonly first: number
  readonly warm: number
}

const VARIANTS: ReadonlyArray<ConsumerVariant> = ["producer", "asyncGenerator", "effect3", "effect3Mailbox", "effect4"]

// Plain JavaScript, run by `node` with no loader; argv: variant, then the URL of the effect entry it imports.
const HARNESS_SOURCE = String.raw`const [variant, effectUrl] = process.argv.slice(2)
const COUNT = 3000
const marks = []
let made = 0
const produce = (offer, end) => {
  const tick = () => {
    if (made === 300 || made === 1000 || made === COUNT) marks.push(process.cpuUsage())
    if (made === COUNT) return end()
    offer({ type: "system", subtype: "session_state_changed", state: made % 2 === 0 ? "running" : "idle", n: made })
    made++
    setImmediate(tick)
  }
  setImmediate(tick)
}
const E = effectUrl === "-" ? undefined : await import(effectUrl)
const start = process.cpuUsage()
let seen = 0
if (variant === "producer") {
  await new Promise((done) => produce(() => void seen++, done))
} else if (variant === "asyncGenerator") {
  const held = []
  let wake
  let ended = false
  produce((m) => { held.push(m); wake?.() }, () => { ended = true; wake?.() })
  async function* messages() {
    while (true) {
      if (held.length > 0) { yield held.shift(); continue }
      if (ended) return
      await new Promise((resolve) => { wake = () => { wake = undefined; resolve() } })
    }
  }
  for await (const _ of messages()) seen++
} else if (variant === "effect3") {
  const { Channel, Chunk, Effect, Stream } = E
  let held = []
  let taker
  let ended = false
  const wake = () => {
    if (taker === undefined) return
    const resume = taker
    taker = undefined
    const batch = held
    held = []
    resume(Effect.succeed(ended && batch.length === 0 ? undefined : batch))
  }
  const take = Effect.suspend(() => {
    if (held.length > 0) { const batch = held; held = []; return Effect.succeed(batch) }
    if (ended) return Effect.succeed(undefined)
    return Effect.async((resume) => { taker = resume })
  })
  const loop = Channel.flatMap(Channel.fromEffect(take), (batch) =>
    batch === undefined ? Channel.void : Channel.zipRight(Channel.write(Chunk.unsafeFromArray(batch)), loop))
  produce((m) => { held.push(m); wake() }, () => { ended = true; wake() })
  await Effect.runPromise(Stream.runForEach(Stream.fromChannel(loop), () => Effect.sync(() => void seen++)))
} else if (variant === "effect3Mailbox") {
  const { Effect, Exit, Mailbox, Stream } = E
  await Effect.runPromise(Effect.flatMap(Mailbox.make(), (mailbox) => {
    produce((m) => mailbox.unsafeOffer(m), () => mailbox.unsafeDone(Exit.void))
    return Stream.runForEach(Mailbox.toStream(mailbox), () => Effect.sync(() => void seen++))
  }))
} else if (variant === "effect4") {
  const { Effect, Queue, Stream } = E
  await Effect.runPromise(Effect.flatMap(Queue.unbounded(), (queue) => {
    produce((m) => Queue.offerUnsafe(queue, m), () => Queue.endUnsafe(queue))
    return Stream.runForEach(Stream.fromQueue(queue), () => Effect.sync(() => void seen++))
  }))
}
if (seen !== COUNT) throw new Error(variant + ": " + seen + " messages of " + COUNT)
const cpu = (a, b) => b.user + b.system - a.user - a.system
process.stdout.write(JSON.stringify({ first: cpu(start, marks[0]) / 300, warm: cpu(marks[1], marks[2]) / (COUNT - 1000) }))
`

const runOnce = (harness: string, variant: ConsumerVariant, effectUrl: string): ConsumerCost => {
  const out = spawnSync(process.execPath, [harness, variant, effectUrl], { encoding: "utf8" })
  if (out.status !== 0) throw new Error(`consumer harness ${variant} failed: ${out.stderr.slice(0, 400)}`)
  return JSON.parse(out.stdout) as ConsumerCost
}

/**
 * Runs every variant `runs` times, round-robin, each in a fresh process, and
 * returns the medians.
 *
 * @since 0.1.0
 * @category Measuring
 */
export const measureConsumerCost = (
  dir: string,
  runs: number,
  effect3Url: string
): Readonly<Record<ConsumerVariant, ConsumerCost>> => {
  const harness = Path.join(dir, "consumer-harness.mjs")
  Fs.writeFileSync(harness, HARNESS_SOURCE)
  // Each runtime's ESM entry: effect 4 (the SDK's) as this package resolves it, effect 3.22 as the effect-3
  // baseline's tree does (effect3.ts: this package cannot depend on both).
  const urls: Record<ConsumerVariant, string> = {
    producer: "-",
    asyncGenerator: "-",
    effect3: effect3Url,
    effect3Mailbox: effect3Url,
    effect4: import.meta.resolve("effect")
  }
  const samples: Record<ConsumerVariant, Array<ConsumerCost>> = {
    producer: [],
    asyncGenerator: [],
    effect3: [],
    effect3Mailbox: [],
    effect4: []
  }
  for (let run = 0; run < runs; run++) {
    // The order rotates per run, as the SDKs' does (runner.ts).
    for (let i = 0; i < VARIANTS.length; i++) {
      const variant = VARIANTS[(i + run) % VARIANTS.length]
      samples[variant].push(runOnce(harness, variant, urls[variant]))
    }
  }
  const medianOf = (variant: ConsumerVariant): ConsumerCost => {
    const all = samples[variant]
    return { first: median(all.map((s) => s.first)), warm: median(all.map((s) => s.warm)) }
  }
  return {
    producer: medianOf("producer"),
    asyncGenerator: medianOf("asyncGenerator"),
    effect3: medianOf("effect3"),
    effect3Mailbox: medianOf("effect3Mailbox"),
    effect4: medianOf("effect4")
  }
}
