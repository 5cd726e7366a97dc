/**
 * Layouts: recipes that turn `Results` into a `Table`, one per published table the organisers need
 * (SICK Tables 6 and 7, STS 2014 Table 3, STS 2017 Table 10, STS Benchmark Table 14), plus a
 * generic `build` from a `LayoutSpec` so that a config file can describe a new table. Every preset
 * can be customised without code through `Options` (columns and their order, decimals, sorting
 * metric, primary runs only or all, caption...).
 *
 * @since 0.1.0
 */
import type { Registry } from "@stseval/formats"
import { MetricValue } from "@stseval/metrics"
import { Rank, Uncertainty } from "@stseval/scoring"
import type { DatasetSignificance, Results, RunResult } from "./Results.js"
import { figureKey, figureOf, labelOf, participants } from "./Results.js"
import * as Significance from "./Significance.js"
import * as Table from "./Table.js"

/**
 * Where a column's values come from.
 *
 * @example
 * ```ts
 * import { Layouts } from "@stseval/tables"
 *
 * const source: Layouts.Source = { _tag: "metric", dataset: "track5.en-en", metric: "pearson" }
 * ```
 * @since 0.1.0
 */
export type Source =
  | { readonly _tag: "label" }
  | { readonly _tag: "team" }
  | { readonly _tag: "run" }
  | { readonly _tag: "rank" }
  | { readonly _tag: "metric"; readonly dataset: string; readonly metric: "pearson" | "spearman" | "mse" | "accuracy" }
  | { readonly _tag: "aggregate"; readonly name: string }
  /** the interval of the run's rank by the sort column's figure (`--ci`), e.g. "1-3" */
  | { readonly _tag: "rankInterval" }

/**
 * @example
 * ```ts
 * import { Layouts } from "@stseval/tables"
 *
 * const column: Layouts.ColumnSpec = {
 *   key: "en-en",
 *   header: "en-en",
 *   source: { _tag: "metric", dataset: "track5.en-en", metric: "pearson" },
 *   number: { decimals: 2, scale: 100 },
 *   markBest: true,
 *   markTied: "track5.en-en"
 * }
 * ```
 * @since 0.1.0
 */
export interface ColumnSpec {
  readonly key: string
  readonly header: string
  readonly source: Source
  readonly group?: string | undefined
  readonly number?: Table.NumberStyle | undefined
  readonly align?: Table.Align | undefined
  /** MSE: smaller is better (sorting, best mark) */
  readonly lowerIsBetter?: boolean | undefined
  /** mark the best value of the column with a bullet */
  readonly markBest?: boolean | undefined
  /** mark runs not significantly different from the best on this dataset in bold */
  readonly markTied?: string | undefined
  /** print each run's rank in this column's own ranking after its value (`0.812 (2)`; SemRel ranks per language) */
  readonly withRank?: boolean | undefined
  readonly description?: string | undefined
}

/**
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250 }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518, pairs: 250 } }, aggregates: { official: 0.8518 } },
 *     { id: "baseline/run1", team: "baseline", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.7278, pairs: 250 } }, aggregates: { official: 0.7278 } }
 *   ]
 * }
 * const spec: Layouts.LayoutSpec = {
 *   id: "mine",
 *   title: "English",
 *   caption: "Pearson r x 100 of the {runs} on en-en.",
 *   label: "tab:en",
 *   wide: false,
 *   columns: [
 *     { key: "run", header: "Run", source: { _tag: "label" } },
 *     { key: "en-en", header: "en-en", source: { _tag: "metric", dataset: "track5.en-en", metric: "pearson" }, number: { decimals: 2, scale: 100 } },
 *     { key: "rank", header: "Rank", source: { _tag: "rank" } }
 *   ],
 *   sortBy: "en-en",
 *   runs: "all"
 * }
 * const table = Layouts.build(results, spec)
 * ```
 * @since 0.1.0
 */
export interface LayoutSpec {
  readonly id: string
  readonly title: string
  /** `{runs}` is replaced by "runs" or "primary runs" */
  readonly caption: string
  readonly label: string
  readonly wide: boolean
  readonly columns: ReadonlyArray<ColumnSpec>
  /** key of the column that orders and ranks the runs */
  readonly sortBy: string
  readonly runs: "primary" | "all"
  /** section order (others follow in order of appearance) */
  readonly sectionOrder?: ReadonlyArray<string> | undefined
  /** sections whose runs are ranked; default: every section not named like "baseline" */
  readonly rankedSections?: ReadonlyArray<string> | undefined
  /** footnotes printed before the generated ones */
  readonly notes?: ReadonlyArray<string> | undefined
}

/**
 * Options to customise a layout without code (also what a config file holds).
 *
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250 }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518, pairs: 250 } }, aggregates: { official: 0.8518 } },
 *     { id: "baseline/run1", team: "baseline", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.7278, pairs: 250 } }, aggregates: { official: 0.7278 } }
 *   ]
 * }
 * const options: Layouts.Options = { decimals: 1, caption: "Our results", significance: false }
 * Layouts.preset("sts2017-table10", results, options)
 * ```
 * @since 0.1.0
 */
export interface Options {
  /** column keys to show, in this order (default: the layout's) */
  readonly columns?: ReadonlyArray<string> | undefined
  /** decimals of every number column, or by column key */
  readonly decimals?: number | Readonly<Record<string, number>> | undefined
  /** column key to sort and rank by */
  readonly sortBy?: string | undefined
  /** primary runs only, or every run */
  readonly runs?: "primary" | "all" | undefined
  readonly title?: string | undefined
  readonly caption?: string | undefined
  readonly label?: string | undefined
  readonly wide?: boolean | undefined
  /** renamed column headers by key */
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly sectionOrder?: ReadonlyArray<string> | undefined
  /** bold marks (needs gold and run scores); default true */
  readonly significance?: boolean | undefined
  /** default `Compare.defaultTest` (Williams' t, as STS 2017) */
  readonly test?: Significance.Options["test"] | undefined
  /** default 0.05 */
  readonly alpha?: number | undefined
  /** resampling tests */
  readonly resamples?: number | undefined
  readonly seed?: number | undefined
  /** bullet on the best value per column; default true */
  readonly bestMarks?: boolean | undefined
  /** p-value matrix between all runs per dataset (HTML heat map); default true */
  readonly matrix?: boolean | undefined
  /** scatter plots: how many top runs per dataset (0 = none); default 3 */
  readonly scatterRuns?: number | undefined
  /** downsample scatter plots to at most this many points; default 1500 */
  readonly maxPoints?: number | undefined
  /** extra footnotes */
  readonly notes?: ReadonlyArray<string> | undefined
  /**
   * With intervals (`--ci`): a "Rank range" column (key `rankRange`) after the rank (or last);
   * default true. Figures carry their intervals either way (HTML error bars).
   */
  readonly rankIntervals?: boolean | undefined
}

/**
 * The footnotes of a table with intervals (`--ci`): what `≈` means when a row has it, and how the
 * intervals (and the rank range, when the table shows it) were made. The live leaderboard's tables
 * print the same.
 *
 * @example
 * ```ts
 * import { Layouts } from "@stseval/tables"
 *
 * const notes = Layouts.intervalFootnotes({ level: 0.95, resamples: 1000, seed: 12345 }, { overlapsBest: false, range: true })
 * ```
 * @since 0.2.0
 */
export const intervalFootnotes = (
  ci: { readonly level: number; readonly resamples: number; readonly seed: number },
  used: { readonly overlapsBest: boolean; readonly range: boolean }
): ReadonlyArray<string> => {
  const level = `${Math.round(ci.level * 1000) / 10}%`
  return [
    ...(used.overlapsBest ? [`\u2248 the run's ${level} rank interval overlaps the best run's (a reading aid beside the significance marks, not a test).`] : []),
    `${used.range ? "Rank range and i" : "I"}ntervals: ${level} percentile bootstrap over the pairs, resampled within each dataset (${ci.resamples} resamples, seed ${ci.seed}); not over annotators or datasets.`
  ]
}

/**
 * The rank-interval column a layout gets when the results carry intervals.
 *
 * @example
 * ```ts
 * import { Layouts } from "@stseval/tables"
 *
 * Layouts.rankRangeColumn.key // "rankRange"
 * ```
 * @since 0.2.0
 */
export const rankRangeColumn: ColumnSpec = {
  key: "rankRange",
  header: "Rank range",
  source: { _tag: "rankInterval" },
  align: "right",
  description: "the interval of the run's rank over the bootstrap resamples"
}

const isBaseline = (section: string) => /baseline/i.test(section)

const sectionOf = (r: RunResult) => r.section ?? participants

const rawValue = (run: RunResult, source: Source): number | undefined => {
  switch (source._tag) {
    case "metric":
      return figureOf(run.datasets[source.dataset], source.metric)
    case "aggregate":
      return run.aggregates[source.name]
    default:
      return undefined
  }
}

const missingReason = (run: RunResult, source: Source): string | undefined =>
  source._tag === "metric"
    ? (run.datasets[source.dataset]?.reason ?? (run.datasets[source.dataset] === undefined ? `${source.dataset} not submitted` : undefined))
    : source._tag === "aggregate"
      ? run.aggregateReasons?.[source.name]
      : undefined

const finite = (x: number | undefined): x is number => x !== undefined && Number.isFinite(x)

/** A layout row as the scoring package's `rank` sees it. */
interface Rankable extends Rank.Rankable {
  readonly row: RunResult
}

const RUN_NUMBER = /^run(\d+)$/i

const rankable = (row: RunResult): Rankable => ({
  row,
  meta: {
    id: row.id,
    team: row.team,
    run: row.runNumber ?? (RUN_NUMBER.test(row.run) ? Number(RUN_NUMBER.exec(row.run)![1]) : undefined),
    primary: row.primary,
    late: row.late === true,
    corrected: row.corrected === true,
    postDeadline: row.postDeadline === true,
    ...(row.identityUnknown === true ? { identityUnknown: true as const } : {})
  },
  status: "scored",
  failure: undefined,
  official: []
})

const figure = (x: number | undefined): MetricValue.MetricValue =>
  finite(x) ? MetricValue.defined(x) : MetricValue.undefined_("no figure")

/** Deterministic stride downsampling of a scatter plot to at most `max` points. */
const downsample = (gold: Float64Array, run: Float64Array, max: number): { gold: Array<number>; run: Array<number> } => {
  const n = gold.length
  if (n <= max) return { gold: Array.from(gold), run: Array.from(run) }
  const g: Array<number> = []
  const r: Array<number> = []
  for (let i = 0; i < max; i++) {
    const at = Math.floor((i * n) / max)
    g.push(gold[at])
    r.push(run[at])
  }
  return { gold: g, run: r }
}

/** The runs a layout shows and, among them, the sections it ranks. */
const shown = (results: Results, spec: LayoutSpec, options: Options) => {
  const which = options.runs ?? spec.runs
  // a run whose identity is unknown may be a primary run: listed (failed, never ranked) either way
  const runs = results.runs.filter((r) => which === "all" || r.primary || r.identityUnknown === true)
  const order = options.sectionOrder ?? spec.sectionOrder ?? [participants]
  const names = [...new Set(runs.map(sectionOf))].sort((a, b) => {
    const ia = order.indexOf(a)
    const ib = order.indexOf(b)
    return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib)
  })
  const ranked = new Set(spec.rankedSections ?? names.filter((s) => !isBaseline(s)))
  return { which, runs, names, ranked }
}

/**
 * Ids of the runs a preset layout ranks (shown, in a ranked section): the runs whose rank
 * intervals the table prints, so that intervals are computed over the table's own ranking.
 *
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250 }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518, pairs: 250 } }, aggregates: { official: 0.8518 } },
 *     { id: "baseline/run1", team: "baseline", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.7278, pairs: 250 } }, aggregates: { official: 0.7278 } }
 *   ]
 * }
 * Layouts.rankedIds("sts2017-table10", results) // ["ECNU/run1", "baseline/run1"]: best first
 * ```
 * @since 0.2.0
 */
export const rankedIds = (id: string, results: Results, options: Options = {}): ReadonlyArray<string> => {
  const make = presets[id]
  if (make === undefined) return []
  const { runs, ranked } = shown(results, make(results), options)
  return runs.filter((r) => ranked.has(sectionOf(r))).map((r) => r.id)
}

/** The figure a rank column orders by, as a `figureKey`, when it is a figure. */
const sortFigure = (source: Source): string | undefined => (source._tag === "metric" || source._tag === "aggregate" ? figureKey(source) : undefined)

/**
 * Build a Table from results with a layout spec and options.
 *
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250 }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518, pairs: 250 } }, aggregates: { official: 0.8518 } },
 *     { id: "baseline/run1", team: "baseline", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.7278, pairs: 250 } }, aggregates: { official: 0.7278 } }
 *   ]
 * }
 * // a preset's spec, laid out with options
 * const table = Layouts.build(results, Layouts.sts2017Table10(results), { significance: false })
 * ```
 * @since 0.1.0
 */
export const build = (results: Results, spec: LayoutSpec, options: Options = {}): Table.Table => {
  // Columns: chosen and ordered by options, decimals and headers overridden.
  const sortKey = options.sortBy ?? spec.sortBy
  const sortSource = spec.columns.find((c) => c.key === sortKey)?.source
  const rankFigure = sortSource !== undefined ? sortFigure(sortSource) : undefined
  // the rank range: with intervals, when the table ranks by a figure the intervals ranked
  const withRange =
    results.intervals !== undefined &&
    options.rankIntervals !== false &&
    rankFigure !== undefined &&
    results.runs.some((r) => r.rankIntervals?.[rankFigure] !== undefined)
  const available = withRange ? [...spec.columns, rankRangeColumn] : spec.columns
  const byKey = new Map(available.map((c) => [c.key, c]))
  const unknown = (options.columns ?? []).filter((k) => !byKey.has(k))
  if (unknown.length > 0) {
    throw new Error(`unknown column ${unknown.join(", ")} in layout ${spec.id}; columns are ${available.map((c) => c.key).join(", ")}`)
  }
  const defaultKeys = spec.columns.map((c) => c.key)
  if (withRange) {
    const at = defaultKeys.indexOf("rank")
    defaultKeys.splice(at >= 0 ? at + 1 : defaultKeys.length, 0, rankRangeColumn.key)
  }
  const specs = (options.columns ?? defaultKeys).map((k) => byKey.get(k) as ColumnSpec)
  const sortSpec = byKey.get(sortKey)
  if (sortSpec === undefined) throw new Error(`unknown sort column ${sortKey} in layout ${spec.id}`)
  const decimalsOf = (c: ColumnSpec): number | undefined =>
    typeof options.decimals === "number" ? options.decimals : options.decimals?.[c.key]
  const columns: Array<Table.Column> = specs.map((c) => {
    const d = decimalsOf(c)
    const number = c.number !== undefined && d !== undefined ? { ...c.number, decimals: d } : c.number
    return {
      key: c.key,
      header: options.headers?.[c.key] ?? c.header,
      align: c.align ?? (c.source._tag === "label" || c.source._tag === "team" || c.source._tag === "run" ? "left" : "right"),
      number: c.source._tag === "rank" ? { decimals: 0 } : number,
      group: c.group,
      rowLabel: c.source._tag === "label" || undefined,
      description: c.description
    }
  })
  if (!columns.some((c) => c.rowLabel === true)) {
    const first = columns.findIndex((c) => c.align === "left")
    if (first >= 0) columns[first] = { ...columns[first], rowLabel: true }
  }

  // Runs, sections, order, ranks.
  const { which, runs, names, ranked } = shown(results, spec, options)
  // Ranks and order come from the scoring package's `rank` (one tie rule everywhere): by the sort
  // column, ties in run order (team, run number, id); runs without a figure last.
  const byColumn = (c: ColumnSpec): Rank.By<Rankable> => ({
    ranking: c.key,
    metric: c.key,
    value: (x) => figure(rawValue(x.row, c.source)),
    lowerIsBetter: c.lowerIsBetter === true
  })
  const rankOf = (rows: ReadonlyArray<RunResult>, c: ColumnSpec) => Rank.rank(rows.map(rankable), { primaryOnly: false, by: [byColumn(c)] }).rankings[0]
  const rankedRuns = runs.filter((r) => ranked.has(sectionOf(r)))
  const ranks = new Map<string, number | undefined>()
  for (const e of rankOf(rankedRuns, sortSpec)?.entries ?? []) ranks.set(e.run.row.id, e.rank)
  const ordered = (rows: ReadonlyArray<RunResult>) => (rankOf(rows, sortSpec)?.entries ?? []).map((e) => e.run.row)

  // Significance: precomputed, or computed over the shown runs where gold and scores exist.
  const wantTied = specs.some((c) => c.markTied !== undefined) && options.significance !== false
  const wantMatrix = options.matrix !== false
  const shownDatasets = new Set(specs.flatMap((c) => (c.source._tag === "metric" ? [c.source.dataset] : [])))
  const significance: Record<string, DatasetSignificance> = { ...(results.significance ?? {}) }
  if ((wantTied || wantMatrix) && results.significance === undefined) {
    Object.assign(
      significance,
      Significance.compute(results, {
        runIds: runs.map((r) => r.id),
        datasets: [...shownDatasets],
        matrix: wantMatrix,
        ...(options.test !== undefined ? { test: options.test } : {}),
        ...(options.alpha !== undefined ? { alpha: options.alpha } : {}),
        ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {})
      })
    )
  }

  // Best value per marked column, among the ranked runs: the value ranked first.
  const bestOf = new Map<string, number>()
  if (options.bestMarks !== false) {
    for (const c of specs) {
      if (c.markBest !== true) continue
      const top = rankOf(rankedRuns, c)?.entries[0]
      if (top?.rank === 1 && top.value._tag === "Defined") bestOf.set(c.key, top.value.value)
    }
  }

  // ranks within the columns that print them (ranked runs only, the same rule as the rank column)
  const columnRanks = new Map<string, Map<string, number | undefined>>()
  for (const c of specs) {
    if (c.withRank !== true) continue
    columnRanks.set(c.key, new Map((rankOf(rankedRuns, c)?.entries ?? []).map((e) => [e.run.row.id, e.rank])))
  }

  const usedMarks = {
    best: false,
    tied: new Set<string>(),
    late: false,
    postDeadline: false,
    missing: false,
    overlapsBest: false,
    range: false,
    columnRanges: false
  }
  const rankIntervalOf = (run: RunResult) => (rankFigure !== undefined && ranked.has(sectionOf(run)) ? run.rankIntervals?.[rankFigure] : undefined)
  // the rank interval of a run in a column's own ranking (SemRel: per language), when the intervals ranked it there
  const columnRankInterval = (run: RunResult, c: ColumnSpec) => {
    const figure = c.withRank === true ? sortFigure(c.source) : undefined
    return figure !== undefined && columnRanks.get(c.key)?.get(run.id) !== undefined ? run.rankIntervals?.[figure] : undefined
  }
  const ciOf = (run: RunResult, source: Source) =>
    source._tag === "metric"
      ? source.metric === "mse"
        ? undefined
        : run.datasets[source.dataset]?.ci?.[source.metric]
      : source._tag === "aggregate"
        ? run.aggregateIntervals?.[source.name]
        : undefined
  const cellOf = (run: RunResult, c: ColumnSpec): Table.Cell => {
    switch (c.source._tag) {
      case "label":
        return Table.text(labelOf(run))
      case "team":
        return Table.text(run.team)
      case "run":
        return Table.text(run.run)
      case "rank": {
        const k = ranks.get(run.id)
        if (k === undefined) {
          return Table.missing(ranked.has(sectionOf(run)) ? "no figure to rank by" : "not ranked")
        }
        return Table.number(k)
      }
      case "rankInterval": {
        const ri = rankIntervalOf(run)
        if (ri === undefined) return Table.missing(ranked.has(sectionOf(run)) ? "no rank interval (not ranked, or no figure)" : "not ranked")
        usedMarks.range = true
        return Table.text(Uncertainty.formatRankInterval(ri))
      }
      default: {
        const v = rawValue(run, c.source)
        if (!finite(v)) {
          usedMarks.missing = true
          return Table.missing(missingReason(run, c.source))
        }
        const marks: Array<Table.CellMark> = []
        if (bestOf.get(c.key) === v && ranked.has(sectionOf(run))) {
          marks.push("best")
          usedMarks.best = true
        }
        const sig = c.markTied !== undefined && wantTied ? significance[c.markTied] : undefined
        if (sig !== undefined && sig.tied.includes(run.id)) {
          marks.push("tied")
          usedMarks.tied.add(`${Significance.testLabel(sig.test)}, p > ${sig.alpha}`)
        }
        const ri = columnRankInterval(run, c)
        if (ri !== undefined) usedMarks.columnRanges = true
        if (ri?.overlapsBest === true) {
          marks.push("overlapsBest")
          usedMarks.overlapsBest = true
        }
        return Table.number(v, marks, ciOf(run, c.source), columnRanks.get(c.key)?.get(run.id), ri !== undefined ? { low: ri.low, high: ri.high } : undefined)
      }
    }
  }
  const sections: Array<Table.Section> = names.map((name) => ({
    title: names.length === 1 && name === participants ? undefined : name,
    rows: ordered(runs.filter((r) => sectionOf(r) === name))
      .map((run) => {
        const marks: Array<Table.RowMark> = []
        if (run.late === true || run.corrected === true) {
          marks.push("late")
          usedMarks.late = true
        }
        if (run.postDeadline === true) {
          marks.push("postDeadline")
          usedMarks.postDeadline = true
        }
        if (rankIntervalOf(run)?.overlapsBest === true) {
          marks.push("overlapsBest")
          usedMarks.overlapsBest = true
        }
        return {
          id: run.id,
          cells: Object.fromEntries(specs.map((c) => [c.key, cellOf(run, c)])),
          marks,
          flags: { late: run.late === true, corrected: run.corrected === true, postDeadline: run.postDeadline === true }
        }
      })
  }))

  const footnotes: Array<string> = [...(spec.notes ?? []), ...(options.notes ?? [])]
  if (usedMarks.best) footnotes.push("\u2022 best figure in the column.")
  for (const t of usedMarks.tied) footnotes.push(`Bold: not significantly different from the best run (${t}).`)
  if (usedMarks.late) footnotes.push("* late or corrected submission.")
  if (usedMarks.postDeadline) footnotes.push("\u2020 post-deadline submission.")
  if (usedMarks.missing) footnotes.push("-: no figure (dataset not submitted or not scored).")
  if (usedMarks.columnRanges) {
    footnotes.push(
      `(r; a-b) after a figure: the run's rank r in that column's own ranking and the ${Math.round((results.intervals?.level ?? 0) * 1000) / 10}% interval a-b of that rank over the bootstrap resamples.`
    )
  }
  if (results.intervals !== undefined) footnotes.push(...intervalFootnotes(results.intervals, { ...usedMarks, range: usedMarks.range || usedMarks.columnRanges }))

  // Extras for HTML / JSON: scatter plots of the top runs per dataset, and p-value matrices.
  const label = new Map(results.runs.map((r) => [r.id, labelOf(r)]))
  const scatter: Array<Table.Scatter> = []
  const topN = options.scatterRuns ?? 3
  for (const d of results.datasets) {
    if (d.gold === undefined || topN <= 0 || !shownDatasets.has(d.name)) continue
    const gold = d.gold
    const top = runs
      .filter((r) => r.scores?.[d.name]?.length === gold.length)
      .map((r) => ({ r, v: figureOf(r.datasets[d.name], "pearson") }))
      .sort((a, b) => (b.v ?? -Infinity) - (a.v ?? -Infinity))
      .slice(0, topN)
    for (const { r, v } of top) {
      const pts = downsample(gold, r.scores?.[d.name] as Float64Array, options.maxPoints ?? 1500)
      scatter.push({ dataset: d.header ?? d.name, runId: r.id, title: labelOf(r), ...pts, pairs: gold.length, pearson: v })
    }
  }
  const pValues: Array<Table.PValueMatrix> = Object.entries(significance).flatMap(([dataset, s]) =>
    s.matrix !== undefined && shownDatasets.has(dataset)
      ? [{ dataset: results.datasets.find((d) => d.name === dataset)?.header ?? dataset, test: Significance.testLabel(s.test), alpha: s.alpha, runs: s.matrix.runs.map((id) => label.get(id) ?? id), p: s.matrix.p, ...(s.matrix.total !== undefined ? { total: s.matrix.total } : {}) }]
      : []
  )

  return {
    id: spec.id,
    title: options.title ?? spec.title,
    // "{runs}" in a caption names the runs shown
    caption: (options.caption ?? spec.caption).replaceAll("{runs}", which === "all" ? "runs" : "primary runs"),
    label: options.label ?? spec.label,
    wide: options.wide ?? spec.wide,
    columns,
    sections,
    footnotes,
    ...(scatter.length > 0 ? { scatter } : {}),
    ...(pValues.length > 0 ? { pValues } : {})
  }
}

// ---------------------------------------------------------------------------------------------
// Presets
// ---------------------------------------------------------------------------------------------

const label: ColumnSpec = { key: "run", header: "Run", source: { _tag: "label" } }
const rank: ColumnSpec = { key: "rank", header: "Rank", source: { _tag: "rank" } }
const r3: Table.NumberStyle = { decimals: 3 }

/** One column per dataset: its figure under the dataset's header. */
const datasetColumn = (d: Results["datasets"][number], metric: "pearson" | "spearman", more: Partial<ColumnSpec>): ColumnSpec => ({
  key: d.name,
  header: d.header ?? d.name,
  source: { _tag: "metric", dataset: d.name, metric },
  ...more
})
const x100: Table.NumberStyle = { decimals: 2, scale: 100 }

/**
 * SICK Table 6: entailment accuracy (percent) of the primary runs, ranked.
 *
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * declare const results: Results.Results // a SICK edition's
 * const table = Layouts.build(results, Layouts.sickTable6(results)) // Table 6: entailment accuracy
 * ```
 * @since 0.1.0
 */
export const sickTable6 = (_: Results): LayoutSpec => ({
  id: "sick2014-table6",
  title: "Subtask B: entailment",
  caption: "Entailment accuracy of the {runs}, ranked.",
  label: "tab:sick-entailment",
  wide: false,
  columns: [label, { key: "accuracy", header: "Accuracy (%)", source: { _tag: "metric", dataset: "entailment", metric: "accuracy" }, number: r3, markBest: true }, rank],
  sortBy: "accuracy",
  runs: "primary"
})

/**
 * SICK Table 7: relatedness Pearson r, Spearman rho and MSE of the primary runs, ranked by r.
 *
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * declare const results: Results.Results // a SICK edition's
 * const table = Layouts.build(results, Layouts.sickTable7(results)) // Table 7: r, rho, MSE
 * ```
 * @since 0.1.0
 */
export const sickTable7 = (_: Results): LayoutSpec => ({
  id: "sick2014-table7",
  title: "Subtask A: relatedness",
  caption: "Relatedness results of the {runs} (r: Pearson, \u03c1: Spearman, MSE on raw scores), ranked by r.",
  label: "tab:sick-relatedness",
  wide: false,
  columns: [
    label,
    { key: "pearson", header: "r", source: { _tag: "metric", dataset: "relatedness", metric: "pearson" }, number: r3, markBest: true, markTied: "relatedness" },
    { key: "spearman", header: "\u03c1", source: { _tag: "metric", dataset: "relatedness", metric: "spearman" }, number: r3, markBest: true },
    { key: "mse", header: "MSE", source: { _tag: "metric", dataset: "relatedness", metric: "mse" }, number: r3, lowerIsBetter: true, markBest: true },
    rank
  ],
  sortBy: "pearson",
  runs: "primary"
})

/**
 * STS 2014 Table 3: per-dataset Pearson, the official weighted mean (a dataset not submitted
 * counts as r = 0), rank; every run.
 *
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * declare const results: Results.Results // an STS 2012-2016 edition's
 * const table = Layouts.build(results, Layouts.sts2014Table3(results)) // per-dataset r, weighted mean, rank
 * ```
 * @since 0.1.0
 */
export const sts2014Table3 = (results: Results): LayoutSpec => ({
  id: "sts2014-table3",
  title: "English subtask results",
  caption: "Pearson correlation of the {runs} on each dataset, the weighted mean (official figure) and the rank.",
  label: "tab:sts-en-results",
  wide: true,
  columns: [
    label,
    ...results.datasets.map((d) => datasetColumn(d, "pearson", { number: r3 })),
    { key: "wmean", header: "Weighted mean", source: { _tag: "aggregate", name: "official" }, number: r3, description: "mean of per-dataset Pearson weighted by scored pairs; a dataset not submitted counts as r = 0" },
    rank
  ],
  sortBy: "wmean",
  runs: "all"
})

/**
 * STS 2017 Table 10: Primary (mean of all tracks) and per-track Pearson x 100, the best per track
 * with a bullet, bold = not significantly different from the best (Williams' t), `*` late or
 * corrected.
 *
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250 }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518, pairs: 250 } }, aggregates: { official: 0.8518 } },
 *     { id: "baseline/run1", team: "baseline", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.7278, pairs: 250 } }, aggregates: { official: 0.7278 } }
 *   ]
 * }
 * const table = Layouts.build(results, Layouts.sts2017Table10(results)) // Primary, then r x 100 per track
 * ```
 * @since 0.1.0
 */
export const sts2017Table10 = (results: Results): LayoutSpec => ({
  id: "sts2017-table10",
  title: "STS 2017 results",
  caption: "Pearson correlation (r \u00d7 100) of the {runs} on each track; Primary is the mean over all tracks.",
  label: "tab:sts2017-results",
  wide: true,
  columns: [
    label,
    { key: "primary", header: "Primary", source: { _tag: "aggregate", name: "official" }, number: x100, markBest: true },
    ...results.datasets.map((d) => datasetColumn(d, "pearson", { group: "Track", number: x100, markBest: true, markTied: d.name }))
  ],
  sortBy: "primary",
  runs: "all",
  sectionOrder: [participants, "Baselines"]
})

/**
 * STS Benchmark Table 14: dev and test Pearson x 100 per system, grouped by section.
 *
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * declare const results: Results.Results // STS Benchmark test, merged with dev (FromScoring.merge)
 * const table = Layouts.build(results, Layouts.stsbTable14(results)) // Dev and Test, in sections
 * ```
 * @since 0.1.0
 */
export const stsbTable14 = (_: Results): LayoutSpec => ({
  id: "stsb-table14",
  title: "STS Benchmark",
  caption: "Pearson correlation (r \u00d7 100) on the STS Benchmark dev and test sets.",
  label: "tab:stsb",
  wide: false,
  columns: [
    label,
    { key: "dev", header: "Dev", source: { _tag: "metric", dataset: "dev", metric: "pearson" }, number: x100, markBest: true, markTied: "dev" },
    { key: "test", header: "Test", source: { _tag: "metric", dataset: "test", metric: "pearson" }, number: x100, markBest: true, markTied: "test" }
  ],
  sortBy: "test",
  runs: "all",
  rankedSections: undefined
})

/**
 * SemEval-2024 Task 1 (SemRel), one table per track: a column per language with each run's
 * Spearman and its rank among the runs in that language (`0.812 (2)`), as the task ranked teams per
 * language; the mean over the languages is shown last, labelled unofficial, and orders the rows. A
 * language without a public gold (esp) has no column; a footnote says why.
 *
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * declare const results: Results.Results // a SemRel 2024 track's
 * const table = Layouts.build(results, Layouts.semrel2024Table(results)) // Spearman and rank per language
 * ```
 * @since 0.2.0
 */
export const semrel2024Table = (results: Results): LayoutSpec => ({
  id: "semrel2024-table",
  title: `${results.edition}: Spearman per language`,
  caption: "Spearman correlation of the {runs} in each language, with the rank in that language in parentheses (runs are ranked per language).",
  label: `tab:${results.edition}`,
  wide: true,
  columns: [
    label,
    ...results.datasets.filter((d) => d.noGold === undefined).map((d) => datasetColumn(d, "spearman", { group: "Spearman (rank)", number: r3, withRank: true })),
    {
      key: "mean",
      header: "Mean (unofficial)",
      source: { _tag: "aggregate", name: "mean" },
      number: r3,
      description: "mean of Spearman over the languages with a public gold; not an official figure (runs were ranked per language)"
    }
  ],
  sortBy: "mean",
  runs: "all",
  sectionOrder: [participants, "Baselines"],
  notes: [
    "Mean (unofficial): the mean of Spearman over the languages with a public gold, for runs that entered all of them; the task ranked runs per language only. Rows are ordered by it.",
    ...results.datasets.filter((d) => d.noGold !== undefined).map((d) => `${d.header ?? d.name}: not scored, ${d.noGold ?? ""}.`)
  ]
})

/**
 * The preset layouts by id.
 *
 * @example
 * ```ts
 * import { Layouts } from "@stseval/tables"
 *
 * Object.keys(Layouts.presets) // ["sick2014-table6", "sick2014-table7", "sts2014-table3", ...]
 * ```
 * @since 0.1.0
 */
export const presets: Readonly<Record<string, (results: Results) => LayoutSpec>> = {
  "sick2014-table6": sickTable6,
  "sick2014-table7": sickTable7,
  "sts2014-table3": sts2014Table3,
  "sts2017-table10": sts2017Table10,
  "stsb-table14": stsbTable14,
  "semrel2024-table": semrel2024Table
}

/**
 * The layouts of an edition's published results tables, from the registry (`published.tables`;
 * SICK has two), else the generic table of its family: SICK's two tables, or per-dataset Pearson
 * with the official aggregate and the rank (`sts2014-table3`).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Layouts } from "@stseval/tables"
 *
 * Layouts.forEdition(Registry.get("sick2014")!) // ["sick2014-table7", "sick2014-table6"]
 * ```
 * @since 0.2.0
 */
export const forEdition = (edition: Pick<Registry.TaskEdition, "family" | "published">): ReadonlyArray<string> =>
  edition.published.tables ?? (edition.family === "sick" ? ["sick2014-table7", "sick2014-table6"] : ["sts2014-table3"])

/**
 * Build a preset layout by id.
 *
 * @example
 * ```ts
 * import { Layouts, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250 }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518, pairs: 250 } }, aggregates: { official: 0.8518 } },
 *     { id: "baseline/run1", team: "baseline", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.7278, pairs: 250 } }, aggregates: { official: 0.7278 } }
 *   ]
 * }
 * const table = Layouts.preset("sts2017-table10", results, { runs: "primary" })
 * ```
 * @since 0.1.0
 */
export const preset = (id: string, results: Results, options: Options = {}): Table.Table => {
  const make = presets[id]
  if (make === undefined) throw new Error(`unknown layout ${id}; layouts are ${Object.keys(presets).join(", ")}`)
  return build(results, make(results), options)
}
