/**
 * effect `Arbitrary`s for property tests of hooks and permission gates: the
 * input of every hook event (values that decode with the `Protocol` schemas
 * and look like what the CLI sends), the built-in tools' inputs (from
 * {@link ToolInputs}), full PreToolUse / PostToolUse / PermissionRequest
 * inputs and `can_use_tool` requests around a tool input of your choice, and
 * realistic shell commands and paths whose meaning is known — so that a
 * property can state what a guard must do.
 *
 * All of them work in `it.prop` / `it.effect.prop` of `@effect/vitest`:
 *
 * ```ts
 * it.effect.prop(
 *   "denies every deletion outside the working directory",
 *   [Arbitraries.preToolUse("Bash", Arbitraries.bash({ kind: "deletesOutside" }))],
 *   ([input]) => Effect.map(HookTest.run(input), (o) => o.permissionDecision === "deny"),
 *   { arbitrary: { runs: 500 } }
 * )
 * ```
 *
 * @since 0.1.0
 */
import { Protocol } from "@claude-effect/sdk"
import * as Arbitrary from "effect/Arbitrary"
import * as Schema from "effect/Schema"
import type { BaseOverrides } from "./HookTest.js"
import * as shell from "./internal/shell.js"
import * as ToolInputs from "./ToolInputs.js"

type Arb<A> = Arbitrary.Arbitrary<A>

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
export const command = (options?: CommandOptions): Arb<string> =>
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
): Arb<string> => shell.filePath(options?.cwd ?? shell.defaultCwd, options?.where ?? "any")

// -----------------------------------------------------------------------------
// Tool inputs
// -----------------------------------------------------------------------------

/**
 * The realistic arbitrary of a built-in tool's input schema
 * (`ToolInputs.byName[name].arbitrary`).
 *
 * @since 0.1.0
 * @category Tool inputs
 */
export const toolInput = <Name extends ToolInputs.ToolName>(name: Name): Arb<ToolInputs.Input<Name>> =>
  ToolInputs.byName[name].arbitrary as Arb<ToolInputs.Input<Name>>

/**
 * Bash tool inputs whose commands are of the given kind, for the given
 * working directory. `ToolInputs.Bash.arbitrary` is `bash()`.
 *
 * @since 0.1.0
 * @category Tool inputs
 */
export const bash = (options?: CommandOptions): Arb<ToolInputs.Bash> =>
  Arbitrary.map(
    Arbitrary.all([bashRest, command(options)]),
    ([rest, commandLine]): ToolInputs.Bash => ({ command: commandLine, ...rest })
  )

const { command: _command, ...bashRestFields } = ToolInputs.Bash.fields

const bashRest: Arb<Omit<ToolInputs.Bash, "command">> = shell.record(
  Object.fromEntries(Object.entries(bashRestFields).map(([key, field]) => [key, field.schema.arbitrary])),
  new Set(Object.keys(bashRestFields))
)

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

const mcpCall: Arb<ToolCall> = Arbitrary.map(
  Arbitrary.all({
    server: shell.constantFrom("github", "linear", "calc", "my-server", "playwright"),
    tool: shell.constantFrom("create_issue", "add", "browser_navigate", "search", "delete_repository"),
    input: shell.dictionary(
      shell.constantFrom("a", "b", "query", "title", "url", "owner", "repo"),
      shell.jsonValue(1),
      3
    ),
    source: shell.constantFrom("sdk", "stdio", "http")
  }),
  ({ input, server, source, tool }) => ({
    tool_name: `mcp__${server}__${tool}`,
    tool_input: input,
    mcp_server: { name: server, source }
  })
)

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
export const toolCall = (options?: { readonly cwd?: string | undefined }): Arb<ToolCall> => {
  const cwd = options?.cwd ?? shell.defaultCwd
  const builtIn = (Object.keys(toolWeights) as Array<ToolInputs.ToolName>).map((name) =>
    [
      toolWeights[name],
      name === "Bash"
        ? Arbitrary.map(bash({ cwd }), (input): ToolCall => ({ tool_name: name, tool_input: input }))
        : Arbitrary.map(toolInput(name), (input): ToolCall => ({
          tool_name: name,
          tool_input: rebase(input, cwd) as Readonly<Record<string, unknown>>
        }))
    ] as const
  )
  return shell.weighted<ToolCall>(...builtIn, [2, mcpCall])
}

// -----------------------------------------------------------------------------
// Hook inputs
// -----------------------------------------------------------------------------

/** A field the generated object has about half of the time. */
interface Optional {
  readonly _tag: "Optional"
  readonly arbitrary: Arb<unknown>
}

type Fields = Readonly<Record<string, Arb<unknown> | Optional>>

const optional = (arbitrary: Arb<unknown>): Optional => ({ _tag: "Optional", arbitrary })

const fields = (fields: Fields): Arb<Record<string, unknown>> => {
  const optionalKeys = new Set<string>()
  const arbitraries: Record<string, Arb<unknown>> = {}
  for (const [key, field] of Object.entries(fields)) {
    if ("_tag" in field) {
      optionalKeys.add(key)
      arbitraries[key] = field.arbitrary
    } else {
      arbitraries[key] = field
    }
  }
  return shell.record(arbitraries, optionalKeys)
}

const strings = (...values: ReadonlyArray<string>): Arb<string> => shell.constantFrom(...values)

const matching = shell.matching

const int = shell.integer

const nullOr = <A>(arbitrary: Arb<A>): Arb<A | null> => shell.oneOf<A | null>(Arbitrary.Constant(null), arbitrary)

const arrayOf = <A>(arbitrary: Arb<A>): Arb<Array<A>> => Arbitrary.array(arbitrary, { maxLength: 3 })

const usd = Arbitrary.map(shell.integer(0, 500), (cents) => cents / 100)

const Uuid = shell.uuid

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

const Text = ToolInputs.Text.arbitrary

const PermissionMode = shell.constantFrom("default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto")

const baseFields = {
  session_id: Uuid,
  transcript_path: Arbitrary.Constant(""), // set by `finish`
  cwd: Cwd,
  prompt_id: optional(Uuid),
  permission_mode: optional(PermissionMode),
  agent_id: optional(AgentId),
  agent_type: optional(AgentType),
  effort: optional(fields({ level: shell.constantFrom("low", "medium", "high", "xhigh", "max") }))
}

const BackgroundTask = fields({
  id: matching(/^[a-z0-9]{8}$/),
  type: strings("local_bash", "local_agent", "remote_agent", "monitor"),
  status: strings("running", "completed", "failed", "killed"),
  description: ToolInputs.Text.arbitrary,
  command: optional(ToolInputs.ShellCommand.arbitrary),
  agent_type: optional(AgentType)
})

const SessionCron = fields({
  id: matching(/^cron_[a-z0-9]{6}$/),
  schedule: strings("*/5 * * * *", "0 9 * * 1-5", "@hourly"),
  recurring: shell.boolean,
  prompt: Text
})

const toolResponse = (call: ToolCall): Arb<unknown> => {
  if (call.tool_name === "Bash") {
    return shell.record({
      stdout: shell.constantFrom("", "hi\n", "ok\n", "total 0\n", "src\ntest\n"),
      stderr: shell.constantFrom("", "", "warning: something\n"),
      interrupted: Arbitrary.Constant(false),
      isImage: Arbitrary.Constant(false)
    })
  }
  if (call.tool_name === "Read") {
    return shell.record({
      type: Arbitrary.Constant("text"),
      file: shell.record({
        filePath: Arbitrary.Constant(String(call.tool_input.file_path)),
        content: shell.prose,
        numLines: shell.integer(0, 200),
        startLine: Arbitrary.Constant(1),
        totalLines: shell.integer(0, 2000)
      })
    })
  }
  return shell.jsonValue(2)
}

const toolCallWithResponse = (cwd: string) =>
  Arbitrary.flatMap(toolCall({ cwd }), (call) =>
    Arbitrary.map(
      Arbitrary.all([ToolUseId, toolResponse(call)]),
      ([id, response]) => ({
        tool_name: call.tool_name,
        tool_input: call.tool_input,
        tool_use_id: id,
        tool_response: response
      })
    ))

const permissionSuggestions = Arbitrary.array(
  shell.oneOf<Record<string, unknown>>(
    shell.record({
      type: Arbitrary.Constant("addRules"),
      rules: Arbitrary.array(
        shell.record({
          toolName: shell.constantFrom("Bash", "Write", "Edit", "WebFetch"),
          ruleContent: shell.constantFrom("npm test:*", "git status", "domain:github.com")
        }, new Set(["ruleContent"])),
        { minLength: 1, maxLength: 2 }
      ),
      behavior: Arbitrary.Constant("allow"),
      destination: shell.constantFrom("localSettings", "session", "projectSettings", "userSettings")
    }),
    shell.record({
      type: Arbitrary.Constant("addDirectories"),
      directories: Arbitrary.array(shell.constantFrom("/tmp", "/home/user/shared", "/srv/data"), {
        minLength: 1,
        maxLength: 2
      }),
      destination: Arbitrary.Constant("session")
    }),
    shell.record({
      type: Arbitrary.Constant("setMode"),
      mode: Arbitrary.Constant("acceptEdits"),
      destination: Arbitrary.Constant("session")
    })
  ),
  { maxLength: 2 }
)

const jsonSchemas = shell.constantFrom(
  { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  { type: "object", properties: { confirm: { type: "boolean" }, count: { type: "number" } } }
)

const ServerName = strings("github", "linear", "calc", "my-server", "playwright")

const Trigger = shell.constantFrom("manual", "auto")

const modelSwitchFields = {
  from_model: Model,
  to_model: Model,
  requested_model: nullOr(strings("opus", "sonnet", "haiku", "claude-opus-4-5", "sonnet[1m]")),
  context_tokens: int(0, 1_000_000),
  prompt_cache_warm: shell.boolean,
  cache_ttl: shell.constantFrom("5m", "1h"),
  estimated_cache_write_usd: usd,
  pricing: shell.constantFrom("configured", "catalog", "default")
}

const taskFields = {
  task_id: matching(/^[1-9][0-9]?$/),
  task_subject: strings("Write the tests", "Fix the build", "Review the PR", "Update the docs"),
  task_description: optional(Text),
  teammate_name: optional(strings("alice", "bob", "researcher")),
  team_name: optional(strings("default", "frontend"))
}

const elicitationMode = shell.constantFrom("form", "url")

/** Each event's refined fields, over the Protocol schema's (tool fields are paired separately). */
const refinements: { readonly [Event in Protocol.HookEvent]: Fields } = {
  PreToolUse: { tool_use_id: ToolUseId },
  PostToolUse: { tool_use_id: ToolUseId, duration_ms: optional(int(1, 120_000)) },
  PostToolUseFailure: {
    tool_use_id: ToolUseId,
    error: strings("Exit code 1", "Exit code 2", "Exit code 127", "File does not exist.", "Permission denied"),
    is_interrupt: optional(shell.boolean),
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
    source: optional(shell.constantFrom("user", "sdk", "system", "loop_wakeup", "schedule_wakeup", "poll_event")),
    session_title: optional(Text)
  },
  UserPromptExpansion: {
    expansion_type: shell.constantFrom("slash_command", "mcp_prompt"),
    command_name: strings("review", "init", "security-review", "my-command", "mcp__github__summarize"),
    command_args: strings("", "src/index.ts", "--all", "please be brief"),
    command_source: optional(strings("user", "project", "plugin", "builtin")),
    prompt: Text
  },
  SessionStart: {
    source: shell.constantFrom("startup", "resume", "clear", "compact", "fork"),
    model: optional(Model),
    session_title: optional(Text),
    seconds_since_last_response: optional(int(0, 86_400)),
    context_tokens: optional(int(0, 200_000)),
    prompt_cache_likely_expired: optional(shell.boolean),
    estimated_cache_write_usd: optional(usd)
  },
  SessionEnd: { reason: shell.constantFrom("clear", "resume", "logout", "prompt_input_exit", "other") },
  Stop: {
    stop_hook_active: shell.boolean,
    last_assistant_message: optional(Text),
    background_tasks: optional(arrayOf(BackgroundTask)),
    session_crons: optional(arrayOf(SessionCron))
  },
  StopFailure: {
    error: strings("server_error", "rate_limit", "overloaded", "invalid_request", "authentication_failed", "unknown"),
    error_details: optional(Text),
    last_assistant_message: optional(Text)
  },
  SubagentStart: { agent_id: AgentId, agent_type: AgentType },
  SubagentStop: {
    stop_hook_active: shell.boolean,
    agent_id: AgentId,
    agent_type: AgentType,
    agent_transcript_path: matching(
      /^\/home\/user\/\.claude\/projects\/-home-user-project\/subagents\/agent-a[0-9a-f]{15}\.jsonl$/
    ),
    last_assistant_message: optional(Text),
    background_tasks: optional(arrayOf(BackgroundTask)),
    session_crons: optional(arrayOf(SessionCron))
  },
  PreCompact: { trigger: Trigger, custom_instructions: nullOr(Text) },
  PostCompact: { trigger: Trigger, compact_summary: Text },
  PreModelSwitch: { ...modelSwitchFields, source: shell.constantFrom("command", "picker", "sdk") },
  PostModelSwitch: { ...modelSwitchFields, source: shell.constantFrom("command", "picker", "sdk", "auto", "resume") },
  PermissionRequest: { permission_suggestions: optional(permissionSuggestions) },
  PermissionDenied: {
    tool_use_id: ToolUseId,
    reason: strings(
      "Permission to use Bash has been denied because Claude Code is running in don't ask mode.",
      "The user doesn't want to proceed with this tool use.",
      "Denied by the auto mode classifier"
    )
  },
  Setup: { trigger: shell.constantFrom("init", "maintenance") },
  TeammateIdle: { teammate_name: strings("alice", "bob", "researcher"), team_name: strings("default", "frontend") },
  TaskCreated: taskFields,
  TaskCompleted: taskFields,
  Elicitation: {
    mcp_server_name: ServerName,
    message: Text,
    mode: optional(elicitationMode),
    url: optional(ToolInputs.Url.arbitrary),
    elicitation_id: optional(Uuid),
    requested_schema: optional(jsonSchemas)
  },
  ElicitationResult: {
    mcp_server_name: ServerName,
    elicitation_id: optional(Uuid),
    mode: optional(elicitationMode),
    action: shell.constantFrom("accept", "decline", "cancel"),
    content: optional(shell.constantFrom({ name: "Ada" }, { confirm: true, count: 3 }, {}))
  },
  ConfigChange: {
    source: shell.constantFrom("user_settings", "project_settings", "local_settings", "policy_settings", "skills"),
    file_path: optional(
      strings("/home/user/.claude/settings.json", ".claude/settings.json", ".claude/settings.local.json")
    )
  },
  WorktreeCreate: { name: strings("feature-x", "fix-123", "agent-a1b2c3") },
  WorktreeRemove: { worktree_path: strings(".claude/worktrees/feature-x", "/tmp/worktrees/fix-123") },
  InstructionsLoaded: {
    file_path: strings("/home/user/.claude/CLAUDE.md", "CLAUDE.md", "src/CLAUDE.md", ".claude/rules/testing.md"),
    memory_type: shell.constantFrom("User", "Project", "Local", "Managed"),
    load_reason: shell.constantFrom("session_start", "nested_traversal", "path_glob_match", "include", "compact"),
    globs: optional(arrayOf(ToolInputs.GlobPattern.arbitrary)),
    trigger_file_path: optional(ToolInputs.FilePath.arbitrary),
    parent_file_path: optional(strings("CLAUDE.md", "/home/user/.claude/CLAUDE.md"))
  },
  CwdChanged: { old_cwd: Cwd, new_cwd: Cwd },
  FileChanged: { file_path: ToolInputs.FilePath.arbitrary, event: shell.constantFrom("change", "add", "unlink") },
  DirectoryAdded: { directory: Cwd, source: shell.constantFrom("slash_command", "register_repo_root") },
  MessageDisplay: {
    turn_id: Uuid,
    message_id: matching(/^msg_01[A-Za-z0-9]{22}$/),
    index: int(0, 50),
    final: shell.boolean,
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

const toolKeys: ReadonlySet<string> = new Set(["mcp_server", "tool_calls", "tool_input", "tool_name", "tool_response"])

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

// Building an event's arbitrary walks its schema: do it once, not per generated value.
const eventFields = new Map<Protocol.HookEvent, Arb<Record<string, unknown>>>()

/**
 * An event's fields without the tool ones: refined where this module knows
 * what the CLI sends, derived from the `Protocol` schema for the rest.
 */
const fieldsArbitrary = (event: Protocol.HookEvent): Arb<Record<string, unknown>> => {
  const known = eventFields.get(event)
  if (known !== undefined) return known
  const refined: Fields = { ...baseFields, hook_event_name: Arbitrary.Constant(event), ...refinements[event] }
  const protocolFields: Schema.Struct.Fields = Protocol.hookInputByEvent[event].fields
  const rest = Object.fromEntries(
    Object.entries(protocolFields).filter(([key]) => !toolKeys.has(key) && !(key in refined))
  )
  const refinedArbitrary = fields(refined)
  const arbitrary = Object.keys(rest).length === 0 ? refinedArbitrary : Arbitrary.map(
    Arbitrary.all([Arbitrary.schema(Schema.Struct(rest)), refinedArbitrary]),
    ([derived, values]) => ({ ...derived, ...values })
  )
  eventFields.set(event, arbitrary)
  return arbitrary
}

/** The values are built field by field after the event's schema; the tests decode each with it. */
const asHookInput = <A>(arbitrary: Arb<Record<string, unknown>>): Arb<A> => arbitrary as Arb<never>

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
): Arb<Protocol.HookInputFor<E>> => {
  const values = fieldsArbitrary(event)
  const cwdOf = (value: Record<string, unknown>) => String(overrides?.cwd ?? value.cwd)
  let arbitrary: Arb<Record<string, unknown>>
  if (toolEvents.has(event)) {
    arbitrary = Arbitrary.flatMap(
      values,
      (value) =>
        Arbitrary.flatMap(toolCall({ cwd: cwdOf(value) }), (call) =>
          Arbitrary.map(
            event === "PostToolUse" ? toolResponse(call) : Arbitrary.Constant(undefined),
            (response) => ({
              ...value,
              tool_name: call.tool_name,
              tool_input: call.tool_input,
              ...(call.mcp_server !== undefined ? { mcp_server: call.mcp_server } : {}),
              ...(event === "PostToolUse" ? { tool_response: response } : {})
            })
          ))
    )
  } else if (event === "PostToolBatch") {
    arbitrary = Arbitrary.flatMap(values, (value) =>
      Arbitrary.map(
        Arbitrary.array(toolCallWithResponse(cwdOf(value)), { minLength: 1, maxLength: 4 }),
        (calls) => ({ ...value, tool_calls: calls })
      ))
  } else {
    arbitrary = values
  }
  return asHookInput(Arbitrary.map(arbitrary, (value) => finish(value, overrides)))
}

/**
 * The input of any of the 33 hook events, each as likely.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const anyHookInput = (overrides?: BaseOverrides): Arb<Protocol.HookInput> =>
  shell.oneOf<Protocol.HookInput>(...Protocol.HookEvent.literals.map((event) => hookInput(event, overrides)))

/**
 * Where a tool input comes from: an `Arbitrary`, a schema with a realistic
 * generator (`ToolInputs.Write`), or any other schema (`Arbitrary.schema`).
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export type Source<A> = Arb<A> | ToolInputs.Generated<A, unknown> | Schema.Codec<A, unknown>

const toArbitrary = <A>(source: Source<A>): Arb<A> => {
  if (Arbitrary.isArbitrary(source)) return source as Arb<A>
  if ("arbitrary" in source && Arbitrary.isArbitrary(source.arbitrary)) return source.arbitrary
  return Arbitrary.schema(source as Schema.Codec<A, unknown>)
}

/**
 * Base fields for inputs around a given tool input: `cwd` defaults to
 * {@link ToolInputs.defaultCwd}, the directory the tool arbitraries generate
 * paths for.
 */
const baseFor = (event: Protocol.HookEvent) =>
  Arbitrary.map(fieldsArbitrary(event), (value) => ({ ...value, cwd: shell.defaultCwd }))

/**
 * Full PreToolUse inputs calling `toolName` with inputs from `toolInput` (an
 * `Arbitrary` or a schema, e.g. `ToolInputs.Write`). The working directory is
 * {@link ToolInputs.defaultCwd} unless overridden — pass the same `cwd` to
 * the tool input's arbitrary.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const preToolUse = <A extends Readonly<Record<string, unknown>>>(
  toolName: string,
  toolInput: Source<A>,
  overrides?: BaseOverrides
): Arb<Protocol.PreToolUseHookInput & { readonly tool_input: A }> =>
  asHookInput(Arbitrary.map(
    Arbitrary.all([baseFor("PreToolUse"), toArbitrary(toolInput)]),
    ([value, input]) => finish({ ...value, tool_name: toolName, tool_input: input }, overrides)
  ))

/**
 * Full PostToolUse inputs calling `toolName` with inputs from `toolInput`
 * and responses from `toolResponse` (default: any JSON).
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const postToolUse = <A extends Readonly<Record<string, unknown>>>(
  toolName: string,
  toolInput: Source<A>,
  toolResponse?: Source<unknown>,
  overrides?: BaseOverrides
): Arb<Protocol.PostToolUseHookInput & { readonly tool_input: A }> =>
  asHookInput(Arbitrary.map(
    Arbitrary.all([
      baseFor("PostToolUse"),
      toArbitrary(toolInput),
      toolResponse !== undefined ? toArbitrary(toolResponse) : shell.jsonValue(2)
    ]),
    ([value, input, response]) =>
      finish({ ...value, tool_name: toolName, tool_input: input, tool_response: response }, overrides)
  ))

/**
 * Full PermissionRequest inputs calling `toolName` with inputs from
 * `toolInput`.
 *
 * @since 0.1.0
 * @category Hook inputs
 */
export const permissionRequest = <A extends Readonly<Record<string, unknown>>>(
  toolName: string,
  toolInput: Source<A>,
  overrides?: BaseOverrides
): Arb<Protocol.PermissionRequestHookInput & { readonly tool_input: A }> =>
  asHookInput(Arbitrary.map(
    Arbitrary.all([baseFor("PermissionRequest"), toArbitrary(toolInput)]),
    ([value, input]) => finish({ ...value, tool_name: toolName, tool_input: input }, overrides)
  ))

/**
 * `can_use_tool` requests for `toolName` with inputs from `toolInput`, as
 * the CLI sends them (for `HookTest.decide`).
 *
 * @since 0.1.0
 * @category Permission requests
 */
export const canUseTool = <A extends Readonly<Record<string, unknown>>>(
  toolName: string,
  toolInput: Source<A>,
  overrides?: Partial<Protocol.CanUseToolRequest>
): Arb<Protocol.CanUseToolRequest & { readonly input: A }> =>
  asHookInput(Arbitrary.map(
    Arbitrary.all({
      input: toArbitrary(toolInput),
      tool_use_id: ToolUseId,
      description: shell.option(shell.shortDescription),
      permission_suggestions: permissionSuggestions,
      blocked_path: shell.option(filePath({ where: "any" }), 4)
    }),
    ({ blocked_path, description, input, permission_suggestions, tool_use_id }) => ({
      subtype: "can_use_tool",
      tool_name: toolName,
      display_name: toolName,
      input,
      tool_use_id,
      ...(description !== undefined ? { description } : {}),
      permission_suggestions,
      ...(blocked_path !== undefined ? { blocked_path } : {}),
      ...overrides
    })
  ))
