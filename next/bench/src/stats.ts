/**
 * Small statistics helpers for the benchmark tables.
 *
 * @since 0.1.0
 */

/**
 * The median of the finite values, or `NaN` when there are none.
 *
 * @since 0.1.0
 * @category Statistics
 */
export const median = (values: ReadonlyArray<number>): number => percentile(values, 50)

/**
 * The `p`-th percentile (nearest rank on the sorted values, linear between
 * ranks), or `NaN` when there are no finite values.
 *
 * @since 0.1.0
 * @category Statistics
 */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const rank = (p / 100) * (sorted.length - 1)
  const low = Math.floor(rank)
  const high = Math.ceil(rank)
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low)
}

/**
 * Formats a number for a table cell: 3 significant digits below 100, whole
 * numbers with thousands separators above.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const formatNumber = (value: number): string => {
  if (!Number.isFinite(value)) return "–"
  const magnitude = Math.abs(value)
  if (magnitude >= 100) return Math.round(value).toLocaleString("en-US")
  if (magnitude >= 10) return value.toFixed(1)
  if (magnitude >= 1) return value.toFixed(2)
  return value.toFixed(3)
}

/**
 * Formats a ratio as `1.23×`.
 *
 * @since 0.1.0
 * @category Formatting
 */
export const formatRatio = (value: number): string => Number.isFinite(value) ? `${value.toFixed(2)}×` : "–"
