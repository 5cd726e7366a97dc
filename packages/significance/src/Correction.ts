/**
 * Multiple-comparison corrections of p-values (as R's `p.adjust`). NaN p-values stay NaN and do
 * not count towards m.
 *
 * @since 0.1.0
 */

const finiteIndices = (p: ReadonlyArray<number>): Array<number> => {
  const out: Array<number> = []
  p.forEach((v, i) => {
    if (!Number.isNaN(v)) out.push(i)
  })
  return out
}

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
  const m = finiteIndices(p).length
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
  const idx = finiteIndices(p).sort((a, b) => p[a] - p[b])
  const m = idx.length
  const out = p.slice()
  let running = 0
  idx.forEach((i, j) => {
    running = Math.max(running, Math.min(1, (m - j) * p[i]))
    out[i] = running
  })
  return out
}
