/**
 * The routes of the options: CLI arguments, `initialize` fields and the child
 * environment, plus merging. Flag spelling and order follow the official
 * TypeScript SDK (0.3.328) for the CLI 2.1.328; what may hold a secret (MCP
 * server configs, settings) goes in `initialize` unless a delivery option
 * says `"argv"`: a command line is readable by every user of the host.
 *
 * @internal
 */
import type { InitializeFields, McpExternalServerConfig, Options, Route, ThinkingConfig } from "../../ClaudeOptions.js"
import { isInlineSettings, mergeSandbox, settingsWithSandbox } from "./sandbox.js"

/** @internal */
export const baseArgs: ReadonlyArray<string> = [
  "--output-format",
  "stream-json",
  "--verbose",
  "--input-format",
  "stream-json"
]

/** @internal */
export const routes: { readonly [K in keyof Options]-?: ReadonlyArray<Route> } = {
  model: ["flag"],
  fallbackModel: ["flag"],
  effort: ["flag"],
  thinking: ["flag"],
  maxThinkingTokens: ["flag"],
  maxTurns: ["flag"],
  maxBudgetUsd: ["flag"],
  taskBudget: ["flag"],
  betas: ["flag"],
  permissionMode: ["flag"],
  allowDangerouslySkipPermissions: ["flag"],
  permissionPromptToolName: ["flag"],
  permissionPrompts: ["flag"],
  allowedTools: ["flag"],
  disallowedTools: ["flag"],
  tools: ["flag"],
  toolAliases: ["initialize"],
  skills: ["flag", "initialize"],
  toolConfig: ["env"],
  systemPrompt: ["initialize"],
  appendSystemPrompt: ["initialize"],
  planModeInstructions: ["initialize"],
  outputFormat: ["initialize"],
  agents: ["initialize"],
  agent: ["flag"],
  title: ["initialize"],
  promptSuggestions: ["initialize"],
  agentProgressSummaries: ["initialize"],
  forwardSubagentText: ["initialize"],
  verbatimPrompts: ["runtime"],
  perTaskStopAffordance: ["initialize"],
  includePartialMessages: ["flag"],
  includeHookEvents: ["flag"],
  resume: ["flag"],
  resumeSessionAt: ["flag"],
  resumeDropsTurn: ["flag"],
  continue: ["flag"],
  forkSession: ["flag"],
  sessionId: ["flag"],
  persistSession: ["flag"],
  enableFileCheckpointing: ["env"],
  settingSources: ["flag"],
  settings: ["flag", "initialize"],
  settingsDelivery: ["flag", "initialize"],
  managedSettings: ["flag", "initialize"],
  managedSettingsDelivery: ["flag", "initialize"],
  sandbox: ["flag", "initialize"],
  mcpServers: ["flag", "initialize"],
  mcpServersDelivery: ["flag", "initialize"],
  strictMcpConfig: ["flag"],
  plugins: ["flag", "initialize"],
  pluginDelivery: ["flag", "initialize"],
  cwd: ["runtime"],
  additionalDirectories: ["flag"],
  projectConfigRoot: ["flag"],
  env: ["env"],
  replaceEnv: ["env"],
  executable: ["runtime"],
  extraArgs: ["flag"],
  debug: ["flag"],
  debugFile: ["flag"],
  stderr: ["runtime"],
  controlTimeout: ["runtime"],
  initializeTimeout: ["runtime"],
  hookTimeout: ["runtime"],
  permissionTimeout: ["runtime"],
  closeGracePeriod: ["runtime"],
  loadTimeoutMs: ["runtime"],
  sessionStoreFlush: ["runtime"],
  sessionStoreRedaction: ["runtime"],
  maxLineChars: ["runtime"],
  secrets: ["runtime"]
}

// -----------------------------------------------------------------------------
// CLI arguments
// -----------------------------------------------------------------------------

/** `--flag=value`: a value starting with `-` can never be read as a flag. */
const joined = (flag: string, value: string | number): string => `${flag}=${value}`

/** `--flag value`, or `--flag=value` when the value starts with `-` (the official SDK's rule for JSON and extra args). */
const separate = (flag: string, value: string): ReadonlyArray<string> =>
  value.length > 1 && value.startsWith("-") ? [joined(flag, value)] : [flag, value]

/** @internal */
export const isExternal = (config: { readonly type?: unknown }): boolean =>
  config.type === undefined || config.type === "stdio" || config.type === "sse" || config.type === "http"

/** The `mcpServers` entries the CLI runs or connects to itself (never SDK-hosted ones). @internal */
export const externalMcpServers = (
  options: Options
): Record<string, McpExternalServerConfig> | undefined => {
  if (options.mcpServers === undefined) return undefined
  const out: Record<string, McpExternalServerConfig> = {}
  let any = false
  for (const [name, config] of Object.entries(options.mcpServers)) {
    if (isExternal(config)) {
      out[name] = config as McpExternalServerConfig
      any = true
    }
  }
  return any ? out : undefined
}

type Json = { readonly [key: string]: unknown }

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

const mcpViaInitialize = (options: Options): boolean =>
  options.mcpServersDelivery !== "argv" && externalMcpServers(options) !== undefined

/**
 * The settings object of `settings` (with `sandbox` merged in), or `undefined` when there is none or `settings`
 * is a file path (a path stays on the command line: it names the file, not its contents).
 */
const inlineSettings = (options: Options): Json | undefined => {
  if (options.sandbox !== undefined) return settingsWithSandbox(options.settings, options.sandbox)
  const settings = options.settings
  if (settings === undefined || typeof settings !== "string") return settings
  if (!isInlineSettings(settings)) return undefined
  try {
    const parsed: unknown = JSON.parse(settings)
    return isRecord(parsed) ? parsed : undefined
  } catch {
    return undefined // reported by validate (InvalidOptions) before anything is spawned
  }
}

const settingsViaInitialize = (options: Options): boolean =>
  options.settingsDelivery !== "argv" && inlineSettings(options) !== undefined

const managedSettingsViaInitialize = (options: Options): boolean =>
  options.managedSettingsDelivery !== "argv" && options.managedSettings !== undefined

const pluginsViaInitialize = (options: Options): boolean =>
  options.pluginDelivery === "initialize" && options.plugins !== undefined && options.plugins.length > 0

/** `thinking` wins over the deprecated `maxThinkingTokens` (0 = disabled), as in the official SDK. @internal */
export const effectiveThinking = (options: Options): ThinkingConfig | undefined => {
  if (options.thinking !== undefined) return options.thinking
  if (options.maxThinkingTokens === undefined) return undefined
  return options.maxThinkingTokens === 0
    ? { type: "disabled" }
    : { type: "enabled", budgetTokens: options.maxThinkingTokens }
}

const skillRules = (options: Options): ReadonlyArray<string> =>
  options.skills === undefined
    ? []
    : options.skills === "all"
    ? ["Skill"]
    : options.skills.map((name) => `Skill(${name})`)

/** @internal */
export const toCliArgs = (
  options: Options,
  context: { readonly permissionPromptTool: boolean }
): ReadonlyArray<string> => {
  const args: Array<string> = [...baseArgs]

  const thinking = effectiveThinking(options)
  if (thinking !== undefined) {
    switch (thinking.type) {
      case "enabled":
        args.push(
          thinking.budgetTokens === undefined
            ? "--thinking=adaptive"
            : joined("--max-thinking-tokens", thinking.budgetTokens)
        )
        break
      case "disabled":
        args.push("--thinking=disabled")
        break
      case "adaptive":
        args.push("--thinking=adaptive")
        break
    }
    if (thinking.type !== "disabled" && thinking.display !== undefined) {
      args.push(joined("--thinking-display", thinking.display))
    }
  }
  if (options.effort !== undefined) args.push(joined("--effort", options.effort))
  if (options.maxTurns !== undefined) args.push(joined("--max-turns", options.maxTurns))
  if (options.maxBudgetUsd !== undefined) args.push(joined("--max-budget-usd", options.maxBudgetUsd))
  if (options.taskBudget !== undefined) args.push(joined("--task-budget", options.taskBudget.total))
  if (options.model !== undefined) args.push(joined("--model", options.model))
  if (options.agent !== undefined) args.push(joined("--agent", options.agent))
  if (options.betas !== undefined && options.betas.length > 0) args.push(joined("--betas", options.betas.join(",")))
  if (options.debugFile !== undefined) args.push(joined("--debug-file", options.debugFile))
  else if (options.debug === true) args.push("--debug")

  if (context.permissionPromptTool) args.push("--permission-prompt-tool=stdio")
  else if (options.permissionPromptToolName !== undefined) {
    args.push(joined("--permission-prompt-tool", options.permissionPromptToolName))
  }
  if (options.permissionPrompts !== undefined) args.push(joined("--permission-prompts", options.permissionPrompts))

  if (options.continue === true) args.push("--continue")
  if (options.resume !== undefined) args.push(joined("--resume", options.resume))

  const allowed = [...(options.allowedTools ?? [])]
  for (const rule of skillRules(options)) if (!allowed.includes(rule)) allowed.push(rule)
  if (allowed.length > 0) args.push(joined("--allowedTools", allowed.join(",")))
  if (options.disallowedTools !== undefined && options.disallowedTools.length > 0) {
    args.push(joined("--disallowedTools", options.disallowedTools.join(",")))
  }
  if (options.tools !== undefined) {
    args.push("type" in options.tools ? "--tools=default" : joined("--tools", options.tools.join(",")))
  }

  const external = externalMcpServers(options)
  if (external !== undefined && options.mcpServersDelivery === "argv") {
    args.push(...separate("--mcp-config", JSON.stringify({ mcpServers: external })))
  }
  if (options.settingSources !== undefined) args.push(joined("--setting-sources", options.settingSources.join(",")))
  if (options.strictMcpConfig === true) args.push("--strict-mcp-config")
  if (options.permissionMode !== undefined) args.push(joined("--permission-mode", options.permissionMode))
  if (options.allowDangerouslySkipPermissions === true) args.push("--allow-dangerously-skip-permissions")
  if (options.fallbackModel !== undefined) args.push(joined("--fallback-model", options.fallbackModel))
  if (options.includeHookEvents === true) args.push("--include-hook-events")
  if (options.includePartialMessages === true) args.push("--include-partial-messages")
  if (options.projectConfigRoot !== undefined) args.push(joined("--project-config-root", options.projectConfigRoot))
  for (const dir of options.additionalDirectories ?? []) args.push(joined("--add-dir", dir))

  if (
    mcpViaInitialize(options) || pluginsViaInitialize(options) || settingsViaInitialize(options) ||
    managedSettingsViaInitialize(options)
  ) args.push("--await-initialize")
  if (options.pluginDelivery !== "initialize") {
    for (const plugin of options.plugins ?? []) {
      args.push(joined(plugin.skipMcpDiscovery === true ? "--plugin-dir-no-mcp" : "--plugin-dir", plugin.path))
    }
  }

  if (options.forkSession === true) args.push("--fork-session")
  if (options.resumeSessionAt !== undefined) args.push(joined("--resume-session-at", options.resumeSessionAt))
  if (options.resumeDropsTurn !== undefined) args.push(joined("--resume-drops-turn", options.resumeDropsTurn))
  if (options.sessionId !== undefined) args.push(joined("--session-id", options.sessionId))
  if (options.persistSession === false) args.push("--no-session-persistence")

  if (settingsViaInitialize(options)) args.push("--initialize-fields=settings")
  if (managedSettingsViaInitialize(options)) args.push("--managed-settings-in-initialize")
  else if (options.managedSettings !== undefined) {
    args.push(...separate("--managed-settings", JSON.stringify(options.managedSettings)))
  }
  const settings = settingsViaInitialize(options) ? undefined : settingsArgument(options)
  if (settings !== undefined) args.push(...separate("--settings", settings))
  for (const [name, value] of Object.entries(options.extraArgs ?? {})) {
    if (value === null) args.push(`--${name}`)
    else args.push(...separate(`--${name}`, value))
  }
  return args
}

/** What `--settings` carries: `settings` as given, or with `sandbox` merged into its `sandbox` block. */
const settingsArgument = (options: Options): string | undefined => {
  if (options.sandbox !== undefined) return JSON.stringify(settingsWithSandbox(options.settings, options.sandbox))
  if (options.settings === undefined) return undefined
  return typeof options.settings === "string" ? options.settings : JSON.stringify(options.settings)
}

// -----------------------------------------------------------------------------
// initialize fields
// -----------------------------------------------------------------------------

type Mutable<A> = { -readonly [K in keyof A]: A[K] }

const isReadonlyArray = (u: unknown): u is ReadonlyArray<unknown> => Array.isArray(u)

/** @internal */
export const toInitializeFields = (options: Options): InitializeFields => {
  const fields: Mutable<InitializeFields> = {}
  const prompt = options.systemPrompt
  if (prompt === undefined) {
    // The official SDK's default: the minimal SDK prompt, unless only an append is asked for.
    if (options.appendSystemPrompt === undefined) fields.systemPrompt = [""]
  } else if (typeof prompt === "string") {
    fields.systemPrompt = [prompt]
  } else if (isReadonlyArray(prompt)) {
    fields.systemPrompt = prompt as ReadonlyArray<string>
  } else if (prompt.type === "custom") {
    fields.systemPrompt = typeof prompt.prompt === "string" ? [prompt.prompt] : prompt.prompt
    if (prompt.snapshot !== undefined) fields.systemPromptSnapshot = prompt.snapshot
  } else {
    if (prompt.append !== undefined) fields.appendSystemPrompt = prompt.append
    if (prompt.excludeDynamicSections !== undefined) fields.excludeDynamicSections = prompt.excludeDynamicSections
    if (prompt.snapshot !== undefined) fields.systemPromptSnapshot = prompt.snapshot
  }
  if (options.appendSystemPrompt !== undefined) fields.appendSystemPrompt = options.appendSystemPrompt
  if (options.planModeInstructions !== undefined) fields.planModeInstructions = options.planModeInstructions
  if (options.outputFormat !== undefined) fields.jsonSchema = options.outputFormat.schema
  if (options.agents !== undefined) fields.agents = options.agents
  if (options.title !== undefined) fields.title = options.title
  if (options.promptSuggestions !== undefined) fields.promptSuggestions = options.promptSuggestions
  if (options.agentProgressSummaries !== undefined) fields.agentProgressSummaries = options.agentProgressSummaries
  if (options.forwardSubagentText !== undefined) fields.forwardSubagentText = options.forwardSubagentText
  if (options.perTaskStopAffordance !== undefined) fields.perTaskStopAffordance = options.perTaskStopAffordance
  if (options.toolAliases !== undefined) fields.toolAliases = options.toolAliases
  if (options.skills !== undefined && options.skills !== "all") fields.skills = options.skills
  if (mcpViaInitialize(options)) fields.mcpServers = externalMcpServers(options)!
  if (pluginsViaInitialize(options)) fields.plugins = options.plugins!
  if (settingsViaInitialize(options)) fields.settings = inlineSettings(options)!
  if (managedSettingsViaInitialize(options)) fields.managedSettings = options.managedSettings!
  return fields
}

// -----------------------------------------------------------------------------
// environment
// -----------------------------------------------------------------------------

/** @internal */
export const toEnv = (
  options: Options,
  parentEnv: Readonly<Record<string, string | undefined>>
): Record<string, string> => {
  const env: Record<string, string> = {}
  if (options.replaceEnv !== true) {
    for (const [key, value] of Object.entries(parentEnv)) {
      // A parent's DEBUG (e.g. for the `debug` package) would switch on the CLI's debug mode.
      if (value !== undefined && key !== "DEBUG") env[key] = value
    }
  }
  const own = options.env ?? {}
  for (const [key, value] of Object.entries(own)) {
    if (value === undefined) delete env[key]
    else env[key] = value
  }
  delete env.NODE_OPTIONS
  if (own.CLAUDE_CODE_ENTRYPOINT === undefined) env.CLAUDE_CODE_ENTRYPOINT = "sdk-ts"
  if (!Object.keys(env).some((key) => key.toUpperCase() === "CLAUDE_CODE_SDK_READS_SESSION_STATE")) {
    env.CLAUDE_CODE_SDK_READS_SESSION_STATE = "1"
  }
  if (options.enableFileCheckpointing === true) env.CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING = "true"
  const previewFormat = options.toolConfig?.askUserQuestion?.previewFormat
  if (previewFormat !== undefined) env.CLAUDE_CODE_QUESTION_PREVIEW_FORMAT = previewFormat
  return env
}

// -----------------------------------------------------------------------------
// merging
// -----------------------------------------------------------------------------

const GROUPS: ReadonlyArray<ReadonlyArray<keyof Options>> = [
  ["continue", "resume", "sessionId", "forkSession", "resumeSessionAt", "resumeDropsTurn"],
  ["systemPrompt", "appendSystemPrompt"],
  ["thinking", "maxThinkingTokens"],
  ["debug", "debugFile"]
]

const RECORDS: ReadonlySet<keyof Options> = new Set<keyof Options>([
  "env",
  "mcpServers",
  "agents",
  "extraArgs",
  "toolAliases"
])

/** @internal */
export const merge = (defaults: Options, overrides: Options): Options => {
  const out: Record<string, unknown> = { ...defaults }
  const base = defaults as Record<string, unknown>
  for (const group of GROUPS) {
    if (group.some((key) => overrides[key] !== undefined)) {
      for (const key of group) delete out[key]
    }
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue
    const inherited = base[key]
    out[key] = RECORDS.has(key as keyof Options) && typeof inherited === "object" && inherited !== null
      ? { ...inherited, ...value }
      : key === "secrets" && Array.isArray(inherited)
      // A secret named by the defaults stays secret whatever a call adds.
      ? [...inherited, ...(value as ReadonlyArray<string>)]
      // A call's sandbox refines the defaults' by the rules it is merged into settings with.
      : key === "sandbox" && inherited !== undefined
      ? mergeSandbox(inherited, value as NonNullable<Options["sandbox"]>)
      : value
  }
  return out as Options
}
