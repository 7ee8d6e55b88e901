/**
 * Structured output from an Effect Schema: the JSON Schema the CLI is given
 * (the `outputFormat` option), and the decoding of a result's
 * `structured_output` with the Schema. `ClaudeCode.structured` does both for
 * one prompt; these are the pieces, for a session or a stream of one's own.
 *
 * ```ts
 * class Person extends Schema.Class<Person>("Person")({ name: Schema.String, age: Schema.Int }) {}
 *
 * const program = Effect.gen(function*() {
 *   const format = yield* StructuredOutput.outputFormat(Person)
 *   const result = yield* ClaudeCode.result("Who wrote the first program?", { outputFormat: format })
 *   return yield* StructuredOutput.decode(Person, result)
 * })
 * ```
 *
 * The CLI offers the JSON Schema as the input of a tool, `StructuredOutput`,
 * that the model must call to answer; it checks the input against the JSON
 * Schema and asks the model again when it does not match.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type { OptionsError, ResultError, StructuredOutputError } from "./ClaudeError.js"
import type { OutputFormat } from "./ClaudeOptions.js"
import * as internal from "./internal/structuredOutput.js"
import type * as Protocol from "./Protocol.js"

/**
 * The name of the tool the CLI adds for structured output.
 *
 * @since 0.1.0
 * @category Constants
 */
export const toolName: string = internal.toolName

/**
 * The `outputFormat` option for a Schema: the JSON Schema of its JSON form
 * (what the model writes; `Schema.toCodecJson`), self-contained. The schema
 * must describe an object (a Struct, a Class, a union of them): a tool's
 * input is one. Any other fails with an `OptionsError` that says how to wrap
 * it.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const outputFormat: <A, I, RD, RE>(
  schema: Schema.Codec<A, I, RD, RE>
) => Effect.Effect<OutputFormat, OptionsError> = internal.outputFormat

/**
 * Decodes the `structured_output` of a turn's result with the Schema, from
 * its JSON form (the form {@link outputFormat} describes). Fails
 * with a `StructuredOutputError` when it is missing (`Missing`), when the
 * Schema rejects it (`Mismatch`, with the parse issue) or when the CLI gave
 * up after its retries (`RetriesExhausted`); with a `ResultError` for any
 * other error result.
 *
 * @since 0.1.0
 * @category Decoding
 */
export const decode: <A, I, RD, RE>(
  schema: Schema.Codec<A, I, RD, RE>,
  result: Protocol.ResultMessage
) => Effect.Effect<A, StructuredOutputError | ResultError, RD> = internal.decode
