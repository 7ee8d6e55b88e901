/**
 * Failover, timed. Over PostgreSQL: two runner processes and a client process on 127.0.0.1; ten times, a
 * session takes a turn, the runner that served it is SIGKILLed, and its next turn is sent at once: the
 * time from the kill to the model's request of that turn from another runner (its CLI started there,
 * resumed with the earlier turn) is under 5 s every time, and the dead runner's CLIs are gone. Half the
 * sessions sit on the shard of `effect/cluster`'s health-check singleton, so that the killed runner is
 * the one that ran it. A fresh runner replaces the killed one before the next round.
 *
 * SQLite is one process (`layerSingle`): several runners over one SQLite file are not a supported
 * topology (its shard locks are rows that expire after 35 s, and runners reach each other by socket
 * only with PostgreSQL's layer). What it supports is a restart: the process SIGKILLed and started again
 * on its file serves the session's next turn with its history.
 */
import { ClaudeSession } from "@claude-effect/cluster"
import { cliProcessesOf, isAlive } from "@claude-effect/test-support/Harness"
import { PostgresServer, ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as EntityId from "effect/cluster/EntityId"
import * as Sharding from "effect/cluster/Sharding"
import * as TestRunner from "effect/cluster/TestRunner"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { ask, awaitShardsSpread, clusterSecret, type Fixture, freePort, spawn, startRunner } from "./utils/processes.js"
import { promptText, readLines, reply } from "./utils/scenario.js"

const RUNS = 10
const BOUND_MS = 5_000

/** When each turn's first model request arrived (wall clock), by its prompt. */
const arrivals = new Map<string, { readonly at: number; readonly runner: string | undefined }>()
const timedModel = ScriptedModel.rule((request) => {
  const prompt = /turn \S+/.exec(request.lastUserText)?.[0]
  if (prompt !== undefined && request.latestToolResults.length === 0 && !arrivals.has(prompt)) {
    arrivals.set(prompt, { at: Date.now(), runner: request.headers["x-cluster-runner"] })
  }
  return reply(request)
})

/** The shard of an id, as every runner computes it (`effect/cluster`'s own `Sharding`, 300 shards). */
const shardOf = (id: string) =>
  Effect.map(Effect.service(Sharding.Sharding), (sharding) => sharding.getShardId(EntityId.make(id), "default").id)
    .pipe(
      Effect.provide(TestRunner.layer),
      Effect.runSync
    )
// `@effect/cluster` runs its runners' health check as a singleton on the holder of this name's shard.
const healthCheckShard = shardOf("effect/cluster/Sharding/RunnerHealth")

/** An entity id of round `run`: on the health check's shard, or not. */
const entityFor = (run: number, onHealthCheckShard: boolean): string => {
  for (let k = 0;; k++) {
    const id = `failover-${run}-${k}`
    if ((shardOf(id) === healthCheckShard) === onHealthCheckShard) return id
  }
}

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const live = <A, E>(effect: Effect.Effect<A, E, ScriptedModel.ScriptedModel | NodeServices.NodeServices>) =>
  effect.pipe(Effect.provide(Layer.provideMerge(ScriptedModel.layerNode([timedModel]), NodeServices.layer)))

/** Waits (boundedly) for processes to be gone; the ones still alive. */
const awaitGone = (pids: ReadonlyArray<number>, millis: number) =>
  Effect.gen(function*() {
    const start = Date.now()
    while (pids.some(isAlive) && Date.now() - start < millis) yield* Effect.sleep("100 millis")
    return pids.filter(isAlive)
  })

describe("ClaudeCluster failover", () => {
  it.live(
    `PostgreSQL: a SIGKILLed runner's session is served by another runner within 5 s, with its history, ${RUNS} times`,
    () =>
      live(
        Effect.gen(function*() {
          const root = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-cluster-failover-")))
          yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
          const database = yield* PostgresServer.make()
          const cliEnv = (yield* ScriptedModel.ScriptedModel).cliEnv
          const sessionsRoot = Path.join(root, "sessions")
          let started = 0
          const newRunner = Effect.gen(function*() {
            const name = `runner-${++started}`
            return yield* startRunner({
              name,
              port: yield* freePort,
              databaseUrl: database.url,
              root,
              sessionsRoot,
              cliEnv,
              env: { CLAUDE_CLUSTER_SECRET: clusterSecret }
            })
          })
          const runners: Array<Fixture> = [yield* newRunner, yield* newRunner]
          yield* awaitShardsSpread(database.url, 2)
          const driver = yield* spawn("driver", "driver.ts", {
            DRIVER_MODE: "client",
            DATABASE_URL: database.url,
            CLAUDE_CLUSTER_SECRET: clusterSecret
          })
          yield* driver.on((e) => e.event === "ready")

          const rounds: Array<{ readonly millis: number; readonly victim: string; readonly healthCheck: boolean }> = []
          for (let run = 1; run <= RUNS; run++) {
            const healthCheck = run % 2 === 1
            const entityId = entityFor(run, healthCheck)
            const first = yield* ask(driver, {
              id: `${entityId}-1`,
              op: "prompt",
              entityId,
              prompt: promptText(entityId, 1)
            })
            assert.deepInclude(first, { event: "reply", result: `done ${entityId}-p1` })
            const hooks = Path.join(ClaudeSession.directoryOf(sessionsRoot, entityId), "hooks.log")
            const victim = runners.find((runner) => runner.name === readLines(hooks).at(-1))!
            assert.isDefined(victim, "a runner served the first turn")
            const clis = cliProcessesOf(victim.child.pid!)

            victim.child.kill("SIGKILL")
            const killedAt = Date.now()
            runners.splice(runners.indexOf(victim), 1)
            const second = yield* ask(driver, {
              id: `${entityId}-2`,
              op: "prompt",
              entityId,
              prompt: promptText(entityId, 2)
            })
            assert.deepInclude(second, { event: "reply", result: `done ${entityId}-p2` }, `round ${run}`)

            const arrival = arrivals.get(promptText(entityId, 2))!
            const millis = arrival.at - killedAt
            rounds.push({ millis, victim: victim.name, healthCheck })
            // Served by another runner (its CLI's requests carry its name), with the first turn in the request.
            assert.notStrictEqual(arrival.runner, victim.name)
            assert.strictEqual(arrival.runner, readLines(hooks).at(-1))
            const request = (yield* ScriptedModel.turnRequests).find((r) =>
              r.lastUserText.includes(promptText(entityId, 2))
            )!
            assert.isTrue(request.includes(`done ${entityId}-p1`), `round ${run}: the first turn came along`)
            assert.deepStrictEqual(yield* awaitGone(clis, 10_000), [], `round ${run}: the dead runner's CLIs are gone`)

            runners.push(yield* newRunner)
            yield* awaitShardsSpread(database.url, 2)
          }
          const times = rounds.map((round) => round.millis)
          console.log(
            `failover over PostgreSQL, kill → next turn's model request from another runner (ms): ` +
              `min ${Math.min(...times)}, median ${median(times)}, max ${Math.max(...times)}; ` +
              rounds.map((r) => `${r.millis}${r.healthCheck ? " (health-check holder)" : ""}`).join(", ")
          )
          for (const [i, round] of rounds.entries()) {
            assert.isBelow(round.millis, BOUND_MS, `round ${i + 1} (${round.victim} killed) took ${round.millis} ms`)
          }
        }).pipe(Effect.scoped)
      ),
    600_000
  )

  it.live(
    `SQLite (one process): SIGKILLed and started again on its file, it serves the session's next turn with its history, ${RUNS} times`,
    () =>
      live(
        Effect.gen(function*() {
          const root = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-cluster-restart-")))
          yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
          const cliEnv = (yield* ScriptedModel.ScriptedModel).cliEnv
          const home = Path.join(root, "home")
          Fs.mkdirSync(Path.join(home, ".claude"), { recursive: true })
          const start = Effect.gen(function*() {
            const process = yield* spawn("single", "driver.ts", {
              DRIVER_MODE: "single",
              SQLITE_FILE: Path.join(root, "cluster.db"),
              RUNNER_NAME: "single",
              SESSIONS_ROOT: Path.join(root, "sessions"),
              CLI_ENV: JSON.stringify({ ...cliEnv, HOME: home, CLAUDE_CONFIG_DIR: Path.join(home, ".claude") })
            })
            yield* process.on((e) => e.event === "ready")
            return process
          })
          const rounds: Array<{ readonly kill: number; readonly restart: number }> = []
          let single = yield* start
          for (let run = 1; run <= RUNS; run++) {
            const entityId = `restart-${run}`
            const first = yield* ask(single, {
              id: `${entityId}-1`,
              op: "prompt",
              entityId,
              prompt: promptText(entityId, 1)
            })
            assert.deepInclude(first, { event: "reply", result: `done ${entityId}-p1` })
            const clis = cliProcessesOf(single.child.pid!)
            single.child.kill("SIGKILL")
            const killedAt = Date.now()
            yield* single.exited
            single = yield* start
            const readyAt = Date.now()
            const second = yield* ask(single, {
              id: `${entityId}-2`,
              op: "prompt",
              entityId,
              prompt: promptText(entityId, 2)
            })
            assert.deepInclude(second, { event: "reply", result: `done ${entityId}-p2` }, `round ${run}`)
            const arrival = arrivals.get(promptText(entityId, 2))!
            rounds.push({ kill: arrival.at - killedAt, restart: arrival.at - readyAt })
            const request = (yield* ScriptedModel.turnRequests).find((r) =>
              r.lastUserText.includes(promptText(entityId, 2))
            )!
            assert.isTrue(request.includes(`done ${entityId}-p1`), `round ${run}: the first turn came along`)
            assert.deepStrictEqual(
              yield* awaitGone(clis, 10_000),
              [],
              `round ${run}: the killed process's CLIs are gone`
            )
          }
          const sinceKill = rounds.map((round) => round.kill)
          const sinceReady = rounds.map((round) => round.restart)
          console.log(
            `restart over SQLite (ms): kill → next turn's model request min ${Math.min(...sinceKill)}, median ${
              median(sinceKill)
            }, max ${Math.max(...sinceKill)}; of which after the new process was ready: min ${
              Math.min(...sinceReady)
            }, median ${median(sinceReady)}, max ${Math.max(...sinceReady)}`
          )
          // Nothing waits on the dead process's locks or heartbeat: the restarted one serves at once.
          for (const [i, round] of rounds.entries()) {
            assert.isBelow(round.restart, BOUND_MS, `round ${i + 1}: ${round.restart} ms after the restart`)
          }
        }).pipe(Effect.scoped)
      ),
    300_000
  )
})
