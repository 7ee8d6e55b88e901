/**
 * The guides cannot rot. Every TypeScript block of the markdown we ship (the
 * README, docs/, each package's README and docs/) is a region of a file that
 * `pnpm check` compiles, copied in place by scripts/sync-guides.mjs; this
 * suite fails when a region a guide includes is missing, when a copy differs,
 * when a TypeScript block is not included from a compiled file, when what a
 * guide shows does not compile on its own, when a guide's source is neither
 * run by a test nor listed below as compile-only, and when the README's
 * reading list misses a guide. The install lines and their peers are checked
 * in the last block.
 */
import { assert, describe, it } from "@effect/vitest"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import ts from "typescript"

const root = Path.resolve(import.meta.dirname, "../../..")

const sync = (...args: Array<string>) =>
  ChildProcess.spawnSync(process.execPath, ["scripts/sync-guides.mjs", ...args], { cwd: root, encoding: "utf8" })

/** The markdown files we ship, as the sync script lists them. */
const markdownFiles = sync("--list").stdout.trim().split("\n")
const guides = Fs.readdirSync(Path.join(root, "docs")).filter((name) => name.endsWith(".md"))
const readme = Fs.readFileSync(Path.join(root, "README.md"), "utf8")

interface Block {
  readonly file: string
  /** 1-based line of the opening fence. */
  readonly line: number
  readonly language: string
  readonly include?: { readonly source: string; readonly region: string } | undefined
  readonly code: string
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
      file,
      line: i + 1,
      language: open[1]!,
      include: marker === null ? undefined : { source: marker[1]!, region: marker[2]! },
      code: lines.slice(i + 1, close).join("\n")
    })
    i = close
  }
  return blocks
}

const isTypeScript = (block: Block) => ["ts", "typescript", "tsx"].includes(block.language)

/** Whether `source` (a path from the root) has a `// #region name` line. */
const hasRegion = (source: string, region: string): boolean => {
  const path = Path.join(root, source)
  return Fs.existsSync(path) &&
    Fs.readFileSync(path, "utf8").split("\n").some((line) => new RegExp(`^\\s*// #region\\s+${region}\\s*$`).test(line))
}

const inTempDir = <A>(f: (dir: string) => A): A => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "guides-test-"))
  try {
    return f(dir)
  } finally {
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}

// -------------------------------------------------------------------------------------------------
// What a guide shows, as one module
// -------------------------------------------------------------------------------------------------

/** Blocks shown as a line of a larger program the text describes, and left out of the compile check. */
const fragments: Readonly<Record<string, string>> = {
  "packages/sdk/test/fixtures/hook-command-program.ts#platform":
    "the hook program of the block before, in its platform variant; lockGuard stands for any layer that needs FileSystem"
}

/**
 * Blocks a guide shows as an excerpt of another guide (`file source#region`), out of the context they compile in
 * there, and left out of this guide's compile check: the guide that shows them whole compiles them.
 */
const excerpts: Readonly<Record<string, string>> = {
  "docs/migrating-from-effect-3.md packages/examples/src/guides/effect-ai.ts#errors":
    "effect/ai's one AiError with a reason, as docs/effect-ai.md handles it (its model and prompt defined there)",
  "docs/migrating-from-effect-3.md packages/examples/src/guides/testing.test.ts#property":
    "a property on effect's Arbitrary, as docs/testing.md runs it (its imports and policy defined there)"
}

/**
 * The TypeScript blocks of a guide as one module: their imports merged (the same name from the same
 * module once), every other statement as it is, each block headed by a comment naming where it is.
 */
const shownModule = (file: string): string | undefined => {
  const shown = blocksOf(file).filter(isTypeScript)
  if (shown.length === 0) return undefined
  // each source's regions in the source's order (what compiles there compiles here), sources as they first appear
  const sources = [...new Set(shown.map((block) => block.include?.source ?? file))]
  const position = (block: Block) =>
    block.include === undefined
      ? block.line
      : Fs.readFileSync(Path.join(root, block.include.source), "utf8").split("\n")
        .findIndex((line) => new RegExp(`^\\s*// #region\\s+${block.include!.region}\\s*$`).test(line))
  const blocks = sources.flatMap((source) =>
    shown.filter((block) => (block.include?.source ?? file) === source).sort((a, b) => position(a) - position(b))
  )
  const imports = new Map<string, { named: Set<string>; namespaces: Set<string>; defaults: Set<string> }>()
  const body: Array<string> = []
  const seen = new Set<string>()
  for (const block of blocks) {
    const key = block.include === undefined ? `${block.line}` : `${block.include.source}#${block.include.region}`
    if (seen.has(key) || fragments[key] !== undefined || excerpts[`${file} ${key}`] !== undefined) continue
    seen.add(key)
    body.push(`// ${file}:${block.line} (${key})`)
    const source = ts.createSourceFile("block.ts", block.code, ts.ScriptTarget.Latest, true)
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || statement.importClause === undefined) {
        body.push(statement.getFullText(source).replace(/^\n+/, ""))
        continue
      }
      const specifier = (statement.moduleSpecifier as ts.StringLiteral).text
      const entry = imports.get(specifier) ?? { named: new Set(), namespaces: new Set(), defaults: new Set() }
      imports.set(specifier, entry)
      const clause = statement.importClause
      const typeOnly = clause.isTypeOnly ? "type " : ""
      if (clause.name !== undefined) entry.defaults.add(clause.name.text)
      const bindings = clause.namedBindings
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) {
        entry.namespaces.add(`${typeOnly}* as ${bindings.name.text}`)
      }
      if (bindings !== undefined && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          const name = element.propertyName === undefined
            ? element.name.text
            : `${element.propertyName.text} as ${element.name.text}`
          entry.named.add(`${typeOnly || (element.isTypeOnly ? "type " : "")}${name}`)
        }
      }
    }
  }
  const importLines = [...imports].flatMap(([specifier, { defaults, named, namespaces }]) => {
    // a name imported as a value and as a type: the value import covers both
    const names = [...named].filter((name) => !(name.startsWith("type ") && named.has(name.slice(5))))
    return [
      ...[...defaults].map((name) => `import ${name} from "${specifier}"`),
      ...[...namespaces].map((ns) =>
        `import ${ns.startsWith("type ") ? `type ${ns.slice(5)}` : ns} from "${specifier}"`
      ),
      ...(names.length > 0 ? [`import { ${names.join(", ")} } from "${specifier}"`] : [])
    ]
  })
  return [...importLines, "", ...body, "export {}", ""].join("\n")
}

/** Type-checks the modules (virtual files in packages/examples/src) and returns their errors, by file. */
const typeCheck = (modules: ReadonlyMap<string, string>): Map<string, Array<string>> => {
  const config = ts.readConfigFile(Path.join(root, "tsconfig.base.json"), ts.sys.readFile).config
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root)
  const compilerOptions: ts.CompilerOptions = {
    ...options,
    noEmit: true,
    composite: false,
    incremental: false,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    // a guide may show a value it does not use again
    noUnusedLocals: false
  }
  delete compilerOptions.tsBuildInfoFile
  const host = ts.createCompilerHost(compilerOptions)
  const { fileExists, getSourceFile, readFile } = host
  host.fileExists = (name) => modules.has(name) || fileExists(name)
  host.readFile = (name) => modules.get(name) ?? readFile(name)
  host.getSourceFile = (name, language, ...rest) => {
    const text = modules.get(name)
    return text !== undefined ? ts.createSourceFile(name, text, language, true) : getSourceFile(name, language, ...rest)
  }
  const program = ts.createProgram([...modules.keys()], compilerOptions, host)
  const errors = new Map<string, Array<string>>()
  for (const name of modules.keys()) {
    const sourceFile = program.getSourceFile(name)!
    const diagnostics = [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)]
    const lines = modules.get(name)!.split("\n")
    errors.set(
      name,
      diagnostics.map((diagnostic) => {
        const line = diagnostic.start === undefined
          ? 0
          : sourceFile.getLineAndCharacterOfPosition(diagnostic.start).line
        // the block it is in: the nearest heading comment above
        const heading = lines.slice(0, line + 1).reverse().find((l) => l.startsWith("// ") && l.includes(".md:"))
        return `${heading?.slice(3) ?? "imports"}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`
      })
    )
  }
  return errors
}

// -------------------------------------------------------------------------------------------------
// Which guide sources run
// -------------------------------------------------------------------------------------------------

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
  const dir = Path.join(root, "packages/examples/test")
  return (Fs.readdirSync(dir, { recursive: true }) as Array<string>).filter((name) => name.endsWith(".test.ts"))
    .map((name) => Fs.readFileSync(Path.join(dir, name), "utf8")).join("\n")
}

describe("guides", () => {
  it("the markdown we ship: the README, docs/ (the migration guide too), every package's README and docs/", () => {
    assert.includeMembers(guides, ["migrating-from-effect-3.md"])
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

  it("every region the markdown we ship includes exists", () => {
    const included = markdownFiles.flatMap((file) =>
      blocksOf(file).flatMap((block) => block.include === undefined ? [] : [{ file, block, ...block.include }])
    )
    assert.isAbove(included.length, 100)
    const missing = included.filter(({ region, source }) => !hasRegion(source, region))
      .map(({ block, file, region, source }) => `${file}:${block.line}: ${source}#${region}`)
    assert.deepStrictEqual(missing, [])
  })

  it("every included code block equals its source region (run `node scripts/sync-guides.mjs` to fix)", () => {
    const result = sync("--check")
    assert.strictEqual(result.status, 0, result.stderr)
  })

  it("every TypeScript code block is included from a compiled file", () => {
    for (const file of markdownFiles) {
      for (const block of blocksOf(file).filter(isTypeScript)) {
        assert.isDefined(block.include, `${file}:${block.line} is not included from a compiled file`)
      }
    }
  })

  it(
    "what each guide shows compiles on its own: everything a block uses is imported or defined in a block shown",
    () => {
      const modules = new Map<string, string>()
      for (const file of markdownFiles) {
        const module = shownModule(file)
        if (module !== undefined) {
          modules.set(Path.join(root, "packages/examples/src", `__shown__${file.replace(/[/.]/g, "_")}.ts`), module)
        }
      }
      assert.isAbove(modules.size, 15)
      const failures = [...typeCheck(modules)].flatMap(([, errors]) => errors)
      assert.deepStrictEqual(failures, [])
    },
    180_000
  )

  it("a block shown as an excerpt of another guide is shown whole there (where it compiles)", () => {
    for (const excerpt of Object.keys(excerpts)) {
      const [file, key] = excerpt.split(" ") as [string, string]
      const shownIn = (guide: string) =>
        blocksOf(guide).some((block) =>
          block.include !== undefined && `${block.include.source}#${block.include.region}` === key
        )
      assert.isTrue(shownIn(file), `${file} shows ${key}`)
      assert.isTrue(markdownFiles.some((other) => other !== file && shownIn(other)), `${key}: no other guide shows it`)
    }
  })

  it("a block that uses what no shown block defines does not compile on its own", () => {
    const dir = Path.join(root, "packages/examples/src")
    const module =
      "import { Effect } from \"effect\"\nconst program = Effect.provide(Effect.void, OrdersLive)\nexport {}\n"
    const errors = typeCheck(new Map([[Path.join(dir, "__shown__probe.ts"), module]]))
    assert.match(errors.get(Path.join(dir, "__shown__probe.ts"))!.join("\n"), /Cannot find name 'OrdersLive'/)
  }, 120_000)

  it("every guide source is run by a test, or says why not", () => {
    const tests = testSources()
    const sources = new Set(
      markdownFiles.flatMap((file) => blocksOf(file).flatMap((block) => block.include?.source ?? []))
    )
    for (const source of sources) {
      if (source.endsWith(".test.ts") || compileOnly[source] !== undefined) continue
      if (source.startsWith("packages/examples/src/")) {
        // imported (guides/x.js), or run as a file (src/guides/x.ts)
        const module = source.slice("packages/examples/src/".length).replace(/\.ts$/, "")
        assert.match(
          tests,
          new RegExp(`${module.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(js|ts)\\b`),
          `${source}: no test of packages/examples/test runs it`
        )
      }
    }
  })

  it("the check fails on a block that differs from its source, and names it", () => {
    inTempDir((dir) => {
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
    })
  })

  it("a marker naming a missing region is an error", () => {
    inTempDir((dir) => {
      const broken = Path.join(dir, "broken.md")
      Fs.writeFileSync(broken, "<!-- include: packages/examples/src/guides/hooks.ts#nope -->\n```ts\n```\n")
      const result = sync("--check", broken)
      assert.strictEqual(result.status, 1)
      assert.include(result.stderr, "no \"// #region nope\"")
    })
  })

  it("the README's reading list links every guide", () => {
    const start = readme.indexOf("\n## Read next")
    assert.notStrictEqual(start, -1, "README.md has a \"## Read next\" section")
    const end = readme.indexOf("\n## ", start + 1)
    const readNext = readme.slice(start, end === -1 ? undefined : end)
    for (const guide of guides) assert.include(readNext, `](docs/${guide})`, guide)
  })
})

// =================================================================================================
// Install lines and peer dependencies (checks and their helpers: this block only)
// =================================================================================================

describe("install lines", () => {
  const installRoot = Path.resolve(import.meta.dirname, "../../..")
  const read = (file: string) => Fs.readFileSync(Path.join(installRoot, file), "utf8")
  /** The markdown we ship, as the sync script lists it. */
  const shipped = ChildProcess.spawnSync(process.execPath, ["scripts/sync-guides.mjs", "--list"], {
    cwd: installRoot,
    encoding: "utf8"
  }).stdout.trim().split("\n")

  /** A package of an install line: its name, and the version range after `@`, if any. */
  interface Spec {
    readonly name: string
    readonly range: string | undefined
  }

  /** The packages of each `npm install` line of the shell blocks in `text`. */
  const installSpecs = (text: string): ReadonlyArray<ReadonlyArray<Spec>> =>
    text.split(/^\s*```sh\s*$/m).slice(1).map((rest) => rest.split(/^\s*```\s*$/m)[0]!)
      .flatMap((block) => block.replace(/\\\n/g, " ").split("\n"))
      .map((line) => line.replace(/#.*$/, "").trim())
      .filter((line) => /^npm install\b/.test(line))
      .map((line) =>
        line.split(/\s+/).slice(2).filter((word) => !word.startsWith("-")).map((word) => {
          const at = word.indexOf("@", 1)
          return at === -1 ? { name: word, range: undefined } : { name: word.slice(0, at), range: word.slice(at + 1) }
        })
      )
  const show = (line: ReadonlyArray<Spec>) =>
    `"npm install ${line.map(({ name, range }) => range === undefined ? name : `${name}@${range}`).join(" ")}"`

  const readme = read("README.md")
  const installStart = readme.indexOf("\n## Install")
  const readmeLines = installSpecs(readme.slice(installStart, readme.indexOf("\n## ", installStart + 1)))
  const sdkLine = readmeLines.find((line) => line.some(({ name }) => name === "@claude-effect/sdk"))!

  const manifest = (name: string) => JSON.parse(read(`packages/${name.slice("@claude-effect/".length)}/package.json`))

  /**
   * The peer dependencies a package of ours needs (not the optional ones), with their ranges, and those of
   * the packages of ours it depends on. (Not the peers of Effect's packages: `@effect/platform-node` names
   * `redis` as a peer, which npm installs by itself and nobody lists.)
   */
  const peersOf = (name: string, out = new Map<string, string>(), visited = new Set<string>()) => {
    visited.add(name)
    const { dependencies = {}, peerDependencies = {}, peerDependenciesMeta = {} } = manifest(name)
    for (const [peer, range] of Object.entries<string>(peerDependencies)) {
      if (peerDependenciesMeta[peer]?.optional !== true) out.set(peer, range)
    }
    for (const ours of [...Object.keys(peerDependencies), ...Object.keys(dependencies)]) {
      if (ours.startsWith("@claude-effect/") && !visited.has(ours)) peersOf(ours, out, visited)
    }
    return out
  }

  /** Where `name` is installed in the workspace (the examples package depends on everything the guides use). */
  const installedVersion = (name: string): string | undefined => {
    for (const dir of ["packages/examples/node_modules", "packages/sdk/node_modules", "node_modules"]) {
      const file = Path.join(installRoot, dir, name, "package.json")
      if (Fs.existsSync(file)) return JSON.parse(Fs.readFileSync(file, "utf8")).version
    }
    return undefined
  }

  /** npm's meaning of the ranges the lines use: `4`, `4.1`, `~4.1.5`, `^4.1.5`, `4.1.5`. */
  const satisfies = (version: string, range: string): boolean => {
    const match = /^([~^]?)(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range)
    assert.isNotNull(match, `the range ${range} is not one this check reads: 4, 4.1, ~4.1.5, ^4.1.5 or 4.1.5`)
    const [, operator, ...parts] = match!
    const wanted = parts.filter((part) => part !== undefined).map(Number)
    const [major, minor, patch] = version.split(/[.-]/).map(Number)
    const have = [major!, minor!, patch!]
    const fixed = operator === "~" ? Math.min(wanted.length, 2) : operator === "^" ? 1 : wanted.length
    for (let i = 0; i < fixed; i++) if (have[i] !== wanted[i]) return false
    // at or above the rest (~4.1.5: 4.1.x with x >= 5)
    for (let i = fixed; i < wanted.length; i++) if (have[i] !== wanted[i]) return have[i]! > wanted[i]!
    return true
  }

  const shippedLines = () => shipped.flatMap((file) => installSpecs(read(file)).map((line) => [file, line] as const))

  it("the range check reads npm's ranges", () => {
    assert.isTrue(satisfies("4.1.5", "~4.1.5"))
    assert.isTrue(satisfies("4.1.9", "~4.1.5"))
    assert.isFalse(satisfies("4.1.4", "~4.1.5"))
    assert.isFalse(satisfies("4.2.0", "~4.1.5"))
    assert.isTrue(satisfies("5.1.2", "5"))
    assert.isFalse(satisfies("4.9.9", "5"))
    assert.isTrue(satisfies("4.3.0", "^4.1.5"))
    assert.isFalse(satisfies("3.22.0", "4.1"))
  })

  it("every package a guide imports is in an install line: the README's Install section or the guide's own", () => {
    for (const file of shipped) {
      const text = read(file)
      const named = new Set([...readmeLines, ...installSpecs(text)].flat().map(({ name }) => name))
      const lines = text.split("\n")
      lines.forEach((line, i) => {
        const open = /^```(ts|typescript|tsx)\s*$/.exec(line)
        if (open === null) return
        const close = lines.findIndex((l, j) => j > i && l.startsWith("```"))
        const source = ts.createSourceFile("block.ts", lines.slice(i + 1, close).join("\n"), ts.ScriptTarget.Latest)
        for (const statement of source.statements) {
          if (!ts.isImportDeclaration(statement)) continue
          const specifier = (statement.moduleSpecifier as ts.StringLiteral).text
          if (specifier.startsWith(".") || specifier.startsWith("node:")) continue
          const name = specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")
          assert.isTrue(named.has(name), `${file}:${i + 1} imports ${name}, which no install line adds`)
        }
      })
    }
  })

  it("every install line lists the peers of what it installs, at our manifests' ranges (with the README's SDK line)", () => {
    assert.includeMembers(sdkLine.map(({ name }) => name), ["@claude-effect/sdk", "effect", "@effect/platform-node"])
    const lines = shippedLines()
    assert.isAbove(lines.length, 6)
    for (const [file, line] of lines) {
      const listed = new Map([...sdkLine, ...line].map(({ name, range }) => [name, range]))
      for (const { name } of line.filter(({ name }) => name.startsWith("@claude-effect/"))) {
        for (const [peer, range] of peersOf(name)) {
          assert.isTrue(listed.has(peer), `${file}: ${show(line)} lacks ${peer}, a peer of ${name}`)
          // ours are installed together, at their latest; the others at the range our packages accept
          if (!range.startsWith("workspace:")) {
            assert.strictEqual(listed.get(peer), range, `${file}: ${show(line)} names ${peer}, a peer of ${name}`)
          }
        }
      }
    }
  })

  it("every Effect package of an install line names its version, the one that runs here (so does any we run)", () => {
    for (const [file, line] of shippedLines()) {
      for (const { name, range } of line) {
        const effects = name === "effect" || name.startsWith("@effect/") || name === "vitest"
        const version = installedVersion(name)
        if (!effects && (range === undefined || version === undefined)) continue
        assert.isDefined(range, `${file}: ${name} has no version: npm would install its latest`)
        assert.isDefined(
          version,
          `${file}: ${show(line)} names ${name}, which the workspace does not run (no effect 4 release? ` +
            "most @effect/* packages are modules of effect now)"
        )
        assert.isTrue(satisfies(version!, range!), `${file}: ${name}@${range}, but ${version} is what runs here`)
      }
    }
  })

  it("the README's cluster lines: one machine on SQLite (node:sqlite), several on PostgreSQL, each with the cluster's peers", () => {
    const cluster = readmeLines.filter((line) => line.some(({ name }) => name === "@claude-effect/cluster"))
    assert.strictEqual(cluster.length, 2)
    const [one, several] = cluster.map((line) => new Map(line.map(({ name, range }) => [name, range])))
    assert.isFalse(one!.has("@effect/sql-pg"))
    assert.strictEqual(
      several!.get("@effect/sql-pg"),
      manifest("@claude-effect/examples").dependencies["@effect/sql-pg"]
    )
    for (const line of [one!, several!]) {
      for (const [peer, range] of peersOf("@claude-effect/cluster")) {
        assert.isTrue(line.has(peer), `a cluster line lacks ${peer}`)
        if (!range.startsWith("workspace:")) assert.strictEqual(line.get(peer), range, peer)
      }
    }
  })
})
