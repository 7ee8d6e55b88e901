/**
 * A multi-turn session on one CLI process, and an interrupt: the second
 * turn is cut short, and the session takes the next prompt as if nothing
 * happened. The process lives as long as the scope that opened the session.
 *
 *   npx tsx src/examples/session-interrupt.ts          # offline, against the scripted model
 *   npx tsx src/examples/session-interrupt.ts --live   # the real API
 */
import { ClaudeCode, Protocol } from "@claude-effect/sdk"
import { ScriptedModel } from "@claude-effect/testkit"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Example from "../Example.js"

const isResult = (message: Protocol.Message): message is Protocol.ResultMessage =>
  !Protocol.isUnknownMessage(message) && message.type === "result"

/** The `result` that ends a turn. */
const resultOf = <E>(turn: Stream.Stream<Protocol.Message, E>) =>
  turn.pipe(Stream.filter(isResult), Stream.runLast, Effect.map(Option.getOrUndefined))

const describe = (result: Protocol.ResultMessage | undefined) =>
  result === undefined
    ? "no result"
    : Protocol.isResultSuccess(result)
    ? `${result.subtype}: ${result.result}`
    : `${result.subtype} (${result.terminal_reason ?? "?"})`

export const program = Effect.scoped(
  Effect.gen(function*() {
    const session = yield* ClaudeCode.session({ maxTurns: 3 })

    const first = yield* resultOf(session.turn("Say hello in one word."))
    yield* Console.log(`turn 1 → ${describe(first)}`)

    // A long answer, interrupted after a moment. The turn still ends with a result.
    const counting = yield* resultOf(session.turn("Count from 1 to 300, one number per line.")).pipe(Effect.forkChild)
    yield* Effect.sleep("2 seconds")
    yield* session.interrupt
    yield* Console.log(`turn 2 → ${describe(yield* Fiber.join(counting))}`)

    const third = yield* resultOf(session.turn("Are you still there? Answer in one short sentence."))
    yield* Console.log(`turn 3 → ${describe(third)}`)
    yield* Console.log(`session ${yield* session.sessionId} — the process ends with this scope`)
  })
)

const numbers = Array.from({ length: 300 }, (_, i) => String(i + 1)).join("\n")

/** What the scripted model answers offline: the count streams slowly, so the interrupt lands mid-answer. */
export const script = [
  ScriptedModel.text("Hello!"),
  ScriptedModel.slow(ScriptedModel.text(numbers), { delay: "40 millis", chunkSize: 6 }),
  ScriptedModel.text("Yes — still here, ready for the next prompt.")
]

Example.main(import.meta, program, script)
