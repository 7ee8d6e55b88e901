/**
 * The code of docs/session-store.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import { ClaudeCode, SessionStore } from "@claude-effect/sdk"
import { SqliteClient, SqlSessionStore } from "@claude-effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Config, Console, Effect, Layer, Option } from "effect"
// #endregion

// #region memory
// A store in memory: every session started under it mirrors its transcript there.
const remembered = ClaudeCode.result("Remember: the code word is plum").pipe(
  Effect.provide(SessionStore.layerMemory)
)
// #endregion

// #region sqlite
// One machine: SQLite in a file, nothing to run.
const sqliteStore = SqlSessionStore.layer().pipe(
  Layer.provide(SqliteClient.layer({ filename: "sessions.db" }))
)
// #endregion

// #region postgres
// Several machines: PostgreSQL, from the environment (DATABASE_URL).
const postgresStore = SqlSessionStore.layer().pipe(
  Layer.provide(PgClient.layerConfig({ url: Config.Redacted("DATABASE_URL") }))
)
// #endregion

// #region resume
// On any machine with the same store: the conversation goes on where it was left.
const resumeAnywhere = (sessionId: string) =>
  ClaudeCode.result("What was the code word?", { resume: sessionId }).pipe(
    Effect.tap((result) => Console.log(result.result)),
    Effect.provide(postgresStore)
  )
// #endregion

// #region tenant
// Sessions filed under a tenant's name instead of the working directory, so that any
// directory on any machine finds them (the CLI honours the name with CLAUDE_CONFIG_DIR).
const forTenant = (tenant: string, configDir: string) =>
  ClaudeCode.result("Pick up where we left off", {
    continue: true,
    env: { CLAUDE_CONFIG_DIR: configDir, CLAUDE_CODE_PROJECT_DIR_NAME: tenant }
  }).pipe(Effect.provide(sqliteStore))
// #endregion

// #region redaction
// Stored with the session's secrets replaced by <redacted> (the default): here the value of
// CRM_API_TOKEN (a secret-looking name) and the account number listed in `secrets`, wherever
// the transcript has them (the prompt, a tool's output, the model's answer).
const summarize = (account: string, crmToken: string) =>
  ClaudeCode.result(`Summarize the open tickets of account ${account}`, {
    env: { CRM_API_TOKEN: crmToken },
    secrets: [account]
  }).pipe(Effect.provide(postgresStore))

// An archive that must keep every word as written opts out: the store then holds what the CLI wrote.
const verbatim = ClaudeCode.result("Draft the release notes", { sessionStoreRedaction: "none" }).pipe(
  Effect.provide(sqliteStore)
)
// #endregion

// #region direct
// The store is a service of its own: list, read and delete transcripts.
const housekeeping = Effect.gen(function*() {
  const store = yield* SessionStore.SessionStore
  const projectKey = SessionStore.projectKey("/srv/app")
  for (const session of yield* store.listSessions(projectKey)) {
    const entries = yield* store.load({ projectKey, sessionId: session.sessionId })
    yield* Console.log(session.sessionId, new Date(session.mtime), Option.map(entries, (e) => e.length))
    if (Date.now() - session.mtime > 30 * 24 * 3600_000) {
      yield* store.delete({ projectKey, sessionId: session.sessionId })
    }
  }
}).pipe(Effect.provide(sqliteStore))
// #endregion

// #region errors
const reported = resumeAnywhere("4f1c…").pipe(
  Effect.catchTag("SessionStoreError", (error) =>
    // reason: InvalidKey | InvalidEntry | TooLarge | Unavailable | Timeout
    Console.error(`the store failed (${error.reason}): ${error.message}`))
)
// #endregion

export { forTenant, housekeeping, remembered, reported, summarize, verbatim }
