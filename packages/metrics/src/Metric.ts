/**
 * A metric as data: what an edition names (`metric: kendall`) and everything downstream looks up by
 * that name instead of listing metrics by hand. A descriptor says what the metric reads (graded
 * scores or labels), how it is computed on aligned gold and run arrays, which direction is better,
 * how it is printed, how a missing dataset counts under the `zero` rule, and what resampling needs:
 * the figure over an index multiset (`at`, which every metric has, so any metric gets intervals and
 * bootstrap tests), and, where significance has a dedicated kernel for it (Pearson's sums,
 * Spearman's rank walks, accuracy's counts), that kernel's name.
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
 * @example
 * ```ts
 * import { Metric, Metrics } from "@stseval/metrics"
 *
 * const kind: Metric.Kind = Metrics.getOrThrow("accuracy").kind // "labels"
 * ```
 * @since 0.3.0
 */
export type Kind = "scores" | "labels"

/**
 * How a value is printed: `correlation` in the edition's published style (`r3`: 3 decimals;
 * `r100`: r x 100 to 2 decimals), `percent` (an accuracy, already in percent) and `decimal` (an
 * error such as MSE, or an F1) to `decimals` places.
 *
 * @example
 * ```ts
 * import { Metric, Metrics } from "@stseval/metrics"
 *
 * const display: Metric.Display = Metrics.getOrThrow("mse").display // { style: "decimal", decimals: 3 }
 * ```
 * @since 0.3.0
 */
export type Display =
  | { readonly style: "correlation" }
  | { readonly style: "percent"; readonly decimals: number }
  | { readonly style: "decimal"; readonly decimals: number }

/**
 * Significance's dedicated resampling kernels (WebAssembly SIMD, threads): a metric that names one
 * is resampled by it; every other metric by its `at` function, once per run and resample.
 *
 * @example
 * ```ts
 * import { Metric, Metrics } from "@stseval/metrics"
 *
 * const kernel: Metric.Kernel | undefined = Metrics.getOrThrow("spearman").kernel // "spearman"
 * ```
 * @since 0.3.0
 */
export type Kernel = "pearson" | "spearman" | "accuracy"

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
  /** the dedicated resampling kernel of significance, when there is one */
  readonly kernel?: Kernel | undefined
}

/**
 * A metric of graded scores. `compute(gold, run, confidence)` gives the figure or why there is
 * none; `at(gold, run, idx, n, confidence)` the figure over the pairs `idx[0..n)` (a resample,
 * duplicates allowed), NaN when undefined, allocating as little as it can.
 *
 * @example
 * ```ts
 * import { Metric, Metrics } from "@stseval/metrics"
 *
 * const m = Metrics.getOrThrow("pearson")
 * if (m.kind === "scores") {
 *   const scores: Metric.ScoresMetric = m
 *   scores.at(new Float64Array([1, 3, 4, 2]), new Float64Array([1, 2, 4, 3]), new Int32Array([0, 1, 2, 3]), 4) // 0.8
 * }
 * ```
 * @since 0.3.0
 */
export interface ScoresMetric extends Common {
  readonly kind: "scores"
  /** the metric weighs pairs by the run's confidences (STS 2013-2014): no figure without them */
  readonly needsConfidence?: boolean | undefined
  readonly compute: (gold: Float64Array, run: Float64Array, confidence?: Float64Array) => MetricValue
  readonly at: (gold: Float64Array, run: Float64Array, idx: Int32Array | Uint32Array, n: number, confidence?: Float64Array) => number
}

/**
 * A metric of labels. `compute(gold, run, labels)` takes the labels as strings, `labels` fixing
 * the label set and order when known; `at` takes them as codes (indices into one label table
 * shared by the gold and the run), as resampling encodes them once.
 *
 * @example
 * ```ts
 * import { Metric, Metrics } from "@stseval/metrics"
 *
 * const m = Metrics.getOrThrow("accuracy")
 * if (m.kind === "labels") {
 *   const labels: Metric.LabelsMetric = m
 *   labels.compute(["A", "B"], ["A", "A"]) // defined(50)
 * }
 * ```
 * @since 0.3.0
 */
export interface LabelsMetric extends Common {
  readonly kind: "labels"
  readonly compute: (gold: ReadonlyArray<string>, run: ReadonlyArray<string>, labels?: ReadonlyArray<string>) => MetricValue
  readonly at: (gold: Int32Array, run: Int32Array, idx: Int32Array | Uint32Array, n: number) => number
}

/**
 * @example
 * ```ts
 * import { Metric, Metrics } from "@stseval/metrics"
 *
 * const describe = (m: Metric.Metric): string => `${m.label} (${m.symbol}), ${m.direction} is better`
 * describe(Metrics.getOrThrow("mse")) // "MSE (MSE), lower is better"
 * ```
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
