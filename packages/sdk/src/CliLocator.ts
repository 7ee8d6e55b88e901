/**
 * Finds the `claude` executable.
 *
 * The order is: an explicit path → the platform package of
 * `@anthropic-ai/claude-code` (`@anthropic-ai/claude-code-<os>-<arch>[-musl]/claude`,
 * which is there even where the wrapper's postinstall did not run, as under
 * pnpm) → the wrapper's own `bin/claude.exe` when it is not the postinstall
 * stub → `claude` on `PATH`. When none works the failure lists every place
 * that was tried.
 *
 * The packages are looked for in `node_modules` directories, walking up from
 * (in this order, see {@link defaultSearchFrom}): the SDK's own files (the
 * CLI is a dependency of the SDK, so this finds it under npm, hoisted or not,
 * and under pnpm), the application's entry script (`process.argv[1]`: the
 * file a bundle was run from, where `import.meta.url` no longer points into
 * `node_modules`) and the working directory.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Path from "effect/Path"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { CliNotFoundError, LocatorAttempt } from "./ClaudeError.js"

/**
 * @since 0.1.0
 * @category Models
 */
export interface LocateOptions {
  /** An explicit path to the executable; when set, nothing else is tried. */
  readonly executable?: string | undefined
  /** Directories to resolve `@anthropic-ai/claude-code` from (default: {@link defaultSearchFrom}). */
  readonly searchFrom?: ReadonlyArray<string> | undefined
  /** The `PATH` to search last (default: `process.env.PATH`). */
  readonly pathEnv?: string | undefined
}

/**
 * Where the locator looks for `@anthropic-ai/claude-code` unless told
 * otherwise, without duplicates: the directory of this module (in a bundle:
 * of the bundle), the directory of the application's entry script
 * (`process.argv[1]`, followed through symlinks such as `node_modules/.bin`)
 * and the working directory.
 *
 * @since 0.1.0
 * @category Constants
 */
export const defaultSearchFrom = (): ReadonlyArray<string> => {
  const dirs: Array<string> = []
  const add = (dir: string | undefined) => {
    if (dir !== undefined && dir.length > 0 && !dirs.includes(dir)) dirs.push(dir)
  }
  add(moduleDir())
  const entry = process.argv[1]
  if (entry !== undefined && entry.length > 0 && NodePath.isAbsolute(entry)) {
    add(NodePath.dirname(entry))
    try {
      add(NodePath.dirname(NodeFs.realpathSync(entry)))
    } catch {
      // not a file (e.g. `node -e`): its directory is still worth a look
    }
  }
  add(process.cwd())
  return dirs
}

// `import.meta.url` is this module's file, or the bundle's when bundled as ESM; bundled as CommonJS
// it is not set at all (esbuild leaves `import.meta` empty), and the entry script stands in for it.
const moduleDir = (): string | undefined => {
  const url: unknown = (import.meta as { readonly url?: unknown }).url
  if (typeof url !== "string" || !url.startsWith("file:")) return undefined
  try {
    return NodePath.dirname(fileURLToPath(url))
  } catch {
    return undefined
  }
}

/**
 * The name of the platform package that carries the native binary for this
 * machine, e.g. `@anthropic-ai/claude-code-linux-x64-musl`.
 *
 * @since 0.1.0
 * @category Constants
 */
export const platformPackageName = (
  platform: string = process.platform,
  arch: string = process.arch,
  musl: boolean = isMusl()
): string => `@anthropic-ai/claude-code-${platform}-${arch}${platform === "linux" && musl ? "-musl" : ""}`

const isMusl = (): boolean => {
  if (process.platform !== "linux") return false
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined
  return report?.header?.glibcVersionRuntime === undefined
}

const binaryName = process.platform === "win32" ? "claude.exe" : "claude"

// The wrapper ships a shell stub at bin/claude.exe that postinstall replaces with the real binary.
const STUB_MAX_BYTES = 64 * 1024

/**
 * Locates the `claude` executable, or fails with a {@link CliNotFoundError}
 * that names every place tried and how to fix it.
 *
 * @since 0.1.0
 * @category Constructors
 */
export const locate: (
  options?: LocateOptions
) => Effect.Effect<string, CliNotFoundError, FileSystem.FileSystem | Path.Path> = Effect.fnUntraced(
  function*(options?: LocateOptions) {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const attempts: Array<LocatorAttempt> = []

    const checkExecutable = (location: string) =>
      fs.stat(location).pipe(
        Effect.map((info): Option.Option<string> =>
          info.type !== "File"
            ? Option.some("not a file")
            : process.platform !== "win32" && (info.mode & 0o111) === 0
            ? Option.some("not executable")
            : Option.none()
        ),
        Effect.catch((error) =>
          Effect.succeed(Option.some(error.reason._tag === "NotFound" ? "missing" : error.message))
        )
      )

    if (options?.executable !== undefined) {
      const location = path.resolve(options.executable)
      const problem = yield* checkExecutable(location)
      if (Option.isNone(problem)) return location
      return yield* new CliNotFoundError({
        reason: problem.value === "missing" ? "NotFound" : "NotExecutable",
        attempts: [new LocatorAttempt({ source: "option", location, problem: problem.value })]
      })
    }

    const searchFrom = options?.searchFrom ?? defaultSearchFrom()
    const searched = `searched node_modules from ${searchFrom.join(", ")}`
    // Node's own resolution also reads NODE_PATH (which pnpm's shims set), so walk node_modules explicitly.
    const resolvePackageDir = Effect.fnUntraced(function*(name: string, from: ReadonlyArray<string>) {
      for (const start of from) {
        let dir = path.resolve(start)
        while (true) {
          const candidate = path.join(dir, "node_modules", name)
          if (yield* fs.exists(path.join(candidate, "package.json")).pipe(Effect.orElseSucceed(() => false))) {
            return Option.some(yield* fs.realPath(candidate).pipe(Effect.orElseSucceed(() => candidate)))
          }
          const parent = path.dirname(dir)
          if (parent === dir) break
          dir = parent
        }
      }
      return Option.none<string>()
    })

    const wrapperDir = yield* resolvePackageDir("@anthropic-ai/claude-code", searchFrom)
    const platformPackage = platformPackageName()

    // The platform package is an optional dependency of the wrapper, so under pnpm it resolves from the wrapper.
    const platformFrom = Option.match(wrapperDir, {
      onNone: () => searchFrom,
      onSome: (dir) => [dir, ...searchFrom]
    })
    const platformDir = yield* resolvePackageDir(platformPackage, platformFrom)
    if (Option.isSome(platformDir)) {
      const location = path.join(platformDir.value, binaryName)
      const problem = yield* checkExecutable(location)
      if (Option.isNone(problem)) return location
      attempts.push(new LocatorAttempt({ source: "platform-package", location, problem: problem.value }))
    } else {
      attempts.push(
        new LocatorAttempt({
          source: "platform-package",
          location: platformPackage,
          problem: `package not installed (${searched})`
        })
      )
    }

    if (Option.isSome(wrapperDir)) {
      const location = path.join(wrapperDir.value, "bin", "claude.exe")
      const problem = yield* checkExecutable(location)
      if (Option.isSome(problem)) {
        attempts.push(new LocatorAttempt({ source: "wrapper-package", location, problem: problem.value }))
      } else {
        const size = yield* fs.stat(location).pipe(
          Effect.map((info) => Number(info.size)),
          Effect.orElseSucceed(() => 0)
        )
        if (size > STUB_MAX_BYTES) return location
        attempts.push(
          new LocatorAttempt({ source: "wrapper-package", location, problem: "postinstall stub, not the binary" })
        )
      }
    } else {
      attempts.push(
        new LocatorAttempt({
          source: "wrapper-package",
          location: "@anthropic-ai/claude-code",
          problem: `package not installed (${searched})`
        })
      )
    }

    const pathEnv = options?.pathEnv ?? process.env.PATH ?? ""
    for (const dir of pathEnv.split(process.platform === "win32" ? ";" : ":").filter((d) => d.length > 0)) {
      const location = path.join(dir, binaryName)
      const problem = yield* checkExecutable(location)
      if (Option.isNone(problem)) return location
    }
    attempts.push(new LocatorAttempt({ source: "path", location: `${binaryName} on PATH`, problem: "not found" }))

    return yield* new CliNotFoundError({ reason: "NotFound", attempts })
  }
)
