/**
 * The end-to-end harness: the real CLI against the testkit's ScriptedModel,
 * in a fresh working directory, with `ClaudeCode` pointed at both and
 * `ClaudeCodeLanguageModel` over it.
 */
import { ClaudeCodeLanguageModel } from "@claude-effect/ai"
import { ClaudeCode } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Fs from "node:fs"
import * as Path from "node:path"

/** The working directory of the CLI under test. */
export class Workspace extends Context.Tag("test/Workspace")<Workspace, {
  readonly cwd: string
  readonly exists: (name: string) => boolean
  readonly read: (name: string) => string
}>() {}

/**
 * `LanguageModel` (and `ClaudeCode`) for one test: a ScriptedModel serving
 * `script`, a temp working directory, few API retries.
 */
export const harness = (
  script: ReadonlyArray<ScriptedModel.Step>,
  config: ClaudeCodeLanguageModel.Config = {}
) => {
  const workspace = Layer.scoped(
    Workspace,
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const cwd = Fs.realpathSync(yield* fs.makeTempDirectoryScoped({ prefix: "claude-effect-ai-" }))
      return {
        cwd,
        exists: (name: string) => Fs.existsSync(Path.join(cwd, name)),
        read: (name: string) => Fs.readFileSync(Path.join(cwd, name), "utf8")
      }
    })
  )
  const claude = Layer.unwrapEffect(
    Effect.gen(function*() {
      const env = yield* ScriptedModel.cliEnv
      const { cwd } = yield* Workspace
      return ClaudeCode.layer({ cwd, env: { ...env, CLAUDE_CODE_MAX_RETRIES: "2" } })
    })
  )
  return ClaudeCodeLanguageModel.layer(config).pipe(
    Layer.provideMerge(claude),
    Layer.provideMerge(workspace),
    Layer.provideMerge(ScriptedModel.layerNode(script)),
    Layer.provideMerge(NodeContext.layer),
    Layer.orDie
  )
}

/** Whether a process is alive (and not a zombie). */
export const isAlive = (pid: number): boolean => {
  try {
    return !/\) Z /.test(Fs.readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return false
  }
}

export const bash = (command: string, description = "run a command") =>
  ScriptedModel.toolUse("Bash", { command, description })
