/**
 * The demo. Until the runtime lands it proves that the pinned CLI is found and runs.
 */
import { CliLocator } from "@claude-effect/sdk"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Command from "@effect/platform/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"

const program = Effect.gen(function*() {
  const executable = yield* CliLocator.locate()
  const version = yield* Command.string(Command.make(executable, "--version"))
  yield* Console.log(`claude-effect demo: found ${version.trim()} at ${executable}`)
})

program.pipe(Effect.provide(NodeContext.layer), NodeRuntime.runMain)
