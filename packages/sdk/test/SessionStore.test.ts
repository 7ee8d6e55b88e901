/**
 * The session store: the store contract of the in-memory store, the key and
 * entry checks every store gets from `SessionStore.make`, the CLI's project
 * keys and configuration directory, the transcript mirror (its append
 * timeout, its redaction) fed with `transcript_mirror` frames as the router
 * would; and, with the real CLI, what sessions do with a store: the
 * transcript mirrored line for line, resume and continue from the store on a
 * machine that never saw the session, a store that refuses or hangs, when
 * batches are flushed, what is redacted.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { ClaudeCode, ClaudeError, HookLayer, HookResult } from "../src/index.js"
import * as Redaction from "../src/internal/redaction.js"
import * as Mirror from "../src/internal/sessionStoreMirror.js"
import * as Protocol from "../src/Protocol.js"
import * as SessionStore from "../src/SessionStore.js"
import { bash, harness, Workspace } from "./utils/harness.js"

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(stream)

/** The turn's last message, which must be its successful result. */
const resultOf = (messages: ReadonlyArray<Protocol.Message>): Protocol.ResultSuccess => {
  const last = messages[messages.length - 1]
  assert.isTrue(Protocol.isResultMessage(last) && last.subtype === "success", JSON.stringify(last))
  return last as Protocol.ResultSuccess
}

const isMirrorError = Schema.is(Protocol.SystemMirrorError)

/** A fresh, empty "machine": its own HOME and CLAUDE_CONFIG_DIR. */
const emptyMachine = Effect.acquireRelease(
  Effect.sync(() => {
    const home = Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-machine-"))
    Fs.mkdirSync(Path.join(home, ".claude"))
    return { home, env: { HOME: home, CLAUDE_CONFIG_DIR: Path.join(home, ".claude") } }
  }),
  ({ home }) => Effect.sync(() => Fs.rmSync(home, { recursive: true, force: true }))
)

/** The lines of a session's local transcript file under a configuration directory. */
const localTranscript = (configDir: string, sessionId: string): Array<SessionStore.Entry> => {
  const projects = Path.join(configDir, "projects")
  for (const project of Fs.readdirSync(projects)) {
    const file = Path.join(projects, project, `${sessionId}.jsonl`)
    if (Fs.existsSync(file)) {
      return Fs.readFileSync(file, "utf8").split("\n").filter((line) => line.length > 0).map((line) =>
        Schema.decodeUnknownSync(Schema.fromJsonString(SessionStore.Entry))(line)
      )
    }
  }
  return []
}

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
  it.effect("NUL, a backslash, \".\", \"..\", a lone surrogate or a name over 255 characters is refused by every operation", () =>
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
        { projectKey: "p", sessionId: "s", subpath: "" },
        { projectKey: "p", sessionId: "\uD800" },
        { projectKey: "p", sessionId: "s", subpath: "a/\uDC00b" }
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
      const surrogate = yield* store.load({ projectKey: "p", sessionId: "a\uD800" }).pipe(Effect.flip)
      assert.include(surrogate.message, "a session id must be well-formed Unicode (it has a lone surrogate)")
      // 255 characters is a name, and a pair of surrogates is one character
      yield* store.append({ projectKey: "p", sessionId: "\u{1F600}" }, [{ type: "user" }])
      yield* store.append({ projectKey: "p", sessionId: "x".repeat(255) }, [{ type: "user" }])
      assert.isTrue(Option.isSome(yield* store.load({ projectKey: "p", sessionId: "x".repeat(255) })))
    }))

  it.effect.prop(
    "whatever JSON entries are appended load deep-equal, once per uuid",
    [Schema.Array(Schema.Struct({
      type: Schema.String,
      // NUL and lone surrogates are refused as InvalidEntry (the SQL store suite's contract)
      uuid: Schema.optional(
        Schema.String.check(Schema.makeFilter((uuid: string) => !/\0|[\uD800-\uDFFF]/u.test(uuid)))
      ),
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

describe("SessionStore with the real CLI", () => {
  it.live("mirrors the transcript the CLI writes: the store holds its local file, line for line", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore.SessionStore
      const model = yield* ScriptedModel.ScriptedModel
      const { cwd, exists } = yield* Workspace
      const session = yield* ClaudeCode.session({ allowedTools: ["Bash"] })
      const first = yield* collect(session.turn("make the file"))
      const sessionId = resultOf(first).session_id
      // the CLI files it where configDir and projectKey say
      assert.isTrue(Fs.existsSync(
        Path.join(SessionStore.configDir(model.cliEnv), "projects", SessionStore.projectKey(cwd), `${sessionId}.jsonl`)
      ))
      // the turn's transcript is in the store by the time its result is read
      const afterFirst = Option.getOrThrow(
        yield* store.load({ projectKey: SessionStore.projectKey(cwd), sessionId })
      )
      assert.isTrue(afterFirst.some((e) => e.type === "assistant" && JSON.stringify(e).includes("echo mirrored")))
      assert.isTrue(exists("mirrored.txt"))
      const second = yield* collect(session.turn("and again"))
      // the frames are for the store: the consumer never sees one
      assert.isFalse([...first, ...second].some((m) => m.type === "transcript_mirror"))
      const stored = Option.getOrThrow(yield* store.load({ projectKey: SessionStore.projectKey(cwd), sessionId }))
      // every line but the CLI's own records of API requests (`api-request*`), which it does not mirror
      const local = localTranscript(model.cliEnv.CLAUDE_CONFIG_DIR, sessionId)
      assert.deepStrictEqual(stored, local.filter((entry) => !entry.type.startsWith("api-request")))
      assert.isTrue(stored.some((e) => JSON.stringify(e).includes("and again")))
      const sessions = yield* store.listSessions(SessionStore.projectKey(cwd))
      assert.deepStrictEqual(sessions.map((s) => s.sessionId), [sessionId])
    }).pipe(
      Effect.scoped,
      Effect.provide(Layer.merge(
        SessionStore.layerMemory,
        harness([bash("echo mirrored > mirrored.txt"), ScriptedModel.text("made it"), ScriptedModel.text("twice")])
      ))
    ))

  it.live("resumes on a machine that never saw the session: the next request carries the earlier turns", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore.SessionStore
      const { cwd } = yield* Workspace
      // machine A: the ScriptedModel's home
      const sessionId = yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session()
        return resultOf(yield* collect(session.turn("the code word is plum"))).session_id
      }))
      // machine B: an empty home, nothing on disk but the store
      const machineB = yield* emptyMachine
      const resumed = yield* Effect.scoped(Effect.gen(function*() {
        const session = yield* ClaudeCode.session({ resume: sessionId, env: machineB.env })
        return resultOf(yield* collect(session.turn("what was the code word?")))
      }))
      assert.strictEqual(resumed.result, "plum")
      assert.strictEqual(resumed.session_id, sessionId)
      const last = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(last.includes("the code word is plum"), "the resumed request carries the first prompt")
      assert.isTrue(last.includes("noted"), "and the first answer")
      // B's own configuration directory got no transcript: it was materialized in a private directory, now gone
      assert.isFalse(Fs.existsSync(Path.join(machineB.home, ".claude", "projects")))
      // the resumed turn went to the store too
      const stored = Option.getOrThrow(yield* store.load({ projectKey: SessionStore.projectKey(cwd), sessionId }))
      assert.isTrue(stored.some((e) => JSON.stringify(e).includes("what was the code word?")))
      assert.isTrue(stored.some((e) => JSON.stringify(e).includes("the code word is plum")))
    }).pipe(
      Effect.scoped,
      Effect.provide(Layer.merge(
        SessionStore.layerMemory,
        harness([ScriptedModel.text("noted"), ScriptedModel.text("plum")])
      ))
    ))

  it.live("continue takes the project's newest session from the store, in another working directory by project name", () =>
    Effect.gen(function*() {
      const tenant = { CLAUDE_CODE_PROJECT_DIR_NAME: "tenant-7" }
      const older = yield* ClaudeCode.result("older session", { env: tenant })
      const newer = yield* ClaudeCode.result("newer session", { env: tenant })
      assert.notStrictEqual(older.session_id, newer.session_id)
      const machineB = yield* emptyMachine
      const elsewhere = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), "claude-effect-elsewhere-")))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(elsewhere, { recursive: true, force: true })))
      const resumed = yield* ClaudeCode.result("which one?", {
        continue: true,
        cwd: elsewhere,
        env: { ...machineB.env, ...tenant }
      })
      assert.strictEqual(resumed.session_id, newer.session_id)
      const last = yield* ScriptedModel.lastTurnRequest
      assert.isTrue(last.includes("newer session"))
      assert.isFalse(last.includes("older session"))
    }).pipe(
      Effect.scoped,
      Effect.provide(Layer.merge(
        SessionStore.layerMemory,
        harness([ScriptedModel.text("one"), ScriptedModel.text("two"), ScriptedModel.text("the newer")])
      ))
    ))

  it.live(
    "a store that refuses a batch: the consumer is told, and the batch is stored once the store is back",
    () =>
      Effect.gen(function*() {
        const memory = yield* SessionStore.makeMemory
        const down = yield* Ref.make(true)
        const flaky = SessionStore.make({
          ...memory,
          append: (key, entries) =>
            Effect.flatMap(Ref.get(down), (isDown) =>
              isDown
                ? Effect.fail(
                  new ClaudeError.SessionStoreError({
                    operation: "append",
                    reason: "Unavailable",
                    detail: "the database is down"
                  })
                )
                : memory.append(key, entries))
        })
        const { cwd } = yield* Workspace
        const session = yield* ClaudeCode.session().pipe(Effect.provideService(SessionStore.SessionStore, flaky))
        const first = yield* collect(session.turn("first"))
        const sessionId = resultOf(first).session_id
        const reports = first.filter(isMirrorError)
        assert.isAbove(reports.length, 0)
        assert.include(reports[0].error, "the database is down")
        assert.include(reports[0].error, "kept and sent again")
        assert.strictEqual(reports[0].key.sessionId, sessionId)
        assert.isTrue(Option.isNone(yield* memory.load({ projectKey: SessionStore.projectKey(cwd), sessionId })))
        yield* Ref.set(down, false)
        const second = yield* collect(session.turn("second"))
        assert.isFalse(second.some(isMirrorError))
        const stored = Option.getOrThrow(yield* memory.load({ projectKey: SessionStore.projectKey(cwd), sessionId }))
        const text = JSON.stringify(stored)
        assert.include(text, "\"first\"")
        assert.include(text, "\"second\"")
        const uuids = stored.flatMap((e) => e.uuid === undefined ? [] : [e.uuid])
        assert.strictEqual(new Set(uuids).size, uuids.length)
      }).pipe(Effect.scoped, Effect.provide(harness([ScriptedModel.text("one"), ScriptedModel.text("two")]))),
    90_000
  )

  it.live("a store that never answers a resume's load fails the session within loadTimeoutMs, nothing spawned", () =>
    Effect.gen(function*() {
      const memory = yield* SessionStore.makeMemory
      const hung = SessionStore.make({ ...memory, load: () => Effect.never })
      const started = Date.now()
      const error = yield* ClaudeCode.session({ resume: "2f0c8a51-7e0b-4d7e-9a57-0d6f3b1c9e42", loadTimeoutMs: 300 })
        .pipe(
          Effect.provideService(SessionStore.SessionStore, hung),
          Effect.scoped,
          Effect.flip
        )
      assert.strictEqual(error._tag, "SessionStoreError")
      if (error._tag !== "SessionStoreError") return
      assert.strictEqual(error.reason, "Timeout")
      assert.strictEqual(error.operation, "load")
      assert.include(error.message, "loadTimeoutMs")
      assert.isBelow(Date.now() - started, 5_000)
      assert.lengthOf(yield* ScriptedModel.requests, 0)
    }).pipe(Effect.provide(harness([]))))

  it.live(
    "sessionStoreFlush eager: the store has the prompt while the turn still runs; batched: only at its end",
    () =>
      Effect.gen(function*() {
        const { cwd } = yield* Workspace
        // What the store holds for the running session when its Bash tool call is about to run, mid-turn.
        const storedAtToolCall = (flush: "batched" | "eager") =>
          Effect.gen(function*() {
            const store = yield* SessionStore.makeMemory
            const seen = yield* Ref.make<ReadonlyArray<SessionStore.Entry> | undefined>(undefined)
            // The turn cannot end while this hook runs, so no batched flush can happen meanwhile: a second of
            // waiting shows that none does. The eager append runs beside the reader: wait, boundedly, for it.
            const stored = (sessionId: string) =>
              Effect.map(
                store.load({ projectKey: SessionStore.projectKey(cwd), sessionId }),
                Option.getOrElse((): ReadonlyArray<SessionStore.Entry> => [])
              )
            const hook = HookLayer.preToolUse({ matcher: "Bash" }, (input) =>
              Effect.gen(function*() {
                if (flush === "batched") yield* Effect.sleep("1 second")
                for (let i = 0; flush === "eager" && i < 200; i++) {
                  if ((yield* stored(input.session_id)).length > 0) break
                  yield* Effect.sleep("50 millis")
                }
                yield* Ref.set(seen, yield* stored(input.session_id))
                return HookResult.empty
              }).pipe(Effect.orDie))
            yield* ClaudeCode.query(`run the tool (${flush})`, { allowedTools: ["Bash"], sessionStoreFlush: flush })
              .pipe(
                Stream.runDrain,
                Effect.provide(hook),
                Effect.provideService(SessionStore.SessionStore, store)
              )
            return (yield* Ref.get(seen)) ?? []
          })
        const eager = yield* storedAtToolCall("eager")
        assert.isTrue(
          JSON.stringify(eager).includes("run the tool (eager)"),
          "the prompt is stored before the turn ends"
        )
        const batched = yield* storedAtToolCall("batched")
        assert.strictEqual(batched.length, 0, "batched appends at the turn's end")
      }).pipe(
        Effect.scoped,
        Effect.provide(harness([
          bash("echo one > one.txt"),
          ScriptedModel.text("done"),
          bash("echo two > two.txt"),
          ScriptedModel.text("done")
        ]))
      ),
    90_000
  )

  it.live("by default a listed secret is stored as <redacted>; sessionStoreRedaction \"none\" stores it as written", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore.SessionStore
      const { cwd } = yield* Workspace
      const secret = "hunter2-listed-secret"
      const storedText = (sessionId: string) =>
        Effect.map(
          store.load({ projectKey: SessionStore.projectKey(cwd), sessionId }),
          (entries) => JSON.stringify(Option.getOrThrow(entries))
        )
      const redacted = yield* ClaudeCode.result(`remember ${secret}`, { secrets: [secret] })
      const kept = yield* ClaudeCode.result(`remember ${secret}`, { secrets: [secret], sessionStoreRedaction: "none" })
      assert.include(yield* storedText(redacted.session_id), "remember <redacted>")
      assert.notInclude(yield* storedText(redacted.session_id), secret)
      assert.include(yield* storedText(kept.session_id), `remember ${secret}`)
      // the model got the prompt as written both times: redaction is for what is stored
      const requests = yield* ScriptedModel.turnRequests
      assert.isTrue(requests.every((request) => request.includes(`remember ${secret}`)))
    }).pipe(
      Effect.scoped,
      Effect.provide(Layer.merge(
        SessionStore.layerMemory,
        harness([ScriptedModel.text("noted"), ScriptedModel.text("noted")])
      ))
    ))

  it.live("options that cannot mirror, and a resume id that is not a key, fail before anything is spawned", () =>
    Effect.gen(function*() {
      const noLocal = yield* ClaudeCode.session({ persistSession: false }).pipe(Effect.scoped, Effect.flip)
      assert.strictEqual(noLocal._tag, "OptionsError")
      assert.include(noLocal.message, "persistSession")
      const badKey = yield* ClaudeCode.session({ resume: "../../etc/passwd" }).pipe(Effect.scoped, Effect.flip)
      assert.strictEqual(badKey._tag, "SessionStoreError")
      assert.include(badKey.message, "sessionId")
      assert.lengthOf(yield* ScriptedModel.requests, 0)
    }).pipe(Effect.provide(Layer.merge(SessionStore.layerMemory, harness([])))))
})
