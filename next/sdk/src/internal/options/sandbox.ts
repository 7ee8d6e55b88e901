/**
 * The `sandbox` option merged into the `sandbox` block of the settings the
 * CLI gets on `--settings`, by the official SDK's (0.3.328) rules, so that
 * the same options make the same settings with either SDK.
 *
 * @internal
 */
import type { SandboxSettings } from "../../ClaudeOptions.js"

/** Restriction lists: combined from both sides, never replaced (a restriction is not lost by adding one). */
const COMBINED: ReadonlySet<string> = new Set([
  "filesystem.denyRead",
  "filesystem.denyWrite",
  "network.deniedDomains",
  "credentials.files",
  "credentials.envVars"
])

/** Objects the option replaces whole: half of one and half of another is neither. */
const WHOLE: ReadonlySet<string> = new Set(["ripgrep", "network.tlsTerminate"])

// The one key an assignment into a plain object does not store as data (it sets the prototype). "constructor"
// and "prototype" are stored as own properties like any other: settings the CLI may know, kept.
const PROTO_KEY = "__proto__"

const PROXY_PORTS = ["httpProxyPort", "socksProxyPort"] as const

type Json = { [key: string]: unknown }

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

/** Entries equal as JSON are one entry. */
const entryKey = (entry: unknown): string => JSON.stringify(entry)

const combine = (path: string, base: ReadonlyArray<unknown>, over: ReadonlyArray<unknown>): Array<unknown> => {
  const out: Array<unknown> = []
  const seen = new Set<string>()
  for (const entry of [...base, ...over]) {
    const key = entryKey(entry)
    if (seen.has(key)) continue
    seen.add(key)
    out.push(entry)
  }
  // A credential denied on either side is denied: a `mask` entry for the same file or variable goes.
  const field = path === "credentials.files" ? "path" : path === "credentials.envVars" ? "name" : undefined
  if (field === undefined) return out
  const denied = new Set(
    out.filter((entry) => isRecord(entry) && entry.mode === "deny").map((entry) => (entry as Json)[field])
  )
  return out.filter((entry) => !(isRecord(entry) && entry.mode === "mask" && denied.has(entry[field])))
}

const deepMerge = (base: unknown, over: Json, path: string): Json => {
  const out: Json = isRecord(base) ? { ...base } : {}
  for (const [key, value] of Object.entries(over)) {
    if (key === PROTO_KEY || value === undefined) continue
    const at = path === "" ? key : `${path}.${key}`
    const existing = Object.hasOwn(out, key) ? out[key] : undefined
    if (COMBINED.has(at) && Array.isArray(existing) && Array.isArray(value)) out[key] = combine(at, existing, value)
    else if (isRecord(existing) && isRecord(value) && !WHOLE.has(at)) out[key] = deepMerge(existing, value, at)
    else out[key] = value
  }
  return out
}

/**
 * `over` merged into `base` (a `sandbox` block from settings, or the
 * `sandbox` of the layer's defaults): a value `over` sets replaces the one
 * at the same path, one it does not set is kept; nested objects merge key by
 * key except `ripgrep` and `network.tlsTerminate`; the restriction lists are
 * combined. Two values of `base` that would undo what `over` asks for are
 * dropped: `filesystem.disabled: true` when `over` configures `filesystem`
 * or denies a credential file (it would switch those off), and the proxy
 * ports when `over` restricts the network (traffic through one's own proxy
 * is not checked against those lists).
 *
 * @internal
 */
export const mergeSandbox = (base: unknown, over: SandboxSettings): SandboxSettings => {
  const merged = deepMerge(base, over as Json, "")
  const files = over.credentials?.files
  const overFilesystem = over.filesystem !== undefined || (files ?? []).some((entry) => entry.mode === "deny")
  const filesystem = merged.filesystem
  if (
    overFilesystem && over.filesystem?.disabled === undefined && isRecord(filesystem) && filesystem.disabled === true
  ) {
    const { disabled: _, ...rest } = filesystem
    merged.filesystem = rest
  }
  const network = over.network
  const restrictsNetwork = network?.allowedDomains !== undefined || (network?.deniedDomains?.length ?? 0) > 0 ||
    network?.strictAllowlist === true
  const mergedNetwork = merged.network
  if (restrictsNetwork && isRecord(mergedNetwork)) {
    const kept: Json = { ...mergedNetwork }
    for (const port of PROXY_PORTS) if (network?.[port] === undefined) delete kept[port]
    merged.network = kept
  }
  return merged as SandboxSettings
}

/** Whether a `settings` string is inline JSON rather than a file path (the official SDK's test). @internal */
export const isInlineSettings = (settings: string): boolean => {
  const trimmed = settings.trim()
  return trimmed.startsWith("{") && trimmed.endsWith("}")
}

/**
 * The settings object `--settings` carries when `sandbox` is set: the inline
 * settings (object or JSON string; `{}` when absent, or when a string does
 * not parse — `validate` reports that first) with the option merged into
 * their `sandbox` block, and `failIfUnavailable: true` when the option
 * enables the sandbox and neither side says otherwise.
 *
 * @internal
 */
export const settingsWithSandbox = (
  settings: string | { readonly [key: string]: unknown } | undefined,
  sandbox: SandboxSettings
): Json => {
  let base: Json = {}
  if (typeof settings === "string") {
    try {
      const parsed: unknown = JSON.parse(settings)
      if (isRecord(parsed)) base = parsed
    } catch {
      // reported by validate (InvalidOptions) before anything is spawned
    }
  } else if (settings !== undefined) {
    base = { ...settings }
  }
  const block = mergeSandbox(base.sandbox, sandbox) as Json
  if (sandbox.enabled === true && block.failIfUnavailable === undefined) block.failIfUnavailable = true
  return { ...base, sandbox: block }
}
