/**
 * Entity ids from outside: which ones the entity refuses (the rule, on any string), and the directory
 * `ClaudeSession.directoryOf` derives from any id, which is always a child of its root.
 */
import { ClaudeSession } from "@claude-effect/cluster"
import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Path from "node:path"

const root = "/srv/workspaces"

// Strings made of the characters that matter here, often: separators, dots, controls, letters.
const tricky = Schema.Literals(["/", "\\", ".", "\u0000", "\n", "\u007f", "\u0085", "a", "B", "-", "é", " "])
const Id: Arbitrary.Arbitrary<string> = Arbitrary.flatMap(
  Arbitrary.schema(Schema.Literals([0, 1, 2])),
  (kind) =>
    kind === 0
      ? Arbitrary.schema(Schema.String)
      : kind === 1
      ? Arbitrary.map(Arbitrary.array(Arbitrary.schema(tricky)), (chars) => chars.join(""))
      : Arbitrary.schema(
        Schema.Literals(["..", ".", "", "../x", "a/../b", "x".repeat(256), "é".repeat(128)])
      )
)

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
    if (reason === undefined) assert.deepStrictEqual(result, Result.succeed(id))
    else {
      assert.isTrue(Result.isFailure(result))
      assert.strictEqual(Result.isFailure(result) ? result.failure.reason : undefined, reason)
    }
  }, { arbitrary: { runs: 500 } })

  it.prop("directoryOf: any id names a child of the root, with a plain file name", [Id], ([id]) => {
    const dir = ClaudeSession.directoryOf(root, id)
    assert.strictEqual(Path.dirname(dir), root)
    assert.match(Path.basename(dir), /^[A-Za-z0-9_-]{0,64}-[0-9a-f]{16}$/)
  }, { arbitrary: { runs: 500 } })

  it.prop("directoryOf: different ids, different directories", [Id, Id], ([a, b]) => {
    if (a !== b) assert.notStrictEqual(ClaudeSession.directoryOf(root, a), ClaudeSession.directoryOf(root, b))
  }, { arbitrary: { runs: 500 } })

  it("directoryOf keeps ids that differ only in case apart, and reads as the id", () => {
    const lower = ClaudeSession.directoryOf(root, "user-42")
    assert.notStrictEqual(lower.toLowerCase(), ClaudeSession.directoryOf(root, "User-42").toLowerCase())
    assert.isTrue(Path.basename(lower).startsWith("user-42-"))
    assert.strictEqual(Path.dirname(ClaudeSession.directoryOf(root, "../../etc")), root)
  })
})
