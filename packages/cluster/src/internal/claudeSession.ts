/**
 * The `ClaudeSession` entity: its messages, and the handlers that keep one
 * `ClaudeCode.session` per entity on its runner.
 *
 * @internal
 */
import type { Session } from "@claude-effect/sdk"
import {
  ClaudeCode,
  ClaudeError,
  ClaudeOptions,
  HookRegistry,
  PermissionGate,
  Protocol,
  SessionStore
} from "@claude-effect/sdk"
import * as ClusterSchema from "effect/cluster/ClusterSchema"
import * as Entity from "effect/cluster/Entity"
import * as Sharding from "effect/cluster/Sharding"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Equal from "effect/Equal"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Rpc from "effect/rpc/Rpc"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import type * as ClaudeSessionModule from "../ClaudeSession.js"
import * as EntityId from "./entityId.js"

// What every message may fail with: the session's errors, and a refused entity id.
const SessionError = Schema.Union([ClaudeError.ClaudeError, EntityId.EntityIdError])

/** @internal */
export const Prompt = Rpc.make("Prompt", {
  payload: {
    promptId: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)),
    prompt: Schema.String
  },
  success: Schema.Array(Protocol.Message),
  error: SessionError,
  primaryKey: ({ promptId }) => promptId
}).annotate(ClusterSchema.Persisted, true)

/** @internal */
export const PromptStream = Rpc.make("PromptStream", {
  payload: { prompt: Schema.String },
  success: Protocol.Message,
  error: SessionError,
  stream: true
})

/** @internal */
export const Interrupt = Rpc.make("Interrupt", { error: SessionError })

/** @internal */
export const SetPermissionMode = Rpc.make("SetPermissionMode", {
  payload: { mode: ClaudeOptions.PermissionMode },
  error: SessionError
})

/** @internal */
export const SetModel = Rpc.make("SetModel", {
  payload: { model: Schema.optional(Schema.String) },
  error: SessionError
})

/** @internal */
export const Close = Rpc.make("Close", { error: EntityId.EntityIdError })

/** @internal */
export const ClaudeSession = Entity.make("ClaudeSession", [
  Prompt,
  PromptStream,
  Interrupt,
  SetPermissionMode,
  SetModel,
  Close
])

/**
 * The entity's client, refusing at its edge an id the entity would refuse: node:sqlite reads a stored text back
 * cut at its first NUL, so on SQLite an id with a NUL would otherwise reach the entity as another id.
 *
 * @internal
 */
export const client = Effect.map(ClaudeSession.client, (make) => (entityId: string) => {
  const refusal = EntityId.check(entityId)
  if (refusal === undefined) return make(entityId)
  // Every message fails with the refusal (a stream, for the streaming one); nothing reaches the cluster.
  return new Proxy(make(entityId), {
    get: (target, key) =>
      key === PromptStream._tag
        ? () => Stream.fail(refusal)
        : typeof key === "string" && ClaudeSession.protocol.requests.has(key)
        ? () => Effect.fail(refusal)
        : Reflect.get(target, key)
  })
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
// The UUID namespace of entity ids (a version 4 UUID of its own).
const NAMESPACE = Buffer.from("6f0e7c1a4b2d4e8f9a3c5d7e9f1a2b3c", "hex")

/** @internal */
export const sessionIdOf = (entityId: string): string => {
  if (UUID.test(entityId)) return entityId.toLowerCase()
  const hash = Crypto.createHash("sha1").update(NAMESPACE).update(entityId, "utf8").digest()
  hash[6] = (hash[6]! & 0x0f) | 0x50
  hash[8] = (hash[8]! & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const isConversation = (entry: { readonly type?: unknown }): boolean =>
  entry.type === "user" || entry.type === "assistant"

/** Removes a session's local transcript when it holds no message of the conversation (nothing is lost). */
const removeUnstartedTranscript = (
  env: Readonly<Record<string, string | undefined>>,
  projectKey: string,
  sessionId: string
): void => {
  const file = Path.join(SessionStore.configDir(env), "projects", projectKey, `${sessionId}.jsonl`)
  let text: string
  try {
    text = Fs.readFileSync(file, "utf8")
  } catch {
    return // none
  }
  const started = text.split("\n").some((line) => {
    try {
      return line.length > 0 && isConversation(JSON.parse(line))
    } catch {
      return true // a line that is not JSON: not ours to judge, keep the file
    }
  })
  if (!started) Fs.rmSync(file, { force: true })
}

// How long an interrupted turn may take to reach its result before the session is closed instead.
const DRAIN_TIMEOUT = Duration.seconds(10)

/** @internal */
export const layer = (
  options: ClaudeSessionModule.Options = {}
) =>
  Layer.unwrap(Effect.gen(function*() {
    // The runner's policy, captured once: its hook layers (a registry of the hooks in scope here), its
    // permission gate, its ClaudeCode and session store. Every entity's session runs under them.
    const sharding = yield* Sharding.Sharding
    const hooks = yield* HookRegistry.make()
    const gate = yield* Effect.serviceOption(PermissionGate.PermissionGate)
    const claude = yield* ClaudeCode.ClaudeCode
    const store = yield* SessionStore.SessionStore
    // These services only: the layer's whole context would also carry its Scope, and a session must live
    // in its entity's scope (closed when the entity is), not in the runner's.
    const runner = Context.make(ClaudeCode.ClaudeCode, claude).pipe(
      Context.add(SessionStore.SessionStore, store),
      Context.add(HookRegistry.HookRegistry, hooks),
      (context) => Option.isSome(gate) ? Context.add(context, PermissionGate.PermissionGate, gate.value) : context
    )
    const optionsOf = (entityId: string): ClaudeOptions.OptionsInput =>
      typeof options.options === "function" ? options.options(entityId) : options.options ?? {}

    return ClaudeSession.toLayer(
      Effect.gen(function*() {
        const address = yield* Entity.CurrentAddress
        const entityId = address.entityId
        // An id from outside: checked before any options function or session sees it. And its shard must be
        // its own, whatever the message said (one delivered with another shard would run a second session).
        const own = sharding.getShardId(entityId, ClaudeSession.getShardGroup(entityId))
        const refusal = EntityId.check(entityId) ??
          (Equal.equals(own, address.shardId)
            ? undefined
            : EntityId.wrongShard(entityId, address.shardId.toString(), own.toString()))
        if (refusal !== undefined) {
          yield* Effect.logWarning(refusal.message)
          return ClaudeSession.of({
            Prompt: () => Effect.fail(refusal),
            PromptStream: () => Stream.fail(refusal),
            Interrupt: () => Effect.fail(refusal),
            SetPermissionMode: () => Effect.fail(refusal),
            SetModel: () => Effect.fail(refusal),
            Close: () => Effect.fail(refusal)
          })
        }
        // The entity's sessions live in a scope made now, before the entity's RPC server: when the entity
        // stops (its shard moved, its runner shuts down) the server's finalizers run first, so a turn in
        // flight is given the termination timeout and then interrupted, which the cluster retries on the
        // next owner; only then is the CLI ended (while the storage is up: the runner's Sharding closes its
        // entities before its SqlClient goes). A scope forked later, or closed by this layer's own
        // finalizer, would end the CLI under the turn, and its exit would be stored as the prompt's failure.
        const sessionsScope = yield* Scope.fork(yield* Effect.scope, "sequential")
        const sessionId = sessionIdOf(entityId)
        const turns = yield* Semaphore.make(1)
        const opening = yield* Semaphore.make(1)
        let current: { readonly session: Session.Session; readonly scope: Scope.Closeable } | undefined

        const close = Effect.suspend(() => {
          const open = current
          current = undefined
          return open === undefined ? Effect.void : Scope.close(open.scope, Exit.void)
        })

        // Opens the entity's session: resumed from the store when it has the transcript, new otherwise.
        const open = opening.withPermits(1)(Effect.suspend(() => {
          if (current !== undefined) return Effect.succeed(current.session)
          return Effect.gen(function*() {
            const input = optionsOf(entityId)
            const merged = ClaudeOptions.merge(claude.defaults, yield* ClaudeOptions.decodePartial(input))
            const env = ClaudeOptions.toEnv(merged, process.env)
            const cwd = yield* Effect.sync(() => {
              const dir = merged.cwd ?? process.cwd()
              try {
                return Fs.realpathSync(dir)
              } catch {
                return dir
              }
            })
            const projectKey = SessionStore.projectKey(cwd, env)
            const stored = yield* store.load({ projectKey, sessionId })
            // A transcript the CLI can resume holds a message of the conversation. One cut before its first
            // prompt was recorded holds only the CLI's queue records, in which `--resume` finds "no
            // conversation": that session starts anew under its id, once this runner's local copy of those
            // records (the CLI refuses an id whose transcript exists) is gone.
            const resumable = Option.exists(stored, (entries) => entries.some(isConversation))
            if (!resumable) yield* Effect.sync(() => removeUnstartedTranscript(env, projectKey, sessionId))
            const scope = yield* Scope.fork(sessionsScope, "sequential")
            const session = yield* ClaudeCode.session({
              ...input,
              ...(resumable ? { resume: sessionId } : { sessionId })
            }).pipe(
              Effect.provide(runner),
              Scope.provide(scope),
              Effect.onError(() => Scope.close(scope, Exit.void))
            )
            current = { session, scope }
            return session
          })
        }))

        const runTurn = (prompt: string) =>
          Stream.unwrap(Effect.gen(function*() {
            // One turn at a time; the others wait their turn.
            yield* Effect.acquireRelease(turns.take(1), () => turns.release(1))
            const session = yield* open
            let finished = false
            // A turn cut short (the client went away, the entity stopped): interrupt it and read it to its
            // result, so that the next turn starts clean; a session that cannot is closed (the next prompt
            // resumes it). Interruptible: a finalizer runs uninterruptibly, and the timeout could not stop a
            // drain whose CLI never answers (the entity's close, and with it its shard's release, would hang).
            yield* Effect.addFinalizer(() =>
              finished ? Effect.void : session.interrupt.pipe(
                Effect.andThen(Stream.runDrain(session.receiveTurn)),
                Effect.interruptible,
                Effect.timeout(DRAIN_TIMEOUT),
                Effect.catchCause(() => close)
              )
            )
            return session.turn(prompt).pipe(
              Stream.tap((message) =>
                Effect.sync(() => {
                  if (message.type === "result") finished = true
                })
              ),
              // The CLI failed: the session is gone; the next prompt opens it again from the store.
              Stream.tapCause(() =>
                Effect.suspend(() => {
                  finished = true
                  return close
                })
              )
            )
          }))

        return ClaudeSession.of({
          Prompt: ({ payload }) => Stream.runCollect(runTurn(payload.prompt)),
          PromptStream: ({ payload }) => runTurn(payload.prompt),
          Interrupt: () =>
            Effect.suspend(() => current === undefined ? Effect.void : Effect.asVoid(current.session.interrupt)),
          SetPermissionMode: ({ payload }) =>
            Effect.flatMap(open, (session) => session.setPermissionMode(payload.mode)),
          SetModel: ({ payload }) => Effect.flatMap(open, (session) => session.setModel(payload.model)),
          Close: () => close
        })
      }),
      { maxIdleTime: options.maxIdleTime ?? Duration.minutes(5), concurrency: "unbounded" }
    )
  }))
