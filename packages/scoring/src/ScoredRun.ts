/**
 * A scored run: per-dataset (STS) or per-subtask (SICK) figures, the labelled aggregates and the
 * edition's official figure, with every issue found on the way. Metrics are `MetricValue`s: a figure
 * that cannot be computed keeps its reason; it is never 0 or a bare NaN.
 *
 * @since 0.1.0
 */
import type { Gold, Issue, Submissions } from "@stseval/formats"
import { Accuracy, Aggregate as Agg, MetricValue, Mse, Pearson, Spearman, WeightedPearson } from "@stseval/metrics"
import { correlationOf, officialAggregate, perDataset, reportedAggregates } from "./internal/edition.js"
import type { AggregateName, Edition } from "./internal/edition.js"
import { listing } from "./internal/issues.js"
import { allIssues, validateRun } from "./Validation.js"
import type { DatasetStatus, RunInfo, RunValidation, SickCheck, StsDatasetCheck, ValidateOptions } from "./Validation.js"

type Metric = MetricValue.MetricValue

/**
 * The scores a figure was computed from, aligned pair by pair with the gold (only the scored
 * pairs, in gold order). Kept in memory so that significance tests, intervals, tables and plots
 * never align or parse a run again; not part of the JSON. Every run of a dataset shares the same
 * `gold` array.
 *
 * @example
 * ```ts
 * import { Engine, ScoredRun } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const aligned: ScoredRun.Aligned | undefined = results.runs[0].relatedness?.aligned
 * aligned?.gold.length // the scored pairs, gold and run side by side
 * ```
 * @since 0.2.0
 */
export interface Aligned {
  readonly gold: Float64Array
  readonly run: Float64Array
  /** the run's confidences (0-100), when every scored line has one (STS 2013-2014) */
  readonly confidence?: Float64Array | undefined
}

/**
 * SICK entailment labels, aligned with the gold pair by pair.
 *
 * @example
 * ```ts
 * import { Engine, ScoredRun } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const labels: ScoredRun.AlignedLabels | undefined = results.runs[0].entailment?.aligned
 * ```
 * @since 0.2.0
 */
export interface AlignedLabels {
  readonly gold: ReadonlyArray<string>
  readonly run: ReadonlyArray<string>
}

/**
 * One STS dataset (track) of a run.
 *
 * @example
 * ```ts
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun // an STS run
 * const byDataset: ReadonlyArray<[string, ScoredRun.DatasetScore["pearson"]]> = run.datasets.map((d) => [d.dataset, d.pearson])
 * ```
 * @since 0.1.0
 */
export interface DatasetScore {
  readonly dataset: string
  readonly status: DatasetStatus
  readonly reason: string | undefined
  readonly file: string | undefined
  /** pairs scored */
  readonly pairs: number
  /** pairs this dataset weighs in the weighted mean (its annotated gold pairs) */
  readonly weight: number
  readonly runLines: number
  readonly linesScored: readonly [number, number] | undefined
  readonly pearson: Metric
  readonly spearman: Metric
  /** confidence-weighted Pearson (STS 2013-2014), when the run gives a confidence on every line */
  readonly weightedPearson: Metric | undefined
  /** the scored pairs, when the dataset was scored */
  readonly aligned: Aligned | undefined
}

/**
 * SICK relatedness (subtask A).
 *
 * @example
 * ```ts
 * import { Engine, ScoredRun } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const relatedness: ScoredRun.RelatednessScore | undefined = results.runs[0].relatedness
 * relatedness?.mse // the official scorer's MSE on raw scores
 * ```
 * @since 0.1.0
 */
export interface RelatednessScore {
  readonly status: "scored" | "not-evaluated"
  readonly reason: string | undefined
  readonly pairs: number
  /** official ranking metric */
  readonly pearson: Metric
  readonly spearman: Metric
  /** the official MSE: mean((x - y)^2) on the raw scores */
  readonly mse: Metric
  /** MSE on z-scores (population SD) = 2(1 - r); labelled, not official */
  readonly standardisedMse: Metric
  /** the scored pairs, when relatedness was evaluated */
  readonly aligned: Aligned | undefined
}

/**
 * Per-class figures of the entailment subtask.
 *
 * @example
 * ```ts
 * import { Engine, ScoredRun } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const neutral: ScoredRun.ClassScore | undefined = results.runs[0].entailment?.perClass["NEUTRAL"]
 * ```
 * @since 0.1.0
 */
export interface ClassScore {
  readonly precision: Metric
  readonly recall: Metric
  readonly f1: Metric
  readonly support: number
}

/**
 * SICK entailment (subtask B).
 *
 * @example
 * ```ts
 * import { Engine, ScoredRun } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const entailment: ScoredRun.EntailmentScore | undefined = results.runs[0].entailment
 * entailment?.confusion // rows: gold label, columns: the run's
 * ```
 * @since 0.1.0
 */
export interface EntailmentScore {
  readonly status: "scored" | "not-evaluated"
  readonly reason: string | undefined
  readonly pairs: number
  /** percent; official ranking metric */
  readonly accuracy: Metric
  readonly correct: number
  /** row / column order of `confusion` */
  readonly labels: ReadonlyArray<string>
  /** confusion[gold][run] */
  readonly confusion: ReadonlyArray<ReadonlyArray<number>>
  readonly perClass: Readonly<Record<string, ClassScore>>
  readonly macroF1: Metric
  /** the scored pairs' labels, when entailment was evaluated */
  readonly aligned: AlignedLabels | undefined
}

/**
 * One labelled aggregate across datasets.
 *
 * @example
 * ```ts
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun // an STS 2014 run
 * const official: ScoredRun.AggregateScore | undefined = run.aggregate.official
 * official?.zeroed // datasets counted as r = 0, and why
 * ```
 * @since 0.1.0
 */
export interface AggregateScore {
  readonly value: Metric
  /**
   * Why this aggregate is not an official figure, when the edition ranks runs per dataset
   * (SemEval-2024 Task 1 ranked per language): every output labels it so.
   */
  readonly unofficial?: string | undefined
  /** datasets whose figure entered the aggregate */
  readonly datasets: ReadonlyArray<string>
  /** datasets that entered as r = 0 (official weighted mean of STS 2012-2016), and why */
  readonly zeroed: ReadonlyArray<{ readonly dataset: string; readonly reason: string }>
}

/**
 * The official figure a ranking uses.
 *
 * @example
 * ```ts
 * import { Engine, ScoredRun } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const figures: ReadonlyArray<ScoredRun.OfficialScore> = results.runs[0].official // SICK: relatedness r, entailment accuracy
 * ```
 * @since 0.1.0
 */
export interface OfficialScore {
  /**
   * ranking name: `official` (STS), `relatedness` or `entailment` (SICK), or the dataset's name
   * when the edition ranks each dataset on its own (SemRel: one ranking per language)
   */
  readonly ranking: string
  /** what the figure is: `pearson`, `spearman`, `accuracy`, `wmean`, `mean` */
  readonly metric: string
  /** higher is better for every official metric */
  readonly value: Metric
}

/**
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * const results = await Effect.runPromise(
 *   Engine.score({ task: "sick2014", gold: "SICK_test_annotated.txt", folder: "submissions" }).pipe(Effect.provide(NodeServices.layer))
 * )
 * import type { ScoredRun } from "@stseval/scoring"
 *
 * const failed: ReadonlyArray<ScoredRun.ScoredRun> = results.runs.filter((r) => r.status === "failed")
 * failed.map((r) => `${r.meta.id}: ${r.failure}`)
 * ```
 * @since 0.1.0
 */
export interface ScoredRun {
  readonly edition: string
  readonly kind: "sick" | "sts"
  readonly path: string
  readonly meta: RunInfo
  readonly status: "scored" | "failed"
  readonly failure: string | undefined
  /** SICK only */
  readonly relatedness: RelatednessScore | undefined
  readonly entailment: EntailmentScore | undefined
  /** STS only, in the edition's order */
  readonly datasets: ReadonlyArray<DatasetScore>
  /** STS only: labelled aggregates (`wmean`, `mean`, `pooled`, `allnrm`) and `official` */
  readonly aggregate: Readonly<Partial<Record<AggregateName | "official", AggregateScore>>>
  readonly official: ReadonlyArray<OfficialScore>
  readonly errors: ReadonlyArray<Issue.Issue>
  readonly warnings: ReadonlyArray<Issue.Issue>
  readonly infos: ReadonlyArray<Issue.Issue>
}

// ---------------------------------------------------------------------------------------------

const notComputed = (reason: string): Metric => MetricValue.undefined_(reason)

// lazySpearman: a scored dataset's (and SICK relatedness') Spearman is a getter that computes it
// on first read and keeps it. Ranking both score lists is most of the cost of scoring a run, and
// the commands that read only Pearson or the aggregates (significance, intervals, rank's table)
// never read it: 200 STS-B runs spent 60 ms of a 1.6 s all-pairs comparison on it. Anything that
// reads the figure (text, JSON, spread, structured clone) gets the same value as before.

/**
 * Figures of one STS dataset.
 *
 * @example
 * ```ts
 * import { ScoredRun, Validation } from "@stseval/scoring"
 *
 * declare const check: Validation.StsDatasetCheck
 * const score = ScoredRun.scoreDataset(check) // Pearson, Spearman (and weighted Pearson with confidences)
 * ```
 * @since 0.1.0
 */
export const scoreDataset = (d: StsDatasetCheck): DatasetScore => {
  const base = {
    dataset: d.dataset,
    status: d.status,
    reason: d.reason,
    file: d.file,
    pairs: d.pairs,
    weight: d.weight,
    runLines: d.runLines,
    linesScored: d.linesScored
  }
  if (d.status !== "scored") {
    const why = notComputed(d.reason ?? "not scored")
    return { ...base, pearson: why, spearman: why, weightedPearson: undefined, aligned: undefined }
  }
  const { gold, run } = d
  let spearman: Metric | undefined
  return {
    ...base,
    aligned: { gold, run, ...(d.confidence !== undefined ? { confidence: d.confidence } : {}) },
    pearson: Pearson.pearson(gold, run),
    // computed when first read (lazySpearman above)
    get spearman() {
      return (spearman ??= Spearman.spearman(gold, run))
    },
    weightedPearson: d.confidence !== undefined ? WeightedPearson.weightedPearson(gold, run, d.confidence) : undefined
  }
}

/** Labels in the order the task paper's tables use. */
const LABELS = ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"] as const

const scoreSick = (sick: SickCheck): { relatedness: RelatednessScore; entailment: EntailmentScore } => {
  const r = sick.relatedness
  let spearman: Metric | undefined
  const relatedness: RelatednessScore =
    r.status === "scored"
      ? {
          status: "scored",
          reason: undefined,
          pairs: r.pairs,
          pearson: Pearson.pearson(r.gold, r.run),
          // computed when first read (lazySpearman above)
          get spearman() {
            return (spearman ??= Spearman.spearman(r.gold, r.run))
          },
          mse: Mse.mse(r.gold, r.run),
          standardisedMse: Mse.standardisedMse(r.gold, r.run),
          aligned: { gold: r.gold, run: r.run }
        }
      : (() => {
          const why = notComputed(r.reason ?? "not evaluated")
          return { status: "not-evaluated", reason: r.reason, pairs: 0, pearson: why, spearman: why, mse: why, standardisedMse: why, aligned: undefined }
        })()
  const e = sick.entailment
  let entailment: EntailmentScore
  if (e.status === "scored") {
    const a = Accuracy.accuracy(e.gold, e.run, LABELS)
    entailment = {
      status: "scored",
      reason: undefined,
      pairs: a.total,
      accuracy: MetricValue.fromNumber(a.accuracy, MetricValue.Reason.noPairs),
      correct: a.correct,
      labels: a.labels,
      confusion: a.confusion,
      perClass: a.perClass,
      macroF1: a.macroF1,
      aligned: { gold: e.gold, run: e.run }
    }
  } else {
    const why = notComputed(e.reason ?? "not evaluated")
    entailment = {
      status: "not-evaluated",
      reason: e.reason,
      pairs: 0,
      accuracy: why,
      correct: 0,
      labels: [...LABELS],
      confusion: [],
      perClass: {},
      macroF1: why,
      aligned: undefined
    }
  }
  return { relatedness, entailment }
}

// ---------------------------------------------------------------------------------------------
// Aggregates
// ---------------------------------------------------------------------------------------------

/**
 * The correlation aggregates are made of: Pearson, or the edition's Spearman (SemRel).
 *
 * @example
 * ```ts
 * import { ScoredRun } from "@stseval/scoring"
 *
 * const metric: ScoredRun.Correlation = "spearman"
 * ```
 * @since 0.2.0
 */
export type Correlation = "pearson" | "spearman"

const NAMES: Record<Correlation, string> = { pearson: "Pearson", spearman: "Spearman" }

const valueOf = (s: DatasetScore, metric: Correlation): Metric => (metric === "spearman" ? s.spearman : s.pearson)

const usable = (scores: ReadonlyArray<DatasetScore>, metric: Correlation) =>
  scores.filter((s) => s.status === "scored" && valueOf(s, metric)._tag === "Defined")

const noneReason = (scores: ReadonlyArray<DatasetScore>, metric: Correlation) =>
  scores.some((s) => s.status === "scored")
    ? `${NAMES[metric]} is undefined on every scored dataset`
    : "no dataset was scored"

// A dataset without a gold (never released) is listed, never aggregated nor counted against a run.
const counted = (scores: ReadonlyArray<DatasetScore>) => scores.filter((s) => s.status !== "no-gold")

/**
 * Mean of per-dataset Pearson weighted by scored pairs, over the datasets with a defined figure.
 *
 * @example
 * ```ts
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun
 * // the mean of per-dataset r weighted by scored pairs, over the datasets the run has
 * const wmean = ScoredRun.wmeanOf(run.datasets)
 * ```
 * @since 0.1.0
 */
export const wmeanOf = (scores: ReadonlyArray<DatasetScore>, metric: Correlation = "pearson"): AggregateScore => {
  const u = usable(scores, metric)
  const value =
    u.length === 0
      ? MetricValue.undefined_(noneReason(scores, metric))
      : MetricValue.defined(Agg.wmean(u.map((s) => MetricValue.getOrNaN(valueOf(s, metric))), u.map((s) => s.pairs)))
  return { value, datasets: u.map((s) => s.dataset), zeroed: [] }
}

/**
 * Unweighted mean of per-dataset Pearson (or `metric`) over the datasets with a defined figure.
 *
 * @example
 * ```ts
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun
 * const meanRho = ScoredRun.meanOf(run.datasets, "spearman")
 * ```
 * @since 0.1.0
 */
export const meanOf = (scores: ReadonlyArray<DatasetScore>, metric: Correlation = "pearson"): AggregateScore => {
  const u = usable(scores, metric)
  const value =
    u.length === 0 ? MetricValue.undefined_(noneReason(scores, metric)) : MetricValue.defined(Agg.mean(u.map((s) => MetricValue.getOrNaN(valueOf(s, metric)))))
  return { value, datasets: u.map((s) => s.dataset), zeroed: [] }
}

/** Why a dataset's figure is not there, in a few words. */
const lackingReason = (s: DatasetScore, metric: Correlation = "pearson", them = false): string => {
  const v = valueOf(s, metric)
  return s.status === "missing"
    ? `the run has no file for ${them ? "them" : "it"}`
    : s.status !== "scored"
      ? (s.reason ?? "it could not be scored")
      : `${NAMES[metric]} is undefined (${v._tag === "Undefined" ? v.reason : ""})`
}

const hasFigure = (s: DatasetScore, metric: Correlation = "pearson") => s.status === "scored" && valueOf(s, metric)._tag === "Defined"

/**
 * A mean of per-dataset Pearson (weighted by scored pairs, or not) under the edition's
 * missing-dataset rule: `zero` enters a dataset the run did not submit, or that could not be
 * scored, or whose Pearson is undefined, as r = 0 with its full weight (its annotated gold pairs;
 * STS 2012-2016); `no-official-score` gives no figure when any dataset lacks one (STS 2017: the
 * primary score needs all seven tracks). Undefined when no dataset was scored at all.
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
 * const official = ScoredRun.officialMean(run.datasets, true, "zero")
 * ```
 * @since 0.1.0
 */
export const officialMean = (
  all: ReadonlyArray<DatasetScore>,
  weighted: boolean,
  missingDataset: "zero" | "no-official-score",
  metric: Correlation = "pearson"
): AggregateScore => {
  const scores = counted(all)
  if (!scores.some((s) => s.status === "scored")) {
    return { value: MetricValue.undefined_("no dataset was scored"), datasets: [], zeroed: [] }
  }
  const lacking = scores.filter((s) => !hasFigure(s, metric))
  if (missingDataset === "no-official-score" && lacking.length > 0) {
    // datasets lacking a figure for the same reason are named together (a run of one STS 2017 track lacks six)
    const byReason = new Map<string, Array<DatasetScore>>()
    for (const s of lacking) byReason.set(lackingReason(s, metric), [...(byReason.get(lackingReason(s, metric)) ?? []), s])
    const why = [...byReason.values()].map((group) =>
      group.length === 1
        ? `${group[0].dataset} has no figure (${lackingReason(group[0], metric)})`
        : `${listing(group.map((s) => s.dataset))} have no figure (${lackingReason(group[0], metric, true)})`
    )
    return {
      value: MetricValue.undefined_(`no official score: it needs every dataset, and ${listing(why)}`),
      datasets: [],
      zeroed: []
    }
  }
  const noWeight = lacking.filter((s) => s.weight === 0)
  if (weighted && noWeight.length > 0) {
    return {
      value: MetricValue.undefined_(`the weight of ${listing(noWeight.map((s) => s.dataset))} is unknown (no gold)`),
      datasets: [],
      zeroed: []
    }
  }
  const values: Array<number> = []
  const weights: Array<number> = []
  const used: Array<string> = []
  const zeroed: Array<{ dataset: string; reason: string }> = []
  for (const s of scores) {
    if (hasFigure(s, metric)) {
      values.push(MetricValue.getOrNaN(valueOf(s, metric)))
      weights.push(s.pairs)
      used.push(s.dataset)
    } else {
      values.push(0)
      weights.push(s.weight)
      zeroed.push({ dataset: s.dataset, reason: lackingReason(s, metric) })
    }
  }
  return {
    value: MetricValue.defined(weighted ? Agg.wmean(values, weights) : Agg.mean(values)),
    datasets: used,
    zeroed
  }
}

const pooledOf = (checks: ReadonlyArray<StsDatasetCheck>, scores: ReadonlyArray<DatasetScore>, nrm: boolean): AggregateScore => {
  const used = checks.filter((c) => c.status === "scored")
  if (used.length === 0) return { value: MetricValue.undefined_(noneReason(scores, "pearson")), datasets: [], zeroed: [] }
  const xs = used.map((c) => c.run)
  const ys = used.map((c) => c.gold)
  return { value: nrm ? Agg.allNrm(xs, ys) : Agg.pooled(xs, ys), datasets: used.map((c) => c.dataset), zeroed: [] }
}

/**
 * The official figure of an STS edition: its headline ranking's aggregate under its
 * missing-dataset rule. `pooled` / `allnrm` concatenate every dataset, so a run lacking one gets
 * no official figure (there is no "r = 0" for a pool). `single`: the one dataset's Pearson.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { ScoredRun, Validation } from "@stseval/scoring"
 *
 * declare const v: Validation.RunValidation
 * const scores = v.datasets.map(ScoredRun.scoreDataset)
 * const official = ScoredRun.officialOf(Registry.get("sts2017")!, v.datasets, scores) // STS 2017: the mean of all seven tracks
 * ```
 * @since 0.1.0
 */
export const officialOf = (
  edition: Edition,
  checks: ReadonlyArray<StsDatasetCheck>,
  scores: ReadonlyArray<DatasetScore>
): AggregateScore => {
  const rule = officialAggregate(edition)
  const metric = correlationOf(edition)
  switch (rule) {
    case "wmean":
    case "mean":
      return officialMean(scores, rule === "wmean", edition.missingDataset, metric)
    case "pooled":
    case "allnrm": {
      const lacking = counted(scores).filter((s) => s.status !== "scored")
      if (lacking.length > 0) {
        return {
          value: MetricValue.undefined_(
            `no official score: ${rule} pools every dataset, and ${listing(lacking.map((s) => `${s.dataset} has no scores (${lackingReason(s)})`))}`
          ),
          datasets: [],
          zeroed: []
        }
      }
      return pooledOf(checks, scores, rule === "allnrm")
    }
    case "single": {
      const s = scores[0]
      return { value: valueOf(s, metric), datasets: hasFigure(s, metric) ? [s.dataset] : [], zeroed: [] }
    }
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * Score a validated run. Each dataset / subtask that validation accepted gets its figures; the
 * others keep the reason they were not scored. Pure; never throws on data.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { ScoredRun, Validation } from "@stseval/scoring"
 *
 * declare const v: Validation.RunValidation
 * const scored = ScoredRun.scoreValidated(Registry.get("sts2017")!, v)
 * ```
 * @since 0.1.0
 */
export const scoreValidated = (edition: Edition, v: RunValidation): ScoredRun => {
  const issues = allIssues(v)
  const base = {
    edition: v.edition,
    kind: v.kind,
    path: v.path,
    meta: v.meta,
    status: v.failed ? ("failed" as const) : ("scored" as const),
    failure: v.failure,
    errors: issues.filter((i) => i.severity === "error"),
    warnings: issues.filter((i) => i.severity === "warning"),
    infos: issues.filter((i) => i.severity === "info")
  }
  if (v.kind === "sick") {
    const { relatedness, entailment } = v.sick !== undefined ? scoreSick(v.sick) : scoreSick(emptySick(v.failure ?? "no run file"))
    return {
      ...base,
      relatedness,
      entailment,
      datasets: [],
      aggregate: {},
      official: [
        { ranking: "relatedness", metric: "pearson", value: relatedness.pearson },
        { ranking: "entailment", metric: "accuracy", value: entailment.accuracy }
      ]
    }
  }
  const datasets = v.datasets.map(scoreDataset)
  const aggregate: Partial<Record<AggregateName | "official", AggregateScore>> = {}
  for (const name of reportedAggregates(edition)) {
    aggregate[name] =
      name === "wmean" ? wmeanOf(datasets) : name === "mean" ? meanOf(datasets) : pooledOf(v.datasets, datasets, name === "allnrm")
  }
  const metric = correlationOf(edition)
  let official: ReadonlyArray<OfficialScore>
  if (perDataset(edition)) {
    // SemEval-2024 Task 1: each language is ranked on its own figure; the ranking's rule over the
    // languages (their mean) is reported under its name, labelled unofficial, never as `official`
    const rule = officialAggregate(edition)
    if (rule === "wmean" || rule === "mean") {
      aggregate[rule] = {
        ...officialMean(datasets, rule === "wmean", edition.missingDataset, metric),
        unofficial: `runs are ranked in each dataset on its own; this ${rule === "wmean" ? "weighted mean" : "mean"} of ${NAMES[metric]} over the datasets with a public gold is not an official figure`
      }
    }
    official = counted(datasets).map((d) => ({ ranking: d.dataset, metric, value: valueOf(d, metric) }))
  } else {
    aggregate.official = officialOf(edition, v.datasets, datasets)
    official = [{ ranking: "official", metric: officialAggregate(edition), value: aggregate.official.value }]
  }
  return { ...base, relatedness: undefined, entailment: undefined, datasets, aggregate, official }
}

const emptySick = (reason: string): SickCheck => ({
  file: undefined,
  relatedness: { status: "not-evaluated", reason, pairs: 0, run: new Float64Array(0), gold: new Float64Array(0) },
  entailment: { status: "not-evaluated", reason, pairs: 0, run: [], gold: [] },
  issues: []
})

/**
 * Validate and score one run: `scoreValidated(edition, validateRun(edition, gold, submission))`.
 *
 * @example
 * ```ts
 * import { Gold, Registry, Submissions } from "@stseval/formats"
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const gold: Gold.Gold
 * declare const submission: Submissions.Submission
 * const scored = ScoredRun.scoreRun(Registry.get("sick2014")!, gold, submission)
 * ```
 * @since 0.1.0
 */
export const scoreRun = (edition: Edition, gold: Gold.Gold, submission: Submissions.Submission, options: ValidateOptions = {}): ScoredRun =>
  scoreValidated(edition, validateRun(edition, gold, submission, options))

/**
 * A run that could not even be loaded, as a failed `ScoredRun` carrying its issues (so that one bad
 * run never stops the others and still shows up, unranked, with the reason).
 *
 * @example
 * ```ts
 * import { Registry, Submissions } from "@stseval/formats"
 * import { ScoredRun } from "@stseval/scoring"
 *
 * declare const meta: Submissions.RunMeta
 * const failed = ScoredRun.failedRun(Registry.get("sick2014")!, meta, "submissions/Team_run1.txt", "the file is empty", [])
 * failed.status // "failed": listed, never ranked
 * ```
 * @since 0.1.0
 */
export const failedRun = (
  edition: Edition,
  meta: RunInfo,
  path: string,
  failure: string,
  issues: ReadonlyArray<Issue.Issue>
): ScoredRun =>
  scoreValidated(edition, {
    edition: edition.id,
    kind: edition.family,
    path,
    meta,
    sick: undefined,
    datasets: edition.family === "sts" ? edition.datasets.map((d) => notLoaded(d.name, failure)) : [],
    issues,
    failed: true,
    failure
  })

const notLoaded = (dataset: string, reason: string): StsDatasetCheck => ({
  dataset,
  status: "not-scored",
  reason,
  file: undefined,
  weight: 0,
  pairs: 0,
  runLines: 0,
  linesScored: undefined,
  run: new Float64Array(0),
  gold: new Float64Array(0),
  confidence: undefined,
  issues: []
})
