/**
 * A newcomer's first hour, continued: a bad environment variable for
 * `ClaudeCode.layerConfig`, and a hook or a gate that answers something that
 * is not a valid answer. Each gets an error or a warning that names what is
 * wrong — the variable, the field — in a line, not a dump of a schema.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import { ClaudeCode, HookLayer, HookRegistry, PermissionGate, Protocol } from "../src/index.js"

/** The configuration a program started with `env` reads: effect 4's default provider, over `env`. */
const withEnv = (env: Record<string, string>, options?: { readonly preserveEmptyStrings?: boolean }) =>
  ConfigProvider.layer(ConfigProvider.fromEnv({ env, ...options }))

const buildFromEnv = (env: Record<string, string>, options?: { readonly preserveEmptyStrings?: boolean }) =>
  Effect.flatMap(ClaudeCode.ClaudeCode, (service) => Effect.succeed(service.defaults)).pipe(
    Effect.provide(ClaudeCode.layerConfig().pipe(Layer.provide(withEnv(env, options)))),
    Effect.provide(NodeServices.layer)
  )

/** The ConfigError of a bad value: the Schema's issue, at the variable's path. */
const schemaIssueOf = (error: unknown): { readonly path: ReadonlyArray<PropertyKey>; readonly text: string } => {
  if (!(error instanceof Config.ConfigError)) return assert.fail(`a ConfigError, not ${String(error)}`)
  const cause = error.cause
  if (!Schema.isSchemaError(cause)) return assert.fail(`a SchemaError, not a source error: ${String(error)}`)
  if (!(cause.issue instanceof SchemaIssue.Pointer)) return assert.fail(`an issue at a path: ${String(error)}`)
  return { path: cause.issue.path, text: String(error) }
}

// The warnings of the runtime, as text.
const captureWarnings = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make<unknown, void>(({ message }) => {
      const parts = Array.isArray(message) ? message : [message]
      lines.push(parts.map((m) => Cause.isCause(m) ? Cause.pretty(m) : String(m)).join(" "))
    })
    const value = yield* effect.pipe(Effect.provide(Logger.layer([logger])))
    return { value, warnings: lines }
  })

const preToolUse = Schema.decodeUnknownSync(Protocol.HookInput)({
  session_id: "s",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/tmp",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "ls" },
  tool_use_id: "toolu_1"
})

const dispatchWith = (answer: unknown) =>
  Effect.flatMap(
    HookRegistry.make(),
    (registry) =>
      registry.dispatch(registry.hooks[0]!.callbackId, preToolUse, { requestId: "r1", toolUseId: "toolu_1" })
  ).pipe(
    Effect.provide(
      // Deliberately not a HookResult: what a handler written without the types may return.
      HookLayer.preToolUse({ name: "sloppy" }, () => Effect.succeed(answer as never))
    )
  )

const decideWith = (answer: unknown) =>
  Effect.gen(function*() {
    const gate = yield* PermissionGate.make(() => Effect.succeed(answer as never))
    return yield* PermissionGate.decide(gate, {
      subtype: "can_use_tool",
      tool_name: "Bash",
      input: { command: "ls" },
      tool_use_id: "toolu_1"
    }, { requestId: "r1", toolUseId: "toolu_1", suggestions: [] })
  })

describe("layerConfig with a bad value", () => {
  // effect 3: a ConfigError with `_op: "InvalidData"` and `path`; effect 4: a ConfigError whose cause is the
  // Schema's issue at the variable's path. The user reads the same: the variable and what it accepts.
  it.effect("CLAUDE_PERMISSION_MODE=yolo: a ConfigError naming the variable and the accepted values", () =>
    Effect.gen(function*() {
      const error = yield* buildFromEnv({ CLAUDE_PERMISSION_MODE: "yolo" }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "ConfigError")
      const { path, text } = schemaIssueOf(error)
      assert.deepStrictEqual(path, ["CLAUDE_PERMISSION_MODE"])
      assert.include(text, "CLAUDE_PERMISSION_MODE")
      assert.include(text, "default, acceptEdits, bypassPermissions, plan")
      assert.include(text, "permissionMode")
      assert.include(error.message, "CLAUDE_PERMISSION_MODE")
    }))

  it.effect("CLAUDE_MODEL set but empty: names CLAUDE_MODEL (effect 4's env provider reads an empty value as unset)", () =>
    Effect.gen(function*() {
      // A provider that keeps empty strings hands "" to the check, which refuses it.
      const error = yield* buildFromEnv({ CLAUDE_MODEL: "" }, { preserveEmptyStrings: true }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "ConfigError")
      const { path, text } = schemaIssueOf(error)
      assert.deepStrictEqual(path, ["CLAUDE_MODEL"])
      assert.include(text, "must name a model")
      // The default one (`ConfigProvider.fromEnv`) reads `CLAUDE_MODEL=` as not set: no model, no error.
      const defaults = yield* buildFromEnv({ CLAUDE_MODEL: "" })
      assert.isUndefined(defaults.model)
    }))

  it.effect("good values become the defaults; unset ones stay unset", () =>
    Effect.gen(function*() {
      const defaults = yield* buildFromEnv({ CLAUDE_PERMISSION_MODE: "plan", CLAUDE_MODEL: "sonnet" })
      assert.strictEqual(defaults.permissionMode, "plan")
      assert.strictEqual(defaults.model, "sonnet")
      assert.isUndefined(defaults.executable)
    }))
})

describe("a hook or a gate that returns an invalid answer", () => {
  it.effect("a hook: the warning names the wrong field and what it accepts, in one short line", () =>
    Effect.gen(function*() {
      const { value: outcome, warnings } = yield* captureWarnings(
        dispatchWith({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "maybe" } })
      )
      assert.strictEqual(outcome.fallback, "invalid_output")
      assert.strictEqual(outcome.decision, "deny")
      const warning = warnings.find((line) => line.includes("sloppy"))!
      assert.include(warning, "fell back (invalid_output)")
      assert.include(
        warning,
        "hookSpecificOutput.permissionDecision: Expected \"allow\" | \"deny\" | \"ask\" | \"defer\", actual \"maybe\""
      )
      assert.isBelow(warning.length, 300, warning)
    }))

  it.effect("a hook: a top-level field of the wrong type", () =>
    Effect.gen(function*() {
      const { warnings } = yield* captureWarnings(dispatchWith({ continue: "yes" }))
      const warning = warnings.find((line) => line.includes("sloppy"))!
      assert.include(warning, "continue: Expected boolean, actual \"yes\"")
      assert.isBelow(warning.length, 300, warning)
    }))

  it.effect("a gate: the wrong field, and a missing one", () =>
    Effect.gen(function*() {
      const rewrite = yield* captureWarnings(decideWith({ behavior: "allow", updatedInput: "ls -la" }))
      assert.strictEqual(rewrite.value.result.behavior, "deny")
      assert.strictEqual(rewrite.value.fallback, "invalid_output")
      const warning = rewrite.warnings.find((line) => line.includes("permission gate fell back"))!
      // effect 3 wrote `Expected { readonly [x: string]: Json }`: effect 4 calls a record an object
      assert.include(warning, "updatedInput: Expected object, actual \"ls -la\"")
      assert.isBelow(warning.length, 300, warning)

      const deny = yield* captureWarnings(decideWith({ behavior: "deny" }))
      assert.include(deny.warnings.join("\n"), "message: is missing")
    }))

  it.effect("a gate that answers with a bare string: says that the result is not an object", () =>
    Effect.gen(function*() {
      const { warnings } = yield* captureWarnings(decideWith("allow"))
      const warning = warnings.find((line) => line.includes("permission gate fell back"))!
      assert.include(warning, "the permission result: Expected an object")
      assert.include(warning, "actual \"allow\"")
      assert.isBelow(warning.length, 300, warning)
    }))
})
