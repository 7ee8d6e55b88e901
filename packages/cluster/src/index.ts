/**
 * A Claude Code session as an `effect/cluster` entity, sharded over runners
 * and resumed from a SQL session store when its runner dies.
 *
 * @since 0.1.0
 */
export * as ClaudeSession from "./ClaudeSession.js"

/**
 * The cluster's layers: one process with SQLite, or runners and clients over
 * PostgreSQL.
 *
 * @since 0.1.0
 */
export * as ClaudeCluster from "./ClaudeCluster.js"
