/**
 * The line tap: a tiny executable that stands in for the CLI, spawns the real
 * one, forwards stdin/stdout byte for byte and timestamps the control lines
 * in both directions. Every SDK accepts a custom executable path, so the same
 * tap measures all of them alike: the SDK-side latency of a callback is the
 * time from the tap handing a `control_request` to the SDK until the SDK's
 * `control_response` with the same id is back in the tap (two pipe hops plus
 * everything the SDK does in between).
 *
 * The tap itself is plain JavaScript written next to the job (no TypeScript
 * loader, so it starts in ~40 ms), and writes its log when the CLI exits.
 *
 * In `burst` mode it also holds the CLI's output from the first
 * `stream_event` until the turn's `result` and then hands it over in one
 * write: the SDK gets the whole turn at once, so the rate at which messages
 * reach its consumer measures the SDK, not the CLI or the model server.
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

const TAP_SOURCE = String.raw`import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
const [cli, log, mode, ...args] = process.argv.slice(2)
const child = spawn(cli, args, { stdio: ["pipe", "pipe", "inherit"] })
const events = []
const CONTROL = Buffer.from('"control_')
const STREAM_EVENT = Buffer.from('{"type":"stream_event"')
const RESULT = Buffer.from('"type":"result"')
// burst: hold the CLI's output from the first stream_event to the result, then hand it over at once.
let burst = mode === "burst" ? "waiting" : "off"
const held = []
const inspect = (line, dir, t) => {
  if (burst === "waiting" && dir === "out" && line.subarray(0, STREAM_EVENT.length).equals(STREAM_EVENT)) burst = "holding"
  if (burst === "holding" && dir === "out" && !line.subarray(0, STREAM_EVENT.length).equals(STREAM_EVENT) &&
    line.indexOf(RESULT) !== -1) {
    try { if (JSON.parse(line.toString("utf8")).type === "result") burst = "release" } catch {}
  }
  const head = line.subarray(0, 160)
  if (head.indexOf(CONTROL) === -1) return
  let msg
  try { msg = JSON.parse(line.toString("utf8")) } catch { return }
  if (msg.type === "control_request") events.push([t, dir, msg.request_id, msg.request?.subtype ?? "?"])
  else if (msg.type === "control_response") events.push([t, dir, msg.response?.request_id, msg.response?.subtype ?? "?"])
  else if (msg.type === "control_cancel_request") events.push([t, dir, msg.request_id, "cancel"])
}
const pump = (src, dst, dir) => {
  let pending = []
  src.on("data", (chunk) => {
    const t = performance.now()
    let start = 0
    let index
    while ((index = chunk.indexOf(10, start)) !== -1) {
      const piece = chunk.subarray(start, index)
      const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece])
      pending = []
      inspect(line, dir, t)
      start = index + 1
    }
    if (start < chunk.length) pending.push(chunk.subarray(start))
    if (dir === "out" && burst === "holding") return void held.push(chunk)
    if (dir === "out" && burst === "release") {
      burst = "off"
      held.push(chunk)
      return void dst.write(Buffer.concat(held.splice(0)))
    }
    dst.write(chunk)
  })
  src.on("end", () => {
    events.push([performance.now(), dir, "", "eof"])
    if (held.length > 0) dst.write(Buffer.concat(held.splice(0)))
    dst.end()
  })
  dst.on("error", () => {})
}
pump(process.stdin, child.stdin, "in")
pump(child.stdout, process.stdout, "out")
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(signal, () => {
    events.push([performance.now(), "in", "", signal])
    child.kill(signal)
  })
}
child.on("exit", (code, signal) => events.push([performance.now(), "out", "", "exit " + (code ?? signal)]))
child.on("close", (code, signal) => {
  try { writeFileSync(log, events.map((e) => JSON.stringify(e)).join("\n") + "\n") } catch {}
  process.exit(code ?? (signal === "SIGKILL" ? 137 : 143))
})
`

/**
 * Writes the tap next to a job: returns the wrapper to give the SDK as its
 * executable and the log the tap writes when the CLI exits.
 *
 * @since 0.1.0
 * @category Tap
 */
export const installTap = (
  dir: string,
  realCli: string,
  mode: "pass" | "burst" = "pass"
): { readonly executable: string; readonly log: string } => {
  const script = Path.join(dir, "tap.mjs")
  const log = Path.join(dir, "tap.log")
  const executable = Path.join(dir, "claude-tap")
  Fs.writeFileSync(script, TAP_SOURCE)
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  Fs.writeFileSync(
    executable,
    `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(script)} ${quote(realCli)} ${quote(log)} ${mode} "$@"\n`,
    { mode: 0o755 }
  )
  return { executable, log }
}

/**
 * The SDK-side latencies in a tap log: for each control request the CLI sent,
 * the milliseconds until the SDK's response, by request subtype.
 *
 * @since 0.1.0
 * @category Tap
 */
export const readTapLog = (log: string): {
  readonly latencies: Readonly<Record<string, ReadonlyArray<number>>>
  readonly unanswered: number
} => {
  const text = Fs.existsSync(log) ? Fs.readFileSync(log, "utf8") : ""
  const asked = new Map<string, { readonly t: number; readonly subtype: string }>()
  const latencies: Record<string, Array<number>> = {}
  for (const line of text.split("\n")) {
    if (line.length === 0) continue
    const [t, dir, id, subtype] = JSON.parse(line) as [number, "in" | "out", string, string]
    if (id === "") continue
    if (dir === "out" && subtype !== "cancel" && subtype !== "success" && subtype !== "error") {
      asked.set(id, { t, subtype })
    } else if (dir === "in" && (subtype === "success" || subtype === "error")) {
      const request = asked.get(id)
      if (request === undefined) continue
      asked.delete(id)
      ;(latencies[request.subtype] ??= []).push(t - request.t)
    }
  }
  return { latencies, unanswered: asked.size }
}
