/**
 * The format-neutral table model every renderer (Markdown, LaTeX, HTML, JSON) reads: a title,
 * caption and label, columns (optionally grouped under a shared header), sections of rows (e.g.
 * participants / baselines), cells that are a number, a text or missing ("-"), marks on cells
 * (best in column, not significantly different from the best) and on rows (late or corrected,
 * post-deadline), and footnotes that explain the marks. Renderers are pure functions of a Table.
 *
 * @since 0.1.0
 */
import { Style, Uncertainty } from "@stseval/scoring"

/**
 * How a column's cells are aligned: numbers right, text left.
 *
 * @since 0.1.0
 */
export type Align = "left" | "right" | "center"

/**
 * How a number is printed (the scoring package's `Style.NumberStyle`: the one number style of
 * every output).
 *
 * @since 0.1.0
 */
export type NumberStyle = Style.NumberStyle

/**
 * A column of the table: its key, header and alignment, the number style of its figures, and the
 * group header it sits under.
 *
 * @since 0.1.0
 */
export interface Column {
  /** stable key, used by options and by `Row.cells` */
  readonly key: string
  readonly header: string
  readonly align: Align
  /** for number cells; text cells ignore it */
  readonly number?: NumberStyle | undefined
  /** header of a column group spanning consecutive columns with the same group (e.g. "Primary", "dev") */
  readonly group?: string | undefined
  /** the run's name column: row marks (`*`, dagger) are printed after its text */
  readonly rowLabel?: boolean | undefined
  /** longer description (HTML title attribute, JSON) */
  readonly description?: string | undefined
  /** what the column shows of the ranked result, for programs reading the JSON (`Shows`) */
  readonly shows?: Shows | undefined
  /**
   * a column of sentences (the leaderboard's Note): HTML keeps it at a readable width (at least
   * 28 characters, wrapping between words) however many columns the table has. @since 0.3.0
   */
  readonly prose?: boolean | undefined
}

/**
 * What a column shows of the ranked result: a rank (in the named ranking, as `stseval rank` names
 * it), a dataset's figure by a metric (with `ranking` when it is that ranking's official figure:
 * SemRel's languages, the STS Benchmark's test set; its cells then carry their rank when the table
 * shows ranks), or an aggregate (a ranking's official figure, or a labelled one). A
 * program reading `report --format json` matches columns to `rank --json` by it, never by header.
 *
 * @since 0.3.0
 */
export type Shows =
  | { readonly kind: "rank"; readonly ranking: string }
  | { readonly kind: "figure"; readonly dataset: string; readonly metric: string; readonly ranking?: string | undefined }
  | { readonly kind: "aggregate"; readonly name: string }

/**
 * Marks on a cell: `best` = best value in its column (printed with a bullet), `tied` = not
 * significantly different from the best (printed bold), `overlapsBest` (`--ci`, a column with its
 * own ranking: SemRel's languages) = the run's rank interval in the column's ranking overlaps the
 * best run's (printed `≈` after the cell).
 *
 * @since 0.1.0
 */
export type CellMark = "best" | "tied" | "overlapsBest"

/**
 * One cell of a row: a number (with its marks, and its interval and rank when asked), a text, or
 * missing (printed "-", with the reason).
 *
 * @since 0.1.0
 */
export type Cell =
  | {
      readonly _tag: "number"
      readonly value: number
      readonly marks: ReadonlyArray<CellMark>
      /**
       * the figure's confidence interval (`--ci`; HTML draws it as an error bar); `fewPairs` when the
       * figure rests on fewer than 100 pairs (printed `‡` after the figure in every format)
       */
      readonly ci?: { readonly low: number; readonly high: number; readonly fewPairs?: number | undefined } | undefined
      /** the run's rank in this column's own ranking (SemRel: per language), printed `0.812 (2)` */
      readonly rank?: number | undefined
      /** with `--ci`: the interval of that rank, printed after it: `0.812 (2; 1-3)` */
      readonly rankInterval?: { readonly low: number; readonly high: number } | undefined
    }
  | { readonly _tag: "text"; readonly text: string; readonly marks: ReadonlyArray<CellMark> }
  /** a figure the run does not have: printed by its `kind` (`missingSymbol`: "-", "x", "n/a") */
  | { readonly _tag: "missing"; readonly reason?: string | undefined; readonly kind?: MissingKind | undefined; readonly marks: ReadonlyArray<CellMark> }

/**
 * Why a cell has no figure, so that the cell says which in every format (not only in a tooltip):
 * `notSubmitted` (the run has no file for the dataset: "-"), `failed` (the run's file for it, or the
 * whole run, has errors and was not scored: "x"), `undefined` (scored, but the figure is undefined:
 * a constant run, an official figure that needs a dataset the run lacks: "n/a"), `notRanked` (a
 * Rank cell of a run listed without a rank: "-"). Without a kind a missing cell prints "-".
 *
 * @since 0.3.0
 */
export type MissingKind = "notSubmitted" | "failed" | "undefined" | "notRanked"

/**
 * How a missing cell is printed, by its kind.
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * Table.missingSymbol.undefined // "n/a"
 * ```
 * @since 0.3.0
 */
export const missingSymbol: Readonly<Record<MissingKind, string>> = { notSubmitted: "-", failed: "x", undefined: "n/a", notRanked: "-" }

/**
 * Marks on a row: `late` (late or corrected submission, `*`), `postDeadline` (dagger),
 * `overlapsBest` (`--ci`: the run's rank interval overlaps the best run's, `≈`).
 *
 * @since 0.1.0
 */
export type RowMark = "late" | "postDeadline" | "overlapsBest" | "zeroed"

/**
 * One run's row: its cells by column key, and the marks (late, corrected, post-deadline) printed
 * after its name.
 *
 * @since 0.1.0
 */
export interface Row {
  /** the run id */
  readonly id: string
  readonly cells: Readonly<Record<string, Cell>>
  readonly marks: ReadonlyArray<RowMark>
  /** the run's late / corrected / post-deadline flags (the JSON lists them; `marks` is what is printed) */
  readonly flags?: { readonly late: boolean; readonly corrected: boolean; readonly postDeadline: boolean } | undefined
}

/**
 * A group of rows under an optional header row, e.g. the participants' runs or the baselines.
 *
 * @since 0.1.0
 */
export interface Section {
  /** e.g. "Baselines"; undefined = no section header row */
  readonly title?: string | undefined
  readonly rows: ReadonlyArray<Row>
}

/**
 * A scatter plot of one run's scores against the gold on one dataset (HTML only).
 *
 * @since 0.1.0
 */
export interface Scatter {
  readonly dataset: string
  readonly runId: string
  readonly title: string
  /** gold scores (x) and run scores (y), same length, downsampled by `Plot.sample` when `step` > 1 */
  readonly gold: ReadonlyArray<number>
  readonly run: ReadonlyArray<number>
  /** pairs before downsampling */
  readonly pairs: number
  /** 1 in `step` pairs is kept (`Plot.sample`); 1 when every pair is. @since 0.3.0 */
  readonly step: number
  /** the metric of `value` (the dataset's ranked metric, by registry name). @since 0.3.0 */
  readonly metric: string
  /** the run's figure on the dataset by `metric`. @since 0.3.0 */
  readonly value?: number | undefined
  /** the figure as printed, named by the metric's symbol (`rho = 0.812`), for captions. @since 0.3.0 */
  readonly figure?: { readonly symbol: string; readonly text: string } | undefined
}

/**
 * p-values between runs on one dataset (HTML heat map).
 *
 * @since 0.1.0
 */
export interface PValueMatrix {
  readonly dataset: string
  readonly test: string
  readonly alpha: number
  /** run labels, best first */
  readonly runs: ReadonlyArray<string>
  /** p[i][j]; NaN where the comparison could not be made; 1 on the diagonal */
  readonly p: ReadonlyArray<ReadonlyArray<number>>
  /** when the matrix holds only the best runs: how many runs there were (`Marks.MATRIX_MAX_RUNS`) */
  readonly total?: number | undefined
}

/**
 * The format-neutral table every renderer reads: title, caption, LaTeX label, columns, sections of
 * rows and the footnotes that explain the marks.
 *
 * @since 0.1.0
 */
export interface Table {
  /** layout id, e.g. `sts2017-table10` */
  readonly id: string
  readonly title: string
  readonly caption: string
  /** LaTeX label, e.g. `tab:sts2017-primary` */
  readonly label: string
  /** LaTeX float: `table*` spans both columns of a two-column paper */
  readonly wide: boolean
  readonly columns: ReadonlyArray<Column>
  readonly sections: ReadonlyArray<Section>
  /** explanations of the marks and the test used, printed under the table */
  readonly footnotes: ReadonlyArray<string>
  readonly scatter?: ReadonlyArray<Scatter> | undefined
  /** what the scatter plots show when not every run is plotted: "the 3 best ranked runs by rho on each dataset". @since 0.3.0 */
  readonly scatterNote?: string | undefined
  readonly pValues?: ReadonlyArray<PValueMatrix> | undefined
  /**
   * the paper of the task the figures come from (the edition's `citation`, `Registry.citationOf`):
   * printed under the table (`Source: ...`; LaTeX `\cite{key}`, its entry in the `.bib` written
   * beside). @since 0.3.0
   */
  readonly citation?: { readonly key: string; readonly text: string; readonly bibtex: string } | undefined
}

/**
 * The line under a table that names its task's paper, in plain text (Markdown and HTML escape it).
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * Table.sourceLine({ key: "cer-etal-2017-semeval", text: "Cer et al. (2017), SemEval-2017 Task 1: ...", bibtex: "@inproceedings{...}" })
 * // "Source: Cer et al. (2017), SemEval-2017 Task 1: ..."
 * ```
 * @since 0.3.0
 */
export const sourceLine = (citation: NonNullable<Table["citation"]>): string => `Source: ${citation.text.replace(/\.?$/, ".")}`

/**
 * The BibTeX entries of the tables' papers, each once: the `.bib` file written beside LaTeX output.
 * Empty when no table names a paper.
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * declare const tables: ReadonlyArray<Table.Table>
 * const bib: string = Table.bibliography(tables) // "@inproceedings{cer-etal-2017-semeval, ...}\n"
 * ```
 * @since 0.3.0
 */
export const bibliography = (tables: ReadonlyArray<Table>): string => {
  const entries = new Map(tables.flatMap((t) => (t.citation !== undefined ? [[t.citation.key, t.citation.bibtex] as const] : [])))
  return entries.size === 0 ? "" : `${[...entries.values()].join("\n\n")}\n`
}

/**
 * The symbols of the row marks, as printed in the papers.
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * Table.rowMarkSymbol.late // "*"
 * ```
 * @since 0.1.0
 */
export const rowMarkSymbol: Readonly<Record<RowMark, string>> = { late: "*", postDeadline: "\u2020", overlapsBest: "\u2248", zeroed: "\u2070" }

/**
 * What each row mark means (HTML tooltips).
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * const tooltip: string = Table.rowMarkTitle.postDeadline
 * ```
 * @since 0.2.0
 */
export const rowMarkTitle: Readonly<Record<RowMark, string>> = {
  late: "late or corrected submission",
  postDeadline: "post-deadline submission",
  overlapsBest: "its rank interval overlaps the best run's",
  zeroed: "a dataset it lacks or that failed is counted as 0 in its official figure"
}

/**
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * // the best figure of its column, with its 95% interval
 * Table.number(0.8518, ["best"], { low: 0.82, high: 0.88 })
 * ```
 * @since 0.1.0
 */
export const number = (
  value: number,
  marks: ReadonlyArray<CellMark> = [],
  ci?: { readonly low: number; readonly high: number; readonly fewPairs?: number | undefined },
  rank?: number,
  rankInterval?: { readonly low: number; readonly high: number }
): Cell =>
  Number.isFinite(value)
    ? {
        _tag: "number",
        value,
        marks,
        ...(ci !== undefined ? { ci } : {}),
        ...(rank !== undefined ? { rank } : {}),
        ...(rank !== undefined && rankInterval !== undefined ? { rankInterval } : {})
      }
    : { _tag: "missing", reason: "not a finite number", marks }

/**
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * Table.text("ECNU/run1") // { _tag: "text", text: "ECNU/run1", marks: [] }
 * ```
 * @since 0.1.0
 */
export const text = (value: string, marks: ReadonlyArray<CellMark> = []): Cell => ({ _tag: "text", text: value, marks })

/**
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * Table.missing("dataset not submitted", "notSubmitted") // printed "-", the reason in HTML's tooltip and in JSON
 * Table.missing("the score on line 4 is not a number", "failed") // printed "x"
 * ```
 * @since 0.1.0
 */
export const missing = (reason?: string, kind?: MissingKind): Cell => ({ _tag: "missing", reason, ...(kind !== undefined ? { kind } : {}), marks: [] })

/**
 * The mark after a figure whose interval rests on fewer than 100 pairs (`Uncertainty.FEW_PAIRS_MARK`,
 * as the command line's text prints it), and the footnote saying what it means. `fewPairsOf` is the
 * number of pairs when a cell carries the mark.
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * const cell = Table.number(0.61, [], { low: 0.42, high: 0.75, fewPairs: 60 })
 * Table.fewPairsOf(cell) // 60: printed "0.610‡"
 * ```
 * @since 0.3.0
 */
export const fewPairsMark: string = Uncertainty.FEW_PAIRS_MARK

/**
 * The number of pairs a cell's figure rests on when its interval is marked `‡` (fewer than 100).
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * Table.fewPairsOf(Table.number(0.61, [], { low: 0.42, high: 0.75, fewPairs: 60 })) // 60
 * Table.fewPairsOf(Table.number(0.61, [], { low: 0.55, high: 0.66 })) // undefined
 * ```
 * @since 0.3.0
 */
export const fewPairsOf = (cell: Cell | undefined): number | undefined => (cell?._tag === "number" ? cell.ci?.fewPairs : undefined)

/**
 * A number as the table prints it (no marks): `Style.format`. Negative zero prints as zero.
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * Table.formatNumber(0.82639, { decimals: 2, scale: 100 }) // "82.64"
 * ```
 * @since 0.1.0
 */
export const formatNumber = (value: number, style: NumberStyle | undefined): string => Style.format(value, style)

/**
 * What a cell prints as plain text, without marks: the number (and its rank: `0.812 (2)`, with its
 * rank interval under `--ci`: `0.812 (2; 1-3)`), the text, or a missing cell's symbol (`missingSymbol`).
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * const column: Table.Column = { key: "r", header: "r", align: "right", number: { decimals: 3 } }
 * Table.cellText(Table.number(0.82639), column) // "0.826"
 * Table.cellText(Table.missing(), column) // "-"
 * ```
 * @since 0.1.0
 */
export const cellText = (cell: Cell | undefined, column: Column): string =>
  cell === undefined || cell._tag === "missing"
    ? cell?.kind !== undefined ? missingSymbol[cell.kind] : "-"
    : cell._tag === "text"
      ? cell.text
      : `${formatNumber(cell.value, column.number)}${
        cell.rank !== undefined ? ` (${cell.rank}${cell.rankInterval !== undefined ? `; ${Uncertainty.formatRankInterval(cell.rankInterval)}` : ""})` : ""
      }`

/**
 * All rows of a table, in order.
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * const table: Table.Table = {
 *   id: "demo",
 *   title: "Demo",
 *   caption: "Pearson r of the primary runs.",
 *   label: "tab:demo",
 *   wide: false,
 *   columns: [
 *     { key: "run", header: "Run", align: "left", rowLabel: true },
 *     { key: "r", header: "r", align: "right", number: { decimals: 3 } }
 *   ],
 *   sections: [{ rows: [{ id: "ECNU/run1", cells: { run: Table.text("ECNU/run1"), r: Table.number(0.8263, ["best"]) }, marks: [] }] }],
 *   footnotes: ["• best figure in the column."]
 * }
 * Table.rows(table).map((r) => r.id) // ["ECNU/run1"]: every section's rows in order
 * ```
 * @since 0.1.0
 */
export const rows = (table: Table): ReadonlyArray<Row> => table.sections.flatMap((s) => s.rows)

/**
 * Consecutive runs of columns sharing a group header (`group` undefined = a span with no header).
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * const columns: ReadonlyArray<Table.Column> = [
 *   { key: "run", header: "Run", align: "left" },
 *   { key: "ar", header: "ar-ar", align: "right", group: "Track" },
 *   { key: "en", header: "en-en", align: "right", group: "Track" }
 * ]
 * Table.groupSpans(columns) // [{ group: undefined, start: 0, span: 1 }, { group: "Track", start: 1, span: 2 }]
 * ```
 * @since 0.1.0
 */
export const groupSpans = (columns: ReadonlyArray<Column>): ReadonlyArray<{ readonly group: string | undefined; readonly start: number; readonly span: number }> => {
  const out: Array<{ group: string | undefined; start: number; span: number }> = []
  columns.forEach((c, i) => {
    const last = out[out.length - 1]
    if (last !== undefined && last.group === c.group) last.span++
    else out.push({ group: c.group, start: i, span: 1 })
  })
  return out
}

/**
 * True when any column has a group header.
 *
 * @example
 * ```ts
 * import { Table } from "@stseval/tables"
 *
 * const table: Table.Table = {
 *   id: "demo",
 *   title: "Demo",
 *   caption: "Pearson r of the primary runs.",
 *   label: "tab:demo",
 *   wide: false,
 *   columns: [
 *     { key: "run", header: "Run", align: "left", rowLabel: true },
 *     { key: "r", header: "r", align: "right", number: { decimals: 3 } }
 *   ],
 *   sections: [{ rows: [{ id: "ECNU/run1", cells: { run: Table.text("ECNU/run1"), r: Table.number(0.8263, ["best"]) }, marks: [] }] }],
 *   footnotes: ["• best figure in the column."]
 * }
 * Table.hasGroups(table) // false: no column has a group
 * ```
 * @since 0.1.0
 */
export const hasGroups = (table: Table): boolean => table.columns.some((c) => c.group !== undefined)
