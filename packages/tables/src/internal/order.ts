/**
 * Which runs a layout lists and in what order, read from the results' rankings (a layout never
 * ranks): the figure a column shows, the ranking that orders by it, the runs it ranks, and a
 * column's values and why one is missing. Shared by `Layouts.build` and the presets' lookups.
 */
import { Metrics } from "@stseval/metrics"
import { Rank } from "@stseval/scoring"
import type { ColumnSpec, LayoutSpec, Source } from "../Layouts.js"
import type { Ranking, Results, RunResult } from "../Results.js"
import { figureKey, figureOf, participants } from "../Results.js"
import type * as Table from "../Table.js"

export const sectionOf = (r: RunResult) => r.section ?? participants

export const rawValue = (run: RunResult, source: Source): number | undefined => {
  switch (source._tag) {
    case "metric":
      return figureOf(run.datasets[source.dataset], source.metric)
    case "aggregate":
      return run.aggregates[source.name]
    default:
      return undefined
  }
}

export const missingReason = (run: RunResult, source: Source): string | undefined =>
  source._tag === "metric"
    ? (run.datasets[source.dataset]?.reason ?? (run.datasets[source.dataset] === undefined ? `${source.dataset} not submitted` : undefined))
    : source._tag === "aggregate"
      ? run.aggregateReasons?.[source.name]
      : undefined

/** Which kind of missing a figure is (`Table.MissingKind`): not submitted, not scored (errors), undefined, or none at all (no gold). */
export const missingKind = (run: RunResult, source: Source): Table.MissingKind | undefined => {
  if (source._tag === "metric") {
    const d = run.datasets[source.dataset]
    if (d?.state === "noFigure") return undefined
    if (d === undefined || d.state === "notSubmitted") return "notSubmitted"
    if (d.state === "failed" || run.failed === true) return "failed"
    return "undefined"
  }
  return run.failed === true ? "failed" : "undefined"
}

export const finite = (x: number | undefined): x is number => x !== undefined && Number.isFinite(x)

/** The figure a column shows, as a `figureKey`, when it is a figure. */
export const figureOfSource = (source: Source): string | undefined => (source._tag === "metric" || source._tag === "aggregate" ? figureKey(source) : undefined)

/** The ranking that orders runs by a figure, when one does. */
export const rankingOfFigure = (results: Results, key: string | undefined): Ranking | undefined =>
  key === undefined ? undefined : results.rankings.find((r) => r.figures.includes(key))

/** Which values of a column are better: its own `lowerIsBetter`, else its metric's (an aggregate's: its ranking's). */
export const directionOf = (results: Results, c: ColumnSpec): "higher" | "lower" =>
  c.lowerIsBetter === true
    ? "lower"
    : c.source._tag === "metric"
      ? (Metrics.get(c.source.metric)?.direction ?? "higher")
      : (rankingOfFigure(results, figureOfSource(c.source))?.direction ?? "higher")

/**
 * The runs a table lists, in the results' run order: those its ranking lists (primary runs only
 * when it was ranked so), or, without one, those any ranking lists; every run when nothing is ranked.
 */
export const listed = (results: Results, ranking: Ranking | undefined): ReadonlyArray<RunResult> => {
  const rankings = ranking !== undefined ? [ranking] : results.rankings
  if (rankings.length === 0) return results.runs
  const ids = new Set(rankings.flatMap((r) => r.entries.map((e) => e.id)))
  return results.runs.filter((r) => ids.has(r.id))
}

/** Ids of the runs ranked by the ranking (by any ranking without one). */
export const rankedBy = (results: Results, ranking: Ranking | undefined): ReadonlySet<string> =>
  new Set((ranking !== undefined ? [ranking] : results.rankings).flatMap((r) => r.entries.flatMap((e) => (e.rank !== undefined ? [e.id] : []))))

/**
 * The table's ranking (its Rank column): the sort column's, else the ranking of the layout's own
 * sort column (a table sorted by another column keeps its ranks), else the layout's named one.
 */
export const tableRanking = (results: Results, spec: LayoutSpec, sort: ColumnSpec | undefined): Ranking | undefined => {
  const own = spec.columns.find((c) => c.key === spec.sortBy)
  return (
    rankingOfFigure(results, sort !== undefined ? figureOfSource(sort.source) : undefined) ??
    rankingOfFigure(results, own !== undefined ? figureOfSource(own.source) : undefined) ??
    (spec.ranking !== undefined ? results.rankings.find((r) => r.ranking === spec.ranking) : undefined)
  )
}

/**
 * Rows in order: as the ranking orders them when the sort column is its figure; otherwise by the
 * sort column's values, best first (runs without a value last, ties in run order), the runs the
 * ranking ranks before those it does not (a post-deadline run is never listed among ranked ones).
 */
export const ordered = (results: Results, rows: ReadonlyArray<RunResult>, ranking: Ranking | undefined, sort: ColumnSpec): ReadonlyArray<RunResult> => {
  const key = figureOfSource(sort.source)
  if (ranking !== undefined && key !== undefined && ranking.figures.includes(key)) {
    const at = new Map(ranking.entries.map((e, i) => [e.id, i]))
    return [...rows].sort((a, b) => (at.get(a.id) ?? Infinity) - (at.get(b.id) ?? Infinity))
  }
  const ranked = rankedBy(results, ranking)
  return Rank.orderBy(rows, { ranked: (r) => ranked.has(r.id), value: (r) => rawValue(r, sort.source), direction: directionOf(results, sort) })
}
