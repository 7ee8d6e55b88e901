/**
 * Structured output, its schema side: the JSON Schema the CLI is given for an
 * Effect Schema, and the decoding of a result's `structured_output`. Ported
 * from packages/sdk/test/Structured.test.ts; its tests of
 * `ClaudeCode.structured` on the real CLI need the session and are ported with
 * it (the parts of them that are about the schema alone are here).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as Protocol from "../src/Protocol.js"
import * as StructuredOutput from "../src/StructuredOutput.js"

class Address extends Schema.Class<Address>("Address")({
  city: Schema.String,
  country: Schema.optional(Schema.String)
}) {}

class Person extends Schema.Class<Person>("Person")({
  name: Schema.String,
  age: Schema.Int,
  address: Address,
  languages: Schema.Array(Schema.Literals(["en", "fr", "de"]))
}) {}

/** A `result` message as the CLI writes it at the end of a turn. */
const resultMessage = (fields: Record<string, unknown>): Protocol.ResultMessage =>
  ({
    type: "result",
    subtype: "success",
    is_error: false,
    duration_ms: 1,
    duration_api_ms: 1,
    num_turns: 1,
    result: "",
    stop_reason: null,
    total_cost_usd: 0,
    usage: { input_tokens: 1, output_tokens: 1 },
    modelUsage: {},
    permission_denials: [],
    uuid: "u-1",
    session_id: "s-1",
    ...fields
  }) as unknown as Protocol.ResultMessage

describe("StructuredOutput.outputFormat", () => {
  it.effect("a union of structs is an object schema; every reference is inlined", () =>
    Effect.gen(function*() {
      const Shape = Schema.Union([
        Schema.TaggedStruct("Circle", { radius: Schema.Number }),
        Schema.TaggedStruct("Square", { side: Schema.Number, origin: Address })
      ])
      const { schema } = yield* StructuredOutput.outputFormat(Shape)
      assert.strictEqual(schema.type, "object")
      assert.lengthOf((schema.anyOf ?? schema.oneOf) as ReadonlyArray<unknown>, 2)
      assert.notInclude(JSON.stringify(schema), "$ref")
    }))

  // The schema half of "the model answers through the CLI's StructuredOutput tool" (ClaudeCode.structured).
  it.effect("a Class: self-contained (the nested class inlined), with its required fields", () =>
    Effect.gen(function*() {
      const { schema, type } = yield* StructuredOutput.outputFormat(Person)
      assert.strictEqual(type, "json_schema")
      assert.notInclude(JSON.stringify(schema), "$ref")
      assert.deepInclude(schema, { type: "object", required: ["name", "age", "address", "languages"] })
      const properties = schema.properties as Record<string, { readonly required?: unknown }>
      assert.deepStrictEqual(properties.address.required, ["city"])
    }))

  // The schema half of "a schema that is not an object ... fail with OptionsError before anything is spawned".
  it.effect("a schema that is not an object fails with an OptionsError that says how to wrap it", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(StructuredOutput.outputFormat(Schema.Number))
      assert.strictEqual(error._tag, "OptionsError")
      assert.strictEqual(error.reason, "InvalidOptions")
      assert.include(error.message, "a number")
      assert.include(error.message, "Schema.Struct({ value: schema })")
    }))
})

describe("StructuredOutput.decode", () => {
  // The decoding halves of the ClaudeCode.structured tests: Mismatch, Missing, RetriesExhausted.
  it.effect("decodes the structured output from its JSON form", () =>
    Effect.gen(function*() {
      const person = yield* StructuredOutput.decode(
        Person,
        resultMessage({
          structured_output: { name: "Ada Lovelace", age: 36, address: { city: "London" }, languages: ["en", "fr"] }
        })
      )
      assert.instanceOf(person, Person)
      assert.instanceOf(person.address, Address)
      // A Date is a string in JSON: decoded from it.
      const Event = Schema.Struct({ title: Schema.String, when: Schema.Date })
      const event = yield* StructuredOutput.decode(
        Event,
        resultMessage({ structured_output: { title: "Launch", when: "2026-12-24T00:00:00.000Z" } })
      )
      assert.strictEqual(event.when.toISOString(), "2026-12-24T00:00:00.000Z")
    }))

  it.effect("a value the Schema rejects is a Mismatch naming the field, with the SchemaError", () =>
    Effect.gen(function*() {
      const Event = Schema.Struct({ title: Schema.String, when: Schema.Date })
      const error = yield* Effect.flip(
        StructuredOutput.decode(Event, resultMessage({ structured_output: { title: "Launch", when: "someday" } }))
      )
      assert.strictEqual(error._tag, "StructuredOutputError")
      if (error._tag !== "StructuredOutputError") return
      assert.strictEqual(error.reason, "Mismatch")
      assert.deepStrictEqual(error.value, { title: "Launch", when: "someday" })
      assert.include(error.detail, "when")
      assert.isTrue(Schema.isSchemaError(error.cause))
      assert.include(error.message, "does not match the schema")
      assert.strictEqual(error.sessionId, "s-1")
    }))

  it.effect("no structured output is Missing (with what the model said); the CLI giving up is RetriesExhausted", () =>
    Effect.gen(function*() {
      const missing = yield* Effect.flip(StructuredOutput.decode(Person, resultMessage({ result: "I cannot say." })))
      assert.strictEqual(missing._tag, "StructuredOutputError")
      if (missing._tag !== "StructuredOutputError") return
      assert.strictEqual(missing.reason, "Missing")
      assert.strictEqual(missing.result, "I cannot say.")

      const exhausted = yield* Effect.flip(StructuredOutput.decode(
        Person,
        resultMessage({ subtype: "error_max_structured_output_retries", is_error: true, errors: ["no match"] })
      ))
      assert.strictEqual(exhausted._tag, "StructuredOutputError")
      if (exhausted._tag !== "StructuredOutputError") return
      assert.strictEqual(exhausted.reason, "RetriesExhausted")
      assert.strictEqual(exhausted.detail, "no match")

      const failed = yield* Effect.flip(
        StructuredOutput.decode(Person, resultMessage({ subtype: "error_max_turns", is_error: true }))
      )
      assert.strictEqual(failed._tag, "ResultError")
    }))
})
