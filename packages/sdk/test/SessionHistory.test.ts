/**
 * SessionHistory against transcripts the real CLI 2.1.328 wrote: sessions run
 * against the ScriptedModel in an isolated CLAUDE_CONFIG_DIR, then listed,
 * read back, renamed, tagged, archived, deleted and forked, and the CLI
 * resumes what was changed.
 */
import type { Protocol } from "@claude-effect/sdk"
import { ClaudeCode, SessionHistory, SessionStore } from "@claude-effect/sdk"
import type * as ClaudeOptions from "@claude-effect/sdk/ClaudeOptions"
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { assert, describe, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { bash, harness, Workspace } from "./utils/harness.js"

/** The end-to-end harness, plus SessionHistory reading the config directory the CLI runs with. */
const withHistory = (script: ReadonlyArray<ScriptedModel.Step>, options: ClaudeOptions.OptionsInput = {}) =>
  Layer.unwrapEffect(
    Effect.map(ScriptedModel.cliEnv, (env) => SessionHistory.layer({ configDir: env.CLAUDE_CONFIG_DIR }))
  ).pipe(Layer.provideMerge(harness(script, options)))

/** Runs one prompt to its result and returns the session id. */
const run = (prompt: string, options?: ClaudeOptions.OptionsInput) =>
  ClaudeCode.result(prompt, options).pipe(Effect.map((result) => result.session_id))

const messagesOf = (sessionId: string, options?: SessionHistory.GetSessionMessagesOptions) =>
  SessionHistory.getSessionMessages(sessionId, options).pipe(Stream.runCollect, Effect.map(Chunk.toReadonlyArray))

/** What a message says: its text, its tool calls as `tool_use:<name>`, its tool results' text. */
const said = (message: SessionHistory.SessionMessage): Array<string> => {
  if (message.type === "user") {
    const content = message.message.content
    return typeof content === "string" ? [content] : content.flatMap(blockText)
  }
  if (message.type === "assistant") return message.message.content.flatMap(blockText)
  return []
}

const blockText = (block: Protocol.ContentBlock): Array<string> => {
  switch (block.type) {
    case "text":
      return [(block as Protocol.TextBlock).text]
    case "tool_use":
      return [`tool_use:${(block as Protocol.ToolUseBlock).name}`]
    case "tool_result": {
      const content = (block as Protocol.ToolResultBlock).content
      return typeof content === "string"
        ? [content]
        : Array.isArray(content)
        ? content.flatMap((part) =>
          typeof part === "object" && part !== null && "text" in part && typeof part.text === "string"
            ? [part.text]
            : []
        )
        : []
    }
    default:
      return []
  }
}

const saidAll = (messages: ReadonlyArray<SessionHistory.SessionMessage>) => messages.flatMap(said)

const agentCall = ScriptedModel.toolUse("Agent", {
  description: "helper",
  prompt: "say the secret word",
  subagent_type: "general-purpose",
  run_in_background: false
})

describe("SessionHistory", () => {
  it.live(
    "lists the sessions the CLI kept and reads back what was said, subagents included",
    () =>
      Effect.gen(function*() {
        const { cwd } = yield* Workspace
        const history = yield* SessionHistory.SessionHistory
        const apricot = yield* run("remember apricot")
        const counting = yield* Effect.scoped(Effect.gen(function*() {
          const session = yield* ClaudeCode.session()
          yield* session.turn("one").pipe(Stream.runDrain)
          yield* session.turn("two").pipe(Stream.runDrain)
          return (yield* session.sessionId) ?? ""
        }))
        const helper = yield* run("ask a helper", { allowedTools: ["Agent"] })
        const parallel = yield* run("run two commands", { allowedTools: ["Bash"] })

        // The listing: every session, newest first, with what the CLI recorded.
        const listed = yield* SessionHistory.listSessions({ dir: cwd })
        assert.deepStrictEqual(listed.map((info) => info.sessionId), [parallel, helper, counting, apricot])
        for (const info of listed) {
          assert.strictEqual(info.cwd, cwd)
          assert.strictEqual(info.fileSize, Fs.statSync(info.path).size)
          assert.strictEqual(info.lastModified, Fs.statSync(info.path).mtime.getTime())
          assert.isAtMost(info.createdAt ?? Infinity, info.lastModified)
          assert.isUndefined(info.archived)
          assert.isUndefined(info.tag)
          assert.strictEqual(NodePath.dirname(info.path), yield* history.projectDirectory(cwd))
        }
        assert.deepStrictEqual(listed.map((info) => info.firstPrompt), [
          "run two commands",
          "ask a helper",
          "one",
          "remember apricot"
        ])
        // The summary of an untitled session is its last prompt.
        assert.strictEqual(listed[2].summary, "two")
        assert.deepStrictEqual(yield* SessionHistory.getSessionInfo(apricot), listed[3])
        assert.deepStrictEqual(
          yield* SessionHistory.listSessions({ dir: cwd, offset: 1, limit: 2 }),
          listed.slice(1, 3)
        )
        // This SDK starts its sessions as a program (entrypoint sdk-ts): the CLI's own /resume leaves them out.
        assert.deepStrictEqual(yield* SessionHistory.listSessions({ dir: cwd, includeProgrammatic: false }), [])
        // Without a directory: every project.
        assert.includeMembers((yield* SessionHistory.listSessions()).map((info) => info.sessionId), [apricot, helper])

        // A conversation, decoded as the stream's messages.
        const first = yield* messagesOf(apricot)
        assert.deepStrictEqual(first.map((message) => message.type), ["user", "assistant"])
        assert.deepStrictEqual(saidAll(first), ["remember apricot", "apricot noted"])
        assert.isTrue(Schema.is(SessionHistory.SessionMessage)(first[1]))
        for (const message of first) {
          assert.strictEqual((message as Protocol.AssistantMessage).session_id, apricot)
          assert.isString((message as Protocol.AssistantMessage).uuid)
        }
        assert.deepStrictEqual(saidAll(yield* messagesOf(counting)), ["one", "uno", "two", "dos"])

        // Two tool calls in one turn, run in parallel: both calls and both results are in the conversation, the
        // results in the order the commands finished (the CLI hangs each result off its own call, and the thread
        // to the last message runs through one of them only).
        assert.deepStrictEqual(saidAll(yield* messagesOf(parallel)), [
          "run two commands",
          "running both",
          "tool_use:Bash",
          "tool_use:Bash",
          "beta",
          "alpha",
          "both ran"
        ])

        // The subagent: listed with what the CLI recorded, its own conversation tied to the parent's call.
        const agents = yield* SessionHistory.listSubagents(helper)
        assert.strictEqual(agents.length, 1)
        const agent = agents[0]
        assert.strictEqual(agent.agentType, "general-purpose")
        assert.strictEqual(agent.description, "helper")
        const parent = yield* messagesOf(helper)
        const call = parent.flatMap((message) =>
          message.type === "assistant" ? message.message.content.filter((block) => block.type === "tool_use") : []
        )[0] as Protocol.ToolUseBlock
        assert.strictEqual(agent.toolUseId, call.id)
        const sub = yield* SessionHistory.getSubagentMessages(helper, agent.agentId).pipe(Stream.runCollect)
        assert.deepStrictEqual(Chunk.toReadonlyArray(Chunk.map(sub, (message) => message.type)), ["user", "assistant"])
        assert.deepStrictEqual(saidAll(Chunk.toReadonlyArray(sub)), ["say the secret word", "the word is banana"])
        for (const message of sub) assert.strictEqual((message as Protocol.UserMessage).parent_tool_use_id, call.id)
        // ...and the parent saw the subagent's report.
        assert.isTrue(saidAll(parent).some((text) => text.includes("the word is banana")))
        assert.deepStrictEqual(yield* SessionHistory.listSubagents(apricot), [])
      }).pipe(Effect.provide(withHistory([
        ScriptedModel.subagent(ScriptedModel.text("the word is banana")),
        ScriptedModel.text("apricot noted"),
        ScriptedModel.text("uno"),
        ScriptedModel.text("dos"),
        agentCall,
        ScriptedModel.text("the helper said banana"),
        ScriptedModel.turn(ScriptedModel.text("running both"), bash("sleep 1; echo alpha"), bash("echo beta")),
        ScriptedModel.text("both ran")
      ]))),
    120_000
  )

  it.live(
    "rename and tag show in the listing, and the CLI resumes a session by the new title",
    () =>
      Effect.gen(function*() {
        const { cwd } = yield* Workspace
        const apricot = yield* run("remember apricot")
        yield* SessionHistory.renameSession(apricot, "  Fruit talk  ")
        yield* SessionHistory.tagSession(apricot, "fruit")
        const renamed = yield* SessionHistory.getSessionInfo(apricot, { dir: cwd })
        assert.strictEqual(renamed.customTitle, "Fruit talk")
        assert.strictEqual(renamed.summary, "Fruit talk")
        assert.strictEqual(renamed.tag, "fruit")
        assert.strictEqual(renamed.firstPrompt, "remember apricot")
        yield* SessionHistory.tagSession(apricot, null)
        assert.isUndefined((yield* SessionHistory.listSessions({ dir: cwd }))[0].tag)

        // The CLI reads the title we wrote: `resume` by title finds the session and its conversation.
        const resumedId = yield* run("which fruit?", { resume: "Fruit talk" })
        assert.strictEqual(resumedId, apricot)
        const last = yield* ScriptedModel.lastTurnRequest
        assert.isTrue(last.includes("remember apricot") && last.includes("apricot noted"))
        assert.strictEqual((yield* SessionHistory.getSessionInfo(apricot)).customTitle, "Fruit talk")

        // An interactive `claude` records entrypoint "cli" (this SDK's sessions say "sdk-ts", and `-p` makes any other
        // value "sdk-cli"): such a session is what the CLI's own /resume lists.
        const typed = "44444444-4444-4444-8444-444444444444"
        const file = (yield* SessionHistory.getSessionInfo(apricot)).path
        Fs.writeFileSync(
          NodePath.join(NodePath.dirname(file), `${typed}.jsonl`),
          Fs.readFileSync(file, "utf8").replaceAll(apricot, typed).replaceAll(
            "\"entrypoint\":\"sdk-ts\"",
            "\"entrypoint\":\"cli\""
          )
        )
        assert.deepStrictEqual(
          (yield* SessionHistory.listSessions({ dir: cwd, includeProgrammatic: false })).map((info) => info.sessionId),
          [typed]
        )
        assert.strictEqual((yield* SessionHistory.listSessions({ dir: cwd })).length, 2)
      }).pipe(Effect.provide(withHistory([ScriptedModel.text("apricot noted"), ScriptedModel.text("apricot")]))),
    120_000
  )

  it.live(
    "importSessionToStore copies a session that ran without a store, subagents too; resumed from the store elsewhere",
    () =>
      Effect.gen(function*() {
        const { cwd } = yield* Workspace
        const history = yield* SessionHistory.SessionHistory
        const helper = yield* run("ask a helper", { allowedTools: ["Agent"] })
        const store = yield* SessionStore.makeMemory
        // In batches of three entries: many appends, one transcript.
        yield* SessionHistory.importSessionToStore(helper, { batchSize: 3 }).pipe(
          Effect.provideService(SessionStore.SessionStore, store)
        )
        const projectDir = yield* history.projectDirectory(cwd)
        const key = { projectKey: NodePath.basename(projectDir), sessionId: helper }
        const local = Fs.readFileSync(NodePath.join(projectDir, `${helper}.jsonl`), "utf8").split("\n")
          .filter((line) => line.length > 0).map((line) => JSON.parse(line))
        assert.deepStrictEqual(Option.getOrThrow(yield* store.load(key)), local)
        const [subpath, ...more] = yield* store.listSubkeys(key)
        assert.strictEqual(more.length, 0)
        assert.match(subpath, /^subagents\/agent-[^/]+$/)
        const agent = Option.getOrThrow(yield* store.load({ ...key, subpath }))
        assert.strictEqual(agent[agent.length - 1].type, "agent_metadata")
        assert.isTrue(JSON.stringify(agent).includes("the word is banana"))

        // An empty machine, nothing on disk: the session is resumed from the store alone.
        const home = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "claude-effect-machine-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(home, { recursive: true, force: true })))
        Fs.mkdirSync(NodePath.join(home, ".claude"))
        const resumed = yield* ClaudeCode.result("what did the helper say?", {
          resume: helper,
          env: { HOME: home, CLAUDE_CONFIG_DIR: NodePath.join(home, ".claude") }
        }).pipe(Effect.provideService(SessionStore.SessionStore, store))
        assert.strictEqual(resumed.session_id, helper)
        const last = yield* ScriptedModel.lastTurnRequest
        assert.isTrue(last.includes("ask a helper"), "the resumed request carries the imported turn")
        assert.isTrue(last.includes("the helper said banana"))
        const missing = yield* history.importSessionToStore("0b8e2f4c-1d3a-4e5f-8a9b-7c6d5e4f3a2b", store).pipe(
          Effect.flip
        )
        assert.strictEqual(missing._tag, "SessionNotFoundError")
      }).pipe(
        Effect.scoped,
        Effect.provide(withHistory([
          ScriptedModel.subagent(ScriptedModel.text("the word is banana")),
          agentCall,
          ScriptedModel.text("the helper said banana"),
          ScriptedModel.text("banana, it said")
        ]))
      ),
    120_000
  )

  it.live(
    "importSessionToStore stores no secret: the listed values are redacted, unless redaction is none",
    () =>
      Effect.gen(function*() {
        const secret = "vault-token-5f1e9c2a7b"
        const sessionId = yield* run(`remember ${secret} for later`)
        const projectDir = yield* (yield* SessionHistory.SessionHistory).projectDirectory((yield* Workspace).cwd)
        const stored = (redaction: "secrets" | "none") =>
          Effect.gen(function*() {
            const store = yield* SessionStore.makeMemory
            yield* SessionHistory.importSessionToStore(sessionId, { secrets: [secret], redaction }).pipe(
              Effect.provideService(SessionStore.SessionStore, store)
            )
            const entries = yield* store.load({ projectKey: NodePath.basename(projectDir), sessionId })
            return JSON.stringify(Option.getOrThrow(entries))
          })
        const redacted = yield* stored("secrets")
        assert.notInclude(redacted, secret)
        assert.include(redacted, "remember <redacted> for later")
        assert.include(yield* stored("none"), `remember ${secret} for later`)
      }).pipe(Effect.scoped, Effect.provide(withHistory([ScriptedModel.text("noted")]))),
    120_000
  )

  it.live(
    "archive marks a session, a prompt in it unarchives it, delete removes it and its subagents",
    () =>
      Effect.gen(function*() {
        const { cwd } = yield* Workspace
        const history = yield* SessionHistory.SessionHistory
        const kept = yield* run("keep me")
        const helper = yield* run("ask a helper", { allowedTools: ["Agent"] })

        yield* SessionHistory.archiveSession(kept)
        assert.isTrue((yield* SessionHistory.getSessionInfo(kept)).archived)
        yield* SessionHistory.unarchiveSession(kept)
        assert.isFalse((yield* SessionHistory.getSessionInfo(kept)).archived)
        yield* SessionHistory.archiveSession(kept)
        // Still listed, still resumable; the prompt sent by resuming it unarchives it.
        assert.include((yield* SessionHistory.listSessions({ dir: cwd })).map((info) => info.sessionId), kept)
        yield* Effect.sleep("20 millis") // the prompt must come after the mark, at millisecond resolution
        yield* run("still there?", { resume: kept })
        assert.isFalse((yield* SessionHistory.getSessionInfo(kept)).archived)

        const sessionDir = NodePath.join(yield* history.projectDirectory(cwd), helper)
        assert.isTrue(Fs.existsSync(NodePath.join(sessionDir, "subagents")))
        yield* SessionHistory.deleteSession(helper)
        assert.isFalse(Fs.existsSync(sessionDir))
        assert.deepStrictEqual((yield* SessionHistory.listSessions({ dir: cwd })).map((info) => info.sessionId), [kept])
        const gone = yield* SessionHistory.getSessionInfo(helper).pipe(Effect.flip)
        assert.strictEqual(gone._tag, "SessionNotFoundError")
        assert.strictEqual((gone as SessionHistory.SessionNotFoundError).reason, "NoTranscript")
        // The CLI agrees: there is nothing to resume.
        const resumed = yield* run("hello?", { resume: helper }).pipe(Effect.flip)
        assert.include(resumed.message, helper)
      }).pipe(Effect.provide(withHistory([
        ScriptedModel.subagent(ScriptedModel.text("the word is banana")),
        ScriptedModel.text("kept"),
        agentCall,
        ScriptedModel.text("the helper said banana"),
        ScriptedModel.text("yes")
      ]))),
    120_000
  )

  it.live(
    "a fork is a new session the CLI resumes with the earlier turns, and the source is untouched",
    () =>
      Effect.gen(function*() {
        const { cwd } = yield* Workspace
        const source = yield* Effect.scoped(Effect.gen(function*() {
          const session = yield* ClaudeCode.session()
          yield* session.turn("one").pipe(Stream.runDrain)
          yield* session.turn("two").pipe(Stream.runDrain)
          return (yield* session.sessionId) ?? ""
        }))
        const { sessionId: forkId } = yield* SessionHistory.forkSession(source)
        assert.notStrictEqual(forkId, source)
        const fork = yield* SessionHistory.getSessionInfo(forkId, { dir: cwd })
        assert.strictEqual(fork.customTitle, "one (fork)")
        assert.strictEqual(fork.cwd, cwd)
        assert.deepStrictEqual(saidAll(yield* messagesOf(forkId)), ["one", "uno", "two", "dos"])
        // Fresh uuids and the new session id on every message.
        const sourceUuids = new Set((yield* messagesOf(source)).map((m) => (m as Protocol.AssistantMessage).uuid))
        for (const message of yield* messagesOf(forkId)) {
          assert.strictEqual((message as Protocol.AssistantMessage).session_id, forkId)
          assert.isFalse(sourceUuids.has((message as Protocol.AssistantMessage).uuid))
        }

        // Resumed by the CLI, the fork carries the earlier turns to the model and goes on in its own transcript.
        const resumed = yield* Effect.scoped(Effect.gen(function*() {
          const session = yield* ClaudeCode.session({ resume: forkId })
          yield* session.turn("three").pipe(Stream.runDrain)
          return yield* session.sessionId
        }))
        assert.strictEqual(resumed, forkId)
        const request = yield* ScriptedModel.lastTurnRequest
        assert.isTrue(request.includes("one") && request.includes("uno") && request.includes("dos"))
        assert.strictEqual(request.lastUserText.trim().endsWith("three"), true)
        assert.deepStrictEqual(saidAll(yield* messagesOf(forkId)), ["one", "uno", "two", "dos", "three", "tres"])
        assert.deepStrictEqual(saidAll(yield* messagesOf(source)), ["one", "uno", "two", "dos"])

        // A fork up to a message: the first exchange only.
        const uno = (yield* messagesOf(source))[1]
        const { sessionId: early } = yield* SessionHistory.forkSession(source, {
          upToMessageId: (uno as Protocol.AssistantMessage).uuid,
          title: "from uno"
        })
        assert.strictEqual((yield* SessionHistory.getSessionInfo(early)).summary, "from uno")
        assert.deepStrictEqual(saidAll(yield* messagesOf(early)), ["one", "uno"])
        yield* run("again", { resume: early })
        const second = yield* ScriptedModel.lastTurnRequest
        assert.isTrue(second.includes("uno"))
        assert.isFalse(second.includes("dos"))
      }).pipe(Effect.provide(withHistory([
        ScriptedModel.text("uno"),
        ScriptedModel.text("dos"),
        ScriptedModel.text("tres"),
        ScriptedModel.text("again")
      ]))),
    120_000
  )

  it.live(
    "bad ids, missing sessions, corrupt and unreadable transcripts are typed errors; odd entries are kept",
    () =>
      Effect.gen(function*() {
        const { cwd } = yield* Workspace
        const history = yield* SessionHistory.SessionHistory
        const good = yield* run("remember apricot")
        const projectDir = yield* history.projectDirectory(cwd)

        const bad = yield* SessionHistory.getSessionInfo("not-a-session").pipe(Effect.flip)
        assert.strictEqual(bad._tag, "InvalidArgumentError")
        assert.strictEqual((bad as SessionHistory.InvalidArgumentError).argument, "sessionId")
        assert.include(bad.message, "UUID")
        const missingId = "00000000-0000-4000-8000-000000000000"
        const missing = yield* messagesOf(missingId).pipe(Effect.flip)
        assert.strictEqual(missing._tag, "SessionNotFoundError")
        assert.include(missing.message, history.projectsDir)
        const emptyTitle = yield* SessionHistory.renameSession(good, "   ").pipe(Effect.flip)
        assert.strictEqual((emptyTitle as SessionHistory.InvalidArgumentError).argument, "title")
        const noMessage = yield* SessionHistory.forkSession(good, { upToMessageId: "nope" }).pipe(Effect.flip)
        assert.strictEqual((noMessage as SessionHistory.InvalidArgumentError).argument, "upToMessageId")
        const noAgent = yield* SessionHistory.getSubagentMessages(good, "a0").pipe(Stream.runDrain, Effect.flip)
        assert.strictEqual((noAgent as SessionHistory.SessionNotFoundError).reason, "NoSubagent")

        // Not a transcript at all.
        const corruptId = "11111111-1111-4111-8111-111111111111"
        const corruptFile = NodePath.join(projectDir, `${corruptId}.jsonl`)
        Fs.writeFileSync(corruptFile, "\u0000\u0001garbage\nnot json either\n")
        const corrupt = yield* messagesOf(corruptId).pipe(Effect.flip)
        assert.strictEqual(corrupt._tag, "TranscriptError")
        assert.strictEqual((corrupt as SessionHistory.TranscriptError).reason, "Corrupt")
        assert.strictEqual((corrupt as SessionHistory.TranscriptError).path, corruptFile)
        // One bad transcript does not hide the others.
        assert.deepStrictEqual((yield* SessionHistory.listSessions({ dir: cwd })).map((info) => info.sessionId), [good])

        // Unreadable: a symlink loop where the transcript should be.
        const loopId = "22222222-2222-4222-8222-222222222222"
        const loopFile = NodePath.join(projectDir, `${loopId}.jsonl`)
        Fs.symlinkSync(loopFile, loopFile)
        const loop = yield* SessionHistory.getSessionInfo(loopId).pipe(Effect.flip)
        assert.strictEqual((loop as SessionHistory.TranscriptError).reason, "Unreadable")
        assert.strictEqual((loop as SessionHistory.TranscriptError).path, loopFile)

        // A real transcript, damaged: a line cut short and an entry of a shape no schema knows.
        const damagedId = "33333333-3333-4333-8333-333333333333"
        const original = Fs.readFileSync(NodePath.join(projectDir, `${good}.jsonl`), "utf8")
        const messages = yield* messagesOf(good)
        const lastUuid = (messages[messages.length - 1] as Protocol.AssistantMessage).uuid
        const odd = { type: "assistant", uuid: "odd-1", parentUuid: lastUuid, sessionId: good, message: { content: 5 } }
        Fs.writeFileSync(
          NodePath.join(projectDir, `${damagedId}.jsonl`),
          `${original}{"type":"user","message":{"con\n${JSON.stringify(odd)}\n`
        )
        const damaged = yield* messagesOf(damagedId)
        assert.deepStrictEqual(saidAll(damaged), ["remember apricot", "apricot noted"])
        const undecoded = damaged[damaged.length - 1]
        assert.strictEqual(undecoded.type, "undecoded")
        assert.deepStrictEqual((undecoded as SessionHistory.UndecodedEntry).entry, odd)
        assert.strictEqual((undecoded as SessionHistory.UndecodedEntry).line, original.split("\n").length + 1)
        assert.include((undecoded as SessionHistory.UndecodedEntry).reason, "message")
      }).pipe(Effect.provide(withHistory([ScriptedModel.text("apricot noted")]))),
    120_000
  )

  it.live(
    "finds the sessions of a working directory whose path is longer than 200 characters",
    () =>
      Effect.gen(function*() {
        const { cwd } = yield* Workspace
        const history = yield* SessionHistory.SessionHistory
        const deep = NodePath.join(cwd, ...Array.from({ length: 7 }, (_, i) => `a-rather-long-directory-name-${i}`))
        Fs.mkdirSync(deep, { recursive: true })
        assert.isAbove(deep.length, 200)
        const id = yield* run("deep down", { cwd: deep })
        const listed = yield* SessionHistory.listSessions({ dir: deep })
        assert.deepStrictEqual(listed.map((info) => info.sessionId), [id])
        assert.strictEqual(listed[0].cwd, deep)
        // The name is cut at 200 characters and ends with the hash this SDK computes, as the CLI's does...
        const projectDir = yield* history.projectDirectory(deep)
        assert.strictEqual(NodePath.dirname(listed[0].path), projectDir)
        assert.match(NodePath.basename(projectDir), /^[A-Za-z0-9-]{200}-[0-9a-z]+$/)
        // ...and a directory with the cut name and another hash (a CLI built with another hash function) is found
        // by the working directory its transcripts record.
        const otherHash = `${projectDir.slice(0, -NodePath.basename(projectDir).slice(201).length)}zz9`
        Fs.renameSync(projectDir, otherHash)
        assert.deepStrictEqual(
          (yield* SessionHistory.getSessionInfo(id, { dir: deep })).path,
          NodePath.join(otherHash, `${id}.jsonl`)
        )
        // The sessions of its parent directory are another project.
        assert.deepStrictEqual(yield* SessionHistory.listSessions({ dir: cwd }), [])
      }).pipe(Effect.provide(withHistory([ScriptedModel.text("found")]))),
    120_000
  )

  it.effect("reads the config directory the CLI would: CLAUDE_CONFIG_DIR, else ~/.claude; or the one given", () =>
    Effect.gen(function*() {
      const fromEnv = yield* SessionHistory.make().pipe(
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["CLAUDE_CONFIG_DIR", "/srv/agent/.claude"]])))
      )
      assert.strictEqual(fromEnv.projectsDir, "/srv/agent/.claude/projects")
      const fallback = yield* SessionHistory.make().pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map())))
      assert.strictEqual(fallback.configDir, NodePath.join(Os.homedir(), ".claude"))
      const given = yield* SessionHistory.make({ configDir: "/elsewhere" })
      assert.strictEqual(given.configDir, "/elsewhere")
      const configured = yield* SessionHistory.SessionHistory.pipe(
        Effect.provide(SessionHistory.layerConfig({ configDir: Config.string("AGENT_CONFIG_DIR") })),
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["AGENT_CONFIG_DIR", "/from/config"]])))
      )
      assert.strictEqual(configured.configDir, "/from/config")
    }).pipe(Effect.provide(NodeContext.layer)))

  it.effect.prop(
    "a project directory name is the path's letters and digits, cut at 200 characters with a hash",
    { segments: FastCheck.array(FastCheck.string({ minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 8 }) },
    ({ segments }) =>
      Effect.gen(function*() {
        const history = yield* SessionHistory.SessionHistory
        const dir = `/${segments.map((segment) => segment.replaceAll("/", "_").replaceAll("\u0000", "_")).join("/")}`
        const name = NodePath.basename(yield* history.projectDirectory(dir))
        const sanitized = NodePath.resolve(dir).replace(/[^a-zA-Z0-9]/g, "-")
        if (sanitized.length <= 200) assert.strictEqual(name, sanitized)
        else {
          assert.isTrue(name.startsWith(`${sanitized.slice(0, 200)}-`))
          assert.match(name.slice(201), /^[0-9a-z]+$/)
        }
      }).pipe(
        Effect.provide(SessionHistory.layer({ configDir: "/nonexistent-config" })),
        Effect.provide(NodeContext.layer)
      ),
    { fastCheck: { numRuns: 100 } }
  )
})
