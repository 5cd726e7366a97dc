/**
 * Scoring a validated run: every dataset's figures by the metrics its ranking declares, then each
 * ranking's official figure and labelled aggregates. Only the engine calls it, through
 * `Engine.scoreSubmission`.
 *
 * @internal
 */
import { Issue, Registry } from "@stseval/formats"
import type { Gold, Submissions } from "@stseval/formats"
import { Accuracy, Metric as MetricDescriptor, Metrics, MetricValue } from "@stseval/metrics"
import type { FiguresRead } from "../Engine.js"
import type { AggregateScore, DatasetScore, LabelSummary, OfficialScore, ScoredRun } from "../ScoredRun.js"
import { meanOf, officialMean, officialOf, pooledOf, wmeanOf } from "../ScoredRun.js"
import type { Aligned, DatasetCheck, RunInfo, RunValidation, ValidateOptions } from "../Validation.js"
import { metricOf, rankingName, reportedAggregates } from "./edition.js"
import type { AggregateName, Edition } from "./edition.js"
import { allIssues, validateRun } from "./validate.js"

type Metric = MetricValue.MetricValue

// A dataset without a gold (never released) is listed, never ranked nor counted against a run.
const counted = (scores: ReadonlyArray<DatasetScore>) => scores.filter((s) => s.status !== "no-gold")

// ---------------------------------------------------------------------------------------------
// Figures of one dataset

const compute = (metric: MetricDescriptor.Metric, aligned: Aligned): Metric | undefined => {
  if (metric.kind === "scores" && aligned.kind === "scores") {
    if (MetricDescriptor.needsConfidence(metric) && aligned.confidence === undefined) return undefined
    return metric.compute(aligned.gold, aligned.run, aligned.confidence)
  }
  if (metric.kind === "labels" && aligned.kind === "labels") return metric.compute(aligned.gold, aligned.run, aligned.labels)
  return MetricValue.undefined_(`${metric.label} does not score ${aligned.kind === "scores" ? "graded scores" : "labels"}`)
}

/**
 * The figures of a scored dataset: the ranked metric at once, the others at once too when the caller
 * reads them all (`Context.figuresRead`), else when first read (kept).
 */
const figuresOf = (names: ReadonlyArray<string>, ranked: string, aligned: Aligned, known: DatasetCheck["figures"], read: FiguresRead): Readonly<Record<string, Metric>> => {
  const figures: Record<string, Metric> = {}
  for (const name of names) {
    // a figure validation computed on these very arrays (`DatasetCheck.figures`), taken as it is
    const given = known?.[name]
    if (given !== undefined) {
      figures[name] = given
      continue
    }
    const metric = Metrics.getOrThrow(name)
    if (MetricDescriptor.needsConfidence(metric) && (aligned.kind !== "scores" || aligned.confidence === undefined)) continue
    if (name === ranked || read === "all") {
      figures[name] = compute(metric, aligned)!
      continue
    }
    let value: Metric | undefined
    Object.defineProperty(figures, name, {
      enumerable: true,
      configurable: true,
      get: () => (value ??= compute(metric, aligned)!)
    })
  }
  return figures
}

const labelSummary = (aligned: Extract<Aligned, { kind: "labels" }>): LabelSummary => {
  const a = Accuracy.accuracy(aligned.gold, aligned.run, aligned.labels)
  return { labels: a.labels, confusion: a.confusion, correct: a.correct, perClass: a.perClass }
}

/**
 * The figures of one dataset of a validated run (`read`: which of them the caller reads, see `figuresOf`).
 */
export const scoreDataset = (edition: Edition, d: DatasetCheck, read: FiguresRead = "ranked"): DatasetScore => {
  const spec = edition.datasets.find((x) => x.name === d.dataset)!
  const ranking = Registry.rankingOfDataset(edition, spec)
  const names = Registry.metricsOf(ranking)
  const base = {
    dataset: d.dataset,
    subtask: ranking.subtask,
    metric: ranking.metric,
    status: d.status,
    reason: d.reason,
    file: d.file,
    pairs: d.pairs,
    weight: d.weight,
    runLines: d.runLines,
    linesScored: d.linesScored,
    aligned: d.aligned
  }
  if (d.status !== "scored" || d.aligned === undefined) {
    const why = MetricValue.undefined_(d.reason ?? "not scored")
    const figures: Record<string, Metric> = {}
    for (const name of names) if (!MetricDescriptor.needsConfidence(Metrics.getOrThrow(name))) figures[name] = why
    return { ...base, figures }
  }
  const aligned = d.aligned
  return { ...base, figures: figuresOf(names, ranking.metric, aligned, d.figures, read), ...(aligned.kind === "labels" ? { labels: labelSummary(aligned) } : {}) }
}

// ---------------------------------------------------------------------------------------------

/**
 * Score a validated run: every dataset's figures (`read`: which of them the caller reads, see
 * `figuresOf`), then each ranking's official figure and labelled aggregates. Pure; never throws on data.
 */
export const scoreValidated = (edition: Edition, v: RunValidation, read: FiguresRead = "ranked"): ScoredRun => {
  // what one run puts into every output is bounded: at most Issue.MAX_RUN_ISSUES listed, the rest counted
  const issues = Issue.capRun(allIssues(v), v.path)
  const datasets = v.datasets.map((d) => scoreDataset(edition, d, read))
  const aggregates: Record<string, Partial<Record<AggregateName, AggregateScore>>> = {}
  const official: Array<OfficialScore> = []
  for (const ranking of edition.ranking) {
    const metric = metricOf(ranking)
    const own = datasets.filter((d) => d.subtask === ranking.subtask)
    const name = rankingName(edition, ranking)
    const labelled: Partial<Record<AggregateName, AggregateScore>> = {}
    for (const rule of reportedAggregates(edition, ranking)) {
      labelled[rule] = rule === "wmean" ? wmeanOf(own, metric.name) : rule === "mean" ? meanOf(own, metric.name) : pooledOf(own, rule === "allnrm", metric)
    }
    if (Registry.isRankedPerDataset(ranking)) {
      // SemEval-2024 Task 1: each language is ranked on its own figure; the ranking's rule over the
      // languages (their mean) is reported under its name, labelled unofficial, never as official
      const rule = ranking.aggregate
      if ((rule === "wmean" || rule === "mean") && own.length > 1) {
        labelled[rule] = {
          ...officialMean(own, rule === "wmean", edition.missingDataset, metric.name),
          unofficial: `runs are ranked in each dataset on its own; this ${rule === "wmean" ? "weighted mean" : "mean"} of ${metric.label} over the datasets with a public gold is not an official figure`
        }
      }
      for (const d of counted(own)) {
        const value = d.figures[metric.name] ?? MetricValue.undefined_("not computed")
        official.push({
          ranking: d.dataset,
          metric: metric.name,
          rule: "dataset",
          direction: metric.direction,
          value,
          datasets: value._tag === "Defined" ? [d.dataset] : [],
          zeroed: []
        })
      }
    } else {
      const o = officialOf(edition, ranking, own)
      official.push({ ranking: name, metric: metric.name, rule: ranking.aggregate, direction: metric.direction, value: o.value, datasets: o.datasets, zeroed: o.zeroed })
    }
    if (Object.keys(labelled).length > 0) aggregates[name] = labelled
  }
  return {
    edition: v.edition,
    path: v.path,
    meta: v.meta,
    status: v.failed ? "failed" : "scored",
    // one sentence, bounded as an issue's message is (it may quote them)
    failure: v.failure !== undefined ? Issue.cut(v.failure, Issue.MAX_MESSAGE_LENGTH) : undefined,
    datasets,
    aggregates,
    official,
    errors: issues.filter((i) => i.severity === "error"),
    warnings: issues.filter((i) => i.severity === "warning"),
    infos: issues.filter((i) => i.severity === "info")
  }
}

/**
 * Validate and score one run: `scoreValidated(edition, validateRun(edition, gold, submission))`.
 */
export const scoreRun = (edition: Edition, gold: Gold.Gold, submission: Submissions.Submission, options: ValidateOptions = {}): ScoredRun =>
  scoreValidated(edition, validateRun(edition, gold, submission, options))

/**
 * A run that could not even be loaded, as a failed `ScoredRun` carrying its issues (so that one bad
 * run never stops the others and still shows up, unranked, with the reason).
 */
export const failedRun = (edition: Edition, meta: RunInfo, path: string, failure: string, issues: ReadonlyArray<Issue.Issue>): ScoredRun =>
  scoreValidated(edition, {
    edition: edition.id,
    path,
    meta,
    datasets: edition.datasets.map((d) => ({
      dataset: d.name,
      status: "not-scored" as const,
      reason: failure,
      file: undefined,
      weight: 0,
      pairs: 0,
      runLines: 0,
      linesScored: undefined,
      aligned: undefined,
      issues: []
    })),
    issues,
    failed: true,
    failure
  })

