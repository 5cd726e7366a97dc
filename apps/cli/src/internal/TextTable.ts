/**
 * Aligned plain-text tables for the terminal (the report package renders paper tables; this is
 * only the CLI's console view).
 */
import { width } from "./Colour.js"
import type { Palette } from "./Colour.js"

export type Align = "left" | "right"

export interface Column {
  readonly header: string
  readonly align?: Align
}

const pad = (s: string, n: number, align: Align): string => {
  const fill = " ".repeat(Math.max(0, n - width(s)))
  return align === "right" ? fill + s : s + fill
}

/** Render rows under headers (bold in the palette) with two spaces between columns; numbers are right-aligned by the caller. */
export const render = (columns: ReadonlyArray<Column>, rows: ReadonlyArray<ReadonlyArray<string>>, c: Palette): string => {
  const widths = columns.map((c, i) => Math.max(width(c.header), ...rows.map((r) => width(r[i] ?? ""))))
  const line = (cells: ReadonlyArray<string>, style: (s: string) => string = (s) => s) =>
    cells
      .map((cell, i) => style(pad(cell, widths[i] ?? 0, columns[i]?.align ?? "left")))
      .join("  ")
      .trimEnd()
  return [line(columns.map((col) => col.header), c.bold), ...rows.map((r) => line(r))].join("\n")
}

/**
 * `render`, fitted to `limit` columns (the terminal's width; undefined: no limit) with `indent`
 * before each line: a row too wide for it has its last cell (a reason) moved below the table as a
 * numbered note, `[1]` left in its place, so that rows never wrap and the notes wrap as prose.
 */
export const fit = (
  columns: ReadonlyArray<Column>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  c: Palette,
  limit: number | undefined,
  indent = ""
): ReadonlyArray<string> => {
  const plainTable = (table: ReadonlyArray<ReadonlyArray<string>>) => render(columns, table, c).split("\n")
  const last = columns.length - 1
  if (limit === undefined || last < 0 || plainTable(rows).every((l) => width(indent + l) <= limit)) return plainTable(rows).map((l) => indent + l)
  // the widths of the other columns, as the table lays them out: a row is too wide when its last cell does not fit beside them
  const others = columns.slice(0, last).reduce((sum, col, i) => sum + Math.max(width(col.header), ...rows.map((r) => width(r[i] ?? ""))) + 2, 0)
  const notes: Array<string> = []
  const fitted = rows.map((r) => {
    const cell = r[last] ?? ""
    if (width(indent) + others + width(cell) <= limit || cell === "") return r
    notes.push(cell)
    return [...r.slice(0, last), `[${notes.length}]`]
  })
  return [...plainTable(fitted), ...notes.map((n, i) => `[${i + 1}] ${n}`)].map((l) => indent + l)
}
