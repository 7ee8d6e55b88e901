/**
 * The project the agent works on: a small folder made for the run, with a
 * `sandbox/` folder inside it where the permission gate puts writes aimed
 * outside the project. Another application service the policies use.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Path from "effect/Path"
import * as Fs from "node:fs"

export class Project extends Context.Service<Project, {
  /** The folder around the project (audit log, and the place the model is told to write to). */
  readonly root: string
  /** The project: the CLI's working directory. */
  readonly dir: string
  /** Where writes aimed outside the project land. */
  readonly sandbox: string
  /** Whether a path is strictly inside the project. */
  readonly contains: (file: string) => boolean
}>()("@claude-effect/examples/demo/Project") {}

const files: Record<string, string> = {
  "README.md": "# widgets\n\nA tiny project for the claude-effect demo.\n",
  "package.json": JSON.stringify({ name: "widgets", version: "1.2.0", type: "module" }, null, 2) + "\n",
  "CHANGELOG.md": [
    "# Changelog",
    "",
    "## 1.2.0",
    "- widgets can be looked up by SKU",
    "- faster startup (lazy config loading)",
    "- fix: negative stock counts are rejected",
    ""
  ].join("\n"),
  "src/index.ts": "export const lookup = (sku: string) => sku.trim().toLowerCase()\n",
  "build/index.js": "// stale build output from 1.1.0\nexport const lookup = (sku) => sku\n"
}

/** Makes the project under `root` (created if needed). */
export const make = (root: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    yield* fs.makeDirectory(root, { recursive: true })
    // realpath: the CLI reports resolved paths (/private/var/... on macOS)
    const resolvedRoot = Fs.realpathSync(root)
    const dir = path.join(resolvedRoot, "project")
    const sandbox = path.join(dir, "sandbox")
    yield* fs.makeDirectory(sandbox, { recursive: true })
    for (const [name, content] of Object.entries(files)) {
      yield* fs.makeDirectory(path.dirname(path.join(dir, name)), { recursive: true })
      yield* fs.writeFileString(path.join(dir, name), content)
    }
    const contains = (file: string) => {
      if (/^[~$]/.test(file)) return false // the shell's home, not a folder named "~"
      const relative = path.relative(dir, path.resolve(dir, file))
      return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)
    }
    return Project.of({ root: resolvedRoot, dir, sandbox, contains })
  })

export const layer = (root: string) => Layer.effect(Project, make(root))
