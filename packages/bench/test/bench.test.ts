/**
 * Smoke test of `pnpm bench`: the quick mode of two cheap rows (cold start and
 * decode replay) for all three drivers, end to end through main.ts, the worker
 * bundle, the scripted model and the real CLI, and the stream consumer lines
 * (both effect versions). It checks that every job ran and measured
 * something, not how fast.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const benchDir = Path.dirname(Path.dirname(fileURLToPath(import.meta.url)))

const runBench = (args: ReadonlyArray<string>): Promise<{ readonly code: number | null; readonly stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", Path.join(benchDir, "src", "main.ts"), ...args], {
      cwd: benchDir,
      stdio: ["ignore", "ignore", "pipe"]
    })
    let stderr = ""
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.on("close", (code) => resolve({ code, stderr }))
  })

describe("pnpm bench --quick", () => {
  it(
    "runs cold start (with the import cost), decode replay and the stream consumers for ours, official and raw",
    async () => {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "bench-smoke-"))
      const json = Path.join(dir, "results.json")
      try {
        const { code, stderr } = await runBench(["--quick", "--only", "1,4,consumer", "--no-write", "--json", json])
        assert.strictEqual(code, 0, stderr)
        const { lines, outcomes } = JSON.parse(Fs.readFileSync(json, "utf8")) as {
          outcomes: Record<string, ReadonlyArray<{ sdk: string; error?: string; result?: any }>>
          lines: ReadonlyArray<{ label: string; values: Record<string, number> }>
        }
        const imports = lines.filter((line) => line.label.startsWith("import in a fresh process"))
        assert.strictEqual(imports.length, 3)
        for (const line of imports) {
          assert.isAbove(line.values.ours, 0, line.label)
          assert.isAbove(line.values.official, 0, line.label)
        }
        const consumers = lines.filter((line) => line.label.startsWith("stream consumer"))
        assert.strictEqual(consumers.length, 6)
        for (const line of consumers) {
          for (const column of ["ours", "official", "raw"]) assert.isAbove(line.values[column], 0, line.label)
        }
        for (const key of ["cold", "replay"]) {
          const list = outcomes[key]
          assert.deepStrictEqual(list.map((o) => o.sdk).sort(), ["official", "ours", "raw"], key)
          for (const outcome of list) {
            assert.isUndefined(outcome.error, `${key}/${outcome.sdk}: ${outcome.error}`)
            assert.isAbove(outcome.result.maxRssMb, 0)
          }
        }
        for (const outcome of outcomes.cold) {
          assert.isAbove(outcome.result.metrics.result, outcome.result.metrics.init, outcome.sdk)
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
    120_000
  )
})
