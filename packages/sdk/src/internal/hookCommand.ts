/**
 * The core of a command hook: one hook input in, one answer out (stdout,
 * stderr, exit code), through the same registry and dispatch as a session.
 * No process here: `hookCommandNode.ts` is the Node edge.
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { identity } from "effect/Function"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as HookCommand from "../HookCommand.js"
import type * as HookRegistry from "../HookRegistry.js"
import type * as Protocol from "../Protocol.js"
import * as GuardedRun from "./guardedRun.js"
import { HookCommandError, Stdio, type StdioService } from "./hookCommandBase.js"
import * as InternalRegistry from "./hookRegistry.js"
import * as HookResult from "./hookResult.js"
import * as IssuePath from "./issuePath.js"
// The hook schemas themselves, not the Protocol facade: a hook program starts on every tool call,
// and the facade would also build every message schema.
import * as ProtocolHooks from "./protocol/hooks.js"

// -----------------------------------------------------------------------------
// Options
// -----------------------------------------------------------------------------

/** @internal */
export interface Resolved {
  readonly deadlineMillis: number
  readonly hookTimeout: Duration.Input
  readonly denyExitCode: 0 | 2
  readonly maxInputBytes: number
}

const DEFAULT_DEADLINE_MILLIS = 50_000
const DEFAULT_MAX_INPUT_BYTES = 16 * 1024 * 1024

/** @internal */
export const resolveOptions = (options?: HookCommand.RunOptions): Resolved => {
  const deadlineMillis = options?.timeout !== undefined
    ? Duration.toMillis(Duration.fromInputUnsafe(options.timeout))
    : DEFAULT_DEADLINE_MILLIS
  // Each hook's own fallback answers before the deadline, so that the others' answers still count.
  const hookTimeout = options?.hookTimeout ??
    Duration.millis(deadlineMillis > 2_000 ? deadlineMillis - 1_000 : Math.floor(deadlineMillis * 0.8))
  return {
    deadlineMillis,
    hookTimeout,
    denyExitCode: options?.denyExitCode ?? 2,
    maxInputBytes: options?.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES
  }
}

// -----------------------------------------------------------------------------
// Input
// -----------------------------------------------------------------------------

/** @internal */
export type Parsed =
  | { readonly _tag: "Input"; readonly input: Protocol.HookInput }
  | { readonly _tag: "Invalid"; readonly event: string | undefined; readonly problem: string }

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const preview = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > 120 ? JSON.stringify(flat.slice(0, 120)) + "..." : JSON.stringify(flat)
}

/** @internal */
export const invalid = (event: string | undefined, problem: string): Parsed => ({ _tag: "Invalid", event, problem })

type Decoder = (u: unknown) => Result.Result<Protocol.HookInput, Schema.SchemaError>

const decoders = new Map<string, Decoder>()

// One member schema per event (the union's own lookup would do, but its errors name all the members).
const decoderFor = (event: string): Decoder => {
  let decoder = decoders.get(event)
  if (decoder === undefined) {
    const schema: Schema.Decoder<Protocol.HookInput> = Object.hasOwn(ProtocolHooks.hookInputByEvent, event)
      ? ProtocolHooks.hookInputByEvent[event as Protocol.HookEvent]
      : ProtocolHooks.UnknownHookInput
    decoder = Schema.decodeUnknownResult(schema)
    decoders.set(event, decoder)
  }
  return decoder
}

/**
 * Decodes the text the CLI wrote on stdin with the Protocol's hook input
 * schemas.
 *
 * @internal
 */
export const parseInput = (text: string): Parsed => {
  const trimmed = text.trim()
  if (trimmed.length === 0) return invalid(undefined, "stdin was empty; the CLI writes the hook input there as JSON")
  let json: unknown
  try {
    json = JSON.parse(trimmed)
  } catch (error) {
    return invalid(undefined, `stdin is not JSON (${(error as Error).message}): ${preview(trimmed)}`)
  }
  if (!isRecord(json)) return invalid(undefined, `stdin is not a JSON object: ${preview(trimmed)}`)
  const event = json.hook_event_name
  if (typeof event !== "string" || event.length === 0) {
    return invalid(undefined, `the hook input has no hook_event_name: ${preview(trimmed)}`)
  }
  const decoded = decoderFor(event)(json)
  return Result.isSuccess(decoded)
    ? { _tag: "Input", input: decoded.success }
    : invalid(event, `the ${event} hook input does not match its schema: ${issuesOf(decoded.failure)}`)
}

const issuesOf = (error: Schema.SchemaError): string => IssuePath.describe(error.issue, { max: 5 })

const eventOf = (parsed: Parsed): string | undefined =>
  parsed._tag === "Input" ? parsed.input.hook_event_name : parsed.event

// -----------------------------------------------------------------------------
// Answers
// -----------------------------------------------------------------------------

const PREFIX = "claude-effect hook: "

// A deny on a permission event, whoever gave it: its reason (it goes to stderr with exit code 2).
const denial = (event: string, output: Protocol.SyncHookOutput): string | undefined => {
  if (!HookResult.permissionEvents.has(event)) return undefined
  const ballot = InternalRegistry.ballotOf(event, output)
  return ballot.vote === "deny" ? ballot.reason ?? `denied by a ${event} hook` : undefined
}

const answer = (
  event: string,
  output: Protocol.SyncHookOutput,
  runs: ReadonlyArray<HookRegistry.HookRun>,
  fallback: HookCommand.ProgramFallback | undefined,
  notes: ReadonlyArray<string>,
  resolved: Resolved
): HookCommand.Outcome => {
  const denied = denial(event, output)
  const lines = notes.map((note) => PREFIX + note)
  if (denied !== undefined) lines.push(denied)
  return {
    event,
    output,
    exitCode: denied !== undefined ? resolved.denyExitCode : 0,
    stdout: JSON.stringify(output) + "\n",
    stderr: lines.length > 0 ? lines.join("\n") + "\n" : "",
    runs,
    fallback
  }
}

/**
 * The answer when the program cannot answer for real: deny for permission
 * events, `{}` elsewhere, and for an event it cannot tell, exit 2 alone
 * (which blocks a tool call).
 *
 * @internal
 */
export const fallbackOutcome = (
  event: string | undefined,
  fallback: HookCommand.ProgramFallback,
  problem: string,
  resolved: Resolved
): HookCommand.Outcome => {
  if (event === undefined) {
    return {
      event,
      output: undefined,
      exitCode: 2,
      stdout: "",
      stderr: `${PREFIX}${problem}\n${PREFIX}the hook event is unknown; exit code 2 blocks the action.\n`,
      runs: [],
      fallback
    }
  }
  const output = HookResult.failClosed(
    event,
    `Denied: the ${event} hook program could not answer (${firstLine(problem)}); failing closed.`
  )
  return answer(event, output, [], fallback, [problem], resolved)
}

const firstLine = (text: string) => text.split("\n", 1)[0]!

// With unreadable input the event is still known when all the program's hooks are for one event.
const soleEvent = (hooks: ReadonlyArray<HookRegistry.RegisteredHook>): string | undefined => {
  const events = new Set(hooks.map((hook) => hook.event))
  return events.size === 1 ? hooks[0]!.event : undefined
}

/**
 * Answers an input with the hooks of `layers`, under the deadline. Never fails.
 *
 * @internal
 */
export const respondParsed = <E, R>(
  layers: Layer.Layer<never, E, R>,
  parsed: Parsed,
  resolved: Resolved
): Effect.Effect<HookCommand.Outcome, never, R> => {
  const known = eventOf(parsed)
  const work = Effect.gen(function*() {
    // The hooks of `layers` and no others: the registrations of its own output, not the caller's Context's.
    const built = yield* Layer.build(layers)
    const registry = InternalRegistry.fromRegistrations(
      InternalRegistry.registrationsIn(built).filter((hook) => hook.active.current),
      { defaultTimeout: resolved.hookTimeout }
    )
    if (parsed._tag === "Invalid") {
      return fallbackOutcome(parsed.event ?? soleEvent(registry.hooks), "invalid_input", parsed.problem, resolved)
    }
    const input = parsed.input
    const event = input.hook_event_name
    const toolUseId = "tool_use_id" in input && typeof input.tool_use_id === "string" ? input.tool_use_id : undefined
    const runs = yield* registry.run(input, { requestId: "command", toolUseId })
    const notes = runs.flatMap((run) =>
      run.fallback !== undefined ? [`hook "${run.name}" fell back (${run.fallback})`] : []
    )
    return answer(
      event,
      InternalRegistry.combine(event, runs.map((run) => run.output)),
      runs,
      undefined,
      notes,
      resolved
    )
  }).pipe(Effect.scoped)

  return work.pipe(
    Effect.catchCause((cause) =>
      Effect.as(
        Effect.logError("the hook program failed", cause),
        fallbackOutcome(known, "failure", `the hook program failed: ${Cause.pretty(cause)}`, resolved)
      )
    ),
    // Answer at the deadline; whatever still runs is left behind (the process exits).
    (answered) => GuardedRun.exitWithin(() => answered, Duration.millis(Math.max(0, resolved.deadlineMillis))),
    Effect.map(Option.match({
      onNone: () =>
        fallbackOutcome(
          known,
          "timeout",
          `the hook program did not answer within its deadline (${resolved.deadlineMillis} ms)`,
          resolved
        ),
      // `work` recovers from every cause but interruption: interrupted, it answers like a failure.
      onSome: Exit.match({
        onFailure: (cause) =>
          fallbackOutcome(known, "failure", `the hook program failed: ${Cause.pretty(cause)}`, resolved),
        onSuccess: identity
      })
    }))
  )
}

/** @internal */
export const respond = <E, R>(
  layers: Layer.Layer<never, E, R>,
  stdin: string,
  options?: HookCommand.RunOptions
): Effect.Effect<HookCommand.Outcome, never, R> => respondParsed(layers, parseInput(stdin), resolveOptions(options))

/**
 * Reads the input and answers it. `onParsed` learns the event as soon as it
 * is known (the Node edge's watchdog answers with its fallback).
 *
 * @internal
 */
export const answerStdin = <E, R>(
  stdio: StdioService,
  layers: Layer.Layer<never, E, R>,
  resolved: Resolved,
  onParsed: (event: string | undefined) => void
): Effect.Effect<HookCommand.Outcome, never, R> =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeMillis
    const read = yield* stdio.readAll(resolved.maxInputBytes).pipe(
      Effect.timeoutOrElse({
        duration: Duration.millis(resolved.deadlineMillis),
        orElse: () =>
          Effect.fail(
            new HookCommandError({
              reason: "StdinFailed",
              detail: `stdin did not end within the deadline (${resolved.deadlineMillis} ms)`
            })
          )
      }),
      Effect.result
    )
    const parsed = Result.isSuccess(read) ? parseInput(read.success) : invalid(undefined, read.failure.message)
    onParsed(eventOf(parsed))
    const elapsed = (yield* Clock.currentTimeMillis) - started
    return yield* respondParsed(layers, parsed, { ...resolved, deadlineMillis: resolved.deadlineMillis - elapsed })
  })

/** @internal */
export const run = <E, R>(
  layers: Layer.Layer<never, E, R>,
  options?: HookCommand.RunOptions
): Effect.Effect<0 | 2, never, R | Stdio> =>
  Effect.flatMap(
    Effect.service(Stdio),
    (stdio) =>
      Effect.flatMap(answerStdin(stdio, layers, resolveOptions(options), () => {}), (outcome) =>
        Effect.gen(function*() {
          if (outcome.stderr.length > 0) yield* stdio.writeStderr(outcome.stderr)
          if (outcome.stdout.length > 0) yield* stdio.writeStdout(outcome.stdout)
          return outcome.exitCode
        }))
  )
