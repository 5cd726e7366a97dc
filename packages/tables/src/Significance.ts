/**
 * Significance marks for tables: on each dataset, the runs not significantly different from the
 * best run (the papers' bold), with the p-value matrix between all runs for the HTML heat map.
 * STS 2017 used Williams' t (two dependent correlations sharing the gold, after cocor) at
 * alpha = 0.05; any analytic or resampling test of `@stseval/significance` can be chosen.
 *
 * @since 0.1.0
 */
import { Pearson } from "@stseval/metrics"
import { Cluster, Compare, TestResult } from "@stseval/significance"
import type { DatasetSignificance, Results } from "./Results.js"

/**
 * @example
 * ```ts
 * import { Significance } from "@stseval/tables"
 *
 * const options: Significance.Options = { test: "steiger1980", alpha: 0.01, matrix: true }
 * ```
 * @since 0.1.0
 */
export interface Options {
  /** default `Compare.defaultTest` (Williams' t, as STS 2017) */
  readonly test?: Compare.TestName
  /** default 0.05 */
  readonly alpha?: number
  /**
   * compare every pair (for the heat map) among the best `matrixRuns` runs, not only each run
   * with the best; default false
   */
  readonly matrix?: boolean
  /** runs in the p-value matrix, best first (default {@link MATRIX_MAX_RUNS}) */
  readonly matrixRuns?: number
  /** only these runs (default: every run with scores on the dataset) */
  readonly runIds?: ReadonlyArray<string>
  /** only these datasets (`compute`; default: every dataset with gold) */
  readonly datasets?: ReadonlyArray<string>
  /** resampling tests only */
  readonly resamples?: number
  readonly seed?: number
}

/**
 * The most runs a p-value matrix holds (the best by Pearson r). The matrix grows with runs squared:
 * 2,000 runs made 4 million comparisons, 190 s and a 521 MB page no browser loads; the papers
 * discuss the top of the table, and every run is still compared with the best for the bold.
 *
 * @example
 * ```ts
 * import { Significance } from "@stseval/tables"
 *
 * // a heat map of 200 runs would be 40,000 cells: the best 50 are shown
 * const shown: number = Significance.MATRIX_MAX_RUNS
 * ```
 * @since 0.2.0
 */
export const MATRIX_MAX_RUNS = 50

/**
 * Printed names of the tests, for footnotes.
 *
 * @example
 * ```ts
 * import { Significance } from "@stseval/tables"
 *
 * Significance.testLabel("williams1959") // "Williams' t"
 * ```
 * @since 0.1.0
 */
export const testLabel = (test: string): string =>
  (
    ({
      williams1959: "Williams' t",
      steiger1980: "Steiger's z",
      meng1992: "Meng, Rosenthal and Rubin's z",
      hittner2003: "Hittner, May and Silver's z",
      hotelling1940: "Hotelling's t",
      pearson1898: "Pearson and Filon's z",
      olkin1967: "Olkin's z",
      dunn1969: "Dunn and Clark's z",
      hendrickson1970: "Hendrickson, Stanley and Hills' t",
      zou2007: "Zou's confidence interval",
      bootstrap: "paired bootstrap",
      permutation: "approximate randomisation"
    }) as Record<string, string>
  )[test] ?? test

/**
 * Significance on one dataset's gold for the given runs (id -> scores aligned with the gold).
 * The best run is the one with the highest Pearson r against the gold; the runs tied with it are
 * the significance package's `Cluster.best` over the p-values of `Compare.two`. A comparison the
 * test cannot make because the two runs are identical up to a linear map (r(A, B) = 1) counts as
 * "not different" (p = 1); any other invalid comparison is listed in `failed` and not marked.
 *
 * @example
 * ```ts
 * import { Significance } from "@stseval/tables"
 *
 * const gold = Float64Array.from({ length: 40 }, (_, i) => (i * 7) % 11)
 * const runs = [
 *   { id: "A", scores: Float64Array.from(gold, (g, i) => g + ((i * 3) % 5) - 2) },
 *   { id: "B", scores: Float64Array.from(gold, (g, i) => g + ((i * 5) % 9) - 4) }
 * ]
 * const sig = Significance.forDataset(gold, runs) // best: A; tied: the runs Williams' t cannot tell from A
 * ```
 * @since 0.1.0
 */
export const forDataset = (
  gold: Float64Array,
  runs: ReadonlyArray<{ readonly id: string; readonly scores: Float64Array }>,
  options: Options = {}
): DatasetSignificance | undefined => {
  const test = options.test ?? Compare.defaultTest
  const alpha = options.alpha ?? 0.05
  const usable = runs
    .filter((r) => r.scores.length === gold.length)
    .map((r) => ({ ...r, r: Pearson.pearsonRaw(gold, r.scores) }))
    .filter((r) => Number.isFinite(r.r))
    .sort((a, b) => b.r - a.r || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  if (usable.length === 0) return undefined
  const k = usable.length
  // the matrix covers the best `m` runs; row 0 (each run against the best) covers all k
  const m = options.matrix === true ? Math.max(1, Math.min(k, options.matrixRuns ?? MATRIX_MAX_RUNS)) : 0
  const p: Array<Array<number>> = Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => (i === j ? 1 : Number.NaN)))
  const failed: Array<{ id: string; reason: string }> = []
  const comparisons: Array<{ a: number; b: number; pValue: number }> = []
  const compare = (i: number, j: number) => {
    const a = usable[i].scores
    const b = usable[j].scores
    let pv: number
    // cocor's statistics are 0/0 for r(A, B) = 1: no difference to test
    if (Pearson.pearsonRaw(b, a) >= 1 - 1e-12) pv = 1
    else {
      const c = Compare.two(gold, a, b, {
        test,
        ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {})
      })
      if (TestResult.isInvalid(c)) {
        pv = Number.NaN
        if (i === 0) failed.push({ id: usable[j].id, reason: c.message })
      } else if (c.pValue !== undefined) pv = c.pValue
      else pv = c.ci !== undefined && (c.ci[0] > 0 || c.ci[1] < 0) ? 0 : 1 // zou2007: interval only
    }
    if (i < m && j < m) {
      p[i][j] = pv
      p[j][i] = pv
    }
    // a comparison that could not be made is not a tie: it counts as different (not bold)
    comparisons.push({ a: i, b: j, pValue: Number.isNaN(pv) ? 0 : pv })
  }
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) if (i === 0 || j < m) compare(i, j)
  }
  const tied = Cluster.best(k, Cluster.fromComparisons(k, comparisons), alpha).map((i) => usable[i].id)
  return {
    test,
    alpha,
    best: usable[0].id,
    tied,
    ...(failed.length > 0 ? { failed } : {}),
    ...(options.matrix === true ? { matrix: { runs: usable.slice(0, m).map((r) => r.id), p, ...(m < k ? { total: k } : {}) } } : {})
  }
}

/**
 * Significance on every dataset that has gold scores and at least one run with scores on it.
 *
 * @example
 * ```ts
 * import { Results, Significance } from "@stseval/tables"
 *
 * declare const results: Results.Results // with each dataset's gold and each run's scores
 * const byDataset = Significance.compute(results, { alpha: 0.05 })
 * ```
 * @since 0.1.0
 */
export const compute = (results: Results, options: Options = {}): Record<string, DatasetSignificance> => {
  const out: Record<string, DatasetSignificance> = {}
  const keep = options.runIds !== undefined ? new Set(options.runIds) : undefined
  for (const d of results.datasets) {
    if (d.gold === undefined || (options.datasets !== undefined && !options.datasets.includes(d.name))) continue
    const runs = results.runs
      .filter((r) => keep === undefined || keep.has(r.id))
      .flatMap((r) => {
        const s = r.scores?.[d.name]
        return s !== undefined ? [{ id: r.id, scores: s }] : []
      })
    const sig = forDataset(d.gold, runs, options)
    if (sig !== undefined) out[d.name] = sig
  }
  return out
}
