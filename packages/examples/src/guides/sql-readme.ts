/**
 * The example of packages/sql/README.md, copied there by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file and
 * test/guides-readmes.test.ts runs it.
 */
// #region store
import { SqliteClient, SqlSessionStore } from "@claude-effect/sql"
import { Layer } from "effect"

// every session started under this layer mirrors its transcript to sessions.db,
// and `resume` loads it from there, on whatever machine
const store = SqlSessionStore.layer().pipe(Layer.provide(SqliteClient.layer({ filename: "sessions.db" })))
// #endregion

export { store }
