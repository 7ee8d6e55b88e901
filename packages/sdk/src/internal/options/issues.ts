/**
 * Turns a Schema parse issue into a short, path-qualified message that never
 * shows a value that may be secret: values under `env`, `headers`, `args`,
 * `extraArgs`, `settings`, `managedSettings` or a secret-looking key are
 * hidden, and objects and arrays are described, never printed.
 *
 * @internal
 */
import * as ParseResult from "effect/ParseResult"
import * as AST from "effect/SchemaAST"
import { formatPath as formatIssuePath, mergeUnionBranches, problemLine, splitExpected } from "../issuePath.js"
import { isSecretEnvKey, REDACTED } from "./secrets.js"

const SENSITIVE_SEGMENTS: ReadonlySet<string> = new Set([
  "env",
  "headers",
  "args",
  "extraArgs",
  "settings",
  "managedSettings"
])

/** @internal */
export const isSensitivePath = (path: ReadonlyArray<PropertyKey>): boolean =>
  path.some((segment) => typeof segment === "string" && (SENSITIVE_SEGMENTS.has(segment) || isSecretEnvKey(segment)))

/**
 * `["mcpServers", "my-server", "args", 0]` → `mcpServers["my-server"].args[0]`.
 *
 * @internal
 */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string => formatIssuePath(path, "(options)")

const MAX_SHOWN_STRING = 42
const MAX_EXPECTED = 160

/**
 * How the actual value is shown: never under a sensitive path, never as an
 * object or array, and a string only where a fixed word was expected (an
 * enumeration such as `permissionMode`), short; elsewhere it could be a secret
 * put in the wrong place.
 */
const describeActual = (actual: string, expected: string, sensitive: boolean): string => {
  if (sensitive) return REDACTED
  if (actual.startsWith("{")) return "an object"
  if (actual.startsWith("[")) return "an array"
  if (actual.startsWith("\"")) {
    return expected.startsWith("\"") && actual.length <= MAX_SHOWN_STRING ? actual : "a string"
  }
  return actual
}

const shortenExpected = (expected: string): string =>
  expected.length <= MAX_EXPECTED ? expected : `${expected.slice(0, MAX_EXPECTED)}…`

/**
 * Options of the official SDK that are not options here, each with why and
 * what to use instead (docs/official-sdk.md has the whole mapping).
 */
const NOT_OPTIONS: Readonly<Record<string, string>> = {
  canUseTool: "use PermissionGate.layer(handler) instead",
  hooks: "use HookLayer (hooks are Layers) instead",
  abortController: "interrupt the fiber, stream or scope instead",
  spawnClaudeCodeProcess: "provide a CliSpawner service instead (NodeCliSpawner.layer on Node, or a spawner of " +
    "your own that returns the process's pipes)",
  pathToClaudeCodeExecutable: "use `executable` (the path to the claude binary)",
  executableArgs: "not supported: the CLI is a native binary",
  onElicitation: "use ElicitationHandler.layer(handler) instead",
  onUserDialog: "use UserDialog.layer(handler, { kinds }) instead",
  supportedDialogKinds: "declare them with UserDialog.layer(handler, { kinds }) instead",
  sessionStore: "provide a SessionStore service instead (SessionStore.layerMemory, SqlSessionStore.layer from " +
    "@claude-effect/sql, or SessionStore.make): every session started in its context mirrors to it",
  prompt: "the prompt is the first argument of ClaudeCode.query"
}

const QUOTED = /"((?:[^"\\]|\\.)*)"/g

const levenshtein = (a: string, b: string): number => {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]
    previous[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]
      previous[j] = Math.min(
        previous[j] + 1,
        previous[j - 1] + 1,
        diagonal + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1)
      )
      diagonal = above
    }
  }
  return previous[b.length]
}

const suggest = (name: string, candidates: ReadonlyArray<string>): string | undefined => {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const distance = levenshtein(name, candidate)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 4)) ? best : undefined
}

const unexpectedMessage = (path: ReadonlyArray<PropertyKey>, message: string): string => {
  const key = path[path.length - 1]
  const what = path.length === 1 ? "unknown option" : "unknown field"
  if (typeof key !== "string") return what
  if (path.length === 1 && key in NOT_OPTIONS) return `not an option: ${NOT_OPTIONS[key]}`
  const expectedAt = message.indexOf("expected:")
  const candidates = expectedAt < 0
    ? []
    : Array.from(message.slice(expectedAt).matchAll(QUOTED), (m) => JSON.parse(`"${m[1]}"`) as string)
  const suggestion = suggest(key, candidates)
  return suggestion === undefined ? what : `${what} (did you mean ${JSON.stringify(suggestion)}?)`
}

/** An issue as shown: an unknown field's own message, the actual value hidden or described. */
const toEntry = (
  issue: ParseResult.ArrayFormatterIssue
): { readonly path: ReadonlyArray<PropertyKey>; readonly message: string } => {
  if (issue._tag === "Unexpected") return { path: issue.path, message: unexpectedMessage(issue.path, issue.message) }
  const split = splitExpected(issue.message)
  if (split === undefined) {
    // Messages of our own filters never include the value.
    return issue
  }
  const expected = shortenExpected(split.expected)
  return {
    path: issue.path,
    message: `Expected ${expected}, actual ${describeActual(split.actual, expected, isSensitivePath(issue.path))}`
  }
}

// -----------------------------------------------------------------------------
// union pruning
// -----------------------------------------------------------------------------

const toArray = <A>(single: A | ReadonlyArray<A>): ReadonlyArray<A> =>
  Array.isArray(single) ? single as ReadonlyArray<A> : [single as A]

const pointerKey = (pointer: ParseResult.Pointer): PropertyKey | undefined => {
  const path = toArray(pointer.path)
  return path.length === 1 ? path[0] : undefined
}

const isLiterals = (ast: AST.AST): boolean => AST.isLiteral(ast) || (AST.isUnion(ast) && ast.types.every(AST.isLiteral))

/** A member that rejected the value on its `type` literal (or a missing `type`). */
const discriminatorPointers = (issue: ParseResult.ParseIssue): ReadonlyArray<ParseResult.Pointer> | undefined => {
  const children = issue._tag === "Composite" ? toArray(issue.issues) : issue._tag === "Pointer" ? [issue] : []
  const pointers = children.filter((child): child is ParseResult.Pointer =>
    child._tag === "Pointer" && pointerKey(child) === "type" &&
    (child.issue._tag === "Missing" || (child.issue._tag === "Type" && isLiterals(child.issue.ast)))
  )
  return pointers.length > 0 ? pointers : undefined
}

const isObject = (u: unknown): boolean => typeof u === "object" && u !== null

/** A member that rejected the value by its kind (a string where an object was expected, ...). */
const isKindRejection = (issue: ParseResult.ParseIssue): boolean =>
  issue._tag === "Type" ||
  (issue._tag === "Refinement" && issue.kind === "From" && isKindRejection(issue.issue)) ||
  (issue._tag === "Transformation" && issue.kind === "Encoded" && isKindRejection(issue.issue))

/**
 * Keeps the union branches that explain the failure: branches that got into
 * the value beat branches that rejected it by its kind or its `type`
 * discriminator; when every branch rejected it outright, one
 * `Expected A | B, actual ...` stands for all of them.
 */
const pruneUnion = (issue: ParseResult.Composite): ParseResult.ParseIssue => {
  const members = toArray(issue.issues)
  const kind: Array<ParseResult.ParseIssue> = []
  const discriminated: Array<ReadonlyArray<ParseResult.Pointer>> = []
  const deep: Array<ParseResult.ParseIssue> = []
  for (const member of members) {
    if (isKindRejection(member)) {
      kind.push(member)
      continue
    }
    const pointers = discriminatorPointers(member)
    if (pointers !== undefined) discriminated.push(pointers)
    else deep.push(member)
  }
  if (deep.length > 0) {
    return deep.length === 1 ? deep[0] : new ParseResult.Composite(issue.ast, issue.actual, deep as never, issue.output)
  }
  if (discriminated.length > 0 && isObject(issue.actual) && !Array.isArray(issue.actual)) {
    const pointers = discriminated.flat()
    return pointers.length === 1
      ? pointers[0]
      : new ParseResult.Composite(issue.ast, issue.actual, pointers as never, issue.output)
  }
  return new ParseResult.Type(issue.ast, issue.actual)
}

const simplify = (issue: ParseResult.ParseIssue): ParseResult.ParseIssue => {
  switch (issue._tag) {
    case "Pointer":
      return new ParseResult.Pointer(issue.path, issue.actual, simplify(issue.issue))
    case "Refinement":
      return new ParseResult.Refinement(issue.ast, issue.actual, issue.kind, simplify(issue.issue))
    case "Transformation":
      return new ParseResult.Transformation(issue.ast, issue.actual, issue.kind, simplify(issue.issue))
    case "Composite": {
      const issues = toArray(issue.issues).map(simplify)
      const simplified = new ParseResult.Composite(issue.ast, issue.actual, issues as never, issue.output)
      return AST.isUnion(issue.ast) ? pruneUnion(simplified) : simplified
    }
    default:
      return issue
  }
}

/**
 * One line per problem, `path: message`, with the branches of a failed union
 * at the same path merged (`Expected "a" | "b", actual "c"`).
 *
 * @internal
 */
export const formatIssue = (issue: ParseResult.ParseIssue): ReadonlyArray<string> =>
  mergeUnionBranches(ParseResult.ArrayFormatter.formatIssueSync(simplify(issue)).map(toEntry))
    .map((problem) => problemLine(problem, "(options)"))
