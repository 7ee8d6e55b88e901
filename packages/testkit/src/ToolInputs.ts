/**
 * The inputs of the CLI's built-in tools as Schemas, after the official SDK's
 * `sdk-tools.d.ts` (CLI 2.1.328). Use them to read `tool_input` in a hook
 * (`Schema.decodeUnknownOption(ToolInputs.Bash)(input.tool_input)`) and as
 * property-test generators: every schema carries a realistic arbitrary, so
 * `it.prop("...", [ToolInputs.Bash], ...)` gets commands built from shell
 * words, flags, `rm -rf`, redirects, relative and absolute paths with `..`
 * segments, and file paths that sometimes leave the working directory
 * ({@link defaultCwd}).
 *
 * Decoding keeps fields this SDK does not know (the CLI adds some every
 * release), so a decoded input can be sent back as `updatedInput` whole.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import * as shell from "./internal/shell.js"

/**
 * The working directory the default arbitraries generate paths for:
 * `/home/user/project`. `Arbitraries.bash({ cwd })` and friends take another.
 *
 * @since 0.1.0
 * @category Constants
 */
export const defaultCwd: string = shell.defaultCwd

const optional = <S extends Schema.Schema.All>(schema: S): Schema.optionalWith<S, { exact: true }> =>
  Schema.optionalWith(schema, { exact: true })

const toolInput = <Fields extends Schema.Struct.Fields>(identifier: string, fields: Fields): Schema.Struct<Fields> =>
  Schema.Struct(fields).annotations({ identifier, parseOptions: { onExcessProperty: "preserve" } })

const smallInt = (min: number, max: number) =>
  Schema.Int.annotations({ arbitrary: () => (fc) => fc.integer({ min, max }) })

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
export const ShellCommand: Schema.Schema<string> = Schema.String.annotations({
  identifier: "ShellCommand",
  arbitrary: () => () => shell.command(shell.defaultCwd, "any")
})

/**
 * A file path as tools receive it: mostly absolute, inside or outside
 * {@link defaultCwd}, sometimes relative or with `..` segments.
 *
 * @since 0.1.0
 * @category Strings
 */
export const FilePath: Schema.Schema<string> = Schema.String.annotations({
  identifier: "FilePath",
  arbitrary: () => () => shell.filePath(shell.defaultCwd, "any")
})

/**
 * A directory to search in (Glob, Grep): relative or absolute, inside or
 * outside {@link defaultCwd}.
 *
 * @since 0.1.0
 * @category Strings
 */
export const SearchPath: Schema.Schema<string> = Schema.String.annotations({
  identifier: "SearchPath",
  arbitrary: () => (fc) =>
    fc.oneof(
      shell.insidePath(shell.defaultCwd, shell.defaultCwd, { globs: false }),
      shell.outsidePath(shell.defaultCwd, shell.defaultCwd, { globs: false }),
      fc.constant(".")
    )
})

/**
 * A URL: mostly http(s) pages, sometimes local addresses, cloud metadata
 * endpoints, `file:` URLs or no URL at all.
 *
 * @since 0.1.0
 * @category Strings
 */
export const Url: Schema.Schema<string> = Schema.String.annotations({
  identifier: "Url",
  arbitrary: () => () => shell.url
})

/**
 * A glob pattern (`**\/*.ts`, `src/**\/*.{ts,tsx}`, `../**\/*.env`).
 *
 * @since 0.1.0
 * @category Strings
 */
export const GlobPattern: Schema.Schema<string> = Schema.String.annotations({
  identifier: "GlobPattern",
  arbitrary: () => () => shell.globPattern
})

/**
 * A ripgrep regular expression (some of them invalid, as models write them).
 *
 * @since 0.1.0
 * @category Strings
 */
export const RegexPattern: Schema.Schema<string> = Schema.String.annotations({
  identifier: "RegexPattern",
  arbitrary: () => () => shell.regexPattern
})

/**
 * Free text: prompts, descriptions, file contents.
 *
 * @since 0.1.0
 * @category Strings
 */
export const Text: Schema.Schema<string> = Schema.String.annotations({
  identifier: "Text",
  arbitrary: () => () => shell.prose
})

const Description = Schema.String.annotations({ arbitrary: () => () => shell.shortDescription })

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
  run_in_background: optional(Schema.Boolean),
  dangerouslyDisableSandbox: optional(Schema.Boolean)
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
  pages: optional(Schema.String.annotations({ arbitrary: () => (fc) => fc.constantFrom("1-5", "3", "10-20") })),
  allow_large: optional(Schema.Boolean)
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
  replace_all: optional(Schema.Boolean)
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
  output_mode: optional(Schema.Literal("content", "files_with_matches", "count")),
  "-B": optional(smallInt(0, 20)),
  "-A": optional(smallInt(0, 20)),
  "-C": optional(smallInt(0, 20)),
  context: optional(smallInt(0, 20)),
  "-n": optional(Schema.Boolean),
  "-i": optional(Schema.Boolean),
  "-o": optional(Schema.Boolean),
  type: optional(Schema.String.annotations({ arbitrary: () => (fc) => fc.constantFrom("js", "ts", "py", "rust") })),
  head_limit: optional(smallInt(0, 500)),
  offset: optional(smallInt(0, 500)),
  multiline: optional(Schema.Boolean)
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

const Domain = Schema.String.annotations({
  arbitrary: () => (fc) => fc.oneof(fc.constantFrom("github.com", "stackoverflow.com", "example.com"), fc.domain())
})

/**
 * @since 0.1.0
 * @category Tools
 */
export const WebSearch = toolInput("WebSearch", {
  query: Text,
  allowed_domains: optional(Schema.Array(Domain)),
  blocked_domains: optional(Schema.Array(Domain))
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
  notebook_path: Schema.String.annotations({
    arbitrary: () => (fc) =>
      fc.constantFrom("analysis.ipynb", "notebooks/eda.ipynb", "../shared/report.ipynb").map((name) =>
        name.startsWith("..") ? name : `${shell.defaultCwd}/${name}`
      )
  }),
  cell_id: optional(Schema.String.annotations({ arbitrary: () => (fc) => fc.stringMatching(/^cell-[0-9]{1,2}$/) })),
  new_source: Text,
  cell_type: optional(Schema.Literal("code", "markdown")),
  edit_mode: optional(Schema.Literal("replace", "insert", "delete"))
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
  todos: Schema.Array(Schema.Struct({
    content: Text,
    status: Schema.Literal("pending", "in_progress", "completed"),
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
    Schema.String.annotations({
      arbitrary: () => (fc) => fc.constantFrom("general-purpose", "Explore", "Plan", "code-reviewer", "fork")
    })
  ),
  model: optional(Schema.Literal("sonnet", "opus", "haiku", "fable")),
  effort: optional(Schema.Literal("low", "medium", "high", "xhigh", "max")),
  run_in_background: optional(Schema.Boolean),
  name: optional(Schema.String),
  isolation: optional(Schema.Literal("worktree", "remote"))
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type Agent = typeof Agent.Type

const TaskId = Schema.String.annotations({ arbitrary: () => (fc) => fc.stringMatching(/^[a-z0-9]{8}$/) })

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
  allowedPrompts: optional(Schema.Array(Schema.Struct({ tool: Schema.Literal("Bash"), prompt: Text })))
})

/**
 * @since 0.1.0
 * @category Tools
 */
export type ExitPlanMode = typeof ExitPlanMode.Type

const QuestionOption = Schema.Struct({
  label: Schema.String.annotations({ arbitrary: () => (fc) => fc.constantFrom("Yes", "No", "Blue", "Red", "Later") }),
  description: Text,
  preview: optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category Tools
 */
export const AskUserQuestion = toolInput("AskUserQuestion", {
  questions: Schema.Array(Schema.Struct({
    question: Schema.String.annotations({
      arbitrary: () => (fc) => fc.constantFrom("Which color?", "Which library should we use?", "Proceed with the plan?")
    }),
    header: Schema.String.pipe(Schema.maxLength(12)),
    options: Schema.Array(QuestionOption).pipe(Schema.minItems(2), Schema.maxItems(4)),
    multiSelect: optional(Schema.Boolean)
  })).pipe(Schema.minItems(1), Schema.maxItems(4))
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
export type Input<Name extends ToolName> = Schema.Schema.Type<(typeof byName)[Name]>
