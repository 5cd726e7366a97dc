/**
 * A metric as data: what an edition names (`metric: kendall`) and everything downstream looks up by
 * that name instead of listing metrics by hand. A descriptor says what the metric reads (graded
 * scores or labels), how it is computed on aligned gold and run arrays, which direction is better,
 * how it is printed, how a missing dataset counts under the `zero` rule, and how it resamples
 * (`resampling`): per-pair statistics and the figure from their sums, or that it needs ranks. Any
 * metric so declared gets intervals and bootstrap tests, with no name of it anywhere else.
 *
 * Adding a metric is one file exporting its descriptor and one line in `Metrics.all`.
 *
 * @since 0.3.0
 */
import type { MetricValue } from "./MetricValue.js"

/**
 * What a metric reads: `scores` are graded values (`Float64Array`, gold first); `labels` are class
 * labels (SICK entailment, a triple task's "A" / "B").
 *
 * @since 0.3.0
 */
export type Kind = "scores" | "labels"

/**
 * How a value is printed: `correlation` in the edition's published style (`r3`: 3 decimals;
 * `r100`: r x 100 to 2 decimals), `percent` (an accuracy, already in percent) and `decimal` (an
 * error such as MSE, or an F1) to `decimals` places.
 *
 * @since 0.3.0
 */
export type Display =
  | { readonly style: "correlation" }
  | { readonly style: "percent"; readonly decimals: number }
  | { readonly style: "decimal"; readonly decimals: number }

/**
 * How significance resamples a metric that is a function of sums over pairs (Pearson, weighted
 * Pearson, CCC, MSE, accuracy, macro-F1): `statistics` numbers per pair, each pair's from its gold
 * and run values (label codes, indices into one table, for a metric of labels) and its confidence
 * (NaN when the run gives none), and the figure from their sums over any multiset of pairs (a
 * bootstrap resample: pair i counted w_i times). A resample then costs one weighted sum per
 * statistic, whatever the metric (as sacrebleu's per-segment statistics: `sacrebleu/metrics/base.py`
 * at commit 078c4401, `Metric._extract_corpus_statistics` and `Metric._compute_score_from_stats`).
 *
 * @since 0.5.0
 */
export interface Sums {
  readonly by: "sums"
  /** statistics per pair; `labels`: how many labels a metric of labels sees (0 for scores) */
  readonly statistics: (labels: number) => number
  /** pair's statistics into out[o ..]: gold and run values or label codes, its confidence (NaN: none) */
  readonly pair: (gold: number, run: number, confidence: number, out: Float64Array, o: number, labels: number) => void
  /** the figure from the statistics' sums at sums[o ..]; NaN when undefined on that multiset */
  readonly figure: (sums: Float64Array, o: number, labels: number) => number
  /**
   * `invariant` or `shifted` when the statistics are the moments [1, x, x^2, g, g^2, x g] of the
   * run's value x and the gold's g (`Moments.pair`), which significance's SIMD kernels sum on data
   * centred (and, when `invariant`, scaled) per dataset: an `invariant` figure (a correlation)
   * takes those sums as they are, a `shifted` one (CCC) the sums with the centres added back.
   * `correct` when they are [1, 1 if the labels agree] (accuracy's counts).
   */
  readonly shape?: "invariant" | "shifted" | "correct" | undefined
  /**
   * The figure does not change when the gold and the run shift by one amount (a correlation, an
   * error): the statistics are then taken of both sides less a common centre (the first pair's
   * gold), which keeps their sums clear of cancellation on scores far from 0.
   */
  readonly centred?: boolean | undefined
}

/**
 * A metric of the ranks (Spearman, Kendall): `at`, the figure over an index multiset (a resample,
 * duplicates allowed), NaN when undefined; `of`: when the figure is Pearson of the mid-ranks
 * (Spearman), significance's rank walks resample it without gathering.
 *
 * @since 0.5.0
 */
export interface Ranks {
  readonly by: "ranks"
  readonly of?: "pearson" | undefined
  readonly at: (gold: Float64Array, run: Float64Array, idx: Int32Array | Uint32Array, n: number) => number
}

/**
 * What a metric declares for resampling: its statistics (`Sums`) or that it needs ranks (`Ranks`).
 *
 * @since 0.5.0
 */
export type Resampling = Sums | Ranks

interface Common {
  /** the registry key an edition names, e.g. `pearson`, `kendall`, `mse` */
  readonly name: string
  /** for people: `Pearson`, `Kendall's tau-b` */
  readonly label: string
  /** the short symbol of table headers and plot axes: `r`, `rho`, `tau`, `MSE`, `accuracy (%)` (plain ASCII: it goes into Codabench column titles) */
  readonly symbol: string
  /** a sentence: what it is and where it comes from */
  readonly description: string
  /** which values are better: `higher` (correlations, accuracy) or `lower` (MSE) */
  readonly direction: "higher" | "lower"
  readonly display: Display
  /**
   * What a dataset the run did not submit counts as under the edition's `zero` rule (r = 0 for a
   * correlation, 0% for an accuracy); undefined when nothing is right (an MSE of 0 would be
   * perfect): an edition cannot rank such a metric under that rule.
   */
  readonly missingValue: number | undefined
  /** true for correlations: the `pooled` and `allnrm` aggregates are meaningful for it */
  readonly correlation: boolean
  /** how significance resamples it (intervals, bootstrap, randomisation) */
  readonly resampling: Resampling
  /**
   * What its percentile intervals do on few pairs, as measured (packages/significance/bench/coverage.py,
   * normal data), for the few-pairs note; undefined for a metric not measured.
   */
  readonly fewPairsCoverage?: string | undefined
}

/**
 * A metric of graded scores. `compute(gold, run, confidence)` gives the figure or why there is
 * none.
 *
 * @since 0.3.0
 */
export interface ScoresMetric extends Common {
  readonly kind: "scores"
  /** the metric weighs pairs by the run's confidences (STS 2013-2014): no figure without them */
  readonly needsConfidence?: boolean | undefined
  readonly compute: (gold: Float64Array, run: Float64Array, confidence?: Float64Array) => MetricValue
}

/**
 * A metric of labels. `compute(gold, run, labels)` takes the labels as strings, `labels` fixing
 * the label set and order when known; its `resampling` statistics take them as codes (indices
 * into one label table shared by the gold and the run), as resampling encodes them once.
 *
 * @since 0.3.0
 */
export interface LabelsMetric extends Common {
  readonly kind: "labels"
  readonly compute: (gold: ReadonlyArray<string>, run: ReadonlyArray<string>, labels?: ReadonlyArray<string>) => MetricValue
}

/**
 * A metric descriptor: of scores or of labels.
 *
 * @since 0.3.0
 */
export type Metric = ScoresMetric | LabelsMetric

/**
 * True when `a` is a better value than `b` under the metric's direction.
 *
 * @example
 * ```ts
 * import { Metric, Metrics } from "@stseval/metrics"
 *
 * Metric.better(Metrics.getOrThrow("mse"), 0.3, 0.5) // true: a smaller MSE is better
 * Metric.better(Metrics.getOrThrow("pearson"), 0.3, 0.5) // false
 * ```
 * @since 0.3.0
 */
export const better = (metric: Pick<Common, "direction">, a: number, b: number): boolean => (metric.direction === "higher" ? a > b : a < b)

/**
 * Orders two values best first under the metric's direction (a comparator for `Array.sort`).
 *
 * @example
 * ```ts
 * import { Metric, Metrics } from "@stseval/metrics"
 *
 * const mses = [0.75, 0.32, 2.29].sort(Metric.compareBestFirst(Metrics.getOrThrow("mse"))) // [0.32, 0.75, 2.29]
 * ```
 * @since 0.3.0
 */
export const compareBestFirst =
  (metric: Pick<Common, "direction">) =>
  (a: number, b: number): number =>
    metric.direction === "higher" ? b - a : a - b

/**
 * True when the metric weighs pairs by the run's confidences, so it has no figure without them.
 *
 * @example
 * ```ts
 * import { Metric, Metrics } from "@stseval/metrics"
 *
 * Metric.needsConfidence(Metrics.getOrThrow("weighted-pearson")) // true: STS 2013-2014's confidence-weighted r
 * Metric.needsConfidence(Metrics.getOrThrow("pearson")) // false
 * ```
 * @since 0.3.0
 */
export const needsConfidence = (metric: Metric): boolean => metric.kind === "scores" && metric.needsConfidence === true

/**
 * The figure over the pairs `idx[0..n)` (a resample: duplicates allowed), NaN when undefined, from
 * what the metric declares: the sums of its statistics, or its ranks' `at`. Scores as numbers, a
 * metric of labels' as codes (`labels`: how many codes the table has); `confidence` per pair, when
 * the run gives it. `scratch` (at least twice its statistics long) saves an allocation per call in
 * a resampling loop.
 *
 * @example
 * ```ts
 * import { Metric, Metrics } from "@stseval/metrics"
 *
 * const gold = new Float64Array([1, 3, 4, 2, 5])
 * const run = new Float64Array([1, 2, 4, 3, 4.5])
 * // pairs 0, 0, 2, 4: squared errors 0, 0, 0, 0.25
 * Metric.figureAt(Metrics.getOrThrow("mse"), gold, run, new Int32Array([0, 0, 2, 4]), 4) // 0.0625
 * ```
 * @since 0.5.0
 */
export const figureAt = (
  metric: Metric,
  gold: Float64Array | Int32Array,
  run: Float64Array | Int32Array,
  idx: Int32Array | Uint32Array,
  n: number,
  confidence?: Float64Array,
  labels = 0,
  scratch?: Float64Array
): number => {
  const r = metric.resampling
  if (r.by === "ranks") return r.at(gold as Float64Array, run as Float64Array, idx, n)
  const S = r.statistics(labels)
  const sums = scratch !== undefined && scratch.length >= 2 * S ? scratch.fill(0, 0, S) : new Float64Array(2 * S)
  const c = r.centred === true && n > 0 ? gold[idx[0]] : 0
  for (let q = 0; q < n; q++) {
    const i = idx[q]
    r.pair(gold[i] - c, run[i] - c, confidence === undefined ? Number.NaN : confidence[i], sums, S, labels)
    for (let j = 0; j < S; j++) sums[j] += sums[S + j]
  }
  return r.figure(sums, 0, labels)
}
