/**
 * The errors of `@claude-effect/sdk`: every failure a program can see is one of
 * the tagged errors it exports, joined in the {@link ClaudeError} union.
 *
 * Each error carries a `reason` (a short machine-readable kind) and, where one
 * exists, the underlying `cause`. None of them ever carries the environment of
 * the CLI process, so an API key cannot leak through an error report.
 *
 * The errors are declared (and documented) in `internal/claudeError.ts`, so
 * that the SDK's internal modules can raise them without importing a public
 * module's values; this module names them.
 *
 * @since 0.1.0
 */
export {
  ClaudeError,
  CliExitError,
  CliNotFoundError,
  ControlError,
  ControlTimeoutError,
  InitializeError,
  isClaudeError,
  LocatorAttempt,
  noResult,
  OptionsError,
  ProtocolError,
  ResultError,
  resultFailure,
  SessionPoolError,
  SessionStoreError,
  StructuredOutputError,
  TypeId
} from "./internal/claudeError.js"
