/**
 * Confidence intervals on every figure of a scored result and intervals on every rank: the one
 * mapping from `Engine.Results` to significance's `Intervals.compute`, which `score`, `rank`,
 * `report` and the live leaderboard all call, so that every output shows the same intervals.
 *
 * What is resampled: the pairs of each dataset, within that dataset, with one stratified
 * percentile-bootstrap pass per ranking serving every figure and every rank of it (see
 * docs/significance.md for what the intervals mean and do not mean).
 *
 * - STS: one call over the edition's datasets by Pearson, with the edition's official rule and
 *   missing-dataset rule and the reported aggregates; the official ranking's ranked runs are the
 *   ranked ones. Spearman beside Pearson: a second call, same seed (the same resamples), datasets
 *   only, nothing ranked.
 * - SICK: one call per ranking, `relatedness` (one Pearson dataset) and `entailment` (one accuracy
 *   dataset), both `single`; relatedness Spearman beside Pearson, as for STS.
 * - An edition ranked per dataset (SemEval-2024 Task 1: per language, by Spearman): each dataset is
 *   a ranking of its own, so one call per dataset with that dataset alone (`single`, by the
 *   ranking's metric), whose ranked runs are that ranking's; the other correlation of the dataset
 *   (Pearson) beside it from the same resamples (same dataset, same seed), nothing ranked; and one
 *   call over every dataset for the ranking's rule over them (the mean, reported unofficial),
 *   nothing ranked.
 *
 * The Spearman pass costs about as much CPU as the Pearson one (an exact O(n) rank walk per run
 * and resample, in WebAssembly SIMD, on worker threads for large jobs); `spearman: false` leaves it
 * out when no output shows Spearman (the `rank` table, the STS report tables).
 *
 * Runs are named by their run id (`ScoredRun.meta.id`), the id every output uses, and joined with
 * `Rank`'s entries by it.
 *
 * @example
 * const results = yield* Engine.score({ task: "sts2017", folder: "submissions" })
 * const intervals = Uncertainty.compute(results, { level: 0.95, resamples: 1000, seed: 12345 })
 * if (!Uncertainty.isError(intervals)) Uncertainty.rankInterval(intervals, "official", "ECNU/run1") // { low: 1, high: 2 }
 * @since 0.2.0
 */
import * as Intervals from "@stseval/significance/Intervals"
import type { Results } from "./Engine.js"
import { correlationOf, officialAggregate, perDataset, reportedAggregates } from "./internal/edition.js"
import type { RankedResults, Ranking } from "./Rank.js"
import type { ScoredRun } from "./ScoredRun.js"

/**
 * What the mapping reads of a scored result: the edition, the runs (with their aligned scores) and
 * the rankings that say which runs are ranked. `Engine.Results` is one; a caller that ranks by its
 * own rules (the live leaderboard: run limit, deadline) gives its runs and the ids it ranks
 * (`Options.ranked`) without `ranked`.
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const scored: Uncertainty.Scored = { edition: results.edition, runs: results.runs }
 * ```
 * @since 0.2.0
 */
export interface Scored {
  readonly edition: Results["edition"]
  readonly runs: ReadonlyArray<ScoredRun>
  /** the rankings; absent: the runs ranked are `Options.ranked` (none without it) */
  readonly ranked?: Pick<RankedResults<ScoredRun>, "rankings"> | undefined
}

/**
 * The bootstrap settings; the defaults are `Intervals.compute`'s.
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * const options: Uncertainty.Options = { level: 0.9, resamples: 2000, seed: 1, spearman: false }
 * ```
 * @since 0.2.0
 */
export interface Options {
  /** strictly between 0 and 1 (see `parseLevel` for `--ci 95`); default 0.95 */
  readonly level?: number | undefined
  /** default 1,000 */
  readonly resamples?: number | undefined
  /** default 12345 */
  readonly seed?: number | undefined
  /** `auto` (default), `js` or `wasm`: the numbers do not depend on it */
  readonly engine?: "auto" | "js" | "wasm" | undefined
  /**
   * Ids of the runs to rank, in every ranking, instead of the runs each ranking of the results
   * ranks (e.g. a report table that ranks every run, not only primary runs). A run without an
   * official figure is never ranked.
   */
  readonly ranked?: ReadonlyArray<string> | undefined
  /**
   * intervals on the per-dataset Spearman figures too (a second pass, same seed); default true. An
   * edition ranked per dataset by Spearman has them in any case (they are its ranked figures).
   */
  readonly spearman?: boolean | undefined
}

/**
 * A figure with its interval (significance's `Intervals.Figure`).
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results)
 * if (!Uncertainty.isError(out)) {
 *   const figure: Uncertainty.Figure | undefined = Uncertainty.rankedFigure(out, "relatedness", "MeaningFactory/run1")
 *   figure?.ci // { low, high, level }
 * }
 * ```
 * @since 0.2.0
 */
export type Figure = Intervals.Figure
/**
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results)
 * if (!Uncertainty.isError(out)) {
 *   const rank: Uncertainty.RankInterval | undefined = Uncertainty.rankInterval(out, "relatedness", "Insight/run1")
 * }
 * ```
 * @since 0.2.0
 */
export type RankInterval = Intervals.RankInterval
/**
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results)
 * if (!Uncertainty.isError(out)) {
 *   const run: Uncertainty.RunIntervals | undefined = Uncertainty.runIntervals(out, "relatedness", "Insight/run1")
 * }
 * ```
 * @since 0.2.0
 */
export type RunIntervals = Intervals.RunIntervals

/**
 * The settings used when none are given.
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * Uncertainty.defaults // { level: 0.95, resamples: 1000, seed: 12345 }
 * ```
 * @since 0.2.0
 */
export const defaults = { level: 0.95, resamples: 1000, seed: 12345 } as const

/**
 * One ranking's intervals (STS: `official`; SICK: `relatedness`, `entailment`; an edition ranked
 * per dataset: each dataset, e.g. `eng`).
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results)
 * if (!Uncertainty.isError(out)) {
 *   const relatedness: Uncertainty.RankingIntervals | undefined = out.rankings.find((r) => r.ranking === "relatedness")
 * }
 * ```
 * @since 0.2.0
 */
export interface RankingIntervals {
  readonly ranking: string
  readonly result: Intervals.Result
  /**
   * Ranked per dataset: the dataset's other correlation (Pearson beside the ranked Spearman), from
   * the same resamples (the same one dataset, the same seed), nothing ranked; undefined otherwise
   * (or with `spearman: false` when it would be Spearman).
   */
  readonly beside?: Intervals.Result | undefined
}

/**
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results, { level: 95 })
 * if (!Uncertainty.isError(out)) {
 *   const intervals: Uncertainty.ResultIntervals = out
 *   intervals.signatureText // method, resamples, seed, level: enough to reproduce them
 * }
 * ```
 * @since 0.2.0
 */
export interface ResultIntervals {
  readonly level: number
  readonly resamples: number
  readonly seed: number
  /** the headline ranking's signature (every call shares the settings; the rule is the edition's) */
  readonly signature: Intervals.Signature
  readonly signatureText: string
  readonly rankings: ReadonlyArray<RankingIntervals>
  /**
   * per-dataset Spearman (SICK: relatedness), from the same resamples; undefined with
   * `spearman: false`, and for an edition ranked per dataset (each dataset's figures are on its ranking)
   */
  readonly spearman: Intervals.Result | undefined
  /**
   * Ranked per dataset: the ranking's rule over the datasets (`rule`: SemRel's `mean` of Spearman),
   * which the results report labelled unofficial; one pass over every dataset, nothing ranked.
   * Undefined otherwise.
   */
  readonly unofficial?: { readonly rule: string; readonly result: Intervals.Result } | undefined
  /** degenerate resamples, in words, from every call */
  readonly notes: ReadonlyArray<string>
}

/**
 * Bad input or settings: which field, what was expected, what was found.
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results, { resamples: 0 })
 * if (Uncertainty.isError(out)) {
 *   const invalid: Uncertainty.Invalid = out
 *   console.error(`${invalid.field}: expected ${invalid.expected}, found ${invalid.found}`)
 * }
 * ```
 * @since 0.2.0
 */
export type Invalid = Exclude<ReturnType<typeof Intervals.compute>, Intervals.Result>

/**
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results)
 * Uncertainty.isError(out) ? out.message : out.signatureText
 * ```
 * @since 0.2.0
 */
export const isError = (r: ResultIntervals | Invalid): r is Invalid => !("rankings" in r)

/**
 * A level as people write it: `95` (percent) or `0.95`. Undefined when it is neither strictly
 * between 0 and 1 nor strictly between 1 and 100.
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * Uncertainty.parseLevel(95) // 0.95
 * Uncertainty.parseLevel(0.9) // 0.9
 * Uncertainty.parseLevel(150) // undefined
 * ```
 * @since 0.2.0
 */
export const parseLevel = (value: number): number | undefined => {
  if (!Number.isFinite(value) || value <= 0 || value >= 100 || value === 1) return undefined
  // 95 -> 0.95 exactly (95 / 100 is 0.95 in doubles)
  return value > 1 ? value / 100 : value
}

// ---------------------------------------------------------------------------------------------
// The mapping

/** Ids of the runs a ranking ranks (those with a rank): every other run gets figures, not a rank. */
const rankedIds = (ranking: Ranking<ScoredRun> | undefined): ReadonlySet<string> =>
  new Set((ranking?.entries ?? []).flatMap((e) => (e.rank !== undefined ? [e.meta.id] : [])))

/** A dataset enters with the pairs its figure was computed from; fewer than 3 have no correlation. */
const enough = (n: number) => n >= 3

/** What a dataset weighs under `wmean` and the `zero` rule: its annotated gold pairs, as scored. */
const weights = (results: Scored): ReadonlyMap<string, number> => {
  const weight = new Map<string, number>()
  for (const run of results.runs) {
    for (const d of run.datasets) if (d.weight > 0 && !weight.has(d.dataset)) weight.set(d.dataset, d.weight)
  }
  return weight
}

/** Each run's aligned scores on the given STS datasets, ranked when its id is in `ranked`. */
const correlationInput = (
  results: Scored,
  names: ReadonlyArray<string>,
  metric: "pearson" | "spearman",
  ranked: ReadonlySet<string>,
  rule: Pick<Intervals.Input, "official" | "missingDataset" | "aggregates">
): Intervals.Input => {
  const weight = weights(results)
  const datasets = names.map((name): Intervals.Dataset => {
    const w = weight.get(name)
    return { name, metric, ...(w !== undefined ? { weight: w } : {}) }
  })
  const wanted = new Set(names)
  const runs = results.runs.map((run): Intervals.Run => {
    const scores: Record<string, Intervals.Scores> = {}
    for (const d of run.datasets) {
      if (wanted.has(d.dataset) && d.status === "scored" && d.aligned !== undefined && enough(d.aligned.gold.length)) {
        scores[d.dataset] = { run: d.aligned.run, gold: d.aligned.gold }
      }
    }
    return { id: run.meta.id, ranked: ranked.has(run.meta.id), scores }
  })
  return { datasets, runs, ...rule }
}

const stsInput = (results: Scored, metric: "pearson" | "spearman", only: ReadonlySet<string> | undefined): Intervals.Input => {
  const { edition } = results
  const names = edition.datasets.map((d) => d.name)
  if (metric === "spearman") {
    // Spearman: the per-dataset figures only; the rule is irrelevant (nothing is ranked)
    return correlationInput(results, names, metric, new Set(), { official: names.length === 1 ? "single" : "mean", missingDataset: "no-official-score" })
  }
  const ranked = only ?? rankedIds(results.ranked?.rankings.find((r) => r.ranking === "official"))
  return correlationInput(results, names, metric, ranked, {
    official: officialAggregate(edition),
    missingDataset: edition.missingDataset,
    aggregates: reportedAggregates(edition)
  })
}

/**
 * The datasets an edition ranked per dataset ranks: those that are a ranking of the runs (every
 * dataset with a gold, in the edition's order); with no run, every dataset of the edition.
 */
const rankedDatasets = (results: Scored): ReadonlyArray<string> => {
  const rankings = new Set(results.runs.flatMap((run) => run.official.map((o) => o.ranking)))
  const names = results.edition.datasets.map((d) => d.name)
  return rankings.size === 0 ? names : names.filter((n) => rankings.has(n))
}

/**
 * The calls `compute` makes, as `inputs` gives them (see `ResultIntervals` for each).
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const planned: Uncertainty.Planned = Uncertainty.inputs(results)
 * planned.rankings.map((r) => r.ranking) // one resampling input per ranking
 * ```
 * @since 0.2.0
 */
export interface Planned {
  readonly rankings: ReadonlyArray<{ readonly ranking: string; readonly input: Intervals.Input; readonly beside?: Intervals.Input | undefined }>
  readonly spearman: Intervals.Input | undefined
  readonly unofficial?: { readonly rule: string; readonly input: Intervals.Input } | undefined
}

/**
 * Ranked per dataset (SemRel): each dataset a `single` ranking by the ranking's metric with that
 * dataset alone, its other correlation beside it (same dataset: the same resamples), and the
 * ranking's rule over every dataset (unofficial), nothing ranked.
 */
const perDatasetInputs = (results: Scored, only: ReadonlySet<string> | undefined, spearman: boolean): Planned => {
  const { edition } = results
  const metric = correlationOf(edition)
  const other = metric === "spearman" ? "pearson" : "spearman"
  const names = rankedDatasets(results)
  const single = { official: "single", missingDataset: "no-official-score" } as const
  const rule = officialAggregate(edition)
  return {
    rankings: names.map((name) => ({
      ranking: name,
      input: correlationInput(results, [name], metric, only ?? rankedIds(results.ranked?.rankings.find((r) => r.ranking === name)), single),
      beside: other === "pearson" || spearman ? correlationInput(results, [name], other, new Set(), single) : undefined
    })),
    spearman: undefined,
    // as ScoredRun reports it: the rule over the datasets with a gold, under the edition's missing-dataset rule
    unofficial:
      (rule === "wmean" || rule === "mean") && names.length > 1
        ? { rule, input: correlationInput(results, names, metric, new Set(), { official: rule, missingDataset: edition.missingDataset }) }
        : undefined
  }
}

const sickInput = (results: Scored, ranking: "relatedness" | "entailment", only: ReadonlySet<string> | undefined, spearman = false): Intervals.Input => {
  const ranked = spearman ? new Set<string>() : (only ?? rankedIds(results.ranked?.rankings.find((r) => r.ranking === ranking)))
  const runs = results.runs.map((run): Intervals.Run => {
    const scores: Record<string, Intervals.Scores> = {}
    if (ranking === "relatedness") {
      const a = run.relatedness?.status === "scored" ? run.relatedness.aligned : undefined
      if (a !== undefined && enough(a.gold.length)) scores.relatedness = { run: a.run, gold: a.gold }
    } else {
      const a = run.entailment?.status === "scored" ? run.entailment.aligned : undefined
      if (a !== undefined && a.gold.length > 0) scores.entailment = { run: a.run, gold: a.gold }
    }
    return { id: run.meta.id, ranked: ranked.has(run.meta.id), scores }
  })
  return {
    datasets: [{ name: ranking, metric: ranking === "relatedness" ? (spearman ? "spearman" : "pearson") : "accuracy" }],
    runs,
    official: "single",
    missingDataset: "no-official-score"
  }
}

/**
 * The inputs `compute` hands to `Intervals.compute`, one per ranking (and STS Spearman), so that a
 * caller (or a test) can check them or call `Intervals.compute` itself.
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * // what one resampling pass is given: per ranking, the runs' aligned scores by dataset
 * const planned = Uncertainty.inputs(results, { spearman: false })
 * ```
 * @since 0.2.0
 */
export const inputs = (results: Scored, options: Pick<Options, "ranked" | "spearman"> = {}): Planned => {
  const only = options.ranked !== undefined ? new Set(options.ranked) : undefined
  const spearman = options.spearman !== false
  if (results.edition.family === "sts" && perDataset(results.edition)) return perDatasetInputs(results, only, spearman)
  return results.edition.family === "sick"
    ? {
        rankings: [
          { ranking: "relatedness", input: sickInput(results, "relatedness", only) },
          { ranking: "entailment", input: sickInput(results, "entailment", only) }
        ],
        spearman: spearman ? sickInput(results, "relatedness", only, true) : undefined
      }
    : {
        rankings: [{ ranking: "official", input: stsInput(results, "pearson", only) }],
        spearman: spearman ? stsInput(results, "spearman", only) : undefined
      }
}

/**
 * Intervals on every figure and rank of a scored result: one resampling pass per ranking (plus one
 * for STS Spearman), every call with the same seed, so each draws the same resamples. Returns an
 * `Invalid` (significance's `InvalidInput`: field, expected, found) for bad settings or runs that
 * cannot share resamples (e.g. scored on different pairs of a dataset); never throws on data.
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
 * import { Uncertainty } from "@stseval/scoring"
 *
 * // one stratified bootstrap pass: an interval on every figure and every rank
 * const intervals = Uncertainty.compute(results, { level: 95, resamples: 1000, seed: 12345 })
 * ```
 * @since 0.2.0
 */
export const compute = (results: Scored, options: Options = {}): ResultIntervals | Invalid => {
  const settings: Intervals.Options = {
    level: options.level ?? defaults.level,
    resamples: options.resamples ?? defaults.resamples,
    seed: options.seed ?? defaults.seed,
    ...(options.engine !== undefined ? { engine: options.engine } : {})
  }
  const planned = inputs(results, options)
  const call = (input: Intervals.Input) => Intervals.compute(input, settings)
  const rankings: Array<RankingIntervals> = []
  for (const { beside, input, ranking } of planned.rankings) {
    const result = call(input)
    if (!("runs" in result)) return result
    const other = beside !== undefined ? call(beside) : undefined
    if (other !== undefined && !("runs" in other)) return other
    rankings.push({ ranking, result, ...(other !== undefined ? { beside: other } : {}) })
  }
  let spearman: Intervals.Result | undefined
  if (planned.spearman !== undefined) {
    const result = call(planned.spearman)
    if (!("runs" in result)) return result
    spearman = result
  }
  let unofficial: ResultIntervals["unofficial"]
  if (planned.unofficial !== undefined) {
    const result = call(planned.unofficial.input)
    if (!("runs" in result)) return result
    unofficial = { rule: planned.unofficial.rule, result }
  }
  const head = rankings[0].result
  const label = (m: string) => (m === "pearson" ? "Pearson" : "Spearman")
  return {
    level: head.level,
    resamples: head.resamples,
    seed: head.signature.seed,
    signature: head.signature,
    signatureText: head.signatureText,
    rankings,
    spearman,
    ...(unofficial !== undefined ? { unofficial } : {}),
    notes: [
      ...rankings.flatMap((r) => [
        ...r.result.notes,
        ...(r.beside?.notes.map((n) => `${label(r.beside!.runs[0]?.datasets[0]?.metric ?? "")} (not ranked): ${n}`) ?? [])
      ]),
      ...(spearman?.notes.map((n) => `Spearman: ${n}`) ?? []),
      ...(unofficial?.result.notes.map((n) => `${unofficial.rule} (unofficial): ${n}`) ?? [])
    ]
  }
}

// ---------------------------------------------------------------------------------------------
// Looking figures up, by run id

const runOf = (result: Intervals.Result | undefined, id: string) => result?.runs.find((r) => r.id === id)

/**
 * One ranking's intervals of a run (its official figure, rank interval...).
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results)
 * if (!Uncertainty.isError(out)) Uncertainty.runIntervals(out, "relatedness", "MeaningFactory/run1")?.official.ci
 * ```
 * @since 0.2.0
 */
export const runIntervals = (intervals: ResultIntervals, ranking: string, id: string): Intervals.RunIntervals | undefined =>
  runOf(intervals.rankings.find((r) => r.ranking === ranking)?.result, id)

/**
 * A per-dataset figure of a run: STS `pearson` / `spearman` of a dataset; SICK `relatedness`
 * `pearson`, `entailment` `accuracy`. A dataset that is a ranking of its own (ranked per dataset)
 * has its figures from its own pass.
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // an STS run's
 * const out = Uncertainty.compute(results)
 * if (!Uncertainty.isError(out)) Uncertainty.datasetFigure(out, "ECNU/run1", "track5.en-en", "pearson")?.ci
 * ```
 * @since 0.2.0
 */
export const datasetFigure = (
  intervals: ResultIntervals,
  id: string,
  dataset: string,
  metric: "pearson" | "spearman" | "accuracy"
): Intervals.Figure | undefined => {
  const own = intervals.rankings.find((r) => r.ranking === dataset)
  const general = metric === "spearman" ? intervals.spearman : intervals.rankings.find((r) => r.ranking === "official")?.result
  for (const result of [own?.result, own?.beside, general]) {
    const f = runOf(result, id)?.datasets.find((d) => d.dataset === dataset && d.metric === metric)
    if (f !== undefined) return f
  }
  return undefined
}

/**
 * An STS aggregate of a run: `wmean`, `mean`, `pooled`, `allnrm` or `official`; for an edition
 * ranked per dataset, its unofficial rule over the datasets (SemRel: `mean`).
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // an STS 2014 run's
 * const out = Uncertainty.compute(results)
 * if (!Uncertainty.isError(out)) Uncertainty.aggregateFigure(out, "ECNU/run1", "wmean")?.ci
 * ```
 * @since 0.2.0
 */
export const aggregateFigure = (intervals: ResultIntervals, id: string, name: string): Intervals.Figure | undefined => {
  if (intervals.unofficial !== undefined && name === intervals.unofficial.rule) return runOf(intervals.unofficial.result, id)?.official
  const run = runIntervals(intervals, "official", id)
  if (run === undefined) return undefined
  return name === "official" ? run.official : run.aggregates[name as Intervals.Labelled]
}

/**
 * The figure a ranking orders by, for a run.
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results)
 * if (!Uncertainty.isError(out)) Uncertainty.rankedFigure(out, "entailment", "MeaningFactory/run1")?.ci // accuracy's interval
 * ```
 * @since 0.2.0
 */
export const rankedFigure = (intervals: ResultIntervals, ranking: string, id: string): Intervals.Figure | undefined =>
  runIntervals(intervals, ranking, id)?.official

/**
 * The interval of a run's rank in a ranking; undefined when it is not ranked.
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results)
 * if (!Uncertainty.isError(out)) {
 *   const r = Uncertainty.rankInterval(out, "relatedness", "Insight/run1")
 *   if (r !== undefined) Uncertainty.formatRankInterval(r) // e.g. "2-3"
 * }
 * ```
 * @since 0.2.0
 */
export const rankInterval = (intervals: ResultIntervals, ranking: string, id: string): Intervals.RankInterval | undefined =>
  runIntervals(intervals, ranking, id)?.rankInterval

/**
 * Ids of the runs whose rank interval overlaps the best run's, by rank.
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results)
 * // the runs whose rank interval overlaps the best run's
 * if (!Uncertainty.isError(out)) Uncertainty.bestGroup(out, "relatedness")
 * ```
 * @since 0.2.0
 */
export const bestGroup = (intervals: ResultIntervals, ranking: string): ReadonlyArray<string> =>
  intervals.rankings.find((r) => r.ranking === ranking)?.result.bestGroup ?? []

/**
 * A rank interval as printed: `1-3`, or `2` when it is one rank.
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * Uncertainty.formatRankInterval({ low: 1, high: 3 }) // "1-3"
 * Uncertainty.formatRankInterval({ low: 2, high: 2 }) // "2"
 * ```
 * @since 0.2.0
 */
export const formatRankInterval = (r: Intervals.RankInterval): string => (r.low === r.high ? String(r.low) : `${r.low}-${r.high}`)
