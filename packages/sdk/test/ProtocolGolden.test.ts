/**
 * The port decodes and re-encodes exactly what effect 3 did: the golden
 * record written by the effect-3 codec (its ProtocolGolden.test.ts, at the last effect-3 commit,
 * which keeps it true on effect 3) compared line by line with what this codec
 * makes of the same inputs — every line of the transcripts of the real CLI and
 * four seeded mutations of each, in both directions (8,841 inputs).
 *
 * What two versions can share is compared: the verdict, the `ProtocolError`
 * reason and line length of a refused line, which exported `Protocol` schemas
 * accept the decoded value (by name, at the top and at each nested union), what
 * the type guards say, and the bytes the codec writes back. The inputs
 * themselves are compared by hash, so both sides read the same lines.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { ProtocolError } from "../src/ClaudeError.js"
import * as ControlRequest from "../src/ControlRequest.js"
import * as Protocol from "../src/Protocol.js"

// ----------------------------------------------------------------------------
// The record (the same code as effect 3's ProtocolGolden.test.ts, but for Either/Result and imports)
// ----------------------------------------------------------------------------

const fixtures = Path.join(import.meta.dirname, "fixtures")
const transcriptsDir = Path.join(fixtures, "transcripts")
const goldenFile = Path.join(fixtures, "transcripts-golden.jsonl")

interface Entry {
  readonly file: string
  readonly index: number
  readonly dir: string
  readonly msg?: unknown
  readonly raw?: string
  readonly same_as?: string
}

interface Input {
  readonly source: string
  readonly variant: string
  readonly codec: "stdout" | "stdin"
  readonly text: string
}

const loadEntries = (): ReadonlyArray<Entry> => {
  const byPlace = new Map<string, Entry>()
  const files = Fs.readdirSync(transcriptsDir).filter((name) => name.endsWith(".jsonl")).sort()
  const entries = files.flatMap((file) =>
    Fs.readFileSync(Path.join(transcriptsDir, file), "utf8").split("\n").flatMap((text, index) => {
      if (text.length === 0) return []
      const entry = { file, index, ...JSON.parse(text) } as Entry
      byPlace.set(`${file}:${index + 1}`, entry)
      return [entry]
    })
  )
  return entries.map((entry) =>
    entry.same_as === undefined ? entry : { ...entry, msg: byPlace.get(entry.same_as)!.msg }
  )
}

// One node of a message replaced (or deleted) at random, seeded: the same mutations in both versions.
const mutations = (message: unknown, count: number, random: (n: number) => number): Array<unknown> => {
  const replacements: ReadonlyArray<unknown> = [null, 7, "x", true, [], {}, [1], { type: "x" }]
  const nodes: Array<ReadonlyArray<string | number>> = []
  const walk = (value: unknown, path: ReadonlyArray<string | number>) => {
    if (path.length > 0) nodes.push(path)
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...path, i]))
    else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) walk(item, [...path, key])
    }
  }
  walk(message, [])
  if (nodes.length === 0) return []
  return Array.from({ length: count }, () => {
    const path = nodes[random(nodes.length)]
    const copy = structuredClone(message) as any
    let parent = copy
    for (const key of path.slice(0, -1)) parent = parent[key]
    const last = path[path.length - 1]
    if (!Array.isArray(parent) && random(4) === 0) delete parent[last]
    else parent[last] = replacements[random(replacements.length)]
    return copy
  })
}

const loadInputs = (): ReadonlyArray<Input> => {
  let seed = 1234
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n
  }
  const inputs: Array<Input> = []
  for (const entry of loadEntries()) {
    const source = `${entry.file}:${entry.index + 1}`
    const codec = entry.dir === "cli->sdk" ? "stdout" : entry.dir === "sdk->cli" ? "stdin" : undefined
    if (codec === undefined) continue
    if (entry.raw !== undefined) {
      inputs.push({ source, variant: "raw", codec, text: entry.raw })
      continue
    }
    if (entry.msg === undefined) continue
    const text = JSON.stringify(entry.msg)
    inputs.push({ source, variant: "line", codec, text })
    // a line written once and referred to elsewhere is mutated once; the 20 MB lines are not mutated
    if (entry.same_as !== undefined || text.length > 20_000) continue
    mutations(entry.msg, 4, random).forEach((mutated, i) =>
      inputs.push({ source, variant: `m${i}`, codec, text: JSON.stringify(mutated) })
    )
  }
  return inputs
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 24)

type AnySchema = Schema.Top
type Named = ReadonlyArray<readonly [string, AnySchema]>

const named = (names: ReadonlyArray<string>): Named =>
  names.map((name) => [name, (Protocol as unknown as Record<string, AnySchema>)[name]] as const)

const stdoutTop = named([
  "AssistantMessage",
  "UserMessage",
  "ResultSuccess",
  "ResultErrorMessage",
  ...Object.keys(Protocol).filter((name) => name.startsWith("System") && name !== "SystemMessage").sort(),
  "StreamEvent",
  "ToolProgressMessage",
  "ToolUseSummaryMessage",
  "AuthStatusMessage",
  "RateLimitEvent",
  "PromptSuggestionMessage",
  "CommandLifecycleMessage",
  "ActiveGoalMessage",
  "ConversationResetMessage",
  "UnknownMessage",
  "ControlRequest",
  "ControlResponse",
  "ControlCancelRequest",
  "KeepAlive"
])
const stdinTop = named([
  "UserInput",
  "OutboundControlRequest",
  "ControlResponse",
  "ControlCancelRequest",
  "KeepAlive",
  "UpdateEnvironmentVariables"
])
const inboundRequests = named([
  "HookCallbackRequest",
  "CanUseToolRequest",
  "McpMessageRequest",
  "ElicitationRequest",
  "UserDialogRequest",
  "UnknownControlRequest"
])
const hookInputs: Named = [
  ...Object.entries(Protocol.hookInputByEvent as Record<string, AnySchema>),
  ["UnknownHookInput", Protocol.UnknownHookInput]
]
const contentBlocks = named([
  "TextBlock",
  "ThinkingBlock",
  "RedactedThinkingBlock",
  "ToolUseBlock",
  "ServerToolUseBlock",
  "ToolResultBlock",
  "ImageBlock",
  "DocumentBlock",
  "UnknownContentBlock",
  "UnknownContentBlockInput"
])
const responses = named(["ControlSuccess", "ControlFailure"])
const outboundPayloads: Named = [
  ...Object.entries(ControlRequest.requests).map(([subtype, request]) =>
    [subtype, request.payloadSchema as AnySchema] as const
  ),
  ["OtherOutboundRequest", Protocol.OtherOutboundRequest]
]

const accepting = (candidates: Named, value: unknown): string =>
  candidates.filter(([, schema]) => Schema.is(schema)(value)).map(([name]) => name).join(",")

type Json = { readonly [key: string]: any }

// Which exported schemas accept the value, at the top and at each nested union.
const classify = (codec: "stdout" | "stdin", value: Json): Record<string, string> => {
  const out: Record<string, string> = { "": accepting(codec === "stdout" ? stdoutTop : stdinTop, value) }
  const at = (path: string, candidates: Named, nested: unknown) => {
    if (nested !== undefined) out[path] = accepting(candidates, nested)
  }
  if (value.type === "control_request" && typeof value.request === "object" && value.request !== null) {
    if (codec === "stdout") {
      at("request", inboundRequests, value.request)
      if (value.request.subtype === "hook_callback") at("request.input", hookInputs, value.request.input)
    } else {
      at("request", outboundPayloads, value.request)
    }
  }
  if (value.type === "control_response") at("response", responses, value.response)
  const content = value.message?.content
  if ((value.type === "assistant" || value.type === "user") && Array.isArray(content)) {
    content.forEach((block, i) => at(`message.content[${i}]`, contentBlocks, block))
  }
  return out
}

const guards = (message: Protocol.StdoutMessage): string =>
  [
    Protocol.isMessage(message),
    Protocol.isUnknownMessage(message),
    Protocol.isResultMessage(message),
    Protocol.isResultSuccess(message),
    Protocol.isAssistantMessage(message),
    Protocol.isUserMessage(message),
    Protocol.isStreamEvent(message)
  ].map((flag) => (flag ? "1" : "0")).join("")

const record = (input: Input): Record<string, unknown> => {
  const head = { src: input.source, v: input.variant, codec: input.codec, in: sha(input.text) }
  const decoded: Result.Result<unknown, ProtocolError> = input.codec === "stdout"
    ? Protocol.decodeStdoutLine(input.text)
    : Protocol.decodeStdinLine(input.text)
  if (Result.isFailure(decoded)) {
    return { ...head, ok: false, reason: decoded.failure.reason, len: decoded.failure.lineLength }
  }
  const value = decoded.success
  const encoded = input.codec === "stdout"
    ? Protocol.encodeStdoutLine(value as Protocol.StdoutMessage)
    : Protocol.encodeStdinLine(value as Protocol.StdinMessage)
  return {
    ...head,
    ok: true,
    kinds: classify(input.codec, value as Json),
    ...(input.codec === "stdout" ? { guards: guards(value as Protocol.StdoutMessage) } : {}),
    enc: Result.isFailure(encoded)
      ? `!${encoded.failure.reason}`
      : encoded.success === input.text
      ? "="
      : sha(encoded.success)
  }
}

// ----------------------------------------------------------------------------

describe("the codec against the golden record of effect 3", () => {
  it("decodes, classifies and re-encodes every transcript line and mutation exactly as effect 3 did", () => {
    const golden = Fs.readFileSync(goldenFile, "utf8").split("\n").filter((line) => line.length > 0)
    const inputs = loadInputs()
    assert.strictEqual(inputs.length, golden.length, "the same inputs on both sides")
    assert.isAbove(inputs.length, 8_000)
    let refused = 0
    inputs.forEach((input, i) => {
      const expected = JSON.parse(golden[i]) as Record<string, unknown>
      const actual = record(input)
      if (actual.ok === false) refused++
      assert.deepStrictEqual(actual, expected, `golden line ${i + 1} (${input.source} ${input.variant})`)
    })
    // both outcomes are exercised: a check that accepted or refused everything would not pass
    assert.isAbove(refused, 4_000)
    assert.isAbove(inputs.length - refused, 3_500)
  }, 300_000)
})
