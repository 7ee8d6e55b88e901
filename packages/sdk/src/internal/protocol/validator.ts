/**
 * Fast, lossless validation for the line codec.
 *
 * The protocol schemas only check values, they never transform them. So a
 * line can be decoded by checking the parsed JSON against its member schema
 * and returning that very object: lossless by construction (unknown keys, key
 * order, everything) and without building a copy.
 *
 * The check runs on a rewrite of the schema's AST that accepts exactly the
 * same values with less work:
 *
 * - index signatures of string keys to `unknown` values (the ones that keep
 *   the unknown fields of open structs) accept every key: dropped;
 * - `preserve` parse options only matter for the output: dropped;
 * - unions of keywords and literals (`string | null`, `"a" | "b"`) become one
 *   predicate instead of trying each member in turn;
 * - arrays of such values are checked in one loop.
 *
 * A schema with a transformation or a custom declaration cannot be checked in
 * place; for those {@link validatorFor} answers `undefined` and the caller
 * decodes normally.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

type Check = (u: unknown) => boolean

const acceptsAnything = (ast: AST.AST): boolean => ast._tag === "UnknownKeyword" || ast._tag === "AnyKeyword"

// A plain predicate equivalent to the AST, for the simplest ASTs.
const predicateOf = (ast: AST.AST): Check | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return Predicate.isString
    case "NumberKeyword":
      return Predicate.isNumber
    case "BooleanKeyword":
      return Predicate.isBoolean
    case "UnknownKeyword":
    case "AnyKeyword":
      return () => true
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal
    }
    case "Union": {
      const checks: Array<Check> = []
      for (const member of ast.types) {
        const check = predicateOf(member)
        if (check === undefined) return undefined
        checks.push(check)
      }
      return (u) => {
        for (let i = 0; i < checks.length; i++) if (checks[i](u)) return true
        return false
      }
    }
  }
  return undefined
}

// A plain check in place of `original`, printed like it in error messages.
const refine = (
  original: AST.AST,
  check: (u: unknown) => Option.Option<ParseResult.ParseIssue>
): AST.Refinement =>
  new AST.Refinement(AST.unknownKeyword, check, {
    [AST.IdentifierAnnotationId]: String(original),
    ...original.annotations
  })

const withoutParseOptions = (annotations: AST.Annotations): AST.Annotations => {
  if (!Object.prototype.hasOwnProperty.call(annotations, AST.ParseOptionsAnnotationId)) return annotations
  const copy: { [key: PropertyKey]: unknown } = { ...annotations }
  delete copy[AST.ParseOptionsAnnotationId]
  return copy
}

const rewrites = new WeakMap<AST.AST, AST.AST | null>()

// The rewritten AST, or null when the schema cannot be checked in place.
const rewrite = (ast: AST.AST): AST.AST | null => {
  const cached = rewrites.get(ast)
  if (cached !== undefined) return cached
  const result = rewriteUncached(ast)
  rewrites.set(ast, result)
  return result
}

const rewriteUncached = (ast: AST.AST): AST.AST | null => {
  switch (ast._tag) {
    case "TypeLiteral":
      return rewriteTypeLiteral(ast)
    case "Union": {
      const check = predicateOf(ast)
      if (check !== undefined) {
        return refine(ast, (u) => check(u) ? Option.none() : Option.some(new ParseResult.Type(ast, u)))
      }
      const types: Array<AST.AST> = []
      for (const member of ast.types) {
        const type = rewrite(member)
        if (type === null) return null
        types.push(type)
      }
      return AST.Union.make(types, ast.annotations)
    }
    case "TupleType":
      return rewriteTuple(ast)
    case "Refinement": {
      const from = rewrite(ast.from)
      return from === null ? null : new AST.Refinement(from, ast.filter, ast.annotations)
    }
    case "Suspend":
      return new AST.Suspend(() => rewrite(ast.f()) ?? ast.f(), ast.annotations)
    case "Transformation":
    case "Declaration":
      return null
    default:
      // Keywords, literals, enums, template literals: already plain checks.
      return ast
  }
}

const rewriteTypeLiteral = (ast: AST.TypeLiteral): AST.AST | null => {
  const propertySignatures: Array<AST.PropertySignature> = []
  for (const ps of ast.propertySignatures) {
    const type = rewrite(ps.type)
    if (type === null) return null
    propertySignatures.push(new AST.PropertySignature(ps.name, type, ps.isOptional, ps.isReadonly, ps.annotations))
  }
  const indexSignatures: Array<AST.IndexSignature> = []
  for (const is of ast.indexSignatures) {
    if (is.parameter._tag === "StringKeyword" && acceptsAnything(is.type)) continue
    const type = rewrite(is.type)
    if (type === null) return null
    indexSignatures.push(new AST.IndexSignature(is.parameter, type, is.isReadonly))
  }
  if (propertySignatures.length === 0 && indexSignatures.length === 0 && ast.indexSignatures.length > 0) {
    // A record of anything: any object will do (`{}` alone would accept strings).
    return refine(ast, (u) => Predicate.isRecord(u) ? Option.none() : Option.some(new ParseResult.Type(ast, u)))
  }
  return new AST.TypeLiteral(propertySignatures, indexSignatures, withoutParseOptions(ast.annotations))
}

const rewriteTuple = (ast: AST.TupleType): AST.AST | null => {
  if (ast.elements.length === 0 && ast.rest.length === 1) {
    const item = ast.rest[0].type
    const check = predicateOf(item)
    if (check !== undefined) {
      // An array of plain values: one loop, and the issue still points at the element.
      return refine(ast, (u) => {
        if (!Array.isArray(u)) return Option.some(new ParseResult.Type(ast, u))
        for (let i = 0; i < u.length; i++) {
          if (!check(u[i])) {
            return Option.some(
              new ParseResult.Composite(ast, u, new ParseResult.Pointer(i, u, new ParseResult.Type(item, u[i])))
            )
          }
        }
        return Option.none()
      })
    }
  }
  const elements: Array<AST.OptionalType> = []
  for (const element of ast.elements) {
    const type = rewrite(element.type)
    if (type === null) return null
    elements.push(new AST.OptionalType(type, element.isOptional, element.annotations))
  }
  const rest: Array<AST.Type> = []
  for (const item of ast.rest) {
    const type = rewrite(item.type)
    if (type === null) return null
    rest.push(new AST.Type(type, item.annotations))
  }
  return new AST.TupleType(elements, rest, ast.isReadonly, ast.annotations)
}

/**
 * A check-in-place function for `schema`: on success it returns the input
 * itself. `undefined` when the schema transforms values.
 */
export const validatorFor = <A>(
  schema: Schema.Schema<A, any, never>,
  options?: AST.ParseOptions
): ((input: unknown) => Either.Either<A, ParseResult.ParseIssue>) | undefined => {
  const ast = rewrite(schema.ast)
  if (ast === null) return undefined
  const check = ParseResult.decodeUnknownEither(Schema.make<unknown>(ast), options)
  return (input) => {
    const checked = check(input)
    return Either.isRight(checked) ? Either.right(input as A) : Either.left(checked.left)
  }
}
