/**
 * The code of docs/history.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import type { SessionStore } from "@claude-effect/sdk"
import { ClaudeCode, SessionHistory } from "@claude-effect/sdk"
import { NodeServices } from "@effect/platform-node"
import { Config, Console, Effect, type Layer, Stream } from "effect"
// #endregion

// #region list
const recent = Effect.gen(function*() {
  // The sessions run in this directory, newest first.
  const sessions = yield* SessionHistory.listSessions({ dir: process.cwd(), limit: 10 })
  for (const session of sessions) {
    const when = new Date(session.lastModified).toISOString()
    yield* Console.log(`${session.sessionId}  ${when}  ${session.summary}${session.tag ? ` [${session.tag}]` : ""}`)
  }
})
// #endregion

// #region read
const transcript = (sessionId: string) =>
  SessionHistory.getSessionMessages(sessionId).pipe(
    Stream.runForEach((message) => {
      switch (message.type) {
        case "user": {
          const content = message.message.content
          return Console.log(`> ${typeof content === "string" ? content : `${content.length} blocks`}`)
        }
        case "assistant":
          return Console.log(
            message.message.content.map((block) => block.type === "text" ? block.text : `[${block.type}]`).join(" ")
          )
        case "undecoded": // an entry of a shape this SDK does not know: kept, with why
          return Console.log(`line ${message.line}: ${message.reason}`)
        default:
          return Effect.void
      }
    })
  )
// #endregion

// #region subagents
const subagents = (sessionId: string) =>
  Effect.gen(function*() {
    for (const agent of yield* SessionHistory.listSubagents(sessionId)) {
      const messages = yield* SessionHistory.getSubagentMessages(sessionId, agent.agentId).pipe(Stream.runCollect)
      yield* Console.log(`${agent.agentType} "${agent.description}": ${messages.length} messages`)
    }
  })
// #endregion

// #region organize
const organize = (sessionId: string) =>
  Effect.gen(function*() {
    yield* SessionHistory.renameSession(sessionId, "Release checklist") // `resume: "Release checklist"` works too
    yield* SessionHistory.tagSession(sessionId, "release") // `null` clears it
    yield* SessionHistory.archiveSession(sessionId) // listed with archived: true until a prompt is sent in it
  })
// #endregion

// #region fork
const tryAnotherWay = (sessionId: string) =>
  Effect.scoped(Effect.gen(function*() {
    // A copy of the conversation under a new id; the original is left as it is.
    const fork = yield* SessionHistory.forkSession(sessionId, { title: "Plan B" })
    const session = yield* ClaudeCode.session({ resume: fork.sessionId })
    // The model sees the whole conversation so far, then this.
    yield* session.turn("Now do it without the database migration.").pipe(Stream.runDrain)
  }))
// #endregion

// #region import
// A session that ran on this machine without a store, copied into one (SqlSessionStore, ...): from then on
// it can be resumed (ClaudeCode.session({ resume })) wherever that store is provided.
const migrate = (sessionId: string, store: Layer.Layer<SessionStore.SessionStore>) =>
  SessionHistory.importSessionToStore(sessionId).pipe(Effect.provide(store))
// #endregion

// #region errors
const titleOf = (sessionId: string) =>
  SessionHistory.getSessionInfo(sessionId).pipe(
    Effect.map((info) => info.summary),
    Effect.catchTags({
      InvalidArgumentError: (error) => Effect.succeed(`not a session id: ${error.value}`),
      SessionNotFoundError: () => Effect.succeed("no such session"),
      TranscriptError: (error) => Effect.succeed(`${error.reason}: ${error.path}`)
    })
  )
// #endregion

// #region layers
// The CLI's own configuration directory: CLAUDE_CONFIG_DIR, else ~/.claude.
const history = SessionHistory.layer()
// Sessions run with another CLAUDE_CONFIG_DIR in their `env`: read that one.
const isolated = SessionHistory.layer({ configDir: "/srv/agent/.claude" })
// Or from configuration.
const configured = SessionHistory.layerConfig({ configDir: Config.String("AGENT_CONFIG_DIR") })

const program = recent.pipe(Effect.provide(history), Effect.provide(NodeServices.layer))
// #endregion

export { configured, isolated, migrate, organize, program, recent, subagents, titleOf, transcript, tryAnotherWay }
