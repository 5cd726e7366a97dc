/**
 * A scored, ranked result (`Engine.Results`, a `ScoredRun`, a ranking, intervals) in its JSON shape
 * (`ResultSchema`): what `score --json`, `rank --json`, the board and Codabench's scoring program
 * write. Numbers are full-precision; a metric without a value is `null` with its reason under the
 * object's `undefined`.
 *
 * @since 0.4.0
 */
import { MetricValue } from "@stseval/metrics"
import type * as Intervals from "@stseval/significance/Intervals"
import type { Results } from "./Engine.js"
import type * as Rule from "./internal/marksRule.js"
import type { Figure, Rankable, RankedResults, RankEntry } from "./Rank.js"
import type { AggregateJson, ClassJson, DatasetJson, FigureWithIntervalJson, IntervalJson, IntervalsJson, LabelsJson, OfficialJson, RankedJson, RunJson, ScoredResults, ScoredRunJson } from "./ResultSchema.js"
import { FORMAT } from "./ResultSchema.js"
import type { AggregateScore, DatasetScore, LabelSummary, OfficialScore, ScoredRun } from "./ScoredRun.js"
import * as Uncertainty from "./Uncertainty.js"
import type { RunInfo } from "./Validation.js"

/** A figure, or with intervals (`--ci`) the figure and its interval. */
type FigureOrInterval = number | null | typeof FigureWithIntervalJson.Type

/**
 * A figure as every JSON output writes it: its value, or null (the reason then goes into the
 * object's `undefined`).
 *
 * @example
 * ```ts
 * import { MetricValue } from "@stseval/metrics"
 * import { ResultJson } from "@stseval/scoring"
 *
 * ResultJson.figureJson(MetricValue.undefined_("the run is constant")) // null
 * ```
 * @since 0.5.0
 */
export const figureJson = (m: MetricValue.MetricValue): number | null => (m._tag === "Defined" && Number.isFinite(m.value) ? m.value : null)
const reasonOf = (m: MetricValue.MetricValue): string => (m._tag === "Undefined" ? m.reason : "not a finite number")

/** The `undefined` member of an object holding these metrics: absent when every one has a value. */
const reasons = (metrics: ReadonlyArray<readonly [string, MetricValue.MetricValue | undefined]>): { readonly undefined?: Record<string, string> } => {
  const out: Record<string, string> = {}
  for (const [k, m] of metrics) if (m !== undefined && figureJson(m) === null) out[k] = reasonOf(m)
  return Object.keys(out).length > 0 ? { undefined: out } : {}
}

/**
 * The `--ci` members (`ciFields`) of an object holding a figure: nothing without intervals.
 *
 * @example
 * ```ts
 * import { ResultJson, Uncertainty } from "@stseval/scoring"
 *
 * declare const intervals: Uncertainty.ResultIntervals
 * const fields = ResultJson.ciOf(Uncertainty.rankedFigure(intervals, "relatedness", "MeaningFactory/run1")) // { ci: { low, high, level } }
 * ```
 * @since 0.2.0
 */
export const ciOf = (f: Intervals.Figure | undefined): { readonly ci?: typeof IntervalJson.Type | null; readonly ciReason?: string; readonly degenerate?: number } =>
  f === undefined
    ? {}
    : {
        ci:
          f.ci === undefined
            ? null
            : { low: f.ci.low, high: f.ci.high, level: f.ci.level, ...(Uncertainty.isFew(f) ? { fewPairs: f.pairs } : {}), ...(Uncertainty.isSkewed(f) ? { skewed: f.skewed } : {}) },
        ...(f.ci === undefined && f.reason !== undefined ? { ciReason: f.reason } : {}),
        ...(f.degenerate > 0 ? { degenerate: f.degenerate } : {})
      }

/** A figure as a number, or with its interval `{ value, ci }` when intervals were computed. */
const withCi = (value: number | null, f: Intervals.Figure | undefined): FigureOrInterval =>
  f === undefined ? value : { value, ...ciOf(f) }

const runJson = (m: RunInfo): typeof RunJson.Type => ({
  id: m.id,
  team: m.team,
  run: m.run ?? null,
  primary: m.primary,
  late: m.late,
  corrected: m.corrected,
  postDeadline: m.postDeadline,
  ...(m.description !== undefined ? { description: m.description } : {}),
  ...(m.identityUnknown === true ? { identityUnknown: true as const } : {})
})

const aggregateJson = (a: AggregateScore, f: Intervals.Figure | undefined): typeof AggregateJson.Type => ({
  metric: a.metric,
  value: figureJson(a.value),
  ...(a.unofficial !== undefined ? { unofficial: a.unofficial } : {}),
  datasets: [...a.datasets],
  zeroed: a.zeroed.map((z) => ({ ...z })),
  ...ciOf(f),
  ...reasons([["value", a.value]])
})

const labelsJson = (l: LabelSummary): typeof LabelsJson.Type => ({
  labels: [...l.labels],
  confusion: l.confusion.map((row) => [...row]),
  correct: l.correct,
  perClass: Object.fromEntries(
    Object.entries(l.perClass).map(([label, c]): [string, typeof ClassJson.Type] => [
      label,
      {
        precision: figureJson(c.precision),
        recall: figureJson(c.recall),
        f1: figureJson(c.f1),
        support: c.support,
        ...reasons([["precision", c.precision], ["recall", c.recall], ["f1", c.f1]])
      }
    ])
  )
})

const datasetJson = (d: DatasetScore, ci: (metric: string) => Intervals.Figure | undefined): typeof DatasetJson.Type => {
  const figures = Object.entries(d.figures)
  return {
    subtask: d.subtask,
    status: d.status,
    ...(d.reason !== undefined ? { reason: d.reason } : {}),
    ...(d.file !== undefined ? { file: d.file } : {}),
    pairs: d.pairs,
    weight: d.weight,
    runLines: d.runLines,
    ...(d.linesScored !== undefined ? { linesScored: [d.linesScored[0], d.linesScored[1]] as const } : {}),
    figures: Object.fromEntries(figures.map(([name, m]) => [name, withCi(figureJson(m), ci(name))])),
    ...(d.labels !== undefined ? { labels: labelsJson(d.labels) } : {}),
    ...reasons(figures)
  }
}

/**
 * One official figure of a run as the documented JSON says it (`OfficialJson`); with `f` (its
 * interval, `Uncertainty.rankedFigure`), its interval too.
 *
 * @example
 * ```ts
 * import { Engine, ResultJson } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const official = results.runs[0].official.map((o) => ResultJson.officialJson(o)) // what the watcher's cache keeps
 * ```
 * @since 0.5.0
 */
export const officialJson = (o: OfficialScore, f?: Intervals.Figure): typeof OfficialJson.Type => ({
  ranking: o.ranking,
  metric: o.metric,
  rule: o.rule,
  direction: o.direction,
  value: figureJson(o.value),
  datasets: [...o.datasets],
  zeroed: o.zeroed.map((z) => ({ ...z })),
  ...ciOf(f),
  ...reasons([["value", o.value]])
})

/**
 * An official figure of the JSON (`OfficialJson`, as the watcher's cache keeps it) as `Rank.rank`
 * orders by it, in one step: null is undefined with its reason; the zeroed datasets of a figure
 * with a value flag the run `zeroed`.
 *
 * @example
 * ```ts
 * import { Rank, ResultJson } from "@stseval/scoring"
 * import type { ResultSchema } from "@stseval/scoring"
 *
 * declare const official: ReadonlyArray<typeof ResultSchema.OfficialJson.Type> // a cached run's
 * const figures: ReadonlyArray<Rank.Figure> = official.map(ResultJson.rankFigure)
 * ```
 * @since 0.5.0
 */
export const rankFigure = (o: Pick<typeof OfficialJson.Type, "ranking" | "metric" | "direction" | "value" | "zeroed" | "undefined">): Figure => ({
  ranking: o.ranking,
  metric: o.metric,
  direction: o.direction,
  value: o.value !== null ? MetricValue.defined(o.value) : MetricValue.undefined_(o.undefined?.value ?? "not computed"),
  ...(o.value !== null && o.zeroed.length > 0 ? { zeroed: o.zeroed } : {})
})

/**
 * The documented JSON object of one scored run (`ScoredRunJson`): every app emits this. With
 * `intervals` (`Uncertainty.compute`), every figure carries its interval.
 *
 * @example
 * ```ts
 * import { Engine, ResultJson } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const json = ResultJson.toJson(results.runs[0]) // one scored run, as `score --json` prints it
 * ```
 * @since 0.1.0
 */
export const toJson = (run: ScoredRun, intervals?: Uncertainty.ResultIntervals): ScoredRunJson => {
  const id = run.meta.id
  return {
    edition: run.edition,
    path: run.path,
    run: runJson(run.meta),
    status: run.status,
    ...(run.failure !== undefined ? { failure: run.failure } : {}),
    datasets: Object.fromEntries(run.datasets.map((d) => [d.dataset, datasetJson(d, (m) => intervals && Uncertainty.datasetFigure(intervals, id, d.dataset, m))])),
    aggregates: Object.fromEntries(
      Object.entries(run.aggregates).map(([ranking, byRule]) => [
        ranking,
        Object.fromEntries(
          Object.entries(byRule).map(([rule, a]) => [rule, aggregateJson(a, intervals && Uncertainty.aggregateFigure(intervals, id, rule, ranking))])
        )
      ])
    ),
    official: run.official.map((o) => officialJson(o, intervals && Uncertainty.rankedFigure(intervals, o.ranking, id))),
    errors: [...run.errors],
    warnings: [...run.warnings],
    infos: [...run.infos]
  }
}

/**
 * What every JSON listing a ranked run says of it (`rank --json`, the leaderboard): its rank (null
 * when not ranked), who it is, its flags and its figure (null when it has none).
 *
 * @example
 * ```ts
 * import { Engine, ResultJson } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const entries = results.ranked.rankings[0].entries.map(ResultJson.entryJson)
 * ```
 * @since 0.2.0
 */
export const entryJson = (e: RankEntry<Rankable>) => ({
  rank: e.rank ?? null,
  id: e.meta.id,
  team: e.meta.team,
  run: e.meta.run ?? null,
  primary: e.primary,
  late: e.meta.late,
  corrected: e.meta.corrected,
  postDeadline: e.meta.postDeadline,
  ...(e.meta.identityUnknown === true ? { identityUnknown: true as const } : {}),
  flags: [...e.flags],
  value: figureJson(e.value)
})

/**
 * The documented JSON object of rankings (`RankedJson`). With `intervals`, each entry carries the
 * interval of its figure and of its rank, and each ranking its `bestGroup`.
 *
 * @example
 * ```ts
 * import { Engine, ResultJson } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const ranked = ResultJson.rankedToJson(results.ranked)
 * ```
 * @since 0.1.0
 */
export const rankedToJson = (ranked: Pick<RankedResults<ScoredRun>, "primaryOnly" | "excluded" | "rankings">, intervals?: Uncertainty.ResultIntervals): RankedJson => ({
  primaryOnly: ranked.primaryOnly,
  excluded: ranked.excluded,
  rankings: ranked.rankings.map((r) => ({
    ranking: r.ranking,
    metric: r.metric,
    ...(r.rule !== undefined ? { rule: r.rule } : {}),
    direction: r.lowerIsBetter ? ("lower" as const) : ("higher" as const),
    ...(intervals !== undefined ? { bestGroup: [...Uncertainty.bestGroup(intervals, r.ranking)] } : {}),
    entries: r.entries.map((e) => {
      const ri = intervals && Uncertainty.runIntervals(intervals, r.ranking, e.meta.id)
      return {
        ...entryJson(e),
        path: e.run.path,
        ...(ri !== undefined ? ciOf(ri.official) : {}),
        ...(ri?.rankInterval !== undefined ? { rankInterval: { low: ri.rankInterval.low, high: ri.rankInterval.high }, overlapsBest: ri.overlapsBest } : {}),
        ...(e.reason !== undefined ? { reason: e.reason } : {})
      }
    })
  }))
})

/**
 * The settings of the intervals, as the document carries them once.
 *
 * @example
 * ```ts
 * import { Engine, ResultJson, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results
 * const intervals = Uncertainty.compute(results, { level: 0.95 })
 * if (!Uncertainty.isError(intervals)) ResultJson.intervalsToJson(intervals)
 * ```
 * @since 0.2.0
 */
export const intervalsToJson = (intervals: Uncertainty.ResultIntervals): typeof IntervalsJson.Type => ({
  method: "percentile-bootstrap",
  level: intervals.level,
  resamples: intervals.resamples,
  seed: intervals.seed,
  signature: intervals.signatureText,
  notes: [...intervals.notes]
})

/**
 * A whole session as the documented JSON document (`ScoredResults`); with `intervals`
 * (`Uncertainty.compute`), every figure and rank with its interval and the settings once.
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
 * import { ResultJson } from "@stseval/scoring"
 *
 * // what `stseval rank --json` prints
 * const text = JSON.stringify(ResultJson.resultsToJson(results), null, 2)
 * ```
 * @since 0.1.0
 */
export const resultsToJson = (
  results: Pick<Results, "edition" | "signature" | "goldPath" | "gold" | "issues" | "runs"> & {
    readonly ranked?: RankedResults<ScoredRun> | undefined
  },
  intervals?: Uncertainty.ResultIntervals,
  /** `Marks.compute(results).figures.map(Marks.toJson)` (rank --marks) */
  marks?: ReadonlyArray<Rule.FigureMarksJson>
): ScoredResults => ({
  format: FORMAT,
  edition: results.edition.id,
  signature: results.signature,
  ...(intervals !== undefined ? { intervals: intervalsToJson(intervals) } : {}),
  gold: { ...(results.goldPath !== undefined ? { path: results.goldPath } : {}), issues: [...results.gold.issues] },
  issues: [...results.issues],
  runs: results.runs.map((r) => toJson(r, intervals)),
  ...(results.ranked !== undefined ? { rankings: rankedToJson(results.ranked, intervals) } : {}),
  ...(marks !== undefined ? { marks } : {})
})
