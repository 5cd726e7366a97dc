/**
 * Ranking of scored runs by the edition's official figure, as the task papers' tables do: one
 * ranking per official figure (STS: `official`; SICK: `relatedness` by Pearson and `entailment` by
 * accuracy). Runs that failed or have no official figure are listed, with the reason, but never
 * ranked. Ties share a rank (1, 2, 2, 4). The order is deterministic: by figure, then team, run
 * and path.
 *
 * @since 0.1.0
 */
import type { MetricValue } from "@stseval/metrics"
import type { ScoredRun } from "./ScoredRun.js"
import type { RunInfo } from "./Validation.js"

/** @since 0.1.0 */
export interface RankOptions {
  /**
   * Rank primary runs only (default true, as the papers' tables do); `false` ranks every run.
   * Non-primary runs are then left out of the entries and counted in `excluded`.
   */
  readonly primaryOnly?: boolean
}

/** @since 0.1.0 */
export interface RankEntry {
  /** 1-based rank; `undefined` when the run is not ranked (then `reason` says why) */
  readonly rank: number | undefined
  readonly path: string
  readonly meta: RunInfo
  readonly value: MetricValue.MetricValue
  readonly reason: string | undefined
}

/** @since 0.1.0 */
export interface Ranking {
  /** `official`, `relatedness` or `entailment` */
  readonly ranking: string
  /** the figure ranked: `pearson`, `accuracy`, `wmean`, `mean`, `pooled`, `allnrm`, `single` */
  readonly metric: string
  /** ranked entries first (best first), then the runs that are not ranked */
  readonly entries: ReadonlyArray<RankEntry>
}

/** @since 0.1.0 */
export interface RankedResults {
  readonly edition: string | undefined
  readonly primaryOnly: boolean
  readonly rankings: ReadonlyArray<Ranking>
  /** runs left out because they are not primary (`primaryOnly`) */
  readonly excluded: number
}

// Plain code-unit comparison: locale-independent, so every machine orders ties the same way.
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const runKey = (a: { readonly meta: RunInfo; readonly path: string }, b: { readonly meta: RunInfo; readonly path: string }): number =>
  cmp(a.meta.team, b.meta.team) ||
  // run numbers in numeric order (run2 before run10), runs without a number last
  ((a.meta.run ?? Infinity) - (b.meta.run ?? Infinity) || 0) ||
  cmp(a.path, b.path)

/**
 * Rank scored runs of one edition. Throws a RangeError when the runs come from different editions
 * (a programmer error: rank each edition separately).
 *
 * @since 0.1.0
 */
export const rank = (results: ReadonlyArray<ScoredRun>, options: RankOptions = {}): RankedResults => {
  const primaryOnly = options.primaryOnly ?? true
  const editions = [...new Set(results.map((r) => r.edition))]
  if (editions.length > 1) throw new RangeError(`rank: runs of several editions (${editions.join(", ")}); rank each edition separately`)
  const runs = primaryOnly ? results.filter((r) => r.meta.primary) : results
  const names: Array<{ ranking: string; metric: string }> = []
  for (const r of results) {
    for (const o of r.official) if (!names.some((n) => n.ranking === o.ranking)) names.push({ ranking: o.ranking, metric: o.metric })
  }
  const rankings = names.map(({ ranking, metric }): Ranking => {
    const ranked: Array<{ run: ScoredRun; value: number; figure: MetricValue.MetricValue }> = []
    const unranked: Array<RankEntry> = []
    for (const run of runs) {
      const figure = run.official.find((o) => o.ranking === ranking)?.value
      if (run.status === "failed") {
        unranked.push({ rank: undefined, path: run.path, meta: run.meta, value: figure ?? noFigure, reason: `the run failed: ${run.failure ?? "nothing could be scored"}` })
      } else if (figure === undefined || figure._tag === "Undefined") {
        unranked.push({
          rank: undefined,
          path: run.path,
          meta: run.meta,
          value: figure ?? noFigure,
          reason: `no official ${ranking} figure: ${figure?._tag === "Undefined" ? figure.reason : "not computed"}`
        })
      } else ranked.push({ run, value: figure.value, figure })
    }
    ranked.sort((a, b) => b.value - a.value || runKey(a.run, b.run))
    unranked.sort(runKey)
    const entries: Array<RankEntry> = []
    ranked.forEach((r, i) => {
      // competition ranking: a tie shares the rank of the first of its group
      const rankOf = i > 0 && r.value === ranked[i - 1].value ? entries[i - 1].rank : i + 1
      entries.push({ rank: rankOf, path: r.run.path, meta: r.run.meta, value: r.figure, reason: undefined })
    })
    return { ranking, metric, entries: [...entries, ...unranked] }
  })
  return { edition: editions[0], primaryOnly, rankings, excluded: results.length - runs.length }
}

const noFigure: MetricValue.MetricValue = { _tag: "Undefined", reason: "no figure" }
