/**
 * The one converter to the layouts' `Results` (`convert`), reading scoring's JSON of each run and
 * ranking by named rules (the report's, the board's), and its report side: scored runs (with the
 * aligned scores the scatter plots need), their rankings, marks and intervals as scoring made them
 * (`fromResults`). Nothing here ranks or compares runs.
 *
 * @since 0.1.0
 */
import { Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import { ResultJson } from "@stseval/scoring"
import type { Rank, ResultSchema, ScoredRun, Uncertainty } from "@stseval/scoring"
import type * as Marks from "@stseval/scoring/Marks"
import type { DatasetFigures, DatasetInfo, Interval, RankInterval, Ranking, Results, RunResult } from "./Results.js"
import { figureKey, intervalOf, marksByKey, named } from "./Results.js"

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
 * Where the board's page and the report read one run differently, each rule named here (and
 * nowhere else): `reportRules` and `boardRules` are the two readings.
 *
 * - `failedRun`: a failed run's datasets are each `failed` (`every-dataset-failed`, the board:
 *   nothing of a failed run was scored), or each keeps its own status (`keep-dataset-status`, the
 *   report: a dataset it did not submit stays "-").
 * - `noGold`: a dataset without gold is listed without a figure (`no-figure`, the board: its
 *   column is the run's), or left out of the run (`left-out`, the report: its tables leave the
 *   dataset out and say why in a note).
 * - `reasons`: why a figure is missing: `run-then-ranking` (the board: the run's failure, else why
 *   its ranking lists it without a rank, else why its official figure is undefined) or
 *   `dataset-then-metric` (the report: "X not submitted", else the dataset's own reason, else why
 *   its ranked metric is undefined; the run's failure on its official figure).
 * - `rankedDataset`: a dataset that is a ranking's figure (SICK's `relatedness`, SemRel's `eng`)
 *   shows its ranking's official figure, interval and reason (`official-figure`, the board: the
 *   column is the ranking's), or its own (`own-figure`, the report).
 *
 * The board's JSON also holds only each dataset's ranked metric (`leaderboard.json`), so its
 * dataset columns carry that metric alone.
 *
 * @since 0.5.0
 */
export interface Rules {
  readonly failedRun: "every-dataset-failed" | "keep-dataset-status"
  readonly noGold: "no-figure" | "left-out"
  readonly reasons: "run-then-ranking" | "dataset-then-metric"
  readonly rankedDataset: "official-figure" | "own-figure"
}

/**
 * The report's reading (`stseval rank`, `report`).
 *
 * @since 0.5.0
 */
export const reportRules: Rules = { failedRun: "keep-dataset-status", noGold: "left-out", reasons: "dataset-then-metric", rankedDataset: "own-figure" }

/**
 * The leaderboard's page's reading (`BoardPage`).
 *
 * @since 0.5.0
 */
export const boardRules: Rules = { failedRun: "every-dataset-failed", noGold: "no-figure", reasons: "run-then-ranking", rankedDataset: "official-figure" }

type Json<S extends { readonly Type: unknown }> = S["Type"]

/**
 * One run as the converter reads it: the members of scoring's JSON of a run
 * (`ResultSchema.ScoredRunJson`) a table shows. The report passes `ResultJson.toJson` of each
 * scored run; the board its `leaderboard.json` run, whose datasets carry their ranked metric only
 * and whose official figures say their reason as `reason`.
 *
 * @since 0.5.0
 */
export interface RunJson {
  readonly run: Pick<Json<typeof ResultSchema.RunJson>, "id" | "team" | "run" | "primary" | "late" | "corrected" | "postDeadline" | "identityUnknown">
  readonly status: "scored" | "failed"
  readonly failure?: string | null | undefined
  /** by dataset name; a status-less dataset (a board cached before datasets had one) has no known reason */
  readonly datasets: Readonly<Record<string, Pick<Json<typeof ResultSchema.DatasetJson>, "figures"> & Partial<Pick<Json<typeof ResultSchema.DatasetJson>, "status" | "reason" | "pairs" | "undefined">>>>
  readonly official: ReadonlyArray<
    Pick<Json<typeof ResultSchema.OfficialJson>, "ranking" | "value"> & Partial<Pick<Json<typeof ResultSchema.OfficialJson>, "zeroed" | "ci" | "undefined">> & { readonly reason?: string | undefined }
  >
  readonly aggregates?: Json<typeof ResultSchema.ScoredRunJson>["aggregates"] | undefined
  /** its ranking's flags (`RankEntryJson.flags`; none for a run whose identity is unknown): its late, corrected, post-deadline and zeroed marks; without them its own JSON's */
  readonly flags?: ReadonlyArray<Json<typeof ResultSchema.FlagJson>> | undefined
}

/**
 * A ranking as the converter reads it: scoring's JSON of it (`ResultSchema.RankedJson`'s rankings,
 * or the board's), and the figures it orders by as `figureKey`s (`figuresOf`; the board's own
 * column first).
 *
 * @since 0.5.0
 */
export interface RankingJson {
  readonly ranking: string
  readonly metric: string
  /** default: the metric's */
  readonly direction?: "higher" | "lower" | undefined
  readonly rule?: string | undefined
  readonly figures: ReadonlyArray<string>
  readonly entries: ReadonlyArray<{
    readonly id: string
    readonly rank: number | null
    readonly reason?: string | null | undefined
    readonly rankInterval?: { readonly low: number; readonly high: number } | undefined
    readonly overlapsBest?: boolean | undefined
  }>
}

/**
 * The one converter of scored runs to the layouts' rows and rankings: every figure, interval, mark
 * and reason read from scoring's JSON of each run and ranking, by `rules` (`reportRules`,
 * `boardRules`). `metrics` gives each dataset's ranked metric; `sectionOf` a run's section.
 *
 * @example
 * ```ts
 * import { Engine, ResultJson } from "@stseval/scoring"
 * import { FromScoring } from "@stseval/tables"
 *
 * declare const results: Engine.Results // Engine.score's
 * const { runs, rankings } = FromScoring.convert(
 *   { runs: results.runs.map((r) => ResultJson.toJson(r)), rankings: [], metrics: new Map([["relatedness", "pearson"]]) },
 *   FromScoring.reportRules
 * )
 * ```
 * @since 0.5.0
 */
export const convert = (
  input: {
    readonly runs: ReadonlyArray<RunJson>
    readonly rankings: ReadonlyArray<RankingJson>
    readonly metrics: ReadonlyMap<string, string>
    readonly sectionOf?: ((run: RunJson["run"]) => string | undefined) | undefined
  },
  rules: Rules
): { readonly runs: Array<RunResult>; readonly rankings: Array<Ranking> } => {
  // each ranking's entries by run id, looked up once: a search per run and ranking made a 500-run
  // board's rendering quadratic (~100 ms of each watcher write)
  const entries = new Map(input.rankings.map((r) => [r.ranking, new Map(r.entries.map((e) => [e.id, e] as const).reverse())] as const))
  const runs = input.runs.map((run) => runResult(run, input, entries, rules))
  const rankings = input.rankings.map(
    (r): Ranking => ({
      ranking: r.ranking,
      metric: r.metric,
      direction: r.direction ?? Metrics.get(r.metric)?.direction ?? "higher",
      figures: r.figures,
      ...(r.rule !== undefined ? { rule: r.rule } : {}),
      entries: r.entries.map((e) => ({ id: e.id, rank: e.rank ?? undefined, ...(e.reason != null ? { reason: e.reason } : {}) }))
    })
  )
  return { runs, rankings }
}

type Entry = RankingJson["entries"][number]
type FigureJson = RunJson["datasets"][string]["figures"][string]
const valueOf = (f: FigureJson | undefined): number | undefined => (f == null ? undefined : typeof f === "number" ? f : (f.value ?? undefined))

const runResult = (
  run: RunJson,
  input: Parameters<typeof convert>[0],
  entries: ReadonlyMap<string, ReadonlyMap<string, Entry>>,
  rules: Rules
): RunResult => {
  const id = run.run.id
  const failed = run.status === "failed"
  const failure = run.failure ?? undefined
  const byRunFirst = rules.reasons === "run-then-ranking"
  const datasets: Record<string, DatasetFigures> = {}
  for (const [name, d] of Object.entries(run.datasets)) {
    if (d.status === "no-gold" && rules.noGold === "left-out") continue
    const figures = Object.entries(d.figures)
    const ci: Record<string, Interval> = {}
    for (const [m, f] of figures) {
      const i = f !== null && typeof f === "object" ? intervalOf(f.ci) : undefined
      if (i !== undefined) ci[m] = i
    }
    const metric = input.metrics.get(name) ?? ""
    const reason = byRunFirst ? failure : d.status === "missing" ? `${name} not submitted` : (d.reason ?? d.undefined?.[metric])
    const state =
      failed && rules.failedRun === "every-dataset-failed"
        ? "failed"
        : d.status === "missing"
          ? "notSubmitted"
          : d.status === "not-scored"
            ? "failed"
            : d.status === "no-gold" || d.status === undefined
              ? "noFigure"
              : undefined
    datasets[name] = {
      ...Object.fromEntries(figures.map(([m, f]) => [m, valueOf(f)])),
      ...(d.pairs !== undefined ? { pairs: d.pairs } : {}),
      ...(reason !== undefined ? { reason } : {}),
      ...(state !== undefined ? { state } : {}),
      ...(Object.keys(ci).length > 0 ? { ci } : {})
    }
  }
  // every ranking's official figure by the ranking's name (`official`; SICK: `relatedness`, `entailment`)
  const aggregates: Record<string, number | undefined> = {}
  const aggregateReasons: Record<string, string> = {}
  const aggregateIntervals: Record<string, Interval> = {}
  const rankIntervals: Record<string, RankInterval> = {}
  const add = (name: string, value: number | null | undefined, reason: string | undefined, ci: Json<typeof ResultSchema.IntervalJson> | null | undefined) => {
    aggregates[name] = value ?? undefined
    if (reason !== undefined) aggregateReasons[name] = reason
    const i = intervalOf(ci)
    if (i !== undefined) aggregateIntervals[name] = i
  }
  const official = new Map(run.official.map((o) => [o.ranking, o]))
  for (const name of new Set([...official.keys(), ...input.rankings.map((r) => r.ranking)])) {
    const o = official.get(name)
    const e = entries.get(name)?.get(id)
    const own = o?.undefined?.value ?? o?.reason
    const reason = byRunFirst ? (failure ?? e?.reason ?? own) : own
    add(name, o?.value, reason ?? undefined, o?.ci)
  }
  if (!byRunFirst && failed && failure !== undefined) aggregateReasons.official ??= failure
  for (const [name, a] of Object.entries(run.aggregates?.official ?? {})) if (a !== undefined) add(name, a.value, a.undefined?.value, a.ci)
  for (const r of input.rankings) {
    const e = entries.get(r.ranking)?.get(id)
    if (e?.rankInterval !== undefined) for (const key of r.figures) rankIntervals[key] = { low: e.rankInterval.low, high: e.rankInterval.high, overlapsBest: e.overlapsBest === true }
    // the board's column of a ranking of one dataset is the ranking's figure
    const d = datasets[r.ranking]
    if (rules.rankedDataset === "official-figure" && d !== undefined) {
      const value = official.get(r.ranking)?.value
      const ci = aggregateIntervals[r.ranking]
      const reason = aggregateReasons[r.ranking]
      datasets[r.ranking] = {
        ...d,
        ...(value != null ? { [r.metric]: value } : {}),
        ...(reason !== undefined ? { reason } : {}),
        ...(ci !== undefined ? { ci: { ...d.ci, [r.metric]: ci } } : {})
      }
    }
  }
  const flags = run.flags
  const meta = run.run
  return {
    // the run's id is its name in every output (rank, report, watch): ECNU/run1
    ...named(meta),
    ...(failed ? { failed: true } : {}),
    late: flags !== undefined ? flags.includes("late") : meta.late,
    corrected: flags !== undefined ? flags.includes("corrected") : meta.corrected,
    postDeadline: flags !== undefined ? flags.includes("post-deadline") : meta.postDeadline,
    ...((flags !== undefined ? flags.includes("zeroed") : run.official.some((o) => (o.zeroed?.length ?? 0) > 0)) ? { zeroed: true } : {}),
    ...(meta.identityUnknown === true ? { identityUnknown: true } : {}),
    section: input.sectionOf?.(meta),
    datasets,
    aggregates,
    aggregateReasons,
    aggregateIntervals,
    rankIntervals
  }
}

const sectionOf = (meta: RunJson["run"], sections: Readonly<Record<string, string>> | undefined): string | undefined =>
  sections?.[meta.id] ?? sections?.[meta.team] ?? (/baseline/i.test(meta.team) ? "Baselines" : undefined)

/**
 * A ranking of scored results as the converter reads it: scoring's JSON of it
 * (`ResultJson.rankedToJson`, with each entry's rank interval when `intervals` are given) and the
 * figures it orders by (`figuresOf`).
 */
const rankingJson = (
  edition: Registry.TaskEdition | undefined,
  ranked: Pick<Rank.RankedResults<ScoredRun.ScoredRun>, "rankings">,
  intervals?: Uncertainty.ResultIntervals
): ReadonlyArray<RankingJson> =>
  // primaryOnly and excluded are the Results' own, not a ranking's
  ResultJson.rankedToJson({ rankings: ranked.rankings, primaryOnly: false, excluded: 0 }, intervals).rankings.map((r) => ({ ...r, figures: figuresOf(edition, r.ranking, r.metric) }))

/** Each dataset's ranked metric: the edition's, else the runs'. */
const metricsOf = (runs: ReadonlyArray<ScoredRun.ScoredRun>, edition: Registry.TaskEdition | undefined): ReadonlyMap<string, string> => {
  const out = new Map<string, string>()
  for (const r of runs) for (const d of r.datasets) if (!out.has(d.dataset)) out.set(d.dataset, d.metric)
  if (edition !== undefined) for (const spec of edition.datasets) out.set(spec.name, Registry.rankingOfDataset(edition, spec).metric)
  return out
}

/** Scored runs as rows and rankings, through `convert` with the report's rules. */
const fromScored = (runs: ReadonlyArray<ScoredRun.ScoredRun>, options: Options) =>
  convert(
    {
      runs: runs.map((r) => ResultJson.toJson(r, options.intervals)),
      rankings: options.ranked !== undefined ? rankingJson(options.edition, options.ranked, options.intervals) : [],
      metrics: metricsOf(runs, options.edition),
      sectionOf: (meta) => sectionOf(meta, options.sections)
    },
    reportRules
  )

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
  const { runs: converted, rankings } = fromScored(runs, options)
  const rows = runs.map((r, i) => {
    const row = converted[i]
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
    rankings,
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
