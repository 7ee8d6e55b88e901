/**
 * The implementation of `HookRegistry`: where hook layers put their hooks,
 * which hooks the CLI calls for an input (its matcher rules, emulated), how a
 * hook is dispatched (through the guarded run), and how the answers of
 * several hooks to one input combine (the CLI's precedence). Sessions, command
 * hooks and `HookTest` all go through here.
 *
 * @internal
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Path from "node:path"
import type { InboundHandler } from "../ControlRouter.js"
import type * as HookLayer from "../HookLayer.js"
import type * as HookRegistry from "../HookRegistry.js"
import type * as Protocol from "../Protocol.js"
import * as AnswerIssues from "./answerIssues.js"
import * as GuardedRun from "./guardedRun.js"
import * as HookResult from "./hookResult.js"
import * as Telemetry from "./telemetry.js"
// The hook modules only: the Protocol facade would load every schema (command hooks start on each call).
import * as ProtocolHooks from "./protocol/hooks.js"

// -----------------------------------------------------------------------------
// Registration
// -----------------------------------------------------------------------------

// Each hook layer's registration is a Context entry under a key of its own. One Reference holding the set
// would not compose: `Layer.mergeAll` builds its layers concurrently, each from the outer Context, and
// merges their outputs key by key, so every hook layer but the last would be lost.
const registrationKeyPrefix = "@claude-effect/sdk/HookLayer/"

let registrationCounter = 0

/** @internal */
export const nextOrder = (): number => ++registrationCounter

/**
 * A hook layer's output: its registration, under a key of its own.
 *
 * @internal
 */
export const registrationContext = (registration: HookRegistry.HookRegistration): Context.Context<never> =>
  Context.makeUnsafe(new Map([[`${registrationKeyPrefix}${registration.order}`, registration]]))

/**
 * Every registration a Context carries (retired ones included), in
 * registration order.
 *
 * @internal
 */
export const registrationsIn = (
  context: Context.Context<never>
): ReadonlyArray<HookRegistry.HookRegistration> => {
  const registrations: Array<HookRegistry.HookRegistration> = []
  for (const [key, value] of context.mapUnsafe) {
    if (key.startsWith(registrationKeyPrefix)) registrations.push(value as HookRegistry.HookRegistration)
  }
  return registrations.sort((a, b) => a.order - b.order)
}

/**
 * Where hook layers put their hooks: the registrations of the current
 * Context, so that any number of hook layers compose with `Layer.mergeAll`
 * and every session started under them sees them all. Retired ones included.
 *
 * @internal
 */
export const currentHooks: Effect.Effect<ReadonlyArray<HookRegistry.HookRegistration>> = Effect.map(
  Effect.context<never>(),
  registrationsIn
)

// -----------------------------------------------------------------------------
// Matching: the CLI's matcher rules (2.1.328), emulated
// -----------------------------------------------------------------------------
//
// Read from the CLI and checked against it (PreToolUse, Stop and UserPromptSubmit on the real binary):
// - each event is matched against one value of its input (the tool name for tool events, `source`,
//   `trigger`, `reason`, ... for others). Events without such a value (Stop, UserPromptSubmit,
//   TaskCreated, ...) ignore matchers: every hook registered for them is called;
// - no matcher, `""` or `"*"` selects everything;
// - a matcher of plain names is a list of exact, case-sensitive names: `Bash`, `Write|Bash`, and for
//   most events also `Write, Bash` and `Write | Bash` (letters, digits, `_`, `|`, `,`, spaces and `-`);
// - anything else is an unanchored, case-sensitive regular expression (`Ba.*`, `^Bash$`,
//   `mcp__github__.*`); an invalid one selects nothing;
// - legacy tool names still select the renamed tools: `Task` selects `Agent`, `KillShell` `TaskStop`.

/** The events whose matchers may list names separated by `,` and spaces. */
const listEvents: ReadonlySet<string> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PermissionDenied",
  "UserPromptExpansion",
  "SessionStart",
  "SessionEnd",
  "Setup",
  "PreCompact",
  "PostCompact",
  "PreModelSwitch",
  "PostModelSwitch",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "Elicitation",
  "ElicitationResult",
  "ConfigChange",
  "InstructionsLoaded",
  "DirectoryAdded"
])

/** Old tool names and the tools they name today. */
const legacyToolNames: Readonly<Record<string, string>> = {
  Task: "Agent",
  KillShell: "TaskStop",
  KillBash: "TaskStop",
  ListPeers: "ListAgents",
  Brief: "SendUserMessage",
  ListMcpResources: "ListMcpResourcesTool",
  ReadMcpResource: "ReadMcpResourceTool",
  ReadMcpResourceDir: "ReadMcpResourceDirTool",
  ProposeGoal: "SetGoal"
}

const currentName = (name: string): string => Object.hasOwn(legacyToolNames, name) ? legacyToolNames[name]! : name

const legacyNamesOf = (name: string): ReadonlyArray<string> =>
  Object.entries(legacyToolNames).flatMap(([legacy, current]) => (current === name ? [legacy] : []))

const stripContextSuffix = (model: string) => model.replace(/\[[12]m\]$/i, "")

/** @internal */
export const matchValue = (input: { readonly hook_event_name: string }): string | undefined => {
  const record = input as Record<string, unknown>
  const field = (name: string) => (typeof record[name] === "string" ? (record[name] as string) : undefined)
  switch (input.hook_event_name) {
    case "PreToolUse":
    case "PostToolUse":
    case "PostToolUseFailure":
    case "PermissionRequest":
    case "PermissionDenied":
      return field("tool_name")
    case "UserPromptExpansion":
      return field("command_name")
    case "SessionStart":
    case "ConfigChange":
    case "DirectoryAdded":
      return field("source")
    case "Setup":
    case "PreCompact":
    case "PostCompact":
      return field("trigger")
    case "PreModelSwitch":
    case "PostModelSwitch": {
      const model = field("to_model")
      return model === undefined ? undefined : stripContextSuffix(model)
    }
    case "Notification":
      return field("notification_type")
    case "SessionEnd":
      return field("reason")
    case "StopFailure":
      return field("error")
    case "SubagentStart":
    case "SubagentStop":
      return field("agent_type")
    case "Elicitation":
    case "ElicitationResult":
      return field("mcp_server_name")
    case "InstructionsLoaded":
      return field("load_reason")
    case "FileChanged": {
      const path = field("file_path")
      return path === undefined ? undefined : Path.basename(path)
    }
    default:
      return undefined
  }
}

const nameList = (event: string, matcher: string): ReadonlyArray<string> | undefined => {
  const lists = listEvents.has(event)
  if (!(lists ? /^[a-zA-Z0-9_|, -]+$/ : /^[a-zA-Z0-9_|]+$/).test(matcher)) return undefined
  return matcher.split(lists ? /[|,]/ : "|").map((name) => name.trim()).filter((name) => name !== "").map(
    currentName
  )
}

/** @internal */
export const matches = (matcher: string | undefined, value: string | undefined, event = "PreToolUse"): boolean => {
  if (value === undefined || matcher === undefined || matcher === "" || matcher === "*") return true
  const pattern = event === "PreModelSwitch" || event === "PostModelSwitch"
    ? matcher.replace(/\[[12]m\](?=\s*(?:[|,]|$))/gi, "")
    : matcher
  const names = nameList(event, pattern)
  if (names !== undefined) return names.includes(value)
  let regex: RegExp
  try {
    regex = new RegExp(pattern)
  } catch {
    return false
  }
  return regex.test(value) || legacyNamesOf(value).some((name) => regex.test(name))
}

/** @internal */
export const selects = (
  hook: { readonly event: string; readonly matcher: string | undefined },
  input: Protocol.HookInput
): boolean => hook.event === input.hook_event_name && matches(hook.matcher, matchValue(input), hook.event)

// -----------------------------------------------------------------------------
// Precedence: how the CLI reads and combines several answers to one input
// -----------------------------------------------------------------------------

const isRecord = (u: unknown): u is Record<string, any> => typeof u === "object" && u !== null && !Array.isArray(u)

/** @internal */
export const ballotOf = (event: string, output: Protocol.SyncHookOutput): HookRegistry.Ballot => {
  const o = output as Record<string, any>
  const specific = isRecord(o.hookSpecificOutput) ? o.hookSpecificOutput : undefined
  const topReason = typeof o.reason === "string" ? o.reason : undefined
  let vote: HookRegistry.PermissionVote | undefined = o.decision === "approve" ? "allow" : undefined
  let reason = vote !== undefined ? topReason : undefined
  let updatedInput: Record<string, unknown> | undefined
  let decision: Record<string, unknown> | undefined
  if (specific !== undefined) {
    if (event !== "PermissionRequest" && typeof specific.permissionDecision === "string") {
      vote = specific.permissionDecision as HookRegistry.PermissionVote
      reason = typeof specific.permissionDecisionReason === "string" ? specific.permissionDecisionReason : topReason
    }
    if (event === "PermissionRequest" && isRecord(specific.decision)) {
      decision = specific.decision
      vote = specific.decision.behavior === "allow" ? "allow" : "deny"
      reason = typeof specific.decision.message === "string" ? specific.decision.message : undefined
      if (vote === "allow" && isRecord(specific.decision.updatedInput)) updatedInput = specific.decision.updatedInput
    }
    if (isRecord(specific.updatedInput)) updatedInput = specific.updatedInput
  }
  if (o.decision === "block") {
    vote = "deny"
    reason = reason ?? topReason
    decision = undefined
  }
  return { vote, reason, updatedInput, decision }
}

const voteRank: Record<HookRegistry.PermissionVote, number> = { deny: 3, ask: 2, allow: 1, defer: 0 }

/** @internal */
export const winningBallot = (ballots: ReadonlyArray<HookRegistry.Ballot>): HookRegistry.Ballot | undefined => {
  let winner: HookRegistry.Ballot | undefined
  for (const ballot of ballots) {
    if (ballot.vote !== undefined && (winner === undefined || voteRank[ballot.vote] > voteRank[winner.vote!])) {
      winner = ballot
    }
  }
  return winner
}

/** @internal */
export const tally = (event: string, outputs: ReadonlyArray<Protocol.SyncHookOutput>): HookRegistry.Tally => {
  const records = outputs as ReadonlyArray<Record<string, any>>
  const voting = HookResult.permissionEvents.has(event)
  let winner: HookRegistry.Ballot | undefined
  let rewrite: Record<string, unknown> | undefined
  if (voting) {
    const ballots = outputs.map((output) => ballotOf(event, output))
    winner = winningBallot(ballots)
    rewrite = ballots.reduce<Record<string, unknown> | undefined>((last, b) => b.updatedInput ?? last, undefined)
  }
  const halt = records.find((o) => o.continue === false)
  const blocks = records.filter((o) => o.decision === "block")
  const approved = records.find((o) => o.decision === "approve")
  const strings = (pick: (o: Record<string, any>) => unknown) =>
    records.flatMap((o) => {
      const value = pick(o)
      return typeof value === "string" ? [value] : []
    })
  return {
    event,
    winner,
    // A rewrite runs only when the tool does: never after a deny or a defer; PermissionRequest: with an allow.
    updatedInput: event === "PreToolUse"
      ? (winner?.vote === "deny" || winner?.vote === "defer" ? undefined : rewrite)
      : event === "PermissionRequest" && winner?.vote === "allow"
      ? rewrite
      : undefined,
    blocked: blocks.length > 0,
    blockReasons: blocks.flatMap((o) => (typeof o.reason === "string" ? [o.reason] : [])),
    approved: approved === undefined
      ? undefined
      : { reason: typeof approved.reason === "string" ? approved.reason : undefined },
    halted: halt !== undefined,
    stopReason: typeof halt?.stopReason === "string" ? halt.stopReason : undefined,
    suppressOutput: records.some((o) => o.suppressOutput === true),
    additionalContext: strings((o) =>
      isRecord(o.hookSpecificOutput) ? o.hookSpecificOutput.additionalContext : undefined
    ),
    systemMessages: strings((o) => o.systemMessage)
  }
}

// Fields of hookSpecificOutput that are combined rather than taken from the first hook.
const combinedFields: ReadonlySet<string> = new Set([
  "hookEventName",
  "additionalContext",
  "permissionDecision",
  "permissionDecisionReason",
  "updatedInput",
  "decision"
])

/** @internal */
export const combine = (
  event: string,
  outputs: ReadonlyArray<Protocol.SyncHookOutput>
): Protocol.SyncHookOutput => {
  if (outputs.length === 0) return {}
  if (outputs.length === 1) return outputs[0]!
  const t = tally(event, outputs)
  const records = outputs as ReadonlyArray<Record<string, any>>
  const result: Record<string, any> = {}
  if (t.halted) {
    result.continue = false
    if (t.stopReason !== undefined) result.stopReason = t.stopReason
  }
  if (t.suppressOutput) result.suppressOutput = true
  if (t.systemMessages.length > 0) result.systemMessage = t.systemMessages.join("\n")
  const terminal = records.find((o) => typeof o.terminalSequence === "string")
  if (terminal !== undefined) result.terminalSequence = terminal.terminalSequence

  const specific: Record<string, any> = { hookEventName: event }
  for (const o of records) {
    if (!isRecord(o.hookSpecificOutput)) continue
    for (const [key, value] of Object.entries(o.hookSpecificOutput)) {
      if (!combinedFields.has(key) && !(key in specific)) specific[key] = value
    }
  }
  const winner = t.winner
  if (!HookResult.permissionEvents.has(event)) {
    if (t.blocked) {
      result.decision = "block"
      if (t.blockReasons.length > 0) result.reason = t.blockReasons.join("\n")
    } else if (t.approved !== undefined) {
      result.decision = "approve"
      if (t.approved.reason !== undefined) result.reason = t.approved.reason
    }
  } else if (event !== "PermissionRequest") {
    if (winner !== undefined) {
      specific.permissionDecision = winner.vote
      if (winner.reason !== undefined) specific.permissionDecisionReason = winner.reason
    }
    if (t.updatedInput !== undefined) specific.updatedInput = t.updatedInput
  } else if (winner?.vote === "deny") {
    specific.decision = {
      ...(winner.decision ?? {}),
      behavior: "deny",
      message: winner.reason ?? "Denied by a PermissionRequest hook."
    }
  } else if (winner?.vote === "allow") {
    const { updatedInput: _, ...decision } = winner.decision ?? {}
    specific.decision = {
      ...decision,
      behavior: "allow",
      ...(t.updatedInput !== undefined ? { updatedInput: t.updatedInput } : {})
    }
  }
  if (t.additionalContext.length > 0) specific.additionalContext = t.additionalContext.join("\n")
  if (Object.keys(specific).length > 1) result.hookSpecificOutput = specific
  return result as Protocol.SyncHookOutput
}

// -----------------------------------------------------------------------------
// Dispatch: one hook through the guarded run
// -----------------------------------------------------------------------------

/** @internal */
export const decisionOf = (output: Protocol.SyncHookOutput): HookRegistry.Decision => {
  const o = output as Record<string, any>
  if (o.continue === false) return "halt"
  const specific = o.hookSpecificOutput as Record<string, any> | undefined
  if (specific?.permissionDecision !== undefined) return specific.permissionDecision as HookRegistry.Decision
  if (specific?.decision?.behavior === "allow") return specific.decision.updatedInput ? "rewrite" : "allow"
  if (specific?.decision?.behavior === "deny") return "deny"
  if (o.decision === "block") return "block"
  if (o.decision === "approve") return "allow"
  if (specific?.updatedInput !== undefined) return "rewrite"
  if (specific?.additionalContext !== undefined) return "context"
  return Object.keys(o).length === 0 ? "empty" : "other"
}

const validateSyncOutput = AnswerIssues.validator(ProtocolHooks.SyncHookOutput, "the hook output")

// An output whose hookEventName names another event makes the CLI fail the tool call with an
// opaque error: catch it here, where the fallback can say why.
const validateOutput = (event: string, output: unknown): Result.Result<Protocol.SyncHookOutput, string> => {
  const valid = validateSyncOutput(output)
  if (Result.isFailure(valid)) return valid
  const specific = (valid.success as { readonly hookSpecificOutput?: { readonly hookEventName?: unknown } })
    .hookSpecificOutput
  if (specific !== undefined && specific.hookEventName !== event) {
    return Result.fail(`hookSpecificOutput.hookEventName is ${String(specific.hookEventName)}, not ${event}`)
  }
  return valid
}

const EMPTY: Result.Result<Protocol.SyncHookOutput, string> = Result.succeed({})

// One policy per event, built at its first call.
const policies = new Map<string, GuardedRun.Policy<Protocol.SyncHookOutput>>()

const policyFor = (event: string): GuardedRun.Policy<Protocol.SyncHookOutput> => {
  let policy = policies.get(event)
  if (policy === undefined) {
    policy = {
      kind: "hook",
      fallsBack: "fell back",
      validate: (answer) =>
        answer === undefined || answer === null
          ? EMPTY
          : !HookResult.isHookResult(answer)
          ? validateOutput(event, answer)
          : answer._tag === "Output"
          ? validateOutput(event, answer.output)
          // Built by toOutput, valid by construction: only user data (an updated input) can break it,
          // which the guarded run's JSON check catches.
          : Result.succeed(HookResult.toOutput(event, answer)),
      fallback: (reason) => HookResult.fallbackOutput(event, reason),
      decisionOf,
      decisions: Telemetry.hookDecisions,
      decisionTag: "event"
    }
    policies.set(event, policy)
  }
  return policy
}

// The span attributes of one hook's run (what it is, what it is about).
const hookAttributes = (
  hook: HookRegistry.RegisteredHook,
  input: Protocol.HookInput,
  toolUseId: string | undefined
): Record<string, unknown> => ({
  [Telemetry.attributes.event]: hook.event,
  [Telemetry.attributes.hookName]: hook.name,
  [Telemetry.attributes.callbackId]: hook.callbackId,
  ...(hook.matcher !== undefined ? { [Telemetry.attributes.matcher]: hook.matcher } : {}),
  ...(toolUseId !== undefined ? { [Telemetry.attributes.toolUseId]: toolUseId } : {}),
  ...(typeof (input as { tool_name?: unknown }).tool_name === "string"
    ? { [Telemetry.attributes.tool]: (input as { tool_name: string }).tool_name }
    : {})
})

// One call of a hook, as the router starts it and as `dispatchHook` runs it.
const hookCall = (
  hook: HookRegistry.RegisteredHook,
  input: Protocol.HookInput,
  context: HookLayer.HookContext
): GuardedRun.Call<never> => ({
  subject: `hook "${hook.name}"`,
  evaluate: () => hook.handler(input, context),
  context: hook.services,
  timeout: hook.timeout,
  decisionTagValue: hook.event,
  annotations: () => ({
    event: hook.event,
    callbackId: hook.callbackId,
    requestId: context.requestId,
    ...(context.toolUseId !== undefined ? { toolUseId: context.toolUseId } : {})
  })
})

/** @internal */
export const dispatchHook = (
  hook: HookRegistry.RegisteredHook,
  input: Protocol.HookInput,
  context: HookLayer.HookContext
): Effect.Effect<HookRegistry.HookRun> =>
  // effect 4's `useSpan` captures no stack trace (v3 needed `captureStackTrace: false` on this hot path).
  Effect.useSpan(Telemetry.spans.hook, {
    attributes: {
      ...hookAttributes(hook, input, context.toolUseId),
      [Telemetry.attributes.requestId]: context.requestId
    }
  }, (span) =>
    GuardedRun.run(
      policyFor(hook.event),
      { ...hookCall(hook, input, context), span },
      (output, decision, fallback, durationMillis): HookRegistry.HookRun => ({
        name: hook.name,
        event: hook.event,
        matcher: hook.matcher,
        callbackId: hook.callbackId,
        output,
        decision: decision as HookRegistry.Decision,
        fallback,
        durationMillis
      })
    ))

// -----------------------------------------------------------------------------
// The registry
// -----------------------------------------------------------------------------

type HookMatcherConfig = NonNullable<Protocol.InitializeRequest["hooks"]>[string][number]

// The CLI's own per-matcher timeout sits above ours, so that our fallback is what answers.
const CLI_TIMEOUT_MARGIN_SECONDS = 5

const initializeHooksOf = (
  hooks: ReadonlyArray<HookRegistry.RegisteredHook>
): Protocol.InitializeRequest["hooks"] | undefined => {
  let initializeHooks: Record<string, Array<HookMatcherConfig>> | undefined
  for (const hook of hooks) {
    initializeHooks ??= {}
    const seconds = Number.isFinite(hook.timeoutMillis)
      ? Math.ceil(hook.timeoutMillis / 1000) + CLI_TIMEOUT_MARGIN_SECONDS
      : undefined
    const entry: HookMatcherConfig = {
      ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
      hookCallbackIds: [hook.callbackId],
      ...(seconds !== undefined ? { timeout: seconds } : {}),
      // Should an answer ever fail to reach the CLI, a permission event still fails closed.
      ...(HookResult.permissionEvents.has(hook.event) ? { onFailure: "block" as const } : {})
    }
    ;(initializeHooks[hook.event] ??= []).push(entry)
  }
  return initializeHooks as Protocol.InitializeRequest["hooks"] | undefined
}

const unknownCallback = (callbackId: string, input: Protocol.HookInput): Effect.Effect<HookRegistry.HookRun> => {
  const event = input.hook_event_name
  const output = HookResult.fallbackOutput(event, "unknown callback id")
  return Effect.as(Effect.logWarning(`hook_callback for an unknown callback id "${callbackId}"`), {
    name: callbackId,
    event,
    matcher: undefined,
    callbackId,
    output,
    decision: decisionOf(output),
    fallback: "unknown_callback",
    durationMillis: 0
  })
}

/** @internal */
export const fromRegistrations = (
  registrations: ReadonlyArray<HookRegistry.HookRegistration>,
  options?: HookRegistry.MakeOptions
): HookRegistry.HookRegistry.Service => {
  const defaultTimeout = Duration.fromInputUnsafe(options?.defaultTimeout ?? GuardedRun.defaultTimeouts.hook)
  const hooks: ReadonlyArray<HookRegistry.RegisteredHook> = registrations.map((registration, index) => {
    const timeout = registration.timeout !== undefined ? Duration.fromInputUnsafe(registration.timeout) : defaultTimeout
    return {
      ...registration,
      callbackId: `hook_${index}_${registration.event}`,
      timeout,
      timeoutMillis: Duration.toMillis(timeout)
    }
  })
  const byId = new Map(hooks.map((hook) => [hook.callbackId, hook] as const))

  const dispatch: HookRegistry.HookRegistry.Service["dispatch"] = (callbackId, input, context) => {
    const hook = byId.get(callbackId)
    return hook === undefined
      ? unknownCallback(callbackId, input)
      : dispatchHook(hook, input, { event: hook.event, callbackId, ...context })
  }

  const run: HookRegistry.HookRegistry.Service["run"] = (input, context) =>
    Effect.forEach(
      hooks.filter((hook) => selects(hook, input)),
      (hook) => dispatchHook(hook, input, { event: hook.event, callbackId: hook.callbackId, ...context }),
      // The CLI calls every matching hook at once.
      { concurrency: "unbounded" }
    )

  // For events without a tool the CLI sends a random id as tool_use_id: it names nothing, so leave it out.
  const toolUseIdOf = (call: Protocol.HookCallbackRequest): string | undefined =>
    typeof (call.input as { tool_use_id?: unknown }).tool_use_id === "string"
      ? call.tool_use_id ?? undefined
      : undefined

  const inboundHandler: InboundHandler = {
    subtype: "hook_callback",
    // The hook's own span; `claude.control.inbound` for a callback id no hook has.
    spanName: (request) =>
      byId.has((request as Protocol.HookCallbackRequest).callback_id) ? Telemetry.spans.hook : Telemetry.spans.inbound,
    attributes: (request) => {
      const call = request as Protocol.HookCallbackRequest
      const hook = byId.get(call.callback_id)
      if (hook !== undefined) return hookAttributes(hook, call.input, toolUseIdOf(call))
      const input = call.input as { readonly hook_event_name?: unknown; readonly tool_name?: unknown }
      return {
        [Telemetry.attributes.callbackId]: call.callback_id,
        ...(typeof input.hook_event_name === "string" ? { [Telemetry.attributes.event]: input.hook_event_name } : {}),
        ...(typeof input.tool_name === "string" ? { [Telemetry.attributes.tool]: input.tool_name } : {})
      }
    },
    // An error reply would mean "no opinion" (the tool runs): answer the event's fallback instead.
    undecodable: (raw) => {
      const event = (raw as { input?: { hook_event_name?: unknown } })?.input?.hook_event_name
      return HookResult.fallbackOutput(typeof event === "string" ? event : "PreToolUse", "undecodable input")
    },
    handle: (request, { requestId }) => {
      const call = request as Protocol.HookCallbackRequest
      const hook = byId.get(call.callback_id)
      if (hook === undefined) {
        return {
          _tag: "Effect",
          effect: Effect.map(unknownCallback(call.callback_id, call.input), (run) => run.output)
        }
      }
      return {
        _tag: "Guarded",
        guarded: {
          policy: policyFor(hook.event),
          call: hookCall(hook, call.input, {
            event: hook.event,
            callbackId: hook.callbackId,
            requestId,
            toolUseId: toolUseIdOf(call)
          })
        }
      }
    }
  }

  return { hooks, initializeHooks: initializeHooksOf(hooks), dispatch, run, inboundHandler }
}

/** @internal */
export const make = (options?: HookRegistry.MakeOptions): Effect.Effect<HookRegistry.HookRegistry.Service> =>
  Effect.map(currentHooks, (hooks) => fromRegistrations(hooks.filter((hook) => hook.active.current), options))
