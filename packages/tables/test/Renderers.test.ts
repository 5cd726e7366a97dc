import { describe, expect, it } from "vitest"
import * as Marks from "@stseval/scoring/Marks"
import { Html, Json, Latex, Layouts, Markdown, Plot, Presets, Table } from "../src/index.js"
import { hostileNames, hostileResults } from "./fixtures.js"
import { marked, pearson, ranked, runWithPearson, syntheticGold } from "./helpers.js"

const table = () => Presets.preset("sts2017-table10", hostileResults(), { matrix: true })

/** Undo Latex.escape for the characters it escapes (to check the round trip). */
const unLatex = (s: string) =>
  s
    .replace(/\\textbackslash\{\}/g, "\\")
    .replace(/\\textasciitilde\{\}/g, "~")
    .replace(/\\textasciicircum\{\}/g, "^")
    .replace(/\\textless\{\}/g, "<")
    .replace(/\\textgreater\{\}/g, ">")
    .replace(/\\textbar\{\}/g, "|")
    .replace(/\\textasciigrave\{\}/g, "`")
    .replace(/(?<!\\)\{\}/g, "")
    .replace(/\\([_&%#${}])/g, "$1")

/** Number of unescaped `|` in a Markdown line. */
const pipes = (line: string) => (line.replace(/\\\\/g, "").match(/(?<!\\)\|/g) ?? []).length

describe("Table.formatNumber", () => {
  it("prints the papers' conventions", () => {
    expect(Table.formatNumber(0.0840, { decimals: 3 })).toBe("0.084")
    expect(Table.formatNumber(0.7316, { decimals: 2, scale: 100 })).toBe("73.16")
    expect(Table.formatNumber(0.084, { decimals: 3, dropLeadingZero: true })).toBe(".084")
    expect(Table.formatNumber(-0.0001, { decimals: 3 })).toBe("0.000")
    expect(Table.formatNumber(84.575, { decimals: 1, suffix: "%" })).toBe("84.6%")
  })
})

describe("Markdown", () => {
  it("escapes pipes and Markdown specials in team names; every row has one cell per column", () => {
    const md = Markdown.render(table())
    const lines = md.split("\n").filter((l) => l.startsWith("|"))
    const cols = table().columns.length
    for (const l of lines) expect(pipes(l)).toBe(cols + 1)
    expect(md).not.toContain("<script>")
    expect(md).toContain("\\<script\\>alert(1)\\</script\\>")
    expect(md).toContain("pipe\\|team \\|\\| x")
    expect(md).toContain("\\*\\*bold\\*\\* \\[link\\](http://example.org) \\`code\\`")
    expect(md).toContain("N".repeat(290) + "-long-name")
    expect(md).toContain("فريق التشابه الدلالي")
  })
  it("aligns columns: every table line has the same width", () => {
    const lines = Markdown.render(table()).split("\n").filter((l) => l.startsWith("|") && !/[\u0590-\u06ff]/.test(l))
    expect(new Set(lines.map((l) => l.length)).size).toBe(1)
  })
  it("marks best with a bullet, bold with **, late with *, post-deadline with a dagger", () => {
    const md = Markdown.render(table())
    expect(md).toMatch(/\| BestTeam\/run1 +\| \*\*82\.50\*\* • \| +1 \| \*\*80\.00\*\* • \| \*\*85\.00\*\* • \|/)
    expect(md).toContain("\\<script\\>alert(1)\\</script\\>/run1\\*")
    expect(md).toContain("pipe\\|team \\|\\| x/run1\u2020")
  })
})

describe("LaTeX", () => {
  it("escapes every LaTeX special so the text round-trips", () => {
    for (const name of hostileNames) {
      const e = Latex.escape(name, { engine: "unicode" })
      expect(unLatex(e)).toBe(name)
      // no special survives unescaped
      expect(e.replace(/\\(textbackslash|textasciitilde|textasciicircum|textless|textgreater|textbar|textasciigrave)\{\}/g, "").replace(/\\[_&%#${}]/g, "").replace(/(?<!\\)\{\}/g, "")).not.toMatch(/[\\_&%#${}~^]/)
    }
    expect(Latex.escape("a_b&c%d#e$f{g}h~i^j\\k")).toBe(
      "a\\_b\\&c\\%d\\#e\\$f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}k"
    )
  })
  it("writes characters pdflatex cannot typeset as a macro the output defines", () => {
    expect(Latex.escape("צו")).toBe("\\stsevalU{05E6}\\stsevalU{05D5}")
    expect(Latex.escape("Ünïcödé_ß")).toBe("Ünïcödé\\_ß")
    const tex = Latex.render(table())
    expect(tex.startsWith(Latex.unicodeMacro)).toBe(true)
  })
  it("is a booktabs table* with caption, label, one & per column gap in every row", () => {
    const t = table()
    const tex = Latex.render(t)
    expect(tex).toContain("\\begin{table*}")
    expect(tex).toContain("\\end{table*}")
    for (const rule of ["\\toprule", "\\midrule", "\\bottomrule"]) expect(tex).toContain(rule)
    expect(tex).toContain("\\caption{Pearson correlation (r $\\times$ 100)")
    expect(tex).toContain("\\label{tab:sts2017-results}")
    const lines = tex.split("\n")
    const body = lines.slice(lines.indexOf("\\midrule") + 1, lines.indexOf("\\bottomrule"))
    const rows = body.filter((l) => l !== "\\midrule" && !l.startsWith("\\multicolumn"))
    expect(rows.length).toBe(hostileNames.length + 2)
    for (const r of rows) expect((r.match(/(?<!\\)&/g) ?? []).length).toBe(t.columns.length - 1)
    expect(tex).toContain("BestTeam/run1 & \\textbf{82.50}\\,$\\bullet$ & 1 & \\textbf{80.00}\\,$\\bullet$ & \\textbf{85.00}\\,$\\bullet$ \\\\")
    expect(tex).toContain("pipe\\textbar{}team \\textbar{}\\textbar{} x/run1$^\\dagger$")
    expect(tex).toContain("\\textless{}script\\textgreater{}alert(1)\\textless{}/script\\textgreater{}/run1*")
  })
  it("a non-wide layout uses table, and standalone wraps a document", () => {
    const t = { ...table(), wide: false }
    const tex = Latex.render(t, { standalone: true })
    expect(tex).toMatch(/^\\documentclass\{article\}/)
    expect(tex).toContain("\\usepackage{booktabs}")
    expect(tex).toContain("\\begin{table}[t]")
    expect(tex.trimEnd().endsWith("\\end{document}")).toBe(true)
  })
})

describe("HTML", () => {
  it("escapes team names: no markup from a name reaches the page", () => {
    const html = Html.render(table())
    expect(html).not.toContain("<script>alert(1)</script>")
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(html.match(/<script>/g)?.length).toBe(1)
    expect(html).toContain('dir="auto"')
    expect(html).toContain('<bdi dir="auto">فريق التشابه الدلالي/run1</bdi>')
  })
  it("makes no external requests: no src/href to any URL, a CSP forbidding them", () => {
    const html = Html.render(table())
    expect(html).not.toMatch(/\s(src|href)=/i)
    expect(html).not.toMatch(/@import|url\(/i)
    expect(html).toContain("default-src 'none'")
  })
  it("has scatter plots per dataset and a p-value heat map", () => {
    const t = table()
    const html = Html.render(t)
    expect((html.match(/<svg class="plot scatter"/g) ?? []).length).toBe(6) // 2 tracks x top 3
    expect((html.match(/<svg class="heatmap"/g) ?? []).length).toBe(2)
    // every run the ranking ranks (the post-deadline one is never compared)
    expect(t.pValues?.[0]?.runs.length).toBe(hostileNames.length + 1)
  })
})

describe("JSON", () => {
  it("round-trips every team name exactly and carries the printed text", () => {
    type Doc = { sections: Array<{ rows: Array<{ cells: Record<string, { text?: string; display: string; marks: Array<string> }> }> }> }
    const doc = JSON.parse(Json.render(table())) as Doc
    const texts = doc.sections.flatMap((s) => s.rows.map((r) => r.cells.run.text))
    for (const name of hostileNames) expect(texts).toContain(`${name}/run1`)
    const best = doc.sections[0].rows[0]
    expect(best.cells["track1.ar-ar"].display).toBe("80.00")
    expect(best.cells["track1.ar-ar"].marks).toEqual(["best", "tied"])
  })
})

describe("scatter plots", () => {
  it("downsample to maxPoints by the one rule (every k-th pair), keeping the pair count and the figure named by its metric", () => {
    const t = Presets.preset("sts2017-table10", hostileResults(), { matrix: false, maxPoints: 100, scatterRuns: 1 })
    expect(t.scatter?.length).toBe(2)
    const s = t.scatter![0]
    // 250 pairs, at most 100: every 3rd pair from the first
    expect(s.step).toBe(3)
    expect(s.gold.length).toBe(84)
    expect(s.run.length).toBe(84)
    expect(s.gold).toEqual(Plot.sample(250, 100).indices.map((i) => hostileResults().datasets[0].gold![i]))
    expect(s.pairs).toBe(250)
    expect(s.title).toBe("BestTeam/run1")
    expect(s.metric).toBe("pearson")
    expect(s.value).toBeCloseTo(0.8, 10)
    expect(s.figure).toEqual({ symbol: "r", text: "80.00" })
    const svg = Plot.scatter({ title: s.title, gold: s.gold, run: s.run, pairs: s.pairs, step: s.step, figure: s.figure })
    expect(svg).toContain("BestTeam/run1, r = 80.00 (1 in 3 of 250 pairs)")
    // the plotted runs are the best RANKED ones: the page says only some are plotted
    expect(t.scatterNote).toBe("Only the 1 best ranked runs on each dataset by Pearson are plotted.")
    expect(Html.renderPage([t])).toContain("Only the 1 best ranked runs on each dataset by Pearson are plotted.")
  })
  it("no plots without scores; no bold without marks (a layout never compares runs)", () => {
    const { marks: _marks, ...r } = hostileResults()
    const t = Presets.preset("sts2017-table10", { ...r, runs: r.runs.map(({ scores: _, ...x }) => x) })
    expect(t.scatter).toBeUndefined()
    expect(t.pValues).toBeUndefined()
    expect(Table.rows(t).every((row) => Object.values(row.cells).every((c) => !c.marks.includes("tied")))).toBe(true)
    expect(t.footnotes.some((f) => f.startsWith("Bold"))).toBe(false)
  })
})

describe("long strings", () => {
  it("a 1 MB team name among 600 runs: Markdown, HTML and LaTeX render, the other rows are not padded to its width", () => {
    const base = hostileResults()
    const long = "L".repeat(1_000_000)
    const template = base.runs[0]
    const runs = Array.from({ length: 600 }, (_, k) => ({ ...template, id: `r${k}`, team: k === 0 ? long : `Team${k}` }))
    const t = Presets.preset("sts2017-table10", ranked({ ...base, runs }), {})
    const md = Markdown.render(t)
    // before: every row padded to the widest cell, 600 MB, "RangeError: Invalid string length"
    expect(md.length).toBeLessThan(long.length + 1_000_000)
    expect(md).toContain(long)
    // the name is shown in a few places (cell, tooltips, plot titles), never once per row or cell
    for (const text of [Html.render(t), Latex.render(t)]) {
      expect(text.length).toBeLessThan(20 * long.length)
      expect(text).toContain("L".repeat(50))
    }
  })
})

describe("p-value heat map", () => {
  it("holds the best MATRIX_MAX_RUNS runs only, says so, and every run is still compared with the best", () => {
    const gold = syntheticGold(120, 7)
    const n = Marks.MATRIX_MAX_RUNS + 30
    const scores = Array.from({ length: n }, (_, k) => runWithPearson(gold, 0.9 - k * 0.005, k))
    const hand = (count: number) =>
      ranked(
        {
          edition: "sts2017",
          datasets: [{ name: "d", gold }],
          runs: scores.slice(0, count).map((x, k) => ({ id: `r${k}`, team: `T${k}`, run: "run1", primary: true, datasets: { d: { pearson: pearson(gold, x) } }, aggregates: {}, scores: { d: x } }))
        },
        [{ ranking: "official", metric: "pearson", figures: ["d:pearson", "aggregate:official"], value: (r) => r.datasets["d"]?.["pearson"] as number | undefined }]
      )
    const withMatrix = marked(hand(n), { matrix: Marks.MATRIX_MAX_RUNS }).marks!["d:pearson"]
    const m = withMatrix.matrix!
    expect(m.runs).toHaveLength(Marks.MATRIX_MAX_RUNS)
    expect(m.p).toHaveLength(Marks.MATRIX_MAX_RUNS)
    expect(m.total).toBe(n)
    // the matrix rows are the best runs by r, best first (an independent Pearson)
    const r = scores.map((x, k) => ({ id: `r${k}`, r: pearson(gold, x) })).sort((a, b) => b.r - a.r)
    expect(m.runs).toEqual(r.slice(0, Marks.MATRIX_MAX_RUNS).map((x) => x.id))
    // bold (tied with the best) still considers every run: the same as without the matrix
    expect(withMatrix.tied).toEqual(marked(hand(n)).marks!["d:pearson"].tied)
    expect(withMatrix.compared).toBe(n - 1)
    expect(marked(hand(5), { matrix: Marks.MATRIX_MAX_RUNS }).marks!["d:pearson"].matrix!.total).toBeUndefined()
    const t = Layouts.build(marked(hand(n), { matrix: Marks.MATRIX_MAX_RUNS }), {
      id: "t",
      title: "t",
      caption: "",
      label: "t",
      wide: false,
      columns: [{ key: "run", header: "Run", source: { _tag: "label" } }, { key: "d", header: "d", source: { _tag: "metric", dataset: "d", metric: "pearson" }, markTied: true }],
      sortBy: "d",
      runs: "all"
    })
    const html = Plot.heatmap(t.pValues![0])
    // one cell per pair of the best runs, and the legend's three colours
    expect((html.match(/<rect /g) ?? []).length).toBe(Marks.MATRIX_MAX_RUNS ** 2 + 3)
    expect(html).toContain("not compared")
    expect(Html.renderPage([t])).toContain(`The ${Marks.MATRIX_MAX_RUNS} best runs of ${n} by their figure on this dataset`)
  })
})

describe("one HTML escaper", () => {
  it("escapes markup and drops control characters, in text and attributes; plots use it too", () => {
    expect(Html.escape("<a href=\"x\">'&'</a>")).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    expect(Html.escape("a\u0000b\u0007c\u001bd\u007fe\u0085f\tg\nh")).toBe("abcdef\tg\nh")
    const svg = Plot.scatter({ title: "x\u0007<y>", gold: [1, 2, 3], run: [1, 3, 2] })
    expect(svg).not.toContain("\u0007")
    expect(svg).toContain("x&lt;y&gt;")
  })
})

describe("plot ticks", () => {
  it("round values, never -0.0", () => {
    expect(Plot.ticks(0, 5)).toEqual([0, 1, 2, 3, 4, 5])
    expect(Plot.tickText(-1e-17, 0.5)).toBe("0.0")
    expect(Plot.tickText(-0.04, 0.5)).toBe("0.0")
    expect(Plot.tickText(0.25, 0.25)).toBe("0.25")
    const svg = Plot.scatter({ title: "t", gold: [-0.03, 0.2, 0.5, 1], run: [-0.02, 0.1, 0.6, 0.97] })
    expect(svg).not.toMatch(/>-0(\.0+)?</)
  })
})
