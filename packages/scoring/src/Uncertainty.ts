/**
 * Confidence intervals on every figure and rank of a scored result: the one mapping from
 * `Engine.Results` to significance's `Intervals.compute` that `score`, `rank`, `report` and the
 * live leaderboard share, so every output shows the same intervals (docs/significance.md).
 *
 * Pairs are resampled within each dataset: one stratified percentile-bootstrap pass per ranking
 * (its metric, rule and labelled aggregates), and one per other metric it declares, nothing
 * ranked; a ranking per dataset (SemRel) gets one pass per dataset and one for its unofficial rule
 * over them. Every pass has the same seed, so each draws the same resamples. Runs are joined with
 * `Rank`'s entries by run id.
 *
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const results = yield* Engine.score({ task: "sts2017", folder: "submissions" })
 *   const intervals = Uncertainty.compute(results, { level: 0.95, resamples: 1000, seed: 12345 })
 *   // e.g. { low: 1, high: 2 }: the run's rank in the central 95% of the resamples
 *   return Uncertainty.isError(intervals) ? undefined : Uncertainty.rankInterval(intervals, "official", "ECNU/run1")
 * })
 * ```
 * @since 0.2.0
 */
import { Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import * as Intervals from "@stseval/significance/Intervals"
import type { Results } from "./Engine.js"
import { leastPairs, rankingName, reportedAggregates } from "./internal/edition.js"
import type { RankedResults, Ranking } from "./Rank.js"
import type { ScoredRun } from "./ScoredRun.js"
import { FEW_PAIRS_MARK, isFew, isSkewed, SKEWED_MARK } from "./uncertainty/marks.js"

export { FEW_PAIRS_MARK, isFew, isSkewed, SKEWED_MARK } from "./uncertainty/marks.js"
export { aggregateFigure, bestGroup, datasetFigure, formatRankInterval, rankedFigure, rankInterval, runIntervals } from "./uncertainty/lookup.js"

/**
 * What the mapping reads of a scored result: the edition, the runs (with their aligned scores) and
 * the rankings that say which runs are ranked. `Engine.Results` is one.
 *
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
 * @since 0.2.0
 */
export interface Options {
  /** strictly between 0 and 1 (see `parseLevel` for `--ci 95`); default 0.95 */
  readonly level?: number | undefined
  /** default 1,000 */
  readonly resamples?: number | undefined
  /** default 12345 */
  readonly seed?: number | undefined
  /** `auto` (default), `js` (no WebAssembly: every figure by its metric over the drawn pairs, the same to about 1e-12) or `wasm` (`Intervals.Options.engine`) */
  readonly engine?: "auto" | "js" | "wasm" | undefined
  /** ids of the runs to rank in every ranking, instead of each ranking's (never one without an official figure) */
  readonly ranked?: ReadonlyArray<string> | undefined
  /** intervals on the other metrics each ranking declares (one more pass each); default true */
  readonly others?: boolean | undefined
}

/**
 * A figure with its interval (significance's `Intervals.Figure`).
 *
 * @since 0.2.0
 */
export type Figure = Intervals.Figure
/**
 * The interval of a run's rank in one ranking, in whole ranks (significance's
 * `Intervals.RankInterval`).
 *
 * @since 0.2.0
 */
export type RankInterval = Intervals.RankInterval
/**
 * A run's figures and rank in one ranking with their intervals (significance's
 * `Intervals.RunIntervals`).
 *
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
 * One pass: a ranking's ranked figures (`ranked`), or another metric's figures beside it.
 *
 * @since 0.3.0
 */
export interface Pass {
  /** the ranking's name (`official`, `relatedness`, a dataset of a ranking per dataset) */
  readonly ranking: string
  /** the metric of every figure of the pass */
  readonly metric: string
  /** true: the pass ranks runs (the ranking's own); false: figures only */
  readonly ranked: boolean
  readonly result: Intervals.Result
}

/**
 * The intervals of a scored result: one bootstrap pass per ranking, all with the same level,
 * resamples and seed, and the signature that reproduces them.
 *
 * @since 0.2.0
 */
export interface ResultIntervals {
  readonly level: number
  readonly resamples: number
  readonly seed: number
  /** the headline ranking's signature (every pass shares the settings) */
  readonly signature: Intervals.Signature
  readonly signatureText: string
  /** every pass, the ranked one of each ranking first */
  readonly passes: ReadonlyArray<Pass>
  /**
   * Ranked per dataset: the ranking's rule over the datasets (`rule`: SemRel's `mean` of Spearman),
   * which the results report labelled unofficial; one pass over every dataset, nothing ranked.
   */
  readonly unofficial?: { readonly ranking: string; readonly rule: string; readonly result: Intervals.Result } | undefined
  /** degenerate resamples, in words, from every pass */
  readonly notes: ReadonlyArray<string>
}

/**
 * Bad input or settings: which field, what was expected, what was found.
 *
 * @since 0.2.0
 */
export type Invalid = Exclude<ReturnType<typeof Intervals.compute>, Intervals.Result>

/**
 * True when `compute` refused its input or settings (an `Invalid`), not a result.
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results, { resamples: 0 })
 * Uncertainty.isError(out) // true: resamples must be an integer from 1 to 10,000,000
 * ```
 * @since 0.2.0
 */
export const isError = (r: ResultIntervals | Invalid): r is Invalid => !("passes" in r)

/**
 * The figures a resampling over `results` keeps for every resample: each run's figure on each
 * dataset and each ranking's aggregate (the passes of `compute` together, an upper bound of any
 * one of them).
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * Uncertainty.figuresOf(results) // 20 SICK runs: 20 x (2 subtasks + 2 rankings) = 80
 * ```
 * @since 0.3.0
 */
export const figuresOf = (results: Pick<Scored, "edition"> & { readonly runs: ArrayLike<unknown> }): number => results.runs.length * (results.edition.datasets.length + results.edition.ranking.length)

/**
 * A resampling too large for this machine, or undefined when it fits: `need` bytes (16 a figure
 * and resample: each statistic kept, then copied), `memory` (`os.totalmem()` unless given), `most`
 * resamples that fit. Over half the memory is refused: the allocation would otherwise fail deep
 * inside with a `RangeError` (no typed array over 2^32 elements) or the machine swap.
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * // 10,000,000 resamples of 300 SICK runs (1200 figures): 179 GiB, refused on a 16 GiB machine
 * const tooMany = Uncertainty.beyondMemory(10_000_000, 1200, 16 * 2 ** 30)
 * tooMany?.most // 447392 resamples fit
 * ```
 * @since 0.3.0
 */
export const beyondMemory = (
  resamples: number,
  figures: number,
  memory: number = process.getBuiltinModule("node:os").totalmem()
): { readonly need: number; readonly memory: number; readonly most: number } | undefined => {
  const perResample = 16 * Math.max(1, figures)
  const need = perResample * resamples
  if (need <= memory / 2) return undefined
  return { need, memory, most: Math.floor(memory / 2 / perResample) }
}

/**
 * `beyondMemory`'s answer in words, for a message after the flag or setting it is about:
 * `10000000 resamples of 1200 figures (runs times their datasets and rankings) need about 179 GiB
 * of memory, more than this machine can give (half of its 16 GiB); 447392 resamples at most`.
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * const tooMany = Uncertainty.beyondMemory(10_000_000, 1200, 16 * 2 ** 30)
 * if (tooMany !== undefined) console.error(`--resamples: ${Uncertainty.describeBeyond(10_000_000, 1200, tooMany)}`)
 * ```
 * @since 0.3.0
 */
export const describeBeyond = (resamples: number, figures: number, beyond: { readonly need: number; readonly memory: number; readonly most: number }): string => {
  const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(bytes < 10 * 2 ** 30 ? 1 : 0)} GiB`
  return `${resamples} resamples of ${figures} figures (runs times their datasets and rankings) need about ${gib(beyond.need)} of memory, more than this machine can give (half of its ${gib(beyond.memory)}); ${beyond.most} resamples at most`
}

/**
 * A level as people write it: a percentage (`95`, `99.99`, `1`) or a fraction (`0.95`). A number
 * from 1 up to (not including) 100 is a percentage, so `1` is 1%; one strictly between 0 and 1 is a
 * fraction. The percentage's decimal point is moved, not divided in doubles: `99.99` is 0.9999
 * exactly as written (99.99 / 100 would be 0.9998999999999999). Undefined for anything else
 * (0, 100 or more, negative, not finite).
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * Uncertainty.parseLevel(95) // 0.95
 * Uncertainty.parseLevel(99.99) // 0.9999
 * Uncertainty.parseLevel(1) // 0.01
 * Uncertainty.parseLevel(0.9) // 0.9
 * Uncertainty.parseLevel(150) // undefined
 * ```
 * @since 0.2.0
 */
export const parseLevel = (value: number): number | undefined => {
  if (!Number.isFinite(value) || value <= 0 || value >= 100) return undefined
  return value >= 1 ? Intervals.levelOfPercent(value) : value
}

/**
 * What a valid level is, in words, for messages that refuse one.
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * `--ci: expected ${Uncertainty.levelExpected}, found 150`
 * ```
 * @since 0.3.0
 */
export const levelExpected = "a confidence level in percent, from 1 up to (not including) 100 (95, 99.9), or a fraction strictly between 0 and 1 (0.95)"

/**
 * A level as printed: a percentage with the decimals it has (`0.9999` is "99.99%").
 *
 * @example
 * ```ts
 * import { Uncertainty } from "@stseval/scoring"
 *
 * Uncertainty.formatLevel(0.9999) // "99.99%"
 * ```
 * @since 0.3.0
 */
export const formatLevel = (level: number): string => Intervals.formatLevel(level)

// ---------------------------------------------------------------------------------------------
// The mapping

/** Ids of the runs a ranking ranks (those with a rank): every other run gets figures, not a rank. */
const rankedIds = (ranking: Ranking<ScoredRun> | undefined): ReadonlySet<string> =>
  new Set((ranking?.entries ?? []).flatMap((e) => (e.rank !== undefined ? [e.meta.id] : [])))

/** A dataset enters with the pairs its figure was computed from (scoring leaves a dataset with fewer unscored). */
const enough = (metric: string, n: number) => n >= leastPairs(metric)

/** What a dataset weighs under `wmean` and the `zero` rule: its annotated gold pairs, as scored. */
const weights = (results: Scored): ReadonlyMap<string, number> => {
  const weight = new Map<string, number>()
  for (const run of results.runs) {
    for (const d of run.datasets) if (d.weight > 0 && !weight.has(d.dataset)) weight.set(d.dataset, d.weight)
  }
  return weight
}

/** Each run's aligned values on the given datasets, ranked when its id is in `ranked`. */
const input = (
  results: Scored,
  names: ReadonlyArray<string>,
  metric: string,
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
      const a = d.aligned
      if (wanted.has(d.dataset) && d.status === "scored" && a !== undefined && enough(metric, a.gold.length)) {
        // a run's confidences go along (confidence-weighted Pearson weighs pairs by them)
        scores[d.dataset] = a.kind === "scores" ? { run: a.run, gold: a.gold, ...(a.confidence !== undefined ? { confidence: a.confidence } : {}) } : { run: a.run, gold: a.gold }
      }
    }
    return { id: run.meta.id, ranked: ranked.has(run.meta.id), scores }
  })
  return { datasets, runs, ...rule }
}

const NOTHING: ReadonlySet<string> = new Set()

/**
 * A planned pass: what `compute` hands to `Intervals.compute`.
 *
 * @since 0.3.0
 */
export interface Planned {
  readonly ranking: string
  readonly metric: string
  readonly ranked: boolean
  readonly input: Intervals.Input
}

/**
 * The inputs `compute` hands to `Intervals.compute`, one per pass, so that a caller (or a test) can
 * check them or call `Intervals.compute` itself.
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * // what each resampling pass is given: per ranking, the runs' aligned scores by dataset
 * const planned = Uncertainty.inputs(results, { others: false }) // the ranked metric of each ranking only
 * planned.passes.map((p) => `${p.ranking}: ${p.metric}`) // SICK: ["relatedness: pearson", "entailment: accuracy"]
 * ```
 * @since 0.2.0
 */
export const inputs = (
  results: Scored,
  options: Pick<Options, "ranked" | "others"> = {}
): { readonly passes: ReadonlyArray<Planned>; readonly unofficial?: { readonly ranking: string; readonly rule: string; readonly input: Intervals.Input } | undefined } => {
  const { edition } = results
  const only = options.ranked !== undefined ? new Set(options.ranked) : undefined
  const others = options.others !== false
  const passes: Array<Planned> = []
  let unofficial: { ranking: string; rule: string; input: Intervals.Input } | undefined
  const rankingOf = (name: string) => results.ranked?.rankings.find((r) => r.ranking === name)
  for (const ranking of edition.ranking) {
    const name = rankingName(edition, ranking)
    // every other metric the ranking reports: the same resamples, figures with intervals, no rank
    const besides = others ? Registry.metricsOf(ranking).filter((m) => m !== ranking.metric) : []
    const single = { official: "single", missingDataset: "no-official-score" } as const
    if (Registry.isRankedPerDataset(ranking)) {
      // the datasets that are a ranking of the runs (every dataset with a gold); with no run, every one
      const official = new Set(results.runs.flatMap((run) => run.official.map((o) => o.ranking)))
      const all = Registry.datasetsOf(edition, ranking).map((d) => d.name)
      const names = official.size === 0 ? all : all.filter((n) => official.has(n))
      for (const dataset of names) {
        passes.push({ ranking: dataset, metric: ranking.metric, ranked: true, input: input(results, [dataset], ranking.metric, only ?? rankedIds(rankingOf(dataset)), single) })
        for (const m of besides) passes.push({ ranking: dataset, metric: m, ranked: false, input: input(results, [dataset], m, NOTHING, single) })
      }
      // as ScoredRun reports it: the rule over the datasets with a gold, under the edition's missing-dataset rule
      if ((ranking.aggregate === "wmean" || ranking.aggregate === "mean") && names.length > 1) {
        unofficial = {
          ranking: name,
          rule: ranking.aggregate,
          input: input(results, names, ranking.metric, NOTHING, { official: ranking.aggregate, missingDataset: edition.missingDataset })
        }
      }
      continue
    }
    const names = Registry.datasetsOf(edition, ranking).map((d) => d.name)
    passes.push({
      ranking: name,
      metric: ranking.metric,
      ranked: true,
      input: input(results, names, ranking.metric, only ?? rankedIds(rankingOf(name)), {
        official: ranking.aggregate,
        missingDataset: edition.missingDataset,
        aggregates: reportedAggregates(edition, ranking)
      })
    })
    // the other metrics: the per-dataset figures only; the rule is irrelevant (nothing is ranked)
    for (const m of besides) {
      passes.push({
        ranking: name,
        metric: m,
        ranked: false,
        input: input(results, names, m, NOTHING, { official: names.length === 1 ? "single" : "mean", missingDataset: "no-official-score" })
      })
    }
  }
  return { passes, ...(unofficial !== undefined ? { unofficial } : {}) }
}

/**
 * Intervals on every figure and rank of a scored result, every pass with the same seed. Returns an
 * `Invalid` (field, expected, found) for bad settings or runs that cannot share resamples (e.g.
 * scored on different pairs of a dataset); never throws on data.
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
  // every pass at once: one's rank walks run on the helper threads while this thread does another's work
  const computed = Intervals.computeEach([...planned.passes, ...(planned.unofficial !== undefined ? [planned.unofficial] : [])].map((p) => p.input), settings)
  const passes: Array<Pass> = []
  for (const [i, result] of computed.entries()) {
    if (!("runs" in result)) return result
    if (i < planned.passes.length) passes.push({ ranking: planned.passes[i].ranking, metric: planned.passes[i].metric, ranked: planned.passes[i].ranked, result })
  }
  const unofficial: ResultIntervals["unofficial"] =
    planned.unofficial !== undefined ? { ranking: planned.unofficial.ranking, rule: planned.unofficial.rule, result: computed[planned.passes.length] as Intervals.Result } : undefined
  const head = passes[0].result
  const label = (m: string) => Metrics.get(m)?.label ?? m
  // the metrics of the figures marked few-pairs or skewed (a dataset figure names its metric; an
  // aggregate or official one is of its pass's)
  const fewOf = new Set<string>()
  let skewed = false
  for (const r of [...passes.map((p) => ({ metric: p.metric, result: p.result })), ...(unofficial !== undefined ? [{ metric: passes[0].metric, result: unofficial.result }] : [])]) {
    for (const run of r.result.runs) {
      for (const f of [...run.datasets, run.official, ...Object.values(run.aggregates)]) {
        if (f === undefined) continue
        if (isFew(f)) fewOf.add("metric" in f && typeof f.metric === "string" ? f.metric : r.metric)
        if (isSkewed(f)) skewed = true
      }
    }
  }
  return {
    level: head.level,
    resamples: head.resamples,
    seed: head.signature.seed,
    signature: head.signature,
    signatureText: head.signatureText,
    passes,
    ...(unofficial !== undefined ? { unofficial } : {}),
    notes: [
      ...(head.resamples < Intervals.recommendedResamples
        ? [
            `${head.resamples} resamples, fewer than the ${Intervals.recommendedResamples.toLocaleString("en-US")} recommended: the interval bounds rest on few resamples and move from seed to seed`
          ]
        : []),
      ...[...fewOf].map((m) => `${FEW_PAIRS_MARK} ${label(m)}, an interval on fewer than ${Intervals.fewPairs} pairs: ${Metrics.get(m)?.fewPairsCoverage ?? "percentile intervals of it were not measured at so few pairs: their coverage may differ from their level"} (docs/significance.md, Coverage)`),
      ...(skewed
        ? [
            `${SKEWED_MARK} Pearson's r on skewed data (|sample skewness| of the gold or the run above ${Intervals.skewLimit}): its percentile interval is unreliable there (95% intervals held the true value in 90-93% of lognormal samples at 30-250 pairs; docs/significance.md, Coverage); Spearman's is not affected`
          ]
        : []),
      ...passes.flatMap((p) => p.result.notes.map((n) => (p.ranked ? n : `${label(p.metric)} (not ranked): ${n}`))),
      ...(unofficial?.result.notes.map((n) => `${unofficial.rule} (unofficial): ${n}`) ?? [])
    ]
  }
}
