/**
 * One hook set, two deployments: the hook layers written for the SDK, run as
 * a `.claude/settings.json` **command hook** of a plain `claude` session.
 *
 * The CLI runs a command hook once per event: it writes the hook input as JSON
 * on the command's stdin and reads the answer from its stdout. A hook program
 * is one file:
 *
 * ```ts
 * // .claude/hooks/guard.ts, bundled to guard.mjs (see docs/command-hooks.md)
 * import * as HookCommand from "@claude-effect/sdk/HookCommand"
 * import { guard, autoAnswer } from "./policy.js" // the same HookLayers the SDK app uses
 *
 * HookCommand.main(Layer.mergeAll(guard, autoAnswer))
 * ```
 *
 * and {@link install} (or `claude-effect-hooks install`) adds it to a settings
 * file. The program answers as a session would: the hooks whose event and
 * matcher select the input run at once through the same dispatch as the SDK
 * (`HookRegistry`'s guarded run: timeout, error recovery, fallback), and
 * their answers are combined by the CLI's precedence (`HookRegistry.combine`:
 * deny > ask > allow > defer).
 *
 * Exit codes, as verified on the CLI 2.1.328 (see docs/command-hooks.md):
 * - `0` with the output JSON on stdout, for every answer but a deny;
 * - `2` with the deny JSON on stdout **and** the reason on stderr, for a deny
 *   on a permission event (PreToolUse, PermissionRequest), whether a hook
 *   denied or the fallback did. The CLI honours the JSON deny with exit 0 as
 *   well, but takes a stdout it cannot read (a stray line before the JSON,
 *   say) for "no opinion" and runs the tool: exit 2 blocks even then;
 * - `2` with only a message on stderr when the input is unreadable and the
 *   event cannot be told;
 * - never `1`: the CLI takes any other code (a crash, its own timeout) for
 *   "no opinion", and runs the tool.
 *
 * @since 0.1.0
 */
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import type * as Path from "effect/Path"
import * as HookRegistry from "./HookRegistry.js"
import * as internal from "./internal/hookCommand.js"
import * as base from "./internal/hookCommandBase.js"
import * as internalInstall from "./internal/hookCommandInstall.js"
import * as internalNode from "./internal/hookCommandNode.js"
import type * as Protocol from "./Protocol.js"

// -----------------------------------------------------------------------------
// Errors
// -----------------------------------------------------------------------------

/**
 * Something a command hook or its installer could not do: read stdin, read
 * or write a settings file, or make sense of the options.
 *
 * @since 0.1.0
 * @category Errors
 */
export const HookCommandError: typeof base.HookCommandError = base.HookCommandError

/**
 * @since 0.1.0
 * @category Errors
 */
export type HookCommandError = base.HookCommandError

// -----------------------------------------------------------------------------
// Stdio
// -----------------------------------------------------------------------------

/**
 * The process's standard streams, as the hook program sees them. `main`
 * provides the Node ones; tests provide their own.
 *
 * @since 0.1.0
 * @category Tags
 */
export const Stdio: typeof base.Stdio = base.Stdio

/**
 * @since 0.1.0
 * @category Tags
 */
export type Stdio = base.Stdio

/**
 * @since 0.1.0
 */
export declare namespace Stdio {
  /**
   * `readAll` reads the hook input, as UTF-8 text: stdin up to its end (the
   * Node one also stops at the first complete JSON object); it fails beyond
   * `maxBytes`.
   *
   * @since 0.1.0
   * @category Models
   */
  export interface Service extends base.StdioService {}
}

/**
 * `process.stdin`, `process.stdout` and `process.stderr`.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layerStdioNode: Layer.Layer<Stdio> = Layer.sync(Stdio, () => internalNode.makeStdio())

// -----------------------------------------------------------------------------
// Running
// -----------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category Models
 */
export interface RunOptions {
  /**
   * The deadline of the whole program: reading stdin, building the layers,
   * running the hooks. At the deadline the event's fallback answers (deny for
   * permission events). Default 50 s. Keep it below the `timeout` of the
   * settings entry (default 60 s with {@link install}): when the CLI's own
   * timeout kills a command hook, the CLI runs the tool.
   */
  readonly timeout?: Duration.Input | undefined
  /** The timeout of hooks that set none (default: the deadline less one second). */
  readonly hookTimeout?: Duration.Input | undefined
  /**
   * The exit code of a deny on a permission event: 2 (default, fail-closed
   * even if the CLI cannot read stdout) or 0 (the JSON alone).
   */
  readonly denyExitCode?: 0 | 2 | undefined
  /** The largest input read from stdin (default 16 MiB). */
  readonly maxInputBytes?: number | undefined
}

/**
 * Why the whole program answered with the event's fallback.
 *
 * @since 0.1.0
 * @category Models
 */
export type ProgramFallback = "invalid_input" | "timeout" | "failure"

/**
 * What the program answers for one input: what goes to stdout and stderr,
 * and the exit code.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Outcome {
  /** The event answered, when it could be told. */
  readonly event: string | undefined
  /** The combined output, or undefined when only the exit code answers (unknown event). */
  readonly output: Protocol.SyncHookOutput | undefined
  readonly exitCode: 0 | 2
  /** The output JSON and a newline, or "" when there is no output. */
  readonly stdout: string
  /** Diagnostics for stderr (bad input, fallbacks, the deny reason), or "". */
  readonly stderr: string
  /** The hooks that ran, in registration order. */
  readonly runs: ReadonlyArray<HookRegistry.HookRun>
  readonly fallback: ProgramFallback | undefined
}

/**
 * Answers one hook input (the text the CLI wrote on stdin) with the hooks of
 * `layers`: decodes it with `Protocol.HookInput`, runs the hooks whose event
 * and matcher select it, at once, each through the registry's guarded run
 * (`HookRegistry.Service.run`), and combines their answers. Never fails: bad
 * input, a layer that fails to build, a defect or the deadline all answer
 * with the event's fallback.
 *
 * @since 0.1.0
 * @category Running
 */
export const respond: <E, R>(
  layers: Layer.Layer<never, E, R>,
  stdin: string,
  options?: RunOptions
) => Effect.Effect<Outcome, never, R> = internal.respond

/**
 * Combines the answers of several hooks to one input into one output, with
 * the CLI's precedence: `HookRegistry.combine`, the one combining of the SDK.
 *
 * @since 0.1.0
 * @category Combinators
 */
export const combine: (event: string, outputs: ReadonlyArray<Protocol.SyncHookOutput>) => Protocol.SyncHookOutput =
  HookRegistry.combine

/**
 * Reads the input from {@link Stdio}, answers it with {@link respond} and
 * writes the answer; returns the exit code. The deadline covers the read.
 *
 * @since 0.1.0
 * @category Running
 */
export const run: <E, R>(
  layers: Layer.Layer<never, E, R>,
  options?: RunOptions
) => Effect.Effect<0 | 2, never, R | Stdio> = internal.run

/**
 * @since 0.1.0
 * @category Models
 */
export interface MainOptions<R = never> extends RunOptions {
  /**
   * The platform services the layers need, e.g. `NodeServices.layer` from
   * `@effect/platform-node` (or just `NodeFileSystem.layer`): `main` provides
   * them. Import it in the hook program, so that the bundler puts it in the
   * bundle with the one copy of effect. Required when the layers need
   * anything.
   */
  readonly platform?: Layer.Layer<R, unknown> | undefined
}

/**
 * The entry point of a hook program: {@link run} on the process's stdio,
 * then exit with its code. Logs, and anything user code prints with
 * `console` or `process.stdout.write`, go to stderr: stdout carries the
 * output JSON and nothing else. A watchdog answers (and exits) should the
 * program outlive its deadline by two seconds.
 *
 * ```ts
 * HookCommand.main(Layer.mergeAll(guard, autoAnswer))
 * // layers that need platform services
 * HookCommand.main(readsFiles, { platform: NodeServices.layer, timeout: "20 seconds" })
 * ```
 *
 * @since 0.1.0
 * @category Running
 */
export function main<E, R = never>(
  layers: Layer.Layer<never, E, R>,
  ...options: [R] extends [never] ? [options?: MainOptions] : [
    options: MainOptions<R> & {
      readonly platform: Layer.Layer<R, unknown>
    }
  ]
): void {
  internalNode.main(layers, options[0] as MainOptions<R> | undefined)
}

// -----------------------------------------------------------------------------
// Installing
// -----------------------------------------------------------------------------

/**
 * Which settings file: the project's shared `.claude/settings.json`, the
 * project's `.claude/settings.local.json`, the user's `settings.json` (in
 * `CLAUDE_CONFIG_DIR`, default `~/.claude`), or a path.
 *
 * @since 0.1.0
 * @category Models
 */
export type SettingsTarget = "project" | "user" | "local" | (string & {})

/**
 * @since 0.1.0
 * @category Models
 */
export interface InstallOptions {
  readonly settings: SettingsTarget
  /** The shell command the CLI runs, e.g. `node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs"`. */
  readonly command: string
  readonly event: Protocol.HookEvent
  /** The settings matcher (tool names for tool events); none selects every call. */
  readonly matcher?: string | undefined
  /** The CLI's timeout for the command, in whole seconds (rounded up). Default 60 s. */
  readonly timeout?: Duration.Input | undefined
  /** The project directory for `"project"` and `"local"`, and the base of a relative path (default: the process's). */
  readonly cwd?: string | undefined
  /** Compute the change and its diff, write nothing. */
  readonly dryRun?: boolean | undefined
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface InstallResult {
  /** The settings file. */
  readonly path: string
  /** `added`: a new entry; `updated`: the entry's timeout changed; `unchanged`: already there. */
  readonly status: "added" | "updated" | "unchanged"
  /** Whether the file was written (never on a dry run or when unchanged). */
  readonly written: boolean
  /** A unified diff of the file, "" when unchanged. */
  readonly diff: string
  /** The file's text before (undefined when it did not exist) and after. */
  readonly before: string | undefined
  readonly after: string
}

/**
 * Adds a command hook to a settings file, idempotently: the same event,
 * matcher and command make the same entry, so a second run changes nothing
 * (or only the timeout). Every other key and hook is kept as it was, in its
 * order; the indentation is kept. The file is written atomically (a temp file
 * in the same directory, then a rename), with its mode kept.
 *
 * @since 0.1.0
 * @category Installing
 */
export const install: (
  options: InstallOptions
) => Effect.Effect<InstallResult, HookCommandError, FileSystem.FileSystem | Path.Path> = internalInstall.install

/**
 * Where a settings target lives.
 *
 * @since 0.1.0
 * @category Installing
 */
export const settingsPath: (
  settings: SettingsTarget,
  cwd?: string | undefined
) => Effect.Effect<string, never, Path.Path> = internalInstall.settingsPath
