/**
 * The cluster's layers, composed of `@effect/cluster`'s runner, storage and
 * sharding pieces over this package's transport and health check.
 *
 * @internal
 */
import type { SessionStore } from "@claude-effect/sdk"
import { SqlSessionStore } from "@claude-effect/sql"
import * as RunnerAddress from "@effect/cluster/RunnerAddress"
import * as Runners from "@effect/cluster/Runners"
import * as RunnerServer from "@effect/cluster/RunnerServer"
import * as Sharding from "@effect/cluster/Sharding"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SingleRunner from "@effect/cluster/SingleRunner"
import * as SqlMessageStorage from "@effect/cluster/SqlMessageStorage"
import * as SqlRunnerStorage from "@effect/cluster/SqlRunnerStorage"
import type { SocketServerError } from "@effect/platform/SocketServer"
import * as RpcSerialization from "@effect/rpc/RpcSerialization"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Config from "effect/Config"
import type { ConfigError } from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Net from "node:net"
import type * as ClaudeCluster from "../ClaudeCluster.js"
import { ClusterConfigError } from "./clusterConfigError.js"
import * as EnvelopeGuard from "./envelopeGuard.js"
import * as RunnerHealth from "./runnerHealth.js"
import * as Transport from "./transport.js"

/** @internal */
export const shardingDefaults: Partial<ShardingConfig.ShardingConfig["Type"]> = {
  runnerHealthCheckInterval: Duration.seconds(1),
  refreshAssignmentsInterval: Duration.millis(500),
  entityMessagePollInterval: Duration.seconds(1),
  entityReplyPollInterval: Duration.millis(100),
  entityTerminationTimeout: Duration.seconds(10)
}

/** @internal */
export const layerSingle = (
  options: ClaudeCluster.Options & { readonly filename: string }
): Layer.Layer<
  Sharding.Sharding | SessionStore.SessionStore | SqlClient.SqlClient,
  ConfigError | SqlError | ClusterConfigError
> =>
  Layer.merge(
    SingleRunner.layer({ shardingConfig: { ...shardingDefaults, ...options.shardingConfig } }),
    SqlSessionStore.layer(options.sessionStore)
  ).pipe(Layer.provideMerge(layerSqlite(options.filename)))

// Loaded on use: SQLite (a native build) is an optional peer, needed by one machine's layer only.
const layerSqlite = (filename: string) =>
  Layer.unwrapEffect(
    Effect.tryPromise({
      try: () => import("@effect/sql-sqlite-node/SqliteClient"),
      catch: (cause) =>
        new ClusterConfigError({
          reason: "MissingDependency",
          option: "layerSingle",
          detail: "ClaudeCluster.layerSingle keeps everything in SQLite, through @effect/sql-sqlite-node: " +
            "install it (npm install @effect/sql-sqlite-node)",
          cause
        })
    }).pipe(Effect.map((SqliteClient) => SqliteClient.layer({ filename })))
  )

const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || (Net.isIPv4(host) && host.startsWith("127."))

/** Where the runner listens: where told, else at its own address when that is a loopback one. */
const listenAddress = (
  options: ClaudeCluster.RunnerOptions
): Effect.Effect<RunnerAddress.RunnerAddress, ClusterConfigError> => {
  if (options.listen !== undefined) return Effect.succeed(RunnerAddress.make(options.listen.host, options.listen.port))
  if (isLoopback(options.host)) return Effect.succeed(RunnerAddress.make(options.host, options.port))
  return new ClusterConfigError({
    reason: "UnreachableAddress",
    option: "listen",
    detail: `the runner is reached at ${options.host}:${options.port}, and listens on a loopback address unless told ` +
      `otherwise: give \`listen: { host: "${options.host}", port: ${options.port} }\` (or host "0.0.0.0")`
  })
}

/** @internal */
export const layerRunner = (
  options: ClaudeCluster.RunnerOptions
): Layer.Layer<
  Sharding.Sharding | SessionStore.SessionStore,
  SocketServerError | ConfigError | SqlError | ClusterConfigError,
  SqlClient.SqlClient
> =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const transport = yield* Transport.make(options)
    const listen = yield* listenAddress(options)
    const sharding = yield* Deferred.make<Sharding.Sharding["Type"]>()
    // Connections to runners that dropped: each wakes the health check at once.
    const drops = yield* Queue.sliding<RunnerAddress.RunnerAddress>(64)
    const runner = RunnerServer.layerWithClients.pipe(
      Layer.tap((context) =>
        Effect.zipRight(
          Deferred.succeed(sharding, Context.get(context, Sharding.Sharding)),
          Effect.logInfo(`Listening on ${listen.host}:${listen.port} (${describe(transport.kind)})`)
        )
      ),
      Layer.provide(EnvelopeGuard.layerProtocol(sharding)),
      Layer.provide(transport.server(listen))
    )
    // The health checks ping through a `Runners` of their own, as `@effect/platform-node`'s runner does.
    const health = RunnerHealth.layerPing.pipe(Layer.provide(Runners.layerRpc))
    return Layer.merge(
      Layer.merge(runner, RunnerHealth.layerMutualCheck(drops)).pipe(Layer.provide(health), withStorage),
      SqlSessionStore.layer(options.sessionStore)
    ).pipe(
      Layer.provide(transport.clientProtocol((address) => Queue.unsafeOffer(drops, address))),
      Layer.provide(shardingConfig({
        ...shardingDefaults,
        runnerAddress: Option.some(RunnerAddress.make(options.host, options.port)),
        runnerListenAddress: Option.some(listen),
        ...options.shardingConfig
      })),
      Layer.provide(RpcSerialization.layerMsgPack)
    )
  }))

/** @internal */
export const layerClient = (
  options: ClaudeCluster.ClientOptions
): Layer.Layer<Sharding.Sharding, ConfigError | ClusterConfigError, SqlClient.SqlClient> =>
  Layer.unwrapEffect(Effect.map(Transport.make(options), (transport) =>
    RunnerServer.layerClientOnly.pipe(
      withStorage,
      Layer.provide(transport.clientProtocol(() => {})),
      Layer.provide(shardingConfig({ ...shardingDefaults, runnerAddress: Option.none(), ...options.shardingConfig })),
      Layer.provide(RpcSerialization.layerMsgPack)
    )))

/** @internal */
export const layerRunnerConfig = (options: Config.Config.Wrap<ClaudeCluster.RunnerOptions>) =>
  Layer.unwrapEffect(Effect.map(Config.unwrap(options), layerRunner))

/** @internal */
export const layerClientConfig = (options: Config.Config.Wrap<ClaudeCluster.ClientOptions>) =>
  Layer.unwrapEffect(Effect.map(Config.unwrap(options), layerClient))

const describe = (kind: Transport.Transport["kind"]): string =>
  kind === "psk"
    ? "TLS, shared secret"
    : kind === "certificates"
    ? "mutual TLS"
    : `plaintext: ${Transport.insecureOptOut}`

// The cluster's message and runner storage in the database of the `SqlClient` in context.
const withStorage = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  layer.pipe(
    Layer.provide(Layer.orDie(SqlMessageStorage.layer)),
    Layer.provide(Layer.orDie(SqlRunnerStorage.layer))
  )

// `ShardingConfig` from the environment (as `@effect/platform-node`'s runner reads it), under the given settings.
const shardingConfig = (settings: Partial<ShardingConfig.ShardingConfig["Type"]>) =>
  ShardingConfig.layerFromEnv(settings)
