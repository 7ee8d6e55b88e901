/**
 * The session store without a session: the store contract of the in-memory
 * store, the key and entry checks every store gets from `SessionStore.make`,
 * the CLI's project keys and configuration directory, and the transcript
 * mirror (its append timeout, its redaction) fed with `transcript_mirror`
 * frames as the router would. The real-CLI half of
 * packages/sdk/test/SessionStore.test.ts waits for the session port.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Redaction from "../src/internal/redaction.js"
import * as Mirror from "../src/internal/sessionStoreMirror.js"
import * as Protocol from "../src/Protocol.js"
import * as SessionStore from "../src/SessionStore.js"

const key = (sessionId: string, subpath?: string): SessionStore.SessionKey => ({
  projectKey: "project",
  sessionId,
  ...(subpath !== undefined ? { subpath } : {})
})

const frame = (configDir: string, sessionId: string, entries: ReadonlyArray<unknown>): Protocol.Message =>
  Schema.decodeUnknownSync(Protocol.Message)({
    type: "transcript_mirror",
    filePath: Path.join(configDir, "projects", "project", `${sessionId}.jsonl`),
    entries
  })

describe("SessionStore (in memory)", () => {
  it.effect("appends in order, skips an entry whose uuid is already stored, and loads a deep-equal copy", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore.makeMemory
      assert.isTrue(Option.isNone(yield* store.load(key("s1"))))
      const first = [{ type: "user", uuid: "u1", message: { content: "hi" } }, { type: "title", title: "t" }]
      yield* store.append(key("s1"), first)
      yield* store.append(key("s1"), [{ type: "user", uuid: "u1", message: { content: "again" } }, {
        type: "assistant",
        uuid: "a1",
        nested: [1, { deep: true }]
      }])
      const loaded = yield* store.load(key("s1"))
      assert.deepStrictEqual(Option.getOrThrow(loaded), [...first, {
        type: "assistant",
        uuid: "a1",
        nested: [1, { deep: true }]
      }])
    }))

  it.effect("lists a project's main transcripts with their write times, and subagent subkeys of a session", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore.makeMemory
      yield* store.append(key("s1"), [{ type: "user", uuid: "1" }])
      yield* store.append(key("s2"), [{ type: "user", uuid: "2" }])
      yield* store.append(key("s1", "subagents/agent-a"), [{ type: "user", uuid: "3" }])
      yield* store.append({ projectKey: "other", sessionId: "s3" }, [{ type: "user", uuid: "4" }])
      const sessions = yield* store.listSessions("project")
      assert.deepStrictEqual(sessions.map((s) => s.sessionId).sort(), ["s1", "s2"])
      const s2 = sessions.find((s) => s.sessionId === "s2")!
      const s1 = sessions.find((s) => s.sessionId === "s1")!
      assert.isAbove(s2.mtime, s1.mtime - 1)
      assert.deepStrictEqual(yield* store.listSubkeys({ projectKey: "project", sessionId: "s1" }), [
        "subagents/agent-a"
      ])
      // deleting a main transcript deletes its subagent transcripts
      yield* store.delete(key("s1"))
      assert.isTrue(Option.isNone(yield* store.load(key("s1"))))
      assert.isTrue(Option.isNone(yield* store.load(key("s1", "subagents/agent-a"))))
      assert.deepStrictEqual((yield* store.listSessions("project")).map((s) => s.sessionId), ["s2"])
    }))

  it.effect("a key that would leave its place, or an entry without a type, is a typed error naming the field", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore.makeMemory
      const slash = yield* store.append({ projectKey: "p", sessionId: "../etc" }, [{ type: "user" }]).pipe(Effect.flip)
      assert.strictEqual(slash._tag, "SessionStoreError")
      assert.strictEqual(slash.reason, "InvalidKey")
      assert.strictEqual(slash.operation, "append")
      assert.include(slash.message, "sessionId")
      assert.include(slash.message, "must not contain")
      const empty = yield* store.load({ projectKey: "", sessionId: "s" }).pipe(Effect.flip)
      assert.include(empty.message, "projectKey: a project key must not be empty")
      const subpath = yield* store.load({ projectKey: "p", sessionId: "s", subpath: "a/../../b" }).pipe(Effect.flip)
      assert.include(subpath.message, "subpath")
      // @ts-expect-error an entry without its type
      const entry = yield* store.append(key("s"), [{ uuid: "x" }]).pipe(Effect.flip)
      assert.strictEqual(entry.reason, "InvalidEntry")
      assert.include(entry.message, "type")
      assert.isTrue(Option.isNone(yield* store.load(key("s"))))
    }))

  // new on effect 4: the rest of the key rules (NUL, over-long, "." and ".."), on every operation
  it.effect("NUL, a backslash, \".\", \"..\" or a name over 255 characters is refused by every operation", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore.makeMemory
      const refused = [
        { projectKey: "p", sessionId: "a\0b" },
        { projectKey: "p\\q", sessionId: "s" },
        { projectKey: "p", sessionId: "." },
        { projectKey: "..", sessionId: "s" },
        { projectKey: "p", sessionId: "x".repeat(256) },
        { projectKey: "p", sessionId: "s", subpath: "/abs" },
        { projectKey: "p", sessionId: "s", subpath: "a\0" },
        { projectKey: "p", sessionId: "s", subpath: "" }
      ]
      for (const bad of refused) {
        const errors = [
          yield* store.append(bad, [{ type: "user" }]).pipe(Effect.flip),
          yield* store.load(bad).pipe(Effect.flip),
          yield* store.delete(bad).pipe(Effect.flip)
        ]
        for (const error of errors) assert.strictEqual(error.reason, "InvalidKey", JSON.stringify(bad))
      }
      const long = yield* store.load({ projectKey: "p", sessionId: "x".repeat(256) }).pipe(Effect.flip)
      assert.include(long.message, "sessionId: a session id must be at most 255 characters (it has 256)")
      const nul = yield* store.listSubkeys({ projectKey: "p", sessionId: "a\0b" }).pipe(Effect.flip)
      assert.strictEqual(nul.operation, "listSubkeys")
      const project = yield* store.listSessions("a/b").pipe(Effect.flip)
      assert.strictEqual(project.operation, "listSessions")
      assert.include(project.message, "must not contain")
      // 255 characters is a name
      yield* store.append({ projectKey: "p", sessionId: "x".repeat(255) }, [{ type: "user" }])
      assert.isTrue(Option.isSome(yield* store.load({ projectKey: "p", sessionId: "x".repeat(255) })))
    }))

  it.effect.prop(
    "whatever JSON entries are appended load deep-equal, once per uuid",
    [Schema.Array(Schema.Struct({
      type: Schema.String,
      uuid: Schema.optional(Schema.String),
      data: Schema.Array(Schema.Union([Schema.String, Schema.Int, Schema.Boolean, Schema.Null]))
    }))],
    ([entries]) =>
      Effect.gen(function*() {
        const store = yield* SessionStore.makeMemory
        yield* store.append(key("s"), entries)
        yield* store.append(key("s"), entries.filter((entry) => entry.uuid !== undefined))
        const expected: Array<unknown> = []
        const seen = new Set<string>()
        for (const entry of entries) {
          if (entry.uuid !== undefined) {
            if (seen.has(entry.uuid)) continue
            seen.add(entry.uuid)
          }
          expected.push(entry)
        }
        const loaded = Option.getOrElse(yield* store.load(key("s")), () => [])
        assert.deepStrictEqual(loaded, JSON.parse(JSON.stringify(expected)))
      })
  )

  it("projectKey is the CLI's project directory name, or CLAUDE_CODE_PROJECT_DIR_NAME with CLAUDE_CONFIG_DIR", () => {
    assert.strictEqual(SessionStore.projectKey("/home/me/my_app.v2"), "-home-me-my-app-v2")
    const long = `/${"a".repeat(250)}`
    const keyed = SessionStore.projectKey(long)
    assert.strictEqual(keyed.slice(0, 200), `-${"a".repeat(199)}`)
    assert.match(keyed, /^-a{199}-[0-9a-z]+$/)
    assert.strictEqual(
      SessionStore.projectKey("/x", { CLAUDE_CONFIG_DIR: "/c", CLAUDE_CODE_PROJECT_DIR_NAME: "tenant-42" }),
      "tenant-42"
    )
    // without CLAUDE_CONFIG_DIR the CLI ignores the name, and so does the key
    assert.strictEqual(SessionStore.projectKey("/x", { CLAUDE_CODE_PROJECT_DIR_NAME: "tenant-42" }), "-x")
  })

  it("configDir is CLAUDE_CONFIG_DIR when set and not empty, else .claude in HOME", () => {
    assert.strictEqual(SessionStore.configDir({ CLAUDE_CONFIG_DIR: "/c", HOME: "/home/me" }), "/c")
    assert.strictEqual(SessionStore.configDir({ CLAUDE_CONFIG_DIR: "", HOME: "/home/me" }), "/home/me/.claude")
    assert.strictEqual(SessionStore.configDir({ HOME: "/home/me" }), "/home/me/.claude")
  })
})

describe("SessionStore mirroring", () => {
  it.effect("an append the store never answers times out after 60 s: the flush returns, says so, keeps the batch", () =>
    Effect.gen(function*() {
      const memory = yield* SessionStore.makeMemory
      let answering = false
      const store = SessionStore.make({
        ...memory,
        append: (key, entries) => answering ? memory.append(key, entries) : Effect.never
      })
      // The test clock's timers, counted: the flush is adjusted past its deadline once the deadline is set.
      let sleeps = 0
      const clock = yield* Effect.clockWith(Effect.succeed)
      const counting: Clock.Clock = {
        ...clock,
        sleep: (duration) => Effect.suspend(() => (sleeps++, clock.sleep(duration)))
      }
      const configDir = Path.join(Os.tmpdir(), "machine", ".claude")
      const mirror = yield* Mirror.make({ store, configDir })
      mirror.observe(frame(configDir, "s-1", [{ type: "user", uuid: "u-1" }]))
      // The flush runs uninterruptibly (a batch is sent or kept, never lost): the timeout must still end the wait.
      const flushing = yield* Effect.forkChild(Effect.provideService(mirror.flush, Clock.Clock, counting))
      while (sleeps === 0) yield* Effect.yieldNow
      yield* TestClock.adjust("60 seconds")
      const reports = yield* Fiber.join(flushing)
      assert.strictEqual(reports.length, 1)
      assert.include(JSON.stringify(reports[0]), "no answer within 1m")
      assert.include(JSON.stringify(reports[0]), "the batch is kept")
      answering = true
      assert.deepStrictEqual(yield* mirror.flush, [], "the kept batch is stored by the next flush")
      assert.deepStrictEqual(yield* memory.load(key("s-1")), Option.some([{ type: "user", uuid: "u-1" }]))
    }))
})

describe("SessionStore redaction", () => {
  it.effect("the mirror stores entries with the session's secrets replaced: same shape, ids untouched", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore.makeMemory
      const secret = "0123abcd-secret-token-9f9f"
      const configDir = Path.join(Os.tmpdir(), "machine", ".claude")
      const mirror = yield* Mirror.make({ store, configDir, redactor: Redaction.make([secret]) })
      const entry = {
        type: "user",
        // ends with the secret's first 4 characters, and starts with its last 4: not a cut, not redacted
        uuid: "9f9f0000-0000-4000-8000-000000000123",
        message: { role: "user", content: [{ type: "tool_result", content: `token=${secret}\nok`, is_error: false }] },
        toolUseResult: { stdout: `${secret}${secret}`, nested: [[{ [secret]: 1, n: 2, none: null }]] }
      }
      mirror.observe(frame(configDir, "s-1", [entry, { type: "custom-title", customTitle: "no secret here" }]))
      assert.deepStrictEqual(yield* mirror.flush, [])
      const stored = Option.getOrThrow(yield* store.load(key("s-1")))
      assert.deepStrictEqual(stored, [{
        ...entry,
        message: {
          role: "user",
          content: [{ type: "tool_result", content: "token=<redacted>\nok", is_error: false }]
        },
        toolUseResult: { stdout: "<redacted><redacted>", nested: [[{ "<redacted>": 1, n: 2, none: null }]] }
      }, { type: "custom-title", customTitle: "no secret here" }])
    }))
})
