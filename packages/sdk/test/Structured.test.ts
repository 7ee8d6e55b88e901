/**
 * Structured output, its schema side: the JSON Schema the CLI is given for an
 * Effect Schema, and the decoding of a result's `structured_output`; and
 * `ClaudeCode.structured` on the real CLI, which the schema halves below are
 * the parts of.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as ClaudeCode from "../src/ClaudeCode.js"
import type * as Protocol from "../src/Protocol.js"
import * as StructuredOutput from "../src/StructuredOutput.js"
import { harness } from "./utils/harness.js"

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

/** The input schema of the StructuredOutput tool in the model's first request. */
const offeredSchema = Effect.map(ScriptedModel.turnRequests, (requests) => {
  const tools = (requests[0]?.body?.tools ?? []) as ReadonlyArray<{ name: string; input_schema?: unknown }>
  return tools.find((tool) => tool.name === ScriptedModel.structuredOutputTool)?.input_schema
})

describe("ClaudeCode.structured on the real CLI", () => {
  it.live("the model answers through the CLI's StructuredOutput tool: the answer decodes to the Schema class", () =>
    Effect.gen(function*() {
      const person = yield* ClaudeCode.structured("Who wrote the first program?", Person)
      assert.instanceOf(person, Person)
      assert.instanceOf(person.address, Address)
      assert.deepStrictEqual(
        { name: person.name, age: person.age, city: person.address.city, languages: person.languages },
        { name: "Ada Lovelace", age: 36, city: "London", languages: ["en", "fr"] }
      )
      // The CLI was given the Schema's JSON Schema, self-contained: the nested class is inlined, not a $ref.
      const schema = yield* offeredSchema
      assert.deepStrictEqual(schema, (yield* StructuredOutput.outputFormat(Person)).schema)
      assert.notInclude(JSON.stringify(schema), "$ref")
      assert.deepInclude(schema as object, { type: "object", required: ["name", "age", "address", "languages"] })
      assert.deepStrictEqual((schema as any).properties.address.required, ["city"])
      // One request: the call of the tool ends the turn.
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 1)
    }).pipe(Effect.provide(harness([
      ScriptedModel.structuredOutput({
        name: "Ada Lovelace",
        age: 36,
        address: { city: "London" },
        languages: ["en", "fr"]
      })
    ]))))

  it.live("an answer the CLI accepts but the Schema rejects fails with StructuredOutputError Mismatch and its SchemaError", () =>
    Effect.gen(function*() {
      // `Schema.Date` is a string in the JSON Schema: the CLI lets "someday" through, the Schema does not.
      const Event = Schema.Struct({ title: Schema.String, when: Schema.Date })
      const error = yield* ClaudeCode.structured("When is the launch?", Event).pipe(Effect.flip)
      assert.strictEqual(error._tag, "StructuredOutputError")
      if (error._tag !== "StructuredOutputError") return
      assert.strictEqual(error.reason, "Mismatch")
      assert.deepStrictEqual(error.value, { title: "Launch", when: "someday" })
      assert.include(error.detail, "when")
      assert.isTrue(Schema.isSchemaError(error.cause))
      assert.include(error.message, "does not match the schema")
      assert.isAbove(error.sessionId.length, 0)
    }).pipe(Effect.provide(harness([ScriptedModel.structuredOutput({ title: "Launch", when: "someday" })]))))

  it.live("a wrong-shape answer goes back to the model as an error; a turn that ends in text fails with Missing", () =>
    Effect.gen(function*() {
      const error = yield* ClaudeCode.structured("Who wrote the first program?", Person).pipe(Effect.flip)
      assert.strictEqual(error._tag, "StructuredOutputError")
      if (error._tag !== "StructuredOutputError") return
      assert.strictEqual(error.reason, "Missing")
      assert.strictEqual(error.result, "I cannot say.")
      // The CLI checked the first answer against the JSON Schema and told the model what was wrong.
      const [rejected] = yield* ScriptedModel.toolResults
      assert.isTrue(rejected.isError)
      assert.include(rejected.content, "does not match required schema")
      assert.include(rejected.content, "age")
    }).pipe(Effect.provide(harness([
      ScriptedModel.structuredOutput({ name: "Ada", age: "thirty-six", address: { city: "London" }, languages: [] }),
      ScriptedModel.text("I do not know."),
      // The CLI reminds the model once to call the tool; it answers in text again.
      ScriptedModel.text("I cannot say.")
    ]))))

  it.live("a model that never matches the JSON Schema: the CLI gives up, and the error says RetriesExhausted", () =>
    Effect.gen(function*() {
      const error = yield* ClaudeCode.structured("Who wrote the first program?", Person).pipe(Effect.flip)
      assert.strictEqual(error._tag, "StructuredOutputError")
      if (error._tag !== "StructuredOutputError") return
      assert.strictEqual(error.reason, "RetriesExhausted")
      const rejected = yield* ScriptedModel.toolResults
      // Five attempts: the first four rejections went back to the model, the fifth ended the turn.
      assert.strictEqual((yield* ScriptedModel.turnRequests).length, 5)
      assert.strictEqual(rejected.length, 4)
      assert.isTrue(rejected.every((result) => result.isError))
    }).pipe(Effect.provide(harness([
      ScriptedModel.rule(() => ScriptedModel.structuredOutput({ name: 1 }))
    ]))))

  it.live("a schema that is not an object, or an outputFormat of one's own, fail with OptionsError before anything is spawned", () =>
    Effect.gen(function*() {
      const scalar = yield* ClaudeCode.structured("how many?", Schema.Number).pipe(Effect.flip)
      assert.strictEqual(scalar._tag, "OptionsError")
      assert.include(scalar.message, "a number")
      assert.include(scalar.message, "Schema.Struct({ value: schema })")
      const both = yield* ClaudeCode.structured("who?", Person, {
        outputFormat: { type: "json_schema", schema: { type: "object" } }
      }).pipe(Effect.flip)
      assert.strictEqual(both._tag, "OptionsError")
      assert.include(both.message, "outputFormat")
      assert.deepStrictEqual(yield* ScriptedModel.requests, [])
    }).pipe(Effect.provide(harness([ScriptedModel.text("never")]))))
})
