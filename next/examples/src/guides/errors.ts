/**
 * The code of docs/errors.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import { ClaudeCode, ClaudeError, Protocol } from "@claude-effect/sdk"
import { Console, Effect, Schedule, Stream } from "effect"
// #endregion

// #region catch
const report = ClaudeCode.query("Summarize CHANGELOG.md").pipe(
  Stream.runDrain,
  Effect.catchTags({
    CliNotFoundError: (error) => Console.error(`Install the CLI: ${error.message}`),
    OptionsError: (error) => Console.error(`Fix the options: ${error.detail}`),
    CliExitError: (error) => Console.error(`The CLI died (${error.reason}); stderr ended with:\n${error.stderrTail}`)
  })
)
// #endregion

// #region result-error
// ClaudeCode.result runs the prompt and returns its result; an error result fails with a ResultError.
const mustSucceed = ClaudeCode.result("Run the migrations").pipe(
  Effect.catchTag("ResultError", (error) => Console.error(`The turn failed (${error.reason}): ${error.message}`))
)

// On a stream, the same rule as a combinator: error results become failures.
const strict = <E, R>(messages: Stream.Stream<Protocol.Message, E, R>) =>
  messages.pipe(
    Stream.mapEffect((message) =>
      Protocol.isResultMessage(message) && message.is_error
        ? Effect.fail(
          new ClaudeError.ResultError({
            reason: message.terminal_reason ?? message.subtype,
            sessionId: message.session_id,
            ...(Protocol.isResultSuccess(message)
              ? { errors: [], result: message.result }
              : { errors: message.errors })
          })
        )
        : Effect.succeed(message)
    )
  )
// #endregion

// #region retry
// A CLI that crashed can be started again. Only retry work that is safe to repeat.
const resilient = ClaudeCode.query("What does src/index.ts export?", { allowedTools: ["Read"] }).pipe(
  Stream.runCollect,
  Effect.retry({
    while: (error) => error._tag === "CliExitError",
    schedule: Schedule.exponential("1 second"),
    times: 2
  })
)
// #endregion

// #region guard
// Every error of the SDK, whatever its tag.
const describe = (error: unknown) =>
  ClaudeError.isClaudeError(error) ? `${error._tag}: ${error.message}` : String(error)
// #endregion

export { describe, mustSucceed, report, resilient, strict }
