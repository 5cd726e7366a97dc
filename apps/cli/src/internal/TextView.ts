/**
 * The CLI's text views of validations, scored runs and rankings (people read these; programs read
 * the `--json` documents the scoring package defines). Each view takes the command's palette
 * (`Colour.Colour`: colour only on a terminal, never with NO_COLOR).
 */
import type { Registry } from "@stseval/formats";
import { Issue } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import type { MetricValue } from "@stseval/metrics"
import { Rank, Style as Figures, Uncertainty } from "@stseval/scoring"
import type { Engine, ScoredRun } from "@stseval/scoring"
import type { Validation } from "@stseval/scoring"
import type { Palette } from "./Colour.js"
import { Footnotes, Table } from "@stseval/tables"
import * as TextTable from "./TextTable.js"

/** How many issues of a run the text view lists before it summarises the rest. */
const ISSUES_SHOWN = 8

export interface Decimals {
  /** published style of the edition: r to 3 decimals, or r x 100 with 2 */
  readonly style: Registry.TaskEdition["published"]["style"]
  /** override of the number of decimals */
  readonly decimals: number | undefined
}

/**
 * The lines above every command's text output: the edition, where the gold came from and the
 * results' signature (what the figures were computed from).
 */
export const header = (results: Engine.Results, c: Palette, options: { readonly runs?: boolean } = {}): string =>
  [
    `${c.bold(results.edition.id)}  ${results.edition.title}`,
    `gold: ${results.goldPath ?? "-"}${options.runs === true ? `   runs: ${results.runs.length}` : ""}`,
    `signature: ${results.signature.text}`
  ].join("\n")

/** A correlation in the edition's published style (`0.826` or `82.64`, scoring's `Style`); undefined as `n/a`. */
export const correlation = (value: MetricValue.MetricValue | undefined, d: Decimals): string =>
  Figures.metric(value, Figures.correlation({ published: { style: d.style } }, d.decimals))

/** A figure's interval `[low, high]` printed like the figure; empty without intervals or an interval. */
export const interval = (f: Uncertainty.Figure | undefined, print: (x: number) => string): string =>
  f?.ci === undefined ? "" : `[${print(f.ci.low)}, ${print(f.ci.high)}]${Uncertainty.isFew(f) ? Uncertainty.FEW_PAIRS_MARK : ""}${Uncertainty.isSkewed(f) ? Uncertainty.SKEWED_MARK : ""}`


/** A figure and, with intervals, its interval beside it: `0.826 [0.801, 0.849]`. */
const withInterval = (text: string, f: Uncertainty.Figure | undefined, print: (x: number) => string): string => {
  const ci = interval(f, print)
  return ci === "" ? text : `${text} ${ci}`
}

/** The line under text output computed with intervals: what they are and their signature. */
export const intervalsNote = (intervals: Uncertainty.ResultIntervals, c: Palette): string =>
  c.dim(
    `[low, high]: ${Uncertainty.formatLevel(intervals.level)} percentile bootstrap intervals over pairs (not over annotators or datasets); ${intervals.signatureText}`
  )

export const runLabel = (meta: Validation.RunInfo): string =>
  `${meta.id}${meta.primary ? " (primary)" : ""}${meta.late ? " [late]" : ""}${meta.corrected ? " [corrected]" : ""}`

const severityStyle = (i: Issue.Issue, c: Palette) =>
  i.severity === "error" ? c.red("error") : i.severity === "warning" ? c.yellow("warning") : c.dim("info")

/**
 * Issues as `Issue.format` gives them (`file:line: severity: message (expected ..., found "...")`,
 * control characters escaped), the first few of each run, then how many more there are: the true
 * total (`Issue.count`), a capped list's closing issue standing for every finding behind it.
 */
export const issues = (list: ReadonlyArray<Issue.Issue>, c: Palette, options: { readonly verbose: boolean; readonly indent?: string }): string[] => {
  const indent = options.indent ?? "  "
  const shown = list.filter((i) => options.verbose || i.severity !== "info")
  const listed = shown.slice(0, options.verbose ? shown.length : ISSUES_SHOWN)
  const lines = listed.map((i) => {
    const text = Issue.format(i)
    const at = text.indexOf(`: ${i.severity}: `)
    return `${indent}${at < 0 ? text : `${text.slice(0, at)}: ${severityStyle(i, c)}: ${text.slice(at + i.severity.length + 4)}`}`
  })
  const more = Issue.count(shown.slice(listed.length))
  if (more > 0) lines.push(`${indent}${c.dim(`… ${more} more (--verbose lists them all)`)}`)
  return lines
}

const status = (s: string, c: Palette) =>
  s === "scored" ? c.green("will be scored") : s === "no-gold" ? c.dim("no gold") : c.red(s === "missing" ? "not submitted" : "not scored")

/**
 * Whether a dataset's reason is an error of the run (its message, with the count of errors or the
 * file's part named): then that error, listed with its file, line and what was expected, says it,
 * and the dataset's row only points to it.
 */
const saidByIssue = (run: ScoredRun.ScoredRun, reason: string | undefined): boolean =>
  reason !== undefined && run.errors.some((i) => reason.includes(i.message))

// the count scoring's reason gives when a dataset has more than one error (`Issue.count`: every line behind a capped list)
const ERRORS = /\(the first of (\d+) errors\)$/

/** A dataset's reason for not being scored, or the pointer to the errors below that give it, with their true number. */
const reasonOf = (run: ScoredRun.ScoredRun, d: ScoredRun.DatasetScore, c: Palette): string => {
  if (!saidByIssue(run, d.reason)) return d.reason ?? ""
  const n = ERRORS.exec(d.reason ?? "")?.[1]
  return c.dim(n === undefined ? "the error below" : `${n} errors (listed below)`)
}

/**
 * Why a failed run failed, each reason said once. `rows`: the run's datasets are shown as rows
 * with their reasons (`score`, `validate`), so only what no row says is added; else (`rank`) each
 * dataset's reason that no listed error gives.
 */
export const failure = (run: ScoredRun.ScoredRun, c: Palette, options: { readonly rows: boolean; readonly indent?: string }): string[] => {
  if (run.status !== "failed") return []
  const indent = options.indent ?? "  "
  const notScored = run.datasets.filter((d) => d.status === "not-scored")
  if (notScored.length === 0) return [`${indent}${c.red("failed:")} ${run.failure ?? ""}`]
  const head = `${indent}${c.red("failed:")} no dataset can be scored`
  if (options.rows) return [head]
  const own = notScored.filter((d) => !saidByIssue(run, d.reason))
  return [head, ...own.map((d) => `${indent}  ${d.dataset}: ${d.reason ?? ""}`)]
}

/** What `validate` prints for one run: each dataset and whether it will be scored, then its issues. */
export const validation = (v: ScoredRun.ScoredRun, c: Palette, options: { readonly verbose: boolean; readonly width?: number | undefined }): string => {
  const head = `${c.bold(runLabel(v.meta))}  ${c.dim(v.path)}`
  const rows = v.datasets.map((d) => {
    const lines = d.linesScored !== undefined ? `, lines ${d.linesScored[0]}-${d.linesScored[1]}` : ""
    return [d.dataset, status(d.status, c), d.status === "scored" ? `${d.pairs} pairs${lines}` : reasonOf(v, d, c)]
  })
  const table = rows.length > 0 ? indentTable([{ header: "" }, { header: "" }, { header: "" }], rows, c, options.width).slice(1) : []
  return [head, ...failure(v, c, { rows: rows.length > 0 }), ...table, ...issues([...v.errors, ...v.warnings, ...v.infos], c, options)].join("\n")
}

/** A figure of a metric in its style (a correlation in the edition's, `--decimals` applied to it). */
const metricText = (d: Decimals, metric: string) => (x: MetricValue.MetricValue | number | undefined) =>
  Figures.metric(x, Figures.forMetric({ published: { style: d.style } }, metric, Figures.isCorrelation(metric) ? d.decimals : undefined))

/**
 * What `score` prints for one run: per ranking (SICK: relatedness, entailment; STS: one), a table
 * of its datasets with every metric the ranking declares, then its official figure and labelled
 * aggregates; a labels dataset's confusion matrix with `--verbose`.
 */
export const scored = (
  run: ScoredRun.ScoredRun,
  edition: Registry.TaskEdition,
  d: Decimals,
  c: Palette,
  options: { readonly verbose: boolean; readonly intervals?: Uncertainty.ResultIntervals | undefined; readonly width?: number | undefined }
): string => {
  const ci = options.intervals
  const out = [`${c.bold(runLabel(run.meta))}  ${c.dim(run.path)}`, ...failure(run, c, { rows: run.datasets.length > 0 })]
  // one row per dataset: its pairs and every metric its ranking declares, each named ("pearson
  // 0.826"), so that rankings with other metrics (SICK's relatedness and entailment) share one table
  const rows = run.datasets.map((x) => {
    if (x.status !== "scored") {
      const why =
        x.status === "no-gold"
          ? c.dim(`no gold: ${x.reason ?? ""}`)
          : x.status === "missing"
            ? c.red("not submitted")
            : `${c.red("not scored:")} ${reasonOf(run, x, c)}`
      return [x.dataset, "-", why]
    }
    const figures = Object.entries(x.figures).map(([m, v]) => {
      const text = metricText(d, m)
      return `${Metrics.get(m)?.label.toLowerCase() ?? m} ${withInterval(text(v), ci && Uncertainty.datasetFigure(ci, run.meta.id, x.dataset, m), (y) => text(y))}`
    })
    return [x.dataset, String(x.pairs), figures.join("   ")]
  })
  out.push(...indentTable([{ header: "dataset" }, { header: "pairs", align: "right" }, { header: "" }], rows, c, options.width))
  if (options.verbose) {
    for (const x of run.datasets) {
      if (x.labels === undefined) continue
      out.push(`  ${x.dataset}: confusion (rows gold, columns run):`)
      out.push(...indentTable([{ header: "" }, ...x.labels.labels.map((l) => ({ header: l, align: "right" as const }))], x.labels.labels.map((l, i) => [l, ...(x.labels!.confusion[i] ?? []).map(String)]), c, undefined, "    "))
    }
  }
  // each ranking over several datasets: its official figure and labelled aggregates (with --ci, intervals)
  for (const ranking of edition.ranking) {
    const name = edition.ranking.length === 1 ? "official" : ranking.subtask
    const datasets = run.datasets.filter((x) => x.subtask === ranking.subtask)
    const text = metricText(d, ranking.metric)
    out.push(...aggregates(run, name, datasets.length, c, text, (rule, t) => withInterval(t, ci && Uncertainty.aggregateFigure(ci, run.meta.id, rule, name), (v) => text(v))))
  }
  out.push(...issues([...run.errors, ...run.warnings, ...run.infos], c, options))
  return out.join("\n")
}

/**
 * The aggregates line of a ranking over several datasets. With no official figure, it says why
 * first (which dataset is missing and the edition's rule), and the labelled aggregates follow on
 * their own line, each saying how many datasets it covers, so a mean of six tracks is never read as
 * the official figure.
 */
const aggregates = (
  run: ScoredRun.ScoredRun,
  ranking: string,
  total: number,
  c: Palette,
  text: (m: MetricValue.MetricValue) => string,
  shown: (name: string, text: string) => string
): string[] => {
  const official = run.official.find((o) => o.ranking === ranking)
  const labelled = run.aggregates[ranking] ?? {}
  const parts = Object.entries(labelled).flatMap(([name, a]) =>
    a === undefined ? [] : [`${name}${a.unofficial !== undefined ? " (unofficial)" : ""} ${shown(name, text(a.value))}${a.value._tag === "Defined" && a.datasets.length < total ? ` (${a.datasets.length} of ${total} datasets)` : ""}`]
  )
  if (official === undefined || total < 2) return parts.length > 0 ? [`  ${parts.join("   ")}`] : []
  if (official.value._tag === "Defined") {
    // a zero standing in for a dataset (missingDataset: zero) is marked and named
    const zero = official.zeroed.length > 0 ? ` ${Table.rowMarkSymbol.zeroed} (${official.zeroed.map((z) => z.dataset).join(", ")} counted as 0)` : ""
    return [`  ${[`official ${shown("official", text(official.value))}${zero}`, ...parts].join("   ")}`]
  }
  const why = official.value.reason.replace(/^no official score: it /, "the official figure ").replace(/^no official score: /, "")
  return [
    `  ${c.red("official: none")} — ${why}`,
    ...(parts.length > 0 ? [`  ${c.dim("labelled aggregates, not the official figure:")} ${parts.join("   ")}`] : [])
  ]
}

/** A table indented, fitted to `width` (long last cells as numbered notes below it, `TextTable.fit`). */
const indentTable = (columns: ReadonlyArray<TextTable.Column>, rows: ReadonlyArray<ReadonlyArray<string>>, c: Palette, width?: number, indent = "  ") =>
  TextTable.fit(columns, rows, c, width, indent)

const TITLES: Record<string, string> = {
  official: "Official ranking",
  relatedness: "Relatedness (subtask A)",
  entailment: "Entailment (subtask B)"
}

/** The datasets an entry's figure in `ranking` counts as 0 (`missingDataset: zero`), each with why. */
const zeroedOf = (e: Rank.RankEntry, ranking: string) => e.run.official.find((o) => o.ranking === ranking)?.zeroed ?? []

/** The mark of a run whose rank interval overlaps the best run's (`--ci`), and its footnote. */
export const BEST_GROUP_MARK = "≈"

/**
 * What `rank` prints: one table per ranking, ranked runs first, then the runs that are not ranked
 * and why. With intervals: the figure's interval, the rank range, and ≈ on the runs whose rank
 * interval overlaps the best run's.
 */
export const ranking = (
  ranked: Rank.RankedResults<ScoredRun.ScoredRun>,
  d: Decimals,
  c: Palette,
  intervals?: Uncertainty.ResultIntervals,
  width?: number,
  /** rank --marks: each figure's marks (`Marks.compute`), the ranked figure's printed as a "tied" column */
  marks?: ReadonlyArray<{ readonly ranking: string; readonly dataset?: string | undefined; readonly tied: ReadonlyArray<string>; readonly rule?: string | undefined; readonly reason?: string | undefined }>
): string => {
  const out: string[] = []
  // a ranking of one dataset that no run entered (SemRel: a language) is no table of "not ranked"
  // rows: one line names them all
  const unentered = Rank.unentered(ranked.rankings)
  for (const r of ranked.rankings) {
    if (unentered.includes(r)) continue
    // the marks of the figure this ranking orders by: its official aggregate, or its one dataset's
    const m = marks?.find((f) => f.ranking === r.ranking && f.dataset === undefined) ?? marks?.find((f) => f.ranking === r.ranking)
    const tied = new Set(m?.tied ?? [])
    const text = metricText(d, r.metric)
    const print = (x: number) => text(x)
    // the figure ranked: the metric, or the rule over the datasets of it ("mean of Pearson")
    const label = Metrics.get(r.metric)?.label ?? r.metric
    const combined = r.rule !== undefined && r.rule !== "single" && r.rule !== "dataset"
    out.push(c.bold(`${TITLES[r.ranking] ?? r.ranking} — ${combined ? `${r.rule} of ${label}` : label}${ranked.primaryOnly ? ", primary runs" : ", all runs"}`))
    const rows = r.entries.map((e) => {
      const ri = intervals && Uncertainty.runIntervals(intervals, r.ranking, e.meta.id)
      const ranked = e.rank !== undefined
      return [
        ranked ? String(e.rank) : "-",
        ...(intervals !== undefined ? [ri?.rankInterval !== undefined ? Uncertainty.formatRankInterval(ri.rankInterval) : "-"] : []),
        // the marks of the published tables, as report and watch print them
        // ≈ on the runs whose interval overlaps the best's, not on the best itself (its own interval)
        `${tied.has(e.meta.id) ? c.bold(e.meta.id) : e.meta.id}${e.meta.late || e.meta.corrected ? " *" : ""}${e.meta.postDeadline ? " \u2020" : ""}${zeroedOf(e, r.ranking).length > 0 ? ` ${Table.rowMarkSymbol.zeroed}` : ""}${ri?.overlapsBest === true && e.rank !== 1 ? ` ${BEST_GROUP_MARK}` : ""}`,
        ...(marks !== undefined ? [tied.has(e.meta.id) ? "yes" : ""] : []),
        // a run listed without a rank keeps its figure (a post-deadline run, as the papers list them)
        e.value._tag === "Defined" ? text(e.value) : "-",
        ...(intervals !== undefined ? [ranked ? interval(ri?.official, print) || c.dim(ri?.official.reason ?? "") : ""] : []),
        // a failed run's reasons are said once, under Issues
        ranked ? "" : c.dim(`not ranked: ${e.run.status === "failed" ? "the run failed (see below)" : (e.reason ?? "")}`)
      ]
    })
    const level = intervals !== undefined ? `${Uncertainty.formatLevel(intervals.level)}` : ""
    out.push(
      ...indentTable(
        [
          { header: "rank", align: "right" },
          ...(intervals !== undefined ? [{ header: "range", align: "right" as const }] : []),
          { header: "run" },
          ...(marks !== undefined ? [{ header: "tied" }] : []),
          { header: combined ? r.rule : label, align: "right" },
          ...(intervals !== undefined ? [{ header: `${level} CI` }] : []),
          { header: "" }
        ],
        rows,
        c,
        width
      ),
      ""
    )
    // a zero standing in for a dataset a run lacks (missingDataset: zero): marked, said under the table
    const zeroed = r.entries.flatMap((e) => zeroedOf(e, r.ranking).map((z) => `${e.meta.id}: ${z.dataset} counted as 0 (${z.reason})`))
    if (zeroed.length > 0) out.push(c.dim(`  ${Footnotes.zeroed}`), ...zeroed.slice(0, 20).map((z) => c.dim(`    ${z}`)), ...(zeroed.length > 20 ? [c.dim(`    and ${zeroed.length - 20} more`)] : []), "")
    if (marks !== undefined) {
      out.push(c.dim(m?.rule !== undefined ? `  tied: not significantly different from the best ranked run (${m.rule})` : `  tied: no marks${m?.reason !== undefined ? `: ${m.reason}` : ""}`), "")
    }
    if (intervals !== undefined && Uncertainty.bestGroup(intervals, r.ranking).length > 0) {
      out.push(
        c.dim(`  range: the ${level} interval of the run's rank over the resamples; ${BEST_GROUP_MARK}: its rank interval overlaps the best run's (a reading aid, not a test)`),
        ""
      )
    }
  }
  if (unentered.length > 0) out.push(c.dim(`No run entered ${unentered.map((r) => r.ranking).join(", ")}: ${unentered.length === 1 ? "it has" : "they have"} no table.`), "")
  if (intervals !== undefined) out.push(intervalsNote(intervals, c), ...intervals.notes.map((n) => c.dim(`  ${n}`)), "")
  if (ranked.excluded > 0) out.push(c.dim(`${ranked.excluded} non-primary run(s) left out of the ranking (--all-runs ranks every run)`))
  return out.join("\n")
}
