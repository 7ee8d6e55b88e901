/**
 * The official SDK's surface, name by name: docs/official-sdk.md has a row
 * for every option, `Query` method and export of its `sdk.d.ts` (read with
 * the TypeScript compiler), and every official option is an option here or
 * refused with a sentence. Then the options of that table that are proven on
 * the real CLI here rather than in a suite of their own.
 */
import { ScriptedModel } from "@claude-effect/testkit"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import ts from "typescript"
import { ClaudeCode, ClaudeOptions } from "../src/index.js"
import { harness, Workspace } from "./utils/harness.js"

const root = NodePath.resolve(import.meta.dirname, "../../..")
const officialTypes = NodePath.join(root, "packages/bench/node_modules/@anthropic-ai/claude-agent-sdk/sdk.d.ts")

/** The official SDK's names, from its declarations. */
const official = (() => {
  const program = ts.createProgram([officialTypes], { strict: true, skipLibCheck: true, noEmit: true })
  const checker = program.getTypeChecker()
  const module = checker.getSymbolAtLocation(program.getSourceFile(officialTypes)!)!
  const exports = checker.getExportsOfModule(module)
  const propertiesOf = (name: string) => {
    const symbol = exports.find((e) => e.name === name)!
    return checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)).map((p) => p.name)
  }
  const values = exports.filter((e) => {
    const target = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e
    return (target.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class | ts.SymbolFlags.Variable)) !== 0
  }).map((e) => e.name)
  return {
    options: propertiesOf("Options"),
    // the async-iterator protocol is one row
    queryMethods: propertiesOf("Query").filter((name) => !name.startsWith("__@")),
    values
  }
})()

/** The rows of the table under `heading`: first cell (its code, without arguments) → the whole row. */
const rowsUnder = (heading: string): ReadonlyMap<string, string> => {
  const markdown = Fs.readFileSync(NodePath.join(root, "docs/official-sdk.md"), "utf8")
  const section = markdown.split(/^## /m).find((part) => part.startsWith(heading))
  assert.isDefined(section, heading)
  const rows = new Map<string, string>()
  for (const line of section!.split("\n")) {
    const first = /^\| (.+?) \|/.exec(line)?.[1]
    if (first === undefined) continue
    for (const code of first.matchAll(/`([^`(]+)/g)) rows.set(code[1].replace(/^\[|\]$/g, ""), line)
  }
  return rows
}

describe("docs/official-sdk.md against the official sdk.d.ts", () => {
  it("has read the official SDK's names", () => {
    assert.isAbove(official.options.length, 60)
    assert.include(official.options, "sandbox")
    assert.include(official.queryMethods, "interrupt")
    assert.include(official.values, "query")
  })

  it("no row is left for later", () => {
    assert.notInclude(Fs.readFileSync(NodePath.join(root, "docs/official-sdk.md"), "utf8"), "(planned)")
  })

  it("every Options field has a row", () => {
    const rows = rowsUnder("`Options`")
    assert.deepStrictEqual(official.options.filter((name) => !rows.has(name)), [])
  })

  it("every Query method has a row", () => {
    const rows = rowsUnder("`Query` methods")
    const missing = official.queryMethods.filter((name) => !rows.has(name) && !rows.has(`${name}()`))
    assert.deepStrictEqual(missing, [])
    assert.isTrue(rows.has("[Symbol.asyncIterator]") || rows.has("next"), "the iterator protocol")
  })

  it("every exported function, class and constant has a row", () => {
    const rows = rowsUnder("Exported")
    assert.deepStrictEqual(official.values.filter((name) => !rows.has(name)), [])
  })

  it.effect("every official option is an option here, or refused with a sentence", () =>
    Effect.gen(function*() {
      const ours = new Set(Object.keys(ClaudeOptions.Options.fields))
      const unexplained: Array<string> = []
      for (const name of official.options) {
        if (ours.has(name)) continue
        const error = yield* Effect.flip(ClaudeOptions.decode({ [name]: "x" }))
        if (/not an option: \w/.test(error.detail) || /"x" is a JavaScript runtime/.test(error.detail)) continue
        unexplained.push(`${name}: ${error.detail}`)
      }
      assert.deepStrictEqual(unexplained, [])
    }))

  it("the README and the getting-started guide link the table", () => {
    assert.include(Fs.readFileSync(NodePath.join(root, "README.md"), "utf8"), "(docs/official-sdk.md)")
    assert.include(Fs.readFileSync(NodePath.join(root, "docs/getting-started.md"), "utf8"), "(official-sdk.md)")
  })
})

describe("verbatimPrompts on the real CLI", () => {
  const notes = "NOTES-CONTENT-4711 the quarterly numbers"

  it.live(
    "without it the CLI expands @notes.txt into the model's request; with it the text goes as written",
    () =>
      Effect.gen(function*() {
        const workspace = yield* Workspace
        Fs.writeFileSync(workspace.file("notes.txt"), notes)

        yield* ClaudeCode.query("Summarize @notes.txt").pipe(Stream.runDrain)
        const expanded = yield* ScriptedModel.lastTurnRequest
        assert.include(expanded.text, "NOTES-CONTENT-4711")

        yield* ClaudeCode.query("Summarize @notes.txt", { verbatimPrompts: true }).pipe(Stream.runDrain)
        const verbatim = yield* ScriptedModel.lastTurnRequest
        assert.include(verbatim.lastUserText, "Summarize @notes.txt")
        assert.notInclude(verbatim.text, "NOTES-CONTENT-4711")
      }).pipe(Effect.provide(harness([ScriptedModel.text("one"), ScriptedModel.text("two")]))),
    60_000
  )

  it.live("nor does it run a slash command", () =>
    Effect.gen(function*() {
      yield* ClaudeCode.query("/compact now", { verbatimPrompts: true }).pipe(Stream.runDrain)
      const request = yield* ScriptedModel.lastTurnRequest
      assert.include(request.lastUserText, "/compact now")
    }).pipe(Effect.provide(harness([ScriptedModel.text("ok")]))), 60_000)
})
