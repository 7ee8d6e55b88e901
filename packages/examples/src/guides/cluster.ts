/**
 * The code of docs/cluster.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import { ClaudeCluster, ClaudeSession } from "@claude-effect/cluster"
import { ClaudeCode, HookLayer, HookResult, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { PgClient } from "@effect/sql-pg"
import { Config, Console, Effect, Layer, Stream } from "effect"
import * as Fs from "node:fs"
// #endregion

// #region policy
// The runner's policy, deployed once per runner: every session it holds runs under it.
const policy = Layer.mergeAll(
  HookLayer.preToolUse({ matcher: "Bash" }, (input) => {
    const { command } = input.tool_input as { readonly command?: string }
    return Effect.succeed(command?.includes("rm -rf") ? HookResult.deny("not here") : HookResult.empty)
  }),
  PermissionGate.layer((request) =>
    Effect.succeed(
      request.tool_name === "WebFetch" ? PermissionResult.deny("no network") : PermissionResult.allow()
    )
  )
)
// #endregion

// #region workspace
// A working directory per user, under one root: ClaudeSession.directoryOf never leaves it, whatever the id.
const workspace = (userId: string) => {
  const cwd = ClaudeSession.directoryOf("/srv/workspaces", userId)
  Fs.mkdirSync(cwd, { recursive: true, mode: 0o700 })
  return { cwd }
}
// #endregion

// #region single
// One machine: everything in one SQLite file, nothing to run beside the process, no socket.
const single = ClaudeSession.layer({ options: workspace }).pipe(
  Layer.provide(policy),
  Layer.provideMerge(ClaudeCluster.layerSingle({ filename: "/var/lib/agents/cluster.db" })),
  Layer.provide(ClaudeCode.layer({ allowedTools: ["Bash", "Read", "Edit"] })),
  Layer.provide(NodeServices.layer)
)
// #endregion

// #region prompt
const ask = Effect.gen(function*() {
  const sessions = yield* ClaudeSession.client
  // A persisted prompt: it survives its runner, and the same promptId runs once.
  const messages = yield* sessions("user-42").Prompt({ promptId: "req-7f3a", prompt: "Run the tests" })
  const result = messages.at(-1)
  yield* Console.log(result?.type === "result" ? result.subtype : "no result")
  // Live: the turn's messages as they come (not persisted: fails if its runner dies).
  yield* sessions("user-42").PromptStream({ prompt: "And now the linter" }).pipe(
    Stream.runForEach((message) => Console.log(message.type))
  )
  yield* sessions("user-42").SetModel({ model: "opus" })
  yield* sessions("user-42").Interrupt()
})
// #endregion

// #region runner
// Several machines: each runner listens on its address and shares one PostgreSQL database.
const database = PgClient.layerConfig({ url: Config.Redacted("DATABASE_URL") })
// The cluster's secret, the same in every runner and client: 32+ random bytes (`openssl rand -base64 32`).
const credential = Config.Redacted("CLAUDE_CLUSTER_SECRET")

const runner = ClaudeSession.layer({ options: workspace, maxIdleTime: "10 minutes" }).pipe(
  Layer.provide(policy),
  Layer.provideMerge(ClaudeCluster.layerRunnerConfig({
    // The address the others reach this runner at (e.g. 10.0.0.5:34431) ...
    host: Config.String("RUNNER_HOST"),
    port: Config.Int("RUNNER_PORT"),
    // ... and where it listens: on a network address only when told so.
    listen: Config.all({ host: Config.String("RUNNER_HOST"), port: Config.Int("RUNNER_PORT") }),
    credential
  })),
  Layer.provide(ClaudeCode.layer()),
  Layer.provide(database),
  Layer.provide(NodeServices.layer)
)
// Layer.launch(runner).pipe(NodeRuntime.runMain)
// #endregion

// #region client
// A client: sends to the sessions wherever they are; holds none. It connects to runners with the secret too.
const client = ClaudeCluster.layerClientConfig({ credential }).pipe(Layer.provide(database))
const fromAnApi = ask.pipe(Effect.provide(client))
// #endregion

// #region certificates
// Mutual TLS instead: each process's certificate and key (PEM), signed by a CA of the cluster's own.
const certificates = Config.all({
  ca: Config.String("CLUSTER_CA_PEM"),
  cert: Config.String("CLUSTER_CERT_PEM"),
  key: Config.Redacted("CLUSTER_KEY_PEM")
})
const clientWithCertificates = ClaudeCluster.layerClientConfig({ credential: certificates })
// #endregion

// #region rotation
// Rotating the secret, in three rollouts: `secret` connects, `alsoAccepted` is accepted too.
// 1. { secret: old, alsoAccepted: [next] }   2. { secret: next, alsoAccepted: [old] }   3. next alone
const rotating = Config.all({
  secret: Config.Redacted("CLAUDE_CLUSTER_SECRET"),
  alsoAccepted: Config.map(Config.Redacted("CLAUDE_CLUSTER_SECRET_OTHER"), (other) => [other])
})
const clientWhileRotating = ClaudeCluster.layerClientConfig({ credential: rotating })
// #endregion

// #region insecure
// Plain TCP, no credential: only where every host and user that can reach the runners' ports may run any
// tool as the runners' user (see Security). Written out in full, so that no one gets it by accident.
const plaintextRunner = ClaudeCluster.layerRunner({
  host: "127.0.0.1",
  port: 34431,
  insecure: "plaintext-on-a-trusted-network"
})
// #endregion

export { clientWhileRotating, clientWithCertificates, fromAnApi, plaintextRunner, runner, single }
