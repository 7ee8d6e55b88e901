/**
 * fast-check arbitraries for property tests of hooks and permission gates,
 * derived from the Schemas: the input of every hook event (from the
 * `Protocol` schemas, refined so that values look like what the CLI sends),
 * the built-in tools' inputs (from {@link ToolInputs}), full PreToolUse /
 * PostToolUse / PermissionRequest inputs and `can_use_tool` requests around
 * a tool input of your choice, and realistic shell commands and paths whose
 * meaning is known — so that a property can state what a guard must do.
 *
 * All of them work in `it.prop` / `it.effect.prop`:
 *
 * ```ts
 * it.effect.prop(
 *   "denies every deletion outside the working directory",
 *   [Arbitraries.preToolUse("Bash", Arbitraries.bash({ kind: "deletesOutside" }))],
 *   ([input]) => Effect.map(HookTest.run(input), (o) => o.permissionDecision === "deny"),
 *   { fastCheck: { numRuns: 500 } }
 * )
 * ```
 *
 * @since 0.1.0
 */
import { Protocol } from "@claude-effect/sdk"
import * as Arbitrary from "effect/Arbitrary"
import * as fc from "effect/FastCheck"
import * as Schema from "effect/Schema"
import type { BaseOverrides } from "./HookTest.js"
import * as shell from "./internal/shell.js"
import * as ToolInputs from "./ToolInputs.js"

// -----------------------------------------------------------------------------
// Shell commands and paths
// -----------------------------------------------------------------------------

/**
 * What a generated command does, relative to its working directory:
 *
 * - `"harmless"`: deletes nothing outside it — reads (anywhere, `cat
 *   /etc/hosts` included), writes and deletions inside it (`rm -rf build`,
 *   `find . -name '*.tmp' -delete`), and text that only mentions dangerous
 *   commands (`echo 'rm -rf /'`, `git commit -m "..."`, `ls # rm -rf ~`);
 * - `"deletesOutside"`: deletes something outside it (`rm`, `rmdir`,
 *   `unlink`, `find ... -delete` / `-exec rm`, `mv ... /dev/null`, with
 *   absolute paths, `~`, `$HOME`, `..` escapes, after a `cd`, inside
 *   `sh -c '...'`), maybe among harmless steps;
 * - `"any"` (default): both, and other risky commands (`curl ... | sh`,
 *   `git push --force`).
 *
 * @since 0.1.0
 * @category Shell
 */
export type CommandKind = "any" | "harmless" | "deletesOutside"

/**
 * @since 0.1.0
 * @category Shell
 */
export interface CommandOptions {
  /** The working directory the command runs in (default {@link ToolInputs.defaultCwd}). */
  readonly cwd?: string | undefined
  readonly kind?: CommandKind | undefined
}

/**
 * A realistic Bash command line of the given kind, for the given working
 * directory.
 *
 * @since 0.1.0
 * @category Shell
 */
export const command = (options?: CommandOptions): fc.Arbitrary<string> =>
  shell.command(options?.cwd ?? shell.defaultCwd, options?.kind ?? "any")

/**
 * Where a generated path points: strictly inside the working directory,
 * outside it (never at it), or either.
 *
 * @since 0.1.0
 * @category Shell
 */
export type Where = "inside" | "outside" | "any"

/**
 * A file path as file tools receive it (`file_path`): mostly absolute, some
 * relative, some with `..` segments; outside ones include `/etc/passwd`,
 * `~/.ssh/...`, `$HOME/...`, `<cwd>/../x` and look-alikes such as
 * `<cwd>-old/...`.
 *
 * @since 0.1.0
 * @category Shell
 */
export const filePath = (
  options?: { readonly cwd?: string | undefined; readonly where?: Where | undefined }
): fc.Arbitrary<string> => shell.filePath(options?.cwd ?? shell.defaultCwd, options?.where ?? "any")

// -----------------------------------------------------------------------------
// Tool inputs
// -----------------------------------------------------------------------------

// Deriving an arbitrary from a schema walks its AST: do it once, not per generated value.
const memos = new Map<string, fc.Arbitrary<any>>()

const memo = <A>(key: string, make: () => fc.Arbitrary<A>): fc.Arbitrary<A> => {
  let arbitrary = memos.get(key)
  if (arbitrary === undefined) {
    arbitrary = make()
    memos.set(key, arbitrary)
  }
  return arbitrary
}

/**
 * The arbitrary of a built-in tool's input schema ({@link ToolInputs.byName}).
 *
 * @since 0.1.0
 * @category Tool inputs
 */
export const toolInput = <Name extends ToolInputs.ToolName>(name: Name): fc.Arbitrary<ToolInputs.Input<Name>> =>
  memo(
    `tool:${name}`,
    () => Arbitrary.make(ToolInputs.byName[name] as unknown as Schema.Schema<ToolInputs.Input<Name>, any>)
  )

/**
 * Bash tool inputs whose commands are of the given kind, for the given
 * working directory. `Arbitrary.make(ToolInputs.Bash)` is `bash()`.
 *
 * @since 0.1.0
 * @category Tool inputs
 */
export const bash = (options?: CommandOptions): fc.Arbitrary<ToolInputs.Bash> =>
  fc.tuple(bashRest(), command(options)).map(([rest, commandLine]) => ({ command: commandLine, ...rest }))

const bashRest = () => memo("bash:rest", () => Arbitrary.make(ToolInputs.Bash.pipe(Schema.omit("command"))))

/**
 * A tool call as hook inputs carry it.
 *
 * @since 0.1.0
 * @category Tool inputs
 */
export interface ToolCall {
  readonly tool_name: string
  readonly tool_input: Readonly<Record<string, unknown>>
  /** Set for MCP tools. */
  readonly mcp_server?: { readonly name: string; readonly source: string }
}

const mcpCall: fc.Arbitrary<ToolCall> = fc.record({
  server: fc.constantFrom("github", "linear", "calc", "my-server", "playwright"),
  tool: fc.constantFrom("create_issue", "add", "browser_navigate", "search", "delete_repository"),
  input: fc.dictionary(
    fc.constantFrom("a", "b", "query", "title", "url", "owner", "repo"),
    fc.jsonValue({ maxDepth: 1 }),
    {
      maxKeys: 3
    }
  ),
  source: fc.constantFrom("sdk", "stdio", "http")
}).map(({ input, server, source, tool }) => ({
  tool_name: `mcp__${server}__${tool}`,
  tool_input: JSON.parse(JSON.stringify(input)),
  mcp_server: { name: server, source }
}))

const toolWeights: { readonly [Name in ToolInputs.ToolName]: number } = {
  Agent: 1,
  AskUserQuestion: 1,
  Bash: 8,
  Edit: 3,
  ExitPlanMode: 1,
  Glob: 2,
  Grep: 2,
  NotebookEdit: 1,
  Read: 4,
  TaskStop: 1,
  TodoWrite: 1,
  WebFetch: 2,
  WebSearch: 1,
  Write: 3
}

/** Moves the default working directory of generated values to `cwd`. */
const rebase = (value: unknown, cwd: string): unknown => {
  if (cwd === shell.defaultCwd) return value
  if (typeof value === "string") return value.split(shell.defaultCwd).join(cwd)
  if (Array.isArray(value)) return value.map((item) => rebase(item, cwd))
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rebase(item, cwd)]))
  }
  return value
}

/**
 * A call of any built-in tool (Bash, Read, Edit and Write most often) or of
 * an MCP tool (`mcp__github__create_issue`), its paths and commands made for
 * the given working directory.
 *
 * @since 0.1.0
 * @category Tool inputs
 */
export const toolCall = (options?: { readonly cwd?: string | undefined }): fc.Arbitrary<ToolCall> => {
  const cwd = options?.cwd ?? shell.defaultCwd
  const builtIn = (Object.keys(toolWeights) as Array<ToolInputs.ToolName>).map((name) => ({
    weight: toolWeights[name],
    arbitrary: (name === "Bash" ? bash({ cwd }) : toolInput(name).map((input) => rebase(input, cwd))).map((
      input
    ): ToolCall => ({ tool_name: name, tool_input: input as Record<string, unknown> }))
  }))
  return fc.oneof(...builtIn, { weight: 2, arbitrary: mcpCall })
}

// -----------------------------------------------------------------------------
// Hook inputs
// -----------------------------------------------------------------------------

const strings = (...values: ReadonlyArray<string>) =>
  Schema.String.annotations({ arbitrary: () => (fc) => fc.constantFrom(...values) })

const matching = (pattern: RegExp) => Schema.String.annotations({ arbitrary: () => (fc) => fc.stringMatching(pattern) })

/** A field whose arbitrary is given directly. */
const generated = <A>(arbitrary: fc.Arbitrary<A>) =>
  Schema.Unknown.annotations({ arbitrary: () => () => arbitrary }) as unknown as Schema.Schema<A>

const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

const int = (min: number, max: number) => Schema.Int.annotations({ arbitrary: () => (fc) => fc.integer({ min, max }) })

const usd = Schema.Number.annotations({
  arbitrary: () => (fc) => fc.integer({ min: 0, max: 500 }).map((cents) => cents / 100)
})

const Uuid = Schema.String.annotations({ arbitrary: () => (fc) => fc.uuid() })

const cwds = [
  shell.defaultCwd,
  shell.defaultCwd,
  "/Users/alice/code/web-app",
  "/srv/app",
  "/tmp/claude-work",
  "/workspace/repo",
  "/home/dev/my project"
]

const Cwd = strings(...cwds)

const ToolUseId = matching(/^toolu_01[A-Za-z0-9]{22}$/)

const AgentId = matching(/^a[0-9a-f]{15}$/)

const AgentType = strings("general-purpose", "Explore", "Plan", "code-reviewer", "test-runner")

const Model = strings(
  "claude-sonnet-4-5-20250929",
  "claude-opus-4-5-20251101",
  "claude-haiku-4-5-20251001",
  "claude-opus-4-6",
  "claude-sonnet-4-6[1m]"
)

const Text = ToolInputs.Text

const PermissionMode = Schema.Literal("default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto")

const baseFields = {
  session_id: Uuid,
  transcript_path: Schema.String,
  cwd: Cwd,
  prompt_id: optional(Uuid),
  permission_mode: optional(PermissionMode),
  agent_id: optional(AgentId),
  agent_type: optional(AgentType),
  effort: optional(Schema.Struct({ level: Schema.Literal("low", "medium", "high", "xhigh", "max") }))
}

const BackgroundTask = Schema.Struct({
  id: matching(/^[a-z0-9]{8}$/),
  type: strings("local_bash", "local_agent", "remote_agent", "monitor"),
  status: strings("running", "completed", "failed", "killed"),
  description: ToolInputs.Text,
  command: optional(ToolInputs.ShellCommand),
  agent_type: optional(AgentType)
})

const SessionCron = Schema.Struct({
  id: matching(/^cron_[a-z0-9]{6}$/),
  schedule: strings("*/5 * * * *", "0 9 * * 1-5", "@hourly"),
  recurring: Schema.Boolean,
  prompt: Text
})

const toolResponse = (call: ToolCall): fc.Arbitrary<unknown> => {
  if (call.tool_name === "Bash") {
    return fc.record({
      stdout: fc.constantFrom("", "hi\n", "ok\n", "total 0\n", "src\ntest\n"),
      stderr: fc.constantFrom("", "", "warning: something\n"),
      interrupted: fc.constant(false),
      isImage: fc.constant(false)
    })
  }
  if (call.tool_name === "Read") {
    return fc.record({
      type: fc.constant("text"),
      file: fc.record({
        filePath: fc.constant(String(call.tool_input.file_path)),
        content: shell.prose,
        numLines: fc.integer({ min: 0, max: 200 }),
        startLine: fc.constant(1),
        totalLines: fc.integer({ min: 0, max: 2000 })
      })
    })
  }
  return fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)))
}

const toolCallWithResponse = (cwd: string) =>
  toolCall({ cwd }).chain((call) =>
    fc.tuple(Arbitrary.make(ToolUseId), toolResponse(call)).map((
      [id, response]
    ) => ({ tool_name: call.tool_name, tool_input: call.tool_input, tool_use_id: id, tool_response: response }))
  )

const permissionSuggestions = fc.array(
  fc.oneof(
    fc.record({
      type: fc.constant("addRules"),
      rules: fc.array(
        fc.record({
          toolName: fc.constantFrom("Bash", "Write", "Edit", "WebFetch"),
          ruleContent: fc.constantFrom("npm test:*", "git status", "domain:github.com")
        }, { requiredKeys: ["toolName"] }),
        { minLength: 1, maxLength: 2 }
      ),
      behavior: fc.constant("allow"),
      destination: fc.constantFrom("localSettings", "session", "projectSettings", "userSettings")
    }),
    fc.record({
      type: fc.constant("addDirectories"),
      directories: fc.array(fc.constantFrom("/tmp", "/home/user/shared", "/srv/data"), { minLength: 1, maxLength: 2 }),
      destination: fc.constant("session")
    }),
    fc.record({
      type: fc.constant("setMode"),
      mode: fc.constant("acceptEdits"),
      destination: fc.constant("session")
    })
  ),
  { maxLength: 2 }
)

const jsonSchemas = fc.constantFrom(
  { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  { type: "object", properties: { confirm: { type: "boolean" }, count: { type: "number" } } }
)

const ServerName = strings("github", "linear", "calc", "my-server", "playwright")

const Trigger = Schema.Literal("manual", "auto")

const modelSwitchFields = {
  from_model: Model,
  to_model: Model,
  requested_model: Schema.NullOr(strings("opus", "sonnet", "haiku", "claude-opus-4-5", "sonnet[1m]")),
  context_tokens: int(0, 1_000_000),
  prompt_cache_warm: Schema.Boolean,
  cache_ttl: Schema.Literal("5m", "1h"),
  estimated_cache_write_usd: usd,
  pricing: Schema.Literal("configured", "catalog", "default")
}

const taskFields = {
  task_id: matching(/^[1-9][0-9]?$/),
  task_subject: strings("Write the tests", "Fix the build", "Review the PR", "Update the docs"),
  task_description: optional(Text),
  teammate_name: optional(strings("alice", "bob", "researcher")),
  team_name: optional(strings("default", "frontend"))
}

const elicitationMode = Schema.Literal("form", "url")

/** Each event's refined fields, over the Protocol schema's (tool fields are paired separately). */
const refinements: { readonly [Event in Protocol.HookEvent]: Schema.Struct.Fields } = {
  PreToolUse: { tool_use_id: ToolUseId },
  PostToolUse: { tool_use_id: ToolUseId, duration_ms: optional(int(1, 120_000)) },
  PostToolUseFailure: {
    tool_use_id: ToolUseId,
    error: strings("Exit code 1", "Exit code 2", "Exit code 127", "File does not exist.", "Permission denied"),
    is_interrupt: optional(Schema.Boolean),
    duration_ms: optional(int(1, 120_000))
  },
  PostToolBatch: {},
  Notification: {
    message: Text,
    title: optional(strings("Claude Code", "Permission needed")),
    notification_type: strings("permission_prompt", "idle_prompt", "auth_success", "elicitation_dialog")
  },
  UserPromptSubmit: {
    prompt: Text,
    source: optional(Schema.Literal("user", "sdk", "system", "loop_wakeup", "schedule_wakeup", "poll_event")),
    session_title: optional(Text)
  },
  UserPromptExpansion: {
    expansion_type: Schema.Literal("slash_command", "mcp_prompt"),
    command_name: strings("review", "init", "security-review", "my-command", "mcp__github__summarize"),
    command_args: strings("", "src/index.ts", "--all", "please be brief"),
    command_source: optional(strings("user", "project", "plugin", "builtin")),
    prompt: Text
  },
  SessionStart: {
    source: Schema.Literal("startup", "resume", "clear", "compact", "fork"),
    model: optional(Model),
    session_title: optional(Text),
    seconds_since_last_response: optional(int(0, 86_400)),
    context_tokens: optional(int(0, 200_000)),
    prompt_cache_likely_expired: optional(Schema.Boolean),
    estimated_cache_write_usd: optional(usd)
  },
  SessionEnd: { reason: Schema.Literal("clear", "resume", "logout", "prompt_input_exit", "other") },
  Stop: {
    stop_hook_active: Schema.Boolean,
    last_assistant_message: optional(Text),
    background_tasks: optional(Schema.Array(BackgroundTask)),
    session_crons: optional(Schema.Array(SessionCron))
  },
  StopFailure: {
    error: strings("server_error", "rate_limit", "overloaded", "invalid_request", "authentication_failed", "unknown"),
    error_details: optional(Text),
    last_assistant_message: optional(Text)
  },
  SubagentStart: { agent_id: AgentId, agent_type: AgentType },
  SubagentStop: {
    stop_hook_active: Schema.Boolean,
    agent_id: AgentId,
    agent_type: AgentType,
    agent_transcript_path: matching(
      /^\/home\/user\/\.claude\/projects\/-home-user-project\/subagents\/agent-a[0-9a-f]{15}\.jsonl$/
    ),
    last_assistant_message: optional(Text),
    background_tasks: optional(Schema.Array(BackgroundTask)),
    session_crons: optional(Schema.Array(SessionCron))
  },
  PreCompact: { trigger: Trigger, custom_instructions: Schema.NullOr(Text) },
  PostCompact: { trigger: Trigger, compact_summary: Text },
  PreModelSwitch: { ...modelSwitchFields, source: Schema.Literal("command", "picker", "sdk") },
  PostModelSwitch: { ...modelSwitchFields, source: Schema.Literal("command", "picker", "sdk", "auto", "resume") },
  PermissionRequest: { permission_suggestions: optional(generated(permissionSuggestions)) },
  PermissionDenied: {
    tool_use_id: ToolUseId,
    reason: strings(
      "Permission to use Bash has been denied because Claude Code is running in don't ask mode.",
      "The user doesn't want to proceed with this tool use.",
      "Denied by the auto mode classifier"
    )
  },
  Setup: { trigger: Schema.Literal("init", "maintenance") },
  TeammateIdle: { teammate_name: strings("alice", "bob", "researcher"), team_name: strings("default", "frontend") },
  TaskCreated: taskFields,
  TaskCompleted: taskFields,
  Elicitation: {
    mcp_server_name: ServerName,
    message: Text,
    mode: optional(elicitationMode),
    url: optional(ToolInputs.Url),
    elicitation_id: optional(Uuid),
    requested_schema: optional(generated(jsonSchemas))
  },
  ElicitationResult: {
    mcp_server_name: ServerName,
    elicitation_id: optional(Uuid),
    mode: optional(elicitationMode),
    action: Schema.Literal("accept", "decline", "cancel"),
    content: optional(generated(fc.constantFrom({ name: "Ada" }, { confirm: true, count: 3 }, {})))
  },
  ConfigChange: {
    source: Schema.Literal("user_settings", "project_settings", "local_settings", "policy_settings", "skills"),
    file_path: optional(
      strings("/home/user/.claude/settings.json", ".claude/settings.json", ".claude/settings.local.json")
    )
  },
  WorktreeCreate: { name: strings("feature-x", "fix-123", "agent-a1b2c3") },
  WorktreeRemove: { worktree_path: strings(".claude/worktrees/feature-x", "/tmp/worktrees/fix-123") },
  InstructionsLoaded: {
    file_path: strings("/home/user/.claude/CLAUDE.md", "CLAUDE.md", "src/CLAUDE.md", ".claude/rules/testing.md"),
    memory_type: Schema.Literal("User", "Project", "Local", "Managed"),
    load_reason: Schema.Literal("session_start", "nested_traversal", "path_glob_match", "include", "compact"),
    globs: optional(Schema.Array(ToolInputs.GlobPattern)),
    trigger_file_path: optional(ToolInputs.FilePath),
    parent_file_path: optional(strings("CLAUDE.md", "/home/user/.claude/CLAUDE.md"))
  },
  CwdChanged: { old_cwd: Cwd, new_cwd: Cwd },
  FileChanged: { file_path: ToolInputs.FilePath, event: Schema.Literal("change", "add", "unlink") },
  DirectoryAdded: { directory: Cwd, source: Schema.Literal("slash_command", "register_repo_root") },
  MessageDisplay: {
    turn_id: Uuid,
    message_id: matching(/^msg_01[A-Za-z0-9]{22}$/),
    index: int(0, 50),
    final: Schema.Boolean,
    delta: Text
  }
}

const toolEvents: ReadonlySet<string> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PermissionDenied"
])

const transcriptPath = (cwd: string, sessionId: string) =>
  `/home/user/.claude/projects/${cwd.replace(/[^A-Za-z0-9]/g, "-")}/${sessionId}.jsonl`

/** Applies the overrides, keeping `transcript_path` in line with `cwd` and `session_id`. */
const finish = (value: Record<string, unknown>, overrides: BaseOverrides | undefined): Record<string, unknown> => {
  const merged: Record<string, unknown> = { ...value, ...overrides }
  if (overrides?.transcript_path === undefined) {
    merged.transcript_path = transcriptPath(String(merged.cwd), String(merged.session_id))
  }
  return merged
}

const fieldsArbitrary = (event: Protocol.HookEvent): fc.Arbitrary<Record<string, unknown>> =>
  memo(`event:${event}`, () => {
    const {
      mcp_server: _mcp,
      tool_calls: _calls,
      tool_input: _input,
      tool_name: _name,
      tool_response: _response,
      ...protocolFields
    } = Protocol.hookInputByEvent[event].fields as Schema.Struct.Fields
    const fields: Schema.Struct.Fields = {
      ...protocolFields,
      ...baseFields,
      hook_event_name: Schema.Literal(event),
      ...refinements[event]
    }
    return Arbitrary.make(Schema.Struct(fields)) as fc.Arbitrary<Record<string, unknown>>
  })

/**
 * The input of one hook event, as the CLI sends it: UUIDs, realistic paths
 * and working directories (one with a space), known values for the fields
 * the CLI fills from a fixed set, and for tool events a tool name paired with
 * a matching input ({@link toolCall}). Overrides fix base fields (`cwd`,
 * `permission_mode`, ...).
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const hookInput = <E extends Protocol.HookEvent>(
  event: E,
  overrides?: BaseOverrides
): fc.Arbitrary<Protocol.HookInputFor<E>> => {
  const fields = fieldsArbitrary(event)
  const cwdOf = (value: Record<string, unknown>) => String(overrides?.cwd ?? value.cwd)
  let arbitrary: fc.Arbitrary<Record<string, unknown>>
  if (toolEvents.has(event)) {
    arbitrary = fields.chain((value) =>
      toolCall({ cwd: cwdOf(value) }).chain((call) =>
        (event === "PostToolUse" ? toolResponse(call) : fc.constant(undefined)).map((response) => ({
          ...value,
          tool_name: call.tool_name,
          tool_input: call.tool_input,
          ...(call.mcp_server !== undefined ? { mcp_server: call.mcp_server } : {}),
          ...(event === "PostToolUse" ? { tool_response: response } : {})
        }))
      )
    )
  } else if (event === "PostToolBatch") {
    arbitrary = fields.chain((value) =>
      fc.array(toolCallWithResponse(cwdOf(value)), { minLength: 1, maxLength: 4 }).map((calls) => ({
        ...value,
        tool_calls: calls
      }))
    )
  } else {
    arbitrary = fields
  }
  return arbitrary.map((value) => finish(value, overrides)) as unknown as fc.Arbitrary<Protocol.HookInputFor<E>>
}

/**
 * The input of any of the 33 hook events.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const anyHookInput = (overrides?: BaseOverrides): fc.Arbitrary<Protocol.HookInput> =>
  fc.oneof(
    ...Protocol.HookEvent.literals.map((event) => hookInput(event, overrides) as fc.Arbitrary<Protocol.HookInput>)
  )

const toArbitrary = <A>(source: fc.Arbitrary<A> | Schema.Schema<A, any, never>): fc.Arbitrary<A> =>
  Schema.isSchema(source) ? Arbitrary.make(source as Schema.Schema<A, any, never>) : (source as fc.Arbitrary<A>)

/**
 * Base fields for inputs around a given tool input: `cwd` defaults to
 * {@link ToolInputs.defaultCwd}, the directory the tool arbitraries generate
 * paths for.
 */
const baseFor = (event: Protocol.HookEvent) =>
  fieldsArbitrary(event).map((value) => ({ ...value, cwd: shell.defaultCwd }))

/**
 * Full PreToolUse inputs calling `toolName` with inputs from `toolInput` (an
 * arbitrary or a schema, e.g. `ToolInputs.Write`). The working directory is
 * {@link ToolInputs.defaultCwd} unless overridden — pass the same `cwd` to
 * the tool input's arbitrary.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const preToolUse = <A extends Readonly<Record<string, unknown>>>(
  toolName: string,
  toolInput: fc.Arbitrary<A> | Schema.Schema<A, any, never>,
  overrides?: BaseOverrides
): fc.Arbitrary<Protocol.PreToolUseHookInput & { readonly tool_input: A }> =>
  fc.tuple(baseFor("PreToolUse"), toArbitrary(toolInput)).map(([value, input]) =>
    finish({ ...value, tool_name: toolName, tool_input: input }, overrides) as any
  )

/**
 * Full PostToolUse inputs calling `toolName` with inputs from `toolInput`
 * and responses from `toolResponse` (default: any JSON).
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const postToolUse = <A extends Readonly<Record<string, unknown>>>(
  toolName: string,
  toolInput: fc.Arbitrary<A> | Schema.Schema<A, any, never>,
  toolResponse?: fc.Arbitrary<unknown> | Schema.Schema<unknown, any, never>,
  overrides?: BaseOverrides
): fc.Arbitrary<Protocol.PostToolUseHookInput & { readonly tool_input: A }> =>
  fc.tuple(
    baseFor("PostToolUse"),
    toArbitrary(toolInput),
    toolResponse !== undefined ? toArbitrary(toolResponse) : fc.jsonValue({ maxDepth: 2 })
  ).map(([value, input, response]) =>
    finish({ ...value, tool_name: toolName, tool_input: input, tool_response: response }, overrides) as any
  )

/**
 * Full PermissionRequest inputs calling `toolName` with inputs from
 * `toolInput`.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const permissionRequest = <A extends Readonly<Record<string, unknown>>>(
  toolName: string,
  toolInput: fc.Arbitrary<A> | Schema.Schema<A, any, never>,
  overrides?: BaseOverrides
): fc.Arbitrary<Protocol.PermissionRequestHookInput & { readonly tool_input: A }> =>
  fc.tuple(baseFor("PermissionRequest"), toArbitrary(toolInput)).map(([value, input]) =>
    finish({ ...value, tool_name: toolName, tool_input: input }, overrides) as any
  )

/**
 * `can_use_tool` requests for `toolName` with inputs from `toolInput`, as
 * the CLI sends them (for `HookTest.decide`).
 *
 * @since 0.1.0
 * @category Permission requests
 */
export const canUseTool = <A extends Readonly<Record<string, unknown>>>(
  toolName: string,
  toolInput: fc.Arbitrary<A> | Schema.Schema<A, any, never>,
  overrides?: Partial<Protocol.CanUseToolRequest>
): fc.Arbitrary<Protocol.CanUseToolRequest & { readonly input: A }> =>
  fc.record({
    input: toArbitrary(toolInput),
    tool_use_id: Arbitrary.make(ToolUseId),
    description: fc.option(shell.shortDescription, { nil: undefined }),
    permission_suggestions: permissionSuggestions,
    blocked_path: fc.option(filePath({ where: "any" }), { nil: undefined, freq: 4 })
  }).map(({ blocked_path, description, input, permission_suggestions, tool_use_id }) =>
    ({
      subtype: "can_use_tool",
      tool_name: toolName,
      display_name: toolName,
      input,
      tool_use_id,
      ...(description !== undefined ? { description } : {}),
      permission_suggestions,
      ...(blocked_path !== undefined ? { blocked_path } : {}),
      ...overrides
    }) as any
  )
