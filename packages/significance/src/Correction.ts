/**
 * Multiple-comparison corrections of p-values (as R's `p.adjust`); NaN stays NaN, not counted in m.
 *
 * @since 0.1.0
 */
import { ascendingOrder } from "./internal/search.js"

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
export const bonferroni = (p: ArrayLike<number>): Array<number> => {
  const values = Array.from(p)
  const m = values.filter((v) => !Number.isNaN(v)).length
  return values.map((v) => (Number.isNaN(v) ? v : Math.min(1, m * v)))
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
export const holm = (p: ArrayLike<number>): Array<number> => {
  // One sorted pass: the p-values' order taken once (one native sort of their bits, ties by index),
  // adjusted by a running max in that order, written back in place; no search per p-value. A tie
  // takes the value at its first rank: (m - j) p is largest there and the running max keeps it.
  const values = new Float64Array(p.length)
  const at = new Uint32Array(p.length)
  let m = 0
  let negative = false
  for (let i = 0; i < p.length; i++) {
    const v = p[i]
    if (Number.isNaN(v)) continue
    // + 0: -0 as 0, whose bits order first
    values[m] = v + 0
    at[m++] = i
    if (v < 0) negative = true
  }
  const order = negative ? Uint32Array.from({ length: m }, (_, j) => j).sort((x, y) => values[x] - values[y] || x - y) : ascendingOrder(values, m)
  const adjusted = Array.from(p)
  let running = 0
  for (let j = 0; j < m; j++) {
    const k = order[j]
    adjusted[at[k]] = running = Math.max(running, Math.min(1, (m - j) * values[k]))
  }
  return adjusted
}
