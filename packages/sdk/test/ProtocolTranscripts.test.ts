/**
 * Every line of the captured transcripts of the real CLI (2.1.328) through the
 * codec: stdout lines decode to the member their type / subtype names and
 * round-trip unchanged; stdin lines likewise, except the ones written on
 * purpose to see how the CLI copes with bad input.
 *
 * The transcripts are the repository's own (packages/sdk/test/fixtures/transcripts/
 * until the flip), captured from the pinned CLI against the testkit's
 * ScriptedModel by packages/sdk/test/scripts/capture-transcripts.ts (`pnpm
 * capture-transcripts`). Without them the suite fails: it never skips.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Protocol from "../src/Protocol.js"

const transcriptsDir = Path.join(import.meta.dirname, "fixtures", "transcripts")

interface Entry {
  readonly file: string
  readonly index: number
  readonly dir: string
  readonly msg?: unknown
  readonly raw?: string
  /** A line written once in the file named (`file:line`) and the same here: the initialize response. */
  readonly same_as?: string
}

const transcriptFiles = (): ReadonlyArray<string> => {
  if (!Fs.existsSync(transcriptsDir)) {
    throw new Error(
      `no transcripts at ${transcriptsDir}: capture them with \`pnpm capture-transcripts\` (packages/sdk)`
    )
  }
  const files = Fs.readdirSync(transcriptsDir).filter((name) => name.endsWith(".jsonl")).sort()
  if (files.length === 0) {
    throw new Error(`${transcriptsDir} has no .jsonl transcript: capture them with \`pnpm capture-transcripts\``)
  }
  return files
}

/** Every line of every transcript; a `same_as` line gets the message of the line it names. */
const loadEntries = (): ReadonlyArray<Entry> => {
  const byPlace = new Map<string, Entry>()
  const entries = transcriptFiles().flatMap((file) =>
    Fs.readFileSync(Path.join(transcriptsDir, file), "utf8").split("\n").flatMap((text, index) => {
      if (text.length === 0) return []
      const entry = { file, index, ...JSON.parse(text) } as Entry
      byPlace.set(`${file}:${index + 1}`, entry)
      return [entry]
    })
  )
  return entries.map((entry) => {
    if (entry.same_as === undefined) return entry
    const original = byPlace.get(entry.same_as)
    if (original?.msg === undefined) {
      throw new Error(`${entry.file}:${entry.index + 1}: same_as ${entry.same_as} names no message`)
    }
    return { ...entry, msg: original.msg }
  })
}

type AnySchema = Schema.Top

// The member each stdout type (and subtype) must decode to: a kind seen on the
// wire that is missing here fails the test, so nothing lands in a fallback.
const stdoutMembers: Readonly<Record<string, AnySchema>> = {
  assistant: Protocol.AssistantMessage,
  user: Protocol.UserMessage,
  stream_event: Protocol.StreamEvent,
  tool_progress: Protocol.ToolProgressMessage,
  command_lifecycle: Protocol.CommandLifecycleMessage,
  keep_alive: Protocol.KeepAlive,
  control_request: Protocol.ControlRequest,
  control_response: Protocol.ControlResponse,
  control_cancel_request: Protocol.ControlCancelRequest
}

const systemMembers: Readonly<Record<string, AnySchema>> = {
  init: Protocol.SystemInit,
  status: Protocol.SystemStatus,
  compact_boundary: Protocol.SystemCompactBoundary,
  api_retry: Protocol.SystemApiRetry,
  informational: Protocol.SystemInformational,
  notification: Protocol.SystemNotification,
  permission_denied: Protocol.SystemPermissionDenied,
  hook_started: Protocol.SystemHookStarted,
  hook_response: Protocol.SystemHookResponse,
  task_started: Protocol.SystemTaskStarted,
  task_progress: Protocol.SystemTaskProgress,
  task_updated: Protocol.SystemTaskUpdated,
  task_notification: Protocol.SystemTaskNotification,
  background_tasks_changed: Protocol.SystemBackgroundTasksChanged,
  session_state_changed: Protocol.SystemSessionStateChanged,
  session_title_changed: Protocol.SystemSessionTitleChanged,
  thinking_tokens: Protocol.SystemThinkingTokens
}

const resultMembers: Readonly<Record<string, AnySchema>> = {
  success: Protocol.ResultSuccess,
  error_during_execution: Protocol.ResultErrorMessage,
  error_max_turns: Protocol.ResultErrorMessage,
  error_max_budget_usd: Protocol.ResultErrorMessage,
  error_max_structured_output_retries: Protocol.ResultErrorMessage
}

const inboundRequestMembers: Readonly<Record<string, AnySchema>> = {
  hook_callback: Protocol.HookCallbackRequest,
  can_use_tool: Protocol.CanUseToolRequest,
  mcp_message: Protocol.McpMessageRequest,
  elicitation: Protocol.ElicitationRequest
}

type Json = { readonly [key: string]: any }

const expectedStdoutMember = (message: Json): readonly [string, AnySchema | undefined] => {
  switch (message.type) {
    case "system":
      return [`system/${message.subtype}`, systemMembers[message.subtype]]
    case "result":
      return [`result/${message.subtype}`, resultMembers[message.subtype]]
    default:
      return [message.type, stdoutMembers[message.type]]
  }
}

// sdk->cli lines that were sent on purpose to see the CLI's error reply: the
// stdin schema refuses them, so the SDK can never send them.
const invalidOnPurpose: Readonly<Record<string, ReadonlyArray<string>>> = {
  "03_control_sweep.jsonl": ["req_14"], // set_permission_mode "bogus"
  "24_init_agents_invalid.jsonl": ["init_1"], // an agent whose description is a number
  "24_init_hooks_not_object.jsonl": ["init_1"], // hooks: "nope"
  "24_init_matcher_missing_ids.jsonl": ["init_1"], // a matcher without hookCallbackIds
  "24_init_sdkMcpServers_not_array.jsonl": ["init_1"] // sdkMcpServers: "calc"
}

const isInvalidOnPurpose = (entry: Entry): boolean =>
  invalidOnPurpose[entry.file]?.includes((entry.msg as Json).request_id) ?? false

// The raw (not JSON-encoded) stdin lines of the 12b_* captures, and whether the
// SDK may write them: only the ones the CLI accepts and that make sense.
const rawStdinAccepted: ReadonlyArray<string> = [
  "{\"type\":\"keep_alive\"}",
  "{\"type\":\"update_environment_variables\",\"variables\":{\"FOO\":\"bar\"}}",
  "{\"type\":\"control_cancel_request\",\"request_id\":\"nope\"}",
  "{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"no-such-request\",\"response\":{}}}"
]

describe("Protocol against the transcripts of the real CLI", () => {
  const entries = loadEntries()
  const stdout = entries.filter((entry) => entry.dir === "cli->sdk" && "msg" in entry)
  const stdin = entries.filter((entry) => entry.dir === "sdk->cli" && "msg" in entry)
  const where = (entry: Entry) => `${entry.file}:${entry.index + 1}`

  it("has lines to check", () => {
    assert.isAbove(transcriptFiles().length, 150)
    assert.isAbove(stdout.length, 1_000)
    assert.isAbove(stdin.length, 300)
  })

  it("covers every kind of line the survey of the CLI saw, and more", () => {
    const seen = (lines: ReadonlyArray<Entry>, kind: (message: Json) => string | undefined) =>
      new Set(lines.flatMap((entry) => kind(entry.msg as Json) ?? []))
    const requestOf = (message: Json) => message.type === "control_request" ? message.request : undefined
    assert.includeMembers([...seen(stdout, (m) => m.type)], [
      "assistant",
      "user",
      "result",
      "system",
      "stream_event",
      "tool_progress",
      "command_lifecycle",
      "control_request",
      "control_response",
      "control_cancel_request"
    ])
    assert.includeMembers([...seen(stdout, (m) => m.type === "system" ? m.subtype : undefined)], [
      "init",
      "status",
      "api_retry",
      "compact_boundary",
      "informational",
      "notification",
      "permission_denied",
      "hook_started",
      "hook_response",
      "task_started",
      "task_updated",
      "task_notification",
      "background_tasks_changed",
      "session_state_changed",
      "session_title_changed",
      "thinking_tokens"
    ])
    assert.includeMembers([...seen(stdout, (m) => m.type === "result" ? m.subtype : undefined)], [
      "success",
      "error_during_execution",
      "error_max_turns",
      "error_max_budget_usd"
    ])
    assert.includeMembers([...seen(stdout, (m) => requestOf(m)?.input?.hook_event_name)], [
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
      "PostToolBatch",
      "PermissionRequest",
      "UserPromptSubmit",
      "Stop",
      "SubagentStart",
      "SubagentStop",
      "PreCompact",
      "PostCompact",
      "InstructionsLoaded",
      "SessionEnd"
    ])
    // every control request the SDK sends, and some the CLI does not know
    assert.isAtLeast(seen(stdin, (m) => requestOf(m)?.subtype).size, 40)
  })

  it("decodes every stdout line to the member its type names, and back to the same JSON", () => {
    const decodeWithSchema = Schema.decodeUnknownResult(Protocol.StdoutMessage)
    for (const entry of stdout) {
      const message = entry.msg as Json
      const text = JSON.stringify(message)
      const decoded = Protocol.decodeStdoutLine(text)
      if (Result.isFailure(decoded)) assert.fail(`${where(entry)}: ${decoded.failure.message}`)

      const [kind, member] = expectedStdoutMember(message)
      if (member === undefined) assert.fail(`${where(entry)}: no member is expected for ${kind}`)
      assert.isTrue(Schema.is(member)(decoded.success), `${where(entry)}: not a ${kind}`)
      assert.isFalse(Protocol.isUnknownMessage(decoded.success), where(entry))
      assert.isFalse(Schema.is(Protocol.SystemOther)(decoded.success), where(entry))

      const encoded = Protocol.encodeStdoutLine(decoded.success)
      if (Result.isFailure(encoded)) assert.fail(`${where(entry)}: ${encoded.failure.message}`)
      // byte for byte: the codec hands back the parsed object itself, key order and all
      assert.strictEqual(encoded.success, text, where(entry))

      // The Schema itself is lossless too, not only the codec.
      const bySchema = decodeWithSchema(message)
      if (Result.isFailure(bySchema)) assert.fail(`${where(entry)}: ${bySchema.failure.message}`)
      assert.deepStrictEqual<unknown>(bySchema.success, message, where(entry))
    }
  })

  it("decodes every control request from the CLI to its own request member", () => {
    const seen = new Set<string>()
    for (const entry of stdout) {
      const message = entry.msg as Json
      if (message.type !== "control_request") continue
      const decoded = Result.getOrThrow(Protocol.decodeStdoutLine(JSON.stringify(message))) as Protocol.ControlRequest
      const member = inboundRequestMembers[message.request.subtype]
      if (member === undefined) assert.fail(`${where(entry)}: no member for ${message.request.subtype}`)
      assert.isTrue(Schema.is(member)(decoded.request), where(entry))
      seen.add(message.request.subtype)
    }
    assert.deepStrictEqual([...seen].sort(), Object.keys(inboundRequestMembers).sort())
  })

  it("decodes every hook_callback input to the <Event>HookInput of its event", () => {
    const events = new Set<string>()
    for (const entry of stdout) {
      const message = entry.msg as Json
      if (message.type !== "control_request" || message.request.subtype !== "hook_callback") continue
      const decoded = Result.getOrThrow(Protocol.decodeStdoutLine(JSON.stringify(message))) as Protocol.ControlRequest
      const input = (decoded.request as Protocol.HookCallbackRequest).input
      const event = message.request.input.hook_event_name as Protocol.HookEvent
      assert.include(Protocol.HookEvent.literals, event, where(entry))
      const member: AnySchema = Protocol.hookInputByEvent[event]
      assert.isTrue(Schema.is(member)(input), `${where(entry)}: not a ${event}HookInput`)
      assert.isFalse(Schema.is(Protocol.UnknownHookInput)(input), where(entry))
      events.add(event)
    }
    assert.isAtLeast(events.size, 8)
  })

  it("decodes every stdin line and encodes it back to the same JSON", () => {
    let refused = 0
    for (const entry of stdin) {
      const message = entry.msg as Json
      const text = JSON.stringify(message)
      const decoded = Protocol.decodeStdinLine(text)
      if (isInvalidOnPurpose(entry)) {
        assert.isTrue(Result.isFailure(decoded), `${where(entry)} should be refused`)
        refused++
        continue
      }
      if (Result.isFailure(decoded)) assert.fail(`${where(entry)}: ${decoded.failure.message}`)
      const encoded = Protocol.encodeStdinLine(decoded.success)
      if (Result.isFailure(encoded)) assert.fail(`${where(entry)}: ${encoded.failure.message}`)
      assert.strictEqual(encoded.success, text, where(entry))
    }
    assert.strictEqual(refused, Object.values(invalidOnPurpose).flat().length)
  })

  it("accepts and refuses exactly what the Schema does, on mutated lines", () => {
    // The codec checks lines with a compiled guard (validator.ts); it must agree
    // with decoding through the schema itself. Mutate one node of each line at
    // random (seeded) and compare the verdicts.
    let seed = 42
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    const replacements: ReadonlyArray<unknown> = [null, 7, "x", true, [], {}, [1], { type: "x" }]
    const nodesOf = (
      value: unknown,
      path: ReadonlyArray<string | number>,
      out: Array<ReadonlyArray<string | number>>
    ) => {
      if (path.length > 0) out.push(path)
      if (Array.isArray(value)) value.forEach((item, i) => nodesOf(item, [...path, i], out))
      else if (typeof value === "object" && value !== null) {
        for (const [key, item] of Object.entries(value)) nodesOf(item, [...path, key], out)
      }
      return out
    }
    const mutate = (message: unknown, path: ReadonlyArray<string | number>): unknown => {
      const copy = structuredClone(message) as any
      let parent = copy
      for (const key of path.slice(0, -1)) parent = parent[key]
      const last = path[path.length - 1]
      if (!Array.isArray(parent) && random(4) === 0) delete parent[last]
      else parent[last] = replacements[random(replacements.length)]
      return copy
    }
    const decodeWithSchema = Schema.decodeUnknownResult(Protocol.StdoutMessage)
    let accepted = 0
    let refused = 0
    for (const entry of stdout) {
      const text = JSON.stringify(entry.msg)
      // a line written once and referred to elsewhere is mutated once
      if (text.length > 20_000 || entry.same_as !== undefined) continue
      const nodes = nodesOf(entry.msg, [], [])
      for (let i = 0; i < 4; i++) {
        const mutated = mutate(entry.msg, nodes[random(nodes.length)])
        const byCodec = Result.isSuccess(Protocol.decodeStdoutLine(JSON.stringify(mutated)))
        const bySchema = Result.isSuccess(decodeWithSchema(mutated))
        assert.strictEqual(byCodec, bySchema, `${where(entry)}: ${JSON.stringify(mutated).slice(0, 300)}`)
        if (byCodec) accepted++
        else refused++
      }
    }
    assert.isAbove(accepted, 100)
    assert.isAbove(refused, 100)
  })

  it("accepts the raw stdin lines the CLI takes, and refuses the ones it dies on or ignores", () => {
    const raw = entries.filter((entry) => entry.dir === "sdk->cli" && entry.raw !== undefined)
    assert.isAbove(raw.length, 15)
    for (const entry of raw) {
      const decoded = Protocol.decodeStdinLine(entry.raw!)
      assert.strictEqual(
        Result.isSuccess(decoded),
        rawStdinAccepted.includes(entry.raw!),
        `${where(entry)}: ${entry.raw}`
      )
    }
  })
})
