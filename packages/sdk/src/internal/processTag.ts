/**
 * Finding every process a CLI started, wherever it went. The CLI runs its
 * Bash tool's shells in sessions of their own, so a background job
 * (`sleep 120 &`) is in neither the CLI's process group nor, once its shell
 * has exited, its process tree. It does keep the environment it inherited:
 * each CLI process gets a variable with a value of its own, and whatever
 * still carries it after the CLI has gone is a leftover of that CLI.
 *
 * Where there is no `/proc` (macOS, Windows) nothing is found, and only the
 * process group is signalled.
 *
 * @internal
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/** The variable that marks a CLI process and everything it starts. */
export const variable = "CLAUDE_EFFECT_PROCESS_TAG"

/** A new tag, unique to one CLI process. */
export const make = (): string => `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`

/**
 * Sends `signal` to every live process (other than this one) whose
 * environment carries `tag`. Best effort: processes of other users, and
 * processes gone in the meantime, are skipped.
 *
 * @internal
 */
export const signalTagged = (tag: string, signal: NodeJS.Signals): Effect.Effect<ReadonlyArray<number>> =>
  Effect.gen(function*() {
    const fs = yield* Effect.serviceOption(FileSystem.FileSystem)
    if (Option.isNone(fs) || process.platform !== "linux") return []
    const entries = yield* fs.value.readDirectory("/proc").pipe(Effect.orElseSucceed(() => []))
    const needle = new TextEncoder().encode(`${variable}=${tag}\0`)
    const signalled: Array<number> = []
    for (const entry of entries) {
      if (!/^\d+$/.test(entry)) continue
      const pid = Number(entry)
      if (pid === process.pid) continue
      const environ = yield* fs.value.readFile(`/proc/${entry}/environ`).pipe(Effect.orElseSucceed(() => undefined))
      if (environ === undefined || !includes(environ, needle)) continue
      try {
        process.kill(pid, signal)
        signalled.push(pid)
      } catch {
        // gone in the meantime
      }
    }
    return signalled
  })

const includes = (haystack: Uint8Array, needle: Uint8Array): boolean => {
  const first = needle[0]
  outer: for (
    let i = haystack.indexOf(first);
    i !== -1 && i <= haystack.length - needle.length;
    i = haystack.indexOf(first, i + 1)
  ) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return true
  }
  return false
}
