/**
 * What a layout needs to know about the runs of one edition, independent of how they were scored:
 * per run its id, team, run name, primary / late / corrected / post-deadline flags, section
 * (participants, baselines...), per-dataset figures, aggregates, and optionally its scores on each
 * dataset (for scatter plots); per dataset its name, size, metric and gold scores; the rankings as
 * scoring made them (order, ranks, which runs are not ranked and why: a layout never ranks), and
 * the "tied with the best" marks as scoring decided them (`@stseval/scoring/Marks`). `FromScoring`
 * builds this from the scoring engine's output; tests and other tools can build it by hand.
 *
 * @since 0.1.0
 */

import { Style } from "@stseval/scoring"
import type { ResultSchema } from "@stseval/scoring"
import type * as Marks from "@stseval/scoring/Marks"

/**
 * A confidence interval on a figure (`--ci`), in the figure's own unit (r, not r x 100).
 *
 * @since 0.2.0
 */
export interface Interval {
  readonly low: number
  readonly high: number
  /** present when the figure rests on fewer than 100 pairs (how many): its interval covers less than its level */
  readonly fewPairs?: number | undefined
}

/**
 * An interval as a table draws it, read from scoring's JSON of it (`ResultJson.ciOf`, as
 * `leaderboard.json` carries it too): its bounds, and its pairs when they are few; none when there
 * is none (null) or none was asked (undefined).
 *
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * Results.intervalOf({ low: 0.81, high: 0.84, level: 0.95 }) // { low: 0.81, high: 0.84 }
 * ```
 * @since 0.5.0
 */
export const intervalOf = (ci: typeof ResultSchema.IntervalJson.Type | null | undefined): Interval | undefined =>
  ci != null ? { low: ci.low, high: ci.high, ...(ci.fewPairs !== undefined ? { fewPairs: ci.fewPairs } : {}) } : undefined

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
  /**
   * the run has no file for the dataset (`notSubmitted`), or its file has errors and was not scored
   * (`failed`), or it has no figure and no known reason (`noFigure`: no gold to score it against, or
   * a board cached before its datasets said why; printed "-"); absent when it was scored (a figure
   * may still be undefined). @since 0.3.0
   */
  readonly state?: "notSubmitted" | "failed" | "noFigure" | undefined
  /** intervals on the figures by metric name, when computed (`--ci`) */
  readonly ci?: Readonly<Record<string, Interval>> | undefined
  /** a figure by metric name; undefined when it has none */
  readonly [metric: string]: number | string | Readonly<Record<string, Interval>> | undefined
}

/**
 * A figure of a run on a dataset by metric name, when it has one.
 *
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * const figures: Results.DatasetFigures = { pairs: 250, pearson: 0.8518, reason: undefined }
 * Results.figureOf(figures, "pearson") // 0.8518
 * Results.figureOf(figures, "spearman") // undefined: not reported
 * Results.figureOf(undefined, "pearson") // undefined: the run has no figures on the dataset
 * ```
 * @since 0.3.0
 */
export const figureOf = (figures: DatasetFigures | undefined, metric: string): number | undefined => {
  const v = figures?.[metric]
  return typeof v === "number" ? v : undefined
}

/**
 * One run as a layout needs it: id, team and run name, its flags and section, per-dataset figures,
 * aggregates and (for the plots) its scores.
 *
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
  /** an official figure counts a dataset the run lacks or that failed as 0 (`missingDataset: zero`) @since 0.4.0 */
  readonly zeroed?: boolean | undefined
  /**
   * who submitted the run is unknown (its run.json could not be used: `RunMeta.identityUnknown`):
   * shown in tables of primary runs too, never ranked. @since 0.2.0
   */
  readonly identityUnknown?: boolean | undefined
  /** the whole run failed (a zip that does not open, no file at all): none of its figures was scored. @since 0.3.0 */
  readonly failed?: boolean | undefined
  /** further texts by name, for `text` columns (the leaderboard's Status and Note) @since 0.4.0 */
  readonly texts?: Readonly<Record<string, string>> | undefined
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
 * One dataset of the edition as a layout needs it: name, header, scored pairs and gold scores, and
 * the metrics its ranking orders by and reports.
 *
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
  /** the metric its ranking orders by (registry name); default `pearson`. @since 0.3.0 */
  readonly metric?: string | undefined
  /** every metric its ranking reports, in column order (default: `metric` alone). @since 0.3.0 */
  readonly metrics?: ReadonlyArray<string> | undefined
  /** the subtask (ranking) it belongs to. @since 0.3.0 */
  readonly subtask?: string | undefined
  /** its ranking ranks runs on each dataset on its own (SemRel: per language). @since 0.3.0 */
  readonly rankedPerDataset?: boolean | undefined
}

/**
 * One entry of a ranking: a run, its rank (undefined when it is not ranked) and why not.
 *
 * @since 0.3.0
 */
export interface RankingEntry {
  readonly id: string
  readonly rank: number | undefined
  readonly reason?: string | undefined
}

/**
 * A ranking as scoring made it (`Engine.Results.ranked`): the figures it orders by, and its entries
 * in its order (ranked runs best first, then the runs it lists without a rank: failed, after the
 * deadline, beyond the run limit, without a figure). Layouts take the order and ranks from here.
 *
 * @since 0.3.0
 */
export interface Ranking {
  /** `official`, `relatedness`, a language of a ranking per dataset (`eng`) */
  readonly ranking: string
  readonly metric: string
  readonly direction: "higher" | "lower"
  /** the figures it orders by, as `figureKey`s: `aggregate:official`, `relatedness:pearson`, `eng:spearman` */
  readonly figures: ReadonlyArray<string>
  /** how its figure combines datasets (`wmean`, `mean`, `single`, `dataset`...), when known */
  readonly rule?: string | undefined
  readonly entries: ReadonlyArray<RankingEntry>
}

/**
 * What a layout builds a table from: one edition's datasets, runs with their figures, and the
 * rankings, marks and intervals scoring made of them.
 *
 * @since 0.1.0
 */
export interface Results {
  readonly edition: string
  /** the edition's published number style of correlations (`r3`: 3 decimals; `r100`: r x 100); default r3. @since 0.3.0 */
  readonly style?: "r3" | "r100" | undefined
  readonly datasets: ReadonlyArray<DatasetInfo>
  readonly runs: ReadonlyArray<RunResult>
  /** the rankings, as scoring made them: the runs a table lists and their order. @since 0.3.0 */
  readonly rankings: ReadonlyArray<Ranking>
  /** the rankings hold primary runs only (the caption says "primary runs"). @since 0.3.0 */
  readonly primaryOnly?: boolean | undefined
  /** the "tied with the best" marks by figure key (`Marks.FigureMarks.key`), when computed. @since 0.3.0 */
  readonly marks?: Readonly<Record<string, Marks.FigureMarks>> | undefined
  /** set when the runs carry intervals (`--ci`) */
  readonly intervals?: IntervalSettings | undefined
}

/**
 * The number style of a figure named `metric` (`pearson`, `mean`, `accuracy`...) in results of a
 * published style: scoring's `Style.forMetric`, the one style of every output (the report's
 * presets and the leaderboard's page); without a style, r to 3 decimals.
 *
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * Results.styleOf({ style: "r100" }, "pearson") // { decimals: 2, scale: 100 }: r x 100
 * Results.styleOf({}, "pearson") // { decimals: 3 }
 * ```
 * @since 0.5.0
 */
export const styleOf = (results: Pick<Results, "style">, metric: string): Style.NumberStyle => Style.forMetric({ published: { style: results.style ?? "r3" } }, metric)

/**
 * The marks of each figure by its key (`Results.marks`), from scoring's list of them
 * (`Marks.compute(...).figures`, or the board's `marks`).
 *
 * @example
 * ```ts
 * import type * as Marks from "@stseval/scoring/Marks"
 * import { Results } from "@stseval/tables"
 *
 * declare const marks: Marks.Marks
 * const byKey = Results.marksByKey(marks.figures)["aggregate:official"]
 * ```
 * @since 0.5.0
 */
export const marksByKey = (figures: ReadonlyArray<Marks.FigureMarks>): Record<string, Marks.FigureMarks> => Object.fromEntries(figures.map((f) => [f.key, f]))

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

/**
 * A run's names as every output gives them: its id (`ECNU/run1`) as its label, its team, and its
 * run number as `runN` (empty without one).
 *
 * @example
 * ```ts
 * import { Results } from "@stseval/tables"
 *
 * Results.named({ id: "ECNU/run1", team: "ECNU", run: 1, primary: true }).run // "run1"
 * ```
 * @since 0.4.0
 */
export const named = (meta: {
  readonly id: string
  readonly team: string
  readonly run?: number | null | undefined
  readonly primary: boolean
}): Pick<RunResult, "id" | "label" | "team" | "run" | "runNumber" | "primary"> => ({
  id: meta.id,
  label: meta.id,
  team: meta.team,
  run: meta.run != null ? `run${meta.run}` : "",
  runNumber: meta.run ?? undefined,
  primary: meta.primary
})
