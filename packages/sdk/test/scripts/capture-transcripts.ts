/**
 * Captures the protocol transcripts of test/fixtures/transcripts/ from the pinned CLI
 * (`@anthropic-ai/claude-code` in node_modules) against the testkit's ScriptedModel, offline,
 * on 127.0.0.1. ProtocolTranscripts.test.ts decodes every line of them.
 *
 *   pnpm --filter @claude-effect/sdk capture-transcripts                 every scenario (a few minutes)
 *   pnpm --filter @claude-effect/sdk capture-transcripts 05_ 14_         the scenarios whose names start so
 *   pnpm --filter @claude-effect/sdk capture-transcripts --out /tmp/t    elsewhere than the fixtures
 *
 * Each scenario starts the CLI with the flags it names, writes to its stdin what it names (the
 * initialize request, prompts, control requests, raw lines), answers what the CLI asks (hook
 * callbacks, permissions, in-process MCP messages, elicitations) as it says, and records every line
 * both ways. The format is the one of the project's first protocol survey, one JSON object per line:
 * `{ t, dir, msg }` with `t` in ms since spawn and `dir` one of `sdk->cli` (stdin), `cli->sdk`
 * (stdout), `stderr`, `api` (a request the model received, summarized), `note` (what the capture
 * did: spawn, stdin end, kill) and `exit`; a stdin line that is not JSON on purpose is `raw`.
 *
 * Scrubbed before writing (machine-specific, never secrets): the working and home directories (to
 * `/capture/cwd` and `/capture/home`, also in the CLI's dashed project-directory names), any other
 * temporary directory, the repository's path (`/repo`), the CLI's pid in the initialize response.
 * An initialize response equal to an earlier file's is written as `{ t, dir, same_as: "file:line" }`:
 * it is the largest line (17 KB of built-in commands), the same in every run.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as CliLocator from "../../src/CliLocator.js"

type Json = { readonly [key: string]: any }

const repo = Path.resolve(import.meta.dirname, "..", "..", "..", "..")
const argv = process.argv.slice(2)
const outFlag = argv.indexOf("--out")
if (outFlag !== -1 && argv[outFlag + 1] === undefined) throw new Error("--out needs a directory: --out <dir>")
const outDir = outFlag === -1
  ? Path.resolve(import.meta.dirname, "..", "fixtures", "transcripts")
  : Path.resolve(argv[outFlag + 1]!)
/** The name prefixes of the scenarios to capture (every scenario when none). */
const only = outFlag === -1 ? argv : [...argv.slice(0, outFlag), ...argv.slice(outFlag + 2)]
const fixtures = Path.resolve(import.meta.dirname, "..", "fixtures")

const BASE = ["--output-format", "stream-json", "--input-format", "stream-json", "--verbose"]
const STDIO = ["--permission-prompt-tool", "stdio"]

// -------------------------------------------------------------------------------------------------
// Scenario model
// -------------------------------------------------------------------------------------------------

/** An answer to a request of the CLI: a success body, an error reply, or none at all. */
type Answer = Json | { readonly error: string } | "never"

interface Scenario {
  readonly name: string
  /** Flags after the stream-json ones (default: `--permission-prompt-tool stdio`). */
  readonly args?: (ctx: Directories) => ReadonlyArray<string>
  /** Replaces the stream-json flags. */
  readonly base?: ReadonlyArray<string>
  readonly env?: Readonly<Record<string, string>>
  readonly setup?: (ctx: Directories) => void
  readonly script?: (ctx: Directories) => ReadonlyArray<ScriptedModel.Step>
  /** Hook callbacks by id; `{}` for the ones not named. */
  readonly hooks?: Readonly<Record<string, Answer | ((input: Json) => Answer)>>
  /** `can_use_tool`; allow with the input as it is by default. */
  readonly permission?: (request: Json) => Answer
  readonly elicitation?: (request: Json) => Answer
  /** The in-process MCP servers this run answers for (`calc`), and how. */
  readonly mcp?: (server: string, message: Json) => Answer
  /** Scenarios of one group share their working directory and HOME, in the order they are listed. */
  readonly group?: string
  readonly run: (cli: Run, ctx: Directories) => Promise<void>
}

/** The directories of one run. */
interface Directories {
  /** The CLI's working directory (realpath). */
  readonly cwd: string
  /** The CLI's HOME. */
  readonly home: string
  /** A second directory, for `--add-dir` and the like. */
  readonly extra: string
}

const makeDirectories = (): Directories => {
  const make = (prefix: string) => Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), prefix)))
  return { cwd: make("capture-cwd-"), home: make("capture-home-"), extra: make("capture-extra-") }
}

const removeDirectories = (dirs: Directories) => {
  for (const dir of [dirs.cwd, dirs.home, dirs.extra]) Fs.rmSync(dir, { recursive: true, force: true })
}

const allow = (request: Json): Answer => ({ behavior: "allow", updatedInput: request.input })

// -------------------------------------------------------------------------------------------------
// One CLI run
// -------------------------------------------------------------------------------------------------

interface Entry {
  readonly t: number
  readonly dir: "sdk->cli" | "cli->sdk" | "stderr" | "api" | "note" | "exit"
  readonly msg?: unknown
  readonly raw?: string
}

interface Waiter {
  readonly predicate: (message: Json) => boolean
  readonly resolve: (message: Json) => void
}

/** A running CLI: what the scenario writes, waits for and answers. */
class Run {
  readonly entries: Array<Entry> = []
  private readonly child: ChildProcess.ChildProcessWithoutNullStreams
  private readonly start = Date.now()
  private readonly stdout: Array<Json> = []
  private waiters: Array<Waiter> = []
  private requests = 0
  private resultsTaken = 0
  private inputEnded = false
  readonly exited: Promise<{ readonly code: number | null; readonly signal: string | null }>

  constructor(
    executable: string,
    readonly args: ReadonlyArray<string>,
    readonly cwd: string,
    env: Readonly<Record<string, string>>,
    private readonly scenario: Scenario
  ) {
    this.note({ spawn: ["claude", ...args], cwd, env_overrides: scenario.env ?? {} })
    this.child = ChildProcess.spawn(executable, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] })
    this.child.stdin.on("error", () => {}) // a CLI that died: the write is lost, the exit says why
    this.exited = new Promise((resolve) =>
      this.child.once("close", (code, signal) => {
        this.entries.push({ t: this.now(), dir: "exit", msg: { code, signal, t: this.now() } })
        resolve({ code, signal })
      })
    )
    let pending = ""
    this.child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      pending += chunk
      let newline = pending.indexOf("\n")
      while (newline !== -1) {
        const line = pending.slice(0, newline)
        pending = pending.slice(newline + 1)
        if (line.trim().length > 0) this.onStdout(line)
        newline = pending.indexOf("\n")
      }
    })
    let stderr = ""
    this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
      let newline = stderr.indexOf("\n")
      while (newline !== -1) {
        const line = stderr.slice(0, newline)
        stderr = stderr.slice(newline + 1)
        if (line.trim().length > 0) this.entries.push({ t: this.now(), dir: "stderr", msg: line.slice(0, 2000) })
        newline = stderr.indexOf("\n")
      }
    })
  }

  now(): number {
    return Date.now() - this.start
  }

  note(msg: Json): void {
    this.entries.push({ t: this.now(), dir: "note", msg })
  }

  private onStdout(line: string): void {
    let message: Json
    try {
      message = JSON.parse(line)
    } catch {
      this.entries.push({ t: this.now(), dir: "cli->sdk", raw: line })
      return
    }
    this.entries.push({ t: this.now(), dir: "cli->sdk", msg: message })
    this.stdout.push(message)
    if (message.type === "control_request") void this.answer(message)
    const ready = this.waiters.filter((waiter) => waiter.predicate(message))
    this.waiters = this.waiters.filter((waiter) => !ready.includes(waiter))
    for (const waiter of ready) waiter.resolve(message)
  }

  private async answer(message: Json): Promise<void> {
    const request = message.request ?? {}
    let answer: Answer
    switch (request.subtype) {
      case "hook_callback": {
        const hook = this.scenario.hooks?.[request.callback_id]
        answer = typeof hook === "function" ? hook(request.input) : hook ?? {}
        break
      }
      case "can_use_tool":
        answer = (this.scenario.permission ?? allow)(request)
        break
      case "mcp_message":
        answer = this.scenario.mcp?.(request.server_name, request.message) ??
          { error: `no in-process server ${request.server_name}` }
        break
      case "elicitation":
        answer = this.scenario.elicitation?.(request) ?? { action: "decline" }
        break
      default:
        answer = { error: `unsupported: ${request.subtype}` }
    }
    if (answer === "never") return
    this.send({
      type: "control_response",
      response: "error" in answer && typeof answer.error === "string" && Object.keys(answer).length === 1
        ? { subtype: "error", request_id: message.request_id, error: answer.error }
        : { subtype: "success", request_id: message.request_id, response: answer }
    })
  }

  /** Writes one JSON line on stdin. */
  send(message: Json): void {
    if (this.inputEnded) return
    this.entries.push({ t: this.now(), dir: "sdk->cli", msg: message })
    this.child.stdin.write(JSON.stringify(message) + "\n")
  }

  /** Writes a line that the transcript leaves out (say so with a note). */
  writeUnrecorded(line: string): void {
    this.child.stdin.write(line + "\n")
  }

  /** Writes a line as it is (not JSON on purpose, or not what the SDK would write). */
  raw(text: string): void {
    this.entries.push({ t: this.now(), dir: "sdk->cli", raw: text })
    this.child.stdin.write(text + "\n")
  }

  /** The next stdout message matching `predicate` (or one already seen, with `seen`). */
  waitFor(predicate: (message: Json) => boolean, options: { timeout?: number; seen?: boolean } = {}): Promise<Json> {
    if (options.seen === true) {
      const found = this.stdout.find(predicate)
      if (found !== undefined) return Promise.resolve(found)
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== entry)
        reject(new Error(`${this.scenario.name}: timed out waiting (${predicate.toString().slice(0, 120)})`))
      }, options.timeout ?? 60_000)
      const entry: Waiter = {
        predicate,
        resolve: (message) => {
          clearTimeout(timer)
          resolve(message)
        }
      }
      this.waiters.push(entry)
    })
  }

  /** The initialize request; resolves with its response. */
  initialize(fields: Json = {}): Promise<Json> {
    return this.request("initialize", fields, "init_1")
  }

  /** Sends a control request and waits for its response. */
  request(subtype: string, fields: Json = {}, id?: string): Promise<Json> {
    const requestId = id ?? `req_${++this.requests}`
    const response = this.waitFor((m) => m.type === "control_response" && m.response?.request_id === requestId)
    this.send({ type: "control_request", request_id: requestId, request: { subtype, ...fields } })
    return response
  }

  /** Sends a control request without waiting for the answer. */
  requestNoWait(subtype: string, fields: Json = {}): void {
    this.send({ type: "control_request", request_id: `req_${++this.requests}`, request: { subtype, ...fields } })
  }

  /** A user message. */
  user(content: unknown, fields: Json = {}): void {
    this.send({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: "", ...fields })
  }

  /** Waits for the next `result` not yet waited for. */
  async result(options: { timeout?: number } = {}): Promise<Json> {
    const index = ++this.resultsTaken
    const seen = () => this.stdout.filter((m) => m.type === "result")
    if (seen().length >= index) return seen()[index - 1]!
    return this.waitFor(() => seen().length >= index, options)
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms))
  }

  kill(signal: NodeJS.Signals): void {
    this.note({ kill: signal })
    this.child.kill(signal)
  }

  endInput(): void {
    if (this.inputEnded) return
    this.inputEnded = true
    this.note({ stdin: "end" })
    this.child.stdin.end()
  }

  /** Ends stdin and waits for the exit; SIGKILL after `timeout`. */
  async close(timeout = 30_000): Promise<void> {
    this.endInput()
    await this.awaitExit(timeout)
  }

  async awaitExit(timeout = 30_000): Promise<void> {
    const timer = setTimeout(() => this.kill("SIGKILL"), timeout)
    await this.exited
    clearTimeout(timer)
  }
}

// -------------------------------------------------------------------------------------------------
// Running a scenario
// -------------------------------------------------------------------------------------------------

const capture = (scenario: Scenario, executable: string, shared: Directories | undefined) =>
  Effect.gen(function*() {
    const dirs = shared ?? makeDirectories()
    if (shared === undefined) yield* Effect.addFinalizer(() => Effect.sync(() => removeDirectories(dirs)))
    const ctx: Directories = dirs
    const model = Context.get(
      yield* Layer.build(ScriptedModel.layerNode(scenario.script?.(ctx) ?? [ScriptedModel.text("ok")])),
      ScriptedModel.ScriptedModel
    )
    const modelStart = Date.now()
    scenario.setup?.(ctx)
    const args = [...(scenario.base ?? BASE), ...(scenario.args?.(ctx) ?? STDIO)]
    // the run's own HOME (not the model's), so that a group's later runs find what the earlier ones kept
    const env = {
      ...cleanEnv(),
      ...model.cliEnv,
      HOME: dirs.home,
      CLAUDE_CONFIG_DIR: Path.join(dirs.home, ".claude"),
      ...scenario.env
    }
    const run = new Run(executable, args, dirs.cwd, env, scenario)
    const spawnedAfter = Date.now() - modelStart
    yield* Effect.tryPromise(() => scenario.run(run, ctx)).pipe(
      Effect.catch((error) =>
        Effect.sync(() => {
          run.note({ capture_error: String(error.cause) })
          process.stderr.write(`  ! ${String(error.cause)}\n`)
        })
      )
    )
    if (run.entries.every((entry) => entry.dir !== "exit")) {
      run.kill("SIGKILL")
      yield* Effect.promise(() => run.exited)
    }
    for (const request of yield* model.requests) {
      run.entries.push({
        t: Math.max(0, request.receivedAt - spawnedAfter),
        dir: "api",
        msg: {
          path: request.path,
          kind: request.kind,
          model: request.model,
          stream: request.stream,
          n_messages: request.messages.length,
          tools: request.tools,
          last_user_text: request.lastUserText.slice(0, 200)
        }
      })
    }
    const entries = [...run.entries].sort((a, b) => a.t - b.t)
    return { entries, scrub: scrubber(ctx) }
  }).pipe(Effect.scoped, Effect.provide(NodeServices.layer))

/** The environment of a user's shell: none of pnpm's, npm's or this script's own. */
const cleanEnv = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env).flatMap(([name, value]) =>
      value === undefined ||
        /^(npm_|pnpm_|PNPM_|VITEST|NODE_OPTIONS$|NODE_PATH$|INIT_CWD$|ANTHROPIC_|CLAUDE)/i.test(name)
        ? []
        : [[name, value]]
    )
  )

/** Replaces the run's directories and the repository's path in a serialized line. */
const scrubber = (ctx: Directories) => {
  const dashed = (dir: string) => dir.replace(/[^a-zA-Z0-9]/g, "-")
  const pairs: Array<readonly [string, string]> = [
    [ctx.cwd, "/capture/cwd"],
    [ctx.home, "/capture/home"],
    [ctx.extra, "/capture/extra"],
    [dashed(ctx.cwd), "-capture-cwd"],
    [dashed(ctx.home), "-capture-home"],
    [dashed(ctx.extra), "-capture-extra"],
    [repo, "/repo"],
    [Fs.realpathSync(Os.tmpdir()), "/tmp"]
  ]
  pairs.sort((a, b) => b[0].length - a[0].length)
  return (text: string) => pairs.reduce((out, [from, to]) => out.split(from).join(to), text)
}

// -------------------------------------------------------------------------------------------------
// Helpers for scenarios
// -------------------------------------------------------------------------------------------------

const text = ScriptedModel.text
const bash = (command: string, description = "run command") => ScriptedModel.toolUse("Bash", { command, description })

/** initialize (with `init`), one prompt, its result, stdin closed, the exit. */
const oneTurn = (init: Json = {}, prompt: unknown = "go") => async (cli: Run) => {
  await cli.initialize(init)
  cli.user(prompt)
  await cli.result()
  await cli.close()
}

const hookOn = (event: string, options: Json = {}, id = "h") => ({
  hooks: { [event]: [{ ...options, hookCallbackIds: [id] }] }
})

const preToolUse = (answer: Answer) => ({ hookEventName: "PreToolUse", ...(answer as Json) })

// The in-process MCP server `calc` (two tools: add, fail), answered here as the SDK would.
const calcTools = [
  {
    name: "add",
    description: "Add two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }
  },
  { name: "fail", description: "Always errors", inputSchema: { type: "object", properties: {} } }
]

const calc = (server: string, message: Json): Answer => {
  if (server !== "calc") return { error: `no in-process server ${server}` }
  const reply = (result: Json) => ({ mcp_response: { jsonrpc: "2.0", id: message.id, result } })
  switch (message.method) {
    case "initialize":
      return reply({
        protocolVersion: message.params?.protocolVersion ?? "2025-11-25",
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "calc", version: "1.0.0" },
        instructions: "Calc server instructions"
      })
    case "tools/list":
      return reply({ tools: calcTools })
    case "tools/call": {
      const { a, b } = message.params?.arguments ?? {}
      return message.params?.name === "add"
        ? reply({ content: [{ type: "text", text: String(Number(a) + Number(b)) }] })
        : reply({ content: [{ type: "text", text: "tool failed on purpose" }], isError: true })
    }
    default:
      // notifications and anything else: an empty result, as the SDK answers them
      return { mcp_response: { jsonrpc: "2.0", result: {}, id: message.id ?? 0 } }
  }
}

const calcManifest = {
  calc: {
    initializeResult: {
      protocolVersion: "2025-06-18",
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: "calc", version: "1.0.0" }
    },
    toolsListResult: { tools: calcTools }
  }
}

const stdioServer = (name = "demo") => ({
  [name]: { command: "node", args: [Path.join(fixtures, "stdio-mcp-server.mjs")] }
})

const settingsFile = (dir: string, settings: Json) => {
  Fs.mkdirSync(Path.join(dir, ".claude"), { recursive: true })
  Fs.writeFileSync(Path.join(dir, ".claude", "settings.json"), JSON.stringify(settings, null, 2))
}

// -------------------------------------------------------------------------------------------------
// The scenarios
// -------------------------------------------------------------------------------------------------

const scenarios: ReadonlyArray<Scenario> = [
  // 01-04: a basic turn, partial messages, the control sweep, replay and rewind
  {
    name: "01_basic",
    script: () => [bash("echo hi-from-tool > out.txt; echo done"), text("All done.")],
    run: oneTurn({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["pre_0"] }],
        PostToolUse: [{ hookCallbackIds: ["post_0"] }],
        UserPromptSubmit: [{ hookCallbackIds: ["ups_0"] }],
        Stop: [{ hookCallbackIds: ["stop_0"] }],
        SessionStart: [{ hookCallbackIds: ["ss_0"] }],
        SessionEnd: [{ hookCallbackIds: ["se_0"] }],
        Notification: [{ hookCallbackIds: ["notif_0"] }],
        PermissionRequest: [{ hookCallbackIds: ["permreq_0"] }]
      }
    }, "please run echo")
  },
  {
    name: "02_partial_messages",
    args: () => [...STDIO, "--include-partial-messages"],
    script: () => [
      ScriptedModel.turn(
        ScriptedModel.thinking("Let me run both."),
        ScriptedModel.text("I will run two commands."),
        ScriptedModel.toolUse("Bash", { command: "echo one", description: "one" }),
        ScriptedModel.toolUse("Bash", { command: "echo two", description: "two" })
      ),
      text("Both ran fine.")
    ],
    run: oneTurn({}, "run two")
  },
  {
    name: "03_control_sweep",
    setup: (ctx) => Fs.writeFileSync(Path.join(ctx.cwd, "existing.txt"), "existing content\n"),
    script: (
      ctx
    ) => [ScriptedModel.toolUse("Write", { file_path: `${ctx.cwd}/new.txt`, content: "hello\n" }), text("wrote it")],
    run: async (cli, ctx) => {
      await cli.initialize()
      const requests: ReadonlyArray<readonly [string, Json?]> = [
        ["get_binary_version"],
        ["list_models"],
        ["mcp_status"],
        ["get_settings"],
        ["get_context_usage", { detail: "summary" }],
        ["get_session_cost"],
        ["list_permission_rules"],
        ["get_hooks_listing"],
        ["file_suggestions", { query: "exi" }],
        ["read_file", { path: "existing.txt" }],
        ["read_file", { path: "existing.txt", encoding: "base64", max_bytes: 4 }],
        ["read_file", { path: "nope.txt" }],
        ["set_permission_mode", { mode: "acceptEdits" }],
        ["set_permission_mode", { mode: "bogus" }],
        ["set_permission_mode", { mode: "default" }],
        ["set_model", { model: "sonnet" }],
        ["set_model", {}],
        ["set_model", { model: "totally-bogus-model-x" }],
        ["set_max_thinking_tokens", { max_thinking_tokens: 2048 }],
        ["set_max_thinking_tokens", { max_thinking_tokens: null }],
        ["apply_flag_settings", { settings: { permissions: { allow: ["Bash(echo flag:*)"] } } }],
        ["reload_skills"],
        ["reload_output_styles"],
        ["reload_plugins"],
        ["stop_task", { task_id: "nonexistent" }],
        ["get_task_output", { task_id: "nonexistent" }],
        ["background_tasks"],
        ["mcp_toggle", { serverName: "nope", enabled: false }],
        ["mcp_reconnect", { serverName: "nope" }],
        ["mcp_set_servers", { servers: {} }],
        ["mcp_call", { tool: "mcp__nope__x", arguments: {} }],
        ["mcp_message", {
          server_name: "nope",
          message: { jsonrpc: "2.0", method: "notifications/tools/list_changed" }
        }],
        ["seed_read_state", { path: "existing.txt", mtime: Fs.statSync(Path.join(ctx.cwd, "existing.txt")).mtimeMs }],
        ["set_color", { color: "blue" }],
        ["rename_session", { title: "My session title" }],
        ["set_has_subscribers", { has_subscribers: false }],
        ["cancel_async_message", { message_uuid: "00000000-0000-0000-0000-000000000000" }],
        ["update_settings", { source: "localSettings", settings: { outputStyle: "Concise" } }],
        ["register_repo_root", { directory: ctx.extra }],
        ["interrupt"],
        ["get_usage", { skip_behaviors: true }],
        ["get_status"],
        ["definitely_not_a_subtype", { foo: 1 }]
      ]
      for (const [subtype, fields] of requests) await cli.request(subtype, fields ?? {}).catch(() => {})
      await cli.request("initialize", { hooks: { Stop: [{ hookCallbackIds: ["stop_x"] }] } }).catch(() => {})
      cli.user("write a file")
      await cli.result()
      await cli.request("get_context_usage")
      await cli.request("get_session_cost")
      await cli.request("rewind_files", { user_message_id: "00000000-0000-0000-0000-000000000000", dry_run: true })
      await cli.request("end_session").catch(() => {})
      await cli.close()
    }
  },
  {
    name: "04_sdk_env_replay_rewind",
    args: () => [...STDIO, "--replay-user-messages"],
    // what the SDK sets (ClaudeOptions.toEnv), file checkpointing on
    env: {
      CLAUDE_CODE_ENTRYPOINT: "sdk-ts",
      CLAUDE_CODE_SDK_READS_SESSION_STATE: "1",
      CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "true"
    },
    setup: (ctx) => Fs.writeFileSync(Path.join(ctx.cwd, "f.txt"), "original\n"),
    script: (ctx) => [
      ScriptedModel.toolUse("Write", { file_path: `${ctx.cwd}/f.txt`, content: "modified by model\n" }),
      text("edited")
    ],
    run: async (cli, ctx) => {
      await cli.initialize()
      cli.user("edit the file", { uuid: "11111111-2222-4333-8444-555555555555" })
      await cli.result()
      await cli.request("rewind_files", { user_message_id: "11111111-2222-4333-8444-555555555555", dry_run: true })
      await cli.request("rewind_files", { user_message_id: "11111111-2222-4333-8444-555555555555" })
      cli.note({ file_after_rewind: Fs.readFileSync(Path.join(ctx.cwd, "f.txt"), "utf8") })
      await cli.close()
    }
  },

  // 05: every PreToolUse answer
  ...(
    [
      ["baseline", {}],
      ["allow", preToolUse({ permissionDecision: "allow", permissionDecisionReason: "hook says ok" })],
      ["deny", preToolUse({ permissionDecision: "deny", permissionDecisionReason: "hook says no" })],
      ["ask", preToolUse({ permissionDecision: "ask", permissionDecisionReason: "hook wants a human" })],
      ["defer", preToolUse({ permissionDecision: "defer", permissionDecisionReason: "decide later" })],
      [
        "allow_updatedInput",
        preToolUse({
          permissionDecision: "allow",
          updatedInput: { command: "touch marker_rewritten", description: "rewritten" }
        })
      ],
      [
        "updatedInput_only",
        preToolUse({ updatedInput: { command: "touch marker_rewritten2", description: "rewritten" } })
      ],
      ["additionalContext", preToolUse({ additionalContext: "EXTRA-CONTEXT-FROM-PRETOOLUSE" })],
      ["continue_false", { continue: false, stopReason: "STOPPED-BY-PRETOOLUSE" }],
      ["decision_block", { decision: "block", reason: "BLOCKED-BY-DECISION" }],
      ["decision_approve", { decision: "approve", reason: "APPROVED-BY-DECISION" }],
      ["systemMessage", { systemMessage: "SYSTEM-MESSAGE-FROM-HOOK" }],
      ["suppressOutput", { suppressOutput: true }],
      ["async", { async: true, asyncTimeout: 1000 }],
      ["garbage", { foo: "bar", permissionDecision: "deny" }],
      ["wrong_event_name", { hookSpecificOutput: { hookEventName: "PostToolUse", permissionDecision: "deny" } }]
    ] as ReadonlyArray<readonly [string, Json]>
  ).map(([name, answer]): Scenario => ({
    name: `05_pretooluse_${name}`,
    hooks: { pre: "hookEventName" in answer ? { hookSpecificOutput: answer } : answer },
    script: () => [bash(`touch marker_${name}`), text("finished")],
    run: oneTurn(hookOn("PreToolUse", { matcher: "Bash" }, "pre"))
  })),

  // 06: PostToolUse, PostToolUseFailure, Stop, UserPromptSubmit answers
  ...(
    [
      ["baseline", {}],
      ["additionalContext", {
        hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "POST-EXTRA-CONTEXT" }
      }],
      ["decision_block", { decision: "block", reason: "POST-BLOCK-REASON" }],
      ["continue_false", { continue: false, stopReason: "POST-STOP-REASON" }],
      ["updatedToolOutput", {
        hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "REPLACED-OUTPUT" }
      }]
    ] as ReadonlyArray<readonly [string, Json]>
  ).map(([name, answer]): Scenario => ({
    name: `06_post_${name}`,
    hooks: { h: answer },
    script: () => [bash("echo post-test"), text("finished")],
    run: oneTurn(hookOn("PostToolUse"))
  })),
  {
    name: "06_post_failure",
    hooks: { h: { hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "FAILURE-CONTEXT" } } },
    script: () => [bash("exit 3"), text("finished")],
    run: oneTurn(hookOn("PostToolUseFailure"))
  },
  {
    name: "06_stop_block_once",
    hooks: { h: (input) => input.stop_hook_active === true ? {} : { decision: "block", reason: "KEEP-GOING-REASON" } },
    script: () => [text("first answer"), text("second answer after stop block")],
    run: oneTurn(hookOn("Stop"))
  },
  {
    name: "06_stop_additionalContext",
    hooks: {
      h: (input) =>
        input.stop_hook_active === true
          ? {}
          : { hookSpecificOutput: { hookEventName: "Stop", additionalContext: "STOP-ADDITIONAL" } }
    },
    script: () => [text("first answer"), text("second")],
    run: oneTurn(hookOn("Stop"))
  },
  {
    name: "06_stop_continue_false",
    hooks: { h: { continue: false, stopReason: "STOP-HOOK-STOPREASON" } },
    script: () => [text("first answer")],
    run: oneTurn(hookOn("Stop"))
  },
  {
    name: "06_stop_systemMessage",
    hooks: { h: { systemMessage: "STOP-SYSMSG" } },
    script: () => [text("first answer")],
    run: oneTurn(hookOn("Stop"))
  },
  ...(
    [
      ["additionalContext", {
        hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "UPS-ADDITIONAL-CONTEXT" }
      }],
      ["block", { decision: "block", reason: "UPS-BLOCK-REASON" }],
      ["continue_false", { continue: false, stopReason: "UPS-STOPREASON" }],
      ["sessionTitle", { hookSpecificOutput: { hookEventName: "UserPromptSubmit", sessionTitle: "TITLE-FROM-HOOK" } }],
      ["suppressOriginalPrompt", {
        hookSpecificOutput: {
          hookEventName: "UserPromptSubmit",
          additionalContext: "UPS-REPLACEMENT",
          suppressOriginalPrompt: true
        }
      }]
    ] as ReadonlyArray<readonly [string, Json]>
  ).map(([name, answer]): Scenario => ({
    name: `06_ups_${name}`,
    hooks: { h: answer },
    script: () => [text("answer")],
    run: oneTurn(hookOn("UserPromptSubmit"), "ORIGINAL-PROMPT-TEXT")
  })),

  // 07: every can_use_tool answer
  ...(
    [
      ["allow_no_updatedInput", () => ({ behavior: "allow" })],
      ["allow_updatedInput", () => ({
        behavior: "allow",
        updatedInput: { command: "touch marker_rewritten_by_sdk", description: "run command" }
      })],
      ["deny_message", () => ({ behavior: "deny", message: "SDK-DENY-MESSAGE" })],
      ["deny_no_message", () => ({ behavior: "deny" })],
      ["empty_response", () => ({})],
      ["invalid_behavior", () => ({ behavior: "maybe" })],
      ["updatedPermissions_localSettings", (request: Json) => ({
        behavior: "allow",
        updatedInput: request.input,
        updatedPermissions: [{
          type: "addRules",
          rules: [{ toolName: "Bash", ruleContent: "touch:*" }],
          behavior: "allow",
          destination: "localSettings"
        }]
      })]
    ] as ReadonlyArray<readonly [string, (request: Json) => Answer]>
  ).map(([name, permission]): Scenario => ({
    name: `07_cut_${name}`,
    permission,
    script: () => [bash(`touch marker_${name}`), text("finished")],
    run: oneTurn({ hooks: {} })
  })),
  {
    name: "07_cut_deny_interrupt",
    permission: () => ({ behavior: "deny", message: "SDK-DENY-INTERRUPT", interrupt: true }),
    script: () => [bash("touch marker_deny_interrupt"), text("finished")],
    run: oneTurn({ hooks: {} })
  },
  {
    name: "07_cut_updatedPermissions_addRules_session",
    permission: (request) => ({
      behavior: "allow",
      updatedInput: request.input,
      updatedPermissions: [{
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "touch:*" }],
        behavior: "allow",
        destination: "session"
      }]
    }),
    script: () => [bash("touch marker_a"), bash("touch marker_b"), text("finished")],
    run: async (cli) => {
      await cli.initialize({ hooks: {} })
      cli.user("go")
      await cli.result()
      await cli.request("list_permission_rules")
      await cli.close()
    }
  },
  {
    name: "07_cut_updatedPermissions_setMode",
    permission: (request) => ({
      behavior: "allow",
      updatedInput: request.input,
      updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }]
    }),
    script: (
      ctx
    ) => [
      bash("touch marker_m"),
      ScriptedModel.toolUse("Write", { file_path: `${ctx.cwd}/w.txt`, content: "x" }),
      text("finished")
    ],
    run: oneTurn({ hooks: {} })
  },

  // 08: interrupts
  {
    name: "08_interrupt_long_bash",
    // (the CLI refuses a bare `sleep N` followed by more: a node timer instead)
    script: () => [bash("node -e 'setTimeout(() => {}, 30000)' && touch slept")],
    run: async (cli) => {
      await cli.initialize(
        { hooks: { PostToolUseFailure: [{ hookCallbackIds: ["ptuf"] }], PostToolUse: [{ hookCallbackIds: ["ptu"] }] } }
      )
      cli.user("go")
      await cli.waitFor((m) => m.type === "assistant" && JSON.stringify(m).includes("tool_use"))
      await cli.sleep(1000)
      await cli.request("interrupt")
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "08_interrupt_pending_permission",
    permission: () => "never",
    script: () => [bash("touch never")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("go")
      await cli.waitFor((m) => m.type === "control_request" && m.request?.subtype === "can_use_tool")
      await cli.request("interrupt")
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "08_interrupt_pending_hook_and_queue",
    hooks: { h: "never" },
    script: () => [bash("echo x"), text("after")],
    run: async (cli) => {
      await cli.initialize(hookOn("PreToolUse"))
      cli.user("go", { uuid: "aaaaaaaa-0000-4000-8000-000000000001" })
      await cli.waitFor((m) => m.type === "control_request" && m.request?.subtype === "hook_callback")
      cli.user("queued one", { uuid: "aaaaaaaa-0000-4000-8000-000000000002" })
      cli.user("queued two", { uuid: "aaaaaaaa-0000-4000-8000-000000000003" })
      await cli.sleep(500)
      await cli.request("interrupt")
      await cli.result()
      await cli.result().catch(() => {})
      await cli.close()
    }
  },
  {
    name: "08_interrupt_slow_stream",
    args: () => [...STDIO, "--include-partial-messages"],
    script: () => [
      ScriptedModel.slow(text("word ".repeat(200)), { delay: "20 millis", chunkSize: 10 }),
      text("after interrupt, new answer")
    ],
    run: async (cli) => {
      await cli.initialize()
      cli.user("write a long text")
      await cli.waitFor((m) => m.type === "stream_event" && m.event?.type === "content_block_delta")
      await cli.sleep(300)
      await cli.request("interrupt")
      await cli.result()
      cli.user("continue please")
      await cli.result()
      await cli.close()
    }
  },

  // 09: in-process (SDK) MCP servers
  {
    name: "09_sdk_mcp_initialize",
    mcp: calc,
    script: () => [
      ScriptedModel.toolUse("mcp__calc__add", { a: 2, b: 3 }),
      ScriptedModel.toolUse("mcp__calc__fail", {}),
      text("sum is 5")
    ],
    run: async (cli) => {
      await cli.initialize({ sdkMcpServers: ["calc"] })
      await cli.request("mcp_status")
      cli.user("add 2 and 3")
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "09_sdk_mcp_manifest",
    mcp: calc,
    script: () => [
      ScriptedModel.toolUse("mcp__calc__add", { a: 2, b: 3 }),
      ScriptedModel.toolUse("mcp__calc__fail", {}),
      text("sum is 5")
    ],
    run: async (cli) => {
      await cli.initialize({ sdkMcpServers: ["calc"], sdkMcpServerManifests: calcManifest })
      await cli.request("mcp_status")
      cli.user("add 2 and 3")
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "09_sdk_mcp_posttooluse_updatedMCPToolOutput",
    mcp: calc,
    hooks: {
      p: (input) =>
        input.tool_name === "mcp__calc__add"
          ? {
            hookSpecificOutput: {
              hookEventName: "PostToolUse",
              updatedMCPToolOutput: { content: [{ type: "text", text: "REPLACED-MCP-RESULT" }] }
            }
          }
          : {}
    },
    script: () => [
      ScriptedModel.toolUse("mcp__calc__add", { a: 2, b: 3 }),
      ScriptedModel.toolUse("mcp__calc__fail", {}),
      text("sum is 5")
    ],
    run: async (cli) => {
      await cli.initialize({
        hooks: { PostToolUse: [{ hookCallbackIds: ["p"] }], PreToolUse: [{ hookCallbackIds: ["pre"] }] },
        sdkMcpServers: ["calc"]
      })
      cli.user("add 2 and 3")
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "09_sdk_mcp_via_mcp_config",
    args: () => [...STDIO, "--mcp-config", JSON.stringify({ mcpServers: { calc: { type: "sdk", name: "calc" } } })],
    mcp: calc,
    script: () => [
      ScriptedModel.toolUse("mcp__calc__add", { a: 2, b: 3 }),
      ScriptedModel.toolUse("mcp__calc__fail", {}),
      text("sum is 5")
    ],
    run: oneTurn({}, "add 2 and 3")
  },
  {
    name: "09_mcp_stdio_elicitation",
    args: () => [
      ...STDIO,
      "--mcp-config",
      JSON.stringify({
        mcpServers: { booking: { command: "node", args: [Path.join(fixtures, "eliciting-mcp-server.mjs")] } }
      })
    ],
    elicitation: () => ({ action: "accept", content: { seats: 2 } }),
    script: () => [ScriptedModel.toolUse("mcp__booking__book", { what: "a table" }), text("booked")],
    run: oneTurn({}, "book a table")
  },

  // 12: error replies, bad input, signals, stdin closed
  {
    name: "12_can_use_tool_error_response",
    permission: () => ({ error: "SDK-PERMISSION-EXPLODED" }),
    script: () => [bash("touch marker_cuterr"), text("done")],
    run: oneTurn()
  },
  {
    name: "12_hook_error_response_onFailure_default",
    hooks: { h: { error: "SDK-HOOK-EXPLODED" } },
    script: () => [bash("touch marker_hookerr"), text("done")],
    run: oneTurn(hookOn("PreToolUse"))
  },
  {
    name: "12_hook_error_response_onFailure_block",
    hooks: { h: { error: "SDK-HOOK-EXPLODED" } },
    script: () => [bash("touch marker_hookerr"), text("done")],
    run: oneTurn(hookOn("PreToolUse", { onFailure: "block" }))
  },
  {
    name: "12_mcp_message_error_response",
    mcp: () => ({ error: "SDK-MCP-EXPLODED" }),
    script: () => [ScriptedModel.toolUse("mcp__calc__add", { a: 1, b: 2 }), text("done")],
    run: oneTurn({ sdkMcpServers: ["calc"] })
  },
  {
    name: "12_malformed_first_line",
    run: async (cli) => {
      cli.raw("not json at all")
      await cli.awaitExit()
    }
  },
  {
    name: "12_malformed_stdin",
    run: async (cli) => {
      await cli.initialize()
      cli.raw("{this is not json")
      await cli.awaitExit()
    }
  },
  {
    name: "12b_huge_stdin_line",
    run: async (cli) => {
      await cli.initialize()
      // 12 MB of prompt: the CLI answers without a model call; the line itself is left out of the transcript
      const line = JSON.stringify({
        type: "user",
        message: { role: "user", content: "x".repeat(12 * 1024 * 1024) },
        parent_tool_use_id: null,
        session_id: ""
      })
      cli.note({ stdin_line_left_out: { type: "user", bytes: line.length } })
      cli.writeUnrecorded(line)
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "12_signal_SIGINT",
    script: () => [ScriptedModel.slow(text("word ".repeat(100)), { delay: "30 millis", chunkSize: 5 })],
    run: async (cli) => {
      await cli.initialize()
      cli.user("go")
      await cli.waitFor((m) => m.type === "system" && m.subtype === "init")
      await cli.sleep(500)
      cli.kill("SIGINT")
      await cli.awaitExit()
    }
  },
  {
    name: "12_signal_SIGTERM",
    script: () => [ScriptedModel.slow(text("word ".repeat(100)), { delay: "30 millis", chunkSize: 5 })],
    run: async (cli) => {
      await cli.initialize()
      cli.user("go")
      await cli.waitFor((m) => m.type === "system" && m.subtype === "init")
      await cli.sleep(500)
      cli.kill("SIGTERM")
      await cli.awaitExit()
    }
  },
  {
    name: "12_signal_SIGTERM_idle",
    script: () => [text("x")],
    run: async (cli) => {
      await cli.initialize(hookOn("SessionEnd", {}, "se"))
      cli.user("go")
      await cli.result()
      cli.kill("SIGTERM")
      await cli.awaitExit()
    }
  },
  {
    name: "12_stdin_close_mid_stream",
    script: () => [ScriptedModel.slow(text("word ".repeat(60)), { delay: "30 millis", chunkSize: 5 })],
    run: async (cli) => {
      await cli.initialize()
      cli.user("go")
      await cli.waitFor((m) => m.type === "system" && m.subtype === "init")
      await cli.close()
    }
  },
  {
    name: "12_stdin_close_pending_permission",
    permission: () => "never",
    script: () => [bash("touch marker_x"), text("done")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("go")
      await cli.waitFor((m) => m.type === "control_request" && m.request?.subtype === "can_use_tool")
      await cli.close()
    }
  },

  // 12b: lines the SDK would never write, one each, then a prompt (when the CLI is still alive)
  ...(
    [
      ["empty_line", ""],
      ["whitespace_line", "   "],
      ["json_array", "[1,2]"],
      ["json_number", "42"],
      ["json_null", "null"],
      ["missing_type", "{\"foo\":\"bar\"}"],
      ["unknown_type", "{\"type\":\"bogus_type\",\"x\":1}"],
      ["not_json_mid_session", "{this is not json"],
      ["keep_alive", "{\"type\":\"keep_alive\"}"],
      ["update_environment_variables", "{\"type\":\"update_environment_variables\",\"variables\":{\"FOO\":\"bar\"}}"],
      ["control_cancel_unknown", "{\"type\":\"control_cancel_request\",\"request_id\":\"nope\"}"],
      ["control_request_no_request_id", "{\"type\":\"control_request\",\"request\":{\"subtype\":\"mcp_status\"}}"],
      ["control_request_no_subtype", "{\"type\":\"control_request\",\"request_id\":\"nosub\",\"request\":{}}"],
      ["control_request_null_request", "{\"type\":\"control_request\",\"request_id\":\"noreq\",\"request\":null}"],
      [
        "unknown_request_id_response",
        "{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"no-such-request\",\"response\":{}}}"
      ],
      ["user_bad_role", "{\"type\":\"user\",\"message\":{\"role\":\"assistant\",\"content\":\"hi\"}}"],
      ["user_missing_message", "{\"type\":\"user\"}"]
    ] as ReadonlyArray<readonly [string, string]>
  ).map(([name, line]): Scenario => ({
    name: `12b_badline_${name}`,
    script: () => [text("alive after bad line")],
    run: async (cli) => {
      await cli.initialize()
      cli.raw(line)
      const exited = await Promise.race([cli.exited.then(() => true), cli.sleep(1500).then(() => false)])
      if (exited) return
      cli.user("are you alive")
      await cli.result()
      await cli.close()
    }
  })),

  // 12c: requests left unanswered (the CLI's own timeouts)
  {
    name: "12c_hook_never_answered_timeout3",
    hooks: { h: "never" },
    script: () => [bash("echo hi"), text("done")],
    run: oneTurn(hookOn("PreToolUse", { timeout: 3 }))
  },
  {
    name: "12c_hook_never_answered_timeout3_onFailure_block",
    hooks: { h: "never" },
    script: () => [bash("echo hi"), text("done")],
    run: oneTurn(hookOn("PreToolUse", { timeout: 3, onFailure: "block" }))
  },

  // 14: flags
  {
    name: "14_add_dir",
    args: (ctx) => [...STDIO, "--add-dir", ctx.extra],
    script: (
      ctx
    ) => [ScriptedModel.toolUse("Write", { file_path: `${ctx.extra}/added.txt`, content: "x" }), text("done")],
    run: oneTurn()
  },
  ...(
    [
      ["allowedTools", ["--allowedTools", "Bash(touch:*)"], [bash("touch allowed_file"), text("done")]],
      ["disallowedTools", ["--disallowedTools", "Bash"], [bash("touch x"), text("done")]],
      ["tools_list", ["--tools", "Bash,Read"], [text("ok")]],
      ["append_system_prompt_flag", ["--append-system-prompt", "APPENDED-SYSTEM-PROMPT-FLAG"], [text("ok")]],
      ["system_prompt_flag", ["--system-prompt", "CUSTOM-SYSTEM-PROMPT-FLAG"], [text("ok")]],
      ["betas", ["--betas", "context-1m-2025-08-07"], [text("ok")]],
      ["effort_low", ["--effort", "low"], [text("ok")]],
      ["max_thinking_tokens", ["--max-thinking-tokens", "5000"], [text("ok")]],
      ["thinking_disabled", ["--thinking=disabled"], [text("ok")]],
      ["model_alias", ["--model", "haiku"], [text("ok")]],
      ["model_full", ["--model", "claude-custom-test-1"], [text("ok")]],
      ["max_turns_1", ["--max-turns", "1"], [bash("echo 1"), text("never")]],
      ["max_budget", ["--max-budget-usd", "0.0001"], [bash("echo 1"), text("never")]],
      ["mcp_config_bad", [
        "--mcp-config",
        JSON.stringify({ mcpServers: { broken: { command: "/nonexistent/binary" } } })
      ], [
        text("ok")
      ]],
      ["permission_mode_acceptEdits", ["--permission-mode", "acceptEdits"], [
        bash("touch pm_acceptEdits"),
        text("done")
      ]],
      ["permission_mode_dontAsk", ["--permission-mode", "dontAsk"], [bash("touch pm_dontAsk"), text("done")]],
      ["permission_mode_manual", ["--permission-mode", "manual"], [bash("touch pm_manual"), text("done")]],
      ["permission_mode_plan", ["--permission-mode", "plan"], [bash("touch pm_plan"), text("done")]],
      ["permission_prompts_none", ["--permission-prompts", "none"], [bash("touch ppn"), text("done")]],
      ["settings_json", ["--settings", JSON.stringify({ permissions: { allow: ["Bash(touch:*)"] } })], [
        bash("touch via_settings"),
        text("done")
      ]],
      ["setting_sources_empty", ["--setting-sources", ""], [bash("touch via_project4"), text("done")]],
      ["setting_sources_user_only", ["--setting-sources", "user"], [bash("touch via_project2"), text("done")]],
      ["setting_sources_project", ["--setting-sources", "project"], [bash("touch via_project"), text("done")]]
    ] as ReadonlyArray<readonly [string, ReadonlyArray<string>, ReadonlyArray<ScriptedModel.Step>]>
  ).map(([name, flags, steps]): Scenario =>
    ({
      name: `14_${name}`,
      args: () => [...STDIO, ...flags],
      setup: name.startsWith("setting_sources")
        ? (ctx) => settingsFile(ctx.cwd, { permissions: { allow: ["Bash(touch:*)"] } })
        : undefined,
      script: () => steps,
      run: oneTurn()
    }) as Scenario
  ),
  {
    name: "14_append_system_prompt_init",
    run: oneTurn({ appendSystemPrompt: "APPENDED-SYSTEM-PROMPT-INIT" })
  },
  {
    name: "14_system_prompt_init",
    run: oneTurn({ systemPrompt: ["CUSTOM-SYSTEM-PROMPT-INIT"] })
  },
  {
    name: "14_fallback_model",
    args: () => [...STDIO, "--fallback-model", "sonnet"],
    env: { CLAUDE_CODE_MAX_RETRIES: "1" },
    script: () => [ScriptedModel.rule(() => ScriptedModel.error(529, { message: "fake 529" }))],
    run: oneTurn()
  },
  {
    name: "14_no_permission_prompt_tool",
    args: () => [],
    script: () => [bash("touch no_ppt"), text("done")],
    run: oneTurn()
  },
  {
    name: "14_mcp_config_stdio",
    args: () => [...STDIO, "--mcp-config", JSON.stringify({ mcpServers: stdioServer() }), "--strict-mcp-config"],
    script: () => [ScriptedModel.toolUse("mcp__demo__ping", {}), text("done")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("go")
      await cli.result()
      await cli.request("mcp_status")
      await cli.close()
    }
  },
  {
    name: "14_permission_mode_bypassPermissions",
    args: () => [...STDIO, "--permission-mode", "bypassPermissions"],
    run: async (cli) => {
      cli.send({ type: "control_request", request_id: "init_1", request: { subtype: "initialize" } })
      await cli.awaitExit()
    }
  },
  {
    name: "14_bypass_with_allow_flag",
    args: () => [...STDIO, "--permission-mode", "bypassPermissions", "--allow-dangerously-skip-permissions"],
    run: async (cli) => {
      cli.send({ type: "control_request", request_id: "init_1", request: { subtype: "initialize" } })
      await cli.awaitExit()
    }
  },
  {
    name: "14_settings_command_hook_with_include_hook_events",
    args: () => [...STDIO, "--settings", JSON.stringify(commandHooks), "--include-hook-events"],
    script: () => [bash("echo hi"), text("done")],
    run: oneTurn()
  },
  {
    name: "14_settings_command_hook_without_include_hook_events",
    args: () => [...STDIO, "--settings", JSON.stringify(commandHooks)],
    script: () => [bash("echo hi"), text("done")],
    run: oneTurn()
  },

  // 15: sessions: first, resume, continue, fork, ids, no persistence (one CLI after the other)
  ...sessionScenarios(),

  // 16-18: start-up hooks, large lines, launch variants
  {
    name: "16_session_start_hooks",
    run: oneTurn({
      hooks: {
        SessionStart: [{ hookCallbackIds: ["ss"] }],
        SessionEnd: [{ hookCallbackIds: ["se"] }],
        Setup: [{ hookCallbackIds: ["setup"] }],
        InstructionsLoaded: [{ hookCallbackIds: ["il"] }]
      }
    })
  },
  {
    name: "16_session_start_hooks_await_initialize",
    args: () => [...STDIO, "--await-initialize"],
    setup: (ctx) => Fs.writeFileSync(Path.join(ctx.cwd, "CLAUDE.md"), "# Project notes\nBe brief.\n"),
    hooks: {
      ss: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "SESSION-START-CONTEXT" } }
    },
    run: oneTurn({
      hooks: {
        SessionStart: [{ hookCallbackIds: ["ss"] }],
        SessionEnd: [{ hookCallbackIds: ["se"] }],
        Setup: [{ hookCallbackIds: ["setup"] }],
        InstructionsLoaded: [{ hookCallbackIds: ["il"] }]
      }
    })
  },
  {
    name: "17_bash_large_output",
    args: () => [...STDIO, "--include-partial-messages"],
    script: () => [bash("yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx | head -c 400000"), text("done")],
    run: oneTurn()
  },
  {
    name: "17_large_model_text",
    args: () => [...STDIO, "--include-partial-messages"],
    script: () => [ScriptedModel.slow(text("y".repeat(60_000)), { delay: "0 millis", chunkSize: 4000 })],
    run: oneTurn()
  },
  {
    name: "17_large_tool_input",
    script: (
      ctx
    ) => [
      ScriptedModel.toolUse("Write", { file_path: `${ctx.cwd}/big.txt`, content: "z".repeat(60_000) }),
      text("done")
    ],
    run: oneTurn()
  },
  {
    name: "18_bypass_is_sandbox",
    args: () => [...STDIO, "--permission-mode", "bypassPermissions"],
    env: { IS_SANDBOX: "1" },
    script: () => [bash("touch bypass_file"), text("done")],
    run: oneTurn({}, "x")
  },
  {
    name: "18_no_initialize",
    script: () => [bash("touch no_init_file"), text("answered without initialize")],
    run: async (cli) => {
      cli.user("hello")
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "18_no_verbose",
    base: ["--output-format", "stream-json", "--input-format", "stream-json"],
    run: async (cli) => {
      await cli.awaitExit()
    }
  },
  {
    name: "18_with_print_flag",
    base: ["-p", ...BASE],
    script: () => [text("ok with -p")],
    run: oneTurn({}, "x")
  },
  {
    name: "18_request_before_initialize",
    run: async (cli) => {
      cli.requestNoWait("mcp_status")
      await cli.initialize()
      await cli.close()
    }
  },
  {
    name: "18_project_settings",
    setup: (ctx) =>
      settingsFile(ctx.cwd, {
        permissions: { allow: ["Bash(touch:*)"] },
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo project-hook" }] }] }
      }),
    script: () => [bash("touch via_trusted_project"), text("done")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("x")
      await cli.result()
      await cli.request("list_permission_rules")
      await cli.request("get_settings")
      await cli.close()
    }
  },
  {
    name: "18_set_mode_bypass_runtime",
    env: { IS_SANDBOX: "1" },
    script: () => [bash("touch rt_bypass"), text("done")],
    run: async (cli) => {
      await cli.initialize()
      await cli.request("set_permission_mode", { mode: "bypassPermissions" })
      cli.user("x")
      await cli.result()
      await cli.close()
    }
  },

  // 19: PermissionRequest hooks
  ...(
    [
      ["baseline_empty", {}],
      ["hook_allow", { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } }],
      ["hook_allow_updatedInput", {
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "allow", updatedInput: { command: "touch pr_rewritten", description: "rewritten" } }
        }
      }],
      ["hook_deny", {
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "deny", message: "PR-HOOK-DENIED" }
        }
      }]
    ] as ReadonlyArray<readonly [string, Json]>
  ).map(([name, answer]): Scenario => ({
    name: `19_${name}`,
    hooks: { pr: answer },
    // the gate answers later than the hook, so that a hook's decision is seen to win
    permission: name === "baseline_empty" ? allow : () => "never",
    script: () => [bash(`touch pr_${name}`), text("done")],
    run: oneTurn(hookOn("PermissionRequest", {}, "pr"))
  })),
  {
    name: "19_include_hook_events_sdk_callbacks",
    args: () => [...STDIO, "--include-hook-events"],
    script: () => [
      ScriptedModel.turn(
        ScriptedModel.toolUse("Bash", { command: "echo a", description: "a" }),
        ScriptedModel.toolUse("Bash", { command: "echo b", description: "b" })
      ),
      text("done")
    ],
    run: oneTurn({
      hooks: {
        PermissionRequest: [{ hookCallbackIds: ["pr"] }],
        PreToolUse: [{ hookCallbackIds: ["pre"] }],
        PostToolBatch: [{ hookCallbackIds: ["ptb"] }]
      }
    })
  },

  // 20-23: tools and features
  {
    name: "20_ask_user_question",
    permission: (request) =>
      request.tool_name === "AskUserQuestion"
        ? { behavior: "allow", updatedInput: { ...request.input, answers: { "Which color?": "Blue" } } }
        : allow(request),
    script: () => [
      ScriptedModel.toolUse("AskUserQuestion", {
        questions: [{
          question: "Which color?",
          header: "Color",
          options: [{ label: "Red", description: "warm" }, { label: "Blue", description: "cool" }],
          multiSelect: false
        }]
      }),
      text("thanks")
    ],
    run: oneTurn({}, "ask me")
  },
  {
    name: "20_background_bash_stop_task",
    script: () => [
      ScriptedModel.toolUse("Bash", {
        command: "for i in 1 2 3 4 5 6 7 8 9 10; do echo tick$i; sleep 1; done",
        description: "ticker",
        run_in_background: true
      }),
      text("started in background")
    ],
    run: async (cli) => {
      await cli.initialize()
      cli.user("bg")
      await cli.result()
      const started = await cli.waitFor((m) => m.type === "system" && m.subtype === "task_started", { seen: true })
      await cli.sleep(2500)
      await cli.request("background_tasks")
      await cli.request("get_task_output", { task_id: started.task_id })
      await cli.request("stop_task", { task_id: started.task_id })
      await cli.sleep(1000)
      await cli.close()
    }
  },
  {
    name: "20_exit_plan_mode",
    args: () => [...STDIO, "--permission-mode", "plan"],
    script: () => [
      ScriptedModel.toolUse("ExitPlanMode", { plan: "1. do X\n2. do Y" }),
      bash("touch after_plan"),
      text("done")
    ],
    run: oneTurn({}, "plan it")
  },
  {
    name: "20_image_input",
    script: () => [text("I see a pixel")],
    run: oneTurn({}, [
      { type: "text", text: "what is this" },
      {
        type: "image",
        source: {
          type: "base64",
          media_type: "image/png",
          data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
        }
      }
    ])
  },
  {
    name: "20_mcp_set_servers",
    mcp: calc,
    script: () => [ScriptedModel.toolUse("mcp__calc__add", { a: 4, b: 5 }), text("nine")],
    run: async (cli) => {
      await cli.initialize()
      await cli.request("mcp_set_servers", { servers: { calc: { type: "sdk", name: "calc" }, ...stdioServer() } })
      await cli.request("mcp_status")
      await cli.request("mcp_toggle", { serverName: "demo", enabled: false })
      await cli.request("mcp_status")
      await cli.request("mcp_toggle", { serverName: "demo", enabled: true })
      await cli.request("mcp_reconnect", { serverName: "demo" })
      await cli.request("mcp_call", { tool: "mcp__demo__ping", arguments: {} })
      await cli.request("mcp_call", { tool: "mcp__calc__add", arguments: { a: 1, b: 1 } })
      cli.user("add")
      await cli.result()
      await cli.request("mcp_set_servers", { servers: {} })
      await cli.request("mcp_status")
      await cli.close()
    }
  },
  {
    name: "20_mcp_resources",
    args: () => [...STDIO, "--mcp-config", JSON.stringify({ mcpServers: stdioServer() }), "--strict-mcp-config"],
    script: () => [text("ok")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("go")
      await cli.result()
      await cli.request("mcp_read_resource", { serverName: "demo", uri: "ui://fixture/widget" })
      await cli.close()
    }
  },
  {
    name: "20_message_queueing",
    script: () => [
      ScriptedModel.delayed(text("reply 1"), "800 millis"),
      text("reply 2"),
      text("reply 3"),
      text("reply 4")
    ],
    run: async (cli) => {
      await cli.initialize()
      cli.user("m1", { uuid: "bbbbbbbb-0000-4000-8000-000000000001" })
      cli.user("m2", { uuid: "bbbbbbbb-0000-4000-8000-000000000002" })
      cli.user("m3", { uuid: "bbbbbbbb-0000-4000-8000-000000000003" })
      await cli.result()
      cli.user("m4-now", { uuid: "bbbbbbbb-0000-4000-8000-000000000004", priority: "now" })
      cli.user("m5-later", { uuid: "bbbbbbbb-0000-4000-8000-000000000005", priority: "later" })
      await cli.sleep(3000)
      await cli.close()
    }
  },
  {
    name: "20_runtime_mode_model",
    script: () => [bash("touch t1"), text("one"), bash("touch t2"), text("two")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("first")
      await cli.request("set_permission_mode", { mode: "acceptEdits" })
      await cli.request("set_model", { model: "haiku" })
      await cli.result()
      cli.user("second")
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "21_subagent_and_task_hooks",
    script: () => [
      ScriptedModel.subagent(text("SUB-DONE")),
      ScriptedModel.toolUse("Agent", { description: "bg", prompt: "Run sub work", subagent_type: "general-purpose" }),
      text("fallback")
    ],
    run: oneTurn({
      hooks: {
        Notification: [{ hookCallbackIds: ["n"] }],
        SubagentStart: [{ hookCallbackIds: ["sas"] }],
        SubagentStop: [{ hookCallbackIds: ["sast"] }],
        TaskCreated: [{ hookCallbackIds: ["tc"] }],
        TaskCompleted: [{ hookCallbackIds: ["tcomp"] }]
      }
    }, "delegate")
  },
  {
    name: "21_compact",
    script: () => [ScriptedModel.compactionSummary("SUMMARY-OF-THE-CHAT"), text("first answer")],
    run: async (cli) => {
      await cli.initialize({
        hooks: { PreCompact: [{ hookCallbackIds: ["prec"] }], PostCompact: [{ hookCallbackIds: ["postc"] }] }
      })
      cli.user("hello")
      await cli.result()
      cli.user("/compact keep the names")
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "21_api_errors",
    env: { CLAUDE_CODE_MAX_RETRIES: "1" },
    script: () => [ScriptedModel.error(500, { message: "fake 500" }), text("recovered")],
    run: oneTurn()
  },
  {
    name: "21_api_error_final",
    env: { CLAUDE_CODE_MAX_RETRIES: "0" },
    script: () => [
      ScriptedModel.rule(() => ScriptedModel.error(401, { message: "fake 401", errorType: "authentication_error" }))
    ],
    run: oneTurn()
  },
  {
    name: "21_structured_output",
    args: () => [
      ...STDIO,
      "--json-schema",
      JSON.stringify({ type: "object", properties: { n: { type: "number" } }, required: ["n"] })
    ],
    script: () => [ScriptedModel.structuredOutput({ n: 42 })],
    run: oneTurn({}, "a number")
  },
  {
    name: "22_prompt_suggestions_flag",
    args: () => [...STDIO, "--prompt-suggestions"],
    script: () => [text("answer one")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("hello")
      await cli.result()
      await cli.sleep(2000)
      await cli.close()
    }
  },
  {
    name: "22_prompt_suggestions_init",
    script: () => [text("answer one")],
    run: async (cli) => {
      await cli.initialize({ promptSuggestions: true })
      cli.user("hello")
      await cli.result()
      await cli.sleep(2000)
      await cli.close()
    }
  },
  {
    name: "23_interrupt_cancel_queued",
    script: () => [ScriptedModel.delayed(text("slow"), "5 seconds"), text("second"), text("third")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("first")
      cli.user("second")
      cli.user("third")
      await cli.waitFor((m) => m.type === "system" && m.subtype === "init")
      await cli.sleep(500)
      await cli.request("interrupt", { cancel_queued: true })
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "23_long_bash_tool_progress",
    // the CLI reports a tool running for 30 s with a tool_progress heartbeat
    script: () => [bash("node -e 'setTimeout(() => {}, 35000)'; echo finished"), text("done")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("go")
      await cli.result({ timeout: 90_000 })
      await cli.close()
    }
  },

  // 24-28: initialize fields, matchers, user message fields, end_session
  ...(
    [
      ["agents_invalid", { agents: { bad: { description: 123 } } }],
      ["agents", {
        agents: { reviewer: { description: "Reviews code", prompt: "You review code.", tools: ["Read"] } }
      }],
      ["excludeDynamicSections", { excludeDynamicSections: true }],
      ["hooks_not_object", { hooks: "nope" }],
      ["jsonSchema_invalid", { jsonSchema: { type: "not-a-type" } }],
      ["matcher_missing_ids", { hooks: { PreToolUse: [{ matcher: "Bash" }] } }],
      ["sdkMcpServers_not_array", { sdkMcpServers: "calc" }],
      ["systemPrompt_string", { systemPrompt: "STRING-NOT-ARRAY" }],
      ["title", { title: "TITLE-FROM-INIT" }],
      ["toolAliases", { toolAliases: { Shell: "Bash" } }],
      ["unknown_field", { totallyUnknownField: true }],
      ["unknown_hook_event", { hooks: { BogusEvent: [{ hookCallbackIds: ["x"] }] } }],
      ["mcpServers", { mcpServers: stdioServer() }]
    ] as ReadonlyArray<readonly [string, Json]>
  ).map(([name, fields]): Scenario => ({ name: `24_init_${name}`, run: oneTurn(fields, "x") })),
  {
    name: "25_hook_matchers",
    hooks: {
      allow_one: { hookSpecificOutput: preToolUse({ permissionDecision: "allow" }) },
      deny_one: {
        hookSpecificOutput: preToolUse({ permissionDecision: "deny", permissionDecisionReason: "DENY-FROM-SECOND" })
      }
    },
    script: () => [bash("touch m1"), text("done")],
    run: oneTurn({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hookCallbackIds: ["exact", "allow_one", "deny_one"] },
          { matcher: "Write|Edit", hookCallbackIds: ["alt_no"] },
          { matcher: "Write|Bash", hookCallbackIds: ["alt_yes"] },
          { matcher: "Ba.*", hookCallbackIds: ["regex"] },
          { matcher: "*", hookCallbackIds: ["star"] },
          { matcher: "", hookCallbackIds: ["empty"] },
          { matcher: "bash", hookCallbackIds: ["lowercase"] }
        ]
      }
    })
  },
  {
    name: "26_settings_in_init",
    script: () => [bash("touch via_init_settings"), text("done")],
    run: oneTurn({ settings: { permissions: { allow: ["Bash(touch:*)"] } }, disallowedTools: ["Write"] })
  },
  {
    name: "26_settings_in_init_await",
    args: () => [...STDIO, "--await-initialize", "--initialize-fields", "settings,disallowedTools"],
    script: () => [bash("touch via_init_settings"), text("done")],
    run: oneTurn({ settings: { permissions: { allow: ["Bash(touch:*)"] } }, disallowedTools: ["Write"] })
  },
  {
    name: "26_settings_in_init_without_await",
    args: () => [...STDIO, "--initialize-fields", "settings,disallowedTools"],
    run: async (cli) => {
      cli.send({
        type: "control_request",
        request_id: "init_1",
        request: { subtype: "initialize", settings: { permissions: { allow: ["Bash(touch:*)"] } } }
      })
      await cli.awaitExit()
    }
  },
  {
    name: "26_toolAliases",
    script: () => [ScriptedModel.toolUse("Shell", { command: "echo via-alias", description: "alias" }), text("done")],
    run: oneTurn({ toolAliases: { Shell: "Bash" } })
  },
  {
    name: "27_user_message_fields",
    script: () => [text("reply")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("context only, no query", { uuid: "dddddddd-0000-4000-8000-000000000001", shouldQuery: false })
      await cli.result()
      cli.user("real question", { uuid: "dddddddd-0000-4000-8000-000000000002" })
      await cli.result()
      await cli.close()
    }
  },
  {
    name: "28_end_session",
    script: () => [text("ok")],
    run: async (cli) => {
      await cli.initialize(hookOn("SessionEnd", {}, "se"))
      cli.user("x")
      await cli.result()
      await cli.request("end_session").catch(() => {})
      await cli.awaitExit()
    }
  },
  {
    name: "28_interrupt_kills_bash_child",
    script: () => [bash("node -e 'setTimeout(() => {}, 60000)' # MARKER_PROC_XYZ")],
    run: async (cli) => {
      await cli.initialize()
      cli.user("go")
      await cli.waitFor((m) => m.type === "assistant" && JSON.stringify(m).includes("MARKER_PROC_XYZ"))
      await cli.sleep(1000)
      await cli.request("interrupt")
      await cli.result()
      await cli.close()
    }
  }
]

const commandHooks = {
  hooks: {
    PreToolUse: [{
      matcher: "Bash",
      hooks: [{ type: "command", command: "echo hook-stdout; echo hook-stderr >&2; exit 0" }]
    }],
    UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo ups-hook" }] }]
  }
}

/**
 * The session scenarios share one HOME and working directory, so that a later CLI finds the
 * transcript an earlier one kept: each is a scenario of its own, run in order over the state the
 * first one made.
 */
function sessionScenarios(): ReadonlyArray<Scenario> {
  const session = "12345678-1234-4234-8234-123456789abc"
  const unsaved = "5c342f04-32a2-4f81-af67-842f19dcb1cf"
  const hooks = { hooks: { SessionStart: [{ hookCallbackIds: ["ss"] }], SessionEnd: [{ hookCallbackIds: ["se"] }] } }
  const step = (name: string, args: ReadonlyArray<string>, prompt: string | undefined, answer: string): Scenario => ({
    name: `15_${name}`,
    group: "sessions",
    args: () => [...STDIO, ...args],
    script: () => [text(answer)],
    run: prompt === undefined
      ? async (cli) => {
        cli.send({ type: "control_request", request_id: "init_1", request: { subtype: "initialize", ...hooks } })
        await cli.awaitExit()
      }
      : oneTurn(hooks, prompt)
  })
  return [
    step("first", ["--session-id", session], "FIRST-PROMPT", "FIRST-ANSWER"),
    step("resume", ["--resume", session], "SECOND-PROMPT", "SECOND-ANSWER"),
    step("continue", ["--continue"], "THIRD-PROMPT", "THIRD-ANSWER"),
    step("fork", ["--resume", session, "--fork-session"], "FORK-PROMPT", "FORK-ANSWER"),
    step("session_id_dup", ["--session-id", session], undefined, ""),
    step("resume_unknown", ["--resume", "00000000-0000-4000-8000-000000000000"], undefined, ""),
    step(
      "no_persistence",
      ["--no-session-persistence", "--session-id", unsaved],
      "NOPERSIST-PROMPT",
      "NOPERSIST-ANSWER"
    ),
    step("resume_nopersist", ["--resume", unsaved], undefined, "")
  ]
}

// -------------------------------------------------------------------------------------------------
// Main
// -------------------------------------------------------------------------------------------------

/** Writes the entries of one scenario, scrubbed, with initialize responses already written elsewhere folded. */
const write = (
  name: string,
  entries: ReadonlyArray<Entry>,
  scrub: (text: string) => string,
  seen: Map<string, string>
) => {
  const lines = entries.map((entry, index) => {
    let msg = entry.msg as Json | undefined
    // the CLI's pid: machine-specific, and the only difference between two runs' initialize responses
    if (entry.dir === "cli->sdk" && msg?.type === "control_response" && msg.response?.request_id === "init_1") {
      const body = msg.response.response
      if (body !== undefined && typeof body.pid === "number") {
        msg = { ...msg, response: { ...msg.response, response: { ...body, pid: 0 } } }
      }
      const text = scrub(JSON.stringify(msg))
      const earlier = seen.get(text)
      if (earlier !== undefined) return JSON.stringify({ t: entry.t, dir: entry.dir, same_as: earlier })
      seen.set(text, `${name}.jsonl:${index + 1}`)
    }
    return scrub(JSON.stringify(msg === undefined ? entry : { ...entry, msg }))
  })
  Fs.writeFileSync(Path.join(outDir, `${name}.jsonl`), lines.join("\n") + "\n")
}

const main = Effect.gen(function*() {
  const executable = yield* CliLocator.locate().pipe(Effect.provide(NodeServices.layer))
  Fs.mkdirSync(outDir, { recursive: true })
  const selected = scenarios.filter((s) => only.length === 0 || only.some((prefix) => s.name.startsWith(prefix)))
  if (only.length === 0) {
    for (const file of Fs.readdirSync(outDir)) if (file.endsWith(".jsonl")) Fs.rmSync(Path.join(outDir, file))
  }
  // initialize responses already on disk count as written, so that a partial capture folds into them
  const seen = new Map<string, string>()
  for (const file of Fs.readdirSync(outDir).filter((f) => f.endsWith(".jsonl")).sort()) {
    if (selected.some((s) => `${s.name}.jsonl` === file)) continue
    Fs.readFileSync(Path.join(outDir, file), "utf8").split("\n").forEach((line, index) => {
      if (line.includes("\"request_id\":\"init_1\"") && line.includes("\"cli->sdk\"") && !line.includes("same_as")) {
        const entry = JSON.parse(line)
        seen.set(JSON.stringify(entry.msg), `${file}:${index + 1}`)
      }
    })
  }
  const groups = new Map<string, Directories>()
  yield* Effect.addFinalizer(() => Effect.sync(() => groups.forEach(removeDirectories)))
  for (const scenario of selected) {
    const started = Date.now()
    process.stdout.write(`${scenario.name} ...`)
    let shared: Directories | undefined
    if (scenario.group !== undefined) {
      shared = groups.get(scenario.group) ?? makeDirectories()
      groups.set(scenario.group, shared)
    }
    const { entries, scrub } = yield* capture(scenario, executable, shared)
    write(scenario.name, entries, scrub, seen)
    process.stdout.write(` ${entries.length} lines, ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
  }
}).pipe(Effect.scoped)

Effect.runPromise(main).catch((error) => {
  process.stderr.write(`${error}\n`)
  process.exitCode = 1
})
