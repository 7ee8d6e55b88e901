/**
 * Claude Code session transcripts in SQL: a `SessionStore` over `@effect/sql`
 * for SQLite and PostgreSQL.
 *
 * @since 0.1.0
 */
export * as SqlSessionStore from "./SqlSessionStore.js"
