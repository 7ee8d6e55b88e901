/**
 * The options and results of docs/getting-started.md (its programs are in
 * getting-started.ts). Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file and
 * test/guides/getting-started.test.ts runs it.
 */
import { ClaudeCode, Protocol } from "@claude-effect/sdk"
import { Effect, Stream } from "effect"

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
