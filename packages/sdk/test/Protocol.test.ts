import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { isDeepStrictEqual } from "node:util"
import { ProtocolError } from "../src/ClaudeError.js"
import * as Protocol from "../src/Protocol.js"

const line = (value: unknown): string => JSON.stringify(value)

const decodeOk = (text: string): Protocol.StdoutMessage => {
  const decoded = Protocol.decodeStdoutLine(text)
  if (Result.isFailure(decoded)) assert.fail(`expected to decode: ${decoded.failure.message}`)
  return decoded.success
}

const decodeFails = (text: string, reason: ProtocolError["reason"]): ProtocolError => {
  const decoded = Protocol.decodeStdoutLine(text)
  if (Result.isSuccess(decoded)) assert.fail(`expected a ProtocolError for ${text.slice(0, 200)}`)
  assert.instanceOf(decoded.failure, ProtocolError)
  assert.strictEqual(decoded.failure.reason, reason)
  assert.strictEqual(decoded.failure.lineLength, text.length)
  return decoded.failure
}

const roundTrips = (message: unknown) => {
  const decoded = decodeOk(line(message))
  assert.deepStrictEqual(decoded, message)
  const encoded = Protocol.encodeStdoutLine(decoded)
  assert.isTrue(Result.isSuccess(encoded))
  assert.deepStrictEqual(JSON.parse(Result.getOrThrow(encoded)), message)
  return decoded
}

const ids = { uuid: "u-1", session_id: "s-1" }

const assistant = {
  type: "assistant",
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-opus-5-5",
    content: [{ type: "text", text: "ok" }],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1 }
  },
  parent_tool_use_id: null,
  ...ids
}

const hookCallback = (input: Record<string, unknown>) => ({
  type: "control_request",
  request_id: "r-1",
  request: {
    subtype: "hook_callback",
    callback_id: "cb",
    input: { session_id: "s-1", transcript_path: "/t.jsonl", cwd: "/w", ...input },
    tool_use_id: "toolu_1"
  }
})

describe("Protocol", () => {
  describe("decodeStdoutLine", () => {
    it("decodes a known message to its member, unknown fields included", () => {
      const message = { ...assistant, brand_new_field: { nested: [1, "two", null] } }
      const decoded = roundTrips(message)
      assert.isTrue(Schema.is(Protocol.AssistantMessage)(decoded))
      assert.isTrue(Protocol.isMessage(decoded))
      assert.isFalse(Protocol.isUnknownMessage(decoded))
    })

    it("keeps a `__proto__` key as a field, without touching the prototype", () => {
      const text = line(assistant).replace(/^\{/, "{\"__proto__\":{\"polluted\":true},")
      const decoded = decodeOk(text)
      assert.isTrue(Object.prototype.hasOwnProperty.call(decoded, "__proto__"))
      assert.strictEqual(Object.getPrototypeOf(decoded), Object.prototype)
      assert.isUndefined((decoded as { readonly polluted?: unknown }).polluted)
      assert.strictEqual(Result.getOrThrow(Protocol.encodeStdoutLine(decoded)), text)
    })

    it("keeps an unknown type whole", () => {
      const decoded = roundTrips({ type: "transcript_mirror", payload: { a: [1, { b: true }] }, ...ids })
      assert.isTrue(Protocol.isUnknownMessage(decoded))
      assert.isTrue(Protocol.isMessage(decoded))
      assert.isTrue(Schema.is(Protocol.UnknownMessage)(decoded))
    })

    it("keeps an unknown system subtype as SystemOther", () => {
      const decoded = roundTrips({ type: "system", subtype: "ui_toast", text: "hi", ...ids })
      assert.isTrue(Schema.is(Protocol.SystemOther)(decoded))
      assert.isFalse(Protocol.isUnknownMessage(decoded))
    })

    it("decodes an unknown result error subtype as ResultErrorMessage", () => {
      const result = {
        type: "result",
        subtype: "error_something_new",
        duration_ms: 1,
        duration_api_ms: 0,
        is_error: true,
        num_turns: 0,
        stop_reason: null,
        total_cost_usd: 0,
        usage: { input_tokens: 0, output_tokens: 0 },
        modelUsage: {},
        permission_denials: [],
        errors: ["boom"],
        ...ids
      }
      const decoded = roundTrips(result)
      assert.isTrue(Schema.is(Protocol.ResultErrorMessage)(decoded))
    })

    it("keeps an unknown control request subtype, an unknown hook event and an unknown content block", () => {
      const request = roundTrips({ type: "control_request", request_id: "r", request: { subtype: "ui_render", x: 1 } })
      assert.isTrue(Schema.is(Protocol.ControlRequest)(request))
      assert.isTrue(Schema.is(Protocol.UnknownControlRequest)((request as Protocol.ControlRequest).request))

      const hook = roundTrips(hookCallback({ hook_event_name: "SomeFutureEvent", detail: { a: 1 } }))
      const input = ((hook as Protocol.ControlRequest).request as Protocol.HookCallbackRequest).input
      assert.isTrue(Schema.is(Protocol.UnknownHookInput)(input))

      const block = roundTrips({
        ...assistant,
        message: { ...assistant.message, content: [{ type: "mcp_tool_use", id: "x", server_name: "calc" }] }
      }) as Protocol.AssistantMessage
      assert.isTrue(Schema.is(Protocol.UnknownContentBlock)(block.message.content[0]))
    })

    it("decodes a hook callback to the event's own input", () => {
      const hook = roundTrips(hookCallback({
        hook_event_name: "PreToolUse",
        permission_mode: "default",
        effort: { level: "medium" },
        tool_name: "Bash",
        tool_input: { command: "ls" },
        tool_use_id: "toolu_1"
      })) as Protocol.ControlRequest
      const input = (hook.request as Protocol.HookCallbackRequest).input
      assert.isTrue(Schema.is(Protocol.PreToolUseHookInput)(input))
      const typed = input as Protocol.HookInputFor<"PreToolUse">
      assert.strictEqual(typed.tool_name, "Bash")
    })

    it("keeps the extra envelope fields of a control response", () => {
      const decoded = roundTrips({
        type: "control_response",
        response: {
          subtype: "success",
          request_id: "init_1",
          response: { pid: 42 },
          pending_permission_requests: [],
          pending_user_dialog_requests: []
        }
      })
      assert.isFalse(Protocol.isMessage(decoded))
    })

    it("decodes a reply without request_id (the CLI omits it when the request had none)", () => {
      roundTrips({ type: "control_response", response: { subtype: "success", response: { mcpServers: [] } } })
    })

    it("narrows with the guards, in both branches", () => {
      const messages = [
        { type: "control_response", response: { subtype: "success", request_id: "r" } },
        { type: "system", subtype: "init", ...ids },
        { type: "brand_new" }
      ].map((message) => Protocol.decodeStdoutLine(line(message)))
      const response = Result.getOrThrow(messages[0])
      if (Protocol.isUnknownMessage(response)) return assert.fail("not unknown")
      switch (response.type) {
        case "control_response":
          // Compiles only because the guard ruled out the fallback's `type: string`.
          assert.strictEqual(response.response.request_id, "r")
          break
        default:
          assert.fail(response.type)
      }
      assert.isTrue(Result.isFailure(messages[1]))
      assert.isTrue(Protocol.isUnknownMessage(Result.getOrThrow(messages[2])))

      const init = decodeOk(
        line({
          type: "system",
          subtype: "init",
          apiKeySource: "none",
          claude_code_version: "2.1.328",
          cwd: "/w",
          tools: ["Bash"],
          mcp_servers: [],
          model: "claude-opus-5-5",
          permissionMode: "default",
          slash_commands: [],
          output_style: "default",
          skills: [],
          plugins: [],
          ...ids
        })
      )
      if (!Protocol.isSystemMessage(init, "init")) return assert.fail("not init")
      assert.deepStrictEqual(init.tools, ["Bash"])
      assert.isFalse(Protocol.isResultSuccess(init))
    })

    it("`message.type === \"result\"` narrows to the results once the unknown-message fallback is set aside", () => {
      // Type-checked: without the narrowing, `total_cost_usd` would be the fallback's `unknown` (its index
      // signature) and the function would not compile. (The fallback's `type` is a string: `type === "result"`
      // alone keeps it, on effect 3 as here; `isUnknownMessage` or `isResultMessage` rules it out.)
      const costOf = (message: Protocol.Message): number | undefined =>
        !Protocol.isUnknownMessage(message) && message.type === "result" && !message.is_error
          ? message.total_cost_usd
          : undefined
      const viaGuard = (message: Protocol.Message): number | undefined =>
        Protocol.isResultMessage(message) ? message.total_cost_usd : undefined
      const result = decodeOk(line({
        type: "result",
        subtype: "success",
        duration_ms: 1,
        duration_api_ms: 0,
        is_error: false,
        num_turns: 1,
        stop_reason: null,
        total_cost_usd: 0.5,
        usage: { input_tokens: 0, output_tokens: 0 },
        modelUsage: {},
        permission_denials: [],
        result: "ok",
        ...ids
      }))
      if (!Protocol.isMessage(result)) return assert.fail("a result is a message")
      assert.strictEqual(costOf(result), 0.5)
      assert.strictEqual(viaGuard(result), 0.5)
      const lookalike = decodeOk(line({ type: "result_like", total_cost_usd: 1 }))
      if (!Protocol.isMessage(lookalike)) return assert.fail("an unknown type is a message")
      assert.isUndefined(costOf(lookalike))
      assert.isUndefined(viaGuard(lookalike))
    })

    it("fails on a line that is not JSON", () => {
      const error = decodeFails("{this is not json", "InvalidJson")
      assert.strictEqual(error.line, "{this is not json")
      assert.isAbove(error.detail.length, 0)
    })

    it("fails on truncated JSON", () => {
      decodeFails(line(assistant).slice(0, 80), "InvalidJson")
      decodeFails("", "InvalidJson")
    })

    it("fails on JSON that is not an object, or has no type", () => {
      for (const text of ["null", "42", "[1,2]", "\"assistant\"", "{\"foo\":\"bar\"}", "{\"type\":7}"]) {
        decodeFails(text, "InvalidMessage")
      }
    })

    it("fails on a known member with a wrong field, never falling back", () => {
      const wrongField = decodeFails(line({ ...assistant, parent_tool_use_id: 5 }), "InvalidMessage")
      assert.include(wrongField.detail, "parent_tool_use_id")

      // A known system subtype that breaks its shape is not a SystemOther.
      decodeFails(line({ type: "system", subtype: "init", ...ids }), "InvalidMessage")
      // A success result without `result` is not an error result.
      const { errors: _, ...noResult } = {
        type: "result",
        subtype: "success",
        duration_ms: 1,
        duration_api_ms: 0,
        is_error: false,
        num_turns: 1,
        stop_reason: null,
        total_cost_usd: 0,
        usage: { input_tokens: 0, output_tokens: 0 },
        modelUsage: {},
        permission_denials: [],
        errors: [],
        ...ids
      }
      decodeFails(line(noResult), "InvalidMessage")
      // A known hook event without its fields is not an UnknownHookInput.
      const hook = decodeFails(line(hookCallback({ hook_event_name: "PreToolUse" })), "InvalidMessage")
      assert.include(hook.detail, "tool_name")
      assert.notInclude(hook.detail, "known value")
      // A known content block without its fields is not an UnknownContentBlock.
      const block = decodeFails(
        line({ ...assistant, message: { ...assistant.message, content: [{ type: "tool_use", id: "x" }] } }),
        "InvalidMessage"
      )
      // The field is named as code reaches it, the branches that rejected it merged into one line.
      assert.include(block.detail, "message.content[0].name: is missing")
    })

    it("handles 20 MB lines without throwing, and keeps the error short", () => {
      const size = 20 * 1024 * 1024
      const garbage = "x".repeat(size)
      const notJson = decodeFails(garbage, "InvalidJson")
      assert.isBelow(notJson.line.length, 600)
      assert.isBelow(notJson.detail.length, 2_100)

      const text = "y".repeat(size)
      const big = { ...assistant, message: { ...assistant.message, content: [{ type: "text", text }] } }
      const decoded = decodeOk(line(big)) as Protocol.AssistantMessage
      assert.strictEqual((decoded.message.content[0] as Protocol.TextBlock).text.length, size)

      const broken = decodeFails(line({ ...big, parent_tool_use_id: { huge: text } }), "InvalidMessage")
      assert.isBelow(broken.line.length, 600)
      assert.isBelow(broken.detail.length, 2_100)
      assert.include(broken.message, "InvalidMessage")
    })
  })

  describe("decodeStdinLine / encodeStdinLine", () => {
    const user: Protocol.UserInput = {
      type: "user",
      message: { role: "user", content: "hello" },
      parent_tool_use_id: null,
      session_id: ""
    }

    it("encodes a valid message without a trailing newline, keeping key order", () => {
      const encoded = Protocol.encodeStdinLine(user)
      assert.deepStrictEqual(
        encoded,
        Result.succeed(
          "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hello\"},\"parent_tool_use_id\":null,\"session_id\":\"\"}"
        )
      )
      assert.deepStrictEqual(Protocol.decodeStdinLine(Result.getOrThrow(encoded)), Result.succeed(user))
    })

    it("refuses the lines that make the CLI exit", () => {
      const bad: ReadonlyArray<unknown> = [
        { type: "user" },
        { type: "user", message: { role: "assistant", content: "hi" }, parent_tool_use_id: null, session_id: "" },
        { type: "control_request", request_id: "x", request: null },
        { type: "control_request", request_id: "x", request: {} },
        { type: "control_request", request: { subtype: "mcp_status" } },
        {
          type: "user",
          message: { role: "user", content: "hi" },
          parent_tool_use_id: null,
          session_id: "",
          uuid: undefined
        },
        { type: "bogus_type" },
        null,
        42
      ]
      for (const message of bad) {
        const encoded = Protocol.encodeStdinLine(message as Protocol.StdinMessage)
        if (Result.isSuccess(encoded)) assert.fail(`expected a refusal for ${JSON.stringify(message)}`)
        assert.strictEqual(encoded.failure.reason, "EncodeFailed")
        // JSON has no `undefined`: that one only exists before encoding.
        const text = JSON.stringify(message)
        if (!isDeepStrictEqual(JSON.parse(text), message)) continue
        assert.isTrue(Result.isFailure(Protocol.decodeStdinLine(text)))
      }
    })

    it("accepts the other stdin lines the CLI takes", () => {
      const good: ReadonlyArray<Protocol.StdinMessage> = [
        { type: "keep_alive" },
        { type: "update_environment_variables", variables: { FOO: "bar" } },
        { type: "control_cancel_request", request_id: "nope" },
        { type: "control_response", response: { subtype: "error", request_id: "r", error: "no" } },
        { type: "control_request", request_id: "r", request: { subtype: "interrupt" } },
        {
          type: "control_request",
          request_id: "init_1",
          request: {
            subtype: "initialize",
            hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["pre_0"], timeout: 30, onFailure: "block" }] },
            sdkMcpServers: ["calc"],
            systemPrompt: ["be brief"],
            someFutureField: true
          }
        }
      ]
      for (const message of good) {
        const encoded = Protocol.encodeStdinLine(message)
        if (Result.isFailure(encoded)) assert.fail(encoded.failure.message)
        assert.deepStrictEqual(Protocol.decodeStdinLine(encoded.success), Result.succeed(message))
      }
    })

    it("keeps unknown keys of closed structs when encoding", () => {
      const message = { ...user, futureField: { a: 1 } } as Protocol.UserInput
      const encoded = Result.getOrThrow(Protocol.encodeStdinLine(message))
      assert.deepStrictEqual(JSON.parse(encoded), message)
    })
  })

  it("an event's own field replaces the base field of the same name, in the type as in the schema", () => {
    const input = Schema.decodeUnknownSync(Protocol.SubagentStopHookInput)({
      session_id: "s",
      transcript_path: "/t.jsonl",
      cwd: "/w",
      hook_event_name: "SubagentStop",
      stop_hook_active: false,
      agent_id: "a1",
      agent_type: "Explore",
      agent_transcript_path: "/a.jsonl"
    })
    // Required strings here, where the base fields have them optional (a compile error when they mix).
    const agent: { readonly id: string; readonly type: string } = { id: input.agent_id, type: input.agent_type }
    assert.deepStrictEqual(agent, { id: "a1", type: "Explore" })
    assert.isFalse(
      Result.isSuccess(Schema.decodeUnknownResult(Protocol.SubagentStopHookInput)({ ...input, agent_id: undefined }))
    )
  })

  describe("hook outputs and permission results", () => {
    const decodeOutput = Schema.decodeUnknownResult(Protocol.HookOutput)
    const decodeResult = Schema.decodeUnknownResult(Protocol.PermissionResult)

    it("decodes the outputs of every kind, keeping unknown keys", () => {
      const outputs: ReadonlyArray<unknown> = [
        {},
        { async: true, asyncTimeout: 30 },
        { continue: false, stopReason: "stop", suppressOutput: true, systemMessage: "hi" },
        { decision: "block", reason: "no" },
        {
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "defer",
            permissionDecisionReason: "later",
            updatedInput: { command: "ls" },
            additionalContext: "ctx"
          }
        },
        { hookSpecificOutput: { hookEventName: "PostToolUse", updatedMCPToolOutput: { content: [] } } },
        { hookSpecificOutput: { hookEventName: "UserPromptSubmit", sessionTitle: "t", additionalContext: "c" } },
        {
          hookSpecificOutput: {
            hookEventName: "PermissionRequest",
            decision: {
              behavior: "allow",
              updatedPermissions: [{ type: "setMode", mode: "plan", destination: "session" }]
            }
          }
        },
        { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", interrupt: true } } },
        { futureTopLevel: 1, hookSpecificOutput: { hookEventName: "Stop", additionalContext: "go on", future: 2 } }
      ]
      for (const output of outputs) assert.deepStrictEqual<unknown>(decodeOutput(output), Result.succeed(output))
    })

    it("refuses a PreToolUse decision the CLI does not know", () => {
      const output = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "maybe" } }
      assert.isTrue(Result.isFailure(decodeOutput(output)))
    })

    it("decodes every PermissionUpdate and both permission results", () => {
      const updates: ReadonlyArray<Protocol.PermissionUpdate> = [
        {
          type: "addRules",
          rules: [{ toolName: "Bash", ruleContent: "ls:*" }],
          behavior: "allow",
          destination: "session"
        },
        { type: "replaceRules", rules: [{ toolName: "Read" }], behavior: "deny", destination: "userSettings" },
        { type: "removeRules", rules: [{ toolName: "Write" }], behavior: "ask", destination: "projectSettings" },
        { type: "setMode", mode: "acceptEdits", destination: "localSettings" },
        { type: "addDirectories", directories: ["/a"], destination: "cliArg" },
        { type: "removeDirectories", directories: ["/b"], destination: "session" }
      ]
      const allow: Protocol.PermissionResult = {
        behavior: "allow",
        updatedInput: { command: "ls" },
        updatedPermissions: updates
      }
      const deny: Protocol.PermissionResult = { behavior: "deny", message: "no", interrupt: true }
      assert.deepStrictEqual(decodeResult(allow), Result.succeed(allow))
      assert.deepStrictEqual(decodeResult(deny), Result.succeed(deny))
      // The CLI treats a deny without a message as an invalid answer.
      assert.isTrue(Result.isFailure(decodeResult({ behavior: "deny" })))
    })

    it("types every hook event of the CLI", () => {
      assert.strictEqual(Protocol.HookEvent.literals.length, 33)
      assert.deepStrictEqual(Object.keys(Protocol.hookInputByEvent), [...Protocol.HookEvent.literals])
      assert.includeMembers([...Protocol.PermissionMode.literals], [
        "default",
        "acceptEdits",
        "bypassPermissions",
        "plan",
        "dontAsk",
        "auto"
      ])
    })
  })

  describe("round trips of Schema-derived values", () => {
    const roundTripsThrough = <A>(
      encode: (a: A) => Result.Result<string, ProtocolError>,
      decode: (line: string) => Result.Result<unknown, ProtocolError>,
      value: A
    ) => {
      const encoded = encode(value)
      if (Result.isFailure(encoded)) assert.fail(encoded.failure.message)
      assert.isFalse(encoded.success.endsWith("\n"))
      const decoded = decode(encoded.success)
      if (Result.isFailure(decoded)) assert.fail(decoded.failure.message)
      assert.deepStrictEqual(decoded.success, value)
    }

    // What JSON can carry: effect's Arbitrary also makes NaN, the infinities and -0 for a number, which a wire
    // cannot (effect 3's JsonNumber had an arbitrary annotation for this; effect 4 has none for a number).
    const jsonSafe = (value: unknown): unknown => {
      if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0) ? value : 0
      if (Array.isArray(value)) return value.map(jsonSafe)
      if (typeof value !== "object" || value === null) return value
      const out: Record<string, unknown> = {}
      for (const [key, inner] of Object.entries(value)) {
        Object.defineProperty(out, key, {
          value: jsonSafe(inner),
          enumerable: true,
          writable: true,
          configurable: true
        })
      }
      return out
    }
    const onTheWire = <S extends Schema.Top>(schema: S): Arbitrary.Arbitrary<S["Type"]> =>
      Arbitrary.map(Arbitrary.schema(schema), (value) => jsonSafe(value) as S["Type"])

    it.prop(
      "stdout messages",
      [onTheWire(Protocol.StdoutMessage)],
      ([message]) => roundTripsThrough(Protocol.encodeStdoutLine, Protocol.decodeStdoutLine, message),
      { arbitrary: { runs: 200 } }
    )

    it.prop(
      "stdin messages",
      [onTheWire(Protocol.StdinMessage)],
      ([message]) => roundTripsThrough(Protocol.encodeStdinLine, Protocol.decodeStdinLine, message),
      { arbitrary: { runs: 200 } }
    )

    it.prop(
      "hook inputs, through the Schema itself",
      [onTheWire(Protocol.HookInput)],
      ([input]) => {
        const json = JSON.parse(JSON.stringify(Schema.encodeSync(Protocol.HookInput)(input)))
        assert.deepStrictEqual(Schema.decodeUnknownSync(Protocol.HookInput)(json), input)
      },
      { arbitrary: { runs: 100 } }
    )

    it.prop(
      "hook outputs and permission results, through the Schema itself",
      [onTheWire(Protocol.HookOutput), onTheWire(Protocol.PermissionResult)],
      ([output, result]) => {
        const outputJson = JSON.parse(JSON.stringify(Schema.encodeSync(Protocol.HookOutput)(output)))
        assert.deepStrictEqual(Schema.decodeUnknownSync(Protocol.HookOutput)(outputJson), output)
        const resultJson = JSON.parse(JSON.stringify(Schema.encodeSync(Protocol.PermissionResult)(result)))
        assert.deepStrictEqual(Schema.decodeUnknownSync(Protocol.PermissionResult)(resultJson), result)
      },
      { arbitrary: { runs: 100 } }
    )
  })
})
