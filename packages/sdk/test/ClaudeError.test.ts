/**
 * The errors of the SDK: tagged errors in one `ClaudeError` union, each with a
 * message that says what went wrong and how to fix it, catchable by tag, and
 * encodable with the union's Schema (a cause as `{ name, message }`).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as ClaudeError from "../src/ClaudeError.js"

const attempt = (source: ClaudeError.LocatorAttempt["source"], location: string, problem: string) =>
  new ClaudeError.LocatorAttempt({ source, location, problem })

// One of each, with the fields that shape its message.
const samples: ReadonlyArray<readonly [ClaudeError.ClaudeError, ReadonlyArray<string>]> = [
  [
    new ClaudeError.CliNotFoundError({
      reason: "NotFound",
      attempts: [attempt("platform-package", "/x/claude", "missing"), attempt("path", "PATH", "no claude")]
    }),
    [
      "was not found. Tried:",
      "  - platform-package: /x/claude (missing)",
      "  - path: PATH (no claude)",
      "Fix: reinstall"
    ]
  ],
  [
    new ClaudeError.CliNotFoundError({ reason: "NotExecutable", attempts: [attempt("option", "/bin/c", "EACCES")] }),
    ["The Claude Code CLI at /bin/c cannot be run: EACCES.", "chmod +x /bin/c"]
  ],
  [
    new ClaudeError.CliExitError({
      reason: "Exited",
      exitCode: 1,
      signal: null,
      stderrTail: "  boom\n",
      duringTurn: true
    }),
    ["The Claude Code CLI exited with code 1 before the running turn finished (no result); stderr ends with:\nboom"]
  ],
  [
    new ClaudeError.CliExitError({ reason: "Signaled", exitCode: null, signal: "SIGKILL", stderrTail: "" }),
    ["The Claude Code CLI was killed by SIGKILL"]
  ],
  [
    new ClaudeError.CliExitError({
      reason: "SpawnFailed",
      exitCode: null,
      signal: null,
      stderrTail: "",
      detail: "cwd /nope does not exist",
      cause: new Error("ENOENT")
    }),
    ["The Claude Code CLI could not be started: cwd /nope does not exist"]
  ],
  [
    new ClaudeError.ProtocolError({ reason: "InvalidJson", line: "{x", lineLength: 2, detail: "Unexpected token" }),
    ["InvalidJson (2 chars): Unexpected token\n  line: {x"]
  ],
  [
    new ClaudeError.ControlTimeoutError({ subtype: "mcp_status", requestId: "req_1", timeoutMillis: 500 }),
    ["did not answer the control request \"mcp_status\" (req_1) within 500 ms"]
  ],
  [
    new ClaudeError.ControlError({
      reason: "ErrorResponse",
      subtype: "set_permission_mode",
      requestId: "req_2",
      error: "must be one of ...",
      errorCode: "invalid_mode"
    }),
    ["Control request \"set_permission_mode\" (req_2) failed: must be one of ... [invalid_mode]"]
  ],
  [
    new ClaudeError.InitializeError({ reason: "Timeout", detail: "no answer in 60 s" }),
    ["The initialize handshake failed (Timeout): no answer in 60 s"]
  ],
  [
    new ClaudeError.OptionsError({ reason: "InvalidOptions", detail: "maxTurns: Expected a positive integer" }),
    ["Invalid options (InvalidOptions): maxTurns: Expected a positive integer"]
  ],
  [
    new ClaudeError.ResultError({ reason: "error_max_turns", sessionId: "s", errors: ["too many", "turns"] }),
    ["The turn ended with an error result (error_max_turns): too many; turns"]
  ],
  [
    new ClaudeError.ResultError({
      reason: "AuthenticationFailed",
      sessionId: "",
      errors: [],
      result: "Invalid API key"
    }),
    ["no valid credentials (it said: Invalid API key)", "ANTHROPIC_API_KEY", "ScriptedModel.cliEnv"]
  ],
  [
    new ClaudeError.StructuredOutputError({ reason: "Missing", sessionId: "s", detail: "", result: "x".repeat(400) }),
    ["without structured output", `(it said: ${"x".repeat(300)}…)`]
  ],
  [
    new ClaudeError.StructuredOutputError({
      reason: "Mismatch",
      sessionId: "s",
      detail: "age: Expected a positive number, actual -1",
      value: { age: -1 }
    }),
    ["does not match the schema: age: Expected a positive number, actual -1\n  value: {\"age\":-1}"]
  ],
  [
    new ClaudeError.StructuredOutputError({ reason: "RetriesExhausted", sessionId: "s", detail: "5 retries" }),
    ["the CLI gave up: 5 retries"]
  ],
  [
    new ClaudeError.SessionStoreError({ reason: "Timeout", operation: "append", detail: "no answer in 5 s" }),
    ["The session store could not append (Timeout): no answer in 5 s"]
  ],
  [
    new ClaudeError.SessionPoolError({ reason: "Closed", detail: "the pool's scope has ended" }),
    ["The session pool cannot hand out a session (Closed): the pool's scope has ended"]
  ]
]

describe("ClaudeError", () => {
  it("every error is an Error of the union, tagged, with a message that says what went wrong", () => {
    const tags = new Set<string>()
    for (const [error, parts] of samples) {
      assert.instanceOf(error, Error)
      assert.isTrue(ClaudeError.isClaudeError(error), error._tag)
      assert.strictEqual(error[ClaudeError.TypeId], ClaudeError.TypeId)
      for (const part of parts) assert.include(error.message, part, error._tag)
      tags.add(error._tag)
    }
    // every member of the union has a sample
    assert.strictEqual(tags.size, ClaudeError.ClaudeError.members.length)
    assert.isFalse(ClaudeError.isClaudeError(new Error("other")))
    assert.isFalse(ClaudeError.isClaudeError({ _tag: "ProtocolError" }))
  })

  it.effect("errors fail an Effect when yielded, and are caught by their tag", () =>
    Effect.gen(function*() {
      const program = Effect.gen(function*() {
        return yield* new ClaudeError.ControlTimeoutError({ subtype: "interrupt", requestId: "r", timeoutMillis: 1 })
      })
      const caught = yield* program.pipe(
        Effect.catchTag("ControlTimeoutError", (error) => Effect.succeed(`caught ${error.subtype}`))
      )
      assert.strictEqual(caught, "caught interrupt")
    }))

  it("the union's Schema encodes every error to JSON and decodes it back; a cause as its name and message", () => {
    const encode = Schema.encodeSync(ClaudeError.ClaudeError)
    const decode = Schema.decodeUnknownSync(ClaudeError.ClaudeError)
    for (const [error] of samples) {
      const json = JSON.parse(JSON.stringify(encode(error)))
      const back = decode(json)
      assert.strictEqual(back._tag, error._tag)
      assert.strictEqual(back.message, error.message)
      assert.isTrue(ClaudeError.isClaudeError(back))
    }
    const spawn = samples[4][0] as ClaudeError.CliExitError
    const encoded = JSON.parse(JSON.stringify(encode(spawn))) as { readonly cause: unknown }
    assert.deepStrictEqual(encoded.cause, { name: "Error", message: "ENOENT" })
    assert.instanceOf((decode(encoded) as ClaudeError.CliExitError).cause, Error)
  })

  it("resultFailure: the ResultError a result stands for (is_error on success included), none for a success", () => {
    assert.isUndefined(ClaudeError.resultFailure({ subtype: "success", is_error: false } as { subtype: string }))
    const apiError = ClaudeError.resultFailure(
      {
        subtype: "success",
        is_error: true,
        terminal_reason: "api_error",
        session_id: "s-1",
        result: "API Error: 500"
      } as {
        subtype: string
      }
    )
    assert.deepStrictEqual(
      [apiError?.reason, apiError?.sessionId, apiError?.result, apiError?.errors],
      ["api_error", "s-1", "API Error: 500", []]
    )
    assert.strictEqual(
      ClaudeError.resultFailure({ subtype: "success", is_error: true } as { subtype: string })?.reason,
      "error"
    )
    const maxTurns = ClaudeError.resultFailure(
      { subtype: "error_max_turns", session_id: "s-2", errors: ["max turns", 3] } as { subtype: string }
    )
    assert.deepStrictEqual([maxTurns?.reason, maxTurns?.errors], ["error_max_turns", ["max turns", "3"]])
    assert.isUndefined(maxTurns?.result)
    assert.deepStrictEqual(
      [ClaudeError.noResult().reason, ClaudeError.noResult().errors],
      ["NoResult", ["the CLI ended without a result"]]
    )
  })
})
