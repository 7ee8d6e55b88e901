import type * as NodeSqlite from "node:sqlite"

let loaded: typeof NodeSqlite | undefined

const isSqliteExperimentalWarning = (warning: unknown, typeOrOptions: unknown): boolean => {
  const type = typeof typeOrOptions === "string"
    ? typeOrOptions
    : typeof typeOrOptions === "object" && typeOrOptions !== null && "type" in typeOrOptions
    ? typeOrOptions.type
    : warning instanceof Error
    ? warning.name
    : undefined
  const message = warning instanceof Error ? warning.message : String(warning)
  return type === "ExperimentalWarning" && message.startsWith("SQLite is an experimental feature")
}

/**
 * `node:sqlite`, loaded on first use (never at import) without the one-time `ExperimentalWarning` Node 22 writes to
 * stderr for it: a tool whose stderr is read (the hooks command, a CLI) must not print it. Any other warning passes.
 * `undefined` when this Node.js has no `node:sqlite`.
 */
export const load = (): typeof NodeSqlite | undefined => {
  if (loaded !== undefined) return loaded
  const emitWarning = process.emitWarning
  // Node emits the warning synchronously while the builtin loads: filter only for that call.
  process.emitWarning = function(this: NodeJS.Process, warning: string | Error, ...rest: Array<unknown>) {
    if (isSqliteExperimentalWarning(warning, rest[0])) return
    return Reflect.apply(emitWarning, this, [warning, ...rest])
  } as typeof process.emitWarning
  try {
    loaded = process.getBuiltinModule("node:sqlite")
  } finally {
    process.emitWarning = emitWarning
  }
  return loaded
}
