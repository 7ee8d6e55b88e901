/**
 * What the guide tests share (v3's src/Example.ts `Workspace` and
 * `layerScripted`): the real `claude` CLI against a scripted model on
 * 127.0.0.1, in a fresh temporary working directory.
 */
import { ClaudeCode, NodeCliSpawner } from "@claude-effect/sdk"
import type * as ClaudeOptions from "@claude-effect/sdk/ClaudeOptions"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Fs from "node:fs"

/** The working directory the CLI runs in, removed when the test ends. */
export class Workspace extends Context.Service<Workspace, {
  readonly cwd: string
}>()("@claude-effect/examples/test/Workspace") {}

const workspace = Layer.effect(
  Workspace,
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    // realpath: the CLI reports resolved paths (/private/var/... on macOS)
    const cwd = Fs.realpathSync(yield* fs.makeTempDirectoryScoped({ prefix: "claude-effect-example-" }))
    return { cwd }
  })
)

/** A ScriptedModel playing `script`, a temporary working directory, and `ClaudeCode` pointed at both. */
export const layerScripted = (
  script: ReadonlyArray<ScriptedModel.Step>,
  options: ClaudeOptions.OptionsInput = {}
) =>
  Layer.unwrap(Effect.gen(function*() {
    const env = yield* ScriptedModel.cliEnv
    const { cwd } = yield* Workspace
    return ClaudeCode.layer({ cwd, ...options, env: { ...env, ...options.env } })
  })).pipe(
    Layer.provideMerge(workspace),
    Layer.provideMerge(ScriptedModel.layerNode(script)),
    // The CLI started with node:child_process directly, as the docs recommend on Node.
    Layer.provideMerge(Layer.merge(NodeCliSpawner.layer, NodeServices.layer)),
    Layer.orDie
  )
