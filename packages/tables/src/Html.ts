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
import * as Table from "./Table.js"

/**
 * Escape text for HTML element content and attribute values; control characters are dropped.
 *
 * @example
 * ```ts
 * import { Html } from "@stseval/tables"
 *
 * Html.escape("<script>") // "&lt;script&gt;": shown, never run
 * ```
 * @since 0.1.0
 */
export const escape = (s: string): string =>
  s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"))

/**
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
 * const options: Html.Options = { lang: "en", plotSize: 300 }
 * Html.renderPage([table], options)
 * ```
 * @since 0.1.0
 */
export interface Options {
  /** page language; default `en` */
  readonly lang?: string
  /** size in px of one scatter plot; default 220 */
  readonly plotSize?: number
  /** longest label in the heat map before it is shortened (full text in the tooltip); default 32 */
  readonly labelLength?: number
}

const fmt = (x: number, d = 3): string => (Number.isFinite(x) ? x.toFixed(d) : "n/a")

const shorten = (s: string, n: number): string => (Array.from(s).length > n ? Array.from(s).slice(0, n - 1).join("") + "\u2026" : s)

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

/** An error bar (the interval as a whisker, the figure as a dot) on the column's shared scale, as inline SVG. */
const errorBar = (value: number, ci: { readonly low: number; readonly high: number }, extent: Extent, column: Table.Column): string => {
  const w = 64
  const X = (x: number) => (2 + ((x - extent[0]) / (extent[1] - extent[0])) * (w - 4)).toFixed(1)
  const text = `[${Table.formatNumber(ci.low, column.number)}, ${Table.formatNumber(ci.high, column.number)}]`
  return (
    ` <svg class="ci" width="${w}" height="10" viewBox="0 0 ${w} 10" role="img" aria-label="interval ${escape(text)}"><title>${escape(text)}</title>` +
    `<path d="M${X(ci.low)} 5H${X(ci.high)}M${X(ci.low)} 2V8M${X(ci.high)} 2V8" stroke="#555" fill="none"/><circle cx="${X(value)}" cy="5" r="2.2" fill="#b00"/></svg>`
  )
}

const cellHtml = (row: Table.Row, column: Table.Column, extent?: Extent): string => {
  const cell = row.cells[column.key]
  const cls: Array<string> = [column.align === "right" ? "r" : column.align === "center" ? "c" : "l"]
  let inner: string
  let sortValue: string
  let attrs = ""
  if (cell === undefined || cell._tag === "missing") {
    inner = "-"
    sortValue = ""
    cls.push("missing")
    if (cell?.reason !== undefined) attrs += ` title="${escape(cell.reason)}"`
  } else if (cell._tag === "number") {
    inner = escape(Table.cellText(cell, column))
    sortValue = String(cell.value)
    if (cell.ci !== undefined && extent !== undefined) {
      inner += errorBar(cell.value, cell.ci, extent, column)
      attrs += ` title="${escape(`interval [${Table.formatNumber(cell.ci.low, column.number)}, ${Table.formatNumber(cell.ci.high, column.number)}]`)}"`
    }
  } else {
    // <bdi dir="auto">: the name takes its own direction (RTL names display right to left) and is
    // isolated, so the row marks after it stay on the correct side.
    inner = `<bdi dir="auto">${escape(cell.text)}</bdi>`
    sortValue = cell.text
  }
  if (column.rowLabel === true) {
    for (const m of row.marks) inner += `<sup class="mark" title="${escape(Table.rowMarkTitle[m])}">${escape(Table.rowMarkSymbol[m])}</sup>`
  }
  const marks = cell?.marks ?? []
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
  return `<td class="${cls.join(" ")}" data-value="${escape(sortValue)}"${attrs}>${inner}</td>`
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
            `<th scope="col" class="${c.align === "right" ? "r" : "l"}" data-col="${i}" data-kind="${c.number !== undefined ? "number" : "text"}" aria-sort="none"${
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

const extent = (xs: ReadonlyArray<number>): [number, number] => {
  let lo = Infinity
  let hi = -Infinity
  for (const x of xs) {
    if (x < lo) lo = x
    if (x > hi) hi = x
  }
  if (!Number.isFinite(lo)) return [0, 1]
  // 3% padding so that points on the extremes are not drawn on the frame
  return lo === hi ? [lo - 0.5, hi + 0.5] : [lo - 0.03 * (hi - lo), hi + 0.03 * (hi - lo)]
}

/**
 * One scatter plot (run score against gold) as an inline SVG.
 *
 * @example
 * ```ts
 * import { Html } from "@stseval/tables"
 *
 * const svg = Html.scatterSvg({ dataset: "track5.en-en", runId: "A", title: "A on en-en", gold: [1, 2, 3], run: [1.2, 1.9, 3.1], pairs: 3, pearson: 0.99 })
 * ```
 * @since 0.1.0
 */
export const scatterSvg = (s: Table.Scatter, size = 220): string => {
  const m = 30
  const inner = size - m - 8
  const [x0, x1] = extent(s.gold)
  const [y0, y1] = extent(s.run)
  const X = (x: number) => m + ((x - x0) / (x1 - x0)) * inner
  const Y = (y: number) => 8 + inner - ((y - y0) / (y1 - y0)) * inner
  const pts: Array<string> = []
  for (let i = 0; i < s.gold.length; i++) {
    const x = s.gold[i]
    const y = s.run[i]
    if (Number.isFinite(x) && Number.isFinite(y)) pts.push(`M${X(x).toFixed(1)} ${Y(y).toFixed(1)}h0`)
  }
  const label = `${s.title}: ${s.dataset}${s.pearson !== undefined ? `, r = ${fmt(s.pearson)}` : ""}, ${s.pairs} pairs${s.gold.length < s.pairs ? ` (${s.gold.length} shown)` : ""}`
  return [
    `<svg class="scatter" xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escape(label)}">`,
    `<title>${escape(label)}</title>`,
    `<rect x="${m}" y="8" width="${inner}" height="${inner}" class="frame"/>`,
    `<path class="points" d="${pts.join("")}"/>`,
    `<text x="${m}" y="${size - 14}" class="tick">${fmt(x0, 1)}</text>`,
    `<text x="${m + inner}" y="${size - 14}" class="tick" text-anchor="end">${fmt(x1, 1)}</text>`,
    `<text x="${m + inner / 2}" y="${size - 2}" class="axis" text-anchor="middle">gold</text>`,
    `<text x="${m - 3}" y="${8 + inner}" class="tick" text-anchor="end">${fmt(y0, 1)}</text>`,
    `<text x="${m - 3}" y="16" class="tick" text-anchor="end">${fmt(y1, 1)}</text>`,
    `<text transform="translate(10 ${8 + inner / 2}) rotate(-90)" class="axis" text-anchor="middle">run</text>`,
    "</svg>"
  ].join("")
}

/** Heat-map colour: darker for smaller p (-log10 p, capped at 4); grey where p is unknown. */
const heat = (p: number, alpha: number): string => {
  if (!Number.isFinite(p)) return "#cccccc"
  const t = Math.min(1, -Math.log10(Math.max(p, 1e-4)) / 4)
  if (p > alpha) return `rgb(${Math.round(235 - 40 * t)},${Math.round(240 - 30 * t)},${Math.round(250 - 10 * t)})`
  return `rgb(${Math.round(250 - 120 * t)},${Math.round(190 - 170 * t)},${Math.round(150 - 130 * t)})`
}

/**
 * The p-value matrix of one dataset as an SVG heat map (run labels shortened; full text in tooltips).
 *
 * @example
 * ```ts
 * import { Html } from "@stseval/tables"
 *
 * const svg = Html.heatmapSvg({ dataset: "track5.en-en", test: "Williams' t", alpha: 0.05, runs: ["A", "B"], p: [[1, 0.03], [0.03, 1]] })
 * ```
 * @since 0.1.0
 */
export const heatmapSvg = (mat: Table.PValueMatrix, labelLength = 32): string => {
  const k = mat.runs.length
  const cell = Math.max(6, Math.min(22, Math.floor(640 / Math.max(1, k))))
  const left = 7 * Math.min(labelLength, mat.runs.reduce((w, r) => Math.max(w, Array.from(r).length), 4)) + 10
  const top = left
  const size = { w: left + k * cell + 10, h: top + k * cell + 10 }
  const out: Array<string> = [
    `<svg class="heatmap" xmlns="http://www.w3.org/2000/svg" width="${size.w}" height="${size.h}" viewBox="0 0 ${size.w} ${size.h}" role="img" aria-label="${escape(`p-values (${mat.test}) between runs on ${mat.dataset}`)}">`,
    `<title>${escape(`${mat.dataset}: p-values of ${mat.test} between runs (darker = smaller p; red = p <= ${mat.alpha})`)}</title>`
  ]
  // cell tooltips name runs by their short labels: with full names every cell would repeat them
  // (a long team name times runs squared); the labels' own tooltips keep the full text
  const short = mat.runs.map((r) => shorten(r, labelLength))
  mat.runs.forEach((r, i) => {
    const name = escape(short[i])
    out.push(`<text x="${left - 4}" y="${top + i * cell + cell * 0.7}" class="label" text-anchor="end">${name}<title>${escape(r)}</title></text>`)
    out.push(`<text transform="translate(${left + i * cell + cell * 0.7} ${top - 4}) rotate(-90)" class="label">${name}<title>${escape(r)}</title></text>`)
  })
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const p = mat.p[i]?.[j] ?? Number.NaN
      out.push(
        `<rect x="${left + j * cell}" y="${top + i * cell}" width="${cell - 1}" height="${cell - 1}" fill="${heat(p, mat.alpha)}"><title>${escape(
          `${short[i]} vs ${short[j]}: p = ${Number.isFinite(p) ? p.toPrecision(3) : "not computed"}`
        )}</title></rect>`
      )
    }
  }
  out.push("</svg>")
  return out.join("")
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
table.results td.l{max-width:40ch;overflow-wrap:anywhere}
table.results tr.section th{font-style:italic;font-weight:normal;background:#f4f4f4;text-align:start}
table.results th button{font:inherit;font-weight:bold;background:none;border:0;cursor:pointer;padding:0}
table.results th[aria-sort=ascending] button::after{content:" \\25B2"} table.results th[aria-sort=descending] button::after{content:" \\25BC"}
td.missing{color:#888} .best{color:#b00} sup.mark{color:#b00} svg.ci{vertical-align:middle;margin-left:.3em}
.notes{font-size:.85rem;color:#444} .plots{display:flex;flex-wrap:wrap;gap:.8rem}
figure{margin:0} figcaption{font-size:.8rem;max-width:240px;overflow-wrap:anywhere}
svg .frame{fill:#fafafa;stroke:#999} svg .points{stroke:#1f5fa8;stroke-width:2.6;stroke-linecap:round;opacity:.55;fill:none}
svg text{font-size:10px;fill:#333} svg .axis{font-size:11px}
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

const tableSection = (table: Table.Table, index: number, options: Options): Array<string> => {
  const suffix = index === 0 ? "" : `-${index + 1}`
  const parts: Array<string> = [`<h${index === 0 ? 1 : 2} dir="auto">${escape(table.title)}</h${index === 0 ? 1 : 2}>`]
  if (table.caption.length > 0) parts.push(`<p class="caption" dir="auto">${escape(table.caption)}</p>`)
  parts.push(tableHtml(table, `results${suffix}`))
  if (table.footnotes.length > 0) parts.push(`<div class="notes">${table.footnotes.map((f) => `<p dir="auto">${escape(f)}</p>`).join("")}</div>`)
  const scatter = table.scatter ?? []
  if (scatter.length > 0) {
    parts.push(`<h2 id="scatter${suffix}">Run scores against the gold</h2>`)
    const datasets = [...new Set(scatter.map((s) => s.dataset))]
    for (const d of datasets) {
      parts.push(`<h3>${escape(d)}</h3>`, '<div class="plots">')
      for (const s of scatter.filter((x) => x.dataset === d)) {
        parts.push(`<figure>${scatterSvg(s, options.plotSize ?? 220)}<figcaption dir="auto">${escape(s.title)}${s.pearson !== undefined ? ` (r = ${fmt(s.pearson)})` : ""}</figcaption></figure>`)
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
            mat.total !== undefined ? ` The ${mat.runs.length} best runs of ${mat.total} (by Pearson r on this dataset): the map grows with the square of the runs.` : ""
          }`
        )}</p>`,
        heatmapSvg(mat, options.labelLength ?? 32)
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
