/**
 * JSON rendering of a Table: the model itself, plus each cell's printed text, so that other tools
 * can both re-render the table and reuse the figures.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Table from "./Table.js"

/**
 * Options of the JSON output: indentation, whether the large extras (scatter data, p-value
 * matrices) are included, and the results' signature.
 *
 * @since 0.1.0
 */
export interface Options {
  /** indentation; default 2 */
  readonly indent?: number
  /** include scatter data and p-value matrices (large); default false */
  readonly extras?: boolean
  /** the scored results' signature (`Engine.Results.signature.text`), for the report document */
  readonly signature?: string
}

const described = <S extends Schema.Top>(schema: S, description: string) => schema.annotate({ description })
const Count = (description: string) => described(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)), description)

const CellMark = described(
  Schema.Literals(["best", "tied", "overlapsBest"]),
  "best: best figure of the column (bullet); tied: not significantly different from the best (bold); overlapsBest (--ci, a column with its own ranking: SemRel's languages): the run's rank interval in the column's ranking overlaps the best run's (≈)"
)
const cellCommon = {
  marks: Schema.Array(CellMark),
  display: described(Schema.String, "the cell as printed, without marks (\"-\" when missing)")
}
const Cell = Schema.Union([
  Schema.Struct({
    _tag: Schema.Literal("number"),
    value: Schema.Finite,
    ci: Schema.optionalKey(
      described(
        Schema.Struct({
          low: Schema.Finite,
          high: Schema.Finite,
          fewPairs: Schema.optionalKey(described(Schema.Int, "present when the figure rests on fewer than 100 pairs (how many): its interval covers less than its level"))
        }),
        "with --ci: the figure's bootstrap interval (level in the footnotes)"
      )
    ),
    rank: Schema.optionalKey(described(Schema.Int, "the run's rank in this column's own ranking (SemRel: per language), printed after the value")),
    rankInterval: Schema.optionalKey(
      described(Schema.Struct({ low: Schema.Int, high: Schema.Int }), "with --ci: the interval of `rank` over the bootstrap resamples, printed after it: 0.812 (2; 1-3)")
    ),
    ...cellCommon
  }),
  Schema.Struct({ _tag: Schema.Literal("text"), text: Schema.String, ...cellCommon }),
  Schema.Struct({
    _tag: Schema.Literal("missing"),
    reason: Schema.optionalKey(described(Schema.String, "why the figure is missing")),
    kind: Schema.optionalKey(
      described(
        Schema.Literals(["notSubmitted", "failed", "undefined", "notRanked"]),
        "which kind of missing (printed as display): notSubmitted \"-\", failed \"x\" (errors, not scored), undefined \"n/a\" (scored, no figure), notRanked \"-\" (a Rank cell)"
      )
    ),
    ...cellCommon
  })
]).annotate({ identifier: "Cell" })

const Column = Schema.Struct({
  key: described(Schema.String, "stable key: run, rank, a dataset name, wmean, primary, accuracy, pearson, spearman, mse, dev, test..."),
  header: Schema.String,
  align: Schema.Literals(["left", "right", "center"]),
  number: Schema.optionalKey(
    described(
      Schema.Struct({
        decimals: Schema.Int,
        scale: Schema.optionalKey(described(Schema.Finite, "printed value = value * scale (100 for r x 100)")),
        dropLeadingZero: Schema.optionalKey(Schema.Boolean),
        suffix: Schema.optionalKey(Schema.String)
      }),
      "how number cells are printed"
    )
  ),
  group: Schema.optionalKey(described(Schema.String, "header of a group of consecutive columns")),
  rowLabel: Schema.optionalKey(described(Schema.Boolean, "the run-name column (row marks are printed after it)")),
  description: Schema.optionalKey(Schema.String),
  shows: Schema.optionalKey(
    described(
      Schema.Union([
        Schema.Struct({ kind: Schema.Literal("rank"), ranking: described(Schema.String, "the ranking, as `stseval rank --json` names it") }),
        Schema.Struct({
          kind: Schema.Literal("figure"),
          dataset: Schema.String,
          metric: described(Schema.String, "a metric of the registry (pearson, spearman, kendall, mse, accuracy...)"),
          ranking: Schema.optionalKey(described(Schema.String, "the cells also give the rank in this ranking (a dataset ranked on its own)"))
        }),
        Schema.Struct({ kind: Schema.Literal("aggregate"), name: described(Schema.String, "a ranking's official figure by the ranking's name, or a labelled aggregate (wmean, mean...)") })
      ]),
      "what the column shows of the ranked result (match columns to rank --json by it)"
    )
  )
}).annotate({ identifier: "Column" })

const Scatter = Schema.Struct({
  dataset: Schema.String,
  runId: Schema.String,
  title: Schema.String,
  gold: described(Schema.Array(Schema.Finite), "gold scores (x), 1 in `step` pairs"),
  run: described(Schema.Array(Schema.Finite), "the run's scores (y), same length"),
  pairs: Count("pairs before downsampling"),
  step: described(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), "1 in `step` pairs is given: every step-th pair from the first"),
  metric: described(Schema.String, "the metric of `value`: the dataset's ranked metric (registry name)"),
  value: Schema.optionalKey(described(Schema.Finite, "the run's figure on the dataset by `metric`"))
})

const PValues = Schema.Struct({
  dataset: Schema.String,
  test: described(Schema.String, "test name as printed, e.g. Williams' t"),
  alpha: Schema.Finite,
  runs: described(Schema.Array(Schema.String), "run labels, best first"),
  p: described(Schema.Array(Schema.Array(Schema.NullOr(Schema.Finite))), "p[i][j]; null where the comparison could not be made; 1 on the diagonal"),
  total: Schema.optionalKey(described(Schema.Int, "when the matrix holds only the best runs (at most 50, by the dataset's figure): how many runs there were"))
})

/**
 * One results table as JSON (`document`).
 *
 * @example
 * ```ts
 * import { Json, Table } from "@stseval/tables"
 * import { Schema } from "effect"
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
 * const json: Json.TableJson = Json.document(table)
 * Schema.decodeUnknownSync(Json.TableJson)(JSON.parse(JSON.stringify(json))) // validates
 * ```
 * @since 0.2.0
 */
export const TableJson = Schema.Struct({
  id: described(Schema.String, "layout id, e.g. sick2014-table7"),
  title: Schema.String,
  caption: Schema.String,
  label: described(Schema.String, "LaTeX label"),
  wide: described(Schema.Boolean, "LaTeX table* float"),
  columns: Schema.Array(Column),
  sections: Schema.Array(
    Schema.Struct({
      title: described(Schema.NullOr(Schema.String), "section header (e.g. Baselines); null: none"),
      rows: Schema.Array(
        Schema.Struct({
          id: described(Schema.String, "run id"),
          late: described(Schema.Boolean, "late submission (run.json); printed *"),
          corrected: described(Schema.Boolean, "corrected resubmission (run.json); printed *"),
          postDeadline: described(Schema.Boolean, "after the deadline; printed with a dagger"),
          marks: described(
            Schema.Array(Schema.Literals(["late", "postDeadline", "overlapsBest", "zeroed"])),
            "late: late or corrected (*); postDeadline: dagger; overlapsBest (--ci): its rank interval overlaps the best run's; zeroed: its official figure counts a dataset it lacks or that failed as 0 (superscript 0)"
          ),
          cells: described(Schema.Record(Schema.String, Cell), "by column key; every column has a cell")
        })
      )
    })
  ),
  footnotes: Schema.Array(Schema.String),
  scatter: Schema.optionalKey(described(Schema.Array(Scatter), "scatter plots of the best ranked runs per dataset (with extras)")),
  scatterNote: Schema.optionalKey(described(Schema.String, "when not every run is plotted: which runs are (with extras)")),
  pValues: Schema.optionalKey(described(Schema.Array(PValues), "p-value matrices between all runs, per dataset (with extras)"))
}).annotate({ identifier: "Table", description: "one results table" })
/** @since 0.2.0 */
export type TableJson = typeof TableJson.Type

/**
 * Identifies the JSON document of a whole report (its `format`). Version 2 since 0.3.0: a scatter
 * plot names its metric (`metric`, `value`, `step` in place of `pearson`).
 *
 * @example
 * ```ts
 * import { Json } from "@stseval/tables"
 *
 * declare const document: { readonly format: string }
 * const current = document.format === Json.REPORT_FORMAT // "stseval/report@2"
 * ```
 * @since 0.1.0
 */
export const REPORT_FORMAT = "stseval/report@2"

/**
 * The JSON document of a whole report (`stseval report --format json`).
 *
 * @example
 * ```ts
 * import { Json } from "@stseval/tables"
 * import { Schema } from "effect"
 *
 * declare const text: string // a file `stseval report --format json` wrote
 * const report: Json.ReportJson = Schema.decodeUnknownSync(Json.ReportJson)(JSON.parse(text))
 * ```
 * @since 0.2.0
 */
export const ReportJson = Schema.Struct({
  format: Schema.Literal(REPORT_FORMAT),
  edition: described(Schema.String, "task edition id"),
  signature: Schema.optionalKey(described(Schema.String, "what the runs were scored with: edition@hash|gold:hash|agg:rule|engine@version (stseval report always writes it)")),
  tables: described(Schema.Array(TableJson), "the layouts asked for, or the edition's (SICK: tables 7 and 6)")
}).annotate({ identifier: "Report", title: "stseval report --format json (stseval/report@2)" })
/** @since 0.2.0 */
export type ReportJson = typeof ReportJson.Type

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null)

const cellJson = (cell: Table.Cell | undefined, column: Table.Column): TableJson["sections"][number]["rows"][number]["cells"][string] => {
  const c = cell ?? Table.missing()
  const display = Table.cellText(cell, column)
  const marks = [...c.marks]
  switch (c._tag) {
    case "number":
      return {
        _tag: "number",
        value: c.value,
        ...(c.ci !== undefined ? { ci: { low: c.ci.low, high: c.ci.high } } : {}),
        ...(c.rank !== undefined ? { rank: c.rank } : {}),
        ...(c.rankInterval !== undefined ? { rankInterval: { low: c.rankInterval.low, high: c.rankInterval.high } } : {}),
        marks,
        display
      }
    case "text":
      return { _tag: "text", text: c.text, marks, display }
    case "missing":
      return { _tag: "missing", ...(c.reason !== undefined ? { reason: c.reason } : {}), ...(c.kind !== undefined ? { kind: c.kind } : {}), marks, display }
  }
}

/**
 * A Table as a plain JSON-ready object (`TableJson`): the model itself, plus each cell's printed
 * text. NaN (a comparison that could not be made) becomes null.
 *
 * @example
 * ```ts
 * import { Json, Table } from "@stseval/tables"
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
 * const json = Json.document(table)
 * json.columns.map((c) => c.key) // ["run", "r"]
 * ```
 * @since 0.1.0
 */
export const document = (table: Table.Table, options: Pick<Options, "extras"> = {}): TableJson => ({
  id: table.id,
  title: table.title,
  caption: table.caption,
  label: table.label,
  wide: table.wide,
  columns: table.columns.map((c) => ({
    key: c.key,
    header: c.header,
    align: c.align,
    ...(c.number !== undefined ? { number: { ...c.number } } : {}),
    ...(c.group !== undefined ? { group: c.group } : {}),
    ...(c.rowLabel !== undefined ? { rowLabel: c.rowLabel } : {}),
    ...(c.description !== undefined ? { description: c.description } : {}),
    ...(c.shows !== undefined ? { shows: c.shows } : {})
  })),
  sections: table.sections.map((s) => ({
    title: s.title ?? null,
    rows: s.rows.map((r) => ({
      id: r.id,
      late: r.flags?.late ?? false,
      corrected: r.flags?.corrected ?? false,
      postDeadline: r.flags?.postDeadline ?? r.marks.includes("postDeadline"),
      marks: [...r.marks],
      cells: Object.fromEntries(table.columns.map((c) => [c.key, cellJson(r.cells[c.key], c)]))
    }))
  })),
  footnotes: [...table.footnotes],
  ...(options.extras === true
    ? {
        scatter: (table.scatter ?? []).map((x) => ({
          dataset: x.dataset,
          runId: x.runId,
          title: x.title,
          gold: [...x.gold],
          run: [...x.run],
          pairs: x.pairs,
          step: x.step,
          metric: x.metric,
          ...(x.value !== undefined ? { value: x.value } : {})
        })),
        ...(table.scatterNote !== undefined ? { scatterNote: table.scatterNote } : {}),
        pValues: (table.pValues ?? []).map((m) => ({ ...m, runs: [...m.runs], p: m.p.map((row) => row.map(finite)) }))
      }
    : {})
})

/**
 * Render a Table as JSON text.
 *
 * @example
 * ```ts
 * import { Json, Table } from "@stseval/tables"
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
 * const text: string = Json.render(table) // one table as JSON text
 * ```
 * @since 0.1.0
 */
export const render = (table: Table.Table, options: Options = {}): string =>
  JSON.stringify(document(table, options), null, options.indent ?? 2) + "\n"

/**
 * A whole report (every table of an edition) as one JSON document (`ReportJson`): always an object
 * with a `tables` array, however many tables there are, so programs read one shape.
 *
 * @example
 * ```ts
 * import { Json, Table } from "@stseval/tables"
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
 * const report = Json.report("sts2017", [table], { signature: "sts2017@3f1c9a2e|gold:9f3e51b0|agg:mean|stseval-scoring@0.2.0" })
 * ```
 * @since 0.1.0
 */
export const report = (edition: string, tables: ReadonlyArray<Table.Table>, options: Pick<Options, "extras" | "signature"> = {}): ReportJson => ({
  format: REPORT_FORMAT,
  edition,
  ...(options.signature !== undefined ? { signature: options.signature } : {}),
  tables: tables.map((t) => document(t, options))
})

/**
 * A whole report as JSON text.
 *
 * @example
 * ```ts
 * import { Json, Table } from "@stseval/tables"
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
 * const text: string = Json.renderReport("sts2017", [table]) // `stseval/report@1`
 * ```
 * @since 0.1.0
 */
export const renderReport = (edition: string, tables: ReadonlyArray<Table.Table>, options: Options = {}): string =>
  JSON.stringify(report(edition, tables, options), null, options.indent ?? 2) + "\n"
