// A launcher for a command hook program, with a V8 code cache: Node's own compile cache is off unless
// NODE_COMPILE_CACHE is set or the program turns it on before it loads, and parsing and compiling a
// bundled program is a good part of its start. Copy this file next to the program bundled as CommonJS, named after it:
//
//   .claude/hooks/guard.cjs          this file
//   .claude/hooks/guard.bundle.cjs   esbuild guard.ts --bundle --platform=node --format=cjs --minify
//
// and run `node .claude/hooks/guard.cjs` from the settings. The first run writes the cache (in the
// temp directory, keyed by the bundle's content and the node version); later runs start from it.
// Anything that goes wrong with the cache only costs the speed-up.
/* eslint-disable @typescript-eslint/no-require-imports */
/* global require, process, __dirname, __filename */
"use strict"
const Fs = require("node:fs")
const Module = require("node:module")
const Os = require("node:os")
const Path = require("node:path")
const Vm = require("node:vm")

const bundle = Path.join(__dirname, Path.basename(__filename, ".cjs") + ".bundle.cjs")
const source = Fs.readFileSync(bundle, "utf8")
const key = require("node:crypto").createHash("sha1")
  .update(`${process.version}\0${process.arch}\0${bundle}\0`)
  .update(source)
  .digest("hex")
const cacheFile = Path.join(Os.tmpdir(), "claude-effect-hooks-v8", `${key}.bin`)

let cachedData
try {
  cachedData = Fs.readFileSync(cacheFile)
} catch {
  // first run
}
const script = new Vm.Script(Module.wrap(source), { filename: bundle, cachedData })
if (cachedData === undefined || script.cachedDataRejected) {
  // At exit the cache holds every function the run compiled, not only the top level.
  process.once("exit", () => {
    try {
      Fs.mkdirSync(Path.dirname(cacheFile), { recursive: true })
      const temp = `${cacheFile}.${process.pid}.tmp`
      Fs.writeFileSync(temp, script.createCachedData())
      Fs.renameSync(temp, cacheFile)
    } catch {
      // no cache this time
    }
  })
}
const module_ = { exports: {} }
script.runInThisContext()(module_.exports, require, module_, bundle, __dirname)
