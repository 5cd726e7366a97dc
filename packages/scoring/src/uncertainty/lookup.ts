// Looking figures up in Uncertainty's result, by run id (re-exported by Uncertainty).
import type * as Intervals from "@stseval/significance/Intervals"
import type { ResultIntervals } from "../Uncertainty.js"

/** Each result's runs by id, made on first look: every output looks up every run (a linear search each was 4 million comparisons on 2,000 runs). */
const runsById = new WeakMap<Intervals.Result, ReadonlyMap<string, Intervals.RunIntervals>>()

const runOf = (result: Intervals.Result | undefined, id: string): Intervals.RunIntervals | undefined => {
  if (result === undefined) return undefined
  let byId = runsById.get(result)
  if (byId === undefined) {
    // the first of an id, as `find` gave
    const map = new Map<string, Intervals.RunIntervals>()
    for (const r of result.runs) if (!map.has(r.id)) map.set(r.id, r)
    runsById.set(result, (byId = map))
  }
  return byId.get(id)
}

const rankedPass = (intervals: ResultIntervals, ranking: string) => intervals.passes.find((p) => p.ranking === ranking && p.ranked)

/**
 * One ranking's intervals of a run (its official figure, rank interval...).
 *
 * @example
 * ```ts
 * import { Engine, Uncertainty } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const out = Uncertainty.compute(results)
 * if (!Uncertainty.isError(out)) Uncertainty.runIntervals(out, "official", "ECNU/run1")?.official.ci // { low, high, level }
 * ```
 * @since 0.2.0
 */
export const runIntervals = (intervals: ResultIntervals, ranking: string, id: string): Intervals.RunIntervals | undefined =>
  runOf(rankedPass(intervals, ranking)?.result, id)

/**
 * A per-dataset figure of a run, by dataset and metric name, from whichever pass computed it.
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
export const datasetFigure = (intervals: ResultIntervals, id: string, dataset: string, metric: string): Intervals.Figure | undefined => {
  for (const p of intervals.passes) {
    if (p.metric !== metric) continue
    const f = runOf(p.result, id)?.datasets.find((d) => d.dataset === dataset)
    if (f !== undefined) return f
  }
  return undefined
}

/**
 * An aggregate of a run in a ranking: `wmean`, `mean`, `pooled`, `allnrm` or `official`; for a
 * ranking per dataset, its unofficial rule over the datasets (SemRel: `mean`).
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
export const aggregateFigure = (intervals: ResultIntervals, id: string, name: string, ranking = "official"): Intervals.Figure | undefined => {
  if (intervals.unofficial !== undefined && intervals.unofficial.ranking === ranking && name === intervals.unofficial.rule) {
    return runOf(intervals.unofficial.result, id)?.official
  }
  const run = runIntervals(intervals, ranking, id)
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
 * // the runs that may be the best, the best one first
 * if (!Uncertainty.isError(out)) Uncertainty.bestGroup(out, "official")
 * ```
 * @since 0.2.0
 */
export const bestGroup = (intervals: ResultIntervals, ranking: string): ReadonlyArray<string> => rankedPass(intervals, ranking)?.result.bestGroup ?? []

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
