/**
 * Aligned plain-text tables for the terminal (the report package renders paper tables; this is
 * only the CLI's console view).
 */
import { width } from "./Style.js"
import type { Palette } from "./Style.js"

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
