/**
 * Summarizes a V8 CPU profile (`node --cpu-prof`) of a worker: the functions
 * with the most self time and the most inclusive time, each located in its
 * source file. The worker bundle keeps esbuild's `// path/to/file.ts` markers,
 * so a bundle line maps back to the file it came from.
 *
 * ```sh
 * npx tsx next/bench/src/profile.ts <file.cpuprofile> [top]
 * ```
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

interface ProfileNode {
  readonly id: number
  readonly callFrame: {
    readonly functionName: string
    readonly url: string
    readonly lineNumber: number
    readonly columnNumber: number
  }
  readonly children?: ReadonlyArray<number>
}

interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
  readonly startTime: number
  readonly endTime: number
}

/**
 * @since 0.1.0
 * @category Models
 */
export interface ProfileEntry {
  readonly name: string
  readonly location: string
  readonly selfMillis: number
  readonly totalMillis: number
}

const sourceMarkers = new Map<string, Array<{ readonly line: number; readonly file: string }>>()

// esbuild writes "// ../../sdk/src/ControlRouter.ts" before each module's code in a bundle.
const markersOf = (url: string) => {
  let markers = sourceMarkers.get(url)
  if (markers !== undefined) return markers
  markers = []
  try {
    const lines = Fs.readFileSync(fileURLToPath(url), "utf8").split("\n")
    lines.forEach((text, index) => {
      const match = /^\/\/ ((?:\.\.\/|[\w@]).*\.(?:ts|js|mjs))$/.exec(text)
      if (match) markers!.push({ line: index, file: match[1] })
    })
  } catch {
    // not a file
  }
  sourceMarkers.set(url, markers)
  return markers
}

/**
 * The source file of a line of a worker bundle (0-based `lineNumber`), by the bundle's source markers, as
 * `file:line`; a URL that is not a file is returned as it is.
 *
 * @since 0.1.0
 * @category Profiles
 */
export const locateLine = (url: string, lineNumber: number): string => {
  if (!url.startsWith("file://")) return url || "(native)"
  const markers = markersOf(url)
  let file = Path.basename(fileURLToPath(url))
  for (const marker of markers) {
    if (marker.line > lineNumber) break
    file = marker.file.replace(/^(\.\.\/)+/, "")
  }
  const nodeModules = file.lastIndexOf("node_modules/")
  if (nodeModules !== -1) file = file.slice(nodeModules + "node_modules/".length)
  return `${file}:${lineNumber + 1}`
}

const locate = (frame: ProfileNode["callFrame"]): string => locateLine(frame.url, frame.lineNumber)

/**
 * The top functions of a profile by self time and by inclusive time.
 *
 * @since 0.1.0
 * @category Profiles
 */
export const summarize = (file: string, top = 25): {
  readonly totalMillis: number
  readonly bySelf: ReadonlyArray<ProfileEntry>
  readonly byTotal: ReadonlyArray<ProfileEntry>
  readonly byFile: ReadonlyArray<{ readonly file: string; readonly selfMillis: number }>
} => {
  const profile = JSON.parse(Fs.readFileSync(file, "utf8")) as Profile
  // The scenario's window, when the worker wrote one (worker.ts): samples outside it (the import) are left out.
  const window = Fs.existsSync(`${file}.window.json`)
    ? JSON.parse(Fs.readFileSync(`${file}.window.json`, "utf8")) as { startMicros: number; endMicros: number }
    : undefined
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<number, number>()
  let at = profile.startTime
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0
    if (window !== undefined && (at < window.startMicros || at > window.endMicros)) return
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  })
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const key = (node: ProfileNode) => `${node.callFrame.functionName || "(anonymous)"}\t${locate(node.callFrame)}`
  const selfBy = new Map<string, number>()
  const totalBy = new Map<string, number>()
  for (const [id, millis] of self) {
    const node = nodes.get(id)!
    selfBy.set(key(node), (selfBy.get(key(node)) ?? 0) + millis)
    // inclusive: count each distinct function once per sample stack
    const seen = new Set<string>()
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const k = key(nodes.get(current)!)
      if (seen.has(k)) continue
      seen.add(k)
      totalBy.set(k, (totalBy.get(k) ?? 0) + millis)
    }
  }
  const entries = (map: Map<string, number>, by: "self" | "total") =>
    Array.from(map, ([k, millis]) => {
      const [name, location] = k.split("\t")
      return {
        name,
        location,
        selfMillis: by === "self" ? millis : selfBy.get(k) ?? 0,
        totalMillis: by === "total" ? millis : totalBy.get(k) ?? 0
      }
    }).sort((a, b) => (by === "self" ? b.selfMillis - a.selfMillis : b.totalMillis - a.totalMillis)).slice(0, top)
  const fileSelf = new Map<string, number>()
  for (const [k, millis] of selfBy) {
    const location = k.split("\t")[1]
    const fileName = location.replace(/:\d+$/, "")
    fileSelf.set(fileName, (fileSelf.get(fileName) ?? 0) + millis)
  }
  return {
    totalMillis: window !== undefined
      ? (window.endMicros - window.startMicros) / 1000
      : (profile.endTime - profile.startTime) / 1000,
    bySelf: entries(selfBy, "self"),
    byTotal: entries(totalBy, "total"),
    byFile: Array.from(fileSelf, ([f, selfMillis]) => ({ file: f, selfMillis }))
      .sort((a, b) => b.selfMillis - a.selfMillis)
      .slice(0, top)
  }
}

/**
 * @since 0.1.0
 * @category Formatting
 */
export const formatSummary = (summary: ReturnType<typeof summarize>): string => {
  const row = (e: ProfileEntry) =>
    `${e.selfMillis.toFixed(1).padStart(9)} ${e.totalMillis.toFixed(1).padStart(9)}  ${e.name}  (${e.location})`
  return [
    `profile: ${summary.totalMillis.toFixed(0)} ms`,
    "by self time:      self     total  function (source)",
    ...summary.bySelf.map(row),
    "by inclusive time: self     total  function (source)",
    ...summary.byTotal.map(row),
    "self time by file:",
    ...summary.byFile.map((f) => `${f.selfMillis.toFixed(1).padStart(9)}  ${f.file}`)
  ].join("\n")
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(Path.resolve(process.argv[1])).href) {
  console.log(formatSummary(summarize(process.argv[2], Number(process.argv[3] ?? 25))))
}
