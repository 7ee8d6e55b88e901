/**
 * No secret at rest: a session's transcript goes to `SqlSessionStore` through
 * the session's redaction (the rule of its logs and errors), on SQLite and on
 * PostgreSQL, with the real CLI 2.1.328. The database's bytes hold none of the
 * secrets a tool printed, and a session resumed from the store still works.
 */
import { ClaudeCode, Protocol, SessionStore } from "@claude-effect/sdk"
import { SqliteClient, SqlSessionStore } from "@claude-effect/sql"
import { PostgresServer, ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { PgClient } from "@effect/sql-pg"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as Stream from "effect/Stream"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

const tempDir = (prefix: string) =>
  Effect.acquireRelease(
    Effect.sync(() => Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), prefix)))),
    (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
  )

/** One "machine": its own HOME and CLAUDE_CONFIG_DIR, both empty at first. */
const machine = Effect.map(tempDir("claude-effect-machine-"), (home) => {
  Fs.mkdirSync(Path.join(home, ".claude"))
  return {
    home,
    configDir: Path.join(home, ".claude"),
    env: { HOME: home, CLAUDE_CONFIG_DIR: Path.join(home, ".claude") }
  }
})

/** The turn's last message, which must be its successful result. */
const resultOf = (messages: ReadonlyArray<Protocol.Message>): Protocol.ResultSuccess => {
  const last = messages[messages.length - 1]
  assert.isTrue(Protocol.isResultMessage(last) && last.subtype === "success", JSON.stringify(last))
  return last as Protocol.ResultSuccess
}

/** Every regular file under `dir`, recursively. */
const filesUnder = (dir: string): Array<string> =>
  Fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => Path.join(entry.parentPath, entry.name))

/** Which of `needles` occur in the bytes of `files`. */
const foundIn = (files: ReadonlyArray<string>, needles: ReadonlyArray<string>): Array<string> => {
  const found = new Set<string>()
  for (const file of files) {
    let bytes: Buffer
    try {
      bytes = Fs.readFileSync(file)
    } catch {
      continue // a file the server removed meanwhile
    }
    for (const needle of needles) if (bytes.includes(needle)) found.add(needle)
  }
  return [...found]
}

const decodeEntry = Schema.decodeUnknownSync(Schema.fromJsonString(SessionStore.Entry))

const fresh = (label: string) => `${label}-${randomBytes(12).toString("hex")}`

// The three kinds of secret of the session, and a text that is not one (what the scans must find).
const apiKey = `sk-ant-api03-${randomBytes(24).toString("hex")}`
const envSecret = fresh("svc-token")
const listedSecret = fresh("listed-value")
const marker = fresh("visible-marker")
const allSecrets = [apiKey, envSecret, listedSecret]

const model = ScriptedModel.layerNode([
  ScriptedModel.toolUse("Bash", {
    command: `printf 'token=%s listed=%s key=%s ${marker}\\n' "$SERVICE_TOKEN" "$PLAIN_NOTE" "$ANTHROPIC_API_KEY"`,
    description: "print the environment"
  }),
  ScriptedModel.text("noted"),
  ScriptedModel.text("recalled")
], { apiKey })

/** The database under test: its client, and the files and rows where its data lands. */
interface Database {
  readonly client: Layer.Layer<SqlClient.SqlClient, unknown>
  /** Every file of the database (for SQLite the file and its WAL; for PostgreSQL the data directory). */
  readonly files: Effect.Effect<ReadonlyArray<string>, unknown>
}

const secretsAtRest = (database: Database) =>
  Effect.gen(function*() {
    const scripted = yield* ScriptedModel.ScriptedModel
    const cwd = yield* tempDir("claude-effect-cwd-")
    const a = yield* machine
    const b = yield* machine
    const withStore = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(Effect.provide(SqlSessionStore.layer()), Effect.provide(database.client))
    const base = {
      cwd,
      allowedTools: ["Bash"],
      // a secret-looking variable, and one that only the `secrets` option names
      env: { ...scripted.cliEnv, CLAUDE_CODE_MAX_RETRIES: "2", SERVICE_TOKEN: envSecret, PLAIN_NOTE: listedSecret },
      secrets: [listedSecret]
    }

    // machine A: the tool prints the three secrets; the model sees them (the live session is unchanged)
    const first = yield* withStore(Effect.scoped(Effect.gen(function*() {
      const session = yield* ClaudeCode.session({ ...base, env: { ...base.env, ...a.env } })
      return yield* Stream.runCollect(session.turn("print the environment"))
    }))).pipe(Effect.provide(ClaudeCode.layer()))
    const sessionId = resultOf(first).session_id
    const [printed] = yield* ScriptedModel.toolResults
    for (const secret of allSecrets) assert.include(printed.content, secret, "the tool printed every secret")
    // the CLI's own transcript holds them: without redaction the store would get them
    const projectKey = SessionStore.projectKey(cwd)
    const localFile = Path.join(a.configDir, "projects", projectKey, `${sessionId}.jsonl`)
    const local = Fs.readFileSync(localFile, "utf8").split("\n").filter((line) => line.length > 0).map((line) =>
      decodeEntry(line)
    )
    for (const secret of allSecrets) assert.include(JSON.stringify(local), secret)

    // the store: the same entries, the same shape, every secret replaced
    const stored = Option.getOrThrow(
      yield* withStore(Effect.flatMap(
        Effect.service(SessionStore.SessionStore),
        (store) => store.load({ projectKey, sessionId })
      ))
    )
    let expected = JSON.stringify(local.filter((entry) => !entry.type.startsWith("api-request")))
    for (const secret of allSecrets) expected = expected.split(secret).join("<redacted>")
    assert.deepStrictEqual(stored, JSON.parse(expected))
    assert.include(JSON.stringify(stored), marker)

    // the database's bytes: the marker is there (the scan sees the data), no secret is
    const rows = yield* withStore(Effect.flatMap(
      Effect.service(SqlClient.SqlClient),
      (sql) => sql<{ readonly entry: string }>`SELECT entry FROM claude_session_entries`
    ))
    const text = rows.map((row) => row.entry).join("\n")
    assert.include(text, marker)
    for (const secret of allSecrets) assert.notInclude(text, secret)
    const files = yield* database.files
    assert.deepStrictEqual(foundIn(files, [marker, ...allSecrets]), [marker], `scanned ${files.length} files`)

    // machine B, which never saw the session: resumed from the store, with the redacted text
    const resumed = yield* withStore(Effect.scoped(Effect.gen(function*() {
      const session = yield* ClaudeCode.session({ ...base, env: { ...base.env, ...b.env }, resume: sessionId })
      return yield* Stream.runCollect(session.turn("what did it print?"))
    }))).pipe(Effect.provide(ClaudeCode.layer()))
    assert.strictEqual(resultOf(resumed).result, "recalled")
    const last = yield* ScriptedModel.lastTurnRequest
    assert.isTrue(last.includes("print the environment"), "the request on B carries A's prompt")
    assert.isTrue(last.includes(marker), "and the tool's output")
    assert.isTrue(last.includes("token=<redacted> listed=<redacted> key=<redacted>"), "redacted")
    for (const secret of [envSecret, listedSecret]) assert.isFalse(last.includes(secret))
  })

describe("no secret at rest in SqlSessionStore (real CLI)", () => {
  it.live(
    "SQLite: neither the rows nor the database file and its WAL hold a secret; the session resumes",
    () =>
      Effect.gen(function*() {
        const dir = yield* tempDir("claude-effect-sqlite-")
        // One connection for the whole test: the rows stay in the WAL (closing the last one folds it into the file).
        const client = Layer.succeedContext(
          yield* Layer.build(SqliteClient.layer({ filename: Path.join(dir, "sessions.db") }))
        )
        yield* secretsAtRest({
          client,
          files: Effect.sync(() => {
            const files = filesUnder(dir)
            assert.include(files.map((file) => Path.basename(file)), "sessions.db-wal")
            return files
          })
        })
      }).pipe(Effect.scoped, Effect.provide(Layer.provideMerge(model, NodeServices.layer))),
    90_000
  )

  it.live(
    "PostgreSQL: neither the rows nor the data directory hold a secret; the session resumes",
    () =>
      Effect.gen(function*() {
        const server = yield* PostgresServer.make()
        const client = PgClient.layer({ url: Redacted.make(server.url) })
        // Stored as written, never compressed: a compressed row could hide a secret from a scan of the bytes.
        yield* Effect.gen(function*() {
          yield* SqlSessionStore.make()
          const sql = yield* SqlClient.SqlClient
          yield* sql`ALTER TABLE claude_session_entries ALTER COLUMN entry SET STORAGE EXTERNAL`
        }).pipe(Effect.scoped, Effect.provide(client))
        yield* secretsAtRest({
          client,
          // Written out first: the WAL has every row already, the checkpoint puts them in the tables' files too.
          files: Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql`CHECKPOINT`).pipe(
            Effect.provide(client),
            Effect.map(() => filesUnder(server.dataDirectory))
          )
        })
      }).pipe(Effect.scoped, Effect.provide(Layer.provideMerge(model, NodeServices.layer))),
    120_000
  )
})
