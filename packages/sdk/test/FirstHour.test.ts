/**
 * A newcomer's first hour: the mistakes everyone makes once, each answered with a typed error that
 * says what is wrong and how to fix it (on the real CLI, or before anything is spawned).
 */
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import type { PermissionMode } from "../src/ClaudeOptions.js"
import type { ClaudeError } from "../src/index.js"
import { ClaudeCode } from "../src/index.js"
import { harness, spawnerLayer } from "./utils/harness.js"

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

/** The CLI with no API key and an empty home: no credentials at all. */
const noCredentials = Layer.unwrap(Effect.gen(function*() {
  const home = yield* Effect.acquireRelease(
    Effect.sync(() => Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "claude-effect-nohome-"))),
    (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
  )
  return ClaudeCode.layer({
    cwd: home,
    replaceEnv: true,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home }
  }).pipe(Layer.provide(spawnerLayer))
})).pipe(Layer.provide(NodeServices.layer))

const assertAuthenticationError = (error: ClaudeError.ClaudeError) => {
  assert.strictEqual(error._tag, "ResultError")
  if (error._tag !== "ResultError") return
  assert.strictEqual(error.reason, "AuthenticationFailed")
  assert.include(error.message, "no valid credentials")
  assert.include(error.message, "ANTHROPIC_API_KEY")
  assert.include(error.message, "/login")
  assert.include(error.message, "ScriptedModel")
}

describe("a newcomer's first hour", () => {
  it.live(
    "no credentials: query, session and result fail with AuthenticationFailed, saying how to fix it",
    () =>
      Effect.gen(function*() {
        const seen: Array<string> = []
        const queried = yield* ClaudeCode.query("hi").pipe(
          Stream.runForEach((message) => Effect.sync(() => seen.push(message.type))),
          Effect.flip
        )
        assertAuthenticationError(queried)
        // what came before the failure was delivered: the turn's init and the assistant's error message
        assert.includeMembers(seen, ["system", "assistant"])
        assert.notInclude(seen, "result")

        const resulted = yield* ClaudeCode.result("hi").pipe(Effect.flip)
        assertAuthenticationError(resulted)

        const turned = yield* Effect.scoped(Effect.gen(function*() {
          const session = yield* ClaudeCode.session()
          return yield* collect(session.turn("hi")).pipe(Effect.flip)
        }))
        assertAuthenticationError(turned)
      }).pipe(Effect.provide(noCredentials)),
    { timeout: 60_000 }
  )

  it.live("an invalid argument to a control method is ControlError InvalidRequest naming the field; the session goes on", () =>
    Effect.gen(function*() {
      const session = yield* ClaudeCode.session()
      const error = yield* session.setPermissionMode("yolo" as PermissionMode).pipe(Effect.flip)
      assert.strictEqual(error._tag, "ControlError")
      if (error._tag !== "ControlError") return
      assert.strictEqual(error.reason, "InvalidRequest")
      assert.include(error.error, "mode")
      assert.include(error.message, "yolo")
      // nothing was sent, and the session is fine
      yield* session.setPermissionMode("acceptEdits")
      const turn = yield* collect(session.turn("still there?"))
      assert.strictEqual((turn[turn.length - 1] as { result?: string }).result, "yes")
    }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("yes")]))))
})
