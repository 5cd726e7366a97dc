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

/**
 * A confidence interval on a figure (`--ci`).
 *
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * const ci: Results.Interval = { low: 0.81, high: 0.84 }
 * ```
 * @since 0.2.0
 */
export interface Interval {
  readonly low: number
  readonly high: number
}

/**
 * The interval of a run's rank over the resamples, and whether it overlaps the best run's.
 *
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * const rank: Results.RankInterval = { low: 1, high: 3, overlapsBest: true }
 * ```
 * @since 0.2.0
 */
export interface RankInterval extends Interval {
  readonly overlapsBest: boolean
}

/**
 * How the intervals were computed (`--ci`): level, resamples, seed and their signature.
 *
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * const settings: Results.IntervalSettings = { level: 0.95, resamples: 1000, seed: 12345, signature: "bootstrap-percentile|n=1000|seed=12345" }
 * ```
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
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * Results.figureKey({ _tag: "aggregate", name: "official" })
 * Results.figureKey({ _tag: "metric", dataset: "track5.en-en", metric: "pearson" })
 * ```
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

/**
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * const run: Results.RunResult = {
 *   id: "ECNU/run1",
 *   team: "ECNU",
 *   run: "run1",
 *   primary: true,
 *   datasets: { "track5.en-en": { pearson: 0.8518, pairs: 250 } },
 *   aggregates: { official: 0.8518 }
 * }
 * ```
 * @since 0.1.0
 */
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

/**
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * const dataset: Results.DatasetInfo = { name: "track4b.es-en", header: "es-en WMT", pairs: 250 }
 * ```
 * @since 0.1.0
 */
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
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * const sig: Results.DatasetSignificance = { test: "williams1959", alpha: 0.05, best: "ECNU/run1", tied: ["ECNU/run1", "BIT/run2"] }
 * ```
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

/**
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250 }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518, pairs: 250 } }, aggregates: { official: 0.8518 } },
 *     { id: "baseline/run1", team: "baseline", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.7278, pairs: 250 } }, aggregates: { official: 0.7278 } }
 *   ]
 * }
 * const table = Layouts.preset("sts2017-table10", results)
 * ```
 * @since 0.1.0
 */
export interface Results {
  readonly edition: string
  readonly datasets: ReadonlyArray<DatasetInfo>
  readonly runs: ReadonlyArray<RunResult>
  /** precomputed significance by dataset; `Layouts.build` computes it when absent and possible */
  readonly significance?: Readonly<Record<string, DatasetSignificance>> | undefined
  /** set when the runs carry intervals (`--ci`) */
  readonly intervals?: IntervalSettings | undefined
}

/**
 * The default name of the participants' section.
 *
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * const section: string = Results.participants // "Participants"
 * ```
 * @since 0.1.0
 */
export const participants = "Participants"

/**
 * The run's shown name: its `label`, else `team/run` (`ECNU/run1`), the run-id style every
 * output uses.
 *
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * Results.labelOf({ id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: {}, aggregates: {} }) // "ECNU/run1"
 * ```
 * @since 0.1.0
 */
export const labelOf = (r: RunResult): string => r.label ?? (r.run.length > 0 ? `${r.team}/${r.run}` : r.team)
