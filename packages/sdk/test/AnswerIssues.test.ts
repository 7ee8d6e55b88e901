/**
 * How the SDK says what is wrong in a value (internal/issuePath.ts) and in a
 * handler's answer (internal/answerIssues.ts): one short line per problem, the
 * field named as code reaches it, union branches merged, in the words the SDK
 * wrote on effect 3 (`is missing`, `Expected X, actual Y`).
 *
 * The answer lines are the ones packages/sdk/test/FirstHourConfig.test.ts checks
 * through a hook and a gate; here they are checked on the answer schemas
 * themselves (the dispatch around them is ported with HookRegistry and
 * PermissionGate).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as AnswerIssues from "../src/internal/answerIssues.js"
import * as IssuePath from "../src/internal/issuePath.js"
import * as Protocol from "../src/Protocol.js"

const hookOutput = AnswerIssues.validator(Protocol.HookOutput, "the hook output")
const permissionResult = AnswerIssues.validator(Protocol.PermissionResult, "the permission result")

const problem = (validate: (answer: unknown) => Result.Result<unknown, string>, answer: unknown): string => {
  const checked = validate(answer)
  if (Result.isSuccess(checked)) return assert.fail(`expected ${JSON.stringify(answer)} to be refused`)
  assert.isBelow(checked.failure.length, 300, checked.failure)
  return checked.failure
}

describe("AnswerIssues: a handler's answer", () => {
  it("a hook: the wrong field and what it accepts, in one short line", () => {
    assert.strictEqual(
      problem(hookOutput, { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "maybe" } }),
      "hookSpecificOutput.permissionDecision: Expected \"allow\" | \"deny\" | \"ask\" | \"defer\", actual \"maybe\""
    )
    assert.strictEqual(problem(hookOutput, { continue: "yes" }), "continue: Expected boolean, actual \"yes\"")
  })

  it("a gate: the wrong field, and a missing one", () => {
    // effect 3 wrote `Expected { readonly [x: string]: Json }`: effect 4 calls a record an object
    assert.strictEqual(
      problem(permissionResult, { behavior: "allow", updatedInput: "ls -la" }),
      "updatedInput: Expected object, actual \"ls -la\""
    )
    assert.strictEqual(problem(permissionResult, { behavior: "deny" }), "message: is missing")
  })

  it("a tag no member has, or no tag: the tag field is named with every tag the union knows", () => {
    assert.strictEqual(
      problem(permissionResult, { behavior: "perhaps", message: "x" }),
      "behavior: Expected \"allow\" | \"deny\", actual \"perhaps\""
    )
    assert.strictEqual(problem(permissionResult, { message: "x" }), "behavior: is missing")
    const Shape = Schema.Union([
      Schema.Struct({ kind: Schema.Literal("circle"), r: Schema.Number }),
      Schema.Struct({ kind: Schema.Literal("square"), side: Schema.Number })
    ])
    const shapes = Schema.Struct({ shapes: Schema.Array(Shape) })
    const result = Schema.decodeUnknownResult(shapes)({ shapes: [{ kind: "circle", r: 1 }, { kind: 3 }] }, {
      reportInput: true
    })
    if (Result.isSuccess(result)) return assert.fail("expected a failure")
    assert.strictEqual(
      IssuePath.describe(result.failure.issue),
      "shapes[1].kind: Expected \"circle\" | \"square\", actual 3"
    )
  })

  it("an answer that is not an object: says so, without printing the answer's whole type", () => {
    assert.strictEqual(
      problem(permissionResult, "allow"),
      "the permission result: Expected an object (see the answer's type), actual \"allow\""
    )
    assert.strictEqual(
      problem(hookOutput, 5),
      "the hook output: Expected an object (see the answer's type), actual 5"
    )
  })

  it("the first problem found (as on effect 3); a long actual value cut at 60 characters", () => {
    const Many = Schema.Struct({
      a: Schema.String,
      b: Schema.String,
      c: Schema.String,
      d: Schema.String,
      e: Schema.String,
      f: Schema.String,
      g: Schema.String
    })
    const validate = AnswerIssues.validator(Many, "the answer")
    const checked = validate({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: "x".repeat(100) })
    assert.isTrue(Result.isFailure(checked))
    assert.strictEqual(Result.isFailure(checked) && checked.failure, "a: Expected string, actual 1")
    const long = validate({ a: "x".repeat(100) })
    assert.strictEqual(Result.isFailure(long) && long.failure, "b: is missing")
    const longActual = AnswerIssues.validator(Schema.Struct({ a: Schema.Number }), "x")({ a: "y".repeat(100) })
    assert.strictEqual(
      Result.isFailure(longActual) && longActual.failure,
      `a: Expected number, actual "${"y".repeat(59)}…`
    )
  })

  it("a valid answer is the answer itself, unknown keys kept (no copy on the hot path)", () => {
    const answer = { behavior: "allow", updatedInput: { command: "ls" }, futureField: { x: 1 } }
    const checked = permissionResult(answer)
    assert.isTrue(Result.isSuccess(checked) && checked.success === answer)
    const output = { hookSpecificOutput: { hookEventName: "Stop", additionalContext: "go on", future: 2 }, top: 1 }
    const checkedOutput = hookOutput(output)
    assert.isTrue(Result.isSuccess(checkedOutput) && checkedOutput.success === output)
  })
})

describe("IssuePath", () => {
  it("formatPath writes a path as code reaches it", () => {
    assert.strictEqual(
      IssuePath.formatPath(["mcpServers", "my-server", "args", 0]),
      "mcpServers[\"my-server\"].args[0]"
    )
    assert.strictEqual(
      IssuePath.formatPath(["hookSpecificOutput", "permissionDecision"]),
      "hookSpecificOutput.permissionDecision"
    )
    assert.strictEqual(IssuePath.formatPath([], "(options)"), "(options)")
    assert.strictEqual(IssuePath.formatPath([Symbol.for("s"), "$ok", "1x"]), "[Symbol(s)].$ok[\"1x\"]")
  })

  it("describe: one line per problem, union branches at one field merged", () => {
    const Item = Schema.Struct({ tags: Schema.Array(Schema.String), size: Schema.Literals(["S", "M"]) })
    const result = Schema.decodeUnknownResult(Item)({ tags: ["a", 2], size: "XL" }, {
      errors: "all",
      reportInput: true
    })
    if (Result.isSuccess(result)) return assert.fail("expected a failure")
    assert.strictEqual(
      IssuePath.describe(result.failure.issue),
      "tags[1]: Expected string, actual 2; size: Expected \"S\" | \"M\", actual \"XL\""
    )
  })

  it("mergeUnionBranches: `Expected a` and `Expected b` at one path and one actual become one line", () => {
    assert.deepStrictEqual(
      IssuePath.mergeUnionBranches([
        { path: ["x"], message: "Expected \"a\", actual \"c\"" },
        { path: ["x"], message: "Expected \"b\", actual \"c\"" },
        { path: ["x"], message: "Expected \"b\", actual \"c\"" },
        { path: ["y"], message: "is missing" },
        { path: ["y"], message: "is missing" }
      ]).map((problem) => IssuePath.problemLine(problem)),
      ["x: Expected \"a\" | \"b\", actual \"c\"", "y: is missing"]
    )
    assert.deepStrictEqual(IssuePath.splitExpected("Expected \"L\", actual \"L, actual M\""), {
      expected: "\"L\"",
      actual: "\"L, actual M\""
    })
    assert.strictEqual(IssuePath.joinLines(["a", "b", "c"], "; ", 2), "a; b; and 1 more")
  })
})
