import { HookCommand } from "@claude-effect/sdk"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import { assert, describe, layer } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import type * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { cli, parseArgs } from "../src/internal/hookCommandCli.js"
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

layer(NodeContext.layer)("HookCommand.install", (it) => {
  it.scoped("creates the file (and .claude/) with the entry, default timeout 60 s", () =>
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

  it.scoped("is idempotent: the same event, matcher and command is the same entry; the file is not rewritten", () =>
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

  it.scoped("keeps every other key, hook and their order; joins the group with the same matcher", () =>
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

  it.scoped("a new timeout updates the entry in place", () =>
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

  it.scoped("edits the text in one place: every other byte of the file stays as it was", () =>
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

  it.scoped("keeps the indentation, the line ends and the final newline (or its absence)", () =>
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

  it.scoped("dry run: the diff, and nothing written", () =>
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

  it.scoped("writes atomically: no temp file left, mode kept, a symlinked file updated through its link", () =>
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

  it.scoped("a failed write leaves the file as it was, and no temp file", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      writeSettings(cwd, existing)
      const failingRename = Layer.effect(
        FileSystem.FileSystem,
        Effect.map(FileSystem.FileSystem, (fs) => ({
          ...fs,
          rename: () => Effect.die(new Error("disk full"))
        }))
      ).pipe(Layer.provide(NodeContext.layer))
      const exit = yield* HookCommand.install(guard(cwd)).pipe(
        Effect.catchAllDefect((defect) => Effect.fail(defect)),
        Effect.provide(failingRename),
        Effect.exit
      )
      assert.isTrue(exit._tag === "Failure")
      assert.strictEqual(Fs.readFileSync(settingsFile(cwd), "utf8"), existing)
      assert.deepStrictEqual(Fs.readdirSync(NodePath.join(cwd, ".claude")), ["settings.json"])
    }))

  it.scoped("refuses settings it cannot read as JSON, and leaves them alone", () =>
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

  it.scoped("refuses bad options", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const bad: ReadonlyArray<Partial<HookCommand.InstallOptions>> = [
        { command: "  " },
        { event: "PreToolUsed" as any },
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
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
        )
      assert.strictEqual(yield* withEnv({ CLAUDE_CONFIG_DIR: "/cfg", HOME: "/h" }), "/cfg/settings.json")
      assert.strictEqual(yield* withEnv({ HOME: "/h" }), "/h/.claude/settings.json")
      assert.strictEqual(yield* withEnv({}), path.join(Os.homedir(), ".claude", "settings.json"))
    }))
})

describe("unifiedDiff", () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`)
  const text = (xs: ReadonlyArray<string>) => xs.join("\n") + "\n"

  layer(Layer.empty)((it) => {
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
})

describe("the text edit", () => {
  const hookArb = FastCheck.record({
    type: FastCheck.constant("command"),
    command: FastCheck.constantFrom("a", "b", "node x.mjs"),
    timeout: FastCheck.constantFrom(5, 60)
  })
  const groupArb = FastCheck.record(
    { matcher: FastCheck.constantFrom("Bash", "Write", ""), hooks: FastCheck.array(hookArb, { maxLength: 3 }) },
    { requiredKeys: ["hooks"] }
  )
  const settingsArb = FastCheck.tuple(
    FastCheck.dictionary(FastCheck.string({ maxLength: 6 }), FastCheck.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    FastCheck.option(
      FastCheck.dictionary(
        FastCheck.constantFrom("PreToolUse", "Stop", "PostToolUse"),
        FastCheck.array(groupArb, { maxLength: 3 })
      )
    )
  ).map(([rest, hooks]) => {
    const { hooks: _, ...others } = rest
    return hooks === null ? others : { ...others, hooks }
  })

  layer(Layer.empty)((it) => {
    it.prop(
      "any settings, any formatting: one edit in place, the merge's result, and idempotent",
      {
        settings: settingsArb,
        indent: FastCheck.constantFrom(0, 2, 4, "\t"),
        crlf: FastCheck.boolean(),
        event: FastCheck.constantFrom("PreToolUse", "Stop"),
        matcher: FastCheck.constantFrom("Bash", "Write", undefined),
        command: FastCheck.constantFrom("a", "b", "node x.mjs"),
        timeout: FastCheck.constantFrom(undefined, 5, 60)
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
      { fastCheck: { numRuns: 300 } }
    )
  })
})

const captureConsole = () => {
  const out: Array<string> = []
  const err: Array<string> = []
  const console = {
    log: (...args: ReadonlyArray<unknown>) => Effect.sync(() => void out.push(args.join(" "))),
    error: (...args: ReadonlyArray<unknown>) => Effect.sync(() => void err.push(args.join(" ")))
  } as unknown as Console.Console
  return { console, out, err }
}

layer(NodeContext.layer)("claude-effect-hooks", (it) => {
  it("parses its arguments", () => {
    assert.deepStrictEqual(parseArgs([]), { _tag: "Help" })
    assert.deepStrictEqual(parseArgs(["install", "--help"]), { _tag: "Help" })
    assert.deepStrictEqual(parseArgs(["remove"]), { _tag: "Usage", problem: "unknown command \"remove\"" })
    assert.deepStrictEqual(parseArgs(["install", "--command", "x"]), { _tag: "Usage", problem: "--event is required" })
    assert.deepStrictEqual(parseArgs(["install", "--event", "Stop", "--command"]), {
      _tag: "Usage",
      problem: "--command needs a value"
    })
    assert.deepStrictEqual(parseArgs(["install", "--event=Stop", "--command=x", "--timeout", "soon"]), {
      _tag: "Usage",
      problem: "--timeout must be a positive number of seconds, not \"soon\""
    })
    assert.deepStrictEqual(
      parseArgs([
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
        "/p",
        "--dry-run"
      ]),
      {
        _tag: "Install",
        options: {
          settings: "local",
          event: "PreToolUse",
          command: "node g.mjs --flag=1",
          matcher: "Bash",
          timeout: "45 seconds",
          cwd: "/p",
          dryRun: true
        }
      }
    )
  })

  it.scoped("prints the diff on stdout, what it did on stderr; exit codes 0, 1, 2", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const args = ["install", "--cwd", cwd, "--event", "PreToolUse", "--matcher", "Bash", "--command", "node g.mjs"]
      const first = captureConsole()
      assert.strictEqual(yield* Effect.withConsole(cli(args), first.console), 0)
      assert.include(first.out.join("\n"), "+++ b/.claude/settings.json")
      assert.include(first.err.join("\n"), "was added to")
      const second = captureConsole()
      assert.strictEqual(yield* Effect.withConsole(cli(args), second.console), 0)
      assert.deepStrictEqual(second.out, [])
      assert.include(second.err.join("\n"), "already in")
      const bad = captureConsole()
      writeSettings(cwd, "not json")
      assert.strictEqual(yield* Effect.withConsole(cli(args), bad.console), 1)
      assert.include(bad.err.join("\n"), "not JSON")
      const usage = captureConsole()
      assert.strictEqual(yield* Effect.withConsole(cli(["install"]), usage.console), 2)
      assert.include(usage.err.join("\n"), "Usage: claude-effect-hooks install")
    }))

  it.scoped("the bin runs in the workspace", () =>
    Effect.gen(function*() {
      const cwd = yield* tempDir
      const bin = fileURLToPath(new URL("../bin/claude-effect-hooks.mjs", import.meta.url))
      const result = yield* Effect.async<{ status: number | null; stdout: string; stderr: string }>((resume) => {
        const child = execFile(
          process.execPath,
          [
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
          ],
          { encoding: "utf8", timeout: 60_000 },
          (_e, stdout, stderr) => resume(Effect.succeed({ status: child.exitCode, stdout, stderr }))
        )
      })
      assert.strictEqual(result.status, 0, result.stderr)
      assert.include(result.stdout, "+++ b/.claude/settings.json")
      assert.include(result.stderr, "Dry run")
      assert.isFalse(Fs.existsSync(NodePath.join(cwd, ".claude")))
    }), 60_000)
})
