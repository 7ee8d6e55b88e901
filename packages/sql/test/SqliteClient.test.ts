import { SqliteClient } from "@claude-effect/sql"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { assert, describe, it } from "@effect/vitest"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as Ref from "effect/Ref"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import * as Stream from "effect/Stream"
import * as Str from "effect/String"
import * as Tracer from "effect/Tracer"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"

// A fresh directory per test, removed when the test's scope closes (after the clients opened in it).
const tempDb = (name = "test.db") =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const dir = yield* fs.makeTempDirectoryScoped({ prefix: "claude-effect-sqlite-" })
    return Path.join(dir, name)
  }).pipe(Effect.provide(NodeFileSystem.layer))

// A client in the current scope (the test's), with its own Reactivity.
const open = (config: SqliteClient.SqliteClientConfig) =>
  SqliteClient.make(config).pipe(Effect.provide(Reactivity.layer))

// Another connection to the same file, opened and closed around `f`: what is on disk, not what one client holds.
const readBack = <A>(filename: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, SqlError.SqlError>) =>
  Effect.scoped(Effect.flatMap(open({ filename }), f))

const names = (filename: string) =>
  readBack(filename, (sql) => sql<{ name: string }>`SELECT name FROM items ORDER BY id`).pipe(
    Effect.map((rows) => rows.map((row) => row.name))
  )

const createItems = (sql: SqlClient.SqlClient) =>
  sql`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, qty INTEGER CHECK (qty >= 0))`

// The SqlError an effect fails with (and a test failure if it succeeds).
const failure = <A, R>(effect: Effect.Effect<A, SqlError.SqlError, R>) => Effect.flip(effect)

describe("SqliteClient", () => {
  describe("statements", () => {
    it.effect("rows inserted with sql.insert are on disk: a second connection reads them back", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        yield* Effect.scoped(Effect.gen(function*() {
          const sql = yield* open({ filename })
          yield* createItems(sql)
          yield* sql`INSERT INTO items ${sql.insert([{ name: "apple", qty: 1 }, { name: "pear", qty: 2 }])}`
          yield* sql`INSERT INTO items ${sql.insert({ name: "plum", qty: 3 })}`
        }))
        assert.deepStrictEqual(yield* names(filename), ["apple", "pear", "plum"])
      }))

    it.effect("two clients on one file: a write of one is read by the other while both are open (WAL)", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const writer = yield* open({ filename })
        const reader = yield* open({ filename })
        yield* createItems(writer)
        yield* writer`INSERT INTO items ${writer.insert({ name: "fig", qty: 1 })}`
        const rows = yield* reader<{ name: string }>`SELECT name FROM items`
        assert.deepStrictEqual(rows.map((row) => row.name), ["fig"])
      }))

    it.effect("binds booleans as 0/1, bigints, Uint8Array as BLOB, null and undefined as NULL, Dates as ISO text", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const sql = yield* open({ filename })
        yield* sql`CREATE TABLE vals (id INTEGER PRIMARY KEY, v ANY)`
        const big = 2n ** 60n + 1n
        const bytes = new Uint8Array([0, 1, 254, 255])
        const date = new Date("2026-12-05T10:00:00.000Z")
        yield* sql`INSERT INTO vals ${
          sql.insert([{ v: true }, { v: false }, { v: big }, { v: bytes }, { v: null }, { v: undefined }, { v: date }])
        }`
        const stored = yield* readBack(
          filename,
          (other) =>
            other<{ type: string; v: unknown }>`SELECT typeof(v) AS type, v FROM vals ORDER BY id`.pipe(
              Effect.provideService(SqlClient.SafeIntegers, true)
            )
        )
        assert.deepStrictEqual(stored.map((row) => row.type), [
          "integer",
          "integer",
          "integer",
          "blob",
          "null",
          "null",
          "text"
        ])
        assert.deepStrictEqual(stored.slice(0, 3).map((row) => row.v), [1n, 0n, big])
        assert.deepStrictEqual(stored[3].v, bytes)
        assert.strictEqual(stored[6].v, "2026-12-05T10:00:00.000Z")
        // an integer beyond 2^53 read without SafeIntegers is an error that says how to read it
        const tooLarge = yield* failure(sql`SELECT v FROM vals WHERE id = 3`)
        assert.include(tooLarge.message, "provide SqlClient.SafeIntegers")
        // without SafeIntegers an integer is a number; a Date in first place is bound as text, not taken for named parameters
        const [row] = yield* sql<{ d: string; n: number }>`SELECT ${date} AS d, ${7} AS n`
        assert.deepStrictEqual({ ...row }, { d: "2026-12-05T10:00:00.000Z", n: 7 })
      }))

    it.effect("a value SQLite cannot store is a SqlError naming the parameter, before anything runs", () =>
      Effect.gen(function*() {
        const sql = yield* open({ filename: ":memory:" })
        const error = yield* failure(sql`SELECT ${1} AS a, ${{ nested: true }} AS b`)
        assert.strictEqual(error.reason._tag, "UnknownError")
        assert.strictEqual(error.reason.operation, "bind")
        assert.include(error.message, "parameter 2 (object)")
      }))

    it.effect("helpers compile for SQLite: insert ... returning, in, and/or, update, csv", () =>
      Effect.gen(function*() {
        const sql = yield* open({ filename: ":memory:" })
        yield* createItems(sql)
        const inserted = yield* sql<{ id: number; name: string }>`INSERT INTO items ${
          sql.insert([{ name: "a", qty: 1 }, { name: "b", qty: 2 }, { name: "c", qty: 3 }]).returning("*")
        }`
        assert.deepStrictEqual(inserted.map((row) => row.name), ["a", "b", "c"])
        const some = yield* sql<{ name: string }>`SELECT name FROM items WHERE ${
          sql.and([sql`id IN ${sql.in([1, 3])}`, sql.or([sql`qty > 0`, sql`qty IS NULL`])])
        } ORDER BY id`
        assert.deepStrictEqual(some.map((row) => row.name), ["a", "c"])
        yield* sql`UPDATE items SET ${sql.update({ id: 2, name: "B", qty: 20 }, ["id"])} WHERE id = ${2}`
        const columns = yield* sql<{ name: string; qty: number }>`SELECT ${
          sql.csv(["name", "qty"])
        } FROM items WHERE id = 2`
        assert.deepStrictEqual({ ...columns[0] }, { name: "B", qty: 20 })
      }))

    it.effect("transformQueryNames and transformResultNames rename both ways; withoutTransforms does not", () =>
      Effect.gen(function*() {
        const sql = yield* open({
          filename: ":memory:",
          transformQueryNames: Str.camelToSnake,
          transformResultNames: Str.snakeToCamel
        })
        yield* sql`CREATE TABLE people (person_id INTEGER PRIMARY KEY, given_name TEXT)`
        yield* sql`INSERT INTO people ${sql.insert({ personId: 1, givenName: "Ada" })}`
        const rows = yield* sql<{ personId: number; givenName: string }>`SELECT * FROM people`
        assert.deepStrictEqual({ ...rows[0] }, { personId: 1, givenName: "Ada" })
        const raw = yield* sql.withoutTransforms()<Record<string, unknown>>`SELECT * FROM people`
        assert.deepStrictEqual({ ...raw[0] }, { person_id: 1, given_name: "Ada" })
      }))

    it.effect("raw answers changes and lastInsertRowid; values answers arrays; unprepared runs the same", () =>
      Effect.gen(function*() {
        const sql = yield* open({ filename: ":memory:" })
        yield* createItems(sql)
        const raw = yield* sql`INSERT INTO items ${sql.insert([{ name: "a", qty: 1 }, { name: "b", qty: 2 }])}`.raw
        assert.deepStrictEqual(raw, { changes: 2, lastInsertRowid: 2 })
        const values = yield* sql`SELECT id, name FROM items ORDER BY id`.values
        assert.deepStrictEqual(values, [[1, "a"], [2, "b"]])
        // the same statement text, prepared and cached above, answers objects again
        const rows = yield* sql<{ id: number; name: string }>`SELECT id, name FROM items ORDER BY id`
        assert.deepStrictEqual(rows.map((row) => ({ ...row })), [{ id: 1, name: "a" }, { id: 2, name: "b" }])
        const unprepared = yield* sql`SELECT name FROM items WHERE id = ${2}`.unprepared
        assert.deepStrictEqual(unprepared.map((row) => row.name), ["b"])
        const valuesUnprepared = yield* sql`SELECT name FROM items WHERE id = ${1}`.valuesUnprepared
        assert.deepStrictEqual(valuesUnprepared, [["a"]])
      }))

    it.effect("SELECT * follows schema changes, this connection's and another's, cached or not", () =>
      Effect.gen(function*() {
        for (const prepareCacheSize of [200, 0]) {
          const filename = yield* tempDb()
          const sql = yield* open({ filename, prepareCacheSize })
          const other = yield* open({ filename })
          yield* sql`CREATE TABLE t (a INTEGER)`
          yield* sql`INSERT INTO t (a) VALUES (1)`
          const before = yield* sql`SELECT * FROM t`
          yield* other`ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'`
          const afterOther = yield* sql`SELECT * FROM t`
          yield* sql`ALTER TABLE t ADD COLUMN c TEXT DEFAULT 'y'`
          const afterOwn = yield* sql`SELECT * FROM t`
          assert.deepStrictEqual([before, afterOther, afterOwn].map((rows) => ({ ...rows[0] })), [
            { a: 1 },
            { a: 1, b: "x" },
            { a: 1, b: "x", c: "y" }
          ])
        }
      }))

    it.effect("spans of statements carry db.system.name sqlite, the query, and the configured spanAttributes", () =>
      Effect.gen(function*() {
        const spans: Array<Tracer.NativeSpan> = []
        const tracer = Tracer.make({
          span: (options) => {
            const span = new Tracer.NativeSpan(options)
            spans.push(span)
            return span
          }
        })
        const sql = yield* open({ filename: ":memory:", spanAttributes: { "service.name": "store" } })
        yield* sql`SELECT ${1} AS one`.pipe(Effect.withTracer(tracer))
        const span = spans.find((span) => span.attributes.get("db.query.text") === "SELECT ? AS one")
        assert.isDefined(span)
        assert.strictEqual(span!.attributes.get("db.system.name"), "sqlite")
        assert.strictEqual(span!.attributes.get("service.name"), "store")
      }))
  })

  describe("errors", () => {
    it.effect("constraint violations classify as such: UNIQUE index → UniqueViolation, others → ConstraintError", () =>
      Effect.gen(function*() {
        const sql = yield* open({ filename: ":memory:" })
        yield* createItems(sql)
        yield* sql`CREATE TABLE orders (id INTEGER PRIMARY KEY, item INTEGER NOT NULL REFERENCES items (id))`
        yield* sql`INSERT INTO items ${sql.insert({ id: 1, name: "a", qty: 1 })}`
        const unique = yield* failure(sql`INSERT INTO items ${sql.insert({ name: "a", qty: 1 })}`)
        assert.strictEqual(unique.reason._tag, "UniqueViolation")
        assert.strictEqual(unique.reason._tag === "UniqueViolation" && unique.reason.constraint, "items.name")
        assert.strictEqual(unique.message, "UNIQUE constraint failed: items.name")
        const reasons = []
        for (
          const statement of [
            sql`INSERT INTO items ${sql.insert({ id: 1, name: "b", qty: 1 })}`, // duplicate primary key
            sql`INSERT INTO items (name) VALUES (NULL)`, // NOT NULL
            sql`INSERT INTO items ${sql.insert({ name: "c", qty: -1 })}`, // CHECK
            sql`INSERT INTO orders ${sql.insert({ item: 42 })}` // FOREIGN KEY (node:sqlite enforces them)
          ]
        ) {
          const error = yield* failure(statement)
          reasons.push([error.reason._tag, error.reason.operation, error.isRetryable])
        }
        assert.deepStrictEqual(reasons, [
          ["ConstraintError", "execute", false],
          ["ConstraintError", "execute", false],
          ["ConstraintError", "execute", false],
          ["ConstraintError", "execute", false]
        ])
      }))

    it.effect("SQL that does not compile fails at prepare with SQLite's message", () =>
      Effect.gen(function*() {
        const sql = yield* open({ filename: ":memory:" })
        const missing = yield* failure(sql`SELECT * FROM nowhere`)
        assert.strictEqual(missing.reason.operation, "prepare")
        assert.strictEqual(missing.message, "no such table: nowhere")
        const syntax = yield* failure(sql`SELEC 1`)
        assert.strictEqual(syntax.reason.operation, "prepare")
        assert.include(syntax.message, "syntax error")
      }))

    it.effect("a file that cannot be opened fails make with a ConnectionError", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const error = yield* failure(open({ filename: Path.join(filename, "missing-dir", "x.db") }))
        assert.strictEqual(error.reason._tag, "ConnectionError")
        assert.strictEqual(error.reason.operation, "open")
      }))

    it.effect("readonly: reads work, a write fails with a SqlError and changes nothing", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        yield* readBack(filename, (sql) =>
          Effect.andThen(createItems(sql), sql`INSERT INTO items ${sql.insert({ name: "a", qty: 1 })}`))
        const sql = yield* open({ filename, readonly: true })
        const rows = yield* sql<{ name: string }>`SELECT name FROM items`
        assert.deepStrictEqual(
          rows.map((row) =>
            row.name
          ),
          ["a"]
        )
        const error = yield* failure(sql`INSERT INTO items ${sql.insert({ name: "b", qty: 1 })}`)
        assert.include(error.message, "readonly")
        // a transaction of a read-only client begins without IMMEDIATE, which it could not take
        const inTransaction = yield* sql.withTransaction(sql<{ n: number }>`SELECT count(*) AS n FROM items`)
        assert.strictEqual(inTransaction[0].n, 1)
        assert.deepStrictEqual(yield* names(filename), ["a"])
      }))
  })

  describe("transactions", () => {
    it.effect("a committed transaction is on disk; a failed one rolls back and its row is absent", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const sql = yield* open({ filename })
        yield* createItems(sql)
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO items ${sql.insert({ name: "kept", qty: 1 })}`
          yield* sql`INSERT INTO items ${sql.insert({ name: "kept too", qty: 1 })}`
        }))
        const failed = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO items ${sql.insert({ name: "rolled back", qty: 1 })}`
          return yield* Effect.fail("boom" as const)
        })).pipe(Effect.flip)
        assert.strictEqual(failed, "boom")
        // a constraint violation mid-transaction rolls back what came before it
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO items ${sql.insert({ name: "before the violation", qty: 1 })}`
          yield* sql`INSERT INTO items ${sql.insert({ name: "kept", qty: 1 })}`
        })).pipe(Effect.flip)
        assert.deepStrictEqual(yield* names(filename), ["kept", "kept too"])
      }))

    it.effect("nested transactions are savepoints: a failed inner one rolls back alone, the outer commits", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const sql = yield* open({ filename })
        yield* createItems(sql)
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO items ${sql.insert({ name: "outer", qty: 1 })}`
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO items ${sql.insert({ name: "inner, committed", qty: 1 })}`
          }))
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO items ${sql.insert({ name: "inner, rolled back", qty: 1 })}`
            yield* sql.withTransaction(sql`INSERT INTO items ${sql.insert({ name: "innermost", qty: 1 })}`)
            return yield* Effect.fail("inner failure")
          })).pipe(Effect.ignore)
          yield* sql`INSERT INTO items ${sql.insert({ name: "after", qty: 1 })}`
        }))
        assert.deepStrictEqual(yield* names(filename), ["outer", "inner, committed", "after"])
        // the failed outer one takes its committed savepoints with it
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql.withTransaction(sql`INSERT INTO items ${sql.insert({ name: "gone", qty: 1 })}`)
          return yield* Effect.fail("outer failure")
        })).pipe(Effect.ignore)
        assert.deepStrictEqual(yield* names(filename), ["outer", "inner, committed", "after"])
      }))

    it.effect("interrupting a fiber mid-transaction rolls it back, and the connection is free again", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const sql = yield* open({ filename })
        yield* createItems(sql)
        const inserted = yield* Deferred.make<void>()
        const fiber = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO items ${sql.insert({ name: "interrupted", qty: 1 })}`
          yield* Deferred.succeed(inserted, undefined)
          return yield* Effect.never
        })).pipe(Effect.forkChild)
        yield* Deferred.await(inserted)
        // the row is there, uncommitted, for the transaction's own connection only
        const during = yield* readBack(filename, (other) => other<{ n: number }>`SELECT count(*) AS n FROM items`)
        assert.strictEqual(during[0].n, 0)
        yield* Fiber.interrupt(fiber)
        yield* sql`INSERT INTO items ${sql.insert({ name: "after", qty: 1 })}`
        assert.deepStrictEqual(yield* names(filename), ["after"])
      }))

    it.live("one writer at a time: two fibers' transactions never interleave; a third fiber's read waits for the commit", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const sql = yield* open({ filename })
        yield* createItems(sql)
        const writer = (who: string) =>
          sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO items ${sql.insert({ name: `${who}1`, qty: 1 })}`
            yield* Effect.sleep("30 millis") // other fibers run meanwhile; none of them gets the connection
            yield* sql`INSERT INTO items ${sql.insert({ name: `${who}2`, qty: 1 })}`
          }))
        const a = yield* Effect.forkChild(writer("a"), { startImmediately: true })
        const b = yield* Effect.forkChild(writer("b"), { startImmediately: true })
        const count = yield* Effect.forkChild(sql<{ n: number }>`SELECT count(*) AS n FROM items`, {
          startImmediately: true
        })
        yield* Fiber.join(a)
        yield* Fiber.join(b)
        const seen = yield* Fiber.join(count)
        const order = yield* names(filename)
        assert.oneOf(order.join(","), ["a1,a2,b1,b2", "b1,b2,a1,a2"])
        // the read queued behind the first transaction: it saw all of that one's rows, none of an open one's
        assert.include([2, 4], seen[0].n)
      }))

    it.live("a second connection's write waits busyTimeout for the writer, then fails with LockTimeoutError", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const first = yield* open({ filename })
        const second = yield* open({ filename, busyTimeout: "150 millis" })
        yield* createItems(first)
        const locked = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const holder = yield* first.withTransaction(Effect.gen(function*() {
          yield* first`INSERT INTO items ${first.insert({ name: "holder", qty: 1 })}`
          yield* Deferred.succeed(locked, undefined)
          yield* Deferred.await(release)
        })).pipe(Effect.forkChild)
        yield* Deferred.await(locked)
        const started = Date.now()
        const error = yield* failure(second`INSERT INTO items ${second.insert({ name: "second", qty: 1 })}`)
        const waited = Date.now() - started
        assert.strictEqual(error.reason._tag, "LockTimeoutError")
        assert.isTrue(error.isRetryable)
        assert.isAtLeast(waited, 140)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        // and once the writer committed, the second connection writes
        yield* second`INSERT INTO items ${second.insert({ name: "second", qty: 1 })}`
        assert.deepStrictEqual(yield* names(filename), ["holder", "second"])
      }))
    it.live("a transaction waits for another process's write transaction instead of failing (BEGIN IMMEDIATE)", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const sql = yield* open({ filename, busyTimeout: "10 seconds" })
        yield* createItems(sql)
        const script = Path.join(Path.dirname(filename), "writer.mjs")
        Fs.writeFileSync(
          script,
          `const { DatabaseSync } = process.getBuiltinModule("node:sqlite")
const db = new DatabaseSync(process.argv[2])
db.exec("BEGIN IMMEDIATE")
db.exec("INSERT INTO items (name, qty) VALUES ('other process', 1)")
process.stdout.write("locked\\n")
setTimeout(() => { db.exec("COMMIT"); db.close() }, 300)
`
        )
        const child = yield* Effect.acquireRelease(
          Effect.sync(() =>
            ChildProcess.spawn(process.execPath, [script, filename], { stdio: ["ignore", "pipe", "ignore"] })
          ),
          (child) => Effect.sync(() => child.exitCode === null && child.kill("SIGKILL"))
        )
        yield* Effect.callback<void, Error>((resume) => {
          child.stdout!.once("data", () => resume(Effect.void))
          child.once("exit", (code) => resume(Effect.fail(new Error(`the writer exited (${code}) before locking`))))
        })
        // A deferred BEGIN would read the old snapshot here, then fail to write once the other process committed.
        yield* sql.withTransaction(Effect.gen(function*() {
          const [row] = yield* sql<{ n: number }>`SELECT count(*) AS n FROM items`
          yield* sql`INSERT INTO items ${sql.insert({ name: `saw ${row.n}`, qty: 1 })}`
        }))
        assert.deepStrictEqual(yield* names(filename), ["other process", "saw 1"])
      }))
  })

  describe("streams", () => {
    it.effect("stream pulls rows from SQLite's cursor as consumed: an endless query yields its first rows", () =>
      Effect.gen(function*() {
        const sql = yield* open({ filename: ":memory:", transformResultNames: Str.snakeToCamel })
        const endless = sql<{ rowNumber: number }>`
          WITH RECURSIVE counter(row_number) AS (SELECT 1 UNION ALL SELECT row_number + 1 FROM counter)
          SELECT row_number FROM counter`
        const first = yield* endless.stream.pipe(Stream.take(1000), Stream.runCollect)
        assert.strictEqual(first.length, 1000)
        assert.deepStrictEqual({ ...first[999] }, { rowNumber: 1000 })
        // the stream gave the connection back when it ended
        const [row] = yield* sql<{ one: number }>`SELECT 1 AS one`
        assert.strictEqual(row.one, 1)
      }))

    it.effect("a stream reads a table in chunks and fails with a SqlError on a row SQLite cannot produce", () =>
      Effect.gen(function*() {
        const sql = yield* open({ filename: ":memory:" })
        yield* sql`CREATE TABLE n (i INTEGER PRIMARY KEY, doc TEXT)`
        yield* sql`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000)
          INSERT INTO n (i, doc) SELECT x, '{}' FROM c`
        yield* sql`UPDATE n SET doc = 'not json' WHERE i = 700`
        const all = yield* sql<{ i: number }>`SELECT i FROM n ORDER BY i`.stream.pipe(Stream.runCollect)
        assert.deepStrictEqual(all.map((row) => row.i), Array.from({ length: 1000 }, (_, i) => i + 1))
        const seen = yield* Ref.make(0)
        const error = yield* failure(
          sql`SELECT i, json_extract(doc, '$.a') AS a FROM n ORDER BY i`.stream.pipe(
            Stream.runForEach(() => Ref.update(seen, (n) => n + 1))
          )
        )
        assert.include(error.message, "malformed JSON")
        assert.strictEqual(yield* Ref.get(seen), 512) // two chunks of 256 made it before the bad row's chunk
      }))

    it.effect("inside a transaction, a stream and statements of the same transaction share the connection", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const sql = yield* open({ filename })
        yield* createItems(sql)
        yield* sql`INSERT INTO items ${sql.insert([{ name: "a", qty: 1 }, { name: "b", qty: 2 }])}`
        yield* sql.withTransaction(
          sql<{ name: string; qty: number }>`SELECT name, qty FROM items ORDER BY id`.stream.pipe(
            Stream.runForEach((row) =>
              // the same text as a cached statement does not reset the stream's cursor
              Effect.andThen(
                sql`SELECT name, qty FROM items ORDER BY id`,
                sql`INSERT INTO items ${sql.insert({ name: `${row.name} copy`, qty: row.qty })}`
              )
            )
          )
        )
        assert.deepStrictEqual(yield* names(filename), ["a", "b", "a copy", "b copy"])
      }))
  })

  describe("reactivity", () => {
    it.effect("sql.reactive re-runs its query on a mutation; a rolled-back transaction's mutation is dropped", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* createItems(sql)
        yield* sql`INSERT INTO items ${sql.insert({ name: "a", qty: 1 })}`
        const results = yield* Queue.unbounded<ReadonlyArray<string>>()
        yield* sql.reactive(["items"], sql<{ name: string }>`SELECT name FROM items ORDER BY id`).pipe(
          Stream.runForEach((rows) => Queue.offer(results, rows.map((row) => row.name))),
          Effect.forkChild({ startImmediately: true })
        )
        assert.deepStrictEqual(yield* Queue.take(results), ["a"])
        yield* sql.withTransaction(
          Effect.andThen(
            Reactivity.mutation(sql`INSERT INTO items ${sql.insert({ name: "rolled back", qty: 1 })}`, ["items"]),
            Effect.fail("abort")
          )
        ).pipe(Effect.ignore)
        yield* Reactivity.mutation(sql`INSERT INTO items ${sql.insert({ name: "b", qty: 1 })}`, ["items"])
        // had the rolled-back mutation invalidated, this would be ["a"] (re-run after the rollback)
        assert.deepStrictEqual(yield* Queue.take(results), ["a", "b"])
        yield* sql.withTransaction(
          Reactivity.mutation(sql`INSERT INTO items ${sql.insert({ name: "c", qty: 1 })}`, ["items"])
        )
        assert.deepStrictEqual(yield* Queue.take(results), ["a", "b", "c"])
      }).pipe(
        Effect.provide(SqliteClient.layer({ filename: ":memory:" }).pipe(Layer.provideMerge(Reactivity.layer)))
      ))
  })

  describe("files", () => {
    it.effect("a file database is in WAL mode, synchronous NORMAL (its -wal file exists); disableWAL keeps the journal", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const sql = yield* open({ filename })
        yield* createItems(sql)
        const [mode] = yield* sql<{ journal_mode: string }>`PRAGMA journal_mode`
        assert.strictEqual(mode.journal_mode, "wal")
        const [sync] = yield* sql<{ synchronous: number }>`PRAGMA synchronous`
        assert.strictEqual(sync.synchronous, 1) // NORMAL
        assert.isTrue(Fs.existsSync(`${filename}-wal`))
        const other = yield* tempDb("other.db")
        const plain = yield* open({ filename: other, disableWAL: true })
        yield* createItems(plain)
        const [plainMode] = yield* plain<{ journal_mode: string }>`PRAGMA journal_mode`
        assert.strictEqual(plainMode.journal_mode, "delete")
        assert.isFalse(Fs.existsSync(`${other}-wal`))
      }))

    it.effect("closing the scope closes the database: WAL checkpointed away, the client refuses, the file is free", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const leaked = yield* Effect.scoped(Effect.gen(function*() {
          const sql = yield* open({ filename })
          yield* createItems(sql)
          yield* sql`INSERT INTO items ${sql.insert({ name: "a", qty: 1 })}`
          assert.isTrue(Fs.existsSync(`${filename}-wal`))
          return sql
        }))
        // SQLite removes the WAL and shared-memory files when the last connection closes
        assert.isFalse(Fs.existsSync(`${filename}-wal`))
        assert.isFalse(Fs.existsSync(`${filename}-shm`))
        const error = yield* failure(leaked`SELECT 1`)
        assert.strictEqual(error.reason._tag, "ConnectionError")
        assert.include(error.message, "is closed")
        const streamed = yield* failure(Stream.runCollect(leaked`SELECT 1`.stream))
        assert.strictEqual(streamed.reason._tag, "ConnectionError")
        // nothing holds the file: it can be deleted and a new database made at its path
        Fs.rmSync(filename)
        const fresh = yield* open({ filename })
        const tables = yield* fresh<{ name: string }>`SELECT name FROM sqlite_master`
        assert.deepStrictEqual(tables, [])
      }))

    it.effect("backup copies the database to a file another client reads", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const sql = yield* open({ filename })
        yield* createItems(sql)
        yield* sql`INSERT INTO items ${sql.insert([{ name: "a", qty: 1 }, { name: "b", qty: 2 }])}`
        const copy = Path.join(Path.dirname(filename), "backup.db")
        const metadata = yield* sql.backup(copy)
        assert.isAbove(metadata.totalPages, 0)
        assert.strictEqual(metadata.remainingPages, 0)
        assert.deepStrictEqual(yield* names(copy), ["a", "b"])
        // SQLite cannot copy a connection inside its own transaction: a typed error, not a wait for itself
        const inTransaction = yield* failure(sql.withTransaction(sql.backup(`${copy}-2`)))
        assert.strictEqual(inTransaction.reason.operation, "backup")
        assert.include(inTransaction.message, "run backup after it")
      }))

    it.effect("layerConfig reads its options from Config", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        yield* Effect.gen(function*() {
          const sql = yield* SqliteClient.SqliteClient
          assert.strictEqual(sql.config.filename, filename)
          assert.strictEqual(sql.config.readonly, false)
          yield* createItems(sql)
          yield* sql`INSERT INTO items ${sql.insert({ name: "from config", qty: 1 })}`
        }).pipe(
          Effect.provide(SqliteClient.layerConfig({
            filename: Config.String("SQLITE_FILE"),
            readonly: Config.Boolean("SQLITE_READONLY")
          })),
          Effect.provideService(
            ConfigProvider.ConfigProvider,
            ConfigProvider.fromUnknown({ SQLITE_FILE: filename, SQLITE_READONLY: "false" })
          )
        )
        assert.deepStrictEqual(yield* names(filename), ["from config"])
      }))
  })

  describe("node:sqlite's ExperimentalWarning", () => {
    // Node 22 strips the types of our sources itself; this hook maps their ".js" imports to the ".ts" files.
    const resolveTs = `import { registerHooks } from "node:module"
registerHooks({ resolve(specifier, context, next) {
  try { return next(specifier, context) } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND" || !specifier.startsWith(".") || !specifier.endsWith(".js")) throw error
    return next(specifier.slice(0, -3) + ".ts", context)
  }
} })
`
    // the child runs from a temporary directory: it imports effect and our module by absolute URL
    const require = createRequire(import.meta.url)
    const url = (path: string) => JSON.stringify(pathToFileURL(path).href)
    const openDatabase = (filename: string) =>
      `import { Effect } from ${url(require.resolve("effect"))}
import * as Reactivity from ${url(require.resolve("effect/reactivity/Reactivity"))}
import * as SqliteClient from ${url(Path.resolve(import.meta.dirname, "../src/SqliteClient.ts"))}
const program = Effect.gen(function*() {
  const sql = yield* SqliteClient.make({ filename: ${JSON.stringify(filename)} })
  yield* sql\`CREATE TABLE t (x INTEGER)\`
  console.log("opened")
}).pipe(Effect.scoped, Effect.provide(Reactivity.layer))
await Effect.runPromise(program)
process.emitWarning("another experimental thing", "ExperimentalWarning")
`
    const runNode = (dir: string, name: string, code: string) => {
      Fs.writeFileSync(Path.join(dir, name), code)
      return ChildProcess.spawnSync(process.execPath, ["--import", "./resolve-ts.mjs", name], {
        cwd: dir,
        encoding: "utf8",
        timeout: 30_000
      })
    }

    it.effect("a process that opens a database prints nothing of it on stderr; other warnings still print", () =>
      Effect.gen(function*() {
        const filename = yield* tempDb()
        const dir = Path.dirname(filename)
        Fs.writeFileSync(Path.join(dir, "resolve-ts.mjs"), resolveTs)
        const child = runNode(dir, "open.mts", openDatabase(filename))
        assert.strictEqual(child.status, 0, child.stderr)
        assert.strictEqual(child.stdout, "opened\n")
        assert.notInclude(child.stderr, "SQLite")
        assert.include(child.stderr, "ExperimentalWarning: another experimental thing")
        // control: node:sqlite loaded as is prints it
        const plain = runNode(dir, "plain.mts", `process.getBuiltinModule("node:sqlite")\n`)
        assert.include(plain.stderr, "ExperimentalWarning: SQLite is an experimental feature")
      }))
  })
})
