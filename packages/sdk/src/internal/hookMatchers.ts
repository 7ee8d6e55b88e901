/**
 * The CLI's hook matcher rules (2.1.328), emulated: which registered hooks the
 * CLI calls for an input.
 *
 * Read from the CLI and checked against it (the PreToolUse, Stop and
 * UserPromptSubmit cases below were run on the real binary):
 *
 * - each event is matched against one value of its input (the tool name for
 *   tool events, `source`, `trigger`, `reason`, ... for others). Events
 *   without such a value (Stop, UserPromptSubmit, TaskCreated, ...) ignore
 *   matchers: every hook registered for them is called;
 * - no matcher, `""` or `"*"` selects everything;
 * - a matcher of plain names is a list of exact, case-sensitive names:
 *   `Bash`, `Write|Bash`, and for most events also `Write, Bash` and
 *   `Write | Bash` (letters, digits, `_`, `|`, `,`, spaces and `-`);
 * - anything else is an unanchored, case-sensitive regular expression
 *   (`Ba.*`, `^Bash$`, `mcp__github__.*`); an invalid one selects nothing;
 * - legacy tool names still select the renamed tools: `Task` selects `Agent`,
 *   `KillShell` selects `TaskStop`.
 *
 * @internal
 */
import * as Path from "node:path"

/** The events whose matchers may list names separated by `,` and spaces. */
const listEvents: ReadonlySet<string> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PermissionDenied",
  "UserPromptExpansion",
  "SessionStart",
  "SessionEnd",
  "Setup",
  "PreCompact",
  "PostCompact",
  "PreModelSwitch",
  "PostModelSwitch",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "Elicitation",
  "ElicitationResult",
  "ConfigChange",
  "InstructionsLoaded",
  "DirectoryAdded"
])

/** Old tool names and the tools they name today. */
const legacyToolNames: Readonly<Record<string, string>> = {
  Task: "Agent",
  KillShell: "TaskStop",
  KillBash: "TaskStop",
  ListPeers: "ListAgents",
  Brief: "SendUserMessage",
  ListMcpResources: "ListMcpResourcesTool",
  ReadMcpResource: "ReadMcpResourceTool",
  ReadMcpResourceDir: "ReadMcpResourceDirTool",
  ProposeGoal: "SetGoal"
}

const currentName = (name: string): string => Object.hasOwn(legacyToolNames, name) ? legacyToolNames[name]! : name

const legacyNamesOf = (name: string): ReadonlyArray<string> =>
  Object.entries(legacyToolNames).flatMap(([legacy, current]) => (current === name ? [legacy] : []))

const stripContextSuffix = (model: string) => model.replace(/\[[12]m\]$/i, "")

/**
 * The value the CLI matches an input's matchers against, or undefined when
 * the event has none (then every hook of the event is called).
 *
 * @internal
 */
export const matchValue = (input: { readonly hook_event_name: string }): string | undefined => {
  const record = input as Record<string, unknown>
  const field = (name: string) => (typeof record[name] === "string" ? (record[name] as string) : undefined)
  switch (input.hook_event_name) {
    case "PreToolUse":
    case "PostToolUse":
    case "PostToolUseFailure":
    case "PermissionRequest":
    case "PermissionDenied":
      return field("tool_name")
    case "UserPromptExpansion":
      return field("command_name")
    case "SessionStart":
    case "ConfigChange":
    case "DirectoryAdded":
      return field("source")
    case "Setup":
    case "PreCompact":
    case "PostCompact":
      return field("trigger")
    case "PreModelSwitch":
    case "PostModelSwitch": {
      const model = field("to_model")
      return model === undefined ? undefined : stripContextSuffix(model)
    }
    case "Notification":
      return field("notification_type")
    case "SessionEnd":
      return field("reason")
    case "StopFailure":
      return field("error")
    case "SubagentStart":
    case "SubagentStop":
      return field("agent_type")
    case "Elicitation":
    case "ElicitationResult":
      return field("mcp_server_name")
    case "InstructionsLoaded":
      return field("load_reason")
    case "FileChanged": {
      const path = field("file_path")
      return path === undefined ? undefined : Path.basename(path)
    }
    default:
      return undefined
  }
}

const nameList = (event: string, matcher: string): ReadonlyArray<string> | undefined => {
  const lists = listEvents.has(event)
  if (!(lists ? /^[a-zA-Z0-9_|, -]+$/ : /^[a-zA-Z0-9_|]+$/).test(matcher)) return undefined
  return matcher.split(lists ? /[|,]/ : "|").map((name) => name.trim()).filter((name) => name !== "").map(
    currentName
  )
}

/**
 * Whether the CLI calls a hook registered with `matcher` on `event` for an
 * input whose match value is `value`.
 *
 * @internal
 */
export const selects = (event: string, matcher: string | undefined, value: string | undefined): boolean => {
  if (value === undefined || matcher === undefined || matcher === "" || matcher === "*") return true
  const pattern = event === "PreModelSwitch" || event === "PostModelSwitch"
    ? matcher.replace(/\[[12]m\](?=\s*(?:[|,]|$))/gi, "")
    : matcher
  const names = nameList(event, pattern)
  if (names !== undefined) return names.includes(value)
  let regex: RegExp
  try {
    regex = new RegExp(pattern)
  } catch {
    return false
  }
  return regex.test(value) || legacyNamesOf(value).some((name) => regex.test(name))
}
