/**
 * The error of a cluster layer that cannot be built as configured.
 *
 * @internal
 */
import * as Schema from "effect/Schema"

/** @internal */
export class ClusterConfigError extends Schema.TaggedError<ClusterConfigError>(
  "@claude-effect/cluster/ClusterConfigError"
)("ClusterConfigError", {
  reason: Schema.Literals([
    "MissingCredential",
    "ConflictingOptions",
    "InvalidCredential",
    "UnreachableAddress"
  ]),
  /** The option to fix, e.g. `credential`. */
  option: Schema.String,
  detail: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {
  override get message(): string {
    return `${this.reason}: ${this.detail} (option \`${this.option}\`)`
  }
}
