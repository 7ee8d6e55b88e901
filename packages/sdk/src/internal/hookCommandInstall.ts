/**
 * Installing a command hook into a Claude Code settings file: an idempotent
 * merge that keeps everything else (keys, their order, other hooks, the
 * indentation), a unified diff of the change, and an atomic write.
 *
 * @internal
 */
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Path from "effect/Path"
import * as Schema from "effect/Schema"
import * as Os from "node:os"
import type * as HookCommand from "../HookCommand.js"
import type * as Protocol from "../Protocol.js"
import { HookCommandError } from "./hookCommandBase.js"
// The hook schemas themselves, not the Protocol facade: a hook program starts on every tool call,
// and the facade would also build every message schema.
import * as ProtocolHooks from "./protocol/hooks.js"

const DEFAULT_TIMEOUT_SECONDS = 60

// -----------------------------------------------------------------------------
// Paths
// -----------------------------------------------------------------------------

// Functions, not constants: a hook program that never installs must not carry this in its bundle.
const userConfigDir = (): Effect.Effect<string, never, Path.Path> =>
  Effect.gen(function*() {
    const path = yield* Path.Path
    const configDir = yield* Config.option(Config.NonEmptyString("CLAUDE_CONFIG_DIR")).pipe(
      Effect.orElseSucceed(() => Option.none<string>())
    )
    if (Option.isSome(configDir)) return path.resolve(configDir.value)
    const home = yield* Config.NonEmptyString("HOME").pipe(Effect.orElseSucceed(() => Os.homedir()))
    return path.join(home, ".claude")
  })

/** @internal */
export const settingsPath = (
  settings: HookCommand.SettingsTarget,
  cwd?: string | undefined
): Effect.Effect<string, never, Path.Path> =>
  Effect.gen(function*() {
    const path = yield* Path.Path
    const base = path.resolve(cwd ?? process.cwd())
    switch (settings) {
      case "project":
        return path.join(base, ".claude", "settings.json")
      case "local":
        return path.join(base, ".claude", "settings.local.json")
      case "user":
        return path.join(yield* userConfigDir(), "settings.json")
      default:
        return path.resolve(base, settings)
    }
  })

// -----------------------------------------------------------------------------
// Merging
// -----------------------------------------------------------------------------

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** @internal */
export interface Entry {
  readonly event: string
  readonly matcher: string | undefined
  readonly command: string
  /** Seconds; undefined keeps an existing entry's timeout (and adds the default). */
  readonly timeout: number | undefined
}

/**
 * Where the change goes, for an edit of the text that touches nothing else:
 * a path of keys and indexes from the root to the object or array that
 * changes, and the member or item added (or, for a timeout, replaced).
 *
 * @internal
 */
export interface Edit {
  readonly path: ReadonlyArray<string | number>
  /** `key` for an object member, undefined for an array item. */
  readonly key: string | undefined
  readonly value: unknown
}

/** @internal */
export type Merged =
  | {
    readonly _tag: "Merged"
    readonly settings: Record<string, unknown>
    readonly status: HookCommand.InstallResult["status"]
    readonly edit: Edit | undefined
  }
  | { readonly _tag: "Invalid"; readonly problem: string }

// A missing matcher and "" both select everything: one entry, not two.
const sameMatcher = (a: unknown, b: string | undefined) => (typeof a === "string" ? a : "") === (b ?? "")

const isOurs = (hook: unknown, command: string) =>
  isRecord(hook) && (hook.type === undefined || hook.type === "command") && hook.command === command

/**
 * Merges one command hook into parsed settings, building new objects along
 * the path that changes and keeping every key where it was.
 *
 * @internal
 */
export const merge = (settings: Record<string, unknown>, entry: Entry): Merged => {
  const hooks = settings.hooks
  if (hooks !== undefined && !isRecord(hooks)) return { _tag: "Invalid", problem: "`hooks` is not an object" }
  const groups = hooks?.[entry.event]
  if (groups !== undefined && !Array.isArray(groups)) {
    return { _tag: "Invalid", problem: `\`hooks.${entry.event}\` is not an array` }
  }
  const list: ReadonlyArray<unknown> = groups ?? []
  const withGroups = (
    next: ReadonlyArray<unknown>,
    status: HookCommand.InstallResult["status"],
    edit: Edit
  ): Merged => ({
    _tag: "Merged",
    settings: { ...settings, hooks: { ...(hooks ?? {}), [entry.event]: next } },
    status,
    edit
  })

  // Already there, under a group with the same matcher?
  for (let g = 0; g < list.length; g++) {
    const group = list[g]
    if (!isRecord(group) || !sameMatcher(group.matcher, entry.matcher) || !Array.isArray(group.hooks)) continue
    const h = group.hooks.findIndex((hook) => isOurs(hook, entry.command))
    if (h === -1) continue
    const hook = group.hooks[h] as Record<string, unknown>
    if (entry.timeout === undefined || hook.timeout === entry.timeout) {
      return { _tag: "Merged", settings, status: "unchanged", edit: undefined }
    }
    const nextHooks = group.hooks.map((one, i) => (i === h ? { ...hook, timeout: entry.timeout } : one))
    return withGroups(list.map((one, i) => (i === g ? { ...group, hooks: nextHooks } : one)), "updated", {
      path: ["hooks", entry.event, g, "hooks", h],
      key: "timeout",
      value: entry.timeout
    })
  }

  const hook = { type: "command", command: entry.command, timeout: entry.timeout ?? DEFAULT_TIMEOUT_SECONDS }
  const g = list.findIndex((group) =>
    isRecord(group) && sameMatcher(group.matcher, entry.matcher) && Array.isArray(group.hooks)
  )
  if (g !== -1) {
    const group = list[g] as Record<string, unknown>
    const next = { ...group, hooks: [...(group.hooks as ReadonlyArray<unknown>), hook] }
    return withGroups(list.map((one, i) => (i === g ? next : one)), "added", {
      path: ["hooks", entry.event, g, "hooks"],
      key: undefined,
      value: hook
    })
  }
  const group = { ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}), hooks: [hook] }
  const edit: Edit = groups !== undefined
    ? { path: ["hooks", entry.event], key: undefined, value: group }
    : hooks !== undefined
    ? { path: ["hooks"], key: entry.event, value: [group] }
    : { path: [], key: "hooks", value: { [entry.event]: [group] } }
  return withGroups([...list, group], "added", edit)
}

// -----------------------------------------------------------------------------
// Text
// -----------------------------------------------------------------------------

/** @internal */
export interface Style {
  readonly indent: string
  readonly eol: string
  readonly finalNewline: boolean
}

/** @internal */
export const styleOf = (text: string | undefined): Style => {
  if (text === undefined || text.trim().length === 0) return { indent: "  ", eol: "\n", finalNewline: true }
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  "
  return { indent, eol: text.includes("\r\n") ? "\r\n" : "\n", finalNewline: /\r?\n$/.test(text) }
}

const render = (settings: unknown, style: Style): string => {
  const text = JSON.stringify(settings, null, style.indent)
  return (style.eol === "\n" ? text : text.replace(/\n/g, style.eol)) + (style.finalNewline ? style.eol : "")
}

// Where each value sits in the text, to edit one place and leave every other byte alone.
interface Span {
  readonly start: number
  readonly end: number
  readonly kind: "object" | "array" | "scalar"
  readonly members: ReadonlyArray<
    { readonly key: string; readonly keyStart: number; readonly keyEnd: number; readonly value: Span }
  >
  readonly items: ReadonlyArray<Span>
}

const scan = (text: string): Span => {
  let i = 0
  const fail = (): never => {
    throw new Error(`unexpected JSON at ${i}`)
  }
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++
  }
  const string = (): string => {
    const start = i++
    while (i < text.length && text[i] !== "\"") i += text[i] === "\\" ? 2 : 1
    if (i++ >= text.length) fail()
    return JSON.parse(text.slice(start, i)) as string
  }
  const value = (): Span => {
    ws()
    const start = i
    const open = text[i]
    if (open === "{" || open === "[") {
      const close = open === "{" ? "}" : "]"
      const members: Array<Span["members"][number]> = []
      const items: Array<Span> = []
      i++
      ws()
      if (text[i] !== close) {
        for (;;) {
          if (open === "{") {
            ws()
            if (text[i] !== "\"") fail()
            const keyStart = i
            const key = string()
            const keyEnd = i
            ws()
            if (text[i++] !== ":") fail()
            members.push({ key, keyStart, keyEnd, value: value() })
          } else {
            items.push(value())
          }
          ws()
          if (text[i] === ",") i++
          else if (text[i] === close) break
          else fail()
        }
      }
      i++
      return { start, end: i, kind: open === "{" ? "object" : "array", members, items }
    }
    if (open === "\"") string()
    else while (i < text.length && /[-+.0-9a-zA-Z]/.test(text[i]!)) i++
    if (i === start) fail()
    return { start, end: i, kind: "scalar", members: [], items: [] }
  }
  const root = value()
  ws()
  if (i !== text.length) fail()
  return root
}

// The last one, as JSON.parse keeps the last of duplicate keys.
const memberOf = (span: Span, key: string) => {
  for (let m = span.members.length - 1; m >= 0; m--) if (span.members[m]!.key === key) return span.members[m]
  return undefined
}

const lineIndent = (text: string, at: number) => /^[ \t]*/.exec(text.slice(text.lastIndexOf("\n", at - 1) + 1))![0]

const compact = (value: unknown, spaced: boolean): string => {
  if (Array.isArray(value)) return `[${value.map((v) => compact(v, spaced)).join(spaced ? ", " : ",")}]`
  if (isRecord(value)) {
    const entries = Object.entries(value).map(([k, v]) =>
      `${JSON.stringify(k)}:${spaced ? " " : ""}${compact(v, spaced)}`
    )
    return entries.length === 0 ? "{}" : spaced ? `{ ${entries.join(", ")} }` : `{${entries.join(",")}}`
  }
  return JSON.stringify(value)
}

// Adds a member or item at the end of a container, formatted like its siblings.
const insert = (text: string, container: Span, key: string | undefined, value: unknown, style: Style): string => {
  const children = container.kind === "object"
    ? container.members.map((m) => ({ start: m.value.start, end: m.value.end, keyStart: m.keyStart, keyEnd: m.keyEnd }))
    : container.items.map((item) => ({ start: item.start, end: item.end, keyStart: item.start, keyEnd: item.start }))
  const last = children[children.length - 1]
  if (last === undefined) {
    const outer = lineIndent(text, container.start)
    const inner = outer + style.indent
    const piece = (key !== undefined ? `${JSON.stringify(key)}: ` : "") +
      JSON.stringify(value, null, style.indent).replace(/\n/g, style.eol + inner)
    return text.slice(0, container.start + 1) + style.eol + inner + piece + style.eol + outer +
      text.slice(container.end - 1)
  }
  const first = children[0]!
  // The text before the first child's key (or value): its line break and indentation.
  const lead = text.slice(container.start + 1, first.keyStart)
  const separator = container.kind === "object" ? text.slice(first.keyEnd, first.start) : ""
  const multiline = lead.includes("\n")
  const spaced = /":\s|,\s/.test(text.slice(container.start, container.end))
  const rendered = multiline
    ? JSON.stringify(value, null, style.indent).replace(/\n/g, style.eol + lead.slice(lead.lastIndexOf("\n") + 1))
    : compact(value, spaced)
  const piece = (key !== undefined ? JSON.stringify(key) + separator : "") + rendered
  const gap = multiline || lead.length > 0 ? lead : spaced ? " " : ""
  return text.slice(0, last.end) + "," + gap + piece + text.slice(last.end)
}

/**
 * Applies an edit to the text itself, so that the rest of the file stays
 * byte for byte; undefined when the text does not have the expected shape.
 *
 * @internal
 */
export const editText = (text: string, edit: Edit, style: Style): string | undefined => {
  let span = scan(text)
  for (const step of edit.path) {
    const next = typeof step === "number" ? span.items[step] : memberOf(span, step)?.value
    if (next === undefined || (typeof step === "number" ? span.kind !== "array" : span.kind !== "object")) {
      return undefined
    }
    span = next
  }
  if (edit.key !== undefined) {
    if (span.kind !== "object") return undefined
    const existing = memberOf(span, edit.key)
    return existing !== undefined
      ? text.slice(0, existing.value.start) + JSON.stringify(edit.value) + text.slice(existing.value.end)
      : insert(text, span, edit.key, edit.value, style)
  }
  return span.kind === "array" ? insert(text, span, undefined, edit.value, style) : undefined
}

type Op = { readonly tag: " " | "-" | "+"; readonly line: string }

const splitLines = (text: string): Array<string> => {
  if (text.length === 0) return []
  const lines = text.split(/\r?\n/)
  if (lines[lines.length - 1] === "") lines.pop()
  return lines
}

const MAX_DIFF_CELLS = 4_000_000

const diffOps = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): Array<Op> => {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const ops: Array<Op> = a.slice(0, start).map((line) => ({ tag: " ", line }))
  const x = a.slice(start, endA)
  const y = b.slice(start, endB)
  if (x.length * y.length > MAX_DIFF_CELLS) {
    for (const line of x) ops.push({ tag: "-", line })
    for (const line of y) ops.push({ tag: "+", line })
  } else {
    // lcs[i][j]: the longest common subsequence of x[i..] and y[j..]
    const width = y.length + 1
    const lcs = new Uint32Array((x.length + 1) * width)
    for (let i = x.length - 1; i >= 0; i--) {
      for (let j = y.length - 1; j >= 0; j--) {
        lcs[i * width + j] = x[i] === y[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!)
      }
    }
    let i = 0
    let j = 0
    while (i < x.length && j < y.length) {
      if (x[i] === y[j]) {
        ops.push({ tag: " ", line: x[i]! })
        i++
        j++
      } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
        ops.push({ tag: "-", line: x[i++]! })
      } else {
        ops.push({ tag: "+", line: y[j++]! })
      }
    }
    while (i < x.length) ops.push({ tag: "-", line: x[i++]! })
    while (j < y.length) ops.push({ tag: "+", line: y[j++]! })
  }
  for (const line of a.slice(endA)) ops.push({ tag: " ", line })
  return ops
}

/**
 * A unified diff (3 lines of context) of two texts, "" when they are equal.
 *
 * @internal
 */
export const unifiedDiff = (label: string, before: string | undefined, after: string, context = 3): string => {
  if (before === after) return ""
  const ops = diffOps(splitLines(before ?? ""), splitLines(after))
  const changes = ops.flatMap((op, index) => (op.tag === " " ? [] : [index]))
  if (changes.length === 0) return ""
  const out = [before === undefined ? "--- /dev/null" : `--- a/${label}`, `+++ b/${label}`]
  let h = 0
  while (h < changes.length) {
    let last = h
    while (last + 1 < changes.length && changes[last + 1]! - changes[last]! <= 2 * context) last++
    const from = Math.max(0, changes[h]! - context)
    const to = Math.min(ops.length, changes[last]! + context + 1)
    let aLine = 1
    let bLine = 1
    for (let i = 0; i < from; i++) {
      if (ops[i]!.tag !== "+") aLine++
      if (ops[i]!.tag !== "-") bLine++
    }
    const body = ops.slice(from, to)
    const aLen = body.filter((op) => op.tag !== "+").length
    const bLen = body.filter((op) => op.tag !== "-").length
    out.push(`@@ -${aLen === 0 ? aLine - 1 : aLine},${aLen} +${bLen === 0 ? bLine - 1 : bLine},${bLen} @@`)
    for (const op of body) out.push(op.tag + op.line)
    h = last + 1
  }
  return out.join("\n") + "\n"
}

// -----------------------------------------------------------------------------
// Installing
// -----------------------------------------------------------------------------

const isHookEvent = (u: unknown): u is Protocol.HookEvent => Schema.is(ProtocolHooks.HookEvent)(u)

const checkOptions = (options: HookCommand.InstallOptions): Effect.Effect<Entry, HookCommandError> => {
  const fail = (detail: string) => Effect.fail(new HookCommandError({ reason: "InvalidOptions", detail }))
  if (typeof options.command !== "string" || options.command.trim().length === 0) {
    return fail("the hook command is empty")
  }
  if (!isHookEvent(options.event)) {
    return fail(`"${String(options.event)}" is not a hook event of the CLI (e.g. PreToolUse, PostToolUse, Stop)`)
  }
  if (options.matcher !== undefined && typeof options.matcher !== "string") return fail("the matcher is not a string")
  let timeout: number | undefined
  if (options.timeout !== undefined) {
    const duration = Duration.fromInput(options.timeout)
    if (Option.isNone(duration) || !Duration.isFinite(duration.value) || Duration.toMillis(duration.value) <= 0) {
      return fail(`the timeout ${String(options.timeout)} is not a positive duration`)
    }
    timeout = Math.ceil(Duration.toSeconds(duration.value))
  }
  return Effect.succeed({ event: options.event, matcher: options.matcher, command: options.command, timeout })
}

const readSettings = (fs: FileSystem.FileSystem, file: string) =>
  Effect.gen(function*() {
    const exists = yield* fs.exists(file)
    if (!exists) return undefined
    return yield* fs.readFileString(file)
  }).pipe(
    Effect.mapError((cause) =>
      new HookCommandError({
        reason: "SettingsReadFailed",
        path: file,
        detail: `the settings file could not be read: ${cause.message}`,
        cause
      })
    )
  )

const parseSettings = (
  file: string,
  text: string | undefined
): Effect.Effect<Record<string, unknown>, HookCommandError> => {
  if (text === undefined || text.trim().length === 0) return Effect.succeed({})
  const invalid = (detail: string, cause?: unknown) =>
    Effect.fail(
      new HookCommandError({
        reason: "InvalidSettings",
        path: file,
        detail: `${detail}; the file was left as it is`,
        ...(cause !== undefined ? { cause } : {})
      })
    )
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    return invalid(`the settings file is not JSON (${(cause as Error).message})`, cause)
  }
  return isRecord(json) ? Effect.succeed(json) : invalid("the settings file is not a JSON object")
}

/**
 * The edit made in the text when it can be, checked against the merge; else
 * the whole file rendered.
 *
 * @internal
 */
export const afterText = (
  before: string | undefined,
  settings: Record<string, unknown>,
  edit: Edit | undefined
): string => {
  const style = styleOf(before)
  if (before !== undefined && before.trim().length > 0 && edit !== undefined) {
    try {
      const edited = editText(before, edit, style)
      if (edited !== undefined && JSON.stringify(JSON.parse(edited)) === JSON.stringify(settings)) return edited
    } catch {
      // fall through
    }
  }
  return render(settings, style)
}

// Write next to the file and rename over it: a reader sees the old file or the new one, never half.
const writeAtomically = (fs: FileSystem.FileSystem, path: Path.Path, file: string, text: string, existed: boolean) =>
  Effect.gen(function*() {
    const target = existed ? yield* fs.realPath(file) : file
    yield* fs.makeDirectory(path.dirname(target), { recursive: true })
    const temp = path.join(
      path.dirname(target),
      `.${path.basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`
    )
    const mode = existed ? (yield* fs.stat(target)).mode & 0o7777 : undefined
    yield* Effect.gen(function*() {
      yield* fs.writeFileString(temp, text)
      if (mode !== undefined) yield* fs.chmod(temp, mode)
      yield* fs.rename(temp, target)
    }).pipe(Effect.onError(() => Effect.ignore(fs.remove(temp))))
  }).pipe(
    Effect.mapError((cause) =>
      new HookCommandError({
        reason: "SettingsWriteFailed",
        path: file,
        detail: `the settings file could not be written: ${cause.message}`,
        cause
      })
    )
  )

/** @internal */
export const install = (
  options: HookCommand.InstallOptions
): Effect.Effect<HookCommand.InstallResult, HookCommandError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const entry = yield* checkOptions(options)
    const file = yield* settingsPath(options.settings, options.cwd)
    const before = yield* readSettings(fs, file)
    const settings = yield* parseSettings(file, before)
    const merged = merge(settings, entry)
    if (merged._tag === "Invalid") {
      return yield* new HookCommandError({
        reason: "InvalidSettings",
        path: file,
        detail: `${merged.problem}; the file was left as it is`
      })
    }
    if (merged.status === "unchanged") {
      return { path: file, status: "unchanged", written: false, diff: "", before, after: before ?? "" } as const
    }
    const after = afterText(before, merged.settings, merged.edit)
    const base = path.resolve(options.cwd ?? process.cwd())
    const relative = path.relative(base, file)
    const label = relative.length > 0 && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file
    const diff = unifiedDiff(label, before, after)
    const write = options.dryRun !== true
    if (write) yield* writeAtomically(fs, path, file, after, before !== undefined)
    return { path: file, status: merged.status, written: write, diff, before, after }
  })
