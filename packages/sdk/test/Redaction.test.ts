/**
 * The one redaction rule (internal/redaction.ts) and the secret detection it
 * is fed by (internal/options/secrets.ts): what counts as a secret, how a
 * secret is hidden in a text, at a text's cut edges, in JSON, in values, and
 * in everything a logger sees.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as References from "effect/References"
import * as Secrets from "../src/internal/options/secrets.js"
import * as Redaction from "../src/internal/redaction.js"

const SECRET = "sk-ant-SUPERSECRET-1234567890"

describe("secrets: what counts as one", () => {
  // ported from packages/sdk/test/ClaudeOptions.test.ts "ClaudeOptions secrets" (ClaudeOptions re-exports these)
  it("isSecretEnvKey", () => {
    for (
      const key of [
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "CLAUDE_CODE_OAUTH_TOKEN",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "GITHUB_TOKEN",
        "GH_PAT",
        "DB_PASSWORD",
        "SMTP_PASS",
        "OPENAI_KEY",
        "apiKey",
        "accessToken",
        "client-secret",
        "Authorization",
        "NPM_CONFIG__AUTH",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "SENTRY_DSN",
        "SESSION_COOKIE",
        "PRIVATE_KEY"
      ]
    ) assert.isTrue(Secrets.isSecretEnvKey(key), key)
    for (
      const key of [
        "PATH",
        "HOME",
        "PWD",
        "ANTHROPIC_BASE_URL",
        "ANTHROPIC_MODEL",
        "GIT_AUTHOR_NAME",
        "CLAUDE_CODE_MAX_OUTPUT_TOKENS",
        "MAX_THINKING_TOKENS",
        "KEYBOARD_LAYOUT",
        "MONKEY",
        "LANG",
        ""
      ]
    ) assert.isFalse(Secrets.isSecretEnvKey(key), key)
  })

  it("redactEnv hides secret values, keeps the rest, drops undefined", () => {
    assert.deepStrictEqual(
      Secrets.redactEnv({ ANTHROPIC_API_KEY: "sk-1", PATH: "/bin", GH_TOKEN: "g", GONE: undefined }),
      { ANTHROPIC_API_KEY: "<redacted>", PATH: "/bin", GH_TOKEN: "<redacted>" }
    )
  })

  it("redactArgList hides JSON env/headers blocks and the values of secret flags, and nothing else", () => {
    // the raw-argv part of "redactArgs hides MCP env/headers, settings env and secret flags" (the rest needs
    // ClaudeOptions.toCliArgs)
    assert.deepStrictEqual(
      Secrets.redactArgList(["--settings", JSON.stringify({ env: "K=V1", headers: ["H2"], n: 1 })]),
      ["--settings", JSON.stringify({ env: "<redacted>", headers: ["<redacted>"], n: 1 })]
    )
    assert.deepStrictEqual(Secrets.redactArgList(["--model=haiku", "--resume", "abc"]), [
      "--model=haiku",
      "--resume",
      "abc"
    ])
    assert.deepStrictEqual(
      Secrets.redactArgList([
        "--api-key",
        "AK",
        "--token=TK",
        "ok",
        `--mcp-config=${JSON.stringify({ env: { A: "E" } })}`
      ]),
      [
        "--api-key",
        "<redacted>",
        "--token=<redacted>",
        "ok",
        `--mcp-config=${JSON.stringify({ env: { A: "<redacted>" } })}`
      ]
    )
  })

  it("redactDeep: env and headers blocks hidden whole, secret-looking keys hidden, cycles and depth bounded", () => {
    const cyclic: Record<string, unknown> = { name: "s", env: { ANY: "E1" }, headers: { "X-Custom": "H1" } }
    cyclic.self = cyclic
    assert.deepStrictEqual(Secrets.redactDeep(cyclic), {
      name: "s",
      env: { ANY: "<redacted>" },
      headers: { "X-Custom": "<redacted>" },
      self: "[Circular]"
    })
    assert.deepStrictEqual(Secrets.redactDeep({ apiKey: "x", nested: [{ password: 1 }, "--token=T"] }), {
      apiKey: "<redacted>",
      nested: [{ password: "<redacted>" }, "--token=<redacted>"]
    })
    let deep: unknown = "leaf"
    for (let i = 0; i < 100; i++) deep = { d: deep }
    assert.include(JSON.stringify(Secrets.redactDeep(deep)), "[Too deep]")
  })

  it("secretValues: the environment's, the settings', the MCP servers' and the listed ones", () => {
    const values = Secrets.secretValues(
      {
        secrets: ["listed-secret"],
        settings: JSON.stringify({ env: { GH_TOKEN: "ghp_settings_token" } }),
        managedSettings: { env: { DB_PASSWORD: "managed-password" } },
        mcpServers: {
          web: { type: "http", url: "http://127.0.0.1", headers: { Authorization: "Bearer bearer-token-value" } },
          local: { command: "node", env: { SERVICE_TOKEN: "mcp-env-token", SHORT_KEY: "short", PLAIN: "not-a-secret" } }
        }
      },
      { ANTHROPIC_API_KEY: "sk-ant-environment", PATH: "/usr/bin:/bin", UNSET_TOKEN: undefined }
    )
    for (
      const secret of [
        "listed-secret",
        "ghp_settings_token",
        "managed-password",
        "Bearer bearer-token-value",
        "bearer-token-value",
        "mcp-env-token",
        "sk-ant-environment"
      ]
    ) assert.include(values, secret)
    // a value under 8 characters in a secret-looking variable is a flag or a placeholder; PATH is no secret
    for (const value of ["short", "not-a-secret", "/usr/bin:/bin"]) assert.notInclude(values, value)
  })
})

describe("Redaction: the rule", () => {
  it("hides every whole occurrence, longest secret first; ignores secrets too short to matter", () => {
    const redactor = Redaction.make([SECRET, "SUPERSECRET", "abc"])
    assert.deepStrictEqual(redactor.secrets, [SECRET, "SUPERSECRET"])
    assert.strictEqual(redactor.longest, SECRET.length)
    assert.strictEqual(
      redactor.redact(`key=${SECRET} and SUPERSECRET alone, abc stays`),
      "key=<redacted> and <redacted> alone, abc stays"
    )
    assert.strictEqual(Redaction.make(["short"]), Redaction.none)
    assert.strictEqual(Redaction.none.redact(SECRET), SECRET)
  })

  it("hides a piece of a secret at either edge of a text (where a cut went through it), not in the middle", () => {
    const redactor = Redaction.make([SECRET])
    // a kept tail that starts inside the secret, a display excerpt that ends inside it
    assert.strictEqual(redactor.redact(`${SECRET.slice(10)} then text`), "<redacted> then text")
    assert.strictEqual(redactor.redact(`text then ${SECRET.slice(0, 12)}`), "text then <redacted>")
    // a piece shorter than four characters carries too little of the secret
    assert.strictEqual(redactor.redact(`${SECRET.slice(-3)} then text`), `${SECRET.slice(-3)} then text`)
    // a piece in the middle of a text is no cut's edge (and the whole secret is not there)
    assert.strictEqual(redactor.redact(`a ${SECRET.slice(5, 15)} b`), `a ${SECRET.slice(5, 15)} b`)
    // a text made of a secret's tail and a secret's head, nothing between: all secret
    assert.strictEqual(redactor.redact(`${SECRET.slice(-6)}${SECRET.slice(0, 6)}`), "<redacted>")
  })

  it("redactWhole: whole occurrences only, for texts that were not cut", () => {
    const redactor = Redaction.make([SECRET])
    assert.strictEqual(redactor.redactWhole(`${SECRET.slice(10)} ${SECRET}`), `${SECRET.slice(10)} <redacted>`)
  })

  it("redactJson: the same shape, strings and keys redacted, and the very value back when it holds no secret", () => {
    const redactor = Redaction.make([SECRET])
    const clean = { a: [1, "two", { b: null }] }
    assert.strictEqual(Redaction.redactJson(redactor, clean), clean)
    const value = JSON.parse(
      JSON.stringify({ stdout: `token=${SECRET}`, nested: [[{ [SECRET]: 1, n: 2 }]], __proto__x: "k" })
    )
    const withProto = JSON.parse(`{"__proto__":{"v":"${SECRET}"},"keep":"${SECRET.slice(0, 8)}"}`)
    assert.deepStrictEqual(Redaction.redactJson(redactor, value), {
      stdout: "token=<redacted>",
      nested: [[{ "<redacted>": 1, n: 2 }]],
      __proto__x: "k"
    })
    const redacted = Redaction.redactJson(redactor, withProto) as Record<string, unknown>
    // `__proto__` stays a data property: no prototype was set, and the edge rule is not applied to data
    assert.isTrue(Object.prototype.hasOwnProperty.call(redacted, "__proto__"))
    assert.strictEqual(Object.getPrototypeOf(redacted), Object.prototype)
    assert.strictEqual(JSON.stringify(redacted), `{"__proto__":{"v":"<redacted>"},"keep":"${SECRET.slice(0, 8)}"}`)
    assert.strictEqual(Redaction.redactJson(Redaction.none, value), value)
  })

  it("redactValue: strings redacted (edges too), errors as their redacted text, cycles and depth bounded", () => {
    const redactor = Redaction.make([SECRET])
    const cyclic: Record<string, unknown> = { message: `failed with ${SECRET}`, error: new Error(`bad ${SECRET}`) }
    cyclic.self = cyclic
    assert.deepStrictEqual(Redaction.redactValue(redactor, cyclic), {
      message: "failed with <redacted>",
      error: "Error: bad <redacted>",
      self: "[elided]"
    })
    assert.isTrue(Redaction.leaks(redactor, `x${SECRET}x`))
    assert.isFalse(Redaction.leaks(redactor, SECRET.slice(1)))
  })
})

describe("Redaction.redactingLogger", () => {
  // Every entry a logger gets, as it gets it: the message, the cause, and the annotations it reads off the fiber.
  const capture = () => {
    const entries: Array<{ message: unknown; cause: string; annotations: unknown }> = []
    const logger = Logger.make<unknown, void>((options) => {
      entries.push({
        message: options.message,
        cause: options.cause.reasons.length === 0 ? "" : Cause.pretty(options.cause),
        annotations: options.fiber.getRef(References.CurrentLogAnnotations)
      })
    })
    return { entries, logger }
  }

  it.effect("hides the secrets in the message, the cause and the annotations, whatever the logger", () =>
    Effect.gen(function*() {
      const { entries, logger } = capture()
      const structured: Array<unknown> = []
      const redactor = Redaction.make([SECRET])
      const loggers = [
        Redaction.redactingLogger(logger, redactor),
        // a logger of effect's own, which reads the annotations off the fiber itself
        Redaction.redactingLogger(Logger.map(Logger.formatStructured, (entry) => void structured.push(entry)), redactor)
      ]
      yield* Effect.logWarning(`the key is ${SECRET}`, Cause.fail(new Error(`boom ${SECRET}`))).pipe(
        Effect.annotateLogs({ apiKey: SECRET, nested: { list: [`x ${SECRET}`] }, plain: "ok" }),
        Effect.provide(Logger.layer(loggers))
      )
      assert.strictEqual(entries.length, 1)
      const text = JSON.stringify({ entries, structured })
      assert.notInclude(text, "SUPERSECRET")
      assert.deepStrictEqual(entries[0].message, ["the key is <redacted>"])
      assert.include(entries[0].cause, "boom <redacted>")
      assert.deepStrictEqual(entries[0].annotations, {
        apiKey: "<redacted>",
        nested: { list: ["x <redacted>"] },
        plain: "ok"
      })
      assert.include(JSON.stringify(structured), "\"plain\":\"ok\"")
      assert.include(JSON.stringify(structured), "\"apiKey\":\"<redacted>\"")
    }))

  it.effect("passes what holds no secret as it is; with no secret known the logger itself is kept", () =>
    Effect.gen(function*() {
      const { entries, logger } = capture()
      assert.strictEqual(Redaction.redactingLogger(logger, Redaction.none), logger)
      yield* Effect.logInfo("nothing to hide").pipe(
        Effect.annotateLogs({ requestId: "r-1" }),
        Effect.provide(Logger.layer([Redaction.redactingLogger(logger, Redaction.make([SECRET]))]))
      )
      assert.deepStrictEqual(entries, [{ message: ["nothing to hide"], cause: "", annotations: { requestId: "r-1" } }])
    }))
})
