// What Intervals.compute takes and gives (re-exported by Intervals, whose module comment says what
// the intervals are): the input's datasets and runs, the options, and the result's figures,
// intervals, rank intervals and signature.
import type { Metric as MetricDescriptor } from "@stseval/metrics"

/**
 * The figure of one dataset: a registry metric by name (`Metrics.names`) or a descriptor,
 * resampled as it declares (`Metric.resampling`) over the same resamples. An unknown name is an
 * `InvalidInput` on `datasets[d].metric`.
 *
 * @since 0.2.0
 */
export type Metric = string | MetricDescriptor.Metric

/**
 * How per-dataset figures become the official one (the registry's `aggregate`): `wmean` mean
 * weighted by scored pairs, `mean` unweighted, `pooled` Pearson over the concatenated datasets,
 * `allnrm` pooled after a least-squares fit of the run to the gold within each dataset, `single`
 * the one dataset's figure.
 *
 * @since 0.2.0
 */
export type Rule = "wmean" | "mean" | "pooled" | "allnrm" | "single"

/**
 * Aggregates reported beside the official figure, always over the datasets the run has: `wmean`
 * and `mean` over those with a defined figure, `pooled` and `allnrm` over those with scores.
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
  /** the papers' dataset / track name */
  readonly name: string
  readonly metric: Metric
  /**
   * Weight of the dataset when a run enters it as r = 0 under the `zero` rule: its annotated gold
   * pairs (ScoredRun's `weight`). Default: its scored pairs.
   */
  readonly weight?: number
}

/**
 * One run's scores on one dataset, aligned with the gold: numbers, or label strings for a metric of
 * labels. Every run of a dataset carries the same gold. `confidence`: for a metric that weighs
 * pairs by it (`weighted-pearson`, undefined without it).
 *
 * @since 0.2.0
 */
export type Scores =
  | { readonly run: Float64Array; readonly gold: Float64Array; readonly confidence?: Float64Array | undefined }
  | { readonly run: ReadonlyArray<string>; readonly gold: ReadonlyArray<string> }

/**
 * One run as `compute` takes it: its id, whether it is ranked, and its aligned scores by dataset.
 *
 * @since 0.2.0
 */
export interface Run {
  /** how the run is named in the output (e.g. its path) */
  readonly id: string
  /** false: figures and intervals, but no rank (e.g. a non-primary run). Default true. */
  readonly ranked?: boolean
  /** by dataset name; a dataset the run did not submit, or that could not be scored, is absent */
  readonly scores: Readonly<Record<string, Scores | undefined>>
}

/**
 * What `compute` takes: the datasets, the runs' aligned scores, and the rules for the official
 * figure and a dataset a run lacks.
 *
 * @since 0.2.0
 */
export interface Input {
  /** in the edition's order */
  readonly datasets: ReadonlyArray<Dataset>
  readonly runs: ReadonlyArray<Run>
  /** the rule that makes the official (ranked) figure */
  readonly official: Rule
  /**
   * a dataset a run lacks: `zero` enters it as its metric's `missingValue` (r = 0, 0% accuracy)
   * with its weight (refused for a metric without one, such as MSE, when the official rule is
   * `wmean` or `mean`), `no-official-score` gives no official figure
   */
  readonly missingDataset: "zero" | "no-official-score"
  /** aggregates to report beside the official one (default none) */
  readonly aggregates?: ReadonlyArray<Labelled>
}

/**
 * Options of `compute`; the results do not depend on the engine or the threads.
 *
 * @since 0.2.0
 */
export interface Options {
  /** Confidence level, strictly between 0 and 1. Default 0.95. */
  readonly level?: number
  /** Resamples B. Default 1,000. */
  readonly resamples?: number
  /** Seed of the xoroshiro128+ generator (0 .. 2^32 - 1). Default 12345. */
  readonly seed?: number
  /**
   * `auto` (default): WebAssembly SIMD when available, else JavaScript (`wasm` throws without it).
   * Results do not depend on it.
   */
  readonly engine?: "auto" | "js" | "wasm"
  /** Called about every 1% of resamples, and at the end. */
  readonly progress?: (done: number, total: number) => void
  /**
   * Threads for the resampling, the caller included (at most 64). Default: every available core
   * for large jobs, else 1. Results do not depend on it.
   *
   * @since 0.2.0
   */
  readonly threads?: number
}

/**
 * A confidence interval of a figure: its bounds and its level.
 *
 * @since 0.2.0
 */
export interface Interval {
  readonly low: number
  readonly high: number
  readonly level: number
}

/**
 * One figure with its interval.
 *
 * @since 0.2.0
 */
export interface Figure {
  /** on the original pairs; undefined when it cannot be computed (then `reason` says why) */
  readonly value: number | undefined
  /** undefined when there is no value, or too many resamples left the figure undefined (`reason`) */
  readonly ci: Interval | undefined
  readonly reason: string | undefined
  /**
   * Resamples in which a correlation entering this figure was undefined (a resampled dataset on
   * which the run or the gold is constant). The edition's rule then applies as on real data: under
   * `zero` the dataset counts as 0, `wmean` / `mean` labelled aggregates leave it out, and a figure
   * that is itself undefined in a resample is left out of its interval (see `used`).
   */
  readonly degenerate: number
  /** resamples the interval was taken from (B minus those where the figure was undefined) */
  readonly used: number
  /**
   * The pairs the figure rests on: its dataset's, or for an aggregate the pairs of the datasets the
   * run has. Below `fewPairs` (100) percentile intervals hold their figure's true value less often
   * than their level says (docs/significance.md, "Coverage"); every output marks them.
   */
  readonly pairs?: number | undefined
  /**
   * A Pearson figure on skewed data: the largest |sample skewness| of the gold and the run's scores
   * (among the datasets it rests on), when above `skewLimit` (2). Percentile intervals of Pearson's
   * r cover below their level there (90-93% for 95% on lognormal data); every output marks them.
   *
   * @since 0.4.0
   */
  readonly skewed?: number | undefined
}

/**
 * A run's figure on one dataset, with its interval, named by the dataset and the metric.
 *
 * @since 0.2.0
 */
export interface DatasetFigure extends Figure {
  readonly dataset: string
  /** the metric's registry name (a descriptor's `name`) */
  readonly metric: string
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
 * One run's figures (per dataset, aggregates, official) with their intervals, and its rank with the
 * rank's interval, or why it has none.
 *
 * @since 0.2.0
 */
export interface RunIntervals {
  readonly id: string
  /** one per input dataset, in order */
  readonly datasets: ReadonlyArray<DatasetFigure>
  readonly aggregates: Readonly<Partial<Record<Labelled, Figure>>>
  readonly official: Figure
  /** competition rank on the original pairs (ties share the rank: 1, 2, 2, 4); undefined when not ranked */
  readonly rank: number | undefined
  readonly rankInterval: RankInterval | undefined
  /** why the run is not ranked */
  readonly rankReason: string | undefined
  /** resamples where its official figure was undefined: it was ranked last in those */
  readonly rankDegenerate: number
  /** its rank interval overlaps the rank interval of a run ranked first */
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
  /** `dataset`: pairs resampled within each dataset; `none` with a single dataset */
  readonly strata: "dataset" | "none"
  readonly quantile: "type7"
  readonly official: Rule
  readonly missing: "zero" | "no-official-score"
  readonly rng: "xoroshiro128plus"
  readonly version: string
  /**
   * The datasets' metrics (their names, each once, joined by `+`) when one is not Pearson,
   * Spearman or accuracy, whose signatures predate the field and stay as they were.
   *
   * @since 0.3.0
   */
  readonly metrics?: string
}

/**
 * What `compute` gives: every run's figures and rank with their intervals, the runs whose rank
 * interval overlaps the best's, and the signature that reproduces it.
 *
 * @since 0.2.0
 */
export interface Result {
  readonly signature: Signature
  /** `Signature.format(signature)` */
  readonly signatureText: string
  readonly level: number
  readonly resamples: number
  /** in input order */
  readonly runs: ReadonlyArray<RunIntervals>
  /** ids of the ranked runs whose rank interval overlaps a first-ranked run's, by rank */
  readonly bestGroup: ReadonlyArray<string>
  /** one sentence per figure with degenerate resamples, for the user */
  readonly notes: ReadonlyArray<string>
  readonly engine: "js" | "wasm"
}
