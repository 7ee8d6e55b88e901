/**
 * An application service the demo's hooks use: an append-only audit log,
 * one JSON object per line. Hook handlers and the permission gate ask for it
 * like for any other service; the requirement shows in their layers' types.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import type { PlatformError } from "effect/PlatformError"
import * as Semaphore from "effect/Semaphore"

/** One audit record; `at` is added when it is written. */
export interface Entry {
  readonly event: string
  readonly tool?: string | undefined
  readonly toolUseId?: string | undefined
  readonly decision?: string | undefined
  readonly detail?: unknown
}

export class AuditLog extends Context.Service<AuditLog, {
  /** Where the records go. */
  readonly path: string
  /** Appends one record. A failure is the caller's: a PreToolUse hook that cannot audit fails closed. */
  readonly record: (entry: Entry) => Effect.Effect<void, PlatformError>
  /** How many records were written. */
  readonly count: Effect.Effect<number>
}>()("@claude-effect/examples/demo/AuditLog") {}

/** Writes JSON lines to `path`, one at a time (hooks run concurrently). */
export const layerJsonl = (path: string): Layer.Layer<AuditLog, never, FileSystem.FileSystem> =>
  Layer.effect(
    AuditLog,
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const lock = yield* Semaphore.make(1)
      let written = 0
      return AuditLog.of({
        path,
        record: (entry) =>
          fs.writeFileString(path, JSON.stringify({ at: new Date().toISOString(), ...entry }) + "\n", { flag: "a" })
            .pipe(Effect.tap(() => Effect.sync(() => void written++)), lock.withPermits(1)),
        count: Effect.sync(() => written)
      })
    })
  )
