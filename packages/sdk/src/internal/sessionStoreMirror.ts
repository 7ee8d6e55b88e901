/**
 * Transcript mirroring: the `transcript_mirror` frames a session's CLI writes
 * (with `--session-mirror`) collected as they are read, their entries
 * redacted (the session's secrets replaced by `<redacted>`, unless
 * `sessionStoreRedaction` is `"none"`), and appended to the session store in
 * batches — at each turn's end before its result is delivered, early when a
 * turn piles up many lines (or, eager, after every frame, in the background),
 * and when the session closes.
 *
 * A batch the store refuses is retried twice (200 ms, 800 ms); if it still
 * fails it is kept, in order, for the next flush (entries are keyed by
 * `uuid`, so a batch that did land after all is stored once), and the
 * consumer gets a `system/mirror_error` message. Only a batch the store
 * can never take (an invalid key or entry, one too large) is given up,
 * with the same message.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as Path from "node:path"
import type * as Protocol from "../Protocol.js"
import type * as SessionStore from "../SessionStore.js"
import { SessionStoreError } from "./claudeError.js"
import * as Redaction from "./redaction.js"
import * as InternalSessionStore from "./sessionStore.js"

/** @internal */
export interface Mirror {
  /** Called for every message the router reads, before the consumer sees it; takes the mirror frames. */
  readonly observe: (message: Protocol.Message) => void
  /** Sends what was collected; answers the `mirror_error` messages for the consumer. Never fails. */
  readonly flush: Effect.Effect<ReadonlyArray<Protocol.Message>>
}

/** @internal */
export const isFrame = (message: Protocol.Message): boolean => message.type === "transcript_mirror"

// The official SDK's thresholds for an early flush within a turn.
const MAX_PENDING_ENTRIES = 500
const MAX_PENDING_BYTES = 1024 * 1024
// A batch the store keeps refusing is held at most this much, oldest given up first.
const MAX_RETAINED_BYTES = 64 * 1024 * 1024
const APPEND_TIMEOUT = Duration.seconds(60)
// Two retries, 200 ms then 800 ms (effect 4 has no Schedule.fromDelays).
const RETRY = { schedule: Schedule.exponential(Duration.millis(200), 4), times: 2 }

interface Batch {
  readonly key: SessionStore.SessionKey
  readonly entries: Array<SessionStore.Entry>
  bytes: number
}

const isFrameShape = Schema.is(InternalSessionStore.TranscriptMirror)

/**
 * The store key of a transcript file, from its path under `<configDir>/projects`:
 * `<project>/<session>.jsonl` is the main transcript, `<project>/<session>/<...>/<name>.jsonl` a
 * subagent's (subpath `<...>/<name>`).
 *
 * @internal
 */
export const keyOfFile = (projectsDir: string, filePath: string): SessionStore.SessionKey | undefined => {
  const relative = Path.relative(projectsDir, filePath)
  if (relative.startsWith("..") || Path.isAbsolute(relative)) return undefined
  const parts = relative.split(Path.sep)
  if (parts.length < 2) return undefined
  const [projectKey, session] = parts as [string, string]
  if (parts.length === 2) {
    return session.endsWith(".jsonl") ? { projectKey, sessionId: session.slice(0, -".jsonl".length) } : undefined
  }
  if (parts.length < 4) return undefined
  const rest = parts.slice(2)
  rest[rest.length - 1] = rest[rest.length - 1]!.replace(/\.jsonl$/, "")
  return { projectKey, sessionId: session, subpath: rest.join("/") }
}

/** @internal */
export const make = (options: {
  readonly store: SessionStore.SessionStore
  /** The CLI's configuration directory: its transcripts are under `projects/` there. */
  readonly configDir: string
  /** Also start an append after every frame (the `sessionStoreFlush: "eager"` option). */
  readonly eager?: boolean | undefined
  /** What each entry passes through before it is kept for the store (default: nothing hidden). */
  readonly redactor?: Redaction.Redactor | undefined
}): Effect.Effect<Mirror, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { store } = options
    const redactor = options.redactor ?? Redaction.none
    const projectsDir = Path.join(options.configDir, "projects")
    let pending: Array<Batch> = []
    let pendingEntries = 0
    let pendingBytes = 0
    const reports: Array<Protocol.Message> = []
    const lock = yield* Semaphore.make(1)

    const report = (key: SessionStore.SessionKey | undefined, error: string, sessionId: string) => {
      const message: Protocol.SystemMirrorError = {
        type: "system",
        subtype: "mirror_error",
        error,
        key: key === undefined
          ? { projectKey: "", sessionId }
          : {
            projectKey: key.projectKey,
            sessionId: key.sessionId,
            ...(key.subpath !== undefined ? { subpath: key.subpath } : {})
          },
        uuid: crypto.randomUUID(),
        session_id: key?.sessionId ?? sessionId
      }
      reports.push(message)
    }

    const collect = (frame: SessionStore.TranscriptMirror) => {
      const key = keyOfFile(projectsDir, frame.filePath)
      if (key === undefined) {
        report(
          undefined,
          `a transcript_mirror frame for ${frame.filePath}, which is not under ${projectsDir}: its ` +
            `${frame.entries.length} entries were not stored (the CLI's CLAUDE_CONFIG_DIR differs from the session's)`,
          ""
        )
        return
      }
      let entries: Array<SessionStore.Entry>
      try {
        entries = frame.entries.map((entry) => Redaction.redactJson(redactor, entry))
      } catch {
        // Only a stack overflow gets here (an entry nested thousands deep): not stored, rather than stored unredacted.
        report(key, `a batch of ${frame.entries.length} entries nested too deeply to redact: not stored`, key.sessionId)
        return
      }
      const bytes = entries.reduce((sum, entry) => sum + approximateBytes(entry), 0)
      const last = pending[pending.length - 1]
      if (last !== undefined && sameKey(last.key, key)) {
        last.entries.push(...entries)
        last.bytes += bytes
      } else {
        pending.push({ key, entries, bytes })
      }
      pendingEntries += entries.length
      pendingBytes += bytes
    }

    // effect 4's timeoutOrElse runs its source interruptibly even inside the uninterruptible flush, so an append
    // the store never answers is cut at the timeout without v3's `Effect.interruptible` (the batch is kept).
    const sendOne = (batch: Batch): Effect.Effect<SessionStoreError | undefined> =>
      store.append(batch.key, batch.entries).pipe(
        Effect.timeoutOrElse({
          duration: APPEND_TIMEOUT,
          orElse: () =>
            Effect.fail(
              new SessionStoreError({
                operation: "append",
                reason: "Timeout",
                detail: `no answer within ${Duration.format(APPEND_TIMEOUT)}`
              })
            )
        }),
        Effect.retry({ ...RETRY, while: (error) => error.reason === "Unavailable" }),
        Effect.as(undefined),
        Effect.catch(Effect.succeed),
        // A store that dies (a driver that throws, a closed connection) is a store that is not there.
        Effect.catchDefect((defect) =>
          Effect.succeed(
            new SessionStoreError({
              operation: "append",
              reason: "Unavailable",
              detail: `the store failed: ${defect instanceof Error ? defect.message : String(defect)}`,
              cause: defect
            })
          )
        )
      )

    // An eager flush that waits for the lock: frames read meanwhile go with it, rather than queue a flush each.
    let eagerQueued = false

    // One flush at a time, in order: what failed goes back in front of what came since.
    // Uninterruptible: batches taken from `pending` are sent or put back, never lost to an interruption.
    const flushNow: Effect.Effect<void> = lock.withPermits(1)(Effect.uninterruptible(Effect.gen(function*() {
      eagerQueued = false
      const batches = pending
      pending = []
      pendingEntries = 0
      pendingBytes = 0
      const kept: Array<Batch> = []
      for (const batch of batches) {
        // Once one batch of a key failed, the later ones wait behind it: the store keeps append order.
        if (kept.some((k) => sameKey(k.key, batch.key))) {
          kept.push(batch)
          continue
        }
        const error = yield* sendOne(batch)
        if (error === undefined) continue
        const retryable = error.reason === "Unavailable" || error.reason === "Timeout"
        report(
          batch.key,
          `${error.message}${retryable ? "; the batch is kept and sent again at the next turn's end" : ""}`,
          batch.key.sessionId
        )
        yield* Effect.logWarning("session store: a transcript batch was not stored", error)
        if (retryable) kept.push(batch)
      }
      let retained = kept.reduce((sum, batch) => sum + batch.bytes, 0)
      while (retained > MAX_RETAINED_BYTES && kept.length > 0) {
        const dropped = kept.shift()!
        retained -= dropped.bytes
        report(
          dropped.key,
          `the store has refused transcript batches for long: ${dropped.entries.length} entries given up`,
          dropped.key.sessionId
        )
      }
      pending = [...kept, ...pending]
      pendingEntries = pending.reduce((sum, batch) => sum + batch.entries.length, 0)
      pendingBytes = pending.reduce((sum, batch) => sum + batch.bytes, 0)
    })))

    // The early flush within a turn runs beside the reader: it must never hold the router up.
    const early = yield* Semaphore.make(1)
    const context = yield* Effect.context<never>()
    const scope = yield* Effect.scope
    const run = Effect.runForkWith(context)
    const flushEarly = early.withPermitsIfAvailable(1)(flushNow).pipe(Effect.forkIn(scope))

    return {
      observe: (message) => {
        if (message.type !== "transcript_mirror") return
        if (!isFrameShape(message)) {
          report(undefined, "a transcript_mirror frame that is not {filePath, entries}: not stored", "")
          return
        }
        collect(message)
        if (options.eager === true) {
          if (!eagerQueued) {
            eagerQueued = true
            run(Effect.forkIn(flushNow, scope))
          }
        } else if (pendingEntries > MAX_PENDING_ENTRIES || pendingBytes > MAX_PENDING_BYTES) {
          run(flushEarly)
        }
      },
      flush: Effect.andThen(flushNow, Effect.sync(() => reports.splice(0)))
    } satisfies Mirror
  })

const sameKey = (a: SessionStore.SessionKey, b: SessionStore.SessionKey): boolean =>
  a.projectKey === b.projectKey && a.sessionId === b.sessionId && a.subpath === b.subpath

// A size estimate without a second serialisation: the strings an entry carries, near enough for a threshold.
const approximateBytes = (value: unknown): number => {
  if (typeof value === "string") return value.length + 2
  if (typeof value !== "object" || value === null) return 8
  let total = 2
  if (Array.isArray(value)) { for (const item of value) total += approximateBytes(item) + 1 }
  else for (const [key, item] of Object.entries(value)) total += key.length + 4 + approximateBytes(item)
  return total
}
