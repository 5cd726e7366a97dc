/**
 * Comparing runs over a task's datasets (tracks): one dataset is one correlation, compared with
 * the default analytic test; several datasets are joined into the flat arrays and strata the
 * resampling tests take, combined the way the task's official figure combines them.
 *
 * @since 0.2.0
 */
import type { Metric } from "@stseval/metrics"
import * as Compare from "./Compare.js"
import type { Outcome } from "./TestResult.js"
import { InvalidInput } from "./TestResult.js"

/** How per-dataset correlations become one figure: weighted / unweighted mean, or all pairs pooled. @since 0.2.0 */
export type Aggregate = "weighted" | "unweighted" | "pooled"

/**
 * The test when none is named (`Compare.defaultTestFor`): for Pearson (the default metric) on one
 * dataset `Compare.defaultTest` (Williams' t); the paired bootstrap, stratified by dataset, on an
 * aggregate of several, and for any other metric (Spearman, Kendall, MSE...).
 *
 * @example
 * Datasets.defaultTest(1) // "williams1959"
 * Datasets.defaultTest(1, "spearman") // "bootstrap"
 * @since 0.2.0
 */
export const defaultTest = (datasets: number, metric: string | Metric.Metric = "pearson"): Compare.TestName =>
  Compare.defaultTestFor(metric, datasets)

/** @since 0.2.0 */
export interface Joined {
  readonly gold: Float64Array
  readonly runs: ReadonlyArray<Float64Array>
  /** the dataset of each pair, unless pooled (or one dataset) */
  readonly strata?: Int32Array
  readonly aggregate?: "weighted" | "unweighted"
}

/**
 * One dataset as it is; several joined (`Compare.concatDatasets`) with the aggregate: stratified
 * by dataset for a weighted or unweighted mean, all pairs as one for `pooled`. Every dataset must
 * list the same runs in the same order.
 *
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
