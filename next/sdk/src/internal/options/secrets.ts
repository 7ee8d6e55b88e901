/**
 * Secret detection and redaction for everything the options module hands to
 * logs and errors: environment records, argv, and JSON payloads (MCP configs,
 * settings) that may carry `env` or `headers` blocks.
 *
 * @internal
 */

/** The text that stands in for a hidden value. */
export const REDACTED = "<redacted>"

// Matched against the upper-cased key with `-` and `.` turned into `_`.
const SECRET_FRAGMENTS: ReadonlyArray<string> = [
  "SECRET",
  "PASSWORD",
  "PASSWD",
  "PASSPHRASE",
  "APIKEY",
  "API_KEY",
  "ACCESSKEY",
  "ACCESS_KEY",
  "PRIVATEKEY",
  "PRIVATE_KEY",
  "SIGNING_KEY",
  "SESSION_KEY",
  "ENCRYPTION_KEY",
  "MASTER_KEY",
  "CREDENTIAL",
  "AUTHORIZATION",
  "BEARER",
  "COOKIE",
  "CONNECTION_STRING",
  "CONNECTIONSTRING",
  "DSN"
]

// `AUTH` as a word part (OAUTH, AUTH_HEADER, GITHUB_AUTH) but not AUTHOR (GIT_AUTHOR_NAME).
const AUTH_PATTERN = /AUTH(?!OR)/
// `TOKEN` anywhere except the plural counts (MAX_OUTPUT_TOKENS, MAX_THINKING_TOKENS).
const TOKEN_PATTERN = /TOKEN(?!S(_|$))/
// A trailing `KEY`/`PASS` word: OPENAI_KEY, SMTP_PASS (but not PWD, the working directory).
const SUFFIX_PATTERN = /(^|_)(KEY|PASS|PAT)$/

// Every session asks again about the same hundred or so variable names (the parent environment's): answers
// are kept, by name (a name is not a secret; values are never kept), up to a bound.
const secretKeyAnswers = new Map<string, boolean>()
const MAX_KEPT_ANSWERS = 4096

/** @internal */
export const isSecretEnvKey = (key: string): boolean => {
  const known = secretKeyAnswers.get(key)
  if (known !== undefined) return known
  const answer = classifyEnvKey(key)
  if (secretKeyAnswers.size >= MAX_KEPT_ANSWERS) secretKeyAnswers.clear()
  secretKeyAnswers.set(key, answer)
  return answer
}

const classifyEnvKey = (key: string): boolean => {
  const normalized = key.toUpperCase().replace(/[-.\s]/g, "_")
  if (normalized.length === 0) return false
  for (const fragment of SECRET_FRAGMENTS) {
    if (normalized.includes(fragment)) return true
  }
  return AUTH_PATTERN.test(normalized) || TOKEN_PATTERN.test(normalized) || SUFFIX_PATTERN.test(normalized)
}

/** @internal */
export const redactEnv = (env: Readonly<Record<string, string | undefined>>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue
    out[key] = isSecretEnvKey(key) ? REDACTED : value
  }
  return out
}

/** Keys whose object value is a map of secrets-by-default (every value hidden). */
const SECRET_CONTAINERS: ReadonlySet<string> = new Set(["env", "headers"])

const MAX_DEPTH = 64

/**
 * A deep copy of a JSON-like value with every value of an `env`/`headers`
 * block and of every secret-looking key replaced by {@link REDACTED}. Cycles
 * become `"[Circular]"`; the walk is bounded in depth.
 *
 * @internal
 */
export const redactDeep = (value: unknown): unknown => {
  const seen = new WeakSet<object>()
  const go = (current: unknown, depth: number, hideAll: boolean): unknown => {
    if (current === null || typeof current !== "object") {
      if (hideAll) return REDACTED
      return typeof current === "string" ? redactFlagString(current) : current
    }
    if (depth > MAX_DEPTH) return "[Too deep]"
    if (seen.has(current)) return "[Circular]"
    seen.add(current)
    try {
      if (Array.isArray(current)) {
        return hideAll ? current.map(() => REDACTED) : redactArgList(current.map((item) => go(item, depth + 1, false)))
      }
      const out: Record<string, unknown> = {}
      for (const [key, inner] of Object.entries(current)) {
        if (hideAll || isSecretEnvKey(key)) {
          out[key] = REDACTED
        } else if (SECRET_CONTAINERS.has(key) && inner !== null && inner !== undefined) {
          out[key] = go(inner, depth + 1, true)
        } else {
          out[key] = go(inner, depth + 1, false)
        }
      }
      return out
    } finally {
      seen.delete(current)
    }
  }
  return go(value, 0, false)
}

const FLAG_WITH_VALUE = /^(--?)([A-Za-z0-9][\w.-]*)=([\s\S]*)$/
const FLAG = /^--?([A-Za-z0-9][\w.-]*)$/

const redactJsonText = (text: string): string | undefined => {
  if (!text.trimStart().startsWith("{")) return undefined
  try {
    return JSON.stringify(redactDeep(JSON.parse(text)))
  } catch {
    return undefined
  }
}

/** `--api-key=xyz` → `--api-key=<redacted>`, `--x={json}` → redacted JSON; anything else unchanged. */
const redactFlagString = (arg: string): string => {
  const match = FLAG_WITH_VALUE.exec(arg)
  if (match === null) return arg
  if (isSecretEnvKey(match[2])) return `${match[1]}${match[2]}=${REDACTED}`
  const json = redactJsonText(match[3])
  return json === undefined ? arg : `${match[1]}${match[2]}=${json}`
}

/**
 * Redacts a list of command-line-like items: a secret-looking `--flag=value`,
 * the item after a secret-looking `--flag`, and JSON object arguments (such as
 * `--mcp-config` and `--settings` payloads) through {@link redactDeep}.
 *
 * @internal
 */
export const redactArgList = <A>(args: ReadonlyArray<A>): Array<A | string> => {
  const out: Array<A | string> = []
  let hideNext = false
  for (const arg of args) {
    if (typeof arg !== "string") {
      out.push(arg)
      hideNext = false
      continue
    }
    if (hideNext) {
      out.push(REDACTED)
      hideNext = false
      continue
    }
    const flag = FLAG.exec(arg)
    if (flag !== null) {
      out.push(arg)
      hideNext = isSecretEnvKey(flag[1])
      continue
    }
    out.push(redactJsonText(arg) ?? redactFlagString(arg))
  }
  return out
}

// Values shorter than this in a secret-looking variable are flags or placeholders, not secrets.
const MIN_ENV_SECRET = 8

const bearerToken = /^\s*(?:Bearer|Basic|Token)\s+(\S+)\s*$/i

/** The object of inline settings (an object, or a JSON string), `undefined` for a path or none. */
const settingsObject = (settings: unknown): unknown => {
  if (typeof settings !== "string") return settings
  try {
    return JSON.parse(settings)
  } catch {
    return undefined
  }
}

/**
 * Every secret value the SDK knows for one CLI process: the values of
 * secret-looking variables of its environment and of the `env` blocks of its
 * `settings` and `managedSettings` (which the CLI adds to its environment),
 * every MCP server's `headers` (and the token inside `Bearer ...`) and
 * secret-looking `env` values, and the values the user listed in `secrets`.
 *
 * @internal
 */
export const secretValues = (
  options: {
    readonly secrets?: ReadonlyArray<string> | undefined
    readonly mcpServers?: { readonly [name: string]: unknown } | undefined
    readonly settings?: unknown
    readonly managedSettings?: unknown
  },
  processEnv: Readonly<Record<string, string | undefined>>
): Array<string> => {
  const out: Array<string> = [...(options.secrets ?? [])]
  const fromEnv = (env: unknown) => {
    if (env === null || typeof env !== "object") return
    for (const [key, value] of Object.entries(env)) {
      if (typeof value === "string" && value.length >= MIN_ENV_SECRET && isSecretEnvKey(key)) out.push(value)
    }
  }
  fromEnv(processEnv)
  for (const settings of [settingsObject(options.settings), options.managedSettings]) {
    if (settings !== null && typeof settings === "object") fromEnv((settings as { readonly env?: unknown }).env)
  }
  for (const server of Object.values(options.mcpServers ?? {})) {
    if (server === null || typeof server !== "object") continue
    const { env, headers } = server as { readonly env?: unknown; readonly headers?: unknown }
    fromEnv(env)
    if (headers !== null && typeof headers === "object") {
      for (const value of Object.values(headers)) {
        if (typeof value !== "string") continue
        out.push(value)
        const token = bearerToken.exec(value)
        if (token !== null) out.push(token[1])
      }
    }
  }
  return out
}
