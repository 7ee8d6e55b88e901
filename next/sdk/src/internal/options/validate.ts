/**
 * Checks on decoded options that a Schema cannot express field by field:
 * values that cannot be sent (not JSON, reserved flags) and options that are
 * wrong together. Every message names the option path; none contains a value
 * from `env` (or any other value that may be secret).
 *
 * @internal
 */
import type { Options } from "../../ClaudeOptions.js"
import { formatPath } from "./issues.js"
import { toCliArgs } from "./mapping.js"
import { isInlineSettings } from "./sandbox.js"

const MAX_JSON_DEPTH = 256

/**
 * Why `value` would not survive `JSON.stringify` unchanged, with the path of
 * the first offending node, or `undefined` when it is plain JSON.
 */
const jsonProblem = (root: unknown, rootPath: ReadonlyArray<PropertyKey>): string | undefined => {
  const ancestors = new Set<object>()
  const go = (value: unknown, path: ReadonlyArray<PropertyKey>, depth: number): string | undefined => {
    switch (typeof value) {
      case "string":
      case "boolean":
      case "undefined":
        return undefined
      case "number":
        return Number.isFinite(value)
          ? undefined
          : `${formatPath(path)}: must be a finite number (JSON has no NaN or Infinity)`
      case "bigint":
        return `${formatPath(path)}: must be JSON (a bigint is not)`
      case "function":
        return `${formatPath(path)}: must be JSON (a function is not)`
      case "symbol":
        return `${formatPath(path)}: must be JSON (a symbol is not)`
    }
    if (value === null) return undefined
    const object = value as object
    if (depth > MAX_JSON_DEPTH) return `${formatPath(path)}: is nested too deeply`
    if (ancestors.has(object)) return `${formatPath(path)}: must be JSON (it contains a cycle)`
    if (!Array.isArray(object)) {
      const proto = Object.getPrototypeOf(object)
      if (
        proto !== Object.prototype && proto !== null && typeof (object as { toJSON?: unknown }).toJSON !== "function"
      ) {
        const name: unknown = proto?.constructor?.name
        return `${formatPath(path)}: must be a plain object (JSON)` +
          (typeof name === "string" && name !== "Object"
            ? `, not a ${name}`
            : " (it has a foreign prototype: a \"__proto__\" key?)")
      }
      if (typeof (object as { toJSON?: unknown }).toJSON === "function") return undefined
    }
    ancestors.add(object)
    try {
      const entries: ReadonlyArray<readonly [PropertyKey, unknown]> = Array.isArray(object)
        ? object.map((item, i) => [i, item] as const)
        : Object.entries(object)
      for (const [key, inner] of entries) {
        const problem = go(inner, [...path, key], depth + 1)
        if (problem !== undefined) return problem
      }
      return undefined
    } finally {
      ancestors.delete(object)
    }
  }
  return go(root, rootPath, 0)
}

const RESERVED_FLAGS: Readonly<Record<string, string>> = {
  "output-format": "the SDK needs --output-format stream-json",
  "input-format": "the SDK needs --input-format stream-json",
  "permission-prompt-tool": "use the permissionPromptToolName option or a PermissionGate"
}

/** Flags of the CLI that do what an initialize-routed option does. */
const INITIALIZE_TWINS: Readonly<Record<string, keyof Options>> = {
  "system-prompt": "systemPrompt",
  "system-prompt-file": "systemPrompt",
  "append-system-prompt": "appendSystemPrompt",
  "append-system-prompt-file": "appendSystemPrompt",
  "agents": "agents",
  "json-schema": "outputFormat",
  "prompt-suggestions": "promptSuggestions",
  "exclude-dynamic-system-prompt-sections": "systemPrompt"
}

const flagName = (arg: string): string | undefined => {
  if (!arg.startsWith("--")) return undefined
  const at = arg.indexOf("=")
  return at < 0 ? arg.slice(2) : arg.slice(2, at)
}

/** The values of the official SDK's `executable` option (a JavaScript runtime, not the CLI). */
const JS_RUNTIMES: ReadonlySet<string> = new Set(["node", "bun", "deno"])

const FLAG_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/

const keyProblems = (
  field: keyof Options,
  record: Readonly<Record<string, unknown>> | undefined,
  check: (key: string) => string | undefined
): ReadonlyArray<string> => {
  const problems: Array<string> = []
  for (const key of Object.keys(record ?? {})) {
    const problem = check(key)
    if (problem !== undefined) problems.push(`${formatPath([field, key])}: ${problem}`)
  }
  return problems
}

const nameProblem = (key: string): string | undefined =>
  key.length === 0 ? "a name must not be empty" : key.includes("\u0000") ? "a name must not contain NUL" : undefined

/** Why inline JSON settings would not reach the CLI as an object (the message never shows the settings). */
const inlineSettingsProblem = (settings: string): string | undefined => {
  let parsed: unknown
  try {
    parsed = JSON.parse(settings)
  } catch {
    // The parser's message quotes the text, which may hold a secret.
    return "starts with \"{\" but is not valid JSON; pass settings as an object, a valid JSON string, or a file path"
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? undefined
    : "must be a JSON object"
}

/** @internal */
export const invalidValues = (options: Options): ReadonlyArray<string> => {
  const problems: Array<string> = []
  problems.push(
    ...keyProblems("env", options.env, (key) =>
      key.length === 0 || key.includes("=") || key.includes("\u0000")
        ? "invalid variable name (it must be non-empty, without \"=\" or NUL)"
        : undefined),
    ...keyProblems("extraArgs", options.extraArgs, (key) =>
      FLAG_NAME.test(key)
        ? undefined
        : "invalid flag name (write it without the leading \"--\": letters, digits, \"-\" and \"_\")"),
    ...keyProblems("mcpServers", options.mcpServers, nameProblem),
    ...keyProblems("agents", options.agents, nameProblem),
    ...keyProblems("toolAliases", options.toolAliases, nameProblem)
  )
  const json = (value: unknown, path: ReadonlyArray<PropertyKey>) => {
    if (value === undefined) return
    const problem = jsonProblem(value, path)
    if (problem !== undefined) problems.push(problem)
  }
  if (typeof options.settings === "object") json(options.settings, ["settings"])
  if (typeof options.settings === "string" && isInlineSettings(options.settings)) {
    const problem = inlineSettingsProblem(options.settings)
    if (problem !== undefined) problems.push(`${formatPath(["settings"])}: ${problem}`)
  }
  json(options.sandbox, ["sandbox"])
  json(options.managedSettings, ["managedSettings"])
  json(options.outputFormat, ["outputFormat"])
  json(options.agents, ["agents"])
  json(options.mcpServers, ["mcpServers"])
  if (options.executable !== undefined && JS_RUNTIMES.has(options.executable)) {
    problems.push(
      `${formatPath(["executable"])}: "${options.executable}" is a JavaScript runtime, as the official SDK's ` +
        "executable option takes; here executable is the path of the claude binary (leave it out to use the CLI " +
        "the SDK brings)"
    )
  }
  for (const name of Object.keys(options.extraArgs ?? {})) {
    const reserved = RESERVED_FLAGS[name]
    if (reserved !== undefined) problems.push(`${formatPath(["extraArgs", name])}: reserved (${reserved})`)
  }
  return problems
}

/** @internal */
export const conflicts = (options: Options, permissionPromptTool: boolean): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const resuming = options.resume !== undefined
  const continuing = options.continue === true

  if (continuing && resuming) {
    problems.push(
      "continue and resume are mutually exclusive: continue picks the most recent session, resume a given one"
    )
  }
  if (options.forkSession === true && !resuming && !continuing) {
    problems.push("forkSession requires resume or continue (it forks the session being resumed)")
  }
  if (options.sessionId !== undefined && (resuming || continuing) && options.forkSession !== true) {
    problems.push("sessionId cannot be used with resume or continue unless forkSession is set (it then names the fork)")
  }
  if (options.resumeSessionAt !== undefined && !resuming) {
    problems.push("resumeSessionAt requires resume")
  }
  if (options.resumeDropsTurn !== undefined && options.resumeSessionAt === undefined) {
    problems.push("resumeDropsTurn requires resumeSessionAt")
  }
  if (options.permissionMode === "bypassPermissions" && options.allowDangerouslySkipPermissions !== true) {
    problems.push(
      "permissionMode \"bypassPermissions\" requires allowDangerouslySkipPermissions: true (a deliberate opt-in)"
    )
  }
  if (options.fallbackModel !== undefined && options.fallbackModel === options.model) {
    problems.push("fallbackModel must differ from model")
  }
  const prompt = options.systemPrompt
  if (
    options.appendSystemPrompt !== undefined && typeof prompt === "object" && !Array.isArray(prompt) &&
    "type" in prompt && prompt.type === "preset" && prompt.append !== undefined
  ) {
    problems.push("appendSystemPrompt and systemPrompt.append both append to the system prompt: set one")
  }
  if (
    options.sandbox !== undefined && typeof options.settings === "string" && !isInlineSettings(options.settings)
  ) {
    problems.push(
      "sandbox cannot be merged into a settings file (settings is a path): put the sandbox block in the file, " +
        "or pass settings as an object or a JSON string"
    )
  }
  if (options.replaceEnv === true && options.env === undefined) {
    problems.push("replaceEnv requires env (the CLI would start with an empty environment: no PATH, no HOME)")
  }
  if (permissionPromptTool && options.permissionPromptToolName !== undefined) {
    problems.push("permissionPromptToolName cannot be used with a PermissionGate: both answer permission prompts")
  }
  if (options.extraArgs !== undefined) {
    const { extraArgs: _, ...typed } = options
    // What the typed options put on the command line, and what they would with every delivery "argv".
    const argv = { mcpServersDelivery: "argv", settingsDelivery: "argv", managedSettingsDelivery: "argv" } as const
    const taken = new Set(
      [...toCliArgs(typed, { permissionPromptTool }), ...toCliArgs({ ...typed, ...argv }, { permissionPromptTool })]
        .map(flagName).filter((name) => name !== undefined)
    )
    for (const name of Object.keys(options.extraArgs)) {
      if (RESERVED_FLAGS[name] !== undefined) continue
      if (taken.has(name)) {
        problems.push(`${formatPath(["extraArgs", name])}: --${name} is already set by a typed option; set it once`)
      }
      const twin = INITIALIZE_TWINS[name]
      if (twin !== undefined && options[twin] !== undefined) {
        problems.push(`${formatPath(["extraArgs", name])}: --${name} duplicates the ${twin} option; set it once`)
      }
    }
  }
  return problems
}
