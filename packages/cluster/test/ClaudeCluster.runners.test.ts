/**
 * Three runner processes and a client process on 127.0.0.1 over one PostgreSQL: 30 sessions, two prompts
 * each, every prompt a Bash command under the runner's PreToolUse hook. One runner is SIGKILLed while
 * turns run; its sessions complete on the others, resumed from the session store.
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
    (fixture) =>
      Effect.gen(function*() {
        if (fixture.child.exitCode !== null || fixture.child.signalCode !== null) return
        fixture.child.kill("SIGTERM")
        yield* fixture.exited.pipe(
          Effect.timeout("20 seconds"),
          Effect.catchAll(() => Effect.sync(() => fixture.child.kill("SIGKILL")))
        )
      })
  )

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

describe("ClaudeCluster over PostgreSQL: three runners and a client, one runner killed mid-turn", () => {
  it.live(
    `${SESSIONS} sessions, two prompts each: every prompt completes, the killed runner's sessions resume elsewhere`,
    () =>
      Effect.gen(function*() {
        const root = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-cluster-runners-")))
        yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
        const database = yield* PostgresServer.make()
        const cliEnv = (yield* ScriptedModel.ScriptedModel).cliEnv
        const sessionsRoot = Path.join(root, "sessions")

        // Three "machines": each runner with a HOME and CLAUDE_CONFIG_DIR of its own.
        const runners: Array<Fixture> = []
        for (const name of ["runner-a", "runner-b", "runner-c"]) {
          const home = Path.join(root, name)
          Fs.mkdirSync(Path.join(home, ".claude"), { recursive: true })
          const runner = yield* spawn(name, "runner.ts", {
            RUNNER_NAME: name,
            RUNNER_PORT: String(yield* freePort),
            DATABASE_URL: database.url,
            SESSIONS_ROOT: sessionsRoot,
            CLI_ENV: JSON.stringify({ ...cliEnv, HOME: home, CLAUDE_CONFIG_DIR: Path.join(home, ".claude") })
          })
          // One after the other: the first creates the cluster's tables.
          yield* runner.on((e) => e.event === "ready").pipe(
            Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new Error(`${name}: ${runner.stderr()}`) })
          )
          runners.push(runner)
        }
        const pids = runners.map((runner) => runner.child.pid!)
        // Each runner takes its shards a moment after it is ready, once the others have let go of theirs: the
        // prompts go out when all three hold their share.
        yield* awaitShardsSpread(database.url, runners.length)

        const client = yield* spawn("client", "client.ts", { DATABASE_URL: database.url, SESSIONS: String(SESSIONS) })
        // Kill a runner while turns run: once a third of the first prompts are done, the one with the most CLIs.
        yield* client.on(() => client.events.filter((e) => e.event === "done").length >= Math.ceil(SESSIONS / 3)).pipe(
          Effect.timeoutFail({ duration: "120 seconds", onTimeout: () => new Error(`client: ${client.stderr()}`) })
        )
        const victim = runners.reduce((a, b) =>
          cliProcessesOf(a.child.pid!).length >= cliProcessesOf(b.child.pid!).length ? a : b
        )
        const orphans = cliProcessesOf(victim.child.pid!)
        assert.isAbove(orphans.length, 0, "the killed runner holds sessions")
        victim.child.kill("SIGKILL")
        const killedAt = Date.now()
        yield* victim.exited
        // Its CLI processes end with it: their stdin is gone.
        while (orphans.some(isAlive) && Date.now() - killedAt < 10_000) yield* Effect.sleep("100 millis")
        assert.deepStrictEqual(orphans.filter(isAlive), [], "the killed runner's CLIs are gone within 10 s")

        yield* client.on((e) => e.event === "finished").pipe(
          Effect.timeoutFail({
            duration: "180 seconds",
            onTimeout: () => {
              const finished = new Set(
                client.events.filter((e) => e.event === "done").map((e) => `${e.entityId}-${e.n}`)
              )
              const missing = Array.from({ length: SESSIONS }, (_, i) => [1, 2].map((n) => `user-${i}-${n}`)).flat()
                .filter((id) => !finished.has(id))
              if (process.env.CLUSTER_DEBUG_DIR !== undefined) {
                for (const r of [...runners, client]) {
                  Fs.writeFileSync(Path.join(process.env.CLUSTER_DEBUG_DIR, `${r.name}.log`), r.stderr())
                }
              }
              return new Error(
                `killed at ${new Date(killedAt).toISOString()}; client finished ${finished.size} of ${
                  2 * SESSIONS
                }; missing ${missing.join(", ")}; killed ${victim.name}\n` +
                  runners.map((r) => `--- ${r.name}\n${r.stderr().slice(-4000)}`).join("\n") +
                  `\n--- client\n${client.stderr().slice(-3000)}`
              )
            }
          })
        )
        const done = client.events.filter((e) => e.event === "done")
        const failed = client.events.filter((e) => e.event === "failed")
        assert.deepStrictEqual(failed, [], "no prompt failed")
        assert.strictEqual(done.length, 2 * SESSIONS, "every prompt completed")

        const requests = yield* ScriptedModel.turnRequests
        const runnersUsed = new Set<string>()
        let moved = 0
        for (let i = 0; i < SESSIONS; i++) {
          const entityId = `user-${i}`
          for (const n of [1, 2]) {
            const event = done.find((e) => e.entityId === entityId && e.n === n)!
            assert.strictEqual(event.result, `done ${entityId}-p${n}`)
            assert.strictEqual(event.sessionId, ClaudeSession.sessionIdOf(entityId))
          }
          const dir = Path.join(sessionsRoot, entityId)
          // Both commands ran (a turn cut by the kill may have run again: at least once each), each under a
          // runner's hook, whose rewrite left the runner's name.
          const turns = readLines(Path.join(dir, "turns.log"))
          assert.include(turns, `${entityId}-p1`)
          assert.include(turns, `${entityId}-p2`)
          const hooks = readLines(Path.join(dir, "hooks.log"))
          assert.isAtLeast(hooks.length, 2)
          for (const runner of hooks) runnersUsed.add(runner)
          if (new Set(hooks).size > 1) moved++
          // Continuity: the second prompt's request carries the first turn, wherever it ran.
          const second = requests.filter((r) => r.lastUserText.includes(promptText(entityId, 2)))
          assert.isAbove(second.length, 0)
          for (const request of second) {
            assert.isTrue(request.includes(`done ${entityId}-p1`), `${entityId}: turn 1 carried`)
          }
        }
        assert.strictEqual(runnersUsed.size, 3, "the sessions were spread over the three runners")
        assert.include([...runnersUsed], victim.name)
        assert.isAbove(moved, 0, "some sessions moved to another runner")

        // The others shut down gracefully: their sessions are closed, nothing is left running.
        const live = runners.filter((runner) => runner !== victim)
        const clis = live.flatMap((runner) => cliProcessesOf(runner.child.pid!))
        for (const runner of live) runner.child.kill("SIGTERM")
        yield* Effect.forEach(live, (runner) => runner.exited.pipe(Effect.timeout("30 seconds")), { discard: true })
        for (const runner of live) assert.strictEqual(runner.child.exitCode ?? runner.child.signalCode, 0 as any)
        assert.deepStrictEqual([...pids, ...clis].filter(isAlive), [], "nothing left running")
      }).pipe(
        Effect.scoped,
        Effect.provide(Layer.provideMerge(ScriptedModel.layerNode([model({ delayMillis: 500 })]), NodeContext.layer))
      ),
    400_000
  )
})
