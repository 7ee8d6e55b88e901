/**
 * The session store contract (the official adapter's) over every store: the
 * in-memory one, SqlSessionStore on SQLite (a file, through this package's
 * node:sqlite client) and on PostgreSQL (a real server on 127.0.0.1, through
 * @effect/sql-pg); then what only SQL stores do: the size bound, a database
 * that goes away and comes back, processes starting together.
 *
 * The real-CLI half of packages/sql/test/SqlSessionStore.test.ts (a session
 * resumed on another machine from the store) waits for the session port.
 */
import { SessionStore } from "@claude-effect/sdk"
import { SqliteClient, SqlSessionStore } from "@claude-effect/sql"
import { PostgresServer } from "@claude-effect/testkit"
import { PgClient } from "@effect/sql-pg"
import { assert, describe, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

const tempDir = (prefix: string) =>
  Effect.acquireRelease(
    Effect.sync(() => Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), prefix)))),
    (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
  )

/** SQLite in a file of a temporary directory. */
const sqlite = Layer.unwrap(
  Effect.map(tempDir("claude-effect-sqlite-"), (dir) => SqliteClient.layer({ filename: Path.join(dir, "sessions.db") }))
)

/** PostgreSQL: a real server of this machine's, on 127.0.0.1, for the suite. */
const postgres = Layer.unwrap(
  Effect.map(
    Effect.service(PostgresServer.PostgresServer),
    (server) => PgClient.layer({ url: Redacted.make(server.url) })
  )
).pipe(Layer.provideMerge(PostgresServer.layer()))

const key = (sessionId: string, subpath?: string): SessionStore.SessionKey => ({
  projectKey: "project",
  sessionId,
  ...(subpath !== undefined ? { subpath } : {})
})

// A uuid the SDK's entry check accepts (no NUL, no lone surrogate): the others are refused, as tested below.
const Uuid = Schema.String.check(Schema.makeFilter((uuid: string) => !/\0|[\uD800-\uDFFF]/u.test(uuid)))

const Entries = Schema.Array(Schema.Struct({
  type: Schema.String,
  uuid: Schema.optional(Uuid),
  data: Schema.Array(Schema.Union([Schema.String, Schema.Int, Schema.Boolean, Schema.Null]))
}))

/** The contract every store keeps, the official adapter's: one suite, run against each store. */
const contract = (name: string, store: Layer.Layer<SessionStore.SessionStore, unknown>) =>
  layer(store, { timeout: "60 seconds" })(name, (it) => {
    let n = 0
    // One session id per test: the store is shared by the suite.
    const fresh = () => `s-${Date.now().toString(36)}-${n++}`

    it.effect("appends in order, once per uuid, and loads a deep-equal copy (None when never written)", () =>
      Effect.gen(function*() {
        const store = yield* SessionStore.SessionStore
        const id = fresh()
        assert.isTrue(Option.isNone(yield* store.load(key(id))))
        const first = [
          {
            type: "user",
            uuid: "u1",
            timestamp: "2026-01-01T00:00:00Z",
            message: { content: [{ type: "text", text: "hé ✓" }] }
          },
          { type: "custom-title", title: "t" }
        ]
        yield* store.append(key(id), first)
        yield* store.append(key(id), [
          { type: "user", uuid: "u1", message: { content: "again" } },
          { type: "custom-title", title: "t" },
          { type: "assistant", uuid: "a1", nested: [1, { deep: true, nothing: null }] }
        ])
        assert.deepStrictEqual(Option.getOrThrow(yield* store.load(key(id))), [
          ...first,
          { type: "custom-title", title: "t" },
          { type: "assistant", uuid: "a1", nested: [1, { deep: true, nothing: null }] }
        ])
      }))

    it.effect("lists a project's sessions by write time, subagent subkeys, and deletes a session whole", () =>
      Effect.gen(function*() {
        const store = yield* SessionStore.SessionStore
        const projectKey = `p-${fresh()}`
        yield* store.append({ projectKey, sessionId: "s1" }, [{ type: "user", uuid: "1" }])
        yield* TestClock.adjust("1 second")
        yield* store.append({ projectKey, sessionId: "s2" }, [{ type: "user", uuid: "2" }])
        yield* store.append({ projectKey, sessionId: "s1", subpath: "subagents/agent-a" }, [{
          type: "user",
          uuid: "3"
        }])
        const sessions = yield* store.listSessions(projectKey)
        assert.deepStrictEqual(sessions.map((s) => s.sessionId).sort(), ["s1", "s2"])
        // write times are integer epoch milliseconds (the test clock's here): s2 was written a second later
        for (const session of sessions) assert.isTrue(Number.isInteger(session.mtime) && session.mtime >= 0)
        const mtimeOf = (id: string) => sessions.find((session) => session.sessionId === id)!.mtime
        assert.isAbove(mtimeOf("s2"), mtimeOf("s1"))
        assert.deepStrictEqual(yield* store.listSubkeys({ projectKey, sessionId: "s1" }), ["subagents/agent-a"])
        yield* store.delete({ projectKey, sessionId: "s1", subpath: "subagents/agent-a" })
        assert.deepStrictEqual(yield* store.listSubkeys({ projectKey, sessionId: "s1" }), [])
        assert.isTrue(Option.isSome(yield* store.load({ projectKey, sessionId: "s1" })))
        yield* store.append({ projectKey, sessionId: "s1", subpath: "subagents/agent-b" }, [{ type: "user" }])
        yield* store.delete({ projectKey, sessionId: "s1" })
        assert.isTrue(Option.isNone(yield* store.load({ projectKey, sessionId: "s1" })))
        assert.isTrue(Option.isNone(yield* store.load({ projectKey, sessionId: "s1", subpath: "subagents/agent-b" })))
        assert.deepStrictEqual((yield* store.listSessions(projectKey)).map((s) => s.sessionId), ["s2"])
      }))

    it.effect("an invalid key is a typed error naming the field, before the database is asked", () =>
      Effect.gen(function*() {
        const store = yield* SessionStore.SessionStore
        const error = yield* store.append({ projectKey: "p", sessionId: "a/b" }, [{ type: "user" }]).pipe(Effect.flip)
        assert.strictEqual(error.reason, "InvalidKey")
        assert.include(error.message, "sessionId")
        // new on effect 4: the other unsafe names, on every operation
        for (const sessionId of ["..", "a\0b", "x".repeat(256)]) {
          for (
            const refused of [
              store.append({ projectKey: "p", sessionId }, [{ type: "user" }]),
              store.load({ projectKey: "p", sessionId }),
              store.delete({ projectKey: "p", sessionId }),
              store.listSubkeys({ projectKey: "p", sessionId })
            ]
          ) assert.strictEqual((yield* Effect.flip(refused)).reason, "InvalidKey")
        }
        assert.strictEqual((yield* Effect.flip(store.listSessions("../p"))).reason, "InvalidKey")
      }))

    it.effect("an entry whose uuid holds NUL or a lone surrogate is InvalidEntry, and nothing of its batch is stored", () =>
      Effect.gen(function*() {
        const store = yield* SessionStore.SessionStore
        const id = fresh()
        for (const uuid of ["a\0b", "\uD800", "x\uDC00"]) {
          const error = yield* store.append(key(id), [{ type: "user", uuid: "fine" }, { type: "user", uuid }]).pipe(
            Effect.flip
          )
          assert.strictEqual(error.reason, "InvalidEntry")
          assert.include(error.message, "an entry's uuid must")
        }
        assert.isTrue(Option.isNone(yield* store.load(key(id))))
      }))

    it.effect.prop("whatever JSON entries are appended, in whatever batches, load deep-equal once per uuid", [
      Entries,
      Entries
    ], ([a, b]) =>
      Effect.gen(function*() {
        const store = yield* SessionStore.SessionStore
        const id = fresh()
        yield* store.append(key(id), a)
        yield* store.append(key(id), b)
        yield* store.append(key(id), a.filter((entry) => entry.uuid !== undefined))
        const expected: Array<unknown> = []
        const seen = new Set<string>()
        for (const entry of [...a, ...b]) {
          if (entry.uuid !== undefined) {
            if (seen.has(entry.uuid)) continue
            seen.add(entry.uuid)
          }
          expected.push(entry)
        }
        const loaded = Option.getOrElse(yield* store.load(key(id)), () => [])
        assert.deepStrictEqual(loaded, JSON.parse(JSON.stringify(expected)))
      }), { arbitrary: { runs: 25 } })
  })

contract("SessionStore.layerMemory", SessionStore.layerMemory)
contract("SqlSessionStore on SQLite (a file)", SqlSessionStore.layer().pipe(Layer.provide(sqlite)))
contract("SqlSessionStore on PostgreSQL", SqlSessionStore.layer().pipe(Layer.provide(postgres)))

describe("SqlSessionStore", () => {
  it.effect("an entry over maxEntryBytes fails the batch with TooLarge, and nothing of it is stored", () =>
    Effect.gen(function*() {
      const store = yield* SqlSessionStore.make({ maxEntryBytes: 1000 })
      const error = yield* store.append(key("big"), [{ type: "user", uuid: "small" }, {
        type: "user",
        uuid: "large",
        text: "x".repeat(2000)
      }]).pipe(Effect.flip)
      assert.strictEqual(error.reason, "TooLarge")
      assert.include(error.message, "uuid large")
      assert.include(error.message, "maxEntryBytes")
      assert.isTrue(Option.isNone(yield* store.load(key("big"))))
    }).pipe(Effect.provide(sqlite)))

  it.effect(
    "a database that cannot be reached is Unavailable, and the store works again once it is back",
    () =>
      Effect.gen(function*() {
        const server = yield* PostgresServer.PostgresServer
        const store = yield* SqlSessionStore.make()
        yield* store.append(key("s"), [{ type: "user", uuid: "1" }])
        yield* server.stop
        const error = yield* store.append(key("s"), [{ type: "user", uuid: "2" }]).pipe(Effect.flip)
        assert.strictEqual(error.reason, "Unavailable")
        assert.strictEqual(error.operation, "append")
        assert.include(error.message, "the database failed")
        assert.strictEqual((yield* store.load(key("s")).pipe(Effect.flip)).reason, "Unavailable")
        yield* server.start
        // the same store, the same pool: it reconnects by itself
        yield* store.append(key("s"), [{ type: "user", uuid: "2" }])
        assert.deepStrictEqual(Option.getOrThrow(yield* store.load(key("s"))), [
          { type: "user", uuid: "1" },
          { type: "user", uuid: "2" }
        ])
      }).pipe(Effect.provide(postgres)),
    60_000
  )

  it.effect(
    "several processes' stores start against one PostgreSQL at once: the tables are made once",
    () =>
      Effect.gen(function*() {
        const server = yield* PostgresServer.PostgresServer
        // One pool each, as separate processes would have.
        const stores = yield* Effect.all(
          Array.from({ length: 4 }, () =>
            Effect.flatMap(
              Layer.build(PgClient.layer({ url: Redacted.make(server.url), maxConnections: 2 })),
              (pool) => SqlSessionStore.make({ prefix: "race" }).pipe(Effect.provide(pool))
            )),
          { concurrency: "unbounded" }
        )
        yield* stores[0]!.append(key("s"), [{ type: "user", uuid: "1" }])
        assert.deepStrictEqual(Option.getOrThrow(yield* stores[3]!.load(key("s"))), [{ type: "user", uuid: "1" }])
      }).pipe(Effect.provide(PostgresServer.layer())),
    60_000
  )
})
