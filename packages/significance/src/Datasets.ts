/**
 * Several datasets (tracks) joined into the flat arrays and strata the resampling tests take.
 *
 * @since 0.2.0
 */
import type { Outcome } from "./TestResult.js"
import { InvalidInput } from "./TestResult.js"

/**
 * How per-dataset figures become one: weighted or unweighted mean, or all pairs pooled.
 *
 * @since 0.2.0
 */
export type Aggregate = "weighted" | "unweighted" | "pooled"

/**
 * Several datasets' gold and runs as one, with each pair's dataset (the strata).
 *
 * @since 0.2.0
 */
export interface Joined {
  readonly gold: Float64Array
  readonly runs: ReadonlyArray<Float64Array>
  /** the dataset of each pair, unless pooled (or one dataset) */
  readonly strata?: Int32Array
  readonly aggregate?: "weighted" | "unweighted"
}

/**
 * One dataset as it is; several joined (dataset d's pairs are stratum d), stratified for a mean,
 * as one for `pooled`. Every dataset lists the same runs in the same order.
 *
 * @example
 * ```ts
 * import { Compare, Datasets, TestResult } from "@stseval/significance"
 *
 * // compare two runs on the weighted mean over two datasets: stratified resampling
 * const joined = Datasets.join(
 *   [
 *     { gold: new Float64Array([1, 2, 3, 4]), runs: [new Float64Array([1, 2, 4, 3]), new Float64Array([2, 1, 3, 4])] },
 *     { gold: new Float64Array([5, 1, 3]), runs: [new Float64Array([4, 1, 3]), new Float64Array([5, 2, 1])] }
 *   ],
 *   "weighted"
 * )
 * if (!TestResult.isInvalid(joined)) Compare.two(joined.gold, joined.runs[0], joined.runs[1], { test: Compare.testFor("pearson", 2), strata: joined.strata, aggregate: joined.aggregate })
 * ```
 * @since 0.2.0
 */
export const join = (
  datasets: ReadonlyArray<{ readonly gold: Float64Array; readonly runs: ReadonlyArray<Float64Array> }>,
  aggregate: Aggregate
): Outcome<Joined> => {
  if (datasets.length === 1) return { gold: datasets[0].gold, runs: datasets[0].runs }
  if (datasets.length === 0) return new InvalidInput({ field: "datasets", expected: "at least one dataset", found: "none" })
  const K = datasets[0].runs.length
  for (const [d, ds] of datasets.entries()) {
    if (ds.runs.length !== K) return new InvalidInput({ field: `datasets[${d}].runs`, expected: `${K} runs`, found: String(ds.runs.length) })
    const k = ds.runs.findIndex((r) => r.length !== ds.gold.length)
    if (k >= 0) return new InvalidInput({ field: `datasets[${d}].runs[${k}]`, expected: `${ds.gold.length} scores`, found: String(ds.runs[k].length) })
  }
  const n = datasets.reduce((sum, ds) => sum + ds.gold.length, 0)
  const gold = new Float64Array(n)
  const runs = Array.from({ length: K }, () => new Float64Array(n))
  const strata = new Int32Array(n)
  let at = 0
  datasets.forEach((ds, d) => {
    gold.set(ds.gold, at)
    ds.runs.forEach((r, k) => runs[k].set(r, at))
    strata.fill(d, at, at + ds.gold.length)
    at += ds.gold.length
  })
  return aggregate === "pooled" ? { gold, runs } : { gold, runs, strata, aggregate }
}
