/**
 * Entity ids from outside: which ones a `ClaudeSession` accepts, and the
 * directory an id may safely name.
 *
 * @internal
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Crypto from "node:crypto"
import * as Path from "node:path"

/** @internal */
export const maxEntityIdBytes = 255

/** @internal */
export class EntityIdError extends Schema.TaggedError<EntityIdError>("@claude-effect/cluster/EntityIdError")(
  "EntityIdError",
  {
    /** The refused id (its first 100 characters, JSON-quoted). */
    entityId: Schema.String,
    reason: Schema.Literals(["Empty", "TooLong", "PathSeparator", "DotSegment", "ControlCharacter", "WrongShard"]),
    detail: Schema.String
  }
) {
  override get message(): string {
    return `The ClaudeSession entity id ${this.entityId} is refused (${this.reason}): ${this.detail}`
  }
}

const quoted = (entityId: string): string =>
  JSON.stringify(entityId.length > 100 ? `${entityId.slice(0, 100)}…` : entityId)

// C0 controls, DEL and C1 controls.
const isControl = (entityId: string): boolean => {
  for (let i = 0; i < entityId.length; i++) {
    const code = entityId.charCodeAt(i)
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true
  }
  return false
}

/** @internal */
export const check = (entityId: string): EntityIdError | undefined => {
  const refuse = (reason: EntityIdError["reason"], detail: string) =>
    new EntityIdError({ entityId: quoted(entityId), reason, detail })
  if (entityId.length === 0) return refuse("Empty", "an entity id names a conversation: give it a name")
  if (Buffer.byteLength(entityId, "utf8") > maxEntityIdBytes) {
    return refuse("TooLong", `at most ${maxEntityIdBytes} bytes in UTF-8 (a file name's limit)`)
  }
  if (entityId.includes("/") || entityId.includes("\\")) {
    return refuse("PathSeparator", "'/' and '\\' would make it a path; use another separator, e.g. ':'")
  }
  if (entityId === "." || entityId === "..") {
    return refuse("DotSegment", "'.' and '..' name a directory and its parent")
  }
  if (isControl(entityId)) return refuse("ControlCharacter", "control characters (NUL, newlines, ...) are refused")
  return undefined
}

/** @internal */
export const validate = (entityId: string): Result.Result<string, EntityIdError> => {
  const refusal = check(entityId)
  return refusal === undefined ? Result.succeed(entityId) : Result.fail(refusal)
}

/** @internal */
export const wrongShard = (entityId: string, claimed: string, own: string): EntityIdError =>
  new EntityIdError({
    entityId: quoted(entityId),
    reason: "WrongShard",
    detail: `the message names shard ${claimed}, but the id's shard is ${own} on this runner`
  })

/** @internal */
export const directoryOf = (root: string, entityId: string): string => {
  // A readable part and a digest of the exact id: ids that differ only in case (on a case-insensitive file system)
  // or in characters a file name cannot hold get directories of their own.
  const readable = entityId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64)
  const digest = Crypto.createHash("sha256").update(entityId, "utf8").digest("hex").slice(0, 16)
  return Path.join(Path.resolve(root), `${readable}-${digest}`)
}
