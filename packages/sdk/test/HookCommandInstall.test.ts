import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it, layer } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Path from "effect/Path"
import * as ChildProcess from "effect/process/ChildProcess"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import * as HookCommand from "../src/HookCommand.js"
import { cli } from "../src/internal/hookCommandCli.js"
import { afterText, editText, merge, styleOf, unifiedDiff } from "../src/internal/hookCommandInstall.js"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => Fs.realpathSync(Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "claude-effect-install-")))),
  (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
)

const settingsFile = (cwd: string) => NodePath.join(cwd, ".claude", "settings.json")

const writeSettings = (cwd: string, text: string) => {
  Fs.mkdirSync(NodePath.join(cwd, ".claude"), { recursive: true })
  Fs.writeFileSync(settingsFile(cwd), text)
}

const guard = (cwd: string, extra: Partial<HookCommand.InstallOptions> = {}): HookCommand.InstallOptions => ({
  settings: "project",
  cwd,
  event: "PreToolUse",
  matcher: "Bash",
  command: "node \"$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs\"",
  ...extra
})

const existing = `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(npm test:*)"],
    "deny": []
  },
  "hooks": {
    "PostToolUse": [
      { "matcher": "Write", "hooks": [{ "type": "command", "command": "prettier --write" }] }
    ],
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./audit.sh", "timeout": 5 }] }
    ]
  },
  "env": { "FOO": "1" }
}
`

layer(NodeServices.layer)("HookCommand.install", (it) => {
  it.effect("creates the file (and .claude/) with the entry, default timeout 60 s", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const result = yield* HookCommand.install(guard(cwd))
      assert.strictEqual(result.status, "added")
      assert.isTrue(result.written)
      assert.isUndefined(result.before)
      assert.strictEqual(result.path, settingsFile(cwd))
      assert.deepStrictEqual(JSON.parse(Fs.readFileSync(result.path, "utf8")), {
        hooks: {
          PreToolUse: [{
            matcher: "Bash",
            hooks: [{ type: "command", command: "node \"$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs\"", timeout: 60 }]
          }]
        }
      })
      assert.isTrue(result.diff.startsWith("--- /dev/null\n+++ b/.claude/settings.json\n@@ -0,0 +1,16 @@\n"))
    }))

  it.effect("is idempotent: the same event, matcher and command is the same entry; the file is not rewritten", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      yield* HookCommand.install(guard(cwd, { timeout: "30 seconds" }))
      const text = Fs.readFileSync(settingsFile(cwd), "utf8")
      const inode = Fs.statSync(settingsFile(cwd)).ino
      const again = yield* HookCommand.install(guard(cwd, { timeout: "30 seconds" }))
      assert.strictEqual(again.status, "unchanged")
      assert.isFalse(again.written)
      assert.strictEqual(again.diff, "")
      // No timeout given: an existing entry keeps its own.
      assert.strictEqual((yield* HookCommand.install(guard(cwd))).status, "unchanged")
      assert.strictEqual(Fs.readFileSync(settingsFile(cwd), "utf8"), text)
      assert.strictEqual(Fs.statSync(settingsFile(cwd)).ino, inode)
      // A missing matcher and "" are one entry too.
      yield* HookCommand.install(guard(cwd, { event: "Stop", matcher: undefined, command: "node stop.mjs" }))
      const same = yield* HookCommand.install(guard(cwd, { event: "Stop", matcher: "", command: "node stop.mjs" }))
      assert.strictEqual(same.status, "unchanged")
    }))

  it.effect("keeps every other key, hook and their order; joins the group with the same matcher", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      writeSettings(cwd, existing)
      const result = yield* HookCommand.install(guard(cwd))
      assert.strictEqual(result.status, "added")
      const after = JSON.parse(Fs.readFileSync(settingsFile(cwd), "utf8"))
      const before = JSON.parse(existing)
      assert.deepStrictEqual(Object.keys(after), ["model", "permissions", "hooks", "env"])
      assert.deepStrictEqual(Object.keys(after.hooks), ["PostToolUse", "PreToolUse"])
      assert.deepStrictEqual(after.permissions, before.permissions)
      assert.deepStrictEqual(after.hooks.PostToolUse, before.hooks.PostToolUse)
      assert.deepStrictEqual(after.env, before.env)
      assert.deepStrictEqual(after.hooks.PreToolUse, [{
        matcher: "Bash",
        hooks: [
          { type: "command", command: "./audit.sh", timeout: 5 },
          { type: "command", command: guard(cwd).command, timeout: 60 }
        ]
      }])
      // Another matcher: a group of its own, after the others.
      yield* HookCommand.install(guard(cwd, { matcher: "AskUserQuestion|mcp__.*__AskUserQuestion" }))
      const more = JSON.parse(Fs.readFileSync(settingsFile(cwd), "utf8"))
      assert.deepStrictEqual(more.hooks.PreToolUse.map((g: any) => g.matcher), [
        "Bash",
        "AskUserQuestion|mcp__.*__AskUserQuestion"
      ])
    }))

  it.effect("a new timeout updates the entry in place", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      writeSettings(cwd, existing)
      const result = yield* HookCommand.install(guard(cwd, { command: "./audit.sh", timeout: "10 seconds" }))
      assert.strictEqual(result.status, "updated")
      assert.strictEqual(
        Fs.readFileSync(settingsFile(cwd), "utf8"),
        existing.replace(`"./audit.sh", "timeout": 5`, `"./audit.sh", "timeout": 10`)
      )
    }))

  it.effect("edits the text in one place: every other byte of the file stays as it was", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      writeSettings(cwd, existing)
      yield* HookCommand.install(guard(cwd))
      assert.strictEqual(
        Fs.readFileSync(settingsFile(cwd), "utf8"),
        existing.replace(
          `"timeout": 5 }]`,
          `"timeout": 5 }, { "type": "command", "command": "node \\"$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs\\"", "timeout": 60 }]`
        )
      )
      writeSettings(cwd, `{"model":"x"}`)
      yield* HookCommand.install(guard(cwd, { event: "Stop", matcher: undefined, command: "s" }))
      assert.strictEqual(
        Fs.readFileSync(settingsFile(cwd), "utf8"),
        `{"model":"x","hooks":{"Stop":[{"hooks":[{"type":"command","command":"s","timeout":60}]}]}}`
      )
    }))

  it.effect("keeps the indentation, the line ends and the final newline (or its absence)", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      writeSettings(cwd, "{\n\t\"model\": \"opus\"\n}")
      yield* HookCommand.install(guard(cwd))
      const text = Fs.readFileSync(settingsFile(cwd), "utf8")
      assert.isTrue(text.startsWith("{\n\t\"model\": \"opus\",\n\t\"hooks\": {\n\t\t\"PreToolUse\""))
      assert.isFalse(text.endsWith("\n"))
      writeSettings(cwd, "{\r\n    \"model\": \"opus\"\r\n}\r\n")
      yield* HookCommand.install(guard(cwd))
      const crlf = Fs.readFileSync(settingsFile(cwd), "utf8")
      assert.isTrue(crlf.startsWith("{\r\n    \"model\": \"opus\",\r\n    \"hooks\""))
      assert.isTrue(crlf.endsWith("}\r\n"))
      assert.notMatch(crlf, /[^\r]\n/)
    }))

  it.effect("dry run: the diff, and nothing written", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      writeSettings(cwd, existing)
      const result = yield* HookCommand.install(guard(cwd, { dryRun: true }))
      assert.isFalse(result.written)
      assert.strictEqual(result.status, "added")
      assert.strictEqual(Fs.readFileSync(settingsFile(cwd), "utf8"), existing)
      assert.strictEqual(
        result.diff,
        [
          "--- a/.claude/settings.json",
          "+++ b/.claude/settings.json",
          "@@ -9,7 +9,7 @@",
          "       { \"matcher\": \"Write\", \"hooks\": [{ \"type\": \"command\", \"command\": \"prettier --write\" }] }",
          "     ],",
          "     \"PreToolUse\": [",
          "-      { \"matcher\": \"Bash\", \"hooks\": [{ \"type\": \"command\", \"command\": \"./audit.sh\", \"timeout\": 5 }] }",
          "+      { \"matcher\": \"Bash\", \"hooks\": [{ \"type\": \"command\", \"command\": \"./audit.sh\", \"timeout\": 5 }, " +
          "{ \"type\": \"command\", \"command\": \"node \\\"$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs\\\"\", \"timeout\": 60 }] }",
          "     ]",
          "   },",
          "   \"env\": { \"FOO\": \"1\" }",
          ""
        ].join("\n")
      )
      const fresh = yield* tempDir
      const none = yield* HookCommand.install(guard(fresh, { dryRun: true }))
      assert.isFalse(Fs.existsSync(NodePath.join(fresh, ".claude")))
      assert.include(none.diff, "--- /dev/null")
    }))

  it.effect("writes atomically: no temp file left, mode kept, a symlinked file updated through its link", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      writeSettings(cwd, existing)
      Fs.chmodSync(settingsFile(cwd), 0o600)
      yield* HookCommand.install(guard(cwd))
      assert.strictEqual(Fs.statSync(settingsFile(cwd)).mode & 0o777, 0o600)
      assert.deepStrictEqual(Fs.readdirSync(NodePath.join(cwd, ".claude")), ["settings.json"])

      const shared = NodePath.join(cwd, "shared-settings.json")
      Fs.writeFileSync(shared, "{}\n")
      const link = NodePath.join(cwd, "linked.json")
      Fs.symlinkSync(shared, link)
      yield* HookCommand.install(guard(cwd, { settings: link }))
      assert.isTrue(Fs.lstatSync(link).isSymbolicLink())
      assert.strictEqual(JSON.parse(Fs.readFileSync(shared, "utf8")).hooks.PreToolUse.length, 1)
    }))

  it.effect("a failed write leaves the file as it was, and no temp file", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      writeSettings(cwd, existing)
      const failingRename = Layer.effect(
        FileSystem.FileSystem,
        Effect.map(Effect.service(FileSystem.FileSystem), (fs) => ({
          ...fs,
          rename: () => Effect.die(new Error("disk full"))
        }))
      ).pipe(Layer.provide(NodeServices.layer))
      const exit = yield* HookCommand.install(guard(cwd)).pipe(
        Effect.catchDefect((defect) => Effect.fail(defect)),
        Effect.provide(failingRename),
        Effect.exit
      )
      assert.isTrue(exit._tag === "Failure")
      assert.strictEqual(Fs.readFileSync(settingsFile(cwd), "utf8"), existing)
      assert.deepStrictEqual(Fs.readdirSync(NodePath.join(cwd, ".claude")), ["settings.json"])
    }))

  it.effect("refuses settings it cannot read as JSON, and leaves them alone", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      for (const text of ["{ \"model\": ", "[1, 2]", "{\"hooks\": []}", "{\"hooks\": {\"PreToolUse\": {}}}"]) {
        writeSettings(cwd, text)
        const error = yield* Effect.flip(HookCommand.install(guard(cwd)))
        assert.strictEqual(error._tag, "HookCommandError")
        assert.strictEqual(error.reason, "InvalidSettings")
        assert.strictEqual(error.path, settingsFile(cwd))
        assert.include(error.message, "left as it is")
        assert.strictEqual(Fs.readFileSync(settingsFile(cwd), "utf8"), text)
      }
      // An empty file is an empty object.
      writeSettings(cwd, "")
      assert.strictEqual((yield* HookCommand.install(guard(cwd))).status, "added")
    }))

  it.effect("refuses bad options", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const bad: ReadonlyArray<Partial<HookCommand.InstallOptions>> = [
        { command: "  " },
        // @ts-expect-error not a hook event
        { event: "PreToolUsed" },
        { timeout: "-1 seconds" },
        { timeout: Infinity }
      ]
      for (const options of bad) {
        const error = yield* Effect.flip(HookCommand.install(guard(cwd, options)))
        assert.strictEqual(error.reason, "InvalidOptions", JSON.stringify(options))
      }
      assert.isFalse(Fs.existsSync(NodePath.join(cwd, ".claude")))
    }))

  it.effect("settings targets: project, local, user (CLAUDE_CONFIG_DIR, else HOME/.claude), a path", () =>
    Effect.gen(function*() {
      const path = yield* Path.Path
      assert.strictEqual(yield* HookCommand.settingsPath("project", "/p"), "/p/.claude/settings.json")
      assert.strictEqual(yield* HookCommand.settingsPath("local", "/p"), "/p/.claude/settings.local.json")
      assert.strictEqual(yield* HookCommand.settingsPath("conf/hooks.json", "/p"), "/p/conf/hooks.json")
      assert.strictEqual(yield* HookCommand.settingsPath("/etc/x.json", "/p"), "/etc/x.json")
      const withEnv = (env: Record<string, string>) =>
        HookCommand.settingsPath("user").pipe(
          Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown(env))
        )
      assert.strictEqual(yield* withEnv({ CLAUDE_CONFIG_DIR: "/cfg", HOME: "/h" }), "/cfg/settings.json")
      assert.strictEqual(yield* withEnv({ HOME: "/h" }), "/h/.claude/settings.json")
      assert.strictEqual(yield* withEnv({}), path.join(Os.homedir(), ".claude", "settings.json"))
    }))
})

describe("unifiedDiff", () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`)
  const text = (xs: ReadonlyArray<string>) => xs.join("\n") + "\n"

  it("nothing for equal texts; separate hunks for distant changes, one for near ones", () => {
    assert.strictEqual(unifiedDiff("f", "a\n", "a\n"), "")
    const before = lines(20)
    const after = [...before]
    after[1] = "changed 2"
    after[17] = "changed 18"
    assert.strictEqual(
      unifiedDiff("f", text(before), text(after)),
      [
        "--- a/f",
        "+++ b/f",
        "@@ -1,5 +1,5 @@",
        " line 1",
        "-line 2",
        "+changed 2",
        " line 3",
        " line 4",
        " line 5",
        "@@ -15,6 +15,6 @@",
        " line 15",
        " line 16",
        " line 17",
        "-line 18",
        "+changed 18",
        " line 19",
        " line 20",
        ""
      ].join("\n")
    )
    const near = [...before]
    near[5] = "x"
    near[10] = "y"
    assert.strictEqual(unifiedDiff("f", text(before), text(near)).match(/^@@/gm)?.length, 1)
  })
})

// One of several Arbitraries, each as likely (fast-check's `oneof`).
const oneOf = <A>(...arbitraries: ReadonlyArray<Arbitrary.Arbitrary<A>>): Arbitrary.Arbitrary<A> =>
  Arbitrary.flatMap(
    Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: arbitraries.length - 1 }))),
    (index) => arbitraries[index]!
  )

// fast-check's `constantFrom`.
const constantFrom = <const A extends ReadonlyArray<string | number>>(...values: A): Arbitrary.Arbitrary<A[number]> =>
  oneOf<A[number]>(...values.map((value) => Arbitrary.Constant(value)))

describe("the text edit", () => {
  const hookArb = Arbitrary.all({
    type: Arbitrary.Constant("command"),
    command: constantFrom("a", "b", "node x.mjs"),
    timeout: constantFrom(5, 60)
  })
  const groupArb = Arbitrary.map(
    Arbitrary.all({
      matcher: oneOf<string | undefined>(constantFrom("Bash", "Write", ""), Arbitrary.Constant(undefined)),
      hooks: Arbitrary.array(hookArb, { maxLength: 3 })
    }),
    ({ hooks, matcher }) => (matcher === undefined ? { hooks } : { matcher, hooks })
  )
  // Up to 4 keys of up to 6 characters, any JSON under them (fast-check's dictionary of `jsonValue`).
  const othersArb = Arbitrary.map(
    Arbitrary.schema(Schema.Record(Schema.String.check(Schema.isMaxLength(6)), Schema.Json)),
    (record) => Object.fromEntries(Object.entries(record).filter(([key]) => key !== "hooks").slice(0, 4))
  )
  const hooksArb = Arbitrary.map(
    Arbitrary.array(
      Arbitrary.all([constantFrom("PreToolUse", "Stop", "PostToolUse"), Arbitrary.array(groupArb, { maxLength: 3 })]),
      { maxLength: 3 }
    ),
    (entries) => Object.fromEntries(entries)
  )
  const settingsArb = Arbitrary.map(
    Arbitrary.all([othersArb, oneOf<Record<string, unknown> | undefined>(hooksArb, Arbitrary.Constant(undefined))]),
    ([others, hooks]) => (hooks === undefined ? others : { ...others, hooks })
  )

  it.prop(
    "any settings, any formatting: one edit in place, the merge's result, and idempotent",
    {
      settings: settingsArb,
      indent: constantFrom(0, 2, 4, "\t"),
      crlf: Schema.Boolean,
      event: constantFrom("PreToolUse", "Stop"),
      matcher: oneOf<string | undefined>(constantFrom("Bash", "Write"), Arbitrary.Constant(undefined)),
      command: constantFrom("a", "b", "node x.mjs"),
      timeout: oneOf<number | undefined>(Arbitrary.Constant(undefined), constantFrom(5, 60))
    },
    ({ command, crlf, event, indent, matcher, settings, timeout }) => {
      const plain = JSON.stringify(settings, null, indent) + "\n"
      const text = crlf ? plain.replace(/\n/g, "\r\n") : plain
      const entry = { event, matcher, command, timeout }
      const merged = merge(JSON.parse(text), entry)
      assert.strictEqual(merged._tag, "Merged")
      if (merged._tag !== "Merged") return
      const after = afterText(text, merged.settings, merged.edit)
      assert.strictEqual(JSON.stringify(JSON.parse(after)), JSON.stringify(merged.settings))
      if (merged.edit !== undefined) {
        // The text edit itself gave that result (no fallback to a full rewrite)...
        assert.strictEqual(after, editText(text, merged.edit, styleOf(text)))
        // ...and changed one line at most.
        const removed = unifiedDiff("f", text, after).split("\n").filter((l) =>
          l.startsWith("-") && !l.startsWith("---")
        )
        assert.isAtMost(removed.length, 1)
        if (crlf) assert.notMatch(after, /[^\r]\n/)
      }
      const again = merge(JSON.parse(after), entry)
      assert.strictEqual(again._tag === "Merged" && again.status, "unchanged")
    },
    { arbitrary: { runs: 300 } }
  )
})

// What the command line prints, line by line: effect 4's Console is a Reference.
const captured = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const out: Array<string> = []
    const err: Array<string> = []
    const value = yield* effect.pipe(
      Effect.provideService(Console.Console, {
        ...globalThis.console,
        log: (...args: ReadonlyArray<unknown>) => void out.push(args.join(" ")),
        error: (...args: ReadonlyArray<unknown>) => void err.push(args.join(" "))
      })
    )
    return { value, out: out.join("\n"), err: err.join("\n") }
  })

layer(NodeServices.layer)("claude-effect-hooks (effect/cli)", (it) => {
  it.effect("every flag reaches install: --flag=value and --flag value, --dry-run writes nothing", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const run = yield* captured(cli([
        "install",
        "--event",
        "PreToolUse",
        "--matcher=Bash",
        "--command",
        "node g.mjs --flag=1",
        "--timeout",
        "45",
        "--settings",
        "local",
        "--cwd",
        cwd,
        "--dry-run"
      ]))
      assert.strictEqual(run.value, 0, run.err)
      assert.include(run.out, "+++ b/.claude/settings.local.json")
      assert.include(run.out, `+        "matcher": "Bash",`)
      assert.include(run.out, `"command": "node g.mjs --flag=1",`)
      assert.include(run.out, `"timeout": 45`)
      assert.include(run.err, "Dry run: the PreToolUse (Bash) hook would be added to")
      assert.isFalse(Fs.existsSync(NodePath.join(cwd, ".claude")))
    }))

  it.effect("prints the diff on stdout, what it did on stderr; exit codes 0, 1, 2", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const args = ["install", "--cwd", cwd, "--event", "PreToolUse", "--matcher", "Bash", "--command", "node g.mjs"]
      const first = yield* captured(cli(args))
      assert.strictEqual(first.value, 0)
      assert.include(first.out, "+++ b/.claude/settings.json")
      assert.include(first.err, "was added to")
      const second = yield* captured(cli(args))
      assert.strictEqual(second.value, 0)
      assert.strictEqual(second.out, "")
      assert.include(second.err, "already in")
      writeSettings(cwd, "not json")
      const bad = yield* captured(cli(args))
      assert.strictEqual(bad.value, 1)
      assert.include(bad.err, "claude-effect-hooks: the settings file is not JSON")
      assert.strictEqual(Fs.readFileSync(settingsFile(cwd), "utf8"), "not json")
    }))

  it.effect("bad usage: exit 2, the problem on stderr, nothing written", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const usage = (args: ReadonlyArray<string>) => captured(cli(["install", "--cwd", cwd, ...args]))
      const noEvent = yield* usage(["--command", "x"])
      assert.strictEqual(noEvent.value, 2)
      assert.include(noEvent.err, "event")
      const noCommand = yield* usage(["--event", "Stop"])
      assert.strictEqual(noCommand.value, 2)
      assert.include(noCommand.err, "command")
      const badEvent = yield* usage(["--event", "PreToolUsed", "--command", "x"])
      assert.strictEqual(badEvent.value, 2)
      assert.include(badEvent.err, "PreToolUsed")
      const badTimeout = yield* usage(["--event", "Stop", "--command", "x", "--timeout", "soon"])
      assert.strictEqual(badTimeout.value, 2)
      assert.include(badTimeout.err, "soon")
      const unknown = yield* captured(cli(["remove"]))
      assert.strictEqual(unknown.value, 2)
      // A timeout that parses but is not positive is install's own refusal: exit 1.
      const zero = yield* usage(["--event", "Stop", "--command", "x", "--timeout", "0"])
      assert.strictEqual(zero.value, 1)
      assert.include(zero.err, "is not a positive duration")
      assert.isFalse(Fs.existsSync(NodePath.join(cwd, ".claude")))
    }))

  it.effect("--help: the flags and the events, exit 0", () =>
    Effect.gen(function*() {
      const help = yield* captured(cli(["install", "--help"]))
      assert.strictEqual(help.value, 0)
      for (const flag of ["--event", "--command", "--matcher", "--settings", "--timeout", "--cwd", "--dry-run"]) {
        assert.include(help.out, flag)
      }
      assert.include(help.out, "PermissionRequest")
    }))
})

describe("claude-effect-hooks (bin/claude-effect-hooks.mjs)", () => {
  it.live("the bin runs in the workspace", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const bin = fileURLToPath(new URL("../bin/claude-effect-hooks.mjs", import.meta.url))
      const proc = yield* ChildProcess.make(process.execPath, [
        bin,
        "install",
        "--cwd",
        cwd,
        "--event",
        "PreToolUse",
        "--matcher",
        "Bash",
        "--command",
        "node g.mjs",
        "--dry-run"
      ], { killSignal: "SIGKILL" })
      const [stdout, stderr] = yield* Effect.all(
        [Stream.mkString(Stream.decodeText(proc.stdout)), Stream.mkString(Stream.decodeText(proc.stderr))],
        { concurrency: 2 }
      )
      assert.strictEqual(yield* proc.exitCode, 0, stderr)
      assert.include(stdout, "+++ b/.claude/settings.json")
      assert.include(stderr, "Dry run")
      assert.isFalse(Fs.existsSync(NodePath.join(cwd, ".claude")))
    }).pipe(Effect.scoped, Effect.timeout("60 seconds"), Effect.provide(NodeServices.layer)), 60_000)
})
