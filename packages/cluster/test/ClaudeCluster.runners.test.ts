/**
 * Runner processes and a client process on 127.0.0.1 over one PostgreSQL, every prompt a Bash command under
 * the runner's PreToolUse hook. Three runners, 30 sessions of two prompts each, one runner SIGKILLed while
 * turns run: its sessions complete on the others, resumed from the session store. Two runners, one shut
 * down (SIGTERM) while turns run: its turns in flight are interrupted and delivered again to the other.
 */
import { ClaudeSession } from "@claude-effect/cluster"
import { cliProcessesOf, isAlive } from "@claude-effect/test-support/Harness"
import { PostgresServer, ScriptedModel } from "@claude-effect/testkit"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { PgClient } from "@effect/sql-pg"
import * as SqlClient from "@effect/sql/SqlClient"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { model, promptText, readLines } from "./utils/scenario.js"

const SESSIONS = Number(process.env.CLUSTER_SESSIONS ?? 30)
const fixtures = Path.join(import.meta.dirname, "fixtures")
const packageDir = Path.resolve(import.meta.dirname, "..")

/** What the fixture processes print, one JSON line each (fixtures/runner.ts, fixtures/client.ts). */
const FixtureEvent = Schema.Union(
  Schema.Struct({ event: Schema.Literal("ready"), name: Schema.String, pid: Schema.Number }),
  Schema.Struct({
    event: Schema.Literal("done"),
    entityId: Schema.String,
    n: Schema.Number,
    result: Schema.optional(Schema.String),
    sessionId: Schema.optional(Schema.String)
  }),
  Schema.Struct({ event: Schema.Literal("failed"), entityId: Schema.String, n: Schema.Number, cause: Schema.String }),
  Schema.Struct({ event: Schema.Literal("finished") })
)
type FixtureEvent = typeof FixtureEvent.Type
const decodeEvent = Schema.decodeUnknownOption(Schema.parseJson(FixtureEvent))

interface Fixture {
  readonly name: string
  readonly child: ChildProcess.ChildProcess
  readonly events: Array<FixtureEvent>
  readonly stderr: () => string
  readonly on: (predicate: (event: FixtureEvent) => boolean) => Effect.Effect<FixtureEvent>
  readonly exited: Effect.Effect<void>
}

/** A fixture program in a child process (tsx), its stdout read as JSON lines; killed when the scope closes. */
const spawn = (name: string, file: string, env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync((): Fixture => {
      const child = ChildProcess.spawn(process.execPath, ["--import", "tsx", Path.join(fixtures, file)], {
        cwd: packageDir,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"]
      })
      const events: Array<FixtureEvent> = []
      const waiters: Array<{ predicate: (e: FixtureEvent) => boolean; resume: (e: FixtureEvent) => void }> = []
      let buffer = ""
      let stderr = ""
      child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
        buffer += chunk
        let newline = buffer.indexOf("\n")
        while (newline !== -1) {
          const line = buffer.slice(0, newline)
          buffer = buffer.slice(newline + 1)
          newline = buffer.indexOf("\n")
          const decoded = decodeEvent(line)
          if (Option.isNone(decoded)) {
            // a log line
            stderr = (stderr + line + "\n").slice(-200_000)
            continue
          }
          const event = decoded.value
          events.push(event)
          for (const waiter of [...waiters]) {
            if (waiter.predicate(event)) {
              waiters.splice(waiters.indexOf(waiter), 1)
              waiter.resume(event)
            }
          }
        }
      })
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => void (stderr = (stderr + chunk).slice(-200_000)))
      const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      return {
        name,
        child,
        events,
        stderr: () => stderr,
        on: (predicate) =>
          Effect.async<FixtureEvent>((resume) => {
            const found = events.find(predicate)
            if (found !== undefined) return resume(Effect.succeed(found))
            waiters.push({ predicate, resume: (event) => resume(Effect.succeed(event)) })
          }),
        exited: Effect.promise(() => exit)
      }
    }),
    // Bounded: four of these in turn stay inside the hook timeout of a test that was cut short.
    (fixture) =>
      Effect.gen(function*() {
        if (fixture.child.exitCode !== null || fixture.child.signalCode !== null) return
        fixture.child.kill("SIGTERM")
        yield* fixture.exited.pipe(
          Effect.timeout("10 seconds"),
          Effect.catchAll(() => Effect.sync(() => fixture.child.kill("SIGKILL")))
        )
      })
  )

/** The parent of a process; undefined when it is gone. */
const parentOf = (pid: number): number | undefined => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}

/** The session ids of CLI processes, from their `--session-id=` or `--resume=` argument. */
const sessionIdsOf = (pids: ReadonlyArray<number>): Array<string> =>
  pids.flatMap((pid) => {
    try {
      const args = Fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
      const arg = args.find((a) => a.startsWith("--session-id=") || a.startsWith("--resume="))
      return arg === undefined ? [] : [arg.slice(arg.indexOf("=") + 1)]
    } catch {
      return [] // gone
    }
  })

/**
 * Waits (boundedly) until the shards are spread over `count` runners: as many database sessions (one lock
 * connection per runner) each hold at least a fifth of the shard locks, PostgreSQL advisory locks.
 */
const awaitShardsSpread = (url: string, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (let waited = 0; waited < 90_000; waited += 250) {
      const rows = yield* sql<{ readonly held: number }>`
        SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND granted GROUP BY pid`
      const total = rows.reduce((sum, row) => sum + row.held, 0)
      if (rows.length >= count && rows.every((row) => row.held >= total / 5)) return
      yield* Effect.sleep("250 millis")
    }
    return yield* Effect.die(new Error(`the shards were not spread over ${count} runners within 90 s`))
  }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.orDie)

const freePort = Effect.async<number>((resume) => {
  const server = Net.createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address() as Net.AddressInfo
    server.close(() => resume(Effect.succeed(address.port)))
  })
})

/** What happened when, and the fixtures' output: the message of a test that fails or does not finish. */
const makeTrace = (sessions: number) => {
  const runners: Array<Fixture> = []
  const clients: Array<Fixture> = []
  const startedAt = Date.now()
  const timeline: Array<string> = []
  const mark = (what: string) => Effect.sync(() => timeline.push(`${(Date.now() - startedAt) / 1000}s ${what}`))
  const report = (headline: string) => {
    const finished = new Set(
      clients.flatMap((c) => c.events).flatMap((e) => e.event === "done" ? [`${e.entityId}-${e.n}`] : [])
    )
    const missing = Array.from({ length: sessions }, (_, i) => [1, 2].map((n) => `user-${i}-${n}`)).flat()
      .filter((id) => !finished.has(id))
    if (process.env.CLUSTER_DEBUG_DIR !== undefined) {
      for (const fixture of [...runners, ...clients]) {
        Fs.writeFileSync(Path.join(process.env.CLUSTER_DEBUG_DIR, `${fixture.name}.log`), fixture.stderr())
      }
    }
    const failed = clients.flatMap((c) => c.events).flatMap((e) =>
      e.event === "failed" ? [`${e.entityId}-${e.n}: ${e.cause.slice(0, 2000)}`] : []
    )
    return new Error(
      `${headline}\n${timeline.join("\n")}\nthe client finished ${finished.size} of ${2 * sessions} prompts; ` +
        `missing ${missing.join(", ")}\n` + (failed.length > 0 ? `failed:\n${failed.join("\n")}\n` : "") +
        [...runners, ...clients].map((f) => `--- ${f.name}\n${f.stderr().slice(-4000)}`).join("\n")
    )
  }
  return { runners, clients, mark, report }
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
    const database = yield* PostgresServer.make()
    const cliEnv = (yield* ScriptedModel.ScriptedModel).cliEnv
    const sessionsRoot = Path.join(root, "sessions")
    yield* trace.mark("PostgreSQL up")
    for (const name of names) {
      const home = Path.join(root, name)
      Fs.mkdirSync(Path.join(home, ".claude"), { recursive: true })
      const runner = yield* spawn(name, "runner.ts", {
        ...env,
        RUNNER_NAME: name,
        RUNNER_PORT: String(yield* freePort),
        DATABASE_URL: database.url,
        SESSIONS_ROOT: sessionsRoot,
        CLI_ENV: JSON.stringify({ ...cliEnv, HOME: home, CLAUDE_CONFIG_DIR: Path.join(home, ".claude") })
      })
      trace.runners.push(runner)
      yield* runner.on((e) => e.event === "ready").pipe(
        Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => trace.report(`${name} not ready in 60 s`) })
      )
      yield* trace.mark(`${name} ready`)
    }
    // Each runner takes its shards a moment after it is ready, once the others have let go of theirs: the
    // prompts go out when all of them hold their share.
    yield* awaitShardsSpread(database.url, names.length)
    yield* trace.mark("shards spread")
    const client = (sessions: number) =>
      Effect.tap(
        spawn("client", "client.ts", { DATABASE_URL: database.url, SESSIONS: String(sessions) }),
        (client) => Effect.sync(() => trace.clients.push(client))
      )
    return { runners: trace.runners, sessionsRoot, client }
  })

const hooksOf = (sessionsRoot: string, entityId: string) => readLines(Path.join(sessionsRoot, entityId, "hooks.log"))

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
const within = (trace: Trace, seconds: number) =>
  Effect.timeoutFail({ duration: `${seconds} seconds`, onTimeout: () => trace.report(`not done within ${seconds} s`) })

const live = <A, E>(
  model: ScriptedModel.Step,
  effect: Effect.Effect<A, E, ScriptedModel.ScriptedModel | Scope.Scope>
) =>
  effect.pipe(
    Effect.scoped,
    Effect.provide(Layer.provideMerge(ScriptedModel.layerNode([model]), NodeContext.layer))
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
              Effect.timeoutFail({ duration: "120 seconds", onTimeout: () => trace.report("a third in 120 s") })
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
            Effect.timeoutFail({ duration: "180 seconds", onTimeout: () => trace.report("not finished in 180 s") })
          )
          yield* trace.mark("client finished")
          assertAllDone(client, SESSIONS)

          const requests = yield* ScriptedModel.turnRequests
          const entities = Array.from({ length: SESSIONS }, (_, i) => `user-${i}`)
          for (const entityId of entities) {
            // Both commands ran (a turn cut by the kill may have run again: at least once each), each under a
            // runner's hook, whose rewrite left the runner's name.
            const turns = readLines(Path.join(sessionsRoot, entityId, "turns.log"))
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
          for (const runner of others) assert.strictEqual(runner.child.exitCode ?? runner.child.signalCode, 0 as any)
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
          assert.strictEqual(stopped.child.exitCode, 0, "the runner shut down cleanly")
          assert.deepStrictEqual(clis.filter(isAlive), [], "its CLIs ended with it")

          yield* client.on((e) => e.event === "finished").pipe(
            Effect.timeoutFail({ duration: "120 seconds", onTimeout: () => trace.report("not finished in 120 s") })
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
          assert.strictEqual(other.child.exitCode, 0)
        }).pipe(within(trace, 200))
      )
    },
    260_000
  )
})
