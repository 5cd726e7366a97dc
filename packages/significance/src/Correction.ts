/**
 * Multiple-comparison corrections of p-values (as R's `p.adjust`); NaN stays NaN, not counted in m.
 *
 * @since 0.1.0
 */
import { firstAtLeast } from "./internal/search.js"

/**
 * Bonferroni: min(1, m p).
 *
 * @example
 * ```ts
 * import { Correction } from "@stseval/significance"
 *
 * Correction.bonferroni([0.01, 0.04, 0.5]) // [0.03, 0.12, 1]
 * ```
 * @since 0.1.0
 */
export const bonferroni = (p: ReadonlyArray<number>): Array<number> => {
  const m = p.filter((v) => !Number.isNaN(v)).length
  return p.map((v) => (Number.isNaN(v) ? v : Math.min(1, m * v)))
}

/**
 * Holm's step-down: with p sorted ascending, p_(i) adjusted = max over j <= i of min(1, (m - j + 1) p_(j)).
 *
 * @example
 * ```ts
 * import { Correction } from "@stseval/significance"
 *
 * Correction.holm([0.01, 0.04, 0.03]) // [0.03, 0.06, 0.06]
 * ```
 * @since 0.1.0
 */
export const holm = (p: ReadonlyArray<number>): Array<number> => {
  // Sorted as a typed array, without a comparator; a tie takes the value at its first rank, where
  // (m - j) p is largest and the running maximum keeps it.
  const sorted = Float64Array.from(p.filter((v) => !Number.isNaN(v))).sort()
  const m = sorted.length
  const adjusted = new Float64Array(m)
  let running = 0
  for (let j = 0; j < m; j++) adjusted[j] = running = Math.max(running, Math.min(1, (m - j) * sorted[j]))
  return p.map((v) => (Number.isNaN(v) ? v : adjusted[firstAtLeast(sorted, v, m)]))
}
