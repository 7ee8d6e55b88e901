/**
 * Turns the outcomes of a run into the results table: medians over runs (or
 * percentiles over pooled samples), side by side for the three drivers, with
 * cost ratios per pair and a verdict against the targets (ours ≤ official,
 * ours within 2× of raw).
 *
 * @since 0.1.0
 */
import type { Sdk, WorkerResult } from "./jobs.js"
import { SDKS } from "./jobs.js"
import type { Outcome } from "./runner.js"
import { formatNumber, formatRatio, median, percentile } from "./stats.js"

/**
 * One line of the table.
 *
 * @since 0.1.0
 * @category Models
 */
export interface Line {
  readonly row: string
  readonly label: string
  /** `lower`: a time or a cost; `higher`: a rate; `check`: a pass count. */
  readonly better: "lower" | "higher" | "check"
  readonly values: Readonly<Partial<Record<Sdk, number>>>
  /** For `check` lines: runs that passed / runs. */
  readonly passes?: Readonly<Partial<Record<Sdk, readonly [number, number]>>> | undefined
  readonly note?: string | undefined
  /** `false` when raw is no floor for this measure (e.g. module import: raw imports nothing). */
  readonly rawIsFloor?: boolean | undefined
  /**
   * The line's own target (issue "Performance"), in place of the default (ours ≤ official within 5%, ours ≤ 2×
   * raw): ours/official cost ratio at most `ratio`, or ours at most official + `plus` (e.g. 10 MB of RSS), or ours
   * at most `atMost` whatever the others do (an absolute bound, e.g. 5 ms).
   */
  readonly target?: Target | undefined
}

/**
 * @since 0.1.0
 * @category Models
 */
export type Target = { readonly ratio: number } | { readonly plus: number } | { readonly atMost: number }

/**
 * The same line with a target.
 *
 * @since 0.1.0
 * @category Lines
 */
export const withTarget = (line: Line, target: Target): Line => ({ ...line, target })

/**
 * How a target reads in the table: `≤ 1.1×`, `≥ 1.0×` for a rate, `≤ official + 10`.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const describeTarget = (line: Line): string => {
  const target = line.target
  if (target === undefined) return ""
  if ("plus" in target) return `≤ official + ${target.plus}`
  if ("atMost" in target) return `≤ ${target.atMost}`
  return line.better === "higher" ? `≥ ${(1 / target.ratio).toFixed(2)}×` : `≤ ${target.ratio}×`
}

/**
 * @since 0.1.0
 * @category Models
 */
export type Outcomes = ReadonlyMap<string, ReadonlyArray<Outcome>>

const ok = (outcomes: ReadonlyArray<Outcome> | undefined, sdk: Sdk): Array<WorkerResult> =>
  (outcomes ?? []).filter((o) => o.sdk === sdk && o.result !== undefined).map((o) => o.result!)

/**
 * A line whose values are the median over runs of `pick(result)`.
 *
 * @since 0.1.0
 * @category Lines
 */
export const medianLine = (
  outcomes: Outcomes,
  key: string,
  row: string,
  label: string,
  better: "lower" | "higher",
  pick: (result: WorkerResult) => number,
  note?: string
): Line => ({
  row,
  label,
  better,
  values: Object.fromEntries(SDKS.map((sdk) => [sdk, median(ok(outcomes.get(key), sdk).map(pick))])),
  note
})

/**
 * A line whose values are the `p`-th percentile of the samples pooled over
 * all runs.
 *
 * @since 0.1.0
 * @category Lines
 */
export const pooledLine = (
  outcomes: Outcomes,
  key: string,
  row: string,
  label: string,
  p: number,
  pick: (outcome: Outcome) => ReadonlyArray<number> | undefined,
  note?: string
): Line => ({
  row,
  label,
  better: "lower",
  values: Object.fromEntries(SDKS.map((sdk) => [
    sdk,
    percentile(
      (outcomes.get(key) ?? []).filter((o) => o.sdk === sdk && o.result !== undefined).flatMap((o) => pick(o) ?? []),
      p
    )
  ])),
  note
})

/**
 * A line counting the runs where `pick(result)` held.
 *
 * @since 0.1.0
 * @category Lines
 */
export const checkLine = (
  outcomes: Outcomes,
  key: string,
  row: string,
  label: string,
  pick: (result: WorkerResult) => boolean | undefined
): Line => ({
  row,
  label,
  better: "check",
  values: {},
  passes: Object.fromEntries(SDKS.map((sdk) => {
    const results = ok(outcomes.get(key), sdk)
    return [sdk, [results.filter((r) => pick(r) === true).length, results.length] as const]
  }))
})

// A cost: bigger is worse, whatever the unit.
const cost = (line: Line, sdk: Sdk): number => {
  const value = line.values[sdk]
  if (value === undefined || !Number.isFinite(value)) return Number.NaN
  return line.better === "higher" ? 1 / value : value
}

/**
 * `cost(a) / cost(b)`: above 1 means `a` is slower, heavier or lower-rate.
 *
 * @since 0.1.0
 * @category Lines
 */
export const costRatio = (line: Line, a: Sdk, b: Sdk): number => {
  const ratio = cost(line, a) / cost(line, b)
  return Number.isFinite(ratio) ? ratio : Number.NaN
}

const verdict = (line: Line): string => {
  if (line.better === "check") {
    const [passed, total] = line.passes?.ours ?? [0, 0]
    return total > 0 && passed === total ? "✓" : "✗"
  }
  const vsOfficial = costRatio(line, "ours", "official")
  const vsRaw = costRatio(line, "ours", "raw")
  const target = line.target
  if (target !== undefined) {
    if ("atMost" in target) {
      const ours = line.values.ours
      return ours !== undefined && Number.isFinite(ours) && ours <= target.atMost ? "✓" : "✗"
    }
    if ("plus" in target) {
      const ours = line.values.ours
      const official = line.values.official
      if (ours === undefined || official === undefined || !Number.isFinite(ours) || !Number.isFinite(official)) {
        return "✗"
      }
      return ours <= official + target.plus ? "✓" : "✗"
    }
    return Number.isFinite(vsOfficial) && vsOfficial <= target.ratio ? "✓" : "✗"
  }
  if (!Number.isFinite(vsOfficial) && !Number.isFinite(vsRaw)) return ""
  const failsOfficial = Number.isFinite(vsOfficial) && vsOfficial > 1.05
  const failsRaw = line.rawIsFloor !== false && Number.isFinite(vsRaw) && vsRaw > 2
  const close = Number.isFinite(vsOfficial) && vsOfficial > 1 && vsOfficial <= 1.05
  return failsOfficial || failsRaw ? "✗" : close ? "≈" : "✓"
}

const cell = (line: Line, sdk: Sdk): string => {
  if (line.better === "check") {
    const pass = line.passes?.[sdk]
    return pass === undefined || pass[1] === 0 ? "–" : `${pass[0]}/${pass[1]}`
  }
  return formatNumber(line.values[sdk] ?? Number.NaN)
}

/**
 * The table in Markdown.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const markdownTable = (lines: ReadonlyArray<Line>): string => {
  const header = "| row | measure | ours | ours, effect 3 | official | raw | ours/official | ours/ours, effect 3 | " +
    "ours/raw | official/raw | target | met |"
  const rule = "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: | :---: |"
  const body = lines.map((line) => {
    const ratios = line.better === "check"
      ? ["", "", "", ""]
      : [
        formatRatio(costRatio(line, "ours", "official")),
        formatRatio(costRatio(line, "ours", "ours3")),
        formatRatio(costRatio(line, "ours", "raw")),
        formatRatio(costRatio(line, "official", "raw"))
      ]
    const label = line.label
    return `| ${line.row} | ${label} | ${cell(line, "ours")} | ${cell(line, "ours3")} | ${cell(line, "official")} | ${
      cell(line, "raw")
    } | ${ratios.join(" | ")} | ${
      line.target !== undefined ? describeTarget(line) : line.better === "check" ? "all pass" : "≤ official"
    } | ${verdict(line)} |`
  })
  return [header, rule, ...body].join("\n")
}

/**
 * The failures of a run, for the report.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const failures = (outcomes: Outcomes): Array<string> =>
  Array.from(outcomes).flatMap(([key, list]) =>
    list.filter((o) => o.error !== undefined).map((o) =>
      `${key} / ${o.sdk} / run ${o.run + 1}: ${o.error!.split("\n")[0]}`
    )
  )
