/**
 * The options of a query or session, named as in the official TypeScript SDK
 * (`@anthropic-ai/claude-agent-sdk`), decoded with Schema so that a bad option
 * is a clear {@link OptionsError} before anything is spawned.
 *
 * Each option takes one route to the CLI, and no value is sent twice (see
 * {@link routes} for the few options whose route depends on another one):
 *
 * - **flag** — a command-line flag, built by {@link toCliArgs};
 * - **initialize** — a field of the `initialize` control request, built by
 *   {@link toInitializeFields} (the system prompt, agents, the output schema,
 *   the title, ... — as the official SDK sends them);
 * - **env** — the child's environment, built by {@link toEnv};
 * - **runtime** — read by the SDK itself (executable, cwd, timeouts, line
 *   guard), resolved with defaults by {@link runtimeSettings}.
 *
 * Callback options of the official SDK (`canUseTool`, `hooks`,
 * `abortController`, `spawnClaudeCodeProcess`, ...) are not options here: an
 * Effect program provides them as Layers (`PermissionGate`, `HookLayer`) or
 * gets them from the runtime. `stderr` is one, as an Effect
 * ({@link StderrSink}). docs/official-sdk.md maps every official option.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaParser from "effect/SchemaParser"
import { OptionsError } from "./ClaudeError.js"
import * as GuardedRun from "./internal/guardedRun.js"
import * as McpServerModel from "./internal/mcpServerModel.js"
import { decodeOptions, formatIssue } from "./internal/options/issues.js"
import * as mapping from "./internal/options/mapping.js"
import * as secrets from "./internal/options/secrets.js"
import * as validation from "./internal/options/validate.js"
import { openStruct } from "./internal/protocol/json.js"
import * as ProtocolPermissions from "./internal/protocol/permissions.js"
import type * as McpServer from "./McpServer.js"

// -----------------------------------------------------------------------------
// building blocks
// -----------------------------------------------------------------------------

const opt = <S extends Schema.Top>(schema: S): Schema.optionalKey<S> => Schema.optionalKey(schema)

/**
 * A string that can travel on a command line or in an environment: no NUL
 * character (the OS refuses those). May be empty.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Text: Schema.String = Schema.String.check(
  Schema.makeFilter((s: string) => !s.includes("\u0000") || "must not contain a NUL character")
)

/**
 * A non-empty {@link Text}.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const NonEmptyText: Schema.String = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      s.length === 0 ? "must not be empty" : s.includes("\u0000") ? "must not contain a NUL character" : true
  )
)

const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number" }))

const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { expected: "a non-negative number" }))

const Flag = Schema.Boolean

// effect 4 expects any record as "object"; its name says what its values are, as effect 3's did.
const record = <Value extends Schema.Top>(value: Value, valueName: string): Schema.$Record<Schema.String, Value> =>
  Schema.Record(Schema.String, value).annotate({ identifier: `{ readonly [x: string]: ${valueName} }` })

// effect 4's DurationFromMillis takes negative numbers (a negative Duration): effect 3's did not.
const DurationFromMillis = Schema.Number.check(
  Schema.isGreaterThanOrEqualTo(0, { expected: "a non-negative number" })
).pipe(Schema.decodeTo(Schema.Duration, {
  decode: SchemaGetter.transform(Duration.millis),
  encode: SchemaGetter.transform(Duration.toMillis)
}))

/**
 * A duration given as a `Duration` or as a number of milliseconds.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const DurationOrMillis: Schema.Codec<Duration.Duration, Duration.Duration | number> = Schema.Union([
  Schema.Duration,
  DurationFromMillis
]).annotate({
  identifier: "DurationOrMillis",
  description: "a Duration, or a non-negative number of milliseconds"
})

/**
 * A timeout: a positive {@link DurationOrMillis} (`Duration.infinity` means no timeout).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Timeout: Schema.Codec<Duration.Duration, Duration.Duration | number> = DurationOrMillis.check(
  Schema.makeFilter((d: Duration.Duration) => Duration.isGreaterThan(d, Duration.zero) || "must be greater than zero")
)

/**
 * A grace period: a finite, non-negative {@link DurationOrMillis}.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const GracePeriod: Schema.Codec<Duration.Duration, Duration.Duration | number> = DurationOrMillis.check(
  Schema.makeFilter(
    (d: Duration.Duration) =>
      !Duration.isFinite(d)
        ? "must be finite"
        : Duration.isLessThan(d, Duration.zero)
        // effect 4 has negative Durations; effect 3 made them zero
        ? "must not be negative"
        : true
  )
)

// -----------------------------------------------------------------------------
// enumerations
// -----------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category Schemas
 */
export const PermissionMode: typeof ProtocolPermissions.PermissionMode = ProtocolPermissions.PermissionMode

/**
 * @since 0.1.0
 * @category Models
 */
export type PermissionMode = typeof PermissionMode.Type

/**
 * @since 0.1.0
 * @category Schemas
 */
export const EffortLevel = Schema.Literals(["low", "medium", "high", "xhigh", "max"])

/**
 * @since 0.1.0
 * @category Models
 */
export type EffortLevel = typeof EffortLevel.Type

/**
 * Which filesystem settings the CLI loads.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SettingSource = Schema.Literals(["user", "project", "local"])

/**
 * @since 0.1.0
 * @category Models
 */
export type SettingSource = typeof SettingSource.Type

/**
 * How an option that may be long or secret reaches the CLI: in the
 * `initialize` request over stdin, with the CLI started under
 * `--await-initialize` (`"initialize"`), or on its command line (`"argv"`),
 * which **every user of the host can read** (`ps`, `/proc/<pid>/cmdline`).
 *
 * External `mcpServers` (their `env` and `headers`), inline `settings` (an
 * `env` block, `apiKeyHelper`) and `managedSettings` default to
 * `"initialize"`; `plugins` (directory paths) to `"argv"`, as in the official
 * SDK. `"argv"` is for an older CLI (started through `executable`) that does
 * not read them from `initialize` (for MCP servers, one before 2.1.261).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Delivery = Schema.Literals(["argv", "initialize"])

/**
 * @since 0.1.0
 * @category Models
 */
export type Delivery = typeof Delivery.Type

// -----------------------------------------------------------------------------
// MCP servers
// -----------------------------------------------------------------------------

const McpToolPolicy = openStruct({ name: Schema.String }).annotate({ identifier: "McpServerToolPolicy" })

const mcpCommon = {
  /** Per-server tool-call timeout in milliseconds. */
  timeout: opt(Schema.Number.check(Schema.isGreaterThan(0, { expected: "a positive number" }))),
  /** Always include this server's tools in the prompt (never deferred behind tool search). */
  alwaysLoad: opt(Schema.Boolean)
}

/**
 * An MCP server the CLI starts as a child process. Fields the CLI knows and
 * this schema does not are kept.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const McpStdioServerConfig = openStruct({
  type: opt(Schema.Literal("stdio")),
  command: NonEmptyText,
  args: opt(Schema.Array(Text)),
  env: opt(Schema.Record(Schema.String, Text)),
  ...mcpCommon
}).annotate({ identifier: "McpStdioServerConfig" })

/**
 * @since 0.1.0
 * @category Models
 */
export type McpStdioServerConfig = typeof McpStdioServerConfig.Type

// The fields of a server the CLI connects to (SSE and HTTP alike).
const mcpRemote = {
  url: NonEmptyText,
  headers: opt(Schema.Record(Schema.String, Text)),
  tools: opt(Schema.Array(McpToolPolicy)),
  ...mcpCommon
}

/**
 * An MCP server the CLI reaches over SSE.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const McpSSEServerConfig = openStruct({ type: Schema.Literal("sse"), ...mcpRemote }).annotate({
  identifier: "McpSSEServerConfig"
})

/**
 * @since 0.1.0
 * @category Models
 */
export type McpSSEServerConfig = typeof McpSSEServerConfig.Type

/**
 * An MCP server the CLI reaches over streamable HTTP.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const McpHttpServerConfig = openStruct({ type: Schema.Literal("http"), ...mcpRemote }).annotate({
  identifier: "McpHttpServerConfig"
})

/**
 * @since 0.1.0
 * @category Models
 */
export type McpHttpServerConfig = typeof McpHttpServerConfig.Type

/**
 * An MCP server that the CLI runs or connects to itself (stdio, SSE, HTTP):
 * these go to the CLI through `--mcp-config` (or `initialize`, see
 * {@link Delivery}).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const McpExternalServerConfig = Schema.Union([McpStdioServerConfig, McpSSEServerConfig, McpHttpServerConfig])
  .annotate({ identifier: "McpExternalServerConfig" })

/**
 * @since 0.1.0
 * @category Models
 */
export type McpExternalServerConfig = typeof McpExternalServerConfig.Type

/**
 * An in-process (SDK-hosted) MCP server, made by `McpServer.make`: the
 * instance itself, kept as is (it carries the tools' handlers).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const McpSdkServerConfig: Schema.declare<McpServer.McpServer> = Schema.declare(McpServerModel.isServer, {
  identifier: "McpSdkServer",
  description: "an in-process MCP server made by McpServer.make",
  // Generated values are servers without tools, by name.
  toCodecArbitrary: () =>
    Schema.link<McpServer.McpServer>()(Schema.Literals(["calc", "inventory"]), {
      decode: SchemaGetter.transform(McpServerModel.empty),
      encode: SchemaGetter.forbidden(() => "an in-process MCP server has no encoded form")
    })
})

/**
 * @since 0.1.0
 * @category Models
 */
export type McpSdkServerConfig = McpServer.McpServer

/**
 * The value type of the `mcpServers` record: an external server
 * ({@link McpExternalServerConfig}) or an in-process one
 * ({@link McpSdkServerConfig}). Everything that builds CLI arguments goes
 * through {@link isExternalMcpServer}, so in-process servers never reach
 * `--mcp-config`; the session announces them in `initialize`
 * (`sdkMcpServers`) and answers their `mcp_message` requests.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const McpServerConfig = Schema.Union([McpExternalServerConfig, McpSdkServerConfig])
  .annotate({ identifier: "McpServerConfig" })

/**
 * @since 0.1.0
 * @category Models
 */
export type McpServerConfig = typeof McpServerConfig.Type

/**
 * Whether an `mcpServers` entry is one the CLI runs or connects to itself
 * (stdio, SSE, HTTP), as opposed to an in-process SDK server.
 *
 * @since 0.1.0
 * @category Guards
 */
export const isExternalMcpServer = (
  config: McpServerConfig | { readonly type: string; readonly [key: string]: unknown }
): config is McpExternalServerConfig => mapping.isExternal(config)

// -----------------------------------------------------------------------------
// agents, plugins, prompts
// -----------------------------------------------------------------------------

/**
 * A custom subagent, as in the official `AgentDefinition`. Fields the CLI
 * knows and this schema does not are kept.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const AgentDefinition = openStruct({
  /** When to use this agent. */
  description: Text,
  /** The agent's system prompt. */
  prompt: Text,
  tools: opt(Schema.Array(NonEmptyText)),
  disallowedTools: opt(Schema.Array(NonEmptyText)),
  /** Alias (`haiku`, `sonnet`, ...), full model id, or `inherit`. */
  model: opt(NonEmptyText),
  /** MCP servers by name, or inline external configs. */
  mcpServers: opt(
    Schema.Array(Schema.Union([NonEmptyText, Schema.Record(Schema.String, McpExternalServerConfig)]))
  ),
  criticalSystemReminder_EXPERIMENTAL: opt(Text),
  skills: opt(Schema.Array(NonEmptyText)),
  initialPrompt: opt(Text),
  maxTurns: opt(PositiveInt),
  autoCompactWindow: opt(PositiveInt),
  background: opt(Schema.Boolean),
  omitClaudeMd: opt(Schema.Boolean),
  memory: opt(SettingSource),
  effort: opt(Schema.Union([EffortLevel, Schema.Int])),
  permissionMode: opt(PermissionMode),
  observer: opt(Text),
  observerMessage: opt(Text)
}).annotate({ identifier: "AgentDefinition" })

/**
 * @since 0.1.0
 * @category Models
 */
export type AgentDefinition = typeof AgentDefinition.Type

/**
 * A local plugin directory (or `.zip`).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const PluginConfig = Schema.Struct({
  type: Schema.Literal("local"),
  path: NonEmptyText,
  /** Load skills/hooks/agents/commands but not the plugin's own MCP servers. */
  skipMcpDiscovery: opt(Schema.Boolean)
}).annotate({ identifier: "PluginConfig" })

/**
 * @since 0.1.0
 * @category Models
 */
export type PluginConfig = typeof PluginConfig.Type

/**
 * The system prompt: a custom prompt (a string, or blocks), the same with
 * `snapshot` control, or Claude Code's own prompt (`preset: "claude_code"`)
 * with an optional `append`.
 *
 * When no `systemPrompt` is given the session runs with the minimal SDK
 * prompt, as with the official SDK; use the preset to get Claude Code's.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SystemPrompt = Schema.Union([
  Text,
  Schema.Array(Text),
  Schema.Struct({
    type: Schema.Literal("custom"),
    prompt: Schema.Union([Text, Schema.Array(Text)]),
    snapshot: opt(Schema.Boolean)
  }).annotate({ identifier: "CustomSystemPrompt" }),
  Schema.Struct({
    type: Schema.Literal("preset"),
    preset: Schema.Literal("claude_code"),
    append: opt(Text),
    excludeDynamicSections: opt(Schema.Boolean),
    snapshot: opt(Schema.Boolean)
  }).annotate({ identifier: "PresetSystemPrompt" })
]).annotate({ identifier: "SystemPrompt" })

/**
 * @since 0.1.0
 * @category Models
 */
export type SystemPrompt = typeof SystemPrompt.Type

/**
 * A block of its own in a `systemPrompt` array marks where the static part
 * of the prompt (cacheable across sessions) ends and the session-specific
 * part begins (the official SDK's `SYSTEM_PROMPT_DYNAMIC_BOUNDARY`).
 *
 * ```ts
 * ClaudeCode.query(prompt, { systemPrompt: [instructions, ClaudeOptions.systemPromptDynamicBoundary, context] })
 * ```
 *
 * @since 0.1.0
 * @category Constants
 */
export const systemPromptDynamicBoundary = "__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__"

const ThinkingDisplay = Schema.Literals(["summarized", "omitted"])

/**
 * @since 0.1.0
 * @category Schemas
 */
export const ThinkingConfig = Schema.Union([
  Schema.Struct({ type: Schema.Literal("adaptive"), display: opt(ThinkingDisplay) }),
  Schema.Struct({ type: Schema.Literal("enabled"), budgetTokens: opt(PositiveInt), display: opt(ThinkingDisplay) }),
  Schema.Struct({ type: Schema.Literal("disabled") })
]).annotate({ identifier: "ThinkingConfig" })

/**
 * @since 0.1.0
 * @category Models
 */
export type ThinkingConfig = typeof ThinkingConfig.Type

/**
 * The base set of built-in tools: names (`[]` for none) or the default set.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ToolsOption = Schema.Union([
  Schema.Array(NonEmptyText),
  Schema.Struct({ type: Schema.Literal("preset"), preset: Schema.Literal("claude_code") })
]).annotate({ identifier: "ToolsOption" })

/**
 * @since 0.1.0
 * @category Models
 */
export type ToolsOption = typeof ToolsOption.Type

/**
 * Structured output: the final answer must match `schema` (a JSON Schema).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const OutputFormat = Schema.Struct({
  type: Schema.Literal("json_schema"),
  schema: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "OutputFormat" })

/**
 * @since 0.1.0
 * @category Models
 */
export type OutputFormat = typeof OutputFormat.Type

/**
 * Settings for the CLI's "flag settings" layer: a settings file path, a JSON
 * string, or a settings object.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SettingsOption = Schema.Union([NonEmptyText, Schema.Record(Schema.String, Schema.Unknown)])
  .annotate({ identifier: "SettingsOption" })

/**
 * @since 0.1.0
 * @category Models
 */
export type SettingsOption = typeof SettingsOption.Type

// -----------------------------------------------------------------------------
// sandbox
// -----------------------------------------------------------------------------

const Paths = Schema.Array(NonEmptyText)

const Port = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 65535 }))

/**
 * Where sandboxed commands may connect, as in the official
 * `SandboxNetworkConfig`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SandboxNetworkConfig = Schema.Struct({
  /** Domains sandboxed commands may reach without a prompt (`*.example.com` wildcards). */
  allowedDomains: opt(Paths),
  /** Domains always blocked, even when `allowedDomains` matches them. */
  deniedDomains: opt(Paths),
  /** Deny hosts not in `allowedDomains` instead of prompting. */
  strictAllowlist: opt(Schema.Boolean),
  /** Managed settings only: only managed `allowedDomains` count. */
  allowManagedDomainsOnly: opt(Schema.Boolean),
  /** macOS only: Unix socket paths to allow. */
  allowUnixSockets: opt(Paths),
  /** Allow every Unix socket (turns off socket blocking). */
  allowAllUnixSockets: opt(Schema.Boolean),
  /** macOS only: let sandboxed commands bind localhost ports. */
  allowLocalBinding: opt(Schema.Boolean),
  /** macOS only: more XPC/Mach services to allow (`com.example.*`). */
  allowMachLookup: opt(Paths),
  /** Your own HTTP proxy for sandboxed traffic, instead of the CLI's. */
  httpProxyPort: opt(Port),
  /** Your own SOCKS5 proxy for sandboxed traffic, instead of the CLI's. */
  socksProxyPort: opt(Port),
  /** TLS termination, so that the request filter sees HTTPS bodies (omit both paths for an ephemeral CA). */
  tlsTerminate: opt(Schema.Struct({ caCertPath: opt(NonEmptyText), caKeyPath: opt(NonEmptyText) }))
}).annotate({ identifier: "SandboxNetworkConfig" })

/**
 * @since 0.1.0
 * @category Models
 */
export type SandboxNetworkConfig = typeof SandboxNetworkConfig.Type

/**
 * Which paths sandboxed commands may read and write, as in the official
 * `SandboxFilesystemConfig`. By default they write only under the working
 * directory (and the CLI's own temporary directory).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SandboxFilesystemConfig = Schema.Struct({
  /** More paths sandboxed commands may write (merged with `Edit(...)` allow rules). */
  allowWrite: opt(Paths),
  /** Paths they may not write (merged with `Edit(...)` deny rules). */
  denyWrite: opt(Paths),
  /** Paths they may not read (merged with `Read(...)` deny rules). */
  denyRead: opt(Paths),
  /** Paths re-allowed for reading inside `denyRead` regions. */
  allowRead: opt(Paths),
  /** Managed settings only: only managed `allowRead` paths count. */
  allowManagedReadPathsOnly: opt(Schema.Boolean),
  /** macOS and Linux: no filesystem isolation (network and seccomp isolation stay). */
  disabled: opt(Schema.Boolean)
}).annotate({ identifier: "SandboxFilesystemConfig" })

/**
 * @since 0.1.0
 * @category Models
 */
export type SandboxFilesystemConfig = typeof SandboxFilesystemConfig.Type

const CredentialMode = Schema.Literals(["deny", "mask"])
const OnExtractNoMatch = Schema.Literals(["warn", "deny", "error"])
const EnvVarName = Schema.String.check(
  Schema.isPattern(/^[A-Za-z_][A-Za-z0-9_]*$/, {
    message: "must be an environment variable name (a letter or \"_\", then letters, digits and \"_\")"
  })
)

/** How a credential (a file's, an environment variable's) is kept from sandboxed commands. */
const credentialFields = {
  mode: CredentialMode,
  /** `mask`: a regex whose first group is the credential (inside the file, in the variable's value). */
  extract: opt(Text),
  onExtractNoMatch: opt(OnExtractNoMatch),
  decode: opt(Schema.Literal("jwt")),
  maskClaims: opt(Schema.Array(Text)),
  /** `mask`: the hosts the real credential is injected for (default: `network.allowedDomains`). */
  injectHosts: opt(Paths)
}

/**
 * A credential file sandboxed commands may not read (`deny`) or see with a
 * stand-in value that the CLI's proxy swaps for the real one on the way out
 * (`mask`).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SandboxCredentialFile = Schema.Struct({
  path: NonEmptyText,
  ...credentialFields,
  maskDuplicates: opt(Schema.Boolean)
}).check(
  Schema.makeFilter((entry) =>
    entry.mode === "mask" && entry.path.endsWith("/")
      ? {
        path: ["path"],
        issue: "mode \"mask\" applies to one file, not a directory: list the file(s), or use mode \"deny\""
      }
      : true
  )
).annotate({ identifier: "SandboxCredentialFile" })

/**
 * An environment variable sandboxed commands do not get (`deny`) or get with
 * a stand-in value (`mask`).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SandboxCredentialEnvVar = Schema.Struct({
  name: EnvVarName,
  ...credentialFields
}).annotate({ identifier: "SandboxCredentialEnvVar" })

const Sigv4Policy = Schema.Literals(["deny", "passthrough"])

/**
 * Credentials kept from sandboxed commands, as in the official
 * `SandboxCredentialsConfig`.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SandboxCredentialsConfig = Schema.Struct({
  files: opt(Schema.Array(SandboxCredentialFile)),
  envVars: opt(Schema.Array(SandboxCredentialEnvVar)),
  /** Allow the stand-in → real swap on plain HTTP (test fixtures only). */
  allowPlaintextInject: opt(Schema.Boolean),
  /** Masked variables grouped into AWS credential pairs, for SigV4 re-signing. */
  awsPairs: opt(Schema.Array(Schema.Struct({
    accessKeyIdVar: EnvVarName,
    secretAccessKeyVar: EnvVarName,
    sessionTokenVar: opt(EnvVarName)
  }))),
  /** What to do with SigV4 requests the proxy cannot re-sign. */
  sigv4: opt(Schema.Struct({
    streaming: opt(Sigv4Policy),
    presigned: opt(Sigv4Policy),
    sigv4a: opt(Sigv4Policy)
  }))
}).annotate({ identifier: "SandboxCredentialsConfig" })

/**
 * @since 0.1.0
 * @category Models
 */
export type SandboxCredentialsConfig = typeof SandboxCredentialsConfig.Type

/**
 * The sandbox of Bash commands, as the official SDK's `SandboxSettings`
 * (the `sandbox` block of Claude Code's settings): the CLI runs each Bash
 * command under bubblewrap (Linux) or Seatbelt (macOS), confined to the
 * paths and hosts given here and by the `Read`/`Edit`/`WebFetch` permission
 * rules. Fields the CLI knows and this schema does not are kept.
 *
 * On Linux the sandbox needs `bubblewrap` and `socat` (`apt install bubblewrap
 * socat`). With `enabled: true`, `failIfUnavailable` defaults to `true` (as in
 * the official SDK): without them the session's first turn ends with an error
 * result (`startup_failure_reason: "sandbox_required_unavailable"`) instead of
 * running commands unsandboxed.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SandboxSettings = openStruct({
  /** Run Bash commands inside the sandbox (default `false`). */
  enabled: opt(Schema.Boolean),
  /** Refuse to start when the sandbox cannot run (default `true` when `enabled` is, here and in the official SDK). */
  failIfUnavailable: opt(Schema.Boolean),
  /** Approve a sandboxed Bash command without a permission prompt (deny and ask rules still apply). */
  autoAllowBashIfSandboxed: opt(Schema.Boolean),
  /** Honour the Bash tool's `dangerouslyDisableSandbox` parameter (default `true`). */
  allowUnsandboxedCommands: opt(Schema.Boolean),
  network: opt(SandboxNetworkConfig),
  filesystem: opt(SandboxFilesystemConfig),
  credentials: opt(SandboxCredentialsConfig),
  /** Violations left unreported: command pattern (`"*"` for all) → paths. */
  ignoreViolations: opt(Schema.Record(Schema.String, Schema.Array(Text))),
  /** Linux: no fresh `/proc` mount (unprivileged containers). Weakens the sandbox. */
  enableWeakerNestedSandbox: opt(Schema.Boolean),
  /** Linux: let sandboxed commands create user namespaces (Chromium, nested bubblewrap). Weakens the sandbox. */
  allowNestedUserNamespaces: opt(Schema.Boolean),
  /** macOS: allow `com.apple.trustd.agent` (Go tools behind a TLS-terminating proxy). Weakens the sandbox. */
  enableWeakerNetworkIsolation: opt(Schema.Boolean),
  /** macOS: allow Apple Events (`open`, `osascript`). Weakens the sandbox. */
  allowAppleEvents: opt(Schema.Boolean),
  /** Command patterns (Bash rule syntax) that run outside the sandbox. */
  excludedCommands: opt(Paths),
  /** The ripgrep the sandbox uses. */
  ripgrep: opt(Schema.Struct({ command: NonEmptyText, args: opt(Schema.Array(Text)) })),
  /** The `bwrap` executable (default: found on `PATH`). */
  bwrapPath: opt(NonEmptyText),
  /** The `socat` executable (default: found on `PATH`). */
  socatPath: opt(NonEmptyText)
}).annotate({ identifier: "SandboxSettings" })

/**
 * @since 0.1.0
 * @category Models
 */
export type SandboxSettings = typeof SandboxSettings.Type

/**
 * Per-tool configuration of built-in tools.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const ToolConfig = Schema.Struct({
  askUserQuestion: opt(Schema.Struct({ previewFormat: opt(Schema.Literals(["markdown", "html"])) }))
}).annotate({ identifier: "ToolConfig" })

/**
 * @since 0.1.0
 * @category Models
 */
export type ToolConfig = typeof ToolConfig.Type

const SkillName = Schema.String.check(
  Schema.makeFilter((s: string) => {
    if (s.trim().length === 0) return "must not be empty"
    if (s !== s.trim()) return "must not have leading or trailing whitespace"
    // eslint-disable-next-line no-control-regex
    if (/[(),\u0000-\u001f\u007f-\u009f]/.test(s)) return "must not contain parentheses, commas or control characters"
    if (s === "*") return "use skills: \"all\" to enable every skill"
    if (s.endsWith(":*") || s.endsWith(" *")) return "must not be a wildcard; list each skill by name"
    if (s.startsWith("/")) return "must be the skill's name, without the leading \"/\""
    return true
  })
)

/**
 * Skills to enable: `"all"` or a list of skill names (`plugin:skill` for
 * plugin skills).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const SkillsOption = Schema.Union([Schema.Literal("all"), Schema.Array(SkillName)]).annotate({
  identifier: "SkillsOption"
})

/**
 * @since 0.1.0
 * @category Models
 */
export type SkillsOption = typeof SkillsOption.Type

/**
 * Where the CLI's stderr goes as it arrives: a function from one line
 * (secrets redacted, without its newline) to an Effect. `Effect.logDebug`
 * is one: the lines then go to the program's logger, with the session's
 * annotations. The official SDK's `stderr: (data) => void`, as an Effect.
 *
 * The sink runs in a fiber of the session that reads a bounded buffer of its
 * own: a slow sink loses the oldest unread lines, it never slows the CLI down
 * (see `Session.stderr`). A sink that fails or dies is logged, and the next
 * line goes to it again.
 *
 * @since 0.1.0
 * @category Models
 */
export type StderrSink = (line: string) => Effect.Effect<void>

/**
 * @since 0.1.0
 * @category Schemas
 */
export const StderrSink: Schema.declare<StderrSink> = Schema.declare(
  (u: unknown): u is StderrSink => typeof u === "function",
  {
    identifier: "StderrSink",
    description: "a function (line: string) => Effect<void>, such as Effect.logDebug",
    // Generated values are sinks that drop the line.
    toCodecArbitrary: () =>
      Schema.link<StderrSink>()(Schema.Null, {
        decode: SchemaGetter.transform((): StderrSink => () => Effect.void),
        encode: SchemaGetter.forbidden(() => "a stderr sink has no encoded form")
      })
  }
)

const EnvValue = Schema.String.check(
  Schema.makeFilter((s: string) => !s.includes("\u0000") || "must not contain a NUL character")
)

// Keys of these records are checked after decoding, with messages of their own (see validate).
const EnvRecord = Schema.Record(Schema.String, Schema.UndefinedOr(EnvValue)).annotate({
  identifier: "Record<string, string | undefined>"
})

const ExtraArgs = Schema.Record(Schema.String, Schema.NullOr(Text)).annotate({
  identifier: "Record<string, string | null>"
})

// -----------------------------------------------------------------------------
// Options
// -----------------------------------------------------------------------------

/**
 * The options of a query or session. Every field is optional (and exact: a
 * field is either absent or holds a value, never `undefined`).
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Options = Schema.Struct({
  // --- model and budget -------------------------------------------------------
  /** Model alias (`haiku`, `sonnet`, `opus`, ...) or full model id. Flag `--model`. */
  model: opt(NonEmptyText),
  /** Model(s) to fall back to (comma-separated, in order). Flag `--fallback-model`. Must differ from `model`. */
  fallbackModel: opt(NonEmptyText),
  /** Effort level. Flag `--effort`. */
  effort: opt(EffortLevel),
  /** Thinking behaviour; takes precedence over `maxThinkingTokens`. Flags `--thinking`, `--max-thinking-tokens`, `--thinking-display`. */
  thinking: opt(ThinkingConfig),
  /** Deprecated in the official SDK in favour of `thinking`: `0` disables thinking. Flag `--max-thinking-tokens`. */
  maxThinkingTokens: opt(NonNegativeInt),
  /** Maximum number of turns (API round trips). Flag `--max-turns`. */
  maxTurns: opt(PositiveInt),
  /** Maximum spend in USD. Flag `--max-budget-usd`. */
  maxBudgetUsd: opt(Schema.Number.check(Schema.isGreaterThan(0, { expected: "a positive number" }), Schema.isFinite())),
  /** API-side task budget in tokens. Flag `--task-budget`. */
  taskBudget: opt(Schema.Struct({ total: PositiveInt })),
  /** Beta headers (e.g. `context-1m-2025-08-07`). Flag `--betas`. */
  betas: opt(Schema.Array(NonEmptyText)),

  // --- permissions and tools --------------------------------------------------
  /** Starting permission mode. Flag `--permission-mode`. `bypassPermissions` needs `allowDangerouslySkipPermissions`. */
  permissionMode: opt(PermissionMode),
  /** Allows `bypassPermissions` (at launch or later). Flag `--allow-dangerously-skip-permissions`. */
  allowDangerouslySkipPermissions: opt(Flag),
  /** An MCP tool that answers permission prompts. Flag `--permission-prompt-tool`. Not with a `PermissionGate`. */
  permissionPromptToolName: opt(NonEmptyText),
  /** Who answers permission prompts: `host` (default) or `none` (deny anything that would prompt). Flag `--permission-prompts`. */
  permissionPrompts: opt(Schema.Literals(["host", "none"])),
  /** Tools (or rules such as `Bash(git *)`) allowed without asking. Flag `--allowedTools`. */
  allowedTools: opt(Schema.Array(NonEmptyText)),
  /** Tools removed from the model's context. Flag `--disallowedTools`. */
  disallowedTools: opt(Schema.Array(NonEmptyText)),
  /** The base set of built-in tools. Flag `--tools`. */
  tools: opt(ToolsOption),
  /** Tool-name aliases applied before name resolution. Initialize field `toolAliases`. */
  toolAliases: opt(record(NonEmptyText, "string")),
  /** Skills to enable: adds `Skill`/`Skill(name)` to `--allowedTools` and, for a list, initialize field `skills`. */
  skills: opt(SkillsOption),
  /** Per-tool configuration of built-in tools. Environment (`CLAUDE_CODE_QUESTION_PREVIEW_FORMAT`). */
  toolConfig: opt(ToolConfig),

  // --- prompts and output -----------------------------------------------------
  /** The system prompt. Initialize fields `systemPrompt`, `appendSystemPrompt`, `excludeDynamicSections`, `systemPromptSnapshot`. */
  systemPrompt: opt(SystemPrompt),
  /** Text appended to the system prompt (to Claude Code's own when `systemPrompt` is absent). Initialize field `appendSystemPrompt`. */
  appendSystemPrompt: opt(Text),
  /** Replaces the workflow body of the plan-mode reminder. Initialize field `planModeInstructions`. */
  planModeInstructions: opt(Text),
  /** Structured output. Initialize field `jsonSchema`. */
  outputFormat: opt(OutputFormat),
  /** Custom subagents. Initialize field `agents`. */
  agents: opt(record(AgentDefinition, "AgentDefinition")),
  /** The agent that runs the main thread. Flag `--agent`. */
  agent: opt(NonEmptyText),
  /** Title of a new session. Initialize field `title`. */
  title: opt(Text),
  /** Emit a `prompt_suggestion` after each turn. Initialize field `promptSuggestions`. */
  promptSuggestions: opt(Flag),
  /** Periodic AI-generated progress summaries of running subagents. Initialize field `agentProgressSummaries`. */
  agentProgressSummaries: opt(Flag),
  /** Forward subagent text and thinking blocks. Initialize field `forwardSubagentText`. */
  forwardSubagentText: opt(Flag),
  /**
   * Send every user message with `client_composed: true`: the CLI takes the text as written, with no `@path`
   * file mentions expanded, no slash command run and no turn-start attachments (nested CLAUDE.md, reminders).
   * For prompts assembled from content the user did not type. Runtime (the session's user messages).
   */
  verbatimPrompts: opt(Flag),
  /** Declares that the host stops background tasks one by one (`stop_task`). Initialize field `perTaskStopAffordance`. */
  perTaskStopAffordance: opt(Flag),

  // --- stream contents --------------------------------------------------------
  /** Emit `stream_event` partial messages. Flag `--include-partial-messages`. */
  includePartialMessages: opt(Flag),
  /** Emit hook lifecycle messages for every hook event. Flag `--include-hook-events`. */
  includeHookEvents: opt(Flag),

  // --- sessions ---------------------------------------------------------------
  /** Resume this session (id or name). Flag `--resume`. */
  resume: opt(NonEmptyText),
  /** With `resume`: only resume up to and including this message uuid. Flag `--resume-session-at`. */
  resumeSessionAt: opt(NonEmptyText),
  /** With `resumeSessionAt`: the prompt uuid of the turn the truncation drops. Flag `--resume-drops-turn`. */
  resumeDropsTurn: opt(NonEmptyText),
  /** Continue the most recent session in `cwd`. Flag `--continue`. */
  continue: opt(Flag),
  /** With `resume`/`continue`: fork to a new session id. Flag `--fork-session`. */
  forkSession: opt(Flag),
  /** The id (a UUID) of the new session. Flag `--session-id`. */
  sessionId: opt(Schema.String.check(Schema.isUUID(undefined, { expected: "a Universally Unique Identifier" }))),
  /** `false`: do not save the session to disk. Flag `--no-session-persistence`. */
  persistSession: opt(Flag),
  /** Track file changes so that `rewindFiles` works. Environment (`CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING`). */
  enableFileCheckpointing: opt(Flag),

  // --- settings, MCP, plugins -------------------------------------------------
  /** Filesystem settings to load; `[]` loads none. Flag `--setting-sources`. */
  settingSources: opt(Schema.Array(SettingSource)),
  /**
   * Settings for the "flag settings" layer: path, JSON string or object. An object or JSON string: initialize
   * field `settings` (with `--initialize-fields=settings`), or flag `--settings` (see `settingsDelivery`); a path:
   * flag `--settings`.
   */
  settings: opt(SettingsOption),
  /** How inline `settings` (and `sandbox`) reach the CLI (default `"initialize"`: off the command line). */
  settingsDelivery: opt(Delivery),
  /**
   * Policy-tier settings from the parent process. Initialize field `managedSettings` (with
   * `--managed-settings-in-initialize`), or flag `--managed-settings` (see `managedSettingsDelivery`).
   */
  managedSettings: opt(record(Schema.Unknown, "unknown")),
  /** How `managedSettings` reach the CLI (default `"initialize"`: off the command line). */
  managedSettingsDelivery: opt(Delivery),
  /**
   * The sandbox of Bash commands. Merged into the `sandbox` block of `settings` (an object or a JSON string; a
   * settings file path cannot be combined with it), as the official SDK does, and sent with them.
   */
  sandbox: opt(SandboxSettings),
  /**
   * MCP servers by name. External ones: initialize field `mcpServers` (or flag `--mcp-config`, see
   * `mcpServersDelivery`). In-process ones (`McpServer.make`): initialize field `sdkMcpServers`, served over
   * `mcp_message`.
   */
  mcpServers: opt(record(McpServerConfig, "McpServerConfig")),
  /**
   * How external `mcpServers` reach the CLI: `"initialize"` (the default) keeps their `env` and `headers` off
   * the command line; `"argv"` puts them in `--mcp-config`, where every user of the host can read them.
   */
  mcpServersDelivery: opt(Delivery),
  /** Only use the MCP servers given here. Flag `--strict-mcp-config`. */
  strictMcpConfig: opt(Flag),
  /** Local plugins. Flags `--plugin-dir` / `--plugin-dir-no-mcp` (or initialize field `plugins`, see `pluginDelivery`). */
  plugins: opt(Schema.Array(PluginConfig)),
  /** How `plugins` reach the CLI (default `"argv"`). */
  pluginDelivery: opt(Delivery),

  // --- filesystem and process -------------------------------------------------
  /** Working directory of the CLI (default: the current directory). Runtime. */
  cwd: opt(NonEmptyText),
  /** More directories Claude may access. Flag `--add-dir`, repeated. */
  additionalDirectories: opt(Schema.Array(NonEmptyText)),
  /** The trusted checkout `cwd` is a worktree of. Flag `--project-config-root`. */
  projectConfigRoot: opt(NonEmptyText),
  /** Environment variables, merged over the parent environment (`undefined` removes one). Environment. */
  env: opt(EnvRecord),
  /** `true`: the child gets only `env` (plus the SDK's own variables), not the parent environment. Default `false`. */
  replaceEnv: opt(Flag),
  /** Path to the `claude` executable (default: located by `CliLocator`). Runtime. */
  executable: opt(NonEmptyText),
  /** More CLI flags: `{ "flag-name": "value" }`, `null` for a flag without value. Flags. */
  extraArgs: opt(ExtraArgs),
  /** Debug logging. Flag `--debug`. */
  debug: opt(Flag),
  /** Write debug logs to this file (implies `debug`). Flag `--debug-file`. */
  debugFile: opt(NonEmptyText),
  /**
   * Where the CLI's stderr lines go as they arrive (redacted), e.g. `Effect.logDebug`. Runtime. Every session
   * also has them as `session.stderr`; the last 16 KiB stay in `CliExitError.stderrTail` either way.
   */
  stderr: opt(StderrSink),

  // --- the SDK's own limits (runtime) -----------------------------------------
  /** How long an SDK → CLI control request may wait for its answer (default 30 s). */
  controlTimeout: opt(Timeout),
  /** How long the `initialize` request may wait for its answer; SessionStart hooks run first (default 60 s). */
  initializeTimeout: opt(Timeout),
  /** How long a hook handler may run before the fallback answers (default 60 s). */
  hookTimeout: opt(Timeout),
  /** How long a permission handler may run before the fallback (deny) answers (default 60 s). */
  permissionTimeout: opt(Timeout),
  /** How long closing waits for the CLI to exit after stdin ends, before SIGTERM (default 5 s). */
  closeGracePeriod: opt(GracePeriod),
  /**
   * With a `SessionStore` in the context: how long each `load` / `listSubkeys` of a resume from the store may
   * take before the session fails with a `SessionStoreError` (`Timeout`) instead of waiting (default 60 s; the
   * official SDK's name and meaning, in milliseconds or as a duration).
   */
  loadTimeoutMs: opt(Timeout),
  /**
   * With a `SessionStore` in the context: `"batched"` (the default) appends the transcript at each turn's end
   * (before its result is delivered) and early when a turn piles up lines; `"eager"` also starts an append after
   * every frame the CLI writes, in the background, for near-real-time copies.
   */
  sessionStoreFlush: opt(Schema.Literals(["batched", "eager"])),
  /**
   * With a `SessionStore` in the context: `"secrets"` (the default) stores each transcript entry with every
   * secret the session knows replaced by `<redacted>` (the rule of its logs and errors: see `secrets`);
   * `"none"` stores the entries as the CLI wrote them.
   */
  sessionStoreRedaction: opt(Schema.Literals(["secrets", "none"])),
  /** The longest stdout line accepted, in characters (UTF-16 code units): a guard against runaway output (default 256 Mi). */
  maxLineChars: opt(PositiveInt),
  /**
   * More values that must never appear in anything the SDK writes: error messages and fields, causes,
   * logs and spans, transcripts in a `SessionStore` (the values of secret-looking `env` variables and MCP
   * `headers` are hidden without being listed here). Values shorter than 6 characters are ignored. Runtime;
   * merged with the defaults'.
   */
  secrets: opt(Schema.Array(Text))
}).annotate({ identifier: "ClaudeOptions" })

/**
 * The decoded options (durations are `Duration`s).
 *
 * @since 0.1.0
 * @category Models
 */
export interface Options extends OptionsType {}

type OptionsType = typeof Options.Type

/**
 * The options as a caller writes them (durations may be numbers of
 * milliseconds).
 *
 * @since 0.1.0
 * @category Models
 */
export interface OptionsInput extends OptionsEncoded {}

type OptionsEncoded = typeof Options.Encoded

// -----------------------------------------------------------------------------
// routes and defaults
// -----------------------------------------------------------------------------

/**
 * Where an option goes: a CLI flag, a field of the `initialize` request, the
 * child's environment, or the SDK runtime itself.
 *
 * @since 0.1.0
 * @category Models
 */
export type Route = "flag" | "initialize" | "env" | "runtime"

/**
 * The route(s) of each option. Every option takes exactly one route, with
 * documented exceptions: `mcpServers`, `plugins`, `settings` (and `sandbox`,
 * sent with them) and `managedSettings` go in `initialize` with a flag that
 * tells the CLI to read them there (`--await-initialize`, and
 * `--initialize-fields=settings` / `--managed-settings-in-initialize`), or on
 * the command line, as their delivery option says (which therefore touches
 * both); and `skills` takes both (allow rules on `--allowedTools` and the
 * `skills` filter in `initialize`), as in the official SDK. No value is ever
 * sent twice.
 *
 * @since 0.1.0
 * @category Constants
 */
export const routes: { readonly [K in keyof Options]-?: ReadonlyArray<Route> } = mapping.routes

/**
 * The defaults of the runtime options.
 *
 * @since 0.1.0
 * @category Constants
 */
export const defaults: {
  readonly controlTimeout: Duration.Duration
  readonly initializeTimeout: Duration.Duration
  readonly hookTimeout: Duration.Duration
  readonly permissionTimeout: Duration.Duration
  readonly closeGracePeriod: Duration.Duration
  readonly loadTimeoutMs: Duration.Duration
  readonly maxLineChars: number
} = {
  controlTimeout: Duration.seconds(30),
  initializeTimeout: Duration.seconds(60),
  // The guarded run's defaults: one place for every handler's default timeout.
  hookTimeout: GuardedRun.defaultTimeouts.hook,
  permissionTimeout: GuardedRun.defaultTimeouts.permission,
  closeGracePeriod: Duration.seconds(5),
  loadTimeoutMs: Duration.seconds(60),
  maxLineChars: 256 * 1024 * 1024
}

/**
 * The options the SDK runtime reads itself, with defaults applied.
 *
 * @since 0.1.0
 * @category Models
 */
export interface RuntimeSettings {
  /** An explicit path to the executable, or `undefined` to locate it. */
  readonly executable: string | undefined
  /** The working directory, or `undefined` for the current one. */
  readonly cwd: string | undefined
  readonly controlTimeout: Duration.Duration
  readonly initializeTimeout: Duration.Duration
  readonly hookTimeout: Duration.Duration
  readonly permissionTimeout: Duration.Duration
  readonly closeGracePeriod: Duration.Duration
  readonly maxLineChars: number
  /** The values listed in `secrets` (the SDK adds those it finds in the environment and MCP configs). */
  readonly secrets: ReadonlyArray<string>
  /** Mark every user message `client_composed` (see the `verbatimPrompts` option). */
  readonly verbatimPrompts: boolean
  /** Where stderr lines go, besides `Session.stderr`. */
  readonly stderr: StderrSink | undefined
  /** The bound on each read of a resume from a `SessionStore`. */
  readonly loadTimeout: Duration.Duration
  /** How a `SessionStore` mirror flushes. */
  readonly sessionStoreFlush: "batched" | "eager"
  /** What a `SessionStore` mirror hides in the entries it appends. */
  readonly sessionStoreRedaction: "secrets" | "none"
}

/**
 * The runtime options with {@link defaults} applied.
 *
 * @since 0.1.0
 * @category Accessors
 */
export const runtimeSettings = (options: Options): RuntimeSettings => ({
  executable: options.executable,
  cwd: options.cwd,
  controlTimeout: options.controlTimeout ?? defaults.controlTimeout,
  initializeTimeout: options.initializeTimeout ?? defaults.initializeTimeout,
  hookTimeout: options.hookTimeout ?? defaults.hookTimeout,
  permissionTimeout: options.permissionTimeout ?? defaults.permissionTimeout,
  closeGracePeriod: options.closeGracePeriod ?? defaults.closeGracePeriod,
  maxLineChars: options.maxLineChars ?? defaults.maxLineChars,
  secrets: options.secrets ?? [],
  verbatimPrompts: options.verbatimPrompts === true,
  stderr: options.stderr,
  loadTimeout: options.loadTimeoutMs ?? defaults.loadTimeoutMs,
  sessionStoreFlush: options.sessionStoreFlush ?? "batched",
  sessionStoreRedaction: options.sessionStoreRedaction ?? "secrets"
})

// -----------------------------------------------------------------------------
// decoding and validation
// -----------------------------------------------------------------------------

const decodeResult = SchemaParser.decodeUnknownResult(Options, decodeOptions)

/**
 * What the runtime adds to the options, for the checks that depend on it.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ValidateContext {
  /** A `PermissionGate` is present: the CLI gets `--permission-prompt-tool stdio`. */
  readonly permissionPromptTool?: boolean | undefined
}

/**
 * Checks decoded options for values that are wrong together (`Conflict`) or
 * that cannot be sent to the CLI (`InvalidOptions`: values that are not JSON,
 * reserved `extraArgs`). Use it on the result of {@link merge}.
 *
 * Messages name the option path and never contain environment values.
 *
 * @since 0.1.0
 * @category Validation
 */
export const validate = (options: Options, context?: ValidateContext): Effect.Effect<Options, OptionsError> =>
  Effect.suspend(() => {
    const invalid = validation.invalidValues(options)
    if (invalid.length > 0) {
      return Effect.fail(new OptionsError({ reason: "InvalidOptions", detail: invalid.join("; ") }))
    }
    const conflicts = validation.conflicts(options, context?.permissionPromptTool === true)
    if (conflicts.length > 0) {
      return Effect.fail(new OptionsError({ reason: "Conflict", detail: conflicts.join("; ") }))
    }
    return Effect.succeed(options)
  })

const decodeFields = (input: unknown): Effect.Effect<Options, OptionsError> =>
  Effect.suspend(() => {
    let result: Result.Result<Options, string>
    try {
      // Formatting may decode parts of the input again (a union's members): it may throw too.
      result = Result.mapError(decodeResult(input), (issue) => formatIssue(issue).join("; "))
    } catch (cause) {
      return Effect.fail(
        new OptionsError({
          reason: "InvalidOptions",
          detail: "the options could not be read (a getter or proxy threw while decoding them)",
          cause
        })
      )
    }
    if (Result.isFailure(result)) {
      return Effect.fail(
        new OptionsError({ reason: "InvalidOptions", detail: result.failure })
      )
    }
    const invalid = validation.invalidValues(result.success)
    return invalid.length > 0
      ? Effect.fail(new OptionsError({ reason: "InvalidOptions", detail: invalid.join("; ") }))
      : Effect.succeed(result.success)
  })

/**
 * Decodes options from unknown input, then {@link validate}s them. Unknown
 * option names are errors (with a suggestion for a near miss). The error's
 * detail lists every problem as `path: message`; values under `env`,
 * `headers`, `args`, `extraArgs`, `settings` or a secret-looking key are never
 * shown. Decoding is synchronous and cannot hang (cyclic input is reported,
 * not walked forever).
 *
 * @since 0.1.0
 * @category Decoding
 */
export const decode = (input: unknown, context?: ValidateContext): Effect.Effect<Options, OptionsError> =>
  Effect.flatMap(decodeFields(input), (options) => validate(options, context))

/**
 * Decodes one layer of options (the defaults of `ClaudeCode.layer`, or the
 * options of one call) like {@link decode}, but without the checks across
 * options (`Conflict`), which only make sense once the layers are combined:
 * `validate(merge(defaults, overrides), context)`.
 *
 * @since 0.1.0
 * @category Decoding
 */
export const decodePartial: (input: unknown) => Effect.Effect<Options, OptionsError> = decodeFields

// -----------------------------------------------------------------------------
// merging
// -----------------------------------------------------------------------------

/**
 * Layers `defaults` (from `ClaudeCode.layer(config)`) under per-call
 * `overrides`:
 *
 * - a field set in `overrides` wins;
 * - the records `env`, `mcpServers`, `agents`, `extraArgs` and `toolAliases`
 *   merge key by key (an `env` key set to `undefined` in `overrides` removes
 *   the inherited value);
 * - `sandbox` merges by the rules it is merged into `settings` with (see
 *   {@link SandboxSettings}: restriction lists add up, other values replace);
 * - arrays and other objects from `overrides` replace;
 * - options that only make sense together are taken as a group: when
 *   `overrides` sets any of `continue`/`resume`/`sessionId`/`forkSession`/
 *   `resumeSessionAt`/`resumeDropsTurn`, or `systemPrompt`/`appendSystemPrompt`,
 *   or `thinking`/`maxThinkingTokens`, or `debug`/`debugFile`, none of that
 *   group is taken from `defaults`.
 *
 * Run {@link validate} on the result.
 *
 * @since 0.1.0
 * @category Combinators
 */
export const merge = (defaults: Options, overrides: Options): Options => mapping.merge(defaults, overrides)

// -----------------------------------------------------------------------------
// the routes
// -----------------------------------------------------------------------------

/**
 * The base arguments every CLI process gets.
 *
 * @since 0.1.0
 * @category Constants
 */
export const baseArgs: ReadonlyArray<string> = mapping.baseArgs

/**
 * The CLI arguments for the options: {@link baseArgs}, then one flag per
 * flag-routed option, in the order the official SDK uses, as `--flag=value`
 * (so that a value starting with `-` is never read as a flag). JSON payloads
 * (`--mcp-config`, `--settings`, `--managed-settings`, each only with its
 * delivery `"argv"`) and `extraArgs` are separate arguments unless the value
 * starts with `-`. No option puts a secret here by default: what may hold one
 * goes in `initialize` (see {@link Delivery}); `extraArgs` are on the command
 * line as given.
 *
 * `sandbox` is merged into the `sandbox` block of `settings` (an object or a
 * JSON string) by the official SDK's rules, and travels with them.
 *
 * `permissionPromptTool: true` (a `PermissionGate` is present) adds
 * `--permission-prompt-tool=stdio`; it then wins over
 * `permissionPromptToolName` (which {@link validate} reports as a conflict).
 * Only external MCP servers (see {@link isExternalMcpServer}) go to
 * `--mcp-config`.
 *
 * @since 0.1.0
 * @category Routes
 */
export const toCliArgs = (
  options: Options,
  context: { readonly permissionPromptTool: boolean }
): ReadonlyArray<string> => mapping.toCliArgs(options, context)

/**
 * The fields of the `initialize` request, field names as on the wire.
 * `hooks` and the SDK MCP server fields are added by the runtime.
 *
 * @since 0.1.0
 * @category Models
 */
export interface InitializeFields {
  readonly systemPrompt?: ReadonlyArray<string>
  readonly appendSystemPrompt?: string
  readonly excludeDynamicSections?: boolean
  readonly systemPromptSnapshot?: boolean
  readonly planModeInstructions?: string
  readonly jsonSchema?: { readonly [key: string]: unknown }
  readonly agents?: { readonly [name: string]: AgentDefinition }
  readonly title?: string
  readonly promptSuggestions?: boolean
  readonly agentProgressSummaries?: boolean
  readonly forwardSubagentText?: boolean
  readonly perTaskStopAffordance?: boolean
  readonly toolAliases?: { readonly [alias: string]: string }
  readonly skills?: ReadonlyArray<string>
  readonly mcpServers?: { readonly [name: string]: McpExternalServerConfig }
  readonly plugins?: ReadonlyArray<PluginConfig>
  readonly settings?: { readonly [key: string]: unknown }
  readonly managedSettings?: { readonly [key: string]: unknown }
}

/**
 * The `initialize` request fields for the options (only those that are set):
 * the system prompt (as blocks; `[""]`, the minimal SDK prompt, when neither
 * `systemPrompt` nor `appendSystemPrompt` is given, as the official SDK does),
 * `appendSystemPrompt`, `agents`, `jsonSchema` (from `outputFormat`), `title`,
 * `promptSuggestions`, and the other initialize-routed options; external MCP
 * servers, plugins, inline settings (with `sandbox`) and managed settings when
 * their delivery is `"initialize"`.
 *
 * @since 0.1.0
 * @category Routes
 */
export const toInitializeFields = (options: Options): InitializeFields => mapping.toInitializeFields(options)

/**
 * The complete environment of the CLI process:
 *
 * 1. the parent environment (without `DEBUG`, which would switch on the CLI's
 *    debug mode), unless `replaceEnv` is `true`;
 * 2. `options.env` over it (`undefined` values remove a variable);
 * 3. `CLAUDE_CODE_ENTRYPOINT=sdk-ts` unless `options.env` sets it (the CLI's
 *    SDK entrypoint: this SDK speaks the TypeScript SDK's protocol);
 *    `CLAUDE_CODE_SDK_READS_SESSION_STATE=1` unless set (turns on
 *    `system/session_state_changed`, as the official SDK always does);
 *    `CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=true` with
 *    `enableFileCheckpointing` (needed by `rewind_files`);
 *    `CLAUDE_CODE_QUESTION_PREVIEW_FORMAT` from `toolConfig`;
 * 4. `NODE_OPTIONS` removed; `undefined` values dropped.
 *
 * `CLAUDE_AGENT_SDK_VERSION` is not set: it names the official package's
 * version, which this SDK is not.
 *
 * @since 0.1.0
 * @category Routes
 */
export const toEnv = (
  options: Options,
  parentEnv: Readonly<Record<string, string | undefined>>
): Record<string, string> => mapping.toEnv(options, parentEnv)

// -----------------------------------------------------------------------------
// secrets
// -----------------------------------------------------------------------------

/**
 * Whether an environment variable (or JSON key, or flag) name looks like it
 * holds a secret: API keys, tokens, secrets, passwords, credentials, auth,
 * cookies, private/access keys, connection strings. Used to keep values out of
 * logs and errors; it errs on the side of hiding.
 *
 * @since 0.1.0
 * @category Secrets
 */
export const isSecretEnvKey: (key: string) => boolean = secrets.isSecretEnvKey

/**
 * A copy of an environment fit for logs: the value of every
 * {@link isSecretEnvKey} variable replaced by `"<redacted>"`, `undefined`
 * values dropped.
 *
 * @since 0.1.0
 * @category Secrets
 */
export const redactEnv: (env: Readonly<Record<string, string | undefined>>) => Record<string, string> =
  secrets.redactEnv

/**
 * A copy of CLI arguments fit for logs: JSON payloads (`--mcp-config`,
 * `--settings`, ...) with the values of `env`/`headers` blocks and of
 * secret-looking keys hidden, and the value of secret-looking flags
 * (`--api-key=...`, `--token x`) hidden.
 *
 * @since 0.1.0
 * @category Secrets
 */
export const redactArgs = (args: ReadonlyArray<string>): Array<string> => secrets.redactArgList(args) as Array<string>
