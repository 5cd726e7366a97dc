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
 * Render a Table as JSON text. NaN (a comparison that could not be made) becomes null.
 *
 * @since 0.1.0
 */
export const render = (table: Table.Table, options: Options = {}): string => {
  const extras = options.extras === true
  const doc = {
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
  return JSON.stringify(doc, null, options.indent ?? 2) + "\n"
}
