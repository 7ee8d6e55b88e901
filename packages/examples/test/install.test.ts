/**
 * The published packages, installed as a user installs them: `pnpm build`,
 * `pnpm pack` of every `@claude-effect/*` package the README's Install
 * section names, then `npm install` into a fresh project in the temp
 * directory, outside this workspace, of exactly what those install lines
 * name (the tarballs for our packages, the others with the version ranges
 * written there). There, the fixtures in `install/` are type-checked by
 * `tsc` and run:
 * - a program with a PreToolUse deny hook and a permission gate against the
 *   testkit's scripted model on the real CLI that came with the SDK: the
 *   denied file does not exist, the allowed one does;
 * - an `effect/ai` program on `@claude-effect/ai` (effect 4 has `effect/ai`
 *   inside `effect`: no `@effect/ai` is installed): the app's tool ran, the
 *   hook denied the shell command;
 * - a vitest file using `@effect/vitest` and the testkit;
 * - `npx claude-effect-hooks --help` and `npx claude-effect-testkit --help`;
 * - the program bundled by esbuild into one file (ESM and CommonJS) and run
 *   from another directory: it finds the CLI.
 *
 * npm's own cache is reused (`--prefer-offline`): after the first run the
 * install needs no network. Set `CLAUDE_EFFECT_KEEP_INSTALL=1` to keep the
 * project for a look after the run.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

const root = Path.resolve(import.meta.dirname, "..", "..", "..")
const fixtures = Path.join(import.meta.dirname, "install")
const PNPM = ["-y", "pnpm@10.34.8"]

// Only the variables a user's shell would have: none of pnpm's, npm's or vitest's own.
const cleanEnv = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env).flatMap(([name, value]) =>
      value === undefined || /^(npm_|pnpm_|PNPM_|VITEST|NODE_OPTIONS$|NODE_PATH$|INIT_CWD$|TEST$)/i.test(name)
        ? []
        : [[name, value]]
    )
  )

interface Output {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const run = (
  command: string,
  args: ReadonlyArray<string>,
  options: {
    readonly cwd: string
    readonly timeout?: Duration.Input
    readonly env?: Readonly<Record<string, string>>
  }
): Effect.Effect<Output> =>
  Effect.callback<Output>((resume) => {
    const child = ChildProcess.spawn(command, args, { cwd: options.cwd, env: { ...cleanEnv(), ...options.env } })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => void (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => void (stderr += chunk))
    child.on("error", (error) => resume(Effect.succeed({ code: -1, stdout, stderr: `${stderr}${error}` })))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => child.kill("SIGKILL"))
  }).pipe(
    Effect.timeoutOrElse({
      duration: options.timeout ?? Duration.minutes(2),
      orElse: () => Effect.die(new Error(`timed out: ${command} ${args.join(" ")}`))
    })
  )

/** Runs a command and fails the test, with its output, unless it exits 0. */
const succeed = (command: string, args: ReadonlyArray<string>, options: Parameters<typeof run>[2]) =>
  Effect.tap(run(command, args, options), (output) =>
    Effect.sync(() =>
      assert.strictEqual(
        output.code,
        0,
        `${command} ${args.join(" ")} exited ${output.code}\n--- stdout\n${output.stdout}\n--- stderr\n${output.stderr}`
      )
    ))

// The versions the workspace is tested with, as installed here.
const installed = (name: string): string =>
  JSON.parse(
    Fs.readFileSync(
      Path.join(
        Fs.realpathSync(Path.join(root, "packages", "sdk", "node_modules", ...name.split("/"))),
        "package.json"
      ),
      "utf8"
    )
  ).version
const installedAtRoot = (name: string): string =>
  JSON.parse(Fs.readFileSync(Path.join(root, "node_modules", ...name.split("/"), "package.json"), "utf8")).version

const versionAt = (dir: string): string => JSON.parse(Fs.readFileSync(Path.join(dir, "package.json"), "utf8")).version

const minor = (version: string): string => version.split(".").slice(0, 2).join(".")

/** Every directory `name` is installed in under `nodeModules`, nested ones included. */
const copiesOf = (name: string, nodeModules: string): ReadonlyArray<string> =>
  (Fs.readdirSync(nodeModules, { recursive: true }) as Array<string>)
    .filter((file) =>
      file === Path.join(name, "package.json") || file.endsWith(Path.join("node_modules", name, "package.json"))
    )
    .map((file) => Path.join(nodeModules, Path.dirname(file)))
    .sort()

/**
 * The packages of the README's install lines (its Install section), each once, as written there
 * (`effect@~4.1.5`); a package named twice must be named alike.
 */
const readmeInstall = (): ReadonlyArray<{ readonly name: string; readonly spec: string }> => {
  const readme = Fs.readFileSync(Path.join(root, "README.md"), "utf8")
  const start = readme.indexOf("\n## Install")
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1))
  const specs = new Map<string, string>()
  for (const block of section.split(/^```sh\s*$/m).slice(1).map((rest) => rest.split(/^```\s*$/m)[0]!)) {
    for (const line of block.replace(/\\\n/g, " ").split("\n").map((l) => l.replace(/#.*$/, "").trim())) {
      if (!/^npm install\b/.test(line)) continue
      for (const spec of line.split(/\s+/).slice(2).filter((word) => !word.startsWith("-"))) {
        const at = spec.indexOf("@", 1)
        const name = at === -1 ? spec : spec.slice(0, at)
        assert.strictEqual(
          specs.get(name) ?? spec,
          spec,
          `README.md names ${name} as ${specs.get(name)} and as ${spec}`
        )
        specs.set(name, spec)
      }
    }
  }
  return [...specs].map(([name, spec]) => ({ name, spec }))
}

// What README.md tells users to add to an ESM bundle.
const requireBanner = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);"

let project = ""
let packs = ""

describe("installed from the packed tarballs, outside the workspace", () => {
  beforeAll(async () => {
    packs = Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-packs-"))
    project = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-install-")))
    const readme = readmeInstall()
    const ours = readme.filter(({ name }) => name.startsWith("@claude-effect/")).map(({ name }) => name).sort()
    assert.includeMembers(ours, [
      "@claude-effect/sdk",
      "@claude-effect/testkit",
      "@claude-effect/ai",
      "@claude-effect/sql",
      "@claude-effect/cluster"
    ])
    await Effect.runPromise(Effect.gen(function*() {
      yield* succeed("npx", [...PNPM, "build"], { cwd: root, timeout: Duration.minutes(5) })
      // prepack builds too: a pack can never ship an unbuilt package.
      yield* succeed(
        "npx",
        [...PNPM, ...ours.flatMap((name) => ["--filter", name]), "pack", "--pack-destination", packs],
        { cwd: root, timeout: Duration.minutes(5) }
      )
      const tarballs = Fs.readdirSync(packs).filter((file) => file.endsWith(".tgz")).sort()
      assert.deepStrictEqual(
        tarballs.map((file) => file.replace(/-\d+\.\d+\.\d+.*\.tgz$/, "")),
        ours.map((name) => name.replace("@", "").replace("/", "-"))
      )

      Fs.writeFileSync(
        Path.join(project, "package.json"),
        JSON.stringify({ name: "claude-effect-install-check", private: true, type: "module" }, null, 2)
      )
      Fs.writeFileSync(
        Path.join(project, "tsconfig.json"),
        JSON.stringify(
          {
            compilerOptions: {
              strict: true,
              exactOptionalPropertyTypes: true,
              module: "NodeNext",
              moduleResolution: "NodeNext",
              target: "ES2022",
              lib: ["ES2022"],
              types: ["node"],
              skipLibCheck: true,
              rootDir: "src",
              outDir: "dist"
            },
            include: ["src"]
          },
          null,
          2
        )
      )
      Fs.mkdirSync(Path.join(project, "src"))
      for (
        const [from, to] of [
          ["policy.ts", "policy.ts"],
          ["agent.ts", "agent.ts"],
          ["ai-agent.ts", "ai-agent.ts"],
          ["bundle.ts", "bundle.ts"],
          ["agent-test.ts", "agent.test.ts"]
        ]
      ) {
        Fs.copyFileSync(Path.join(fixtures, from!), Path.join(project, "src", to!))
      }

      yield* succeed("npm", [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--loglevel=error",
        // what the README's install lines name, as written there, our packages from their tarballs
        ...tarballs.map((file) => Path.join(packs, file)),
        ...readme.filter(({ name }) => !name.startsWith("@claude-effect/")).map(({ spec }) => spec),
        // what this test needs besides
        `typescript@${installedAtRoot("typescript")}`,
        `@types/node@${installedAtRoot("@types/node")}`,
        "esbuild@0.28.2"
      ], { cwd: project, timeout: Duration.minutes(10) })
    }))
  }, 20 * 60_000)

  afterAll(() => {
    if (process.env.CLAUDE_EFFECT_KEEP_INSTALL === "1") return
    for (const dir of [project, packs]) if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  })

  const bin = (name: string) => Path.join(project, "node_modules", ".bin", name)

  it.live("the installed packages expose their public modules only, from the build", () =>
    Effect.gen(function*() {
      const sdk = JSON.parse(
        Fs.readFileSync(Path.join(project, "node_modules/@claude-effect/sdk/package.json"), "utf8")
      )
      const testkit = JSON.parse(
        Fs.readFileSync(Path.join(project, "node_modules/@claude-effect/testkit/package.json"), "utf8")
      )
      // workspace: ranges are replaced on pack; the CLI is a dependency of the SDK.
      assert.notInclude(JSON.stringify(testkit.dependencies), "workspace:")
      assert.strictEqual(sdk.dependencies["@anthropic-ai/claude-code"], installed("@anthropic-ai/claude-code"))
      for (const pkg of ["sdk", "testkit", "ai", "sql", "cluster"]) {
        assert.isTrue(Fs.existsSync(Path.join(project, "node_modules/@claude-effect", pkg, "LICENSE")), pkg)
      }
      // One effect for all (no copy under a package of ours), the workspace's minor; effect/ai is in it.
      const effects = copiesOf("effect", Path.join(project, "node_modules"))
      assert.deepStrictEqual(effects.map((dir) => Path.relative(project, dir)), [Path.join("node_modules", "effect")])
      assert.strictEqual(minor(versionAt(effects[0]!)), minor(installed("effect")))
      assert.isFalse(Fs.existsSync(Path.join(project, "node_modules/@effect/ai")))
      const probe = yield* succeed(process.execPath, [
        "--input-type=module",
        "-e",
        `
        const sdk = await import("@claude-effect/sdk")
        const testkit = await import("@claude-effect/testkit")
        const { locate } = await import("@claude-effect/sdk/CliLocator")
        const internal = await import("@claude-effect/sdk/internal/session").then(() => "importable", (e) => e.code)
        console.log(JSON.stringify({
          sdk: Object.keys(sdk).sort(),
          testkit: Object.keys(testkit).sort(),
          locate: typeof locate,
          internal
        }))
        `
      ], { cwd: project })
      const loaded = JSON.parse(probe.stdout)
      assert.includeMembers(loaded.sdk, ["ClaudeCode", "HookLayer", "PermissionGate", "Protocol"])
      assert.includeMembers(loaded.testkit, ["HookTest", "ScriptFile", "ScriptedModel"])
      assert.strictEqual(loaded.locate, "function")
      assert.strictEqual(loaded.internal, "ERR_PACKAGE_PATH_NOT_EXPORTED")
    }))

  it.live("tsc type-checks a program written against the installed packages", () =>
    Effect.gen(function*() {
      yield* succeed(process.execPath, [bin("tsc"), "-p", "tsconfig.json"], { cwd: project, timeout: "4 minutes" })
      assert.isTrue(Fs.existsSync(Path.join(project, "dist", "agent.js")))
    }), 300_000)

  it.live(
    "a PreToolUse deny hook and a permission gate, on the real CLI, against the scripted model",
    () =>
      Effect.gen(function*() {
        if (!Fs.existsSync(Path.join(project, "dist", "agent.js"))) {
          yield* succeed(process.execPath, [bin("tsc"), "-p", "tsconfig.json"], { cwd: project })
        }
        const work = Fs.realpathSync(Fs.mkdtempSync(Path.join(project, "work-")))
        const output = yield* succeed(process.execPath, ["dist/agent.js", work], { cwd: project })
        const report = JSON.parse(output.stdout.trim().split("\n").at(-1)!)
        assert.strictEqual(report.result, "Wrote allowed.txt; denied.txt was refused.")
        // The effect on disk: the hook kept the first command from running; the gate let the second one run.
        assert.isFalse(Fs.existsSync(Path.join(work, "denied.txt")))
        assert.strictEqual(Fs.readFileSync(Path.join(work, "allowed.txt"), "utf8"), "fine\n")
        assert.deepStrictEqual(report.asked, ["Bash"])
      }),
    120_000
  )

  it.live(
    "an effect/ai program on @claude-effect/ai: the app's tool runs, the hook denies the shell",
    () =>
      Effect.gen(function*() {
        if (!Fs.existsSync(Path.join(project, "dist", "ai-agent.js"))) {
          yield* succeed(process.execPath, [bin("tsc"), "-p", "tsconfig.json"], { cwd: project })
        }
        const work = Fs.realpathSync(Fs.mkdtempSync(Path.join(project, "work-")))
        const output = yield* succeed(process.execPath, ["dist/ai-agent.js", work], { cwd: project })
        const report = JSON.parse(output.stdout.trim().split("\n").at(-1)!)
        assert.deepStrictEqual(report, {
          text: "21 doubled is 42.",
          calls: [["Double", { n: 21 }]],
          results: [["Double", 42]],
          denied: ["Bash"]
        })
        assert.isFalse(Fs.existsSync(Path.join(work, "denied.txt")))
      }),
    120_000
  )

  it.live("a vitest file with @effect/vitest and the testkit", () =>
    Effect.gen(function*() {
      const output = yield* succeed(process.execPath, [bin("vitest"), "run", "src/agent.test.ts"], {
        cwd: project,
        env: { NO_COLOR: "1", FORCE_COLOR: "0" }
      })
      assert.match(output.stdout, /Tests\s+2 passed/)
    }), 120_000)

  it.live(
    "the bins run from the build: npx claude-effect-hooks --help, npx claude-effect-testkit --help",
    () =>
      Effect.gen(function*() {
        const hooks = yield* succeed("npx", ["--no-install", "claude-effect-hooks", "--help"], { cwd: project })
        assert.include(hooks.stdout, "claude-effect-hooks <subcommand>")
        assert.match(hooks.stdout, /SUBCOMMANDS\n\s+install\s+Adds a command hook/)
        const testkit = yield* succeed("npx", ["--no-install", "claude-effect-testkit", "serve", "--help"], {
          cwd: project
        })
        assert.include(testkit.stdout, "--script")
      }),
    60_000
  )

  it.live(
    "bundled by esbuild into one file and run from elsewhere, the program finds the CLI",
    () =>
      Effect.gen(function*() {
        const elsewhere = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-elsewhere-")))
        yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(elsewhere, { recursive: true, force: true })))
        const cli = Path.join(project, "node_modules", "@anthropic-ai")
        for (const format of ["esm", "cjs"] as const) {
          const outfile = Path.join(project, "dist", `bundle.${format === "esm" ? "mjs" : "cjs"}`)
          yield* succeed(bin("esbuild"), [
            "src/bundle.ts",
            "--bundle",
            "--platform=node",
            `--format=${format}`,
            "--target=node22",
            // As the README says to ship it (and as the bench measures it).
            "--minify",
            // ESM bundles of CommonJS dependencies (under @effect/platform-node: require("events")) need a `require`.
            ...(format === "esm" ? [`--banner:js=${requireBanner}`] : []),
            "--log-level=error",
            `--outfile=${outfile}`
          ], { cwd: project })
          const output = yield* succeed(process.execPath, [outfile], { cwd: elsewhere })
          const executable = /^executable: (.*)$/m.exec(output.stdout)?.[1]
          assert.isDefined(executable, output.stdout)
          assert.isTrue(executable!.startsWith(cli), `${format}: ${executable}`)
          assert.include(output.stdout, "answer: Hello from a bundle.", format)
        }
      }),
    120_000
  )
})
