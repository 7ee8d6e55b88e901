/**
 * `claude-effect-hooks`: the command line of {@link HookCommand.install}, on
 * `effect/cli`. A hook program never loads this module (only the installer
 * does), so effect/cli costs a hook's start-up nothing.
 *
 * @internal
 */
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as HookCommand from "../HookCommand.js"
import { HookCommandError } from "./hookCommandBase.js"
import { install } from "./hookCommandInstall.js"
import { hookEvents } from "./protocol/hooks.js"

const flags = {
  event: Flag.Literals("event", hookEvents).pipe(
    Flag.withDescription("the hook event, e.g. PreToolUse, PostToolUse, Stop")
  ),
  command: Flag.String("command").pipe(
    Flag.withDescription(`the shell command the CLI runs, e.g. 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs"'`)
  ),
  matcher: Flag.String("matcher").pipe(
    Flag.optional,
    Flag.withDescription("which calls: a tool name, \"A|B\", a regular expression (default: all)")
  ),
  settings: Flag.String("settings").pipe(
    Flag.withDefault("project"),
    Flag.withDescription(
      "project (.claude/settings.json), local (.claude/settings.local.json), user (~/.claude/settings.json) or a path"
    )
  ),
  timeout: Flag.Finite("timeout").pipe(
    Flag.optional,
    Flag.withDescription("the CLI's timeout for the command, in seconds (default 60)")
  ),
  cwd: Flag.String("cwd").pipe(
    Flag.optional,
    Flag.withDescription("the project directory (default: the current one)")
  ),
  dryRun: Flag.Boolean("dry-run").pipe(Flag.withDefault(false), Flag.withDescription("print the diff, write nothing"))
}

/**
 * The install options a parsed command line stands for.
 *
 * @internal
 */
export const installOptions = (parsed: Command.Command.Config.Infer<typeof flags>): HookCommand.InstallOptions => ({
  settings: parsed.settings,
  event: parsed.event,
  command: parsed.command,
  matcher: Option.getOrUndefined(parsed.matcher),
  timeout: Option.getOrUndefined(Option.map(parsed.timeout, (seconds) => Duration.seconds(seconds))),
  cwd: Option.getOrUndefined(parsed.cwd),
  dryRun: parsed.dryRun
})

const report = (options: HookCommand.InstallOptions, result: HookCommand.InstallResult) =>
  Effect.gen(function*() {
    if (result.diff.length > 0) yield* Console.log(result.diff.trimEnd())
    const what = `${options.event}${options.matcher !== undefined ? ` (${options.matcher})` : ""} hook`
    yield* Console.error(
      result.status === "unchanged"
        ? `The ${what} is already in ${result.path}: nothing to do.`
        : !result.written
        ? `Dry run: the ${what} would be ${result.status === "added" ? "added to" : "updated in"} ${result.path}.`
        : `The ${what} was ${result.status === "added" ? "added to" : "updated in"} ${result.path}.`
    )
  })

/** @internal */
export const installCommand = Command.make("install", flags, (parsed) => {
  const options = installOptions(parsed)
  return Effect.flatMap(install(options), (result) => report(options, result))
}).pipe(
  Command.withDescription(
    "Adds a command hook to a Claude Code settings file. Running it again with the same event, matcher and " +
      "command changes nothing."
  )
)

/** @internal */
export const command = Command.make("claude-effect-hooks").pipe(
  Command.withDescription(
    "Installs hook programs built on @claude-effect/sdk/HookCommand as Claude Code command hooks."
  ),
  Command.withSubcommands([installCommand])
)

/**
 * Runs the command line; the diff and effect/cli's help go to stdout, the
 * rest to stderr. Returns the exit code: 0 done, 1 failed, 2 bad usage.
 *
 * @internal
 */
export const cli = (argv: ReadonlyArray<string>): Effect.Effect<0 | 1 | 2, never, Command.Environment> =>
  Command.runWith(command, { version: "0.1.0" })(argv).pipe(
    Effect.as(0 as const),
    Effect.catch((error) =>
      error instanceof HookCommandError
        ? Effect.as(Console.error(`claude-effect-hooks: ${error.message}`), 1 as const)
        : Effect.succeed(2 as const) // effect/cli has shown the problem and the help
    )
  )
