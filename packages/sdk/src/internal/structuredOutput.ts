/**
 * Structured output: the JSON Schema the CLI's `StructuredOutput` tool takes,
 * derived from an Effect Schema, and the decoding of a result's
 * `structured_output` with that Schema.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { OutputFormat } from "../ClaudeOptions.js"
import type * as Protocol from "../Protocol.js"
import { OptionsError, type ResultError, resultFailure, StructuredOutputError } from "./claudeError.js"
import * as IssuePath from "./issuePath.js"
import { inlineDefinitions } from "./mcpServer.js"

/** The name of the tool the CLI adds for structured output (seen on the pinned CLI). @internal */
export const toolName = "StructuredOutput"

const isObjectSchema = (schema: unknown): boolean =>
  typeof schema === "object" && schema !== null && (schema as { type?: unknown }).type === "object"

/** The JSON Schema of a Schema's JSON form, self-contained. Throws when the generator cannot make one. */
const jsonSchemaOf = (schema: Schema.Top): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" })
  const definitions = document.definitions as Record<string, unknown>
  return inlineDefinitions(
    Object.keys(definitions).length > 0 ? { ...document.schema, $defs: definitions } : { ...document.schema }
  )
}

const article = (kind: string): string => /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`

/** What a JSON Schema that is not an object describes: `a number`, or `a number or a string` for a union. */
const describeKinds = (made: Record<string, unknown>): string => {
  if (typeof made.type === "string") return article(made.type)
  const variants = (made.anyOf ?? made.oneOf) as ReadonlyArray<{ readonly type?: unknown }> | undefined
  const kinds = Array.isArray(variants)
    ? Array.from(new Set(variants.flatMap((variant) => typeof variant?.type === "string" ? [variant.type] : [])))
    : []
  // effect 4 writes a Number as `number`, or one of the strings "Infinity", "-Infinity", "NaN".
  return kinds.length > 0 ? kinds.map(article).join(" or ") : "not an object"
}

/**
 * The `outputFormat` option for `schema`: the JSON Schema of what the model
 * writes (effect 4 describes a Schema's JSON form, `Schema.toCodecJson`),
 * self-contained (no `$ref` a client must resolve). The CLI offers it as the
 * input of its `StructuredOutput` tool, and a tool's input is an object: a
 * schema of anything else fails with an `OptionsError` that says how to wrap
 * it.
 *
 * @internal
 */
export const outputFormat = <A, I, RD, RE>(
  schema: Schema.Codec<A, I, RD, RE>
): Effect.Effect<OutputFormat, OptionsError> =>
  Effect.suspend(() => {
    let made: Record<string, unknown>
    try {
      made = jsonSchemaOf(schema)
    } catch (cause) {
      return new OptionsError({
        reason: "InvalidOptions",
        detail: `outputFormat: the schema has no JSON Schema (${
          cause instanceof Error ? cause.message : String(cause)
        }); annotate it with jsonSchema, or use Schemas that have one`,
        cause
      })
    }
    const variants = (made.anyOf ?? made.oneOf) as ReadonlyArray<unknown> | undefined
    if (isObjectSchema(made)) return Effect.succeed({ type: "json_schema" as const, schema: made })
    // A union of objects is an object too; the Messages API wants `type: "object"` at the top of a tool's input.
    if (Array.isArray(variants) && variants.length > 0 && variants.every(isObjectSchema)) {
      return Effect.succeed({ type: "json_schema" as const, schema: { type: "object", ...made } })
    }
    const described = describeKinds(made)
    return new OptionsError({
      reason: "InvalidOptions",
      detail: `outputFormat: structured output is an object (the input of the CLI's ${toolName} tool), but the ` +
        `schema describes ${described}; wrap it, e.g. Schema.Struct({ value: schema })`
    })
  })

/**
 * The `structured_output` of a turn's result, decoded with `schema` from its
 * JSON form (the form {@link outputFormat} describes to the model). A result
 * without one, a value the Schema rejects, and the CLI giving up after its
 * retries each fail with a `StructuredOutputError`; any other error result
 * with a `ResultError`.
 *
 * @internal
 */
export const decode = <A, I, RD, RE>(
  schema: Schema.Codec<A, I, RD, RE>,
  result: Protocol.ResultMessage
): Effect.Effect<A, StructuredOutputError | ResultError, RD> => {
  const fields = result as {
    readonly session_id?: string
    readonly errors?: ReadonlyArray<unknown>
    readonly result?: unknown
    readonly structured_output?: unknown
  }
  const sessionId = fields.session_id ?? ""
  const text = typeof fields.result === "string" ? fields.result : undefined
  if (result.subtype === "error_max_structured_output_retries") {
    return new StructuredOutputError({
      reason: "RetriesExhausted",
      sessionId,
      detail: (fields.errors ?? []).map(String).join("; ") || "no output matched"
    })
  }
  const failure = resultFailure(result)
  if (failure !== undefined) return failure
  if (fields.structured_output === undefined) {
    return new StructuredOutputError({
      reason: "Missing",
      sessionId,
      detail: "the result has no structured_output",
      ...(text !== undefined ? { result: text } : {})
    })
  }
  const value = fields.structured_output
  return Schema.decodeUnknownEffect(Schema.toCodecJson(schema), { errors: "all", reportInput: true })(value).pipe(
    Effect.catchTag("SchemaError", (error) =>
      new StructuredOutputError({
        reason: "Mismatch",
        sessionId,
        detail: IssuePath.describe(error.issue),
        value,
        cause: error
      }))
  )
}
