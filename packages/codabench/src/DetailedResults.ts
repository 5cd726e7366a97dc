/**
 * `detailed_results.html`: the page Codabench shows a participant beside their scores. One
 * self-contained file — inline CSS and inline SVG, no script, no request to anywhere (a
 * Content-Security-Policy of `default-src 'none'` says so to the browser) — with the leaderboard
 * figures, the figures of each dataset or subtask, a plot (of the run against the gold where the
 * gold is public, of the run alone where it is secret: see `Plot`), and every validation verdict
 * with its file, line and what was expected. Everything that comes from
 * the submission (file names, values, messages) is HTML-escaped.
 *
 * @since 0.1.0
 */
import { Registry } from "@stseval/formats"
import type { Issue } from "@stseval/formats"
import { Metric, Metrics } from "@stseval/metrics"
import { Style } from "@stseval/scoring"
// the modules, not the package index: the page needs neither the report nor its significance tests
import * as Html from "@stseval/tables/Html"
import * as Plots from "@stseval/tables/Plot"
import type { Column, Figure, FigureRef, Scores } from "./Scores.js"

/**
 * One dataset (STS) or subtask (SICK) of a scored run.
 *
 * @since 0.1.0
 */
export interface Part {
  readonly name: string
  /** `no-gold`: the dataset has no gold to score against (SemRel esp), listed with the reason */
  readonly status: "scored" | "not-scored" | "missing" | "no-gold"
  readonly reason: string | undefined
  readonly file: string | undefined
  readonly pairs: number
  readonly linesScored: readonly [number, number] | undefined
  /** graded scores: run and gold, aligned (the scatter plot) */
  readonly aligned: { readonly run: Float64Array; readonly gold: Float64Array } | undefined
  /** entailment: labels and confusion[gold][run] */
  readonly confusion: { readonly labels: ReadonlyArray<string>; readonly counts: ReadonlyArray<ReadonlyArray<number>> } | undefined
}

/**
 * What the detailed-results page of a Codabench submission shows.
 *
 * @since 0.1.0
 */
export interface Input {
  readonly edition: Registry.TaskEdition
  /**
   * `scored`: on the leaderboard; `received`: valid, to be scored when a sealed phase closes (no
   * figure yet); `rejected`: the submission has errors and was not scored
   */
  readonly verdict: "scored" | "received" | "rejected"
  /** one or two sentences for the participant */
  readonly summary: string
  readonly columns: ReadonlyArray<Column>
  /** the `scores.json` written (absent when rejected) */
  readonly scores: Scores | undefined
  readonly parts: ReadonlyArray<Part>
  readonly figure: (ref: FigureRef) => Figure
  /** the run's issues, with participant-safe file names */
  readonly issues: ReadonlyArray<Issue.Issue>
  /** why a rejected submission was not scored, when no issue says it (no run found, several runs, a run that could not be read) */
  readonly reasons?: ReadonlyArray<string> | undefined
  /** how run-against-gold plots are drawn (see `Plot`) */
  readonly plot: Plot
  /** the scored result's signature (`Engine.score`): which edition, gold and engine gave these figures */
  readonly signature: string
}

/**
 * What the page may show of the gold. `points`: the gold is public to the participants (a
 * development set whose labels they have): a scatter plot of the run against the gold, one dot per
 * pair, and SICK's confusion matrix. `run`: the gold is secret (the test phase): nothing derived
 * from single gold values — a histogram of the run's own scores and its label counts, beside the
 * figures the leaderboard shows anyway. `none`: no plot.
 *
 * Codabench shows this page to far more people than the participant who sent the submission
 * (`get_detail_result` in `src/apps/api/views/submissions.py`, c7dbc756: every approved
 * participant, with no owner check, and anyone once the competition is published), so in a phase
 * whose gold is secret it holds nothing a crafted run could read gold values off. (A grid of
 * (gold, run) counts did: a run placing each of 19 chosen pairs in its own row of the grid read
 * their gold to within a cell's width.)
 *
 * @since 0.1.0
 */
export type Plot = "points" | "run" | "none"

/**
 * Bins of the run's histogram (`run` plots): `Plots.BINS`.
 *
 * @since 0.3.0
 */
export const BINS = Plots.BINS

/**
 * At most this many issues are listed (the rest are counted).
 *
 * @since 0.1.0
 */
export const MAX_ISSUES = 200
/**
 * At most this many points are drawn per plot (every k-th pair beyond, `Plot.sample`): `Plots.MAX_POINTS`.
 *
 * @since 0.1.0
 */
export const MAX_POINTS = Plots.MAX_POINTS

/**
 * Escape text for HTML element content and attribute values, control characters dropped: the one
 * escaper of every page (`Html.escape` of `@stseval/tables`).
 *
 * @example
 * ```ts
 * import { DetailedResults } from "@stseval/codabench"
 *
 * DetailedResults.escape("<b>\u0007") // "&lt;b&gt;": the control character dropped
 * ```
 * @since 0.1.0
 */
export const escape = Html.escape

const e = escape

// scores.json values are already scaled (r x 100 for r100): printed to the column's decimals only.
const formatted = (c: Column, value: number) => Style.format(value, { decimals: c.precision })

const figureText = (f: Figure, style: Style.NumberStyle) =>
  f._tag === "value" ? e(Style.format(f.value, style)) : `<span class="na" title="${e(f.reason)}">n/a</span>`

const leaderboardTable = (input: Input): string => {
  const rows = input.columns.map((c) => {
    const value = input.scores?.scores[c.key]
    const omitted = input.scores?.omitted.find((o) => o.key === c.key)
    const cell =
      value !== undefined
        ? formatted(c, value)
        : omitted !== undefined
          ? `<span class="na">not computed</span>: ${e(omitted.reason)}`
          : `<span class="na">not scored</span>`
    return `<tr><td>${e(c.title)}${c.official ? " <small>(official)</small>" : ""}</td><td><code>${e(c.key)}</code></td><td class="num">${cell}</td></tr>`
  })
  return `<table><thead><tr><th>Leaderboard column</th><th>Key</th><th>Value</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
}

const partsTable = (input: Input, withFigures: boolean): string => {
  const rows = input.parts.map((p) => {
    // the metrics the dataset's ranking reports, each in its own style
    const spec = input.edition.datasets.find((d) => d.name === p.name)
    const ranking = spec === undefined ? input.edition.ranking[0] : Registry.rankingOfDataset(input.edition, spec)
    // Where the gold is secret, the leaderboard's figures only (a test page shows what the
    // leaderboard shows, not a per-track Spearman or an MSE on z-scores beside it).
    const onBoard = (m: Metric.Metric) => input.columns.some((c) => c.figure._tag === "dataset" && c.figure.dataset === p.name && c.figure.metric === m.name)
    const metrics = Registry.metricsOf(ranking)
      .map(Metrics.getOrThrow)
      .filter((m) => !Metric.needsConfidence(m) && (input.plot === "points" || onBoard(m)))
    const figures = metrics
      .map((m) => `${m.symbol} ${figureText(input.figure({ _tag: "dataset", dataset: p.name, metric: m.name }), Style.forMetric(input.edition, m.name))}`)
      .join(", ")
    const status = p.status === "scored" ? `<span class="ok">scored</span>` : p.status === "no-gold" ? `<span>no gold</span>` : `<span class="bad">${p.status === "missing" ? "not submitted" : "not scored"}</span>`
    // which input lines carry gold (STS 2017 track 6: 250 of 500) is the gold's to tell, not a test page's
    const lines = p.linesScored !== undefined && input.plot === "points" ? `${p.linesScored[0]}-${p.linesScored[1]}` : ""
    return `<tr><td>${e(p.name)}</td><td>${status}</td><td class="num">${p.pairs}</td><td>${lines}</td><td>${p.file !== undefined ? `<code>${e(p.file)}</code>` : ""}</td><td>${p.status !== "scored" ? e(p.reason ?? "") : withFigures ? figures : ""}</td></tr>`
  })
  return `<table><thead><tr><th>Dataset</th><th>Status</th><th>Pairs</th><th>Lines scored</th><th>File</th><th>Figures or reason</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
}

/**
 * An inline SVG scatter plot of a run's scores (y) against the gold (x), named by the dataset's
 * ranked metric: `Plot.scatter` (at most `MAX_POINTS` points, every k-th pair beyond, drawn in
 * (gold, run) order, not the gold file's). Pure: the same input gives the same bytes.
 *
 * @example
 * ```ts
 * import { DetailedResults } from "@stseval/codabench"
 *
 * const gold = Float64Array.from([0.2, 3.4, 4.8])
 * const run = Float64Array.from([0.5, 3.1, 4.6])
 * const svg = DetailedResults.scatter("test", gold, run, { min: 0, max: 5 }, { symbol: "r", text: "0.998" })
 * ```
 * @since 0.1.0
 */
export const scatter = (
  title: string,
  gold: Float64Array,
  run: Float64Array,
  scale: { readonly min: number; readonly max: number },
  figure?: Plots.FigureText
): string => Plots.scatter({ title, gold, run, scale, ...(figure !== undefined ? { figure } : {}) })

/**
 * An inline SVG histogram of a run's own scores, `BINS` bins over the scale (widened to the run's
 * range): what a phase with a secret gold may show (`Plot.histogram`). Pure.
 *
 * @example
 * ```ts
 * import { DetailedResults } from "@stseval/codabench"
 *
 * const svg = DetailedResults.histogram("test", Float64Array.from([0.5, 3.1, 4.6]), { min: 0, max: 5 })
 * ```
 * @since 0.3.0
 */
export const histogram = (title: string, run: Float64Array, scale: { readonly min: number; readonly max: number }): string =>
  Plots.histogram({ title: `${title}: your ${run.length} scores`, values: run, scale, xLabel: "your score" })

/** The confusion matrix (gold x run): only where the gold is public. */
const confusionTable = (p: Part): string => {
  if (p.confusion === undefined) return ""
  const { labels, counts } = p.confusion
  const head = `<tr><th>gold \\ run</th>${labels.map((l) => `<th>${e(l)}</th>`).join("")}</tr>`
  const rows = labels.map((l, i) => `<tr><th>${e(l)}</th>${labels.map((_, j) => `<td class="num">${counts[i]?.[j] ?? 0}</td>`).join("")}</tr>`).join("")
  return `<h3>${e(p.name)}: confusion matrix</h3><table>${head}${rows}</table>`
}

/** The run's own label counts (the matrix's column sums): what a secret gold allows. */
const runLabels = (p: Part): string => {
  if (p.confusion === undefined) return ""
  const { labels, counts } = p.confusion
  const totals = labels.map((_, j) => counts.reduce((sum, row) => sum + (row[j] ?? 0), 0))
  return `<h3>${e(p.name)}: your labels</h3><table><tr>${labels.map((l) => `<th>${e(l)}</th>`).join("")}</tr><tr>${totals.map((t) => `<td class="num">${t}</td>`).join("")}</tr></table>`
}

const issueRow = (i: Issue.Issue): string =>
  `<tr class="${i.severity}"><td>${i.severity}</td><td><code>${e(i.file)}</code></td><td class="num">${i.line ?? ""}</td><td>${e(i.field ?? "")}</td><td>${e(i.expected ?? "")}</td><td>${i.found !== undefined ? `<code>${e(i.found)}</code>` : ""}</td><td>${e(i.message)}</td></tr>`

const issuesSection = (issues: ReadonlyArray<Issue.Issue>): string => {
  const head = `<thead><tr><th>Severity</th><th>File</th><th>Line</th><th>Field</th><th>Expected</th><th>Found</th><th>Message</th></tr></thead>`
  const main = issues.filter((i) => i.severity !== "info")
  const infos = issues.filter((i) => i.severity === "info")
  const table = (list: ReadonlyArray<Issue.Issue>) => {
    const shown = list.slice(0, MAX_ISSUES)
    const more = list.length > shown.length ? `<p>… and ${list.length - shown.length} more.</p>` : ""
    return `<table>${head}<tbody>${shown.map(issueRow).join("")}</tbody></table>${more}`
  }
  const mainHtml = main.length > 0 ? table(main) : `<p class="ok">No errors or warnings.</p>`
  const infoHtml = infos.length > 0 ? `<details><summary>${infos.length} informational note${infos.length === 1 ? "" : "s"}</summary>${table(infos)}</details>` : ""
  return `${mainHtml}${infoHtml}`
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}td.num{text-align:right;font-variant-numeric:tabular-nums}.ok{color:#17702a}.bad,.error td:first-child{color:#b00020}.warning td:first-child{color:#8a5a00}.na{color:#777}.verdict{font-size:1.1em;padding:.5em .8em;border-left:4px solid}.verdict.scored{border-color:#17702a}.verdict.rejected{border-color:#b00020}.verdict.received{border-color:#1a5fb4}code{font-size:.9em}${Plots.CSS}`

/**
 * The whole page.
 *
 * @example
 * ```ts
 * import { DetailedResults } from "@stseval/codabench"
 *
 * declare const input: DetailedResults.Input
 * // detailed_results.html: the verdict, the scores, each part, the issues, the plots
 * const html = DetailedResults.render(input)
 * ```
 * @since 0.1.0
 */
export const render = (input: Input): string => {
  // A rejected submission does not count against the run limit, so it shows no figure and no
  // plot: otherwise a deliberately broken run would reveal test figures for free.
  const scored = input.verdict === "scored"
  const withPlots = scored && input.plot !== "none"
  const plotted = input.parts.filter((p) => p.aligned !== undefined && p.aligned.gold.length > 0)
  // a scatter plot is headed by the dataset's figure, named by its ranked metric (r, rho, tau...)
  const figureOf = (p: Part): Plots.FigureText | undefined => {
    const spec = input.edition.datasets.find((d) => d.name === p.name)
    const metric = (spec === undefined ? input.edition.ranking[0] : Registry.rankingOfDataset(input.edition, spec)).metric
    const f = input.figure({ _tag: "dataset", dataset: p.name, metric })
    return f._tag === "value" ? { symbol: Metrics.get(metric)?.symbol ?? metric, text: Style.format(f.value, Style.forMetric(input.edition, metric)) } : undefined
  }
  const plots = withPlots
    ? plotted.map((p) => (input.plot === "points" ? scatter(p.name, p.aligned!.gold, p.aligned!.run, input.edition.scale, figureOf(p)) : histogram(p.name, p.aligned!.run, input.edition.scale))).join("")
    : ""
  const confusions = withPlots ? input.parts.map(input.plot === "points" ? confusionTable : runLabels).join("") : ""
  return [
    `<!DOCTYPE html>`,
    `<html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${e(input.edition.title)}: detailed results</title><style>${STYLE}</style></head><body>`,
    `<h1>${e(input.edition.title)}</h1>`,
    `<p class="verdict ${input.verdict}">${e(input.summary)}</p>`,
    input.reasons !== undefined && input.reasons.length > 0 ? `<ul class="reasons">${input.reasons.map((r) => `<li>${e(r)}</li>`).join("")}</ul>` : "",
    scored ? `<h2>Leaderboard</h2>${leaderboardTable(input)}` : "",
    input.parts.length > 0 ? `<h2>Datasets</h2>${partsTable(input, scored)}` : "",
    plots !== "" ? `<h2>${input.plot === "points" ? "Run against gold" : "Your scores"}</h2><div>${plots}</div>` : "",
    confusions,
    `<h2>Validation</h2>${issuesSection(input.plot === "points" ? input.issues : input.issues.filter((i) => i.code !== "lines-scored"))}`,
    `<p><small>Scored by stseval (edition <code>${e(input.edition.id)}</code>); signature <code class="signature">${e(input.signature)}</code>.</small></p>`,
    `</body></html>`,
    ``
  ].join("\n")
}
