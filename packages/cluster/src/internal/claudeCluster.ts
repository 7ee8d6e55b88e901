/**
 * The cluster's layers, composed of `effect/cluster`'s runner, storage and
 * sharding pieces over this package's transport and health check.
 *
 * @internal
 */
import type { SessionStore } from "@claude-effect/sdk"
import { SqliteClient, SqlSessionStore } from "@claude-effect/sql"
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import * as RunnerAddress from "effect/cluster/RunnerAddress"
import * as Runners from "effect/cluster/Runners"
import * as RunnerServer from "effect/cluster/RunnerServer"
import * as Sharding from "effect/cluster/Sharding"
import * as ShardingConfig from "effect/cluster/ShardingConfig"
import * as SingleRunner from "effect/cluster/SingleRunner"
import * as SqlMessageStorage from "effect/cluster/SqlMessageStorage"
import * as SqlRunnerStorage from "effect/cluster/SqlRunnerStorage"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as RpcSerialization from "effect/rpc/RpcSerialization"
import type * as SocketServer from "effect/socket/SocketServer"
import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as Net from "node:net"
import type * as ClaudeCluster from "../ClaudeCluster.js"
import { ClusterConfigError } from "./clusterConfigError.js"
import * as EnvelopeGuard from "./envelopeGuard.js"
import * as RunnerHealth from "./runnerHealth.js"
import * as Transport from "./transport.js"

/** @internal */
export const shardingDefaults: Partial<ShardingConfig.ShardingConfig["Service"]> = {
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
  Config.ConfigError | SqlError
> =>
  Layer.merge(
    SingleRunner.layer({ shardingConfig: { ...shardingDefaults, ...options.shardingConfig } }).pipe(
      Layer.provide(NodeCrypto.layerDigest)
    ),
    SqlSessionStore.layer(options.sessionStore)
  ).pipe(Layer.provideMerge(SqliteClient.layer({ filename: options.filename })))

const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || (Net.isIPv4(host) && host.startsWith("127."))

/** Where the runner listens: where told, else at its own address when that is a loopback one. */
const listenAddress = (
  options: ClaudeCluster.RunnerOptions
): Effect.Effect<RunnerAddress.RunnerAddress, ClusterConfigError> => {
  if (options.listen !== undefined) return Effect.succeed(RunnerAddress.make(options.listen.host, options.listen.port))
  if (isLoopback(options.host)) return Effect.succeed(RunnerAddress.make(options.host, options.port))
  return Effect.fail(
    new ClusterConfigError({
      reason: "UnreachableAddress",
      option: "listen",
      detail: `the runner is reached at ${options.host}:${options.port}, and listens on a loopback address unless ` +
        `told otherwise: give \`listen: { host: "${options.host}", port: ${options.port} }\` (or host "0.0.0.0")`
    })
  )
}

/** @internal */
export const layerRunner = (
  options: ClaudeCluster.RunnerOptions
): Layer.Layer<
  Sharding.Sharding | SessionStore.SessionStore,
  SocketServer.SocketServerError | Config.ConfigError | SqlError | ClusterConfigError,
  SqlClient.SqlClient
> =>
  Layer.unwrap(Effect.gen(function*() {
    const transport = yield* Transport.make(options)
    const listen = yield* listenAddress(options)
    const sharding = yield* Deferred.make<Sharding.Sharding["Service"]>()
    // Connections to runners that dropped: each wakes the health check at once.
    const drops = yield* Queue.sliding<RunnerAddress.RunnerAddress>(64)
    const runner = RunnerServer.layerWithClients.pipe(
      Layer.tap((context) =>
        Effect.andThen(
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
      Layer.provide(transport.clientProtocol((address) => void Queue.offerUnsafe(drops, address))),
      Layer.provide(shardingConfig({
        ...shardingDefaults,
        runnerAddress: Option.some(RunnerAddress.make(options.host, options.port)),
        runnerListenAddress: Option.some(listen),
        ...options.shardingConfig
      })),
      // JSON lines: v4's "binary" serialization (msgpack's successor) cannot lay out the SDK's open protocol union
      // ("union members are not uniquely identifiable"), so a turn's messages could not be sent back.
      Layer.provide(RpcSerialization.layerNdjson)
    )
  }))

/** @internal */
export const layerClient = (
  options: ClaudeCluster.ClientOptions
): Layer.Layer<Sharding.Sharding, Config.ConfigError | ClusterConfigError, SqlClient.SqlClient> =>
  Layer.unwrap(Effect.map(Transport.make(options), (transport) =>
    RunnerServer.layerClientOnly.pipe(
      withStorage,
      Layer.provide(transport.clientProtocol(() => {})),
      Layer.provide(shardingConfig({ ...shardingDefaults, runnerAddress: Option.none(), ...options.shardingConfig })),
      Layer.provide(RpcSerialization.layerNdjson)
    )))

/** @internal */
export const layerRunnerConfig = (options: Config.Wrap<ClaudeCluster.RunnerOptions>) =>
  Layer.unwrap(Effect.gen(function*() {
    return layerRunner(yield* Config.unwrap(options))
  }))

/** @internal */
export const layerClientConfig = (options: Config.Wrap<ClaudeCluster.ClientOptions>) =>
  Layer.unwrap(Effect.gen(function*() {
    return layerClient(yield* Config.unwrap(options))
  }))

const describe = (kind: Transport.Transport["kind"]): string =>
  kind === "psk"
    ? "TLS, shared secret"
    : kind === "certificates"
    ? "mutual TLS"
    : `plaintext: ${Transport.insecureOptOut}`

// The cluster's message and runner storage in the database of the `SqlClient` in context (its digests by Node).
const withStorage = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  layer.pipe(
    Layer.provide(Layer.orDie(SqlMessageStorage.layer)),
    Layer.provide(Layer.orDie(SqlRunnerStorage.layer)),
    Layer.provide(NodeCrypto.layerDigest)
  )

// `ShardingConfig` from the environment (as `@effect/platform-node`'s runner reads it), under the given settings.
const shardingConfig = (settings: Partial<ShardingConfig.ShardingConfig["Service"]>) =>
  ShardingConfig.layerFromEnv(settings)
