/**
 * What a layout needs to know about the runs of one edition, independent of how they were scored:
 * per run its id, team, run name, primary / late / corrected / post-deadline flags, section
 * (participants, baselines...), per-dataset figures, aggregates, and optionally its scores on each
 * dataset (for significance marks and scatter plots); per dataset its name, size and gold scores;
 * and optionally significance already computed elsewhere. `FromScoring` builds this from the
 * scoring engine's output; tests and other tools can build it by hand.
 *
 * @since 0.1.0
 */

/** A confidence interval on a figure (`--ci`). @since 0.2.0 */
export interface Interval {
  readonly low: number
  readonly high: number
}

/**
 * The interval of a run's rank over the resamples, and whether it overlaps the best run's.
 *
 * @since 0.2.0
 */
export interface RankInterval extends Interval {
  readonly overlapsBest: boolean
}

/**
 * How the intervals were computed (`--ci`): level, resamples, seed and their signature.
 *
 * @since 0.2.0
 */
export interface IntervalSettings {
  readonly level: number
  readonly resamples: number
  readonly seed: number
  readonly signature: string
}

/**
 * The key of a ranked figure in `RunResult.rankIntervals`: `aggregate:<name>` (`aggregate:official`)
 * or `<dataset>:<metric>` (`relatedness:pearson`, `entailment:accuracy`, `test:pearson`).
 *
 * @since 0.2.0
 */
export const figureKey = (source: { readonly _tag: "aggregate"; readonly name: string } | { readonly _tag: "metric"; readonly dataset: string; readonly metric: string }): string =>
  source._tag === "aggregate" ? `aggregate:${source.name}` : `${source.dataset}:${source.metric}`

/**
 * Figures of one run on one dataset, by metric name (`pearson`, `spearman`, `mse`, `accuracy`,
 * `kendall`...: every metric its ranking declares), with the pairs scored, why a figure is missing,
 * and the intervals on the figures.
 *
 * @since 0.1.0
 */
export interface DatasetFigures {
  readonly pairs?: number | undefined
  /** why a figure is missing (dataset not submitted, not scored, Pearson undefined...) */
  readonly reason?: string | undefined
  /** intervals on the figures by metric name, when computed (`--ci`) */
  readonly ci?: Readonly<Record<string, Interval>> | undefined
  /** a figure by metric name; undefined when it has none */
  readonly [metric: string]: number | string | Readonly<Record<string, Interval>> | undefined
}

/** A figure of a run on a dataset by metric name, when it has one. @since 0.3.0 */
export const figureOf = (figures: DatasetFigures | undefined, metric: string): number | undefined => {
  const v = figures?.[metric]
  return typeof v === "number" ? v : undefined
}

/** @since 0.1.0 */
export interface RunResult {
  /** unique within the results */
  readonly id: string
  readonly team: string
  /** run name as submitted: `run1`, `2`, `primary` ... */
  readonly run: string
  /** the run number, for the order of ties (default: from `run` when it reads `runN`) */
  readonly runNumber?: number | undefined
  /** shown name; default `team/run` */
  readonly label?: string | undefined
  readonly primary: boolean
  readonly late?: boolean | undefined
  readonly corrected?: boolean | undefined
  readonly postDeadline?: boolean | undefined
  /**
   * who submitted the run is unknown (its run.json could not be used: `RunMeta.identityUnknown`):
   * shown in tables of primary runs too, never ranked. @since 0.2.0
   */
  readonly identityUnknown?: boolean | undefined
  /** e.g. `Baselines`; default: the participants' section */
  readonly section?: string | undefined
  /** figures by dataset name */
  readonly datasets: Readonly<Record<string, DatasetFigures>>
  /** aggregates by name: `official`, `wmean`, `mean`, `pooled` ...; undefined = not computed */
  readonly aggregates: Readonly<Record<string, number | undefined>>
  /** reasons for undefined aggregates */
  readonly aggregateReasons?: Readonly<Record<string, string>> | undefined
  /** scores on each dataset's scored pairs, aligned with `DatasetInfo.gold` */
  readonly scores?: Readonly<Record<string, Float64Array>> | undefined
  /** intervals on the aggregates by name, when computed (`--ci`) */
  readonly aggregateIntervals?: Readonly<Record<string, Interval>> | undefined
  /** rank intervals by the figure ranked (`figureKey`), when computed (`--ci`) */
  readonly rankIntervals?: Readonly<Record<string, RankInterval>> | undefined
}

/** @since 0.1.0 */
export interface DatasetInfo {
  readonly name: string
  /** column header; default the name */
  readonly header?: string | undefined
  /** scored pairs (gold) */
  readonly pairs?: number | undefined
  /** gold scores of the scored pairs */
  readonly gold?: Float64Array | undefined
  /** why the dataset has no gold and cannot be scored (SemRel esp: labels never released) */
  readonly noGold?: string | undefined
}

/**
 * Significance on one dataset: which runs are not significantly different from the best (the best
 * included), by which test at which alpha, and optionally the p-value matrix between runs.
 *
 * @since 0.1.0
 */
export interface DatasetSignificance {
  readonly test: string
  readonly alpha: number
  readonly best: string
  /** run ids tied with the best (best included) */
  readonly tied: ReadonlyArray<string>
  /** run ids the comparison with the best failed for (invalid input), with the reason */
  readonly failed?: ReadonlyArray<{ readonly id: string; readonly reason: string }> | undefined
  /**
   * run ids best first, and p[i][j] between them (NaN = not computed); `total`, when the matrix
   * holds only the best runs (`Significance.MATRIX_MAX_RUNS`), is how many runs were compared
   */
  readonly matrix?: {
    readonly runs: ReadonlyArray<string>
    readonly p: ReadonlyArray<ReadonlyArray<number>>
    readonly total?: number | undefined
  } | undefined
}

/** @since 0.1.0 */
export interface Results {
  readonly edition: string
  readonly datasets: ReadonlyArray<DatasetInfo>
  readonly runs: ReadonlyArray<RunResult>
  /** precomputed significance by dataset; `Layouts.build` computes it when absent and possible */
  readonly significance?: Readonly<Record<string, DatasetSignificance>> | undefined
  /** set when the runs carry intervals (`--ci`) */
  readonly intervals?: IntervalSettings | undefined
}

/** The default name of the participants' section. @since 0.1.0 */
export const participants = "Participants"

/**
 * The run's shown name: its `label`, else `team/run` (`ECNU/run1`), the run-id style every
 * output uses.
 *
 * @since 0.1.0
 */
export const labelOf = (r: RunResult): string => r.label ?? (r.run.length > 0 ? `${r.team}/${r.run}` : r.team)
