/**
 * The code of docs/getting-started.md. Each `#region` is copied into the
 * guide by scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region first-query
import { ClaudeCode, Protocol } from "@claude-effect/sdk"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Schema, Stream } from "effect"

const isText = Schema.is(Protocol.TextBlock)

const program = ClaudeCode.query("What is the capital of France? One word.").pipe(
  Stream.runForEach((message) => {
    // Types this SDK does not know yet are kept, never dropped: set them aside first.
    if (Protocol.isUnknownMessage(message)) return Effect.void
    if (message.type === "assistant") {
      return Console.log(message.message.content.filter(isText).map((block) => block.text).join(""))
    }
    if (message.type === "result") {
      return Console.log(`${message.num_turns} turn(s), $${message.total_cost_usd.toFixed(4)}`)
    }
    return Effect.void
  })
)

program.pipe(
  Effect.provide(ClaudeCode.layer()),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain
)
// #endregion

// #region node-spawner
import { NodeCliSpawner } from "@claude-effect/sdk"
import { Layer } from "effect"

// On Node: the CLI started with node:child_process directly (else through the platform's CommandExecutor).
const NodePlatform = Layer.merge(NodeCliSpawner.layer, NodeContext.layer)

program.pipe(
  Effect.provide(ClaudeCode.layer()),
  Effect.provide(NodePlatform),
  NodeRuntime.runMain
)
// #endregion

// #region lean-start
import { NodeCommandExecutor, NodeFileSystem, NodePath } from "@effect/platform-node"

// Only the platform services the SDK asks for, provided one after the other.
const ClaudeOnNode = ClaudeCode.layer().pipe(
  Layer.provide(NodeCliSpawner.layer),
  Layer.provide(NodeCommandExecutor.layer),
  Layer.provide(NodeFileSystem.layer),
  Layer.provide(NodePath.layer)
)

program.pipe(Effect.provide(ClaudeOnNode), NodeRuntime.runMain)
// #endregion

// #region defaults
// Defaults for every query and session of the program; each call can override them.
const Claude = ClaudeCode.layer({
  model: "sonnet",
  permissionMode: "acceptEdits",
  cwd: "/path/to/project",
  maxTurns: 10
})

const answer = ClaudeCode.query("Summarize README.md", { maxTurns: 3, allowedTools: ["Read"] }).pipe(
  Stream.runLast
)
// #endregion

// #region config
// CLAUDE_CODE_EXECUTABLE, CLAUDE_MODEL and CLAUDE_PERMISSION_MODE from the environment (Effect's Config).
const ClaudeFromEnv = ClaudeCode.layerConfig()
// #endregion

// #region result
const lastResult = ClaudeCode.query("Run the tests and report.").pipe(
  Stream.filter((message) => message.type === "result"),
  Stream.runLast,
  Effect.flatMap((last) =>
    Effect.sync(() => {
      const result = last._tag === "Some" ? last.value : undefined
      if (result === undefined || Protocol.isUnknownMessage(result) || result.type !== "result") return "no result"
      // API failures arrive as subtype "success" with is_error: true. Branch on is_error.
      if (result.is_error) return `failed: ${result.subtype} (${result.terminal_reason ?? "?"})`
      return Protocol.isResultSuccess(result) ? result.result : result.subtype
    })
  )
)
// #endregion

export { answer, Claude, ClaudeFromEnv, lastResult }
