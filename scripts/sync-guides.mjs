// Copies the marked regions of compiled source files into the code blocks of the guides, so that every
// code block of the markdown we ship (the README, docs/, each package's README and docs/) is code that
// `pnpm check` type-checks.
//
// In a guide, the line before a fenced code block names its source:
//
//   <!-- include: packages/examples/src/guides/hooks.ts#deny -->
//   ```ts
//   ...
//   ```
//
// In the source, the region is marked with `// #region deny` and `// #endregion`. Region markers nested
// inside a region are left out of the copy; the copy is dedented.
//
//   node scripts/sync-guides.mjs                  rewrite every markdown file we ship (see markdownFiles)
//   node scripts/sync-guides.mjs --check          exit 1, naming the blocks, when a guide is out of date
//   node scripts/sync-guides.mjs [--check] FILE…  only these markdown files
//   node scripts/sync-guides.mjs --list           print the markdown files, one a line
import * as Fs from "node:fs"
import * as Path from "node:path"
import process from "node:process"

const root = Path.resolve(import.meta.dirname, "..")

const marker = /^<!-- include: (\S+?)#([\w-]+) -->\s*$/
const regionStart = /^\s*\/\/ #region\s+([\w-]+)\s*$/
const regionEnd = /^\s*\/\/ #endregion\b/

const languages = { ".ts": "ts", ".mts": "ts", ".mjs": "js", ".js": "js", ".json": "json", ".sh": "sh" }

/** The lines of `region` in `source`, dedented; throws when the region is missing or unterminated. */
const extractRegion = (source, region, label) => {
  const lines = source.split("\n")
  const start = lines.findIndex((line) => regionStart.exec(line)?.[1] === region)
  if (start === -1) throw new Error(`${label}: no "// #region ${region}"`)
  const body = []
  let depth = 0
  for (const line of lines.slice(start + 1)) {
    if (regionStart.test(line)) {
      depth++
      continue
    }
    if (regionEnd.test(line)) {
      if (depth === 0) {
        const indents = body.filter((l) => l.trim().length > 0).map((l) => /^ */.exec(l)[0].length)
        const cut = indents.length === 0 ? 0 : Math.min(...indents)
        const trimmed = body.map((l) => l.slice(cut).trimEnd())
        while (trimmed.length > 0 && trimmed[0] === "") trimmed.shift()
        while (trimmed.length > 0 && trimmed[trimmed.length - 1] === "") trimmed.pop()
        return trimmed
      }
      depth--
      continue
    }
    body.push(line)
  }
  throw new Error(`${label}: "// #region ${region}" has no "// #endregion"`)
}

/** The markdown with every included block brought up to date, and the blocks that were stale. */
const syncMarkdown = (markdown, file) => {
  const lines = markdown.split("\n")
  const out = []
  const stale = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    out.push(line)
    const match = marker.exec(line)
    if (match === null) continue
    const [, sourcePath, region] = match
    const label = `${file}:${i + 1} (${sourcePath}#${region})`
    const absolute = Path.resolve(root, sourcePath)
    if (!Fs.existsSync(absolute)) throw new Error(`${label}: ${sourcePath} does not exist`)
    const code = extractRegion(Fs.readFileSync(absolute, "utf8"), region, label)
    const language = languages[Path.extname(sourcePath)] ?? ""
    const block = ["```" + language, ...code, "```"]
    // the existing block, if the next line opens one
    let existing = []
    if (lines[i + 1]?.startsWith("```")) {
      const close = lines.findIndex((l, j) => j > i + 1 && l.startsWith("```"))
      if (close === -1) throw new Error(`${label}: the code block is not closed`)
      existing = lines.slice(i + 1, close + 1)
      i = close
    }
    if (existing.join("\n") !== block.join("\n")) stale.push(label)
    out.push(...block)
  }
  return { text: out.join("\n"), stale }
}

const markdownIn = (dir) =>
  Fs.existsSync(Path.join(root, dir))
    ? Fs.readdirSync(Path.join(root, dir)).filter((name) => name.endsWith(".md")).sort().map((name) => `${dir}/${name}`)
    : []

/** The markdown files we ship: README.md, docs/*.md, and each package's README.md and docs/*.md. */
const markdownFiles = () => [
  "README.md",
  ...markdownIn("docs"),
  ...Fs.readdirSync(Path.join(root, "packages")).sort().flatMap((pkg) => [
    ...(Fs.existsSync(Path.join(root, "packages", pkg, "README.md")) ? [`packages/${pkg}/README.md`] : []),
    ...markdownIn(`packages/${pkg}/docs`)
  ])
]

const main = () => {
  const args = process.argv.slice(2)
  if (args.includes("--list")) {
    process.stdout.write(markdownFiles().map((file) => `${file}\n`).join(""))
    return
  }
  const check = args.includes("--check")
  const given = args.filter((arg) => !arg.startsWith("--"))
  const files = given.length > 0 ? given : markdownFiles()
  const allStale = []
  for (const file of files) {
    const absolute = Path.resolve(root, file)
    const markdown = Fs.readFileSync(absolute, "utf8")
    const { stale, text } = syncMarkdown(markdown, file)
    allStale.push(...stale)
    if (!check && text !== markdown) {
      Fs.writeFileSync(absolute, text)
      process.stdout.write(`updated ${file}\n`)
    }
  }
  if (check && allStale.length > 0) {
    process.stderr.write(
      `These code blocks differ from their source (run \`node scripts/sync-guides.mjs\`):\n` +
        allStale.map((label) => `  ${label}\n`).join("")
    )
    process.exitCode = 1
  }
}

try {
  main()
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
}
