/**
 * The transcript store of the Claude Code CLI on the file system, behind the
 * public `SessionHistory` service.
 *
 * Layout (CLI 2.1.328): `<config>/projects/<project>/<sessionId>.jsonl` is a
 * session's transcript, one JSON entry a line, appended to by the CLI;
 * `<project>` is the session's working directory with every character but
 * ASCII letters and digits turned into `-`. Beside it, `<sessionId>/` holds
 * the subagents' transcripts (`subagents/agent-<agentId>.jsonl` with an
 * `agent-<agentId>.meta.json`), and the marks the SDKs write: `archived.json`
 * and `custom-title.json`.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Path from "effect/Path"
import type { PlatformError } from "effect/PlatformError"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as Stream from "effect/Stream"
import { randomUUID } from "node:crypto"
import { homedir } from "node:os"
import type * as SessionHistory from "../SessionHistory.js"
import type * as SessionStore from "../SessionStore.js"
import * as IssuePath from "./issuePath.js"
import * as Secrets from "./options/secrets.js"
import { AssistantMessage, SystemMessage, UserMessage } from "./protocol/messages.js"
import { validatorFor } from "./protocol/validator.js"
import * as Redaction from "./redaction.js"
import {
  InvalidArgumentError,
  type SessionHistoryError,
  SessionInfo,
  type SessionMessage,
  SessionNotFoundError,
  SubagentInfo,
  TranscriptError,
  UndecodedEntry
} from "./sessionHistoryModel.js"
import * as Transcript from "./sessionHistoryTranscript.js"
import * as Mirror from "./sessionStoreMirror.js"
import { attributes } from "./telemetry.js"

/** Every operation is a span `claude.history.<operation>`, with the session id when there is one. */
const spanPrefix = "claude.history."

/** How much of each end of a transcript a listing reads, as the official SDK does. */
const excerptBytes = 64 * 1024

/** How many transcripts a listing reads at once. */
const listConcurrency = 16

// Written by the SDKs beside a transcript (`<sessionId>/<name>`).
const ArchiveFile = Schema.fromJsonString(Schema.Struct({ archived: Schema.Boolean, at: Schema.String }))
const CustomTitleFile = Schema.fromJsonString(Schema.Struct({ customTitle: Schema.String }))
// Written by the CLI beside a subagent's transcript.
const SubagentMetaFile = Schema.fromJsonString(Schema.Struct({
  agentType: Schema.optionalKey(Schema.String),
  description: Schema.optionalKey(Schema.String),
  toolUseId: Schema.optionalKey(Schema.String),
  parentAgentId: Schema.optionalKey(Schema.String)
}))

// The stream's own check, in place: a message is the transcript's entry itself, every field kept.
const decodeAssistant = validatorFor(AssistantMessage)
const decodeUser = validatorFor(UserMessage)
const decodeSystem = validatorFor(SystemMessage)

/** A transcript found on disk. */
interface Located {
  readonly sessionId: string
  readonly projectDir: string
  /** The working directory the project directory was looked up for, when one was given. */
  readonly projectPath: string | undefined
  readonly file: string
  readonly size: number
  readonly mtime: number
}

const utf8 = new TextDecoder("utf-8")

// A SystemError's own message already starts with its tag (`NotFound: FileSystem.readFile (...)`).
const describe = (error: PlatformError): string =>
  error.reason._tag !== "BadArgument" && error.reason.description !== undefined
    ? `${error.reason._tag}: ${error.reason.description}`
    : error.reason.message

const isNotFound = (error: PlatformError): boolean => error.reason._tag === "NotFound"

/** The parsed lines a store can take: those with a string `type`. */
const storable = (lines: ReadonlyArray<{ readonly value: Record<string, unknown> }>): Array<SessionStore.Entry> => {
  const entries: Array<SessionStore.Entry> = []
  for (const line of lines) {
    if (typeof line.value.type === "string") entries.push(line.value as SessionStore.Entry)
  }
  return entries
}

/**
 * The directory the CLI keeps its configuration and transcripts in, as it
 * decides it: `CLAUDE_CONFIG_DIR` (read through the `ConfigProvider`, the
 * environment by default), else `~/.claude`.
 */
const defaultConfigDir = (path: Path.Path): Effect.Effect<string> =>
  Config.option(Config.String("CLAUDE_CONFIG_DIR")).pipe(
    Effect.orElseSucceed(() => Option.none<string>()),
    Effect.map((dir) =>
      Option.match(Option.filter(dir, (value) => value.length > 0), {
        onNone: () => path.join(homedir(), ".claude"),
        onSome: (value) => value
      }).normalize("NFC")
    )
  )

/** @internal */
export const make = Effect.fnUntraced(function*(options: SessionHistory.Options = {}) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const configDir = path.resolve(options.configDir ?? (yield* defaultConfigDir(path)))
  const projectsDir = path.join(configDir, "projects")

  const notFound = (
    sessionId: string,
    dir: string | undefined,
    reason: SessionNotFoundError["reason"] = "NoTranscript"
  ) => new SessionNotFoundError({ reason, sessionId, projectsDir, ...(dir !== undefined ? { dir } : {}) })

  const unreadable = (file: string) => (error: PlatformError) =>
    new TranscriptError({ reason: "Unreadable", path: file, detail: describe(error), cause: error })

  const unwritable = (file: string) => (error: PlatformError) =>
    new TranscriptError({ reason: "Unwritable", path: file, detail: describe(error), cause: error })

  const checkSessionId = (sessionId: string): Effect.Effect<string, InvalidArgumentError> =>
    Transcript.isUuid(sessionId) ? Effect.succeed(sessionId) : new InvalidArgumentError({
      argument: "sessionId",
      value: sessionId,
      detail: "a session id is a UUID such as 3f0e6c1a-8d2b-4c3e-9f10-2a4b6c8d0e1f; take it from listSessions, " +
        "a result's session_id or session.sessionId"
    })

  // ---------------------------------------------------------------------------------------------
  // Project directories
  // ---------------------------------------------------------------------------------------------

  /** A working directory as the CLI records it: absolute, symlinks followed. */
  const resolveDir = (dir: string) => {
    const absolute = path.resolve(dir)
    return fs.realPath(absolute).pipe(Effect.orElseSucceed(() => absolute))
  }

  const isDirectory = (candidate: string) =>
    fs.stat(candidate).pipe(
      Effect.map((info) => info.type === "Directory"),
      Effect.orElseSucceed(() => false)
    )

  const listDirectory = (dir: string): Effect.Effect<Array<string>> =>
    fs.readDirectory(dir).pipe(Effect.map((names) => [...names].sort()), Effect.orElseSucceed(() => []))

  /** The working directory the first entry of a project's transcripts records. */
  const recordedCwd = (projectDir: string) =>
    Effect.gen(function*() {
      for (const name of yield* listDirectory(projectDir)) {
        if (!name.endsWith(".jsonl")) continue
        const head = yield* readExcerpt(path.join(projectDir, name), excerptBytes).pipe(Effect.option)
        if (Option.isNone(head)) continue
        const cwd = head.value.head.find((entry) => typeof entry.cwd === "string")?.cwd
        if (typeof cwd === "string") return Option.some(cwd)
      }
      return Option.none<string>()
    })

  /**
   * The project directories of a working directory. A path longer than 200
   * characters gets a cut name plus a hash, and the CLI's hash may differ from
   * the one computed here (the official SDK meets the same): a directory with
   * the cut name and another hash counts when its transcripts were written in
   * this working directory.
   */
  const projectDirsOf = (dir: string) =>
    Effect.gen(function*() {
      const resolved = yield* resolveDir(dir)
      const exact = path.join(projectsDir, Transcript.projectDirName(resolved))
      const dirs: Array<{ readonly projectDir: string; readonly projectPath: string }> = []
      if (yield* isDirectory(exact)) dirs.push({ projectDir: exact, projectPath: resolved })
      const sanitized = Transcript.sanitizePath(resolved)
      if (sanitized.length > Transcript.maxProjectNameLength) {
        const prefix = `${sanitized.slice(0, Transcript.maxProjectNameLength)}-`
        for (const name of yield* listDirectory(projectsDir)) {
          const candidate = path.join(projectsDir, name)
          if (!name.startsWith(prefix) || candidate === exact) continue
          const cwd = yield* recordedCwd(candidate)
          if (Option.isSome(cwd) && Transcript.sanitizePath(cwd.value) === sanitized) {
            dirs.push({ projectDir: candidate, projectPath: resolved })
          }
        }
      }
      return dirs
    })

  const allProjectDirs = Effect.gen(function*() {
    const dirs: Array<{ readonly projectDir: string; readonly projectPath: string | undefined }> = []
    for (const name of yield* listDirectory(projectsDir)) {
      const projectDir = path.join(projectsDir, name)
      if (yield* isDirectory(projectDir)) dirs.push({ projectDir, projectPath: undefined })
    }
    return dirs
  })

  const projectDirs = (dir: string | undefined) => dir === undefined ? allProjectDirs : projectDirsOf(dir)

  // ---------------------------------------------------------------------------------------------
  // Finding and reading transcripts
  // ---------------------------------------------------------------------------------------------

  /** A transcript file, if it is one: absent files and empty ones (a session never written) are not. */
  const statTranscript = (
    sessionId: string,
    file: string,
    projectDir: string,
    projectPath: string | undefined
  ): Effect.Effect<Option.Option<Located>, TranscriptError> =>
    fs.stat(file).pipe(
      Effect.map((info) =>
        info.type === "File" && Number(info.size) > 0
          ? Option.some<Located>({
            sessionId,
            projectDir,
            projectPath,
            file,
            size: Number(info.size),
            mtime: Option.getOrElse(info.mtime, () => new Date(0)).getTime()
          })
          : Option.none()
      ),
      Effect.catch((error) => isNotFound(error) ? Effect.succeedNone : Effect.fail(unreadable(file)(error)))
    )

  /** Every transcript of the session, one per project directory that has it. */
  const findAll = (sessionId: string, dir: string | undefined) =>
    Effect.gen(function*() {
      const found: Array<Located> = []
      for (const { projectDir, projectPath } of yield* projectDirs(dir)) {
        const located = yield* statTranscript(
          sessionId,
          path.join(projectDir, `${sessionId}.jsonl`),
          projectDir,
          projectPath
        )
        if (Option.isSome(located)) found.push(located.value)
      }
      return found
    })

  const locate = (sessionId: string, dir: string | undefined): Effect.Effect<Located, SessionHistoryError> =>
    findAll(sessionId, dir).pipe(
      Effect.flatMap((found) => found.length > 0 ? Effect.succeed(found[0]) : Effect.fail(notFound(sessionId, dir)))
    )

  const readRange = (file: FileSystem.File, offset: number, length: number) =>
    Effect.gen(function*() {
      const bytes = yield* file.readAlloc(length, { position: BigInt(offset) })
      return Option.match(bytes, { onNone: () => "", onSome: (chunk) => utf8.decode(chunk) })
    })

  /** The first and last 64 KiB of a transcript, parsed (the same lines when the file is small). */
  const readExcerpt = (file: string, size: number) =>
    Effect.scoped(Effect.gen(function*() {
      const handle = yield* fs.open(file, { flag: "r" })
      if (size <= excerptBytes * 2) {
        const all = Transcript.parseLines(yield* readRange(handle, 0, size))
        const entries = all.entries.map((line) => line.value)
        return { head: entries, tail: entries, parsed: entries.length, unparsed: all.unparsed, whole: true }
      }
      const head = Transcript.parseLines(yield* readRange(handle, 0, excerptBytes))
      const tail = Transcript.parseLines(yield* readRange(handle, size - excerptBytes, excerptBytes))
      return {
        head: head.entries.map((line) => line.value),
        tail: tail.entries.map((line) => line.value),
        parsed: head.entries.length + tail.entries.length,
        unparsed: head.unparsed + tail.unparsed,
        whole: false
      }
    })).pipe(Effect.mapError(unreadable(file)))

  /** A small JSON file beside a transcript, decoded; absent or broken is `None` (these marks are optional). */
  const readMark = <A>(file: string, schema: Schema.Codec<A, string>): Effect.Effect<Option.Option<A>> =>
    fs.readFileString(file).pipe(Effect.flatMap(Schema.decodeEffect(schema)), Effect.option)

  const sessionDir = (located: Located) => path.join(located.projectDir, located.sessionId)

  const sidecarTitle = (located: Located) =>
    readMark(path.join(sessionDir(located), "custom-title.json"), CustomTitleFile).pipe(
      Effect.map((mark) =>
        Option.getOrUndefined(
          Option.filter(Option.map(mark, (value) => Transcript.cleanTitle(value.customTitle)), (t) => t.length > 0)
        )
      )
    )

  const archiveMark = (located: Located) =>
    readMark(path.join(sessionDir(located), "archived.json"), ArchiveFile).pipe(
      Effect.map((mark) =>
        Option.getOrUndefined(
          Option.flatMap(mark, ({ archived, at }) => {
            const time = Date.parse(at)
            return Number.isNaN(time) ? Option.none() : Option.some({ archived, at: time })
          })
        )
      )
    )

  /** Everything in a transcript, parsed; a file with content and not one JSON object line is corrupt. */
  const readLines = (file: string) =>
    fs.readFile(file).pipe(
      Effect.mapError(unreadable(file)),
      Effect.flatMap((bytes) => {
        const { entries, unparsed } = Transcript.parseLines(utf8.decode(bytes))
        return entries.length === 0 && unparsed > 0
          ? Effect.fail(
            new TranscriptError({
              reason: "Corrupt",
              path: file,
              detail: `none of its ${unparsed} lines is a JSON object`
            })
          )
          : Effect.succeed(entries)
      })
    )

  // ---------------------------------------------------------------------------------------------
  // Sessions
  // ---------------------------------------------------------------------------------------------

  type Read = SessionInfo | "Sidechain" | "Empty"

  const readInfo = (located: Located, includeProgrammatic: boolean): Effect.Effect<Read, TranscriptError> =>
    Effect.gen(function*() {
      const excerpt = yield* readExcerpt(located.file, located.size)
      if (excerpt.whole && excerpt.parsed === 0 && excerpt.unparsed > 0) {
        return yield* new TranscriptError({
          reason: "Corrupt",
          path: located.file,
          detail: `none of its ${excerpt.unparsed} lines is a JSON object`
        })
      }
      if (!includeProgrammatic && Transcript.isProgrammatic(excerpt.head, excerpt.tail)) return "Empty"
      const tailTitled = excerpt.tail.some((entry) => entry.type === "custom-title")
      const summary = Transcript.summarize(excerpt, {
        sidecarTitle: tailTitled ? undefined : yield* sidecarTitle(located),
        archive: yield* archiveMark(located),
        projectPath: located.projectPath
      })
      if (typeof summary === "string") return summary
      return new SessionInfo({
        sessionId: located.sessionId,
        lastModified: located.mtime,
        fileSize: located.size,
        path: located.file,
        ...summary
      })
    })

  const listSessions = (listOptions: SessionHistory.ListSessionsOptions = {}) =>
    Effect.gen(function*() {
      const candidates: Array<Located> = []
      for (const { projectDir, projectPath } of yield* projectDirs(listOptions.dir)) {
        for (const name of yield* listDirectory(projectDir)) {
          if (!name.endsWith(".jsonl")) continue
          const sessionId = name.slice(0, -".jsonl".length)
          if (!Transcript.isUuid(sessionId)) continue
          const located = yield* statTranscript(sessionId, path.join(projectDir, name), projectDir, projectPath).pipe(
            Effect.orElseSucceed(() => Option.none<Located>())
          )
          if (Option.isSome(located)) candidates.push(located.value)
        }
      }
      candidates.sort((a, b) =>
        b.mtime - a.mtime || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0)
      )
      const read = yield* Effect.forEach(
        candidates,
        (located) =>
          readInfo(located, listOptions.includeProgrammatic ?? true).pipe(
            // One unreadable transcript does not hide the others.
            Effect.tapError((error) => Effect.logDebug("SessionHistory: a transcript is skipped", error.message)),
            Effect.option
          ),
        { concurrency: listConcurrency }
      )
      const seen = new Set<string>()
      const sessions: Array<SessionInfo> = []
      for (const info of read) {
        if (Option.isNone(info) || typeof info.value === "string" || seen.has(info.value.sessionId)) continue
        seen.add(info.value.sessionId)
        sessions.push(info.value)
      }
      const offset = Math.max(0, listOptions.offset ?? 0)
      const limit = listOptions.limit
      return limit !== undefined && limit > 0 ? sessions.slice(offset, offset + limit) : sessions.slice(offset)
    }).pipe(Effect.withSpan(`${spanPrefix}listSessions`))

  const getSessionInfo = (sessionId: string, locateOptions: SessionHistory.SessionOptions = {}) =>
    Effect.gen(function*() {
      yield* checkSessionId(sessionId)
      const located = yield* locate(sessionId, locateOptions.dir)
      const info = yield* readInfo(located, true)
      return typeof info === "string"
        ? yield* Effect.fail(notFound(sessionId, locateOptions.dir, "NoConversation"))
        : info
    }).pipe(Effect.withSpan(`${spanPrefix}getSessionInfo`, { attributes: { [attributes.sessionId]: sessionId } }))

  const decodeMessage = (
    line: Transcript.Line,
    context: { readonly parentToolUseId: string | null; readonly parentAgentId: string | null }
  ): SessionMessage => {
    const wire = Transcript.toWireShape(line.value, context)
    const decoded: Result.Result<SessionMessage, SchemaIssue.Issue> = line.value.type === "assistant"
      ? decodeAssistant(wire)
      : line.value.type === "user"
      ? decodeUser(wire)
      : decodeSystem(wire)
    return Result.getOrElse(decoded, (issue) =>
      new UndecodedEntry({
        type: "undecoded",
        line: line.line,
        entry: line.value,
        reason: IssuePath.describe(issue)
      }))
  }

  const getSessionMessages = (
    sessionId: string,
    messagesOptions: SessionHistory.GetSessionMessagesOptions = {}
  ): Stream.Stream<SessionMessage, SessionHistoryError> =>
    Stream.unwrap(
      Effect.gen(function*() {
        yield* checkSessionId(sessionId)
        const located = yield* locate(sessionId, messagesOptions.dir)
        const lines = yield* readLines(located.file)
        const shown = Transcript.conversation(lines).filter((line) =>
          Transcript.isShown(line.value, messagesOptions.includeSystemMessages ?? false)
        )
        const context = { parentToolUseId: null, parentAgentId: null }
        return Stream.fromIterable(shown).pipe(Stream.map((line) => decodeMessage(line, context)))
      }).pipe(Effect.withSpan(`${spanPrefix}getSessionMessages`, { attributes: { [attributes.sessionId]: sessionId } }))
    )

  // ---------------------------------------------------------------------------------------------
  // Subagents
  // ---------------------------------------------------------------------------------------------

  const subagentsOf = (located: Located) =>
    Effect.gen(function*() {
      const root = path.join(sessionDir(located), "subagents")
      const files = (yield* fs.readDirectory(root, { recursive: true }).pipe(Effect.orElseSucceed(() => [])))
        .filter((name) => /(^|[\\/])agent-[^\\/]+\.jsonl$/.test(name))
        .sort()
      return yield* Effect.forEach(files, (relative) =>
        Effect.gen(function*() {
          const file = path.join(root, relative)
          const agentId = path.basename(relative).slice("agent-".length, -".jsonl".length)
          const meta = yield* readMark(file.replace(/\.jsonl$/, ".meta.json"), SubagentMetaFile)
          return new SubagentInfo({ agentId, path: file, ...Option.getOrElse(meta, () => ({})) })
        }))
    })

  const listSubagents = (sessionId: string, locateOptions: SessionHistory.SessionOptions = {}) =>
    Effect.gen(function*() {
      yield* checkSessionId(sessionId)
      return yield* subagentsOf(yield* locate(sessionId, locateOptions.dir))
    }).pipe(Effect.withSpan(`${spanPrefix}listSubagents`, { attributes: { [attributes.sessionId]: sessionId } }))

  const getSubagentMessages = (
    sessionId: string,
    agentId: string,
    locateOptions: SessionHistory.SessionOptions = {}
  ): Stream.Stream<SessionMessage, SessionHistoryError> =>
    Stream.unwrap(
      Effect.gen(function*() {
        yield* checkSessionId(sessionId)
        if (!Transcript.isAgentId(agentId)) {
          return yield* new InvalidArgumentError({
            argument: "agentId",
            value: agentId,
            detail: "an agent id is letters, digits, - and _ (e.g. a1045a8ddf6c3a519); take it from listSubagents"
          })
        }
        const located = yield* locate(sessionId, locateOptions.dir)
        const agent = (yield* subagentsOf(located)).find((info) => info.agentId === agentId)
        if (agent === undefined) {
          return yield* new SessionNotFoundError({
            reason: "NoSubagent",
            sessionId,
            agentId,
            projectsDir,
            ...(locateOptions.dir !== undefined ? { dir: locateOptions.dir } : {})
          })
        }
        const lines = yield* readLines(agent.path)
        const context = { parentToolUseId: agent.toolUseId ?? null, parentAgentId: agent.parentAgentId ?? null }
        return Stream.fromIterable(Transcript.subagentConversation(lines)).pipe(
          Stream.map((line) => decodeMessage(line, context))
        )
      }).pipe(Effect.withSpan(`${spanPrefix}getSubagentMessages`, {
        attributes: { [attributes.sessionId]: sessionId, "claude.agent_id": agentId }
      }))
    )

  // ---------------------------------------------------------------------------------------------
  // Changes
  // ---------------------------------------------------------------------------------------------

  /** Appends one entry to a transcript, as the CLI appends its own (one JSON line). */
  const appendEntry = (located: Located, entry: Transcript.Entry) =>
    Effect.scoped(Effect.gen(function*() {
      const handle = yield* fs.open(located.file, { flag: "a" })
      yield* handle.writeAll(new TextEncoder().encode(`${JSON.stringify(entry)}\n`))
    })).pipe(Effect.mapError(unwritable(located.file)))

  const renameSession = (sessionId: string, title: string, locateOptions: SessionHistory.SessionOptions = {}) =>
    Effect.gen(function*() {
      yield* checkSessionId(sessionId)
      const customTitle = title.trim()
      if (customTitle.length === 0) {
        return yield* new InvalidArgumentError({ argument: "title", value: title, detail: "a title cannot be empty" })
      }
      const located = yield* locate(sessionId, locateOptions.dir)
      yield* appendEntry(located, { type: "custom-title", customTitle, sessionId })
    }).pipe(Effect.withSpan(`${spanPrefix}renameSession`, { attributes: { [attributes.sessionId]: sessionId } }))

  const tagSession = (sessionId: string, tag: string | null, locateOptions: SessionHistory.SessionOptions = {}) =>
    Effect.gen(function*() {
      yield* checkSessionId(sessionId)
      // eslint-disable-next-line no-control-regex
      const cleaned = tag === null ? "" : tag.normalize("NFC").replace(/[\x00-\x1f\x7f-\x9f]/g, "").trim()
      if (tag !== null && cleaned.length === 0) {
        return yield* new InvalidArgumentError({
          argument: "tag",
          value: tag,
          detail: "a tag cannot be empty; pass null to clear the tag"
        })
      }
      const located = yield* locate(sessionId, locateOptions.dir)
      yield* appendEntry(located, { type: "tag", tag: cleaned, sessionId })
    }).pipe(Effect.withSpan(`${spanPrefix}tagSession`, { attributes: { [attributes.sessionId]: sessionId } }))

  const deleteSession = (sessionId: string, locateOptions: SessionHistory.SessionOptions = {}) =>
    Effect.gen(function*() {
      yield* checkSessionId(sessionId)
      const located = yield* locate(sessionId, locateOptions.dir)
      yield* fs.remove(located.file).pipe(Effect.mapError(unwritable(located.file)))
      // Its subagents' transcripts and marks go with it.
      const dir = sessionDir(located)
      yield* fs.remove(dir, { recursive: true }).pipe(
        Effect.catch((error) => isNotFound(error) ? Effect.void : Effect.fail(unwritable(dir)(error)))
      )
    }).pipe(Effect.withSpan(`${spanPrefix}deleteSession`, { attributes: { [attributes.sessionId]: sessionId } }))

  const setArchived = (sessionId: string, archived: boolean, dir: string | undefined) =>
    Effect.gen(function*() {
      yield* checkSessionId(sessionId)
      const found = yield* findAll(sessionId, dir)
      if (found.length === 0) return yield* notFound(sessionId, dir)
      const at = new Date(yield* Clock.currentTimeMillis).toISOString()
      yield* Effect.forEach(found, (located) => {
        const markDir = sessionDir(located)
        const mark = path.join(markDir, "archived.json")
        return fs.makeDirectory(markDir, { recursive: true, mode: 0o700 }).pipe(
          Effect.andThen(fs.writeFileString(mark, JSON.stringify({ archived, at, by: "sdk" }), { mode: 0o600 })),
          Effect.mapError(unwritable(mark))
        )
      }, { discard: true })
    })

  const archiveSession = (sessionId: string, locateOptions: SessionHistory.SessionOptions = {}) =>
    setArchived(sessionId, true, locateOptions.dir).pipe(
      Effect.withSpan(`${spanPrefix}archiveSession`, { attributes: { [attributes.sessionId]: sessionId } })
    )

  const unarchiveSession = (sessionId: string, locateOptions: SessionHistory.SessionOptions = {}) =>
    setArchived(sessionId, false, locateOptions.dir).pipe(
      Effect.withSpan(`${spanPrefix}unarchiveSession`, { attributes: { [attributes.sessionId]: sessionId } })
    )

  const forkSession = (sessionId: string, forkOptions: SessionHistory.ForkSessionOptions = {}) =>
    Effect.gen(function*() {
      yield* checkSessionId(sessionId)
      const located = yield* locate(sessionId, forkOptions.dir)
      const lines = yield* readLines(located.file)
      const title = forkOptions.title?.trim() ||
        `${Transcript.titleForFork(lines, yield* sidecarTitle(located)) || "Forked session"} (fork)`
      const forkId = randomUUID()
      const entries = Transcript.forkEntries(lines, {
        sourceId: sessionId,
        forkId,
        upTo: forkOptions.upToMessageId,
        title,
        now: new Date(yield* Clock.currentTimeMillis).toISOString(),
        newUuid: randomUUID
      })
      if (entries === undefined) {
        return yield* new InvalidArgumentError({
          argument: "upToMessageId",
          value: forkOptions.upToMessageId ?? "",
          detail: `session ${sessionId} has no message with this uuid; take it from getSessionMessages`
        })
      }
      if (entries.length === 0) return yield* notFound(sessionId, forkOptions.dir, "NoConversation")
      const file = path.join(located.projectDir, `${forkId}.jsonl`)
      yield* fs.writeFileString(file, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""), {
        flag: "wx",
        mode: 0o600
      }).pipe(Effect.mapError(unwritable(file)))
      return { sessionId: forkId }
    }).pipe(Effect.withSpan(`${spanPrefix}forkSession`, { attributes: { [attributes.sessionId]: sessionId } }))

  const importSessionToStore = (
    sessionId: string,
    store: SessionStore.SessionStore,
    options: SessionHistory.ImportSessionOptions = {}
  ) =>
    Effect.gen(function*() {
      yield* checkSessionId(sessionId)
      const batchSize = options.batchSize ?? 500
      if (!Number.isInteger(batchSize) || batchSize < 1) {
        return yield* new InvalidArgumentError({
          argument: "batchSize",
          value: String(options.batchSize),
          detail: "how many entries one append carries: a positive integer"
        })
      }
      const located = yield* locate(sessionId, options.dir)
      // The mirror's rule: this process's secret-looking environment values and the listed ones.
      const redactor = options.redaction === "none"
        ? Redaction.none
        : Redaction.make(Secrets.secretValues({ secrets: options.secrets }, process.env))
      // Each transcript under the key a mirrored session's file gets (located files are under projectsDir, and
      // subagents' a level deeper than the session's directory: a key always exists).
      const append = (file: string, entries: ReadonlyArray<SessionStore.Entry>) => {
        const key = Mirror.keyOfFile(projectsDir, file)!
        return Effect.try({
          try: () => entries.map((entry) => Redaction.redactJson(redactor, entry)),
          // Only a stack overflow gets here (an entry nested thousands deep): not stored rather than stored unredacted.
          catch: () =>
            new InvalidArgumentError({
              argument: "sessionId",
              value: sessionId,
              detail: `${file} holds an entry nested too deeply to redact; import it with redaction: "none"`
            })
        }).pipe(Effect.flatMap((redacted) =>
          Effect.forEach(
            Array.from({ length: Math.ceil(redacted.length / batchSize) }, (_, i) => i * batchSize),
            (start) => store.append(key, redacted.slice(start, start + batchSize)),
            { discard: true }
          )
        ))
      }
      yield* append(located.file, storable(yield* readLines(located.file)))
      if (options.includeSubagents === false) return
      // The metadata beside a subagent's transcript goes last, as an `agent_metadata` entry (what a resume
      // writes back beside it).
      for (const agent of yield* subagentsOf(located)) {
        const meta = yield* fs.readFileString(agent.path.replace(/\.jsonl$/, ".meta.json")).pipe(
          Effect.map((text) => Transcript.parseEntry(text)),
          Effect.orElseSucceed(() => undefined)
        )
        const entries = storable(yield* readLines(agent.path))
        yield* append(agent.path, meta === undefined ? entries : [...entries, { ...meta, type: "agent_metadata" }])
      }
    }).pipe(Effect.withSpan(`${spanPrefix}importSessionToStore`, { attributes: { [attributes.sessionId]: sessionId } }))

  const projectDirectory = (dir: string) =>
    Effect.map(resolveDir(dir), (resolved) => path.join(projectsDir, Transcript.projectDirName(resolved)))

  const service: SessionHistory.SessionHistory.Service = {
    configDir,
    projectsDir,
    projectDirectory,
    listSessions,
    getSessionInfo,
    getSessionMessages,
    listSubagents,
    getSubagentMessages,
    renameSession,
    tagSession,
    deleteSession,
    archiveSession,
    unarchiveSession,
    forkSession,
    importSessionToStore
  }
  return service
})
