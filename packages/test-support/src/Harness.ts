/**
 * The end-to-end harness of the workspace's tests: the real CLI 2.1.328
 * against the testkit's ScriptedModel, in a fresh working directory, with a
 * log sink to assert on; and the process checks (no orphan CLI) they make.
 *
 * @since 0.1.0
 */
import { ClaudeCode, CliSpawner, NodeCliSpawner } from "@claude-effect/sdk"
import type * as ClaudeOptions from "@claude-effect/sdk/ClaudeOptions"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type * as LogLevel from "effect/LogLevel"
import * as Path from "effect/Path"
import * as References from "effect/References"
import * as Fs from "node:fs"

/**
 * The working directory of the CLI under test.
 *
 * @since 0.1.0
 * @category Services
 */
export class Workspace extends Context.Service<Workspace, {
  readonly cwd: string
  readonly file: (name: string) => string
  readonly exists: (name: string) => boolean
  readonly read: (name: string) => string
}>()("test/Workspace") {}

/**
 * One log line of the test.
 *
 * @since 0.1.0
 * @category Models
 */
export interface LogEntry {
  readonly level: LogLevel.LogLevel
  readonly message: string
  readonly annotations: Record<string, unknown>
}

/**
 * Every log line of the test, to assert on.
 *
 * @since 0.1.0
 * @category Services
 */
export class Logs extends Context.Service<Logs, Array<LogEntry>>()("test/Logs") {}

const logsLayer = Layer.unwrap(Effect.sync(() => {
  const entries: Array<LogEntry> = []
  const logger = Logger.make<unknown, void>(({ cause, fiber, logLevel, message }) => {
    const text = (Array.isArray(message) ? message : [message]).map((m) =>
      typeof m === "string" ? m : Cause.isCause(m) ? Cause.pretty(m) : JSON.stringify(m)
    ).join(" ")
    entries.push({
      level: logLevel,
      message: text + (cause.reasons.length === 0 ? "" : `\n${Cause.pretty(cause)}`),
      annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
    })
  })
  return Layer.merge(Layer.succeed(Logs, entries), Logger.layer([logger]))
}))

/** The CLI env for tests: few retries, so API-error scenarios stay short. */
const testEnv = { CLAUDE_CODE_MAX_RETRIES: "2" }

/**
 * How the harness starts the CLI: `NodeCliSpawner` (what the docs recommend on Node), or effect's
 * `ChildProcessSpawner` when `CLAUDE_EFFECT_TEST_SPAWNER=command` (the SDK package's second test project runs
 * its suite that way, so each spawner runs every end-to-end test).
 *
 * @since 0.1.0
 */
export const spawnerName: "node" | "command" = process.env.CLAUDE_EFFECT_TEST_SPAWNER === "command" ? "command" : "node"

/**
 * The spawner layer of {@link spawnerName}.
 *
 * @since 0.1.0
 */
export const spawnerLayer: Layer.Layer<CliSpawner.CliSpawner> = spawnerName === "node"
  ? NodeCliSpawner.layer
  : CliSpawner.layerChildProcess.pipe(Layer.provide(NodeServices.layer))

/**
 * The layer for one end-to-end test: a ScriptedModel serving `script`, a
 * temp working directory, and `ClaudeCode` pointed at both.
 *
 * @since 0.1.0
 */
export const harness = (
  script: ReadonlyArray<ScriptedModel.Step>,
  options: ClaudeOptions.OptionsInput = {},
  modelOptions: ScriptedModel.Options = {}
) => {
  const workspace = Layer.effect(
    Workspace,
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const path = yield* Path.Path
      // realpath: the CLI reports /private/... style resolved paths on some systems
      const cwd = Fs.realpathSync(yield* fs.makeTempDirectoryScoped({ prefix: "claude-effect-cwd-" }))
      return {
        cwd,
        file: (name: string) => path.join(cwd, name),
        exists: (name: string) => Fs.existsSync(path.join(cwd, name)),
        read: (name: string) => Fs.readFileSync(path.join(cwd, name), "utf8")
      }
    })
  )
  const claude = Layer.unwrap(
    Effect.gen(function*() {
      const env = yield* ScriptedModel.cliEnv
      const { cwd } = yield* Workspace
      return ClaudeCode.layer({ cwd, ...options, env: { ...env, ...testEnv, ...options.env } }).pipe(
        Layer.provide(spawnerLayer)
      )
    })
  )
  return claude.pipe(
    Layer.provideMerge(workspace),
    Layer.provideMerge(ScriptedModel.layerNode(script, modelOptions)),
    Layer.provideMerge(logsLayer),
    Layer.provideMerge(NodeServices.layer),
    Layer.orDie
  )
}

/**
 * The pids of live processes whose working directory is `cwd` (Linux /proc).
 *
 * @since 0.1.0
 */
export const processesIn = (cwd: string): Array<number> => {
  const pids: Array<number> = []
  for (const entry of Fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (Fs.readlinkSync(`/proc/${entry}/cwd`) === cwd) pids.push(Number(entry))
    } catch {
      // gone, or not ours to read
    }
  }
  return pids
}

/**
 * Whether a process is alive (and not a zombie).
 *
 * @since 0.1.0
 */
export const isAlive = (pid: number): boolean => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return !/\) Z /.test(stat)
  } catch {
    return false
  }
}

/**
 * A model turn that runs one Bash command.
 *
 * @since 0.1.0
 */
export const bash = (command: string, description = "run a command") =>
  ScriptedModel.toolUse("Bash", { command, description })

/**
 * The live `claude` processes (run with stream-json, as the SDK runs them) whose parent is `parent` (Linux /proc).
 *
 * @since 0.1.0
 */
export const cliProcessesOf = (parent: number): Array<number> =>
  Fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => {
    try {
      const stat = Fs.readFileSync(`/proc/${entry}/stat`, "utf8")
      // after "(comm) ": the state, then the parent pid
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (Number(ppid) !== parent || state === "Z") return []
      return Fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("stream-json") ? [Number(entry)] : []
    } catch {
      return [] // gone, or not ours to read
    }
  })
