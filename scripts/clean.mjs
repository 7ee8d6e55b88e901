// Removes build output and TypeScript build info from every package.
import * as Fs from "node:fs"
import * as Path from "node:path"

const root = Path.resolve(import.meta.dirname, "..")
for (const pkg of Fs.readdirSync(Path.join(root, "packages"))) {
  for (const dir of ["build", ".tsbuildinfo"]) {
    Fs.rmSync(Path.join(root, "packages", pkg, dir), { recursive: true, force: true })
  }
}
Fs.rmSync(Path.join(root, ".tsbuildinfo"), { recursive: true, force: true })
