/**
 * Runner processes and a client process on 127.0.0.1 over one PostgreSQL, every prompt a Bash command under
 * the runner's PreToolUse hook. Three runners, 30 sessions of two prompts each, one runner SIGKILLed while
 * turns run: its sessions complete on the others, resumed from the session store. Two runners, one shut
 * down (SIGTERM) while turns run: its turns in flight are interrupted and delivered again to the other.
 */
import { ClaudeSession } from "@claude-effect/cluster"
import { cliProcessesOf, isAlive } from "@claude-effect/test-support/Harness"
import { PostgresServer, ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import {
  awaitShardsSpread,
  clusterSecret,
  type Fixture,
  freePort,
  parentOf,
  sessionIdsOf,
  spawn
} from "./utils/processes.js"
import { model, promptText, readLines } from "./utils/scenario.js"

const SESSIONS = Number(process.env.CLUSTER_SESSIONS ?? 30)

/** What happened when, and the fixtures' output: the message of a test that fails or does not finish. */
const makeTrace = (sessions: number) => {
  const runners: Array<Fixture> = []
  const clients: Array<Fixture> = []
  const startedAt = Date.now()
  const timeline: Array<string> = []
  const mark = (what: string) => Effect.sync(() => timeline.push(`${(Date.now() - startedAt) / 1000}s ${what}`))
  // With CLUSTER_DEBUG_DIR, every fixture's log there (when the test ends, passed or not).
  const dump = () => {
    if (process.env.CLUSTER_DEBUG_DIR === undefined) return
    for (const fixture of [...runners, ...clients]) {
      Fs.writeFileSync(Path.join(process.env.CLUSTER_DEBUG_DIR, `${fixture.name}.log`), fixture.stderr())
    }
  }
  const report = (headline: string) => {
    const finished = new Set(
      clients.flatMap((c) => c.events).flatMap((e) => e.event === "done" ? [`${e.entityId}-${e.n}`] : [])
    )
    const missing = Array.from({ length: sessions }, (_, i) => [1, 2].map((n) => `user-${i}-${n}`)).flat()
      .filter((id) => !finished.has(id))
    dump()
    const failed = clients.flatMap((c) => c.events).flatMap((e) =>
      e.event === "failed" ? [`${e.entityId}-${e.n}: ${e.cause.slice(0, 2000)}`] : []
    )
    return new Error(
      `${headline}\n${timeline.join("\n")}\nthe client finished ${finished.size} of ${2 * sessions} prompts; ` +
        `missing ${missing.join(", ")}\n` + (failed.length > 0 ? `failed:\n${failed.join("\n")}\n` : "") +
        [...runners, ...clients].map((f) => `--- ${f.name}\n${f.stderr().slice(-4000)}`).join("\n")
    )
  }
  return { runners, clients, mark, report, dump }
}
type Trace = ReturnType<typeof makeTrace>

/**
 * PostgreSQL and the runners, one after the other (the first creates the cluster's tables), each a "machine"
 * with a HOME and CLAUDE_CONFIG_DIR of its own; done when the shards are spread over them all.
 */
const startRunners = (trace: Trace, names: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const root = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-cluster-runners-")))
    yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
    yield* Effect.addFinalizer(() => Effect.sync(trace.dump))
    const database = yield* PostgresServer.make()
    const cliEnv = (yield* ScriptedModel.ScriptedModel).cliEnv
    const sessionsRoot = Path.join(root, "sessions")
    yield* trace.mark("PostgreSQL up")
    for (const name of names) {
      const home = Path.join(root, name)
      Fs.mkdirSync(Path.join(home, ".claude"), { recursive: true })
      const runner = yield* spawn(name, "runner.ts", {
        CLAUDE_CLUSTER_SECRET: clusterSecret,
        ...env,
        RUNNER_NAME: name,
        RUNNER_PORT: String(yield* freePort),
        DATABASE_URL: database.url,
        SESSIONS_ROOT: sessionsRoot,
        CLI_ENV: JSON.stringify({ ...cliEnv, HOME: home, CLAUDE_CONFIG_DIR: Path.join(home, ".claude") })
      })
      trace.runners.push(runner)
      yield* runner.on((e) => e.event === "ready").pipe(
        Effect.timeoutOrElse({
          duration: "60 seconds",
          orElse: () => Effect.fail(trace.report(`${name} not ready in 60 s`))
        })
      )
      yield* trace.mark(`${name} ready`)
    }
    // Each runner takes its shards a moment after it is ready, once the others have let go of theirs: the
    // prompts go out when all of them hold their share.
    yield* awaitShardsSpread(database.url, names.length)
    yield* trace.mark("shards spread")
    const client = (sessions: number) =>
      Effect.tap(
        spawn("client", "client.ts", {
          DATABASE_URL: database.url,
          SESSIONS: String(sessions),
          CLAUDE_CLUSTER_SECRET: clusterSecret
        }),
        (client) => Effect.sync(() => trace.clients.push(client))
      )
    return { runners: trace.runners, sessionsRoot, client }
  })

const hooksOf = (sessionsRoot: string, entityId: string) =>
  readLines(Path.join(ClaudeSession.directoryOf(sessionsRoot, entityId), "hooks.log"))

/** Every prompt of every session completed with its own result, on the session's own id. */
const assertAllDone = (client: Fixture, sessions: number) => {
  const done = client.events.filter((e) => e.event === "done")
  assert.deepStrictEqual(client.events.filter((e) => e.event === "failed"), [], "no prompt failed")
  assert.strictEqual(done.length, 2 * sessions, "every prompt completed")
  for (let i = 0; i < sessions; i++) {
    const entityId = `user-${i}`
    for (const n of [1, 2]) {
      const event = done.find((e) => e.entityId === entityId && e.n === n)!
      assert.strictEqual(event.result, `done ${entityId}-p${n}`)
      assert.strictEqual(event.sessionId, ClaudeSession.sessionIdOf(entityId))
    }
  }
}

// Inside the test's own timeout (with room for the teardown), so that a hang says where it was.
// A failed assertion reports too (the timeline, and with CLUSTER_DEBUG_DIR the fixtures' logs).
const within = (trace: Trace, seconds: number) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.timeoutOrElse({
      duration: `${seconds} seconds`,
      orElse: () => Effect.fail(trace.report(`not done within ${seconds} s`))
    }),
    Effect.catchDefect((defect) => Effect.die(trace.report(String(defect))))
  )

const live = <A, E>(
  model: ScriptedModel.Step,
  effect: Effect.Effect<A, E, ScriptedModel.ScriptedModel | Scope.Scope>
) =>
  effect.pipe(
    Effect.scoped,
    Effect.provide(Layer.provideMerge(ScriptedModel.layerNode([model]), NodeServices.layer))
  )

describe("ClaudeCluster over PostgreSQL: three runners and a client, one runner killed mid-turn", () => {
  it.live(
    `${SESSIONS} sessions, two prompts each: every prompt completes, the killed runner's sessions resume elsewhere`,
    () => {
      const trace = makeTrace(SESSIONS)
      return live(
        model({ delayMillis: 500 }),
        Effect.gen(function*() {
          const { client: startClient, runners, sessionsRoot } = yield* startRunners(trace, [
            "runner-a",
            "runner-b",
            "runner-c"
          ])
          const pids = runners.map((runner) => runner.child.pid!)
          const client = yield* startClient(SESSIONS)
          // Kill a runner while turns run: once a third of the first prompts are done, the one with the most CLIs.
          yield* client.on(() => client.events.filter((e) => e.event === "done").length >= Math.ceil(SESSIONS / 3))
            .pipe(
              Effect.timeoutOrElse({
                duration: "120 seconds",
                orElse: () => Effect.fail(trace.report("a third in 120 s"))
              })
            )
          const held = runners.map((runner) => cliProcessesOf(runner.child.pid!))
          const victimIndex = held.reduce((best, clis, i) => clis.length > held[best]!.length ? i : best, 0)
          const victim = runners[victimIndex]!
          const orphans = held[victimIndex]!
          // The sessions whose CLI ran on the killed runner.
          const victimSessions = sessionIdsOf(orphans)
          assert.isAbove(orphans.length, 0, "the killed runner holds sessions")
          victim.child.kill("SIGKILL")
          const killedAt = Date.now()
          yield* trace.mark(`killed ${victim.name} (CLIs held: ${held.map((c) => c.length).join(", ")})`)
          yield* victim.exited
          // Its CLI processes end by themselves: their stdin is gone. One waiting for its runner's answer to a
          // hook question waits out the hook's timeout (the CLI's: 5 s + 5 s) first.
          while (orphans.some(isAlive) && Date.now() - killedAt < 30_000) yield* Effect.sleep("100 millis")
          assert.deepStrictEqual(orphans.filter(isAlive), [], "the killed runner's CLIs are gone within 30 s")
          yield* trace.mark(`the killed runner's CLIs gone after ${Date.now() - killedAt} ms`)

          yield* client.on((e) => e.event === "finished").pipe(
            Effect.timeoutOrElse({
              duration: "180 seconds",
              orElse: () => Effect.fail(trace.report("not finished in 180 s"))
            })
          )
          yield* trace.mark("client finished")
          assertAllDone(client, SESSIONS)

          const requests = yield* ScriptedModel.turnRequests
          const entities = Array.from({ length: SESSIONS }, (_, i) => `user-${i}`)
          for (const entityId of entities) {
            // Both commands ran (a turn cut by the kill may have run again: at least once each), each under a
            // runner's hook, whose rewrite left the runner's name.
            const turns = readLines(Path.join(ClaudeSession.directoryOf(sessionsRoot, entityId), "turns.log"))
            assert.include(turns, `${entityId}-p1`)
            assert.include(turns, `${entityId}-p2`)
            assert.isAtLeast(hooksOf(sessionsRoot, entityId).length, 2)
            // Continuity: the second prompt's request carries the first turn, wherever it ran.
            const second = requests.filter((r) => r.lastUserText.includes(promptText(entityId, 2)))
            assert.isAbove(second.length, 0)
            for (const request of second) {
              assert.isTrue(request.includes(`done ${entityId}-p1`), `${entityId}: turn 1 carried`)
            }
          }
          // Every runner held sessions: their CLIs at the kill, or their hooks' marks.
          const used = new Set(entities.flatMap((id) => hooksOf(sessionsRoot, id)))
          held.forEach((clis, i) => clis.length > 0 && used.add(runners[i]!.name))
          assert.deepStrictEqual([...used].sort(), runners.map((r) => r.name), "the sessions were spread")
          // The killed runner's sessions went on elsewhere: their later commands ran under another runner's hook.
          const moved = entities.filter((id) =>
            victimSessions.includes(ClaudeSession.sessionIdOf(id)) &&
            hooksOf(sessionsRoot, id).some((r) => r !== victim.name)
          )
          assert.isAbove(moved.length, 0, "the killed runner's sessions resumed on another runner")

          // The others shut down gracefully: their sessions are closed, nothing is left running.
          const others = runners.filter((runner) => runner !== victim)
          const clis = others.flatMap((runner) => cliProcessesOf(runner.child.pid!))
          for (const runner of others) runner.child.kill("SIGTERM")
          yield* Effect.forEach(others, (runner) => runner.exited.pipe(Effect.timeout("30 seconds")), {
            discard: true
          })
          // effect 4's runMain ends a program interrupted by a signal with 130 (a failure or defect: 1).
          for (const runner of others) assert.strictEqual(runner.child.exitCode, 130, `${runner.name} exited cleanly`)
          assert.deepStrictEqual([...pids, ...clis].filter(isAlive), [], "nothing left running")
        }).pipe(within(trace, 330))
      )
    },
    400_000
  )
})

describe("ClaudeCluster over PostgreSQL: a runner shut down mid-turn", () => {
  const sessions = 6
  it.live(
    "its turns in flight are interrupted once the termination timeout is up and run again on the other runner",
    () => {
      const trace = makeTrace(sessions)
      // Turns of 4 s, a termination timeout of 1 s: the turns in flight when runner-a stops cannot finish there.
      return live(
        model({ delayMillis: 4_000 }),
        Effect.gen(function*() {
          const { client: startClient, runners, sessionsRoot } = yield* startRunners(trace, [
            "runner-a",
            "runner-b"
          ], { ENTITY_TERMINATION_TIMEOUT: "1 second" })
          const client = yield* startClient(sessions)
          // The first runner whose CLIs run commands (a shell under each) is stopped, gracefully: the sessions
          // may all have landed on either runner.
          const runningCommands = (runner: Fixture) => {
            const processes = Fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).map(Number)
            return cliProcessesOf(runner.child.pid!).filter((pid) => processes.some((p) => parentOf(p) === pid))
          }
          let stopped: Fixture | undefined
          let clis: Array<number> = []
          while (stopped === undefined) {
            yield* Effect.sleep("100 millis")
            for (const runner of runners) {
              clis = runningCommands(runner)
              if (clis.length > 0) {
                stopped = runner
                break
              }
            }
          }
          const other = runners.find((runner) => runner !== stopped)!
          const interrupted = sessionIdsOf(clis)
          stopped.child.kill("SIGTERM")
          yield* trace.mark(`SIGTERM to ${stopped.name} while ${interrupted.length} of its CLIs run commands`)
          yield* stopped.exited
          assert.strictEqual(stopped.child.exitCode, 130, "the runner shut down cleanly (runMain's interrupted exit)")
          assert.deepStrictEqual(clis.filter(isAlive), [], "its CLIs ended with it")

          yield* client.on((e) => e.event === "finished").pipe(
            Effect.timeoutOrElse({
              duration: "120 seconds",
              orElse: () => Effect.fail(trace.report("not finished in 120 s"))
            })
          )
          yield* trace.mark("client finished")
          assertAllDone(client, sessions)
          // The interrupted turns ran again, to the end, under the other runner's hook.
          for (let i = 0; i < sessions; i++) {
            const entityId = `user-${i}`
            if (!interrupted.includes(ClaudeSession.sessionIdOf(entityId))) continue
            assert.include(hooksOf(sessionsRoot, entityId), other.name, `${entityId} went on on ${other.name}`)
          }
          other.child.kill("SIGTERM")
          yield* other.exited
          assert.strictEqual(other.child.exitCode, 130)
        }).pipe(within(trace, 200))
      )
    },
    260_000
  )
})
