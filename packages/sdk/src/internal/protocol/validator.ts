/**
 * Fast, lossless validation for the line codec.
 *
 * The protocol schemas only check values, they never transform them. So a
 * line is decoded by checking the parsed JSON against its member schema and
 * returning that very object: lossless by construction (unknown keys, key
 * order, a `__proto__` key, everything) and without building a copy.
 *
 * The check is effect's own: the schema's type guard, compiled to one
 * function by effect's JIT schema compiler (`SchemaJITCompiler`, installed for
 * the protocol's schemas only). Only a value the guard refuses is decoded
 * again, by the Schema interpreter, for the issue that says what is wrong.
 * (On effect 3 the SDK compiled its own guard from a rewritten AST; effect 4
 * compiles one itself.)
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaJITCompiler from "effect/schema/SchemaJITCompiler"
import type * as SchemaIssue from "effect/SchemaIssue"

// The detailed pass reports the refused input, for the `actual` side of its messages.
const reportInput = { reportInput: true } as const

// Enabling an AST again would replace its compiled entry (and compile it anew): once per AST.
const compiled = new WeakSet<object>()

/**
 * A check-in-place function for `schema`: on success it returns the input
 * itself; on failure the issue, from Schema's decoder (with the input
 * reported, for the `actual` side of the messages).
 */
export const validatorFor = <S extends Schema.Top>(
  schema: S
): (input: unknown) => Result.Result<S["Type"], SchemaIssue.Issue> => {
  const type = Schema.toType(schema)
  if (!compiled.has(type.ast)) {
    compiled.add(type.ast)
    SchemaJITCompiler.enable(type.ast)
  }
  const is = Schema.is(type)
  // Compiled when an input is first refused, not with the guard.
  let detailed: ((input: unknown) => Result.Result<unknown, SchemaIssue.Issue>) | undefined
  return (input) => {
    if (is(input)) return Result.succeed(input)
    detailed ??= (value) =>
      Result.mapError(
        Schema.decodeUnknownResult(type as Schema.Codec<unknown>)(value, reportInput),
        (error) => error.issue
      )
    const checked = detailed(input)
    // The guard and the decoder agree (the tests hold them to it); the input itself is the answer either way.
    return Result.isSuccess(checked) ? Result.succeed(input) : checked
  }
}

/**
 * The check of a handler's answer against `schema`, in place: the answer
 * itself when it is valid, unknown keys kept (an answer is checked once per
 * request: decoding through the Schema cost a can_use_tool answer ~100 µs
 * on effect 3).
 *
 * @internal
 */
export const answerValidator = validatorFor
