/**
 * Entity ids from outside: which ones the entity refuses (the rule, on any string), and the directory
 * `ClaudeSession.directoryOf` derives from any id, which is always a child of its root.
 */
import { ClaudeSession } from "@claude-effect/cluster"
import { assert, describe, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Path from "node:path"

const root = "/srv/workspaces"

// Strings made of the characters that matter here, often: separators, dots, controls, letters.
const Id = Schema.String.annotations({
  arbitrary: () => (fc) =>
    fc.oneof(
      fc.string(),
      fc.stringOf(fc.constantFrom("/", "\\", ".", "\u0000", "\n", "\u007f", "\u0085", "a", "B", "-", "é", " ")),
      fc.constantFrom("..", ".", "", "../x", "a/../b", "x".repeat(256), "é".repeat(128))
    )
})

const expectedReason = (id: string): ClaudeSession.EntityIdError["reason"] | undefined => {
  if (id.length === 0) return "Empty"
  if (new TextEncoder().encode(id).length > 255) return "TooLong"
  if (id.includes("/") || id.includes("\\")) return "PathSeparator"
  if (id === "." || id === "..") return "DotSegment"
  if ([...id].some((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f))) {
    return "ControlCharacter"
  }
  return undefined
}

describe("ClaudeSession entity ids", () => {
  it.prop("an id is refused exactly when it could act as a path or carries control characters", [Id], ([id]) => {
    const result = ClaudeSession.validateEntityId(id)
    const reason = expectedReason(id)
    if (reason === undefined) assert.deepStrictEqual(result, Either.right(id))
    else {
      assert.isTrue(Either.isLeft(result))
      assert.strictEqual(Either.getLeft(result).pipe((o) => o._tag === "Some" ? o.value.reason : undefined), reason)
    }
  }, { fastCheck: { numRuns: 500 } })

  it.prop("directoryOf: any id names a child of the root, with a plain file name", [Id], ([id]) => {
    const dir = ClaudeSession.directoryOf(root, id)
    assert.strictEqual(Path.dirname(dir), root)
    assert.match(Path.basename(dir), /^[A-Za-z0-9_-]{0,64}-[0-9a-f]{16}$/)
  }, { fastCheck: { numRuns: 500 } })

  it.prop("directoryOf: different ids, different directories", [Id, Id], ([a, b]) => {
    if (a !== b) assert.notStrictEqual(ClaudeSession.directoryOf(root, a), ClaudeSession.directoryOf(root, b))
  }, { fastCheck: { numRuns: 500 } })

  it("directoryOf keeps ids that differ only in case apart, and reads as the id", () => {
    const lower = ClaudeSession.directoryOf(root, "user-42")
    assert.notStrictEqual(lower.toLowerCase(), ClaudeSession.directoryOf(root, "User-42").toLowerCase())
    assert.isTrue(Path.basename(lower).startsWith("user-42-"))
    assert.strictEqual(Path.dirname(ClaudeSession.directoryOf(root, "../../etc")), root)
  })
})
