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

// A plain check in place of `original`, printed like it in error messages. Printed when an error asks: the
// printing of every union a schema holds was a good part of compiling its check.
const refine = (
  original: AST.AST,
  check: (u: unknown) => Option.Option<ParseResult.ParseIssue>
): AST.Refinement => {
  const annotations: { [key: PropertyKey]: unknown } = { ...original.annotations }
  if (!Object.prototype.hasOwnProperty.call(annotations, AST.IdentifierAnnotationId)) {
    let printed: string | undefined
    Object.defineProperty(annotations, AST.IdentifierAnnotationId, {
      enumerable: true,
      get: () => printed ??= String(original)
    })
  }
  return new AST.Refinement(AST.unknownKeyword, check, annotations)
}

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

// -----------------------------------------------------------------------------
// Compiled checks
// -----------------------------------------------------------------------------

// The rewritten AST compiled to one boolean function, so that a valid value (nearly every line) is
// checked without the Schema interpreter; only a value it rejects is checked again by
// `ParseResult`, for the error. A compiled check never accepts what `ParseResult` would refuse:
// where it is unsure (a node it does not know), it asks `ParseResult` for that node.
const compiledExact = new WeakMap<AST.AST, Check>()
const compiledLoose = new WeakMap<AST.AST, Check>()

const compile = (ast: AST.AST, exact: boolean): Check => {
  const compiled = exact ? compiledExact : compiledLoose
  const cached = compiled.get(ast)
  if (cached !== undefined) return cached
  // Recursive schemas reach themselves through a Suspend, compiled on first use: no cycle here.
  const check = compileUncached(ast, exact)
  compiled.set(ast, check)
  return check
}

const interpreted = (ast: AST.AST, exact: boolean): Check => {
  const is = ParseResult.is(Schema.make(ast), { exact })
  return (u) => is(u)
}

const compileUncached = (ast: AST.AST, exact: boolean): Check => {
  const simple = predicateOf(ast)
  if (simple !== undefined) return simple
  switch (ast._tag) {
    case "UndefinedKeyword":
    case "VoidKeyword":
      return (u) => u === undefined
    case "Refinement": {
      const from = compile(ast.from, exact)
      const filter = ast.filter
      const options = { exact }
      return (u) => from(u) && Option.isNone(filter(u, options, ast))
    }
    case "Suspend": {
      let inner: Check | undefined
      return (u) => (inner ??= compile(ast.f(), exact))(u)
    }
    case "TypeLiteral":
      return compileTypeLiteral(ast, exact)
    case "TupleType":
      return compileTuple(ast, exact)
    case "Union":
      return compileUnion(ast, exact)
    default:
      return interpreted(ast, exact)
  }
}

const compileTypeLiteral = (ast: AST.TypeLiteral, exact: boolean): Check => {
  if (ast.indexSignatures.some((is) => is.parameter._tag !== "StringKeyword")) return interpreted(ast, exact)
  const properties = ast.propertySignatures.map((ps) => ({
    name: ps.name,
    isOptional: ps.isOptional,
    check: compile(ps.type, exact)
  }))
  const values = ast.indexSignatures.map((is) => compile(is.type, exact))
  return (u) => {
    if (typeof u !== "object" || u === null || Array.isArray(u)) return false
    const record = u as Record<PropertyKey, unknown>
    for (let i = 0; i < properties.length; i++) {
      const property = properties[i]
      if (!Object.prototype.hasOwnProperty.call(record, property.name)) {
        if (property.isOptional) continue
        if (exact) return false
      }
      if (!property.check(record[property.name])) return false
    }
    if (values.length > 0) {
      for (const key of Object.keys(record)) {
        for (let i = 0; i < values.length; i++) if (!values[i](record[key])) return false
      }
    }
    return true
  }
}

const compileTuple = (ast: AST.TupleType, exact: boolean): Check => {
  if (ast.rest.length > 1) return interpreted(ast, exact)
  const elements = ast.elements.map((element) => ({
    isOptional: element.isOptional,
    check: compile(element.type, exact)
  }))
  const rest = ast.rest.length === 1 ? compile(ast.rest[0].type, exact) : undefined
  return (u) => {
    if (!Array.isArray(u)) return false
    for (let i = 0; i < elements.length; i++) {
      if (i >= u.length) {
        if (elements[i].isOptional) continue
        return false
      }
      if (!elements[i].check(u[i])) return false
    }
    if (rest === undefined) return u.length <= elements.length
    for (let i = elements.length; i < u.length; i++) if (!rest(u[i])) return false
    return true
  }
}

const typeLiteralOf = (member: AST.AST): AST.TypeLiteral | undefined => {
  while (member._tag === "Refinement") member = member.from
  return member._tag === "TypeLiteral" ? member : undefined
}

// The literal values a member requires at `key`, or undefined when it requires none there.
const literalsAt = (member: AST.AST, key: PropertyKey): ReadonlyArray<unknown> | undefined => {
  const ps = typeLiteralOf(member)?.propertySignatures.find((ps) => ps.name === key)
  if (ps === undefined || ps.isOptional) return undefined
  if (ps.type._tag === "Literal") return [ps.type.literal]
  if (ps.type._tag === "Union" && ps.type.types.every((type) => type._tag === "Literal")) {
    return ps.type.types.map((type) => (type as AST.Literal).literal)
  }
  return undefined
}

// The property that tells most members apart (`type`, `subtype`, `hook_event_name`, ...): the one with the most
// distinct required literals. None when no property has two.
const discriminatorOf = (members: ReadonlyArray<AST.AST>): PropertyKey | undefined => {
  const literals = new Map<PropertyKey, Set<unknown>>()
  for (const member of members) {
    for (const ps of typeLiteralOf(member)?.propertySignatures ?? []) {
      const values = literalsAt(member, ps.name)
      if (values === undefined) continue
      const set = literals.get(ps.name) ?? new Set()
      for (const value of values) set.add(value)
      literals.set(ps.name, set)
    }
  }
  let best: PropertyKey | undefined
  let bestCount = 1
  for (const [key, values] of literals) {
    if (values.size > bestCount) {
      best = key
      bestCount = values.size
    }
  }
  return best
}

// Members are tried in order, but only those whose discriminating literal matches the value's.
const compileUnion = (ast: AST.Union, exact: boolean): Check => {
  const checks = ast.types.map((member) => compile(member, exact))
  const key = discriminatorOf(ast.types)
  if (key === undefined) {
    return (u) => {
      for (let i = 0; i < checks.length; i++) if (checks[i](u)) return true
      return false
    }
  }
  const byLiteral = new Map<unknown, Array<Check>>()
  const others: Array<Check> = []
  ast.types.forEach((member, index) => {
    const literals = literalsAt(member, key)
    if (literals === undefined) {
      others.push(checks[index])
      return
    }
    for (const literal of literals) {
      const list = byLiteral.get(literal) ?? []
      list.push(checks[index])
      byLiteral.set(literal, list)
    }
  })
  return (u) => {
    const candidates = typeof u === "object" && u !== null
      ? byLiteral.get((u as Record<PropertyKey, unknown>)[key])
      : undefined
    if (candidates !== undefined) {
      for (let i = 0; i < candidates.length; i++) if (candidates[i](u)) return true
    }
    for (let i = 0; i < others.length; i++) if (others[i](u)) return true
    return false
  }
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
  const fast = compile(ast, options?.exact === true)
  // The Schema interpreter only says what is wrong with an input the check refused: compiled then, once
  // (compiling it with the check cost each member's first message as much as the check's own compile).
  let check: ((input: unknown) => Either.Either<unknown, ParseResult.ParseIssue>) | undefined
  return (input) => {
    if (fast(input)) return Either.right(input as A)
    const checked = (check ??= ParseResult.decodeUnknownEither(Schema.make<unknown>(ast), options))(input)
    return Either.isRight(checked) ? Either.right(input as A) : Either.left(checked.left)
  }
}

/**
 * `ParseResult.validateEither(schema, { onExcessProperty: "preserve" })`,
 * checked in place where the schema allows (an answer is checked once per
 * request: the Schema interpreter cost a can_use_tool answer ~100 µs).
 *
 * @internal
 */
export const answerValidator = <A>(
  schema: Schema.Schema<A, any, never>
): (input: unknown) => Either.Either<A, ParseResult.ParseIssue> => {
  const options = { onExcessProperty: "preserve" } as const
  return validatorFor(schema, options) ?? ParseResult.validateEither(schema, options)
}
