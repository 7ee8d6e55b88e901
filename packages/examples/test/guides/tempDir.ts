import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

/** A fresh directory, this process's working directory for the scope (the guides' programs use relative paths). */
export const inTempDir = (prefix: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const before = process.cwd()
      const dir = Fs.realpathSync(Fs.mkdtempSync(Path.join(Os.tmpdir(), prefix)))
      process.chdir(dir)
      return { before, dir }
    }),
    ({ before, dir }) =>
      Effect.sync(() => {
        process.chdir(before)
        Fs.rmSync(dir, { recursive: true, force: true })
      })
  )
