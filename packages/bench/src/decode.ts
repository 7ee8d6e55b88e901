/**
 * Decode benchmark: every stdout (`cli->sdk`) line of the captured
 * transcripts, decoded repeatedly with `Protocol.decodeStdoutLine`, against
 * `JSON.parse` alone on the same lines.
 *
 * Run from the repository root:
 *
 * ```sh
 * npx tsx packages/bench/src/decode.ts [transcripts-dir] [--duration <ms>] [--json]
 * ```
 */
import { decodeStdoutLine } from "@claude-effect/sdk/Protocol"
import * as Result from "effect/Result"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

/**
 * @since 0.1.0
 * @category Models
 */
export interface DecodeBenchOptions {
  /** Where the `*.jsonl` transcripts are (default: `$CLAUDE_EFFECT_TRANSCRIPTS` or the repository's, in packages/sdk/test/fixtures/transcripts). */
  readonly transcriptsDir?: string | undefined
  /** How long to measure each side, in milliseconds (default 2000). */
  readonly durationMillis?: number | undefined
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface DecodeBenchResult {
  readonly transcripts: number
  readonly lines: number
  readonly bytes: number
  /** Lines skipped because the transcript stored them truncated (over 256 KiB). */
  readonly skipped: number
  readonly jsonParse: Throughput
  readonly decodeStdoutLine: Throughput
  /** `jsonParse.linesPerSecond / decodeStdoutLine.linesPerSecond`: the cost of decoding relative to parsing. */
  readonly ratio: number
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface Throughput {
  readonly linesPerSecond: number
  readonly megabytesPerSecond: number
}

// The transcripts the repository captured from the pinned CLI (packages/sdk/test/scripts/capture-transcripts.ts).
const defaultTranscriptsDir = Path.join(
  Path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "sdk",
  "test",
  "fixtures",
  "transcripts"
)

/**
 * Reads the stdout lines of every transcript in `dir`.
 *
 * @since 0.1.0
 * @category Loading
 */
export const loadStdoutLines = (dir: string): {
  readonly transcripts: number
  readonly lines: ReadonlyArray<string>
  readonly skipped: number
} => {
  const files = Fs.readdirSync(dir).filter((name) => name.endsWith(".jsonl")).sort()
  const lines: Array<string> = []
  let skipped = 0
  for (const file of files) {
    for (const entry of Fs.readFileSync(Path.join(dir, file), "utf8").split("\n")) {
      if (entry.length === 0) continue
      const record = JSON.parse(entry) as { readonly dir?: string; readonly msg?: unknown }
      if (record.dir !== "cli->sdk") continue
      if (!("msg" in record)) {
        skipped++
        continue
      }
      lines.push(JSON.stringify(record.msg))
    }
  }
  return { transcripts: files.length, lines, skipped }
}

// Runs `pass` over all lines until `durationMillis` have passed; returns lines/s.
const measure = (lines: ReadonlyArray<string>, durationMillis: number, pass: (line: string) => unknown): number => {
  let count = 0
  let sink = 0
  const start = performance.now()
  let elapsed = 0
  do {
    for (let i = 0; i < lines.length; i++) {
      if (pass(lines[i]) !== undefined) sink++
    }
    count += lines.length
    elapsed = performance.now() - start
  } while (elapsed < durationMillis)
  if (sink < 0) throw new Error("unreachable")
  return (count / elapsed) * 1000
}

const parseOnly = (line: string): unknown => JSON.parse(line)

const decodeOnly = (line: string): unknown => {
  const decoded = decodeStdoutLine(line)
  if (Result.isFailure(decoded)) throw decoded.failure
  return decoded.success
}

/**
 * Runs the benchmark. The two sides are measured alternately, several
 * rounds each, after a warm-up, to even out JIT and GC effects.
 *
 * @since 0.1.0
 * @category Benchmarks
 */
export const runDecodeBench = async (options: DecodeBenchOptions = {}): Promise<DecodeBenchResult> => {
  const dir = options.transcriptsDir ?? process.env.CLAUDE_EFFECT_TRANSCRIPTS ?? defaultTranscriptsDir
  const durationMillis = options.durationMillis ?? 2_000
  const { lines, skipped, transcripts } = loadStdoutLines(dir)
  if (lines.length === 0) throw new Error(`no cli->sdk lines found in ${dir}`)
  const bytes = lines.reduce((total, line) => total + Buffer.byteLength(line), 0)

  // Warm-up, which also checks that every line decodes.
  for (let i = 0; i < 3; i++) lines.forEach(decodeOnly)

  const rounds = 4
  const slice = durationMillis / rounds
  let parseRate = 0
  let decodeRate = 0
  for (let round = 0; round < rounds; round++) {
    await new Promise((resolve) => setImmediate(resolve))
    parseRate += measure(lines, slice, parseOnly) / rounds
    decodeRate += measure(lines, slice, decodeOnly) / rounds
  }
  const bytesPerLine = bytes / lines.length
  const throughput = (linesPerSecond: number): Throughput => ({
    linesPerSecond,
    megabytesPerSecond: (linesPerSecond * bytesPerLine) / 1e6
  })
  return {
    transcripts,
    lines: lines.length,
    bytes,
    skipped,
    jsonParse: throughput(parseRate),
    decodeStdoutLine: throughput(decodeRate),
    ratio: parseRate / decodeRate
  }
}

/**
 * Formats a result for the console.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const formatDecodeBench = (result: DecodeBenchResult): string => {
  const rate = (t: Throughput) =>
    `${Math.round(t.linesPerSecond).toLocaleString("en-US")} lines/s (${t.megabytesPerSecond.toFixed(1)} MB/s)`
  return [
    `decode: ${result.lines} stdout lines from ${result.transcripts} transcripts, ` +
    `${(result.bytes / 1e6).toFixed(1)} MB (${result.skipped} truncated lines skipped)`,
    `  JSON.parse        ${rate(result.jsonParse)}`,
    `  decodeStdoutLine  ${rate(result.decodeStdoutLine)}`,
    `  ratio             ${result.ratio.toFixed(2)}x`
  ].join("\n")
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(Path.resolve(process.argv[1])).href) {
  // [transcripts-dir] [--duration <ms>] [--json]
  const args = process.argv.slice(2)
  const flag = (name: string) => args.indexOf(name)
  const durationAt = flag("--duration")
  const positional = args.filter((arg, i) => !arg.startsWith("--") && (durationAt === -1 || i !== durationAt + 1))
  runDecodeBench({
    transcriptsDir: positional[0],
    durationMillis: durationAt !== -1 ? Number(args[durationAt + 1]) : undefined
  }).then(
    (result) => {
      console.log(flag("--json") !== -1 ? JSON.stringify(result) : formatDecodeBench(result))
    },
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    }
  )
}
