/**
 * Smoke test of `pnpm bench`: the quick mode of every job for all four
 * columns (ours on effect 4, ours on effect 3 from the baseline commit's own
 * tree and worker, the official SDK, raw), end to end through main.ts, the
 * worker bundles, the scripted model and the real CLI: first the two cheap
 * rows (cold start and decode replay) with the import cost and the stream
 * consumer lines (both effect versions), then every other row, the decode
 * benchmark and the command-hook start-up. It checks that every job ran and
 * measured something, not how fast.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { EFFECT3_BASELINE } from "../src/effect3.js"

const benchDir = Path.dirname(Path.dirname(fileURLToPath(import.meta.url)))

// The effect-3 column is the last effect-3 commit's tree (a shallow clone fetches that one commit from its origin).
const effect3 = process.env.BENCH_EFFECT3_BASELINE ?? EFFECT3_BASELINE

const runBench = (args: ReadonlyArray<string>): Promise<{ readonly code: number | null; readonly stderr: string }> =>
  new Promise((resolve) => {
    const main = Path.join(benchDir, "src", "main.ts")
    const child = spawn(process.execPath, ["--import", "tsx", main, ...args, "--effect3", effect3], {
      cwd: benchDir,
      stdio: ["ignore", "ignore", "pipe"]
    })
    let stderr = ""
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.on("close", (code) => resolve({ code, stderr }))
  })

describe("pnpm bench --quick", () => {
  it(
    "runs cold start (with the import cost), decode replay and the stream consumers for ours on effect 4 and 3, official and raw",
    async () => {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "bench-smoke-"))
      const json = Path.join(dir, "results.json")
      try {
        const { code, stderr } = await runBench(["--quick", "--only", "1,4,consumer", "--no-write", "--json", json])
        assert.strictEqual(code, 0, stderr)
        const { failed, lines, outcomes } = JSON.parse(Fs.readFileSync(json, "utf8")) as {
          outcomes: Record<string, ReadonlyArray<{ sdk: string; error?: string; result?: any; worker?: string }>>
          lines: ReadonlyArray<{ label: string; values: Record<string, number> }>
          failed: ReadonlyArray<string>
        }
        // A measurement that failed is a "failed:" line of the report, not a missing row.
        assert.deepStrictEqual(failed, [])
        const imports = lines.filter((line) => line.label.startsWith("import in a fresh process"))
        assert.strictEqual(imports.length, 3)
        for (const line of imports) {
          assert.isAbove(line.values.ours, 0, line.label)
          assert.isAbove(line.values.ours3, 0, line.label)
          assert.isAbove(line.values.official, 0, line.label)
        }
        const consumers = lines.filter((line) => line.label.startsWith("stream consumer"))
        // Two stream shapes, first 300 and warm; effect 4.1 in the ours column, effect 3.22 in ours3.
        assert.strictEqual(consumers.length, 4)
        for (const line of consumers) {
          for (const column of ["ours", "ours3", "official", "raw"]) assert.isAbove(line.values[column], 0, line.label)
        }
        for (const key of ["cold", "replay"]) {
          const list = outcomes[key]
          assert.deepStrictEqual(list.map((o) => o.sdk).sort(), ["official", "ours", "ours3", "raw"], key)
          for (const outcome of list) {
            assert.isUndefined(outcome.error, `${key}/${outcome.sdk}: ${outcome.error}`)
            assert.isAbove(outcome.result.maxRssMb, 0)
          }
        }
        for (const outcome of outcomes.cold) {
          assert.isAbove(outcome.result.metrics.result, outcome.result.metrics.init, outcome.sdk)
        }
        // ours3 ran the effect-3 baseline's own worker, from its extracted tree; the others this package's.
        const workerOf = (sdk: string) => outcomes.cold.find((o) => o.sdk === sdk)!.worker!
        assert.match(
          workerOf("ours3"),
          /claude-effect-bench-effect3-[0-9a-f]{12}\/packages\/bench\/build\/worker-shipped\/worker\.js$/
        )
        for (const sdk of ["ours", "official", "raw"]) {
          assert.strictEqual(workerOf(sdk), Path.join(benchDir, "build", "worker-shipped", "worker.js"), sdk)
        }
        for (const outcome of outcomes.replay) {
          assert.strictEqual(outcome.result.metrics.lines, 20_000, outcome.sdk)
          assert.isAbove(outcome.result.metrics.delivered, 0, outcome.sdk)
          assert.isAbove(outcome.result.metrics.rate, 0, outcome.sdk)
        }
      } finally {
        Fs.rmSync(dir, { recursive: true, force: true })
      }
    },
    300_000
  )

  it(
    "runs every other job (rows 2, 3, 5-8, decode, command hooks) for ours on effect 4 and 3, official and raw",
    async () => {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "bench-smoke-"))
      const json = Path.join(dir, "results.json")
      try {
        const { code, stderr } = await runBench([
          "--quick",
          "--only",
          "2,3,5,6,7,8,decode,hookcmd",
          "--no-write",
          "--json",
          json
        ])
        assert.strictEqual(code, 0, stderr)
        const { failed, hookCommand, lines, outcomes } = JSON.parse(Fs.readFileSync(json, "utf8")) as {
          outcomes: Record<string, ReadonlyArray<{ sdk: string; error?: string; result?: any; strays: number }>>
          lines: ReadonlyArray<
            { label: string; better: string; values: Record<string, number>; passes?: Record<string, [number, number]> }
          >
          hookCommand: Record<"ours" | "ours3", { variants: ReadonlyArray<{ variant: string; median: number }> }>
          failed: ReadonlyArray<string>
        }
        assert.deepStrictEqual(failed, [])
        const keys = Object.keys(outcomes)
        for (
          const key of ["hooks", "pingpong", "probe", "partial", "large-tool", "large-input", "stop-session", "claim"]
        ) {
          assert.include(keys, key)
        }
        assert.isTrue(keys.some((key) => key.startsWith("concurrency-")), keys.join(", "))
        for (const [key, list] of Object.entries(outcomes)) {
          // Every spec runs ours on both runtimes; only ours runs the ours-only specs (probe, stream variants).
          const sdks = list.map((o) => o.sdk).sort()
          assert.includeMembers(sdks, ["ours", "ours3"], key)
          for (const outcome of list) {
            assert.isUndefined(outcome.error, `${key}/${outcome.sdk}: ${outcome.error}`)
            assert.isAbove(outcome.result.maxRssMb, 0, `${key}/${outcome.sdk}`)
          }
        }
        for (const key of ["hooks", "partial", "large-tool", "claim"]) {
          assert.deepStrictEqual(outcomes[key].map((o) => o.sdk).sort(), ["official", "ours", "ours3", "raw"], key)
        }
        // The pass/fail lines (10 MB Write intact, prompt echoed, every turn's result, the stop scenarios' tool seen).
        for (const line of lines.filter((line) => line.better === "check")) {
          for (const sdk of ["ours", "ours3", "official", "raw"]) {
            const [passed, total] = line.passes?.[sdk] ?? [0, 0]
            assert.isAbove(total, 0, `${line.label} / ${sdk}`)
            assert.strictEqual(passed, total, `${line.label} / ${sdk}`)
          }
        }
        const decode = lines.find((line) => line.label.startsWith("decodeStdoutLine vs JSON.parse"))
        assert.isDefined(decode)
        for (const column of ["ours", "ours3", "raw"]) assert.isAbove(decode!.values[column], 0, column)
        for (const column of ["ours", "ours3"] as const) {
          const bundle = hookCommand[column].variants.find((v) => v.variant === "bundle")
          assert.isAbove(bundle?.median ?? 0, 0, column)
        }
      } finally {
        Fs.rmSync(dir, { recursive: true, force: true })
      }
    },
    1_500_000
  )
})
