/**
 * What a table carries beside its rows for the HTML page and JSON: scatter plots of the best ranked
 * runs on each dataset it shows, and the p-value matrices of the marks (the heat map). Read from the
 * results (their gold and scores, rankings and marks): nothing is scored or compared here.
 */
import { Metrics } from "@stseval/metrics"
import { Rank, Style } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import type { ColumnSpec, Options } from "../Layouts.js"
import * as Plot from "../Plot.js"
import type { Ranking, Results, RunResult } from "../Results.js"
import { figureKey, figureOf, labelOf } from "../Results.js"
import * as Table from "../Table.js"
import { finite, rankedBy, rankingOfFigure } from "./order.js"

/** Scatter plots of the best ranked runs (by each dataset's ranked metric) on each dataset a column shows, and the note when fewer runs are plotted than have scores. */
export const scatterOf = (
  results: Results,
  specs: ReadonlyArray<ColumnSpec>,
  runs: ReadonlyArray<RunResult>,
  ranking: Ranking | undefined,
  options: Pick<Options, "scatterRuns" | "maxPoints">
): { readonly scatter?: ReadonlyArray<Table.Scatter>; readonly scatterNote?: string } => {
  const shownDatasets = new Set(specs.flatMap((c) => (c.source._tag === "metric" ? [c.source.dataset] : [])))
  const scatter: Array<Table.Scatter> = []
  const topN = options.scatterRuns ?? 3
  let plottedFewer = false
  const plottedMetrics = new Set<string>()
  for (const d of results.datasets) {
    if (d.gold === undefined || topN <= 0 || !shownDatasets.has(d.name)) continue
    const gold = d.gold
    // the dataset's ranked metric, else the figure its column shows
    const metric = d.metric ?? specs.flatMap((c) => (c.source._tag === "metric" && c.source.dataset === d.name ? [c.source.metric] : []))[0]
    if (metric === undefined) continue
    const descriptor = Metrics.get(metric)
    const among = rankedBy(results, rankingOfFigure(results, figureKey({ _tag: "metric", dataset: d.name, metric })) ?? ranking)
    const withScores = runs.filter((r) => r.scores?.[d.name]?.length === gold.length)
    const value = (r: RunResult) => figureOf(r.datasets[d.name], metric)
    const top = Rank.orderBy(
      withScores.filter((r) => among.has(r.id) && finite(value(r))),
      { ranked: () => true, value, direction: descriptor?.direction ?? "higher" }
    ).slice(0, topN)
    if (top.length < withScores.length) plottedFewer = true
    plottedMetrics.add(descriptor?.label ?? metric)
    const style = specs.find((c) => c.source._tag === "metric" && c.source.dataset === d.name && c.source.metric === metric)?.number ?? Style.forMetric({ published: { style: results.style ?? "r3" } }, metric)
    const { step, indices } = Plot.sample(gold.length, options.maxPoints ?? 1500)
    for (const r of top) {
      const run = r.scores?.[d.name] as Float64Array
      const v = value(r) as number
      scatter.push({
        dataset: d.header ?? d.name,
        runId: r.id,
        title: labelOf(r),
        gold: indices.map((i) => gold[i]),
        run: indices.map((i) => run[i]),
        pairs: gold.length,
        step,
        metric,
        value: v,
        figure: { symbol: descriptor?.symbol ?? metric, text: Table.formatNumber(v, style) }
      })
    }
  }
  if (scatter.length === 0) return {}
  return { scatter, ...(plottedFewer ? { scatterNote: `Only the ${topN} best ranked runs on each dataset by ${[...plottedMetrics].join(" / ")} are plotted.` } : {}) }
}

/** The p-value matrices the results' marks carry for the datasets the columns show (the heat map), runs by their shown names. */
export const pValuesOf = (results: Results, specs: ReadonlyArray<ColumnSpec>): ReadonlyArray<Table.PValueMatrix> => {
  const label = new Map(results.runs.map((r) => [r.id, labelOf(r)]))
  return specs.flatMap((c) => {
    const key = c.source._tag === "metric" ? figureKey(c.source) : undefined
    const m = key !== undefined ? results.marks?.[key] : undefined
    if (m?.matrix === undefined || m.test === undefined || c.source._tag !== "metric") return []
    const dataset = c.source.dataset
    return [
      {
        dataset: results.datasets.find((d) => d.name === dataset)?.header ?? dataset,
        test: Marks.testLabel(m.test),
        alpha: m.alpha,
        runs: m.matrix.runs.map((id) => label.get(id) ?? id),
        p: m.matrix.p,
        ...(m.matrix.total !== undefined ? { total: m.matrix.total } : {})
      }
    ]
  })
}
