/**
 * docs/sandbox.md and docs/observability.md, run: the sandbox settings the
 * CLI took, read back from the running session; the spans and metrics the
 * guide's exporters send or print, on the real CLI against the scripted model.
 */
import { ClaudeCode, ControlRequest } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { afterEach, assert, describe, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Http from "node:http"
import * as Example from "../../src/Example.js"
import * as observability from "../../src/guides/observability.js"
import * as sandbox from "../../src/guides/sandbox.js"

afterEach(() => {
  vi.restoreAllMocks()
})

const printed = () => {
  const lines: Array<string> = []
  for (const method of ["log", "dir", "info"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) =>
      void lines.push(args.map((arg) => typeof arg === "string" ? arg : JSON.stringify(arg)).join(" "))
    )
  }
  return lines
}

describe("docs/sandbox.md, on the real CLI", () => {
  it.live("enable: the layer's sandbox is the session's, as the CLI reports it", () =>
    Effect.gen(function*() {
      const { cwd } = yield* Example.Workspace
      const env = yield* ScriptedModel.cliEnv
      const settings = yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session({ cwd, env })
        return yield* session.request(ControlRequest.requests.get_settings, {})
      })).pipe(Effect.provide(sandbox.sandboxed))
      const effective = settings.effective.sandbox as Record<string, any>
      assert.strictEqual(effective.enabled, true)
      assert.include(effective.filesystem.allowWrite, "/var/cache/builds")
      assert.include(effective.network.allowedDomains, "registry.npmjs.org")
    }).pipe(Effect.provide(Example.layerScripted([]))))

  it.live("per-call: a call's sandbox adds to the layer's; the turn runs", () =>
    Effect.gen(function*() {
      const result = yield* sandbox.stricter
      assert.strictEqual(result.result, "Tests pass.")
    }).pipe(Effect.provide(Example.layerScripted([ScriptedModel.text("Tests pass.")]))))

  it.live("read-back: the effective sandbox, printed", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* sandbox.effectiveSandbox
      assert.include(lines.join("\n"), "\"enabled\":true")
    }).pipe(Effect.provide(Example.layerScripted([]))))

  it.effect("schema: the settings decode as options", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(sandbox.checked)
      assert.isTrue(Exit.isSuccess(exit))
    }))
})

/** An OTLP/HTTP collector on 127.0.0.1:4318 (the guide's address) that keeps the paths it was sent to. */
const collector = Effect.acquireRelease(
  Effect.callback<{ readonly server: Http.Server; readonly paths: Array<string> }, Error>((resume) => {
    const paths: Array<string> = []
    const server = Http.createServer((request, response) => {
      paths.push(request.url ?? "")
      request.resume().on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"))
    })
    server.once("error", (error) => resume(Effect.fail(error)))
    server.listen(4318, "127.0.0.1", () => resume(Effect.succeed({ server, paths })))
  }),
  ({ server }) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
)

describe("docs/observability.md, on the real CLI", () => {
  it.live("otlp: the traces and metrics reach a collector at 127.0.0.1:4318", () =>
    Effect.gen(function*() {
      const { paths } = yield* collector
      yield* observability.traced
      assert.include(paths, "/v1/traces")
      assert.include(paths, "/v1/metrics")
    }).pipe(Effect.scoped, Effect.provide(Example.layerScripted([ScriptedModel.text("Notes ready.")]))))

  it.live("console: the session's spans are printed", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* observability.printed
      assert.include(lines.join("\n"), "claude.session")
    }).pipe(Effect.provide(Example.layerScripted([ScriptedModel.text("Notes ready.")]))))

  it.live("metrics: the count of hooks that timed out is read in the program", () =>
    Effect.gen(function*() {
      const lines = printed()
      yield* observability.report
      assert.match(lines[0]!, /^hooks that timed out and fell back: \d+$/)
    }))
})
