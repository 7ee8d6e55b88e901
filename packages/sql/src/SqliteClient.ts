/**
 * SQLite for effect's `sql` module, embedded: an effect `SqlClient` over `node:sqlite`, the SQLite built into
 * Node.js ≥ 22.19 (nothing to compile, nothing to run). It is the embedded default of the session store and of the
 * cluster's one-machine mode, and stands in for `@effect/sql-sqlite-node` until a 4.x of it loads on effect 4.1:
 * same configuration, same service shape, so switching is changing the import.
 *
 * ```ts
 * import { SqliteClient } from "@claude-effect/sql"
 * import { Effect } from "effect"
 * import { SqlClient } from "effect/sql"
 *
 * const program = Effect.gen(function*() {
 *   const sql = yield* SqlClient.SqlClient
 *   yield* sql`CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`
 *   yield* sql`INSERT INTO notes ${sql.insert({ body: "hello" })}`
 *   return yield* sql<{ id: number; body: string }>`SELECT * FROM notes`
 * }).pipe(Effect.provide(SqliteClient.layer({ filename: "notes.db" })))
 * ```
 *
 * **Concurrency.** A client is one SQLite connection. `node:sqlite` is synchronous: a statement runs to its end on
 * the fiber that issued it, blocking the event loop meanwhile. Fibers share the connection through a semaphore of one
 * permit, taken by a statement for its run and by a transaction or a stream for their whole length: statements of
 * other fibers wait (without blocking the event loop) until a transaction ends, so there is one writer at a time and
 * nobody sees uncommitted rows. Transactions of a writable client begin `IMMEDIATE` (SQLite's write lock at `BEGIN`),
 * so another connection or process writing to the same file waits up to `busyTimeout` rather than failing mid-way;
 * that wait is SQLite's and blocks the event loop too. A file database is in WAL mode by default: readers on other
 * connections do not wait for a writer.
 *
 * A stream holds the connection until it ends: outside a transaction, a statement run by the stream's own consumer
 * on the same client waits for that. Collect first, or run both inside `withTransaction`.
 *
 * Parameters: strings, numbers, bigints, `null`/`undefined` (NULL), booleans (stored as 0/1), Dates (stored as
 * ISO 8601 text) and `Uint8Array`s (BLOBs); any other value is a `SqlError` naming the parameter. Integers beyond
 * 2^53 are read as bigints under `SqlClient.SafeIntegers`.
 *
 * Errors are effect's `SqlError`s with the reason `SqlError.classifySqliteError` gives SQLite's result code
 * (`UniqueViolation` with the constraint for a UNIQUE index, `ConstraintError` for other constraints, including a
 * duplicate PRIMARY KEY, `LockTimeoutError` when busy, `ConnectionError` when the file cannot be opened); the
 * reason's `message` is SQLite's own.
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Reactivity from "effect/reactivity/Reactivity"
import type * as Scope from "effect/Scope"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as internal from "./internal/sqliteClient.js"

/**
 * @since 0.1.0
 * @category Type ids
 */
export type TypeId = "~@claude-effect/sql/SqliteClient"

/**
 * @since 0.1.0
 * @category Type ids
 */
export const TypeId: TypeId = internal.TypeId

/**
 * An effect `SqlClient` on one `node:sqlite` connection, with `backup`.
 *
 * It extends `SqlClient.Base` (effect 4.1's advice for a driver's client) and the service value is also a full
 * `SqlClient.SqlClient`: the layers provide it under both tags.
 *
 * @since 0.1.0
 * @category Models
 */
export interface SqliteClient extends SqlClient.Base {
  readonly [TypeId]: TypeId
  readonly config: SqliteClientConfig
  /**
   * Copies the database, page by page, to a new SQLite file at `destination` (SQLite's online backup, consistent
   * while the client keeps working: other statements of the client wait for it to finish).
   */
  readonly backup: (destination: string) => Effect.Effect<BackupMetadata, SqlError>
  /** Not supported by SQLite's statement compiler. */
  readonly updateValues: never
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface BackupMetadata {
  readonly totalPages: number
  readonly remainingPages: number
}

/**
 * The `SqliteClient` service; the layers also provide the same value as `SqlClient.SqlClient`.
 *
 * @since 0.1.0
 * @category Services
 */
export const SqliteClient = Context.Service<SqliteClient, SqliteClient & SqlClient.SqlClient>(
  "@claude-effect/sql/SqliteClient"
)

/**
 * The options of `@effect/sql-sqlite-node`'s client (4.x), so that one configuration serves both.
 *
 * @since 0.1.0
 * @category Models
 */
export interface SqliteClientConfig {
  /** The database file (created if missing), or `":memory:"`. */
  readonly filename: string
  /** Opens the database read-only: writes fail with a `SqlError` (default `false`). */
  readonly readonly?: boolean | undefined
  /** How many prepared statements are kept, least recently used evicted first (default 200; 0 keeps none). */
  readonly prepareCacheSize?: number | undefined
  /** A cached statement unused for longer is prepared again (default 10 minutes). */
  readonly prepareCacheTTL?: Duration.Input | undefined
  /**
   * Keeps the file's journal mode instead of switching a file database to WAL with `synchronous = NORMAL` (default
   * `false`). In WAL mode a commit survives a crash of the process; a power loss may undo the last commits, never
   * corrupt the file (SQLite's advice, and the effect-3 stack's behaviour through better-sqlite3).
   */
  readonly disableWAL?: boolean | undefined
  /**
   * How long SQLite waits for a lock another connection holds before failing with `LockTimeoutError` (default 5
   * seconds). The wait blocks the event loop: `node:sqlite` is synchronous.
   */
  readonly busyTimeout?: Duration.Input | undefined
  /** Attributes added to every statement's span (`db.system.name` is `"sqlite"`). */
  readonly spanAttributes?: Record<string, unknown> | undefined
  /** Renames the columns of result rows (e.g. `String.snakeToCamel`). */
  readonly transformResultNames?: ((str: string) => string) | undefined
  /** Renames identifiers written into queries (e.g. `String.camelToSnake`). */
  readonly transformQueryNames?: ((str: string) => string) | undefined
}

/**
 * Opens the database; it is closed when the scope closes. Needs a `Reactivity` (for `sql.reactive`); the layers
 * provide one.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make: (
  options: SqliteClientConfig
) => Effect.Effect<SqliteClient & SqlClient.SqlClient, SqlError, Scope.Scope | Reactivity.Reactivity> = internal.make

const toContext = (client: SqliteClient & SqlClient.SqlClient) =>
  Context.make(SqliteClient, client).pipe(Context.add(SqlClient.SqlClient, client))

/**
 * Provides `SqliteClient` and `SqlClient.SqlClient` (one connection, closed with the layer).
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer = (config: SqliteClientConfig): Layer.Layer<SqliteClient | SqlClient.SqlClient, SqlError> =>
  Layer.effectContext(Effect.map(make(config), toContext)).pipe(Layer.provide(Reactivity.layer))

/**
 * `layer` with its options read from `Config`.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerConfig = (
  config: Config.Wrap<SqliteClientConfig>
): Layer.Layer<SqliteClient | SqlClient.SqlClient, Config.ConfigError | SqlError> =>
  Layer.effectContext(
    Effect.map(Effect.flatMap(Config.unwrap(config), make), toContext)
  ).pipe(Layer.provide(Reactivity.layer))
