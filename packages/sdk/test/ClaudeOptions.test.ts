/**
 * The options: decoding with errors that name the option and never show a secret, the checks across options,
 * and their routes (CLI flags, `initialize` fields, the environment, the runtime), ported from
 * packages/sdk/test/ClaudeOptions.test.ts. The property tests generate options with effect's own `Arbitrary`.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as ChildProcess from "effect/process/ChildProcess"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as ClaudeOptions from "../src/ClaudeOptions.js"
import * as CliLocator from "../src/CliLocator.js"

type Options = ClaudeOptions.Options

const BASE = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"]

const args = (options: Options, permissionPromptTool = false) =>
  ClaudeOptions.toCliArgs(options, { permissionPromptTool })

/** The arguments after the base ones. */
const flags = (options: Options, permissionPromptTool = false) => args(options, permissionPromptTool).slice(BASE.length)

const decodeError = (input: unknown) => Effect.flip(ClaudeOptions.decode(input))

const UUID_A = "12345678-1234-4234-8234-123456789abc"
const UUID_B = "12345678-1234-4234-8234-123456789abd"
const UUID_C = "12345678-1234-4234-8234-123456789abe"

// -----------------------------------------------------------------------------
// decoding
// -----------------------------------------------------------------------------

describe("ClaudeOptions.decode", () => {
  it.effect("decodes the official option names; durations from millis or Duration", () =>
    Effect.gen(function*() {
      const options = yield* ClaudeOptions.decode({
        model: "haiku",
        permissionMode: "acceptEdits",
        allowedTools: ["Read"],
        maxTurns: 3,
        systemPrompt: { type: "preset", preset: "claude_code", append: "be brief" },
        mcpServers: { demo: { command: "node", args: ["server.mjs"], env: { TOKEN: "x" }, futureField: 1 } },
        agents: { reviewer: { description: "Reviews", prompt: "You review", model: "haiku", unknownField: true } },
        controlTimeout: 1500,
        hookTimeout: Duration.seconds(2),
        permissionTimeout: Duration.infinity,
        closeGracePeriod: 0
      })
      assert.strictEqual(options.model, "haiku")
      assert.isTrue(Duration.equals(options.controlTimeout!, Duration.millis(1500)))
      assert.isTrue(Duration.equals(options.hookTimeout!, Duration.seconds(2)))
      assert.isTrue(Duration.equals(options.permissionTimeout!, Duration.infinity))
      assert.isTrue(Duration.equals(options.closeGracePeriod!, Duration.zero))
      // Fields the CLI knows and the schema does not are kept, not dropped.
      assert.strictEqual((options.mcpServers!.demo as Record<string, unknown>).futureField, 1)
      assert.strictEqual((options.agents!.reviewer as Record<string, unknown>).unknownField, true)
    }))

  it.effect("an empty object is valid, and decoding is idempotent on decoded options", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* ClaudeOptions.decode({}), {})
      const once = yield* ClaudeOptions.decode({ controlTimeout: 10, env: { A: "1", B: undefined } })
      const twice = yield* ClaudeOptions.decode(once)
      assert.deepStrictEqual(twice, once)
    }))

  const badValues: ReadonlyArray<readonly [string, unknown, ReadonlyArray<string>]> = [
    ["wrong type", { model: 42 }, ["model: Expected string, actual 42"]],
    ["a string where an object belongs is not shown", { mcpServers: "sk-something" }, [
      "mcpServers: Expected { readonly [x: string]: McpServerConfig }, actual a string"
    ]],
    ["empty string", { model: "" }, ["model: must not be empty"]],
    ["unknown permission mode", { permissionMode: "yolo" }, [
      "permissionMode: Expected \"default\" | \"acceptEdits\" | \"bypassPermissions\" | \"plan\" | \"dontAsk\" | \"auto\", actual \"yolo\""
    ]],
    ["negative maxTurns", { maxTurns: -1 }, ["maxTurns: Expected a positive number, actual -1"]],
    ["zero maxTurns", { maxTurns: 0 }, ["maxTurns: Expected a positive number, actual 0"]],
    ["fractional maxTurns", { maxTurns: 1.5 }, ["maxTurns: Expected an integer, actual 1.5"]],
    ["negative budget", { maxBudgetUsd: -1 }, ["maxBudgetUsd: Expected a positive number, actual -1"]],
    ["negative thinking tokens", { maxThinkingTokens: -5 }, ["maxThinkingTokens"]],
    ["negative timeout", { controlTimeout: -5 }, ["controlTimeout: Expected a non-negative number"]],
    ["zero timeout", { hookTimeout: 0 }, ["hookTimeout: must be greater than zero"]],
    ["infinite grace period", { closeGracePeriod: Number.POSITIVE_INFINITY }, ["closeGracePeriod: must be finite"]],
    // effect 4 has negative Durations (effect 3 made them zero)
    ["negative grace period", { closeGracePeriod: Duration.millis(-1) }, ["closeGracePeriod: must not be negative"]],
    ["negative timeout (a Duration)", { initializeTimeout: Duration.seconds(-1) }, [
      "initializeTimeout: must be greater than zero"
    ]],
    ["bad maxLineChars", { maxLineChars: 0 }, ["maxLineChars: Expected a positive number, actual 0"]],
    ["not a UUID", { sessionId: "nope" }, ["sessionId: Expected a Universally Unique Identifier, actual a string"]],
    ["bad setting source", { settingSources: ["user", "global"] }, [
      "settingSources[1]: Expected \"user\" | \"project\" | \"local\""
    ]],
    ["bad effort", { effort: "extreme" }, ["effort: Expected \"low\" | \"medium\" | \"high\" | \"xhigh\" | \"max\""]],
    ["bad preset", { systemPrompt: { type: "preset", preset: "claude" } }, [
      "systemPrompt.preset: Expected \"claude_code\", actual \"claude\""
    ]],
    ["bad thinking budget", { thinking: { type: "enabled", budgetTokens: 0 } }, ["thinking.budgetTokens"]],
    // the members' `type`s in the schema's order (effect 3 listed them in the order it tried the members)
    ["bad MCP type", { mcpServers: { s: { type: "ws", url: "x" } } }, [
      "mcpServers.s.type: Expected \"stdio\" | \"sse\" | \"http\", actual \"ws\""
    ]],
    ["MCP command missing", { mcpServers: { s: { args: [] } } }, ["mcpServers.s.command: is missing"]],
    ["MCP server not an object", { mcpServers: { "my-server": "node" } }, [
      "mcpServers[\"my-server\"]: Expected McpServerConfig, actual a string"
    ]],
    ["a plain { type: \"sdk\" } object is not an SDK server (McpServer.make is)", {
      mcpServers: { calc: { type: "sdk", name: "calc" } }
    }, ["mcpServers.calc.type"]],
    ["agent without prompt", { agents: { a: { description: "d" } } }, ["agents.a.prompt: is missing"]],
    ["plugin type", { plugins: [{ type: "remote", path: "x" }] }, ["plugins[0].type: Expected \"local\""]],
    ["outputFormat", { outputFormat: { type: "json", schema: {} } }, ["outputFormat.type: Expected \"json_schema\""]],
    ["skills", { skills: ["/pdf", "*"] }, ["skills[0]: must be the skill's name", "skills[1]: use skills: \"all\""]],
    ["NUL in an argument", { model: "a\u0000b" }, ["model: must not contain a NUL character"]],
    ["extraArgs with dashes", { extraArgs: { "--model": "x" } }, ["extraArgs[\"--model\"]: invalid flag name"]],
    ["reserved extraArgs", { extraArgs: { "output-format": "json" } }, ["extraArgs[\"output-format\"]: reserved"]],
    ["env key with =", { env: { "A=B": "x" } }, ["env[\"A=B\"]: invalid variable name"]],
    ["settings not JSON (cycle)", {
      settings: (() => {
        const cyclic: Record<string, unknown> = { a: 1 }
        cyclic.self = cyclic
        return cyclic
      })()
    }, ["settings.self", "must be JSON (it contains a cycle)"]],
    ["settings not JSON (bigint)", { outputFormat: { type: "json_schema", schema: { max: 10n } } }, [
      "outputFormat.schema.max: must be JSON (a bigint is not)"
    ]],
    ["not an object", null, ["(options): Expected ClaudeOptions, actual null"]]
  ]

  for (const [name, input, expected] of badValues) {
    it.effect(`InvalidOptions: ${name}`, () =>
      Effect.gen(function*() {
        const error = yield* decodeError(input)
        assert.strictEqual(error._tag, "OptionsError")
        assert.strictEqual(error.reason, "InvalidOptions")
        for (const fragment of expected) assert.include(error.detail, fragment)
        assert.include(error.message, "Invalid options (InvalidOptions): ")
      }))
  }

  it.effect("reports every problem at once", () =>
    Effect.gen(function*() {
      const error = yield* decodeError({ model: 1, maxTurns: -1, permissionMode: "x" })
      assert.include(error.detail, "model:")
      assert.include(error.detail, "maxTurns:")
      assert.include(error.detail, "permissionMode:")
    }))

  it.effect("unknown options are errors, with a suggestion or a pointer to the Effect way", () =>
    Effect.gen(function*() {
      assert.include(
        (yield* decodeError({ maxTurn: 3 })).detail,
        "maxTurn: unknown option (did you mean \"maxTurns\"?)"
      )
      assert.include((yield* decodeError({ permisionMode: "plan" })).detail, "did you mean \"permissionMode\"?")
      assert.include(
        (yield* decodeError({ canUseTool: () => true })).detail,
        "canUseTool: not an option: use PermissionGate"
      )
      assert.include((yield* decodeError({ hooks: {} })).detail, "hooks: not an option: use HookLayer")
      assert.include(
        (yield* decodeError({ executableArgs: ["--inspect"] })).detail,
        "executableArgs: not an option: not supported: the CLI is a native binary"
      )
      assert.include(
        (yield* decodeError({ executable: "node" })).detail,
        "executable: \"node\" is a JavaScript runtime, as the official SDK's executable option takes"
      )
      assert.include(
        (yield* decodeError({ pathToClaudeCodeExecutable: "/x" })).detail,
        "use `executable`"
      )
      assert.include((yield* decodeError({ thinking: { type: "adaptive", dispaly: "omitted" } })).detail, "thinking")
    }))

  it.effect("a throwing getter is an OptionsError, not a defect", () =>
    Effect.gen(function*() {
      const input = Object.defineProperty({}, "model", {
        enumerable: true,
        get() {
          throw new Error("boom")
        }
      })
      const error = yield* decodeError(input)
      assert.strictEqual(error.reason, "InvalidOptions")
      assert.include(error.detail, "could not be read")
    }))

  it.effect("a huge input decodes quickly (no hang)", () =>
    Effect.gen(function*() {
      const env = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`VAR_${i}`, `value-${i}`]))
      const started = Date.now()
      const error = yield* decodeError({
        env,
        settings: { deep: Array.from({ length: 10_000 }, (_, i) => ({ i })) },
        x: 1
      })
      assert.strictEqual(error.detail, "x: unknown option")
      assert.isBelow(Date.now() - started, 5_000)
    }))
})

// -----------------------------------------------------------------------------
// secrets never appear in errors
// -----------------------------------------------------------------------------

describe("ClaudeOptions errors never show secrets", () => {
  const SECRET = "sk-ant-SUPERSECRET-1234567890"
  const cases: ReadonlyArray<readonly [string, unknown]> = [
    ["env value of the wrong type", { env: { ANTHROPIC_API_KEY: 12345, OTHER: SECRET, BAD: { SECRET } } }],
    ["env as a string", { env: `ANTHROPIC_API_KEY=${SECRET}` }],
    ["env as an array", { env: [SECRET] }],
    ["env value with NUL", { env: { KEY: `${SECRET}\u0000` } }],
    ["env with a bad key and a secret value", { env: { "A=B": SECRET } }],
    ["MCP env", { mcpServers: { s: { command: 2, env: { TOKEN: SECRET } } } }],
    ["MCP env wrong type", { mcpServers: { s: { command: "x", env: { TOKEN: [SECRET] } } } }],
    ["MCP headers", { mcpServers: { s: { type: "http", url: 1, headers: { Authorization: `Bearer ${SECRET}` } } } }],
    ["MCP headers wrong type", {
      mcpServers: { s: { type: "sse", url: "u", headers: { Authorization: 1, X: [SECRET] } } }
    }],
    ["MCP server as an array", { mcpServers: { s: ["--token", SECRET] } }],
    ["MCP args wrong type", { mcpServers: { s: { command: "x", args: ["--token", SECRET, 7] } } }],
    ["a secret-looking unknown option", { apiKey: SECRET }],
    ["extraArgs", { extraArgs: { "api-key": 5, token: [SECRET] } }],
    ["settings wrong type", { settings: [SECRET] }],
    ["settings with a cycle", {
      settings: (() => {
        const settings: Record<string, unknown> = { env: { KEY: SECRET } }
        settings.self = settings
        return settings
      })()
    }],
    ["a secret as a wrong option value", { model: [SECRET], systemPrompt: { SECRET } }],
    ["a bad agent with MCP env", {
      agents: { a: { description: "d", prompt: "p", mcpServers: [{ s: { env: { K: SECRET } } }] } }
    }],
    ["everything wrong", { env: SECRET, mcpServers: SECRET, settings: 1, managedSettings: SECRET }]
  ]

  for (const [name, input] of cases) {
    it.effect(name, () =>
      Effect.gen(function*() {
        const error = yield* decodeError(input)
        assert.notInclude(error.message, SECRET)
        assert.notInclude(error.message, "SUPERSECRET")
        assert.notInclude(String(error.cause ?? ""), "SUPERSECRET")
        assert.notInclude(JSON.stringify(error), "SUPERSECRET")
      }))
  }

  it.effect.prop(
    "a secret anywhere under env never shows, whatever else is wrong",
    {
      secret: Arbitrary.map(
        Arbitrary.schema(Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{12,24}$/))),
        (s) => `S3CR3T${s}`
      ),
      key: Schema.String.check(Schema.isPattern(/^[A-Z_]{1,12}$/)),
      shape: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 5 })),
      extra: Arbitrary.map(
        Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 3 }))),
        (i): Record<string, unknown> => [{}, { maxTurns: -1 }, { model: 1 }, { bogus: true }][i]
      )
    },
    ({ extra, key, secret, shape }) =>
      Effect.gen(function*() {
        const value = [secret, [secret], { v: secret }, 42, `${secret}\u0000`, null][shape]
        const result = yield* Effect.result(
          ClaudeOptions.decode({ ...extra, env: { [key]: value, [`${key}=`]: secret } })
        )
        if (Result.isFailure(result)) {
          assert.notInclude(result.failure.message, secret)
        }
      }),
    { arbitrary: { runs: 200 } }
  )
})

// -----------------------------------------------------------------------------
// conflicts
// -----------------------------------------------------------------------------

describe("ClaudeOptions conflicts", () => {
  const conflicts: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
    ["continue with resume", { continue: true, resume: "abc" }, "continue and resume are mutually exclusive"],
    ["forkSession alone", { forkSession: true }, "forkSession requires resume or continue"],
    ["sessionId with resume", { resume: "abc", sessionId: UUID_A }, "sessionId cannot be used with resume or continue"],
    [
      "sessionId with continue",
      { continue: true, sessionId: UUID_A },
      "sessionId cannot be used with resume or continue"
    ],
    ["resumeSessionAt without resume", { resumeSessionAt: UUID_A }, "resumeSessionAt requires resume"],
    ["resumeDropsTurn without resumeSessionAt", { resume: "abc", resumeDropsTurn: UUID_A }, "resumeDropsTurn requires"],
    ["bypass without the opt-in", { permissionMode: "bypassPermissions" }, "requires allowDangerouslySkipPermissions"],
    [
      "bypass with the opt-in off",
      { permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: false },
      "requires allowDangerouslySkipPermissions"
    ],
    ["fallback = model", { model: "haiku", fallbackModel: "haiku" }, "fallbackModel must differ from model"],
    [
      "two appends",
      { appendSystemPrompt: "a", systemPrompt: { type: "preset", preset: "claude_code", append: "b" } },
      "set one"
    ],
    ["replaceEnv without env", { replaceEnv: true }, "replaceEnv requires env"],
    [
      "extraArgs duplicating a typed flag",
      { model: "haiku", extraArgs: { model: "opus" } },
      "extraArgs.model: --model"
    ],
    [
      "extraArgs duplicating an initialize field",
      { systemPrompt: "x", extraArgs: { "system-prompt": "y" } },
      "duplicates the systemPrompt option"
    ]
  ]
  for (const [name, input, fragment] of conflicts) {
    it.effect(name, () =>
      Effect.gen(function*() {
        const error = yield* decodeError(input)
        assert.strictEqual(error.reason, "Conflict")
        assert.include(error.detail, fragment)
      }))
  }

  const allowed: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
    ["fork a resumed session with a new id", { resume: "abc", forkSession: true, sessionId: UUID_A }],
    ["fork the last session", { continue: true, forkSession: true }],
    ["truncating resume", { resume: "abc", resumeSessionAt: UUID_A, resumeDropsTurn: UUID_B }],
    ["bypass with the opt-in", { permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true }],
    ["custom prompt and an append", { systemPrompt: "x", appendSystemPrompt: "y" }],
    ["replaceEnv with env", { replaceEnv: true, env: { PATH: "/bin" } }],
    ["extraArgs for flags the options do not cover", { extraArgs: { "replay-user-messages": null } }]
  ]
  for (const [name, input] of allowed) {
    it.effect(`allowed: ${name}`, () => Effect.asVoid(ClaudeOptions.decode(input)))
  }

  it.effect("a PermissionGate conflicts with permissionPromptToolName", () =>
    Effect.gen(function*() {
      const options = { permissionPromptToolName: "mcp__gate__ask" }
      yield* ClaudeOptions.decode(options)
      const error = yield* Effect.flip(ClaudeOptions.decode(options, { permissionPromptTool: true }))
      assert.strictEqual(error.reason, "Conflict")
      assert.include(error.detail, "permissionPromptToolName cannot be used with a PermissionGate")
    }))

  it.effect("decodePartial skips the checks across options; validate on the merge runs them", () =>
    Effect.gen(function*() {
      const defaults = yield* ClaudeOptions.decodePartial({ allowDangerouslySkipPermissions: true })
      const call = yield* ClaudeOptions.decodePartial({ permissionMode: "bypassPermissions" })
      yield* ClaudeOptions.validate(ClaudeOptions.merge(defaults, call))
      const error = yield* Effect.flip(ClaudeOptions.validate(call))
      assert.strictEqual(error.reason, "Conflict")
      // value problems are still found by decodePartial
      assert.strictEqual((yield* Effect.flip(ClaudeOptions.decodePartial({ maxTurns: 0 }))).reason, "InvalidOptions")
    }))
})

// -----------------------------------------------------------------------------
// CLI arguments
// -----------------------------------------------------------------------------

describe("ClaudeOptions.toCliArgs", () => {
  it("base arguments only for empty options", () => {
    assert.deepStrictEqual(args({}), BASE)
    assert.deepStrictEqual(ClaudeOptions.baseArgs, BASE)
  })

  it("--permission-prompt-tool=stdio only with a PermissionGate", () => {
    assert.deepStrictEqual(flags({}, true), ["--permission-prompt-tool=stdio"])
    assert.deepStrictEqual(flags({}, false), [])
    // the gate wins over a tool name (validate reports the conflict)
    assert.deepStrictEqual(flags({ permissionPromptToolName: "mcp__x__y" }, true), ["--permission-prompt-tool=stdio"])
  })

  const mcpServers = {
    demo: { command: "node", args: ["server.mjs"], env: { TOKEN: "t" } },
    web: { type: "http" as const, url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer x" } }
  }

  const cases: ReadonlyArray<readonly [string, Options, ReadonlyArray<string>]> = [
    ["model", { model: "haiku" }, ["--model=haiku"]],
    ["fallbackModel", { fallbackModel: "sonnet,haiku" }, ["--fallback-model=sonnet,haiku"]],
    ["effort", { effort: "xhigh" }, ["--effort=xhigh"]],
    ["thinking adaptive", { thinking: { type: "adaptive" } }, ["--thinking=adaptive"]],
    ["thinking adaptive, display", { thinking: { type: "adaptive", display: "omitted" } }, [
      "--thinking=adaptive",
      "--thinking-display=omitted"
    ]],
    ["thinking enabled with budget", { thinking: { type: "enabled", budgetTokens: 2048, display: "summarized" } }, [
      "--max-thinking-tokens=2048",
      "--thinking-display=summarized"
    ]],
    ["thinking enabled without budget", { thinking: { type: "enabled" } }, ["--thinking=adaptive"]],
    ["thinking disabled", { thinking: { type: "disabled" } }, ["--thinking=disabled"]],
    ["maxThinkingTokens", { maxThinkingTokens: 5000 }, ["--max-thinking-tokens=5000"]],
    ["maxThinkingTokens 0", { maxThinkingTokens: 0 }, ["--thinking=disabled"]],
    ["thinking wins over maxThinkingTokens", { thinking: { type: "adaptive" }, maxThinkingTokens: 10 }, [
      "--thinking=adaptive"
    ]],
    ["maxTurns", { maxTurns: 3 }, ["--max-turns=3"]],
    ["maxBudgetUsd", { maxBudgetUsd: 0.25 }, ["--max-budget-usd=0.25"]],
    ["taskBudget", { taskBudget: { total: 20000 } }, ["--task-budget=20000"]],
    ["betas", { betas: ["context-1m-2025-08-07", "other"] }, ["--betas=context-1m-2025-08-07,other"]],
    ["betas empty", { betas: [] }, []],
    ["permissionMode", { permissionMode: "plan" }, ["--permission-mode=plan"]],
    ["bypassPermissions", { permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true }, [
      "--permission-mode=bypassPermissions",
      "--allow-dangerously-skip-permissions"
    ]],
    ["allowDangerouslySkipPermissions false", { allowDangerouslySkipPermissions: false }, []],
    ["permissionPromptToolName", { permissionPromptToolName: "mcp__gate__ask" }, [
      "--permission-prompt-tool=mcp__gate__ask"
    ]],
    ["permissionPrompts", { permissionPrompts: "none" }, ["--permission-prompts=none"]],
    ["allowedTools", { allowedTools: ["Read", "Bash(git *)"] }, ["--allowedTools=Read,Bash(git *)"]],
    ["allowedTools empty", { allowedTools: [] }, []],
    ["disallowedTools", { disallowedTools: ["Bash", "Write"] }, ["--disallowedTools=Bash,Write"]],
    ["tools list", { tools: ["Bash", "Read"] }, ["--tools=Bash,Read"]],
    ["tools none", { tools: [] }, ["--tools="]],
    ["tools preset", { tools: { type: "preset", preset: "claude_code" } }, ["--tools=default"]],
    ["skills all", { skills: "all" }, ["--allowedTools=Skill"]],
    ["skills list, merged into allowedTools", { allowedTools: ["Read", "Skill(pdf)"], skills: ["pdf", "docx"] }, [
      "--allowedTools=Read,Skill(pdf),Skill(docx)"
    ]],
    ["agent", { agent: "reviewer" }, ["--agent=reviewer"]],
    ["includePartialMessages", { includePartialMessages: true }, ["--include-partial-messages"]],
    ["includeHookEvents", { includeHookEvents: true }, ["--include-hook-events"]],
    ["resume", { resume: UUID_A }, [`--resume=${UUID_A}`]],
    ["a value starting with a dash cannot become a flag", { resume: "--dangerously-skip-permissions" }, [
      "--resume=--dangerously-skip-permissions"
    ]],
    ["continue", { continue: true }, ["--continue"]],
    ["continue false", { continue: false }, []],
    ["forkSession", { resume: UUID_A, forkSession: true }, [`--resume=${UUID_A}`, "--fork-session"]],
    ["resumeSessionAt, resumeDropsTurn", { resume: UUID_A, resumeSessionAt: UUID_B, resumeDropsTurn: UUID_C }, [
      `--resume=${UUID_A}`,
      `--resume-session-at=${UUID_B}`,
      `--resume-drops-turn=${UUID_C}`
    ]],
    ["sessionId", { sessionId: UUID_A }, [`--session-id=${UUID_A}`]],
    ["persistSession false", { persistSession: false }, ["--no-session-persistence"]],
    ["persistSession true", { persistSession: true }, []],
    ["settingSources", { settingSources: ["user", "project"] }, ["--setting-sources=user,project"]],
    ["settingSources empty (no filesystem settings)", { settingSources: [] }, ["--setting-sources="]],
    ["settings path: the path stays a flag", { settings: "/etc/claude/settings.json" }, [
      "--settings",
      "/etc/claude/settings.json"
    ]],
    ["settings object: in initialize", { settings: { permissions: { allow: ["Read"] } } }, [
      "--await-initialize",
      "--initialize-fields=settings"
    ]],
    ["settings JSON string: in initialize", { settings: "{\"env\":{\"A_TOKEN\":\"t\"}}" }, [
      "--await-initialize",
      "--initialize-fields=settings"
    ]],
    ["settings via argv", { settings: { permissions: { allow: ["Read"] } }, settingsDelivery: "argv" }, [
      "--settings",
      "{\"permissions\":{\"allow\":[\"Read\"]}}"
    ]],
    ["managedSettings: in initialize", { managedSettings: { permissions: { deny: ["WebFetch"] } } }, [
      "--await-initialize",
      "--managed-settings-in-initialize"
    ]],
    ["managedSettings via argv", {
      managedSettings: { permissions: { deny: ["WebFetch"] } },
      managedSettingsDelivery: "argv"
    }, ["--managed-settings", "{\"permissions\":{\"deny\":[\"WebFetch\"]}}"]],
    ["settingsDelivery / managedSettingsDelivery without settings", {
      settingsDelivery: "initialize",
      managedSettingsDelivery: "initialize"
    }, []],
    ["mcpServers (external): in initialize", { mcpServers }, ["--await-initialize"]],
    ["mcpServers empty", { mcpServers: {} }, []],
    ["mcpServers via argv", { mcpServers, mcpServersDelivery: "argv" }, [
      "--mcp-config",
      JSON.stringify({ mcpServers })
    ]],
    ["mcpServersDelivery without servers", { mcpServersDelivery: "initialize" }, []],
    ["strictMcpConfig", { strictMcpConfig: true }, ["--strict-mcp-config"]],
    ["plugins", {
      plugins: [{ type: "local", path: "/p/a" }, { type: "local", path: "/p/b", skipMcpDiscovery: true }]
    }, ["--plugin-dir=/p/a", "--plugin-dir-no-mcp=/p/b"]],
    ["plugins via initialize", { plugins: [{ type: "local", path: "/p/a" }], pluginDelivery: "initialize" }, [
      "--await-initialize"
    ]],
    ["additionalDirectories, repeated", { additionalDirectories: ["/a", "/b c"] }, ["--add-dir=/a", "--add-dir=/b c"]],
    ["projectConfigRoot", { projectConfigRoot: "/repo" }, ["--project-config-root=/repo"]],
    ["debug", { debug: true }, ["--debug"]],
    ["debugFile implies debug", { debug: true, debugFile: "/tmp/d.log" }, ["--debug-file=/tmp/d.log"]],
    ["extraArgs", { extraArgs: { "replay-user-messages": null, name: "job", x: "-dash", y: "-" } }, [
      "--replay-user-messages",
      "--name",
      "job",
      "--x=-dash",
      "--y",
      "-"
    ]],
    ["initialize, env and runtime options add no flag", {
      systemPrompt: "x",
      appendSystemPrompt: "y",
      planModeInstructions: "p",
      agents: { a: { description: "d", prompt: "p" } },
      outputFormat: { type: "json_schema", schema: { type: "object" } },
      title: "t",
      promptSuggestions: true,
      agentProgressSummaries: true,
      forwardSubagentText: true,
      perTaskStopAffordance: true,
      toolAliases: { Shell: "Bash" },
      toolConfig: { askUserQuestion: { previewFormat: "html" } },
      enableFileCheckpointing: true,
      env: { A: "1" },
      replaceEnv: true,
      cwd: "/tmp",
      executable: "/bin/claude",
      controlTimeout: Duration.seconds(1),
      initializeTimeout: Duration.seconds(1),
      hookTimeout: Duration.seconds(1),
      permissionTimeout: Duration.seconds(1),
      closeGracePeriod: Duration.seconds(1),
      maxLineChars: 1024
    }, []]
  ]

  for (const [name, options, expected] of cases) {
    it(name, () => assert.deepStrictEqual(flags(options), expected))
  }

  it("only external MCP servers reach --mcp-config (the SDK-server extension point)", () => {
    const withSdk = {
      mcpServers: { ...mcpServers, calc: { type: "sdk", name: "calc" } },
      mcpServersDelivery: "argv"
    } as unknown as Options
    assert.deepStrictEqual(flags(withSdk), ["--mcp-config", JSON.stringify({ mcpServers })])
    const onlySdk = {
      mcpServers: { calc: { type: "sdk", name: "calc" } },
      mcpServersDelivery: "argv"
    } as unknown as Options
    assert.deepStrictEqual(flags(onlySdk), [])
    assert.isTrue(ClaudeOptions.isExternalMcpServer({ command: "x" }))
    assert.isTrue(ClaudeOptions.isExternalMcpServer({ type: "sse", url: "x" }))
    assert.isFalse(ClaudeOptions.isExternalMcpServer({ type: "sdk" }))
  })

  it("the full order follows the official SDK", () => {
    assert.deepStrictEqual(
      args({
        extraArgs: { "replay-user-messages": null },
        settings: { a: 1 },
        settingsDelivery: "argv",
        managedSettings: { b: 2 },
        mcpServersDelivery: "argv",
        persistSession: false,
        sessionId: UUID_A,
        plugins: [{ type: "local", path: "/p" }],
        additionalDirectories: ["/d"],
        includePartialMessages: true,
        includeHookEvents: true,
        fallbackModel: "sonnet",
        allowDangerouslySkipPermissions: true,
        permissionMode: "acceptEdits",
        strictMcpConfig: true,
        settingSources: ["user"],
        mcpServers: { s: { command: "x" } },
        tools: ["Read"],
        disallowedTools: ["Bash"],
        allowedTools: ["Read"],
        permissionPrompts: "host",
        debug: true,
        betas: ["b"],
        agent: "a",
        model: "m",
        taskBudget: { total: 5 },
        maxBudgetUsd: 1,
        maxTurns: 2,
        effort: "low",
        thinking: { type: "disabled" }
      }, true),
      [
        ...BASE,
        "--thinking=disabled",
        "--effort=low",
        "--max-turns=2",
        "--max-budget-usd=1",
        "--task-budget=5",
        "--model=m",
        "--agent=a",
        "--betas=b",
        "--debug",
        "--permission-prompt-tool=stdio",
        "--permission-prompts=host",
        "--allowedTools=Read",
        "--disallowedTools=Bash",
        "--tools=Read",
        "--mcp-config",
        "{\"mcpServers\":{\"s\":{\"command\":\"x\"}}}",
        "--setting-sources=user",
        "--strict-mcp-config",
        "--permission-mode=acceptEdits",
        "--allow-dangerously-skip-permissions",
        "--fallback-model=sonnet",
        "--include-hook-events",
        "--include-partial-messages",
        "--add-dir=/d",
        "--await-initialize",
        "--plugin-dir=/p",
        `--session-id=${UUID_A}`,
        "--no-session-persistence",
        "--managed-settings-in-initialize",
        "--settings",
        "{\"a\":1}",
        "--replay-user-messages"
      ]
    )
  })

  it("no secret of an option reaches the command line unless a delivery says argv", () => {
    const secret = "s3cr3t-in-an-option"
    const options: Options = {
      mcpServers: {
        local: { command: "node", env: { ANY: secret } },
        remote: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { Authorization: `Bearer ${secret}` } }
      },
      settings: { env: { ANTHROPIC_API_KEY: secret }, apiKeyHelper: `echo ${secret}` },
      managedSettings: { env: { TOKEN: secret } },
      agents: { a: { description: "d", prompt: secret, mcpServers: [{ x: { command: "x", env: { K: secret } } }] } },
      systemPrompt: secret,
      appendSystemPrompt: secret
    }
    assert.notInclude(args(options).join("\n"), secret)
    assert.include(JSON.stringify(ClaudeOptions.toInitializeFields(options)), secret)
    for (
      const [delivery, flag] of [
        ["mcpServersDelivery", "--mcp-config"],
        ["settingsDelivery", "--settings"],
        ["managedSettingsDelivery", "--managed-settings"]
      ] as const
    ) {
      const built = args({ ...options, [delivery]: "argv" })
      assert.include(built, flag)
      assert.include(built.join("\n"), secret, `${delivery}: "argv" puts it on the command line`)
    }
  })

  it.effect.prop(
    "every decodable Options value gives args that start with the base args, well formed",
    [ClaudeOptions.Options],
    ([generated]) =>
      Effect.gen(function*() {
        const result = yield* Effect.result(ClaudeOptions.decode(sanitize(generated)))
        if (Result.isFailure(result)) return
        for (const permissionPromptTool of [false, true]) {
          const built = args(result.success, permissionPromptTool)
          assert.deepStrictEqual(built.slice(0, BASE.length), BASE)
          for (const arg of built) {
            assert.isString(arg)
            assert.notInclude(arg, "[object Object]")
            assert.notInclude(arg, "\u0000")
            if (arg.startsWith("--")) assert.notMatch(arg, /=undefined$|^--undefined/)
          }
          for (const name of flagNames(built)) {
            assert.isTrue(KNOWN_FLAGS.has(name) || name in (result.success.extraArgs ?? {}), name)
          }
        }
        const fields = ClaudeOptions.toInitializeFields(result.success)
        assert.doesNotThrow(() => JSON.stringify(fields))
        assert.notInclude(JSON.stringify(fields), "undefined")
      }),
    { arbitrary: { runs: 80 } }
  )
})

const flagNames = (built: ReadonlyArray<string>): ReadonlyArray<string> =>
  built.filter((arg) => arg.startsWith("--")).map((arg) => arg.slice(2).split("=")[0])

const KNOWN_FLAGS: ReadonlySet<string> = new Set([
  "output-format",
  "verbose",
  "input-format",
  "thinking",
  "thinking-display",
  "max-thinking-tokens",
  "effort",
  "max-turns",
  "max-budget-usd",
  "task-budget",
  "model",
  "agent",
  "betas",
  "debug",
  "debug-file",
  "permission-prompt-tool",
  "permission-prompts",
  "continue",
  "resume",
  "allowedTools",
  "disallowedTools",
  "tools",
  "mcp-config",
  "setting-sources",
  "strict-mcp-config",
  "permission-mode",
  "allow-dangerously-skip-permissions",
  "fallback-model",
  "include-hook-events",
  "include-partial-messages",
  "project-config-root",
  "add-dir",
  "await-initialize",
  "plugin-dir",
  "plugin-dir-no-mcp",
  "fork-session",
  "resume-session-at",
  "resume-drops-turn",
  "session-id",
  "no-session-persistence",
  "managed-settings",
  "managed-settings-in-initialize",
  "initialize-fields",
  "settings"
])

/** Removes the combinations `validate` rejects, so that generated options mostly decode. */
const sanitize = (generated: Options): Options => {
  const o: Record<string, unknown> = { ...generated }
  if (o.resume !== undefined) delete o.continue
  if (o.resume === undefined && o.continue !== true) delete o.forkSession
  if ((o.resume !== undefined || o.continue === true) && o.forkSession !== true) delete o.sessionId
  if (o.resume === undefined) delete o.resumeSessionAt
  if (o.resumeSessionAt === undefined) delete o.resumeDropsTurn
  if (o.permissionMode === "bypassPermissions") o.allowDangerouslySkipPermissions = true
  if (o.fallbackModel === o.model) delete o.fallbackModel
  delete o.appendSystemPrompt
  if (o.env === undefined) delete o.replaceEnv
  delete o.extraArgs
  for (const field of ["env", "agents", "toolAliases", "mcpServers"]) {
    const record = o[field] as Record<string, unknown> | undefined
    if (record !== undefined) {
      o[field] = Object.fromEntries(Object.entries(record).filter(([key]) => key.length > 0 && !key.includes("=")))
    }
  }
  return o as Options
}

// -----------------------------------------------------------------------------
// initialize fields
// -----------------------------------------------------------------------------

describe("ClaudeOptions.toInitializeFields", () => {
  const agents = { reviewer: { description: "Reviews code", prompt: "You review", model: "haiku" } }
  const cases: ReadonlyArray<readonly [string, Options, ClaudeOptions.InitializeFields]> = [
    ["no system prompt: the minimal SDK prompt, as the official SDK", {}, { systemPrompt: [""] }],
    ["string prompt", { systemPrompt: "You are terse." }, { systemPrompt: ["You are terse."] }],
    ["prompt blocks", { systemPrompt: ["a", "b"] }, { systemPrompt: ["a", "b"] }],
    ["custom prompt with snapshot", { systemPrompt: { type: "custom", prompt: "p", snapshot: false } }, {
      systemPrompt: ["p"],
      systemPromptSnapshot: false
    }],
    ["Claude Code preset: no systemPrompt field", { systemPrompt: { type: "preset", preset: "claude_code" } }, {}],
    ["preset with append", {
      systemPrompt: { type: "preset", preset: "claude_code", append: "A", excludeDynamicSections: true, snapshot: true }
    }, { appendSystemPrompt: "A", excludeDynamicSections: true, systemPromptSnapshot: true }],
    ["appendSystemPrompt alone appends to Claude Code's prompt", { appendSystemPrompt: "A" }, {
      appendSystemPrompt: "A"
    }],
    ["appendSystemPrompt with a custom prompt", { systemPrompt: "S", appendSystemPrompt: "A" }, {
      systemPrompt: ["S"],
      appendSystemPrompt: "A"
    }],
    ["agents", { agents }, { systemPrompt: [""], agents }],
    ["outputFormat → jsonSchema", { outputFormat: { type: "json_schema", schema: { type: "object" } } }, {
      systemPrompt: [""],
      jsonSchema: { type: "object" }
    }],
    ["title, promptSuggestions, planModeInstructions", {
      title: "T",
      promptSuggestions: true,
      planModeInstructions: "P"
    }, { systemPrompt: [""], title: "T", promptSuggestions: true, planModeInstructions: "P" }],
    ["subagent and stop affordances", {
      agentProgressSummaries: true,
      forwardSubagentText: false,
      perTaskStopAffordance: true
    }, { systemPrompt: [""], agentProgressSummaries: true, forwardSubagentText: false, perTaskStopAffordance: true }],
    ["toolAliases", { toolAliases: { Shell: "Bash" } }, { systemPrompt: [""], toolAliases: { Shell: "Bash" } }],
    ["skills list", { skills: ["pdf"] }, { systemPrompt: [""], skills: ["pdf"] }],
    ["skills all: only the allow rule", { skills: "all" }, { systemPrompt: [""] }],
    ["MCP servers via initialize", {
      mcpServers: { demo: { command: "node" } },
      mcpServersDelivery: "initialize"
    }, { systemPrompt: [""], mcpServers: { demo: { command: "node" } } }],
    ["MCP servers by default: here", { mcpServers: { demo: { command: "node" } } }, {
      systemPrompt: [""],
      mcpServers: { demo: { command: "node" } }
    }],
    ["MCP servers via argv: not here", {
      mcpServers: { demo: { command: "node" } },
      mcpServersDelivery: "argv"
    }, { systemPrompt: [""] }],
    ["settings (an object, a JSON string) and managedSettings", {
      settings: "{\"model\":\"m\"}",
      managedSettings: { permissions: { deny: ["Bash"] } }
    }, { systemPrompt: [""], settings: { model: "m" }, managedSettings: { permissions: { deny: ["Bash"] } } }],
    ["sandbox travels with the settings", { settings: { model: "m" }, sandbox: { enabled: true } }, {
      systemPrompt: [""],
      settings: { model: "m", sandbox: { enabled: true, failIfUnavailable: true } }
    }],
    ["a settings path, and settings via argv: not here", {
      settings: "/etc/claude.json",
      managedSettings: {},
      managedSettingsDelivery: "argv"
    }, { systemPrompt: [""] }],
    ["plugins via initialize", { plugins: [{ type: "local", path: "/p" }], pluginDelivery: "initialize" }, {
      systemPrompt: [""],
      plugins: [{ type: "local", path: "/p" }]
    }],
    [
      "flag-routed options add nothing",
      { model: "m", maxTurns: 1, resume: "r", settings: "/s.json", env: { A: "1" } },
      {
        systemPrompt: [""]
      }
    ]
  ]
  for (const [name, options, expected] of cases) {
    it(name, () => assert.deepStrictEqual(ClaudeOptions.toInitializeFields(options), expected))
  }

  it("MCP servers and plugins take exactly one route", () => {
    const mcp: Options = { mcpServers: { demo: { command: "node" } } }
    for (const delivery of ["argv", "initialize"] as const) {
      const options: Options = { ...mcp, mcpServersDelivery: delivery, plugins: [{ type: "local", path: "/p" }] }
      const viaArgs = flags(options).some((arg) => arg.startsWith("--mcp-config"))
      const viaInit = ClaudeOptions.toInitializeFields(options).mcpServers !== undefined
      assert.strictEqual(viaArgs, delivery === "argv")
      assert.strictEqual(viaInit, delivery === "initialize")
    }
  })
})

// -----------------------------------------------------------------------------
// environment
// -----------------------------------------------------------------------------

describe("ClaudeOptions.toEnv", () => {
  const parent = {
    PATH: "/usr/bin",
    HOME: "/home/u",
    ANTHROPIC_API_KEY: "sk-parent",
    NODE_OPTIONS: "--inspect",
    DEBUG: "express:*",
    UNSET: undefined
  }

  it("merges options.env over the parent and adds the SDK variables", () => {
    assert.deepStrictEqual(ClaudeOptions.toEnv({ env: { FOO: "bar", HOME: "/other" } }, parent), {
      PATH: "/usr/bin",
      HOME: "/other",
      ANTHROPIC_API_KEY: "sk-parent",
      FOO: "bar",
      CLAUDE_CODE_ENTRYPOINT: "sdk-ts",
      CLAUDE_CODE_SDK_READS_SESSION_STATE: "1"
    })
  })

  it("replaceEnv: only options.env (plus the SDK variables)", () => {
    assert.deepStrictEqual(ClaudeOptions.toEnv({ env: { PATH: "/bin" }, replaceEnv: true }, parent), {
      PATH: "/bin",
      CLAUDE_CODE_ENTRYPOINT: "sdk-ts",
      CLAUDE_CODE_SDK_READS_SESSION_STATE: "1"
    })
  })

  it("an undefined value in options.env removes an inherited variable", () => {
    const env = ClaudeOptions.toEnv({ env: { ANTHROPIC_API_KEY: undefined } }, parent)
    assert.isFalse("ANTHROPIC_API_KEY" in env)
  })

  it("NODE_OPTIONS is always removed; DEBUG only when inherited", () => {
    assert.isFalse("NODE_OPTIONS" in ClaudeOptions.toEnv({ env: { NODE_OPTIONS: "--x" } }, parent))
    assert.isFalse("DEBUG" in ClaudeOptions.toEnv({}, parent))
    assert.strictEqual(ClaudeOptions.toEnv({ env: { DEBUG: "1" } }, parent).DEBUG, "1")
  })

  it("undefined parent values are dropped", () => {
    assert.isFalse("UNSET" in ClaudeOptions.toEnv({}, parent))
    for (const value of Object.values(ClaudeOptions.toEnv({}, parent))) assert.isString(value)
  })

  it("the entrypoint can be set explicitly, not inherited", () => {
    assert.strictEqual(ClaudeOptions.toEnv({}, { CLAUDE_CODE_ENTRYPOINT: "cli" }).CLAUDE_CODE_ENTRYPOINT, "sdk-ts")
    assert.strictEqual(
      ClaudeOptions.toEnv({ env: { CLAUDE_CODE_ENTRYPOINT: "sdk-custom" } }, {}).CLAUDE_CODE_ENTRYPOINT,
      "sdk-custom"
    )
  })

  it("an existing CLAUDE_CODE_SDK_READS_SESSION_STATE (any case) is kept", () => {
    const env = ClaudeOptions.toEnv({ env: { claude_code_sdk_reads_session_state: "0" } }, {})
    assert.strictEqual(env.claude_code_sdk_reads_session_state, "0")
    assert.isFalse("CLAUDE_CODE_SDK_READS_SESSION_STATE" in env)
  })

  it("enableFileCheckpointing and toolConfig", () => {
    const env = ClaudeOptions.toEnv({
      enableFileCheckpointing: true,
      toolConfig: { askUserQuestion: { previewFormat: "html" } }
    }, {})
    assert.strictEqual(env.CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING, "true")
    assert.strictEqual(env.CLAUDE_CODE_QUESTION_PREVIEW_FORMAT, "html")
    assert.isFalse(
      "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING" in ClaudeOptions.toEnv({ enableFileCheckpointing: false }, {})
    )
  })

  it("does not claim to be the official SDK", () => {
    assert.isFalse("CLAUDE_AGENT_SDK_VERSION" in ClaudeOptions.toEnv({}, {}))
  })
})

// -----------------------------------------------------------------------------
// secrets helpers
// -----------------------------------------------------------------------------

describe("ClaudeOptions secrets", () => {
  // "isSecretEnvKey" and "redactEnv ..." are in Redaction.test.ts (internal/options/secrets.ts, re-exported here).
  it("redactArgs hides MCP env/headers, settings env and secret flags", () => {
    const built = args({
      mcpServers: {
        demo: { command: "node", args: ["--api-key", "AK", "--token=TK", "ok"], env: { ANY: "E1" } },
        web: { type: "http", url: "http://x", headers: { "X-Custom": "H1" } }
      },
      mcpServersDelivery: "argv",
      settings: { env: { ANTHROPIC_API_KEY: "S1" }, apiKeyHelper: "AH", model: "m" },
      settingsDelivery: "argv",
      extraArgs: { "auth-token": "XT" }
    })
    const redacted = ClaudeOptions.redactArgs(built)
    const text = redacted.join(" ")
    for (const secret of ["AK", "TK", "E1", "H1", "S1", "AH", "XT"]) {
      assert.notMatch(text, new RegExp(`\\b${secret}\\b`), secret)
    }
    assert.include(text, "\"model\":\"m\"")
    assert.include(text, "\"command\":\"node\"")
    assert.deepStrictEqual(redacted.slice(0, BASE.length), BASE)
    assert.deepStrictEqual(
      ClaudeOptions.redactArgs(["--settings", JSON.stringify({ env: "K=V1", headers: ["H2"], n: 1 })]),
      ["--settings", JSON.stringify({ env: "<redacted>", headers: ["<redacted>"], n: 1 })]
    )
    assert.deepStrictEqual(ClaudeOptions.redactArgs(["--model=haiku", "--resume", "abc"]), [
      "--model=haiku",
      "--resume",
      "abc"
    ])
  })
})

// -----------------------------------------------------------------------------
// merge, routes, runtime settings
// -----------------------------------------------------------------------------

describe("ClaudeOptions.merge", () => {
  it("overrides win; env and other records merge; arrays replace", () => {
    const merged = ClaudeOptions.merge(
      {
        model: "haiku",
        maxTurns: 5,
        allowedTools: ["Read", "Write"],
        env: { A: "1", B: "2" },
        mcpServers: { a: { command: "a" } },
        agents: { x: { description: "x", prompt: "x" } },
        extraArgs: { one: null },
        toolAliases: { A: "Bash" }
      },
      {
        model: "opus",
        allowedTools: ["Bash"],
        env: { B: "3", C: "4", A: undefined },
        mcpServers: { b: { command: "b" } },
        agents: { y: { description: "y", prompt: "y" } },
        extraArgs: { two: "2" },
        toolAliases: { B: "Read" }
      }
    )
    assert.deepStrictEqual(merged, {
      model: "opus",
      maxTurns: 5,
      allowedTools: ["Bash"],
      env: { A: undefined, B: "3", C: "4" },
      mcpServers: { a: { command: "a" }, b: { command: "b" } },
      agents: { x: { description: "x", prompt: "x" }, y: { description: "y", prompt: "y" } },
      extraArgs: { one: null, two: "2" },
      toolAliases: { A: "Bash", B: "Read" }
    })
    assert.isFalse("A" in ClaudeOptions.toEnv(merged, { A: "parent" }))
  })

  it("groups: a per-call session choice, prompt, thinking or debug setting replaces the default's", () => {
    assert.deepStrictEqual(ClaudeOptions.merge({ continue: true, maxTurns: 1 }, { resume: "r" }), {
      maxTurns: 1,
      resume: "r"
    })
    assert.deepStrictEqual(
      ClaudeOptions.merge({ systemPrompt: { type: "preset", preset: "claude_code", append: "a" } }, {
        appendSystemPrompt: "b"
      }),
      { appendSystemPrompt: "b" }
    )
    assert.deepStrictEqual(ClaudeOptions.merge({ maxThinkingTokens: 100 }, { thinking: { type: "disabled" } }), {
      thinking: { type: "disabled" }
    })
    assert.deepStrictEqual(ClaudeOptions.merge({ debugFile: "/x" }, { debug: false }), { debug: false })
  })

  it("empty overrides keep the defaults", () => {
    const defaults: Options = { model: "haiku", env: { A: "1" } }
    assert.deepStrictEqual(ClaudeOptions.merge(defaults, {}), defaults)
    assert.deepStrictEqual(ClaudeOptions.merge({}, defaults), defaults)
  })
})

describe("ClaudeOptions.routes", () => {
  const parent = { PATH: "/bin" }
  type Sample = { readonly option: Options; readonly base?: Options }
  const samples: { readonly [K in keyof Options]-?: Sample } = {
    model: { option: { model: "m" } },
    fallbackModel: { option: { fallbackModel: "f" } },
    effort: { option: { effort: "low" } },
    thinking: { option: { thinking: { type: "disabled" } } },
    maxThinkingTokens: { option: { maxThinkingTokens: 10 } },
    maxTurns: { option: { maxTurns: 1 } },
    maxBudgetUsd: { option: { maxBudgetUsd: 1 } },
    taskBudget: { option: { taskBudget: { total: 1 } } },
    betas: { option: { betas: ["b"] } },
    permissionMode: { option: { permissionMode: "plan" } },
    allowDangerouslySkipPermissions: { option: { allowDangerouslySkipPermissions: true } },
    permissionPromptToolName: { option: { permissionPromptToolName: "t" } },
    permissionPrompts: { option: { permissionPrompts: "none" } },
    allowedTools: { option: { allowedTools: ["Read"] } },
    disallowedTools: { option: { disallowedTools: ["Read"] } },
    tools: { option: { tools: [] } },
    toolAliases: { option: { toolAliases: { A: "B" } } },
    skills: { option: { skills: ["pdf"] } },
    toolConfig: { option: { toolConfig: { askUserQuestion: { previewFormat: "html" } } } },
    systemPrompt: { option: { systemPrompt: "s" } },
    appendSystemPrompt: { option: { appendSystemPrompt: "a" } },
    planModeInstructions: { option: { planModeInstructions: "p" } },
    outputFormat: { option: { outputFormat: { type: "json_schema", schema: {} } } },
    agents: { option: { agents: {} } },
    agent: { option: { agent: "a" } },
    title: { option: { title: "t" } },
    promptSuggestions: { option: { promptSuggestions: true } },
    agentProgressSummaries: { option: { agentProgressSummaries: true } },
    forwardSubagentText: { option: { forwardSubagentText: true } },
    verbatimPrompts: { option: { verbatimPrompts: true } },
    perTaskStopAffordance: { option: { perTaskStopAffordance: true } },
    includePartialMessages: { option: { includePartialMessages: true } },
    includeHookEvents: { option: { includeHookEvents: true } },
    resume: { option: { resume: "r" } },
    resumeSessionAt: { option: { resumeSessionAt: UUID_A }, base: { resume: "r" } },
    resumeDropsTurn: { option: { resumeDropsTurn: UUID_B }, base: { resume: "r", resumeSessionAt: UUID_A } },
    continue: { option: { continue: true } },
    forkSession: { option: { forkSession: true }, base: { resume: "r" } },
    sessionId: { option: { sessionId: UUID_A } },
    persistSession: { option: { persistSession: false } },
    enableFileCheckpointing: { option: { enableFileCheckpointing: true } },
    settingSources: { option: { settingSources: [] } },
    settings: { option: { settings: {} } },
    settingsDelivery: { option: { settingsDelivery: "argv" }, base: { settings: {} } },
    managedSettings: { option: { managedSettings: {} } },
    managedSettingsDelivery: { option: { managedSettingsDelivery: "argv" }, base: { managedSettings: {} } },
    sandbox: { option: { sandbox: { enabled: true } } },
    mcpServers: { option: { mcpServers: { s: { command: "x" } } } },
    mcpServersDelivery: { option: { mcpServersDelivery: "argv" }, base: { mcpServers: { s: { command: "x" } } } },
    strictMcpConfig: { option: { strictMcpConfig: true } },
    plugins: { option: { plugins: [{ type: "local", path: "/p" }] } },
    pluginDelivery: { option: { pluginDelivery: "initialize" }, base: { plugins: [{ type: "local", path: "/p" }] } },
    cwd: { option: { cwd: "/c" } },
    additionalDirectories: { option: { additionalDirectories: ["/a"] } },
    projectConfigRoot: { option: { projectConfigRoot: "/r" } },
    env: { option: { env: { A: "1" } } },
    replaceEnv: { option: { replaceEnv: true }, base: { env: { A: "1" } } },
    executable: { option: { executable: "/bin/claude" } },
    extraArgs: { option: { extraArgs: { x: null } } },
    debug: { option: { debug: true } },
    debugFile: { option: { debugFile: "/d" } },
    stderr: { option: { stderr: Effect.logDebug } },
    controlTimeout: { option: { controlTimeout: Duration.seconds(1) } },
    initializeTimeout: { option: { initializeTimeout: Duration.seconds(1) } },
    hookTimeout: { option: { hookTimeout: Duration.seconds(1) } },
    permissionTimeout: { option: { permissionTimeout: Duration.seconds(1) } },
    closeGracePeriod: { option: { closeGracePeriod: Duration.seconds(1) } },
    loadTimeoutMs: { option: { loadTimeoutMs: Duration.seconds(1) } },
    sessionStoreFlush: { option: { sessionStoreFlush: "eager" } },
    sessionStoreRedaction: { option: { sessionStoreRedaction: "none" } },
    maxLineChars: { option: { maxLineChars: 1 } },
    secrets: { option: { secrets: ["a-secret-value"] } }
  }

  const observe = (options: Options) => ({
    flag: JSON.stringify(args(options)),
    initialize: JSON.stringify(ClaudeOptions.toInitializeFields(options)),
    env: JSON.stringify(ClaudeOptions.toEnv(options, parent)),
    // A function (the stderr sink) shows as its name: JSON would leave it out.
    runtime: JSON.stringify(
      ClaudeOptions.runtimeSettings(options),
      (_, value) => typeof value === "function" ? `[function ${value.name}]` : value
    )
  })

  it("every option of the schema has a route and a sample", () => {
    assert.deepStrictEqual(Object.keys(ClaudeOptions.routes).sort(), Object.keys(ClaudeOptions.Options.fields).sort())
    assert.deepStrictEqual(Object.keys(samples).sort(), Object.keys(ClaudeOptions.Options.fields).sort())
  })

  for (const key of Object.keys(samples) as Array<keyof Options>) {
    it.effect(`${key} goes exactly where routes says`, () =>
      Effect.gen(function*() {
        const { base = {}, option } = samples[key]
        const options = yield* ClaudeOptions.decode({ ...base, ...option })
        const before = observe(base)
        const after = observe(options)
        const taken = (["flag", "initialize", "env", "runtime"] as const).filter((route) =>
          before[route] !== after[route]
        )
        const declared = ClaudeOptions.routes[key]
        for (const route of taken) assert.include(declared, route, `${key} also went to ${route}`)
        // Options that go in initialize with the flag that tells the CLI to read them there, or that move others.
        const moves = [
          "skills",
          "settings",
          "settingsDelivery",
          "managedSettings",
          "managedSettingsDelivery",
          "sandbox",
          "mcpServers",
          "mcpServersDelivery",
          "pluginDelivery"
        ].includes(key)
        if (moves) assert.deepStrictEqual(taken, [...declared])
        else assert.strictEqual(taken.length, 1, `${key} took ${taken.join(", ")}`)
      }))
  }
})

describe("ClaudeOptions.runtimeSettings", () => {
  it("applies the defaults", () => {
    const settings = ClaudeOptions.runtimeSettings({})
    assert.isUndefined(settings.executable)
    assert.isUndefined(settings.cwd)
    assert.isTrue(Duration.equals(settings.controlTimeout, Duration.seconds(30)))
    assert.isTrue(Duration.equals(settings.initializeTimeout, Duration.seconds(60)))
    assert.isTrue(Duration.equals(settings.hookTimeout, Duration.seconds(60)))
    assert.isTrue(Duration.equals(settings.permissionTimeout, Duration.seconds(60)))
    assert.isTrue(Duration.equals(settings.closeGracePeriod, Duration.seconds(5)))
    assert.strictEqual(settings.maxLineChars, 256 * 1024 * 1024)
  })

  it.effect("keeps what is given", () =>
    Effect.gen(function*() {
      const settings = ClaudeOptions.runtimeSettings(
        yield* ClaudeOptions.decode({ executable: "/x/claude", cwd: "/w", hookTimeout: 5000, maxLineChars: 1024 })
      )
      assert.strictEqual(settings.executable, "/x/claude")
      assert.strictEqual(settings.cwd, "/w")
      assert.isTrue(Duration.equals(settings.hookTimeout, Duration.seconds(5)))
      assert.strictEqual(settings.maxLineChars, 1024)
    }))
})

// -----------------------------------------------------------------------------
// the real CLI 2.1.328
// -----------------------------------------------------------------------------

/** Flags the CLI accepts but does not list in `--help`; the parse runs below prove they exist. */
const HIDDEN_FLAGS: ReadonlySet<string> = new Set([
  "thinking",
  "thinking-display",
  "max-thinking-tokens",
  "max-turns",
  "task-budget",
  "permission-prompt-tool",
  "project-config-root",
  "await-initialize",
  "plugin-dir-no-mcp",
  "resume-session-at",
  "resume-drops-turn",
  "managed-settings",
  "managed-settings-in-initialize",
  "initialize-fields"
])

describe("ClaudeOptions against the real CLI 2.1.328", () => {
  it.live(
    "every flag toCliArgs can emit is a flag of the CLI (--help, and a real parse)",
    () =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
        const executable = yield* CliLocator.locate()
        const home = yield* fs.makeTempDirectoryScoped()
        const cwd = yield* fs.makeTempDirectoryScoped()
        yield* fs.makeDirectory(`${cwd}/plugin-a`)
        yield* fs.makeDirectory(`${cwd}/plugin-b`)
        yield* fs.makeDirectory(`${cwd}/extra`)

        const parentEnv = {
          PATH: process.env.PATH,
          HOME: home,
          ANTHROPIC_API_KEY: "sk-test",
          ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_TELEMETRY: "1",
          DISABLE_AUTOUPDATER: "1",
          // bypassPermissions is refused as root unless the CLI is told it runs in a sandbox
          IS_SANDBOX: "1"
        }

        // Together these emit every flag of KNOWN_FLAGS.
        const fixtures: ReadonlyArray<{ readonly options: unknown; readonly gate: boolean; readonly exit: RegExp }> = [
          {
            gate: true,
            exit: /^0$/,
            options: {
              thinking: { type: "adaptive", display: "summarized" },
              effort: "high",
              maxTurns: 3,
              maxBudgetUsd: 1.5,
              taskBudget: { total: 10000 },
              model: "haiku",
              agent: "reviewer",
              agents: { reviewer: { description: "Reviews", prompt: "You review" } },
              betas: ["context-1m-2025-08-07"],
              debugFile: `${cwd}/debug.log`,
              permissionPrompts: "host",
              allowedTools: ["Read", "Bash(git *)"],
              skills: ["pdf"],
              disallowedTools: ["WebFetch"],
              tools: ["Read", "Write", "Bash"],
              mcpServers: { demo: { command: "/nonexistent/mcp-server", args: ["--x"], env: { T: "1" } } },
              settingSources: ["user", "project"],
              strictMcpConfig: true,
              permissionMode: "bypassPermissions",
              allowDangerouslySkipPermissions: true,
              fallbackModel: "sonnet",
              includeHookEvents: true,
              includePartialMessages: true,
              projectConfigRoot: cwd,
              additionalDirectories: [`${cwd}/extra`, cwd],
              plugins: [{ type: "local", path: `${cwd}/plugin-a` }, {
                type: "local",
                path: `${cwd}/plugin-b`,
                skipMcpDiscovery: true
              }],
              sessionId: UUID_A,
              persistSession: false,
              managedSettings: { permissions: { deny: ["WebSearch"] } },
              settings: { permissions: { allow: ["Read"] } },
              mcpServersDelivery: "argv",
              settingsDelivery: "argv",
              managedSettingsDelivery: "argv",
              extraArgs: { "replay-user-messages": null },
              enableFileCheckpointing: true
            }
          },
          {
            gate: false,
            exit: /^0$/,
            options: {
              maxThinkingTokens: 5000,
              debug: true,
              continue: true,
              forkSession: true,
              permissionPromptToolName: "mcp__gate__approve",
              mcpServers: { demo: { command: "/nonexistent/mcp-server" } },
              settings: { permissions: { allow: ["Read"] } },
              managedSettings: { permissions: { deny: ["WebSearch"] } },
              tools: { type: "preset", preset: "claude_code" },
              settingSources: []
            }
          },
          {
            gate: true,
            // the flags parse; the unknown session is reported after parsing
            exit: /^1$/,
            options: {
              thinking: { type: "disabled" },
              resume: UUID_A,
              resumeSessionAt: UUID_B,
              resumeDropsTurn: UUID_C,
              tools: []
            }
          }
        ]

        // The whole environment is the one given (toEnv's), as the SDK starts the CLI.
        const run = (cliArgs: ReadonlyArray<string>, env: Record<string, string>, stdin: string) =>
          Effect.gen(function*() {
            const proc = yield* spawner.spawn(ChildProcess.make(executable, cliArgs, {
              cwd,
              env,
              extendEnv: false,
              stdin: Stream.make(stdin).pipe(Stream.encodeText),
              forceKillAfter: Duration.seconds(3)
            }))
            const [stdout, stderr, exitCode] = yield* Effect.all(
              [
                Stream.mkString(Stream.decodeText(proc.stdout)),
                Stream.mkString(Stream.decodeText(proc.stderr)),
                proc.exitCode
              ],
              { concurrency: "unbounded" }
            )
            return { stdout, stderr, exitCode: String(exitCode) }
          }).pipe(Effect.scoped, Effect.timeout("60 seconds"))

        const help = yield* spawner.string(
          ChildProcess.make(executable, ["--help"], { env: { HOME: home, PATH: process.env.PATH ?? "" } })
        )
        const listed = new Set(Array.from(help.matchAll(/--([A-Za-z][\w-]*)/g), (m) => m[1]))
        assert.isTrue(listed.has("model") && listed.has("add-dir"), "the help text lists flags")

        const emitted = new Set<string>()
        for (const fixture of fixtures) {
          const options = yield* ClaudeOptions.decode(fixture.options, { permissionPromptTool: fixture.gate })
          const cliArgs = ClaudeOptions.toCliArgs(options, { permissionPromptTool: fixture.gate })
          for (const name of flagNames(cliArgs)) emitted.add(name)
          // A CLI told to read options from `initialize` waits for it (and refuses to start without it).
          const initialize = {
            type: "control_request",
            request_id: "init",
            request: { subtype: "initialize", ...ClaudeOptions.toInitializeFields(options) }
          }
          const stdin = cliArgs.includes("--await-initialize") ? `${JSON.stringify(initialize)}\n` : ""
          const result = yield* run(cliArgs, ClaudeOptions.toEnv(options, parentEnv), stdin)
          const context = `argv: ${ClaudeOptions.redactArgs(cliArgs).join(" ")}\nstderr: ${result.stderr}`
          assert.notMatch(result.stderr, /unknown option|error: option|argument missing|invalid/i, context)
          assert.match(result.exitCode, fixture.exit, context)
          if (fixture.exit.test("1")) assert.include(result.stdout + result.stderr, "No conversation found", context)
        }

        // The fixtures cover every flag the mapping can emit (extra args aside).
        emitted.delete("replay-user-messages")
        assert.deepStrictEqual([...emitted].sort(), [...KNOWN_FLAGS].sort())
        for (const name of emitted) {
          assert.isTrue(
            listed.has(name) || HIDDEN_FLAGS.has(name),
            `--${name} is neither in claude --help nor known hidden`
          )
        }

        // Negative control: a renamed flag is caught by the same check.
        const renamed = yield* run([...ClaudeOptions.baseArgs, "--max-turn=3"], ClaudeOptions.toEnv({}, parentEnv), "")
        assert.match(renamed.stderr, /unknown option '--max-turn=3'/)
        assert.strictEqual(renamed.exitCode, "1")
        assert.isFalse(listed.has("max-turn"))
      }).pipe(Effect.scoped, Effect.provide(NodeServices.layer)),
    120_000
  )
})

it.effect("the Options schema has an Arbitrary", () =>
  Effect.gen(function*() {
    const sample = yield* Arbitrary.sampleEffect(Arbitrary.schema(ClaudeOptions.Options), { count: 5 })
    assert.strictEqual(sample.length, 5)
  }))
