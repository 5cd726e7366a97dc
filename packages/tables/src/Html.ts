/**
 * A self-contained HTML page for a Table: inline CSS and JavaScript only (a Content-Security-Policy
 * forbids every external request), a table sortable by clicking a header, per-dataset scatter plots
 * of run scores against the gold as inline SVG (as in the STS 2017 paper's figure), and the
 * significance matrix (p-values between runs) as an SVG heat map. Every text is HTML-escaped
 * (a `<script>` in a team name is shown, never run) and names are `<bdi dir="auto">` so
 * right-to-left team names display correctly.
 *
 * @since 0.1.0
 */
import { escape as escapeText } from "./internal/escape.js"
import * as Plot from "./Plot.js"
import * as Table from "./Table.js"

/**
 * Escape text for HTML element content and attribute values; control characters are dropped. The
 * one HTML escaper of every page stseval writes (the report, the live leaderboard, Codabench's
 * detailed results).
 *
 * @example
 * ```ts
 * import { Html } from "@stseval/tables"
 *
 * Html.escape("<script>") // "&lt;script&gt;": shown, never run
 * Html.escape("bell\u0007") // "bell": control characters are dropped
 * ```
 * @since 0.1.0
 */
export const escape = escapeText

/**
 * Options of the HTML page: its language and the sizes of the scatter plots and heat-map labels.
 *
 * @since 0.1.0
 */
export interface Options {
  /** page language; default `en` */
  readonly lang?: string
  /** size in px of one scatter plot; default 260 */
  readonly plotSize?: number
  /** longest label in the heat map before it is shortened (full text in the tooltip); default 32 */
  readonly labelLength?: number
}

/** The range an error-bar column is drawn on: every value and interval bound of the column. */
type Extent = readonly [number, number]

const columnExtent = (table: Table.Table, column: Table.Column): Extent | undefined => {
  let lo = Infinity
  let hi = -Infinity
  let any = false
  for (const row of Table.rows(table)) {
    const cell = row.cells[column.key]
    if (cell?._tag !== "number" || cell.ci === undefined) continue
    any = true
    lo = Math.min(lo, cell.value, cell.ci.low)
    hi = Math.max(hi, cell.value, cell.ci.high)
  }
  return any ? (lo === hi ? [lo - 0.5, hi + 0.5] : [lo, hi]) : undefined
}

/** The interval of a figure as a glyph on the column's shared scale (`Plot.interval`). */
const errorBar = (value: number, ci: { readonly low: number; readonly high: number }, extent: Extent, column: Table.Column): string =>
  ` ${Plot.interval(value, ci, extent, `${column.header} ${Table.formatNumber(value, column.number)}, interval [${Table.formatNumber(ci.low, column.number)}, ${Table.formatNumber(ci.high, column.number)}]`)}`

const cellHtml = (row: Table.Row, column: Table.Column, extent?: Extent): string => {
  const cell = row.cells[column.key]
  const cls: Array<string> = [column.align === "right" ? "r" : column.align === "center" ? "c" : "l", ...(column.prose === true ? ["prose"] : [])]
  let inner: string
  let sortValue: string
  let attrs = ""
  // the interval glyph goes last, on a line of its own under the figure and its marks (CSS)
  let glyph = ""
  if (cell === undefined || cell._tag === "missing") {
    inner = escape(Table.cellText(cell, column))
    sortValue = ""
    cls.push("missing")
    if (cell?.reason !== undefined) attrs += ` title="${escape(cell.reason)}"`
  } else if (cell._tag === "number") {
    inner = escape(Table.cellText(cell, column))
    sortValue = String(cell.value)
    if (cell.ci !== undefined && extent !== undefined) {
      glyph = errorBar(cell.value, cell.ci, extent, column)
      attrs += ` title="${escape(`interval [${Table.formatNumber(cell.ci.low, column.number)}, ${Table.formatNumber(cell.ci.high, column.number)}]`)}"`
    }
  } else {
    // <bdi dir="auto">: the name takes its own direction (RTL names display right to left) and is
    // isolated, so the row marks after it stay on the correct side.
    inner = `<bdi dir="auto">${escape(cell.text)}</bdi>`
    sortValue = cell.text
    // a run's or team's name never breaks inside a word ("Alpha/ru n1"): the table grows instead
    if (column.rowLabel === true || column.key === "team") cls.push("name")
  }
  if (column.rowLabel === true) {
    for (const m of row.marks) inner += `<sup class="mark" title="${escape(Table.rowMarkTitle[m])}">${escape(Table.rowMarkSymbol[m])}</sup>`
  }
  const marks = cell?.marks ?? []
  const few = Table.fewPairsOf(cell)
  if (few !== undefined) inner += `<sup class="mark few" title="${escape(`interval on ${few} pairs: it holds the true value less often than its level says`)}">${escape(Table.fewPairsMark)}</sup>`
  if (marks.includes("overlapsBest")) {
    inner += `<sup class="mark" title="${escape(Table.rowMarkTitle.overlapsBest)}">${escape(Table.rowMarkSymbol.overlapsBest)}</sup>`
  }
  if (marks.includes("tied") && cell?._tag !== "missing") {
    inner = `<strong>${inner}</strong>`
    cls.push("tied")
  }
  if (marks.includes("best")) {
    inner += ' <span class="best" title="best in column">\u2022</span>'
    cls.push("bestcell")
  }
  return `<td class="${cls.join(" ")}" data-value="${escape(sortValue)}"${attrs}>${inner}${glyph}</td>`
}

const tableHtml = (table: Table.Table, id: string): string => {
  const cols = table.columns
  const extents = cols.map((c) => columnExtent(table, c))
  const out: Array<string> = [`<table class="results" id="${escape(id)}">`, "<thead>"]
  if (Table.hasGroups(table)) {
    out.push(
      "<tr>" +
        Table.groupSpans(cols)
          .map((s) => `<th colspan="${s.span}" class="group">${s.group === undefined ? "" : escape(s.group)}</th>`)
          .join("") +
        "</tr>"
    )
  }
  out.push(
    '<tr class="headers">' +
      cols
        .map(
          (c, i) =>
            `<th scope="col" class="${c.align === "right" ? "r" : "l"}${c.prose === true ? " prose" : ""}" data-col="${i}" data-kind="${c.number !== undefined ? "number" : "text"}" aria-sort="none"${
              c.description !== undefined ? ` title="${escape(c.description)}"` : ""
            }><button type="button">${escape(c.header)}</button></th>`
        )
        .join("") +
      "</tr>",
    "</thead>"
  )
  for (const section of table.sections) {
    if (section.rows.length === 0) continue
    out.push(`<tbody${section.title !== undefined ? ` data-section="${escape(section.title)}"` : ""}>`)
    if (section.title !== undefined) out.push(`<tr class="section"><th colspan="${cols.length}" dir="auto">${escape(section.title)}</th></tr>`)
    for (const row of section.rows) out.push(`<tr data-run="${escape(row.id)}">${cols.map((c, i) => cellHtml(row, c, extents[i])).join("")}</tr>`)
    out.push("</tbody>")
  }
  out.push("</table>")
  return out.join("\n")
}

const CSS = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5rem;color:#222;max-width:1400px}
h1{font-size:1.3rem;margin:0 0 .3rem} h2{font-size:1.1rem;margin-top:2rem} h3{font-size:.95rem;margin:.8rem 0 .3rem}
.caption{color:#444;margin:.2rem 0 1rem}
table.results{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.9rem}
table.results th,table.results td{padding:.2rem .6rem;border-bottom:1px solid #e3e3e3;text-align:start}
table.results thead th{border-bottom:2px solid #333;white-space:nowrap}
table.results th.group{text-align:center;border-bottom:1px solid #999}
table.results td.r,table.results th.r{text-align:right}
table.results td.l{max-width:40ch;overflow-wrap:break-word}
table.results td.name{white-space:nowrap;max-width:none}
table.results td.r{white-space:nowrap}
table.results .prose{min-width:28ch;max-width:60ch}
.scroll{overflow-x:auto;max-width:100%}
table.results td svg.ci{display:block;margin:.15rem 0 0 auto}
table.results tr.section th{font-style:italic;font-weight:normal;background:#f4f4f4;text-align:start}
table.results th button{font:inherit;font-weight:bold;background:none;border:0;cursor:pointer;padding:0}
table.results th[aria-sort=ascending] button::after{content:" \\25B2"} table.results th[aria-sort=descending] button::after{content:" \\25BC"}
td.missing{color:#888} .best{color:#b00} sup.mark{color:#b00}
.notes{font-size:.85rem;color:#444} .plots{display:flex;flex-wrap:wrap;gap:.8rem}
figure{margin:0} figcaption{font-size:.8rem;max-width:240px;overflow-wrap:break-word}
.legend{font-size:.85rem;color:#444}
${Plot.CSS}
`

// Sorting: click a header; numbers compare numerically, text by locale; missing values always last;
// each section (tbody) is sorted on its own and keeps its title row first.
const SCRIPT = `
document.querySelectorAll("table.results").forEach(function(table){
  var heads=table.querySelectorAll("thead tr.headers th");
  heads.forEach(function(th){
    th.querySelector("button").addEventListener("click",function(){
      var col=Number(th.getAttribute("data-col")), numeric=th.getAttribute("data-kind")==="number";
      var dir=th.getAttribute("aria-sort")==="descending"?"ascending":"descending";
      if(!numeric&&th.getAttribute("aria-sort")==="none") dir="ascending";
      heads.forEach(function(h){h.setAttribute("aria-sort","none")}); th.setAttribute("aria-sort",dir);
      var sign=dir==="ascending"?1:-1;
      table.querySelectorAll("tbody").forEach(function(tb){
        var rows=Array.prototype.slice.call(tb.querySelectorAll("tr:not(.section)"));
        rows.sort(function(a,b){
          var x=a.children[col].getAttribute("data-value"), y=b.children[col].getAttribute("data-value");
          if(x===""&&y==="") return 0; if(x==="") return 1; if(y==="") return -1;
          return sign*(numeric?Number(x)-Number(y):x.localeCompare(y));
        });
        rows.forEach(function(r){tb.appendChild(r)});
      });
    });
  });
});
`

/**
 * What only the page shows, explained under the table (the footnotes, shared with Markdown and
 * LaTeX, explain the marks every format prints): the interval glyph, drawn with a sample, and where
 * a missing cell's reason is.
 */
const pageLegend = (table: Table.Table): ReadonlyArray<string> => {
  const cells = Table.rows(table).flatMap((r) => Object.values(r.cells))
  const out: Array<string> = []
  if (cells.some((c) => c._tag === "number" && c.ci !== undefined)) {
    out.push(
      `${Plot.interval(0.5, { low: 0.25, high: 0.8 }, [0, 1], "a figure and its interval").replace('class="ci"', 'class="ci sample"')} <span class="key">interval:</span> the hollow diamond is the figure, the whisker its interval, on a scale shared by the column (the red \u2022 marks the best figure).`
    )
  }
  if (cells.some((c) => c._tag === "missing" && c.reason !== undefined)) out.push("Point at a cell without a figure for its reason.")
  return out
}

const tableSection = (table: Table.Table, index: number, options: Options): Array<string> => {
  const suffix = index === 0 ? "" : `-${index + 1}`
  const parts: Array<string> = [`<h${index === 0 ? 1 : 2} dir="auto">${escape(table.title)}</h${index === 0 ? 1 : 2}>`]
  if (table.caption.length > 0) parts.push(`<p class="caption" dir="auto">${escape(table.caption)}</p>`)
  // a table wider than the page scrolls on its own: the page (its notes, plots, header) keeps its width
  parts.push(`<div class="scroll">${tableHtml(table, `results${suffix}`)}</div>`)
  if (table.footnotes.length > 0) parts.push(`<div class="notes">${table.footnotes.map((f) => `<p dir="auto">${escape(f)}</p>`).join("")}</div>`)
  if (table.citation !== undefined) parts.push(`<p class="notes cite">${escape(Table.sourceLine(table.citation))}</p>`)
  const legend = pageLegend(table)
  if (legend.length > 0) parts.push(`<div class="legend">${legend.map((l) => `<p>${l}</p>`).join("")}</div>`)
  const scatter = table.scatter ?? []
  if (scatter.length > 0) {
    parts.push(`<h2 id="scatter${suffix}">Run scores against the gold</h2>`)
    if (table.scatterNote !== undefined) parts.push(`<p class="notes">${escape(table.scatterNote)}</p>`)
    const datasets = [...new Set(scatter.map((s) => s.dataset))]
    for (const d of datasets) {
      parts.push(`<h3>${escape(d)}</h3>`, '<div class="plots">')
      for (const s of scatter.filter((x) => x.dataset === d)) {
        const size = options.plotSize ?? 260
        const plot = Plot.scatter({ title: s.title, gold: s.gold, run: s.run, pairs: s.pairs, step: s.step, figure: s.figure, size: { width: size, height: size } })
        parts.push(`<figure>${plot}<figcaption dir="auto">${escape(s.title)}${s.figure !== undefined ? ` (${s.figure.symbol} = ${s.figure.text})` : ""}</figcaption></figure>`)
      }
      parts.push("</div>")
    }
  }
  const matrices = table.pValues ?? []
  if (matrices.length > 0) {
    parts.push(`<h2 id="significance${suffix}">Significance between runs</h2>`)
    for (const mat of matrices) {
      parts.push(
        `<h3>${escape(mat.dataset)}</h3>`,
        `<p class="notes">${escape(
          `${mat.test}, two-sided p-values; red: p <= ${mat.alpha} (significantly different), blue: p > ${mat.alpha}; darker = smaller p. Hover a cell for its value.${
            mat.total !== undefined ? ` The ${mat.runs.length} best runs of ${mat.total} by their figure on this dataset: the map grows with the square of the runs.` : ""
          }`
        )}</p>`,
        Plot.heatmap(mat, options.labelLength ?? 32)
      )
    }
  }
  return parts
}

/**
 * Render several Tables (e.g. SICK Tables 7 and 6) as one self-contained HTML page.
 *
 * @example
 * ```ts
 * import { Html, Table } from "@stseval/tables"
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
 * const page = Html.renderPage([table]) // one self-contained page: no external request
 * ```
 * @since 0.1.0
 */
export const renderPage = (tables: ReadonlyArray<Table.Table>, options: Options = {}): string => {
  const parts: Array<string> = [
    "<!DOCTYPE html>",
    `<html lang="${escape(options.lang ?? "en")}">`,
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escape(tables.map((t) => t.title).join(" / "))}</title>`,
    `<style>${CSS}</style>`,
    "</head>",
    "<body>"
  ]
  tables.forEach((t, i) => parts.push(...tableSection(t, i, options)))
  parts.push(`<script>${SCRIPT}</script>`, "</body>", "</html>", "")
  return parts.join("\n")
}

/**
 * Render a Table as one self-contained HTML page.
 *
 * @example
 * ```ts
 * import { Html, Table } from "@stseval/tables"
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
 * const section: string = Html.render(table) // the table's HTML, for a page of one's own
 * ```
 * @since 0.1.0
 */
export const render = (table: Table.Table, options: Options = {}): string => renderPage([table], options)
