/**
 * The cluster's layers: where messages, runners and transcripts are kept,
 * and how runners and clients reach each other.
 *
 * - One machine: {@link layerSingle}, SQLite in a file (messages, runner
 *   state and transcripts), nothing to run beside the process.
 * - Several machines: {@link layerRunner} on each runner and
 *   {@link layerClient} in each client process, over one PostgreSQL database
 *   (`@effect/sql-pg`'s `PgClient` in context) and the runners' sockets.
 *
 * Each provides `Sharding` and the `SessionStore` the sessions mirror to and
 * resume from; add `ClaudeSession.layer()` (with `ClaudeCode.layer()`, the
 * runner's hook layers and permission gate) on runners.
 *
 * ```ts
 * const runner = ClaudeSession.layer().pipe(
 *   Layer.provide(policy), // HookLayers, PermissionGate
 *   Layer.provideMerge(ClaudeCluster.layerRunner({ host: "10.0.0.5", port: 34431 })),
 *   Layer.provide(ClaudeCode.layer()),
 *   Layer.provide(PgClient.layerConfig({ url: Config.redacted("DATABASE_URL") }))
 * )
 * ```
 *
 * @since 0.1.0
 */
import type { SessionStore } from "@claude-effect/sdk"
import { SqlSessionStore } from "@claude-effect/sql"
import * as RunnerAddress from "@effect/cluster/RunnerAddress"
import type * as Sharding from "@effect/cluster/Sharding"
import type * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SingleRunner from "@effect/cluster/SingleRunner"
import * as NodeClusterSocket from "@effect/platform-node/NodeClusterSocket"
import type { SocketServerError } from "@effect/platform/SocketServer"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { ConfigError } from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"

/**
 * Sharding timings for sessions: a runner that died is noticed within
 * seconds (health checks every 2 s, assignments refreshed every second) and
 * its unfinished prompts are picked up by the next owner within a second
 * (message polls). `@effect/cluster`'s own defaults take up to a minute.
 * Anything given in `shardingConfig` wins.
 *
 * The shard locks keep the library's timings (refreshed every 10 s, each
 * lock operation given as long): a runner whose lock operation misses its
 * deadline stops every entity it holds, turns in flight included, so a
 * tighter deadline cuts turns on a busy machine. A dead runner's
 * PostgreSQL locks go with its connection, so failover does not wait on
 * them.
 *
 * @since 0.1.0
 * @category Configuration
 */
export const shardingDefaults: Partial<ShardingConfig.ShardingConfig["Type"]> = {
  runnerHealthCheckInterval: Duration.seconds(2),
  refreshAssignmentsInterval: Duration.seconds(1),
  entityMessagePollInterval: Duration.seconds(1),
  entityReplyPollInterval: Duration.millis(100),
  entityTerminationTimeout: Duration.seconds(10)
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** `@effect/cluster` sharding settings over {@link shardingDefaults}. */
  readonly shardingConfig?: Partial<ShardingConfig.ShardingConfig["Type"]> | undefined
  /** The session store's options (table prefix, largest entry). */
  readonly sessionStore?: SqlSessionStore.Options | undefined
}

/**
 * One process, one SQLite file for everything: the cluster's messages and
 * runner state, and the session transcripts. Nothing to run beside it.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerSingle = (
  options: Options & { readonly filename: string }
): Layer.Layer<
  Sharding.Sharding | SessionStore.SessionStore | SqlClient.SqlClient,
  ConfigError | SqlError
> =>
  Layer.merge(
    SingleRunner.layer({ shardingConfig: { ...shardingDefaults, ...options.shardingConfig } }),
    SqlSessionStore.layer(options.sessionStore)
  ).pipe(Layer.provideMerge(SqliteClient.layer({ filename: options.filename })))

/**
 * A runner of a cluster over the database of the `SqlClient` in context
 * (PostgreSQL for several machines): it listens on `host:port` for the other
 * runners and the clients, holds its share of the shards, and checks the
 * others' health.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerRunner = (
  options: Options & {
    readonly host: string
    readonly port: number
    /** Where to listen, when it differs from the address the others reach (`host:port`). */
    readonly listen?: { readonly host: string; readonly port: number } | undefined
  }
): Layer.Layer<
  Sharding.Sharding | SessionStore.SessionStore,
  SocketServerError | ConfigError | SqlError,
  SqlClient.SqlClient
> =>
  Layer.merge(
    NodeClusterSocket.layer({
      storage: "sql",
      runnerHealth: "ping",
      shardingConfig: {
        ...shardingDefaults,
        runnerAddress: Option.some(RunnerAddress.make(options.host, options.port)),
        ...(options.listen !== undefined
          ? { runnerListenAddress: Option.some(RunnerAddress.make(options.listen.host, options.listen.port)) }
          : {}),
        ...options.shardingConfig
      }
    }),
    SqlSessionStore.layer(options.sessionStore)
  )

/**
 * A client of a cluster over the database of the `SqlClient` in context: it
 * sends messages to the entities (persisted ones through the database) and
 * holds no shard.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerClient = (
  options: Options = {}
): Layer.Layer<Sharding.Sharding, ConfigError, SqlClient.SqlClient> =>
  NodeClusterSocket.layer({
    clientOnly: true,
    storage: "sql",
    shardingConfig: { ...shardingDefaults, runnerAddress: Option.none(), ...options.shardingConfig }
  })
