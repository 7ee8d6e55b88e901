/**
 * The SQL session store: two tables (the entries, in append order, unique by
 * key and `uuid`; the transcripts, with their last write time), created on
 * start, for SQLite and PostgreSQL (and any dialect that speaks
 * `ON CONFLICT`).
 *
 * @internal
 */
import { ClaudeError, SessionStore } from "@claude-effect/sdk"
import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaTransformation from "effect/SchemaTransformation"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type * as SqlSessionStore from "../SqlSessionStore.js"

type Operation = ClaudeError.SessionStoreError["operation"]

/** @internal */
export const defaultMaxEntryBytes = 32 * 1024 * 1024

// Rows per INSERT: far below SQLite's 32,766 and PostgreSQL's 65,535 bound parameters (5 per row).
const ROWS_PER_INSERT = 1_000

// effect 4's SqlError says its reason (`ConnectionError`, or the driver's message); the driver's error is the reason's
// cause.
const unavailable = (operation: Operation) => (error: SqlError) => {
  const driver = error.reason.cause
  return new ClaudeError.SessionStoreError({
    operation,
    reason: "Unavailable",
    detail: `the database failed: ${error.message}` +
      (driver instanceof Error && driver.message !== "" && driver.message !== error.message
        ? ` (${driver.message})`
        : ""),
    cause: error
  })
}

const formatIssue = SchemaIssue.makeFormatterDefault()
const isEntry = Schema.is(SessionStore.Entry)
const checkEntry = Schema.decodeUnknownResult(SessionStore.Entry)

// A stored line parsed and checked in place: the parsed object is the entry, every field as it was written.
const decodeEntry = (
  text: string
): Result.Result<SessionStore.Entry, { readonly detail: string; readonly cause: unknown }> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return Result.fail({ detail: `not JSON (${error instanceof Error ? error.message : String(error)})`, cause: error })
  }
  if (isEntry(parsed)) return Result.succeed(parsed)
  const checked = checkEntry(parsed)
  return Result.isFailure(checked)
    ? Result.fail({ detail: formatIssue(checked.failure.issue), cause: checked.failure })
    : Result.succeed(checked.success)
}

// BIGINT comes back as a number from SQLite, as a bigint from @effect/sql-pg 4 (a string from v3's pg driver).
const NumberFromBigInt = Schema.BigInt.pipe(
  Schema.decodeTo(Schema.Number, SchemaTransformation.transform({ decode: Number, encode: (n) => BigInt(n) }))
)
const Mtime = Schema.Union([Schema.Number, NumberFromBigInt, Schema.NumberFromString])
const SessionRow = Schema.Struct({ session_id: Schema.String, mtime: Mtime })
const decodeSessionRows = Schema.decodeUnknownResult(Schema.Array(SessionRow))

/**
 * The tables, made once whoever starts first: idempotent DDL in one transaction, which on PostgreSQL holds an
 * advisory lock first, so that processes starting together against one database wait for each other instead
 * of racing (`effect/sql`'s migrator creates its own table outside its lock, and processes starting at once
 * can hang on each other there).
 */
const createTables = (sql: SqlClient.SqlClient, prefix: string) => {
  const entries = sql(`${prefix}_entries`)
  const transcripts = sql(`${prefix}_transcripts`)
  return sql.withTransaction(Effect.gen(function*() {
    yield* sql.onDialectOrElse({
      pg: () => sql`SELECT pg_advisory_xact_lock(hashtext(${`${prefix}_tables`}))`,
      orElse: () => Effect.void
    })
    // The append order: a sequence, in each dialect's spelling.
    const seq = sql.literal(sql.onDialectOrElse({
      pg: () => "BIGSERIAL PRIMARY KEY",
      orElse: () => "INTEGER PRIMARY KEY AUTOINCREMENT"
    }))
    yield* sql`CREATE TABLE IF NOT EXISTS ${entries} (
      seq ${seq},
      project_key TEXT NOT NULL,
      session_id TEXT NOT NULL,
      subpath TEXT NOT NULL,
      uuid TEXT,
      entry TEXT NOT NULL
    )`
    // NULL uuids are distinct in a unique index (SQLite and PostgreSQL alike): lines without one are all kept.
    yield* sql`CREATE UNIQUE INDEX IF NOT EXISTS ${sql(`${prefix}_entries_uuid`)}
      ON ${entries} (project_key, session_id, subpath, uuid)`
    yield* sql`CREATE INDEX IF NOT EXISTS ${sql(`${prefix}_entries_order`)}
      ON ${entries} (project_key, session_id, subpath, seq)`
    yield* sql`CREATE TABLE IF NOT EXISTS ${transcripts} (
      project_key TEXT NOT NULL,
      session_id TEXT NOT NULL,
      subpath TEXT NOT NULL,
      mtime BIGINT NOT NULL,
      PRIMARY KEY (project_key, session_id, subpath)
    )`
  }))
}

/** @internal */
export const make = Effect.fnUntraced(function*(options: SqlSessionStore.Options = {}) {
  const sql = (yield* SqlClient.SqlClient).withoutTransforms()
  const prefix = options.prefix ?? "claude_session"
  const maxEntryBytes = options.maxEntryBytes ?? defaultMaxEntryBytes
  yield* createTables(sql, prefix)
  const entries = sql(`${prefix}_entries`)
  const transcripts = sql(`${prefix}_transcripts`)

  const append = (key: SessionStore.SessionKey, batch: ReadonlyArray<SessionStore.Entry>) =>
    Effect.gen(function*() {
      const subpath = key.subpath ?? ""
      const rows: Array<{
        project_key: string
        session_id: string
        subpath: string
        uuid: string | null
        entry: string
      }> = []
      for (let i = 0; i < batch.length; i++) {
        const entry = batch[i]!
        const text = JSON.stringify(entry)
        const bytes = text.length > maxEntryBytes / 4 ? Buffer.byteLength(text) : text.length
        if (bytes > maxEntryBytes) {
          return yield* new ClaudeError.SessionStoreError({
            operation: "append",
            reason: "TooLarge",
            detail:
              `entry ${i} of the batch (type ${entry.type}${entry.uuid !== undefined ? `, uuid ${entry.uuid}` : ""}) ` +
              `is ${bytes} bytes, over the store's maxEntryBytes of ${maxEntryBytes}; nothing of the ` +
              `batch was stored. Raise maxEntryBytes (SqlSessionStore.layer({ maxEntryBytes })) if the database takes it`
          })
        }
        rows.push({
          project_key: key.projectKey,
          session_id: key.sessionId,
          subpath,
          uuid: entry.uuid ?? null,
          entry: text
        })
      }
      const mtime = yield* Clock.currentTimeMillis
      yield* sql.withTransaction(Effect.gen(function*() {
        for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
          const chunk = rows.slice(start, start + ROWS_PER_INSERT)
          if (!Arr.isArrayNonEmpty(chunk)) break
          yield* sql`INSERT INTO ${entries} ${sql.insert(chunk)} ON CONFLICT DO NOTHING`
        }
        yield* sql`INSERT INTO ${transcripts} ${
          sql.insert({ project_key: key.projectKey, session_id: key.sessionId, subpath, mtime })
        } ON CONFLICT (project_key, session_id, subpath) DO UPDATE SET mtime = excluded.mtime`
      })).pipe(Effect.mapError(unavailable("append")))
    })

  const load = (key: SessionStore.SessionKey) =>
    Effect.gen(function*() {
      const rows = yield* sql<{ readonly entry: string }>`SELECT entry FROM ${entries}
        WHERE project_key = ${key.projectKey} AND session_id = ${key.sessionId} AND subpath = ${key.subpath ?? ""}
        ORDER BY seq`.pipe(Effect.mapError(unavailable("load")))
      if (rows.length === 0) return Option.none()
      const loaded: Array<SessionStore.Entry> = []
      for (const row of rows) {
        const decoded = decodeEntry(row.entry)
        if (Result.isFailure(decoded)) {
          return yield* new ClaudeError.SessionStoreError({
            operation: "load",
            reason: "InvalidEntry",
            detail: `a stored entry of ${key.projectKey}/${key.sessionId} is not a transcript line: ` +
              decoded.failure.detail,
            cause: decoded.failure.cause
          })
        }
        loaded.push(decoded.success)
      }
      return Option.some(loaded)
    })

  const listSessions = (projectKey: string) =>
    Effect.gen(function*() {
      const rows = yield* sql`SELECT session_id, mtime FROM ${transcripts}
        WHERE project_key = ${projectKey} AND subpath = ''`.pipe(Effect.mapError(unavailable("listSessions")))
      const decoded = decodeSessionRows(rows)
      if (Result.isFailure(decoded)) {
        return yield* new ClaudeError.SessionStoreError({
          operation: "listSessions",
          reason: "Unavailable",
          detail: `the transcripts table has rows this store cannot read: ${formatIssue(decoded.failure.issue)}`,
          cause: decoded.failure
        })
      }
      return decoded.success.map((row) => ({ sessionId: row.session_id, mtime: Math.floor(row.mtime) }))
    })

  // A key without a subpath deletes the session whole: its main transcript and its subagents'.
  const delete_ = (key: SessionStore.SessionKey) => {
    const where = sql.and([
      sql`project_key = ${key.projectKey}`,
      sql`session_id = ${key.sessionId}`,
      ...(key.subpath !== undefined ? [sql`subpath = ${key.subpath}`] : [])
    ])
    return sql.withTransaction(
      Effect.andThen(sql`DELETE FROM ${entries} WHERE ${where}`, sql`DELETE FROM ${transcripts} WHERE ${where}`)
    ).pipe(Effect.asVoid, Effect.mapError(unavailable("delete")))
  }

  const listSubkeys = (key: SessionStore.SessionRef) =>
    sql<{ readonly subpath: string }>`SELECT subpath FROM ${transcripts}
      WHERE project_key = ${key.projectKey} AND session_id = ${key.sessionId} AND subpath <> ''`.pipe(
      Effect.map((rows) => rows.map((row) => row.subpath)),
      Effect.mapError(unavailable("listSubkeys"))
    )

  return SessionStore.make({ append, load, listSessions, delete: delete_, listSubkeys })
})
