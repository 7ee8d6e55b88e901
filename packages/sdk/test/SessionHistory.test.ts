/**
 * SessionHistory against transcripts the real CLI 2.1.328 wrote (test/fixtures/session-history, see its README):
 * each test writes them into a configuration directory of its own, then lists, reads back, renames, tags, archives,
 * deletes, forks and imports them. That the CLI resumes what was changed waits for the session's port.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { assert, describe, it } from "@effect/vitest"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Path from "effect/Path"
import * as ChildProcess from "effect/process/ChildProcess"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import * as CliLocator from "../src/CliLocator.js"
import type * as Protocol from "../src/Protocol.js"
import * as SessionHistory from "../src/SessionHistory.js"
import * as SessionStore from "../src/SessionStore.js"

// -------------------------------------------------------------------------------------------------
// The transcripts
// -------------------------------------------------------------------------------------------------

const fixtures = NodePath.join(import.meta.dirname, "fixtures", "session-history")
/** The working directory the CLI ran in when it wrote them. */
const capturedCwd = "/tmp/shcap/work"
const apricot = "6ca3daef-ab7f-4b1c-b4d3-a646bcd082c1"
const counting = "91f7c286-00b8-47fc-ac62-4acde12c3671"
const helper = "fae577c9-5339-4d0f-9c3f-0da4f1174b55"
const parallel = "cf10e6b4-7932-4a68-b502-beeb2ed2c9ce"
const deepId = "caddfe42-c519-4cfc-9fd7-1d6f303f52f3"
const deepSegments = Array.from({ length: 7 }, (_, i) => `a-rather-long-directory-name-${i}`)
/** The directory name the CLI gave the sessions of `capturedCwd/<deepSegments>` (cut at 200, its hash). */
const cliDeepDirName = `${
  `${capturedCwd}/${deepSegments.join("/")}`.replace(/[^a-zA-Z0-9]/g, "-").slice(0, 200)
}-hlbbhy`

interface Sandbox {
  /** The working directory the sessions ran in (the transcripts say so). */
  readonly cwd: string
  readonly configDir: string
  /** `<configDir>/projects/<project of cwd>`, where the sessions are. */
  readonly projectDir: string
}

/** Reads a fixture as the CLI wrote it, with its working directory moved to `cwd`. */
const fixture = (relative: string, cwd: string): string =>
  Fs.readFileSync(NodePath.join(fixtures, relative), "utf8").replaceAll(capturedCwd, cwd)

const parseJsonl = (text: string): Array<SessionStore.Entry> =>
  text.split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line))

/**
 * A configuration directory holding the four sessions of `project/`, their files dated in the order they ran
 * (apricot first, parallel last), and a working directory for them.
 */
const sandbox = (
  given?: { readonly configDir: string }
): Effect.Effect<Sandbox, never, FileSystem.FileSystem | Scope.Scope> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const root = yield* fs.realPath(yield* fs.makeTempDirectoryScoped({ prefix: "claude-effect-history-" }))
    const cwd = NodePath.join(root, "work")
    const configDir = given?.configDir ?? NodePath.join(root, ".claude")
    const projectDir = NodePath.join(configDir, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"))
    Fs.mkdirSync(cwd)
    Fs.mkdirSync(NodePath.join(projectDir, helper, "subagents"), { recursive: true })
    // Whole seconds: a fraction of a millisecond would read back rounded one way or the other.
    const base = Math.floor(Date.now() / 1000) * 1000 - 60_000
    ;[apricot, counting, helper, parallel].forEach((id, i) => {
      const file = NodePath.join(projectDir, `${id}.jsonl`)
      Fs.writeFileSync(file, fixture(`project/${id}.jsonl`, cwd))
      Fs.utimesSync(file, new Date(base + i * 1000), new Date(base + i * 1000))
    })
    for (const name of ["agent-a67f05a308613c81b.jsonl", "agent-a67f05a308613c81b.meta.json"]) {
      const relative = NodePath.join(helper, "subagents", name)
      Fs.writeFileSync(NodePath.join(projectDir, relative), fixture(NodePath.join("project", relative), cwd))
    }
    return { cwd, configDir, projectDir }
  }).pipe(Effect.orDie)

/** Runs `body` with a sandbox and SessionHistory reading its configuration directory. */
const withHistory = <A, E>(
  body: (sandbox: Sandbox) => Effect.Effect<A, E, SessionHistory.SessionHistory | FileSystem.FileSystem | Scope.Scope>
) =>
  Effect.gen(function*() {
    const box = yield* sandbox()
    return yield* body(box).pipe(Effect.provide(SessionHistory.layer({ configDir: box.configDir })))
  }).pipe(Effect.scoped, Effect.provide(NodeServices.layer))

/**
 * Runs `body` with a sandbox in the configuration directory of a scripted model's CLI environment, to check with
 * the real CLI that it takes what SessionHistory wrote.
 */
const withCli = <A, E>(
  script: ReadonlyArray<ScriptedModel.Step>,
  body: (
    sandbox: Sandbox
  ) => Effect.Effect<
    A,
    E,
    | SessionHistory.SessionHistory
    | ScriptedModel.ScriptedModel
    | ChildProcessSpawner.ChildProcessSpawner
    | FileSystem.FileSystem
    | Path.Path
    | Scope.Scope
  >
) =>
  Effect.gen(function*() {
    const box = yield* sandbox({ configDir: (yield* ScriptedModel.cliEnv).CLAUDE_CONFIG_DIR })
    return yield* body(box).pipe(Effect.provide(SessionHistory.layer({ configDir: box.configDir })))
  }).pipe(
    Effect.scoped,
    Effect.provide(ScriptedModel.layerNode(script).pipe(Layer.provideMerge(NodeServices.layer)))
  )

/** `claude -p <prompt> [args]` in `cwd` against the scripted model: its exit code, its JSON result, its stderr. */
const claudePrint = (cwd: string, prompt: string, args: ReadonlyArray<string> = []) =>
  Effect.gen(function*() {
    const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
    const executable = yield* CliLocator.locate()
    const env = yield* ScriptedModel.cliEnv
    const proc = yield* spawner.spawn(
      ChildProcess.make(executable, ["-p", prompt, "--output-format", "json", ...args], {
        cwd,
        env: { PATH: process.env.PATH ?? "", ...env },
        extendEnv: false,
        stdin: "ignore",
        forceKillAfter: Duration.seconds(3)
      })
    )
    const [stdout, stderr, exitCode] = yield* Effect.all(
      [Stream.mkString(Stream.decodeText(proc.stdout)), Stream.mkString(Stream.decodeText(proc.stderr)), proc.exitCode],
      { concurrency: "unbounded" }
    )
    let result: { readonly session_id?: string; readonly is_error?: boolean } | undefined
    try {
      result = JSON.parse(stdout)
    } catch {
      result = undefined
    }
    return { exitCode: Number(exitCode), stdout, stderr, result }
  }).pipe(Effect.scoped, Effect.timeout("90 seconds"), Effect.orDie)

const messagesOf = (sessionId: string, options?: SessionHistory.GetSessionMessagesOptions) =>
  SessionHistory.getSessionMessages(sessionId, options).pipe(Stream.runCollect)

/** What a message says: its text, its tool calls as `tool_use:<name>`, its tool results' text. */
const said = (message: SessionHistory.SessionMessage): Array<string> => {
  if (message.type === "user") {
    const content = (message as Protocol.UserMessage).message.content
    return typeof content === "string" ? [content] : content.flatMap(blockText)
  }
  if (message.type === "assistant") return (message as Protocol.AssistantMessage).message.content.flatMap(blockText)
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
        ? content.flatMap((part: unknown) =>
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

const uuidOf = (message: SessionHistory.SessionMessage): string => (message as Protocol.AssistantMessage).uuid

describe("SessionHistory", () => {
  it.live("lists the sessions the CLI kept and reads back what was said, subagents included", () =>
    withHistory(({ cwd, projectDir }) =>
      Effect.gen(function*() {
        const history = yield* SessionHistory.SessionHistory
        // The CLI's directory for a working directory is ours.
        assert.strictEqual(NodePath.basename(yield* history.projectDirectory(capturedCwd)), "-tmp-shcap-work")
        assert.strictEqual(yield* history.projectDirectory(cwd), projectDir)

        // The listing: every session, newest first, with what the CLI recorded.
        const listed = yield* SessionHistory.listSessions({ dir: cwd })
        assert.deepStrictEqual(listed.map((info) => info.sessionId), [parallel, helper, counting, apricot])
        for (const info of listed) {
          assert.strictEqual(info.cwd, cwd)
          assert.strictEqual(info.fileSize, Fs.statSync(info.path).size)
          // The transcripts are over 128 KiB: the summary comes from their first and last 64 KiB.
          assert.isAbove(info.fileSize, 128 * 1024)
          assert.strictEqual(info.lastModified, Fs.statSync(info.path).mtime.getTime())
          assert.isAtMost(info.createdAt ?? Infinity, info.lastModified)
          assert.isUndefined(info.archived)
          assert.isUndefined(info.tag)
          assert.strictEqual(NodePath.dirname(info.path), projectDir)
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
        // `claude -p` starts its sessions as a program (entrypoint sdk-cli): the CLI's own /resume leaves them out.
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
          assert.isString(uuidOf(message))
          // The transcript's own fields are kept beside the wire's.
          assert.strictEqual((message as Protocol.AssistantMessage).cwd, cwd)
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
        assert.strictEqual(agent.agentId, "a67f05a308613c81b")
        assert.strictEqual(agent.agentType, "general-purpose")
        assert.strictEqual(agent.description, "helper")
        const parent = yield* messagesOf(helper)
        const call = parent.flatMap((message) =>
          message.type === "assistant"
            ? (message as Protocol.AssistantMessage).message.content.filter((block) => block.type === "tool_use")
            : []
        )[0] as Protocol.ToolUseBlock
        assert.strictEqual(agent.toolUseId, call.id)
        const sub = yield* SessionHistory.getSubagentMessages(helper, agent.agentId).pipe(Stream.runCollect)
        assert.deepStrictEqual(sub.map((message) => message.type), ["user", "assistant"])
        assert.deepStrictEqual(saidAll(sub), ["say the secret word", "the word is banana"])
        for (const message of sub) assert.strictEqual((message as Protocol.UserMessage).parent_tool_use_id, call.id)
        // ...and the parent saw the subagent's report.
        assert.isTrue(saidAll(parent).some((text) => text.includes("the word is banana")))
        assert.deepStrictEqual(yield* SessionHistory.listSubagents(apricot), [])
      })
    ))

  it.live("rename and tag show in the listing; a session typed in a terminal is what /resume lists", () =>
    withHistory(({ cwd, projectDir }) =>
      Effect.gen(function*() {
        const file = NodePath.join(projectDir, `${apricot}.jsonl`)
        const before = Fs.readFileSync(file, "utf8")
        yield* SessionHistory.renameSession(apricot, "  Fruit talk  ")
        yield* SessionHistory.tagSession(apricot, "fruit")
        // Appended as the CLI's /rename and /tag append: one entry a line, the rest untouched.
        const after = Fs.readFileSync(file, "utf8")
        assert.isTrue(after.startsWith(before))
        assert.deepStrictEqual(parseJsonl(after.slice(before.length)), [
          { type: "custom-title", customTitle: "Fruit talk", sessionId: apricot },
          { type: "tag", tag: "fruit", sessionId: apricot }
        ])
        const renamed = yield* SessionHistory.getSessionInfo(apricot, { dir: cwd })
        assert.strictEqual(renamed.customTitle, "Fruit talk")
        assert.strictEqual(renamed.summary, "Fruit talk")
        assert.strictEqual(renamed.tag, "fruit")
        assert.strictEqual(renamed.firstPrompt, "remember apricot")
        yield* SessionHistory.tagSession(apricot, null)
        assert.isUndefined((yield* SessionHistory.getSessionInfo(apricot)).tag)
        assert.strictEqual((yield* SessionHistory.getSessionInfo(apricot)).customTitle, "Fruit talk")

        // An interactive `claude` records entrypoint "cli" (`-p` records "sdk-cli", this SDK "sdk-ts"): such a
        // session is what the CLI's own /resume lists.
        const typed = "44444444-4444-4444-8444-444444444444"
        Fs.writeFileSync(
          NodePath.join(projectDir, `${typed}.jsonl`),
          before.replaceAll(apricot, typed).replaceAll("\"entrypoint\":\"sdk-cli\"", "\"entrypoint\":\"cli\"")
        )
        assert.deepStrictEqual(
          (yield* SessionHistory.listSessions({ dir: cwd, includeProgrammatic: false })).map((info) => info.sessionId),
          [typed]
        )
        assert.strictEqual((yield* SessionHistory.listSessions({ dir: cwd })).length, 5)
      })
    ))

  it.live("importSessionToStore copies a session that ran without a store, subagents too, under a mirror's keys", () =>
    withHistory(({ projectDir }) =>
      Effect.gen(function*() {
        const history = yield* SessionHistory.SessionHistory
        const store = yield* SessionStore.makeMemory
        // Count the appends: in batches of three entries, many appends make one transcript.
        let appends = 0
        const counted = SessionStore.make({
          load: store.load,
          listSessions: store.listSessions,
          delete: store.delete,
          listSubkeys: store.listSubkeys,
          append: (key, entries) => {
            appends++
            assert.isAtMost(entries.length, 3)
            return store.append(key, entries)
          }
        })
        yield* SessionHistory.importSessionToStore(helper, { batchSize: 3 }).pipe(
          Effect.provideService(SessionStore.SessionStore, counted)
        )
        const key = { projectKey: NodePath.basename(projectDir), sessionId: helper }
        const local = parseJsonl(Fs.readFileSync(NodePath.join(projectDir, `${helper}.jsonl`), "utf8"))
        assert.deepStrictEqual(Option.getOrThrow(yield* store.load(key)), local)
        const [subpath, ...more] = yield* store.listSubkeys(key)
        assert.strictEqual(more.length, 0)
        assert.strictEqual(subpath, "subagents/agent-a67f05a308613c81b")
        const agent = Option.getOrThrow(yield* store.load({ ...key, subpath }))
        const agentLocal = parseJsonl(
          Fs.readFileSync(NodePath.join(projectDir, helper, "subagents", "agent-a67f05a308613c81b.jsonl"), "utf8")
        )
        // The subagent's transcript, then its metadata as an `agent_metadata` entry (what a resume writes back).
        assert.deepStrictEqual(agent.slice(0, -1), agentLocal)
        assert.deepStrictEqual(agent[agent.length - 1], {
          ...JSON.parse(
            Fs.readFileSync(NodePath.join(projectDir, helper, "subagents", "agent-a67f05a308613c81b.meta.json"), "utf8")
          ),
          type: "agent_metadata"
        })
        assert.isTrue(JSON.stringify(agent).includes("the word is banana"))
        assert.strictEqual(appends, Math.ceil(local.length / 3) + Math.ceil(agent.length / 3))

        // Without the subagents: the main transcript only.
        const alone = yield* SessionStore.makeMemory
        yield* history.importSessionToStore(helper, alone, { includeSubagents: false })
        assert.deepStrictEqual(Option.getOrThrow(yield* alone.load(key)), local)
        assert.deepStrictEqual(yield* alone.listSubkeys(key), [])

        const missing = yield* history.importSessionToStore("0b8e2f4c-1d3a-4e5f-8a9b-7c6d5e4f3a2b", store).pipe(
          Effect.flip
        )
        assert.strictEqual(missing._tag, "SessionNotFoundError")
        const badBatch = yield* history.importSessionToStore(helper, store, { batchSize: 0 }).pipe(Effect.flip)
        assert.strictEqual((badBatch as SessionHistory.InvalidArgumentError).argument, "batchSize")
      })
    ))

  it.live("importSessionToStore stores no secret: the listed values are redacted, unless redaction is none", () =>
    withHistory(({ projectDir }) =>
      Effect.gen(function*() {
        const secret = "vault-token-5f1e9c2a7b"
        const sessionId = "55555555-5555-4555-8555-555555555555"
        // The apricot session, as if its prompt had carried the secret.
        Fs.writeFileSync(
          NodePath.join(projectDir, `${sessionId}.jsonl`),
          Fs.readFileSync(NodePath.join(projectDir, `${apricot}.jsonl`), "utf8").replaceAll(apricot, sessionId)
            .replaceAll("remember apricot", `remember ${secret} for later`)
        )
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
      })
    ))

  it.live("archive marks a session, a prompt in it unarchives it, delete removes it and its subagents", () =>
    withHistory(({ cwd, projectDir }) =>
      Effect.gen(function*() {
        yield* SessionHistory.archiveSession(apricot)
        const mark = JSON.parse(Fs.readFileSync(NodePath.join(projectDir, apricot, "archived.json"), "utf8"))
        assert.strictEqual(mark.archived, true)
        assert.strictEqual(mark.by, "sdk")
        assert.isTrue((yield* SessionHistory.getSessionInfo(apricot)).archived)
        yield* SessionHistory.unarchiveSession(apricot)
        assert.isFalse((yield* SessionHistory.getSessionInfo(apricot)).archived)
        yield* SessionHistory.archiveSession(apricot)
        // Still listed.
        assert.include((yield* SessionHistory.listSessions({ dir: cwd })).map((info) => info.sessionId), apricot)
        assert.isTrue(
          (yield* SessionHistory.listSessions({ dir: cwd })).find((info) => info.sessionId === apricot)?.archived
        )

        // A prompt sent in it later (the entry the CLI appends when the session is resumed) unarchives it.
        const file = NodePath.join(projectDir, `${apricot}.jsonl`)
        const entries = parseJsonl(Fs.readFileSync(file, "utf8"))
        const prompt = entries.find((entry) => entry.type === "user")!
        const answer = entries.filter((entry) => entry.type === "assistant").at(-1)!
        const at = (offset: number) => new Date(Date.parse(mark.at) + offset).toISOString()
        const appendPrompt = (timestamp: string) =>
          Fs.appendFileSync(
            file,
            `${
              JSON.stringify({
                ...prompt,
                uuid: `77777777-7777-4777-8777-${String(Date.parse(timestamp)).slice(-12).padStart(12, "0")}`,
                parentUuid: answer.uuid,
                timestamp,
                message: { role: "user", content: "still there?" }
              })
            }\n`
          )
        // One from before the mark does not.
        appendPrompt(at(-1000))
        assert.isTrue((yield* SessionHistory.getSessionInfo(apricot)).archived)
        appendPrompt(at(1000))
        assert.isFalse((yield* SessionHistory.getSessionInfo(apricot)).archived)

        const sessionDir = NodePath.join(projectDir, helper)
        assert.isTrue(Fs.existsSync(NodePath.join(sessionDir, "subagents")))
        yield* SessionHistory.deleteSession(helper)
        assert.isFalse(Fs.existsSync(sessionDir))
        assert.isFalse(Fs.existsSync(`${sessionDir}.jsonl`))
        assert.deepStrictEqual(
          (yield* SessionHistory.listSessions({ dir: cwd })).map((info) => info.sessionId),
          // apricot was written last (the prompt appended to it)
          [apricot, parallel, counting]
        )
        const gone = yield* SessionHistory.getSessionInfo(helper).pipe(Effect.flip)
        assert.strictEqual(gone._tag, "SessionNotFoundError")
        assert.strictEqual((gone as SessionHistory.SessionNotFoundError).reason, "NoTranscript")
        const again = yield* SessionHistory.archiveSession(helper).pipe(Effect.flip)
        assert.strictEqual(again._tag, "SessionNotFoundError")
      })
    ))

  it.live("a fork is a new session with the earlier turns under fresh ids, and the source is untouched", () =>
    withHistory(({ cwd, projectDir }) =>
      Effect.gen(function*() {
        const sourceFile = NodePath.join(projectDir, `${counting}.jsonl`)
        const sourceText = Fs.readFileSync(sourceFile, "utf8")
        const { sessionId: forkId } = yield* SessionHistory.forkSession(counting)
        assert.notStrictEqual(forkId, counting)
        const fork = yield* SessionHistory.getSessionInfo(forkId, { dir: cwd })
        assert.strictEqual(fork.customTitle, "one (fork)")
        assert.strictEqual(fork.cwd, cwd)
        assert.strictEqual(NodePath.dirname(fork.path), projectDir)
        const forked = yield* messagesOf(forkId)
        assert.deepStrictEqual(saidAll(forked), ["one", "uno", "two", "dos"])
        // Fresh uuids and the new session id on every message; each remembers where it came from.
        const source = yield* messagesOf(counting)
        const sourceUuids = new Set(source.map(uuidOf))
        forked.forEach((message, i) => {
          assert.strictEqual((message as Protocol.AssistantMessage).session_id, forkId)
          assert.isFalse(sourceUuids.has(uuidOf(message)))
          assert.deepStrictEqual((message as Protocol.AssistantMessage).forkedFrom, {
            sessionId: counting,
            messageUuid: uuidOf(source[i])
          })
        })
        // The chain between them is kept: each entry's parent is an entry of the fork.
        const forkEntries = parseJsonl(Fs.readFileSync(fork.path, "utf8"))
        const forkUuids = new Set<unknown>(forkEntries.map((entry) => entry.uuid))
        const parents = forkEntries.map((entry) => entry.parentUuid).filter((parent) => typeof parent === "string")
        assert.isAbove(parents.length, 0)
        for (const parent of parents) assert.isTrue(forkUuids.has(parent))
        assert.strictEqual(Fs.readFileSync(sourceFile, "utf8"), sourceText)
        assert.deepStrictEqual(saidAll(yield* messagesOf(counting)), ["one", "uno", "two", "dos"])

        // A fork up to a message: the first exchange only.
        const { sessionId: early } = yield* SessionHistory.forkSession(counting, {
          upToMessageId: uuidOf(source[1]),
          title: "from uno"
        })
        const earlyInfo = yield* SessionHistory.getSessionInfo(early)
        assert.strictEqual(earlyInfo.summary, "from uno")
        assert.deepStrictEqual(saidAll(yield* messagesOf(early)), ["one", "uno"])
        // Up to and including that entry, nothing after it: the last copied entry is the one named.
        const copied = parseJsonl(Fs.readFileSync(earlyInfo.path, "utf8")).filter((entry) => "forkedFrom" in entry)
        assert.deepStrictEqual(copied.at(-1)?.forkedFrom, { sessionId: counting, messageUuid: uuidOf(source[1]) })
      })
    ))

  it.live(
    "bad ids, missing sessions, corrupt and unreadable transcripts are typed errors; odd entries are kept",
    () =>
      withHistory(({ cwd, projectDir }) =>
        Effect.gen(function*() {
          const history = yield* SessionHistory.SessionHistory
          const good = apricot

          const bad = yield* SessionHistory.getSessionInfo("not-a-session").pipe(Effect.flip)
          assert.strictEqual(bad._tag, "InvalidArgumentError")
          assert.strictEqual((bad as SessionHistory.InvalidArgumentError).argument, "sessionId")
          assert.include(bad.message, "UUID")
          // An id from outside never becomes a path as it is.
          for (const id of ["../../etc/passwd", `${good}/../${good}`, `../${NodePath.basename(projectDir)}/${good}`]) {
            const escaped = yield* SessionHistory.getSessionMessages(id).pipe(Stream.runDrain, Effect.flip)
            assert.strictEqual((escaped as SessionHistory.InvalidArgumentError).argument, "sessionId")
          }
          const badAgent = yield* SessionHistory.getSubagentMessages(helper, "../../x").pipe(
            Stream.runDrain,
            Effect.flip
          )
          assert.strictEqual((badAgent as SessionHistory.InvalidArgumentError).argument, "agentId")
          const missingId = "00000000-0000-4000-8000-000000000000"
          const missing = yield* messagesOf(missingId).pipe(Effect.flip)
          assert.strictEqual(missing._tag, "SessionNotFoundError")
          assert.include(missing.message, history.projectsDir)
          const emptyTitle = yield* SessionHistory.renameSession(good, "   ").pipe(Effect.flip)
          assert.strictEqual((emptyTitle as SessionHistory.InvalidArgumentError).argument, "title")
          const emptyTag = yield* SessionHistory.tagSession(good, " \u0000 ").pipe(Effect.flip)
          assert.strictEqual((emptyTag as SessionHistory.InvalidArgumentError).argument, "tag")
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
          assert.deepStrictEqual(
            (yield* SessionHistory.listSessions({ dir: cwd })).map((info) => info.sessionId),
            [parallel, helper, counting, apricot]
          )

          // Unreadable: a symlink loop where the transcript should be.
          const loopId = "22222222-2222-4222-8222-222222222222"
          const loopFile = NodePath.join(projectDir, `${loopId}.jsonl`)
          Fs.symlinkSync(loopFile, loopFile)
          const loop = yield* SessionHistory.getSessionInfo(loopId).pipe(Effect.flip)
          assert.strictEqual((loop as SessionHistory.TranscriptError).reason, "Unreadable")
          assert.strictEqual((loop as SessionHistory.TranscriptError).path, loopFile)
          assert.include(loop.message, "cannot be read")
          assert.include(loop.message, "Fix:")

          // A real transcript, damaged: a line cut short and an entry of a shape no schema knows.
          const damagedId = "33333333-3333-4333-8333-333333333333"
          const original = Fs.readFileSync(NodePath.join(projectDir, `${good}.jsonl`), "utf8")
          const messages = yield* messagesOf(good)
          const lastUuid = uuidOf(messages[messages.length - 1])
          const odd = {
            type: "assistant",
            uuid: "odd-1",
            parentUuid: lastUuid,
            sessionId: good,
            message: { content: 5 }
          }
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
        })
      )
  )

  it.live("finds the sessions of a working directory whose path is longer than 200 characters", () =>
    withHistory(({ configDir, cwd }) =>
      Effect.gen(function*() {
        const history = yield* SessionHistory.SessionHistory
        // The name is cut at 200 characters and ends with the hash this SDK computes, as the CLI's does.
        assert.strictEqual(
          NodePath.basename(yield* history.projectDirectory(`${capturedCwd}/${deepSegments.join("/")}`)),
          cliDeepDirName
        )
        const deep = NodePath.join(cwd, ...deepSegments)
        Fs.mkdirSync(deep, { recursive: true })
        assert.isAbove(deep.length, 200)
        const projectDir = yield* history.projectDirectory(deep)
        assert.match(NodePath.basename(projectDir), /^[A-Za-z0-9-]{200}-[0-9a-z]+$/)
        Fs.mkdirSync(projectDir, { recursive: true })
        Fs.writeFileSync(NodePath.join(projectDir, `${deepId}.jsonl`), fixture(`deep/${deepId}.jsonl`, cwd))
        const listed = yield* SessionHistory.listSessions({ dir: deep })
        assert.deepStrictEqual(listed.map((info) => info.sessionId), [deepId])
        assert.strictEqual(listed[0].cwd, deep)
        assert.strictEqual(NodePath.dirname(listed[0].path), projectDir)
        // A directory with the cut name and another hash (a CLI built with another hash function) is found by the
        // working directory its transcripts record...
        const otherHash = `${projectDir.slice(0, -NodePath.basename(projectDir).slice(201).length)}zz9`
        Fs.renameSync(projectDir, otherHash)
        assert.deepStrictEqual(
          (yield* SessionHistory.getSessionInfo(deepId, { dir: deep })).path,
          NodePath.join(otherHash, `${deepId}.jsonl`)
        )
        // ...and one whose transcripts were written elsewhere is not.
        const stranger = `${projectDir.slice(0, -NodePath.basename(projectDir).slice(201).length)}zz8`
        Fs.mkdirSync(stranger)
        Fs.writeFileSync(
          NodePath.join(stranger, `${apricot}.jsonl`),
          fixture(`project/${apricot}.jsonl`, `${deep}-elsewhere`)
        )
        assert.deepStrictEqual(
          (yield* SessionHistory.listSessions({ dir: deep })).map((info) => info.sessionId),
          [deepId]
        )
        // The sessions of its parent directory are another project.
        assert.notInclude(
          (yield* SessionHistory.listSessions({ dir: cwd })).map((info) => info.sessionId),
          deepId
        )
        assert.isTrue(Fs.existsSync(NodePath.join(configDir, "projects")))
      })
    ))

  it.effect("reads the config directory the CLI would: CLAUDE_CONFIG_DIR, else ~/.claude; or the one given", () =>
    Effect.gen(function*() {
      const fromEnv = yield* SessionHistory.make().pipe(
        Effect.provideService(
          ConfigProvider.ConfigProvider,
          ConfigProvider.fromUnknown({ CLAUDE_CONFIG_DIR: "/srv/agent/.claude" })
        )
      )
      assert.strictEqual(fromEnv.projectsDir, "/srv/agent/.claude/projects")
      const fallback = yield* SessionHistory.make().pipe(
        Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown({}))
      )
      assert.strictEqual(fallback.configDir, NodePath.join(Os.homedir(), ".claude"))
      const given = yield* SessionHistory.make({ configDir: "/elsewhere" })
      assert.strictEqual(given.configDir, "/elsewhere")
      const configured = yield* SessionHistory.SessionHistory.pipe(
        Effect.provide(SessionHistory.layerConfig({ configDir: Config.String("AGENT_CONFIG_DIR") })),
        Effect.provideService(
          ConfigProvider.ConfigProvider,
          ConfigProvider.fromUnknown({ AGENT_CONFIG_DIR: "/from/config" })
        )
      )
      assert.strictEqual(configured.configDir, "/from/config")
    }).pipe(Effect.provide(NodeServices.layer)))

  it.effect.prop(
    "a project directory name is the path's letters and digits, cut at 200 characters with a hash",
    {
      segments: Schema.Array(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(60))).check(
        Schema.isMinLength(1),
        Schema.isMaxLength(8)
      )
    },
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
        Effect.provide(NodeServices.layer)
      ),
    { arbitrary: { runs: 100 } }
  )

  describe("with the real claude CLI", () => {
    it.live(
      "the CLI resumes a session by the title renameSession wrote",
      () =>
        withCli([ScriptedModel.text("apricot")], ({ cwd }) =>
          Effect.gen(function*() {
            yield* SessionHistory.renameSession(apricot, "Fruit talk")
            const resumed = yield* claudePrint(cwd, "which fruit?", ["--resume", "Fruit talk"])
            assert.strictEqual(resumed.exitCode, 0, resumed.stderr)
            assert.strictEqual(resumed.result?.session_id, apricot)
            const last = yield* ScriptedModel.lastTurnRequest
            assert.isTrue(last.includes("remember apricot") && last.includes("apricot noted"))
            assert.strictEqual(last.lastUserText.trim(), "which fruit?")
            assert.strictEqual((yield* SessionHistory.getSessionInfo(apricot)).customTitle, "Fruit talk")
            assert.deepStrictEqual(saidAll(yield* messagesOf(apricot)), [
              "remember apricot",
              "apricot noted",
              "which fruit?",
              "apricot"
            ])
          })),
      120_000
    )

    it.live(
      "a prompt the CLI runs in an archived session unarchives it; a deleted session is not there for the CLI",
      () =>
        withCli([ScriptedModel.text("yes")], ({ cwd, projectDir }) =>
          Effect.gen(function*() {
            yield* SessionHistory.archiveSession(apricot)
            assert.isTrue((yield* SessionHistory.getSessionInfo(apricot)).archived)
            yield* Effect.sleep("20 millis") // the prompt must come after the mark, at millisecond resolution
            const resumed = yield* claudePrint(cwd, "still there?", ["--resume", apricot])
            assert.strictEqual(resumed.exitCode, 0, resumed.stderr)
            assert.isFalse((yield* SessionHistory.getSessionInfo(apricot)).archived)
            // The CLI found the mark where this SDK put it, and took it back itself.
            const mark = JSON.parse(Fs.readFileSync(NodePath.join(projectDir, apricot, "archived.json"), "utf8"))
            assert.deepInclude(mark, { archived: false, by: "cli" })

            yield* SessionHistory.deleteSession(helper)
            const gone = yield* claudePrint(cwd, "hello?", ["--resume", helper])
            assert.notStrictEqual(gone.exitCode, 0)
            assert.include(`${gone.stdout}${gone.stderr}`, helper)
          })),
      120_000
    )

    it.live(
      "the CLI resumes a fork with the earlier turns and goes on in the fork's transcript; the source is untouched",
      () =>
        withCli(
          [ScriptedModel.text("tres"), ScriptedModel.text("again")],
          ({ cwd, projectDir }) =>
            Effect.gen(function*() {
              const sourceText = Fs.readFileSync(NodePath.join(projectDir, `${counting}.jsonl`), "utf8")
              const { sessionId: forkId } = yield* SessionHistory.forkSession(counting)
              const resumed = yield* claudePrint(cwd, "three", ["--resume", forkId])
              assert.strictEqual(resumed.exitCode, 0, resumed.stderr)
              assert.strictEqual(resumed.result?.session_id, forkId)
              const request = yield* ScriptedModel.lastTurnRequest
              assert.isTrue(request.includes("one") && request.includes("uno") && request.includes("dos"))
              assert.strictEqual(request.lastUserText.trim(), "three")
              assert.deepStrictEqual(saidAll(yield* messagesOf(forkId)), ["one", "uno", "two", "dos", "three", "tres"])
              assert.strictEqual(Fs.readFileSync(NodePath.join(projectDir, `${counting}.jsonl`), "utf8"), sourceText)

              // A fork up to a message: the model sees the first exchange only.
              const uno = (yield* messagesOf(counting))[1]
              const { sessionId: early } = yield* SessionHistory.forkSession(counting, { upToMessageId: uuidOf(uno) })
              const again = yield* claudePrint(cwd, "again", ["--resume", early])
              assert.strictEqual(again.exitCode, 0, again.stderr)
              const second = yield* ScriptedModel.lastTurnRequest
              assert.isTrue(second.includes("uno"))
              assert.isFalse(second.includes("dos"))
            })
        ),
      120_000
    )
  })
})
