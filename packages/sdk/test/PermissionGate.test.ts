/**
 * The permission gate at the router's boundary: a `can_use_tool` line decoded
 * by the Protocol codec, handed to `PermissionGate.inboundHandler` as the
 * router hands it (`handle`, or `undecodable` for a line the codec rejects),
 * and the answer the router writes (the guarded run's settled JSON). What the
 * CLI does with the answer (the rewritten command runs, the denied file is
 * never made, the turn stops) is proven by the real-CLI suite at the end.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as Ref from "effect/Ref"
import * as References from "effect/References"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import * as ClaudeCode from "../src/ClaudeCode.js"
import * as GuardedRun from "../src/internal/guardedRun.js"
import * as PermissionGate from "../src/PermissionGate.js"
import * as PermissionResult from "../src/PermissionResult.js"
import * as Protocol from "../src/Protocol.js"
import { bash, harness, Logs, Workspace } from "./utils/harness.js"
import { controlLine, type Reply, replyTo } from "./utils/inbound.js"

const responseOf = (reply: Reply): unknown => {
  if (!("response" in reply)) throw new Error(`an error reply: ${reply.error}`)
  return reply.response
}

/** The deny of a failed gate (whose `reason` is the fallback reason), as the CLI receives it. */
const failClosed = (reason: GuardedRun.FallbackReason) => ({
  behavior: "deny",
  message: `Denied: the permission gate did not give a valid answer (${reason}); failing closed.`
})

// -----------------------------------------------------------------------------
// Requests and gates
// -----------------------------------------------------------------------------

const bashRequest = {
  subtype: "can_use_tool" as const,
  tool_name: "Bash",
  input: { command: "echo original > original.txt", description: "write a file" },
  tool_use_id: "toolu_01",
  permission_suggestions: [{
    type: "addRules",
    rules: [{ toolName: "Bash", ruleContent: "echo:*" }],
    behavior: "allow",
    destination: "localSettings"
  }] satisfies ReadonlyArray<Protocol.PermissionUpdate>
}

const gateOf = <E>(handler: PermissionGate.Handler<E, never>, options?: PermissionGate.Options) =>
  Effect.map(PermissionGate.make(handler, options), (gate) => PermissionGate.inboundHandler(gate))

/** The warnings logged while `effect` runs, each with its cause. */
const captureWarnings = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make<unknown, void>(({ cause, logLevel, message }) => {
      if (logLevel !== "Warn") return
      const parts = Array.isArray(message) ? message : [message]
      lines.push([...parts.map(String), ...(cause.reasons.length === 0 ? [] : [Cause.pretty(cause)])].join(" "))
    })
    const value = yield* effect.pipe(Effect.provide(Logger.layer([logger])))
    return { value, warnings: lines }
  })

// -----------------------------------------------------------------------------

describe("PermissionResult", () => {
  it("allow: the behaviour alone, or with the rewritten input and permission updates given", () => {
    assert.deepStrictEqual(PermissionResult.allow(), { behavior: "allow" })
    assert.deepStrictEqual(PermissionResult.allow({ updatedInput: undefined, updatedPermissions: undefined }), {
      behavior: "allow"
    })
    const updatedPermissions: ReadonlyArray<Protocol.PermissionUpdate> = [{
      type: "setMode",
      mode: "plan",
      destination: "session"
    }]
    assert.deepStrictEqual(PermissionResult.allow({ updatedInput: { command: "ls" }, updatedPermissions }), {
      behavior: "allow",
      updatedInput: { command: "ls" },
      updatedPermissions
    })
  })

  it("deny: the message the model gets, and interrupt only when given", () => {
    assert.deepStrictEqual(PermissionResult.deny("no writing today"), { behavior: "deny", message: "no writing today" })
    assert.deepStrictEqual(PermissionResult.deny("stop", { interrupt: true }), {
      behavior: "deny",
      message: "stop",
      interrupt: true
    })
    assert.deepStrictEqual(PermissionResult.deny("go on", { interrupt: false }), {
      behavior: "deny",
      message: "go on",
      interrupt: false
    })
    assert.notProperty(PermissionResult.deny("x", { interrupt: undefined }), "interrupt")
  })

  it("every constructed result is a PermissionResult of the protocol and encodes as itself", () => {
    const results = [
      PermissionResult.allow(),
      PermissionResult.allow({
        updatedInput: { command: "ls", nested: { list: [1, "two", null] } },
        updatedPermissions: [
          {
            type: "addRules",
            rules: [{ toolName: "Bash", ruleContent: "ls:*" }],
            behavior: "allow",
            destination: "session"
          },
          { type: "addDirectories", directories: ["/tmp/work"], destination: "session" }
        ]
      }),
      PermissionResult.deny("no"),
      PermissionResult.deny("stop", { interrupt: true })
    ]
    for (const result of results) {
      const encoded = Schema.encodeUnknownSync(Protocol.PermissionResult)(result)
      assert.deepStrictEqual(encoded, result)
      assert.deepStrictEqual(
        Schema.decodeUnknownSync(Protocol.PermissionResult)(JSON.parse(JSON.stringify(encoded))),
        result
      )
    }
  })
})

describe("PermissionGate.inboundHandler: the gate's answers", () => {
  it.effect("allow with updatedInput: the rewritten input is the answer; the gate sees the decoded request", () =>
    Effect.gen(function*() {
      const seen = yield* Ref.make<
        ReadonlyArray<readonly [Protocol.CanUseToolRequest, PermissionGate.PermissionContext]>
      >([])
      const handler = yield* gateOf((request, context) =>
        Effect.as(
          Ref.update(seen, (all) => [...all, [request, context] as const]),
          PermissionResult.allow({ updatedInput: { ...request.input, command: "echo gated > gated.txt" } })
        )
      )
      const reply = yield* replyTo(handler, controlLine(bashRequest, "req_7"))
      assert.deepStrictEqual(responseOf(reply), {
        behavior: "allow",
        updatedInput: { command: "echo gated > gated.txt", description: "write a file" }
      })
      const [[request, context]] = yield* Ref.get(seen)
      assert.strictEqual(request.tool_name, "Bash")
      assert.deepStrictEqual(request.input, bashRequest.input)
      assert.deepStrictEqual(context, {
        requestId: "req_7",
        toolUseId: "toolu_01",
        suggestions: bashRequest.permission_suggestions
      })
    }))

  it.effect("deny with a message: the answer carries it", () =>
    Effect.gen(function*() {
      const handler = yield* gateOf(() => Effect.succeed(PermissionResult.deny("no writing today")))
      assert.deepStrictEqual(responseOf(yield* replyTo(handler, controlLine(bashRequest))), {
        behavior: "deny",
        message: "no writing today"
      })
    }))

  it.effect("deny with interrupt: the answer stops the turn", () =>
    Effect.gen(function*() {
      const handler = yield* gateOf(() => Effect.succeed(PermissionResult.deny("stop everything", { interrupt: true })))
      assert.deepStrictEqual(responseOf(yield* replyTo(handler, controlLine(bashRequest))), {
        behavior: "deny",
        message: "stop everything",
        interrupt: true
      })
    }))

  it.effect("updatedPermissions: the rules the gate adds are sent as it wrote them", () =>
    Effect.gen(function*() {
      const handler = yield* gateOf((request) =>
        Effect.succeed(PermissionResult.allow({
          updatedPermissions: [{
            type: "addRules",
            rules: [{ toolName: request.tool_name, ruleContent: "touch:*" }],
            behavior: "allow",
            destination: "session"
          }]
        }))
      )
      assert.deepStrictEqual(responseOf(yield* replyTo(handler, controlLine(bashRequest))), {
        behavior: "allow",
        updatedPermissions: [{
          type: "addRules",
          rules: [{ toolName: "Bash", ruleContent: "touch:*" }],
          behavior: "allow",
          destination: "session"
        }]
      })
    }))

  it.effect("the gate runs with the services it was made with, under the caller's log annotations", () =>
    Effect.gen(function*() {
      class Policy extends Context.Service<Policy, { readonly allowed: ReadonlySet<string> }>()("test/Policy") {}
      const annotations = yield* Ref.make<ReadonlyArray<unknown>>([])
      const gate = yield* PermissionGate.make((request) =>
        Effect.gen(function*() {
          const policy = yield* Policy
          yield* Effect.withFiber((fiber) =>
            Ref.update(annotations, (all) => [...all, fiber.getRef(References.CurrentLogAnnotations).at])
          )
          return policy.allowed.has(request.tool_name) ? PermissionResult.allow() : PermissionResult.deny("not listed")
        })
      ).pipe(Effect.provideService(Policy, { allowed: new Set(["Read"]) }), Effect.annotateLogs("at", "make"))
      const handler = PermissionGate.inboundHandler(gate)
      const reply = yield* replyTo(handler, controlLine(bashRequest)).pipe(Effect.annotateLogs("at", "call"))
      assert.deepStrictEqual(responseOf(reply), { behavior: "deny", message: "not listed" })
      const read = yield* replyTo(handler, controlLine({ ...bashRequest, tool_name: "Read" }))
      assert.deepStrictEqual(responseOf(read), { behavior: "allow" })
      assert.deepStrictEqual(yield* Ref.get(annotations), ["call", undefined])
    }))
})

describe("PermissionGate.inboundHandler: fail closed", () => {
  it.effect("a gate that fails, dies or throws is a deny naming the reason; the warning carries the cause", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<[PermissionGate.Handler<string, never>, GuardedRun.FallbackReason, string]> = [
        [() => Effect.fail("gate backend down"), "failure", "gate backend down"],
        [() => Effect.die(new Error("gate bug")), "defect", "gate bug"],
        [
          () => {
            throw new Error("thrown before any Effect")
          },
          "defect",
          "thrown before any Effect"
        ],
        [
          () => Effect.flatMap(Effect.yieldNow, () => Effect.fail("failed in its fiber")),
          "failure",
          "failed in its fiber"
        ]
      ]
      for (const [gate, reason, cause] of cases) {
        const { value, warnings } = yield* captureWarnings(
          Effect.flatMap(gateOf(gate), (handler) => replyTo(handler, controlLine(bashRequest)))
        )
        assert.deepStrictEqual(responseOf(value), failClosed(reason), cause)
        assert.strictEqual(warnings.length, 1, cause)
        assert.include(warnings[0], `permission gate fell back to deny (${reason})`)
        assert.include(warnings[0], cause)
      }
    }))

  it.effect("an answer that is not a permission result is a deny; the warning names the wrong field", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<[unknown, string]> = [
        // The tag field is named, not the whole value (effect 4's own formatter says only "Expected an object").
        [{ behavior: "perhaps" }, `behavior: Expected "allow" | "deny", actual "perhaps"`],
        [{ behavior: "deny" }, "message"],
        [{ behavior: "allow", updatedInput: "rm -rf /" }, "updatedInput"],
        [undefined, "the permission result"],
        [{ behavior: "allow", updatedInput: { big: 1n } }, "cannot be written as JSON"]
      ]
      for (const [answer, problem] of cases) {
        const { value, warnings } = yield* captureWarnings(
          Effect.flatMap(
            gateOf(() => Effect.succeed(answer as Protocol.PermissionResult)),
            (handler) => replyTo(handler, controlLine(bashRequest))
          )
        )
        assert.deepStrictEqual(responseOf(value), failClosed("invalid_output"), problem)
        assert.strictEqual(warnings.length, 1, problem)
        assert.include(warnings[0], "(invalid_output)")
        assert.include(warnings[0], problem)
      }
    }))

  it.effect("a gate that hangs past its own timeout is a deny at the deadline, on the Clock", () =>
    Effect.gen(function*() {
      const handler = yield* gateOf(() => Effect.never, { timeout: "500 millis" })
      const fiber = yield* Effect.forkChild(replyTo(handler, controlLine(bashRequest)), { startImmediately: true })
      yield* TestClock.adjust("499 millis")
      assert.isUndefined(fiber.pollUnsafe(), "the gate still has time")
      yield* TestClock.adjust("1 millis")
      assert.deepStrictEqual(responseOf(yield* Fiber.join(fiber)), failClosed("timeout"))
    }))

  it.effect("a gate without a timeout of its own gets the session's (60 s by default)", () =>
    Effect.gen(function*() {
      const gate = yield* PermissionGate.make(() => Effect.never)
      for (
        const [handler, millis] of [[PermissionGate.inboundHandler(gate), 60_000], [
          PermissionGate.inboundHandler(gate, "5 seconds"),
          5_000
        ]] as const
      ) {
        const fiber = yield* Effect.forkChild(replyTo(handler, controlLine(bashRequest)), { startImmediately: true })
        yield* TestClock.adjust(millis - 1)
        assert.isUndefined(fiber.pollUnsafe(), `${millis}: the gate still has time`)
        yield* TestClock.adjust(1)
        assert.deepStrictEqual(responseOf(yield* Fiber.join(fiber)), failClosed("timeout"))
      }
    }))

  it.effect("a request the codec cannot read is denied, saying so, without calling the gate", () =>
    Effect.gen(function*() {
      const called = yield* Ref.make(false)
      const handler = yield* gateOf(() => Effect.as(Ref.set(called, true), PermissionResult.allow()))
      const { tool_use_id: _, ...withoutToolUseId } = bashRequest
      for (
        const request of [withoutToolUseId, { ...bashRequest, input: "rm -rf /" }, { ...bashRequest, tool_name: 7 }]
      ) {
        const line = controlLine(request)
        assert.isTrue(Result.isFailure(Protocol.decodeStdoutLine(line)), line)
        const reply = yield* replyTo(handler, line)
        assert.deepStrictEqual(responseOf(reply), {
          behavior: "deny",
          message: "Denied: the SDK could not read this permission request; failing closed."
        })
        assert.isTrue(Schema.is(Protocol.PermissionResult)(responseOf(reply)))
      }
      assert.isFalse(yield* Ref.get(called))
    }))
})

describe("PermissionGate.decide", () => {
  it.effect("the outcome: the result, and the fallback that answered, if any", () =>
    Effect.gen(function*() {
      const context = { requestId: "r", toolUseId: "toolu_01", suggestions: [] }
      const request = Schema.decodeUnknownSync(Protocol.CanUseToolRequest)(bashRequest)
      const allowing = yield* PermissionGate.make(() => Effect.succeed(PermissionResult.allow()))
      const allowed = yield* PermissionGate.decide(allowing, request, context)
      assert.deepStrictEqual([allowed.result, allowed.fallback], [{ behavior: "allow" }, undefined])
      const failing = yield* PermissionGate.make(() => Effect.fail("down"))
      const failed = yield* PermissionGate.decide(failing, request, context).pipe(Effect.provide(Logger.layer([])))
      assert.deepStrictEqual([failed.result, failed.fallback], [failClosed("failure"), "failure"])
      const hanging = yield* PermissionGate.make(() => Effect.never)
      const fiber = yield* Effect.forkChild(
        PermissionGate.decide(hanging, request, context, "2 seconds").pipe(Effect.provide(Logger.layer([]))),
        { startImmediately: true }
      )
      yield* TestClock.adjust("2 seconds")
      const timedOut = yield* Fiber.join(fiber)
      assert.deepStrictEqual([timedOut.result, timedOut.fallback, timedOut.durationMillis], [
        failClosed("timeout"),
        "timeout",
        2_000
      ])
    }))
})

// One of several Arbitraries, each as likely (effect's Arbitrary composes fast-check's `oneof` from an index).
const oneOf = <A>(...arbitraries: ReadonlyArray<Arbitrary.Arbitrary<A>>): Arbitrary.Arbitrary<A> =>
  Arbitrary.flatMap(
    Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: arbitraries.length - 1 }))),
    (index) => arbitraries[index]
  )

type Gate = PermissionGate.Handler<unknown, never>

const isPermissionResult = Schema.is(Protocol.PermissionResult)

// Any answer that is not a permission result the CLI could read: JSON of any shape, and what JSON cannot write.
const garbage: Arbitrary.Arbitrary<unknown> = Arbitrary.filter(
  oneOf<unknown>(
    Arbitrary.schema(Schema.Unknown),
    Arbitrary.map(Arbitrary.schema(Schema.String), (behavior) => ({ behavior, message: "m" })),
    Arbitrary.map(Arbitrary.schema(Schema.BigInt), (n) => ({ behavior: "allow", updatedInput: { n } })),
    Arbitrary.map(Arbitrary.schema(Schema.Unknown), (message) => ({ behavior: "deny", message }))
  ),
  (answer) => !isPermissionResult(answer) || GuardedRun.jsonProblem(answer) !== undefined
)

// Gates that do not answer validly, with the fallback reason each must be denied for.
type FailingGate = readonly [Gate, GuardedRun.FallbackReason]

const failingGates: Arbitrary.Arbitrary<FailingGate> = oneOf<FailingGate>(
  Arbitrary.map(Arbitrary.schema(Schema.String), (error) => [() => Effect.fail(error), "failure"] as const),
  Arbitrary.map(Arbitrary.schema(Schema.String), (message) => [() => Effect.die(message), "defect"] as const),
  Arbitrary.map(Arbitrary.schema(Schema.String), (message) =>
    [() => {
      throw new Error(message)
    }, "defect"] as const),
  Arbitrary.Constant([() => Effect.never, "timeout"] as const),
  Arbitrary.Constant([() => Effect.interrupt, "defect"] as const),
  Arbitrary.map(
    garbage,
    (answer) => [() => Effect.succeed(answer as Protocol.PermissionResult), "invalid_output"] as const
  )
)

describe("PermissionGate: deny by default, whatever the request and however the gate fails", () => {
  it.effect.prop(
    "any decodable can_use_tool request, any failing gate: a deny naming the reason, never an allow",
    [Arbitrary.schema(Protocol.CanUseToolRequest), failingGates, Arbitrary.schema(Schema.String)],
    ([request, [gate, reason], requestId]) =>
      Effect.gen(function*() {
        const handler = yield* gateOf(gate, { timeout: "1 second" })
        const fiber = yield* Effect.forkChild(replyTo(handler, controlLine(request, requestId)), {
          startImmediately: true
        })
        yield* TestClock.adjust("1 second")
        const response = responseOf(yield* Fiber.join(fiber))
        assert.deepStrictEqual(response, failClosed(reason))
        assert.isTrue(isPermissionResult(response))
      }).pipe(Effect.provide(Logger.layer([]))),
    { arbitrary: { runs: 200 } }
  )

  it.effect.prop(
    "any can_use_tool request the codec cannot read: a deny, and the gate is never asked",
    [
      Arbitrary.schema(Protocol.CanUseToolRequest),
      Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 3 })))
    ],
    ([request, breakage]) =>
      Effect.gen(function*() {
        const called = yield* Ref.make(false)
        const handler = yield* gateOf(() => Effect.as(Ref.set(called, true), PermissionResult.allow()))
        const { tool_use_id: _, ...withoutToolUseId } = request
        const broken = [
          withoutToolUseId,
          { ...request, input: [request.input] },
          { ...request, tool_name: null },
          { ...request, permission_suggestions: [{ type: "addRules" }] }
        ][breakage]
        const reply = yield* replyTo(handler, controlLine(broken))
        assert.deepStrictEqual(responseOf(reply), {
          behavior: "deny",
          message: "Denied: the SDK could not read this permission request; failing closed."
        })
        assert.isFalse(yield* Ref.get(called))
      }),
    { arbitrary: { runs: 100 } }
  )
})

// -----------------------------------------------------------------------------
// What the CLI does with the gate's answers
// -----------------------------------------------------------------------------

const runQuery = (prompt: string) => Stream.runCollect(ClaudeCode.query(prompt))

const resultOf = (messages: ReadonlyArray<Protocol.Message>): any => messages.find((m) => m.type === "result")

describe("PermissionGate on the real CLI", () => {
  it.live("allow with updatedInput: the rewritten command is what ran", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      yield* runQuery("go").pipe(Effect.provide(PermissionGate.layer((request) =>
        Effect.succeed(PermissionResult.allow({
          updatedInput: { ...request.input, command: "echo gated > gated.txt" }
        }))
      )))
      assert.strictEqual(workspace.read("gated.txt").trim(), "gated")
      assert.isFalse(workspace.exists("original.txt"))
    }).pipe(Effect.provide(harness([bash("echo original > original.txt"), ScriptedModel.text("ok")]))))

  it.live("deny with a message: the tool does not run and the model gets the message", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const messages = yield* runQuery("go").pipe(
        Effect.provide(PermissionGate.layer(() => Effect.succeed(PermissionResult.deny("no writing today"))))
      )
      assert.isFalse(workspace.exists("denied.txt"))
      const results = yield* ScriptedModel.toolResults
      assert.include(results[0].content, "no writing today")
      assert.isTrue(results[0].isError)
      assert.strictEqual(resultOf(messages).subtype, "success")
    }).pipe(Effect.provide(harness([bash("touch denied.txt"), ScriptedModel.text("ok")]))))

  it.live("deny with interrupt: the tool does not run and the turn stops", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const messages = yield* runQuery("go").pipe(Effect.provide(PermissionGate.layer(() =>
        Effect.succeed(PermissionResult.deny("stop everything", { interrupt: true }))
      )))
      assert.isFalse(workspace.exists("interrupted.txt"))
      const result = resultOf(messages)
      assert.strictEqual(result.subtype, "error_during_execution")
      // the model was not asked again after the denial
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1)
    }).pipe(Effect.provide(harness([bash("touch interrupted.txt"), ScriptedModel.text("never")]))))

  it.live("updatedPermissions: a later identical call is not asked again", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const asked = yield* Ref.make(0)
      yield* runQuery("go").pipe(Effect.provide(PermissionGate.layer((request) =>
        Effect.as(
          Ref.update(asked, (n) => n + 1),
          PermissionResult.allow({
            updatedPermissions: [{
              type: "addRules",
              rules: [{ toolName: request.tool_name, ruleContent: "touch:*" }],
              behavior: "allow",
              destination: "session"
            }]
          })
        )
      )))
      assert.isTrue(workspace.exists("one.txt"))
      assert.isTrue(workspace.exists("two.txt"))
      assert.strictEqual(yield* Ref.get(asked), 1)
    }).pipe(Effect.provide(harness([bash("touch one.txt"), bash("touch two.txt"), ScriptedModel.text("ok")]))))

  it.live("a gate that fails, dies, hangs or answers garbage falls back to deny", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const gates = [
        PermissionGate.layer(() => Effect.fail("gate backend down")),
        PermissionGate.layer(() => Effect.die(new Error("gate bug"))),
        PermissionGate.layer(() => Effect.never, { timeout: "500 millis" }),
        PermissionGate.layer(() => Effect.succeed({ behavior: "perhaps" } as unknown as Protocol.PermissionResult))
      ]
      for (const [index, gate] of gates.entries()) {
        if (index > 0) yield* ScriptedModel.push(bash(`touch gate${index}.txt`), ScriptedModel.text("ok"))
        yield* runQuery("go").pipe(Effect.provide(gate))
      }
      for (const index of [0, 1, 2, 3]) assert.isFalse(workspace.exists(`gate${index}.txt`), `gate${index}.txt`)
      const results = yield* ScriptedModel.toolResults
      assert.strictEqual(results.length, 4)
      for (const result of results) assert.include(result.content, "failing closed")
      const warnings = (yield* Logs).filter((entry) => entry.level === "Warn").map((entry) => entry.message)
      for (const reason of ["failure", "defect", "timeout", "invalid_output"]) {
        assert.isTrue(warnings.some((w) => w.includes(`(${reason})`)), reason)
      }
    }).pipe(Effect.provide(harness([bash("touch gate0.txt"), ScriptedModel.text("ok")]))))
})
