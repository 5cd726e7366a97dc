/**
 * GitHub-flavoured Markdown rendering of a Table: a caption line, one pipe table with aligned
 * columns (sections become a row with the section title in bold), and the footnotes below.
 * Column groups are folded into the header text ("dev r", "test r") because Markdown tables have
 * no spanning cells.
 *
 * @since 0.1.0
 */
import * as Table from "./Table.js"

/**
 * Escape text for a Markdown table cell: every ASCII punctuation character that Markdown or GFM
 * gives a meaning to (emphasis, links, code, HTML, pipes, math) gets a backslash (CommonMark lets
 * any ASCII punctuation be backslash-escaped); line breaks become spaces because a table row is
 * one line.
 *
 * @example
 * ```ts
 * import { Markdown } from "@stseval/tables"
 *
 * Markdown.escape("a|b") // "a\\|b": a pipe would end the cell
 * ```
 * @since 0.1.0
 */
export const escape = (s: string): string =>
  s
    .replace(/[\r\n\t\u2028\u2029]+/g, " ")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/[\\`*_{}[\]<>#!|~$&]/g, (c) => `\\${c}`)

/** Display width: code points, with East Asian wide characters counted twice. */
const width = (s: string): number => {
  let w = 0
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0
    if (cp >= 0x300 && cp <= 0x36f) continue // combining marks
    w += (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xff00 && cp <= 0xff60) ? 2 : 1
  }
  return w
}

/** The widest a column is padded to (see `render`). */
const MAX_PAD = 400

const pad = (s: string, w: number, align: Table.Align): string => {
  const gap = Math.max(0, w - width(s))
  if (align === "right") return " ".repeat(gap) + s
  if (align === "center") return " ".repeat(Math.floor(gap / 2)) + s + " ".repeat(gap - Math.floor(gap / 2))
  return s + " ".repeat(gap)
}

const cellMarkdown = (row: Table.Row, column: Table.Column): string => {
  const cell = row.cells[column.key]
  let out = cell === undefined || cell._tag !== "text" ? Table.cellText(cell, column) : escape(cell.text)
  if (column.rowLabel === true) for (const m of row.marks) out += escape(Table.rowMarkSymbol[m])
  const marks = cell?.marks ?? []
  if (Table.fewPairsOf(cell) !== undefined) out += Table.fewPairsMark
  if (marks.includes("overlapsBest")) out += escape(Table.rowMarkSymbol.overlapsBest)
  if (marks.includes("tied") && cell?._tag !== "missing") out = `**${out}**`
  if (marks.includes("best")) out += " \u2022"
  return out
}

/**
 * Options of the Markdown output: whether the caption is printed above the table.
 *
 * @since 0.1.0
 */
export interface Options {
  /** print the caption line above the table; default true */
  readonly caption?: boolean
}

/**
 * Render a Table as GitHub Markdown.
 *
 * @example
 * ```ts
 * import { Markdown, Table } from "@stseval/tables"
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
 * const md = Markdown.render(table) // "**Demo.** Pearson r ...\n\n| Run | r |\n..."
 * ```
 * @since 0.1.0
 */
export const render = (table: Table.Table, options: Options = {}): string => {
  const cols = table.columns
  const header = cols.map((c) => escape(c.group !== undefined ? `${c.group} ${c.header}` : c.header))
  const body: Array<Array<string>> = []
  for (const section of table.sections) {
    if (section.title !== undefined && section.rows.length > 0) body.push(cols.map((_, i) => (i === 0 ? `**${escape(section.title ?? "")}**` : "")))
    for (const row of section.rows) body.push(cols.map((c) => cellMarkdown(row, c)))
  }
  // Columns are padded to their widest cell up to MAX_PAD; a longer cell (a long description or
  // team name) overflows its column instead of padding every other row to its width: one long
  // string must not make the table (rows x widest) too large to build.
  const widths = cols.map((_, i) => {
    let w = Math.max(3, Math.min(MAX_PAD, width(header[i])))
    for (const r of body) {
      const cw = width(r[i])
      if (cw <= MAX_PAD && cw > w) w = cw
    }
    return w
  })
  const line = (cells: ReadonlyArray<string>) => `| ${cells.map((s, i) => pad(s, widths[i], cols[i].align)).join(" | ")} |`
  const rule = `| ${cols
    .map((c, i) => {
      const w = widths[i]
      return c.align === "right" ? "-".repeat(w - 1) + ":" : c.align === "center" ? ":" + "-".repeat(w - 2) + ":" : ":" + "-".repeat(w - 1)
    })
    .join(" | ")} |`
  const out: Array<string> = []
  if (options.caption !== false) {
    const head = table.title.length > 0 ? `**${escape(table.title)}${/[.:!?]$/.test(table.title) ? "" : "."}**` : ""
    const line = [head, escape(table.caption)].filter((s) => s.length > 0).join(" ")
    if (line.length > 0) out.push(line, "")
  }
  out.push(line(header), rule, ...body.map(line))
  if (table.footnotes.length > 0) out.push("", ...table.footnotes.map(escape))
  if (table.citation !== undefined) out.push("", escape(Table.sourceLine(table.citation)))
  return out.join("\n") + "\n"
}
