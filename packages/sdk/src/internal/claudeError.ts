/**
 * The SDK's errors, exported by the public `ClaudeError` module.
 *
 * @internal
 */
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"

/**
 * @since 0.1.0
 * @category Type Ids
 */
export const TypeId: unique symbol = Symbol.for("@claude-effect/sdk/ClaudeError")

/**
 * @since 0.1.0
 * @category Type Ids
 */
export type TypeId = typeof TypeId

/**
 * @since 0.1.0
 * @category Guards
 */
export const isClaudeError = (u: unknown): u is ClaudeError => Predicate.hasProperty(u, TypeId)

/**
 * One place the CLI locator looked for the `claude` binary, and why it was
 * not used.
 *
 * @since 0.1.0
 * @category Schemas
 */
export class LocatorAttempt extends Schema.Class<LocatorAttempt>("@claude-effect/sdk/LocatorAttempt")({
  source: Schema.Literals(["option", "platform-package", "wrapper-package", "path"]),
  location: Schema.String,
  problem: Schema.String
}) {}

/**
 * The `claude` executable could not be found anywhere the locator looked.
 *
 * @since 0.1.0
 * @category Errors
 */
export class CliNotFoundError extends Schema.TaggedError<CliNotFoundError>("@claude-effect/sdk/CliNotFoundError")(
  "CliNotFoundError",
  {
    reason: Schema.Literals(["NotFound", "NotExecutable"]),
    attempts: Schema.Array(LocatorAttempt)
  }
) {
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    const tried = this.attempts.map((a) => `  - ${a.source}: ${a.location} (${a.problem})`).join("\n")
    if (this.reason === "NotExecutable") {
      const location = this.attempts[0]?.location ?? "the executable"
      return `The Claude Code CLI at ${location} cannot be run: ${this.attempts[0]?.problem ?? "not executable"}.\n` +
        `Fix: make it executable (\`chmod +x ${location}\`), or point \`executable\` at the \`claude\` binary itself.`
    }
    return `The Claude Code CLI was not found. Tried:\n${tried}\n` +
      `Fix: reinstall @claude-effect/sdk (it brings @anthropic-ai/claude-code, whose platform package carries the ` +
      `binary; an install with --omit=optional or --no-optional leaves that package out), put \`claude\` on PATH, ` +
      `or pass \`executable\` to ClaudeCode.layer.`
  }
}

/**
 * The CLI process could not be started, or ended while the SDK still needed it.
 *
 * - `SpawnFailed`: the process never ran; `detail` names the path or option
 *   at fault, why, and how to fix it.
 * - `Exited` / `Signaled`: the process ended by itself with an exit code or a
 *   signal. `duringTurn` is `true` when it ended before the running turn's
 *   `result`: that turn's work is lost, even when the exit code is 0.
 *
 * `stderrTail` is the end of what the CLI wrote to stderr, with every known
 * secret redacted.
 *
 * @since 0.1.0
 * @category Errors
 */
export class CliExitError extends Schema.TaggedError<CliExitError>("@claude-effect/sdk/CliExitError")(
  "CliExitError",
  {
    reason: Schema.Literals(["SpawnFailed", "Exited", "Signaled"]),
    exitCode: Schema.NullOr(Schema.Number),
    signal: Schema.NullOr(Schema.String),
    stderrTail: Schema.String,
    detail: Schema.optional(Schema.String),
    duringTurn: Schema.optional(Schema.Boolean),
    cause: Schema.optional(Schema.Defect())
  }
) {
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    const how = this.reason === "SpawnFailed"
      ? "could not be started"
      : this.signal !== null
      ? `was killed by ${this.signal}`
      : `exited with code ${this.exitCode}`
    const when = this.duringTurn === true ? " before the running turn finished (no result)" : ""
    const detail = this.detail !== undefined ? `: ${this.detail}` : ""
    const tail = this.stderrTail.trim()
    return `The Claude Code CLI ${how}${when}${detail}` + (tail.length > 0 ? `; stderr ends with:\n${tail}` : "")
  }
}

/**
 * A line on the wire that is not JSON, breaks a known message shape, or is
 * longer than the configured guard. `line` holds the offending line, cut for
 * display; `detail` holds the parser's or the Schema's message.
 *
 * @since 0.1.0
 * @category Errors
 */
export class ProtocolError extends Schema.TaggedError<ProtocolError>("@claude-effect/sdk/ProtocolError")(
  "ProtocolError",
  {
    reason: Schema.Literals(["InvalidJson", "InvalidMessage", "LineTooLong", "EncodeFailed"]),
    line: Schema.String,
    lineLength: Schema.Number,
    detail: Schema.String,
    cause: Schema.optional(Schema.Defect())
  }
) {
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    return `${this.reason} (${this.lineLength} chars): ${this.detail}\n  line: ${this.line}`
  }
}

/**
 * A control request the SDK sent got no answer in time.
 *
 * @since 0.1.0
 * @category Errors
 */
export class ControlTimeoutError
  extends Schema.TaggedError<ControlTimeoutError>("@claude-effect/sdk/ControlTimeoutError")("ControlTimeoutError", {
    subtype: Schema.String,
    requestId: Schema.String,
    timeoutMillis: Schema.Number
  })
{
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    return `The CLI did not answer the control request "${this.subtype}" (${this.requestId}) within ${this.timeoutMillis} ms`
  }
}

/**
 * A control request the SDK sent was answered with an error, or could not be
 * answered because the CLI went away.
 *
 * - `ErrorResponse`: the CLI answered with an error (`error`, `errorCode`).
 * - `InvalidRequest`: the request was never sent, because a field of its
 *   payload is invalid (`error` names the field); the session is unaffected.
 * - `InvalidResponse`: the CLI's answer does not have the expected shape.
 * - `Closed`: the CLI exited, or its stdin was gone, before it answered.
 *
 * @since 0.1.0
 * @category Errors
 */
export class ControlError extends Schema.TaggedError<ControlError>("@claude-effect/sdk/ControlError")(
  "ControlError",
  {
    reason: Schema.Literals(["ErrorResponse", "InvalidRequest", "InvalidResponse", "Closed"]),
    subtype: Schema.String,
    requestId: Schema.String,
    error: Schema.String,
    errorCode: Schema.optional(Schema.String),
    cause: Schema.optional(Schema.Defect())
  }
) {
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    return `Control request "${this.subtype}" (${this.requestId}) failed: ${this.error}` +
      (this.errorCode !== undefined ? ` [${this.errorCode}]` : "")
  }
}

/**
 * The initialize handshake failed: the CLI rejected it, did not answer, or
 * exited first.
 *
 * @since 0.1.0
 * @category Errors
 */
export class InitializeError extends Schema.TaggedError<InitializeError>("@claude-effect/sdk/InitializeError")(
  "InitializeError",
  {
    reason: Schema.Literals(["Rejected", "Timeout", "CliExited", "InvalidResponse"]),
    detail: Schema.String,
    cause: Schema.optional(Schema.Defect())
  }
) {
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    return `The initialize handshake failed (${this.reason}): ${this.detail}`
  }
}

/**
 * The options given to a query or session are invalid. Raised before any
 * process is spawned.
 *
 * @since 0.1.0
 * @category Errors
 */
export class OptionsError extends Schema.TaggedError<OptionsError>("@claude-effect/sdk/OptionsError")(
  "OptionsError",
  {
    reason: Schema.Literals(["InvalidOptions", "Conflict"]),
    detail: Schema.String,
    cause: Schema.optional(Schema.Defect())
  }
) {
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    return `Invalid options (${this.reason}): ${this.detail}`
  }
}

/**
 * A turn ended with an error `result` (API failure, max turns, budget,
 * interrupt, ...). Raised where the caller asked for results to be checked
 * (`ClaudeCode.result`): the message stream itself delivers error results as
 * messages. `reason` is the result's error subtype (`error_max_turns`, ...)
 * or, for an error reported with subtype `success`, its `terminal_reason`
 * (`api_error`, ...).
 *
 * One case fails every stream: `AuthenticationFailed`, a turn the CLI could
 * not run for want of credentials (no API key, not logged in); it takes the
 * place of that turn's result.
 *
 * @since 0.1.0
 * @category Errors
 */
export class ResultError extends Schema.TaggedError<ResultError>("@claude-effect/sdk/ResultError")(
  "ResultError",
  {
    reason: Schema.String,
    sessionId: Schema.String,
    errors: Schema.Array(Schema.String),
    result: Schema.optional(Schema.String)
  }
) {
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    const detail = this.errors.length > 0 ? this.errors.join("; ") : (this.result ?? "")
    if (this.reason === "AuthenticationFailed") {
      return `The Claude Code CLI has no valid credentials (it said: ${detail}). Fix: set ANTHROPIC_API_KEY ` +
        `(in the environment, or in the \`env\` option), or log in once with \`claude\` and \`/login\` as the user ` +
        `this program runs as; to run without an account, point the CLI at the testkit's scripted model ` +
        `(\`env: yield* ScriptedModel.cliEnv\`).`
    }
    return `The turn ended with an error result (${this.reason})` + (detail.length > 0 ? `: ${detail}` : "")
  }
}

/**
 * The `ResultError` a `result` message stands for, or `undefined` when it
 * reports success: `reason` is its error subtype, or, for an error reported
 * with subtype `success` (`is_error`), its `terminal_reason`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const resultFailure = (result: { readonly subtype: string }): ResultError | undefined => {
  const fields = result as {
    readonly session_id?: unknown
    readonly errors?: ReadonlyArray<unknown>
    readonly result?: unknown
    readonly terminal_reason?: unknown
    readonly is_error?: unknown
  }
  if (result.subtype === "success" && fields.is_error !== true) return undefined
  return new ResultError({
    reason: result.subtype === "success"
      ? (typeof fields.terminal_reason === "string" ? fields.terminal_reason : "error")
      : String(result.subtype),
    sessionId: typeof fields.session_id === "string" ? fields.session_id : "",
    errors: (fields.errors ?? []).map(String),
    ...(typeof fields.result === "string" ? { result: fields.result } : {})
  })
}

/**
 * The error of a query whose stream ended without a `result`.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const noResult = (): ResultError =>
  new ResultError({ reason: "NoResult", sessionId: "", errors: ["the CLI ended without a result"] })

/**
 * A structured answer (`ClaudeCode.structured`, `StructuredOutput.decode`)
 * could not be had:
 *
 * - `Missing`: the turn ended without structured output: the model answered
 *   in text instead of calling the CLI's `StructuredOutput` tool; `result`
 *   holds what it said.
 * - `Mismatch`: the structured output passed the CLI's JSON Schema check but
 *   the Schema rejected it (a check the JSON Schema cannot express: a filter,
 *   a transformation); `value` holds it, `detail` says what is wrong where,
 *   and `cause` is the `Schema.SchemaError` with its issue.
 * - `RetriesExhausted`: the model never produced output matching the JSON
 *   Schema, and the CLI gave up (`error_max_structured_output_retries`).
 *
 * @since 0.1.0
 * @category Errors
 */
export class StructuredOutputError
  extends Schema.TaggedError<StructuredOutputError>("@claude-effect/sdk/StructuredOutputError")(
    "StructuredOutputError",
    {
      reason: Schema.Literals(["Missing", "Mismatch", "RetriesExhausted"]),
      sessionId: Schema.String,
      detail: Schema.String,
      value: Schema.optional(Schema.Unknown),
      result: Schema.optional(Schema.String),
      cause: Schema.optional(Schema.Defect())
    }
  )
{
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    switch (this.reason) {
      case "Missing":
        return `The turn ended without structured output: the model answered in text instead of calling the ` +
          `StructuredOutput tool${this.result !== undefined ? ` (it said: ${excerpt(this.result)})` : ""}. ` +
          `Fix: say in the prompt what the answer is about, or retry; the CLI already reminded the model once.`
      case "Mismatch":
        return `The structured output does not match the schema: ${this.detail}\n  value: ${
          excerpt(json(this.value))
        }\n` +
          `Fix: the CLI checks the JSON Schema, the Schema decodes afterwards; a check only the Schema makes (a ` +
          `filter, a transformation) rejected the value. Describe the constraint in the prompt, or give the Schema a ` +
          `jsonSchema annotation so that the CLI enforces it and the model retries.`
      case "RetriesExhausted":
        return `The model never produced structured output matching the JSON Schema; the CLI gave up: ${this.detail}. ` +
          `Fix: simplify the schema, or describe the expected shape in the prompt.`
    }
  }
}

const excerpt = (text: string, max = 300): string => text.length > max ? `${text.slice(0, max)}…` : text

const json = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/**
 * A session store (the `SessionStore` service: where transcripts are
 * mirrored and resumed from) could not do what was asked.
 *
 * - `InvalidKey`: a session key the store cannot hold (empty, or a path
 *   that would leave its place: `/`, `..`, NUL, a lone surrogate);
 *   `detail` names the field.
 * - `InvalidEntry`: an entry that is not a transcript line (no string
 *   `type`, not JSON, a `uuid` with NUL or a lone surrogate).
 * - `TooLarge`: an entry over the store's size limit; `detail` gives both.
 * - `Unavailable`: the storage behind the store failed (a database that
 *   cannot be reached, a query that failed); `cause` is its error. A
 *   mirror batch that failed this way is kept and sent again at the next
 *   turn's end.
 * - `Timeout`: the store did not answer in time.
 *
 * @since 0.1.0
 * @category Errors
 */
export class SessionStoreError extends Schema.TaggedError<SessionStoreError>("@claude-effect/sdk/SessionStoreError")(
  "SessionStoreError",
  {
    reason: Schema.Literals(["InvalidKey", "InvalidEntry", "TooLarge", "Unavailable", "Timeout"]),
    operation: Schema.Literals(["append", "load", "listSessions", "delete", "listSubkeys"]),
    detail: Schema.String,
    cause: Schema.optional(Schema.Defect())
  }
) {
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    return `The session store could not ${this.operation} (${this.reason}): ${this.detail}`
  }
}

/**
 * A session pool could not hand out a session. `Closed`: the pool's scope has
 * ended. `HandlersMismatch`: the claiming context provides a permission gate
 * or hook layers that the pool's sessions were not started with — a pooled
 * session's handlers are those of the pool's context, fixed when its process
 * was spawned and initialized, so they cannot be the claimer's.
 *
 * @since 0.1.0
 * @category Errors
 */
export class SessionPoolError extends Schema.TaggedError<SessionPoolError>("@claude-effect/sdk/SessionPoolError")(
  "SessionPoolError",
  {
    reason: Schema.Literals(["Closed", "HandlersMismatch"]),
    detail: Schema.String
  }
) {
  /**
   * @since 0.1.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * @since 0.1.0
   */
  override get message(): string {
    return `The session pool cannot hand out a session (${this.reason}): ${this.detail}`
  }
}

/**
 * Every error of the SDK.
 *
 * @since 0.1.0
 * @category Models
 */
export type ClaudeError =
  | CliNotFoundError
  | CliExitError
  | ProtocolError
  | ControlTimeoutError
  | ControlError
  | InitializeError
  | OptionsError
  | ResultError
  | StructuredOutputError
  | SessionStoreError
  | SessionPoolError

/**
 * @since 0.1.0
 * @category Schemas
 */
export const ClaudeError: Schema.Union<
  readonly [
    typeof CliNotFoundError,
    typeof CliExitError,
    typeof ProtocolError,
    typeof ControlTimeoutError,
    typeof ControlError,
    typeof InitializeError,
    typeof OptionsError,
    typeof ResultError,
    typeof StructuredOutputError,
    typeof SessionStoreError,
    typeof SessionPoolError
  ]
> = Schema.Union([
  CliNotFoundError,
  CliExitError,
  ProtocolError,
  ControlTimeoutError,
  ControlError,
  InitializeError,
  OptionsError,
  ResultError,
  StructuredOutputError,
  SessionStoreError,
  SessionPoolError
])
