/**
 * A {@link ScriptedModel} script in a JSON file: what
 * `npx claude-effect-testkit serve --script <file>` reads, so that a plain
 * `claude -p` (or a command hook under it) runs offline by hand.
 *
 * The file holds either an array of steps or an object with `steps` and
 * options. Each step is one model request's answer, in order. The blocks are
 * written as in the Messages API:
 *
 * ```json
 * {
 *   "steps": [
 *     { "type": "tool_use", "name": "Bash", "input": { "command": "echo hi > out.txt" } },
 *     { "type": "text", "text": "Done: out.txt says hi." }
 *   ]
 * }
 * ```
 *
 * | step | what the model answers |
 * | --- | --- |
 * | `{ "type": "text", "text": "..." }` | a turn with one text block |
 * | `{ "type": "thinking", "thinking": "...", "signature"?: "..." }` | a turn with one thinking block |
 * | `{ "type": "tool_use", "name": "Bash", "input": {...}, "id"?: "toolu_1" }` | a turn with one tool call |
 * | `{ "type": "turn", "content": [blocks], "stop_reason"?: "max_tokens", "delay_ms"?: 500 }` | several blocks in one turn |
 * | `{ "type": "error", "status": 529, "message"?: "...", "error_type"?: "...", "retry_after_ms"?: 1000 }` | an HTTP error (the CLI retries 429, 5xx and 529) |
 *
 * Options beside `steps`: `side_reply` (the text of the answers to the CLI's
 * side calls, such as session titles) and `env` (more variables for the CLI,
 * added to {@link ScriptedModel.Service.cliEnv}).
 *
 * A file that cannot be read, is not JSON or does not match this format is a
 * {@link ScriptFileError} naming the file and, for a bad step, the field.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as ScriptedModel from "./ScriptedModel.js"

// -------------------------------------------------------------------------------------------------
// Format
// -------------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category Schemas
 */
export const TextStep = Schema.Struct({
  type: Schema.Literal("text"),
  text: Schema.String
}).annotate({ identifier: "TextStep" })

/**
 * @since 0.1.0
 * @category Schemas
 */
export const ThinkingStep = Schema.Struct({
  type: Schema.Literal("thinking"),
  thinking: Schema.String,
  signature: Schema.optional(Schema.String)
}).annotate({ identifier: "ThinkingStep" })

/**
 * @since 0.1.0
 * @category Schemas
 */
export const ToolUseStep = Schema.Struct({
  type: Schema.Literal("tool_use"),
  name: Schema.NonEmptyString,
  input: Schema.Record(Schema.String, Schema.Unknown),
  id: Schema.optional(Schema.NonEmptyString)
}).annotate({ identifier: "ToolUseStep" })

/**
 * A content block of a turn.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const BlockStep = Schema.Union([TextStep, ThinkingStep, ToolUseStep]).annotate({ identifier: "BlockStep" })

/**
 * @since 0.1.0
 * @category Models
 */
export type BlockStep = typeof BlockStep.Type

/**
 * @since 0.1.0
 * @category Schemas
 */
export const TurnStep = Schema.Struct({
  type: Schema.Literal("turn"),
  content: Schema.NonEmptyArray(BlockStep),
  stop_reason: Schema.optional(Schema.NonEmptyString),
  delay_ms: Schema.optional(Schema.Natural)
}).annotate({ identifier: "TurnStep" })

/**
 * @since 0.1.0
 * @category Schemas
 */
export const ErrorStep = Schema.Struct({
  type: Schema.Literal("error"),
  status: Schema.Int.check(Schema.isBetween({ minimum: 400, maximum: 599 })),
  message: Schema.optional(Schema.String),
  error_type: Schema.optional(Schema.NonEmptyString),
  retry_after_ms: Schema.optional(Schema.Natural)
}).annotate({ identifier: "ErrorStep" })

/**
 * One step of a script file.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Step = Schema.Union([TextStep, ThinkingStep, ToolUseStep, TurnStep, ErrorStep]).annotate({
  identifier: "Step"
})

/**
 * @since 0.1.0
 * @category Models
 */
export type Step = typeof Step.Type

/**
 * The whole file in its object form.
 *
 * @since 0.1.0
 * @category Schemas
 */
export const Script = Schema.Struct({
  steps: Schema.Array(Step),
  side_reply: Schema.optional(Schema.String),
  env: Schema.optional(Schema.Record(Schema.String, Schema.String))
}).annotate({ identifier: "Script" })

/**
 * @since 0.1.0
 * @category Models
 */
export type Script = typeof Script.Type

// -------------------------------------------------------------------------------------------------
// Errors
// -------------------------------------------------------------------------------------------------

/**
 * A script file that could not be used: `NotFound` / `Unreadable` (the file),
 * `NotJson` (its text), `InvalidScript` (its content; `detail` names each
 * wrong field, e.g. `steps[1].type`).
 *
 * @since 0.1.0
 * @category Errors
 */
export class ScriptFileError extends Schema.TaggedError<ScriptFileError>("@claude-effect/testkit/ScriptFileError")(
  "ScriptFileError",
  {
    reason: Schema.Literals(["NotFound", "Unreadable", "NotJson", "InvalidScript"]),
    path: Schema.String,
    detail: Schema.String
  }
) {
  /**
   * @since 0.1.0
   */
  override get message(): string {
    const what = this.reason === "NotFound"
      ? "does not exist"
      : this.reason === "Unreadable"
      ? "cannot be read"
      : this.reason === "NotJson"
      ? "is not JSON"
      : "is not a valid script"
    return `The script file ${this.path} ${what}: ${this.detail}` +
      (this.reason === "InvalidScript" || this.reason === "NotJson"
        ? `\nA script is an array of steps, or { "steps": [...] }; a step is e.g. { "type": "text", "text": "hi" }.`
        : "")
  }
}

// -------------------------------------------------------------------------------------------------
// Decoding
// -------------------------------------------------------------------------------------------------

/**
 * What a script file gives {@link ScriptedModel.make}.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Loaded {
  readonly steps: ReadonlyArray<ScriptedModel.Step>
  readonly options: ScriptedModel.Options
}

// `reportInput`: the messages quote the wrong value, e.g. `got "txt"`.
const parseOptions = { errors: "all", onExcessProperty: "error", reportInput: true } as const
const decodeScript = Schema.decodeUnknownResult(Script, parseOptions)
const decodeSteps = Schema.decodeUnknownResult(Schema.Array(Step), parseOptions)

const typeLiterals = (members: ReadonlyArray<{ readonly fields: { readonly type: Schema.Literal<string> } }>) =>
  Schema.Literals(members.map((member) => member.fields.type.literal))

// v4 reports a step whose `type` matches no member as "Expected Step": name the `type` field and its choices instead.
const discriminators = new Map<unknown, Schema.Literals<ReadonlyArray<string>>>([
  [Step.ast, typeLiterals(Step.members)],
  [BlockStep.ast, typeLiterals(BlockStep.members)]
])

const standardIssues = SchemaIssue.makeFormatterStandardSchemaV1()

interface Located {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const locate = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): Array<Located> => {
  switch (issue._tag) {
    case "Pointer":
      return locate(issue.issue, [...path, ...issue.path])
    case "Composite":
      return issue.issues.flatMap((inner) => locate(inner, path))
    case "AnyOf": {
      if (issue.issues.length > 0) return issue.issues.flatMap((inner) => locate(inner, path))
      const types = discriminators.get(issue.ast)
      const input: unknown = SchemaIssue.hasInput(issue) ? issue.input : undefined
      if (types !== undefined && typeof input === "object" && input !== null) {
        const type = Schema.decodeUnknownResult(types, parseOptions)((input as { readonly type?: unknown }).type)
        if (Result.isFailure(type)) return locate(type.failure.issue, [...path, "type"])
      }
      break
    }
  }
  return standardIssues(issue).issues.map((found) => ({
    path: [...path, ...(found.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment)],
    message: found.message
  }))
}

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((segment, i) =>
    typeof segment === "number" ? `[${segment}]` : i === 0 ? String(segment) : `.${String(segment)}`
  ).join("")

/**
 * One line per wrong field: `steps[1].type: Expected "text" | ..., got "txt"`.
 *
 * @since 0.1.0
 * @category Decoding
 */
export const formatIssues = (error: Schema.SchemaError, prefix: ReadonlyArray<PropertyKey> = []): string =>
  locate(error.issue, prefix)
    .map(({ message, path }) => path.length > 0 ? `${formatPath(path)}: ${message}` : message)
    .join("; ")

const block = (step: BlockStep): ScriptedModel.Block => {
  switch (step.type) {
    case "text":
      return ScriptedModel.text(step.text)
    case "thinking":
      return ScriptedModel.thinking(step.thinking, { signature: step.signature })
    case "tool_use":
      return ScriptedModel.toolUse(step.name, step.input, { id: step.id })
  }
}

/**
 * The {@link ScriptedModel} step of a script file's step.
 *
 * @since 0.1.0
 * @category Decoding
 */
export const toStep = (step: Step): ScriptedModel.Step => {
  switch (step.type) {
    case "turn": {
      let turn = ScriptedModel.turn(...step.content.map(block))
      if (step.stop_reason !== undefined) turn = ScriptedModel.withStopReason(turn, step.stop_reason)
      if (step.delay_ms !== undefined) turn = ScriptedModel.delayed(turn, step.delay_ms)
      return turn
    }
    case "error":
      return ScriptedModel.error(step.status, {
        message: step.message,
        errorType: step.error_type,
        retryAfter: step.retry_after_ms
      })
    default:
      return block(step)
  }
}

/**
 * Decodes the parsed JSON of a script file. `path` only names the file in
 * the error.
 *
 * @since 0.1.0
 * @category Decoding
 */
export const decode = (json: unknown, path = "<script>"): Result.Result<Loaded, ScriptFileError> => {
  const invalid = (detail: string) => new ScriptFileError({ reason: "InvalidScript", path, detail })
  if (Array.isArray(json)) {
    return Result.mapBoth(decodeSteps(json), {
      onFailure: (error) => invalid(formatIssues(error, ["steps"])),
      onSuccess: (steps) => ({ steps: steps.map(toStep), options: {} })
    })
  }
  return Result.mapBoth(decodeScript(json), {
    onFailure: (error) => invalid(formatIssues(error)),
    onSuccess: (script) => ({
      steps: script.steps.map(toStep),
      options: {
        ...(script.side_reply !== undefined ? { sideReply: script.side_reply } : {}),
        ...(script.env !== undefined ? { env: script.env } : {})
      }
    })
  })
}

/**
 * Reads and decodes a script file.
 *
 * @since 0.1.0
 * @category Decoding
 */
export const load = (path: string): Effect.Effect<Loaded, ScriptFileError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(path).pipe(
      Effect.mapError((error) =>
        error.reason._tag === "NotFound"
          ? new ScriptFileError({ reason: "NotFound", path, detail: "no such file" })
          : new ScriptFileError({ reason: "Unreadable", path, detail: error.message })
      )
    )
    const json = yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (error) =>
        new ScriptFileError({ reason: "NotJson", path, detail: error instanceof Error ? error.message : String(error) })
    })
    return yield* Effect.fromResult(decode(json, path))
  })
