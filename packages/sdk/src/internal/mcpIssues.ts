/**
 * What is wrong with a value a Schema rejected, as the MCP server says it to
 * the model: one line per problem, `path: message`, with the value given
 * (`reportInput`). Small on purpose; it may merge with the session's own issue
 * formatter when that is ported.
 *
 * @internal
 */
import type * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"

/** Decode options of everything the server decodes for a handler: every problem, with the value given. @internal */
export const decodeOptions: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "ignore", reportInput: true }

/** @internal */
export interface Problem {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** @internal */
export const problemsOf = (error: Schema.SchemaError): ReadonlyArray<Problem> =>
  formatter(error.issue).issues.map((issue) => ({
    path: (issue.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment),
    message: issue.message
  }))

/** `sku`, `tags[1]`, `address.city`; `root` for the value itself. @internal */
export const pathOf = (path: ReadonlyArray<PropertyKey>, root: string): string => {
  let out = ""
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : out.length === 0 ? String(key) : `.${String(key)}`
  }
  return out.length === 0 ? root : out
}

/** `header:` then `- path: message`, one line per problem (the CLI hands it to the model verbatim). @internal */
export const problemsMessage = (header: string, root: string, error: Schema.SchemaError): string =>
  `${header}:\n${problemsOf(error).map((problem) => `- ${pathOf(problem.path, root)}: ${problem.message}`).join("\n")}`

/** The problems on one line. @internal */
export const describe = (error: Schema.SchemaError, root: string): string =>
  problemsOf(error).map((problem) => `${pathOf(problem.path, root)}: ${problem.message}`).join("; ")
