import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as ChildProcess from "effect/process/ChildProcess"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as CliLocator from "../src/CliLocator.js"
import * as HookCommand from "../src/HookCommand.js"
import * as HookLayer from "../src/HookLayer.js"
import * as HookResult from "../src/HookResult.js"
import * as Protocol from "../src/Protocol.js"
import { hookProgram, launchedHookProgram, removeHookPrograms } from "./fixtures/hook-command-build.js"
import { agent, checkPolicy, installPolicy } from "./fixtures/hook-command-guide.js"
import { bashGuard } from "./fixtures/hook-command-layers.js"
import { harness, Workspace } from "./utils/harness.js"

afterAll(removeHookPrograms)

const bash = (command: string) => ScriptedModel.toolUse("Bash", { command, description: "run it" })

// -----------------------------------------------------------------------------
// Inputs
// -----------------------------------------------------------------------------

const base = {
  session_id: "5f1c7a3e-2b9d-4c61-8e0f-3a7d9b2c4e10",
  transcript_path: "/home/user/.claude/projects/p/5f1c7a3e.jsonl",
  cwd: "/home/user/project",
  permission_mode: "default",
  effort: { level: "medium" }
}

const preToolUse = (tool: string, toolInput: Record<string, unknown>) =>
  JSON.stringify({
    ...base,
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: "toolu_01"
  })

const stopInput = JSON.stringify({ ...base, hook_event_name: "Stop", stop_hook_active: false })

const parse = (outcome: HookCommand.Outcome): any => JSON.parse(outcome.stdout)

const decide = (decision: "allow" | "deny" | "ask" | "defer", reason: string = decision) =>
  HookLayer.preToolUse({ matcher: "Bash", name: decision }, () =>
    Effect.succeed(
      decision === "allow"
        ? HookResult.allow({ reason })
        : decision === "deny"
        ? HookResult.deny(reason)
        : decision === "ask"
        ? HookResult.ask(reason)
        : HookResult.defer
    ))

// -----------------------------------------------------------------------------
// The stdin → stdout contract, in process
// -----------------------------------------------------------------------------

describe("HookCommand.respond", () => {
  it.effect("a deny on PreToolUse: the deny JSON on stdout, the reason on stderr, exit 2", () =>
    Effect.gen(function*() {
      const outcome = yield* HookCommand.respond(bashGuard, preToolUse("Bash", { command: "rm forbidden" }))
      assert.strictEqual(outcome.exitCode, 2)
      assert.strictEqual(outcome.event, "PreToolUse")
      assert.deepStrictEqual(parse(outcome).hookSpecificOutput.permissionDecision, "deny")
      assert.include(parse(outcome).hookSpecificOutput.permissionDecisionReason, "forbidden")
      assert.include(outcome.stderr, "touches something forbidden")
      assert.isTrue(outcome.stdout.endsWith("}\n"))
      assert.strictEqual(outcome.stdout.trim().split("\n").length, 1)
    }))

  it.effect("no opinion: {} and exit 0; `denyExitCode: 0` keeps a deny at exit 0", () =>
    Effect.gen(function*() {
      const allowed = yield* HookCommand.respond(bashGuard, preToolUse("Bash", { command: "ls" }))
      assert.strictEqual(allowed.stdout, "{}\n")
      assert.strictEqual(allowed.exitCode, 0)
      assert.strictEqual(allowed.stderr, "")
      const denied = yield* HookCommand.respond(bashGuard, preToolUse("Bash", { command: "forbidden" }), {
        denyExitCode: 0
      })
      assert.strictEqual(denied.exitCode, 0)
      assert.strictEqual(parse(denied).hookSpecificOutput.permissionDecision, "deny")
    }))

  it.effect("only hooks whose event and matcher select the input run (the CLI's matcher rules)", () =>
    Effect.gen(function*() {
      const ran = yield* Ref.make<ReadonlyArray<string>>([])
      const hook = (name: string, matcher: string | undefined) =>
        HookLayer.preToolUse({ matcher, name }, () => Ref.update(ran, (all) => [...all, name]))
      const layers = Layer.mergeAll(
        hook("bash", "Bash"),
        hook("list", "Write|Bash"),
        hook("regex", "Ba.*"),
        hook("all", undefined),
        hook("star", "*"),
        hook("write", "Write"),
        hook("lowercase", "bash"),
        hook("ask", "AskUserQuestion|mcp__.*__AskUserQuestion"),
        HookLayer.postToolUse({ matcher: "Bash" }, () => Ref.update(ran, (all) => [...all, "post"]))
      )
      yield* HookCommand.respond(layers, preToolUse("Bash", { command: "ls" }))
      assert.deepStrictEqual([...(yield* Ref.get(ran))].sort(), ["all", "bash", "list", "regex", "star"])
      yield* Ref.set(ran, [])
      yield* HookCommand.respond(layers, preToolUse("mcp__team__AskUserQuestion", { questions: [] }))
      assert.deepStrictEqual([...(yield* Ref.get(ran))].sort(), ["all", "ask", "star"])
    }))

  it.effect("events with nothing to match call every hook of the event, whatever its matcher", () =>
    Effect.gen(function*() {
      const outcome = yield* HookCommand.respond(
        HookLayer.stop(() => Effect.succeed(HookResult.block("keep going")), { matcher: "anything" }),
        stopInput
      )
      assert.deepStrictEqual(parse(outcome), { decision: "block", reason: "keep going" })
      assert.strictEqual(outcome.exitCode, 0)
    }))

  it.live("matching hooks run at once, and deny > ask > allow > defer (the first at the winning rank explains)", () =>
    Effect.gen(function*() {
      // Each hook waits for the other: run one after the other, they would time out.
      const first = yield* Deferred.make<void>()
      const second = yield* Deferred.make<void>()
      const meet = (mine: Deferred.Deferred<void>, theirs: Deferred.Deferred<void>, answer: HookResult.HookResult) =>
        HookLayer.preToolUse(
          { matcher: "Bash", timeout: "2 seconds" },
          () => Effect.andThen(Deferred.succeed(mine, undefined), Effect.as(Deferred.await(theirs), answer))
        )
      const together = yield* HookCommand.respond(
        Layer.mergeAll(meet(first, second, HookResult.allow()), meet(second, first, HookResult.ask("check"))),
        preToolUse("Bash", { command: "ls" })
      )
      assert.strictEqual(parse(together).hookSpecificOutput.permissionDecision, "ask")
      assert.isTrue(together.runs.every((run) => run.fallback === undefined))

      const ranked = (...decisions: ReadonlyArray<"allow" | "deny" | "ask" | "defer">) =>
        Effect.map(
          HookCommand.respond(
            Layer.mergeAll(Layer.empty, ...decisions.map((d, i) => decide(d, `${d}-${i}`))),
            preToolUse("Bash", { command: "ls" })
          ),
          (outcome) => parse(outcome).hookSpecificOutput
        )
      assert.deepStrictEqual(yield* ranked("allow", "deny", "ask", "deny"), {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "deny-1"
      })
      assert.strictEqual((yield* ranked("allow", "ask", "defer")).permissionDecision, "ask")
      assert.strictEqual((yield* ranked("defer", "allow")).permissionDecision, "allow")
      assert.strictEqual((yield* ranked("defer")).permissionDecision, "defer")
    }))

  it.effect("a rewrite survives allow and ask, not deny; contexts and system messages are all kept", () =>
    Effect.gen(function*() {
      const rewrite = HookLayer.preToolUse(
        { matcher: "Bash" },
        () => Effect.succeed(HookResult.allow({ updatedInput: { command: "ls -la" } }))
      )
      const context = HookLayer.preToolUse({ matcher: "Bash" }, () =>
        Effect.succeed({
          systemMessage: "one",
          hookSpecificOutput: { hookEventName: "PreToolUse" as const, additionalContext: "ctx-a" }
        }))
      const context2 = HookLayer.preToolUse({ matcher: "Bash" }, () =>
        Effect.succeed({
          systemMessage: "two",
          hookSpecificOutput: { hookEventName: "PreToolUse" as const, additionalContext: "ctx-b" }
        }))
      const allowed = parse(
        yield* HookCommand.respond(Layer.mergeAll(rewrite, context, context2), preToolUse("Bash", { command: "ls" }))
      )
      assert.deepStrictEqual(allowed, {
        systemMessage: "one\ntwo",
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          updatedInput: { command: "ls -la" },
          additionalContext: "ctx-a\nctx-b"
        }
      })
      const denied = parse(
        yield* HookCommand.respond(Layer.mergeAll(rewrite, decide("deny")), preToolUse("Bash", { command: "ls" }))
      )
      assert.strictEqual(denied.hookSpecificOutput.permissionDecision, "deny")
      assert.isUndefined(denied.hookSpecificOutput.updatedInput)
    }))

  it.effect("bad stdin: a clear message on stderr and the event's fallback", () =>
    Effect.gen(function*() {
      // Not JSON: all the program's hooks are PreToolUse hooks, so that is the event, and it denies.
      const garbage = yield* HookCommand.respond(bashGuard, "this is not json")
      assert.strictEqual(garbage.exitCode, 2)
      assert.strictEqual(garbage.fallback, "invalid_input")
      assert.strictEqual(parse(garbage).hookSpecificOutput.permissionDecision, "deny")
      assert.include(garbage.stderr, "stdin is not JSON")
      assert.include(parse(garbage).hookSpecificOutput.permissionDecisionReason, "stdin is not JSON")

      // The event is known, the rest is broken.
      const broken = yield* HookCommand.respond(
        bashGuard,
        JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash" })
      )
      assert.strictEqual(broken.exitCode, 2)
      assert.strictEqual(parse(broken).hookSpecificOutput.permissionDecision, "deny")
      assert.include(broken.stderr, "does not match its schema")
      assert.include(broken.stderr, "session_id")

      // Empty stdin.
      const empty = yield* HookCommand.respond(bashGuard, "")
      assert.include(empty.stderr, "stdin was empty")
      assert.strictEqual(empty.exitCode, 2)

      // A non-permission event falls back to {}.
      const stop = yield* HookCommand.respond(
        HookLayer.stop(() => Effect.succeed(HookResult.block("no"))),
        JSON.stringify({ hook_event_name: "Stop" })
      )
      assert.strictEqual(stop.stdout, "{}\n")
      assert.strictEqual(stop.exitCode, 0)
      assert.include(stop.stderr, "does not match its schema")

      // Hooks on several events and unreadable input: the event is unknown; exit 2 alone answers.
      const unknown = yield* HookCommand.respond(
        Layer.mergeAll(bashGuard, HookLayer.stop(() => Effect.void)),
        "[1, 2"
      )
      assert.strictEqual(unknown.exitCode, 2)
      assert.strictEqual(unknown.stdout, "")
      assert.isUndefined(unknown.event)
      assert.include(unknown.stderr, "exit code 2")
    }))

  it.effect("an event this SDK does not know yet decodes, and finds no hook: {}", () =>
    Effect.gen(function*() {
      const outcome = yield* HookCommand.respond(
        bashGuard,
        JSON.stringify({ ...base, hook_event_name: "SomeFutureEvent", extra: 1 })
      )
      assert.strictEqual(outcome.stdout, "{}\n")
      assert.strictEqual(outcome.exitCode, 0)
    }))

  it.effect("failing, dying and garbage-answering hooks fall back to deny, and say so", () =>
    Effect.gen(function*() {
      const failing = HookLayer.preToolUse({ matcher: "Bash", name: "failing" }, () => Effect.fail("boom"))
      const dying = HookLayer.preToolUse({ matcher: "Bash", name: "dying" }, () => Effect.die(new Error("crash")))
      const garbage = HookLayer.preToolUse({ matcher: "Bash", name: "garbage" }, () =>
        Effect.succeed({ hookSpecificOutput: { hookEventName: "Stop" } } as any))
      for (const layer of [failing, dying, garbage]) {
        const outcome = yield* HookCommand.respond(layer, preToolUse("Bash", { command: "ls" }))
        assert.strictEqual(outcome.exitCode, 2)
        assert.strictEqual(parse(outcome).hookSpecificOutput.permissionDecision, "deny")
        assert.isDefined(outcome.runs[0]!.fallback)
        assert.include(outcome.stderr, "fell back")
      }
      const post = yield* HookCommand.respond(
        HookLayer.postToolUse({ matcher: "Bash" }, () =>
          Effect.die("crash")),
        JSON.stringify({
          ...base,
          hook_event_name: "PostToolUse",
          tool_name: "Bash",
          tool_input: {},
          tool_response: {},
          tool_use_id: "t"
        })
      )
      assert.strictEqual(post.stdout, "{}\n")
      assert.strictEqual(post.exitCode, 0)
    }))

  it.effect("a hook layer that fails to build: the fallback, with the failure on stderr", () =>
    Effect.gen(function*() {
      const broken = Layer.merge(bashGuard, Layer.effectDiscard(Effect.fail("no config")))
      const outcome = yield* HookCommand.respond(broken, preToolUse("Bash", { command: "ls" }))
      assert.strictEqual(outcome.fallback, "failure")
      assert.strictEqual(outcome.exitCode, 2)
      assert.include(outcome.stderr, "no config")
    }))

  it.live("the deadline answers for hooks that outlive it, even uninterruptible ones", () =>
    Effect.gen(function*() {
      const stuck = HookLayer.preToolUse(
        { matcher: "Bash", timeout: "1 minute" },
        () => Effect.uninterruptible(Effect.never)
      )
      const started = Date.now()
      const outcome = yield* HookCommand.respond(stuck, preToolUse("Bash", { command: "ls" }), {
        timeout: "300 millis"
      })
      assert.isBelow(Date.now() - started, 2_000)
      assert.strictEqual(outcome.fallback, "timeout")
      assert.strictEqual(outcome.exitCode, 2)
      assert.strictEqual(parse(outcome).hookSpecificOutput.permissionDecision, "deny")

      // A hook without its own timeout gets one below the deadline: its own fallback, the others still count.
      const slow = HookLayer.preToolUse({ matcher: "Bash" }, () => Effect.never)
      const both = yield* HookCommand.respond(
        Layer.mergeAll(slow, decide("allow")),
        preToolUse("Bash", { command: "ls" }),
        { timeout: "400 millis", hookTimeout: "100 millis" }
      )
      assert.isUndefined(both.fallback)
      assert.strictEqual(both.runs[0]!.fallback, "timeout")
      assert.strictEqual(parse(both).hookSpecificOutput.permissionDecision, "deny")
    }))
})

// One of several Arbitraries, each as likely (fast-check's `oneof`).
const oneOf = <A>(...arbitraries: ReadonlyArray<Arbitrary.Arbitrary<A>>): Arbitrary.Arbitrary<A> =>
  Arbitrary.flatMap(
    Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: arbitraries.length - 1 }))),
    (index) => arbitraries[index]!
  )

// Hooks on every tool that do not answer: a failure, a defect, a throw, an answer for another event.
const failingHook = oneOf<Layer.Layer<never>>(
  Arbitrary.map(Arbitrary.schema(Schema.String), (error) => HookLayer.preToolUse(() => Effect.fail(error))),
  Arbitrary.map(Arbitrary.schema(Schema.String), (message) => HookLayer.preToolUse(() => Effect.die(message))),
  Arbitrary.map(Arbitrary.schema(Schema.String), (message) =>
    HookLayer.preToolUse(() => {
      throw new Error(message)
    })),
  Arbitrary.map(
    Arbitrary.schema(Schema.Unknown),
    (garbage) => HookLayer.preToolUse(() => Effect.succeed(HookResult.output({ hookSpecificOutput: garbage } as never)))
  )
)

describe("HookCommand.respond: fail closed, whatever comes in", () => {
  it.effect.prop(
    "any stdin a PreToolUse program cannot read is a deny with exit 2, never an answer of its hooks",
    [Schema.String],
    ([stdin]) =>
      Effect.map(HookCommand.respond(bashGuard, stdin), (outcome) => {
        assert.strictEqual(outcome.exitCode, 2)
        assert.strictEqual(outcome.fallback, "invalid_input")
        assert.strictEqual(parse(outcome).hookSpecificOutput.permissionDecision, "deny")
        assert.deepStrictEqual(outcome.runs, [])
      }),
    { arbitrary: { runs: 200 } }
  )

  it.effect.prop(
    "any PreToolUse input the CLI could send, with a hook that fails, dies, throws or answers garbage: deny, exit 2",
    [Arbitrary.schema(Protocol.PreToolUseHookInput), failingHook],
    ([input, hook]) =>
      Effect.map(
        HookCommand.respond(
          Layer.mergeAll(hook, HookLayer.preToolUse(() => Effect.succeed(HookResult.allow()))),
          JSON.stringify(Schema.encodeSync(Protocol.PreToolUseHookInput)(input))
        ).pipe(Effect.provide(Logger.layer([]))),
        (outcome) => {
          assert.strictEqual(outcome.exitCode, 2, outcome.stderr)
          assert.strictEqual(parse(outcome).hookSpecificOutput.permissionDecision, "deny")
          assert.isDefined(outcome.runs[0]!.fallback)
          assert.include(outcome.stderr, "fell back")
        }
      ),
    { arbitrary: { runs: 200 } }
  )

  it.effect("only the hooks of the program's layers answer, not hook layers the caller runs under", () =>
    Effect.gen(function*() {
      const outcome = yield* HookCommand.respond(bashGuard, preToolUse("Bash", { command: "ls" })).pipe(
        Effect.provide(decide("deny", "the caller's hook"))
      )
      assert.strictEqual(outcome.exitCode, 0)
      assert.strictEqual(outcome.stdout, "{}\n")
      assert.deepStrictEqual(outcome.runs.map((run) => run.name), ["bash-guard"])
    }))
})

describe("HookCommand.combine", () => {
  it("one output is returned as it is; none is {}", () => {
    const one = { hookSpecificOutput: { hookEventName: "PreToolUse" as const, permissionDecision: "allow" as const } }
    assert.strictEqual(HookCommand.combine("PreToolUse", [one]), one)
    assert.deepStrictEqual(HookCommand.combine("PreToolUse", []), {})
  })

  it("PreToolUse: a top-level block counts as deny, approve as allow; the last rewrite wins", () => {
    assert.deepStrictEqual(
      HookCommand.combine("PreToolUse", [{ decision: "approve" }, { decision: "block", reason: "no" }]),
      {
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" }
      }
    )
    assert.deepStrictEqual(
      HookCommand.combine("PreToolUse", [
        { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "a" } } },
        { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "b" } } }
      ]),
      { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "b" } } }
    )
  })

  it("PermissionRequest: deny beats allow; allow keeps its rewrite and permissions", () => {
    const allow = {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest" as const,
        decision: { behavior: "allow" as const, updatedInput: { x: 1 } }
      }
    }
    const deny = {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest" as const,
        decision: { behavior: "deny" as const, message: "nope" }
      }
    }
    assert.deepStrictEqual(HookCommand.combine("PermissionRequest", [allow, deny]), {
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "nope" } }
    })
    assert.deepStrictEqual(HookCommand.combine("PermissionRequest", [allow, {}]), {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "allow", updatedInput: { x: 1 } }
      }
    })
  })

  it("PreModelSwitch votes too: deny beats allow", () => {
    assert.deepStrictEqual(
      HookCommand.combine("PreModelSwitch", [
        { hookSpecificOutput: { hookEventName: "PreModelSwitch", permissionDecision: "allow" } },
        {
          hookSpecificOutput: {
            hookEventName: "PreModelSwitch",
            permissionDecision: "deny",
            permissionDecisionReason: "cost"
          }
        }
      ]),
      {
        hookSpecificOutput: {
          hookEventName: "PreModelSwitch",
          permissionDecision: "deny",
          permissionDecisionReason: "cost"
        }
      }
    )
  })

  it("other events: every block reason, the first halt, suppressOutput, other fields first-wins", () => {
    assert.deepStrictEqual(
      HookCommand.combine("Stop", [
        { decision: "block", reason: "a" },
        { continue: false, stopReason: "enough" },
        { decision: "block", reason: "b", suppressOutput: true },
        { continue: false, stopReason: "later" }
      ]),
      { continue: false, stopReason: "enough", suppressOutput: true, decision: "block", reason: "a\nb" }
    )
    assert.deepStrictEqual(
      HookCommand.combine("UserPromptSubmit", [
        { hookSpecificOutput: { hookEventName: "UserPromptSubmit", sessionTitle: "first" } as any },
        {
          hookSpecificOutput: {
            hookEventName: "UserPromptSubmit",
            sessionTitle: "second",
            additionalContext: "c"
          } as any
        }
      ]),
      { hookSpecificOutput: { hookEventName: "UserPromptSubmit", sessionTitle: "first", additionalContext: "c" } }
    )
  })
})

describe("HookCommand.run", () => {
  const fakeStdio = (stdin: Effect.Effect<string, HookCommand.HookCommandError>) =>
    Effect.gen(function*() {
      const stdout = yield* Ref.make("")
      const stderr = yield* Ref.make("")
      const layer = Layer.succeed(
        HookCommand.Stdio,
        HookCommand.Stdio.of({
          readAll: () => stdin,
          writeStdout: (text) => Ref.update(stdout, (all) => all + text),
          writeStderr: (text) => Ref.update(stderr, (all) => all + text)
        })
      )
      return { layer, stdout: Ref.get(stdout), stderr: Ref.get(stderr) }
    })

  it.effect("reads stdin, writes the answer, returns the exit code", () =>
    Effect.gen(function*() {
      const io = yield* fakeStdio(Effect.succeed(preToolUse("Bash", { command: "forbidden" })))
      const code = yield* HookCommand.run(bashGuard).pipe(Effect.provide(io.layer))
      assert.strictEqual(code, 2)
      assert.strictEqual(JSON.parse(yield* io.stdout).hookSpecificOutput.permissionDecision, "deny")
      assert.include(yield* io.stderr, "forbidden")
    }))

  it.effect("stdin that cannot be read (too large): the fallback", () =>
    Effect.gen(function*() {
      const io = yield* fakeStdio(
        Effect.fail(new HookCommand.HookCommandError({ reason: "StdinTooLarge", detail: "the hook input is too big" }))
      )
      const code = yield* HookCommand.run(bashGuard).pipe(Effect.provide(io.layer))
      assert.strictEqual(code, 2)
      assert.include(yield* io.stderr, "the hook input is too big")
      assert.strictEqual(JSON.parse(yield* io.stdout).hookSpecificOutput.permissionDecision, "deny")
    }))

  it.live("stdin that never ends: the deadline answers", () =>
    Effect.gen(function*() {
      const io = yield* fakeStdio(Effect.never)
      const code = yield* HookCommand.run(bashGuard, { timeout: "200 millis" }).pipe(Effect.provide(io.layer))
      assert.strictEqual(code, 2)
      assert.include(yield* io.stderr, "did not end")
    }))
})

// -----------------------------------------------------------------------------
// The hook program as a process
// -----------------------------------------------------------------------------

interface ProcessResult {
  readonly status: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a process to its end with `effect/process`: its whole stdin, its output, its exit code; killed (with its group) past 60 s. */
const runProcess = (file: string, args: ReadonlyArray<string>, options: {
  readonly input?: string
  readonly cwd?: string
  readonly env?: Record<string, string>
}): Effect.Effect<ProcessResult> =>
  Effect.gen(function*() {
    const proc = yield* ChildProcess.make(file, args, {
      cwd: options.cwd,
      env: options.env ?? {},
      extendEnv: true,
      stdin: Stream.make(options.input ?? "").pipe(Stream.encodeText),
      killSignal: "SIGKILL"
    })
    const [stdout, stderr] = yield* Effect.all(
      [Stream.mkString(Stream.decodeText(proc.stdout)), Stream.mkString(Stream.decodeText(proc.stderr))],
      { concurrency: 2 }
    )
    return { status: yield* proc.exitCode, stdout, stderr }
  }).pipe(
    Effect.scoped,
    Effect.timeout("60 seconds"),
    Effect.provide(NodeServices.layer),
    Effect.orDie
  )

const runHookProgram = (input: string, mode?: string) =>
  Effect.flatMap(
    Effect.promise(() => hookProgram()),
    (program) => runProcess(process.execPath, mode !== undefined ? [program, mode] : [program], { input })
  )

describe("the hook program (bundled, run by node)", () => {
  it.live("stdout carries one JSON line and nothing else, even when handlers print", () =>
    Effect.gen(function*() {
      const result = yield* runHookProgram(preToolUse("Bash", { command: "ls" }), "noisy")
      assert.strictEqual(result.status, 0)
      assert.deepStrictEqual(JSON.parse(result.stdout), {
        hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "noisy was here" }
      })
      assert.strictEqual(result.stdout.split("\n").filter((line) => line.length > 0).length, 1)
      assert.include(result.stderr, "noise from console.log")
      assert.include(result.stderr, "noise from process.stdout.write")
      assert.include(result.stderr, "bash-guard checks: ls") // Effect logs go to stderr too
    }))

  it.live("bad stdin: deny JSON, exit 2 and a clear message on stderr", () =>
    Effect.gen(function*() {
      const garbage = yield* runHookProgram("{ this is not json")
      assert.strictEqual(garbage.status, 2)
      assert.strictEqual(JSON.parse(garbage.stdout).hookSpecificOutput.permissionDecision, "deny")
      assert.include(garbage.stderr, "claude-effect hook: stdin is not JSON")

      const empty = yield* runHookProgram("")
      assert.strictEqual(empty.status, 2)
      assert.include(empty.stderr, "stdin was empty")

      const stop = yield* runHookProgram(stopInput)
      assert.strictEqual(stop.status, 0)
      assert.strictEqual(stop.stdout, "{}\n")
    }))

  it.live("layers that need platform services get the platform given to main", () =>
    Effect.gen(function*() {
      const dir = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-locked-")))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
      const input = JSON.stringify({ ...JSON.parse(preToolUse("Bash", { command: "ls" })), cwd: dir })
      const open = yield* runHookProgram(input, "platform")
      assert.strictEqual(open.status, 0, open.stderr)
      assert.strictEqual(open.stdout, "{}\n")
      Fs.writeFileSync(Path.join(dir, ".locked"), "")
      const locked = yield* runHookProgram(input, "platform")
      assert.strictEqual(locked.status, 2, locked.stderr)
      assert.strictEqual(JSON.parse(locked.stdout).hookSpecificOutput.permissionDecisionReason, "the project is locked")
    }).pipe(Effect.scoped))

  it.live("started by bin/hook-launcher.cjs (CommonJS bundle, V8 code cache): the same answers", () =>
    Effect.gen(function*() {
      const launcher = yield* Effect.promise(() => launchedHookProgram())
      for (let i = 0; i < 2; i++) {
        const denied = yield* runProcess(process.execPath, [launcher], {
          input: preToolUse("Bash", { command: "touch forbidden" })
        })
        assert.strictEqual(denied.status, 2, denied.stderr)
        assert.strictEqual(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, "deny")
      }
      const crashed = yield* runProcess(process.execPath, [launcher, "crash"], { input: preToolUse("Bash", {}) })
      assert.strictEqual(crashed.status, 2, crashed.stderr)
    }))

  it.live("crashing and hanging hooks: deny and exit 2, well within the deadline", () =>
    Effect.gen(function*() {
      for (const mode of ["crash", "hang"]) {
        const result = yield* runHookProgram(preToolUse("Bash", { command: "ls" }), mode)
        assert.strictEqual(result.status, 2, mode)
        assert.strictEqual(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision, "deny", mode)
        assert.include(result.stderr, "fell back", mode)
      }
    }))
})

// -----------------------------------------------------------------------------
// On the real CLI: plain `claude -p`, the hook program installed in the project's settings
// -----------------------------------------------------------------------------

interface Project {
  readonly cwd: string
  readonly exists: (name: string) => boolean
  readonly settings: () => any
}

/** A temp project with the hook program copied to .claude/hooks and installed (twice) in .claude/settings.json. */
const project = (mode?: string) =>
  Effect.gen(function*() {
    const env = yield* ScriptedModel.cliEnv
    const cwd = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-hook-project-")))
    yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(cwd, { recursive: true, force: true })))
    Fs.mkdirSync(Path.join(cwd, ".claude", "hooks"), { recursive: true })
    Fs.copyFileSync(yield* Effect.promise(() => hookProgram()), Path.join(cwd, ".claude", "hooks", "policy.mjs"))
    // Trust the project, as accepting the dialog once would (hooks ran without it in 2.1.328; rules did not).
    Fs.mkdirSync(env.CLAUDE_CONFIG_DIR!, { recursive: true })
    Fs.writeFileSync(
      Path.join(env.CLAUDE_CONFIG_DIR!, ".claude.json"),
      JSON.stringify({ projects: { [cwd]: { hasTrustDialogAccepted: true } } })
    )
    const options: HookCommand.InstallOptions = {
      settings: "project",
      cwd,
      event: "PreToolUse",
      matcher: "Bash|AskUserQuestion|mcp__.*__AskUserQuestion",
      command: `node "$CLAUDE_PROJECT_DIR/.claude/hooks/policy.mjs"${mode !== undefined ? ` ${mode}` : ""}`,
      timeout: "30 seconds"
    }
    const first = yield* HookCommand.install(options)
    const second = yield* HookCommand.install(options)
    assert.strictEqual(first.status, "added")
    assert.strictEqual(second.status, "unchanged")
    return {
      cwd,
      exists: (name: string) => Fs.existsSync(Path.join(cwd, name)),
      settings: () => JSON.parse(Fs.readFileSync(Path.join(cwd, ".claude", "settings.json"), "utf8"))
    } satisfies Project
  })

/** `claude -p <prompt>` with the scripted model: no SDK, no stdin protocol. */
const claudePrint = (cwd: string, prompt: string, args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const executable = yield* CliLocator.locate()
    const env = yield* ScriptedModel.cliEnv
    const result = yield* runProcess(
      executable,
      ["-p", prompt, "--output-format", "stream-json", "--verbose", ...args],
      { cwd, env: { ...env, CLAUDE_CODE_MAX_RETRIES: "2" } }
    )
    const messages = result.stdout.split("\n").filter((line) => line.trim().length > 0).map((line) => JSON.parse(line))
    return { ...result, messages }
  })

const toolResultsOf = (messages: ReadonlyArray<any>): ReadonlyArray<string> =>
  messages.flatMap((m) =>
    m.type === "user" && Array.isArray(m.message?.content)
      ? m.message.content.flatMap((block: any) =>
        block.type === "tool_result"
          ? [typeof block.content === "string" ? block.content : JSON.stringify(block.content)]
          : []
      )
      : []
  )

const onCli = <A, E, R>(script: ReadonlyArray<ScriptedModel.Step>, test: Effect.Effect<A, E, R>) =>
  test.pipe(
    Effect.scoped,
    Effect.provide(ScriptedModel.layerNode(script, { env: { CLAUDE_CODE_MAX_RETRIES: "2" } })),
    Effect.provide(NodeServices.layer)
  )

describe("a command hook on the real CLI (claude -p, no SDK)", () => {
  it.live("installed twice, it is one entry and runs once; the guard's deny stops Bash, an allowed call runs", () =>
    onCli(
      [bash("touch forbidden.txt"), bash("touch allowed.txt"), ScriptedModel.text("done")],
      Effect.gen(function*() {
        const p = yield* project()
        const entries = p.settings().hooks.PreToolUse
        assert.strictEqual(entries.length, 1)
        assert.strictEqual(entries[0].hooks.length, 1)

        const run = yield* claudePrint(p.cwd, "make two files", ["--allowedTools", "Bash", "--include-hook-events"])
        assert.strictEqual(run.status, 0, run.stderr)
        assert.isFalse(p.exists("forbidden.txt"), "the denied command ran")
        assert.isTrue(p.exists("allowed.txt"), "the allowed command did not run")
        const results = toolResultsOf(run.messages)
        assert.include(results[0], "bash-guard: \"touch forbidden.txt\" touches something forbidden")
        // One hook process per tool call, not two: the second install added nothing.
        const started = run.messages.filter((m) => m.type === "system" && m.subtype === "hook_started")
        assert.strictEqual(started.length, 2)
        const responses = run.messages.filter((m) => m.type === "system" && m.subtype === "hook_response")
        assert.deepStrictEqual(responses.map((m) => m.exit_code), [2, 0])
        const last = yield* ScriptedModel.lastTurnRequest
        assert.isTrue(last.includes("touches something forbidden"))
      })
    ))

  it.live("AskUserQuestion is answered through updatedInput: the model's next request has the answer", () =>
    onCli(
      [
        ScriptedModel.toolUse("AskUserQuestion", {
          questions: [{
            question: "Which color?",
            header: "Color",
            options: [{ label: "Red", description: "warm" }, { label: "Blue", description: "cool" }],
            multiSelect: false
          }]
        }),
        ScriptedModel.text("done")
      ],
      Effect.gen(function*() {
        const p = yield* project()
        // In print mode the CLI offers AskUserQuestion only with a permission prompt tool; the hook's
        // allow means that tool is never asked.
        const run = yield* claudePrint(p.cwd, "ask me", ["--permission-prompt-tool", "stdio"])
        assert.strictEqual(run.status, 0, run.stderr)
        assert.isFalse(run.messages.some((m) => m.type === "control_request"))
        const last = yield* ScriptedModel.lastTurnRequest
        assert.include(last.latestToolResults[0]?.content, `"Which color?"="Blue"`)
      })
    ))

  it.live("a hook that crashes or hangs falls back to deny: the tool does not run", () =>
    Effect.gen(function*() {
      for (const mode of ["crash", "hang"]) {
        yield* onCli(
          [bash("touch safe.txt"), ScriptedModel.text("done")],
          Effect.gen(function*() {
            const p = yield* project(mode)
            const run = yield* claudePrint(p.cwd, "make a file", ["--allowedTools", "Bash"])
            assert.strictEqual(run.status, 0, run.stderr)
            assert.isFalse(p.exists("safe.txt"), `${mode}: the tool ran`)
            assert.include(toolResultsOf(run.messages)[0], "failing closed", mode)
          })
        )
      }
    }))

  it.live("handlers that print to stdout do not break the answer the CLI reads", () =>
    onCli(
      [bash("touch forbidden.txt"), ScriptedModel.text("done")],
      Effect.gen(function*() {
        const p = yield* project("noisy")
        const run = yield* claudePrint(p.cwd, "make a file", ["--allowedTools", "Bash"])
        assert.isFalse(p.exists("forbidden.txt"))
        assert.include(toolResultsOf(run.messages)[0], "touches something forbidden")
      })
    ))
})

describe("one hook set, two deployments (the guide's code)", () => {
  it.live("the same policy denies the same call in an SDK session", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const messages = yield* agent
      assert.isFalse(workspace.exists("forbidden.txt"))
      assert.include(JSON.stringify(messages), "touches something forbidden")
    }).pipe(Effect.provide(harness([bash("touch forbidden.txt"), ScriptedModel.text("ok")]))))

  it.effect("the guide's respond and install examples", () =>
    Effect.gen(function*() {
      const outcome = yield* checkPolicy(preToolUse("Bash", { command: "rm -rf forbidden" }))
      assert.strictEqual(outcome.exitCode, 2)
      const cwd = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-guide-")))
      const result = yield* installPolicy(cwd)
      assert.strictEqual(result.status, "added")
      assert.isFalse(result.written)
      assert.include(result.diff, "+++ b/.claude/settings.json")
      Fs.rmSync(cwd, { recursive: true, force: true })
    }).pipe(Effect.provide(NodeServices.layer)))
})
