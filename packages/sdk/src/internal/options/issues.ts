/**
 * Turns a Schema issue into short, path-qualified messages that never show a
 * value that may be secret: values under `env`, `headers`, `args`,
 * `extraArgs`, `settings`, `managedSettings` or a secret-looking key are
 * hidden, and objects and arrays are described, never printed.
 *
 * The lines read as on effect 3 (`is missing`, `Expected X, actual Y`,
 * `unknown option (did you mean ...?)`). Effect 4's formatter prints the
 * rejected value itself (`got ...`), so the issue tree is walked here: each
 * message is made from the schema's expectation and a description of the
 * value, never from the value's text.
 *
 * @internal
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import { formatPath as formatIssuePath, mergeUnionBranches, problemLine } from "../issuePath.js"
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
const describeActual = (actual: unknown, expected: string, sensitive: boolean): string => {
  if (sensitive) return REDACTED
  switch (typeof actual) {
    case "string": {
      const quoted = JSON.stringify(actual)
      return expected.startsWith("\"") && quoted.length <= MAX_SHOWN_STRING ? quoted : "a string"
    }
    case "number":
    case "boolean":
    case "undefined":
      return String(actual)
    case "bigint":
      return `${actual}n`
    case "function":
      return "a function"
    case "symbol":
      return "a symbol"
  }
  if (actual === null) return "null"
  return Array.isArray(actual) ? "an array" : "an object"
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

/** The field names a struct declares (the candidates of a suggestion). */
const declaredNames = (ast: SchemaAST.AST): ReadonlyArray<string> =>
  SchemaAST.isObjects(ast)
    ? ast.propertySignatures.flatMap((signature) => typeof signature.name === "string" ? [signature.name] : [])
    : []

const unexpectedMessage = (path: ReadonlyArray<PropertyKey>, ast: SchemaAST.AST): string => {
  const key = path[path.length - 1]
  const what = path.length === 1 ? "unknown option" : "unknown field"
  if (typeof key !== "string") return what
  if (path.length === 1 && key in NOT_OPTIONS) return `not an option: ${NOT_OPTIONS[key]}`
  const suggestion = suggest(key, declaredNames(ast))
  return suggestion === undefined ? what : `${what} (did you mean ${JSON.stringify(suggestion)}?)`
}

// -----------------------------------------------------------------------------
// expectations
// -----------------------------------------------------------------------------

const EXPECTED = "Expected "

const stripExpected = (message: string): string =>
  message.startsWith(EXPECTED) ? message.slice(EXPECTED.length) : message

// An issue built without its input formats as `Expected X` alone: X is the schema's own expectation.
const formatUnion = SchemaIssue.makeFormatterDefault()

const expectedOfType = (ast: SchemaAST.AST): string =>
  stripExpected(SchemaIssue.defaultLeafHook(new SchemaIssue.InvalidType(ast)))

const expectedOfUnion = (ast: SchemaAST.Union): string => stripExpected(formatUnion(new SchemaIssue.AnyOf(ast, [])))

const expectedOfCheck = (check: SchemaAST.Check<unknown>): string => {
  const expected = check.annotations?.expected
  if (typeof expected === "string") return expected
  return check._tag === "Filter" ? "<filter>" : check.checks.map(expectedOfCheck).join(" & ")
}

const inputOf = (issue: SchemaIssue.Issue): { readonly value: unknown } | undefined =>
  SchemaIssue.hasInput(issue) ? { value: issue.input } : undefined

interface Entry {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const expectedEntry = (
  path: ReadonlyArray<PropertyKey>,
  expected: string,
  input: { readonly value: unknown } | undefined
): Entry => {
  const shown = shortenExpected(expected)
  return {
    path,
    message: input === undefined
      ? `${EXPECTED}${shown}`
      : `${EXPECTED}${shown}, actual ${describeActual(input.value, shown, isSensitivePath(path))}`
  }
}

// -----------------------------------------------------------------------------
// union pruning
// -----------------------------------------------------------------------------

const isLiterals = (ast: SchemaAST.AST): boolean =>
  SchemaAST.isLiteral(ast) || (SchemaAST.isUnion(ast) && ast.types.every(SchemaAST.isLiteral))

const DISCRIMINATOR = "type"

const isDiscriminatorPointer = (issue: SchemaIssue.Issue): issue is SchemaIssue.Pointer =>
  issue._tag === "Pointer" && issue.path.length === 1 && issue.path[0] === DISCRIMINATOR &&
  (issue.issue._tag === "MissingKey" || (issue.issue._tag === "InvalidType" && isLiterals(issue.issue.ast)))

/** A member that rejected the value on its `type` literal (or a missing `type`). */
const discriminatorPointers = (issue: SchemaIssue.Issue): ReadonlyArray<SchemaIssue.Pointer> | undefined => {
  const children: ReadonlyArray<SchemaIssue.Issue> = issue._tag === "Composite"
    ? issue.issues
    : issue._tag === "Pointer"
    ? [issue]
    : []
  const pointers = children.filter(isDiscriminatorPointer)
  return pointers.length > 0 ? pointers : undefined
}

/** A member that rejected the value by its kind (a string where an object was expected, ...). */
const isKindRejection = (issue: SchemaIssue.Issue): boolean =>
  issue._tag === "InvalidType" ||
  (issue._tag === "Encoding" && isKindRejection(issue.issue)) ||
  (issue._tag === "AnyOf" && issue.issues.every(isKindRejection))

const isPlainObject = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * How the options are decoded: every problem, unknown keys as errors, and the
 * rejected values in the issues (described here, never shown).
 *
 * @internal
 */
export const decodeOptions: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "error", reportInput: true }

/** The members of a union, nested unions flattened. */
const membersOf = (ast: SchemaAST.Union): ReadonlyArray<SchemaAST.AST> =>
  ast.types.flatMap((member) => SchemaAST.isUnion(member) ? membersOf(member) : [member])

const memberParsers = new WeakMap<SchemaAST.AST, (input: unknown) => SchemaIssue.Issue | undefined>()

const memberIssue = (ast: SchemaAST.AST, input: unknown): SchemaIssue.Issue | undefined => {
  let parse = memberParsers.get(ast)
  if (parse === undefined) {
    const decode = SchemaParser.decodeUnknownResult(Schema.make<Schema.Codec<unknown, unknown>>(ast), decodeOptions)
    parse = (value) => {
      const result = decode(value)
      return Result.isFailure(result) ? result.failure : undefined
    }
    memberParsers.set(ast, parse)
  }
  return parse(input)
}

/**
 * What each member of a failed union says about an object: effect 4 tries
 * only the members whose literal fields (`type`, ...) match, and none when
 * none do, which leaves nothing that names the field at fault; every member
 * is tried here (on failure only), as effect 3 did.
 */
const memberIssues = (issue: SchemaIssue.AnyOf, value: unknown): ReadonlyArray<SchemaIssue.Issue> => {
  if (!isPlainObject(value)) return issue.issues
  const issues: Array<SchemaIssue.Issue> = []
  for (const member of membersOf(issue.ast)) {
    const problem = memberIssue(member, value)
    if (problem === undefined) return issue.issues
    issues.push(problem)
  }
  return issues
}

/**
 * Keeps the union branches that explain the failure: branches that got into
 * the value beat branches that rejected it by its kind or its `type`
 * discriminator; when every branch rejected it outright, one
 * `Expected A | B, actual ...` stands for all of them.
 */
const walkUnion = (issue: SchemaIssue.AnyOf, path: ReadonlyArray<PropertyKey>): ReadonlyArray<Entry> => {
  const input = inputOf(issue)
  const deep: Array<SchemaIssue.Issue> = []
  const discriminated: Array<SchemaIssue.Pointer> = []
  for (const member of memberIssues(issue, input?.value)) {
    if (isKindRejection(member)) continue
    const pointers = discriminatorPointers(member)
    if (pointers !== undefined) discriminated.push(...pointers)
    else deep.push(member)
  }
  if (deep.length > 0) return deep.flatMap((member) => walk(member, path, undefined))
  if (discriminated.length > 0 && isPlainObject(input?.value)) {
    return discriminated.flatMap((pointer) => walk(pointer, path, undefined))
  }
  return [expectedEntry(path, expectedOfUnion(issue.ast), input)]
}

// -----------------------------------------------------------------------------
// the walk
// -----------------------------------------------------------------------------

const walk = (
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<PropertyKey>,
  override: string | undefined
): ReadonlyArray<Entry> => {
  switch (issue._tag) {
    case "Pointer":
      return walk(issue.issue, [...path, ...issue.path], override)
    case "Encoding":
      return walk(issue.issue, path, override)
    case "Composite":
      return issue.issues.flatMap((inner) => walk(inner, path, override))
    case "Filter": {
      // Messages of our own filters never include the value.
      const message = override ?? SchemaIssue.defaultCheckHook(issue)
      if (message !== undefined) return walk(issue.issue, path, message)
      if (issue.issue._tag !== "InvalidValue") return walk(issue.issue, path, undefined)
      const expected = issue.issue.annotations?.expected
      return [
        expectedEntry(
          path,
          typeof expected === "string" ? expected : expectedOfCheck(issue.filter),
          inputOf(issue) ?? inputOf(issue.issue)
        )
      ]
    }
    case "AnyOf":
      if (override !== undefined) {
        return issue.issues.length > 0
          ? issue.issues.flatMap((inner) => walk(inner, path, override))
          : [{ path, message: override }]
      }
      return walkUnion(issue, path)
    case "InvalidType":
      return [
        override !== undefined
          ? { path, message: override }
          : expectedEntry(path, expectedOfType(issue.ast), inputOf(issue))
      ]
    case "InvalidValue": {
      if (override !== undefined) return [{ path, message: override }]
      const message = issue.annotations?.message
      if (typeof message === "string") return [{ path, message }]
      const expected = issue.annotations?.expected
      return [
        typeof expected === "string"
          ? expectedEntry(path, expected, inputOf(issue))
          : { path, message: "Expected a valid value" }
      ]
    }
    case "MissingKey": {
      const message = issue.annotations?.messageMissingKey
      return [{ path, message: override ?? (typeof message === "string" ? message : "is missing") }]
    }
    case "UnexpectedKey":
      return [{ path, message: override ?? unexpectedMessage(path, issue.ast) }]
    case "Forbidden":
    case "OneOf":
      // Neither comes from the options schema; effect's own words, which never show the value without input.
      return [{ path, message: override ?? SchemaIssue.defaultLeafHook(withoutInput(issue)) }]
  }
}

const withoutInput = (issue: SchemaIssue.Forbidden | SchemaIssue.OneOf): SchemaIssue.Leaf =>
  issue._tag === "OneOf"
    ? new SchemaIssue.OneOf(issue.ast, issue.successes)
    : new SchemaIssue.Forbidden(issue.annotations)

/**
 * One line per problem, `path: message`, with the branches of a failed union
 * at the same path merged (`Expected "a" | "b", actual "c"`).
 *
 * @internal
 */
export const formatIssue = (issue: SchemaIssue.Issue): ReadonlyArray<string> =>
  mergeUnionBranches(walk(issue, [], undefined)).map((problem) => problemLine(problem, "(options)"))
