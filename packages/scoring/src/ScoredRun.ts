/**
 * A scored run: every metric of every dataset, each ranking's official figure and labelled
 * aggregates, and every issue found; `Engine.scoreSubmission` makes one, this module has the types
 * and the rules that combine per-dataset figures. A figure that cannot be computed keeps its
 * reason, never 0 or a bare NaN.
 *
 * @since 0.1.0
 */
import type { Issue, Registry } from "@stseval/formats"
import { Aggregate as Agg, Metrics, MetricValue } from "@stseval/metrics"
import type { Metric as MetricDescriptor } from "@stseval/metrics"
import { metricOf } from "./internal/edition.js"
import type { AggregateName, Edition } from "./internal/edition.js"
import { listing } from "./internal/issues.js"
import type { Aligned, DatasetStatus, RunInfo } from "./Validation.js"

type Metric = MetricValue.MetricValue

/**
 * The scored pairs of a dataset, pair by pair in gold order (`Validation.Aligned`): what
 * `DatasetScore.aligned` holds.
 *
 * @since 0.3.0
 */
export type { Aligned } from "./Validation.js"
/**
 * A labelled aggregate of a ranking over several datasets: `wmean`, `mean`, `pooled` or `allnrm`
 * (STS 2012's ALLnrm, when its ranking names it).
 *
 * @since 0.3.0
 */
export type { AggregateName } from "./internal/edition.js"

/**
 * Per-class figures of a labels dataset.
 *
 * @since 0.1.0
 */
export interface ClassScore {
  readonly precision: Metric
  readonly recall: Metric
  readonly f1: Metric
  readonly support: number
}

/**
 * A labels dataset's confusion matrix (`confusion[gold][run]`, in `labels` order), correct pairs
 * and per-class precision, recall and F1.
 *
 * @since 0.3.0
 */
export interface LabelSummary {
  readonly labels: ReadonlyArray<string>
  readonly confusion: ReadonlyArray<ReadonlyArray<number>>
  readonly correct: number
  readonly perClass: Readonly<Record<string, ClassScore>>
}

/**
 * One dataset of a run, with every metric its ranking declares.
 *
 * @since 0.1.0
 */
export interface DatasetScore {
  readonly dataset: string
  /** the subtask (ranking) the dataset belongs to */
  readonly subtask: string
  /** the metric its ranking orders by (the first of `figures`) */
  readonly metric: string
  readonly status: DatasetStatus
  readonly reason: string | undefined
  readonly file: string | undefined
  /** pairs scored */
  readonly pairs: number
  /** pairs this dataset weighs in the weighted mean (its annotated gold pairs) */
  readonly weight: number
  readonly runLines: number
  readonly linesScored: readonly [number, number] | undefined
  /**
   * Every metric of the dataset's ranking, by registry name, in the ranking's order (a
   * confidence-weighted one absent without confidences). Metrics other than the ranked one are
   * computed when first read: ranking both lists for Spearman is most of a run's scoring cost.
   */
  readonly figures: Readonly<Record<string, Metric>>
  /** the scored pairs, when the dataset was scored */
  readonly aligned: Aligned | undefined
  /** a labels dataset's confusion matrix and per-class figures, when scored */
  readonly labels?: LabelSummary | undefined
}

/**
 * One labelled aggregate of a ranking's datasets.
 *
 * @since 0.1.0
 */
export interface AggregateScore {
  /** the metric aggregated (the ranking's) */
  readonly metric: string
  readonly value: Metric
  /** why this aggregate is not official, when the edition ranks per dataset (every output labels it so) */
  readonly unofficial?: string | undefined
  /** datasets whose figure entered the aggregate */
  readonly datasets: ReadonlyArray<string>
  /** datasets that entered as the metric's missing value (r = 0: official weighted mean of STS 2012-2016), and why */
  readonly zeroed: ReadonlyArray<{ readonly dataset: string; readonly reason: string }>
}

/**
 * The official figure a ranking orders by.
 *
 * @since 0.1.0
 */
export interface OfficialScore {
  /** ranking name: `official` (STS), the subtask (SICK), or the dataset (a ranking per dataset, SemRel) */
  readonly ranking: string
  /** the metric of the figure (`pearson`, `spearman`, `accuracy`, `kendall`...) */
  readonly metric: string
  /** how its datasets were combined: the ranking's rule (`wmean`, `mean`, `pooled`, `allnrm`, `single`), or `dataset` for a ranking per dataset */
  readonly rule: string
  /** `higher` or `lower` is better (the metric's direction) */
  readonly direction: "higher" | "lower"
  readonly value: Metric
  /** datasets whose figure entered it */
  readonly datasets: ReadonlyArray<string>
  /** datasets that entered as the metric's missing value, and why */
  readonly zeroed: ReadonlyArray<{ readonly dataset: string; readonly reason: string }>
}

/**
 * One run as scoring leaves it: scored or failed (with why), its figures, aggregates, official
 * figures and issues.
 *
 * @since 0.1.0
 */
export interface ScoredRun {
  readonly edition: string
  readonly path: string
  readonly meta: RunInfo
  readonly status: "scored" | "failed"
  readonly failure: string | undefined
  /** every dataset, in the edition's order */
  readonly datasets: ReadonlyArray<DatasetScore>
  /** labelled aggregates of each ranking over several datasets; a ranking per dataset's rule over them, `unofficial` */
  readonly aggregates: Readonly<Record<string, Readonly<Partial<Record<AggregateName, AggregateScore>>>>>
  /** one per ranking (per dataset for a ranking per dataset), in the edition's order */
  readonly official: ReadonlyArray<OfficialScore>
  readonly errors: ReadonlyArray<Issue.Issue>
  readonly warnings: ReadonlyArray<Issue.Issue>
  readonly infos: ReadonlyArray<Issue.Issue>
}

// ---------------------------------------------------------------------------------------------
// Aggregates

const figureOf = (s: DatasetScore, metric: string): Metric | undefined => s.figures[metric]

const hasFigure = (s: DatasetScore, metric: string) => s.status === "scored" && figureOf(s, metric)?._tag === "Defined"

const noneReason = (scores: ReadonlyArray<DatasetScore>, metric: MetricDescriptor.Metric) =>
  scores.some((s) => s.status === "scored") ? `${metric.label} is undefined on every scored dataset` : "no dataset was scored"

// A dataset without a gold (never released) is listed, never aggregated nor counted against a run.
const counted = (scores: ReadonlyArray<DatasetScore>) => scores.filter((s) => s.status !== "no-gold")

/** Why a dataset's figure is not there, in a few words. */
const lackingReason = (s: DatasetScore, metric: MetricDescriptor.Metric, them = false): string => {
  const v = figureOf(s, metric.name)
  return s.status === "missing"
    ? `the run has no file for ${them ? "them" : "it"}`
    : s.status !== "scored"
      ? (s.reason ?? "it could not be scored")
      : `${metric.label} is undefined (${v?._tag === "Undefined" ? v.reason : ""})`
}

const plainMean = (scores: ReadonlyArray<DatasetScore>, weighted: boolean, metric: MetricDescriptor.Metric): AggregateScore => {
  const u = scores.filter((s) => hasFigure(s, metric.name))
  const values = u.map((s) => MetricValue.getOrNaN(figureOf(s, metric.name)!))
  const value =
    u.length === 0
      ? MetricValue.undefined_(noneReason(scores, metric))
      : MetricValue.defined(weighted ? Agg.wmean(values, u.map((s) => s.pairs)) : Agg.mean(values))
  return { metric: metric.name, value, datasets: u.map((s) => s.dataset), zeroed: [] }
}

/**
 * Mean of per-dataset figures weighted by scored pairs, over the datasets with a defined figure.
 *
 * @example
 * ```ts
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun // dataset a: r = 0.8 on 5 pairs; dataset b (6 pairs): no file
 * ScoredRun.wmeanOf(run.datasets, "pearson").value // defined(0.8): b has no figure, so it is left out
 * ScoredRun.officialMean(run.datasets, true, "zero", "pearson").value // defined(0.364): under `zero`, b enters as r = 0 (0.8 * 5 / 11)
 * ```
 * @since 0.1.0
 */
export const wmeanOf = (scores: ReadonlyArray<DatasetScore>, metric: string): AggregateScore =>
  plainMean(scores, true, Metrics.getOrThrow(metric))

/**
 * Unweighted mean of per-dataset figures over the datasets with a defined figure.
 *
 * @example
 * ```ts
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun // r = 0.9 on dataset a (5 pairs), 0.8857 on b (6 pairs)
 * ScoredRun.meanOf(run.datasets, "pearson").value // defined(0.8929): (0.9 + 0.8857) / 2
 * ScoredRun.meanOf(run.datasets, "spearman").value // the same over each dataset's Spearman
 * ```
 * @since 0.1.0
 */
export const meanOf = (scores: ReadonlyArray<DatasetScore>, metric: string): AggregateScore =>
  plainMean(scores, false, Metrics.getOrThrow(metric))

/**
 * A mean of per-dataset figures under the edition's missing-dataset rule: `zero` enters a dataset
 * missing, unscored or undefined as the metric's missing value (r = 0) with its full weight (STS
 * 2012-2016); `no-official-score` gives no figure when any dataset lacks one (STS 2017). Undefined
 * when no dataset was scored.
 *
 * Worked case (SPEC, STS 2014 Table 3): LIPN-run2 submitted deft-forum only, r = 0.084; weights
 * 450, 300, 750, 750, 750, 750 give 0.084 * 450 / 3750 = 0.01008, published as 0.010.
 *
 * @example
 * ```ts
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun
 * // STS 2014: weighted, a dataset the run did not submit counts as r = 0
 * const official = ScoredRun.officialMean(run.datasets, true, "zero", "pearson")
 * ```
 * @since 0.1.0
 */
export const officialMean = (
  all: ReadonlyArray<DatasetScore>,
  weighted: boolean,
  missingDataset: "zero" | "no-official-score",
  metricName: string
): AggregateScore => {
  const metric = Metrics.getOrThrow(metricName)
  const scores = counted(all)
  const none = (reason: string): AggregateScore => ({ metric: metric.name, value: MetricValue.undefined_(reason), datasets: [], zeroed: [] })
  if (!scores.some((s) => s.status === "scored")) return none("no dataset was scored")
  const lacking = scores.filter((s) => !hasFigure(s, metric.name))
  if ((missingDataset === "no-official-score" || metric.missingValue === undefined) && lacking.length > 0) {
    // datasets lacking a figure for the same reason are named together (a run of one STS 2017 track lacks six)
    const byReason = new Map<string, Array<DatasetScore>>()
    for (const s of lacking) byReason.set(lackingReason(s, metric), [...(byReason.get(lackingReason(s, metric)) ?? []), s])
    const why = [...byReason.values()].map((group) =>
      group.length === 1
        ? `${group[0].dataset} has no figure (${lackingReason(group[0], metric)})`
        : `${listing(group.map((s) => s.dataset))} have no figure (${lackingReason(group[0], metric, true)})`
    )
    return none(`no official score: it needs every dataset, and ${listing(why)}`)
  }
  const noWeight = lacking.filter((s) => s.weight === 0)
  if (weighted && noWeight.length > 0) return none(`the weight of ${listing(noWeight.map((s) => s.dataset))} is unknown (no gold)`)
  const values: Array<number> = []
  const weights: Array<number> = []
  const used: Array<string> = []
  const zeroed: Array<{ dataset: string; reason: string }> = []
  for (const s of scores) {
    if (hasFigure(s, metric.name)) {
      values.push(MetricValue.getOrNaN(figureOf(s, metric.name)!))
      weights.push(s.pairs)
      used.push(s.dataset)
    } else {
      values.push(metric.missingValue!)
      weights.push(s.weight)
      zeroed.push({ dataset: s.dataset, reason: lackingReason(s, metric) })
    }
  }
  return {
    metric: metric.name,
    value: MetricValue.defined(weighted ? Agg.wmean(values, weights) : Agg.mean(values)),
    datasets: used,
    zeroed
  }
}

const scoresOf = (s: DatasetScore) => (s.aligned?.kind === "scores" ? s.aligned : undefined)

/**
 * The metric over every dataset's pairs pooled (STS 2012 "ALL"), or pooled after fitting each
 * dataset's run to its gold (`nrm`: "ALLnrm"), over the datasets the run has scores for.
 *
 * @example
 * ```ts
 * import { Metrics } from "@stseval/metrics"
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun // an STS 2012 run
 * const pearson = Metrics.getOrThrow("pearson")
 * ScoredRun.pooledOf(run.datasets, false, pearson).value // ALL: one r over every dataset's pairs
 * ScoredRun.pooledOf(run.datasets, true, pearson).value // ALLnrm: each dataset's run fitted to its gold first
 * ```
 * @since 0.3.0
 */
export const pooledOf = (scores: ReadonlyArray<DatasetScore>, nrm: boolean, metric: MetricDescriptor.Metric): AggregateScore => {
  const used = scores.filter((s) => s.status === "scored" && scoresOf(s) !== undefined)
  if (used.length === 0) return { metric: metric.name, value: MetricValue.undefined_(noneReason(scores, metric)), datasets: [], zeroed: [] }
  const xs = used.map((s) => scoresOf(s)!.run)
  const ys = used.map((s) => scoresOf(s)!.gold)
  const correlation = metric.kind === "scores" ? (g: Float64Array, r: Float64Array) => metric.compute(g, r) : undefined
  return {
    metric: metric.name,
    value: correlation === undefined ? MetricValue.undefined_(`${metric.label} cannot be pooled`) : nrm ? Agg.allNrm(xs, ys, correlation) : Agg.pooled(xs, ys, correlation),
    datasets: used.map((s) => s.dataset),
    zeroed: []
  }
}

/**
 * The official figure of a ranking under its rule and the edition's missing-dataset rule.
 * `pooled` / `allnrm` give a run lacking a dataset no figure (a pool has no "r = 0").
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun // an STS 2017 run
 * const sts2017 = Registry.get("sts2017")!
 * // the mean of all seven tracks; undefined, with the reason, when a track has no figure
 * const official = ScoredRun.officialOf(sts2017, sts2017.ranking[0], run.datasets)
 * ```
 * @since 0.1.0
 */
export const officialOf = (edition: Edition, ranking: Registry.Ranking, scores: ReadonlyArray<DatasetScore>): AggregateScore => {
  const metric = metricOf(ranking)
  const rule = ranking.aggregate
  switch (rule) {
    case "wmean":
    case "mean":
      return officialMean(scores, rule === "wmean", edition.missingDataset, metric.name)
    case "pooled":
    case "allnrm": {
      const lacking = counted(scores).filter((s) => s.status !== "scored")
      if (lacking.length > 0) {
        return {
          metric: metric.name,
          value: MetricValue.undefined_(
            `no official score: ${rule} pools every dataset, and ${listing(lacking.map((s) => `${s.dataset} has no scores (${lackingReason(s, metric)})`))}`
          ),
          datasets: [],
          zeroed: []
        }
      }
      return pooledOf(scores, rule === "allnrm", metric)
    }
    case "single": {
      const s = scores[0]
      return { metric: metric.name, value: figureOf(s, metric.name) ?? MetricValue.undefined_("not computed"), datasets: hasFigure(s, metric.name) ? [s.dataset] : [], zeroed: [] }
    }
  }
}

/**
 * A figure of a run by dataset and metric name, or undefined when the dataset's ranking does not
 * declare the metric.
 *
 * @example
 * ```ts
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun // an STS 2017 run
 * ScoredRun.figure(run, "track5.en-en", "pearson") // { _tag: "Defined", value: ... }, or Undefined with the reason
 * ScoredRun.figure(run, "track5.en-en", "accuracy") // undefined: STS declares no accuracy
 * ```
 * @since 0.3.0
 */
export const figure = (run: Pick<ScoredRun, "datasets">, dataset: string, metric: string): Metric | undefined =>
  run.datasets.find((d) => d.dataset === dataset)?.figures[metric]
