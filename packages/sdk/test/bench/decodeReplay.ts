/**
 * The decode cost of a transcript replay: every line the real CLI wrote in
 * the captured transcripts, through `decodeStdoutLine`. Run it under Node 22:
 *
 *   cd packages/sdk && npx -y -p node@22 -c "../../node_modules/.bin/tsx test/bench/decodeReplay.ts \
 *     $PWD/src/internal/protocol/codec.ts"
 *
 * Prints the first (cold: each member's check compiled on first use) replay,
 * the best of 40 warm replays, `JSON.parse` alone over the same lines (the
 * floor both codecs share), and the difference (the checks).
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

const transcripts = Path.join(import.meta.dirname, "..", "fixtures", "transcripts")

interface Codec {
  readonly decodeStdoutLine: (line: string) => { readonly _tag: string }
}

const codec = (await import(process.argv[2]!)) as Codec
const lines: Array<string> = []
for (const file of Fs.readdirSync(transcripts).filter((name) => name.endsWith(".jsonl")).sort()) {
  for (const text of Fs.readFileSync(Path.join(transcripts, file), "utf8").split("\n")) {
    if (text.length === 0) continue
    const entry = JSON.parse(text) as { readonly dir: string; readonly msg?: unknown }
    if (entry.dir === "cli->sdk" && entry.msg !== undefined) lines.push(JSON.stringify(entry.msg))
  }
}

const replay = (): number => {
  let decoded = 0
  for (const line of lines) {
    const tag = codec.decodeStdoutLine(line)._tag
    if (tag === "Right" || tag === "Success") decoded++
  }
  return decoded
}

const best = (run: () => void, times: number): number => {
  let fastest = Infinity
  for (let i = 0; i < times; i++) {
    const start = performance.now()
    run()
    fastest = Math.min(fastest, performance.now() - start)
  }
  return fastest
}

const coldStart = performance.now()
const decoded = replay()
const cold = performance.now() - coldStart
best(replay, 5)
const warm = best(replay, 40)
const parse = best(() => lines.forEach((line) => JSON.parse(line)), 40)
console.log(JSON.stringify({
  lines: lines.length,
  decoded,
  chars: lines.reduce((sum, line) => sum + line.length, 0),
  coldReplayMs: Number(cold.toFixed(1)),
  warmReplayMs: Number(warm.toFixed(2)),
  jsonParseMs: Number(parse.toFixed(2)),
  checksMs: Number((warm - parse).toFixed(2))
}))
