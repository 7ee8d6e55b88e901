/**
 * The floor: a minimal driver of the CLI with no SDK at all. It spawns the
 * executable, splits stdout into lines, `JSON.parse`s each one and answers
 * control requests by hand (hooks: `{}`, permissions: `allow`).
 *
 * @since 0.1.0
 */
import { type ChildProcess, spawn } from "node:child_process"
import type { Readable } from "node:stream"
import { SDK_ENV } from "../jobs.js"

/**
 * @since 0.1.0
 * @category Models
 */
export interface RawCliOptions {
  readonly executable: string
  readonly cwd: string
  readonly env: Readonly<Record<string, string>>
  readonly args?: ReadonlyArray<string> | undefined
  /** Adds `--permission-prompt-tool stdio`; `can_use_tool` is answered `allow`. */
  readonly gate?: boolean | undefined
  readonly partial?: boolean | undefined
  /** The `hooks` of the initialize request; every callback is answered `{}`. */
  readonly hooks?: Readonly<Record<string, ReadonlyArray<{ matcher?: string; hookCallbackIds: ReadonlyArray<string> }>>>
  readonly onMessage?: ((message: any) => void) | undefined
  /** Sees every stdout line before it is parsed (for recording). */
  readonly onLine?: ((line: Buffer) => void) | undefined
}

/**
 * The environment every driver gives the CLI.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const cliEnv = (extra: Readonly<Record<string, string>>): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== "NODE_OPTIONS" && key !== "DEBUG") env[key] = value
  }
  return { ...env, ...extra, ...SDK_ENV }
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface ExitInfo {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/**
 * Calls `onLine` with each non-empty line of a byte stream (without the
 * newline), pieces of a line across chunks joined once.
 *
 * @since 0.1.0
 * @category Framing
 */
export const eachLine = (stream: Readable, onLine: (line: Buffer) => void): void => {
  let pending: Array<Buffer> = []
  stream.on("data", (chunk: Buffer) => {
    let start = 0
    let index: number
    while ((index = chunk.indexOf(10, start)) !== -1) {
      const piece = chunk.subarray(start, index)
      const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece])
      pending = []
      start = index + 1
      if (line.length > 0) onLine(line)
    }
    if (start < chunk.length) pending.push(chunk.subarray(start))
  })
}

/**
 * The raw driver's answer to a control request: allow every permission, no
 * opinion from every hook, an error for anything else.
 *
 * @since 0.1.0
 * @category Control
 */
export const answerOf = (request: any): unknown => {
  const subtype = request.request?.subtype
  const response = subtype === "can_use_tool"
    ? { behavior: "allow" }
    : subtype === "hook_callback"
    ? {}
    : undefined
  return {
    type: "control_response",
    response: response === undefined
      ? { subtype: "error", request_id: request.request_id, error: `unsupported: ${subtype}` }
      : { subtype: "success", request_id: request.request_id, response }
  }
}

/**
 * @since 0.1.0
 * @category Drivers
 */
export class RawCli {
  readonly child: ChildProcess
  readonly exited: Promise<ExitInfo>
  private readonly waiters: Array<{ readonly test: (m: any) => boolean; readonly resolve: (m: any) => void }> = []
  private readonly pending = new Map<string, (response: any) => void>()
  private counter = 0
  private readonly onMessage: ((message: any) => void) | undefined

  constructor(options: RawCliOptions) {
    this.onMessage = options.onMessage
    const args = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"]
    if (options.gate === true) args.push("--permission-prompt-tool", "stdio")
    if (options.partial === true) args.push("--include-partial-messages")
    args.push(...(options.args ?? []))
    this.child = spawn(options.executable, args, {
      cwd: options.cwd,
      env: cliEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"]
    })
    this.child.stderr!.resume()
    this.child.stdin!.on("error", () => {})
    this.exited = new Promise((resolve) => this.child.once("close", (code, signal) => resolve({ code, signal })))
    const onLine = options.onLine
    eachLine(this.child.stdout!, (line) => {
      onLine?.(line)
      this.route(JSON.parse(line.toString("utf8")))
    })
    this.send({
      type: "control_request",
      request_id: "init",
      request: { subtype: "initialize", ...(options.hooks !== undefined ? { hooks: options.hooks } : {}) }
    })
  }

  get pid(): number {
    return this.child.pid!
  }

  private route(message: any): void {
    switch (message.type) {
      case "control_request":
        this.send(answerOf(message))
        return
      case "control_response": {
        const resolve = this.pending.get(message.response?.request_id)
        if (resolve !== undefined) {
          this.pending.delete(message.response.request_id)
          resolve(message.response)
        }
        return
      }
      case "control_cancel_request":
      case "keep_alive":
        return
    }
    this.onMessage?.(message)
    for (let i = 0; i < this.waiters.length; i++) {
      const waiter = this.waiters[i]
      if (waiter.test(message)) {
        this.waiters.splice(i--, 1)
        waiter.resolve(message)
      }
    }
  }

  /** Writes one message to stdin. */
  send(message: unknown): void {
    this.child.stdin!.write(JSON.stringify(message) + "\n")
  }

  /** Sends a user message. */
  user(content: string): void {
    this.send({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: "" })
  }

  /** Sends a control request and resolves with the CLI's response. */
  request(subtype: string, payload: Record<string, unknown> = {}): Promise<any> {
    const requestId = `raw_${++this.counter}`
    return new Promise((resolve) => {
      this.pending.set(requestId, resolve)
      this.send({ type: "control_request", request_id: requestId, request: { subtype, ...payload } })
    })
  }

  /** Resolves with the next message that passes `test`. */
  waitFor(test: (message: any) => boolean): Promise<any> {
    return new Promise((resolve) => this.waiters.push({ test, resolve }))
  }

  endInput(): void {
    this.child.stdin!.end()
  }
}
