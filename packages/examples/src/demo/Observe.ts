/**
 * Wrappers that show what a hook or the gate decided, and why, in the live
 * transcript. The handler's answer goes to the CLI unchanged; a handler that
 * fails or is cut off by its timeout is shown as such (the SDK then answers
 * with its fallback).
 */
import type { HookLayer, PermissionGate, Protocol } from "@claude-effect/sdk"
import { HookResult } from "@claude-effect/sdk"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import { type Decision, Transcript, type Verdict } from "./Transcript.js"

const fromHookAnswer = (answer: HookLayer.HookAnswer): { verdict: Verdict; why?: string | undefined } => {
  if (answer === undefined || !HookResult.isHookResult(answer)) {
    return answer === undefined ? { verdict: "pass" } : { verdict: "pass", why: "custom output" }
  }
  switch (answer._tag) {
    case "Empty":
      return { verdict: "pass" }
    case "Allow":
      return answer.updatedInput !== undefined
        ? { verdict: "rewrite", why: answer.reason ?? "input rewritten" }
        : { verdict: "allow", why: answer.reason }
    case "Deny":
      return { verdict: "deny", why: answer.reason }
    case "Ask":
      return { verdict: "ask", why: answer.reason }
    case "Defer":
      return { verdict: "defer" }
    case "Block":
      return { verdict: "block", why: answer.reason }
    case "Halt":
      return { verdict: "halt", why: answer.stopReason }
    case "AdditionalContext":
      return { verdict: "context", why: answer.text }
    case "UpdatedInput":
      return { verdict: "rewrite", why: "input rewritten" }
    case "Output":
      return { verdict: "pass", why: "custom output" }
  }
}

const failure = (cause: Cause.Cause<unknown>): string =>
  Cause.hasInterruptsOnly(cause)
    ? "cut off (timeout); the SDK answered with its fallback"
    : `${Cause.pretty(cause).split("\n")[0]}; the SDK answered with its fallback`

/** A hook handler that also reports its answer to the transcript. */
export const hook = <Event extends Protocol.HookEvent, E, R>(
  who: string,
  handler: HookLayer.HookHandler<Event, E, R>,
  options?: { readonly quiet?: boolean }
): HookLayer.HookHandler<Event, E, R | Transcript> =>
(input, context) => {
  // The tool call's id is in the input of tool events; other events get a fresh id from the CLI.
  const toolUseId = (input as { readonly tool_use_id?: unknown }).tool_use_id
  const report = (decision: Omit<Decision, "who" | "on" | "toolUseId">) =>
    Effect.flatMap(Effect.service(Transcript), (transcript) =>
      transcript.decision({
        who,
        on: context.event,
        toolUseId: typeof toolUseId === "string" ? toolUseId : undefined,
        ...decision
      }))
  return handler(input, context).pipe(
    Effect.tap((answer) => {
      const decision = fromHookAnswer(answer)
      return options?.quiet === true && decision.verdict === "pass" ? Effect.void : report(decision)
    }),
    Effect.onError((cause) => report({ verdict: "failed", why: failure(cause) }))
  )
}

const changes = (before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string =>
  Object.keys(after)
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => `${key} ${String(before[key])} → ${String(after[key])}`)
    .join(", ")

/** A permission gate handler that also reports its answer to the transcript. */
export const gate = <E, R>(
  who: string,
  handler: PermissionGate.Handler<E, R>
): PermissionGate.Handler<E, R | Transcript> =>
(request, context) => {
  const report = (decision: Omit<Decision, "who" | "on" | "toolUseId">) =>
    Effect.flatMap(
      Effect.service(Transcript),
      (transcript) => transcript.decision({ who, on: `can_use_tool`, toolUseId: context.toolUseId, ...decision })
    )
  return handler(request, context).pipe(
    Effect.tap((result) =>
      report(
        result.behavior === "deny"
          ? { verdict: "deny", why: result.message }
          : result.updatedInput !== undefined && changes(request.input, result.updatedInput).length > 0
          ? { verdict: "rewrite", why: changes(request.input, result.updatedInput) }
          : { verdict: "allow" }
      )
    ),
    Effect.onError((cause) => report({ verdict: "failed", why: failure(cause) }))
  )
}
