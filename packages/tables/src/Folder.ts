/**
 * A report as a folder: one file per table and format (`sick2014-table7.md`, `.tex`, `.html`), and
 * an `index.html` that lists the tables with a link to each file, what they were scored with, and
 * a preview of each table. What the report generator (apps/report, `stseval-report`) writes; pure:
 * it returns the files' names and texts, the caller writes them.
 *
 * @since 0.2.0
 */
import * as Html from "./Html.js"
import * as Markdown from "./Markdown.js"
import * as Report from "./Report.js"
import * as Table from "./Table.js"

/** The `.bib` of a report folder, beside its `.tex` files (`\cite` keys of the tables' papers). */
const BIBLIOGRAPHY = "references"

/**
 * The formats a folder can hold, one file per table each.
 *
 * @since 0.2.0
 */
export type FileFormat = "md" | "latex" | "html"

/**
 * Every format, in the order the index lists them.
 *
 * @example
 * import { Folder } from "@stseval/tables"
 *
 * const all: ReadonlyArray<Folder.FileFormat> = Folder.fileFormats // ["md", "latex", "html"]
 * @since 0.2.0
 */
export const fileFormats: ReadonlyArray<FileFormat> = ["md", "latex", "html"]

/**
 * The file name extension of each format.
 *
 * @example
 * import { Folder } from "@stseval/tables"
 *
 * const tex: string = Folder.extension.latex // "tex"
 * @since 0.2.0
 */
export const extension: Readonly<Record<FileFormat, string>> = { md: "md", latex: "tex", html: "html" }

const formatLabel: Readonly<Record<FileFormat, string>> = { md: "Markdown", latex: "LaTeX", html: "HTML" }

/**
 * One file of the folder: its name (no folders) and its text.
 *
 * @since 0.2.0
 */
export interface File {
  readonly name: string
  readonly text: string
}

/**
 * What the folder is made of besides the tables.
 *
 * @since 0.2.0
 */
export interface Options {
  /** the formats to write (default all: `fileFormats`) */
  readonly formats?: ReadonlyArray<FileFormat> | undefined
  /** LaTeX options, as a report config's `latex` (`standalone`: each `.tex` compiles alone) */
  readonly latex?: Report.Options["latex"]
  /** the index page's heading (default: the edition id) */
  readonly title?: string | undefined
  /** the scoring signature the tables were computed with, shown on the index page */
  readonly signature?: string | undefined
}

/**
 * The index page: each table's title and caption, links to its files, and the table itself as a
 * preview (rendered without scatter plots and p-value matrices, which its own HTML page has).
 *
 * @example
 * import { Folder, Table } from "@stseval/tables"
 *
 * declare const tables: ReadonlyArray<Table.Table>
 * const page: string = Folder.indexPage("sick2014", tables, { formats: ["md", "html"] })
 * @since 0.2.0
 */
export const indexPage = (edition: string, tables: ReadonlyArray<Table.Table>, options: Options = {}): string => {
  const formats = options.formats ?? fileFormats
  const title = options.title ?? edition
  const items = tables.map((t) => {
    const links = formats.map((f) => `<a href="${Html.escape(`${t.id}.${extension[f]}`)}">${formatLabel[f]}</a>`).join(" · ")
    // the preview: the table alone (its page has the plots and matrices)
    const preview = Html.renderPage([{ ...t, scatter: undefined, pValues: undefined }])
    const body = /<body>\n([\s\S]*)<script>/.exec(preview)?.[1] ?? ""
    return [
      `<section id="${Html.escape(t.id)}">`,
      `<p class="files"><code>${Html.escape(t.id)}</code>: ${links}</p>`,
      body.trimEnd(),
      "</section>"
    ].join("\n")
  })
  const css = /<style>([\s\S]*?)<\/style>/.exec(Html.renderPage([]))?.[1] ?? ""
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${Html.escape(title)}: results tables</title>`,
    `<style>${css}\n.files { margin: 2em 0 0.25em; } section + section { border-top: 1px solid #ccc; margin-top: 2em; }</style>`,
    "</head>",
    "<body>",
    `<h1>${Html.escape(title)}: results tables</h1>`,
    `<ul class="toc">${tables.map((t) => `<li><a href="#${Html.escape(t.id)}">${Html.escape(t.title)}</a></li>`).join("")}</ul>`,
    ...(options.signature !== undefined ? [`<p class="notes">Scored with <code>${Html.escape(options.signature)}</code>.</p>`] : []),
    ...items,
    "</body>",
    "</html>",
    ""
  ].join("\n")
}

/**
 * The files of a report folder: for each table and format `<table id>.<md|tex|html>`, then
 * `index.html`. LaTeX files are floats for `\input` in a paper, or documents that compile alone
 * with `latex.standalone`; HTML files are self-contained pages.
 *
 * @example
 * import { Folder, Report } from "@stseval/tables"
 * import type { Engine } from "@stseval/scoring"
 *
 * declare const results: Engine.Results
 * const files = Folder.files(results.edition.id, Report.tables(results, { format: "html" }), { signature: results.signature.text })
 * const names: ReadonlyArray<string> = files.map((f) => f.name) // ["sick2014-table7.md", "sick2014-table7.tex", ..., "index.html"]
 * @since 0.2.0
 */
export const files = (edition: string, tables: ReadonlyArray<Table.Table>, options: Options = {}): ReadonlyArray<File> => {
  const formats = options.formats ?? fileFormats
  const out: Array<File> = []
  for (const table of tables) {
    for (const format of formats) {
      const text = format === "md" ? Markdown.render(table) : Report.render(edition, [table], format, { latex: options.latex, signature: options.signature, bibliography: BIBLIOGRAPHY })
      out.push({ name: `${table.id}.${extension[format]}`, text: text.endsWith("\n") ? text : `${text}\n` })
    }
  }
  // the papers the LaTeX tables \cite, beside them
  const bib = Table.bibliography(tables)
  if (formats.includes("latex") && bib !== "") out.push({ name: `${BIBLIOGRAPHY}.bib`, text: bib })
  out.push({ name: "index.html", text: indexPage(edition, tables, options) })
  return out
}
