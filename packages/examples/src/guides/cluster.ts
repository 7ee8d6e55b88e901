/**
 * The code of docs/cluster.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import { ClaudeCluster, ClaudeSession } from "@claude-effect/cluster"
import { ClaudeCode, HookLayer, HookResult, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { PgClient } from "@effect/sql-pg"
import { Config, Console, Effect, Layer, Stream } from "effect"
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

// #region single
// One machine: everything in one SQLite file, nothing to run beside the process.
const single = ClaudeSession.layer({ options: (userId) => ({ cwd: `/srv/workspaces/${userId}` }) }).pipe(
  Layer.provide(policy),
  Layer.provideMerge(ClaudeCluster.layerSingle({ filename: "/var/lib/agents/cluster.db" })),
  Layer.provide(ClaudeCode.layer({ allowedTools: ["Bash", "Read", "Edit"] })),
  Layer.provide(NodeContext.layer)
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
const database = PgClient.layerConfig({ url: Config.redacted("DATABASE_URL") })

const runner = ClaudeSession.layer({ maxIdleTime: "10 minutes" }).pipe(
  Layer.provide(policy),
  Layer.provideMerge(ClaudeCluster.layerRunner({ host: "10.0.0.5", port: 34431 })),
  Layer.provide(ClaudeCode.layer()),
  Layer.provide(database),
  Layer.provide(NodeContext.layer)
)
// Layer.launch(runner).pipe(NodeRuntime.runMain)
// #endregion

// #region client
// A client: sends to the sessions wherever they are; holds none.
const client = ClaudeCluster.layerClient().pipe(Layer.provide(database))
const fromAnApi = ask.pipe(Effect.provide(client))
// #endregion

export { fromAnApi, runner, single }
