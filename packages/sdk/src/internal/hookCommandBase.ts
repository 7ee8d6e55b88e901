/**
 * What every hook-command module shares: the error and the stdio service.
 * Defined here, below `HookCommand` and its internals, so that none of them
 * imports another in a cycle; `HookCommand` exports them.
 *
 * @internal
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/** @internal */
export class HookCommandError extends Schema.TaggedError<HookCommandError>("@claude-effect/sdk/HookCommandError")(
  "HookCommandError",
  {
    reason: Schema.Literals([
      "StdinFailed",
      "StdinTooLarge",
      "InvalidSettings",
      "SettingsReadFailed",
      "SettingsWriteFailed",
      "InvalidOptions"
    ]),
    /** The file concerned, if any. */
    path: Schema.optional(Schema.String),
    detail: Schema.String,
    cause: Schema.optional(Schema.Defect())
  }
) {
  override get message(): string {
    return this.path !== undefined ? `${this.detail} (${this.path})` : this.detail
  }
}

/** @internal */
export interface StdioService {
  readonly readAll: (maxBytes: number) => Effect.Effect<string, HookCommandError>
  readonly writeStdout: (text: string) => Effect.Effect<void>
  readonly writeStderr: (text: string) => Effect.Effect<void>
}

/** @internal */
export class Stdio extends Context.Service<Stdio, StdioService>()("@claude-effect/sdk/HookCommand/Stdio") {}
