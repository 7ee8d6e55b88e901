/**
 * The code of docs/sandbox.md. Each `#region` is copied into the guide by
 * scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import { ClaudeCode, ClaudeOptions, ControlRequest } from "@claude-effect/sdk"
import { Console, Effect } from "effect"
// #endregion

// #region enable
// Bash commands run under bubblewrap (Linux) or Seatbelt (macOS): they write only in the working
// directory and the paths given here, and reach only the hosts allowed.
const sandboxed = ClaudeCode.layer({
  sandbox: {
    enabled: true,
    autoAllowBashIfSandboxed: true, // a sandboxed command needs no permission prompt
    filesystem: { allowWrite: ["/var/cache/builds"], denyRead: ["~/.ssh"] },
    network: { allowedDomains: ["registry.npmjs.org", "*.github.com"] },
    credentials: { envVars: [{ name: "GITHUB_TOKEN", mode: "deny" }] }
  }
})
// #endregion

// #region per-call
// A call's sandbox refines the layer's: lists of restrictions add up, other values replace.
const stricter = ClaudeCode.result("Run the tests.", {
  sandbox: { filesystem: { denyRead: ["./fixtures/secrets"] }, network: { allowedDomains: [] } }
})
// #endregion

// #region read-back
// What the CLI took: the effective settings, read back from the running session.
const effectiveSandbox = Effect.scoped(
  Effect.gen(function*() {
    const session = yield* ClaudeCode.session({ sandbox: { enabled: true } })
    const settings = yield* session.request(ControlRequest.requests.get_settings, {})
    yield* Console.log(settings.effective.sandbox)
  })
)
// #endregion

// #region schema
// The same settings as a value of their own, checked before anything runs.
const policy: ClaudeOptions.SandboxSettings = {
  enabled: true,
  excludedCommands: ["docker *"],
  network: { strictAllowlist: true, allowedDomains: ["api.internal.example"] }
}
const checked = ClaudeOptions.decode({ sandbox: policy })
// #endregion

export { checked, effectiveSandbox, sandboxed, stricter }
