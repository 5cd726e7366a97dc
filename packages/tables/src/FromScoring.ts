/**
 * Adapter from the scoring engine (`@stseval/scoring`) to the layouts' `Results`: figures from each
 * `ScoredRun`, with the aligned run and gold scores it keeps, which the scatter plots need (nothing
 * is aligned or parsed again); the rankings as `Engine.Results.ranked` holds them (order, ranks,
 * runs listed without a rank); the marks as `Marks.compute` decided them; the intervals as
 * `Uncertainty.compute` gave them. Nothing here ranks or compares runs.
 *
 * @since 0.1.0
 */
import { Registry } from "@stseval/formats"
import type { MetricValue } from "@stseval/metrics"
import { ResultJson, Uncertainty } from "@stseval/scoring"
import type { Rank, ScoredRun } from "@stseval/scoring"
import type * as Marks from "@stseval/scoring/Marks"
import type { DatasetFigures, DatasetInfo, Interval, RankInterval, Ranking, Results, RunResult } from "./Results.js"
import { figureKey, intervalOf as jsonInterval, marksByKey, named } from "./Results.js"

/**
 * What `FromScoring` needs besides the scored runs: the edition, the sections runs go to, and the
 * rankings, marks and intervals scoring already computed.
 *
 * @since 0.1.0
 */
export interface Options {
  /** the edition (dataset order, sizes, languages for headers); default: from the runs */
  readonly edition?: Registry.TaskEdition | undefined
  /**
   * Section of a run by team name or run id (`ECNU/run1`); default: a team whose name contains
   * "baseline" goes to "Baselines", every other run to the participants.
   */
  readonly sections?: Readonly<Record<string, string>> | undefined
  /** intervals on the figures and ranks (`Uncertainty.compute` of the same results) */
  readonly intervals?: Uncertainty.ResultIntervals | undefined
  /** the rankings of the runs (`Engine.Results.ranked`); without them a layout lists runs unranked, in run order. @since 0.3.0 */
  readonly ranked?: Pick<Rank.RankedResults<ScoredRun.ScoredRun>, "rankings" | "primaryOnly"> | undefined
  /** the marks of the same results (`Marks.compute`). @since 0.3.0 */
  readonly marks?: Marks.Marks | undefined
}

/** A figure's interval, read as scoring's JSON says it. */
const intervalOf = (f: Uncertainty.Figure | undefined): Interval | undefined => jsonInterval(ResultJson.ciOf(f).ci)

/** Intervals on a dataset's figures, as `DatasetFigures.ci` (absent when there are none). */
const cisOf = (intervals: Uncertainty.ResultIntervals | undefined, id: string, dataset: string, metrics: ReadonlyArray<string>): Pick<DatasetFigures, "ci"> => {
  if (intervals === undefined) return {}
  const ci: Record<string, Interval> = {}
  for (const m of metrics) {
    const i = intervalOf(Uncertainty.datasetFigure(intervals, id, dataset, m))
    if (i !== undefined) ci[m] = i
  }
  return Object.keys(ci).length > 0 ? { ci } : {}
}

/** The edition's ranking a ranking of the results is named after (`official`, a subtask, a dataset of a ranking per dataset). */
const editionRanking = (edition: Registry.TaskEdition | undefined, name: string): Registry.Ranking | undefined => {
  if (edition === undefined) return undefined
  if (name === "official" && edition.ranking.length === 1) return edition.ranking[0]
  const bySubtask = edition.ranking.find((r) => r.subtask === name)
  if (bySubtask !== undefined) return bySubtask
  const dataset = edition.datasets.find((d) => d.name === name)
  return dataset !== undefined ? Registry.rankingOfDataset(edition, dataset) : undefined
}

/**
 * The figures a ranking orders by, as `figureKey`s: a ranking over several datasets its official
 * aggregate (`aggregate:official`); a ranking of one dataset that dataset's figure by the ranking's
 * metric (`relatedness:pearson`, STS Benchmark's `test:pearson`, also `aggregate:official` when it
 * is the edition's one ranking); a dataset ranked on its own (SemRel: `eng`) its figure by the
 * ranking's metric (`eng:spearman`).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { FromScoring } from "@stseval/tables"
 *
 * FromScoring.figuresOf(Registry.get("sick2014")!, "relatedness", "pearson") // ["relatedness:pearson"]
 * FromScoring.figuresOf(Registry.get("sts2017")!, "official", "pearson") // ["aggregate:official"]
 * ```
 * @since 0.3.0
 */
export const figuresOf = (edition: Registry.TaskEdition | undefined, ranking: string, metric: string): ReadonlyArray<string> => {
  const spec = editionRanking(edition, ranking)
  if (spec !== undefined && Registry.isRankedPerDataset(spec)) return [figureKey({ _tag: "metric", dataset: ranking, metric })]
  const datasets = edition !== undefined && spec !== undefined ? Registry.datasetsOf(edition, spec) : []
  const aggregate = figureKey({ _tag: "aggregate", name: ranking })
  return datasets.length === 1 ? [figureKey({ _tag: "metric", dataset: datasets[0].name, metric }), ...(ranking === "official" ? [aggregate] : [])] : [aggregate]
}

/**
 * The rankings of scored results as the layouts read them: each ranking's entries in its order,
 * with the figures it orders by.
 *
 * @example
 * ```ts
 * import { Rank } from "@stseval/scoring"
 * import type { Engine } from "@stseval/scoring"
 * import * as Marks from "@stseval/scoring/Marks"
 * import { FromScoring } from "@stseval/tables"
 *
 * declare const results: Engine.Results // Engine.score's
 *
 * const ranks = FromScoring.rankingsOf(results.edition, results.ranked)[0].entries.map((e) => [e.id, e.rank])
 * // or a ranking of every run, as a table of every run lists them
 * const all = FromScoring.rankingsOf(results.edition, Rank.rank(results.runs, { primaryOnly: false }))
 * ```
 * @since 0.3.0
 */
export const rankingsOf = (
  edition: Registry.TaskEdition | undefined,
  ranked: Pick<Rank.RankedResults<ScoredRun.ScoredRun>, "rankings">
): ReadonlyArray<Ranking> =>
  ranked.rankings.map((r) => ({
    ranking: r.ranking,
    metric: r.metric,
    direction: r.lowerIsBetter ? "lower" : "higher",
    figures: figuresOf(edition, r.ranking, r.metric),
    ...(r.rule !== undefined ? { rule: r.rule } : {}),
    entries: r.entries.map((e) => ({ id: e.meta.id, rank: e.rank, ...(e.reason !== undefined ? { reason: e.reason } : {}) }))
  }))

const rankIntervalsOf = (intervals: Uncertainty.ResultIntervals | undefined, run: ScoredRun.ScoredRun, edition: Registry.TaskEdition | undefined): Pick<RunResult, "rankIntervals"> => {
  if (intervals === undefined) return {}
  const out: Record<string, RankInterval> = {}
  for (const pass of intervals.passes) {
    if (!pass.ranked) continue
    const ri = Uncertainty.runIntervals(intervals, pass.ranking, run.meta.id)
    if (ri?.rankInterval === undefined) continue
    for (const key of figuresOf(edition, pass.ranking, pass.metric)) out[key] = { low: ri.rankInterval.low, high: ri.rankInterval.high, overlapsBest: ri.overlapsBest }
  }
  return { rankIntervals: out }
}

const value = (m: MetricValue.MetricValue | undefined): number | undefined => (m !== undefined && m._tag === "Defined" ? m.value : undefined)
const why = (m: MetricValue.MetricValue | undefined): string | undefined => (m !== undefined && m._tag === "Undefined" ? m.reason : undefined)

const sectionOf = (run: ScoredRun.ScoredRun, sections: Readonly<Record<string, string>> | undefined): string | undefined =>
  sections?.[run.meta.id] ?? sections?.[run.meta.team] ?? (/baseline/i.test(run.meta.team) ? "Baselines" : undefined)

/**
 * One scored run as a layout row (figures only).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Engine } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * const results = await Effect.runPromise(
 *   Engine.score({ task: "sick2014", gold: "SICK_test_annotated.txt", folder: "submissions" }).pipe(Effect.provide(NodeServices.layer))
 * )
 * import { FromScoring } from "@stseval/tables"
 *
 * const run = FromScoring.fromScoredRun(results.runs[0], { edition: results.edition })
 * ```
 * @since 0.1.0
 */
export const fromScoredRun = (run: ScoredRun.ScoredRun, options: Options = {}): RunResult => {
  const datasets: Record<string, DatasetFigures> = {}
  const { intervals } = options
  const id = run.meta.id
  for (const d of run.datasets) {
    if (d.status === "no-gold") continue
    const figures = Object.entries(d.figures)
    datasets[d.dataset] = {
      ...Object.fromEntries(figures.map(([m, f]) => [m, value(f)])),
      pairs: d.pairs,
      reason: d.status === "missing" ? `${d.dataset} not submitted` : (d.reason ?? why(d.figures[d.metric])),
      ...(d.status === "missing" ? { state: "notSubmitted" as const } : d.status === "not-scored" ? { state: "failed" as const } : {}),
      ...cisOf(intervals, id, d.dataset, figures.map(([m]) => m))
    }
  }
  // the official figure of the one ranking over several datasets, and its labelled aggregates
  const aggregates: Record<string, number | undefined> = {}
  const aggregateReasons: Record<string, string> = {}
  const aggregateIntervals: Record<string, Interval> = {}
  const add = (name: string, m: MetricValue.MetricValue, f: Uncertainty.Figure | undefined) => {
    aggregates[name] = value(m)
    const ci = intervalOf(f)
    if (ci !== undefined) aggregateIntervals[name] = ci
    const r = why(m)
    if (r !== undefined) aggregateReasons[name] = r
  }
  // every ranking's official figure by the ranking's name (`official`; SICK: `relatedness`, `entailment`)
  for (const o of run.official) add(o.ranking, o.value, intervals && Uncertainty.rankedFigure(intervals, o.ranking, id))
  for (const [name, a] of Object.entries(run.aggregates.official ?? {})) {
    if (a !== undefined) add(name, a.value, intervals && Uncertainty.aggregateFigure(intervals, id, name))
  }
  if (run.status === "failed" && run.failure !== undefined) aggregateReasons.official ??= run.failure
  const meta = run.meta
  return {
    // the run's id is its name in every output (rank, report, watch): ECNU/run1
    ...named(meta),
    ...(run.status === "failed" ? { failed: true } : {}),
    late: meta.late,
    corrected: meta.corrected,
    postDeadline: meta.postDeadline,
    ...(run.official.some((o) => o.zeroed.length > 0) ? { zeroed: true } : {}),
    ...(meta.identityUnknown === true ? { identityUnknown: true } : {}),
    section: sectionOf(run, options.sections),
    datasets,
    aggregates,
    aggregateReasons,
    ...(intervals !== undefined ? { aggregateIntervals } : {}),
    ...rankIntervalsOf(intervals, run, options.edition)
  }
}

/**
 * Results of one edition from its scored runs.
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import * as Marks from "@stseval/scoring/Marks"
 * import { FromScoring } from "@stseval/tables"
 *
 * declare const results: Engine.Results // Engine.score's
 *
 * const view = FromScoring.fromScoredRuns(results.runs, { edition: results.edition, ranked: results.ranked })
 * ```
 * @since 0.1.0
 */
export const fromScoredRuns = (runs: ReadonlyArray<ScoredRun.ScoredRun>, options: Options = {}): Results => {
  const names = options.edition?.datasets.map((d) => d.name) ?? [...new Set(runs.flatMap((r) => r.datasets.map((d) => d.dataset)))]
  // Scores of a run on each dataset of graded scores, and one gold per dataset (every run's scored
  // pairs are the same pairs in the same order).
  const gold = new Map<string, Float64Array>()
  const scoresOf = (run: ScoredRun.ScoredRun): Record<string, Float64Array> => {
    const out: Record<string, Float64Array> = {}
    for (const d of run.datasets) {
      const aligned = d.aligned
      if (aligned?.kind !== "scores") continue
      const g = gold.get(d.dataset)
      if (g === undefined) gold.set(d.dataset, aligned.gold)
      else if (g.length !== aligned.gold.length) continue // not the same pairs: no comparison
      out[d.dataset] = aligned.run
    }
    return out
  }
  const rows = runs.map((r) => {
    const row = fromScoredRun(r, options)
    const scores = scoresOf(r)
    return Object.keys(scores).length > 0 ? { ...row, scores } : row
  })
  const datasets: Array<DatasetInfo> = names.map((name) => {
    const spec = options.edition?.datasets.find((d) => d.name === name)
    const g = gold.get(name)
    // no gold: every run says so (the gold was never released, or not loaded)
    const states = runs.flatMap((r) => r.datasets.filter((d) => d.dataset === name))
    const noGold = states.length > 0 && states.every((d) => d.status === "no-gold") ? (states[0].reason ?? spec?.goldNotPublic) : undefined
    const ranking = spec !== undefined && options.edition !== undefined ? Registry.rankingOfDataset(options.edition, spec) : undefined
    const metric = ranking?.metric ?? runs.flatMap((r) => r.datasets.filter((d) => d.dataset === name).map((d) => d.metric))[0]
    return {
      name,
      header: Registry.datasetHeader(options.edition, name),
      pairs: g?.length ?? spec?.pairs,
      ...(g !== undefined ? { gold: g } : {}),
      ...(noGold !== undefined ? { noGold } : {}),
      ...(metric !== undefined ? { metric } : {}),
      ...(ranking !== undefined ? { metrics: Registry.reportedMetrics(ranking), subtask: ranking.subtask, rankedPerDataset: Registry.isRankedPerDataset(ranking) } : {})
    }
  })
  const { intervals } = options
  return {
    edition: options.edition?.id ?? runs[0]?.edition ?? "unknown",
    ...(options.edition !== undefined ? { style: options.edition.published.style } : {}),
    datasets,
    runs: rows,
    rankings: options.ranked !== undefined ? rankingsOf(options.edition, options.ranked) : [],
    ...(options.ranked !== undefined ? { primaryOnly: options.ranked.primaryOnly } : {}),
    ...(options.marks !== undefined ? { marks: marksByKey(options.marks.figures) } : {}),
    ...(intervals !== undefined
      ? { intervals: { level: intervals.level, resamples: intervals.resamples, seed: intervals.seed, signature: intervals.signatureText } }
      : {})
  }
}

/**
 * The layouts' view of scored results (`Engine.Results`): its runs, its rankings, and the marks
 * and intervals given.
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import * as Marks from "@stseval/scoring/Marks"
 * import { FromScoring } from "@stseval/tables"
 *
 * declare const results: Engine.Results // Engine.score's
 *
 * const view = FromScoring.fromResults(results, { marks: Marks.compute(results) })
 * ```
 * @since 0.3.0
 */
export const fromResults = (
  results: { readonly edition: Registry.TaskEdition; readonly runs: ReadonlyArray<ScoredRun.ScoredRun>; readonly ranked: Pick<Rank.RankedResults<ScoredRun.ScoredRun>, "rankings" | "primaryOnly"> },
  options: Omit<Options, "edition" | "ranked"> = {}
): Results => fromScoredRuns(results.runs, { ...options, edition: results.edition, ranked: results.ranked })

/**
 * Merge the results of two editions over the same systems (STS Benchmark `stsb-dev` and `stsb`
 * for Table 14): runs are joined by id, datasets concatenated (names must differ); where both
 * have an aggregate of the same name (`official`), the second's wins: pass the main edition second.
 *
 * @example
 * ```ts
 * import { FromScoring, Results } from "@stseval/tables"
 *
 * declare const dev: Results.Results
 * declare const test: Results.Results
 * const both = FromScoring.merge(dev, test) // STS Benchmark Table 14: each run's dev and test figures
 * ```
 * @since 0.1.0
 */
export const merge = (a: Results, b: Results): Results => {
  const ids = new Set([...a.runs.map((r) => r.id), ...b.runs.map((r) => r.id)])
  const runs: Array<RunResult> = []
  for (const id of ids) {
    const x = a.runs.find((r) => r.id === id)
    const y = b.runs.find((r) => r.id === id)
    const base = x ?? y
    if (base === undefined) continue
    runs.push({
      ...base,
      primary: (x?.primary ?? false) || (y?.primary ?? false),
      datasets: { ...(x?.datasets ?? {}), ...(y?.datasets ?? {}) },
      aggregates: { ...(x?.aggregates ?? {}), ...(y?.aggregates ?? {}) },
      scores: { ...(x?.scores ?? {}), ...(y?.scores ?? {}) },
      ...(x?.aggregateIntervals !== undefined || y?.aggregateIntervals !== undefined
        ? { aggregateIntervals: { ...(x?.aggregateIntervals ?? {}), ...(y?.aggregateIntervals ?? {}) } }
        : {}),
      ...(x?.rankIntervals !== undefined || y?.rankIntervals !== undefined ? { rankIntervals: { ...(x?.rankIntervals ?? {}), ...(y?.rankIntervals ?? {}) } } : {})
    })
  }
  const intervals = b.intervals ?? a.intervals
  return {
    edition: `${a.edition}+${b.edition}`,
    datasets: [...a.datasets, ...b.datasets.filter((d) => !a.datasets.some((e) => e.name === d.name))],
    runs,
    // the main edition's rankings (the second's): the dev split is shown beside it, not ranked; a
    // run of the first only is listed without a rank
    rankings: b.rankings.map((k) => {
      const listed = new Set(k.entries.map((e) => e.id))
      const extra = a.runs.filter((r) => !b.runs.some((x) => x.id === r.id) && !listed.has(r.id) && (b.primaryOnly !== true || r.primary))
      return extra.length === 0 ? k : { ...k, entries: [...k.entries, ...extra.map((r) => ({ id: r.id, rank: undefined, reason: `not in ${b.edition}` }))] }
    }),
    ...(b.primaryOnly !== undefined ? { primaryOnly: b.primaryOnly } : {}),
    ...(a.marks !== undefined || b.marks !== undefined ? { marks: { ...(a.marks ?? {}), ...(b.marks ?? {}) } } : {}),
    ...(intervals !== undefined ? { intervals } : {})
  }
}
