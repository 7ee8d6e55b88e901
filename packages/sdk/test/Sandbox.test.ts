/**
 * The `sandbox` option: typed as the official `SandboxSettings`, merged into
 * the `sandbox` block of the settings (in `initialize`, or on `--settings`)
 * by the official SDK's rules, and applied by the real CLI 2.1.328 — a
 * sandboxed Bash command cannot write outside the paths it is given
 * (bubblewrap and socat on Linux: .ci/run installs them), and without them
 * the session refuses to run commands unsandboxed.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import * as ClaudeOptions from "../src/ClaudeOptions.js"
import { ClaudeCode, ControlRequest } from "../src/index.js"
import { bash, harness, Workspace } from "./utils/harness.js"

type Options = ClaudeOptions.Options

const decode = (input: ClaudeOptions.OptionsInput) => ClaudeOptions.decode(input)
const decodeError = (input: unknown) => Effect.flip(ClaudeOptions.decode(input))

/**
 * The settings the CLI gets, as JSON: the `initialize` field (the default), or what `--settings` carries with
 * `settingsDelivery: "argv"` (the two must agree); `undefined` when there are none.
 */
const settingsArg = (options: Options): unknown => {
  const fields = ClaudeOptions.toInitializeFields(options)
  const args = ClaudeOptions.toCliArgs({ ...options, settingsDelivery: "argv" }, { permissionPromptTool: false })
  const at = args.findIndex((arg) => arg === "--settings" || arg.startsWith("--settings="))
  const flag = at < 0
    ? undefined
    : JSON.parse(args[at] === "--settings" ? args[at + 1] : args[at].slice("--settings=".length))
  const initialize = fields.settings === undefined ? undefined : JSON.parse(JSON.stringify(fields.settings))
  assert.deepStrictEqual(initialize, flag, "initialize and --settings carry the same settings")
  return initialize
}

const tempDir = (prefix: string) => Fs.realpathSync(Fs.mkdtempSync(NodePath.join(Os.tmpdir(), prefix)))

// -----------------------------------------------------------------------------
// the option: schema, route, merging
// -----------------------------------------------------------------------------

describe("the sandbox option", () => {
  it.effect("goes to --settings as its sandbox block; enabled: true brings failIfUnavailable: true", () =>
    Effect.gen(function*() {
      const options = yield* decode({ sandbox: { enabled: true, filesystem: { allowWrite: ["/data"] } } })
      assert.deepStrictEqual(settingsArg(options), {
        sandbox: { enabled: true, filesystem: { allowWrite: ["/data"] }, failIfUnavailable: true }
      })
      // said otherwise, it stays; not enabled, nothing is added
      assert.deepStrictEqual(
        settingsArg(yield* decode({ sandbox: { enabled: true, failIfUnavailable: false } })),
        { sandbox: { enabled: true, failIfUnavailable: false } }
      )
      assert.deepStrictEqual(settingsArg(yield* decode({ sandbox: { excludedCommands: ["docker *"] } })), {
        sandbox: { excludedCommands: ["docker *"] }
      })
      assert.deepStrictEqual(ClaudeOptions.routes.sandbox, ["flag", "initialize"])
    }))

  it.effect("merges into inline settings by the official SDK's rules", () =>
    Effect.gen(function*() {
      const settings = {
        permissions: { allow: ["Bash(ls *)"] },
        sandbox: {
          enabled: false,
          autoAllowBashIfSandboxed: true,
          filesystem: { disabled: true, denyRead: ["/secrets"], allowWrite: ["/old"] },
          network: { httpProxyPort: 8080, deniedDomains: ["evil.example"], allowLocalBinding: true },
          ripgrep: { command: "/usr/bin/rg", args: ["--hidden"] },
          credentials: { files: [{ path: "/home/me/.netrc", mode: "mask" }] }
        }
      }
      const sandbox: ClaudeOptions.SandboxSettings = {
        enabled: true,
        filesystem: { denyRead: ["/keys"], allowWrite: ["/new"] },
        network: { allowedDomains: ["api.example"], deniedDomains: ["evil.example", "worse.example"] },
        ripgrep: { command: "/opt/rg" },
        credentials: { files: [{ path: "/home/me/.netrc", mode: "deny" }] }
      }
      const expected = {
        permissions: { allow: ["Bash(ls *)"] },
        sandbox: {
          // a value the option sets replaces; one it does not set is kept
          enabled: true,
          autoAllowBashIfSandboxed: true,
          // `disabled: true` would switch off what the option asks of the filesystem: dropped.
          // The restriction lists are combined; other lists are replaced.
          filesystem: { denyRead: ["/secrets", "/keys"], allowWrite: ["/new"] },
          // the option restricts the network: one's own proxy (not checked against the lists) is dropped
          network: {
            deniedDomains: ["evil.example", "worse.example"],
            allowLocalBinding: true,
            allowedDomains: ["api.example"]
          },
          // replaced whole
          ripgrep: { command: "/opt/rg" },
          // a deny for the same file wins over a mask
          credentials: { files: [{ path: "/home/me/.netrc", mode: "deny" }] },
          failIfUnavailable: true
        }
      }
      assert.deepStrictEqual(settingsArg(yield* decode({ settings, sandbox })), expected)
      // the same from a JSON string
      assert.deepStrictEqual(settingsArg(yield* decode({ settings: JSON.stringify(settings), sandbox })), expected)
    }))

  it.effect("a call's sandbox refines the layer's by the same rules", () =>
    Effect.gen(function*() {
      const defaults = yield* ClaudeOptions.decodePartial({
        sandbox: { enabled: true, filesystem: { denyRead: ["/secrets"] }, network: { allowedDomains: ["a.example"] } }
      })
      const call = yield* ClaudeOptions.decodePartial({
        sandbox: { filesystem: { denyRead: ["/keys"] }, network: { allowedDomains: ["b.example"] } }
      })
      assert.deepStrictEqual(ClaudeOptions.merge(defaults, call).sandbox, {
        enabled: true,
        filesystem: { denyRead: ["/secrets", "/keys"] },
        network: { allowedDomains: ["b.example"] }
      })
    }))

  it.effect("with a settings file path it is a Conflict; settings that are not JSON are caught, unquoted", () =>
    Effect.gen(function*() {
      const conflict = yield* decodeError({ settings: "/etc/claude/settings.json", sandbox: { enabled: true } })
      assert.strictEqual(conflict.reason, "Conflict")
      assert.include(conflict.detail, "sandbox cannot be merged into a settings file")
      const broken = yield* decodeError({ settings: "{ \"apiKeyHelper\": sk-ant-oops }", sandbox: { enabled: true } })
      assert.strictEqual(broken.reason, "InvalidOptions")
      assert.include(broken.detail, "settings: starts with \"{\" but is not valid JSON")
      assert.notInclude(broken.detail, "sk-ant-oops")
    }))

  it.effect("a misspelt or mistyped field is an OptionsError that names it", () =>
    Effect.gen(function*() {
      const misspelt = yield* decodeError({ sandbox: { enabled: true, filesystem: { allowWrites: ["/x"] } } })
      assert.include(misspelt.detail, "sandbox.filesystem.allowWrites: unknown field (did you mean \"allowWrite\"?)")
      const port = yield* decodeError({ sandbox: { network: { httpProxyPort: 70000 } } })
      assert.include(port.detail, "sandbox.network.httpProxyPort")
      const mask = yield* decodeError({
        sandbox: { credentials: { files: [{ path: "/home/me/.aws/", mode: "mask" }] } }
      })
      assert.include(mask.detail, "mode \"mask\" applies to one file, not a directory")
      const envVar = yield* decodeError({
        sandbox: { credentials: { envVars: [{ name: "NOT-A-NAME", mode: "deny" }] } }
      })
      assert.include(envVar.detail, "must be an environment variable name")
      // Fields the CLI knows and the schema does not are kept.
      const kept = yield* decode({ sandbox: { enabled: true, windows: { backend: "sandboxuser" } } })
      assert.deepStrictEqual((settingsArg(kept) as { sandbox: Record<string, unknown> }).sandbox.windows, {
        backend: "sandboxuser"
      })
    }))

  it("fields named constructor or prototype reach --settings like any other; a __proto__ key is dropped and sets nothing", () => {
    const sandbox = JSON.parse(`{"enabled":false,"prototype":[],"constructor":{"a":1},"network":{"prototype":"x"}}`)
    const sent = (settingsArg({ sandbox }) as { sandbox: Record<string, unknown> }).sandbox
    assert.deepStrictEqual(sent, sandbox)
    const withProto = (settingsArg({ sandbox: JSON.parse(`{"enabled":false,"__proto__":{"polluted":true}}`) }) as {
      sandbox: Record<string, unknown>
    }).sandbox
    assert.deepStrictEqual(Object.keys(withProto), ["enabled"])
    assert.strictEqual(Object.getPrototypeOf(withProto), Object.prototype)
    assert.isUndefined((withProto as { polluted?: unknown }).polluted)
  })

  const withoutProtoKeys = <A>(value: A): A =>
    JSON.parse(JSON.stringify(value), (key, inner) => (key === "__proto__" ? undefined : inner))

  it.prop(
    "any SandboxSettings reaches --settings whole (with failIfUnavailable when enabled)",
    [ClaudeOptions.SandboxSettings],
    ([generated]) => {
      // A "__proto__" key (the arbitrary's unknown fields may draw one) is no setting: the mapping drops it
      // (an assignment would set the prototype), where JSON.parse keeps it as an own property.
      const sandbox = withoutProtoKeys(generated)
      const sent = (settingsArg({ sandbox }) as { sandbox: Record<string, unknown> }).sandbox
      const expected = sandbox.enabled === true && sandbox.failIfUnavailable === undefined
        ? { ...sandbox, failIfUnavailable: true }
        : sandbox
      assert.deepStrictEqual(sent, JSON.parse(JSON.stringify(expected)))
      // and what is sent decodes as SandboxSettings again
      assert.isTrue(Schema.is(ClaudeOptions.SandboxSettings)(sent))
    },
    { arbitrary: { runs: 60 } }
  )

  it.effect("the schema has an Arbitrary", () =>
    Effect.gen(function*() {
      const sample = yield* Arbitrary.sampleEffect(Arbitrary.schema(ClaudeOptions.SandboxSettings), { count: 3 })
      assert.strictEqual(sample.length, 3)
    }))
})

// -----------------------------------------------------------------------------
// the real CLI
// -----------------------------------------------------------------------------

const onPath = (command: string) => ChildProcess.spawnSync("sh", ["-c", `command -v ${command}`]).status === 0

/** The part of a settings object the get_settings test reads. */
const SandboxPart = Schema.Struct({
  sandbox: Schema.Struct({
    enabled: Schema.optional(Schema.Boolean),
    failIfUnavailable: Schema.optional(Schema.Boolean),
    excludedCommands: Schema.optional(Schema.Array(Schema.String)),
    filesystem: Schema.optional(Schema.Struct({ allowWrite: Schema.optional(Schema.Array(Schema.String)) }))
  })
})
const sandboxOf = (settings: unknown) => Schema.decodeUnknownSync(SandboxPart)(settings).sandbox

describe.runIf(process.platform === "linux")("the sandbox on the real CLI (Linux: bubblewrap)", () => {
  it("bubblewrap and socat are installed (.ci/run installs them: apt-get install bubblewrap socat)", () => {
    assert.isTrue(onPath("bwrap") && onPath("socat"), "install them: apt-get install -y bubblewrap socat")
  })

  const outside = tempDir("claude-effect-outside-")
  const allowed = tempDir("claude-effect-allowed-")
  const control = tempDir("claude-effect-control-")
  afterAll(() => {
    for (const dir of [outside, allowed, control]) Fs.rmSync(dir, { recursive: true, force: true })
  })
  const writeEverywhere = bash(
    `echo in > inside.txt; echo out > ${outside}/outside.txt; echo ok > ${allowed}/allowed.txt; echo done`
  )

  it.live(
    "a sandboxed Bash command writes in the working directory and allowWrite paths, nowhere else",
    () =>
      Effect.gen(function*() {
        const workspace = yield* Workspace
        const result = yield* ClaudeCode.result("write the files", {
          // autoAllowBashIfSandboxed is what lets the command run at all: no rule allows Bash, no gate answers.
          sandbox: { enabled: true, autoAllowBashIfSandboxed: true, filesystem: { allowWrite: [allowed] } }
        })
        assert.isFalse(result.is_error)
        assert.strictEqual(workspace.read("inside.txt").trim(), "in")
        assert.strictEqual(Fs.readFileSync(NodePath.join(allowed, "allowed.txt"), "utf8").trim(), "ok")
        assert.isFalse(Fs.existsSync(NodePath.join(outside, "outside.txt")), "the sandbox let a write outside through")
        const [toolResult] = yield* ScriptedModel.toolResults
        assert.include(toolResult.content, `${outside}/outside.txt: Read-only file system`)
      }).pipe(Effect.provide(harness([writeEverywhere, ScriptedModel.text("ok")]))),
    60_000
  )

  it.live("the same command without the sandbox writes outside (the control)", () =>
    Effect.gen(function*() {
      yield* ClaudeCode.result("write the file", { allowedTools: ["Bash"] })
      assert.strictEqual(Fs.readFileSync(NodePath.join(control, "outside.txt"), "utf8").trim(), "out")
    }).pipe(
      Effect.provide(harness([bash(`echo out > ${control}/outside.txt`), ScriptedModel.text("ok")]))
    ), 60_000)

  it.live(
    "the CLI reports the sandbox it took: get_settings reads it back from the flag settings",
    () =>
      Effect.gen(function*() {
        const session = yield* ClaudeCode.session({
          settings: { sandbox: { excludedCommands: ["docker *"] } },
          sandbox: { enabled: true, filesystem: { allowWrite: [allowed] } }
        })
        const settings = yield* session.request(ControlRequest.requests.get_settings, {})
        const sandbox = sandboxOf(settings.effective)
        assert.strictEqual(sandbox.enabled, true)
        assert.strictEqual(sandbox.failIfUnavailable, true)
        assert.deepStrictEqual(sandbox.filesystem?.allowWrite, [allowed])
        assert.deepStrictEqual(sandbox.excludedCommands, ["docker *"])
        const flag = settings.sources.find((source) => source.source === "flagSettings")
        assert.isDefined(flag, "the CLI lists the flag settings as a source")
        assert.deepStrictEqual(sandboxOf(flag?.settings).filesystem?.allowWrite, [allowed])
      }).pipe(Effect.scoped, Effect.provide(harness([]))),
    60_000
  )
})

describe("the sandbox where it cannot run (no bubblewrap on PATH)", () => {
  // An empty PATH: the CLI finds neither bwrap nor socat (its shell is /bin/bash; echo is a builtin).
  const noSandboxTools = { PATH: "/nonexistent" }

  it.live(
    "enabled: the CLI refuses to start, with its reason in the InitializeError; nothing runs",
    () =>
      Effect.gen(function*() {
        const workspace = yield* Workspace
        const error = yield* ClaudeCode.result("write it", {
          env: noSandboxTools,
          sandbox: { enabled: true, autoAllowBashIfSandboxed: true }
        }).pipe(Effect.flip)
        assert.strictEqual(error._tag, "InitializeError")
        if (error._tag !== "InitializeError") return
        assert.strictEqual(error.reason, "CliExited")
        assert.match(error.message, /sandbox required but unavailable: .*bubblewrap \(bwrap\) not installed/)
        assert.include(error.message, "Refusing to start without a working sandbox")
        assert.isFalse(workspace.exists("inside.txt"))
        assert.lengthOf(yield* ScriptedModel.requests, 0, "the model was never asked")
      }).pipe(Effect.provide(harness([bash("echo in > inside.txt"), ScriptedModel.text("ok")]))),
    60_000
  )

  it.live(
    "failIfUnavailable: false runs unsandboxed, and the CLI's warning arrives on session.stderr",
    () =>
      Effect.gen(function*() {
        const workspace = yield* Workspace
        const session = yield* ClaudeCode.session({
          env: noSandboxTools,
          allowedTools: ["Bash"],
          sandbox: { enabled: true, failIfUnavailable: false }
        })
        const messages = yield* session.turn("write it").pipe(Stream.runCollect)
        assert.strictEqual(messages[messages.length - 1]?.type, "result")
        assert.strictEqual(workspace.read("inside.txt").trim(), "in")
        yield* session.endInput
        const stderr = yield* Stream.runCollect(session.stderr)
        assert.isTrue(
          stderr.some((line) => line.includes("Sandbox disabled: sandbox is enabled but dependencies are missing")),
          stderr.join("\n")
        )
      }).pipe(Effect.scoped, Effect.provide(harness([bash("echo in > inside.txt"), ScriptedModel.text("ok")]))),
    60_000
  )
})
