/**
 * The two spawners under `CliProcess`, side by side (issue 37, item 4): `NodeCliSpawner` (node:child_process
 * directly) against effect's `ChildProcessSpawner` (`CliSpawner.layerChildProcess` over
 * `NodeServices.layer`). Run it under Node 22 from packages/sdk:
 *
 *   cd packages/sdk && npx -y -p node@22 -c "../../node_modules/.bin/tsx test/bench/spawners.ts [rounds]"
 *
 * Each round runs every case once per spawner, alternating which goes first; the table gives the median of
 * the rounds and the ratio ChildProcess / Node. This host's CPU (`process.cpuUsage`, user + system) is what
 * the SDK costs; the children (sh, cat) are not counted.
 *
 * - spawn → first line: `CliProcess.make` of `sh -c 'echo ready; exec cat'` until its first line is read
 *   (as the router reads: `readLines`).
 * - 10,000 lines, burst: a child that writes 10,000 lines of 300 bytes (a file, by `cat`) once told to;
 *   CPU and wall time from the go to the last line framed.
 * - 10,000 lines, round trips: `cat` echoing; each line is written once the previous one came back (the
 *   control-request pattern: a line in, a line out, the answer written as it is routed).
 * - close: `Scope.close` of a `cat` (it exits at the end of its stdin), and of a `sh` that left a child
 *   in its process group (killed with it: a zombie here, where PID 1 does not reap orphans).
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as CliProcess from "../../src/CliProcess.js"
import * as CliSpawner from "../../src/CliSpawner.js"
import * as NodeCliSpawner from "../../src/NodeCliSpawner.js"

const rounds = Number(process.argv[2] ?? 15)
const LINES = 10_000
const PATH = process.env.PATH ?? "/usr/bin:/bin"

const spawners: ReadonlyArray<readonly [string, Layer.Layer<CliSpawner.CliSpawner>]> = [
  ["Node", NodeCliSpawner.layer],
  ["ChildProcess", CliSpawner.layerChildProcess.pipe(Layer.provide(NodeServices.layer))]
]

const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "spawner-bench-"))
const linesFile = Path.join(dir, "lines.jsonl")
const line = (n: number) =>
  JSON.stringify({ type: "assistant", n, message: { content: [{ type: "text", text: "x".repeat(220) }] } })
    .slice(0, 299)
Fs.writeFileSync(linesFile, Array.from({ length: LINES }, (_, n) => line(n) + "\n").join(""))

const cpuMillis = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

const sh = (script: string): CliProcess.SpawnConfig => ({ executable: "/bin/sh", args: ["-c", script], env: { PATH } })

/** Reads the lines of `cli` as the router does, calling `each` per line, until `until` says so. */
const readUntil = (cli: CliProcess.CliProcess.Service, each: (line: string) => boolean) =>
  Effect.callback<void>((resume) => {
    let done = false
    const read = cli.readLines!((lines) => {
      for (const line of lines) {
        if (!done && each(line)) {
          done = true
          resume(Effect.void)
        }
      }
      return Effect.void
    })
    const fiber = Effect.runFork(Effect.ignore(read))
    return Effect.sync(() => fiber.interruptUnsafe())
  })

interface Sample {
  readonly firstLineMs: number
  readonly burstCpuMs: number
  readonly burstWallMs: number
  readonly roundTripCpuMs: number
  readonly roundTripWallMs: number
  readonly closeMs: number
  readonly closeGroupMs: number
}

const sample = Effect.gen(function*() {
  // spawn → first line
  const firstLineMs = yield* Effect.scoped(Effect.gen(function*() {
    const started = performance.now()
    const cli = yield* CliProcess.make(sh("echo ready; exec cat"))
    yield* readUntil(cli, (line) => line === "ready")
    return performance.now() - started
  }))

  // 10,000 lines, burst
  const burst = yield* Effect.scoped(Effect.gen(function*() {
    const cli = yield* CliProcess.make(sh(`read go; exec cat ${linesFile}`))
    yield* Effect.sleep("50 millis")
    let count = 0
    const cpu = cpuMillis()
    const wall = performance.now()
    yield* cli.writeLine("go")
    yield* readUntil(cli, () => ++count === LINES)
    return { cpu: cpuMillis() - cpu, wall: performance.now() - wall }
  }))

  // 10,000 lines, round trips
  const roundTrips = yield* Effect.scoped(Effect.gen(function*() {
    const cli = yield* CliProcess.make(sh("exec cat"))
    const write = cli.unsafeWriteLine!
    let count = 0
    const cpu = cpuMillis()
    const wall = performance.now()
    write(line(0))
    yield* readUntil(cli, () => {
      if (++count === LINES) return true
      write(line(count))
      return false
    })
    return { cpu: cpuMillis() - cpu, wall: performance.now() - wall }
  }))

  // close
  const close = (script: string) =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const cli = yield* Scope.provide(CliProcess.make(sh(script)), scope)
      yield* readUntil(cli, (line) => line === "ready")
      const started = performance.now()
      yield* Scope.close(scope, Exit.void)
      return performance.now() - started
    })
  const closeMs = yield* close("echo ready; exec cat")
  const closeGroupMs = yield* close("sleep 300 & echo ready; exec cat")

  return {
    firstLineMs,
    burstCpuMs: burst.cpu,
    burstWallMs: burst.wall,
    roundTripCpuMs: roundTrips.cpu,
    roundTripWallMs: roundTrips.wall,
    closeMs,
    closeGroupMs
  } satisfies Sample
})

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const results = new Map<string, Array<Sample>>(spawners.map(([name]) => [name, []]))
await Effect.runPromise(Effect.gen(function*() {
  // Warm-up: one of each, not counted.
  for (const [, layer] of spawners) yield* Effect.provide(sample, layer)
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? spawners : [...spawners].reverse()
    for (const [name, layer] of order) results.get(name)!.push(yield* Effect.provide(sample, layer))
  }
}))
Fs.rmSync(dir, { recursive: true, force: true })

const rows: ReadonlyArray<readonly [string, keyof Sample]> = [
  ["spawn → first line (ms)", "firstLineMs"],
  ["10,000 lines, burst: CPU (ms)", "burstCpuMs"],
  ["10,000 lines, burst: wall (ms)", "burstWallMs"],
  ["10,000 lines, round trips: CPU (ms)", "roundTripCpuMs"],
  ["10,000 lines, round trips: wall (ms)", "roundTripWallMs"],
  ["close, a CLI that exits at the end of stdin (ms)", "closeMs"],
  ["close, a CLI with a child in its group (ms)", "closeGroupMs"]
]
console.log(
  `node ${process.version}, ${rounds} rounds, median; load average ${Os.loadavg().map((n) => n.toFixed(1)).join(" ")}`
)
console.log("| case | Node | ChildProcess | ChildProcess / Node |")
console.log("| --- | ---: | ---: | ---: |")
for (const [label, key] of rows) {
  const node = median(results.get("Node")!.map((s) => s[key]))
  const child = median(results.get("ChildProcess")!.map((s) => s[key]))
  console.log(`| ${label} | ${node.toFixed(1)} | ${child.toFixed(1)} | ${(child / node).toFixed(2)} |`)
}
