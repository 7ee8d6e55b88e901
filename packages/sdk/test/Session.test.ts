import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { ClaudeCode, CliSpawner, HookLayer } from "../src/index.js"
import { bash, harness, isAlive, processesIn, Workspace } from "./utils/harness.js"

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

const lastOf = <A>(all: ReadonlyArray<A>): any => all[all.length - 1]

describe("ClaudeCode.session", () => {
  it.live("holds three turns on one process", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session()
      const first = yield* collect(session.turn("one"))
      const second = yield* collect(session.turn("two"))
      const third = yield* collect(session.turn("three"))
      assert.deepStrictEqual([first, second, third].map((turn) => lastOf(turn).result), ["uno", "dos", "tres"])
      assert.isTrue(isAlive(session.pid))
      assert.strictEqual(session.initialization.pid, session.pid)
      const sessionIds = new Set([first, second, third].map((turn) => lastOf(turn).session_id))
      assert.strictEqual(sessionIds.size, 1)
      assert.strictEqual(yield* session.sessionId, lastOf(third).session_id)
      const turns = yield* ScriptedModel.turnRequests
      assert.strictEqual(turns.length, 3)
      // the third request carries the whole conversation
      assert.isTrue(turns[2].includes("uno") && turns[2].includes("dos"))
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([ScriptedModel.text("uno"), ScriptedModel.text("dos"), ScriptedModel.text("tres")]))
    ))

  it.live("interrupt during a slow stream ends the turn, and the session takes the next prompt", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session()
      const turn = yield* collect(session.turn("talk slowly")).pipe(Effect.forkChild)
      yield* ScriptedModel.awaitRequests(1, "turn")
      yield* Effect.sleep("300 millis")
      const answer = yield* session.interrupt
      assert.isDefined(answer)
      const interrupted = yield* Fiber.join(turn)
      assert.strictEqual(lastOf(interrupted).subtype, "error_during_execution")
      const next = yield* collect(session.turn("and now?"))
      assert.strictEqual(lastOf(next).result, "still here")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([
        ScriptedModel.slow(ScriptedModel.text("la ".repeat(200)), { delay: "50 millis", chunkSize: 3 }),
        ScriptedModel.text("still here")
      ]))
    ))

  it.live("setPermissionMode, setModel, mcpServerStatus, supportedCommands and getContextUsage answer typed results", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session()
      assert.isAbove((yield* session.supportedCommands).length, 0)
      assert.isAbove((yield* session.supportedModels).length, 0)
      yield* session.setPermissionMode("acceptEdits")
      yield* session.setModel("claude-opus-4-1-custom")
      const turn = yield* collect(session.turn("hi"))
      const init = turn.find((m: any) => m.type === "system" && m.subtype === "init") as any
      assert.strictEqual(init.permissionMode, "acceptEdits")
      const last = yield* ScriptedModel.lastTurnRequest
      assert.strictEqual(last.model, "claude-opus-4-1-custom")
      const servers = yield* session.mcpServerStatus
      assert.isArray(servers)
      const usage = yield* session.getContextUsage
      assert.isNumber(usage.totalTokens)
      assert.isNumber(usage.maxTokens)
      // @ts-expect-error: a mode the CLI does not know
      const bad = yield* session.setPermissionMode("bogus").pipe(Effect.flip)
      assert.strictEqual(bad._tag, "ControlError")
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("hello")]))))

  it.live("control requests time out with ControlTimeoutError", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session({ controlTimeout: 1 })
      // get_context_usage makes the CLI count tokens first: it cannot answer within 1 ms.
      const error = yield* session.getContextUsage.pipe(Effect.flip)
      assert.strictEqual(error._tag, "ControlTimeoutError")
      assert.strictEqual((error as any).subtype, "get_context_usage")
    }).pipe(Effect.scoped, Effect.provide(harness([], { initializeTimeout: 30_000 }))))

  it.live("closing the scope mid-hook leaves no process behind, and interrupts the hook", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const hookStarted = yield* Deferred.make<void>()
      const hookInterrupted = yield* Deferred.make<void>()
      const scope = yield* Scope.make()
      const session = yield* ClaudeCode.session({ allowedTools: ["Bash"], hookTimeout: 120_000 }).pipe(
        Effect.provide(HookLayer.preToolUse({}, () =>
          Deferred.succeed(hookStarted, void 0).pipe(
            Effect.andThen(Effect.never),
            Effect.onInterrupt(() => Deferred.succeed(hookInterrupted, void 0))
          ))),
        Scope.provide(scope)
      )
      yield* session.send("go")
      yield* Deferred.await(hookStarted)
      const pids = processesIn(cwd)
      assert.include(pids, session.pid)
      const started = Date.now()
      yield* Scope.close(scope, Exit.void)
      assert.isBelow(Date.now() - started, 6000)
      yield* Deferred.await(hookInterrupted).pipe(Effect.timeout("2 seconds"))
      for (const pid of pids) assert.isFalse(isAlive(pid), `pid ${pid} is still alive`)
      assert.deepStrictEqual(processesIn(cwd), [])
    }).pipe(Effect.provide(harness([bash("echo never"), ScriptedModel.text("never")]))))

  it.live("closing mid-stream writes the interrupt with stdin's end behind it: the CLI stops by itself, inside the grace", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const session = yield* ClaudeCode.session({ includePartialMessages: true }).pipe(Scope.provide(scope))
      const streaming = yield* Deferred.make<void>()
      yield* session.turn("talk slowly").pipe(
        Stream.runForEach((m) => m.type === "stream_event" ? Deferred.succeed(streaming, void 0) : Effect.void),
        Effect.forkChild
      )
      yield* Deferred.await(streaming)
      const started = Date.now()
      yield* Scope.close(scope, Exit.void)
      // Mid-turn the CLI gets 1 s after stdin's end before SIGTERM; without the interrupt it would finish the
      // ~10 s stream first. Not waiting for the interrupt's answer keeps the close to the CLI's own exit.
      assert.isBelow(Date.now() - started, 900)
      assert.isFalse(isAlive(session.pid))
    }).pipe(
      Effect.provide(harness([
        ScriptedModel.slow(ScriptedModel.text("la ".repeat(600)), { delay: "50 millis", chunkSize: 3 })
      ]))
    ))

  it.live("interrupting the consuming fiber mid-turn leaves no process behind, shells included", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const fiber = yield* ClaudeCode.query("go", { allowedTools: ["Bash"] }).pipe(Stream.runDrain, Effect.forkChild)
      // wait until the long Bash command runs
      let pids: Array<number> = []
      for (let i = 0; i < 200 && pids.length < 2; i++) {
        yield* Effect.sleep("50 millis")
        pids = processesIn(cwd)
      }
      assert.isAtLeast(pids.length, 2, "the CLI and its shell")
      const started = Date.now()
      yield* Fiber.interrupt(fiber)
      assert.isBelow(Date.now() - started, 6000)
      for (const pid of pids) assert.isFalse(isAlive(pid), `pid ${pid} is still alive`)
    }).pipe(
      Effect.provide(
        harness([bash("for i in $(seq 1 600); do sleep 0.1; done; echo finished"), ScriptedModel.text("never")])
      )
    ))

  it.live("a CLI killed with SIGKILL mid-turn fails the stream with CliExitError; pending requests fail; nothing hangs", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session()
      const turn = yield* collect(session.turn("talk")).pipe(Effect.forkChild)
      yield* ScriptedModel.awaitRequests(1, "turn")
      const pending = yield* session.getContextUsage.pipe(Effect.result, Effect.forkChild)
      process.kill(session.pid, "SIGKILL")
      const exit = yield* Fiber.await(turn).pipe(Effect.timeout("5 seconds"))
      assert.isTrue(Exit.isFailure(exit))
      const error: any = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined
      assert.strictEqual(error?._tag, "CliExitError")
      assert.strictEqual(error?.signal, "SIGKILL")
      assert.isTrue(error?.duringTurn, "the turn in flight is named as cut short")
      assert.isString(error?.stderrTail)
      const answer = yield* Fiber.join(pending).pipe(Effect.timeout("5 seconds"))
      if (answer._tag === "Failure") assert.strictEqual(answer.failure._tag, "ControlError")
      const after = yield* session.send("more").pipe(Effect.flip)
      assert.strictEqual(after._tag, "CliExitError")
    }).pipe(
      Effect.scoped,
      Effect.provide(
        harness([ScriptedModel.slow(ScriptedModel.text("x".repeat(400)), { delay: "50 millis", chunkSize: 4 })])
      )
    ))
})

// A CLI process that answers initialize and then, on the first user message, writes `turns` in one pipe
// write: the real CLI cannot be made to do that on demand, and a background agent's turn can do it.
const replayingSpawner = (turns: ReadonlyArray<string>): CliSpawner.CliSpawner.Service => ({
  spawn: () =>
    Effect.gen(function*() {
      const stdout = yield* Queue.unbounded<Uint8Array, Cause.Done>()
      const exited = yield* Deferred.make<{ readonly code: number | null; readonly signal: string | null }>()
      const encoder = new TextEncoder()
      let pending = ""
      let replayed = false
      let ended = false
      const onLine = (line: string) => {
        const message = JSON.parse(line)
        if (message.type === "control_request" && message.request.subtype === "initialize") {
          Queue.offerUnsafe(
            stdout,
            encoder.encode(
              JSON.stringify({
                type: "control_response",
                response: {
                  subtype: "success",
                  request_id: message.request_id,
                  // the least a CLI answers to initialize (the session decodes it)
                  response: {
                    commands: [],
                    agents: [],
                    output_style: "default",
                    available_output_styles: [],
                    models: [],
                    account: {}
                  }
                }
              }) + "\n"
            )
          )
        } else if (message.type === "user" && !replayed) {
          replayed = true
          Queue.offerUnsafe(stdout, encoder.encode(turns.join("\n") + "\n"))
        }
      }
      const exit = (code: number) => {
        Queue.endUnsafe(stdout)
        Deferred.doneUnsafe(exited, Exit.succeed({ code, signal: null }))
      }
      const stderr = yield* Queue.unbounded<Uint8Array, Cause.Done>()
      Queue.endUnsafe(stderr)
      const spawned: CliSpawner.SpawnedProcess = {
        pid: 2147483645,
        stdout: Queue.takeAll(stdout),
        stderr: Queue.takeAll(stderr),
        write: (text) => {
          if (ended) return false
          pending += text
          let index: number
          while ((index = pending.indexOf("\n")) !== -1) {
            onLine(pending.slice(0, index))
            pending = pending.slice(index + 1)
          }
          return true
        },
        endInput: () => {
          if (ended) return
          ended = true
          exit(0)
        },
        exit: Deferred.await(exited),
        isRunning: Effect.map(Deferred.isDone(exited), (done) => !done),
        leadsProcessGroup: false
      }
      yield* Effect.addFinalizer(() => Effect.sync(() => exit(143)))
      return spawned
    })
})

// ClaudeCode whose CLI replays `messages` (as the real CLI wrote them: a decoded message is the parsed line,
// unchanged) in one write.
const replaying = (messages: ReadonlyArray<unknown>) =>
  ClaudeCode.layer({ executable: process.execPath }).pipe(
    Layer.provide(Layer.merge(
      NodeServices.layer,
      Layer.succeed(CliSpawner.CliSpawner, replayingSpawner(messages.map((message) => JSON.stringify(message))))
    ))
  )

describe("ClaudeCode.session message delivery", () => {
  it.live("session.result runs a turn to its result: the tool ran, and the next turn carries the earlier ones", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const session = yield* ClaudeCode.session({ allowedTools: ["Bash"] })
      const first = yield* session.result("make the file")
      assert.strictEqual(first.result, "made it")
      assert.isTrue(Fs.existsSync(Path.join(cwd, "made.txt")), "the turn's Bash call ran")
      const second = yield* session.result("and now?")
      assert.strictEqual(second.result, "still here")
      assert.strictEqual(second.session_id, first.session_id)
      const turns = yield* ScriptedModel.turnRequests
      assert.isTrue(turns[turns.length - 1].includes("made it"), "the second turn's request carries the first")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([bash("touch made.txt"), ScriptedModel.text("made it"), ScriptedModel.text("still here")]))
    ))

  it.live("session.result fails with ResultError on an error result, and the session takes the next prompt", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session({ maxTurns: 1, allowedTools: ["Bash"] })
      // one model turn allowed, and the model wants a second one (after its tool call)
      const error = yield* session.result("go").pipe(Effect.flip)
      assert.strictEqual(error._tag, "ResultError")
      assert.strictEqual(error._tag === "ResultError" ? error.reason : undefined, "error_max_turns")
      const next = yield* session.result("just answer")
      assert.strictEqual(next.result, "answered")
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([bash("echo one"), ScriptedModel.text("answered")]))
    ))

  it.live("two turns in one read: the first turn ends at its result, the next loses nothing", () =>
    Effect.gen(function*() {
      // Two turns as the real CLI wrote them.
      const first = yield* collect(ClaudeCode.query("one"))
      const second = yield* collect(ClaudeCode.query("two"))
      assert.deepStrictEqual([lastOf(first).result, lastOf(second).result], ["uno", "dos"])
      const both = replaying([...first, ...second])

      const replayed = yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const turn = yield* collect(session.turn("one"))
        // Without the split, the second turn was taken with the first and this would wait forever.
        const next = yield* collect(session.receiveTurn).pipe(Effect.timeout("10 seconds"))
        yield* session.endInput
        const rest = yield* collect(session.messages)
        return { turn, next, rest }
      })).pipe(Effect.provide(both))
      // The same lines, the first turn run by `session.result`: it stops at the first result too.
      const byResult = yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const result = yield* session.result("one")
        const next = yield* collect(session.receiveTurn).pipe(Effect.timeout("10 seconds"))
        return { result, next }
      })).pipe(Effect.provide(both))
      assert.deepStrictEqual(replayed.turn, first)
      assert.deepStrictEqual(replayed.next, second)
      assert.deepStrictEqual(replayed.rest, [])
      assert.deepStrictEqual(byResult.result, lastOf(first))
      assert.deepStrictEqual(byResult.next, second)
    }).pipe(Effect.provide(harness([ScriptedModel.text("uno"), ScriptedModel.text("dos")]))))

  it.live("a large read reaches the consumer in chunks of at most 64 messages: all of them, in order, each turn ending at its result", () =>
    Effect.gen(function*() {
      // Partial messages: turns of over 128 lines, each a message, as the real CLI wrote them.
      const options = { includePartialMessages: true }
      const first = yield* collect(ClaudeCode.query("one", options))
      const second = yield* collect(ClaudeCode.query("two", options))
      assert.isAbove(first.length, 2 * 64)

      // Both turns arrive in one read; the consumer sees each chunk as the session delivers it.
      const chunksOf = <A, E, R>(stream: Stream.Stream<A, E, R>) => collect(Stream.chunks(stream))
      const replayed = yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        const turn = yield* chunksOf(session.turn("one"))
        const next = yield* chunksOf(session.receiveTurn).pipe(Effect.timeout("10 seconds"))
        return { turn, next }
      })).pipe(Effect.provide(replaying([...first, ...second])))
      for (const chunk of [...replayed.turn, ...replayed.next]) {
        assert.isAtLeast(chunk.length, 1)
        assert.isAtMost(chunk.length, 64)
      }
      assert.deepStrictEqual(replayed.turn.flat(), first)
      assert.deepStrictEqual(replayed.next.flat(), second)
    }).pipe(Effect.provide(harness([
      // Each delta its own write, so that the CLI reports each as a partial message.
      ScriptedModel.slow(ScriptedModel.text("la ".repeat(200)), { delay: 0, chunkSize: 4 }),
      ScriptedModel.slow(ScriptedModel.text("li ".repeat(200)), { delay: 0, chunkSize: 4 })
    ]))))
})

describe("ClaudeCode.session: resume and isolation", () => {
  it.live("a resumed session's next model request carries its earlier turns, under the same session id", () =>
    Effect.gen(function*() {
      const first = yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        return lastOf(yield* collect(session.turn("the code word is plum")))
      }))
      const resumed = yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session({ resume: first.session_id })
        return lastOf(yield* collect(session.turn("what was the code word?")))
      }))
      assert.strictEqual(resumed.result, "plum")
      assert.strictEqual(resumed.session_id, first.session_id)
      const last = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(last.includes("the code word is plum"), "the resumed request carries the first prompt")
      assert.isTrue(last.includes("noted"), "and the first answer")
    }).pipe(Effect.provide(harness([ScriptedModel.text("noted"), ScriptedModel.text("plum")]))))

  it.live("two sessions under nested provides of one ClaudeCode layer each get a CLI of their own, gone with their scope", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const env = yield* ScriptedModel.cliEnv
      const claude = ClaudeCode.layer({ cwd, env })
      const scope = yield* Scope.make()
      // the inner provide of the same layer value reuses the outer ClaudeCode (effect 4's memo map):
      // the sessions, built in their own scope by `startSession`, must not be shared all the same
      const [outer, inner] = yield* Effect.gen(function*() {
        const outer = yield* ClaudeCode.session()
        const inner = yield* ClaudeCode.session().pipe(Effect.provide(claude))
        return [outer, inner] as const
      }).pipe(Effect.provide(claude), Scope.provide(scope))
      assert.notStrictEqual(outer.pid, inner.pid)
      assert.isTrue(isAlive(outer.pid) && isAlive(inner.pid))
      const results = yield* Effect.all([outer.result("one"), inner.result("two")])
      assert.deepStrictEqual(results.map((r) => r.result).sort(), ["a", "b"])
      yield* Scope.close(scope, Exit.void)
      assert.isFalse(isAlive(outer.pid), "the outer session's CLI outlived its scope")
      assert.isFalse(isAlive(inner.pid), "the inner session's CLI outlived its scope")
      assert.deepStrictEqual(processesIn(cwd), [])
    }).pipe(Effect.provide(harness([ScriptedModel.text("a"), ScriptedModel.text("b")]))))
})
