/**
 * Why a handler's answer (a hook output, a permission result) is not valid,
 * in a line a user can act on: the field that is wrong, what it should be and
 * what it was — `hookSpecificOutput.permissionDecision: Expected "allow" |
 * "deny" | "ask" | "defer", actual "maybe"` — rather than the whole answer
 * schema, which a tree formatter prints in full (kilobytes for a hook
 * output, whose `hookSpecificOutput` is a union of every event's).
 *
 * @internal
 */
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import { formatPath, joinLines, problemLine, problemsOf } from "./issuePath.js"
import { answerValidator } from "./protocol/validator.js"

const MAX_EXPECTED = 120
const MAX_ACTUAL = 60
const MAX_LINES = 5

// A long expected type, or a struct (effect 4 abbreviates it to `{ readonly "behavior": "allow", ... }`), is a
// whole schema: say what kind of value it is instead.
const shortExpected = (expected: string): string =>
  expected.length <= MAX_EXPECTED && !expected.includes(", ... }")
    ? expected
    : expected.startsWith("{") || expected.includes(" | {")
    ? "an object (see the answer's type)"
    : expected.startsWith("ReadonlyArray<")
    ? "an array (see the answer's type)"
    : `${expected.slice(0, MAX_EXPECTED)}…`

const shortActual = (actual: string): string => actual.length <= MAX_ACTUAL ? actual : `${actual.slice(0, MAX_ACTUAL)}…`

/**
 * One line per wrong field (at most five), union branches at one field
 * merged: `decision: Expected "approve" | "block", actual "nope"`. `subject`
 * names the answer itself when it is the answer that is wrong (not an object).
 *
 * @internal
 */
export const format = (issue: SchemaIssue.Issue, subject: string): string =>
  joinLines(
    problemsOf(issue).map((problem) =>
      problem.expected === undefined
        ? problemLine(problem, subject)
        : `${formatPath(problem.path, subject)}: Expected ${shortExpected(problem.expected.join(" | "))}, actual ${
          shortActual(problem.actual!)
        }`
    ),
    "; ",
    MAX_LINES
  )

/**
 * The check of a handler's answers against `schema` (see
 * `Validator.answerValidator`), failing with the line {@link format} writes.
 *
 * @internal
 */
export const validator = <S extends Schema.Top>(
  schema: S,
  subject: string
): (answer: unknown) => Result.Result<S["Type"], string> => {
  const validate = answerValidator(schema)
  return (answer) => {
    const valid = validate(answer)
    // A valid answer's Success is passed on as it is (no copy per answer on the hot path).
    return Result.isFailure(valid)
      ? Result.fail(format(valid.failure, subject))
      : valid as Result.Result<S["Type"], never>
  }
}
