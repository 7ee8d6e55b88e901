/**
 * The guides cannot rot: every TypeScript block in docs/ and the README is a
 * region of a file that `pnpm check` compiles, copied by
 * scripts/sync-guides.mjs, and this suite fails when a copy differs.
 */
import { assert, describe, it } from "@effect/vitest"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

const root = Path.resolve(import.meta.dirname, "../../..")
const guides = Fs.readdirSync(Path.join(root, "docs")).filter((name) => name.endsWith(".md"))
const markdownFiles = [...guides.map((name) => `docs/${name}`), "README.md"]

const sync = (...args: Array<string>) =>
  ChildProcess.spawnSync(process.execPath, ["scripts/sync-guides.mjs", ...args], { cwd: root, encoding: "utf8" })

describe("guides", () => {
  it("every included code block equals its source region (run `node scripts/sync-guides.mjs` to fix)", () => {
    const result = sync("--check")
    assert.strictEqual(result.status, 0, result.stderr)
  })

  it("every TypeScript code block is included from a compiled file", () => {
    for (const file of markdownFiles) {
      const lines = Fs.readFileSync(Path.join(root, file), "utf8").split("\n")
      let inBlock = false
      lines.forEach((line, index) => {
        if (!line.startsWith("```")) return
        if (!inBlock && /^```(ts|typescript|tsx)\s*$/.test(line)) {
          assert.match(lines[index - 1] ?? "", /^<!-- include: \S+#[\w-]+ -->$/, `${file}:${index + 1}`)
        }
        inBlock = !inBlock
      })
    }
  })

  it("the check fails on a block that differs from its source, and names it", () => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "guides-test-"))
    try {
      const stale = Path.join(dir, "stale.md")
      Fs.writeFileSync(
        stale,
        "# A guide\n\n<!-- include: packages/examples/src/guides/hooks.ts#deny -->\n```ts\nconst old = 1\n```\n"
      )
      const result = sync("--check", stale)
      assert.strictEqual(result.status, 1)
      assert.include(result.stderr, "hooks.ts#deny")
      // and the sync repairs it
      assert.strictEqual(sync(stale).status, 0)
      assert.include(Fs.readFileSync(stale, "utf8"), "HookLayer.preToolUse")
      assert.strictEqual(sync("--check", stale).status, 0)
    } finally {
      Fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("a marker naming a missing region is an error", () => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "guides-test-"))
    try {
      const broken = Path.join(dir, "broken.md")
      Fs.writeFileSync(broken, "<!-- include: packages/examples/src/guides/hooks.ts#nope -->\n```ts\n```\n")
      const result = sync("--check", broken)
      assert.strictEqual(result.status, 1)
      assert.include(result.stderr, "no \"// #region nope\"")
    } finally {
      Fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("the README's reading list links every guide", () => {
    const readme = Fs.readFileSync(Path.join(root, "README.md"), "utf8")
    for (const guide of guides) assert.include(readme, `](docs/${guide})`, guide)
  })
})
