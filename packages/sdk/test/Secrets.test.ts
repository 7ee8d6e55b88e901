/**
 * No secret on a command line: what may hold one (MCP servers' `env` and
 * `headers`, `settings`, `managedSettings`) reaches the real CLI 2.1.328 in
 * `initialize`, never in its argv (`/proc/<pid>/cmdline`, what `ps` shows
 * every user of the host), and still works there; `mcpServerStatus` hides it.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createHash, randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import { fileURLToPath } from "node:url"
import { ClaudeCode, ControlRequest } from "../src/index.js"
import { bash, harness, processesIn, Workspace } from "./utils/harness.js"

const secretEnvServer = fileURLToPath(new URL("./fixtures/secret-env-mcp-server.mjs", import.meta.url))

const fresh = (label: string) => `${label}-${randomBytes(12).toString("hex")}`

/**
 * A streamable-HTTP MCP server on 127.0.0.1 with one tool (`whoami`), which
 * records the `Authorization` header of every request and answers "authorized"
 * only to `expected`. Closed with the scope.
 */
const httpMcpServer = (expected: string) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly url: string; readonly authorizations: Array<string>; readonly server: Http.Server }>(
      (resume) => {
        const authorizations: Array<string> = []
        const server = Http.createServer((request, response) => {
          const authorization = request.headers.authorization ?? ""
          authorizations.push(authorization)
          // No server-to-client stream: the client then only POSTs (the transport allows a 405 here).
          if (request.method !== "POST") return void response.writeHead(405).end()
          let body = ""
          request.on("data", (chunk) => body += chunk)
          request.on("end", () => {
            const message = JSON.parse(body)
            if (message.id === undefined) return void response.writeHead(202).end()
            const result = message.method === "initialize"
              ? {
                protocolVersion: message.params.protocolVersion,
                capabilities: { tools: {} },
                serverInfo: { name: "remote", version: "1.0.0" }
              }
              : message.method === "tools/list"
              ? { tools: [{ name: "whoami", description: "Who the caller is", inputSchema: { type: "object" } }] }
              : message.method === "tools/call"
              ? {
                content: [{ type: "text", text: authorization === expected ? "remote: authorized" : "remote: denied" }]
              }
              : message.method === "ping"
              ? {}
              : undefined
            response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(
              result === undefined
                ? { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } }
                : { jsonrpc: "2.0", id: message.id, result }
            ))
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const { port } = server.address() as { readonly port: number }
          resume(Effect.succeed({ url: `http://127.0.0.1:${port}/mcp`, authorizations, server }))
        })
      }
    ),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

/** The command line of every process this user can read, by pid (what `ps` shows). */
const commandLines = (): ReadonlyMap<number, string> => {
  const lines = new Map<number, string>()
  for (const entry of Fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      lines.set(Number(entry), Fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" "))
    } catch {
      // gone, or not ours to read
    }
  }
  return lines
}

/** The options under test: every kind of option that can carry a secret, each with its own. */
const secretOptions = (secrets: {
  readonly header: string
  readonly mcpEnv: string
  readonly settingsEnv: string
  readonly policyMarker: string
}, url: string) => ({
  mcpServers: {
    local: { command: process.execPath, args: [secretEnvServer], env: { FIXTURE_API_TOKEN: secrets.mcpEnv } },
    remote: { type: "http" as const, url, headers: { Authorization: `Bearer ${secrets.header}` } }
  },
  settings: { env: { SETTINGS_API_TOKEN: secrets.settingsEnv } },
  managedSettings: { permissions: { deny: [`Bash(touch ${secrets.policyMarker}.txt)`] } },
  allowedTools: ["mcp__local", "mcp__remote", "Bash"]
})

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

describe("no secret on the CLI's command line (real CLI)", () => {
  const secrets = {
    header: fresh("header-secret"),
    mcpEnv: fresh("mcp-env-secret"),
    settingsEnv: fresh("settings-secret"),
    policyMarker: fresh("denied-by-policy")
  }

  it.live(
    "MCP env and headers, settings and managed settings go in initialize, and all of them work",
    () =>
      Effect.gen(function*() {
        const remote = yield* httpMcpServer(`Bearer ${secrets.header}`)
        const { exists, read } = yield* Workspace
        const session = yield* ClaudeCode.session(secretOptions(secrets, remote.url))

        // Read while the CLI runs: neither its argv nor any other process's holds a secret.
        const cmdline = commandLines().get(session.pid)
        assert.isDefined(cmdline, "the CLI's command line is readable")
        assert.include(cmdline, "--await-initialize")
        for (const [pid, line] of commandLines()) {
          for (const [name, secret] of Object.entries(secrets)) {
            assert.notInclude(line, secret, `${name} on the command line of pid ${pid}`)
          }
        }

        const turn = yield* collect(session.turn("use your tools"))
        assert.strictEqual((turn[turn.length - 1] as { result?: string }).result, "done")
        const results = (yield* ScriptedModel.toolResults).map((result) => result.content)
        // the stdio server got its env: the digest of the secret reached the model (the secret itself did not need to)
        assert.include(results, `key sha256 ${createHash("sha256").update(secrets.mcpEnv).digest("hex")}`)
        // the HTTP server got the header, and its tool's answer reached the model
        assert.include(remote.authorizations, `Bearer ${secrets.header}`)
        assert.include(results, "remote: authorized")
        // settings.env reached the CLI's tools; the managed deny rule held against allowedTools
        assert.strictEqual(read("from-settings.txt"), secrets.settingsEnv)
        assert.isFalse(exists(`${secrets.policyMarker}.txt`))

        // mcpServerStatus hides header (and env) values
        const status = yield* session.mcpServerStatus
        const local = status.find((server) => server.name === "local") as any
        const http = status.find((server) => server.name === "remote") as any
        assert.strictEqual(local.status, "connected")
        assert.strictEqual(http.status, "connected")
        // (CLI 2.1.328 leaves a stdio server's env out of its config; a header is there, and hidden)
        assert.deepStrictEqual(http.config.headers, { Authorization: "<redacted>" })
        assert.strictEqual(http.config.url, remote.url, "what is not secret is kept")
        assert.strictEqual(local.config.command, process.execPath)
        const shown = JSON.stringify(status)
        assert.notInclude(shown, secrets.header)
        assert.notInclude(shown, secrets.mcpEnv)
        // asked for explicitly, the header is there as configured
        const unredacted = yield* session.mcpServerStatusUnredacted
        const configured = unredacted.find((server) => server.name === "remote")!.config as any
        assert.strictEqual(configured.headers.Authorization, `Bearer ${secrets.header}`)
        // reloadPlugins answers the same statuses (with the header, as the CLI sends them): hidden there too
        const raw = yield* session.request(ControlRequest.requests.reload_plugins, {})
        assert.include(JSON.stringify(raw.mcpServers), secrets.header)
        const reloaded = JSON.stringify((yield* session.reloadPlugins()).mcpServers)
        assert.include(reloaded, "remote")
        assert.notInclude(reloaded, secrets.header)
        assert.notInclude(reloaded, secrets.mcpEnv)
      }).pipe(
        Effect.scoped,
        Effect.provide(harness([
          ScriptedModel.toolUse("mcp__local__check_key", {}),
          ScriptedModel.toolUse("mcp__remote__whoami", {}),
          bash("printf %s \"$SETTINGS_API_TOKEN\" > from-settings.txt"),
          bash(`touch ${secrets.policyMarker}.txt`),
          ScriptedModel.text("done")
        ]))
      ),
    90_000
  )

  it.live("a one-shot query starts its CLI the same way", () =>
    Effect.gen(function*() {
      const remote = yield* httpMcpServer(`Bearer ${secrets.header}`)
      const { cwd } = yield* Workspace
      let seen: ReadonlyArray<string> = []
      const messages = yield* collect(
        ClaudeCode.query("hello", secretOptions(secrets, remote.url)).pipe(
          // at the first message the CLI runs: the command lines of the processes in its working directory
          Stream.tap(() =>
            Effect.sync(() => {
              if (seen.length === 0) seen = processesIn(cwd).map((pid) => commandLines().get(pid) ?? "")
            })
          )
        )
      )
      assert.strictEqual((messages[messages.length - 1] as { result?: string }).result, "hi")
      assert.isTrue(seen.some((line) => line.includes("stream-json") && line.includes("--await-initialize")))
      for (const line of seen) for (const secret of Object.values(secrets)) assert.notInclude(line, secret)
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("hi")]))), 90_000)

  it.live(
    "with every delivery \"argv\", the same secrets are on the command line, for every user to read",
    () =>
      Effect.gen(function*() {
        const remote = yield* httpMcpServer(`Bearer ${secrets.header}`)
        const session = yield* ClaudeCode.session({
          ...secretOptions(secrets, remote.url),
          mcpServersDelivery: "argv",
          settingsDelivery: "argv",
          managedSettingsDelivery: "argv"
        })
        const cmdline = commandLines().get(session.pid)!
        for (const secret of Object.values(secrets)) assert.include(cmdline, secret)
        assert.notInclude(cmdline, "--await-initialize")
      }).pipe(Effect.scoped, Effect.provide(harness([]))),
    90_000
  )
})
