/**
 * The router's side of one inbound control request, as it treats one stdout
 * line: decoded by the Protocol codec, handed to an `InboundHandler` (`handle`,
 * or `undecodable` for a line the codec rejects), and the reply it writes.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { InboundHandler } from "../../src/ControlRouter.js"
import * as GuardedRun from "../../src/internal/guardedRun.js"
import * as Protocol from "../../src/Protocol.js"

/** What the router writes back: a success reply's `response`, or an error reply's message. */
export type Reply = { readonly response: unknown } | { readonly error: string }

const isControlRequest = Schema.is(Protocol.ControlRequest)

export const controlLine = (request: object, requestId = "req_1"): string =>
  JSON.stringify({ type: "control_request", request_id: requestId, request })

/** Decodes `line` with the Protocol codec and answers it with `handler`, as the router does. */
export const replyTo = (handler: InboundHandler, line: string): Effect.Effect<Reply> =>
  Effect.gen(function*() {
    const decoded = Protocol.decodeStdoutLine(line)
    if (Result.isFailure(decoded)) {
      const fallback = handler.undecodable?.((JSON.parse(line) as { request?: unknown }).request)
      return fallback === undefined ? { error: "undecodable" } : { response: JSON.parse(JSON.stringify(fallback)) }
    }
    const message = decoded.success
    if (!isControlRequest(message)) return yield* Effect.die(new Error(`not a control request: ${line}`))
    const answer = handler.handle(message.request, { requestId: message.request_id })
    if (answer._tag === "Effect") {
      const exit = yield* Effect.exit(answer.effect)
      return Exit.isSuccess(exit)
        ? { response: exit.value }
        : {
          error: Option.match(Cause.findErrorOption(exit.cause), { onNone: () => "failed", onSome: (e) => e.message })
        }
    }
    const context = yield* Effect.context<never>()
    return yield* Effect.clockWith((clock) =>
      Effect.callback<Reply>((resume) => {
        const running = GuardedRun.start(answer.guarded, context, clock, undefined, (settled) =>
          // The router writes `settled.json` as the reply's `response`.
          resume(Effect.succeed({ response: JSON.parse(settled.json) })))
        return Effect.sync(running.cancel)
      })
    )
  })
