/**
 * The demo as a function of its output: one run of a small task in a fresh
 * project folder, with a guard hook, a permission gate, an audit trail and a
 * definition of done, narrated live to `sink`.
 */
import type { ClaudeError } from "@claude-effect/sdk"
import { ClaudeCode, HookLayer, PermissionGate } from "@claude-effect/sdk"
import type * as ClaudeOptions from "@claude-effect/sdk/ClaudeOptions"
import { ScriptedModel } from "@claude-effect/testkit"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import type { ServeError } from "effect/http/HttpServerError"
import * as Layer from "effect/Layer"
import * as Path from "effect/Path"
import type { PlatformError } from "effect/PlatformError"
import * as Stream from "effect/Stream"
import * as AuditLogLayer from "./AuditLog.js"
import * as Inventory from "./Inventory.js"
import * as Observe from "./Observe.js"
import * as Policies from "./Policies.js"
import { Project } from "./Project.js"
import * as ProjectLayer from "./Project.js"
import * as Story from "./Story.js"
import * as Summary from "./Summary.js"
import * as Terminal from "./Terminal.js"
import { Transcript } from "./Transcript.js"
import * as TranscriptLayer from "./Transcript.js"

export interface Options {
  readonly sink: Terminal.Sink
  /** The scripted model (offline, the default) or the real API. */
  readonly mode: "scripted" | "live"
  /** Stream the scripted model like a model typing (default: only on a fancy sink). */
  readonly paced?: boolean | undefined
  /** The folder to work in (created if needed; default: a new temporary folder, kept for you to look at). */
  readonly root?: string | undefined
  /** Serve the in-process `inventory` MCP server, and add its step to the task (default: true). */
  readonly inventory?: boolean | undefined
}

/** What the run left behind, for tests. */
export interface Report {
  readonly root: string
  readonly project: string
  readonly sandboxFile: string
  readonly outsideFile: string
  readonly auditPath: string
  readonly summary: Summary.Facts
}

/** The hooks and the gate, each wrapped to show its decisions. */
const policies = Layer.mergeAll(
  HookLayer.preToolUse({ matcher: "Bash", name: "guard" }, Observe.hook("guard", Policies.guard)),
  HookLayer.preToolUse({ name: "audit" }, Policies.auditBefore),
  HookLayer.postToolUse({ name: "audit" }, Policies.auditAfter),
  HookLayer.stop(Observe.hook("done-check", Policies.doneCheck), { name: "done-check" }),
  PermissionGate.layer(Observe.gate("gate", Policies.gate))
)

const liveOptions: ClaudeOptions.OptionsInput = {
  maxTurns: 16,
  maxBudgetUsd: 1,
  ...(process.env.CLAUDE_MODEL !== undefined ? { model: process.env.CLAUDE_MODEL } : {})
}

/** What can stop the demo: the SDK's errors, the filesystem's, the scripted model's server. */
export type Error = ClaudeError.ClaudeError | PlatformError | ServeError

export const run = (
  options: Options
): Effect.Effect<Report, Error, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const root = options.root ?? (yield* fs.makeTempDirectory({ prefix: "claude-effect-demo-" }))
    const project = yield* ProjectLayer.make(root)
    const withInventory = options.inventory ?? true
    const setting: Story.Setting = { root: project.root, dir: project.dir, inventory: withInventory }
    const auditPath = path.join(project.root, "audit.jsonl")
    const paced = options.paced ?? options.sink.fancy
    const script = Story.script(setting, paced ? Story.paced : Story.instant)

    const claude = options.mode === "scripted"
      ? Layer.unwrap(Effect.map(ScriptedModel.cliEnv, (env) => ClaudeCode.layer({ cwd: project.dir, env }))).pipe(
        Layer.provideMerge(ScriptedModel.layerNode(script))
      )
      : ClaudeCode.layer({ cwd: project.dir, ...liveOptions })

    const app = Layer.mergeAll(
      Layer.succeed(Project, project),
      AuditLogLayer.layerJsonl(auditPath),
      TranscriptLayer.layer({ project: project.dir, root: project.root })
    ).pipe(Layer.provideMerge(Terminal.layer(options.sink)))

    const program = Effect.gen(function*() {
      const transcript = yield* Transcript
      const terminal = yield* Terminal.Terminal
      const scripted = yield* Effect.serviceOption(ScriptedModel.ScriptedModel)
      const model = scripted._tag === "Some"
        ? `scripted model on ${scripted.value.url} (offline, no API key needed)`
        : "the real Anthropic API"
      yield* Summary.header({ model, project: project.dir, mode: options.mode, inventory: withInventory })
      const task = Story.prompt(setting)
      yield* terminal.line(
        `${terminal.style.bold(terminal.style.green("you ›"))}    ${
          transcript.shorten(task).split("\n").join("\n         ")
        }`
      )
      yield* terminal.status("starting the Claude Code CLI")

      const inventory = yield* Inventory.server
      yield* ClaudeCode.query(task, {
        includePartialMessages: options.sink.fancy,
        ...(withInventory ? { mcpServers: { inventory } } : {})
      }).pipe(
        Stream.runForEach(transcript.message),
        Effect.provide(policies),
        Effect.onInterrupt(() =>
          terminal.status(undefined).pipe(
            Effect.andThen(terminal.line(terminal.style.yellow("\n■ interrupted: the CLI has been shut down.")))
          )
        )
      )
      yield* terminal.status(undefined)

      const stats = yield* transcript.stats
      const sandboxFile = path.join(project.sandbox, Policies.releaseNotes)
      const outsideFile = Story.outsideTarget(setting)
      const readIfThere = (file: string) =>
        Effect.flatMap(
          fs.exists(file),
          (exists) => exists ? Effect.asSome(fs.readFileString(file)) : Effect.succeedNone
        )
      const notes = yield* readIfThere(sandboxFile)
      const audit = yield* readIfThere(auditPath)
      const facts: Summary.Facts = {
        stats,
        sandboxFile,
        sandboxFileLines: notes._tag === "Some" ? notes.value.trim().split("\n").length : undefined,
        outsideFileExists: yield* fs.exists(outsideFile),
        auditPath,
        auditRecords: audit._tag === "Some"
          ? audit.value.trim().split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line))
          : [],
        root: project.root,
        mode: options.mode
      }
      yield* Summary.print(facts)
      return { root: project.root, project: project.dir, sandboxFile, outsideFile, auditPath, summary: facts }
    })

    return yield* program.pipe(Effect.provide(Layer.merge(app, claude)))
  })
