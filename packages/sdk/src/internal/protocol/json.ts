/**
 * The building blocks every wire schema is made of.
 *
 * Two kinds of struct, chosen by who writes the value:
 *
 * - {@link openStruct} for what the CLI writes (stdout messages, control
 *   requests, hook inputs, responses). Its type carries an index signature, so
 *   fields the CLI adds in a later release are decoded, kept and encoded
 *   again.
 * - {@link closedStruct} for what the SDK and its users write (stdin
 *   messages, hook outputs, permission results). Its type has no index
 *   signature, so a misspelled field is a compile error, and its run-time
 *   schema still keeps unknown keys.
 *
 * Both are `Schema.StructWithRest` at run time: effect 4 has no
 * `onExcessProperty: "preserve"`, an index signature is how a struct keeps
 * what it does not declare. Both carry their `fields`, as a `Struct` does.
 */
import * as Schema from "effect/Schema"

/**
 * Any JSON value, kept as is. Used for deep, open-ended payloads (tool inputs,
 * JSON-RPC bodies, stream events) where a schema would add cost and no
 * safety. Effect's `Arbitrary` generates JSON values for it.
 */
export const Json = Schema.Unknown.annotate({ identifier: "Json" })

/**
 * A JSON number. Same check as `Schema.Number` (the CLI's `1e999` is
 * `Infinity` once parsed); generated values that JSON cannot carry (`NaN`,
 * infinities, `-0`) are the property tests' to leave out (effect 4 has no
 * arbitrary annotation for a number).
 */
export const JsonNumber = Schema.Number

/**
 * A key of a JSON object.
 */
export const JsonKey = Schema.String

/**
 * A JSON object with any keys.
 */
export const JsonObject = Schema.Record(JsonKey, Json)

/**
 * The index signature of an {@link openStruct}: any other key, any JSON value.
 */
export const UnknownFields = JsonObject

/**
 * An exact optional field: absent stays absent (never `undefined`).
 */
export const optional = <S extends Schema.Top>(schema: S): Schema.optionalKey<S> => Schema.optionalKey(schema)

/**
 * A struct for values the CLI writes: declared fields are checked, every other
 * field is kept and shows in the type as `unknown`.
 */
export interface OpenStruct<Fields extends Schema.Struct.Fields>
  extends Schema.StructWithRest<Schema.Struct<Fields>, readonly [typeof UnknownFields]>
{
  readonly fields: Fields
}

/**
 * A struct for values the CLI writes: declared fields are checked, every other
 * field is kept and shows in the type as `unknown`.
 */
export const openStruct = <const Fields extends Schema.Struct.Fields>(fields: Fields): OpenStruct<Fields> => {
  const struct = Schema.Struct(fields)
  const records = [UnknownFields] as const
  return Schema.make<OpenStruct<Fields>>(Schema.StructWithRest(struct, records).ast, {
    schema: struct,
    records,
    fields
  })
}

/**
 * A struct for values the SDK writes: a closed type (typos are compile
 * errors) whose run-time schema still keeps unknown keys when decoding and
 * encoding (an index signature of any JSON value, which the type leaves out).
 */
export const closedStruct = <const Fields extends Schema.Struct.Fields>(fields: Fields): Schema.Struct<Fields> =>
  Schema.make<Schema.Struct<Fields>>(openStruct(fields).ast, {
    fields,
    mapFields<To extends Schema.Struct.Fields>(this: Schema.Struct<Fields>, f: (fields: Fields) => To) {
      return closedStruct(f(this.fields))
    }
  })

/**
 * A string field whose known values are listed for the type checker, while
 * any other string still decodes: the CLI adds values every release, and a new
 * one must not make a whole message undecodable.
 */
export const openLiteral = <const Literals extends ReadonlyArray<string>>(
  ..._literals: Literals
): Schema.Codec<Literals[number] | (string & {})> => Schema.String

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
): Schema.brand<Schema.String, Brand> => {
  const set = new Set(known)
  const message = `${fallbackMismatch} (${brand})`
  return Schema.String.check(Schema.makeFilter((s: string) => !set.has(s) || message)).pipe(
    Schema.brand<Brand>(brand as Parameters<typeof Schema.brand<Brand>>[0])
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
