/**
 * The `sandbox` option: typed as the official `SandboxSettings`, merged into
 * the `sandbox` block of the settings (in `initialize`, or on `--settings`)
 * by the official SDK's rules. Ported from packages/sdk/test/Sandbox.test.ts;
 * its tests on the real CLI (a sandboxed Bash command confined by bubblewrap,
 * the CLI refusing to start without it) need the session and are ported with
 * it.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as ClaudeOptions from "../src/ClaudeOptions.js"

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
