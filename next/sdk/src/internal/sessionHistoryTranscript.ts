/**
 * What the CLI's transcript files mean, as pure functions over their text:
 * the project directory a working directory maps to, a session's summary from
 * the head and tail of its file, the conversation chain, and a fork.
 *
 * The rules are those of the CLI 2.1.328 and of the official Agent SDK 0.3.328
 * (`listSessions`, `getSessionMessages`, `forkSession`), read from its code
 * and checked against transcripts the real CLI wrote.
 *
 * @internal
 */

/** A JSON object read from a transcript line. */
export type Entry = { readonly [key: string]: unknown }

/** An entry and the line of the file it is on (from 1). */
export interface Line {
  readonly line: number
  readonly value: Entry
}

// -------------------------------------------------------------------------------------------------
// Names
// -------------------------------------------------------------------------------------------------

/** Past this length a project directory name is cut and given a hash of the full path. */
export const maxProjectNameLength = 200

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Session ids are UUIDs: the CLI and the official SDK ignore any other file name. */
export const isUuid = (value: string): boolean => uuidPattern.test(value)

/** Agent ids are file-name safe (`a` and hex digits today). */
export const isAgentId = (value: string): boolean => /^[A-Za-z0-9_-]{1,128}$/.test(value)

/** Every character but ASCII letters and digits becomes `-`. */
export const sanitizePath = (path: string): string => path.replace(/[^a-zA-Z0-9]/g, "-")

/** The 32-bit string hash the official SDK suffixes long names with, in base 36. */
export const pathHash = (path: string): string => {
  let hash = 0
  for (let i = 0; i < path.length; i++) hash = ((hash << 5) - hash + path.charCodeAt(i)) | 0
  return Math.abs(hash).toString(36)
}

/**
 * The name of the directory under `projects/` that holds the sessions of a
 * working directory (already resolved: absolute, symlinks followed).
 */
export const projectDirName = (path: string): string => {
  const sanitized = sanitizePath(path)
  return sanitized.length <= maxProjectNameLength
    ? sanitized
    : `${sanitized.slice(0, maxProjectNameLength)}-${pathHash(path)}`
}

// -------------------------------------------------------------------------------------------------
// Lines
// -------------------------------------------------------------------------------------------------

export const isEntry = (value: unknown): value is Entry =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const parseEntry = (text: string): Entry | undefined => {
  try {
    const value: unknown = JSON.parse(text)
    return isEntry(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** The JSON objects of a text, one a line; blank lines are skipped, others that are not objects counted. */
export const parseLines = (text: string): { readonly entries: Array<Line>; readonly unparsed: number } => {
  const entries: Array<Line> = []
  let unparsed = 0
  let start = 0
  let line = 0
  while (start <= text.length) {
    const end = text.indexOf("\n", start)
    const stop = end === -1 ? text.length : end
    line++
    const raw = text.slice(start, stop)
    if (raw.trim().length > 0) {
      const value = parseEntry(raw)
      if (value === undefined) unparsed++
      else entries.push({ line, value })
    }
    if (end === -1) break
    start = end + 1
  }
  return { entries, unparsed }
}

const str = (entry: Entry | undefined, key: string): string | undefined => {
  const value = entry?.[key]
  return typeof value === "string" ? value : undefined
}

/** The last entry (of `type`, when given) with a string `key`: its value. */
const lastString = (entries: ReadonlyArray<Entry>, key: string, type?: string): string | undefined => {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]
    if (type !== undefined && entry.type !== type) continue
    const value = str(entry, key)
    if (value !== undefined) return value
  }
  return undefined
}

const firstString = (entries: ReadonlyArray<Entry>, key: string): string | undefined => {
  for (const entry of entries) {
    const value = str(entry, key)
    if (value !== undefined) return value
  }
  return undefined
}

const parseTime = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined
  const time = Date.parse(value)
  return Number.isNaN(time) ? undefined : time
}

// -------------------------------------------------------------------------------------------------
// Prompts and titles
// -------------------------------------------------------------------------------------------------

const maxPromptLength = 200
// Text that is markup or an interrupt marker, not what someone typed.
const notTyped = /^(?:\s*<[a-z][\w-]*[\s>]|\[Request interrupted by user[^\]]*\])/
const commandName = /<command-name>(.*?)<\/command-name>/
const bashInput = /<bash-input>([\s\S]*?)<\/bash-input>/

const contentOf = (entry: Entry): unknown => {
  const message = entry.message
  return isEntry(message) ? message.content : undefined
}

const hasBlock = (content: unknown, type: string): boolean =>
  Array.isArray(content) && content.some((block) => isEntry(block) && block.type === type)

/**
 * What a `user` entry shows as a prompt, on one line and cut at 200
 * characters; `undefined` for tool results, meta and markup. A slash command
 * is remembered in `state` as the fallback.
 */
const promptText = (entry: Entry, state: { commandFallback: string }): string | undefined => {
  if (entry.type !== "user" || entry.isMeta === true || entry.isCompactSummary === true) return undefined
  const content = contentOf(entry)
  const texts: Array<string> = []
  if (typeof content === "string") texts.push(content)
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isEntry(block)) continue
      if (block.type === "tool_result") return undefined
      if (block.type === "text" && typeof block.text === "string") texts.push(block.text)
    }
  }
  for (const text of texts) {
    let line = text.replaceAll("\n", " ").trim()
    if (line.length === 0) continue
    const command = commandName.exec(line)
    if (command !== null) {
      if (state.commandFallback === "") state.commandFallback = command[1]
      continue
    }
    const bash = bashInput.exec(line)
    if (bash !== null) return `! ${bash[1].trim()}`
    if (notTyped.test(line)) continue
    if (line.length > maxPromptLength) line = `${[...line].slice(0, maxPromptLength).join("").trim()}…`
    return line
  }
  return undefined
}

/** The first prompt of the entries, else the first slash command, else `""`. */
export const firstPrompt = (entries: ReadonlyArray<Entry>): string => {
  const state = { commandFallback: "" }
  for (const entry of entries) {
    const prompt = promptText(entry, state)
    if (prompt !== undefined) return prompt
  }
  return state.commandFallback
}

// A session that opens with an image or a document and no text is listed by its kind.
const attachmentKind = (entries: ReadonlyArray<Entry>): string => {
  for (const entry of entries) {
    if (entry.type !== "user" || entry.isMeta === true) continue
    const content = contentOf(entry)
    if (hasBlock(content, "tool_result")) continue
    if (hasBlock(content, "image")) return "Image"
    if (hasBlock(content, "document")) return "Document"
  }
  return ""
}

/** A title as the CLI keeps it: no control characters, at most 200 characters. */
export const cleanTitle = (title: string): string =>
  // eslint-disable-next-line no-control-regex
  [...title.trim().replace(/[\x00-\x1f\x7f-\x9f]/g, "")].slice(0, maxPromptLength).join("").trim()

// -------------------------------------------------------------------------------------------------
// Session summary
// -------------------------------------------------------------------------------------------------

/** The archive mark the SDK writes beside a transcript (`<id>/archived.json`). */
export interface ArchiveMark {
  readonly archived: boolean
  readonly at: number
}

/** Whether someone prompted the session after `at`: a prompt unarchives a session. */
const promptedAfter = (entries: ReadonlyArray<Entry>, at: number): boolean =>
  entries.some((entry) => {
    const origin = entry.origin
    if (isEntry(origin) && origin.kind !== "human") return false
    let prompt = false
    if (entry.type === "user") {
      prompt = promptText(entry, { commandFallback: "" }) !== undefined ||
        hasBlock(contentOf(entry), "image") || hasBlock(contentOf(entry), "document")
    } else if (entry.type === "attachment" && isEntry(entry.attachment)) {
      const attachment = entry.attachment
      if (attachment.type !== "queued_command") return false
      if (isEntry(attachment.origin) && attachment.origin.kind !== "human") return false
      prompt = typeof attachment.prompt === "string" ? attachment.prompt.trim().length > 0 : true
    }
    const time = parseTime(str(entry, "timestamp"))
    return prompt && time !== undefined && time > at
  })

const programmaticEntrypoints = new Set(["sdk-cli", "sdk-ts", "sdk-py"])

/** Whether a session was started by a program (an SDK) or a daemon rather than in a terminal. */
export const isProgrammatic = (head: ReadonlyArray<Entry>, tail: ReadonlyArray<Entry>): boolean => {
  const entrypoint = firstString(head, "entrypoint") ?? lastString(tail, "entrypoint")
  if (entrypoint !== undefined && programmaticEntrypoints.has(entrypoint)) return true
  const chained = head.find((entry) => "parentUuid" in entry)
  const kind = str(chained ?? head[0], "sessionKind")
  return kind === "daemon" || kind === "daemon-worker"
}

/** The head and tail of a transcript file (the same text when the file is small). */
export interface Excerpt {
  readonly head: ReadonlyArray<Entry>
  readonly tail: ReadonlyArray<Entry>
}

/** The fields of a session's {@link SessionInfo}, read from the excerpt of its transcript. */
export interface Summary {
  readonly summary: string
  readonly customTitle?: string
  readonly firstPrompt?: string
  readonly gitBranch?: string
  readonly cwd?: string
  readonly tag?: string
  readonly createdAt?: number
  readonly archived?: boolean
}

/**
 * The summary of a session, or why there is none: its first entry is a
 * subagent's (`"Sidechain"`), or nothing in it makes a title (`"Empty"`).
 */
export const summarize = (
  excerpt: Excerpt,
  context: {
    /** The title in `<id>/custom-title.json`, read when the tail has none. */
    readonly sidecarTitle: string | undefined
    readonly archive: ArchiveMark | undefined
    readonly projectPath: string | undefined
  }
): Summary | "Sidechain" | "Empty" => {
  const { head, tail } = excerpt
  if (head[0]?.isSidechain === true) return "Sidechain"
  // `||`: an empty title is no title.
  const customTitle = lastString(tail, "customTitle", "custom-title") || context.sidecarTitle ||
    lastString(head, "customTitle", "custom-title") || lastString(tail, "aiTitle", "ai-title") ||
    lastString(head, "aiTitle", "ai-title") || undefined
  const first = firstPrompt(head)
  const summary = customTitle || lastString(tail, "lastPrompt") || lastString(tail, "summary") || first ||
    attachmentKind(head)
  if (!summary) return "Empty"
  const tag = lastString(tail, "tag", "tag")
  const archive = context.archive
  const cwd = lastString(tail, "relocatedCwd", "relocated") ?? firstString(head, "cwd") ?? context.projectPath
  const gitBranch = lastString(tail, "gitBranch") ?? firstString(head, "gitBranch")
  const createdAt = parseTime(firstString(head, "timestamp"))
  return {
    summary,
    ...(customTitle ? { customTitle } : {}),
    ...(first ? { firstPrompt: first } : {}),
    ...(gitBranch ? { gitBranch } : {}),
    ...(cwd ? { cwd } : {}),
    ...(tag ? { tag } : {}),
    ...(createdAt !== undefined ? { createdAt } : {}),
    ...(archive === undefined
      ? {}
      : { archived: archive.archived && !promptedAfter(tail, archive.at) && !promptedAfter(head, archive.at) })
  }
}

// -------------------------------------------------------------------------------------------------
// The conversation chain
// -------------------------------------------------------------------------------------------------

const chainTypes = new Set(["user", "assistant", "progress", "system", "attachment"])

/** The entries that take part in the conversation graph: messages and attachments with a `uuid`. */
export const chainEntries = (lines: ReadonlyArray<Line>): Array<Line> =>
  lines.filter(({ value }) =>
    typeof value.type === "string" && chainTypes.has(value.type) &&
    typeof value.uuid === "string"
  )

const uuidOf = (line: Line): string => line.value.uuid as string
const parentOf = (line: Line): string | undefined => str(line.value, "parentUuid")
const isMessage = (line: Line): boolean => line.value.type === "user" || line.value.type === "assistant"

const blockIds = (entry: Entry, type: string, key: string): Array<string> => {
  const content = contentOf(entry)
  if (!Array.isArray(content)) return []
  return content.flatMap((block) =>
    isEntry(block) && block.type === type && typeof block[key] === "string"
      ? [block[key]]
      : []
  )
}

const messageId = (entry: Entry): string | undefined =>
  entry.type === "assistant" && isEntry(entry.message) && typeof entry.message.id === "string"
    ? entry.message.id
    : undefined

// A compaction that kept messages records where they go: they are relinked behind its summary.
const relinkCompactions = (byUuid: Map<string, Line>): void => {
  const relink = (uuid: string, parentUuid: unknown) => {
    const line = byUuid.get(uuid)
    if (line !== undefined) byUuid.set(uuid, { line: line.line, value: { ...line.value, parentUuid } })
  }
  for (const line of [...byUuid.values()]) {
    const entry = line.value
    if (entry.type !== "system" || entry.subtype !== "compact_boundary" || !isEntry(entry.compactMetadata)) continue
    const preserved = entry.compactMetadata.preservedMessages
    const segment = entry.compactMetadata.preservedSegment
    if (isEntry(preserved) && Array.isArray(preserved.uuids)) {
      const uuids = preserved.uuids.filter((uuid): uuid is string => typeof uuid === "string")
      if (uuids.length === 0 || uuids.some((uuid) => !byUuid.has(uuid))) continue
      let previous: unknown = preserved.anchorUuid
      for (const uuid of uuids) {
        relink(uuid, previous)
        previous = uuid
      }
      for (const [uuid, other] of byUuid) {
        if (other.value.parentUuid === preserved.anchorUuid && uuid !== uuids[0]) relink(uuid, uuids[uuids.length - 1])
      }
    } else if (isEntry(segment) && typeof segment.headUuid === "string") {
      relink(segment.headUuid, segment.anchorUuid)
      for (const [uuid, other] of byUuid) {
        if (other.value.parentUuid === segment.anchorUuid && uuid !== segment.headUuid) {
          relink(uuid, segment.tailUuid)
        }
      }
    }
  }
}

/** The path from the root to `leaf`, following `parentUuid` (a cycle ends it). */
const pathTo = (leaf: Line, byUuid: Map<string, Line>): Array<Line> => {
  const path: Array<Line> = []
  const seen = new Set<string>()
  let current: Line | undefined = leaf
  while (current !== undefined && !seen.has(uuidOf(current))) {
    seen.add(uuidOf(current))
    path.push(current)
    const parent = parentOf(current)
    current = parent === undefined ? undefined : byUuid.get(parent)
  }
  return path.reverse()
}

/**
 * The last message of the conversation: the newest entry of the main thread
 * that nothing follows, walked back to a user or assistant message.
 */
const findLeaf = (byUuid: Map<string, Line>, position: Map<string, number>): Line | undefined => {
  const inMainThread = (line: Line) => {
    const entry = line.value
    return entry.isSidechain !== true && entry.teamName === undefined && entry.type !== "progress" &&
      !(entry.type === "attachment" && isEntry(entry.attachment) && entry.attachment.type === "fork_briefing")
  }
  const followed = new Set<string>()
  for (const line of byUuid.values()) {
    const parent = parentOf(line)
    if (parent !== undefined && inMainThread(line)) followed.add(parent)
  }
  const ends = [...byUuid.values()]
    .filter((line) => inMainThread(line) && !followed.has(uuidOf(line)))
    .sort((a, b) => (position.get(uuidOf(b)) ?? -1) - (position.get(uuidOf(a)) ?? -1))
  const walked = new Set<string>()
  for (const end of ends) {
    let current: Line | undefined = end
    const here = new Set<string>()
    while (current !== undefined && !walked.has(uuidOf(current)) && !here.has(uuidOf(current))) {
      if (isMessage(current)) return current
      here.add(uuidOf(current))
      const parent = parentOf(current)
      current = parent === undefined ? undefined : byUuid.get(parent)
    }
    for (const uuid of here) walked.add(uuid)
  }
  // No main thread: the newest message of any thread.
  const messages = [...byUuid.values()].filter(isMessage)
  const preferred = messages.filter((line) =>
    line.value.isSidechain !== true && line.value.teamName === undefined && line.value.isMeta !== true
  )
  const pool = preferred.length > 0 ? preferred : messages
  return pool.reduce<Line | undefined>(
    (best, line) =>
      best === undefined || (position.get(uuidOf(line)) ?? -1) > (position.get(uuidOf(best)) ?? -1)
        ? line
        : best,
    undefined
  )
}

/**
 * Puts back what the path to the leaf leaves out of a turn with several
 * tool calls: the CLI writes one entry per content block, and the result of
 * each tool call hangs off its own block, so all results but the last are
 * on side branches.
 */
const restoreParallelResults = (path: ReadonlyArray<Line>, byUuid: Map<string, Line>): Array<Line> => {
  const onPath = new Set(path.map(uuidOf))
  const lastOnPath = new Map<string, Line>()
  for (const line of path) {
    const id = messageId(line.value)
    if (id !== undefined) lastOnPath.set(id, line)
  }
  if (lastOnPath.size === 0) return [...path]
  const blocksOf = new Map<string, Array<Line>>()
  const owner = new Map<string, Line>()
  const results: Array<Line> = []
  for (const line of byUuid.values()) {
    const id = messageId(line.value)
    if (id !== undefined) {
      const group = blocksOf.get(id)
      if (group === undefined) blocksOf.set(id, [line])
      else group.push(line)
      for (const toolUseId of blockIds(line.value, "tool_use", "id")) owner.set(toolUseId, line)
    } else if (line.value.type === "user" && hasBlock(contentOf(line.value), "tool_result")) {
      results.push(line)
    }
  }
  const sameThread = (a: Line, b: Line) =>
    (a.value.isSidechain === true) === (b.value.isSidechain === true) && a.value.agentId === b.value.agentId
  const byTimestamp = (a: Line, b: Line) =>
    (str(a.value, "timestamp") ?? "").localeCompare(str(b.value, "timestamp") ?? "")
  const after = new Map<string, Array<Line>>()
  const placed = new Set<string>()
  for (const [id, anchor] of lastOnPath) {
    const group = blocksOf.get(id) ?? [anchor]
    const groupUuids = new Set(group.map(uuidOf))
    const siblings = group.filter((line) => !onPath.has(uuidOf(line)) && !placed.has(uuidOf(line)))
    const found = results.filter((line) => {
      if (onPath.has(uuidOf(line)) || placed.has(uuidOf(line))) return false
      const parent = parentOf(line)
      if (parent !== undefined && groupUuids.has(parent)) return true
      return blockIds(line.value, "tool_result", "tool_use_id").some((toolUseId) => {
        const use = owner.get(toolUseId)
        return use !== undefined && groupUuids.has(uuidOf(use)) && sameThread(line, use)
      })
    })
    const restored = [...siblings.sort(byTimestamp), ...found.sort(byTimestamp)]
    if (restored.length === 0) continue
    for (const line of restored) placed.add(uuidOf(line))
    after.set(uuidOf(anchor), restored)
  }
  return path.flatMap((line) => [line, ...(after.get(uuidOf(line)) ?? [])])
}

/**
 * The conversation of a session's transcript, in order: the thread that ends
 * at its last message, with the results of parallel tool calls put back.
 */
export const conversation = (lines: ReadonlyArray<Line>): Array<Line> => {
  const entries = chainEntries(lines)
  if (entries.length === 0) return []
  const byUuid = new Map<string, Line>()
  const position = new Map<string, number>()
  entries.forEach((line, index) => {
    byUuid.set(uuidOf(line), line)
    position.set(uuidOf(line), index)
  })
  relinkCompactions(byUuid)
  const leaf = findLeaf(byUuid, position)
  if (leaf === undefined) return []
  return restoreParallelResults(pathTo(leaf, byUuid), byUuid)
}

/** Whether an entry of the conversation is shown as a message (system messages only when asked for). */
export const isShown = (entry: Entry, includeSystemMessages: boolean): boolean => {
  if (entry.type !== "user" && entry.type !== "assistant" && !(entry.type === "system" && includeSystemMessages)) {
    return false
  }
  if (entry.isMeta === true) {
    const origin = entry.origin
    if (!isEntry(origin) || origin.kind !== "human") return false
  }
  return entry.isSidechain !== true && entry.teamName === undefined
}

/** A subagent's conversation: from its last message back to its prompt. */
export const subagentConversation = (lines: ReadonlyArray<Line>): Array<Line> => {
  const entries = lines.filter(({ value }) =>
    (value.type === "user" || value.type === "assistant" || value.type === "attachment") &&
    typeof value.uuid === "string"
  )
  const byUuid = new Map(entries.map((line) => [uuidOf(line), line]))
  const leaf = entries.filter(isMessage).at(-1)
  return leaf === undefined ? [] : pathTo(leaf, byUuid).filter(isMessage)
}

const camelToWire: ReadonlyArray<readonly [string, string]> = [
  ["sessionId", "session_id"],
  ["toolUseResult", "tool_use_result"],
  ["agentId", "agent_id"],
  ["requestId", "request_id"]
]

/**
 * A transcript entry in the shape of the wire message of its type: the
 * fields the stream names in snake_case get their wire names (the
 * transcript's own fields stay beside them).
 */
export const toWireShape = (
  entry: Entry,
  context: { readonly parentToolUseId: string | null; readonly parentAgentId: string | null }
): Entry => {
  const wire: Record<string, unknown> = { ...entry }
  for (const [from, to] of camelToWire) {
    if (from in entry && !(to in entry)) wire[to] = entry[from]
  }
  wire.parent_tool_use_id = context.parentToolUseId
  wire.parent_agent_id = context.parentAgentId
  if (entry.type === "system" && entry.subtype === "compact_boundary" && isEntry(entry.compactMetadata)) {
    const metadata = entry.compactMetadata
    wire.compact_metadata = {
      ...metadata,
      trigger: metadata.trigger,
      pre_tokens: metadata.preTokens,
      ...(metadata.postTokens !== undefined ? { post_tokens: metadata.postTokens } : {}),
      ...(metadata.durationMs !== undefined ? { duration_ms: metadata.durationMs } : {})
    }
    if ("logicalParentUuid" in entry) wire.logical_parent_uuid = entry.logicalParentUuid
  }
  return wire
}

// -------------------------------------------------------------------------------------------------
// Fork
// -------------------------------------------------------------------------------------------------

/** The title of a session to derive a fork's from: custom title, generated title, first prompt. */
export const titleForFork = (lines: ReadonlyArray<Line>, sidecarTitle: string | undefined): string => {
  const entries = lines.map((line) => line.value)
  return lastString(entries, "customTitle", "custom-title") || sidecarTitle ||
    lastString(entries, "aiTitle", "ai-title") || firstPrompt(entries)
}

// Fields that tie an entry to its own session's thread, teams or agents: a fork starts clean.
const droppedOnFork = [
  "teamName",
  "agentName",
  "sessionKind",
  "slug",
  "sourceToolAssistantUUID",
  "summarizedTurnPromptUuids",
  "droppedPromptUuids",
  "sentAsUuid",
  "rowsAheadOfPutBack",
  "turnAttributionKey"
]

const remapCompactMetadata = (entry: Entry, ids: Map<string, string>): Entry | undefined => {
  const metadata = entry.compactMetadata
  if (entry.type !== "system" || !isEntry(metadata)) return undefined
  const remap = (value: unknown): unknown =>
    typeof value === "string" ? ids.get(value) ?? value : Array.isArray(value) ? value.map(remap) : value
  const remapFields = (value: unknown, keys: ReadonlyArray<string>): unknown => {
    if (!isEntry(value)) return value
    const copy: Record<string, unknown> = { ...value }
    for (const key of keys) if (key in copy) copy[key] = remap(copy[key])
    return copy
  }
  if (metadata.preservedMessages === undefined && metadata.preservedSegment === undefined) return undefined
  return {
    ...metadata,
    ...(metadata.preservedMessages !== undefined
      ? { preservedMessages: remapFields(metadata.preservedMessages, ["anchorUuid", "uuids", "allUuids"]) }
      : {}),
    ...(metadata.preservedSegment !== undefined
      ? { preservedSegment: remapFields(metadata.preservedSegment, ["headUuid", "anchorUuid", "tailUuid"]) }
      : {})
  }
}

/**
 * The entries of a fork of a session: its main-thread entries (up to and
 * including `upTo` when given) under fresh uuids and the new session id, each
 * remembering where it came from (`forkedFrom`), the parent chain kept, then
 * the title. `undefined` when `upTo` is not an entry of the session; an empty
 * array when there is nothing to fork.
 */
export const forkEntries = (
  lines: ReadonlyArray<Line>,
  options: {
    readonly sourceId: string
    readonly forkId: string
    readonly upTo: string | undefined
    readonly title: string
    readonly now: string
    readonly newUuid: () => string
  }
): Array<Entry> | undefined => {
  const { forkId, newUuid, now, sourceId } = options
  let thread = chainEntries(lines).map((line) => line.value).filter((entry) => entry.isSidechain !== true)
  if (options.upTo !== undefined) {
    const end = thread.findIndex((entry) => entry.uuid === options.upTo)
    if (end === -1) return undefined
    thread = thread.slice(0, end + 1)
  }
  const ids = new Map<string, string>()
  for (const entry of thread) ids.set(entry.uuid as string, newUuid())
  const byUuid = new Map(thread.map((entry) => [entry.uuid as string, entry]))
  // Progress entries are not copied; a child of one hangs off the nearest copied ancestor.
  const copied = thread.filter((entry) => entry.type !== "progress")
  if (copied.length === 0) return []
  const parentOfCopy = (entry: Entry): string | null => {
    const seen = new Set<string>()
    let parent = str(entry, "parentUuid")
    while (parent !== undefined && !seen.has(parent)) {
      seen.add(parent)
      const ancestor = byUuid.get(parent)
      if (ancestor === undefined) return null
      if (ancestor.type !== "progress") return ids.get(parent) ?? null
      parent = str(ancestor, "parentUuid")
    }
    return null
  }
  const forked: Array<Entry> = copied.map((entry, index) => {
    const copy: Record<string, unknown> = { ...entry }
    for (const key of droppedOnFork) delete copy[key]
    const compactMetadata = remapCompactMetadata(entry, ids)
    if (compactMetadata !== undefined) copy.compactMetadata = compactMetadata
    if (entry.type === "system" && entry.subtype === "model_refusal_fallback") copy.neutralizedByFork = true
    const logical = entry.logicalParentUuid
    if (typeof logical === "string") copy.logicalParentUuid = ids.get(logical) ?? null
    if (entry.type === "assistant") {
      const forkedFrom = isEntry(entry.forkedFrom) ? str(entry.forkedFrom, "sessionId") : undefined
      copy.requestSessionId = str(entry, "requestSessionId") ?? forkedFrom ?? str(entry, "sessionId")
    }
    copy.uuid = ids.get(entry.uuid as string)
    copy.parentUuid = parentOfCopy(entry)
    copy.sessionId = forkId
    copy.isSidechain = false
    // The last entry is the fork's newest: it dates the fork.
    if (index === copied.length - 1) copy.timestamp = now
    copy.forkedFrom = { sessionId: sourceId, messageUuid: entry.uuid }
    return copy
  })
  const replacements = lines.flatMap(({ value }) =>
    value.type === "content-replacement" && value.sessionId === sourceId && Array.isArray(value.replacements)
      ? value.replacements.filter(isEntry)
      : []
  )
  if (replacements.length > 0) {
    forked.push({ type: "content-replacement", sessionId: forkId, replacements, uuid: newUuid(), timestamp: now })
  }
  const relocated = lastString(lines.map((line) => line.value), "relocatedCwd", "relocated")
  if (relocated) forked.push({ type: "relocated", sessionId: forkId, relocatedCwd: relocated })
  forked.push({ type: "custom-title", sessionId: forkId, customTitle: options.title, uuid: newUuid(), timestamp: now })
  return forked
}
