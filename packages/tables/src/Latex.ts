/**
 * LaTeX rendering of a Table with booktabs rules (`\toprule \midrule \bottomrule`), one `table`
 * (or `table*` for a wide layout) with caption and label, column groups as `\multicolumn` plus
 * `\cmidrule`, sections as an italic spanning row, bold via `\textbf`, the best value's bullet via
 * `$\bullet$` and the post-deadline dagger via `$^\dagger$`. Every text (team names, headers,
 * caption, footnotes) goes through `escape`. `standalone: true` wraps the table in a document that
 * compiles alone with pdflatex.
 *
 * @since 0.1.0
 */
import * as Table from "./Table.js"

const SPECIALS: Readonly<Record<string, string>> = {
  "\\": "\\textbackslash{}",
  "{": "\\{",
  "}": "\\}",
  "_": "\\_",
  "&": "\\&",
  "%": "\\%",
  "#": "\\#",
  "$": "\\$",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  // In the default OT1 font encoding these print as other glyphs (inverted !, ?, an em dash).
  "<": "\\textless{}",
  ">": "\\textgreater{}",
  "|": "\\textbar{}",
  "\u2020": "\\textdagger{}",
  "\u2021": "\\textdaggerdbl{}",
  "\u2022": "\\textbullet{}",
  "\u2013": "--",
  "\u2014": "---",
  "\u2018": "`",
  "\u2019": "'",
  "\u201c": "``",
  "\u201d": "''",
  "\u00a0": "~",
  // A backquote is an opening quote in LaTeX.
  "`": "\\textasciigrave{}",
  // Symbols the layouts use in headers and captions.
  "\u00d7": "$\\times$",
  "\u00b1": "$\\pm$",
  "\u03c1": "$\\rho$",
  "\u03b1": "$\\alpha$",
  "\u2264": "$\\le$",
  "\u2265": "$\\ge$",
  "\u2026": "\\dots{}",
  "\u2248": "$\\approx$"
}

/**
 * Can pdflatex (utf8 inputenc, T1 fonts) typeset this code point as is? Latin-1 letters and
 * Latin Extended-A are covered by T1; other scripts (Arabic, Hebrew, CJK...) are not.
 */
const pdflatexSafe = (cp: number): boolean =>
  (cp >= 0x20 && cp < 0x7f) || (cp >= 0xc0 && cp <= 0xff && cp !== 0xd7 && cp !== 0xf7) || (cp >= 0x100 && cp <= 0x17f && cp !== 0x149 && cp !== 0x17f)

/**
 * Which LaTeX engine the escaped text is for: pdflatex cannot typeset every script, xelatex and
 * lualatex can.
 *
 * @since 0.1.0
 */
export interface EscapeOptions {
  /**
   * `pdflatex` (default): characters pdflatex cannot typeset (Arabic, Hebrew, CJK, emoji...) are
   * written as `\stsevalU{0627}`, a macro the output defines with `\providecommand` (prints
   * "U+0627"; redefine it to do better). `unicode`: keep them, for xelatex / lualatex.
   */
  readonly engine?: "pdflatex" | "unicode"
}

/**
 * Escape text for LaTeX: `\ { } _ & % # $ ~ ^` and `< > |`, control characters dropped, line
 * breaks turned into spaces.
 *
 * @example
 * ```ts
 * import { Latex } from "@stseval/tables"
 *
 * Latex.escape("R&D_50%") // "R\\&D\\_50\\%"
 * ```
 * @since 0.1.0
 */
export const escape = (s: string, options: EscapeOptions = {}): string => {
  const engine = options.engine ?? "pdflatex"
  let out = ""
  let previous = ""
  for (const ch of s.replace(/[\r\n\t\u2028\u2029]+/g, " ")) {
    const cp = ch.codePointAt(0) ?? 0
    const special = SPECIALS[ch]
    // "--" and "---" would print as dashes, and ",," "''" as quotes: break the ligature.
    if ((ch === "-" && previous === "-") || (ch === "'" && previous === "'") || (ch === "," && previous === ",")) out += "{}"
    previous = ch
    if (special !== undefined) out += special
    else if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0)) continue
    else if (engine === "unicode" || pdflatexSafe(cp)) out += ch
    else if (cp >= 0x300 && cp <= 0x36f) continue
    else out += `\\stsevalU{${cp.toString(16).toUpperCase().padStart(4, "0")}}`
  }
  return out
}

/**
 * The macro `escape` uses for characters pdflatex cannot typeset.
 *
 * @example
 * ```ts
 * import { Latex } from "@stseval/tables"
 *
 * // put in a preamble once when \\input-ing several tables that name Arabic or CJK teams
 * const preamble = `${Latex.unicodeMacro}\n`
 * ```
 * @since 0.1.0
 */
export const unicodeMacro = "\\providecommand{\\stsevalU}[1]{\\mbox{\\scriptsize U+#1}}"

/**
 * A line of a tabular must not start with `*` or `[`: after the previous line's `\\` they would
 * be read as `\\*` or an optional argument `\\[...]`.
 */
const guard = (s: string): string => (/^[*[]/.test(s) ? `{}${s}` : s)

/** Shorten text longer than `max` characters with an ellipsis (team names in a paper table). */
const shorten = (s: string, max: number): string => {
  const chars = Array.from(s)
  return chars.length > max ? chars.slice(0, Math.max(1, max - 1)).join("") + "\u2026" : s
}

/**
 * Options of the LaTeX output: a standalone document or the float alone, font size, placement,
 * caption position and the engine text is escaped for.
 *
 * @since 0.1.0
 */
export interface Options extends EscapeOptions {
  /** text cells longer than this are shortened with an ellipsis (a table cannot break them); default 60 */
  readonly maxTextLength?: number
  /** wrap in `\documentclass{article} ... \end{document}` so the file compiles alone; default false */
  readonly standalone?: boolean
  /** font size command inside the float, e.g. `\small`; default `\small` */
  readonly size?: string
  /**
   * with `standalone`: the `.bib` file (its name without `.bib`) the document's `\cite`s are
   * resolved from, by `\bibliography`; default none (a `\cite` then prints `[?]`). @since 0.3.0
   */
  readonly bibliography?: string
  /** float placement; default `t` */
  readonly placement?: string
  /** caption above the table (ACL style is below); default false */
  readonly captionAbove?: boolean
}

const alignChar = (a: Table.Align): string => (a === "right" ? "r" : a === "center" ? "c" : "l")

const cellLatex = (row: Table.Row, column: Table.Column, options: Options): string => {
  const cell = row.cells[column.key]
  let out = cell === undefined || cell._tag !== "text" ? Table.cellText(cell, column) : escape(shorten(cell.text, options.maxTextLength ?? 60), options)
  if (cell?._tag === "number") out = out.replace(/^-/, () => "$-$").replace(/%$/, () => "\\%")
  if (column.rowLabel === true) {
    for (const m of row.marks) out += m === "postDeadline" ? "$^\\dagger$" : m === "overlapsBest" ? "$^{\\approx}$" : m === "zeroed" ? "$^{0}$" : "*"
  }
  const marks = cell?.marks ?? []
  if (Table.fewPairsOf(cell) !== undefined) out += "$^\\ddagger$"
  if (marks.includes("overlapsBest")) out += "$^{\\approx}$"
  if (marks.includes("tied") && cell?._tag !== "missing") out = `\\textbf{${out}}`
  if (marks.includes("best")) out += "\\,$\\bullet$"
  return guard(out)
}

/**
 * Render a Table as a LaTeX float (booktabs).
 *
 * @example
 * ```ts
 * import { Latex, Table } from "@stseval/tables"
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
 * const tex = Latex.render(table) // \\begin{table}[t] ... \\toprule ... \\end{table}
 * ```
 * @since 0.1.0
 */
export const render = (table: Table.Table, options: Options = {}): string => {
  const env = table.wide ? "table*" : "table"
  const cols = table.columns
  const n = cols.length
  const lines: Array<string> = []
  const caption = [`\\caption{${escape(table.caption.length > 0 ? table.caption : table.title, options)}}`, `\\label{${table.label.replace(/[^A-Za-z0-9:._-]/g, "-")}}`]
  lines.push(`\\begin{${env}}[${options.placement ?? "t"}]`, "\\centering", options.size ?? "\\small")
  if (options.captionAbove === true) lines.push(...caption)
  lines.push(`\\begin{tabular}{${cols.map((c) => alignChar(c.align)).join("")}}`, "\\toprule")
  if (Table.hasGroups(table)) {
    const spans = Table.groupSpans(cols)
    lines.push(
      spans.map((s) => (s.group === undefined ? Array(s.span).fill("").join(" & ") : `\\multicolumn{${s.span}}{c}{${escape(s.group, options)}}`)).join(" & ") + " \\\\"
    )
    const rules = spans.filter((s) => s.group !== undefined).map((s) => `\\cmidrule(lr){${s.start + 1}-${s.start + s.span}}`)
    if (rules.length > 0) lines.push(rules.join(" "))
  }
  lines.push(cols.map((c) => escape(c.header, options)).join(" & ") + " \\\\", "\\midrule")
  let first = true
  for (const section of table.sections) {
    if (section.rows.length === 0) continue
    if (!first) lines.push("\\midrule")
    first = false
    if (section.title !== undefined) lines.push(`\\multicolumn{${n}}{l}{\\textit{${escape(section.title, options)}}} \\\\`)
    for (const row of section.rows) lines.push(cols.map((c) => cellLatex(row, c, options)).join(" & ") + " \\\\")
  }
  lines.push("\\bottomrule", "\\end{tabular}")
  if (table.footnotes.length > 0) {
    lines.push("\\par\\smallskip", `{\\footnotesize ${table.footnotes.map((f) => guard(escape(f, options))).join(" \\\\\n")}\\par}`)
  }
  // the task's paper, by its key: the entry is in the .bib written beside (Table.bibliography)
  if (table.citation !== undefined) lines.push(`{\\footnotesize Source: \\cite{${table.citation.key}}.\\par}`)
  if (options.captionAbove !== true) lines.push(...caption)
  lines.push(`\\end{${env}}`)
  const float = lines.join("\n")
  const needsMacro = float.includes("\\stsevalU{")
  const body = (needsMacro ? unicodeMacro + "\n" : "") + float + "\n"
  return options.standalone === true ? documentOf(body, options) : body
}

/**
 * Several tables in one document that compiles alone (e.g. SICK Tables 7 and 6).
 *
 * @example
 * ```ts
 * import { Latex, Table } from "@stseval/tables"
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
 * const document = Latex.renderDocument([table, table]) // \\documentclass ... both tables ... \\end{document}
 * ```
 * @since 0.1.0
 */
export const renderDocument = (tables: ReadonlyArray<Table.Table>, options: Options = {}): string =>
  documentOf(tables.map((t) => render(t, { ...options, standalone: false })).join("\n"), options)

const documentOf = (body: string, options: Options): string => {
  return [
    "\\documentclass{article}",
    (options.engine ?? "pdflatex") === "pdflatex" ? "\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n\\usepackage{times}" : "\\usepackage{fontspec}",
    "\\usepackage{booktabs}",
    "\\usepackage[margin=1.5cm,landscape]{geometry}",
    "\\pagestyle{empty}",
    "\\begin{document}",
    body + (options.bibliography !== undefined && body.includes("\\cite{") ? `\\bibliographystyle{plain}\n\\bibliography{${options.bibliography}}\n` : "") + "\\end{document}",
    ""
  ].join("\n")
}
