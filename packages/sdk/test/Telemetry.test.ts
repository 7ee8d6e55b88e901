import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Stream from "effect/Stream"
import { ClaudeCode, HookLayer, HookResult, PermissionGate, PermissionResult, Telemetry } from "../src/index.js"
import { bash, harness, Logs, Workspace } from "./utils/harness.js"
import { makeRecordingTracer } from "./utils/recordingTracer.js"

const count = (metric: Metric.Counter<number>, tags: Record<string, string>) =>
  Effect.map(Metric.value(Metric.withAttributes(metric, tags)), (state) => state.count)

const policy = Layer.mergeAll(
  HookLayer.preToolUse({ matcher: "Bash", name: "guard", timeout: "500 millis" }, (input) => {
    const command = String((input.tool_input as { command?: unknown }).command)
    if (command.startsWith("rm ")) return Effect.succeed(HookResult.deny("no deleting"))
    if (command.includes("slow")) return Effect.never
    return Effect.succeed(HookResult.empty).pipe(Effect.withSpan("policy.guard"))
  }),
  PermissionGate.layer(() => Effect.succeed(PermissionResult.allow()).pipe(Effect.withSpan("policy.gate")))
)

describe("telemetry on the real CLI", () => {
  it.live("a scripted session produces the span tree and the metric values", () => {
    const tracer = makeRecordingTracer()
    return Effect.gen(function*() {
      const workspace = yield* Workspace
      const timeoutsBefore = yield* count(Telemetry.fallbacks, { kind: "hook", cause: "timeout" })
      const denyBefore = yield* count(Telemetry.hookDecisions, { event: "PreToolUse", decision: "deny" })
      const allowBefore = yield* count(Telemetry.permissionDecisions, { tool: "Bash", decision: "allow" })
      const resultsBefore = yield* count(Telemetry.results, { subtype: "success", is_error: "false" })

      yield* ClaudeCode.query("go").pipe(Stream.runDrain, Effect.provide(policy))

      // the effects themselves
      assert.isFalse(workspace.exists("slow.txt"))
      assert.isTrue(workspace.exists("allowed.txt"))

      const byName = (name: string) => tracer.spans.filter((span) => span.name === name)
      const [session] = byName(Telemetry.spans.session)
      assert.isDefined(session)
      assert.isTrue(session.ended)
      assert.isString(session.attributes.get(Telemetry.attributes.sessionId))
      const [turn] = byName(Telemetry.spans.turn)
      assert.strictEqual(turn.parentSpanId, session.spanId)
      assert.strictEqual(turn.attributes.get(Telemetry.attributes.resultSubtype), "success")

      // One span per inbound request, named by its handler, under the turn's span.
      const hooks = byName(Telemetry.spans.hook)
      assert.strictEqual(hooks.length, 3)
      for (const hook of hooks) {
        assert.strictEqual(hook.parentSpanId, turn.spanId)
        assert.strictEqual(hook.attributes.get(Telemetry.attributes.subtype), "hook_callback")
        assert.isString(hook.attributes.get(Telemetry.attributes.requestId))
        assert.strictEqual(hook.attributes.get(Telemetry.attributes.event), "PreToolUse")
        assert.strictEqual(hook.attributes.get(Telemetry.attributes.matcher), "Bash")
        assert.isString(hook.attributes.get(Telemetry.attributes.toolUseId))
      }
      assert.deepStrictEqual(
        hooks.map((hook) => hook.attributes.get(Telemetry.attributes.decision)),
        ["deny", "empty", "fallback:deny"]
      )
      assert.strictEqual(hooks[2].attributes.get(Telemetry.attributes.fallback), "timeout")
      const permissions = byName(Telemetry.spans.permission)
      assert.strictEqual(permissions.length, 1)
      assert.strictEqual(permissions[0].parentSpanId, turn.spanId)
      assert.strictEqual(permissions[0].attributes.get(Telemetry.attributes.subtype), "can_use_tool")
      // the application's own spans, in the handlers, sit under the hook's and the permission's span
      const [guardSpan] = byName("policy.guard")
      assert.strictEqual(guardSpan?.parentSpanId, hooks[1].spanId)
      const [gateSpan] = byName("policy.gate")
      assert.strictEqual(gateSpan?.parentSpanId, permissions[0].spanId)
      assert.strictEqual(permissions[0].attributes.get(Telemetry.attributes.decision), "allow")
      assert.strictEqual(permissions[0].attributes.get(Telemetry.attributes.tool), "Bash")
      assert.isTrue(
        byName(Telemetry.spans.outbound).some((span) =>
          span.attributes.get(Telemetry.attributes.subtype) === "initialize"
        )
      )
      for (const span of tracer.spans) assert.isTrue(span.ended, `${span.name} ended`)

      assert.strictEqual((yield* count(Telemetry.fallbacks, { kind: "hook", cause: "timeout" })) - timeoutsBefore, 1)
      assert.strictEqual(
        (yield* count(Telemetry.hookDecisions, { event: "PreToolUse", decision: "deny" })) - denyBefore,
        2 // the guard's own deny, and the fallback's
      )
      assert.strictEqual(
        (yield* count(Telemetry.permissionDecisions, { tool: "Bash", decision: "allow" })) - allowBefore,
        1
      )
      assert.strictEqual(
        (yield* count(Telemetry.results, { subtype: "success", is_error: "false" })) - resultsBefore,
        1
      )

      // logs carry the request, the session and the turn; never the API key
      const env = yield* ScriptedModel.cliEnv
      const fallbackLog = (yield* Logs).find((entry) => entry.message.includes("fell back (timeout)"))
      assert.isDefined(fallbackLog)
      assert.isString(fallbackLog!.annotations.requestId)
      assert.isString(fallbackLog!.annotations.sessionId)
      assert.strictEqual(fallbackLog!.annotations.turn, 1)
      assert.strictEqual(fallbackLog!.annotations.subtype, "hook_callback")
      assert.isNumber(fallbackLog!.annotations.pid)
      for (const entry of yield* Logs) assert.notInclude(JSON.stringify(entry), env.ANTHROPIC_API_KEY)
    }).pipe(
      Effect.provide(harness([
        bash("rm -f important.txt"),
        bash("touch allowed.txt"),
        bash("touch slow.txt"),
        ScriptedModel.text("done")
      ])),
      Effect.provide(tracer.layer)
    )
  })
})
