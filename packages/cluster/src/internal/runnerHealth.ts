/**
 * Runner health for fast failover. `effect/cluster` checks the runners from
 * one of them (a singleton): when that one dies, nobody notices until its
 * shard locks expire (`shardLockExpiration`, 35 s). Here every runner checks
 * every other, each interval and at once when a connection to one drops, so
 * a dead runner is marked unhealthy by the survivors within a second or so
 * and its shards move on.
 *
 * @internal
 */
import type { Runner } from "effect/cluster/Runner"
import type { RunnerAddress } from "effect/cluster/RunnerAddress"
import * as RunnerHealth from "effect/cluster/RunnerHealth"
import * as Runners from "effect/cluster/Runners"
import * as RunnerStorage from "effect/cluster/RunnerStorage"
import * as ShardingConfig from "effect/cluster/ShardingConfig"
import * as Effect from "effect/Effect"
import * as Equal from "effect/Equal"
import * as FiberMap from "effect/FiberMap"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"

// A dead runner's connection closes and a new one is refused at once: three attempts take ~0.3 s. A live
// one on a starved machine (2 cores, dozens of CLIs starting) may take seconds to answer: it has 10 s each
// time (as `effect/cluster` gives), so a runner that hangs is marked down after ~30 s.
const PING_TIMEOUT = "10 seconds"
const PING_RETRIES = 2
const PING_SPACING = "150 millis"

/** `RunnerHealth` by ping: few retries, close together (`effect/cluster`'s: 5, 500 ms apart). */
export const layerPing: Layer.Layer<RunnerHealth.RunnerHealth, never, Runners.Runners> = Layer.effect(
  RunnerHealth.RunnerHealth,
  Effect.map(Effect.service(Runners.Runners), (runners) =>
    RunnerHealth.RunnerHealth.of({
      isAlive: (address) =>
        runners.ping(address).pipe(
          Effect.timeout(PING_TIMEOUT),
          // A ping that timed out leaves its connection cached: the next attempt takes a new one.
          Effect.tapError(() => runners.onRunnerUnavailable(address)),
          Effect.retry({ times: PING_RETRIES, schedule: Schedule.spaced(PING_SPACING) }),
          Effect.isSuccess
        )
    }))
)

/**
 * Every `runnerHealthCheckInterval`, and at once when a connection to a runner drops (`drops`), this runner
 * checks each other registered runner and records the outcome when it changed: an unhealthy runner leaves
 * the shard assignment, one that answers again rejoins.
 */
export const layerMutualCheck = (drops: Queue.Dequeue<RunnerAddress>): Layer.Layer<
  never,
  never,
  RunnerHealth.RunnerHealth | RunnerStorage.RunnerStorage | ShardingConfig.ShardingConfig
> =>
  Layer.effectDiscard(Effect.gen(function*() {
    const config = yield* ShardingConfig.ShardingConfig
    const health = yield* RunnerHealth.RunnerHealth
    const storage = yield* RunnerStorage.RunnerStorage
    const self = config.runnerAddress
    // One check per runner at a time, each in a fiber of its own: a runner slow to answer holds up no other's.
    const checks = yield* FiberMap.make<string>()
    const check = (runner: Runner, healthy: boolean) =>
      Effect.flatMap(health.isAlive(runner.address), (alive) =>
        alive === healthy ? Effect.void : Effect.andThen(
          Effect.logDebug(alive ? "Runner is healthy again" : "Runner is unhealthy", runner.address),
          storage.setRunnerHealth(runner.address, alive)
        )).pipe(Effect.catchCause((cause) => Effect.logDebug("Runner health check failed", cause)))
    const checkAll = Effect.gen(function*() {
      for (const [runner, healthy] of yield* storage.getRunners) {
        if (Option.exists(self, (address) => Equal.equals(address, runner.address))) continue
        yield* FiberMap.run(checks, `${runner.address.host}:${runner.address.port}`, check(runner, healthy), {
          onlyIfMissing: true
        })
      }
    })
    // The next round: after the interval, or as soon as a connection drops (the drops since are one round).
    const next = Effect.raceFirst(Effect.sleep(config.runnerHealthCheckInterval), Queue.take(drops)).pipe(
      Effect.andThen(Queue.clear(drops))
    )
    yield* checkAll.pipe(
      Effect.catchCause((cause) => Effect.logDebug("Runner health check failed", cause)),
      Effect.andThen(next),
      Effect.forever,
      Effect.annotateLogs({ package: "@claude-effect/cluster", fiber: "Runner health check (every runner)" }),
      Effect.interruptible,
      Effect.forkScoped
    )
  }))
