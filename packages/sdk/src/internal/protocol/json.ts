/**
 * The building blocks every wire schema is made of.
 *
 * Two kinds of struct, chosen by who writes the value:
 *
 * - {@link openStruct} for what the CLI writes (stdout messages, control
 *   requests, hook inputs, responses). Its type carries an index signature, so
 *   fields the CLI adds in a later release are decoded, kept and encoded
 *   again. It is the fast way to be lossless: an index signature costs one
 *   cheap check per key, where `onExcessProperty: "preserve"` compares every
 *   key with every declared one (measured 2-3× slower on the hot path).
 * - {@link closedStruct} for what the SDK and its users write (stdin
 *   messages, hook outputs, permission results). Its type has no index
 *   signature, so a misspelled field is a compile error, and a
 *   `parseOptions` annotation still preserves unknown keys at run time.
 */
import * as Schema from "effect/Schema"

const toWire = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

/**
 * Any JSON value, kept as is. Used for deep, open-ended payloads (tool inputs,
 * JSON-RPC bodies, stream events) where a schema would add cost and no
 * safety. Its arbitrary yields values that survive a JSON round trip.
 */
export const Json = Schema.Unknown.annotations({
  identifier: "Json",
  arbitrary: () => (fc) => fc.jsonValue({ maxDepth: 2 }).map(toWire)
})

/**
 * A JSON number. Same parser as `Schema.Number`; its arbitrary leaves out
 * `NaN`, infinities and `-0`, which JSON cannot carry.
 */
export const JsonNumber = Schema.Number.annotations({
  arbitrary: () => (fc) => fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n))
})

/**
 * A key of a JSON object. Its arbitrary leaves out `__proto__`: decoding
 * through a Schema builds a new object, where that key would set the
 * prototype instead of a field (the line codec returns the parsed object
 * itself and keeps it).
 */
export const JsonKey = Schema.String.annotations({
  arbitrary: () => (fc) => fc.string().filter((key) => key !== "__proto__")
})

/**
 * A JSON object with any keys.
 */
export const JsonObject = Schema.Record({ key: JsonKey, value: Json })

/**
 * The index signature of an {@link openStruct}: any other key, any JSON value.
 */
export const UnknownFields = JsonObject

/**
 * An exact optional field: absent stays absent (never `undefined`).
 */
export const optional = <S extends Schema.Schema.All>(schema: S): Schema.optionalWith<S, { exact: true }> =>
  Schema.optionalWith(schema, { exact: true })

/**
 * A struct for values the CLI writes: declared fields are checked, every other
 * field is kept and shows in the type as `unknown`.
 */
export const openStruct = <Fields extends Schema.Struct.Fields>(
  fields: Fields
): Schema.TypeLiteral<Fields, readonly [typeof UnknownFields]> => Schema.Struct(fields, UnknownFields)

/**
 * The parse options that keep unknown keys, in both directions.
 */
export const preserve = { onExcessProperty: "preserve" } as const

/**
 * A struct for values the SDK writes: a closed type (typos are compile
 * errors) that still keeps unknown keys when decoding and encoding.
 */
export const closedStruct = <Fields extends Schema.Struct.Fields>(fields: Fields): Schema.Struct<Fields> =>
  Schema.Struct(fields).annotations({ parseOptions: preserve })

/**
 * A string field whose known values are listed for the type checker, while
 * any other string still decodes: the CLI adds values every release, and a new
 * one must not make a whole message undecodable.
 */
export const openLiteral = <const Literals extends ReadonlyArray<string>>(
  ...literals: Literals
): Schema.Schema<Literals[number] | (string & {})> =>
  Schema.String.annotations({
    arbitrary: () => (fc) => fc.oneof(fc.constantFrom(...literals), fc.string())
  })

/**
 * The message of a fallback discriminator that met a known value.
 */
export const fallbackMismatch = "a known value must match its own schema"

/**
 * The discriminator of a fallback member: any string except the values that
 * name a known member, so that a known value with a broken shape is an error
 * rather than silently the fallback.
 *
 * It is branded: a known member (`type: "assistant"`) is then not assignable
 * to the fallback (`type: string`), which keeps type guards such as
 * `isUnknownMessage` precise in both branches and keeps the excess-property
 * checks of object literals.
 */
export const otherThan = <const Brand extends string>(
  known: Iterable<string>,
  brand: Brand
): Schema.brand<Schema.filter<typeof Schema.String>, Brand> => {
  const set = new Set(known)
  return Schema.String.pipe(
    Schema.filter((s) => !set.has(s), { message: () => `${fallbackMismatch} (${brand})` }),
    Schema.brand(brand)
  )
}

/**
 * A nullable string, frequent on the wire (`parent_tool_use_id`, ...).
 */
export const NullableString = Schema.NullOr(Schema.String)

/**
 * A nullable number.
 */
export const NullableNumber = Schema.NullOr(JsonNumber)
