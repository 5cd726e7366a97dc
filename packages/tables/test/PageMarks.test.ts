/**
 * Issue 24, "Tables, pages and plots": what a cell without a figure says (which of not submitted,
 * not scored, undefined) in every format, with a legend line for each kind used and no "hover" in
 * the formats without tooltips; names that never break inside a word; the interval glyph distinct
 * from the best-figure bullet and explained; plots whose bars stay inside their axes.
 */
import { describe, expect, it } from "vitest"
import { Html, Json, Latex, Markdown, Plot, Presets, Table } from "../src/index.js"
import type { Results } from "../src/index.js"
import { handIntervals, twoTracks } from "./helpers.js"

// three runs on two tracks: Alpha scored on both; Beta has no file for es-es and an en-en file
// with errors; Gamma is constant on en-en (Pearson undefined); Primary needs both tracks
const results = (): Results.Results =>
  twoTracks(250, [
    { id: "Alpha/run1", team: "Alpha", run: "run1", primary: true, datasets: { "track3.es-es": { pearson: 0.8 }, "track5.en-en": { pearson: 0.7 } }, aggregates: { official: 0.75 } },
    {
      id: "Beta/run1",
      team: "Beta",
      run: "run1",
      primary: true,
      datasets: {
        "track3.es-es": { reason: "track3.es-es not submitted", state: "notSubmitted" },
        "track5.en-en": { reason: "the score on line 4 is not a number", state: "failed" }
      },
      aggregates: { official: undefined },
      aggregateReasons: { official: "no official score: it needs every dataset" }
    },
    {
      id: "Gamma/run1",
      team: "Gamma",
      run: "run1",
      primary: true,
      datasets: { "track3.es-es": { pearson: 0.5 }, "track5.en-en": { reason: "the run is constant" } },
      aggregates: { official: undefined },
      aggregateReasons: { official: "no official score: it needs every dataset" }
    }
  ])

const cellOf = (t: Table.Table, id: string, key: string) => Table.cellText(Table.rows(t).find((r) => r.id === id)?.cells[key], t.columns.find((c) => c.key === key)!)

describe("a cell without a figure says which kind it is", () => {
  const t = Presets.preset("sts2017-table10", results(), { matrix: false })
  it("not submitted '-', not scored (errors) 'x', undefined 'n/a', in the model and every renderer", () => {
    expect(cellOf(t, "Beta/run1", "track3.es-es")).toBe("-")
    expect(cellOf(t, "Beta/run1", "track5.en-en")).toBe("x")
    expect(cellOf(t, "Gamma/run1", "track5.en-en")).toBe("n/a")
    expect(cellOf(t, "Gamma/run1", "primary")).toBe("n/a")
    const md = Markdown.render(t)
    expect(md).toMatch(/\| Beta\/run1 +\| +n\/a \| +- \| +- \| +x \|/)
    const tex = Latex.render(t)
    expect(tex).toMatch(/Beta\/run1 & n\/a & - & - & x/)
    const html = Html.render(t)
    expect(html).toContain('<td class="r missing" data-value="" title="the score on line 4 is not a number">x</td>')
    const json = Json.document(t)
    const beta = json.sections.flatMap((s) => s.rows).find((r) => r.id === "Beta/run1")!
    expect(beta.cells["track5.en-en"]).toMatchObject({ _tag: "missing", kind: "failed", display: "x" })
    expect(beta.cells["track3.es-es"]).toMatchObject({ _tag: "missing", kind: "notSubmitted", display: "-" })
  })
  it("a legend line for each kind used, none for a kind not used, and no 'hover' outside HTML", () => {
    expect(t.footnotes).toEqual(expect.arrayContaining(["-: not submitted (the run has no file for this dataset).", expect.stringMatching(/^x: not scored/), expect.stringMatching(/^n\/a: scored, but the figure is undefined/)]))
    for (const text of [Markdown.render(t), Latex.render(t), ...t.footnotes]) expect(text).not.toMatch(/hover/i)
    const alone = Presets.preset("sts2017-table10", { ...results(), runs: results().runs.slice(0, 1) }, { matrix: false })
    expect(alone.footnotes.some((f) => /^(-|x|n\/a):/.test(f))).toBe(false)
    // the page, which has tooltips, says where the reason is
    expect(Html.render(t)).toContain("Point at a cell without a figure for its reason.")
  })
})

describe("names on the page", () => {
  it("run and team names never break inside a word: the name cells do not wrap, other text cells wrap only between words", () => {
    const html = Html.render(Presets.preset("sts2017-table10", results(), { matrix: false }))
    expect(html).toMatch(/<td class="l name" data-value="Alpha\/run1">/)
    expect(html).toContain("table.results td.name{white-space:nowrap")
    // `anywhere` lets a table squeeze a column below its longest word: "Alpha/ru n1"
    expect(html).not.toContain("overflow-wrap:anywhere")
  })
})

describe("the interval glyph and the best-figure bullet", () => {
  const withCi = (): Results.Results => handIntervals(results(), (run) => (run.id === "Alpha/run1" ? { ...run, aggregateIntervals: { official: { low: 0.7, high: 0.8 } } } : run))
  it("are distinct marks (a hollow diamond in a blue stroke; a red bullet), and the page's legend shows and explains the glyph", () => {
    const html = Html.render(Presets.preset("sts2017-table10", withCi(), { matrix: false }))
    const glyph = html.match(/<svg class="ci"[^]*?<\/svg>/)?.[0] ?? ""
    expect(glyph).toMatch(/class="estimate"/)
    expect(glyph).not.toMatch(/<circle/)
    expect(Plot.CSS).toMatch(/svg\.ci \.estimate\{fill:#fff;stroke:#1f5fbf/)
    expect(html).toMatch(/\.best\{color:#b00\}/)
    const legend = html.match(/<div class="legend">([^]*?)<\/div>/)?.[1] ?? ""
    expect(legend).toContain('<svg class="ci sample"')
    expect(legend).toMatch(/hollow diamond is the figure, the whisker its interval/)
    expect(legend).toContain("\u2022 marks the best figure")
    // no legend for a glyph the page does not draw
    expect(Html.render(Presets.preset("sts2017-table10", results(), { matrix: false }))).not.toContain("hollow diamond")
  })
})

describe("plots stay inside their axes", () => {
  const rects = (svg: string) => [...svg.matchAll(/<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.-]+)" height="([\d.-]+)"/g)].map((m) => m.slice(1, 5).map(Number))
  it("every histogram bar lies within the axes, values at and beyond the scale's ends included", () => {
    const size = { width: 360, height: 300 }
    const values = Float64Array.from([0, 0, 5, 5, 5, 2.5, 4.999, -0.4, 5.6, 1e-9])
    const svg = Plot.histogram({ title: "t", values, scale: { min: 0, max: 5 }, size })
    const bars = rects(svg)
    expect(bars.length).toBeGreaterThan(3)
    // the frame: left 48, right 12, top 24, bottom 40 (Plot's margins)
    for (const [x, y, w, h] of bars) {
      expect(x).toBeGreaterThanOrEqual(48 - 0.05)
      expect(x + w).toBeLessThanOrEqual(size.width - 12 + 0.15)
      expect(y).toBeGreaterThanOrEqual(24 - 0.05)
      expect(y + h).toBeLessThanOrEqual(size.height - 40 + 0.05)
    }
    expect(svg).not.toMatch(/>-0(\.0+)?</)
  })
  it("a scatter plot's ticks never read -0.0 on a scale that crosses zero", () => {
    const svg = Plot.scatter({ title: "t", gold: [-0.3, 0.1, 0.4], run: [-0.2, 0.05, 0.3] })
    expect(svg).not.toMatch(/>-0(\.0+)?</)
    expect(svg).toMatch(/>0\.0</)
  })
})
