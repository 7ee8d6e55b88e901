/**
 * The CLI's own tools as `effect/ai` provider-defined tools. Put one in the
 * toolkit of a request and the agent's calls of that tool appear in the
 * response as typed `tool-call` and `tool-result` parts (`providerExecuted`:
 * the agent ran them), instead of only in the finish metadata.
 *
 * ```ts
 * const Builtins = Toolkit.make(ClaudeCodeTool.Bash, ClaudeCodeTool.Write)
 * const response = yield* LanguageModel.generateText({ prompt, toolkit: Builtins })
 * const bash = Schema.decodeUnknownSync(ClaudeCodeTool.Bash.parametersSchema)
 * for (const call of response.toolCalls) if (call.name === "ClaudeCodeBash") console.log(bash(call.params).command)
 * ```
 *
 * They need no handler and enable nothing: which built-in tools the agent
 * may use is the `tools`, `allowedTools` and `disallowedTools` options, the
 * permission mode, the hooks and the gate. A result is the tool's
 * structured output as the CLI reports it (Bash: `{ stdout, stderr, ... }`),
 * or its text; a failure (an error, a denial) is the text the model got.
 *
 * @since 0.1.0
 */
import * as AiTool from "effect/ai/Tool"
import * as Schema from "effect/Schema"
import * as internal from "./internal/tools.js"

/**
 * The prefix of the ids of these tools.
 *
 * @since 0.1.0
 * @category Constants
 */
export const idPrefix: string = internal.idPrefix

const builtin = <const Name extends string, const Fields extends Schema.Struct.Fields>(
  customName: Name,
  providerName: string,
  parameters: Fields
) =>
  AiTool.providerDefined({
    id: `${internal.idPrefix}${providerName.toLowerCase()}`,
    customName,
    providerName,
    args: Schema.Struct({}),
    parameters: Schema.Struct(parameters),
    success: Schema.Unknown,
    failure: Schema.String
  })({})

const optional = Schema.optional

/**
 * `Bash`: runs a shell command.
 *
 * @since 0.1.0
 * @category Tools
 */
export const Bash = builtin("ClaudeCodeBash", "Bash", {
  command: Schema.String,
  description: optional(Schema.String),
  timeout: optional(Schema.Number),
  run_in_background: optional(Schema.Boolean)
})

/**
 * `Read`: reads a file.
 *
 * @since 0.1.0
 * @category Tools
 */
export const Read = builtin("ClaudeCodeRead", "Read", {
  file_path: Schema.String,
  offset: optional(Schema.Number),
  limit: optional(Schema.Number),
  pages: optional(Schema.String)
})

/**
 * `Write`: writes a file.
 *
 * @since 0.1.0
 * @category Tools
 */
export const Write = builtin("ClaudeCodeWrite", "Write", {
  file_path: Schema.String,
  content: Schema.String
})

/**
 * `Edit`: replaces text in a file.
 *
 * @since 0.1.0
 * @category Tools
 */
export const Edit = builtin("ClaudeCodeEdit", "Edit", {
  file_path: Schema.String,
  old_string: Schema.String,
  new_string: Schema.String,
  replace_all: optional(Schema.Boolean)
})

/**
 * `Glob`: finds files by pattern.
 *
 * @since 0.1.0
 * @category Tools
 */
export const Glob = builtin("ClaudeCodeGlob", "Glob", {
  pattern: Schema.String,
  path: optional(Schema.String)
})

/**
 * `Grep`: searches file contents.
 *
 * @since 0.1.0
 * @category Tools
 */
export const Grep = builtin("ClaudeCodeGrep", "Grep", {
  pattern: Schema.String,
  path: optional(Schema.String),
  glob: optional(Schema.String),
  output_mode: optional(Schema.String)
})

/**
 * `WebFetch`: fetches a URL and reads it with a prompt.
 *
 * @since 0.1.0
 * @category Tools
 */
export const WebFetch = builtin("ClaudeCodeWebFetch", "WebFetch", {
  url: Schema.String,
  prompt: Schema.String
})

/**
 * `WebSearch`: searches the web.
 *
 * @since 0.1.0
 * @category Tools
 */
export const WebSearch = builtin("ClaudeCodeWebSearch", "WebSearch", {
  query: Schema.String,
  allowed_domains: optional(Schema.Array(Schema.String)),
  blocked_domains: optional(Schema.Array(Schema.String))
})

/**
 * `Agent`: runs a subagent (its own calls are in the finish metadata, under
 * this call's id).
 *
 * @since 0.1.0
 * @category Tools
 */
export const Agent = builtin("ClaudeCodeAgent", "Agent", {
  description: Schema.String,
  prompt: Schema.String,
  subagent_type: optional(Schema.String)
})

/**
 * Whether a tool is one of these (its id starts with {@link idPrefix}).
 *
 * @since 0.1.0
 * @category Guards
 */
export const isClaudeCodeTool: (tool: AiTool.Any) => tool is AiTool.AnyProviderDefined = internal.isClaudeCodeTool
