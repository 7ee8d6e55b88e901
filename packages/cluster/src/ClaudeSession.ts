/**
 * A Claude Code session as an `effect/cluster` entity: one
 * `ClaudeCode.session` per entity id, on the runner that holds its shard.
 *
 * ```ts
 * const client = yield* ClaudeSession.client
 * const messages = yield* client("user-42").Prompt({ promptId: "p-1", prompt: "Run the tests" })
 * ```
 *
 * - `Prompt` sends a prompt and answers that turn's messages, up to its
 *   `result`. Prompts are persisted messages: a prompt whose turn never
 *   finished (its runner died) is delivered again, to the runner that takes
 *   the shard over, and runs there on the session resumed from the
 *   `SessionStore`. Its `promptId` is its identity: the same id sent twice
 *   runs once. `PromptStream` streams a turn live, without that guarantee.
 * - `Interrupt`, `SetPermissionMode`, `SetModel` act on the live session;
 *   `Close` closes it (the next prompt resumes it).
 *
 * Each entity's session id is its entity id when that is a UUID, else a
 * UUID derived from it ({@link sessionIdOf}), so the transcript of an
 * entity is found in the store from any runner. A session is closed after
 * `maxIdleTime` without messages (default 5 minutes), and when its entity
 * stops (its runner shuts down, its shard moves): after the turn in flight,
 * which is given the cluster's `entityTerminationTimeout` and then
 * interrupted, its prompt delivered again to the next owner.
 *
 * The runner's hook layers, permission gate and session store are the ones
 * in the context of {@link layer}: a policy is deployed once per runner.
 *
 * Entity ids come from outside: one that could act as a path (empty, over
 * 255 bytes, with `/` or `\`, `.` or `..`, control characters) is refused
 * with {@link EntityIdError} before any options function or session sees
 * it, and so is a message that names another shard than its id's. Derive a
 * directory from an id with {@link directoryOf}.
 *
 * @since 0.1.0
 */
import type { ClaudeCode, ClaudeOptions, SessionStore } from "@claude-effect/sdk"
import type { Sharding } from "effect/cluster/Sharding"
import type * as Duration from "effect/Duration"
import type * as Layer from "effect/Layer"
import type * as Result from "effect/Result"
import * as internal from "./internal/claudeSession.js"
import * as entityId from "./internal/entityId.js"

/**
 * Sends a prompt; answers the turn's messages, up to its `result`. A
 * persisted message whose primary key is its `promptId`: it survives its
 * runner, and the same id sent twice runs once.
 *
 * @since 0.1.0
 * @category Rpcs
 */
export const Prompt = internal.Prompt

/**
 * Sends a prompt and streams the turn's messages as they come, up to its
 * `result`. Not persisted: if its runner dies the stream fails (use `Prompt`
 * for a turn that must survive).
 *
 * @since 0.1.0
 * @category Rpcs
 */
export const PromptStream = internal.PromptStream

/**
 * Interrupts the running turn, if any.
 *
 * @since 0.1.0
 * @category Rpcs
 */
export const Interrupt = internal.Interrupt

/**
 * @since 0.1.0
 * @category Rpcs
 */
export const SetPermissionMode = internal.SetPermissionMode

/**
 * @since 0.1.0
 * @category Rpcs
 */
export const SetModel = internal.SetModel

/**
 * Closes the session (gracefully); the next prompt resumes it from the store.
 *
 * @since 0.1.0
 * @category Rpcs
 */
export const Close = internal.Close

/**
 * @since 0.1.0
 * @category Entities
 */
export const ClaudeSession = internal.ClaudeSession

/**
 * A client for the entities: `(entityId) => ({ Prompt, Interrupt, ... })`.
 * An id the entity would refuse ({@link validateEntityId}) is refused here,
 * before anything is sent or stored: every message to it fails with its
 * {@link EntityIdError}.
 *
 * @since 0.1.0
 * @category Clients
 */
export const client = internal.client

/**
 * @since 0.1.0
 * @category Models
 */
export interface Options {
  /**
   * The session options of an entity (its working directory, model, tools, ...); the same for all by default.
   * A function gets checked ids only; make a directory of one with {@link directoryOf}.
   */
  readonly options?: ClaudeOptions.OptionsInput | ((entityId: string) => ClaudeOptions.OptionsInput) | undefined
  /** How long a session stays open without messages (default 5 minutes). */
  readonly maxIdleTime?: Duration.Input | undefined
}

/**
 * Registers the entity on this runner. The runner's `ClaudeCode`, its
 * `SessionStore`, the hook layers and the permission gate in context are
 * every session's.
 *
 * @since 0.1.0
 * @category Layers
 */
export const layer: (
  options?: Options
) => Layer.Layer<never, never, Sharding | ClaudeCode.ClaudeCode | SessionStore.SessionStore> = internal.layer

/**
 * The session id of an entity: the entity id itself when it is a UUID, else a
 * UUID (version 5) derived from it.
 *
 * @since 0.1.0
 * @category Keys
 */
export const sessionIdOf: (entityId: string) => string = internal.sessionIdOf

/**
 * An entity id the entity refuses, returned to the client by every message:
 * `Empty`, `TooLong` (over 255 bytes in UTF-8), `PathSeparator` (`/` or
 * `\`), `DotSegment` (`.` or `..`), `ControlCharacter`, or `WrongShard`
 * (the message named another shard than the id's own: a misconfigured
 * `shardsPerGroup`, or a peer that lies).
 *
 * @since 0.1.0
 * @category Errors
 */
export const EntityIdError = entityId.EntityIdError

/**
 * @since 0.1.0
 * @category Errors
 */
export type EntityIdError = entityId.EntityIdError

/**
 * A directory for an entity under `root`: a readable part of its id (letters,
 * digits, `_` and `-`, the rest made `_`) and a digest of the whole id, so
 * that no id names a path outside `root`, and ids that differ only in case
 * or in characters a file name cannot hold get directories of their own.
 *
 * ```ts
 * ClaudeSession.layer({
 *   options: (userId) => ({ cwd: ClaudeSession.directoryOf("/srv/workspaces", userId) })
 * })
 * ```
 *
 * @since 0.1.0
 * @category Keys
 */
export const directoryOf: (root: string, entityId: string) => string = entityId.directoryOf

/**
 * The check the entity makes of its id (all but `WrongShard`), for a client
 * that would rather refuse a bad id at its own edge: the id, or why it is
 * refused.
 *
 * @since 0.1.0
 * @category Keys
 */
export const validateEntityId: (entityId: string) => Result.Result<string, EntityIdError> = entityId.validate
