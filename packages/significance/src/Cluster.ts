/**
 * Grouping ranked runs by pairwise significance, for tables: runs are rank positions 0 .. k-1
 * (0 = best); "different" means p <= alpha (a NaN p is not different).
 *
 * @since 0.1.0
 */

/**
 * The p-value of the runs at rank positions i and j (two-sided, possibly Holm-adjusted).
 *
 * @since 0.1.0
 */
export type PValue = (i: number, j: number) => number

/**
 * The runs not significantly different from the best (the papers' bold).
 *
 * @example
 * ```ts
 * import { Cluster } from "@stseval/significance"
 *
 * const p: Cluster.PValue = (i, j) => (i === j ? 1 : i + j === 1 ? 0.4 : 0.001)
 * Cluster.best(3, p) // [0, 1]: run 0 (the best) and the runs not significantly different from it (bold)
 * ```
 * @since 0.1.0
 */
export const best = (k: number, p: PValue, alpha = 0.05): Array<number> => {
  const out: Array<number> = []
  for (let i = 0; i < k; i++) if (i === 0 || !(p(0, i) <= alpha)) out.push(i)
  return out
}

/**
 * Per run, the contiguous positions around it not significantly different from it, grown outwards
 * up to the first that is.
 *
 * @example
 * ```ts
 * import { Cluster } from "@stseval/significance"
 *
 * const p: Cluster.PValue = (i, j) => (i === j ? 1 : i + j === 1 ? 0.4 : 0.001)
 * Cluster.rankRanges(3, p) // [{ lo: 0, hi: 1 }, { lo: 0, hi: 1 }, { lo: 2, hi: 2 }]: the (0-based) ranks each run could take
 * ```
 * @since 0.1.0
 */
export const rankRanges = (k: number, p: PValue, alpha = 0.05): Array<{ readonly lo: number; readonly hi: number }> => {
  const out: Array<{ lo: number; hi: number }> = []
  for (let i = 0; i < k; i++) {
    let lo = i
    while (lo > 0 && !(p(i, lo - 1) <= alpha)) lo--
    let hi = i
    while (hi + 1 < k && !(p(i, hi + 1) <= alpha)) hi++
    out.push({ lo, hi })
  }
  return out
}

/**
 * Contiguous groups of mutually indistinguishable runs, greedily from the top: a run joins the
 * current group if it differs from none of its runs.
 *
 * @example
 * ```ts
 * import { Cluster } from "@stseval/significance"
 *
 * const p: Cluster.PValue = (i, j) => (i === j ? 1 : i + j === 1 ? 0.4 : 0.001)
 * Cluster.groups(3, p) // a group number per run, in ranking order: runs 0 and 1 share one
 * ```
 * @since 0.1.0
 */
export const groups = (k: number, p: PValue, alpha = 0.05): Array<number> => {
  const out: Array<number> = []
  for (let i = 0, first = 0; i < k; i++) {
    // a run different from one of the group's opens the next group
    let j = first
    while (j < i && !(p(j, i) <= alpha)) j++
    if (j < i) first = i
    out.push(i === 0 ? 0 : out[i - 1] + +(first === i))
  }
  return out
}

/**
 * A symmetric p-value lookup from comparisons between positions (1 where there is none).
 *
 * @example
 * ```ts
 * import { Cluster } from "@stseval/significance"
 *
 * const p = Cluster.fromComparisons(3, [{ a: 0, b: 1, pValue: 0.4 }, { a: 0, b: 2, pValue: 0.001 }, { a: 1, b: 2, pValue: 0.002 }])
 * Cluster.best(3, p) // [0, 1]
 * ```
 * @since 0.1.0
 */
export const fromComparisons = (
  k: number,
  comparisons: ReadonlyArray<{ readonly a: number; readonly b: number; readonly pValue: number }>
): PValue => {
  const m = new Float64Array(k * k).fill(1)
  for (const c of comparisons) {
    m[c.a * k + c.b] = c.pValue
    m[c.b * k + c.a] = c.pValue
  }
  return (i, j) => m[i * k + j]
}
