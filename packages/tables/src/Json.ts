/**
 * JSON rendering of a Table: the model itself, plus each cell's printed text, so that other tools
 * can both re-render the table and reuse the figures.
 *
 * @since 0.1.0
 */
import * as Table from "./Table.js"

/** @since 0.1.0 */
export interface Options {
  /** indentation; default 2 */
  readonly indent?: number
  /** include scatter data and p-value matrices (large); default false */
  readonly extras?: boolean
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null)

/**
 * A Table as a plain JSON-ready object. NaN (a comparison that could not be made) becomes null.
 *
 * @since 0.1.0
 */
export const document = (table: Table.Table, options: Pick<Options, "extras"> = {}) => {
  const extras = options.extras === true
  return {
    id: table.id,
    title: table.title,
    caption: table.caption,
    label: table.label,
    wide: table.wide,
    columns: table.columns,
    sections: table.sections.map((s) => ({
      title: s.title ?? null,
      rows: s.rows.map((r) => ({
        id: r.id,
        marks: r.marks,
        cells: Object.fromEntries(
          table.columns.map((c) => {
            const cell = r.cells[c.key]
            return [c.key, { ...(cell ?? Table.missing()), display: Table.cellText(cell, c) }]
          })
        )
      }))
    })),
    footnotes: table.footnotes,
    ...(extras
      ? {
          scatter: table.scatter ?? [],
          pValues: (table.pValues ?? []).map((m) => ({ ...m, p: m.p.map((row) => row.map(finite)) }))
        }
      : {})
  }
}

/**
 * Render a Table as JSON text.
 *
 * @since 0.1.0
 */
export const render = (table: Table.Table, options: Options = {}): string =>
  JSON.stringify(document(table, options), null, options.indent ?? 2) + "\n"

/** Identifies the JSON document of a whole report. @since 0.1.0 */
export const REPORT_FORMAT = "stseval/report@1"

/**
 * A whole report (every table of an edition) as one JSON document: always an object with a `tables`
 * array, however many tables there are, so programs read one shape.
 *
 * @since 0.1.0
 */
export const renderReport = (edition: string, tables: ReadonlyArray<Table.Table>, options: Options = {}): string =>
  JSON.stringify({ format: REPORT_FORMAT, edition, tables: tables.map((t) => document(t, options)) }, null, options.indent ?? 2) + "\n"
