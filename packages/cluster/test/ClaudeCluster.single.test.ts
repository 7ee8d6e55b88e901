import { ClaudeCluster, ClaudeSession } from "@claude-effect/cluster"
import { ClaudeCode, HookLayer, Protocol, SessionStore } from "@claude-effect/sdk"
import { cliProcessesOf, isAlive } from "@claude-effect/test-support/Harness"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { model, policy, promptText, readLines, sessionOptions } from "./utils/scenario.js"

const SESSIONS = Number(process.env.SESSIONS ?? 4)

/**
 * A runner of `ClaudeSession`s over SQLite in a temporary directory (removed
 * with the scope), under the "single" policy unless given another, its CLIs
 * pointed at the ScriptedModel.
 */
const singleRunner = (options: {
  readonly maxIdleTime?: Duration.Input
  readonly policy?: ReturnType<typeof policy>
  readonly shardingConfig?: ClaudeCluster.Options["shardingConfig"]
  readonly controlTimeout?: number
  /** Every entity id the options function was called with. */
  readonly optionsCalls?: Array<string>
} = {}) =>
  Effect.gen(function*() {
    const root = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-cluster-single-")))
    yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true })))
    const cliEnv = (yield* ScriptedModel.ScriptedModel).cliEnv
    const optionsOf = sessionOptions(Path.join(root, "sessions"))
    const runner = ClaudeSession.layer({
      options: (entityId) => {
        options.optionsCalls?.push(entityId)
        return optionsOf(entityId)
      },
      maxIdleTime: options.maxIdleTime
    }).pipe(
      Layer.provide(options.policy ?? policy("single")),
      Layer.provideMerge(ClaudeCluster.layerSingle({
        filename: Path.join(root, "cluster.db"),
        shardingConfig: options.shardingConfig
      })),
      Layer.provide(ClaudeCode.layer({
        env: cliEnv,
        ...(options.controlTimeout !== undefined ? { controlTimeout: options.controlTimeout } : {})
      }))
    )
    return { root, cliEnv, runner }
  })

/** A test on the real CLI, against the scenario's scripted model. */
const live = <A, E>(
  effect: Effect.Effect<A, E, ScriptedModel.ScriptedModel | NodeServices.NodeServices | Scope.Scope>
) =>
  effect.pipe(
    Effect.scoped,
    Effect.provide(Layer.provideMerge(ScriptedModel.layerNode([model()]), NodeServices.layer))
  )

/** The result that ends a turn's messages. */
const resultOf = (messages: ReadonlyArray<Protocol.Message>) => {
  const last = messages.at(-1)
  assert.isTrue(last !== undefined && Protocol.isResultSuccess(last), "the turn ends with its result")
  return last as Protocol.ResultSuccess
}

describe("ClaudeCluster.layerSingle (SQLite, one process)", () => {
  it.live(
    "sessions as entities: two prompts each, every Bash command under the runner's hook, the second turn carrying the first",
    () =>
      live(Effect.gen(function*() {
        const { root, runner } = yield* singleRunner()
        const entities = Array.from({ length: SESSIONS }, (_, i) => `user-${i}`)
        const results = yield* Effect.gen(function*() {
          const client = yield* ClaudeSession.client
          return yield* Effect.forEach(entities, (entityId) =>
            Effect.forEach([1, 2], (n) =>
              client(entityId).Prompt({ promptId: `${entityId}-${n}`, prompt: promptText(entityId, n) })), {
            concurrency: "unbounded"
          })
        }).pipe(Effect.provide(runner), Effect.scoped)

        for (const [i, entityId] of entities.entries()) {
          const [first, second] = results[i]!
          assert.strictEqual(resultOf(first!).result, `done ${entityId}-p1`)
          assert.strictEqual(resultOf(second!).result, `done ${entityId}-p2`)
          // one CLI session per entity: its id, derived from the entity id
          assert.strictEqual(resultOf(second!).session_id, ClaudeSession.sessionIdOf(entityId))
          const dir = ClaudeSession.directoryOf(Path.join(root, "sessions"), entityId)
          assert.deepStrictEqual(readLines(Path.join(dir, "turns.log")), [`${entityId}-p1`, `${entityId}-p2`])
          assert.deepStrictEqual(readLines(Path.join(dir, "hooks.log")), ["single", "single"])
        }
        const requests = yield* ScriptedModel.turnRequests
        for (const entityId of entities) {
          const second = requests.find((r) =>
            r.lastUserText.includes(`turn ${entityId}-p2`)
          )
          assert.isDefined(second)
          assert.isTrue(second!.includes(`done ${entityId}-p1`), "the second turn's request carries the first")
        }
      })),
    120_000
  )

  it.live(
    "a prompt id sent twice runs once; an idle session is closed, and the next prompt resumes it",
    () =>
      live(Effect.gen(function*() {
        const { runner } = yield* singleRunner({ maxIdleTime: "2 seconds" })
        yield* Effect.gen(function*() {
          const client = (yield* ClaudeSession.client)("idle-user")
          const first = yield* client.Prompt({ promptId: "p-1", prompt: promptText("idle-user", 1) })
          const again = yield* client.Prompt({ promptId: "p-1", prompt: promptText("idle-user", 1) })
          assert.deepStrictEqual(again, first, "the same prompt id answers the same turn")
          const ran = (yield* ScriptedModel.turnRequests).filter((r) =>
            r.lastUserText.includes(promptText("idle-user", 1))
          )
          assert.strictEqual(ran.length, 1, "and the model was asked once")
          const pid = cliProcessesOf(process.pid)
          assert.strictEqual(pid.length, 1)
          // idle: the entity and its session are closed, the CLI is gone (the cluster looks every 5 s at least)
          const idleSince = Date.now()
          while (cliProcessesOf(process.pid).length > 0 && Date.now() - idleSince < 15_000) {
            yield* Effect.sleep("200 millis")
          }
          assert.deepStrictEqual(cliProcessesOf(process.pid), [])
          // the next prompt resumes the session from the store
          const second = yield* client.Prompt({ promptId: "p-2", prompt: promptText("idle-user", 2) })
          assert.strictEqual(resultOf(second).result, "done idle-user-p2")
          const last = (yield* ScriptedModel.turnRequests).find((r) =>
            r.lastUserText.includes(promptText("idle-user", 2))
          )!
          assert.isTrue(last.includes("done idle-user-p1"))
        }).pipe(Effect.provide(runner), Effect.scoped)
        assert.deepStrictEqual(cliProcessesOf(process.pid), [], "the runner closed its sessions")
      })),
    120_000
  )

  it.live(
    "a runner stopping while its CLI has stopped answering mid-turn: the turn is cut and the CLI ended, within the drain timeout",
    () =>
      live(Effect.gen(function*() {
        const asked = yield* Deferred.make<void>()
        const { root, runner } = yield* singleRunner({
          policy: HookLayer.preToolUse(
            { matcher: "Bash", timeout: "10 minutes" },
            () => Effect.andThen(Deferred.succeed(asked, undefined), Effect.never)
          ),
          // the turn in flight is given 1 s to finish when the runner stops, then cut
          shardingConfig: { entityTerminationTimeout: "1 second" },
          // the interrupt's own control timeout is past the test's: only the drain timeout can end the wait
          controlTimeout: 300_000
        })
        const { clis, stopping } = yield* Effect.gen(function*() {
          const client = yield* ClaudeSession.client
          yield* Effect.forkScoped(client("hung-user").Prompt({ promptId: "p-1", prompt: promptText("hung-user", 1) }))
          yield* Deferred.await(asked)
          // The CLI stops answering (a stopped process: no interrupt is answered, no result comes).
          const clis = cliProcessesOf(process.pid)
          for (const pid of clis) process.kill(pid, "SIGSTOP")
          return { clis, stopping: Date.now() }
        }).pipe(Effect.provide(runner), Effect.scoped)
        // The cut turn is interrupted in its CLI and read to its result for at most 10 s (the drain timeout),
        // then its session is closed and the CLI killed. Without that bound the runner's close (and, in a
        // cluster, the release of the entity's shard) would wait for ever.
        assert.isBelow(Date.now() - stopping, 30_000, "the runner stopped within the drain timeout")
        assert.strictEqual(clis.length, 1)
        assert.deepStrictEqual(clis.filter(isAlive), [], "the session's CLI is gone")
        assert.deepStrictEqual(
          readLines(Path.join(ClaudeSession.directoryOf(Path.join(root, "sessions"), "hung-user"), "turns.log")),
          [],
          "nothing ran"
        )
      })),
    120_000
  )

  it.live(
    "a session whose transcript was cut before its first prompt was recorded starts anew under its id",
    () =>
      live(Effect.gen(function*() {
        const { cliEnv, root, runner } = yield* singleRunner()
        const entityId = "cut-user"
        const sessionId = ClaudeSession.sessionIdOf(entityId)
        const cwd = ClaudeSession.directoryOf(Path.join(root, "sessions"), entityId)
        Fs.mkdirSync(cwd, { recursive: true })
        const projectKey = SessionStore.projectKey(cwd, cliEnv)
        // What a CLI records of a turn before its prompt: its queue records, in the store and on this runner.
        const queued = [
          { type: "queue-operation", operation: "enqueue", timestamp: new Date().toISOString(), sessionId },
          { type: "queue-operation", operation: "dequeue", timestamp: new Date().toISOString(), sessionId }
        ]
        const local = Path.join(SessionStore.configDir(cliEnv), "projects", projectKey, `${sessionId}.jsonl`)
        Fs.mkdirSync(Path.dirname(local), { recursive: true })
        Fs.writeFileSync(local, queued.map((entry) => JSON.stringify(entry)).join("\n") + "\n")
        const result = yield* Effect.gen(function*() {
          const store = yield* SessionStore.SessionStore
          yield* store.append({ projectKey, sessionId }, queued)
          const client = yield* ClaudeSession.client
          const messages = yield* client(entityId).Prompt({ promptId: "p-1", prompt: promptText(entityId, 1) })
          const stored = yield* store.load({ projectKey, sessionId })
          assert.isTrue(
            Option.exists(stored, (entries) => entries.some((entry) => entry.type === "user")),
            "the new turn is stored under the session's id"
          )
          return resultOf(messages)
        }).pipe(Effect.provide(runner), Effect.scoped)
        assert.strictEqual(result.result, `done ${entityId}-p1`)
        assert.strictEqual(result.session_id, sessionId)
      })),
    120_000
  )

  it.live(
    "entity ids that would act as paths are refused with EntityIdError before any options function or session: nothing is made outside the sessions directory",
    () =>
      live(Effect.gen(function*() {
        const optionsCalls: Array<string> = []
        const { root, runner } = yield* singleRunner({ optionsCalls })
        const sessions = Path.join(root, "sessions")
        const escape = `claude-cluster-escape-${process.pid}-${Date.now()}`
        const refused: ReadonlyArray<readonly [string, ClaudeSession.EntityIdError["reason"]]> = [
          [`../${escape}`, "PathSeparator"],
          [`../../${escape}`, "PathSeparator"],
          [`..\\${escape}`, "PathSeparator"],
          ["..", "DotSegment"],
          [".", "DotSegment"],
          [`nul\u0000${escape}`, "ControlCharacter"],
          [`line\n${escape}`, "ControlCharacter"],
          ["x".repeat(256), "TooLong"]
        ]
        // Sent by the entity's own client too, which does not check ids: the entity refuses them itself. (Not the
        // id with a NUL: SQLite gives it back cut at the NUL, another id; ClaudeSession.client refuses it first.)
        const reachEntity = refused.filter(([entityId]) => !entityId.includes("\u0000"))
        const { accepted, errors, entityErrors } = yield* Effect.gen(function*() {
          const client = yield* ClaudeSession.client
          const errors = yield* Effect.forEach(refused, ([entityId]) =>
            Effect.flip(client(entityId).Prompt({ promptId: "p-1", prompt: `turn ${escape}` })))
          const streamed = yield* Effect.flip(Stream.runDrain(client(`../${escape}`).PromptStream({ prompt: "x" })))
          const entityClient = yield* ClaudeSession.ClaudeSession.client
          const entityErrors = yield* Effect.forEach(reachEntity, ([entityId]) =>
            Effect.flip(entityClient(entityId).Prompt({ promptId: "p-1", prompt: `turn ${escape}` })))
          const entityStreamed = yield* Effect.flip(
            Stream.runDrain(entityClient(`../${escape}`).PromptStream({ prompt: "x" }))
          )
          const accepted = yield* client("ok-user").Prompt({ promptId: "p-1", prompt: promptText("ok-user", 1) })
          return { accepted, errors: [...errors, streamed], entityErrors: [...entityErrors, entityStreamed] }
        }).pipe(Effect.provide(runner), Effect.scoped)
        for (const [i, [entityId, reason]] of reachEntity.entries()) {
          const error = entityErrors[i]!
          assert.strictEqual(error._tag, "EntityIdError", `entity: ${JSON.stringify(entityId)}: ${String(error)}`)
          assert.strictEqual((error as ClaudeSession.EntityIdError).reason, reason)
        }
        assert.strictEqual(entityErrors.at(-1)!._tag, "EntityIdError", "the entity refuses PromptStream too")

        // Each refusal is typed, with its reason, and reaches the client.
        for (const [i, [entityId, reason]] of refused.entries()) {
          const error = errors[i]!
          assert.strictEqual(error._tag, "EntityIdError", `${JSON.stringify(entityId)}: ${String(error)}`)
          assert.strictEqual((error as ClaudeSession.EntityIdError).reason, reason)
        }
        assert.strictEqual(errors.at(-1)!._tag, "EntityIdError", "PromptStream is refused too")
        // No options function saw them, no session ran, nothing was made where they point.
        assert.deepStrictEqual(optionsCalls, ["ok-user"])
        assert.strictEqual(resultOf(accepted).result, "done ok-user-p1")
        const asked = (yield* ScriptedModel.turnRequests).filter((request) =>
          request.includes(escape)
        )
        assert.deepStrictEqual(asked, [], "the model was asked nothing for them")
        for (
          const [entityId] of refused.filter(([entityId]) =>
            entityId.includes(escape)
          )
        ) {
          assert.isFalse(Fs.existsSync(Path.join(sessions, entityId)), `${JSON.stringify(entityId)} made nothing`)
        }
        assert.isFalse(Fs.existsSync(Path.join(root, escape)))
        assert.isFalse(Fs.existsSync(Path.join(Path.dirname(root), escape)))
        assert.deepStrictEqual(Fs.readdirSync(sessions), [
          Path.basename(ClaudeSession.directoryOf(sessions, "ok-user"))
        ])
      })),
    120_000
  )
})
