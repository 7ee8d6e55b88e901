/**
 * The inputs of the CLI's built-in tools as Schemas, after the official SDK's
 * `sdk-tools.d.ts` (CLI 2.1.328). Use them to read `tool_input` in a hook
 * (`Schema.decodeUnknownOption(ToolInputs.Bash)(input.tool_input)`) and as
 * property-test generators: every schema carries a realistic effect
 * `Arbitrary` as its `arbitrary` property, so
 * `it.prop("...", [ToolInputs.Bash.arbitrary], ...)` gets commands built from
 * shell words, flags, `rm -rf`, redirects, relative and absolute paths with
 * `..` segments, and file paths that sometimes leave the working directory
 * ({@link defaultCwd}).
 *
 * Decoding keeps fields this SDK does not know (the CLI adds some every
 * release), so a decoded input can be sent back as `updatedInput` whole.
 *
 * @since 0.1.0
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import * as shell from "./internal/shell.js"

/**
 * The working directory the default arbitraries generate paths for:
 * `/home/user/project`. `Arbitraries.bash({ cwd })` and friends take another.
 *
 * @since 0.1.0
 * @category Constants
 */
export const defaultCwd: string = shell.defaultCwd

/**
 * A schema with a realistic generator of its values (effect 4 has no
 * `arbitrary` annotation: `Arbitrary.schema` would make random values).
 *
 * @since 0.1.0
 * @category Models
 */
export interface Generated<A, E = A> extends Schema.Codec<A, E> {
  readonly arbitrary: Arbitrary.Arbitrary<A>
}

/**
 * A built-in tool's input schema: a struct that keeps unknown fields when
 * decoding, with a realistic generator of its values.
 *
 * @since 0.1.0
 * @category Models
 */
export interface ToolInput<Fields extends Schema.Struct.Fields> extends Schema.Struct<Fields> {
  readonly arbitrary: Arbitrary.Arbitrary<Schema.Struct.Type<Fields>>
}

type Field = Generated<unknown, unknown> | Schema.optionalKey<Generated<unknown, unknown>>

const generated = <A, E>(schema: Schema.Codec<A, E>, arbitrary: Arbitrary.Arbitrary<A>): Generated<A, E> =>
  Schema.make<Generated<A, E>>(schema.ast, { arbitrary })

const string = (arbitrary: Arbitrary.Arbitrary<string>): Generated<string> => generated(Schema.String, arbitrary)

const fromSchema = <A>(schema: Schema.Codec<A>): Generated<A> => generated(schema, Arbitrary.schema(schema))

const boolean = fromSchema(Schema.Boolean)

// Printable ASCII, what fast-check's `string()` made.
const printable = string(shell.matching(/^[ -~]{0,10}$/))

const literals = <const L extends ReadonlyArray<string>>(...values: L): Generated<L[number]> =>
  generated(Schema.Literals(values), shell.constantFrom(...values))

const smallInt = (min: number, max: number): Generated<number> =>
  fromSchema(Schema.Int.check(Schema.isBetween({ minimum: min, maximum: max })))

const optional = <A>(schema: Generated<A>): Schema.optionalKey<Generated<A>> => Schema.optionalKey(schema)

const array = <A, E>(
  item: Generated<A, E>,
  minLength = 0,
  maxLength?: number
): Generated<ReadonlyArray<A>, ReadonlyArray<E>> => {
  const schema = Schema.Array(item)
  const bounded = maxLength === undefined
    ? schema.check(Schema.isMinLength(minLength))
    : schema.check(Schema.isMinLength(minLength), Schema.isMaxLength(maxLength))
  return generated(bounded, Arbitrary.array(item.arbitrary, { minLength, maxLength }))
}

/** The fields' values, each optional one present in about half of them. */
const fieldsArbitrary = (fields: Readonly<Record<string, Field>>): Arbitrary.Arbitrary<Record<string, unknown>> => {
  const optionalKeys = new Set<string>()
  const arbitraries: Record<string, Arbitrary.Arbitrary<unknown>> = {}
  for (const [key, field] of Object.entries(fields)) {
    if (SchemaAST.isOptional(field.ast)) optionalKeys.add(key)
    arbitraries[key] = "schema" in field ? field.schema.arbitrary : field.arbitrary
  }
  return shell.record(arbitraries, optionalKeys)
}

const struct = <const Fields extends Readonly<Record<string, Field>>>(
  fields: Fields
): Generated<Schema.Struct.Type<Fields>, Schema.Struct.Encoded<Fields>> =>
  generated(Schema.Struct(fields), fieldsArbitrary(fields) as Arbitrary.Arbitrary<Schema.Struct.Type<Fields>>)

// Any other key, any value: effect 4 has no `onExcessProperty: "preserve"`, an index signature keeps them.
const unknownFields = [Schema.Record(Schema.String, Schema.Unknown)] as const

const toolInput = <const Fields extends Readonly<Record<string, Field>>>(
  identifier: string,
  fields: Fields
): ToolInput<Fields> => {
  const schema = Schema.StructWithRest(Schema.Struct(fields), unknownFields).annotate({ identifier })
  return Schema.make<ToolInput<Fields>>(schema.ast, {
    fields,
    arbitrary: fieldsArbitrary(fields)
  })
}

// -----------------------------------------------------------------------------
// Realistic strings
// -----------------------------------------------------------------------------

/**
 * A Bash command line. Its arbitrary mixes harmless commands, commands that
 * delete outside {@link defaultCwd} and other risky ones (`curl | sh`,
 * `git push --force`).
 *
 * @since 0.1.0
 * @category Strings
 */
export const ShellCommand: Generated<string> = generated(
  Schema.String.annotate({ identifier: "ShellCommand" }),
  shell.command(shell.defaultCwd, "any")
)

/**
 * A file path as tools receive it: mostly absolute, inside or outside
 * {@link defaultCwd}, sometimes relative or with `..` segments.
 *
 * @since 0.1.0
 * @category Strings
 */
export const FilePath: Generated<string> = generated(
  Schema.String.annotate({ identifier: "FilePath" }),
  shell.filePath(shell.defaultCwd, "any")
)

/**
 * A directory to search in (Glob, Grep): relative or absolute, inside or
 * outside {@link defaultCwd}.
 *
 * @since 0.1.0
 * @category Strings
 */
export const SearchPath: Generated<string> = generated(
  Schema.String.annotate({ identifier: "SearchPath" }),
  shell.oneOf(
    shell.insidePath(shell.defaultCwd, shell.defaultCwd, { globs: false }),
    shell.outsidePath(shell.defaultCwd, shell.defaultCwd, { globs: false }),
    Arbitrary.Constant(".")
  )
)

/**
 * A URL: mostly http(s) pages, sometimes local addresses, cloud metadata
 * endpoints, `file:` URLs or no URL at all.
 *
 * @since 0.1.0
 * @category Strings
 */
export const Url: Generated<string> = generated(Schema.String.annotate({ identifier: "Url" }), shell.url)

/**
 * A glob pattern (`**\/*.ts`, `src/**\/*.{ts,tsx}`, `../**\/*.env`).
 *
 * @since 0.1.0
 * @category Strings
 */
export const GlobPattern: Generated<string> = generated(
  Schema.String.annotate({ identifier: "GlobPattern" }),
  shell.globPattern
)

/**
 * A ripgrep regular expression (some of them invalid, as models write them).
 *
 * @since 0.1.0
 * @category Strings
 */
export const RegexPattern: Generated<string> = generated(
  Schema.String.annotate({ identifier: "RegexPattern" }),
  shell.regexPattern
)

/**
 * Free text: prompts, descriptions, file contents.
 *
 * @since 0.1.0
 * @category Strings
 */
export const Text: Generated<string> = generated(Schema.String.annotate({ identifier: "Text" }), shell.prose)

const Description = string(shell.shortDescription)

// -----------------------------------------------------------------------------
// Tools
// -----------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category Tools
 */
export const Bash = toolInput("Bash", {
  command: ShellCommand,
  /** In milliseconds (at most 600000 in the foreground). */
  timeout: optional(smallInt(1000, 600_000)),
  description: optional(Description),
  run_in_background: optional(boolean),
  dangerouslyDisableSandbox: optional(boolean)
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type Bash = typeof Bash.Type

/**
 * @since 0.1.0
 * @category Tools
 */
export const Read = toolInput("Read", {
  file_path: FilePath,
  offset: optional(smallInt(0, 5000)),
  limit: optional(smallInt(1, 2000)),
  pages: optional(string(shell.constantFrom("1-5", "3", "10-20"))),
  allow_large: optional(boolean)
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type Read = typeof Read.Type

/**
 * @since 0.1.0
 * @category Tools
 */
export const Write = toolInput("Write", {
  file_path: FilePath,
  content: Text
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type Write = typeof Write.Type

/**
 * @since 0.1.0
 * @category Tools
 */
export const Edit = toolInput("Edit", {
  file_path: FilePath,
  old_string: Text,
  new_string: Text,
  replace_all: optional(boolean)
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type Edit = typeof Edit.Type

/**
 * @since 0.1.0
 * @category Tools
 */
export const Glob = toolInput("Glob", {
  pattern: GlobPattern,
  path: optional(SearchPath)
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type Glob = typeof Glob.Type

/**
 * @since 0.1.0
 * @category Tools
 */
export const Grep = toolInput("Grep", {
  pattern: RegexPattern,
  path: optional(SearchPath),
  glob: optional(GlobPattern),
  output_mode: optional(literals("content", "files_with_matches", "count")),
  "-B": optional(smallInt(0, 20)),
  "-A": optional(smallInt(0, 20)),
  "-C": optional(smallInt(0, 20)),
  context: optional(smallInt(0, 20)),
  "-n": optional(boolean),
  "-i": optional(boolean),
  "-o": optional(boolean),
  type: optional(string(shell.constantFrom("js", "ts", "py", "rust"))),
  head_limit: optional(smallInt(0, 500)),
  offset: optional(smallInt(0, 500)),
  multiline: optional(boolean)
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type Grep = typeof Grep.Type

/**
 * @since 0.1.0
 * @category Tools
 */
export const WebFetch = toolInput("WebFetch", {
  url: Url,
  prompt: Text,
  offset: optional(smallInt(0, 100_000))
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type WebFetch = typeof WebFetch.Type

const Domain = string(shell.oneOf(shell.constantFrom("github.com", "stackoverflow.com", "example.com"), shell.domain))

/**
 * @since 0.1.0
 * @category Tools
 */
export const WebSearch = toolInput("WebSearch", {
  query: Text,
  allowed_domains: optional(array(Domain)),
  blocked_domains: optional(array(Domain))
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type WebSearch = typeof WebSearch.Type

/**
 * @since 0.1.0
 * @category Tools
 */
export const NotebookEdit = toolInput("NotebookEdit", {
  notebook_path: string(
    Arbitrary.map(
      shell.constantFrom("analysis.ipynb", "notebooks/eda.ipynb", "../shared/report.ipynb"),
      (name) => name.startsWith("..") ? name : `${shell.defaultCwd}/${name}`
    )
  ),
  cell_id: optional(string(shell.matching(/^cell-[0-9]{1,2}$/))),
  new_source: Text,
  cell_type: optional(literals("code", "markdown")),
  edit_mode: optional(literals("replace", "insert", "delete"))
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type NotebookEdit = typeof NotebookEdit.Type

/**
 * @since 0.1.0
 * @category Tools
 */
export const TodoWrite = toolInput("TodoWrite", {
  todos: array(struct({
    content: Text,
    status: literals("pending", "in_progress", "completed"),
    activeForm: Text
  }))
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type TodoWrite = typeof TodoWrite.Type

/**
 * The subagent tool (`Task` in older releases and in `system/init.tools`).
 *
 * @since 0.1.0
 * @category Tools
 */
export const Agent = toolInput("Agent", {
  description: Description,
  prompt: Text,
  subagent_type: optional(
    string(shell.constantFrom("general-purpose", "Explore", "Plan", "code-reviewer", "fork"))
  ),
  model: optional(literals("sonnet", "opus", "haiku", "fable")),
  effort: optional(literals("low", "medium", "high", "xhigh", "max")),
  run_in_background: optional(boolean),
  name: optional(printable),
  isolation: optional(literals("worktree", "remote"))
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type Agent = typeof Agent.Type

const TaskId = string(shell.matching(/^[a-z0-9]{8}$/))

/**
 * Stops a background task (`KillShell` / `KillBash` in older releases).
 *
 * @since 0.1.0
 * @category Tools
 */
export const TaskStop = toolInput("TaskStop", {
  task_id: optional(TaskId),
  shell_id: optional(TaskId)
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type TaskStop = typeof TaskStop.Type

/**
 * The CLI strips the plan: the input arrives as `{}`.
 *
 * @since 0.1.0
 * @category Tools
 */
export const ExitPlanMode = toolInput("ExitPlanMode", {
  allowedPrompts: optional(array(struct({ tool: literals("Bash"), prompt: Text })))
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type ExitPlanMode = typeof ExitPlanMode.Type

const QuestionOption = struct({
  label: string(shell.constantFrom("Yes", "No", "Blue", "Red", "Later")),
  description: Text,
  preview: optional(printable)
})

/**
 * @since 0.1.0
 * @category Tools
 */
export const AskUserQuestion = toolInput("AskUserQuestion", {
  questions: array(
    struct({
      question: string(shell.constantFrom("Which color?", "Which library should we use?", "Proceed with the plan?")),
      header: generated(Schema.String.check(Schema.isMaxLength(12)), shell.matching(/^[ -~]{0,12}$/)),
      options: array(QuestionOption, 2, 4),
      multiSelect: optional(boolean)
    }),
    1,
    4
  )
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type AskUserQuestion = typeof AskUserQuestion.Type

/**
 * Every built-in tool's input schema, by tool name.
 *
 * @since 0.1.0
 * @category Tools
 */
export const byName = {
  Agent,
  AskUserQuestion,
  Bash,
  Edit,
  ExitPlanMode,
  Glob,
  Grep,
  NotebookEdit,
  Read,
  TaskStop,
  TodoWrite,
  WebFetch,
  WebSearch,
  Write
} as const

/**
 * The name of a built-in tool with a schema here.
 *
 * @since 0.1.0
 * @category Tools
 */
export type ToolName = keyof typeof byName

/**
 * The input of a built-in tool, by name.
 *
 * @since 0.1.0
 * @category Tools
 */
export type Input<Name extends ToolName> = (typeof byName)[Name]["Type"]
