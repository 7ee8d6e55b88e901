/**
 * The values of the public `SessionHistory` module: what a session listing
 * and a transcript read give back, and the errors. Declared here so that the
 * implementation can build them without importing the public module's values.
 *
 * @internal
 */
import * as Schema from "effect/Schema"
import { Json, optional } from "./protocol/json.js"
import { AssistantMessage, SystemMessage, UserMessage } from "./protocol/messages.js"

/**
 * One session as a listing shows it. The fields and their meaning are the
 * official Agent SDK's `SDKSessionInfo`, plus `path`.
 *
 * @since 0.1.0
 * @category Models
 */
export class SessionInfo extends Schema.Class<SessionInfo>("@claude-effect/sdk/SessionInfo")({
  /** The session id (a UUID): what `resume` takes. */
  sessionId: Schema.String,
  /** The display title: the custom title, else the CLI's generated title, the last prompt, or the first prompt. */
  summary: Schema.String,
  /** When the transcript was last written, in milliseconds since the epoch. */
  lastModified: Schema.Number,
  /** The size of the transcript in bytes. */
  fileSize: Schema.Number,
  /** The title set by `renameSession` (or `/rename` in the CLI). */
  customTitle: optional(Schema.String),
  /** The first prompt of the session, on one line, cut at 200 characters. */
  firstPrompt: optional(Schema.String),
  /** The git branch at the end of the session. */
  gitBranch: optional(Schema.String),
  /** The working directory of the session. */
  cwd: optional(Schema.String),
  /** The tag set by `tagSession`. */
  tag: optional(Schema.String),
  /** When the session started (its first entry), in milliseconds since the epoch. */
  createdAt: optional(Schema.Number),
  /**
   * `true` when archived, `false` when it was archived and has been unarchived
   * or has had a prompt since; absent when it never was.
   */
  archived: optional(Schema.Boolean),
  /** The transcript file. */
  path: Schema.String
}) {}

/**
 * A subagent that ran in a session: its id and what the CLI recorded of it
 * beside its transcript (`agent-<id>.meta.json`).
 *
 * @since 0.1.0
 * @category Models
 */
export class SubagentInfo extends Schema.Class<SubagentInfo>("@claude-effect/sdk/SubagentInfo")({
  /** The agent id, as in `getSubagentMessages`. */
  agentId: Schema.String,
  /** The agent type, e.g. `general-purpose` or a custom agent's name. */
  agentType: optional(Schema.String),
  /** The `description` the parent gave the Agent tool. */
  description: optional(Schema.String),
  /** The id of the parent's `Agent` tool_use that started it. */
  toolUseId: optional(Schema.String),
  /** The agent that spawned this one, when a subagent spawned it. */
  parentAgentId: optional(Schema.String),
  /** The subagent's transcript file. */
  path: Schema.String
}) {}

/**
 * A conversation entry of a transcript that did not decode as a message
 * (a shape this SDK does not know, or a broken one): kept whole, with why.
 *
 * @since 0.1.0
 * @category Models
 */
export class UndecodedEntry extends Schema.Class<UndecodedEntry>("@claude-effect/sdk/UndecodedEntry")({
  type: Schema.Literal("undecoded"),
  /** The line of the transcript file it is on, from 1. */
  line: Schema.Number,
  /** The entry as the file has it. */
  entry: Json,
  /** Why it did not decode. */
  reason: Schema.String
}) {}

/**
 * One message of a session read back from its transcript: the user and
 * assistant messages of the conversation (and, when asked for, its system
 * messages) in the shapes `ClaudeCode.query` streams them, or an
 * {@link UndecodedEntry}.
 *
 * The transcript's own fields are kept beside the wire fields (`parentUuid`,
 * `timestamp`, `cwd`, `gitBranch`, `isSidechain`, ...).
 *
 * @since 0.1.0
 * @category Models
 */
export const SessionMessage = Schema.Union([AssistantMessage, UserMessage, SystemMessage, UndecodedEntry])

/**
 * @since 0.1.0
 * @category Models
 */
export type SessionMessage = typeof SessionMessage.Type

const whereToLook = (projectsDir: string, dir: string | undefined) =>
  dir === undefined ? `any project under ${projectsDir}` : `the project of ${dir} under ${projectsDir}`

/**
 * A session (or one of its subagents) that is not there.
 *
 * - `NoTranscript`: no transcript file has this id.
 * - `NoConversation`: the transcript has no conversation (no prompt was sent,
 *   or it belongs to a subagent).
 * - `NoSubagent`: the session has no subagent with this id.
 *
 * @since 0.1.0
 * @category Errors
 */
export class SessionNotFoundError
  extends Schema.TaggedError<SessionNotFoundError>("@claude-effect/sdk/SessionNotFoundError")("SessionNotFoundError", {
    reason: Schema.Literals(["NoTranscript", "NoConversation", "NoSubagent"]),
    sessionId: Schema.String,
    agentId: optional(Schema.String),
    /** The project directory searched, when one was given. */
    dir: optional(Schema.String),
    /** The `projects` directory of the configuration read. */
    projectsDir: Schema.String
  })
{
  /**
   * @since 0.1.0
   */
  override get message(): string {
    const where = whereToLook(this.projectsDir, this.dir)
    switch (this.reason) {
      case "NoTranscript":
        return `No session ${this.sessionId} in ${where}. Fix: take the id from listSessions or a result's ` +
          `session_id; check that SessionHistory reads the CLI's config directory (CLAUDE_CONFIG_DIR, or configDir ` +
          `in SessionHistory.layer) and, with dir, the session's working directory.`
      case "NoConversation":
        return `Session ${this.sessionId} (in ${where}) has no conversation: its transcript holds no prompt yet, ` +
          `or it is a subagent's. Fix: send a prompt in it first, or read a subagent with getSubagentMessages.`
      case "NoSubagent":
        return `Session ${this.sessionId} (in ${where}) has no subagent ${this.agentId ?? ""}. ` +
          `Fix: take the id from listSubagents.`
    }
  }
}

/**
 * A transcript that could not be read, makes no sense, or could not be
 * written.
 *
 * - `Unreadable`: the file system refused to read it (`cause` says why).
 * - `Corrupt`: it has content, but not one line of it is a JSON object.
 * - `Unwritable`: a rename, tag, archive, fork or delete could not write.
 *
 * @since 0.1.0
 * @category Errors
 */
export class TranscriptError
  extends Schema.TaggedError<TranscriptError>("@claude-effect/sdk/TranscriptError")("TranscriptError", {
    reason: Schema.Literals(["Unreadable", "Corrupt", "Unwritable"]),
    path: Schema.String,
    detail: Schema.String,
    cause: optional(Schema.Defect())
  })
{
  /**
   * @since 0.1.0
   */
  override get message(): string {
    switch (this.reason) {
      case "Unreadable":
        return `The transcript ${this.path} cannot be read: ${this.detail}. Fix: check its permissions, or that it is ` +
          `a regular file.`
      case "Corrupt":
        return `The transcript ${this.path} is not a transcript: ${this.detail}. Fix: restore it from a backup, or ` +
          `delete the session.`
      case "Unwritable":
        return `The transcript ${this.path} cannot be written: ${this.detail}. Fix: check the permissions of the ` +
          `file and its directory, and the free space.`
    }
  }
}

/**
 * An argument that cannot name anything: a session id that is not a UUID, an
 * empty title or tag, a message id not in the session.
 *
 * @since 0.1.0
 * @category Errors
 */
export class InvalidArgumentError
  extends Schema.TaggedError<InvalidArgumentError>("@claude-effect/sdk/InvalidArgumentError")("InvalidArgumentError", {
    argument: Schema.Literals(["sessionId", "agentId", "title", "tag", "upToMessageId", "batchSize"]),
    value: Schema.String,
    detail: Schema.String
  })
{
  /**
   * @since 0.1.0
   */
  override get message(): string {
    return `${this.argument} ${JSON.stringify(this.value)} is not valid: ${this.detail}`
  }
}

/**
 * Every error of `SessionHistory`.
 *
 * @since 0.1.0
 * @category Errors
 */
export type SessionHistoryError = SessionNotFoundError | TranscriptError | InvalidArgumentError
