/**
 * Example: property-testing a guard hook.
 *
 * The guard is a PreToolUse hook for Bash that denies every command deleting
 * something outside the session's working directory: `rm`, `rmdir`,
 * `unlink`, `find ... -delete` (or `-exec rm`) and `mv ... /dev/null`, with
 * absolute paths, `~` / `$HOME`, or `..` segments that climb out, also after
 * a `cd` and inside `sh -c '...'`.
 *
 * Two properties pin it down, over realistic generated commands
 * (`Arbitraries.bash({ cwd, kind })`, whose generator knows what each command
 * deletes), each run through `HookTest.run` exactly as a session would run
 * the hook (same dispatch, same matcher rules, same fallbacks):
 *
 * 1. every command that deletes outside the working directory is denied;
 * 2. no harmless command is denied: reads anywhere, writes and deletions
 *    inside the working directory, and text that merely mentions `rm -rf /`.
 *
 * The first alone would pass for a guard that denies everything; the second
 * alone for one that denies nothing. Together they fail on each of the bugs
 * such guards tend to have: a regex instead of a tokenizer (`echo 'rm -rf /'`
 * denied), `startsWith(cwd)` without a trailing slash (`<cwd>-old` allowed),
 * no `..` resolution, redirect targets taken for operands (`2>/dev/null`),
 * `cd` or `sh -c` ignored, `\rm` or `/bin/rm` not recognized.
 */
import { HookLayer, HookResult, type Protocol } from "@claude-effect/sdk"
import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Path from "node:path"
import { Arbitraries, HookTest, ToolInputs } from "../src/index.js"

// -------------------------------------------------------------------------------------------------
// The guard under test
// -------------------------------------------------------------------------------------------------

type Token = { readonly kind: "word"; readonly text: string } | { readonly kind: "op"; readonly text: string }

/** Splits a command line into words (quotes and escapes removed) and operators, dropping comments. */
const tokenize = (line: string): Array<Token> => {
  const tokens: Array<Token> = []
  let word: string | undefined
  const flush = () => {
    if (word !== undefined) tokens.push({ kind: "word", text: word })
    word = undefined
  }
  let i = 0
  while (i < line.length) {
    const c = line[i]!
    if (c === " " || c === "\t") {
      flush()
      i++
    } else if (c === "#" && word === undefined) {
      while (i < line.length && line[i] !== "\n") i++
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1)
      word = (word ?? "") + line.slice(i + 1, end === -1 ? line.length : end)
      i = end === -1 ? line.length : end + 1
    } else if (c === "\"") {
      let j = i + 1
      let text = ""
      while (j < line.length && line[j] !== "\"") {
        if (line[j] === "\\" && "\"\\$`".includes(line[j + 1] ?? "")) j++
        text += line[j]
        j++
      }
      word = (word ?? "") + text
      i = j + 1
    } else if (c === "\\") {
      if (line[i + 1] !== "\n") word = (word ?? "") + (line[i + 1] ?? "")
      i += 2
    } else if (c === ">" || c === "<" || (c === "&" && line[i + 1] === ">")) {
      // A redirection: `2>`, `>>`, `>&`, `&>`, `<`. Its target is not an operand.
      if (word !== undefined && /^\d+$/.test(word)) word = undefined
      flush()
      i += c === "&" ? 2 : 1
      if (line[i] === ">" || line[i] === "&") i++
      tokens.push({ kind: "op", text: "redirect" })
    } else if ("\n;&|()".includes(c)) {
      flush()
      const two = line.slice(i, i + 2)
      const text = two === "&&" || two === "||" ? two : c
      tokens.push({ kind: "op", text })
      i += text.length
    } else {
      word = (word ?? "") + c
      i++
    }
  }
  flush()
  return tokens
}

/** The simple commands of a command line, as word lists, without redirections. */
const simpleCommands = (line: string): Array<Array<string>> => {
  const commands: Array<Array<string>> = [[]]
  let skipNext = false
  for (const token of tokenize(line)) {
    if (token.kind === "op") {
      if (token.text === "redirect") skipNext = true
      else commands.push([])
    } else if (skipNext) {
      skipNext = false
    } else {
      commands[commands.length - 1]!.push(token.text)
    }
  }
  return commands.filter((words) => words.length > 0)
}

const wrappers = new Set(["sudo", "command", "builtin", "nohup", "time", "exec", "nice", "env"])
const shells = new Set(["sh", "bash", "zsh", "dash"])
const deleters = new Set(["rm", "rmdir", "unlink"])

/** Non-option arguments (everything after `--`). */
const operands = (args: ReadonlyArray<string>) => {
  const end = args.indexOf("--")
  return end === -1
    ? args.filter((a) => !a.startsWith("-"))
    : [...args.slice(0, end).filter((a) => !a.startsWith("-")), ...args.slice(end + 1)]
}

/**
 * The paths a command line deletes outside `cwd`. `dir` is the directory it
 * runs in; `undefined` once unknown (after `cd ~`), where every path counts
 * as outside.
 */
const deletionsOutside = (line: string, cwd: string, dir: string | undefined): Array<string> => {
  const found: Array<string> = []
  let here = dir
  const unknown = (path: string) => path.startsWith("~") || /[$`]/.test(path)
  const outside = (path: string, selfIsInside = false) => {
    if (here === undefined || unknown(path)) return true
    const resolved = Path.posix.resolve(here, path)
    return !(resolved.startsWith(`${cwd}/`) || (selfIsInside && resolved === cwd))
  }
  for (let args of simpleCommands(line)) {
    while (args.length > 0 && (wrappers.has(args[0]!) || /^[A-Za-z_]\w*=/.test(args[0]!))) {
      args = args.slice(1)
      while (args[0]?.startsWith("-")) args = args.slice(1)
    }
    if (args.length === 0) continue
    const verb = Path.posix.basename(args[0]!)
    const rest = args.slice(1)
    if (verb === "cd") {
      const target = operands(rest)[0] ?? "~"
      if (unknown(target) || target === "-") here = undefined
      else if (Path.posix.isAbsolute(target)) here = Path.posix.resolve(target)
      else if (here !== undefined) here = Path.posix.resolve(here, target)
    } else if (shells.has(verb)) {
      const script = rest[rest.indexOf("-c") + 1]
      if (rest.includes("-c") && script !== undefined) found.push(...deletionsOutside(script, cwd, here))
    } else if (deleters.has(verb)) {
      found.push(...operands(rest).filter((path) => outside(path)))
    } else if (verb === "find") {
      const firstExpression = rest.findIndex((a) => a.startsWith("-") || a === "(" || a === "!")
      const roots = firstExpression === -1 ? rest : rest.slice(0, firstExpression)
      const deletes = rest.includes("-delete") ||
        rest.some((a, i) =>
          ["-exec", "-execdir", "-ok"].includes(a) && deleters.has(Path.posix.basename(rest[i + 1] ?? ""))
        )
      if (deletes) found.push(...(roots.length > 0 ? roots : ["."]).filter((root) => outside(root, true)))
    } else if (verb === "mv") {
      const paths = operands(rest)
      if (paths.length >= 2 && paths[paths.length - 1] === "/dev/null") {
        found.push(...paths.slice(0, -1).filter((path) => outside(path)))
      }
    }
  }
  return found
}

/** The guard: a hook layer, as an application would ship it. */
const BashGuard = HookLayer.preToolUse({ matcher: "Bash", name: "bash-guard" }, (input) =>
  Effect.sync(() => {
    const bash = Schema.decodeUnknownOption(ToolInputs.Bash)(input.tool_input)
    if (Option.isNone(bash)) return HookResult.deny("a Bash call without a command")
    const outside = deletionsOutside(bash.value.command, input.cwd, input.cwd)
    return outside.length > 0
      ? HookResult.deny(`This command deletes outside ${input.cwd}: ${outside.join(", ")}`)
      : HookResult.empty
  }))

// -------------------------------------------------------------------------------------------------
// The properties
// -------------------------------------------------------------------------------------------------

/** Working directories to run in: the default, others, and one with a space. */
const cwds = Arbitrary.schema(
  Schema.Literals([HookTest.defaultCwd, "/srv/app", "/tmp/claude-work", "/home/dev/my project"])
)

/** PreToolUse inputs for Bash commands of one kind, for a generated working directory. */
const bashCalls = (kind: Arbitraries.CommandKind) =>
  Arbitrary.flatMap(cwds, (cwd) => Arbitraries.preToolUse("Bash", Arbitraries.bash({ cwd, kind }), { cwd }))

const guarded = (input: Protocol.HookInput) => HookTest.run(input).pipe(Effect.provide(BashGuard))

describe("a guard hook that denies Bash commands deleting outside the working directory", () => {
  it.effect.prop(
    "denies every Bash command that deletes outside the working directory",
    [bashCalls("deletesOutside")],
    ([input]) =>
      Effect.gen(function*() {
        const outcome = yield* guarded(input)
        assert.strictEqual(
          outcome.permissionDecision,
          "deny",
          `not denied in ${input.cwd}: ${input.tool_input.command}`
        )
        assert.include(outcome.reason, "deletes outside")
      }),
    { arbitrary: { runs: 500 } }
  )

  it.effect.prop(
    "never denies a harmless command (reads anywhere, writes and deletions inside, mere mentions)",
    [bashCalls("harmless")],
    ([input]) =>
      Effect.gen(function*() {
        const outcome = yield* guarded(input)
        assert.isUndefined(
          outcome.permissionDecision,
          `denied in ${input.cwd}: ${input.tool_input.command}\n(${outcome.reason})`
        )
        assert.deepStrictEqual(outcome.runs.map((run) => run.output), [{}])
      }),
    { arbitrary: { runs: 500 } }
  )

  it.effect.prop(
    "is never called for other tools (its matcher is \"Bash\")",
    [Arbitrary.filter(Arbitraries.hookInput("PreToolUse"), (input) => input.tool_name !== "Bash")],
    ([input]) => Effect.map(guarded(input), (outcome) => outcome.runs.length === 0)
  )

  it.effect("examples", () =>
    Effect.gen(function*() {
      const decide = (command: string) =>
        Effect.map(guarded(HookTest.preToolUse("Bash", { command })), (outcome) => outcome.permissionDecision)
      assert.strictEqual(yield* decide("rm -rf ~/"), "deny")
      assert.strictEqual(yield* decide("cd .. && rm -rf project-old"), "deny")
      assert.strictEqual(yield* decide(`rm -rf ${HookTest.defaultCwd}-old/cache`), "deny")
      assert.strictEqual(yield* decide("find /tmp -name '*.log' -delete"), "deny")
      assert.strictEqual(yield* decide("sh -c 'mv ../notes.txt /dev/null'"), "deny")
      assert.isUndefined(yield* decide("rm -rf build dist 2>/dev/null"))
      assert.isUndefined(yield* decide("echo 'rm -rf /' # harmless"))
      assert.isUndefined(yield* decide("cd src && rm -f ../coverage/*.json"))
    }))
})
