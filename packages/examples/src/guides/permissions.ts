/**
 * The code of docs/permissions.md. Each `#region` is copied into the guide
 * by scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import { ClaudeCode, PermissionGate, PermissionResult } from "@claude-effect/sdk"
import { Context, Effect, Layer, Stream } from "effect"
import * as Path from "node:path"
// #endregion

// #region basic
const readOnly = PermissionGate.layer((request) =>
  Effect.succeed(
    ["Read", "Glob", "Grep"].includes(request.tool_name)
      ? PermissionResult.allow()
      : PermissionResult.deny(`${request.tool_name} is not allowed: this session is read-only.`)
  )
)

const review = ClaudeCode.query("Review src/ and list the three riskiest functions.").pipe(
  Stream.runDrain,
  Effect.provide(readOnly)
)
// #endregion

// #region sandbox
// Writes aimed outside the project land in its sandbox/ folder instead: the tool runs with the new input.
class Project extends Context.Service<Project, { readonly dir: string }>()("app/Project") {}

const sandbox = PermissionGate.layer((request) =>
  Effect.gen(function*() {
    const { dir } = yield* Project
    const target = request.input.file_path
    if (request.tool_name !== "Write" || typeof target !== "string") return PermissionResult.allow()
    const inside = !Path.relative(dir, Path.resolve(dir, target)).startsWith("..")
    return inside
      ? PermissionResult.allow()
      : PermissionResult.allow({
        updatedInput: { ...request.input, file_path: Path.join(dir, "sandbox", Path.basename(target)) }
      })
  })
)

// The gate's services show in its layer: provide them like any other layer's.
const SandboxGate: Layer.Layer<PermissionGate.PermissionGate> = sandbox.pipe(
  Layer.provide(Layer.succeed(Project, { dir: "/path/to/project" }))
)
// #endregion

// #region remember
// Allow, and let the CLI allow the same kind of call from now on without asking.
const rememberTouch = PermissionGate.layer((request) =>
  Effect.succeed(
    request.tool_name === "Bash"
      ? PermissionResult.allow({
        updatedPermissions: [{
          type: "addRules",
          rules: [{ toolName: "Bash", ruleContent: "touch:*" }],
          behavior: "allow",
          destination: "session"
        }]
      })
      : PermissionResult.allow()
  )
)
// #endregion

// #region interrupt
// Deny and stop the turn.
const stopOnNetwork = PermissionGate.layer((request) =>
  Effect.succeed(
    request.tool_name === "WebFetch"
      ? PermissionResult.deny("no network access", { interrupt: true })
      : PermissionResult.allow()
  )
)
// #endregion

// #region timeout
// A human approves each call, through some service of the application. The CLI would wait forever;
// the SDK does not: after 2 minutes without an answer the gate denies, and says why.
class Approvals extends Context.Service<Approvals, {
  readonly ask: (tool: string, input: unknown) => Effect.Effect<boolean>
}>()("app/Approvals") {}

const humanInTheLoop = PermissionGate.layer(
  (request) =>
    Effect.flatMap(Approvals, (approvals) => approvals.ask(request.tool_name, request.input)).pipe(
      Effect.map((approved) => approved ? PermissionResult.allow() : PermissionResult.deny("a human said no"))
    ),
  { timeout: "2 minutes" }
)
// #endregion

export { Approvals, humanInTheLoop, Project, rememberTouch, review, sandbox, SandboxGate, stopOnNetwork }
