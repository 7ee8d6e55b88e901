/**
 * Who may make a runner work. Runner processes and a client process on 127.0.0.1 over one PostgreSQL,
 * with the cluster's credential; and an attacker process (fixtures/attacker.ts) with no database and an
 * empty environment, that knows a runner's port and speaks `@effect/cluster`'s published runner protocol
 * (`Runners.Rpcs`, ndjson, an `Envelope.Request` for `ClaudeSession` `PromptStream` whose prompt runs a
 * Bash command writing a marker file). What ran is read on disk (the marker) and in the scripted model's
 * requests (a turn asks the model; a resumed one carries the user's earlier turns).
 */
import { ClaudeCluster, ClaudeSession } from "@claude-effect/cluster"
import { PostgresServer, ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { PgClient } from "@effect/sql-pg"
import { afterAll, assert, layer } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as SqlClient from "effect/sql/SqlClient"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { certificateEnv, makeCertificates } from "./utils/certificates.js"
import {
  ask,
  awaitShardsSpread,
  clusterSecret,
  type Fixture,
  type FixtureEvent,
  freePort,
  isListening,
  spawn,
  startRunner
} from "./utils/processes.js"
import { model, promptText, readLines } from "./utils/scenario.js"

interface Cluster {
  readonly root: string
  readonly databaseUrl: string
  readonly sessionsRoot: string
  readonly runners: ReadonlyArray<{ readonly fixture: Fixture; readonly port: number }>
  readonly driver: Fixture
}
class ClusterUnderTest extends Context.Service<ClusterUnderTest, Cluster>()("test/ClusterUnderTest") {}

/** PostgreSQL, runners with the given transport, and a driver (a client process) with `driverEnv`. */
const makeCluster = (names: ReadonlyArray<string>, env: Record<string, string>, driverEnv = env) =>
  Layer.effect(
    ClusterUnderTest,
    Effect.gen(function*() {
      const root = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-cluster-security-")))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
      const database = yield* PostgresServer.make()
      const cliEnv = (yield* ScriptedModel.ScriptedModel).cliEnv
      const sessionsRoot = Path.join(root, "sessions")
      const runners: Array<{ fixture: Fixture; port: number }> = []
      for (const name of names) {
        const port = yield* freePort
        const fixture = yield* startRunner({
          name,
          port,
          databaseUrl: database.url,
          root,
          sessionsRoot,
          cliEnv,
          env
        })
        runners.push({ fixture, port })
      }
      yield* awaitShardsSpread(database.url, names.length)
      const driver = yield* spawn("driver", "driver.ts", {
        ...driverEnv,
        DRIVER_MODE: "client",
        DATABASE_URL: database.url
      })
      yield* driver.on((e) => e.event === "ready")
      return { root, databaseUrl: database.url, sessionsRoot, runners, driver }
    })
  ).pipe(Layer.provideMerge(ScriptedModel.layerNode([model()])), Layer.provideMerge(NodeServices.layer))

/** Runs the attacker against a port; its one outcome. */
const attack = (
  cluster: Cluster,
  options: {
    readonly port: number
    readonly entityId: string
    readonly marker: string
    readonly env: Record<string, string>
  }
) =>
  Effect.gen(function*() {
    const attacker = yield* spawn("attacker", "attacker.ts", {
      ...options.env,
      TARGET_PORT: String(options.port),
      ENTITY_ID: options.entityId,
      PROMPT: `attack ${Path.join(cluster.root, options.marker)}`
    })
    const outcome = yield* attacker.on((e) => e.event === "outcome").pipe(
      Effect.timeoutOrElse({
        duration: "120 seconds",
        orElse: () => Effect.die(new Error(`the attacker did not finish:\n${attacker.stderr().slice(-4000)}`))
      })
    )
    return outcome as Extract<FixtureEvent, { event: "outcome" }>
  }).pipe(Effect.scoped)

// The attacker has nothing of the runners' environment: no database, no secret, no HOME.
const bare = (env: Record<string, string>): Record<string, string> => ({
  ...Object.fromEntries(Object.keys(process.env).map((name) => [name, ""])),
  PATH: process.env.PATH ?? "",
  ...env
})

/** Nothing ran for the marker: no file, no model request that mentions it. */
const assertNothingRan = (cluster: Cluster, marker: string) =>
  Effect.gen(function*() {
    assert.isFalse(Fs.existsSync(Path.join(cluster.root, marker)), `${marker} was not written`)
    const asked = (yield* ScriptedModel.requests).filter((request) => request.includes(marker))
    assert.deepStrictEqual(asked.map((r) => r.lastUserText), [], "the model was asked nothing for it")
  })

/** The runner's first warning about connections refused in the TLS handshake (its log, on its output). */
const refusalWarning = (runner: Fixture) =>
  Effect.gen(function*() {
    for (let waited = 0; waited < 10_000; waited += 100) {
      const warning = runner.stderr().split("\n").find((line) => line.includes("without the cluster's credential"))
      if (warning !== undefined) return warning
      yield* Effect.sleep("100 millis")
    }
    return assert.fail(`${runner.name} logged no refusal within 10 s:\n${runner.stderr().slice(-4000)}`)
  })

/** The runner that holds the entity: whose hook ran its last command (a first turn is run if there was none). */
const holderOf = (cluster: Cluster, entityId: string) =>
  Effect.gen(function*() {
    const hooks = Path.join(ClaudeSession.directoryOf(cluster.sessionsRoot, entityId), "hooks.log")
    if (readLines(hooks).length === 0) {
      const reply = yield* ask(cluster.driver, {
        id: `${entityId}-0`,
        op: "prompt",
        entityId,
        prompt: promptText(entityId, 0)
      })
      assert.deepInclude(reply, { event: "reply", result: `done ${entityId}-p0` })
    }
    const runner = cluster.runners.find((r) => r.fixture.name === readLines(hooks).at(-1))
    assert.isDefined(runner, `a runner ran ${entityId}'s turn`)
    return runner!
  })

/** A TCP relay to `port` that records every byte it passes: what a network observer sees. */
const tap = (port: number) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly port: number; readonly seen: () => Buffer; readonly server: Net.Server }>((resume) => {
      const chunks: Array<Buffer> = []
      const server = Net.createServer((inbound) => {
        const outbound = Net.connect(port, "127.0.0.1")
        for (const [from, to] of [[inbound, outbound], [outbound, inbound]] as const) {
          from.on("data", (chunk: Buffer) => {
            chunks.push(chunk)
            to.write(chunk)
          })
          from.on("error", () => to.destroy())
          from.on("close", () => to.destroy())
        }
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          port: (server.address() as Net.AddressInfo).port,
          seen: () => Buffer.concat(chunks),
          server
        })))
    }),
    ({ server }) => Effect.sync(() => server.close())
  )

// The runners are in a rotation: they accept the next secret too.
const nextSecret = "test-cluster-next-secret-0123456789-abcdefghijk"
const secretEnv = { CLAUDE_CLUSTER_SECRET: clusterSecret, CLAUDE_CLUSTER_SECRET_OTHER: nextSecret }

layer(makeCluster(["runner-a", "runner-b"], secretEnv, { CLAUDE_CLUSTER_SECRET: clusterSecret }), {
  timeout: 180_000,
  excludeTestServices: true
})(
  "ClaudeCluster runners with a shared secret (PostgreSQL, two runners, a client, an attacker)",
  (it) => {
    it.effect(
      "with the secret, the client's prompts run: a persisted one, and a live stream over a runner's socket",
      () =>
        Effect.gen(function*() {
          const cluster = yield* ClusterUnderTest
          const first = yield* ask(cluster.driver, {
            id: "victim-1",
            op: "prompt",
            entityId: "victim",
            prompt: promptText("victim", 1)
          })
          assert.deepInclude(first, { event: "reply", result: "done victim-p1" })
          const second = yield* ask(cluster.driver, {
            id: "victim-2",
            op: "stream",
            entityId: "victim",
            prompt: promptText("victim", 2)
          })
          assert.deepInclude(second, { event: "reply", result: "done victim-p2" })
          const request = (yield* ScriptedModel.turnRequests).find((r) =>
            r.lastUserText.includes(promptText("victim", 2))
          )
          assert.isTrue(request?.includes("done victim-p1"), "the second turn carried the first")
        }),
      120_000
    )

    // Before the plain TCP peer: the runner's first refusal is the one reported at once.
    it.effect(
      "a peer with a wrong secret fails the TLS handshake: nothing runs, the runner warns",
      () =>
        Effect.gen(function*() {
          const cluster = yield* ClusterUnderTest
          const holder = yield* holderOf(cluster, "victim")
          const outcome = yield* attack(cluster, {
            port: holder.port,
            entityId: "victim",
            marker: "marker-wrong-secret",
            env: bare({ ATTACK_SECRET: "a-wrong-secret-0123456789-abcdefghijklmnopq", ATTACK_SHARD: "own" })
          })
          assert.strictEqual(outcome.kind, "connection-failed", outcome.detail)
          yield* assertNothingRan(cluster, "marker-wrong-secret")
          const warning = yield* refusalWarning(holder.fixture)
          assert.match(
            warning,
            /WARN .*Refused 1 connection\(s\) without the cluster's credential since the last report; the latest from 127\.0\.0\.1: \S+/,
            warning
          )
        }),
      120_000
    )

    it.effect(
      "a peer without the credential (plain TCP, the published protocol) runs nothing and reads nothing",
      () =>
        Effect.gen(function*() {
          const cluster = yield* ClusterUnderTest
          const outcome = yield* attack(cluster, {
            port: (yield* holderOf(cluster, "victim")).port,
            entityId: "victim",
            marker: "marker-plaintext",
            env: bare({ ATTACK_MODE: "plaintext", ATTACK_SHARD: "own" })
          })
          assert.strictEqual(outcome.kind, "connection-failed", outcome.detail)
          yield* assertNothingRan(cluster, "marker-plaintext")
        }),
      120_000
    )

    it.effect(
      "a peer with the secret that lies about the entity's shard is refused: nothing runs",
      () =>
        Effect.gen(function*() {
          const cluster = yield* ClusterUnderTest
          // Every other shard in turn, on the runner that does not hold the victim's: without the check, the first
          // shard this runner holds would start a second live session for the victim there.
          const holder = yield* holderOf(cluster, "victim")
          const other = cluster.runners.find((r) => r !== holder)!
          const outcome = yield* attack(cluster, {
            port: other.port,
            entityId: "victim",
            marker: "marker-wrong-shard",
            env: bare({ ATTACK_SECRET: clusterSecret, ATTACK_SHARD: "other" })
          })
          assert.strictEqual(outcome.kind, "refused", outcome.detail)
          assert.include(outcome.detail, "names shard default:")
          yield* assertNothingRan(cluster, "marker-wrong-shard")
        }),
      120_000
    )

    it.effect(
      "what the secret guards: with it and the true shard, a peer runs a turn and reads the user's history; on the wire the traffic is TLS, the prompt nowhere in it",
      () =>
        Effect.gen(function*() {
          const cluster = yield* ClusterUnderTest
          const relay = yield* tap((yield* holderOf(cluster, "victim")).port)
          const outcome = yield* attack(cluster, {
            port: relay.port,
            entityId: "victim",
            marker: "marker-with-secret",
            env: bare({ ATTACK_SECRET: clusterSecret, ATTACK_SHARD: "own" })
          })
          assert.strictEqual(outcome.kind, "ran", outcome.detail)
          assert.isTrue(Fs.existsSync(Path.join(cluster.root, "marker-with-secret")), "the peer's command ran")
          const request = (yield* ScriptedModel.turnRequests).find((r) => r.includes("marker-with-secret"))
          assert.isTrue(request?.includes("done victim-p"), "its turn was the victim's session, with its history")
          // The reply came back through the relay (the marker's path in the turn's messages), yet no byte of
          // the prompt or of the protocol's names is readable there: TLS records (0x16 handshake, 0x17 data).
          const seen = relay.seen()
          assert.isAbove(seen.length, 2_000)
          assert.strictEqual(seen[0], 0x16)
          for (const text of ["marker-with-secret", "PromptStream", "ClaudeSession", "victim"]) {
            assert.strictEqual(seen.indexOf(text), -1, `"${text}" is not on the wire`)
          }
        }).pipe(Effect.scoped),
      120_000
    )

    it.effect(
      "rotation: a runner given { secret, alsoAccepted: [next] } accepts a peer with the next secret",
      () =>
        Effect.gen(function*() {
          const cluster = yield* ClusterUnderTest
          const outcome = yield* attack(cluster, {
            port: (yield* holderOf(cluster, "victim")).port,
            entityId: "victim",
            marker: "marker-next-secret",
            env: bare({ ATTACK_SECRET: nextSecret, ATTACK_SHARD: "own" })
          })
          assert.strictEqual(outcome.kind, "ran", outcome.detail)
          assert.isTrue(Fs.existsSync(Path.join(cluster.root, "marker-next-secret")))
        }),
      120_000
    )

    it.effect(
      "a runner or client without a credential does not start: ClusterConfigError naming the option, no port bound",
      () =>
        Effect.gen(function*() {
          const cluster = yield* ClusterUnderTest
          const port = yield* freePort
          const database = PgClient.layer({ url: Redacted.make(cluster.databaseUrl), maxConnections: 2 })
          const build = <A, E>(layer: Layer.Layer<A, E, SqlClient.SqlClient>) =>
            Layer.build(Layer.provide(layer, database)).pipe(Effect.scoped, Effect.exit)
          const refusal = (exit: Exit.Exit<unknown, unknown>) => {
            assert.isTrue(Exit.isFailure(exit))
            const error = Exit.isFailure(exit)
              ? Cause.findErrorOption(exit.cause).pipe((o) => o._tag === "Some" ? o.value : undefined)
              : undefined
            assert.instanceOf(error, ClaudeCluster.ClusterConfigError, String(exit))
            return error as ClaudeCluster.ClusterConfigError
          }

          const none = refusal(yield* build(ClaudeCluster.layerRunner({ host: "127.0.0.1", port })))
          assert.deepInclude(none, { reason: "MissingCredential", option: "credential" })
          assert.include(none.message, "plaintext-on-a-trusted-network")
          assert.isFalse(yield* isListening(port), "nothing listens")
          assert.deepInclude(refusal(yield* build(ClaudeCluster.layerClient({}))), {
            reason: "MissingCredential",
            option: "credential"
          })
          const short = refusal(
            yield* build(ClaudeCluster.layerRunner({ host: "127.0.0.1", port, credential: Redacted.make("too short") }))
          )
          assert.deepInclude(short, { reason: "InvalidCredential", option: "credential" })
          assert.notInclude(short.message, "too short", "the secret is not in the error")
          const unreachable = refusal(
            yield* build(
              ClaudeCluster.layerRunner({ host: "10.0.0.5", port, credential: Redacted.make(clusterSecret) })
            )
          )
          assert.deepInclude(unreachable, { reason: "UnreachableAddress", option: "listen" })
          assert.deepInclude(
            refusal(
              yield* build(ClaudeCluster.layerRunner({
                host: "127.0.0.1",
                port,
                credential: Redacted.make(clusterSecret),
                insecure: "plaintext-on-a-trusted-network"
              }))
            ),
            { reason: "ConflictingOptions", option: "insecure" }
          )
          assert.isFalse(yield* isListening(port), "still nothing listens")
        }),
      60_000
    )
  }
)

// Mutual TLS: the cluster's CA, and a stranger's.
const certificates = (() => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-cluster-certificates-"))
  // When the file's suites are done (a vitest worker is not a process whose "exit" v3 listened to).
  afterAll(() => Fs.rmSync(dir, { recursive: true, force: true }))
  return {
    member: makeCertificates(Path.join(dir, "cluster"), "cluster"),
    stranger: makeCertificates(Path.join(dir, "stranger"), "stranger")
  }
})()

layer(makeCluster(["runner-c"], certificateEnv(certificates.member)), { timeout: 180_000, excludeTestServices: true })(
  "ClaudeCluster runners with certificates (mutual TLS)",
  (it) => {
    it.effect(
      "a client with a certificate from the cluster's CA streams a turn over the runner's socket",
      () =>
        Effect.gen(function*() {
          const cluster = yield* ClusterUnderTest
          const reply = yield* ask(cluster.driver, {
            id: "tls-1",
            op: "stream",
            entityId: "tls-user",
            prompt: promptText("tls-user", 1)
          })
          assert.deepInclude(reply, { event: "reply", result: "done tls-user-p1" })
        }),
      120_000
    )

    it.effect(
      "a peer with a certificate from another CA, or none, runs nothing; one from the cluster's CA runs",
      () =>
        Effect.gen(function*() {
          const cluster = yield* ClusterUnderTest
          const port = cluster.runners[0]!.port
          // It trusts the cluster's CA, and shows its own certificate: the runner refuses it, and warns (its first
          // refusal). Its address may be gone ("?"): under TLS 1.3 the peer has often reset the connection by then.
          const trusting = yield* attack(cluster, {
            port,
            entityId: "tls-user",
            marker: "marker-stranger-trusting",
            env: bare({ ...certificateEnv(certificates.stranger, certificates.member.ca), ATTACK_SHARD: "own" })
          })
          assert.strictEqual(trusting.kind, "connection-failed", trusting.detail)
          const warning = yield* refusalWarning(cluster.runners[0]!.fixture)
          assert.match(
            warning,
            /WARN .*Refused 1 connection\(s\) without the cluster's credential since the last report; the latest from \S+: \S+/,
            warning
          )
          const stranger = yield* attack(cluster, {
            port,
            entityId: "tls-user",
            marker: "marker-stranger",
            env: bare({ ...certificateEnv(certificates.stranger), ATTACK_SHARD: "own" })
          })
          assert.strictEqual(stranger.kind, "connection-failed", stranger.detail)
          const plain = yield* attack(cluster, {
            port,
            entityId: "tls-user",
            marker: "marker-no-certificate",
            env: bare({ ATTACK_MODE: "plaintext", ATTACK_SHARD: "own" })
          })
          assert.strictEqual(plain.kind, "connection-failed", plain.detail)
          for (const marker of ["marker-stranger-trusting", "marker-stranger", "marker-no-certificate"]) {
            yield* assertNothingRan(cluster, marker)
          }
          const member = yield* attack(cluster, {
            port,
            entityId: "tls-user",
            marker: "marker-member",
            env: bare({ ...certificateEnv(certificates.member), ATTACK_SHARD: "own" })
          })
          assert.strictEqual(member.kind, "ran", member.detail)
          assert.isTrue(Fs.existsSync(Path.join(cluster.root, "marker-member")))
        }),
      180_000
    )
  }
)
