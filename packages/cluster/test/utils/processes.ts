/**
 * The fixture processes of the cluster tests (runners, clients, an attacker), each a child process
 * whose stdout is read as JSON lines; and what the tests look at around them: PostgreSQL's shard
 * locks, /proc, free ports.
 */
import { PgClient } from "@effect/sql-pg"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Path from "node:path"

const fixtures = Path.join(import.meta.dirname, "..", "fixtures")
const packageDir = Path.resolve(import.meta.dirname, "..", "..")

/** The cluster's shared secret in the tests (the runners', the clients'). */
export const clusterSecret = "test-cluster-secret-0123456789-abcdefghijklmnop"

/** What the fixture processes print, one JSON line each. */
export const FixtureEvent = Schema.Union([
  Schema.Struct({ event: Schema.Literal("ready"), name: Schema.String, pid: Schema.Number }),
  // fixtures/client.ts
  Schema.Struct({
    event: Schema.Literal("done"),
    entityId: Schema.String,
    n: Schema.Number,
    result: Schema.optional(Schema.String),
    sessionId: Schema.optional(Schema.String)
  }),
  Schema.Struct({ event: Schema.Literal("failed"), entityId: Schema.String, n: Schema.Number, cause: Schema.String }),
  Schema.Struct({ event: Schema.Literal("finished") }),
  // fixtures/driver.ts
  Schema.Struct({
    event: Schema.Literal("reply"),
    id: Schema.String,
    result: Schema.optional(Schema.String),
    sessionId: Schema.optional(Schema.String)
  }),
  Schema.Struct({ event: Schema.Literal("error"), id: Schema.String, tag: Schema.String, message: Schema.String }),
  // fixtures/attacker.ts
  Schema.Struct({
    event: Schema.Literal("outcome"),
    kind: Schema.Literals(["connection-failed", "refused", "not-assigned", "ran", "failed"]),
    detail: Schema.String
  })
])
export type FixtureEvent = typeof FixtureEvent.Type
const decodeEvent = Schema.decodeUnknownOption(Schema.fromJsonString(FixtureEvent))

export interface Fixture {
  readonly name: string
  readonly child: ChildProcess.ChildProcess
  readonly events: Array<FixtureEvent>
  readonly stderr: () => string
  readonly on: (predicate: (event: FixtureEvent) => boolean) => Effect.Effect<FixtureEvent>
  /** Writes a JSON line to its stdin. */
  readonly send: (command: Record<string, unknown>) => Effect.Effect<void>
  readonly exited: Effect.Effect<void>
}

/** A fixture program in a child process (tsx), its stdout read as JSON lines; killed when the scope closes. */
export const spawn = (name: string, file: string, env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync((): Fixture => {
      const child = ChildProcess.spawn(process.execPath, ["--import", "tsx", Path.join(fixtures, file)], {
        cwd: packageDir,
        env: { ...process.env, ...env },
        stdio: ["pipe", "pipe", "pipe"]
      })
      const events: Array<FixtureEvent> = []
      const waiters: Array<{ predicate: (e: FixtureEvent) => boolean; resume: (e: FixtureEvent) => void }> = []
      let buffer = ""
      let stderr = ""
      child.stdin!.on("error", () => {}) // a fixture that exited
      child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
        buffer += chunk
        let newline = buffer.indexOf("\n")
        while (newline !== -1) {
          const line = buffer.slice(0, newline)
          buffer = buffer.slice(newline + 1)
          newline = buffer.indexOf("\n")
          const decoded = decodeEvent(line)
          if (Option.isNone(decoded)) {
            // a log line
            stderr = (stderr + line + "\n").slice(-200_000)
            continue
          }
          const event = decoded.value
          events.push(event)
          for (const waiter of [...waiters]) {
            if (waiter.predicate(event)) {
              waiters.splice(waiters.indexOf(waiter), 1)
              waiter.resume(event)
            }
          }
        }
      })
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => void (stderr = (stderr + chunk).slice(-200_000)))
      const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      return {
        name,
        child,
        events,
        stderr: () => stderr,
        on: (predicate) =>
          Effect.callback<FixtureEvent>((resume) => {
            const found = events.find(predicate)
            if (found !== undefined) return resume(Effect.succeed(found))
            const waiter = { predicate, resume: (event: FixtureEvent) => resume(Effect.succeed(event)) }
            waiters.push(waiter)
            return Effect.sync(() => {
              const index = waiters.indexOf(waiter)
              if (index !== -1) waiters.splice(index, 1)
            })
          }),
        send: (command) => Effect.sync(() => void child.stdin!.write(`${JSON.stringify(command)}\n`)),
        exited: Effect.promise(() => exit)
      }
    }),
    // Bounded: four of these in turn stay inside the hook timeout of a test that was cut short.
    (fixture) =>
      Effect.gen(function*() {
        if (fixture.child.exitCode !== null || fixture.child.signalCode !== null) return
        fixture.child.kill("SIGTERM")
        yield* fixture.exited.pipe(
          Effect.timeout("10 seconds"),
          Effect.catch(() => Effect.sync(() => fixture.child.kill("SIGKILL")))
        )
      })
  )

/** The parent of a process; undefined when it is gone. */
export const parentOf = (pid: number): number | undefined => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}

/** The session ids of CLI processes, from their `--session-id=` or `--resume=` argument. */
export const sessionIdsOf = (pids: ReadonlyArray<number>): Array<string> =>
  pids.flatMap((pid) => {
    try {
      const args = Fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
      const arg = args.find((a) => a.startsWith("--session-id=") || a.startsWith("--resume="))
      return arg === undefined ? [] : [arg.slice(arg.indexOf("=") + 1)]
    } catch {
      return [] // gone
    }
  })

/**
 * Waits (boundedly) until the shards are spread over `count` runners: as many database sessions (one lock
 * connection per runner) each hold at least a fifth of the shard locks, PostgreSQL advisory locks.
 */
export const awaitShardsSpread = (url: string, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (let waited = 0; waited < 90_000; waited += 250) {
      const rows = yield* sql<{ readonly held: number }>`
        SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND granted GROUP BY pid`
      const total = rows.reduce((sum, row) => sum + row.held, 0)
      if (rows.length >= count && rows.every((row) => row.held >= total / 5)) return
      yield* Effect.sleep("250 millis")
    }
    return yield* Effect.die(new Error(`the shards were not spread over ${count} runners within 90 s`))
  }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.orDie)

export const freePort = Effect.callback<number>((resume) => {
  const server = Net.createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address() as Net.AddressInfo
    server.close(() => resume(Effect.succeed(address.port)))
  })
})

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export const isListening = (port: number) =>
  Effect.callback<boolean>((resume) => {
    const socket = Net.connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
  })

/**
 * A runner process (fixtures/runner.ts), a "machine" of its own (HOME and CLAUDE_CONFIG_DIR under `root`),
 * its CLIs pointed at the scripted model and tagged with the header `x-cluster-runner: <name>` on every
 * model request; ready when its layer is built.
 */
export const startRunner = (options: {
  readonly name: string
  readonly port: number
  readonly databaseUrl: string
  readonly root: string
  readonly sessionsRoot: string
  readonly cliEnv: Readonly<Record<string, string>>
  /** The transport's variables (CLAUDE_CLUSTER_SECRET or CLUSTER_*_FILE), and any other. */
  readonly env: Record<string, string>
}) =>
  Effect.gen(function*() {
    const home = Path.join(options.root, options.name)
    Fs.mkdirSync(Path.join(home, ".claude"), { recursive: true })
    const runner = yield* spawn(options.name, "runner.ts", {
      ...options.env,
      RUNNER_NAME: options.name,
      RUNNER_PORT: String(options.port),
      DATABASE_URL: options.databaseUrl,
      SESSIONS_ROOT: options.sessionsRoot,
      CLI_ENV: JSON.stringify({
        ...options.cliEnv,
        HOME: home,
        CLAUDE_CONFIG_DIR: Path.join(home, ".claude"),
        ANTHROPIC_CUSTOM_HEADERS: `x-cluster-runner: ${options.name}`
      })
    })
    yield* runner.on((e) => e.event === "ready").pipe(
      Effect.timeoutOrElse({
        duration: "60 seconds",
        orElse: () => Effect.die(new Error(`${options.name} not ready in 60 s:\n${runner.stderr().slice(-4000)}`))
      })
    )
    return runner
  })

/** Sends a command to a driver (fixtures/driver.ts) and waits for its answer. */
export const ask = (
  driver: Fixture,
  command: { readonly id: string; readonly op: "prompt" | "stream"; readonly entityId: string; readonly prompt: string }
) =>
  Effect.andThen(
    driver.send(command),
    driver.on((e) => (e.event === "reply" || e.event === "error") && e.id === command.id)
  ).pipe(
    Effect.timeoutOrElse({
      duration: "90 seconds",
      orElse: () => Effect.die(new Error(`no answer to ${command.id} in 90 s:\n${driver.stderr().slice(-4000)}`))
    })
  )
