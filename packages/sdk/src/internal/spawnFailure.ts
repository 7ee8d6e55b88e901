/**
 * Why the CLI could not be started, in words a user can act on. Node's spawn
 * errors say `spawn ENOENT` for a missing file and for a missing `#!`
 * interpreter alike, and carry the whole argument list (`spawnargs`), which
 * may hold an MCP server's token: the error built here names the path or
 * option at fault and keeps only the error code as its cause.
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { SpawnConfig } from "../CliProcess.js"
import { CliExitError } from "./claudeError.js"
import type { Redactor } from "./redaction.js"

/** The error code (`ENOENT`, `E2BIG`, ...) somewhere in a spawn failure. */
const codeOf = (error: unknown): string | undefined => {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current !== null && typeof current === "object"; depth++) {
    const code = (current as { readonly code?: unknown }).code
    if (typeof code === "string" && /^E[A-Z0-9]+$/.test(code)) return code
    current = (current as { readonly cause?: unknown }).cause
  }
  return undefined
}

/** What the platform said, for the operation at fault (`access` of the cwd, or `spawn`): a `PlatformError`'s reason's. */
const methodOf = (error: unknown): string | undefined => {
  const reason = (error as { readonly reason?: unknown } | null)?.reason
  const method = (reason as { readonly method?: unknown } | null)?.method
  return typeof method === "string" ? method : undefined
}

// Node's limit for one argument is MAX_ARG_STRLEN (128 KiB) on Linux; the whole list is bounded too.
const describeArgs = (args: ReadonlyArray<string>): string => {
  let longest = 0
  let total = 0
  for (let i = 0; i < args.length; i++) {
    total += args[i].length + 1
    if (args[i].length > args[longest].length) longest = i
  }
  const flag = args[longest]?.startsWith("-") ? args[longest].split("=")[0] : args[longest - 1]
  return `${args.length} arguments, ${total} characters; the longest, ${
    flag !== undefined && flag.startsWith("-") ? `for ${flag}` : `number ${longest + 1}`
  }, has ${args[longest]?.length ?? 0}`
}

type Stat = Option.Option<{ readonly isFile: boolean; readonly isDirectory: boolean; readonly mode: number }>

/** @internal */
export const explain = (
  config: SpawnConfig,
  cause: Cause.Cause<unknown>,
  redactor: Redactor
): Effect.Effect<CliExitError> =>
  Effect.gen(function*() {
    const error = Option.getOrElse(Cause.findErrorOption(cause), () => Result.getOrUndefined(Cause.findDefect(cause)))
    const code = codeOf(error)
    const fs = yield* Effect.serviceOption(FileSystem.FileSystem)
    const stat = (path: string): Effect.Effect<Stat> =>
      Option.match(fs, {
        onNone: () => Effect.succeedNone,
        onSome: (fs) =>
          fs.stat(path).pipe(
            Effect.map((info) =>
              Option.some({ isFile: info.type === "File", isDirectory: info.type === "Directory", mode: info.mode })
            ),
            Effect.orElseSucceed(() => Option.none())
          )
      })
    const firstLine = (path: string): Effect.Effect<string> =>
      Option.match(fs, {
        onNone: () => Effect.succeed(""),
        onSome: (fs) =>
          fs.readFile(path).pipe(
            Effect.map((bytes) => new TextDecoder().decode(bytes.subarray(0, 512)).split("\n")[0]),
            Effect.orElseSucceed(() => "")
          )
      })

    const exe = config.executable
    const cwd = config.cwd
    let detail: string | undefined

    if (cwd !== undefined && (methodOf(error) === "access" || code === "ENOTDIR" || code === "ENOENT")) {
      const info = yield* stat(cwd)
      if (Option.isNone(info) && Option.isSome(fs)) {
        detail =
          `the working directory ${cwd} (option \`cwd\`) does not exist: create it, or pass an existing directory`
      } else if (Option.isSome(info) && !info.value.isDirectory) {
        detail = `the working directory ${cwd} (option \`cwd\`) is not a directory: pass a directory`
      }
    }
    if (detail === undefined) {
      switch (code) {
        case "ENOENT": {
          const info = yield* stat(exe)
          if (Option.isSome(info)) {
            const line = yield* firstLine(exe)
            const interpreter = line.startsWith("#!") ? line.slice(2).trim().split(/\s+/)[0] : undefined
            detail = interpreter !== undefined
              ? `${exe} exists, but its interpreter ${interpreter} (its #! line) does not: install it, or fix the #! line`
              : `${exe} exists, but the system could not run it (a missing interpreter or loader)`
          } else {
            detail = `${exe} does not exist (option \`executable\`): install @anthropic-ai/claude-code, or fix the path`
          }
          break
        }
        case "EACCES":
        case "EPERM": {
          const info = yield* stat(exe)
          detail = Option.isSome(info) && info.value.isDirectory
            ? `${exe} is a directory, not the claude binary (option \`executable\`)`
            : `${exe} is not executable: make it executable (\`chmod +x ${exe}\`), or point \`executable\` at the claude binary`
          break
        }
        case "ENOTDIR":
          detail = `a part of the path ${exe}${
            cwd !== undefined ? ` or of the working directory ${cwd}` : ""
          } is not a directory`
          break
        case "E2BIG":
          detail = `the argument list is longer than the operating system accepts (${describeArgs(config.args)}): ` +
            `pass long texts in options sent over stdin (systemPrompt, appendSystemPrompt, agents, MCP servers and settings ` +
            `are by default; for plugins set pluginDelivery to "initialize", and drop any "argv" delivery)`
          break
        case "ENOEXEC":
          detail =
            `${exe} is not a program this machine can run (wrong format or architecture for ${process.platform}-${process.arch})`
          break
        case "EMFILE":
        case "ENFILE":
        case "EAGAIN":
        case "ENOMEM":
          detail = `the system refused a new process (${code}): too many processes or open files, or out of memory`
          break
        default:
          // Not the error's message: the platform's and Node's both quote the whole command line.
          detail = `spawning ${exe} failed (${code ?? (error instanceof Error ? error.name : "unknown error")})`
      }
    }
    const safe = redactor.redact(detail)
    return new CliExitError({
      reason: "SpawnFailed",
      exitCode: null,
      signal: null,
      stderrTail: "",
      detail: safe,
      // Only the code: Node's spawn error carries the argument list and the environment.
      cause: Object.assign(new Error(safe), { code: code ?? "UNKNOWN" })
    })
  })
