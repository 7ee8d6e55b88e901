import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"
import type { Protocol } from "../src/index.js"
import { HookLayer, HookResult, PermissionGate, PermissionResult, SessionPool } from "../src/index.js"
import { bash, harness, isAlive, processesIn, Workspace } from "./utils/harness.js"

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

const resultOf = (messages: ReadonlyArray<Protocol.Message>): any => messages.find((m) => m.type === "result")

const initOf = (messages: ReadonlyArray<Protocol.Message>): any =>
  messages.find((m) => m.type === "system" && "subtype" in m && m.subtype === "init")

/** Waits (boundedly) until the pool's status satisfies `test`, and returns that status. */
const awaitStatus = (
  pool: SessionPool.SessionPool.Service,
  test: (status: SessionPool.Status) => boolean,
  timeout: Duration.Input = "60 seconds"
) =>
  pool.changes.pipe(
    Stream.filter(test),
    Stream.runHead,
    Effect.flatMap((found) =>
      Option.isSome(found) ? Effect.succeed(found.value) : Effect.die(new Error("the pool's changes ended"))
    ),
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () => Effect.die(new Error("the pool never reached that state"))
    })
  )

const full = (status: SessionPool.Status) => status.ready.length === status.size

/** Polls until `test` holds for the processes running in `cwd`; returns them. */
const pollProcesses = (cwd: string, test: (pids: ReadonlyArray<number>) => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 12_000; i++) {
      const pids = processesIn(cwd)
      if (test(pids)) return pids
      yield* Effect.sleep("5 millis")
    }
    return yield* Effect.die(new Error(`no processes in ${cwd} passed the test`))
  })

/** Closes `scope`, failing the test if that takes longer than `limit` (a close must never hang). */
const closeWithin = (scope: Scope.Closeable, limit: Duration.Input) =>
  Scope.close(scope, Exit.void).pipe(
    Effect.timeoutOrElse({
      duration: limit,
      orElse: () => Effect.die(new Error(`closing the pool took over ${String(limit)}`))
    })
  )

/** A pool of one, waited for until it is full. */
const fullPoolOfOne = (options: Omit<SessionPool.Options, "size"> = {}) =>
  Effect.tap(SessionPool.make({ size: 1, ...options }), (pool) => awaitStatus(pool, full))

/** How long after `since` a process other than `claimed` first runs in `cwd`: when the claim's replacement spawned. */
const replacementSpawnedAfter = (cwd: string, claimed: number, since: number) =>
  Effect.map(pollProcesses(cwd, (pids) => pids.some((pid) => pid !== claimed)), () => Date.now() - since)

const badInitializeCli = fileURLToPath(new URL("./fixtures/bad-initialize-claude.mjs", import.meta.url))

describe("SessionPool", () => {
  it.live("a claimed session was spawned and initialized before the claim, runs the turn, and the pool refills", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const pool = yield* SessionPool.make({ size: 2 })
      const before = yield* awaitStatus(pool, full)
      assert.strictEqual(before.warming, 0)
      for (const pid of before.ready) assert.isTrue(isAlive(pid))
      assert.includeMembers(processesIn(cwd), [...before.ready])

      const session = yield* pool.claim()
      // The oldest ready process, spawned and initialized before the claim.
      assert.strictEqual(session.pid, before.ready[0])
      assert.strictEqual(session.initialization.pid, session.pid)
      const messages = yield* collect(session.turn("hello, pool"))
      assert.strictEqual(resultOf(messages).result, "pooled answer")
      assert.include(yield* ScriptedModel.lastTurnRequest.pipe(Effect.map((r) => r.lastUserText)), "hello, pool")

      // The claim started a replacement: the pool is full again with a new process, the claimed one not in it.
      const after = yield* awaitStatus(pool, full)
      assert.notInclude(after.ready, session.pid)
      assert.include(after.ready, before.ready[1])
      assert.strictEqual(after.ready.length, 2)
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("pooled answer")]))))

  it.live("SessionPool.query runs a prompt on a claimed process, which is gone when the stream ends", () =>
    Effect.gen(function*() {
      const pool = yield* SessionPool.SessionPool
      const { ready } = yield* awaitStatus(pool, full)
      const messages = yield* collect(SessionPool.query("one shot"))
      assert.strictEqual(resultOf(messages).result, "from the pool")
      assert.isDefined(initOf(messages))
      assert.isFalse(isAlive(ready[0]), "the claimed process ended with its query")
    }).pipe(
      Effect.provide(Layer.provideMerge(SessionPool.layer({ size: 1 }), harness([ScriptedModel.text("from the pool")])))
    ))

  it.live("SessionPool.result returns the turn's result from a claimed process, which is gone afterwards", () =>
    Effect.gen(function*() {
      const pool = yield* SessionPool.SessionPool
      const { ready } = yield* awaitStatus(pool, full)
      const result = yield* SessionPool.result("one shot")
      assert.strictEqual(result.result, "from the pool")
      assert.isFalse(isAlive(ready[0]), "the claimed process ended with its turn")
    }).pipe(
      Effect.provide(Layer.provideMerge(SessionPool.layer({ size: 1 }), harness([ScriptedModel.text("from the pool")])))
    ))

  it.live("claims wait for the next warm-up when none is ready, each gets its own process", () =>
    Effect.gen(function*() {
      const pool = yield* SessionPool.make({ size: 1 })
      yield* awaitStatus(pool, full)
      const [first, second] = yield* Effect.all([
        Effect.flatMap(pool.claim(), (s) => Effect.map(collect(s.turn("a")), (m) => [s.pid, resultOf(m).result])),
        Effect.flatMap(pool.claim(), (s) => Effect.map(collect(s.turn("b")), (m) => [s.pid, resultOf(m).result]))
      ], { concurrency: "unbounded" })
      assert.notStrictEqual(first[0], second[0])
      assert.sameMembers([first[1], second[1]], ["same", "same"])
    }).pipe(
      Effect.scoped,
      Effect.provide(harness([ScriptedModel.rule(() => ScriptedModel.text("same"))]))
    ))

  it.live("closing the pool's scope kills every process it started, by pid: ready, claimed and being warmed", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const poolScope = yield* Scope.make()
      const pool = yield* SessionPool.make({ size: 2 }).pipe(Scope.provide(poolScope))
      yield* awaitStatus(pool, full)
      // A claim from a scope that outlives the pool: its session still closes with the pool.
      const claimed = yield* pool.claim()
      // The replacement is being warmed: spawned, not yet initialized.
      const pids = yield* pollProcesses(cwd, (pids) => pids.length === 3)
      const status = yield* pool.status
      assert.strictEqual(status.warming, 1, "one warm-up in flight when the pool closes")
      assert.include(pids, claimed.pid)
      yield* closeWithin(poolScope, "10 seconds")
      for (const pid of pids) assert.isFalse(isAlive(pid), `pid ${pid} is still alive`)
      assert.deepStrictEqual(processesIn(cwd), [])
      const error = yield* pool.claim().pipe(Effect.flip)
      assert.strictEqual(error._tag, "SessionPoolError")
      assert.strictEqual(error._tag === "SessionPoolError" && error.reason, "Closed")
    }).pipe(Effect.scoped, Effect.provide(harness([]))))

  it.live("closing the pool while its first warm-ups are spawning leaves nothing behind", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const poolScope = yield* Scope.make()
      const pool = yield* SessionPool.make({ size: 3 }).pipe(Scope.provide(poolScope))
      const pids = yield* pollProcesses(cwd, (pids) => pids.length >= 1)
      assert.isAbove((yield* pool.status).warming, 0)
      yield* closeWithin(poolScope, "10 seconds")
      for (const pid of pids) assert.isFalse(isAlive(pid), `pid ${pid} is still alive`)
      assert.deepStrictEqual(processesIn(cwd), [])
    }).pipe(Effect.scoped, Effect.provide(harness([]))))

  it.live("a pooled process that dies while idle is replaced", () =>
    Effect.gen(function*() {
      const pool = yield* SessionPool.make({ size: 1 })
      const { ready: [killed] } = yield* awaitStatus(pool, full)
      process.kill(killed, "SIGKILL")
      const { ready: [replacement] } = yield* awaitStatus(pool, (s) => full(s) && s.ready[0] !== killed)
      assert.isFalse(isAlive(killed))
      assert.isTrue(isAlive(replacement))
      const session = yield* pool.claim()
      assert.strictEqual(session.pid, replacement)
      const messages = yield* collect(session.turn("still there?"))
      assert.strictEqual(resultOf(messages).result, "replaced")
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("replaced")]))))

  it.live("a warm-up that fails is a typed error for the claim, not a hang, and the pool keeps retrying", () =>
    Effect.gen(function*() {
      const pool = yield* SessionPool.make({ size: 1, options: { executable: "/nonexistent/claude" } })
      const error = yield* pool.claim().pipe(Effect.flip, Effect.timeout("20 seconds"))
      assert.strictEqual(error._tag, "CliNotFoundError")
      const status = yield* pool.status
      assert.isTrue(Option.isSome(status.failure))
      assert.deepStrictEqual(status.ready, [])
    }).pipe(Effect.scoped, Effect.provide(harness([]))))

  it.live("a CLI that fails the initialize handshake: InitializeError, and no process left", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const pool = yield* SessionPool.make({ size: 1, options: { executable: badInitializeCli } })
      const error = yield* pool.claim().pipe(Effect.flip, Effect.timeout("20 seconds"))
      assert.strictEqual(error._tag, "InitializeError")
      // Between retries nothing runs (the retry waits at least 200 ms after a failure).
      yield* awaitStatus(pool, (s) => s.warming === 0 && Option.isSome(s.failure))
      assert.deepStrictEqual(processesIn(cwd), [])
    }).pipe(Effect.scoped, Effect.provide(harness([]))))

  it.live("the pool's hooks and gate answer for a claimed session: the gate's denial leaves the file uncreated", () =>
    Effect.gen(function*() {
      const workspace = yield* Workspace
      const asked = yield* Ref.make<ReadonlyArray<string>>([])
      const handlers = Layer.mergeAll(
        PermissionGate.layer((request) =>
          Effect.as(
            Ref.update(asked, (all) => [...all, `gate:${String(request.input.command)}`]),
            PermissionResult.deny("the pool's gate says no")
          )
        ),
        HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
          Effect.as(
            Ref.update(asked, (all) => [...all, `hook:${String((input.tool_input as { command?: unknown }).command)}`]),
            HookResult.empty
          ))
      )
      const pool = yield* Layer.build(SessionPool.layer({ size: 1 }).pipe(Layer.provide(handlers))).pipe(
        Effect.map((context) => Layer.succeedContext(context))
      )
      // The claimer's context has neither the gate nor the hooks: the pool's apply.
      const messages = yield* collect(SessionPool.query("write it")).pipe(Effect.provide(pool))
      assert.strictEqual(resultOf(messages).result, "denied, fine")
      assert.isFalse(workspace.exists("gated.txt"))
      assert.deepStrictEqual(yield* Ref.get(asked), ["hook:touch gated.txt", "gate:touch gated.txt"])
      const results = yield* ScriptedModel.toolResults
      assert.include(results[0].content, "the pool's gate says no")
    }).pipe(Effect.scoped, Effect.provide(harness([bash("touch gated.txt"), ScriptedModel.text("denied, fine")]))))

  it.live("a claim from a context with a gate or hooks the pool lacks fails with HandlersMismatch", () =>
    Effect.gen(function*() {
      const pool = yield* SessionPool.make({ size: 1 })
      const gated = yield* pool.claim().pipe(
        Effect.provide(PermissionGate.layer(() => Effect.succeed(PermissionResult.allow()))),
        Effect.flip
      )
      assert.strictEqual(gated._tag, "SessionPoolError")
      assert.strictEqual(gated._tag === "SessionPoolError" && gated.reason, "HandlersMismatch")
      assert.include(gated.message, "PermissionGate")
      const hooked = yield* pool.claim().pipe(
        Effect.provide(HookLayer.stop({ name: "audit-stop" }, () => Effect.succeed(HookResult.empty))),
        Effect.flip
      )
      assert.strictEqual(hooked._tag, "SessionPoolError")
      assert.include(hooked.message, "audit-stop")
      // Nothing was taken from the pool by the refused claims.
      const status = yield* awaitStatus(pool, full)
      assert.strictEqual(status.ready.length, 1)
    }).pipe(Effect.scoped, Effect.provide(harness([]))))

  it.live("a claim from the pool's own context, its hooks included, is not refused, and the hooks fire", () =>
    Effect.gen(function*() {
      const stops = yield* Ref.make(0)
      yield* Effect.gen(function*() {
        const pool = yield* SessionPool.make({ size: 1 })
        const session = yield* pool.claim()
        const messages = yield* collect(session.turn("and stop"))
        assert.strictEqual(resultOf(messages).result, "stopped")
      }).pipe(
        Effect.provide(
          HookLayer.stop({ name: "audit-stop" }, () => Effect.as(Ref.update(stops, (n) => n + 1), HookResult.empty))
        ),
        Effect.scoped
      )
      assert.strictEqual(yield* Ref.get(stops), 1)
    }).pipe(Effect.provide(harness([ScriptedModel.text("stopped")]))))

  it.live("a claim sets the model and permission mode over the control channel; other options are refused", () =>
    Effect.gen(function*() {
      const pool = yield* SessionPool.make({ size: 1 })
      const fixed = yield* pool.claim({ cwd: "/tmp" } as SessionPool.ClaimOptions).pipe(Effect.flip)
      assert.strictEqual(fixed._tag, "OptionsError")
      assert.include(fixed.message, "cwd: fixed when a pooled process starts")
      const session = yield* pool.claim({ model: "claude-opus-4-1-claimed", permissionMode: "acceptEdits" })
      const messages = yield* collect(session.turn("which model?"))
      assert.strictEqual(initOf(messages).permissionMode, "acceptEdits")
      assert.strictEqual((yield* ScriptedModel.lastTurnRequest).model, "claude-opus-4-1-claimed")
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("that one")]))))

  it.live("with a refillDelay, the replacement is spawned only once the delay has passed", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const pool = yield* fullPoolOfOne({ refillDelay: "1500 millis" })
      const session = yield* pool.claim()
      const claimedAt = Date.now()
      const turn = yield* Effect.forkChild(collect(session.turn("first turn alone")))
      assert.isAtLeast(yield* replacementSpawnedAfter(cwd, session.pid, claimedAt), 1_450)
      assert.strictEqual(resultOf(yield* Fiber.join(turn)).result, "alone")
      yield* awaitStatus(pool, full)
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("alone")]))))

  it.live("by default, the replacement is spawned once the claimed session has heard from its CLI", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const pool = yield* fullPoolOfOne()
      const session = yield* pool.claim()
      const claimedAt = Date.now()
      const turn = yield* Effect.forkChild(collect(session.turn("first message first")))
      // The CLI answers the prompt within milliseconds: its first message, not the one-second bound, starts the
      // replacement.
      assert.isBelow(yield* replacementSpawnedAfter(cwd, session.pid, claimedAt), 900)
      assert.strictEqual(resultOf(yield* Fiber.join(turn)).result, "heard")
      yield* awaitStatus(pool, full)
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("heard")]))))

  it.live("a claimed session that sends nothing gets its replacement a second after the claim", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const pool = yield* fullPoolOfOne()
      const session = yield* pool.claim()
      assert.isAtLeast(yield* replacementSpawnedAfter(cwd, session.pid, Date.now()), 950)
      yield* awaitStatus(pool, full)
    }).pipe(Effect.scoped, Effect.provide(harness([]))))

  it.live("a claim that finds none ready starts the pending replacement at once", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Workspace
      const pool = yield* fullPoolOfOne()
      const first = yield* pool.claim()
      // The first claimer sends nothing, so only the waiting claim can start the replacement before the bound.
      const claimedAt = Date.now()
      const second = yield* Effect.forkChild(Effect.scoped(Effect.map(pool.claim(), (session) => session.pid)))
      assert.isBelow(yield* replacementSpawnedAfter(cwd, first.pid, claimedAt), 900)
      assert.notStrictEqual(yield* Fiber.join(second), first.pid)
    }).pipe(Effect.scoped, Effect.provide(harness([]))))

  it.effect("size must be a positive integer, refillDelay a duration", () =>
    Effect.gen(function*() {
      const error = yield* SessionPool.make({ size: 0 }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "OptionsError")
      assert.include(error.message, "size: expected a positive integer")
      const delay = yield* SessionPool.make({ size: 1, refillDelay: "soon" as never }).pipe(Effect.flip)
      assert.include(delay.message, "refillDelay: expected a duration")
    }).pipe(Effect.scoped, Effect.provide(harness([]))))

  it.live("an interrupted waiting claim takes nothing from the pool", () =>
    Effect.gen(function*() {
      const pool = yield* SessionPool.make({ size: 1 })
      const waiting = yield* Effect.forkChild(Effect.scoped(pool.claim()))
      yield* Effect.sleep("10 millis")
      yield* Fiber.interrupt(waiting)
      const { ready } = yield* awaitStatus(pool, full)
      const session = yield* pool.claim()
      assert.strictEqual(session.pid, ready[0])
    }).pipe(Effect.scoped, Effect.provide(harness([]))))
})
