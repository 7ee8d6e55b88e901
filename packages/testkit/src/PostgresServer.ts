/**
 * A throwaway PostgreSQL server for tests, from the machine's own binaries:
 * a new data directory in a temporary directory, a free port on 127.0.0.1,
 * trust authentication for the user `postgres`, durability off (it is thrown
 * away). It stops (fast shutdown, then SIGKILL) and its directory is removed
 * when the scope closes; if the test process dies first, the server follows
 * (it is started with a parent-death signal where `setpriv` is there).
 *
 * The binaries are looked up in `POSTGRES_BIN_DIR`, then
 * `/usr/lib/postgresql/<newest>/bin` (Debian's `postgresql` package), then
 * `PATH`. PostgreSQL refuses to run as root: as root, the server runs as the
 * `postgres` user (or `nobody`), through `setpriv`.
 *
 * ```ts
 * const db = yield* PostgresServer.make()
 * PgClient.layer({ url: Redacted.make(db.url) })
 * ```
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"

/**
 * @since 0.1.0
 * @category Models
 */
export interface Service {
  readonly host: string
  readonly port: number
  readonly database: string
  readonly username: string
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string
  /** The postmaster's pid (of the current start). */
  readonly pid: Effect.Effect<number>
  readonly dataDirectory: string
  /** Stops the server (fast shutdown): clients see a database that cannot be reached. */
  readonly stop: Effect.Effect<void>
  /** Starts it again on the same port and data: the database is back. */
  readonly start: Effect.Effect<void, PostgresServerError>
}

/**
 * @since 0.1.0
 * @category Tags
 */
export class PostgresServer
  extends Context.Service<PostgresServer, Service>()("@claude-effect/testkit/PostgresServer")
{}

/**
 * The server could not be started: no binaries (`NotInstalled`: install
 * PostgreSQL, e.g. `apt-get install postgresql`, or set `POSTGRES_BIN_DIR`),
 * `initdb` failed, or the server did not come up in time.
 *
 * @since 0.1.0
 * @category Errors
 */
export class PostgresServerError extends Schema.TaggedError<PostgresServerError>(
  "@claude-effect/testkit/PostgresServerError"
)("PostgresServerError", {
  reason: Schema.Literals(["NotInstalled", "InitFailed", "StartFailed"]),
  detail: Schema.String
}) {
  /**
   * @since 0.1.0
   */
  override get message(): string {
    return `PostgreSQL for the test could not be started (${this.reason}): ${this.detail}`
  }
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /** How long the server may take to accept connections (default 30 s). */
  readonly startTimeout?: Duration.Input | undefined
  /** `max_connections` (default 200: several runners, each with a pool). */
  readonly maxConnections?: number | undefined
}

const executableIn = (dir: string, name: string): string | undefined => {
  const file = Path.join(dir, name)
  try {
    Fs.accessSync(file, Fs.constants.X_OK)
    return file
  } catch {
    return undefined
  }
}

/**
 * The directory that has `initdb` and `postgres`, if there is one.
 *
 * @since 0.1.0
 * @category Binaries
 */
export const binDirectory = (): string | undefined => {
  const candidates: Array<string> = []
  if (process.env.POSTGRES_BIN_DIR !== undefined) candidates.push(process.env.POSTGRES_BIN_DIR)
  try {
    const versions = Fs.readdirSync("/usr/lib/postgresql").filter((v) => /^\d+$/.test(v)).sort((a, b) =>
      Number(b) - Number(a)
    )
    for (const version of versions) candidates.push(Path.join("/usr/lib/postgresql", version, "bin"))
  } catch {
    // not Debian's layout
  }
  candidates.push(...(process.env.PATH ?? "").split(Path.delimiter).filter((dir) => dir.length > 0))
  return candidates.find((dir) =>
    executableIn(dir, "initdb") !== undefined && executableIn(dir, "postgres") !== undefined
  )
}

/** As root: the user the server runs as, and the `setpriv` prefix that switches to it. */
const runAs = ():
  | { readonly uid: number; readonly gid: number; readonly prefix: ReadonlyArray<string> }
  | undefined =>
{
  if (process.getuid?.() !== 0) return undefined
  let uid = 65534
  let gid = 65534
  try {
    const line = Fs.readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith("postgres:"))
    if (line !== undefined) {
      const fields = line.split(":")
      uid = Number(fields[2])
      gid = Number(fields[3])
    }
  } catch {
    // no passwd file: nobody
  }
  return { uid, gid, prefix: ["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups"] }
}

const hasSetpriv = (): boolean =>
  (process.env.PATH ?? "").split(Path.delimiter).some((dir) => executableIn(dir, "setpriv") !== undefined)

const freePort = Effect.callback<number, PostgresServerError>((resume) => {
  const server = Net.createServer()
  server.once(
    "error",
    (error) =>
      resume(Effect.fail(new PostgresServerError({ reason: "StartFailed", detail: `no free port: ${error.message}` })))
  )
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

const run = (command: string, args: ReadonlyArray<string>) =>
  Effect.callback<void, PostgresServerError>((resume) => {
    const child = ChildProcess.spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (chunk) => stderr = (stderr + String(chunk)).slice(-4000))
    child.once("error", (error) =>
      resume(Effect.fail(new PostgresServerError({ reason: "InitFailed", detail: `${command}: ${error.message}` }))))
    child.once("exit", (code) =>
      resume(
        code === 0 ? Effect.void : Effect.fail(
          new PostgresServerError({ reason: "InitFailed", detail: `${args.join(" ")} exited with ${code}: ${stderr}` })
        )
      ))
    return Effect.sync(() =>
      child.kill("SIGKILL")
    )
  })

const awaitExit = (child: ChildProcess.ChildProcess): Effect.Effect<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Effect.void
    : Effect.callback<void>((resume) => {
      const onExit = () => resume(Effect.void)
      child.once("exit", onExit)
      return Effect.sync(() => child.off("exit", onExit))
    })

/**
 * Starts a server for the current scope.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const make = (options: Options = {}): Effect.Effect<Service, PostgresServerError, Scope.Scope> =>
  Effect.gen(function*() {
    const bin = binDirectory()
    if (bin === undefined) {
      return yield* new PostgresServerError({
        reason: "NotInstalled",
        detail: "no initdb and postgres in POSTGRES_BIN_DIR, /usr/lib/postgresql/*/bin or PATH; install PostgreSQL " +
          "(Debian: apt-get install -y postgresql) or set POSTGRES_BIN_DIR"
      })
    }
    const user = runAs()
    const prefix = user?.prefix ?? []
    const root = yield* Effect.acquireRelease(
      Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-pg-"))),
      (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
    )
    const dataDirectory = Path.join(root, "data")
    if (user !== undefined) Fs.chownSync(root, user.uid, user.gid)
    const command = (name: string, args: ReadonlyArray<string>, extra: ReadonlyArray<string> = []) =>
      prefix.length > 0 ?
        [prefix[0]!, [...prefix.slice(1), ...extra, "--", Path.join(bin, name), ...args]] as const
        : [Path.join(bin, name), args] as const
    const [initdb, initArgs] = command("initdb", [
      "-D",
      dataDirectory,
      "-U",
      "postgres",
      "--auth=trust",
      "--no-sync",
      "--encoding=UTF8",
      "--locale=C"
    ])
    yield* run(initdb, initArgs)
    const port = yield* freePort
    // The server dies with this process, whatever kills it (parent-death signal: immediate shutdown).
    const deathSignal = user !== undefined || hasSetpriv() ? ["--pdeathsig=SIGQUIT"] : []
    const serverArgs = [
      "-D",
      dataDirectory,
      "-p",
      String(port),
      "-k",
      root,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      `max_connections=${options.maxConnections ?? 200}`
    ]
    const [postgres, postgresArgs] = prefix.length > 0
      ? command("postgres", serverArgs, deathSignal)
      : deathSignal.length > 0
      ? ["setpriv", [...deathSignal, "--", Path.join(bin, "postgres"), ...serverArgs]] as const
      : command("postgres", serverArgs)
    let current: ChildProcess.ChildProcess | undefined
    const stop = Effect.suspend(() => {
      const child = current
      current = undefined
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Effect.void
      child.kill("SIGINT")
      // Interruptible: stopping is a finalizer, and the timeout could not otherwise end the wait.
      return awaitExit(child).pipe(
        Effect.interruptible,
        Effect.timeout(Duration.seconds(10)),
        Effect.catch(() => Effect.andThen(Effect.sync(() => child.kill("SIGKILL")), awaitExit(child)))
      )
    })
    const start = Effect.suspend(() => {
      const child = ChildProcess.spawn(postgres, postgresArgs, { stdio: ["ignore", "ignore", "pipe"] })
      current = child
      let log = ""
      child.stderr?.on("data", (chunk) => log = (log + String(chunk)).slice(-8000))
      return Effect.callback<void, PostgresServerError>((resume) => {
        const ready = () => {
          if (log.includes("ready to accept connections")) {
            clearInterval(timer)
            resume(Effect.void)
          }
        }
        const timer = setInterval(ready, 25)
        child.once("exit", (code, signal) => {
          clearInterval(timer)
          resume(Effect.fail(
            new PostgresServerError({ reason: "StartFailed", detail: `postgres exited (${code ?? signal}): ${log}` })
          ))
        })
        return Effect.sync(() => clearInterval(timer))
      }).pipe(
        Effect.timeoutOrElse({
          duration: options.startTimeout ?? Duration.seconds(30),
          orElse: () =>
            Effect.fail(new PostgresServerError({ reason: "StartFailed", detail: `not ready in time: ${log}` }))
        })
      )
    })
    yield* Effect.addFinalizer(() => stop)
    yield* start
    return {
      host: "127.0.0.1",
      port,
      database: "postgres",
      username: "postgres",
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      pid: Effect.sync(() => current?.pid ?? -1),
      dataDirectory,
      stop,
      start
    }
  })

/**
 * @since 0.1.0
 * @category Layers
 */
export const layer = (options?: Options): Layer.Layer<PostgresServer, PostgresServerError> =>
  Layer.effect(PostgresServer, make(options))
