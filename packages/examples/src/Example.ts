/**
 * The plumbing the examples share, so that each example file reads as SDK
 * usage only.
 *
 * An example exports its `program` (an Effect that needs `ClaudeCode`) and
 * the `script` the testkit's ScriptedModel plays when it runs offline. Run
 * as a file (`npx tsx src/examples/query.ts`), {@link main} runs the program
 * offline: the real `claude` CLI against a scripted model on 127.0.0.1, in a
 * fresh temporary working directory. With `--live` it talks to the real API
 * instead (set `ANTHROPIC_API_KEY`, or be logged in to Claude Code).
 */
import { ClaudeCode, NodeCliSpawner, Protocol } from "@claude-effect/sdk"
import type * as ClaudeOptions from "@claude-effect/sdk/ClaudeOptions"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import type * as Path from "effect/Path"
import type * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import * as Schema from "effect/Schema"
import * as Fs from "node:fs"
import * as Url from "node:url"

/**
 * The working directory the CLI runs in: a fresh temporary directory,
 * removed when the program ends.
 */
export class Workspace extends Context.Service<Workspace, {
  readonly cwd: string
}>()("@claude-effect/examples/Workspace") {}

/** What every example may use: the SDK, its working directory, and the Node platform services. */
export type Services =
  | ClaudeCode.ClaudeCode
  | Workspace
  | ChildProcessSpawner.ChildProcessSpawner
  | FileSystem.FileSystem
  | Path.Path

/** What the scripted model plays. */
export type Script = ReadonlyArray<ScriptedModel.Step>

const workspace = Layer.effect(
  Workspace,
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    // realpath: the CLI reports resolved paths (/private/var/... on macOS)
    const cwd = Fs.realpathSync(yield* fs.makeTempDirectoryScoped({ prefix: "claude-effect-example-" }))
    return { cwd }
  })
)

const claudeIn = <R>(options: Effect.Effect<ClaudeOptions.OptionsInput, never, R>) =>
  Layer.unwrap(Effect.map(
    Effect.flatMap(Effect.service(Workspace), ({ cwd }) => Effect.map(options, (options) => ({ cwd, ...options }))),
    (options) => ClaudeCode.layer(options)
  ))

// The CLI started with node:child_process directly, as the docs recommend on Node.
const NodePlatform = Layer.merge(NodeCliSpawner.layer, NodeServices.layer)

/**
 * Everything an example needs, offline: a ScriptedModel playing `script`, a
 * temporary working directory, and `ClaudeCode` pointed at both.
 */
export const layerScripted = (
  script: Script,
  options: ClaudeOptions.OptionsInput = {}
): Layer.Layer<Services | ScriptedModel.ScriptedModel> =>
  claudeIn(Effect.map(ScriptedModel.cliEnv, (env) => ({ ...options, env: { ...env, ...options.env } }))).pipe(
    Layer.provideMerge(workspace),
    Layer.provideMerge(ScriptedModel.layerNode(script)),
    Layer.provideMerge(NodePlatform),
    Layer.orDie
  )

/**
 * Everything an example needs, live: `ClaudeCode` in a temporary working
 * directory, talking to the real API with the environment's credentials.
 */
export const layerLive = (options: ClaudeOptions.OptionsInput = {}): Layer.Layer<Services> =>
  claudeIn(Effect.succeed(options)).pipe(
    Layer.provideMerge(workspace),
    Layer.provideMerge(NodePlatform),
    Layer.orDie
  )

/** Runs an example's program offline, against its script (what the tests do). */
export const runScripted = <A, E>(
  program: Effect.Effect<A, E, Services>,
  script: Script,
  options?: ClaudeOptions.OptionsInput
): Effect.Effect<A, E> => Effect.provide(program, layerScripted(script, options))

/** Whether the module of `meta` is the file node was started with. */
export const isMain = (meta: ImportMeta): boolean => {
  const entry = process.argv[1]
  if (entry === undefined) return false
  try {
    return Fs.realpathSync(entry) === Fs.realpathSync(Url.fileURLToPath(meta.url))
  } catch {
    return false
  }
}

/**
 * Runs the example when its file is the entry point: offline against
 * `script`, or against the real API with `--live`. Ctrl-C interrupts the
 * program, and the SDK shuts the CLI down.
 */
export const main = <A, E>(
  meta: ImportMeta,
  program: Effect.Effect<A, E, Services>,
  script: Script,
  options?: ClaudeOptions.OptionsInput
): void => {
  if (!isMain(meta)) return
  const live = process.argv.includes("--live")
  program.pipe(
    Effect.provide(live ? layerLive(options) : layerScripted(script, options)),
    NodeRuntime.runMain
  )
}

const isText = Schema.is(Protocol.TextBlock)
const isToolUse = Schema.is(Protocol.ToolUseBlock)
const isToolResult = Schema.is(Protocol.ToolResultBlock)

const oneLine = (text: string, max = 110) => {
  const line = text.replace(/\s+/g, " ").trim()
  return line.length > max ? line.slice(0, max - 1) + "…" : line
}

/**
 * Prints the interesting messages of a run, one line each: the assistant's
 * text and tool calls, the tool results, and the final result.
 */
export const print = (message: Protocol.Message): Effect.Effect<void> => {
  if (Protocol.isUnknownMessage(message)) return Effect.void
  switch (message.type) {
    case "assistant":
      return Effect.forEach(message.message.content, (block) =>
        isText(block)
          ? Console.log(`  claude: ${oneLine(block.text)}`)
          : isToolUse(block)
          ? Console.log(`  tool:   ${block.name} ${oneLine(JSON.stringify(block.input), 90)}`)
          : Effect.void, { discard: true })
    case "user": {
      const content = message.message.content
      return typeof content === "string" ? Effect.void : Effect.forEach(content, (block) =>
        isToolResult(block)
          ? Console.log(`  ${block.is_error === true ? "error: " : "result:"} ${oneLine(resultText(block.content))}`)
          : Effect.void, { discard: true })
    }
    case "result":
      return Console.log(
        `  end:    ${message.subtype}${message.is_error ? " (error)" : ""}, ${message.num_turns} turn(s)` +
          (Protocol.isResultSuccess(message) ? ` — ${oneLine(message.result, 90)}` : "")
      )
    default:
      return Effect.void
  }
}

const resultText = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
    ? content.map((block) => (typeof block?.text === "string" ? block.text : "")).join(" ")
    : JSON.stringify(content)
