/**
 * How every error message of the SDK says what is wrong in a value: one
 * line per problem, the field named by a path written as code would reach it
 * (`mcpServers["my-server"].args[0]`, `hookSpecificOutput.permissionDecision`),
 * and the branches of a union that all rejected the same value merged into one
 * `Expected "a" | "b", actual "c"`.
 *
 * The lines read as they did on effect 3 (`is missing`, `Expected X, actual
 * Y`): effect 4's formatter says `Missing key` and `Expected X, got Y`, and
 * the messages are part of what users match on in logs.
 *
 * @internal
 */
import { format } from "effect/Formatter"
import * as SchemaAST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/**
 * `["mcpServers", "my-server", "args", 0]` → `mcpServers["my-server"].args[0]`;
 * the empty path → `whole` (what the value itself is called: `(options)`,
 * `(arguments)`, or nothing).
 *
 * @internal
 */
export const formatPath = (path: ReadonlyArray<PropertyKey>, whole = ""): string => {
  let out = ""
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`
    else if (typeof segment === "symbol") out += `[${String(segment)}]`
    else if (IDENTIFIER.test(segment)) out += out.length === 0 ? segment : `.${segment}`
    else out += `[${JSON.stringify(segment)}]`
  }
  return out.length === 0 ? whole : out
}

/**
 * One thing wrong in a value: where, and what. When the message is
 * `Expected X, actual Y`, `expected` lists every X (one per union branch)
 * and `actual` is Y.
 *
 * @internal
 */
export interface Problem {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  readonly expected?: ReadonlyArray<string>
  readonly actual?: string
}

const EXPECTED = "Expected "
const ACTUAL = ", actual "
// effect 4's wording of the same message
const GOT = ", got "

/**
 * `Expected X, actual Y` split at its first `, actual ` (the expected side
 * is a schema's description; the actual side may be any text the value had).
 *
 * @internal
 */
export const splitExpected = (
  message: string
): { readonly expected: string; readonly actual: string } | undefined => {
  if (!message.startsWith(EXPECTED)) return undefined
  const at = message.indexOf(ACTUAL)
  return at < 0
    ? undefined
    : { expected: message.slice(EXPECTED.length, at), actual: message.slice(at + ACTUAL.length) }
}

const samePath = (a: ReadonlyArray<PropertyKey>, b: ReadonlyArray<PropertyKey>): boolean =>
  a.length === b.length && a.every((segment, i) => segment === b[i])

/**
 * The problems of a list of issues, `Expected "a", actual "c"` and
 * `Expected "b", actual "c"` at one path merged into
 * `Expected "a" | "b", actual "c"`, and a problem said twice at one path said
 * once.
 *
 * @internal
 */
export const mergeUnionBranches = (
  issues: Iterable<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>
): Array<Problem> => {
  const merged: Array<Problem> = []
  for (const { message, path } of issues) {
    const split = splitExpected(message)
    const index = merged.findIndex((other) =>
      samePath(other.path, path) &&
      (split === undefined ? other.message === message : other.actual === split.actual)
    )
    if (index < 0) {
      merged.push(
        split === undefined ? { path, message } : { path, message, expected: [split.expected], actual: split.actual }
      )
      continue
    }
    const other = merged[index]
    if (split === undefined || other.expected!.includes(split.expected)) continue
    const expected = [...other.expected!, split.expected]
    merged[index] = {
      path,
      expected,
      actual: split.actual,
      message: `${EXPECTED}${expected.join(" | ")}${ACTUAL}${split.actual}`
    }
  }
  return merged
}

// `Missing key` said as effect 3 said it.
const leafHook: SchemaIssue.LeafHook = (issue) =>
  issue._tag === "MissingKey" ? "is missing" : SchemaIssue.defaultLeafHook(issue)

const flatten = SchemaIssue.makeFormatterStandardSchemaV1({ leafHook })

// `Expected X, got Y` (effect 4) → `Expected X, actual Y` (what the SDK has always written).
const withActual = (message: string): string => {
  if (!message.startsWith(EXPECTED)) return message
  const at = message.indexOf(GOT)
  return at < 0 ? message : `${message.slice(0, at)}${ACTUAL}${message.slice(at + GOT.length)}`
}

/**
 * The problems of an issue (see {@link mergeUnionBranches}). The issue should
 * come from a parse with `reportInput: true`, for the `actual` side.
 *
 * @internal
 */
export const problemsOf = (issue: SchemaIssue.Issue): Array<Problem> => mergeUnionBranches(walk(issue, []))

const walk = (
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<PropertyKey>
): Array<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }> => {
  switch (issue._tag) {
    case "Pointer":
      return walk(issue.issue, [...path, ...issue.path])
    case "Encoding":
      return walk(issue.issue, path)
    case "Composite":
      return issue.issues.flatMap((inner) => walk(inner, path))
    case "AnyOf":
      if (issue.issues.length > 0) return issue.issues.flatMap((inner) => walk(inner, path))
      return discriminatorProblem(issue, path) ?? leaves(issue, path)
    default:
      return leaves(issue, path)
  }
}

const leaves = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>) =>
  flatten(issue).issues.map((problem) => ({
    path: [...path, ...(problem.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment)],
    message: withActual(problem.message)
  }))

// No member's tag matched (effect 4 then names the whole value): name the tag field, as effect 3 did.
const discriminatorProblem = (issue: SchemaIssue.AnyOf, path: ReadonlyArray<PropertyKey>) => {
  const input = issue.input
  if (typeof input !== "object" || input === null) return undefined
  const members = issue.ast.types.map(SchemaAST.toEncoded)
  if (!members.every(SchemaAST.isObjects) || members.length === 0) return undefined
  for (const { name, type } of members[0].propertySignatures) {
    const literals = members.map((member) => {
      const field = member.propertySignatures.find((signature) => signature.name === name)?.type
      return field !== undefined && SchemaAST.isLiteral(field) ? field.literal : undefined
    })
    if (!SchemaAST.isLiteral(type) || literals.includes(undefined)) continue
    const expected = [...new Set(literals.map((literal) => JSON.stringify(literal)))].join(" | ")
    const actual = (input as Record<PropertyKey, unknown>)[name]
    return [{
      path: [...path, name],
      message: name in input ? `${EXPECTED}${expected}${ACTUAL}${format(actual)}` : "is missing"
    }]
  }
  return undefined
}

/**
 * A problem as a line, `path: message` (the message alone at the empty path
 * when the value itself has no name).
 *
 * @internal
 */
export const problemLine = (problem: Problem, whole = ""): string => {
  const where = formatPath(problem.path, whole)
  return where.length > 0 ? `${where}: ${problem.message}` : problem.message
}

/**
 * Lines joined, at most `max` of them (then `and N more`).
 *
 * @internal
 */
export const joinLines = (lines: ReadonlyArray<string>, separator: string, max = Infinity): string =>
  lines.length <= max
    ? lines.join(separator)
    : `${lines.slice(0, max).join(separator)}${separator}and ${lines.length - max} more`

/**
 * What is wrong in a value, one line per problem: `tags[1]: Expected
 * string, actual 2; size: Expected "S" | "M", actual "XL"`.
 *
 * @internal
 */
export const describe = (
  issue: SchemaIssue.Issue,
  options?: { readonly whole?: string; readonly separator?: string; readonly max?: number }
): string =>
  joinLines(
    problemsOf(issue).map((problem) => problemLine(problem, options?.whole)),
    options?.separator ?? "; ",
    options?.max
  )
