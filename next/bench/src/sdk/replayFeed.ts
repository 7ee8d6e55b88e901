/**
 * The replay feed: a recorded CLI stdout stream played back without the CLI.
 * All three drivers read it the same way, through a Node `Readable` that hands
 * out 64 KiB chunks like a pipe does, after answering the SDK's `initialize`
 * request with the recorded answer (so each SDK runs its normal start-up and
 * then decodes and routes every line to its consumer).
 *
 * The recording file holds one stdout line per line; its first line is the
 * CLI's answer to `initialize`.
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import { Readable, Writable } from "node:stream"

/**
 * @since 0.1.0
 * @category Models
 */
export interface Replay {
  readonly initResponse: any
  /** The recorded lines after the initialize answer, each ended by `\n`. */
  readonly cycle: Buffer
  readonly cycleLines: number
}

/**
 * @since 0.1.0
 * @category Loading
 */
export const loadReplay = (file: string): Replay => {
  const all = Fs.readFileSync(file)
  const firstEnd = all.indexOf(10)
  const initResponse = JSON.parse(all.subarray(0, firstEnd).toString("utf8"))
  const cycle = all.subarray(firstEnd + 1)
  let cycleLines = 0
  for (let i = cycle.indexOf(10); i !== -1; i = cycle.indexOf(10, i + 1)) cycleLines++
  return { initResponse, cycle, cycleLines }
}

/**
 * Exactly `lines` lines, cycling through the recording, in `chunkSize` pieces.
 *
 * @since 0.1.0
 * @category Loading
 */
export function* replayChunks(replay: Replay, lines: number, chunkSize = 64 * 1024): Generator<Buffer> {
  let left = lines
  while (left > 0) {
    let piece = replay.cycle
    if (left < replay.cycleLines) {
      let end = -1
      for (let n = 0; n < left; n++) end = replay.cycle.indexOf(10, end + 1)
      piece = replay.cycle.subarray(0, end + 1)
      left = 0
    } else {
      left -= replay.cycleLines
    }
    for (let offset = 0; offset < piece.length; offset += chunkSize) {
      yield piece.subarray(offset, Math.min(piece.length, offset + chunkSize))
    }
  }
}

/**
 * A stand-in for the CLI's pipes: `stdin` takes what the SDK writes and
 * watches for the initialize request; `stdout` then gives the recorded answer
 * and `lines` replayed lines, and ends. `done` resolves when stdout has ended.
 *
 * @since 0.1.0
 * @category Fakes
 */
export const fakeCliPipes = (
  replay: Replay,
  lines: number,
  options?: { readonly waitForInit?: boolean; readonly paced?: boolean }
): {
  readonly stdin: Writable
  readonly stdout: Readable
  readonly onStdin: (chunk: Uint8Array) => void
  readonly done: Promise<void>
  readonly written: () => number
} => {
  let initialized: (request: any) => void = () => {}
  const initRequest = new Promise<any>((resolve) => {
    initialized = resolve
  })
  let pending = ""
  let seenInit = false
  let written = 0
  const onStdin = (chunk: Uint8Array) => {
    written += chunk.length
    if (seenInit) return
    pending += Buffer.from(chunk).toString("utf8")
    let index: number
    while ((index = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, index)
      pending = pending.slice(index + 1)
      try {
        const message = JSON.parse(line)
        if (message.type === "control_request" && message.request?.subtype === "initialize") {
          seenInit = true
          pending = ""
          initialized(message)
          return
        }
      } catch {
        // not for us
      }
    }
  }
  const stdin = new Writable({
    write(chunk, _encoding, callback) {
      onStdin(chunk)
      callback()
    }
  })
  async function* play() {
    let played = replay
    if (options?.waitForInit !== false) {
      const request = await initRequest
      const answer = {
        ...replay.initResponse,
        response: { ...replay.initResponse.response, request_id: request.request_id }
      }
      yield Buffer.from(JSON.stringify(answer) + "\n")
      played = withCallbackIds(replay, request.request?.hooks)
    }
    if (options?.paced !== true) return yield* replayChunks(played, lines)
    // As a live CLI writes: each line a read of its own, in a turn of the event loop of its own.
    for (const chunk of replayChunks(played, lines)) {
      for (let start = 0; start < chunk.length;) {
        const end = chunk.indexOf(10, start)
        const next = end === -1 ? chunk.length : end + 1
        await new Promise((resolve) => setImmediate(resolve))
        yield chunk.subarray(start, next)
        start = next
      }
    }
  }
  const stdout = Readable.from(play(), { objectMode: false })
  const done = new Promise<void>((resolve) => stdout.once("end", resolve))
  return { stdin, stdout, onStdin, done, written: () => written }
}

const firstCallbackId = (hooks: any, event: string): string | undefined => hooks?.[event]?.[0]?.hookCallbackIds?.[0]

/**
 * The recording with its hook callback ids ("pre" and "post", the recorder's)
 * replaced by the ones the SDK registered in its initialize request, so that
 * each SDK runs its own hooks on the replayed requests.
 *
 * @since 0.1.0
 * @category Loading
 */
export const withCallbackIds = (replay: Replay, hooks: unknown): Replay => {
  const pre = firstCallbackId(hooks, "PreToolUse")
  const post = firstCallbackId(hooks, "PostToolUse")
  if (pre === undefined && post === undefined) return replay
  let text = replay.cycle.toString("utf8")
  if (pre !== undefined) {
    text = text.replaceAll("\"callback_id\":\"pre\"", JSON.stringify({ callback_id: pre }).slice(1, -1))
  }
  if (post !== undefined) {
    text = text.replaceAll("\"callback_id\":\"post\"", JSON.stringify({ callback_id: post }).slice(1, -1))
  }
  return { ...replay, cycle: Buffer.from(text, "utf8") }
}

/**
 * The recorded control requests a ping-pong plays: a PreToolUse and a
 * PostToolUse `hook_callback` and a `can_use_tool`, in the order the CLI sends
 * them for one tool call.
 *
 * @since 0.1.0
 * @category Fakes
 */
export const controlTemplates = (replay: Replay): ReadonlyArray<any> => {
  const found = new Map<string, any>()
  for (const line of replay.cycle.toString("utf8").split("\n")) {
    if (!line.includes("\"control_request\"")) continue
    const message = JSON.parse(line)
    const request = message.request ?? {}
    const key = request.subtype === "hook_callback" ? request.input?.hook_event_name : request.subtype
    if (!found.has(key)) found.set(key, message)
  }
  const order = ["PreToolUse", "can_use_tool", "PostToolUse"]
  const missing = order.filter((key) => !found.has(key))
  if (missing.length > 0) throw new Error(`the recording has no ${missing.join(", ")} request`)
  return order.map((key) => found.get(key))
}

/**
 * A stand-in for the CLI that plays ping-pong: after the initialize answer it
 * sends `rounds` × (PreToolUse hook, permission, PostToolUse hook) control
 * requests, each only after the previous one was answered, with the hook
 * callback ids the SDK registered in its initialize request. It times each
 * request from its line being handed over to the answer line arriving, in
 * the SDK's own process (so on the SDK's clock, without the CLI or pipes).
 *
 * @since 0.1.0
 * @category Fakes
 */
export const pingPongPipes = (replay: Replay, rounds: number, pauseMillis = 0): {
  readonly stdin: Writable
  readonly stdout: Readable
  readonly onStdin: (chunk: Uint8Array) => void
  readonly done: Promise<void>
  readonly latencies: Record<string, Array<number>>
} => {
  const templates = controlTemplates(replay)
  const latencies: Record<string, Array<number>> = { hook_callback: [], can_use_tool: [] }
  const waiting = new Map<string, (t: number) => void>()
  let init: ((message: any) => void) | undefined
  const initRequest = new Promise<any>((resolve) => {
    init = resolve
  })
  let pending = ""
  const onStdin = (chunk: Uint8Array) => {
    const t = performance.now()
    pending += Buffer.from(chunk).toString("utf8")
    let index: number
    while ((index = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, index)
      pending = pending.slice(index + 1)
      if (line.length === 0) continue
      const message = JSON.parse(line)
      if (message.type === "control_request" && message.request?.subtype === "initialize") init?.(message)
      else if (message.type === "control_response") waiting.get(message.response?.request_id)?.(t)
    }
  }
  const stdin = new Writable({
    write(chunk, _encoding, callback) {
      onStdin(chunk)
      callback()
    }
  })
  const stdout = new Readable({ read() {} })
  const done = (async () => {
    const request = await initRequest
    stdout.push(
      JSON.stringify({
        ...replay.initResponse,
        response: { ...replay.initResponse.response, request_id: request.request_id }
      }) + "\n"
    )
    const pre = firstCallbackId(request.request?.hooks, "PreToolUse")
    const post = firstCallbackId(request.request?.hooks, "PostToolUse")
    let counter = 0
    for (let round = 0; round < rounds; round++) {
      if (pauseMillis > 0) await new Promise((resolve) => setTimeout(resolve, pauseMillis))
      for (const template of templates) {
        const requestId = `pingpong-${++counter}`
        const body = { ...template.request }
        if (body.subtype === "hook_callback") {
          body.callback_id = body.input?.hook_event_name === "PreToolUse" ? pre : post
        }
        const answered = new Promise<number>((resolve) => waiting.set(requestId, resolve))
        const sent = performance.now()
        stdout.push(JSON.stringify({ ...template, request_id: requestId, request: body }) + "\n")
        const at = await answered
        waiting.delete(requestId)
        latencies[body.subtype]?.push(at - sent)
      }
    }
    stdout.push(null)
    await new Promise<void>((resolve) => stdout.once("end", resolve))
  })()
  return { stdin, stdout, onStdin, done, latencies }
}
