/**
 * Every hook event the real CLI 2.1.328 delivers to SDK callback hooks, each
 * proven by the EFFECT of its answer: what the model's next request carries
 * (the ScriptedModel records it), what the message stream shows, which files
 * exist, what the permission gate was asked. docs/hooks.md states these
 * behaviours; this file keeps them true.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import {
  ClaudeCode,
  HookLayer,
  HookResult,
  McpServer,
  McpTool,
  PermissionGate,
  PermissionResult,
  Protocol
} from "../src/index.js"
import { bash, harness, Workspace } from "./utils/harness.js"

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

const runQuery = (prompt: string, options: Parameters<typeof ClaudeCode.query>[1] = {}) =>
  collect(ClaudeCode.query(prompt, options))

type Messages = ReadonlyArray<Protocol.Message>

/** The `system/informational` lines of a stream: where a hook's `systemMessage` shows. */
const informational = (messages: Messages): ReadonlyArray<string> =>
  messages.flatMap((message) => Protocol.isSystemMessage(message, "informational") ? [message.content] : [])

const resultOf = (messages: Messages) => {
  const result = messages.find(Protocol.isResultMessage)
  assert.isDefined(result, "the turn has a result")
  return result!
}

/** The text of every `user` message of a stream (tool results, synthetic feedback, local command output). */
const userTexts = (messages: Messages): ReadonlyArray<string> =>
  messages.flatMap((message) => {
    if (!Protocol.isUserMessage(message)) return []
    const content = message.message.content
    return [typeof content === "string" ? content : JSON.stringify(content)]
  })

/** The `tool_result_meta` of a tool result message: who decided its permission. */
const decodeToolResultMeta = Schema.decodeUnknownOption(Schema.Struct({
  type: Schema.Literal("user"),
  tool_result_meta: Schema.Array(Schema.Struct({ permission_decision: Schema.Struct({ source: Schema.String }) }))
}))

/**
 * A hook layer that records every input it is called with and answers with
 * `answer(input, call)` (`call` counts from 0); `called` waits for its first call.
 */
const recorder = <Event extends Protocol.HookEvent>(
  event: Event,
  answer: (input: Protocol.HookInputFor<Event>, call: number) => HookLayer.HookAnswer = () => HookResult.empty,
  options: HookLayer.HookOptions = {}
) =>
  Effect.gen(function*() {
    const inputs = yield* Ref.make<ReadonlyArray<Protocol.HookInputFor<Event>>>([])
    const first = yield* Deferred.make<void>()
    return {
      layer: HookLayer.make(event, options, (input) =>
        Ref.modify(inputs, (all) =>
          [answer(input, all.length), [...all, input]] as const).pipe(
            Effect.tap(Deferred.succeed(first, void 0))
          )),
      inputs: Ref.get(inputs),
      called: Deferred.await(first)
    }
  })

/**
 * A permission gate that records what it was asked and answers `answer`
 * (allow by default) once `until` is done (at once by default).
 */
const recordingGate = (
  options: { readonly until?: Effect.Effect<void>; readonly answer?: PermissionResult.PermissionResult } = {}
) =>
  Effect.map(Ref.make<ReadonlyArray<Protocol.CanUseToolRequest>>([]), (asked) => ({
    layer: PermissionGate.layer((request) =>
      Ref.update(asked, (all) => [...all, request]).pipe(
        Effect.andThen(options.until ?? Effect.void),
        Effect.as(options.answer ?? PermissionResult.allow())
      )
    ),
    asked: Ref.get(asked)
  }))

/**
 * Runs the prompt "go" under a {@link recordingGate} and a PreToolUse hook on
 * Bash that answers `answer`: the turn's messages, and what the gate was asked.
 */
const underPreToolUse = (answer: HookLayer.HookAnswer, options: Parameters<typeof ClaudeCode.query>[1] = {}) =>
  Effect.gen(function*() {
    const gate = yield* recordingGate()
    const messages = yield* runQuery("go", options).pipe(
      Effect.provide(
        Layer.mergeAll(gate.layer, HookLayer.preToolUse({ matcher: "Bash" }, () => Effect.succeed(answer)))
      )
    )
    return { messages, asked: yield* gate.asked }
  })

const withContext = <Event extends Protocol.HookEvent>(event: Event, additionalContext: string) =>
  ({ hookSpecificOutput: { hookEventName: event, additionalContext } }) as Protocol.SyncHookOutput

const subagentCall = ScriptedModel.toolUse("Agent", {
  description: "look around",
  prompt: "list what you see",
  subagent_type: "general-purpose",
  // in the foreground: the subagent's report is the tool result, inside the same turn
  run_in_background: false
})

describe("tool hooks on the real CLI", () => {
  it.live("PreToolUse additionalContext reaches the model after the tool result; systemMessage shows in the stream", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const messages = yield* runQuery("go", { allowedTools: ["Bash"] }).pipe(
        Effect.provide(HookLayer.preToolUse({ matcher: "Bash" }, () =>
          Effect.succeed(HookResult.output({
            systemMessage: "shell commands are logged",
            ...withContext("PreToolUse", "the build server is at 10.0.0.7")
          }))))
      )
      assert.isTrue(workspace.exists("pre.txt"), "the tool ran")
      const next = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(next.includes("PreToolUse:Bash hook additional context: the build server is at 10.0.0.7"))
      assert.include(informational(messages), "PreToolUse:Bash says: shell commands are logged")
    }).pipe(Effect.provide(harness([bash("touch pre.txt"), ScriptedModel.text("ok")]))))

  it.live("suppressOutput hides nothing from an SDK hook: its systemMessage and additionalContext still arrive", () =>
    Effect.gen(function*() {
      const messages = yield* runQuery("go", { allowedTools: ["Bash"] }).pipe(
        Effect.provide(HookLayer.preToolUse({ matcher: "Bash" }, () =>
          Effect.succeed(HookResult.output({
            suppressOutput: true,
            systemMessage: "still shown",
            ...withContext("PreToolUse", "still sent")
          }))))
      )
      assert.include(informational(messages), "PreToolUse:Bash says: still shown")
      assert.isTrue(
        (yield* ScriptedModel.lastTurnRequest).includes("PreToolUse:Bash hook additional context: still sent")
      )
    }).pipe(Effect.provide(harness([bash("echo hi"), ScriptedModel.text("ok")]))))

  it.live("PreToolUse ask hands the call to the permission gate with the hook's reason; the gate's allow runs it", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const { asked } = yield* underPreToolUse(HookResult.ask("a person should look at this"), {
        allowedTools: ["Bash"]
      })
      // allowedTools would have let it through without asking: the hook's ask is what sent it to the gate
      const [request] = asked
      assert.isDefined(request)
      assert.strictEqual(request!.decision_reason, "a person should look at this")
      assert.strictEqual(request!.decision_reason_type, "hook")
      assert.strictEqual(request!.decision_reason_hook_event, "PreToolUse")
      assert.isTrue(workspace.exists("asked.txt"))
    }).pipe(Effect.provide(harness([bash("touch asked.txt"), ScriptedModel.text("ok")]))))

  it.live("PreToolUse defer ends the turn at once with the deferred call: the tool does not run, the gate is not asked", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const { asked, messages } = yield* underPreToolUse(HookResult.defer)
      const result = resultOf(messages)
      assert.strictEqual(result.terminal_reason, "tool_deferred")
      assert.isTrue(Protocol.isResultSuccess(result) && result.deferred_tool_use?.name === "Bash")
      assert.isFalse(workspace.exists("deferred.txt"))
      assert.strictEqual(asked.length, 0)
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1, "no request after the deferred call")
    }).pipe(Effect.provide(harness([bash("touch deferred.txt"), ScriptedModel.text("never")]))))

  it.live("PreToolUse allow runs the tool without asking the gate; the tool result records the hook as the decider", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const { asked, messages } = yield* underPreToolUse(HookResult.allow({ reason: "vetted" }))
      assert.isTrue(workspace.exists("allowed.txt"))
      assert.strictEqual(asked.length, 0)
      const sources = messages.flatMap((message) =>
        Option.match(decodeToolResultMeta(message), {
          onNone: () => [],
          onSome: ({ tool_result_meta }) => tool_result_meta.map((meta) => meta.permission_decision.source)
        })
      )
      assert.deepStrictEqual(sources, ["hook"])
    }).pipe(Effect.provide(harness([bash("touch allowed.txt"), ScriptedModel.text("ok")]))))

  it.live("PreToolUse updatedInput alone: the gate is asked about the rewritten input, which is what runs", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const { asked } = yield* underPreToolUse(
        HookResult.updatedInput({ command: "touch rewritten.txt", description: "rewritten" })
      )
      const [request] = asked
      assert.deepStrictEqual(request?.input, { command: "touch rewritten.txt", description: "rewritten" })
      assert.isTrue(workspace.exists("rewritten.txt"))
      assert.isFalse(workspace.exists("original.txt"))
    }).pipe(Effect.provide(harness([bash("touch original.txt"), ScriptedModel.text("ok")]))))

  it.live("PreToolUse halt: the tool still runs, then the turn stops (hook_stopped) without another request", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const messages = yield* runQuery("go", { allowedTools: ["Bash"] }).pipe(
        Effect.provide(HookLayer.preToolUse({ matcher: "Bash" }, () => Effect.succeed(HookResult.halt("stop here"))))
      )
      assert.isTrue(workspace.exists("halted.txt"))
      const result = resultOf(messages)
      assert.strictEqual(result.terminal_reason, "hook_stopped")
      assert.isTrue(Protocol.isResultSuccess(result) && result.result === "")
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1)
      assert.isFalse(JSON.stringify(messages).includes("stop here"), "stopReason is not surfaced")
    }).pipe(Effect.provide(harness([bash("touch halted.txt"), ScriptedModel.text("never")]))))

  it.live("PostToolUse block tells the model why, after the tool ran; its systemMessage shows", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const messages = yield* runQuery("go", { allowedTools: ["Bash"] }).pipe(
        Effect.provide(HookLayer.postToolUse({ matcher: "Bash" }, () =>
          Effect.succeed(HookResult.output({
            decision: "block",
            reason: "that file belongs to another team",
            systemMessage: "post-check done"
          }))))
      )
      assert.isTrue(workspace.exists("post.txt"), "PostToolUse runs after the tool: block cannot undo it")
      const next = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(
        next.includes(
          "PostToolUse:Bash hook blocking error from command: \"callback\": that file belongs to another team"
        )
      )
      assert.include(informational(messages), "PostToolUse:Bash says: post-check done")
      assert.strictEqual(resultOf(messages).result, "ok", "the turn goes on")
    }).pipe(Effect.provide(harness([bash("touch post.txt"), ScriptedModel.text("ok")]))))

  it.live("PostToolUse updatedMCPToolOutput replaces an MCP tool's result; updatedToolOutput does nothing for Bash", () =>
    Effect.gen(function*() {
      const clock = McpTool.make("now", {
        description: "The time",
        parameters: Schema.Struct({})
      }, () => Effect.succeed(McpTool.text("12:00")))
      const server = yield* McpServer.make({ name: "clock", tools: [clock] })
      yield* runQuery("go", { mcpServers: { clock: server }, allowedTools: ["mcp__clock", "Bash"] }).pipe(
        Effect.provide(HookLayer.postToolUse({}, (input) =>
          Effect.succeed(HookResult.output({
            hookSpecificOutput: input.tool_name === "Bash"
              ? { hookEventName: "PostToolUse", updatedToolOutput: "REPLACED-BASH" }
              : { hookEventName: "PostToolUse", updatedMCPToolOutput: { redacted: true } }
          }))))
      )
      const results = yield* ScriptedModel.toolResults
      assert.strictEqual(results.length, 2)
      assert.deepStrictEqual(JSON.parse(results[0]!.content), { redacted: true })
      assert.strictEqual(results[1]!.content, "original-bash")
    }).pipe(Effect.provide(harness([
      ScriptedModel.toolUse("mcp__clock__now", {}),
      bash("echo original-bash"),
      ScriptedModel.text("ok")
    ]))))

  it.live("PostToolUseFailure is called for a failed tool with its error, and its additionalContext reaches the model", () =>
    Effect.gen(function*() {
      const failure = yield* recorder(
        "PostToolUseFailure",
        () => withContext("PostToolUseFailure", "exit code 3 means the cache is cold")
      )
      yield* runQuery("go", { allowedTools: ["Bash"] }).pipe(Effect.provide(failure.layer))
      const [input] = yield* failure.inputs
      assert.strictEqual(input?.error, "Exit code 3")
      assert.strictEqual(input?.tool_name, "Bash")
      const next = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(next.latestToolResults[0]!.isError)
      assert.isTrue(
        next.includes("PostToolUseFailure:Bash hook additional context: exit code 3 means the cache is cold")
      )
    }).pipe(Effect.provide(harness([bash("exit 3"), ScriptedModel.text("ok")]))))

  it.live("PostToolBatch is called once after parallel calls, with all of them, and its additionalContext reaches the model", () =>
    Effect.gen(function*() {
      const batch = yield* recorder("PostToolBatch", () => withContext("PostToolBatch", "both probes are done"))
      yield* runQuery("go", { allowedTools: ["Bash"] }).pipe(Effect.provide(batch.layer))
      const inputs = yield* batch.inputs
      assert.strictEqual(inputs.length, 1)
      assert.deepStrictEqual(inputs[0]!.tool_calls.map((call) => call.tool_input), [
        { command: "echo one", description: "run a command" },
        { command: "echo two", description: "run a command" }
      ])
      assert.isTrue(
        (yield* ScriptedModel.lastTurnRequest).includes("PostToolBatch hook additional context: both probes are done")
      )
    }).pipe(Effect.provide(harness([
      ScriptedModel.turn(bash("echo one"), bash("echo two")),
      ScriptedModel.text("ok")
    ]))))
})

describe("permission hooks on the real CLI", () => {
  it.live("PermissionRequest allow with updatedPermissions is remembered: the next matching call asks nobody", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      // The gate is slow and would deny: the hook's allow (it answers first) is what decides. The gate's
      // pending call does not hold the turn up once the hook has decided, so the margin costs no time; it is
      // wide so that a loaded machine's slow hook answer cannot lose the race.
      const slowDenyingGate = yield* recordingGate({
        until: Effect.sleep("30 seconds"),
        answer: PermissionResult.deny("the gate says no")
      })
      const permission = yield* recorder("PermissionRequest", () =>
        HookResult.output({
          hookSpecificOutput: {
            hookEventName: "PermissionRequest",
            decision: {
              behavior: "allow",
              updatedPermissions: [{
                type: "addRules",
                rules: [{ toolName: "Bash", ruleContent: "touch:*" }],
                behavior: "allow",
                destination: "session"
              }]
            }
          }
        }))
      const session = yield* ClaudeCode.session().pipe(
        Effect.provide(Layer.mergeAll(slowDenyingGate.layer, permission.layer))
      )
      yield* collect(session.turn("first"))
      yield* collect(session.turn("second"))
      assert.isTrue(workspace.exists("one.txt"))
      assert.isTrue(workspace.exists("two.txt"))
      // the second touch matched the rule: neither the gate nor the hook was asked again
      assert.strictEqual((yield* slowDenyingGate.asked).length, 1)
      assert.strictEqual((yield* permission.inputs).length, 1)
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([
        bash("touch one.txt"),
        ScriptedModel.text("ok"),
        bash("touch two.txt"),
        ScriptedModel.text("ok")
      ]))
    ))

  it.live("PermissionDenied (auto mode refused a call) with retry: true tells the model it may retry", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const denied = yield* recorder(
        "PermissionDenied",
        () => HookResult.output({ hookSpecificOutput: { hookEventName: "PermissionDenied", retry: true } })
      )
      const messages = yield* runQuery("go", { permissionMode: "auto" }).pipe(Effect.provide(denied.layer))
      // Auto mode's safety check runs on Anthropic's servers; behind ScriptedModel it is unavailable, so
      // every call that needs it is refused — a deterministic PermissionDenied.
      const [input] = yield* denied.inputs
      assert.strictEqual(input?.tool_name, "Bash")
      assert.strictEqual(input?.reason, "Classifier unavailable")
      assert.isFalse(workspace.exists("fetched.txt"))
      assert.isTrue(messages.some((message) => Protocol.isSystemMessage(message, "permission_denied")))
      assert.isTrue(
        (yield* ScriptedModel.lastTurnRequest).includes(
          "The PermissionDenied hook indicated you may retry this tool call."
        )
      )
    }).pipe(Effect.provide(harness([
      bash("curl -s -o fetched.txt http://127.0.0.1:9/"),
      ScriptedModel.text("ok")
    ]))))

  it.live(
    "Notification fires when a permission prompt waits 6 s; its answer changes nothing",
    () =>
      Effect.gen(function*() {
        const workspace = yield* Workspace
        const notification = yield* recorder(
          "Notification",
          () => HookResult.output({ systemMessage: "NOTIFIED", ...withContext("Notification", "NOTIFICATION-CONTEXT") })
        )
        // The CLI notifies after 6 s of waiting (a constant of its own): the gate answers once it has,
        // not after a fixed sleep that a loaded machine can outrun. Should it never come, the gate
        // allows after 20 s and the assertions below fail.
        const gate = yield* recordingGate({
          until: notification.called.pipe(Effect.timeout("20 seconds"), Effect.ignore)
        })
        const messages = yield* runQuery("go").pipe(Effect.provide(Layer.mergeAll(gate.layer, notification.layer)))
        const [input] = yield* notification.inputs
        assert.strictEqual(input?.notification_type, "permission_prompt")
        assert.strictEqual(input?.message, "Claude needs your permission to use Bash")
        assert.isTrue(workspace.exists("slow.txt"), "the gate's allow still ran the tool")
        assert.isFalse(informational(messages).some((line) => line.includes("NOTIFIED")))
        const requests = yield* ScriptedModel.turnRequests
        assert.isFalse(requests.some((request) => request.includes("NOTIFICATION-CONTEXT")))
      }).pipe(Effect.provide(harness([bash("touch slow.txt"), ScriptedModel.text("ok")]))),
    30_000
  )
})

describe("turn hooks on the real CLI", () => {
  it.live("UserPromptSubmit additionalContext travels with the prompt; systemMessage shows", () =>
    Effect.gen(function*() {
      const messages = yield* runQuery("hello").pipe(
        Effect.provide(HookLayer.userPromptSubmit(() =>
          Effect.succeed(HookResult.output({
            systemMessage: "prompt screened",
            ...withContext("UserPromptSubmit", "the user is on call this week")
          }))
        ))
      )
      const [request] = yield* ScriptedModel.turnRequests
      assert.isTrue(request!.includes("UserPromptSubmit hook additional context: the user is on call this week"))
      assert.include(informational(messages), "UserPromptSubmit says: prompt screened")
    }).pipe(Effect.provide(harness([ScriptedModel.text("hi")]))))

  it.live("UserPromptExpansion (a custom slash command) additionalContext reaches the model; systemMessage shows", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      Fs.mkdirSync(workspace.file(".claude/commands"), { recursive: true })
      Fs.writeFileSync(workspace.file(".claude/commands/greet.md"), "Greet the team.")
      const expansion = yield* recorder("UserPromptExpansion", () =>
        HookResult.output({
          systemMessage: "command expanded",
          ...withContext("UserPromptExpansion", "the team is in Lisbon")
        }))
      const messages = yield* runQuery("/greet", { settingSources: ["project"] }).pipe(Effect.provide(expansion.layer))
      const [input] = yield* expansion.inputs
      assert.strictEqual(input?.command_name, "greet")
      assert.strictEqual(input?.expansion_type, "slash_command")
      const [request] = yield* ScriptedModel.turnRequests
      assert.isTrue(request!.includes("Greet the team."))
      assert.isTrue(request!.includes("UserPromptExpansion hook additional context: the team is in Lisbon"))
      assert.include(informational(messages), "UserPromptExpansion says: command expanded")
    }).pipe(Effect.provide(harness([ScriptedModel.text("hello team")]))))

  it.live("UserPromptSubmit sessionTitle renames the session; suppressOriginalPrompt does not hide the prompt", () =>
    Effect.gen(function*() {
      const messages = yield* runQuery("the secret plan").pipe(
        Effect.provide(HookLayer.userPromptSubmit(() =>
          Effect.succeed(HookResult.output({
            hookSpecificOutput: {
              hookEventName: "UserPromptSubmit",
              sessionTitle: "Planning",
              suppressOriginalPrompt: true
            }
          }))
        ))
      )
      const titles = messages.flatMap((message) =>
        Protocol.isSystemMessage(message, "session_title_changed") ? [message.title] : []
      )
      assert.deepStrictEqual(titles, ["Planning"])
      assert.isTrue((yield* ScriptedModel.turnRequests)[0]!.includes("the secret plan"))
    }).pipe(Effect.provide(harness([ScriptedModel.text("ok")]))))

  it.live("a prompt blocked by UserPromptSubmit ends its turn normally: in a session, the next prompt works", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session().pipe(
        Effect.provide(
          HookLayer.userPromptSubmit((input) =>
            Effect.succeed(input.prompt.includes("forbidden") ? HookResult.block("not that") : HookResult.empty)
          )
        )
      )
      const blocked = resultOf(yield* collect(session.turn("the forbidden thing")))
      assert.isTrue(Protocol.isResultSuccess(blocked) && blocked.result.includes("not that"))
      assert.strictEqual(resultOf(yield* collect(session.turn("something else"))).result, "answered")
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1)
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("answered")]))))

  it.live("Stop additionalContext sends the agent back with it; the next Stop has stop_hook_active", () =>
    Effect.gen(function*() {
      const stop = yield* recorder("Stop", (input) =>
        input.stop_hook_active
          ? HookResult.empty
          : HookResult.additionalContext("also summarise the test results"))
      const messages = yield* runQuery("go").pipe(Effect.provide(stop.layer))
      const turns = yield* ScriptedModel.turnRequests
      assert.strictEqual(turns.length, 2)
      assert.isTrue(turns[1]!.includes("Stop hook additional context: also summarise the test results"))
      assert.deepStrictEqual((yield* stop.inputs).map((input) => input.stop_hook_active), [false, true])
      assert.strictEqual(resultOf(messages).result, "second")
    }).pipe(Effect.provide(harness([ScriptedModel.text("first"), ScriptedModel.text("second")]))))

  it.live("Stop halt ends the turn (stop_hook_prevented) and its systemMessage shows", () =>
    Effect.gen(function*() {
      const messages = yield* runQuery("go").pipe(
        Effect.provide(HookLayer.stop(() =>
          Effect.succeed(HookResult.output({ continue: false, stopReason: "enough", systemMessage: "stopping now" }))
        ))
      )
      assert.strictEqual(resultOf(messages).terminal_reason, "stop_hook_prevented")
      assert.include(informational(messages), "Stop says: stopping now")
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1)
    }).pipe(Effect.provide(harness([ScriptedModel.text("done")]))))

  it.live("a Stop hook that always sends the agent back is overridden after CLAUDE_CODE_STOP_HOOK_BLOCK_CAP times", () =>
    Effect.gen(function*() {
      const stop = yield* recorder("Stop", () => HookResult.additionalContext("keep going"))
      const messages = yield* runQuery("go").pipe(Effect.provide(stop.layer))
      // the cap is 2 here (9 by default): the first answer and two continuations
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 3)
      assert.isTrue(
        messages.some((message) =>
          Protocol.isSystemMessage(message, "notification") && message.key === "stop-hook-block-cap"
        )
      )
      assert.strictEqual(resultOf(messages).subtype, "success")
    }).pipe(Effect.provide(harness(
      [ScriptedModel.rule(() => ScriptedModel.text("again"))],
      { env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "2" } }
    ))))

  it.live(
    "StopFailure is called when the API fails for good; its answer changes nothing and the session goes on",
    () =>
      Effect.gen(function*() {
        const failure = yield* recorder(
          "StopFailure",
          () => HookResult.output({ systemMessage: "FAILURE-NOTICE", continue: false, stopReason: "halt everything" })
        )
        const session = yield* ClaudeCode.session().pipe(Effect.provide(failure.layer))
        const failed = yield* collect(session.turn("go"))
        const failedResult = resultOf(failed)
        assert.isTrue(failedResult.is_error)
        assert.strictEqual(failedResult.terminal_reason, "api_error")
        const [input] = yield* failure.inputs
        assert.strictEqual(input?.error, "server_error")
        assert.include(input?.last_assistant_message ?? "", "API Error: 500")
        assert.isFalse(informational(failed).some((line) => line.includes("FAILURE-NOTICE")))
        // continue: false did not stop anything: the next turn runs
        assert.strictEqual(resultOf(yield* collect(session.turn("again"))).result, "recovered")
      }).pipe(
        Effect.scoped,
        Effect.provide(harness([
          // the harness sets CLAUDE_CODE_MAX_RETRIES=2: three failures exhaust the retries
          ScriptedModel.error(500),
          ScriptedModel.error(500),
          ScriptedModel.error(500),
          ScriptedModel.text("recovered")
        ]))
      ),
    30_000
  )

  it.live("MessageDisplay displayContent replaces the text the SDK stream shows; the model keeps the original", () =>
    Effect.gen(function*() {
      const display = yield* recorder("MessageDisplay", (input) =>
        HookResult.output({
          hookSpecificOutput: { hookEventName: "MessageDisplay", displayContent: input.delta.toUpperCase() }
        }))
      const session = yield* ClaudeCode.session().pipe(Effect.provide(display.layer))
      const messages = yield* collect(session.turn("go"))
      const [input] = yield* display.inputs
      assert.strictEqual(input?.delta, "quiet answer")
      const texts = messages.flatMap((message) =>
        Protocol.isAssistantMessage(message)
          ? message.message.content.flatMap((block) => (block.type === "text" ? [block.text] : []))
          : []
      )
      assert.deepStrictEqual(texts, ["QUIET ANSWER"])
      assert.strictEqual(resultOf(messages).result, "QUIET ANSWER")
      yield* collect(session.turn("again"))
      const next = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(next.includes("quiet answer"))
      assert.isFalse(next.includes("QUIET ANSWER"))
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([ScriptedModel.text("quiet answer"), ScriptedModel.text("ok")]))
    ))
})

describe("subagent hooks on the real CLI", () => {
  it.live("SubagentStart additionalContext reaches the subagent's first request, not the main loop", () =>
    Effect.gen(function*() {
      const start = yield* recorder("SubagentStart", () => withContext("SubagentStart", "answer in French"))
      yield* runQuery("delegate", { allowedTools: ["Agent"] }).pipe(Effect.provide(start.layer))
      const [input] = yield* start.inputs
      assert.strictEqual(input?.agent_type, "general-purpose")
      const turns = yield* ScriptedModel.turnRequests
      const subagent = turns.filter(ScriptedModel.isSubagentRequest)
      assert.strictEqual(subagent.length, 1)
      assert.isTrue(subagent[0]!.includes("SubagentStart hook additional context: answer in French"))
      const main = turns.filter((request) => !ScriptedModel.isSubagentRequest(request))
      assert.isFalse(main.some((request) => request.includes("SubagentStart hook additional context")))
    }).pipe(Effect.provide(harness([
      ScriptedModel.rule((request) =>
        ScriptedModel.isSubagentRequest(request) ? ScriptedModel.text("sub done") : undefined
      ),
      subagentCall,
      ScriptedModel.text("ok")
    ]))))

  it.live("SubagentStop block sends the subagent back with the reason; the next SubagentStop has stop_hook_active", () =>
    Effect.gen(function*() {
      const stop = yield* recorder(
        "SubagentStop",
        (input) => input.stop_hook_active ? HookResult.empty : HookResult.block("also list the hidden files")
      )
      yield* runQuery("delegate", { allowedTools: ["Agent"] }).pipe(Effect.provide(stop.layer))
      const subagent = (yield* ScriptedModel.turnRequests).filter(ScriptedModel.isSubagentRequest)
      assert.strictEqual(subagent.length, 2)
      assert.isTrue(
        subagent[1]!.includes(
          "SubagentStop:Callback hook blocking error from command: \"callback\": also list the hidden files"
        )
      )
      const inputs = yield* stop.inputs
      assert.deepStrictEqual(inputs.map((input) => input.stop_hook_active), [false, true])
      assert.strictEqual(inputs[0]!.agent_type, "general-purpose")
    }).pipe(Effect.provide(harness([
      ScriptedModel.rule((request) =>
        ScriptedModel.isSubagentRequest(request) ? ScriptedModel.text("sub done") : undefined
      ),
      subagentCall,
      ScriptedModel.text("ok")
    ]))))
})

describe("compaction hooks on the real CLI", () => {
  it.live("/compact: PreCompact's systemMessage joins the compaction instructions, PostCompact sees the summary, SessionStart(compact) context reaches the next request", () =>
    Effect.gen(function*() {
      const preCompact = yield* recorder(
        "PreCompact",
        () => HookResult.output({ systemMessage: "keep every file path" })
      )
      const postCompact = yield* recorder("PostCompact", () => HookResult.output({ systemMessage: "summary archived" }))
      const sessionStart = yield* recorder("SessionStart", () =>
        HookResult.output({
          systemMessage: "fresh context",
          ...withContext("SessionStart", "the ticket is ENG-42")
        }))
      const session = yield* ClaudeCode.session().pipe(
        Effect.provide(Layer.mergeAll(preCompact.layer, postCompact.layer, sessionStart.layer))
      )
      yield* collect(session.turn("go"))
      const compacted = yield* collect(session.turn("/compact keep the numbers"))
      yield* collect(session.turn("after"))

      // PreCompact: called with the /compact text; its systemMessage is appended to the instructions
      const [pre] = yield* preCompact.inputs
      assert.strictEqual(pre?.trigger, "manual")
      assert.strictEqual(pre?.custom_instructions, "keep the numbers")
      const compaction = (yield* ScriptedModel.turnRequests).filter(ScriptedModel.isCompactionRequest)
      assert.strictEqual(compaction.length, 1)
      const instructions = compaction[0]!.lastUserText
      assert.isAbove(instructions.indexOf("keep every file path"), instructions.indexOf("keep the numbers"))
      assert.isAbove(instructions.indexOf("keep the numbers"), -1)

      // PostCompact: called with the summary the model wrote; its systemMessage is shown with PreCompact's
      const [post] = yield* postCompact.inputs
      assert.include(post?.compact_summary ?? "", "the numbers are 1 2 3")
      const shown = userTexts(compacted).join("\n")
      assert.include(shown, "PreCompact [callback] completed successfully: keep every file path")
      assert.include(shown, "PostCompact [callback] completed successfully: summary archived")

      // SessionStart: only now (source compact); context reaches the next request, systemMessage shows
      const starts = yield* sessionStart.inputs
      assert.deepStrictEqual(starts.map((input) => input.source), ["compact"])
      assert.include(informational(compacted), "SessionStart:compact says: fresh context")
      const next = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(next.includes("SessionStart hook additional context: the ticket is ENG-42"))
      assert.isTrue(next.includes("the numbers are 1 2 3"), "the next request starts from the summary")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([
        ScriptedModel.compactionSummary("the numbers are 1 2 3"),
        ScriptedModel.text("first"),
        ScriptedModel.text("after compact")
      ]))
    ))

  it.live("PreCompact block skips the compaction: no summary request, the conversation is kept", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session().pipe(
        Effect.provide(HookLayer.preCompact(() => Effect.succeed(HookResult.block("not during a release"))))
      )
      yield* collect(session.turn("remember 1 2 3"))
      const compacted = yield* collect(session.turn("/compact"))
      yield* collect(session.turn("after"))
      const status = compacted.find((message) =>
        Protocol.isSystemMessage(message, "status") && message.compact_result !== undefined
      )
      assert.isTrue(
        status !== undefined && Protocol.isSystemMessage(status, "status") && status.compact_result === "failed" &&
          (status.compact_error ?? "").includes("Compaction blocked by PreCompact hook")
      )
      const turns = yield* ScriptedModel.turnRequests
      assert.isFalse(turns.some(ScriptedModel.isCompactionRequest))
      assert.isTrue(turns[turns.length - 1]!.includes("remember 1 2 3"), "the full conversation is still sent")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([
        ScriptedModel.compactionSummary("never"),
        ScriptedModel.text("noted"),
        ScriptedModel.text("still here")
      ]))
    ))
})

describe("model switch hooks on the real CLI", () => {
  it.live("PreModelSwitch deny, and a failing or hung PreModelSwitch hook, block setModel; allow switches and PostModelSwitch context reaches the next request", () =>
    Effect.gen(function*() {
      const verdict = yield* Ref.make<"deny" | "fail" | "hang" | "allow">("deny")
      const preSwitch = HookLayer.make(
        "PreModelSwitch",
        { name: "model-policy", timeout: "1 second" },
        () =>
          Effect.flatMap(Ref.get(verdict), (now) =>
            now === "deny"
              ? Effect.succeed(HookResult.deny("stay on the reviewed model"))
              : now === "fail"
              ? Effect.fail("policy store unreachable")
              : now === "hang"
              ? Effect.never
              : Effect.succeed(HookResult.allow()))
      )
      const postSwitch = yield* recorder(
        "PostModelSwitch",
        () => withContext("PostModelSwitch", "you now run on Sonnet")
      )
      const session = yield* ClaudeCode.session().pipe(Effect.provide(Layer.mergeAll(preSwitch, postSwitch.layer)))
      yield* collect(session.turn("one"))
      const original = (yield* ScriptedModel.lastTurnRequest).model

      const denied = yield* Effect.flip(session.setModel("claude-sonnet-4-5"))
      assert.strictEqual(denied._tag, "ControlError")
      assert.isTrue(denied._tag === "ControlError" && denied.errorCode === "blocked_by_hook")
      assert.include(denied.message, "stay on the reviewed model")

      // a hook that fails falls back to deny (HookResult.permissionEvents): the switch is blocked too
      yield* Ref.set(verdict, "fail")
      const failed = yield* Effect.flip(session.setModel("claude-sonnet-4-5"))
      assert.isTrue(failed._tag === "ControlError" && failed.errorCode === "blocked_by_hook")
      assert.include(failed.message, "failing closed")

      // so does one that outlives its timeout
      yield* Ref.set(verdict, "hang")
      const hung = yield* Effect.flip(session.setModel("claude-sonnet-4-5"))
      assert.isTrue(hung._tag === "ControlError" && hung.errorCode === "blocked_by_hook")
      assert.include(hung.message, "(timeout); failing closed")

      yield* collect(session.turn("two"))
      assert.strictEqual((yield* ScriptedModel.lastTurnRequest).model, original, "still on the original model")
      assert.strictEqual((yield* postSwitch.inputs).length, 0)

      yield* Ref.set(verdict, "allow")
      yield* session.setModel("claude-sonnet-4-5")
      yield* collect(session.turn("three"))
      const next = yield* ScriptedModel.lastTurnRequest
      assert.strictEqual(next.model, "claude-sonnet-4-5")
      assert.isTrue(next.includes("PostModelSwitch hook additional context: you now run on Sonnet"))
      assert.strictEqual((yield* postSwitch.inputs)[0]?.to_model, "claude-sonnet-4-5")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([ScriptedModel.text("uno"), ScriptedModel.text("dos"), ScriptedModel.text("tres")]))
    ))
})

describe("control_cancel_request on the real CLI", () => {
  it.live("interrupting a turn while a hook runs: the CLI cancels the hook_callback and the handler is interrupted (its finalizer ran)", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const started = yield* Deferred.make<void>()
      const finalized = yield* Deferred.make<void>()
      // The hook's own timeout is far away: only the CLI's cancel can stop it within the test.
      const stuck = HookLayer.preToolUse(
        { matcher: "Bash", timeout: "5 minutes" },
        () =>
          Deferred.succeed(started, void 0).pipe(
            Effect.andThen(Effect.never),
            Effect.onInterrupt(() => Deferred.succeed(finalized, void 0))
          )
      )
      const session = yield* ClaudeCode.session({ allowedTools: ["Bash"] }).pipe(Effect.provide(stuck))
      const turn = yield* Effect.forkChild(collect(session.turn("go")))
      yield* Deferred.await(started)
      yield* session.interrupt
      yield* Deferred.await(finalized).pipe(Effect.timeout("5 seconds"))
      const messages = yield* Fiber.join(turn)
      assert.strictEqual(resultOf(messages).terminal_reason, "aborted_tools")
      assert.isFalse(workspace.exists("never.txt"))
      // the session is fine: the next turn runs
      assert.strictEqual(resultOf(yield* collect(session.turn("again"))).result, "still here")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([bash("touch never.txt"), ScriptedModel.text("still here")]))
    ))
})

describe("session end on the real CLI", () => {
  it.live("SessionEnd is called when the CLI gets SIGTERM, not when its input ends", () =>
    Effect.gen(function*() {
      const ended = yield* Deferred.make<Protocol.HookInputFor<"SessionEnd">>()
      const sessionEnd = HookLayer.sessionEnd((input) => Effect.asVoid(Deferred.succeed(ended, input)))
      // input ends: the session closes normally, no SessionEnd
      yield* Effect.scoped(Effect.flatMap(
        ClaudeCode.session().pipe(Effect.provide(sessionEnd)),
        (session) => collect(session.turn("one"))
      ))
      assert.isFalse(yield* Deferred.isDone(ended))
      // SIGTERM: the CLI calls SessionEnd before it exits
      yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session().pipe(Effect.provide(sessionEnd))
        yield* collect(session.turn("two"))
        process.kill(session.pid, "SIGTERM")
        const input = yield* Deferred.await(ended).pipe(Effect.timeout("10 seconds"))
        assert.strictEqual(input.reason, "other")
      }))
    }).pipe(Effect.provide(harness([ScriptedModel.text("uno"), ScriptedModel.text("dos")]))))
})
