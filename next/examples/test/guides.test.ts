/**
 * The guides cannot rot (the port's half of packages/examples/test/guides.test.ts).
 * Until the flip, docs/ and the READMEs show the effect-3 code of
 * packages/examples: this suite syncs a copy of each from this tree's
 * sources, as scripts/sync-guides.mjs will at the flip, and fails when a
 * region a guide includes is missing here, when a block of next/docs differs
 * from its source, when a TypeScript block is not included from a compiled
 * file, and when a guide source is neither run by a test nor listed as
 * compile-only. The checks that read the synced markdown in place (compiling
 * each guide on its own, the install lines and their peers) come with the flip.
 */
import { assert, describe, it } from "@effect/vitest"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

const root = Path.resolve(import.meta.dirname, "../../..")
/** This package, as the markers name it after the flip, and where it is until then. */
const published = "packages/examples/"
const here = Path.relative(root, Path.resolve(import.meta.dirname, "..")) + "/"

const sync = (...args: Array<string>) =>
  ChildProcess.spawnSync(process.execPath, ["scripts/sync-guides.mjs", ...args], { cwd: root, encoding: "utf8" })

/** The markdown files we ship, as the sync script lists them, and this tree's own docs (docs/ after the flip). */
const markdownFiles = sync("--list").stdout.trim().split("\n")
const guides = Fs.readdirSync(Path.join(root, "docs")).filter((name) => name.endsWith(".md"))
const nextDocs = Fs.readdirSync(Path.join(root, "next/docs")).filter((name) => name.endsWith(".md"))
  .map((name) => `next/docs/${name}`)

/**
 * Regions not ported yet, their markers left naming the effect-3 file: docs/effect-ai.md's Anthropic pairing
 * (no `@effect/ai-anthropic` loads on effect 4.1.5).
 */
const waiting: ReadonlyArray<string> = [`${published}src/guides/effect-ai.ts#anthropic`]

interface Block {
  readonly line: number
  readonly language: string
  readonly include?: { readonly source: string; readonly region: string } | undefined
}

const blocksOf = (file: string): ReadonlyArray<Block> => {
  const lines = Fs.readFileSync(Path.join(root, file), "utf8").split("\n")
  const blocks: Array<Block> = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!)
    if (open === null) continue
    const close = lines.findIndex((line, j) => j > i && line.startsWith("```"))
    const marker = /^<!-- include: (\S+?)#([\w-]+) -->$/.exec(lines[i - 1] ?? "")
    blocks.push({
      line: i + 1,
      language: open[1]!,
      include: marker === null ? undefined : { source: marker[1]!, region: marker[2]! }
    })
    i = close
  }
  return blocks
}

const isTypeScript = (block: Block) => ["ts", "typescript", "tsx"].includes(block.language)

/** A copy of `file` in `dir` whose markers name this tree's sources (except the waiting ones). */
const copyOnThisTree = (file: string, dir: string): string => {
  const copy = Path.join(dir, file.replaceAll("/", "__"))
  const text = Fs.readFileSync(Path.join(root, file), "utf8").replace(
    /^<!-- include: (\S+?)#([\w-]+) -->$/gm,
    (marker, source: string, region: string) =>
      source.startsWith(published) && !waiting.includes(`${source}#${region}`)
        ? `<!-- include: ${here}${source.slice(published.length)}#${region} -->`
        : marker
  )
  Fs.writeFileSync(copy, text)
  return copy
}

const inTempDir = <A>(f: (dir: string) => A): A => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "guides-test-"))
  try {
    return f(dir)
  } finally {
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Guide sources no test runs, and why. Every other source a guide includes is a test itself
 * (`*.test.ts`) or is run by a test of this package (named in it).
 */
const compileOnly: Readonly<Record<string, string>> = {
  "packages/examples/src/guides/testkit-readme-properties.ts": "two properties the README shows failing for a naive " +
    "guard; packages/testkit/test/GuardPolicy.test.ts runs them against a complete one",
  "packages/examples/src/guides/cluster.ts": "runner and client layers at fixed addresses (10.0.0.5) and paths " +
    "(/var/lib/agents); the cluster example test runs the same layers on 127.0.0.1",
  "packages/examples/src/guides/session-store.ts":
    "its layers name a file in the working directory and DATABASE_URL; " +
    "the sql package's tests run the same store on SQLite and PostgreSQL"
}

/** The text of every test file of this package. */
const testSources = () => {
  const dir = Path.join(root, here, "test")
  return (Fs.readdirSync(dir, { recursive: true }) as Array<string>).filter((name) => name.endsWith(".test.ts"))
    .map((name) => Fs.readFileSync(Path.join(dir, name), "utf8")).join("\n")
}

describe("guides", () => {
  it("every region the markdown we ship includes exists in this tree (the markdown synced from it)", () => {
    inTempDir((dir) => {
      for (const file of markdownFiles) {
        const result = sync(copyOnThisTree(file, dir))
        assert.strictEqual(result.status, 0, `${file}: ${result.stderr}`)
      }
    })
  })

  it("every included code block of next/docs equals its source region (run sync-guides on it to fix)", () => {
    assert.includeMembers(nextDocs, ["next/docs/migrating-from-effect-3.md"])
    inTempDir((dir) => {
      for (const file of nextDocs) {
        const result = sync("--check", copyOnThisTree(file, dir))
        assert.strictEqual(result.status, 0, `${file}: ${result.stderr}`)
      }
    })
  })

  it("the markdown we ship: the README, docs/, every package's README and docs/", () => {
    assert.includeMembers(markdownFiles, [
      "README.md",
      ...guides.map((guide) => `docs/${guide}`),
      "packages/sdk/README.md",
      "packages/sdk/docs/command-hooks.md",
      "packages/testkit/README.md",
      "packages/ai/README.md",
      "packages/sql/README.md",
      "packages/cluster/README.md"
    ])
  })

  it("every TypeScript code block is included from a compiled file", () => {
    for (const file of [...markdownFiles, ...nextDocs]) {
      for (const block of blocksOf(file).filter(isTypeScript)) {
        assert.isDefined(block.include, `${file}:${block.line} is not included from a compiled file`)
      }
    }
  })

  it("every guide source is run by a test, or says why not", () => {
    const tests = testSources()
    const sources = new Set(
      [...markdownFiles, ...nextDocs].flatMap((file) => blocksOf(file).flatMap((block) => block.include?.source ?? []))
    )
    for (const source of sources) {
      if (source.endsWith(".test.ts") || compileOnly[source] !== undefined) continue
      if (source.startsWith(`${published}src/`)) {
        // imported (guides/x.js), or run as a file (src/guides/x.ts)
        const module = source.slice(`${published}src/`.length).replace(/\.ts$/, "")
        assert.match(
          tests,
          new RegExp(`${module.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(js|ts)\\b`),
          `${source}: no test of ${here}test runs it`
        )
      }
    }
  })

  it("the check fails on a block that differs from its source, and names it", () => {
    inTempDir((dir) => {
      const stale = Path.join(dir, "stale.md")
      Fs.writeFileSync(
        stale,
        `# A guide\n\n<!-- include: ${here}src/guides/hooks.ts#deny -->\n\`\`\`ts\nconst old = 1\n\`\`\`\n`
      )
      const result = sync("--check", stale)
      assert.strictEqual(result.status, 1)
      assert.include(result.stderr, "hooks.ts#deny")
      // and the sync repairs it
      assert.strictEqual(sync(stale).status, 0)
      assert.include(Fs.readFileSync(stale, "utf8"), "HookLayer.preToolUse")
      assert.strictEqual(sync("--check", stale).status, 0)
    })
  })

  it("the README's reading list links every guide", () => {
    const readme = Fs.readFileSync(Path.join(root, "README.md"), "utf8")
    for (const guide of guides) assert.include(readme, `](docs/${guide})`, guide)
  })

  it("a marker naming a missing region is an error", () => {
    inTempDir((dir) => {
      const broken = Path.join(dir, "broken.md")
      Fs.writeFileSync(broken, `<!-- include: ${here}src/guides/hooks.ts#nope -->\n\`\`\`ts\n\`\`\`\n`)
      const result = sync("--check", broken)
      assert.strictEqual(result.status, 1)
      assert.include(result.stderr, "no \"// #region nope\"")
    })
  })
})
