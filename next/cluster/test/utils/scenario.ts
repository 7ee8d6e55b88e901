/**
 * The scenario every cluster test runs: sessions that each take two prompts,
 * every prompt a Bash command run under the runner's PreToolUse hook, the
 * hook's rewrite and the command leaving their marks on disk.
 */
import { ClaudeSession } from "@claude-effect-next/cluster"
import { HookLayer, HookResult } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"

/** The model: a prompt "turn <tag>" runs `echo <tag>`; the tool's output is answered with "done <tag>". */
export const model = (options: { readonly delayMillis?: number } = {}) =>
  ScriptedModel.rule((request) => reply(request, options))

/** The model's answer to one request (see {@link model}). */
export const reply = (
  request: ScriptedModel.ModelRequest,
  options: { readonly delayMillis?: number } = {}
): ScriptedModel.Reply | undefined => {
  if (request.latestToolResults.length > 0) {
    return ScriptedModel.text(`done ${request.latestToolResults[0]!.content.trim().split("\n")[0]}`)
  }
  // An attacker's prompt "attack <file>": a command that leaves the file, proof that a turn ran.
  const attack = /attack (\S+)/.exec(request.lastUserText)
  if (attack !== null) {
    return ScriptedModel.toolUse("Bash", { command: `touch ${attack[1]} && echo ${attack[1]}`, description: "x" })
  }
  const match = /turn (\S+)/.exec(request.lastUserText)
  if (match === null) return undefined
  const command = `${options.delayMillis !== undefined ? `sleep ${options.delayMillis / 1000} && ` : ""}` +
    `echo ${match[1]} | tee -a turns.log`
  return ScriptedModel.toolUse("Bash", { command, description: "record the turn" })
}

/**
 * The runner's policy: a PreToolUse hook that rewrites every Bash command to also write the runner's
 * name to hooks.log — proof on disk that this runner's hook answered, and that its answer was applied.
 */
export const policy = (runner: string) =>
  // A short timeout: a CLI whose runner died mid-question gives up on the answer (and exits) soon after.
  HookLayer.preToolUse({ matcher: "Bash", timeout: "5 seconds" }, (input) =>
    Effect.succeed(HookResult.updatedInput({
      ...(input.tool_input as Record<string, unknown>),
      command: `${(input.tool_input as { command: string }).command} && echo ${runner} >> hooks.log`
    })))

/** The working directory of a session: one per entity (ClaudeSession.directoryOf), made on first use. */
export const sessionOptions = (root: string) => (entityId: string) => {
  const cwd = ClaudeSession.directoryOf(root, entityId)
  Fs.mkdirSync(cwd, { recursive: true })
  return { cwd, allowedTools: ["Bash"] }
}

export const promptText = (entityId: string, n: number) => `turn ${entityId}-p${n}`

export const readLines = (file: string): Array<string> =>
  Fs.existsSync(file) ? Fs.readFileSync(file, "utf8").split("\n").filter((line) => line.length > 0) : []
