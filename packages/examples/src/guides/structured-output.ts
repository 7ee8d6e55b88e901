/**
 * The code of docs/structured-output.md. Each `#region` is copied into the
 * guide by scripts/sync-guides.mjs; `pnpm check` type-checks this file.
 */
// #region imports
import { ClaudeCode, type ClaudeError, Protocol, StructuredOutput } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import { Console, Effect, Schema, Stream } from "effect"
// #endregion

// #region structured
class Verdict extends Schema.Class<Verdict>("Verdict")({
  safe: Schema.Boolean,
  risk: Schema.Literals(["low", "medium", "high"]),
  reasons: Schema.Array(Schema.String)
}) {}

// A `Verdict`, decoded: the CLI was given Verdict's JSON Schema and checked the model's answer against it.
const verdict: Effect.Effect<Verdict, ClaudeError.ClaudeError, ClaudeCode.ClaudeCode> = ClaudeCode.structured(
  "Is `rm -rf build` safe to run in this repository?",
  Verdict,
  { allowedTools: ["Read", "Glob"] }
)
// #endregion

// #region errors
const handled = verdict.pipe(
  Effect.catchTag("StructuredOutputError", (error) => {
    switch (error.reason) {
      case "Missing": // the model answered in text: error.result
        return Console.log(`no verdict; the model said: ${error.result}`)
      case "Mismatch": // the Schema rejected what the JSON Schema let through: error.detail, error.value
        return Console.log(`bad verdict: ${error.detail}`)
      case "RetriesExhausted": // the CLI gave up asking
        return Console.log(error.message)
    }
  })
)
// #endregion

// #region pieces
// The same in a session, turn by turn: the output format is set when the session opens.
const inSession = Effect.scoped(
  Effect.gen(function*() {
    const outputFormat = yield* StructuredOutput.outputFormat(Verdict)
    const session = yield* ClaudeCode.session({ outputFormat })
    const result = yield* session.turn("Is `git clean -fdx` safe here?").pipe(
      Stream.filter(Protocol.isResultMessage),
      Stream.runLast,
      Effect.flatMap(Effect.fromOption)
    )
    return yield* StructuredOutput.decode(Verdict, result)
  })
)
// #endregion

// #region test
// In a test, the scripted model answers through the CLI's structured-output tool.
const model = ScriptedModel.layerNode([
  ScriptedModel.structuredOutput({ safe: true, risk: "low", reasons: ["build/ is generated"] })
])
// #endregion

export { handled, inSession, model }
