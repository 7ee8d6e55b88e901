/**
 * `claude-effect-hooks`: the command line of {@link HookCommand.install}.
 * `bin/claude-effect-hooks.mjs` loads this module and provides the platform.
 *
 * @internal
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as Path from "@effect/platform/Path"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type * as HookCommand from "../HookCommand.js"
import { install } from "./hookCommandInstall.js"

/** @internal */
export const usage = `Usage: claude-effect-hooks install --event <Event> --command <shell command> [options]

Adds a command hook to a Claude Code settings file. Running it again with the
same event, matcher and command changes nothing.

Options:
  --event <Event>       the hook event, e.g. PreToolUse, PostToolUse, Stop (required)
  --command <command>   the shell command the CLI runs (required), e.g.
                        'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs"'
  --matcher <matcher>   which calls: a tool name, "A|B", a regular expression (default: all)
  --settings <where>    project (.claude/settings.json, default), local
                        (.claude/settings.local.json), user (~/.claude/settings.json)
                        or a path
  --timeout <seconds>   the CLI's timeout for the command (default 60)
  --cwd <dir>           the project directory (default: the current one)
  --dry-run             print the diff, write nothing
  -h, --help            this text
`

/** @internal */
export type ParsedArgs =
  | { readonly _tag: "Help" }
  | { readonly _tag: "Install"; readonly options: HookCommand.InstallOptions }
  | { readonly _tag: "Usage"; readonly problem: string }

const valued = new Set(["--event", "--command", "--matcher", "--settings", "--timeout", "--cwd"])

/** @internal */
export const parseArgs = (argv: ReadonlyArray<string>): ParsedArgs => {
  if (argv.length === 0 || argv.includes("-h") || argv.includes("--help")) return { _tag: "Help" }
  const [command, ...rest] = argv
  if (command !== "install") return { _tag: "Usage", problem: `unknown command "${command}"` }
  const values = new Map<string, string>()
  let dryRun = false
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!
    const eq = arg.indexOf("=")
    const [flag, inline] = arg.startsWith("--") && eq !== -1 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined]
    if (flag === "--dry-run") {
      dryRun = true
    } else if (valued.has(flag)) {
      const value = inline ?? rest[++i]
      if (value === undefined) return { _tag: "Usage", problem: `${flag} needs a value` }
      values.set(flag, value)
    } else {
      return { _tag: "Usage", problem: `unknown option "${arg}"` }
    }
  }
  const event = values.get("--event")
  const commandLine = values.get("--command")
  if (event === undefined) return { _tag: "Usage", problem: "--event is required" }
  if (commandLine === undefined) return { _tag: "Usage", problem: "--command is required" }
  const timeout = values.get("--timeout")
  let seconds: number | undefined
  if (timeout !== undefined) {
    seconds = Number(timeout)
    if (!/^\d+(\.\d+)?$/.test(timeout.trim()) || !(seconds > 0)) {
      return { _tag: "Usage", problem: `--timeout must be a positive number of seconds, not "${timeout}"` }
    }
  }
  return {
    _tag: "Install",
    options: {
      settings: values.get("--settings") ?? "project",
      event: event as HookCommand.InstallOptions["event"],
      command: commandLine,
      matcher: values.get("--matcher"),
      timeout: seconds !== undefined ? `${seconds} seconds` : undefined,
      cwd: values.get("--cwd"),
      dryRun
    }
  }
}

/**
 * Runs the command line; the diff goes to stdout, the rest to stderr.
 * Returns the exit code: 0 done, 1 failed, 2 bad usage.
 *
 * @internal
 */
export const cli = (argv: ReadonlyArray<string>): Effect.Effect<number, never, FileSystem.FileSystem | Path.Path> => {
  const parsed = parseArgs(argv)
  switch (parsed._tag) {
    case "Help":
      return Effect.as(Console.log(usage.trimEnd()), 0)
    case "Usage":
      return Effect.as(Console.error(`claude-effect-hooks: ${parsed.problem}\n\n${usage.trimEnd()}`), 2)
    case "Install":
      return install(parsed.options).pipe(
        Effect.flatMap((result) =>
          Effect.gen(function*() {
            if (result.diff.length > 0) yield* Console.log(result.diff.trimEnd())
            const what = `${parsed.options.event}${
              parsed.options.matcher !== undefined ? ` (${parsed.options.matcher})` : ""
            } hook`
            const message = result.status === "unchanged"
              ? `The ${what} is already in ${result.path}: nothing to do.`
              : !result.written
              ? `Dry run: the ${what} would be ${result.status === "added" ? "added to" : "updated in"} ${result.path}.`
              : `The ${what} was ${result.status === "added" ? "added to" : "updated in"} ${result.path}.`
            yield* Console.error(message)
            return 0
          })
        ),
        Effect.catchAll((error) => Effect.as(Console.error(`claude-effect-hooks: ${error.message}`), 1))
      )
  }
}
