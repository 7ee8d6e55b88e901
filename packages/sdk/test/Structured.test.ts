import { ClaudeCode, StructuredOutput } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { harness } from "./utils/harness.js"

class Address extends Schema.Class<Address>("Address")({
  city: Schema.String,
  country: Schema.optional(Schema.String)
}) {}

class Person extends Schema.Class<Person>("Person")({
  name: Schema.String,
  age: Schema.Int,
  address: Address,
  languages: Schema.Array(Schema.Literal("en", "fr", "de"))
}) {}

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

  it.live("an answer the CLI accepts but the Schema rejects fails with StructuredOutputError Mismatch and its parse issue", () =>
    Effect.gen(function*() {
      // `Schema.Date` is a string in the JSON Schema: the CLI lets "someday" through, the Schema does not.
      const Event = Schema.Struct({ title: Schema.String, when: Schema.Date })
      const error = yield* ClaudeCode.structured("When is the launch?", Event).pipe(Effect.flip)
      assert.strictEqual(error._tag, "StructuredOutputError")
      if (error._tag !== "StructuredOutputError") return
      assert.strictEqual(error.reason, "Mismatch")
      assert.deepStrictEqual(error.value, { title: "Launch", when: "someday" })
      assert.include(error.detail, "when")
      assert.isTrue(ParseResult.isParseError(error.cause))
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

describe("StructuredOutput.outputFormat", () => {
  it.effect("a union of structs is an object schema; every reference is inlined", () =>
    Effect.gen(function*() {
      const Shape = Schema.Union(
        Schema.TaggedStruct("Circle", { radius: Schema.Number }),
        Schema.TaggedStruct("Square", { side: Schema.Number, origin: Address })
      )
      const { schema } = yield* StructuredOutput.outputFormat(Shape)
      assert.strictEqual(schema.type, "object")
      assert.lengthOf(schema.anyOf as ReadonlyArray<unknown>, 2)
      assert.notInclude(JSON.stringify(schema), "$ref")
    }))
})
