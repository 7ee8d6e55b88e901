/**
 * A `SessionStore` in SQL, over effect's `sql` module: transcripts in two
 * tables of the database the `SqlClient` in context connects to — SQLite
 * (this package's `SqliteClient`, one file, nothing to run: the embedded
 * default) or PostgreSQL (`@effect/sql-pg`, for several machines).
 *
 * Entries are kept in append order and keyed idempotently: an entry whose
 * `uuid` is already stored under its key is skipped (a batch sent twice is
 * stored once); one without a `uuid` is always appended. A batch is one
 * transaction: it is stored whole or not at all. The tables are created on
 * start (idempotent DDL, under an advisory lock on PostgreSQL), so several
 * processes may start against one database at once.
 *
 * ```ts
 * import { SqliteClient, SqlSessionStore } from "@claude-effect/sql"
 *
 * const store = SqlSessionStore.layer().pipe(
 *   Layer.provide(SqliteClient.layer({ filename: "sessions.db" }))
 * )
 * ```
 *
 * Faults are `SessionStoreError`s: `Unavailable` (the database failed or
 * cannot be reached; its `SqlError` is the cause), `TooLarge` (an entry over
 * `maxEntryBytes`), `InvalidKey` / `InvalidEntry` (checked before any query).
 *
 * @since 0.1.0
 */
import { SessionStore } from "@claude-effect/sdk"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as internal from "./internal/sqlSessionStore.js"

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** The tables' prefix: `<prefix>_entries`, `<prefix>_transcripts` (default `claude_session`). */
  readonly prefix?: string | undefined
  /** The largest entry stored, in bytes of JSON (default 32 MiB); a batch with a larger one fails with `TooLarge`. */
  readonly maxEntryBytes?: number | undefined
}

/**
 * Creates the tables if they are not there, and answers the store.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (
  options?: Options
) => Effect.Effect<SessionStore.SessionStore, SqlError, SqlClient.SqlClient> = internal.make

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (
  options?: Options
): Layer.Layer<SessionStore.SessionStore, SqlError, SqlClient.SqlClient> =>
  Layer.effect(SessionStore.SessionStore, make(options))
