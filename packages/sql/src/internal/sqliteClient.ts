import * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Reactivity from "effect/reactivity/Reactivity"
import type * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlConnection from "effect/sql/SqlConnection"
import { classifySqliteError, ConnectionError, SqlError, UnknownError } from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"
import * as Stream from "effect/Stream"
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite"
import type { BackupMetadata, SqliteClient, SqliteClientConfig } from "../SqliteClient.js"
import * as NodeSqlite from "./nodeSqlite.js"

/** @internal */
export const TypeId = "~@claude-effect/sql/SqliteClient" as const

const ATTR_DB_SYSTEM_NAME = "db.system.name"
// sqlite3_busy_timeout takes an int of milliseconds
const MAX_BUSY_TIMEOUT = 2_147_483_647
// rows read from SQLite per stream pull: a large result never sits in memory whole
const STREAM_CHUNK_SIZE = 256
type Row = Record<string, unknown>
type Rows = ReadonlyArray<any>
type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

interface Connection extends SqlConnection.Connection {
  readonly backup: (destination: string) => Effect.Effect<BackupMetadata, SqlError>
}

/** A cached prepared statement and the modes last set on it (set only when they change). */
interface Prepared {
  readonly statement: StatementSync
  readonly returnsRows: boolean
  arrays: boolean
  bigInts: boolean
  lastUsed: number
}

const isOutOfRange = (cause: Error): boolean => "code" in cause && cause.code === "ERR_OUT_OF_RANGE"

const sqlError = (cause: unknown, operation: string): SqlError => {
  // node:sqlite's `code` is always "ERR_SQLITE_ERROR" and the SQLite result code is `errcode`; effect's classifier
  // reads a numeric code from `errno`, so it is copied there (the error was made for this call alone).
  if (typeof cause === "object" && cause !== null && "errcode" in cause && !("errno" in cause)) {
    Object.assign(cause, { errno: cause.errcode })
  }
  const message = cause instanceof Error
    ? isOutOfRange(cause)
      ? `${cause.message}: provide SqlClient.SafeIntegers (true) to read integers beyond 2^53 as bigints`
      : cause.message
    : `SQLite ${operation} failed`
  return new SqlError({ reason: classifySqliteError(cause, { message, operation }) })
}

const unbindable = (index: number, value: unknown): SqlError =>
  new SqlError({
    reason: new UnknownError({
      cause: value,
      operation: "bind",
      message:
        `Cannot bind parameter ${index + 1} (${
          Array.isArray(value) ? "an array" : typeof value
        }): SQLite takes null, numbers, bigints, strings, booleans (stored as 0/1), Dates (stored as ISO 8601 text) ` +
        "and Uint8Arrays; encode anything else first (JSON.stringify)"
    })
  })

/**
 * Converts the compiler's parameters to what node:sqlite binds, or the index of the first it cannot. No plain object
 * may reach node:sqlite: one in first place would be taken as named parameters (a Date too), binding nothing.
 */
const bind = (params: ReadonlyArray<unknown>): Array<SQLInputValue> | number => {
  const args = new Array<SQLInputValue>(params.length)
  for (let i = 0; i < params.length; i++) {
    const value = params[i]
    switch (typeof value) {
      case "string":
      case "number":
      case "bigint":
        args[i] = value
        continue
      case "boolean":
        args[i] = value ? 1 : 0
        continue
      case "undefined":
        args[i] = null
        continue
    }
    if (value === null) args[i] = null
    else if (value instanceof Date) args[i] = value.toISOString()
    else if (value instanceof Uint8Array) args[i] = value
    else return i
  }
  return args
}

const clampedMillis = (input: Duration.Input, max: number): number =>
  Math.min(max, Math.max(0, Math.round(Duration.toMillis(input))))

const isFile = (filename: string): boolean =>
  filename !== "" && filename !== ":memory:" && !filename.startsWith("file::memory:")

/** @internal */
export const make = Effect.fnUntraced(function*(
  options: SqliteClientConfig
): Effect.fn.Return<SqliteClient & SqlClient.SqlClient, SqlError, Scope.Scope | Reactivity.Reactivity> {
  const sqlite = yield* Effect.try({
    try: () => NodeSqlite.load(),
    catch: (cause) => sqlError(cause, "open")
  })
  if (sqlite === undefined) {
    return yield* new SqlError({
      reason: new ConnectionError({
        cause: new Error("node:sqlite is not available"),
        operation: "open",
        message: `SqliteClient needs node:sqlite: Node.js >= 22.19 (this is ${process.version})`
      })
    })
  }
  const readonly = options.readonly === true
  const db: DatabaseSync = yield* Effect.acquireRelease(
    Effect.try({
      try: () => new sqlite.DatabaseSync(options.filename, { readOnly: readonly }),
      catch: (cause) => sqlError(cause, "open")
    }),
    (db) => Effect.sync(() => db.isOpen && db.close())
  )
  const schemaVersion = yield* Effect.try({
    try: () => {
      db.exec(`PRAGMA busy_timeout = ${clampedMillis(options.busyTimeout ?? Duration.seconds(5), MAX_BUSY_TIMEOUT)}`)
      // WAL is a property of the file, set by a writer; a read-only connection uses what the file has. NORMAL is
      // SQLite's advice for WAL and what better-sqlite3 (the effect-3 driver) builds in: one fsync per checkpoint,
      // not per commit.
      if (options.disableWAL !== true && !readonly && isFile(options.filename)) {
        db.exec("PRAGMA journal_mode = WAL")
        db.exec("PRAGMA synchronous = NORMAL")
      }
      return db.prepare("PRAGMA schema_version")
    },
    catch: (cause) => sqlError(cause, "open")
  })

  const cacheSize = Math.max(0, Math.floor(options.prepareCacheSize ?? 200))
  const cacheTtl = Duration.toMillis(options.prepareCacheTTL ?? Duration.minutes(10))
  // Least recently used first: a Map keeps insertion order, a hit re-inserts.
  const cache = new Map<string, Prepared>()

  const prepare = (sql: string, now: number): Prepared => {
    const statement = db.prepare(sql)
    return { statement, returnsRows: statement.columns().length > 0, arrays: false, bigInts: false, lastUsed: now }
  }

  // node:sqlite 22's `all()` reads a statement's columns before SQLite re-prepares it for a changed schema (a change
  // by this connection or another): `SELECT *` would answer the old columns once. Before a statement with a `*`, the
  // schema version is read; when it moved, a statement is stepped (SQLite reloads its schema then) and the cache
  // emptied. An explicit column list keeps its shape whatever the schema does.
  let knownSchemaVersion: unknown = undefined
  const refreshSchema = () => {
    const version = schemaVersion.get()?.schema_version
    if (version === knownSchemaVersion) return
    db.exec("SELECT 1 FROM sqlite_master LIMIT 1")
    cache.clear()
    knownSchemaVersion = version
  }

  const cached = (sql: string): Prepared => {
    const now = Date.now()
    const hit = cache.get(sql)
    if (hit !== undefined) {
      cache.delete(sql)
      if (now - hit.lastUsed <= cacheTtl) {
        hit.lastUsed = now
        cache.set(sql, hit)
        return hit
      }
    }
    const prepared = prepare(sql, now)
    if (cacheSize > 0) {
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!)
      cache.set(sql, prepared)
    }
    return prepared
  }

  const runPrepared = (
    prepared: Prepared,
    args: Array<SQLInputValue>,
    arrays: boolean,
    bigInts: boolean,
    raw: boolean
  ): unknown => {
    const statement = prepared.statement
    if (prepared.arrays !== arrays) {
      statement.setReturnArrays(arrays)
      prepared.arrays = arrays
    }
    if (prepared.bigInts !== bigInts) {
      statement.setReadBigInts(bigInts)
      prepared.bigInts = bigInts
    }
    if (prepared.returnsRows) return statement.all(...args)
    const result = statement.run(...args)
    return raw ? { changes: result.changes, lastInsertRowid: result.lastInsertRowid } : []
  }

  const closed = () =>
    new SqlError({
      reason: new ConnectionError({
        cause: new Error("database is not open"),
        operation: "execute",
        message: `The SQLite database ${options.filename} is closed: the scope of its client has ended`
      })
    })

  // node:sqlite is synchronous: a statement runs to completion here, on the calling fiber's turn.
  const run = (
    sql: string,
    params: ReadonlyArray<unknown>,
    mode: { readonly prepared: boolean; readonly arrays: boolean; readonly raw: boolean }
  ): Effect.Effect<any, SqlError> =>
    Effect.withFiber((fiber) => {
      if (!db.isOpen) return Effect.fail(closed())
      const args = bind(params)
      if (typeof args === "number") return Effect.fail(unbindable(args, params[args]))
      let prepared: Prepared
      try {
        if (sql.includes("*")) refreshSchema()
        prepared = mode.prepared ? cached(sql) : prepare(sql, 0)
      } catch (cause) {
        return Effect.fail(sqlError(cause, "prepare"))
      }
      try {
        return Effect.succeed(
          runPrepared(prepared, args, mode.arrays, fiber.getRef(SqlClient.SafeIntegers), mode.raw)
        )
      } catch (cause) {
        return Effect.fail(sqlError(cause, "execute"))
      }
    })

  const ROWS = { prepared: true, arrays: false, raw: false }
  const RAW = { prepared: true, arrays: false, raw: true }
  const VALUES = { prepared: true, arrays: true, raw: false }
  const ROWS_UNPREPARED = { prepared: false, arrays: false, raw: false }
  const VALUES_UNPREPARED = { prepared: false, arrays: true, raw: false }

  const transformed = (effect: Effect.Effect<Rows, SqlError>, transformRows: TransformRows) =>
    transformRows === undefined ? effect : Effect.map(effect, transformRows)

  // Rows come from SQLite's cursor (`iterate`) as they are pulled, on a statement of their own: a cached one could be
  // reset under the cursor by another statement of the same transaction.
  const stream = (
    sql: string,
    params: ReadonlyArray<unknown>,
    transformRows: TransformRows
  ): Stream.Stream<any, SqlError> =>
    Stream.unwrap(Effect.gen(function*() {
      if (!db.isOpen) return yield* closed()
      const args = bind(params)
      if (typeof args === "number") return yield* unbindable(args, params[args])
      const bigInts = yield* SqlClient.SafeIntegers
      const cursor = yield* Effect.acquireRelease(
        Effect.try({
          try: () => {
            const statement = db.prepare(sql)
            statement.setReadBigInts(bigInts)
            return statement.iterate(...args)
          },
          catch: (cause) => sqlError(cause, "prepare")
        }),
        (cursor) =>
          Effect.sync(() => {
            try {
              cursor.return?.()
            } catch {
              // the database closed first, and finalized the statement with it
            }
          })
      )
      let done = false
      const pull = Effect.suspend((): Effect.Effect<Arr.NonEmptyReadonlyArray<Row>, SqlError | Cause.Done> => {
        if (done) return Cause.done()
        const rows: Array<Row> = []
        try {
          while (rows.length < STREAM_CHUNK_SIZE) {
            const next = cursor.next()
            if (next.done === true) {
              done = true
              break
            }
            rows.push(next.value)
          }
        } catch (cause) {
          return Effect.fail(sqlError(cause, "execute"))
        }
        const chunk = transformRows === undefined ? rows : transformRows(rows)
        return Arr.isReadonlyArrayNonEmpty(chunk) ? Effect.succeed(chunk) : Cause.done()
      })
      return Stream.fromPull(Effect.succeed(pull))
    }))

  const connection: Connection = {
    execute: (sql, params, transformRows) => transformed(run(sql, params, ROWS), transformRows),
    executeRaw: (sql, params) => run(sql, params, RAW),
    executeValues: (sql, params) => run(sql, params, VALUES),
    executeValuesUnprepared: (sql, params) => run(sql, params, VALUES_UNPREPARED),
    executeUnprepared: (sql, params, transformRows) => transformed(run(sql, params, ROWS_UNPREPARED), transformRows),
    executeStream: stream,
    backup: (destination) =>
      db.isTransaction
        ? Effect.fail(
          new SqlError({
            reason: new UnknownError({
              cause: new Error("backup inside a transaction"),
              operation: "backup",
              message: "SQLite cannot back up a connection inside its own transaction: run backup after it"
            })
          })
        )
        : Effect.tryPromise({
          try: () => sqlite.backup(db, destination),
          catch: (cause) => sqlError(cause, "backup")
        }).pipe(Effect.map((totalPages): BackupMetadata => ({ totalPages, remainingPages: 0 })))
  }

  // One connection, one permit: a statement holds it while it runs, a transaction or a stream until it ends.
  const acquirers = SqlClient.makeSqliteAcquirers({
    connection: Effect.succeed(connection),
    semaphore: yield* Semaphore.make(1),
    isTransaction: () => db.isTransaction
  })

  const client = yield* SqlClient.make({
    ...acquirers,
    // the driver it stands in for (one node:sqlite connection), for code that branches on it
    driver: "sqlite-node",
    compiler: Statement.makeCompilerSqlite(options.transformQueryNames),
    transformRows: options.transformResultNames === undefined
      ? undefined
      : Statement.defaultTransforms(options.transformResultNames).array,
    // IMMEDIATE takes the write lock at BEGIN: another connection waits busyTimeout for it instead of failing on a
    // read-to-write upgrade mid-transaction. A read-only connection cannot take it.
    beginTransaction: readonly ? "BEGIN" : "BEGIN IMMEDIATE",
    prepareTransactionControls: true,
    releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`,
    spanAttributes: [
      ...(options.spanAttributes === undefined ? [] : Object.entries(options.spanAttributes)),
      [ATTR_DB_SYSTEM_NAME, "sqlite"]
    ]
  })

  const withConnection = <A>(f: (connection: Connection) => Effect.Effect<A, SqlError>): Effect.Effect<A, SqlError> =>
    Effect.flatMap(
      Effect.serviceOption(client.transactionService),
      (transaction) =>
        transaction._tag === "Some"
          // inside a transaction of this client the connection is already held
          ? Effect.flatMap(SqlClient.activeTransactionConnection(transaction.value), () => f(connection))
          : Effect.scoped(Effect.flatMap(acquirers.acquirer, f))
    )

  const extension: Pick<SqliteClient, typeof TypeId | "config" | "backup"> = {
    [TypeId]: TypeId,
    config: options,
    backup: (destination) => withConnection((connection) => connection.backup(destination))
  }
  // `updateValues` stays the compiler's function, which SQLite cannot compile: the type says `never`
  return Object.assign(client, extension) as SqliteClient & SqlClient.SqlClient
})
