/**
 * The programs people start by hand, started the same way: the demo (what
 * `pnpm demo` runs) and an example, as child processes under tsx.
 */
import { assert, describe, it } from "@effect/vitest"
import * as ChildProcess from "node:child_process"
import * as Path from "node:path"

const packageDir = Path.resolve(import.meta.dirname, "..")
const tsx = Path.join(packageDir, "node_modules", ".bin", "tsx")

const run = (args: ReadonlyArray<string>, env: Record<string, string | undefined>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = ChildProcess.spawn(tsx, args, { cwd: packageDir, env: { ...process.env, ...env } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => void (stdout += chunk))
    child.stderr.on("data", (chunk) => void (stderr += chunk))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

describe("entry points", () => {
  it("the demo runs to completion offline and prints plain text when piped", async () => {
    const { code, stderr, stdout } = await run(["src/demo.ts"], { ANTHROPIC_API_KEY: "", NO_COLOR: "1" })
    assert.strictEqual(code, 0, stderr)
    assert.notInclude(stdout, "\x1b[")
    assert.include(stdout, "scripted model on http://127.0.0.1:")
    assert.include(stdout, "✖ guard · PreToolUse  denied")
    assert.match(stdout, /result +✔ success/)
  }, 90_000)

  it("an example runs to completion offline", async () => {
    const { code, stderr, stdout } = await run(["src/examples/query.ts"], { ANTHROPIC_API_KEY: "" })
    assert.strictEqual(code, 0, stderr)
    assert.include(stdout, "claude: Effect is a TypeScript library")
  }, 90_000)
})
