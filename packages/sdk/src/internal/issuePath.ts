/**
 * How every error message of the SDK names a field: a path written as code
 * would reach it — `mcpServers["my-server"].args[0]`,
 * `hookSpecificOutput.permissionDecision`.
 *
 * @internal
 */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/**
 * `["mcpServers", "my-server", "args", 0]` → `mcpServers["my-server"].args[0]`;
 * the empty path → `whole` (what the value itself is called: `(options)`,
 * `(arguments)`, or nothing).
 *
 * @internal
 */
export const formatPath = (path: ReadonlyArray<PropertyKey>, whole = ""): string => {
  let out = ""
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`
    else if (typeof segment === "symbol") out += `[${String(segment)}]`
    else if (IDENTIFIER.test(segment)) out += out.length === 0 ? segment : `.${segment}`
    else out += `[${JSON.stringify(segment)}]`
  }
  return out.length === 0 ? whole : out
}
