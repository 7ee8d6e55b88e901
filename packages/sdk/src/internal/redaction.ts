/**
 * The one redaction rule for every text the SDK produces (error messages and
 * fields, causes, logs, spans): each known secret value is replaced by
 * `<redacted>` wherever it occurs, and so is a piece of a secret at either
 * edge of the text, where a cut (a kept tail, a display excerpt) went through
 * the middle of one.
 *
 * Redact first, cut after: a cut made inside an already redacted text cannot
 * expose anything; a cut made before redaction leaves a partial secret that
 * only the edge rule catches, and only at the text's own edges. Data the SDK
 * hands on uncut (transcript entries for a session store, MCP server status)
 * gets the whole-value part of the rule only ({@link redactJson}): the edge
 * rule would hit ids that happen to share four characters with a secret.
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import type * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as References from "effect/References"
import { REDACTED } from "./options/secrets.js"

/** @internal */
export interface Redactor {
  /** The secret values, longest first. */
  readonly secrets: ReadonlyArray<string>
  /** The longest secret's length (what a cut must keep in reserve). */
  readonly longest: number
  readonly redact: (text: string) => string
  /** Every whole occurrence of a secret replaced, no edge rule: for texts that were not cut. */
  readonly redactWhole: (text: string) => string
}

/**
 * The shortest piece of a secret at a text's edge that counts as a leak. A
 * shorter piece carries too little of the secret to matter, and matching it
 * would mangle ordinary text that happens to share a few characters.
 */
const MIN_EDGE_PIECE = 4

/** Secrets shorter than this are ignored: redacting them would hide ordinary words. */
const MIN_SECRET_LENGTH = 6

const replaceAll = (text: string, secret: string): string =>
  text.includes(secret) ? text.split(secret).join(REDACTED) : text

// The longest proper prefix of `text` that is a suffix of `secret` (a cut at the text's start).
const leadingPiece = (text: string, secret: string): number => {
  for (let k = Math.min(secret.length - 1, text.length); k >= MIN_EDGE_PIECE; k--) {
    if (text.startsWith(secret.slice(secret.length - k))) return k
  }
  return 0
}

// The longest proper suffix of `text` that is a prefix of `secret` (a cut at the text's end).
const trailingPiece = (text: string, secret: string): number => {
  for (let k = Math.min(secret.length - 1, text.length); k >= MIN_EDGE_PIECE; k--) {
    if (text.endsWith(secret.slice(0, k))) return k
  }
  return 0
}

/** @internal */
export const make = (values: Iterable<string>): Redactor => {
  const secrets = Array.from(new Set(Array.from(values).filter((v) => v.length >= MIN_SECRET_LENGTH)))
    .sort((a, b) => b.length - a.length)
  if (secrets.length === 0) return none
  const redactWhole = (text: string): string => {
    let out = text
    for (const secret of secrets) out = replaceAll(out, secret)
    return out
  }
  const redact = (text: string): string => {
    if (text.length === 0) return text
    let out = redactWhole(text)
    let lead = 0
    let trail = 0
    for (const secret of secrets) {
      lead = Math.max(lead, leadingPiece(out, secret))
      trail = Math.max(trail, trailingPiece(out, secret))
    }
    if (lead + trail >= out.length && (lead > 0 || trail > 0)) return REDACTED
    if (lead > 0) out = REDACTED + out.slice(lead)
    if (trail > 0) out = out.slice(0, out.length - trail) + REDACTED
    return out
  }
  return { secrets, longest: secrets[0].length, redact, redactWhole }
}

/** The redactor that knows no secret. */
export const none: Redactor = { secrets: [], longest: 0, redact: (text) => text, redactWhole: (text) => text }

/**
 * A JSON value (what `JSON.parse` makes) with every whole secret replaced in
 * its strings and keys: the same shape, still JSON. What holds no secret is
 * returned as it is, not copied.
 *
 * @internal
 */
export const redactJson = <A>(redactor: Redactor, value: A): A => {
  if (redactor.secrets.length === 0) return value
  const go = (current: unknown): unknown => {
    if (typeof current === "string") return redactor.redactWhole(current)
    if (current === null || typeof current !== "object") return current
    if (Array.isArray(current)) {
      let copy: Array<unknown> | undefined
      for (let i = 0; i < current.length; i++) {
        const item = go(current[i])
        if (item !== current[i]) (copy ??= current.slice())[i] = item
      }
      return copy ?? current
    }
    let changed = false
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(current)) {
      const name = redactor.redactWhole(key)
      const item = go(inner)
      if (name !== key || item !== inner) changed = true
      // A data property, whatever the name (`__proto__` too): an assignment could set the prototype instead.
      Object.defineProperty(out, name, { value: item, enumerable: true, writable: true, configurable: true })
    }
    return changed ? out : current
  }
  return go(value) as A
}

/**
 * A copy of a JSON-like value with every string redacted (keys are kept).
 * Cycles and depth are bounded; anything else is kept as it is.
 *
 * @internal
 */
export const redactValue = (redactor: Redactor, value: unknown): unknown => {
  if (redactor.secrets.length === 0) return value
  const seen = new WeakSet<object>()
  const go = (current: unknown, depth: number): unknown => {
    if (typeof current === "string") return redactor.redact(current)
    if (current === null || typeof current !== "object") return current
    if (depth > 32 || seen.has(current)) return "[elided]"
    seen.add(current)
    if (current instanceof Error) {
      return redactor.redact(`${current.name}: ${current.message}`)
    }
    if (Array.isArray(current)) return current.map((item) => go(item, depth + 1))
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(current)) out[key] = go(inner, depth + 1)
    return out
  }
  return go(value, 0)
}

/** Whether a text holds any whole secret. @internal */
export const leaks = (redactor: Redactor, text: string): boolean => {
  for (const secret of redactor.secrets) if (text.includes(secret)) return true
  return false
}

const redactCause = (redactor: Redactor, cause: Cause.Cause<unknown>): Cause.Cause<unknown> => {
  if (cause.reasons.length === 0) return cause
  const pretty = Cause.pretty(cause)
  return leaks(redactor, pretty) ? Cause.die(new Error(redactor.redact(pretty))) : cause
}

// The logging fiber as a logger sees it, with other log annotations: effect 4 hands a logger the fiber, whose
// `CurrentLogAnnotations` it reads (effect 3 handed it the annotations).
const withAnnotations = (
  fiber: Fiber.Fiber<unknown, unknown>,
  annotations: Readonly<Record<string, unknown>>
): Fiber.Fiber<unknown, unknown> =>
  new Proxy(fiber, {
    get(target, key) {
      if (key === "getRef") {
        return <A>(ref: Context.Reference<A>): A =>
          ref === References.CurrentLogAnnotations ? annotations as A : target.getRef(ref)
      }
      if (key === "context") return Context.add(target.context, References.CurrentLogAnnotations, annotations)
      const value: unknown = Reflect.get(target, key, target)
      return typeof value === "function" ? value.bind(target) : value
    }
  })

const redactAnnotations = (
  redactor: Redactor,
  annotations: Readonly<Record<string, unknown>>
): Readonly<Record<string, unknown>> => {
  const out: Record<string, unknown> = {}
  for (const key in annotations) out[key] = redactValue(redactor, annotations[key])
  return out
}

/**
 * A logger that hides the redactor's secrets in the message, the cause and
 * the annotations before `logger` sees them.
 *
 * @internal
 */
export const redactingLogger = <O>(logger: Logger.Logger<unknown, O>, redactor: Redactor): Logger.Logger<unknown, O> =>
  redactor.secrets.length === 0 ? logger : Logger.make((options) => {
    const annotations = options.fiber.getRef(References.CurrentLogAnnotations)
    return logger.log({
      ...options,
      message: redactValue(redactor, options.message),
      cause: redactCause(redactor, options.cause),
      fiber: Object.keys(annotations).length === 0
        ? options.fiber
        : withAnnotations(options.fiber, redactAnnotations(redactor, annotations))
    })
  })
