/**
 * Realistic shell commands and file paths for property tests, generated with
 * their meaning known: every generator knows whether what a command deletes
 * lies inside or outside the working directory, so a property can use the
 * generator as its oracle.
 *
 * Commands are assembled from the pieces real agents produce: verbs with and
 * without paths (`rm`, `/bin/rm`, `\rm`, `sudo rm`), flag clusters, relative
 * and absolute paths with `.` and `..` segments, `~` and `$HOME`, globs,
 * quoting (single, double, backslash-escaped spaces), redirects
 * (`2>/dev/null`), comments, `&&` / `;` / `||` / `|` chains, a leading `cd`,
 * `sh -c '...'` wrappers, and text that merely mentions a dangerous command.
 *
 * Built on effect's own `Arbitrary` (effect 4 has no fast-check): the
 * combinators fast-check had and effect has not (weighted `oneof`,
 * `constantFrom`, `option`, `subarray`, `lorem`, `webUrl`, `domain`, `uuid`,
 * `jsonValue`) are the small functions of the first section.
 *
 * @internal
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Schema from "effect/Schema"
import * as Path from "node:path"

type Arb<A> = Arbitrary.Arbitrary<A>

// -----------------------------------------------------------------------------
// Combinators
// -----------------------------------------------------------------------------

// Deriving an arbitrary from a schema compiles it: do it once, not per generated value (flatMap builds often).
const memos = new Map<string, Arb<never>>()

const memo = <A>(key: string, make: () => Arb<A>): Arb<A> => {
  const known = memos.get(key)
  if (known !== undefined) return known
  const made = make()
  memos.set(key, made as Arb<never>)
  return made
}

/**
 * An integer in `[min, max]`.
 *
 * @internal
 */
export const integer = (min: number, max: number): Arb<number> =>
  memo(`int:${min}:${max}`, () => Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: min, maximum: max }))))

/** @internal */
export const boolean: Arb<boolean> = Arbitrary.schema(Schema.Boolean)

/**
 * A string matching `pattern` (anchored with `^...$`).
 *
 * @internal
 */
export const matching = (pattern: RegExp): Arb<string> =>
  memo(`pattern:${pattern.source}`, () => Arbitrary.schema(Schema.String.check(Schema.isPattern(pattern))))

/**
 * One of the arbitraries, chosen with the given weights (fast-check's
 * `oneof({ weight, arbitrary }, ...)`); a weight of 0 leaves its arbitrary out.
 * Shrinks towards the first arbitrary.
 *
 * @internal
 */
export const weighted = <A>(...choices: ReadonlyArray<readonly [weight: number, arbitrary: Arb<A>]>): Arb<A> => {
  const kept = choices.filter(([weight]) => weight > 0)
  if (kept.length === 0) throw new RangeError("weighted: every weight is 0")
  if (kept.length === 1) return kept[0][1]
  const total = kept.reduce((sum, [weight]) => sum + weight, 0)
  return Arbitrary.flatMap(integer(0, total - 1), (ticket) => {
    for (const [weight, arbitrary] of kept) {
      if (ticket < weight) return arbitrary
      ticket -= weight
    }
    return kept[kept.length - 1][1]
  })
}

/**
 * One of the arbitraries, each as likely.
 *
 * @internal
 */
export const oneOf = <A>(...arbitraries: ReadonlyArray<Arb<A>>): Arb<A> =>
  weighted(...arbitraries.map((arbitrary) => [1, arbitrary] as const))

/**
 * One of the values (repeat a value to make it likelier).
 *
 * @internal
 */
export const constantFrom = <const A>(...values: ReadonlyArray<A>): Arb<A> => {
  if (values.length === 0) throw new RangeError("constantFrom: no value")
  return values.length === 1
    ? Arbitrary.Constant(values[0])
    : Arbitrary.map(integer(0, values.length - 1), (index) => values[index])
}

/**
 * `undefined` once in `freq` values (fast-check's `option(a, { nil: undefined, freq })`,
 * default 5), otherwise a value of `arbitrary`.
 *
 * @internal
 */
export const option = <A>(arbitrary: Arb<A>, freq = 5): Arb<A | undefined> =>
  weighted<A | undefined>([1, Arbitrary.Constant(undefined)], [freq - 1, arbitrary])

/**
 * The items of `values` that a generated mask keeps, in their order.
 *
 * @internal
 */
export const subarray = <A>(values: ReadonlyArray<A>): Arb<ReadonlyArray<A>> =>
  Arbitrary.map(
    Arbitrary.array(boolean, { minLength: values.length, maxLength: values.length }),
    (mask) => values.filter((_, index) => mask[index])
  )

/**
 * An object of `entries` keys (at most `maxKeys`) and values.
 *
 * @internal
 */
export const dictionary = <A>(keys: Arb<string>, values: Arb<A>, maxKeys: number): Arb<Record<string, A>> =>
  Arbitrary.map(Arbitrary.array(Arbitrary.all([keys, values]), { maxLength: maxKeys }), Object.fromEntries)

/** Marks a key the generated object leaves out. */
const absent: unique symbol = Symbol("absent")

/**
 * An object of the given fields' values; an optional field is present in
 * about half of the values (fast-check's `record(..., { requiredKeys })`).
 *
 * @internal
 */
export const record = (
  fields: Readonly<Record<string, Arb<unknown>>>,
  optional: ReadonlySet<string> = new Set()
): Arb<Record<string, unknown>> =>
  Arbitrary.map(
    Arbitrary.all(
      Object.fromEntries(
        Object.entries(fields).map((
          [key, arbitrary]
        ) => [key, optional.has(key) ? oneOf<unknown>(Arbitrary.Constant(absent), arbitrary) : arbitrary])
      )
    ),
    (values: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(values).filter(([, value]) => value !== absent))
  )

/** Lone surrogates replaced by U+FFFD (`String.prototype.toWellFormed`, ES2024). */
const wellFormed = (s: string): string => s.replace(/\p{Cs}/gu, "\uFFFD")

const jsonLeaf: Arb<unknown> = weighted<unknown>(
  [1, Arbitrary.Constant(null)],
  [2, boolean],
  [3, integer(-1_000_000, 1_000_000)],
  // JSON cannot carry -0 (it reads back as 0).
  [1, Arbitrary.map(Arbitrary.schema(Schema.Finite), (n) => (n === 0 ? 0 : n))],
  [4, Arbitrary.map(Arbitrary.schema(Schema.String.check(Schema.isMaxLength(20))), wellFormed)]
)

/**
 * A JSON value nested at most `maxDepth` deep (fast-check's `jsonValue({ maxDepth })`):
 * what `JSON.parse(JSON.stringify(value))` gives back unchanged.
 *
 * @internal
 */
export const jsonValue = (maxDepth: number): Arb<unknown> => {
  if (maxDepth <= 0) return jsonLeaf
  const inner = jsonValue(maxDepth - 1)
  const key = Arbitrary.map(Arbitrary.schema(Schema.String.check(Schema.isMaxLength(8))), wellFormed)
  return weighted<unknown>(
    [3, jsonLeaf],
    [1, Arbitrary.array(inner, { maxLength: 3 })],
    // `__proto__` would become the object's prototype, not a key.
    [1, dictionary(Arbitrary.filter(key, (k) => k !== "__proto__"), inner, 3)]
  )
}

/**
 * A UUID (v4 layout, lower-case hex), fast-check's `uuid()`.
 *
 * @internal
 */
export const uuid: Arb<string> = matching(
  /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
)

const label = matching(/^[a-z][a-z0-9]{0,9}(-[a-z0-9]{1,6})?$/)

/**
 * A domain name (`api.example.org`), fast-check's `domain()`.
 *
 * @internal
 */
export const domain: Arb<string> = Arbitrary.map(
  Arbitrary.all([
    Arbitrary.array(label, { minLength: 1, maxLength: 3 }),
    constantFrom("com", "org", "net", "io", "dev", "co.uk", "de", "xyz")
  ]),
  ([labels, tld]) => [...labels, tld].join(".")
)

/**
 * An http(s) URL with a domain, maybe a port, a path, a query and a fragment,
 * fast-check's `webUrl()`.
 *
 * @internal
 */
export const webUrl: Arb<string> = Arbitrary.map(
  Arbitrary.all([
    constantFrom("https", "http"),
    domain,
    option(integer(1, 65_535), 4),
    Arbitrary.array(matching(/^[A-Za-z0-9._~-]{1,10}$/), { maxLength: 3 }),
    option(matching(/^[a-z]{1,6}=[A-Za-z0-9%]{0,8}$/), 2),
    option(matching(/^[A-Za-z0-9-]{1,8}$/), 3)
  ]),
  ([scheme, host, port, segments, query, fragment]) =>
    `${scheme}://${host}${port === undefined ? "" : `:${port}`}${segments.map((s) => `/${s}`).join("")}` +
    (query === undefined ? "" : `?${query}`) + (fragment === undefined ? "" : `#${fragment}`)
)

const loremWords = [
  "lorem",
  "ipsum",
  "dolor",
  "sit",
  "amet",
  "consectetur",
  "adipiscing",
  "elit",
  "sed",
  "do",
  "eiusmod",
  "tempor",
  "incididunt",
  "ut",
  "labore",
  "et",
  "dolore",
  "magna",
  "aliqua",
  "enim",
  "ad",
  "minim",
  "veniam",
  "quis",
  "nostrud",
  "exercitation",
  "ullamco",
  "laboris",
  "nisi",
  "aliquip",
  "ex",
  "ea",
  "commodo",
  "consequat"
]

const loremWord = constantFrom(...loremWords)

/**
 * Lorem ipsum: 1 to `maxCount` words, or 1 to `maxCount` sentences
 * (fast-check's `lorem({ maxCount, mode })`).
 *
 * @internal
 */
export const lorem = (maxCount: number, mode: "words" | "sentences"): Arb<string> => {
  const words = (max: number) => Arbitrary.array(loremWord, { minLength: 1, maxLength: max })
  if (mode === "words") return Arbitrary.map(words(maxCount), (ws) => ws.join(" "))
  const sentence = Arbitrary.map(words(12), (ws) => {
    const text = ws.join(" ")
    return `${text[0].toUpperCase()}${text.slice(1)}.`
  })
  return Arbitrary.map(Arbitrary.array(sentence, { minLength: 1, maxLength: maxCount }), (ss) => ss.join(" "))
}

// -----------------------------------------------------------------------------
// Classification: the oracle
// -----------------------------------------------------------------------------

const posix = Path.posix

/** @internal */
export const defaultCwd = "/home/user/project"

/** @internal */
export type Where = "inside" | "outside" | "any"

/** @internal */
export type CommandKind = "any" | "harmless" | "deletesOutside"

/**
 * Where `path`, used by a command running in `base`, points relative to
 * `cwd`: strictly inside it, the directory itself, or outside. `~`, `$VAR`
 * and backticks are outside: their expansion is not known here.
 *
 * @internal
 */
export const classify = (cwd: string, base: string, path: string): "inside" | "self" | "outside" => {
  if (path.startsWith("~") || path.includes("$") || path.includes("`")) return "outside"
  const resolved = posix.resolve(base, path)
  if (resolved === cwd) return "self"
  return resolved.startsWith(cwd === "/" ? "/" : `${cwd}/`) ? "inside" : "outside"
}

const depthBelow = (cwd: string, base: string): number | undefined => {
  const relative = posix.relative(cwd, base)
  if (relative === "") return 0
  if (relative.startsWith("..") || posix.isAbsolute(relative)) return undefined
  return relative.split("/").length
}

// -----------------------------------------------------------------------------
// Names and paths
// -----------------------------------------------------------------------------

const dirNames = [
  "src",
  "lib",
  "build",
  "dist",
  "test",
  "docs",
  "scripts",
  "packages",
  "app",
  "config",
  "coverage",
  "out",
  "tmp",
  "logs",
  ".cache",
  "node_modules",
  ".git",
  "vendor",
  "assets",
  "my dir",
  "data-2024"
]

const plainFileNames = [
  "index.ts",
  "main.py",
  "README.md",
  "package.json",
  "notes.txt",
  "app.log",
  ".env",
  "data.json",
  "Makefile",
  "Cargo.toml",
  "a.out",
  "report (1).pdf",
  "my file.txt",
  "output.csv",
  "id_rsa",
  ".bashrc",
  "schema.sql"
]

const globFileNames = ["*.log", "*", "*.tmp", "*.pyc", "build-*"]

const extensions = [".ts", ".js", ".json", ".md", ".txt", ".log", ".py", ".sh", ""]

const word = matching(/^[a-z][a-z0-9]{1,7}([_-][a-z0-9]{1,4})?$/)

const dirName = weighted([5, constantFrom(...dirNames)], [1, word])

const fileName = (globs: boolean) =>
  weighted(
    [5, constantFrom(...plainFileNames)],
    [globs ? 2 : 0, constantFrom(...globFileNames)],
    [2, Arbitrary.map(Arbitrary.all([word, constantFrom(...extensions)]), ([w, e]) => w + e)]
  )

/** A relative path that goes down (possibly with a `x/..` detour): `src/index.ts`, `./build/`, `lib/../docs`. */
const descend = (options: { readonly globs: boolean; readonly dot: boolean }) =>
  Arbitrary.map(
    Arbitrary.all({
      dirs: Arbitrary.array(dirName, { maxLength: 3 }),
      file: option(fileName(options.globs)),
      detour: option(dirName, 4),
      dot: options.dot ? constantFrom("", "", "", "./") : Arbitrary.Constant(""),
      slash: constantFrom("", "", "", "/")
    }),
    ({ detour, dirs, dot, file, slash }) => {
      const segments = [...dirs]
      if (segments.length === 0 && file === undefined) segments.push("src")
      if (detour !== undefined) segments.splice(0, 0, detour, "..")
      const path = [...segments, ...(file !== undefined ? [file] : [])].join("/")
      return dot + path + (file === undefined ? slash : "")
    }
  )

/** A directory path that goes down, for `cd`. */
const descendDir = Arbitrary.map(Arbitrary.array(dirName, { minLength: 1, maxLength: 2 }), (dirs) => dirs.join("/"))

const outsideRoots = [
  "/",
  "/*",
  "/etc",
  "/etc/passwd",
  "/etc/nginx/nginx.conf",
  "/tmp",
  "/tmp/cache",
  "/tmp/*.log",
  "/var/log",
  "/var/lib/postgresql",
  "/usr/local/bin",
  "/usr",
  "/opt/app",
  "/home/user",
  "/home/user/.ssh",
  "/home/user/.ssh/id_rsa",
  "/home/user/Documents",
  "/root",
  "/boot",
  "/mnt/backup"
]

const homePaths = [
  "~",
  "~/",
  "~/.ssh",
  "~/.config/gcloud",
  "~/Documents/taxes.pdf",
  "$HOME",
  "$HOME/.aws",
  "${HOME}/.npmrc"
]

/**
 * A path that, used from `base`, points strictly inside `cwd`.
 *
 * @internal
 */
export const insidePath = (
  cwd: string,
  base: string,
  options: { readonly globs?: boolean; readonly relative?: boolean; readonly absolute?: boolean } = {}
): Arb<string> => {
  const globs = options.globs ?? true
  const depth = depthBelow(cwd, base)
  const relativeOk = depth !== undefined && options.relative !== false
  const absoluteOk = options.absolute !== false || !relativeOk
  const down = descend({ globs, dot: true })
  const downPlain = descend({ globs, dot: false })
  return Arbitrary.filter(
    weighted(
      [relativeOk ? 6 : 0, down],
      [
        relativeOk && depth! > 0 ? 2 : 0,
        Arbitrary.map(
          Arbitrary.all([integer(1, Math.max(1, depth ?? 1)), downPlain]),
          ([ups, rest]) => "../".repeat(ups) + rest
        )
      ],
      [absoluteOk ? 3 : 0, Arbitrary.map(downPlain, (rest) => `${cwd}/${rest}`)],
      [
        absoluteOk ? 1 : 0,
        Arbitrary.map(Arbitrary.all([dirName, downPlain]), ([detour, rest]) => `${cwd}/${detour}/../${rest}`)
      ]
    ),
    (path) => classify(cwd, base, path) === "inside"
  )
}

/**
 * A path that, used from `base`, points outside `cwd` (never at `cwd`
 * itself). With `base` undefined (after `cd ~`), only absolute and home
 * paths.
 *
 * @internal
 */
export const outsidePath = (
  cwd: string,
  base: string | undefined,
  options: { readonly globs?: boolean; readonly home?: boolean } = {}
): Arb<string> => {
  const globs = options.globs ?? true
  const home = options.home ?? true
  const depth = base === undefined ? undefined : depthBelow(cwd, base)
  const parent = posix.dirname(cwd)
  const down = descend({ globs, dot: false })
  const derived = [
    parent,
    `${cwd}-old`,
    `${cwd}.bak`,
    `${cwd}2`,
    `${parent}/other-project`,
    `${cwd}/..`,
    `${cwd}/./../shared`
  ]
  const relative = base !== undefined
  const escapes = Arbitrary.map(
    Arbitrary.all([integer(0, 2), option(down), boolean]),
    ([extra, rest, dot]) => (dot ? "./" : "") + "../".repeat((depth ?? 0) + 1 + extra) + (rest ?? "")
  )
  return Arbitrary.filter(
    weighted(
      [4, constantFrom(...outsideRoots.filter((p) => globs || !p.includes("*")))],
      [2, constantFrom(...derived)],
      [2, Arbitrary.map(Arbitrary.all([dirName, down]), ([dir, rest]) => `${cwd}/${dir}/../../${rest}`)],
      [home ? 2 : 0, constantFrom(...homePaths)],
      [relative ? 4 : 0, escapes],
      [
        relative ? 1 : 0,
        Arbitrary.map(
          Arbitrary.all([dirName, down]),
          ([dir, rest]) => `${dir}/../${"../".repeat((depth ?? 0) + 1)}${rest}`
        )
      ]
    ),
    (path) =>
      base === undefined
        ? (path.startsWith("/") || path.startsWith("~") || path.startsWith("$")) &&
          classify(cwd, "/", path) === "outside"
        : classify(cwd, base, path) === "outside"
  )
}

const fileInside = (cwd: string, absolute: boolean) =>
  Arbitrary.map(
    Arbitrary.all({
      dirs: Arbitrary.array(dirName, { maxLength: 3 }),
      file: fileName(false),
      detour: option(dirName, 5)
    }),
    ({ detour, dirs, file }) => {
      const segments = [...(detour !== undefined ? [detour, ".."] : []), ...dirs, file]
      return absolute ? `${cwd}/${segments.join("/")}` : segments.join("/")
    }
  )

/**
 * A file path as tools receive it (`file_path`, `notebook_path`): mostly
 * absolute, sometimes relative, with `..` segments now and then.
 *
 * @internal
 */
export const filePath = (cwd: string, where: Where): Arb<string> => {
  const inside = weighted([5, fileInside(cwd, true)], [1, fileInside(cwd, false)])
  const outside = Arbitrary.filter(
    outsidePath(cwd, cwd, { globs: false, home: true }),
    (p) => !p.endsWith("/") && p !== "/"
  )
  switch (where) {
    case "inside":
      return inside
    case "outside":
      return outside
    case "any":
      return weighted([3, inside], [1, outside])
  }
}

// -----------------------------------------------------------------------------
// Quoting
// -----------------------------------------------------------------------------

const special = /[\s()'"&;|<>#!\\`]/

/** A path as a shell word: bare, quoted or escaped, always meaning the same path. */
const shellPath = (path: string): Arb<string> => {
  // Quoting would stop the expansion of `~`; `$HOME` still expands in double quotes.
  if (path.startsWith("~")) return Arbitrary.Constant(path)
  if (path.includes("$")) return constantFrom(path, `"${path}"`)
  if (special.test(path)) {
    return constantFrom(`'${path}'`, `"${path}"`, path.replace(/([\s()'"&;|<>#!\\`])/g, "\\$1"))
  }
  return weighted([6, Arbitrary.Constant(path)], [1, Arbitrary.Constant(`'${path}'`)], [
    1,
    Arbitrary.Constant(`"${path}"`)
  ])
}

/** Text as one literal shell word, or undefined when it cannot be quoted simply. */
const quoteLiteral = (text: string, style: "single" | "double"): string | undefined => {
  if (style === "single") return text.includes("'") ? undefined : `'${text}'`
  return /["$`\\!]/.test(text) ? undefined : `"${text}"`
}

const inside = (cwd: string, base: string, options?: Parameters<typeof insidePath>[2]) =>
  Arbitrary.flatMap(insidePath(cwd, base, options), shellPath)

const outside = (cwd: string, base: string | undefined) => Arbitrary.flatMap(outsidePath(cwd, base), shellPath)

const anywhere = (cwd: string, base: string) => weighted([3, inside(cwd, base)], [1, outside(cwd, base)])

const join = (parts: ReadonlyArray<string>) => parts.filter((part) => part !== "").join(" ")

// -----------------------------------------------------------------------------
// Deletions
// -----------------------------------------------------------------------------

const rmVerb = constantFrom("rm", "rm", "rm", "rm", "\\rm", "/bin/rm", "/usr/bin/rm", "command rm", "sudo rm")

const rmFlags = constantFrom(
  "",
  "-r",
  "-f",
  "-rf",
  "-rf",
  "-fr",
  "-R",
  "-rfv",
  "-r -f",
  "--recursive --force",
  "-f --",
  "-rf --no-preserve-root",
  "-d",
  "-v"
)

const findPredicates = subarray([
  "-name '*.log'",
  "-type f",
  "-mtime +7",
  "-maxdepth 2",
  "-iname \"*.TMP\"",
  "-size +10M",
  "-empty"
])

const findAction = constantFrom("-delete", "-delete", "-print -delete", "-exec rm -f {} \\;", "-exec rm -rf {} +")

/** Inserts `item` among `others` at a generated position. */
const placed = <A>(item: A, others: ReadonlyArray<A>): Arb<ReadonlyArray<A>> =>
  Arbitrary.map(integer(0, others.length), (index) => [...others.slice(0, index), item, ...others.slice(index)])

/**
 * A command deleting `target` (and maybe `extra` paths): rm, rmdir, unlink,
 * find -delete / -exec rm, mv to /dev/null.
 */
const deletion = (target: Arb<string>, extra: Arb<string>, findRoot: Arb<string>): Arb<string> =>
  weighted(
    [
      6,
      Arbitrary.flatMap(
        Arbitrary.all([rmVerb, rmFlags, target, Arbitrary.array(extra, { maxLength: 2 })]),
        ([verb, flags, t, more]) => Arbitrary.map(placed(t, more), (targets) => join([verb, flags, ...targets]))
      )
    ],
    [1, Arbitrary.map(Arbitrary.all([constantFrom("rmdir", "sudo rmdir"), constantFrom("", "-v"), target]), join)],
    [1, Arbitrary.map(target, (t) => `unlink ${t}`)],
    [
      2,
      Arbitrary.map(
        Arbitrary.all([findRoot, findPredicates, findAction]),
        ([root, predicates, action]) => join(["find", root, ...predicates, action])
      )
    ],
    [
      2,
      Arbitrary.flatMap(
        Arbitrary.all([constantFrom("", "-f", "-v"), target, Arbitrary.array(extra, { maxLength: 1 })]),
        ([flags, t, more]) => Arbitrary.map(placed(t, more), (sources) => join(["mv", flags, ...sources, "/dev/null"]))
      )
    ]
  )

const deleteOutside = (cwd: string, base: string | undefined): Arb<string> =>
  deletion(
    outside(cwd, base),
    base === undefined ? outside(cwd, base) : anywhere(cwd, base),
    outside(cwd, base)
  )

const deleteInside = (cwd: string, base: string): Arb<string> =>
  weighted(
    [
      6,
      deletion(
        inside(cwd, base),
        inside(cwd, base),
        oneOf(
          classify(cwd, base, ".") === "outside" ? inside(cwd, base) : Arbitrary.Constant("."),
          inside(cwd, base, { globs: false })
        )
      )
    ],
    [1, constantFrom("git clean -fdx", "git clean -fd", "npm prune", "cargo clean")]
  )

// -----------------------------------------------------------------------------
// Harmless commands
// -----------------------------------------------------------------------------

const text = constantFrom(
  "hello",
  "done",
  "build ok",
  "fix: remove temp files",
  "TODO: clean up",
  "it's fine",
  "a; b && c | d",
  "# not a comment"
)

const searchPattern = constantFrom("TODO", "console.log", "import .* from", "rm -rf", "def main", "\\bfoo\\b")

const read = (cwd: string, base: string): Arb<string> => {
  const any = anywhere(cwd, base)
  return weighted(
    [3, Arbitrary.map(Arbitrary.all([constantFrom("ls", "ls -la", "ls -1", "ls -R"), any]), join)],
    [1, constantFrom("ls", "pwd", "tree -L 2", "ls -la ..")],
    [
      3,
      Arbitrary.map(
        Arbitrary.all([constantFrom("cat", "head -n 20", "tail -n 50", "wc -l", "stat", "file", "du -sh"), any]),
        join
      )
    ],
    [
      2,
      Arbitrary.map(
        Arbitrary.all([constantFrom("grep -rn", "grep -l", "rg", "rg -i"), searchPattern, any]),
        ([verb, pattern, path]) => join([verb, quoteLiteral(pattern, "single")!, path])
      )
    ],
    [
      3,
      constantFrom(
        "git status",
        "git diff --stat",
        "git log --oneline -n 5",
        "git branch -a",
        "npm test",
        "npm run build",
        "pnpm install",
        "npx tsc --noEmit",
        "node --version",
        "python3 -m pytest -q",
        "cargo build --release",
        "make",
        "which node",
        "echo $PATH",
        "env | sort",
        "date"
      )
    ],
    [
      1,
      Arbitrary.map(
        Arbitrary.all([any, constantFrom("-name '*.ts'", "-type f", "-maxdepth 1 -type d")]),
        ([path, predicate]) => `find ${path} ${predicate}`
      )
    ]
  )
}

const writeInside = (cwd: string, base: string): Arb<string> => {
  const target = inside(cwd, base, { globs: false })
  return weighted(
    [2, Arbitrary.map(Arbitrary.all([constantFrom("mkdir -p", "touch", "chmod +x", "chmod 644"), target]), join)],
    [2, Arbitrary.map(Arbitrary.all([constantFrom("cp", "cp -r", "cp -f"), anywhere(cwd, base), target]), join)],
    [1, Arbitrary.map(Arbitrary.all([target, target]), ([a, b]) => `mv ${a} ${b}`)],
    [
      2,
      Arbitrary.map(
        Arbitrary.all([constantFrom("echo", "printf"), text, constantFrom(">", ">>"), target]),
        ([verb, t, redirect, path]) => `${verb} ${quoteLiteral(t, "single") ?? "x"} ${redirect} ${path}`
      )
    ],
    [1, Arbitrary.map(target, (path) => `sed -i 's/foo/bar/g' ${path}`)],
    [1, Arbitrary.map(target, (path) => `cat /dev/null > ${path}`)],
    [1, Arbitrary.map(Arbitrary.all([anywhere(cwd, base), target]), ([from, to]) => `ln -s ${from} ${to}`)],
    [1, constantFrom("git add -A", "git commit -m 'wip'", "git checkout -b feature/x", "git stash")]
  )
}

/** Text that mentions a dangerous command without running it. */
const deceptive = (cwd: string, base: string): Arb<string> =>
  Arbitrary.flatMap(
    Arbitrary.all([deleteOutside(cwd, base), constantFrom<"single" | "double">("single", "double")]),
    ([dangerous, style]) => {
      const literal = quoteLiteral(dangerous, style) ??
        quoteLiteral(dangerous, style === "single" ? "double" : "single")
      const mention = literal === undefined ? [] : [
        `echo ${literal}`,
        `git commit -m ${literal}`,
        `grep -rnF ${literal} .`,
        `printf '%s\\n' ${literal}`
      ]
      return constantFrom(
        ...mention,
        `ls # ${dangerous}`,
        `git status # later: git stash; ${dangerous}`,
        `make # && ${dangerous}`
      )
    }
  )

const harmlessSegment = (cwd: string, base: string): Arb<string> =>
  weighted(
    [4, read(cwd, base)],
    [3, writeInside(cwd, base)],
    [3, deleteInside(cwd, base)],
    [2, deceptive(cwd, base)]
  )

// -----------------------------------------------------------------------------
// Commands
// -----------------------------------------------------------------------------

const joiner = constantFrom(" && ", " && ", "; ", " || ", " | ", "\n")

const suffix = constantFrom("", "", "", "", " 2>/dev/null", " > /dev/null 2>&1", " 2>&1 | tail -n 20")

/** Joins segments with generated operators; a segment holding a comment must come last. */
const chain = (segments: ReadonlyArray<string>, operators: Arb<string> = joiner): Arb<string> =>
  Arbitrary.map(
    Arbitrary.array(operators, { minLength: segments.length, maxLength: segments.length }),
    (ops) => {
      const ordered = [...segments.filter((s) => !s.includes("#")), ...segments.filter((s) => s.includes("#"))]
      return ordered.map((segment, i) => (i === 0 ? segment : ops[i] + segment)).join("")
    }
  )

/** Wraps a simple command in `sh -c '...'` now and then. */
const wrapped = (command: Arb<string>): Arb<string> =>
  Arbitrary.map(
    Arbitrary.all([command, constantFrom("", "", "", "", "", "sh -c", "bash -c", "sudo sh -c")]),
    ([c, shell]) => {
      const literal = quoteLiteral(c, "single")
      return shell === "" || literal === undefined || c.includes("#") ? c : `${shell} ${literal}`
    }
  )

const withSuffix = (command: Arb<string>) =>
  Arbitrary.map(Arbitrary.all([command, suffix]), ([c, s]) => (c.includes("#") ? c : c + s))

/**
 * A command that deletes nothing outside `cwd`: reads (anywhere), writes and
 * deletions inside it, and text that mentions dangerous commands.
 *
 * @internal
 */
export const harmlessCommand = (cwd: string): Arb<string> =>
  Arbitrary.flatMap(option(descendDir, 3), (dir) => {
    const base = dir === undefined ? cwd : posix.resolve(cwd, dir)
    // After `cd dir &&`, only `&&` and `|`: with `;` or `||`, a failed cd would run the rest in cwd.
    const ops = dir === undefined ? joiner : constantFrom(" && ", " | ")
    const segments = Arbitrary.flatMap(
      Arbitrary.array(wrapped(withSuffix(harmlessSegment(cwd, base))), { minLength: 1, maxLength: 3 }),
      (parts) => chain(parts, ops)
    )
    if (dir === undefined) return segments
    return Arbitrary.map(Arbitrary.all([shellPath(dir), segments]), ([d, rest]) => `cd ${d} && ${rest}`)
  })

interface Cd {
  readonly command: string
  readonly base: string | undefined
}

const outsideCd = (cwd: string): Arb<Cd> => {
  const parent = posix.dirname(cwd)
  return Arbitrary.filter(
    oneOf<Cd>(
      Arbitrary.map(
        constantFrom("..", "../..", "/tmp", "/var/log", parent, `${cwd}/..`, "/"),
        (dir) => ({ command: `cd ${dir}`, base: posix.resolve(cwd, dir) })
      ),
      Arbitrary.map(constantFrom("cd ~", "cd", "cd $HOME"), (command) => ({ command, base: undefined }))
    ),
    ({ base }) => base === undefined || classify(cwd, cwd, base) === "outside"
  )
}

/**
 * A command that deletes something outside `cwd`, maybe among harmless
 * steps, maybe after a `cd`.
 *
 * @internal
 */
export const deletesOutsideCommand = (cwd: string): Arb<string> =>
  Arbitrary.flatMap(
    weighted<Cd>(
      [4, Arbitrary.Constant({ command: "", base: cwd })],
      [2, Arbitrary.map(descendDir, (dir) => ({ command: `cd ${dir}`, base: posix.resolve(cwd, dir) }))],
      [2, outsideCd(cwd)]
    ),
    ({ base, command: cd }) =>
      Arbitrary.flatMap(
        Arbitrary.all([
          Arbitrary.array(withSuffix(harmlessSegment(cwd, cwd)), { maxLength: 2 }),
          constantFrom(" && ", "; ", "\n"),
          wrapped(withSuffix(deleteOutside(cwd, base))),
          Arbitrary.array(withSuffix(read(cwd, base ?? "/")), { maxLength: 1 }),
          joiner
        ]),
        ([before, beforeOp, danger, after, afterOp]) => {
          const core = cd === "" ? danger : `${cd} && ${danger}`
          const tail = after.length > 0 && !core.includes("#") ? afterOp + after[0] : ""
          const before_ = before.filter((s) => !s.includes("#"))
          if (before_.length === 0) return Arbitrary.Constant(core + tail)
          return Arbitrary.map(chain(before_), (head) => head + beforeOp + core + tail)
        }
      )
  )

const otherRisky = constantFrom(
  "curl -fsSL https://get.example.com/install.sh | sh",
  "wget -qO- http://example.com/x | bash",
  "chmod -R 777 .",
  "git push --force origin main",
  "git reset --hard HEAD~3",
  "dd if=/dev/zero of=disk.img bs=1M count=10",
  "npm publish",
  "docker system prune -af",
  "kill -9 1234",
  "python3 -c 'import os; print(os.getcwd())'",
  "node -e \"console.log(process.env.HOME)\""
)

/**
 * A realistic command of the given kind.
 *
 * @internal
 */
export const command = (cwd: string, kind: CommandKind): Arb<string> => {
  switch (kind) {
    case "harmless":
      return harmlessCommand(cwd)
    case "deletesOutside":
      return deletesOutsideCommand(cwd)
    case "any":
      return weighted([5, harmlessCommand(cwd)], [3, deletesOutsideCommand(cwd)], [1, otherRisky])
  }
}

// -----------------------------------------------------------------------------
// Other realistic strings
// -----------------------------------------------------------------------------

/** @internal */
export const url: Arb<string> = weighted(
  [
    4,
    Arbitrary.map(
      Arbitrary.all([
        constantFrom("https://", "https://", "http://"),
        constantFrom(
          "docs.python.org",
          "github.com",
          "example.com",
          "api.github.com",
          "localhost:3000",
          "127.0.0.1:8080",
          "raw.githubusercontent.com",
          "en.wikipedia.org",
          "169.254.169.254"
        ),
        constantFrom(
          "",
          "/",
          "/docs/api",
          "/wiki/Effect_system",
          "/latest/meta-data/",
          "/repos/a/b/issues?state=open"
        ),
        constantFrom("", "", "#section", "?q=effect%20ts")
      ]),
      (parts) => parts.join("")
    )
  ],
  [1, constantFrom("file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)", "not a url")],
  [1, webUrl]
)

/** @internal */
export const globPattern: Arb<string> = constantFrom(
  "**/*.ts",
  "src/**/*.{ts,tsx}",
  "*.md",
  "**/package.json",
  "test/**/*.test.ts",
  "../**/*.env",
  "/etc/*",
  "**/node_modules/**",
  "*"
)

/** @internal */
export const regexPattern: Arb<string> = constantFrom(
  "TODO",
  "function\\s+\\w+",
  "import .* from ['\"]effect['\"]",
  "console\\.log",
  "class \\w+Error",
  "(?i)password",
  "[",
  "^$"
)

/** @internal */
export const prose: Arb<string> = weighted(
  [4, lorem(12, "words")],
  [2, lorem(3, "sentences")],
  [
    1,
    constantFrom(
      "Fix the failing test in src/index.ts",
      "Run the build and tell me what breaks",
      "Delete the temp files, then commit",
      "Résumé: naïve café — 日本語 ✓",
      "line one\nline two"
    )
  ],
  // fast-check's `string({ unit: "grapheme" })`: any text, made well-formed (no lone surrogate).
  [1, Arbitrary.map(Arbitrary.schema(Schema.String.check(Schema.isMaxLength(40))), wellFormed)]
)

/** @internal */
export const shortDescription: Arb<string> = constantFrom(
  "List files in current directory",
  "Show working tree status",
  "Install package dependencies",
  "Run the test suite",
  "Remove build artifacts",
  "Delete temporary files",
  "Build the project",
  "Find and delete all .tmp files recursively"
)
