/**
 * Layouts: a `LayoutSpec` (columns, the column that orders the rows, captions) and `build`, which
 * turns `Results` and a spec into a `Table`; every spec can be customised without code through
 * `Options` (columns and their order, decimals, sorting column, caption...). The papers' tables
 * and the generic table of any ranking are specs too, in `Presets`.
 *
 * A layout never ranks or compares runs: the runs it lists, their order, ranks and which are not
 * ranked (after the deadline, failed, beyond the run limit) come from the results' rankings (what
 * `Engine.Results.ranked` decided), the bold marks from the results' marks (`Marks.compute`), and
 * the intervals from `Uncertainty`.
 *
 * @since 0.1.0
 */
import { Rank, Uncertainty } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import * as Footnotes from "./Footnotes.js"
import { pValuesOf, scatterOf } from "./internal/extras.js"
import { directionOf, figureOfSource, finite, listed, missingKind, missingReason, ordered, rankedBy, rankingOfFigure, rawValue, sectionOf, tableRanking } from "./internal/order.js"
import type { Ranking, Results, RunResult } from "./Results.js"
import { labelOf, participants } from "./Results.js"
import * as Table from "./Table.js"
import { OptionError } from "./internal/optionError.js"


/**
 * Where a column's values come from.
 *
 * @since 0.1.0
 */
export type Source =
  | { readonly _tag: "label" }
  | { readonly _tag: "team" }
  | { readonly _tag: "run" }
  /** the run's rank in the table's ranking, or in the named one (a board shows every ranking) */
  | { readonly _tag: "rank"; readonly ranking?: string | undefined }
  /** "yes" on the team's primary run */
  | { readonly _tag: "primary" }
  /** a text the results carry for the run by name (`RunResult.texts`: the leaderboard's Status and Note) */
  | { readonly _tag: "text"; readonly name: string }
  /** a dataset's figure by a metric (registry name: `pearson`, `spearman`, `kendall`, `mse`, `accuracy`...) */
  | { readonly _tag: "metric"; readonly dataset: string; readonly metric: string }
  /** an aggregate: a ranking's official figure by the ranking's name (`official`), or a labelled one (`wmean`, `mean`...) */
  | { readonly _tag: "aggregate"; readonly name: string }
  /** the interval of the run's rank by the sort column's figure, or in the named ranking (`--ci`), e.g. "1-3" */
  | { readonly _tag: "rankInterval"; readonly ranking?: string | undefined }

/**
 * A column of a layout: what its cells show (a run's label, a dataset's metric, an aggregate, a
 * rank...), its header and number style, and the marks it carries.
 *
 * @since 0.1.0
 */
export interface ColumnSpec {
  readonly key: string
  readonly header: string
  readonly source: Source
  readonly group?: string | undefined
  readonly number?: Table.NumberStyle | undefined
  readonly align?: Table.Align | undefined
  /** smaller is better (an MSE; default: the metric's direction) */
  readonly lowerIsBetter?: boolean | undefined
  /** mark the best value among the ranked runs with a bullet */
  readonly markBest?: boolean | undefined
  /** bold the runs not significantly different from the best (the results' marks of this column's figure) */
  readonly markTied?: boolean | undefined
  /** print each run's rank in this column's own ranking after its value (`0.812 (2)`; SemRel ranks per language) */
  readonly withRank?: boolean | undefined
  readonly description?: string | undefined
  /** how footnotes name the column (default its header): the board's "official (Pearson)" */
  readonly name?: string | undefined
  /** a column of sentences (`Table.Column.prose`) */
  readonly prose?: boolean | undefined
}

/**
 * A table layout (the papers' tables are presets of it): title, caption, label, the columns, the
 * column that orders the runs and which runs it lists.
 *
 * @since 0.1.0
 */
export interface LayoutSpec {
  readonly id: string
  readonly title: string
  /** `{runs}` is replaced by "runs" or "primary runs" (as the results' rankings hold them) */
  readonly caption: string
  readonly label: string
  readonly wide: boolean
  readonly columns: ReadonlyArray<ColumnSpec>
  /** key of the column that orders the runs */
  readonly sortBy: string
  /** which runs the published table ranked: what `Report.primaryOnly` ranks by default for it */
  readonly runs: "primary" | "all"
  /** the ranking the Rank column shows when the sort column is not a ranked figure (default: the sort column's) */
  readonly ranking?: string | undefined
  /** section order (others follow in order of appearance) */
  readonly sectionOrder?: ReadonlyArray<string> | undefined
  /** footnotes printed before the generated ones */
  readonly notes?: ReadonlyArray<string> | undefined
  /** marks `notes` already explain: no generated footnote for them (the board explains * and \u2020 in one line, always) */
  readonly explained?: ReadonlyArray<"best" | "late" | "postDeadline" | "zeroed"> | undefined
  /** with intervals: their signature after their footnote (the board's; a report prints it in its own note) */
  readonly intervalsSignature?: boolean | undefined
}

/**
 * Options to customise a layout without code (also what a config file holds).
 *
 * @since 0.1.0
 */
export interface Options {
  /** column keys to show, in this order (default: the layout's) */
  readonly columns?: ReadonlyArray<string> | undefined
  /** decimals of every number column, or by column key */
  readonly decimals?: number | Readonly<Record<string, number>> | undefined
  /**
   * column key to order the rows by: a ranked figure's column orders them as its ranking does;
   * any other column by its values, ranked runs first (the Rank column keeps the table's ranking)
   */
  readonly sortBy?: string | undefined
  /** rank primary runs only, or every run: read by `Report.primaryOnly` when the runs are ranked */
  readonly runs?: "primary" | "all" | undefined
  readonly title?: string | undefined
  readonly caption?: string | undefined
  readonly label?: string | undefined
  readonly wide?: boolean | undefined
  /** renamed column headers by key */
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly sectionOrder?: ReadonlyArray<string> | undefined
  /** bold marks (from the results' marks); default true */
  readonly significance?: boolean | undefined
  /** the marks' test (read by `Report`, which computes the marks; default: each figure's, `Compare.testFor`) */
  readonly test?: Marks.Options["test"] | undefined
  /** the marks' alpha (default 0.05) */
  readonly alpha?: number | undefined
  /** the marks' correction over the comparisons with the best (default holm) */
  readonly correction?: "holm" | "none" | undefined
  /** the marks' resampling tests */
  readonly resamples?: number | undefined
  readonly seed?: number | undefined
  /** bullet on the best value per column; default true */
  readonly bestMarks?: boolean | undefined
  /** p-value matrices between the best runs per dataset (HTML heat map), from the results' marks; default true */
  readonly matrix?: boolean | undefined
  /** scatter plots: how many of the best ranked runs per dataset (0 = none); default 3 */
  readonly scatterRuns?: number | undefined
  /** downsample scatter plots to at most this many points (`Plot.sample`); default 1500 */
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

/**
 * Build a Table from results with a layout spec and options: the runs, order and ranks of the
 * results' rankings, the bold of their marks, the intervals they carry.
 *
 * @example
 * ```ts
 * import { Layouts, Presets, Results } from "@stseval/tables"
 *
 * const results: Results.Results = {
 *   edition: "sts2017",
 *   datasets: [{ name: "track5.en-en", header: "en-en", pairs: 250, metric: "pearson" }],
 *   runs: [
 *     { id: "ECNU/run1", team: "ECNU", run: "run1", primary: true, datasets: { "track5.en-en": { pearson: 0.8518 } }, aggregates: { official: 0.8518 } },
 *     { id: "Late/run1", team: "Late", run: "run1", primary: true, postDeadline: true, datasets: { "track5.en-en": { pearson: 0.9 } }, aggregates: { official: 0.9 } }
 *   ],
 *   // as Engine.Results.ranked holds them: the post-deadline run listed, never ranked
 *   rankings: [
 *     {
 *       ranking: "official",
 *       metric: "pearson",
 *       direction: "higher",
 *       figures: ["track5.en-en:pearson", "aggregate:official"],
 *       entries: [{ id: "ECNU/run1", rank: 1 }, { id: "Late/run1", rank: undefined, reason: "submitted after the deadline (listed, never ranked)" }]
 *     }
 *   ]
 * }
 *
 * const table = Layouts.build(results, Presets.sts2017Table10(results))
 * // rows in the ranking's order: ECNU/run1, then Late/run1 (listed, never ranked)
 * const order = table.sections.flatMap((s) => s.rows.map((r) => r.id))
 * ```
 * @since 0.1.0
 */
export const build = (results: Results, spec: LayoutSpec, options: Options = {}): Table.Table => {
  // Columns: chosen and ordered by options, decimals and headers overridden.
  const sortKey = options.sortBy ?? spec.sortBy
  const sortSource = spec.columns.find((c) => c.key === sortKey)?.source
  const rankFigure = sortSource !== undefined ? figureOfSource(sortSource) : undefined
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
    throw new OptionError({ option: "columns", message: `unknown column ${unknown.join(", ")} in layout ${spec.id}; columns are ${available.map((c) => c.key).join(", ")}` })
  }
  const defaultKeys = spec.columns.map((c) => c.key)
  if (withRange) {
    const at = defaultKeys.indexOf("rank")
    defaultKeys.splice(at >= 0 ? at + 1 : defaultKeys.length, 0, rankRangeColumn.key)
  }
  const specs = (options.columns ?? defaultKeys).map((k) => byKey.get(k) as ColumnSpec)
  const sortSpec = byKey.get(sortKey)
  if (sortSpec === undefined) throw new OptionError({ option: "sortBy", message: `unknown sort column ${sortKey} in layout ${spec.id}` })
  const decimalsOf = (c: ColumnSpec): number | undefined =>
    typeof options.decimals === "number" ? options.decimals : options.decimals?.[c.key]
  // the ranking of the table (its Rank column), and of a column that ranks by its own figure
  const ranking = tableRanking(results, spec, sortSpec)
  const columnRanking = (c: ColumnSpec) => rankingOfFigure(results, figureOfSource(c.source))
  // a Rank or Rank range column of a named ranking (the board's, one per ranking), else the table's
  const rankingOfRank = (source: Source) =>
    (source._tag === "rank" || source._tag === "rankInterval") && source.ranking !== undefined ? results.rankings.find((r) => r.ranking === source.ranking) : ranking
  const showsOf = (c: ColumnSpec): Table.Shows | undefined => {
    const source = c.source
    switch (source._tag) {
      case "rank": {
        const shown = rankingOfRank(source)
        return shown !== undefined ? { kind: "rank", ranking: shown.ranking } : undefined
      }
      case "metric": {
        const own = columnRanking(c)?.ranking
        return { kind: "figure", dataset: source.dataset, metric: source.metric, ...(own !== undefined ? { ranking: own } : {}) }
      }
      case "aggregate":
        return { kind: "aggregate", name: source.name }
      default:
        return undefined
    }
  }
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
      description: c.description,
      shows: showsOf(c),
      ...(c.prose === true ? { prose: true } : {})
    }
  })
  if (!columns.some((c) => c.rowLabel === true)) {
    const first = columns.findIndex((c) => c.align === "left")
    if (first >= 0) columns[first] = { ...columns[first], rowLabel: true }
  }

  // Runs, order and ranks: as the results' rankings hold them (nothing is ranked here).
  const runs = listed(results, ranking)
  const ranked = rankedBy(results, ranking)
  const entriesOf = new Map<Ranking | undefined, ReadonlyMap<string, Ranking["entries"][number]>>()
  const entryIn = (r: Ranking | undefined, id: string) => {
    let entries = entriesOf.get(r)
    if (entries === undefined) entriesOf.set(r, (entries = new Map((r?.entries ?? []).map((e) => [e.id, e]))))
    return entries.get(id)
  }
  const order = options.sectionOrder ?? spec.sectionOrder ?? [participants]
  const names = [...new Set(runs.map(sectionOf))].sort((a, b) => {
    const ia = order.indexOf(a)
    const ib = order.indexOf(b)
    return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib)
  })
  // no runs: one empty section, so that every renderer still draws the table's body
  if (names.length === 0) names.push(participants)

  // the ranking of each column's figure, when one ranks by it (SemRel's languages; SICK's r)
  const columnRanks = new Map<string, Map<string, number | undefined>>()
  for (const c of specs) {
    const r = c.withRank === true ? columnRanking(c) : undefined
    if (r !== undefined) columnRanks.set(c.key, new Map(r.entries.map((e) => [e.id, e.rank])))
  }

  // Best value per marked column: among the runs its ranking ranks (the table's, else any), by its direction.
  const bestOf = new Map<string, number>()
  if (options.bestMarks !== false) {
    for (const c of specs) {
      if (c.markBest !== true) continue
      const among = rankedBy(results, columnRanking(c) ?? ranking)
      const best = Rank.best(
        runs.flatMap((r) => (among.has(r.id) ? [rawValue(r, c.source)] : [])),
        directionOf(results, c)
      )
      if (best !== undefined) bestOf.set(c.key, best)
    }
  }

  // Marks: as the results carry them, per column figure.
  const wantTied = options.significance !== false
  const marksOf = (c: ColumnSpec): Marks.FigureMarks | undefined => {
    const key = figureOfSource(c.source)
    return c.markTied === true && wantTied && key !== undefined ? results.marks?.[key] : undefined
  }

  const usedMarks = {
    best: false,
    // rule -> the keys of the columns it marked
    tied: new Map<string, Array<string>>(),
    late: false,
    postDeadline: false,
    zeroed: false,
    missing: new Set<Table.MissingKind | "other">(),
    overlapsBest: false,
    range: false,
    columnRanges: false,
    fewPairs: false
  }
  const rankIntervalOf = (run: RunResult) => (rankFigure !== undefined && ranked.has(run.id) ? run.rankIntervals?.[rankFigure] : undefined)
  // in a named ranking: the interval of the rank of its figure, when the run has a rank there
  const namedRankInterval = (run: RunResult, r: Ranking | undefined) =>
    entryIn(r, run.id)?.rank !== undefined ? r?.figures.map((f) => run.rankIntervals?.[f]).find((ri) => ri !== undefined) : undefined
  // the rank interval of a run in a column's own ranking (SemRel: per language), when the intervals ranked it there
  const columnRankInterval = (run: RunResult, c: ColumnSpec) => {
    const figure = c.withRank === true ? figureOfSource(c.source) : undefined
    return figure !== undefined && columnRanks.get(c.key)?.get(run.id) !== undefined ? run.rankIntervals?.[figure] : undefined
  }
  const ciOf = (run: RunResult, source: Source) =>
    source._tag === "metric" ? run.datasets[source.dataset]?.ci?.[source.metric] : source._tag === "aggregate" ? run.aggregateIntervals?.[source.name] : undefined
  const cellOf = (run: RunResult, c: ColumnSpec): Table.Cell => {
    switch (c.source._tag) {
      case "label":
        return Table.text(labelOf(run))
      case "team":
        return Table.text(run.team)
      case "run":
        return Table.text(run.run)
      case "primary":
        return Table.text(run.primary ? "yes" : "")
      case "text":
        return Table.text(run.texts?.[c.source.name] ?? "")
      case "rank": {
        const e = entryIn(rankingOfRank(c.source), run.id)
        if (e?.rank === undefined) {
          usedMarks.missing.add("notRanked")
          return Table.missing(e?.reason ?? "not ranked", "notRanked")
        }
        return Table.number(e.rank)
      }
      case "rankInterval": {
        if (c.source.ranking !== undefined) {
          const ri = namedRankInterval(run, rankingOfRank(c.source))
          if (ri === undefined) {
            usedMarks.missing.add("notRanked")
            return Table.missing(undefined, "notRanked")
          }
          usedMarks.range = true
          return Table.text(Uncertainty.formatRankInterval(ri))
        }
        const ri = rankIntervalOf(run)
        if (ri === undefined) {
          const kind = ranked.has(run.id) ? "undefined" : "notRanked"
          usedMarks.missing.add(kind)
          return Table.missing(ranked.has(run.id) ? "no rank interval (no figure)" : "not ranked", kind)
        }
        usedMarks.range = true
        return Table.text(Uncertainty.formatRankInterval(ri))
      }
      default: {
        const v = rawValue(run, c.source)
        if (!finite(v)) {
          const kind = missingKind(run, c.source)
          usedMarks.missing.add(kind ?? "other")
          return Table.missing(missingReason(run, c.source), kind)
        }
        const marks: Array<Table.CellMark> = []
        if (bestOf.get(c.key) === v && rankedBy(results, columnRanking(c) ?? ranking).has(run.id)) {
          marks.push("best")
          usedMarks.best = true
        }
        const m = marksOf(c)
        if (m !== undefined && m.tied.includes(run.id)) {
          marks.push("tied")
          const rule = Marks.describe(m)
          const headers = usedMarks.tied.get(rule) ?? []
          if (!headers.includes(c.key)) headers.push(c.key)
          usedMarks.tied.set(rule, headers)
        }
        const ri = columnRankInterval(run, c)
        if (ri !== undefined) usedMarks.columnRanges = true
        // the best run's own interval overlaps itself: the mark is for the others
        if (ri?.overlapsBest === true && columnRanks.get(c.key)?.get(run.id) !== 1) {
          marks.push("overlapsBest")
          usedMarks.overlapsBest = true
        }
        const ci = ciOf(run, c.source)
        if (ci?.fewPairs !== undefined) usedMarks.fewPairs = true
        return Table.number(v, marks, ci, columnRanks.get(c.key)?.get(run.id), ri !== undefined ? { low: ri.low, high: ri.high } : undefined)
      }
    }
  }
  const sections: Array<Table.Section> = names.map((name) => ({
    title: names.length === 1 && name === participants ? undefined : name,
    rows: ordered(
      results,
      runs.filter((r) => sectionOf(r) === name),
      ranking,
      sortSpec
    ).map((run) => {
      const marks: Array<Table.RowMark> = []
      if (run.late === true || run.corrected === true) {
        marks.push("late")
        usedMarks.late = true
      }
      if (run.postDeadline === true) {
        marks.push("postDeadline")
        usedMarks.postDeadline = true
      }
      if (run.zeroed === true) {
        marks.push("zeroed")
        usedMarks.zeroed = true
      }
      if (rankIntervalOf(run)?.overlapsBest === true && entryIn(ranking, run.id)?.rank !== 1) {
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
  const explained = new Set(spec.explained ?? [])
  if (usedMarks.best && !explained.has("best")) footnotes.push(Footnotes.best)
  // the columns by their names (a config's `headers` renames them), in column order
  const nameOf = new Map(specs.map((c) => [c.key, options.headers?.[c.key] ?? c.name ?? c.header]))
  footnotes.push(
    ...Footnotes.tied(
      new Map([...usedMarks.tied].map(([rule, keys]) => [rule, keys.map((k) => nameOf.get(k) ?? k)])),
      specs.flatMap((c) => (marksOf(c) !== undefined ? [nameOf.get(c.key) ?? c.header] : []))
    )
  )
  // a marked column whose marks could not be decided says why, once
  const unmarked = new Set<string>()
  for (const c of specs) {
    const m = marksOf(c)
    if (m?.test === undefined && m?.reason !== undefined && m.best !== undefined) unmarked.add(`No bold in ${options.headers?.[c.key] ?? c.header}: ${m.reason}.`)
    const failed = m?.failed ?? []
    if (failed.length > 0 && m?.test !== undefined) {
      unmarked.add(
        `Not compared with the best in ${options.headers?.[c.key] ?? c.header} (never bold): ${failed
          .slice(0, 5)
          .map((f) => `${f.id} (${f.reason})`)
          .join("; ")}${failed.length > 5 ? `; and ${failed.length - 5} more` : ""}.`
      )
    }
  }
  footnotes.push(...unmarked)
  if (usedMarks.late && !explained.has("late")) footnotes.push("* late or corrected submission.")
  if (usedMarks.postDeadline && !explained.has("postDeadline")) footnotes.push("\u2020 post-deadline submission: listed, never ranked.")
  if (usedMarks.zeroed && !explained.has("zeroed")) footnotes.push(Footnotes.zeroed)
  footnotes.push(...Footnotes.missing(usedMarks.missing))
  if (usedMarks.columnRanges) {
    footnotes.push(
      `(r; a-b) after a figure: the run's rank r in that column's own ranking and the ${Uncertainty.formatLevel(results.intervals?.level ?? 0)} interval a-b of that rank over the bootstrap resamples.`
    )
  }
  if (results.intervals !== undefined) {
    footnotes.push(...Footnotes.intervals(results.intervals, { ...usedMarks, range: usedMarks.range || usedMarks.columnRanges }))
    if (spec.intervalsSignature === true) footnotes.push(`Intervals' signature: ${results.intervals.signature}`)
  }
  if (usedMarks.fewPairs) footnotes.push(Footnotes.fewPairs)

  // Extras for HTML / JSON: scatter plots of the best ranked runs per dataset, and p-value matrices.
  const plots = scatterOf(results, specs, runs, ranking, options)
  const pValues = options.matrix === false || !wantTied ? [] : pValuesOf(results, specs)

  return {
    id: spec.id,
    title: options.title ?? spec.title,
    // "{runs}" in a caption names the runs the rankings hold
    caption: (options.caption ?? spec.caption).replaceAll("{runs}", results.primaryOnly === true ? "primary runs" : "runs"),
    label: options.label ?? spec.label,
    wide: options.wide ?? spec.wide,
    columns,
    sections,
    footnotes,
    ...plots,
    ...(pValues.length > 0 ? { pValues } : {})
  }
}
