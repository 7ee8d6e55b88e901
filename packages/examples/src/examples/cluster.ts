/**
 * Claude sessions across runners, offline: a throwaway PostgreSQL, the
 * scripted model, two runners (each its own HOME, as two machines would be)
 * and a client, all on 127.0.0.1, connected over TLS with a shared secret.
 * Four sessions take two prompts each; every prompt runs a Bash command
 * under its runner's PreToolUse hook, and the second turn of each session
 * remembers the first.
 *
 *   npx tsx src/examples/cluster.ts
 */
import { ClaudeCluster, ClaudeSession } from "@claude-effect/cluster"
import { ClaudeCode, HookLayer, HookResult } from "@claude-effect/sdk"
import { PostgresServer, ScriptedModel } from "@claude-effect/testkit"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { PgClient } from "@effect/sql-pg"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Url from "node:url"

/** The scripted model: "turn <tag>" runs `echo <tag>`; the command's output is answered with "done <tag>". */
const model = ScriptedModel.rule((request) => {
  if (request.latestToolResults.length > 0) {
    return ScriptedModel.text(`done ${request.latestToolResults[0]!.content.trim()}`)
  }
  const tag = /turn (\S+)/.exec(request.lastUserText)?.[1]
  return tag === undefined ? undefined : ScriptedModel.toolUse("Bash", { command: `echo ${tag}`, description: "echo" })
})

/** A runner's policy: its hook tags every Bash command with the runner's name (in runners.log). */
const policy = (name: string) =>
  HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
    Effect.succeed(HookResult.updatedInput({
      ...(input.tool_input as Record<string, unknown>),
      command: `${(input.tool_input as { command: string }).command} && echo ${name} >> runners.log`
    })))

const freePort = Effect.callback<number>((resume) => {
  const server = Net.createServer().listen(0, "127.0.0.1", () => {
    const { port } = server.address() as Net.AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})

export const program = Effect.gen(function*() {
  const root = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-cluster-example-")))
  yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
  const postgres = yield* PostgresServer.make()
  const database = PgClient.layer({ url: Redacted.make(postgres.url) })
  const cliEnv = (yield* ScriptedModel.ScriptedModel).cliEnv
  const workspace = (user: string) => ClaudeSession.directoryOf(Path.join(root, "sessions"), user)
  const options = (entityId: string) => {
    const cwd = workspace(entityId)
    Fs.mkdirSync(cwd, { recursive: true })
    return { cwd, allowedTools: ["Bash"] }
  }
  // The cluster's secret: runners and clients connect over TLS with it (32 random bytes, as `openssl rand` makes).
  const credential = Redacted.make(Crypto.randomBytes(32).toString("base64"))

  // Two runners: each its own machine (HOME, CLAUDE_CONFIG_DIR), its own port, one database.
  for (const name of ["runner-1", "runner-2"]) {
    const home = Path.join(root, name)
    Fs.mkdirSync(Path.join(home, ".claude"), { recursive: true })
    yield* Layer.build(
      ClaudeSession.layer({ options }).pipe(
        Layer.provide(policy(name)),
        Layer.provideMerge(ClaudeCluster.layerRunner({ host: "127.0.0.1", port: yield* freePort, credential })),
        Layer.provide(
          ClaudeCode.layer({ env: { ...cliEnv, HOME: home, CLAUDE_CONFIG_DIR: Path.join(home, ".claude") } })
        ),
        Layer.provide(database)
      )
    )
  }

  // The runners see each other and share the shards (assignments are refreshed every second).
  yield* Effect.sleep("2 seconds")

  // The client: four sessions, two prompts each.
  yield* Effect.gen(function*() {
    const sessions = yield* ClaudeSession.client
    yield* Effect.forEach(
      ["ada", "grace", "edsger", "barbara"],
      (user) =>
        Effect.forEach(
          [1, 2],
          (n) =>
            sessions(user).Prompt({ promptId: `${user}-${n}`, prompt: `turn ${user}-${n}` }).pipe(
              Effect.flatMap((messages) => {
                const result = messages.at(-1)
                const ranOn = Fs.readFileSync(Path.join(workspace(user), "runners.log"), "utf8").trim().split("\n")
                return Console.log(
                  `${user} #${n}: ${result?.type === "result" ? result.result : "?"} (on ${ranOn.at(-1)})`
                )
              })
            )
        ),
      { concurrency: "unbounded", discard: true }
    )
    const last = yield* ScriptedModel.lastTurnRequest
    yield* Console.log(`the last request carried ${last.messages.length} messages: the first turn came along`)
  }).pipe(Effect.provide(ClaudeCluster.layerClient({ credential }).pipe(Layer.provide(database))))
}).pipe(
  Effect.scoped,
  Effect.provide(Layer.provideMerge(ScriptedModel.layerNode([model]), NodeServices.layer))
)

if (process.argv[1] !== undefined && Url.pathToFileURL(process.argv[1]).href === import.meta.url) {
  NodeRuntime.runMain(program)
}
