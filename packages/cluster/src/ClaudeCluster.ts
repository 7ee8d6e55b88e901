/**
 * The cluster's layers: where messages, runners and transcripts are kept,
 * and how runners and clients reach each other.
 *
 * - One machine: {@link layerSingle}, SQLite in a file (messages, runner
 *   state and transcripts), nothing to run beside the process, no socket.
 * - Several processes or machines: {@link layerRunner} on each runner and
 *   {@link layerClient} in each client process, over one PostgreSQL database
 *   (`@effect/sql-pg`'s `PgClient` in context) and the runners' sockets.
 *
 * Runners and clients connect over TLS opened by the cluster's
 * {@link Credential}: a shared secret (TLS 1.2 PSK) or certificates (mutual
 * TLS). Without one, a runner or client layer fails with
 * {@link ClusterConfigError} `MissingCredential`, unless
 * `insecure: "plaintext-on-a-trusted-network"` says the network is the
 * boundary.
 *
 * Each provides `Sharding` and the `SessionStore` the sessions mirror to and
 * resume from; add `ClaudeSession.layer()` (with `ClaudeCode.layer()`, the
 * runner's hook layers and permission gate) on runners.
 *
 * ```ts
 * const runner = ClaudeSession.layer().pipe(
 *   Layer.provide(policy), // HookLayers, PermissionGate
 *   Layer.provideMerge(ClaudeCluster.layerRunnerConfig({
 *     host: Config.String("RUNNER_HOST"),
 *     port: Config.Int("RUNNER_PORT"),
 *     listen: Config.all({ host: Config.String("RUNNER_HOST"), port: Config.Int("RUNNER_PORT") }),
 *     credential: Config.Redacted("CLAUDE_CLUSTER_SECRET")
 *   })),
 *   Layer.provide(ClaudeCode.layer()),
 *   Layer.provide(PgClient.layerConfig({ url: Config.Redacted("DATABASE_URL") }))
 * )
 * ```
 *
 * @since 0.1.0
 */
import type { SessionStore } from "@claude-effect/sdk"
import type { SqlSessionStore } from "@claude-effect/sql"
import type * as Sharding from "effect/cluster/Sharding"
import type * as ShardingConfig from "effect/cluster/ShardingConfig"
import type * as Config from "effect/Config"
import type * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import type { SocketServerError } from "effect/socket/SocketServer"
import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as internal from "./internal/claudeCluster.js"
import * as clusterConfigError from "./internal/clusterConfigError.js"
import * as transport from "./internal/transport.js"

/**
 * Sharding timings for sessions: a runner that died is noticed within a
 * second or two (every runner pings every other each second; a dead one
 * refuses at once), the shard assignments are re-read every 500 ms, and the
 * dead runner's unfinished prompts are picked up by the next owner at once
 * (message polls every second besides). `effect/cluster`'s own defaults take
 * up to a minute. Anything given in `shardingConfig` wins.
 *
 * The shard locks keep the library's timings (`shardLockRefreshInterval`
 * 10 s, `shardLockExpiration` 35 s): a runner whose lock operation misses its
 * deadline stops every entity it holds, turns in flight included, so a
 * tighter deadline cuts turns on a busy machine. A dead runner's
 * PostgreSQL locks go with its connection, so failover does not wait on
 * them. effect 4's other settings keep their defaults too, among them
 * `maxResidentEntities` (10,000 per runner: past it, prompts to a new
 * session wait in storage until an idle session closes, and `PromptStream`s
 * to one fail with `MailboxFull`).
 *
 * @since 0.1.0
 * @category Configuration
 */
export const shardingDefaults: Partial<ShardingConfig.ShardingConfig["Service"]> = internal.shardingDefaults

/**
 * A layer that cannot be built as configured: `MissingCredential` (neither
 * `credential` nor the plaintext opt-out), `ConflictingOptions` (both),
 * `InvalidCredential` (a secret under 32 bytes, certificates that do not
 * load), `UnreachableAddress` (a runner reached on a network address but
 * told nowhere to listen). `option` names the option to fix.
 *
 * @since 0.1.0
 * @category Errors
 */
export const ClusterConfigError = clusterConfigError.ClusterConfigError

/**
 * @since 0.1.0
 * @category Errors
 */
export type ClusterConfigError = clusterConfigError.ClusterConfigError

/**
 * A secret every runner and client of the cluster holds (at least 32 bytes,
 * e.g. `openssl rand -base64 32`): connections are TLS 1.2 with a pre-shared
 * key derived from it (`ECDHE-PSK-CHACHA20-POLY1305`), so each side proves
 * it holds the secret in the handshake, and the traffic is encrypted with a
 * fresh key per connection. No certificates to manage.
 *
 * To rotate it: give every process `{ secret: old, alsoAccepted: [next] }`,
 * then `{ secret: next, alsoAccepted: [old] }`, then `next` alone. A process
 * connects with `secret` and accepts `secret` and `alsoAccepted`.
 *
 * @since 0.1.0
 * @category Credentials
 */
export type SharedSecret =
  | Redacted.Redacted<string>
  | {
    readonly secret: Redacted.Redacted<string>
    readonly alsoAccepted: ReadonlyArray<Redacted.Redacted<string>>
  }

/**
 * Mutual TLS (1.3): each runner and client presents `cert` (with its `key`),
 * and accepts a peer only with a certificate signed by `ca`. Use a CA of the
 * cluster's own, never a public one: every certificate it signed is a
 * member, whatever host name it carries. PEM text; `ca` may list several CAs
 * (to rotate one).
 *
 * @since 0.1.0
 * @category Credentials
 */
export interface Certificates {
  readonly ca: string | ReadonlyArray<string>
  readonly cert: string
  readonly key: Redacted.Redacted<string>
}

/**
 * What opens a connection to a runner: a {@link SharedSecret} or
 * {@link Certificates}.
 *
 * @since 0.1.0
 * @category Credentials
 */
export type Credential = SharedSecret | Certificates

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** `effect/cluster` sharding settings over {@link shardingDefaults}. */
  readonly shardingConfig?: Partial<ShardingConfig.ShardingConfig["Service"]> | undefined
  /** The session store's options (table prefix, largest entry). */
  readonly sessionStore?: SqlSessionStore.Options | undefined
}

/**
 * How runners and clients reach each other: with the cluster's
 * `credential`, or, only on a network whose every host and user is trusted
 * with every session's tools, in plaintext with
 * `insecure: "plaintext-on-a-trusted-network"` (then anyone who reaches a
 * runner's port runs prompts as the runner's user).
 *
 * @since 0.1.0
 * @category Models
 */
export interface TransportOptions {
  readonly credential?: Credential | undefined
  readonly insecure?: "plaintext-on-a-trusted-network" | undefined
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface RunnerOptions extends Options, TransportOptions {
  /** The address the other runners and the clients reach this runner at. */
  readonly host: string
  readonly port: number
  /**
   * Where to listen. By default the runner's own address when that is a loopback one (`127.0.0.1`,
   * `localhost`, `::1`); a runner reached on a network address must say where it listens (that address,
   * `0.0.0.0`, or another one behind a container's port mapping).
   */
  readonly listen?: { readonly host: string; readonly port: number } | undefined
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface ClientOptions extends Options, TransportOptions {}

/**
 * One process, one SQLite file for everything: the cluster's messages and
 * runner state, and the session transcripts. Nothing to run beside it, and
 * no socket: no credential to give. SQLite is Node's own `node:sqlite`
 * (through `@claude-effect/sql`'s `SqliteClient`): nothing to install.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerSingle: (
  options: Options & { readonly filename: string }
) => Layer.Layer<
  Sharding.Sharding | SessionStore.SessionStore | SqlClient.SqlClient,
  Config.ConfigError | SqlError
> = internal.layerSingle

/**
 * A runner of a cluster over the database of the `SqlClient` in context
 * (PostgreSQL): it listens for the other runners and the clients (TLS with
 * the `credential`), holds its share of the shards, and checks the others'
 * health (every runner checks every other).
 *
 * It refuses an envelope whose shard is not its entity id's own (a peer
 * that lies to reach an entity on a runner that does not hold it).
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerRunner: (
  options: RunnerOptions
) => Layer.Layer<
  Sharding.Sharding | SessionStore.SessionStore,
  SocketServerError | Config.ConfigError | SqlError | ClusterConfigError,
  SqlClient.SqlClient
> = internal.layerRunner

/**
 * {@link layerRunner} with its options read from `Config`, e.g.
 * `credential: Config.Redacted("CLAUDE_CLUSTER_SECRET")`.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerRunnerConfig: (
  options: Config.Wrap<RunnerOptions>
) => Layer.Layer<
  Sharding.Sharding | SessionStore.SessionStore,
  SocketServerError | Config.ConfigError | SqlError | ClusterConfigError,
  SqlClient.SqlClient
> = internal.layerRunnerConfig

/**
 * A client of a cluster over the database of the `SqlClient` in context: it
 * sends messages to the entities (persisted ones through the database,
 * others over TLS with the `credential`) and holds no shard.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerClient: (
  options: ClientOptions
) => Layer.Layer<Sharding.Sharding, Config.ConfigError | ClusterConfigError, SqlClient.SqlClient> = internal.layerClient

/**
 * {@link layerClient} with its options read from `Config`.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerClientConfig: (
  options: Config.Wrap<ClientOptions>
) => Layer.Layer<Sharding.Sharding, Config.ConfigError | ClusterConfigError, SqlClient.SqlClient> =
  internal.layerClientConfig

/**
 * The smallest shared secret accepted, in bytes.
 *
 * @since 0.1.0
 * @category Credentials
 */
export const minSecretBytes: number = transport.minSecretBytes
