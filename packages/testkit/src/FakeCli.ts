/**
 * A scripted fake of the `claude` process: a `CliProcess` that lives in
 * memory. Provided to a session in place of the real CLI, it answers the
 * SDK's `initialize`, plays one scripted turn per user message (lines taken
 * from recordings of CLI 2.1.328), sends the SDK control requests
 * (`hook_callback`, `can_use_tool`, `mcp_message`, cancels) and hands back
 * the SDK's answers, exits with any code or signal at any point, and records
 * every line the SDK wrote, decoded with the SDK's own stdin Schema.
 *
 * No process, no model, no time: a session over it runs under the
 * `TestClock` (`it.effect`), so hooks, permission gates and session logic are
 * tested in milliseconds. What it does not do is decide like the CLI: it
 * plays what the script says, whatever the SDK answered. Test what the CLI
 * makes of an answer with `ScriptedModel` and the real CLI.
 *
 * ```ts
 * it.effect("the gate denies rm", () =>
 *   Effect.gen(function*() {
 *     const cli = yield* FakeCli.FakeCli
 *     const session = yield* ClaudeCode.session()
 *     yield* session.send("clean up")
 *     const answer = yield* cli.canUseTool("Bash", { command: "rm -rf /" })
 *     assert.deepStrictEqual(FakeCli.responseOf(answer)?.behavior, "deny")
 *   }).pipe(
 *     Effect.scoped,
 *     Effect.provide(FakeCli.layer()), // one fake per session
 *     Effect.provide(gate),
 *     Effect.provide(ClaudeCode.layer()),
 *     Effect.provide(NodeServices.layer)
 *   ))
 * ```
 *
 * A session takes a `CliProcess` found in its calling context instead of
 * spawning one, so providing {@link layer} (or {@link make}'s `process`) is all
 * it takes. Use one fake per session: a fake is one process.
 *
 * @since 0.1.0
 */
import type { Protocol as ProtocolTypes } from "@claude-effect/sdk"
import { CliExitError, type ProtocolError } from "@claude-effect/sdk/ClaudeError"
import * as CliProcess from "@claude-effect/sdk/CliProcess"
import * as HookRegistry from "@claude-effect/sdk/HookRegistry"
import * as Protocol from "@claude-effect/sdk/Protocol"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"

// -----------------------------------------------------------------------------
// Models
// -----------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category Tags
 */
export class FakeCli extends Context.Service<FakeCli, FakeCli.Service>()("@claude-effect/testkit/FakeCli") {}

/**
 * @since 0.1.0
 */
export declare namespace FakeCli {
  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Service {
    /** The fake process: provide it as the session's `CliProcess`. */
    readonly process: CliProcess.CliProcess.Service
    /** Writes lines to stdout, all in one chunk (as one pipe read): objects as JSON, strings as they are. */
    readonly emit: (...lines: ReadonlyArray<Line>) => Effect.Effect<void>
    /**
     * Sends an inbound control request and waits for the SDK's answer (the
     * `response` of its `control_response`). Interrupted if the fake exits first.
     */
    readonly request: (
      request: { readonly subtype: string; readonly [key: string]: unknown },
      options?: { readonly requestId?: string | undefined }
    ) => Effect.Effect<Answer>
    /** Waits for the SDK's answer to the inbound request `requestId` (sent by {@link Service.request}). */
    readonly answer: (requestId: string) => Effect.Effect<Answer>
    /** Whether the SDK has answered the inbound request `requestId`, and how. */
    readonly answered: (requestId: string) => Effect.Effect<Option.Option<Answer>>
    /** Sends `control_cancel_request` for an inbound request the fake sent. */
    readonly cancel: (requestId: string) => Effect.Effect<void>
    /**
     * Calls the SDK's hooks for `input` as the CLI does: one `hook_callback`
     * per callback the SDK registered for the event whose matcher selects the
     * input (the CLI's matcher rules), all at once. Returns every answer, in
     * registration order. The fields the CLI always sends (`session_id`,
     * `transcript_path`, `cwd`, `permission_mode`, and `tool_use_id` on tool
     * events) are filled in unless given.
     */
    readonly hook: (
      input: { readonly hook_event_name: string; readonly [key: string]: unknown },
      options?: { readonly toolUseId?: string | undefined }
    ) => Effect.Effect<ReadonlyArray<Answer>>
    /** Asks the SDK's permission gate (`can_use_tool`) and returns its answer. */
    readonly canUseTool: (
      toolName: string,
      input: Record<string, unknown>,
      options?: { readonly toolUseId?: string | undefined; readonly requestId?: string | undefined }
    ) => Effect.Effect<Answer>
    /** Ends the process now: stdout ends, writes fail, and `awaitExit` returns this status. */
    readonly exit: (status: { readonly code?: number | null; readonly signal?: string | null }) => Effect.Effect<void>
    /** Appends to stderr (the tail a `CliExitError` reports). */
    readonly stderr: (text: string) => Effect.Effect<void>
    /** Every line the SDK wrote to stdin, in order, as decoded by `Protocol.decodeStdinLine`. */
    readonly written: Effect.Effect<ReadonlyArray<Written>>
    /** The SDK's `initialize` request, once written. */
    readonly initializeRequest: Effect.Effect<Protocol.StdinMessage>
    /** Waits for a line the SDK wrote (or has written) that satisfies `predicate`. */
    readonly awaitWritten: (predicate: (message: Protocol.StdinMessage) => boolean) => Effect.Effect<
      Protocol.StdinMessage
    >
  }

  /**
   * @since 0.1.0
   * @category Models
   */
  export type Line = string | { readonly [key: string]: unknown }

  /**
   * One line the SDK wrote: the decoded message, or why it did not decode
   * (the real CLI exits on some such lines).
   *
   * @since 0.1.0
   * @category Models
   */
  export interface Written {
    readonly line: string
    readonly message: Result.Result<Protocol.StdinMessage, ProtocolError>
  }

  /**
   * The SDK's answer to an inbound control request: the `response` of its
   * `control_response` (`subtype` `"success"` with `response`, or `"error"`
   * with `error`).
   *
   * @since 0.1.0
   * @category Models
   */
  export type Answer =
    | { readonly subtype: "success"; readonly request_id: string; readonly response?: unknown }
    | { readonly subtype: "error"; readonly request_id: string; readonly error: string }

  /**
   * One turn: the lines to write once the user message arrives, or an
   * effect that plays it (emitting lines, sending control requests, exiting).
   *
   * @since 0.1.0
   * @category Models
   */
  export type Turn =
    | ReadonlyArray<Line>
    | ((cli: Service, message: Protocol.StdinMessage) => Effect.Effect<void>)

  /**
   * The answer to one of the SDK's control requests: succeed with the
   * response body (`undefined` for none), fail with the text of an error
   * reply, or never end to leave it unanswered.
   *
   * @since 0.1.0
   * @category Models
   */
  export type ControlHandler = (
    request: { readonly subtype: string; readonly [key: string]: unknown }
  ) => Effect.Effect<
    unknown,
    string
  >

  /**
   * @since 0.1.0
   * @category Models
   */
  export interface Script {
    /**
     * The answer to `initialize` (default {@link initializeResponse}, recorded
     * from CLI 2.1.328).
     */
    readonly initialize?: ControlHandler | undefined
    /**
     * One turn per user message, in order. Once they run out, each user
     * message gets a turn whose text starts with `[fake-cli] script exhausted`.
     */
    readonly turns?: ReadonlyArray<Turn> | undefined
    /**
     * Answers to the SDK's other control requests, by subtype. Those not
     * given get the answer CLI 2.1.328 gave (`interrupt`, `mcp_status`,
     * `set_model`, ... see {@link controlResponses}), else a success without body.
     */
    readonly control?: { readonly [subtype: string]: ControlHandler } | undefined
    /** What ending stdin does: exit with code 0 at once (default), or nothing. */
    readonly onEndInput?: "exit" | "ignore" | undefined
    /** The pid the fake reports (default 2147483646). */
    readonly pid?: number | undefined
  }
}

// -----------------------------------------------------------------------------
// Recorded lines (CLI 2.1.328, trimmed of fields no SDK reads)
// -----------------------------------------------------------------------------

/**
 * The session id of the recorded lines.
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const sessionId = "34db5cd1-2372-4cfc-9561-0ed42acb3414"

let uuidCounter = 0
const uuid = () => `00000000-fa6e-4c11-8000-${(++uuidCounter).toString(16).padStart(12, "0")}`

/**
 * The response body of the CLI's answer to `initialize`.
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const initializeResponse: { readonly [key: string]: unknown } = {
  commands: [{ name: "simplify", description: "Review changed code and simplify it", argumentHint: "", builtin: true }],
  agents: [{ name: "Explore", description: "Fast read-only search agent for locating code." }],
  output_style: "default",
  available_output_styles: ["default", "Proactive", "Concise", "Explanatory", "Learning"],
  models: [{
    value: "default",
    resolvedModel: "claude-opus-5-5",
    displayName: "Default (recommended)",
    description: "Use the default model (currently Opus 5.5) · $4/$20 per Mtok",
    supportsEffort: true,
    supportedEffortLevels: ["low", "medium", "high", "xhigh", "max"],
    supportsAdaptiveThinking: true
  }],
  account: { tokenSource: "none", apiKeySource: "ANTHROPIC_API_KEY", apiProvider: "firstParty" },
  pid: 2147483646,
  claude_code_version: "2.1.328",
  current_permission_mode: "default",
  hooks_applied: true,
  hook_on_failure_supported: true,
  session_state: "idle",
  capabilities: ["ui_surface_v1", "mcp_call_result_not_for_model_v1"]
}

/**
 * The response bodies CLI 2.1.328 gave to the SDK's control requests, by
 * subtype (a subtype not here is answered with a success without body).
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const controlResponses: {
  readonly [subtype: string]: (request: { readonly [key: string]: unknown }) => unknown
} = {
  interrupt: () => ({ still_queued: [] }),
  mcp_status: () => ({ mcpServers: [] }),
  set_model: (request) => ({ model: request.model ?? "claude-opus-5-5" }),
  set_permission_mode: (request) => ({ mode: request.mode }),
  get_context_usage: () => ({
    categories: [{ id: "system_prompt", name: "System prompt", tokens: 2340, color: "promptBorder", kind: "used" }],
    totalTokens: 2340,
    maxTokens: 1000000,
    rawMaxTokens: 1000000,
    percentage: 0,
    model: "claude-opus-5-5"
  }),
  stop_task: () => ({}),
  rewind_files: () => ({ canRewind: true, filesChanged: [], insertions: 0, deletions: 0 })
}

/**
 * `system/init`, written at the start of every turn.
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const init = (options?: { readonly sessionId?: string | undefined }): { readonly [key: string]: unknown } => ({
  type: "system",
  subtype: "init",
  cwd: "/sandbox/cwd-7lPtV2",
  session_id: options?.sessionId ?? sessionId,
  tools: ["Task", "AskUserQuestion", "Bash", "Edit", "Read", "Write"],
  mcp_servers: [],
  model: "claude-opus-5-5",
  permissionMode: "default",
  slash_commands: ["simplify", "compact", "context"],
  apiKeySource: "ANTHROPIC_API_KEY",
  claude_code_version: "2.1.328",
  output_style: "default",
  agents: ["claude", "Explore", "general-purpose", "Plan"],
  skills: [],
  plugins: [],
  uuid: uuid(),
  fast_mode_state: "off"
})

const assistant = (content: unknown, extra?: { readonly [key: string]: unknown }) => ({
  type: "assistant",
  message: {
    id: `msg_${uuid().slice(-12)}`,
    type: "message",
    role: "assistant",
    model: "claude-opus-5-5",
    content: [content],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    context_management: null
  },
  parent_tool_use_id: null,
  session_id: sessionId,
  uuid: uuid(),
  ...extra
})

/**
 * An `assistant` message with one text block.
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const assistantText = (text: string): { readonly [key: string]: unknown } => assistant({ type: "text", text })

/**
 * An `assistant` message with one `tool_use` block.
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const toolUse = (
  name: string,
  input: Record<string, unknown>,
  id = "toolu_mwr25czf0"
): { readonly [key: string]: unknown } => assistant({ type: "tool_use", id, name, input })

/**
 * The `user` echo of a tool's result. A denied tool's result is an error
 * whose content is the reason (`"PreToolUse:Bash hook error: <reason>"` for a
 * hook's deny, the gate's message for the gate's).
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const toolResult = (
  content: string,
  options?: { readonly isError?: boolean | undefined; readonly toolUseId?: string | undefined }
): { readonly [key: string]: unknown } => ({
  type: "user",
  message: {
    role: "user",
    content: [{
      type: "tool_result",
      content,
      is_error: options?.isError ?? false,
      tool_use_id: options?.toolUseId ?? "toolu_mwr25czf0"
    }]
  },
  parent_tool_use_id: null,
  session_id: sessionId,
  uuid: uuid(),
  timestamp: "2026-11-21T23:47:21.099Z",
  tool_use_result: options?.isError === true ? `Error: ${content}` : { stdout: content, stderr: "", interrupted: false }
})

/**
 * The synthetic `assistant` message of an API failure (`error`:
 * `authentication_failed`, `server_error`, `rate_limit`, ...).
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const apiError = (error: string, text: string): { readonly [key: string]: unknown } => ({
  ...assistant({ type: "text", text }, { error, is_api_error_message: true }),
  message: {
    ...assistant({ type: "text", text }).message,
    model: "<synthetic>",
    stop_reason: "stop_sequence",
    stop_sequence: ""
  }
})

/**
 * The `result` that ends a turn. An API failure is `subtype: "success"` with
 * `is_error: true`, as the CLI reports it.
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const result = (options?: {
  readonly result?: string | undefined
  readonly isError?: boolean | undefined
  readonly subtype?: string | undefined
  readonly sessionId?: string | undefined
}): { readonly [key: string]: unknown } => ({
  type: "result",
  subtype: options?.subtype ?? "success",
  is_error: options?.isError ?? false,
  duration_ms: 358,
  duration_api_ms: 68,
  num_turns: 1,
  result: options?.result ?? "All done.",
  stop_reason: "end_turn",
  session_id: options?.sessionId ?? sessionId,
  total_cost_usd: 0.00028,
  usage: { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 10 },
  modelUsage: {},
  permission_denials: [],
  terminal_reason: options?.isError === true ? "api_error" : "completed",
  uuid: uuid()
})

/**
 * `system/session_state_changed`: the CLI says it is `running`, `idle` or
 * `requires_action`.
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const state = (value: "running" | "idle" | "requires_action"): { readonly [key: string]: unknown } => ({
  type: "system",
  subtype: "session_state_changed",
  state: value,
  sdk_host_only: true,
  uuid: uuid(),
  session_id: sessionId
})

/**
 * A whole turn that answers with text: running, `system/init`, the
 * assistant's text, the `result`, idle.
 *
 * @since 0.1.0
 * @category Recorded lines
 */
export const textTurn = (text: string): ReadonlyArray<FakeCli.Line> => [
  state("running"),
  init(),
  assistantText(text),
  result({ result: text }),
  state("idle")
]

/**
 * The body of a `success` answer, or `undefined` for an error reply.
 *
 * @since 0.1.0
 * @category Answers
 */
export const responseOf = (answer: FakeCli.Answer): any => answer.subtype === "success" ? answer.response : undefined

// -----------------------------------------------------------------------------
// Constructors
// -----------------------------------------------------------------------------

const DEFAULT_PID = 2147483646

const isControlRequest = (message: Protocol.StdinMessage, subtype?: string): boolean =>
  message.type === "control_request" &&
  (subtype === undefined ||
    (message as { readonly request?: { readonly subtype?: unknown } }).request?.subtype === subtype)

/**
 * A fake CLI process for the current scope.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (script?: FakeCli.Script) => Effect.Effect<FakeCli.Service, never, Scope.Scope> = Effect
  .fnUntraced(function*(script: FakeCli.Script = {}) {
    // Stdout's lines end as the real process's do: when it exits (`Cause.Done` ends the stream).
    const stdout = yield* Queue.unbounded<string, Cause.Done>()
    const exited = yield* Deferred.make<CliProcess.ExitStatus>()
    let exitStatus: CliProcess.ExitStatus | undefined
    let stderrText = ""
    const written: Array<FakeCli.Written> = []
    const waiters = new Set<{
      readonly predicate: (message: Protocol.StdinMessage) => boolean
      readonly deferred: Deferred.Deferred<Protocol.StdinMessage>
    }>()
    // The SDK's answers to the fake's requests, by request id; a wait for one ends when the fake exits.
    const answers = new Map<string, FakeCli.Answer>()
    const awaiting = new Map<string, Deferred.Deferred<FakeCli.Answer>>()
    const answerFor = (requestId: string) => {
      let deferred = awaiting.get(requestId)
      if (deferred === undefined) {
        deferred = Deferred.makeUnsafe<FakeCli.Answer>()
        awaiting.set(requestId, deferred)
        const answer = answers.get(requestId)
        if (answer !== undefined) Deferred.doneUnsafe(deferred, Effect.succeed(answer))
        else if (exitStatus !== undefined) Deferred.doneUnsafe(deferred, Effect.interrupt)
      }
      return deferred
    }
    let requestCounter = 0

    // The fake's own fibers (turns, control answers) run in its scope; a wait on the SDK ends when it exits.
    const scope = yield* Effect.scope
    const users = yield* Queue.unbounded<Protocol.StdinMessage>()
    const turns = [...(script.turns ?? [])]

    const emit = (...lines: ReadonlyArray<FakeCli.Line>): Effect.Effect<void> =>
      Effect.sync(() => {
        if (exitStatus !== undefined) return
        Queue.offerAllUnsafe(stdout, lines.map((line) => typeof line === "string" ? line : JSON.stringify(line)))
      })

    const exitError = (status: CliProcess.ExitStatus, options?: { readonly duringTurn?: boolean | undefined }) =>
      Effect.sync(() =>
        new CliExitError({
          reason: status.signal !== null ? "Signaled" : "Exited",
          exitCode: status.code,
          signal: status.signal,
          stderrTail: stderrText,
          ...(options?.duringTurn === true ? { duringTurn: true } : {})
        })
      )

    const exit = (status: { readonly code?: number | null; readonly signal?: string | null }) =>
      Effect.suspend(() => {
        if (exitStatus !== undefined) return Effect.void
        exitStatus = { code: status.code ?? null, signal: status.signal ?? null }
        const interruptAnswers = Effect.forEach(awaiting.values(), Deferred.interrupt, { discard: true })
        return Deferred.succeed(exited, exitStatus).pipe(
          Effect.andThen(Queue.end(stdout)),
          Effect.andThen(interruptAnswers),
          Effect.andThen(Queue.shutdown(users)),
          Effect.asVoid
        )
      })

    // A defect in a script ends the process like a crash, with the defect in stderr: the test sees it.
    const guarded = (effect: Effect.Effect<void, unknown>): Effect.Effect<void> =>
      Effect.catchCause(effect, (cause) =>
        Cause.hasInterruptsOnly(cause) ? Effect.void : Effect.andThen(
          Effect.sync(() => {
            stderrText += `[fake-cli] the script failed: ${Cause.pretty(cause)}\n`
          }),
          exit({ code: 70 })
        ))

    // Forked from the writer's step, outside its fiber: interrupting the writer does not cut the answer.
    const context = yield* Effect.context<never>()
    const fork = (effect: Effect.Effect<void, unknown>) =>
      Effect.runForkWith(context)(Effect.forkIn(guarded(effect), scope))

    const answerControl = (message: Protocol.StdinMessage) => {
      const { request, request_id } = message as unknown as {
        readonly request_id: string
        readonly request: { readonly subtype: string; readonly [key: string]: unknown }
      }
      const subtype = request.subtype
      const recorded = controlResponses[subtype]
      const handler: FakeCli.ControlHandler = subtype === "initialize"
        ? (script.initialize ?? (() => Effect.succeed({ ...initializeResponse, pid: script.pid ?? DEFAULT_PID })))
        : script.control?.[subtype] ?? ((r) => Effect.succeed(recorded === undefined ? undefined : recorded(r)))
      return handler(request).pipe(
        Effect.matchEffect({
          onFailure: (error) => emit({ type: "control_response", response: { subtype: "error", request_id, error } }),
          onSuccess: (response) =>
            emit({
              type: "control_response",
              response: response === undefined
                ? { subtype: "success", request_id }
                : { subtype: "success", request_id, response }
            })
        })
      )
    }

    // Everything the SDK writes is handled as it is written, in the writer's step.
    const handleLine = (decoded: Protocol.StdinMessage) => {
      switch (decoded.type) {
        case "control_request": {
          // The handler is called as the request is written, in the order written; a handler that throws
          // crashes the fake.
          let answering: Effect.Effect<void, unknown>
          try {
            answering = answerControl(decoded)
          } catch (defect) {
            answering = Effect.die(defect)
          }
          fork(answering)
          return
        }
        case "control_response": {
          const response = (decoded as unknown as { readonly response: FakeCli.Answer }).response
          if (!answers.has(response.request_id)) answers.set(response.request_id, response)
          Deferred.doneUnsafe(answerFor(response.request_id), Effect.succeed(response))
          return
        }
        case "user":
          Queue.offerUnsafe(users, decoded)
          return
      }
    }
    const onLine = (line: string) => {
      const message = Protocol.decodeStdinLine(line)
      written.push({ line, message })
      if (Result.isFailure(message)) return
      const decoded = message.success
      handleLine(decoded)
      // Waiters last: effect 4 may resume a waiting fiber at once, inside this step, and it may write again.
      for (const waiter of waiters) {
        if (waiter.predicate(decoded)) {
          waiters.delete(waiter)
          Deferred.doneUnsafe(waiter.deferred, Effect.succeed(decoded))
        }
      }
    }

    const endInput = Effect.suspend(() => script.onEndInput === "ignore" ? Effect.void : exit({ code: 0 }))

    const fakeProcess = CliProcess.CliProcess.of({
      pid: script.pid ?? DEFAULT_PID,
      lines: Stream.fromQueue(stdout),
      writeLine: (line) =>
        Effect.suspend(() => {
          if (exitStatus !== undefined) return Effect.flip(exitError(exitStatus))
          onLine(line)
          return Effect.void
        }),
      endInput,
      awaitExit: Deferred.await(exited),
      exitStatus: Effect.sync(() => Option.fromNullishOr(exitStatus)),
      stderrTail: Effect.sync(() => stderrText),
      // No process to signal: what ending stdin does not end, a SIGTERM does, at once.
      shutdown: () =>
        endInput.pipe(Effect.andThen(exit({ signal: "SIGTERM" })), Effect.andThen(Deferred.await(exited))),
      exitError
    })

    const request: FakeCli.Service["request"] = (payload, options) =>
      Effect.suspend(() => {
        const requestId = options?.requestId ?? `fake-${++requestCounter}-${uuid()}`
        const deferred = answerFor(requestId)
        return Effect.andThen(
          emit({ type: "control_request", request_id: requestId, request: payload }),
          Deferred.await(deferred)
        )
      })

    const awaitWritten = (predicate: (message: Protocol.StdinMessage) => boolean) =>
      Effect.suspend(() => {
        for (const entry of written) {
          if (Result.isSuccess(entry.message) && predicate(entry.message.success)) {
            return Effect.succeed(entry.message.success)
          }
        }
        const deferred = Deferred.makeUnsafe<Protocol.StdinMessage>()
        waiters.add({ predicate, deferred })
        return Deferred.await(deferred)
      })

    const initializeRequest = Effect.suspend(() => awaitWritten((message) => isControlRequest(message, "initialize")))

    const hook: FakeCli.Service["hook"] = (input, options) =>
      Effect.flatMap(initializeRequest, (message) => {
        const event = input.hook_event_name
        const matchers: ReadonlyArray<{ readonly matcher?: string; readonly hookCallbackIds?: ReadonlyArray<string> }> =
          (message as any).request?.hooks?.[event] ?? []
        const value = HookRegistry.matchValue(input as unknown as ProtocolTypes.HookInput)
        const ids = matchers.flatMap((m) =>
          HookRegistry.matches(m.matcher, value, event) ? m.hookCallbackIds ?? [] : []
        )
        const toolUseId = options?.toolUseId ?? (input.tool_use_id as string | undefined) ?? "toolu_mwr25czf0"
        // The fields the CLI sends with every hook input (and, on tool events, the tool use's id).
        const full = {
          session_id: sessionId,
          transcript_path: `/sandbox/home/.claude/projects/-sandbox-cwd/${sessionId}.jsonl`,
          cwd: "/sandbox/cwd-7lPtV2",
          permission_mode: "default",
          ...("tool_name" in input ? { tool_use_id: toolUseId } : {}),
          ...input
        }
        return Effect.forEach(
          ids,
          (callbackId) =>
            request({ subtype: "hook_callback", callback_id: callbackId, input: full, tool_use_id: toolUseId }),
          { concurrency: "unbounded" }
        )
      })

    const service: FakeCli.Service = {
      process: fakeProcess,
      emit,
      request,
      answer: (requestId) => Effect.suspend(() => Deferred.await(answerFor(requestId))),
      answered: (requestId) => Effect.sync(() => Option.fromNullishOr(answers.get(requestId))),
      cancel: (requestId) => emit({ type: "control_cancel_request", request_id: requestId }),
      hook,
      canUseTool: (toolName, input, options) =>
        request({
          subtype: "can_use_tool",
          tool_name: toolName,
          display_name: toolName,
          input,
          permission_suggestions: [],
          tool_use_id: options?.toolUseId ?? "toolu_mwr25czf0"
        }, { requestId: options?.requestId }),
      exit,
      stderr: (text) =>
        Effect.sync(() => {
          stderrText += text
        }),
      written: Effect.sync(() => written.slice()),
      initializeRequest,
      awaitWritten
    }
    // One turn at a time, in the order the user messages came.
    yield* Effect.forkIn(
      Effect.forever(Effect.flatMap(Queue.take(users), (message) => {
        const turn = turns.shift() ?? textTurn("[fake-cli] script exhausted: no turn left for this message")
        return typeof turn === "function" ? guarded(turn(service, message)) : emit(...turn)
      })),
      scope
    )
    return service
  })

/**
 * A fresh fake CLI, as both the `FakeCli` to drive it and the `CliProcess` a
 * session uses. One fake is one process: give each session its own.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = (script?: FakeCli.Script): Layer.Layer<FakeCli | CliProcess.CliProcess> =>
  Layer.effectContext(
    Effect.map(make(script), (cli) => Context.make(FakeCli, cli).pipe(Context.add(CliProcess.CliProcess, cli.process)))
  )
