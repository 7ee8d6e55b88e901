// Effect's convention for a public module over `internal/`: a public module may
// import its internal modules freely, an internal module imports the TYPES of
// its package's public modules only (`import type`, or named `type` imports).
// Values live in `internal/` and the public module re-exports them, so the
// import graph reads top-down and no value cycle can form through `internal/`.
//
// This script fails (exit 1) when a file under `packages/*/src/internal/` has a
// value import, a value re-export, a side-effect import or a dynamic `import()`
// of a public module of its own package (`<pkg>/src/*.ts`).
// Run by `pnpm check`.
import * as Fs from "node:fs"
import * as Path from "node:path"
import process from "node:process"
import ts from "typescript"

const root = Path.resolve(import.meta.dirname, "..")

// Known exceptions, each with its reason; an entry that no longer matches fails the check too, so
// the list only shrinks. None today: the session's composition lives in ClaudeCode.ts.
const allowed = new Set([])
const seen = new Set()
const packageDirs = Fs.readdirSync(Path.join(root, "packages"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => Path.join(root, "packages", entry.name))

const walk = (dir) =>
  Fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = Path.join(dir, entry.name)
    if (entry.isDirectory()) return walk(path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : []
  })

// Whether an import / export declaration brings in a value at run time.
const isValueImport = (node) => {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause
    if (clause === undefined) return true // `import "./X.js"`: runs the module
    if (clause.isTypeOnly) return false
    if (clause.name !== undefined) return true // default import
    const bindings = clause.namedBindings
    if (bindings === undefined) return false
    if (ts.isNamespaceImport(bindings)) return true
    return bindings.elements.length === 0 || bindings.elements.some((element) => !element.isTypeOnly)
  }
  // export ... from
  if (node.isTypeOnly) return false
  const clause = node.exportClause
  if (clause === undefined || ts.isNamespaceExport(clause)) return true
  return clause.elements.length === 0 || clause.elements.some((element) => !element.isTypeOnly)
}

const violations = []
for (const packageDir of packageDirs) {
  const srcDir = Path.join(packageDir, "src")
  const internalDir = Path.join(srcDir, "internal")
  if (!Fs.existsSync(internalDir)) continue
  const isPublicModule = (file) => Path.dirname(file) === srcDir
  for (const file of walk(internalDir)) {
    const text = Fs.readFileSync(file, "utf8")
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    const report = (node, specifier, what) => {
      const target = Path.resolve(Path.dirname(file), specifier.replace(/\.js$/, ".ts"))
      if (!isPublicModule(target)) return
      const key = `${Path.relative(root, file)} -> ${specifier}`
      if (allowed.has(key)) return void seen.add(key)
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
      violations.push(`${Path.relative(root, file)}:${line + 1}: ${what} of the public module ${specifier}`)
    }
    const visit = (node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier) &&
        node.moduleSpecifier.text.startsWith(".") && isValueImport(node)
      ) {
        report(node, node.moduleSpecifier.text, ts.isImportDeclaration(node) ? "value import" : "value re-export")
      } else if (
        ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0]) && node.arguments[0].text.startsWith(".")
      ) {
        report(node, node.arguments[0].text, "dynamic import")
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
}

for (const key of allowed) {
  if (!seen.has(key)) violations.push(`${key}: allowed above, but no longer imported: remove it from the list`)
}
for (const violation of violations) process.stderr.write(`${violation}\n`)
if (violations.length > 0) {
  process.stderr.write(
    `\n${violations.length} internal module import(s) of public values: move the value into internal/ and ` +
      "re-export it from the public module (internal/ imports public modules' types only).\n"
  )
  process.exit(1)
}
process.stdout.write(`internal imports: public modules' types only (${allowed.size} known exception(s) listed)\n`)
