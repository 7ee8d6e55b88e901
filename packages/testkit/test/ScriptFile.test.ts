import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it, layer } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as ChildProcess from "node:child_process"
import * as Net from "node:net"
import * as Path from "node:path"
import { ScriptFile } from "../src/index.js"
import { claudeExecutable } from "./utils/cli.js"

const bin = Path.join(import.meta.dirname, "..", "bin", "claude-effect-testkit.mjs")

const writeScript = Effect.fnUntraced(function*(content: string) {
  const fs = yield* FileSystem.FileSystem
  const dir = yield* fs.makeTempDirectoryScoped()
  const file = Path.join(dir, "script.json")
  yield* fs.writeFileString(file, content)
  return file
})

interface Output {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const run = (command: string, args: ReadonlyArray<string>, env: Record<string, string | undefined> = process.env) =>
  Effect.callback<Output>((resume) => {
    const child = ChildProcess.execFile(
      command,
      args,
      { env, encoding: "utf8", timeout: 60_000 },
      (_error, stdout, stderr) => resume(Effect.succeed({ code: child.exitCode, stdout, stderr }))
    )
    return Effect.sync(() => child.kill("SIGKILL"))
  })

// The server as a process of its own, stopped (SIGTERM, then SIGKILL) when the scope closes.
const serve = (script: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const child = ChildProcess.spawn(process.execPath, [bin, "serve", "--script", script], {
        stdio: ["ignore", "pipe", "pipe"]
      })
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
      let stdout = ""
      let stderr = ""
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => void (stdout += chunk))
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => void (stderr += chunk))
      return { child, exited, stdout: () => stdout, stderr: () => stderr }
    }),
    ({ child, exited }) =>
      Effect.promise(() => {
        child.kill("SIGTERM")
        return exited
      }).pipe(
        Effect.timeout(Duration.seconds(5)),
        Effect.catch(() => Effect.sync(() => child.kill("SIGKILL")))
      )
  )

// `export NAME='value'` lines into a record.
const parseExports = (text: string): Record<string, string> =>
  Object.fromEntries(
    text.split("\n").flatMap((line) => {
      const match = /^export ([A-Z_][A-Z0-9_]*)='(.*)'$/.exec(line)
      return match === null ? [] : [[match[1]!, match[2]!.replaceAll("'\\''", "'")]]
    })
  )

const listening = (url: string) =>
  Effect.callback<boolean>((resume) => {
    const { hostname, port } = new URL(url)
    const socket = Net.connect({ host: hostname, port: Number(port) })
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
  })

describe("ScriptFile", () => {
  it("decodes every kind of step, in the array form and the object form", () => {
    const steps = [
      { type: "text", text: "hi" },
      { type: "thinking", thinking: "hmm" },
      { type: "tool_use", name: "Bash", input: { command: "ls" }, id: "toolu_1" },
      { type: "turn", content: [{ type: "text", text: "a" }, { type: "tool_use", name: "Read", input: {} }] },
      { type: "error", status: 529, retry_after_ms: 10 }
    ]
    const fromArray = Result.getOrThrow(ScriptFile.decode(steps))
    assert.deepStrictEqual(fromArray.steps.map((step) => step._tag), [
      "Text",
      "Thinking",
      "ToolUse",
      "Turn",
      "ErrorReply"
    ])
    const fromObject = Result.getOrThrow(ScriptFile.decode({ steps, side_reply: "side", env: { A: "1" } }))
    assert.strictEqual(fromObject.steps.length, 5)
    assert.deepStrictEqual(fromObject.options, { sideReply: "side", env: { A: "1" } })
  })

  it("a bad step is an InvalidScript error naming the file, the step and the field", () => {
    const error = Result.getOrThrowWith(
      Result.flip(ScriptFile.decode({ steps: [{ type: "text", text: "ok" }, { type: "txt", text: "x" }] }, "s.json")),
      () => new Error("decoded")
    )
    assert.strictEqual(error._tag, "ScriptFileError")
    assert.strictEqual(error.reason, "InvalidScript")
    assert.include(error.message, "s.json")
    assert.include(error.message, "steps[1].type")
    assert.include(error.message, "\"txt\"")
    const wrongField = Result.getOrThrowWith(
      Result.flip(ScriptFile.decode([{ type: "tool_use", name: "Bash", input: "ls" }])),
      () => new Error("decoded")
    )
    assert.include(wrongField.detail, "steps[0].input")
    assert.isBelow(wrongField.message.length, 400)
    // A block of a turn with an unknown type: the field and the choices, not the whole block.
    const wrongBlock = Result.getOrThrowWith(
      Result.flip(ScriptFile.decode([{ type: "turn", content: [{ type: "txet", text: "a" }] }])),
      () => new Error("decoded")
    )
    assert.include(wrongBlock.detail, "steps[0].content[0].type: Expected \"text\" | \"thinking\" | \"tool_use\"")
    assert.include(wrongBlock.detail, "\"txet\"")
  })

  it.effect("a file that is missing or not JSON: NotFound, NotJson", () =>
    Effect.gen(function*() {
      const missing = yield* ScriptFile.load("/nonexistent/script.json").pipe(Effect.flip)
      assert.strictEqual(missing.reason, "NotFound")
      assert.include(missing.message, "/nonexistent/script.json does not exist")
      const notJson = yield* ScriptFile.load(yield* writeScript("steps: []")).pipe(Effect.flip)
      assert.strictEqual(notJson.reason, "NotJson")
      assert.include(notJson.message, "is not JSON")
    }).pipe(Effect.provide(NodeServices.layer)))
})

layer(NodeServices.layer, { excludeTestServices: true })("claude-effect-testkit serve", (it) => {
  it.effect(
    "serves a script file to a plain `claude -p`, prints its environment, and stops",
    () =>
      Effect.gen(function*() {
        const script = yield* writeScript(JSON.stringify({
          steps: [{ type: "text", text: "The scripted answer, served from a file." }]
        }))
        const env = yield* Effect.scoped(Effect.gen(function*() {
          const server = yield* serve(script)
          const exported = yield* Effect.suspend(() => {
            const env = parseExports(server.stdout())
            return env.DISABLE_AUTOUPDATER === undefined ? Effect.fail("not yet") : Effect.succeed(env)
          }).pipe(
            Effect.retry({ schedule: Schedule.spaced(Duration.millis(50)), times: 400 }),
            Effect.catch(() => Effect.die(new Error(`no environment printed; stderr: ${server.stderr()}`)))
          )
          assert.match(exported.ANTHROPIC_BASE_URL!, /^http:\/\/127\.0\.0\.1:\d+$/)
          assert.isDefined(exported.ANTHROPIC_API_KEY)
          assert.isDefined(exported.CLAUDE_CONFIG_DIR)

          const answer = yield* run(claudeExecutable, ["-p", "Say something"], { PATH: process.env.PATH, ...exported })
          assert.strictEqual(answer.code, 0, answer.stderr)
          assert.strictEqual(answer.stdout.trim(), "The scripted answer, served from a file.")
          // The server logs each request on stderr.
          assert.include(server.stderr(), "POST /v1/messages")
          return exported
        }))
        // The scope has closed: the server is gone, and its HOME with it.
        assert.isFalse(yield* listening(env.ANTHROPIC_BASE_URL!))
        const fs = yield* FileSystem.FileSystem
        assert.isFalse(yield* fs.exists(env.HOME!))
      }),
    { timeout: 90_000 }
  )

  it.effect("a bad script file: exit code 1 and the error on stderr", () =>
    Effect.gen(function*() {
      const script = yield* writeScript(JSON.stringify([{ type: "text" }]))
      const result = yield* run(process.execPath, [bin, "serve", "--script", script])
      assert.strictEqual(result.code, 1)
      assert.include(result.stderr, "is not a valid script: steps[0].text")
    }), { timeout: 60_000 })
})
