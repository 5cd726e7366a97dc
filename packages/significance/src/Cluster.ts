/**
 * Grouping ranked runs by pairwise significance, for tables.
 *
 * Runs are identified by rank position 0 .. k-1 (0 = best by the ranking metric); `p(i, j)` is the
 * (two-sided, possibly Holm-adjusted) p-value of the comparison of the runs at positions i and j.
 * "Different" means p <= alpha.
 *
 * - `best`: the runs not significantly different from the best (the papers' bold; STS 2017 used
 *   Williams' t with alpha = 0.05).
 * - `rankRanges`: for each run, the contiguous range of positions around it whose runs are not
 *   significantly different from it (grown outwards from the run, stopping at the first run that
 *   is); a run can be reported as "rank lo+1 - hi+1".
 * - `groups`: a partition of the ranking into contiguous groups of mutually indistinguishable runs,
 *   built greedily from the top: a run joins the current group if it is not significantly
 *   different from every run already in it, else it starts a new group. Groups are numbered 0, 1, ...
 *
 * @since 0.1.0
 */

/**
 * The p-value of the comparison of the runs at rank positions i and j (two-sided, possibly
 * Holm-adjusted), as the grouping reads it.
 *
 * @since 0.1.0
 */
export type PValue = (i: number, j: number) => number

const different = (p: number, alpha: number): boolean => p <= alpha

/**
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
  for (let i = 0; i < k; i++) if (i === 0 || !different(p(0, i), alpha)) out.push(i)
  return out
}

/**
 * @example
 * ```ts
 * import { Cluster } from "@stseval/significance"
 *
 * const p: Cluster.PValue = (i, j) => (i === j ? 1 : i + j === 1 ? 0.4 : 0.001)
 * Cluster.rankRanges(3, p) // [{ lo: 0, hi: 1 }, { lo: 0, hi: 1 }, { lo: 2, hi: 2 }]: the (0-based) ranks each run could take
 * ```
 * @since 0.1.0
 */
export const rankRanges = (
  k: number,
  p: PValue,
  alpha = 0.05
): Array<{ readonly lo: number; readonly hi: number }> => {
  const out: Array<{ lo: number; hi: number }> = []
  for (let i = 0; i < k; i++) {
    let lo = i
    while (lo > 0 && !different(p(i, lo - 1), alpha)) lo--
    let hi = i
    while (hi + 1 < k && !different(p(i, hi + 1), alpha)) hi++
    out.push({ lo, hi })
  }
  return out
}

/**
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
  let group = 0
  let first = 0
  for (let i = 0; i < k; i++) {
    let joins = i > 0
    for (let j = first; j < i && joins; j++) if (different(p(j, i), alpha)) joins = false
    if (i > 0 && !joins) {
      group++
      first = i
    }
    out.push(group)
  }
  return out
}

/**
 * A symmetric p-value lookup from a list of comparisons between positions (missing pairs: 1,
 * same run: 1).
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
