// What Intervals.compute takes and gives (re-exported by Intervals).
import type { Metric as MetricDescriptor } from "@stseval/metrics"
import type * as Bootstrap from "../Bootstrap.js"

/**
 * The figure of one dataset: a registry name (`Metrics.names`) or a descriptor.
 *
 * @since 0.2.0
 */
export type Metric = string | MetricDescriptor.Metric

/**
 * How per-dataset figures become the official one (the registry's `aggregate`): `wmean` weighted by
 * scored pairs, `mean`, `pooled` over the concatenated datasets, `allnrm` pooled after a
 * least-squares fit of the run to the gold within each dataset, `single`.
 *
 * @since 0.2.0
 */
export type Rule = "wmean" | "mean" | "pooled" | "allnrm" | "single"

/**
 * Aggregates reported beside the official figure, over the datasets the run has.
 *
 * @since 0.2.0
 */
export type Labelled = "wmean" | "mean" | "pooled" | "allnrm"

/**
 * One dataset of the edition as `compute` resamples it.
 *
 * @since 0.2.0
 */
export interface Dataset {
  readonly name: string
  readonly metric: Metric
  /** Its weight when a run enters it as r = 0 under `zero`: its annotated gold pairs. Default: its scored pairs. */
  readonly weight?: number
}

/**
 * One run's scores on one dataset, aligned with the gold (the same for every run): numbers, or
 * label strings; `confidence` for `weighted-pearson`.
 *
 * @since 0.2.0
 */
export type Scores =
  | { readonly run: Float64Array; readonly gold: Float64Array; readonly confidence?: Float64Array | undefined }
  | { readonly run: ReadonlyArray<string>; readonly gold: ReadonlyArray<string> }

/**
 * One run as `compute` takes it.
 *
 * @since 0.2.0
 */
export interface Run {
  readonly id: string
  /** false: figures and intervals, but no rank. Default true. */
  readonly ranked?: boolean
  /** by dataset name; absent where the run has none */
  readonly scores: Readonly<Record<string, Scores | undefined>>
}

/**
 * What `compute` takes.
 *
 * @since 0.2.0
 */
export interface Input {
  readonly datasets: ReadonlyArray<Dataset>
  readonly runs: ReadonlyArray<Run>
  readonly official: Rule
  /** a dataset a run lacks: `zero` enters it as its metric's `missingValue` (refused for a metric without one under `wmean` or `mean`) */
  readonly missingDataset: "zero" | "no-official-score"
  readonly aggregates?: ReadonlyArray<Labelled>
}

/**
 * Options of `compute`: the bootstrap's seed, progress and threads, and these; the results do not
 * depend on the threads, and on the engine only to about 1e-12 relative (`engine`).
 *
 * @since 0.2.0
 */
export interface Options extends Pick<Bootstrap.Options, "seed" | "progress" | "threads"> {
  /** Default 0.95. */
  readonly level?: number
  /** Default 1,000. */
  readonly resamples?: number
  /**
   * `auto` (default): the WebAssembly SIMD kernels when available, else as `js`: every figure by its
   * metric's own definition over the drawn pairs (the same draws; the same figures to about 1e-12
   * relative, the same ranks; slower). `wasm` throws without WebAssembly SIMD.
   */
  readonly engine?: "auto" | "js" | "wasm"
}

/**
 * A confidence interval of a figure.
 *
 * @since 0.2.0
 */
export interface Interval extends RankInterval {
  readonly level: number
}

/**
 * One figure with its interval.
 *
 * @since 0.2.0
 */
export interface Figure {
  /** on the original pairs; undefined when it cannot be computed (`reason` says why) */
  readonly value: number | undefined
  /** undefined with no value, or too many undefined resamples (`reason`) */
  readonly ci: Interval | undefined
  readonly reason: string | undefined
  /** Resamples in which a correlation entering this figure was undefined; the edition's rule applied to them. */
  readonly degenerate: number
  /** resamples the interval was taken from */
  readonly used: number
  /** The pairs the figure rests on (its datasets'); every output marks fewer than `fewPairs`. */
  readonly pairs?: number | undefined
  /** A Pearson figure's largest |sample skewness| of the gold and the run, when above `skewLimit`. */
  readonly skewed?: number | undefined
}

/**
 * Interval of a rank, in whole ranks.
 *
 * @since 0.2.0
 */
export interface RankInterval {
  readonly low: number
  readonly high: number
}

/**
 * One run's figures with their intervals, and its rank with its interval, or why it has none.
 *
 * @since 0.2.0
 */
export interface RunIntervals {
  readonly id: string
  /** its figure on each dataset */
  readonly datasets: ReadonlyArray<Figure & { readonly dataset: string; readonly metric: string }>
  readonly aggregates: Readonly<Partial<Record<Labelled, Figure>>>
  readonly official: Figure
  /** competition rank on the original pairs (1, 2, 2, 4) */
  readonly rank: number | undefined
  readonly rankInterval: RankInterval | undefined
  readonly rankReason: string | undefined
  /** resamples where its official figure was undefined: ranked last in those */
  readonly rankDegenerate: number
  /** its rank interval overlaps a first-ranked run's */
  readonly overlapsBest: boolean
}

/**
 * Every setting that changes the numbers.
 *
 * @since 0.2.0
 */
export interface Signature {
  readonly method: "percentile-bootstrap"
  readonly resamples: number
  readonly seed: number
  readonly level: number
  readonly strata: "dataset" | "none"
  readonly quantile: "type7"
  readonly official: Rule
  readonly missing: "zero" | "no-official-score"
  readonly rng: "xoroshiro128plus"
  readonly version: string
  /** The datasets' metrics, each once, joined by `+`, when one is not Pearson, Spearman or accuracy (whose signatures predate it). */
  readonly metrics?: string
}

/**
 * What `compute` gives, with the signature that reproduces it.
 *
 * @since 0.2.0
 */
export interface Result {
  readonly signature: Signature
  /** `Signature.format(signature)` */
  readonly signatureText: string
  readonly level: number
  readonly resamples: number
  readonly runs: ReadonlyArray<RunIntervals>
  /** ids of the ranked runs whose rank interval overlaps a first-ranked run's, by rank */
  readonly bestGroup: ReadonlyArray<string>
  /** one sentence per figure with degenerate resamples */
  readonly notes: ReadonlyArray<string>
  /** `js`: every figure by its metric over the drawn pairs (asked for, or no WebAssembly SIMD) */
  readonly engine: "js" | "wasm"
}
