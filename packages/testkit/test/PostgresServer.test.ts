/**
 * PostgresServer: a real server from the machine's binaries, on 127.0.0.1,
 * answering SQL from a real client (`psql` from the same binaries), and gone
 * when its scope closes: every process of it by pid, its directory, its port.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Path from "node:path"
import { PostgresServer } from "../src/index.js"

interface Output {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const psql = (server: PostgresServer.Service, sql: string) =>
  Effect.callback<Output>((resume) => {
    const bin = PostgresServer.binDirectory()!
    const child = ChildProcess.execFile(
      Path.join(bin, "psql"),
      ["-h", server.host, "-p", String(server.port), "-U", server.username, "-d", server.database, "-Atqc", sql],
      { encoding: "utf8", timeout: 30_000, env: { PATH: process.env.PATH ?? "" } },
      (_error, stdout, stderr) => resume(Effect.succeed({ code: child.exitCode, stdout, stderr }))
    )
    return Effect.sync(() => child.kill("SIGKILL"))
  })

// Alive and not a zombie: PID 1 of a container may never reap.
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return Fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z"
  } catch {
    return false
  }
}

// The pids whose parent is `pid` (the postmaster's checkpointer, writers, launchers, backends).
const childrenOf = (pid: number): Array<number> =>
  Fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => {
    try {
      const ppid = Number(Fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.split(" ")[1])
      return ppid === pid ? [Number(entry)] : []
    } catch {
      return []
    }
  })

const cmdline = (pid: number): string => Fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ")

const listening = (port: number) =>
  Effect.callback<boolean>((resume) => {
    const socket = Net.connect({ host: "127.0.0.1", port })
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
  })

describe("PostgresServer", () => {
  it.live(
    "starts on 127.0.0.1, answers SQL, and leaves no process, directory or port behind",
    () =>
      Effect.gen(function*() {
        const scope = yield* Scope.make()
        const server = yield* PostgresServer.make().pipe(Scope.provide(scope))
        assert.strictEqual(server.url, `postgres://postgres@127.0.0.1:${server.port}/postgres`)

        const answer = yield* psql(server, "create table t (n int); insert into t values (41); select n + 1 from t")
        assert.strictEqual(answer.code, 0, answer.stderr)
        assert.strictEqual(answer.stdout.trim(), "42")

        const pid = yield* server.pid
        assert.include(cmdline(pid), `-D ${server.dataDirectory}`)
        assert.include(cmdline(pid), "listen_addresses=127.0.0.1")
        const processes = [pid, ...childrenOf(pid)]
        assert.isAbove(processes.length, 1, "the postmaster and its auxiliary processes")
        assert.isTrue(yield* listening(server.port))

        yield* Scope.close(scope, Exit.void)
        assert.deepStrictEqual(processes.filter(alive), [])
        assert.isFalse(Fs.existsSync(Path.dirname(server.dataDirectory)))
        assert.isFalse(yield* listening(server.port))
      }),
    { timeout: 90_000 }
  )

  it.live(
    "stop makes the database unreachable; start brings it back, with its data, on the same port",
    () =>
      Effect.gen(function*() {
        const server = yield* PostgresServer.make()
        const created = yield* psql(server, "create table kept (v text); insert into kept values ('still here')")
        assert.strictEqual(created.code, 0, created.stderr)
        const first = yield* server.pid

        yield* server.stop
        assert.isFalse(alive(first))
        const refused = yield* psql(server, "select 1")
        assert.notStrictEqual(refused.code, 0)
        assert.isFalse(yield* listening(server.port))

        yield* server.start
        const second = yield* server.pid
        assert.notStrictEqual(second, first)
        const read = yield* psql(server, "select v from kept")
        assert.strictEqual(read.code, 0, read.stderr)
        assert.strictEqual(read.stdout.trim(), "still here")
      }),
    { timeout: 90_000 }
  )
})
