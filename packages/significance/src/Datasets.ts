/**
 * Several datasets (tracks) joined into the flat arrays and strata the resampling tests take.
 *
 * @since 0.2.0
 */
import * as Compare from "./Compare.js"
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
 * One dataset as it is; several joined, stratified for a mean, as one for `pooled`. Every dataset
 * lists the same runs in the same order.
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
  const j = Compare.concatDatasets(datasets)
  if (j instanceof InvalidInput) return j
  return aggregate === "pooled" ? { gold: j.gold, runs: j.runs } : { gold: j.gold, runs: j.runs, strata: j.strata, aggregate }
}
