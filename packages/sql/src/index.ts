/**
 * SQL for claude-effect on effect 4: the embedded SQLite client (`SqliteClient`, over `node:sqlite`).
 *
 * @since 0.1.0
 */
export * as SqliteClient from "./SqliteClient.js"

/**
 * Claude Code session transcripts in SQL: a `SessionStore` over effect's `sql` module, for SQLite and PostgreSQL.
 *
 * @since 0.1.0
 */
export * as SqlSessionStore from "./SqlSessionStore.js"
