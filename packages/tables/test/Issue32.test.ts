/**
 * Issue 32, the tables' part of "left from the last round": the STS 2017 table has a Rank column
 * (beside its Rank range under --ci), and an interval resting on fewer than 100 pairs is marked ‡
 * in Markdown, HTML and LaTeX alike, with a footnote saying what the mark means. And the task's
 * paper (the edition's citation) under every table, with a .bib beside LaTeX.
 */
import { describe, expect, it } from "vitest"
import { Registry } from "@stseval/formats"
import { Folder, Html, Latex, Markdown, Presets, Table } from "../src/index.js"
import type { Results } from "../src/index.js"
import { handIntervals, twoTracks } from "./helpers.js"

// two runs on two tracks: Alpha ranked first (0.75), Beta second (0.65)
const base = (): Results.Results =>
  twoTracks(60, [
    { id: "Alpha/run1", team: "Alpha", run: "run1", primary: true, datasets: { "track3.es-es": { pearson: 0.8, pairs: 60 }, "track5.en-en": { pearson: 0.7, pairs: 250 } }, aggregates: { official: 0.75 } },
    { id: "Beta/run1", team: "Beta", run: "run1", primary: true, datasets: { "track3.es-es": { pearson: 0.6, pairs: 60 }, "track5.en-en": { pearson: 0.7, pairs: 250 } }, aggregates: { official: 0.65 } }
  ])

// intervals: es-es rests on 60 pairs (few), en-en on 250 (not few)
const withCi = (): Results.Results =>
  handIntervals(base(), (run) => ({
    ...run,
    datasets: {
      "track3.es-es": { ...run.datasets["track3.es-es"], ci: { pearson: { low: 0.5, high: 0.9, fewPairs: 60 } } },
      "track5.en-en": { ...run.datasets["track5.en-en"], ci: { pearson: { low: 0.6, high: 0.8 } } }
    },
    aggregateIntervals: { official: { low: 0.6, high: 0.85 } },
    rankIntervals: { "aggregate:official": { low: 1, high: 2, overlapsBest: true } }
  }))

const cellOf = (t: Table.Table, id: string, key: string) => Table.rows(t).find((r) => r.id === id)?.cells[key]

describe("the STS 2017 table has a Rank column", () => {
  it("the official ranking's rank after Primary, and under --ci the Rank range after it", () => {
    const t = Presets.preset("sts2017-table10", base(), { matrix: false })
    expect(t.columns.map((c) => c.header)).toEqual(["Run", "Primary", "Rank", "es-es", "en-en"])
    const rank = t.columns.find((c) => c.key === "rank")!
    expect(Table.cellText(cellOf(t, "Alpha/run1", "rank"), rank)).toBe("1")
    expect(Table.cellText(cellOf(t, "Beta/run1", "rank"), rank)).toBe("2")
    const ci = Presets.preset("sts2017-table10", withCi(), { matrix: false })
    expect(ci.columns.map((c) => c.header).slice(0, 4)).toEqual(["Run", "Primary", "Rank", "Rank range"])
    expect(Markdown.render(ci)).toMatch(/\| Run +\| Primary \| Rank \| Rank range \|/)
  })
})

describe("an interval on fewer than 100 pairs is marked ‡ in every format", () => {
  const t = Presets.preset("sts2017-table10", withCi(), { matrix: false })
  const note = t.footnotes.find((f) => f.startsWith("\u2021 "))

  it("the cell carries the count, the table the footnote; a figure on 250 pairs has no mark", () => {
    expect(Table.fewPairsOf(cellOf(t, "Alpha/run1", "track3.es-es"))).toBe(60)
    expect(Table.fewPairsOf(cellOf(t, "Alpha/run1", "track5.en-en"))).toBeUndefined()
    expect(note).toMatch(/an interval on fewer than 100 pairs/)
    expect(Presets.preset("sts2017-table10", base(), { matrix: false }).footnotes.some((f) => f.startsWith("\u2021"))).toBe(false)
  })

  it("Markdown: after the figure", () => {
    const md = Markdown.render(t)
    expect(md).toContain("80.00\u2021")
    expect(md).not.toContain("70.00\u2021")
    expect(md).toContain(note)
  })

  it("HTML: a visible mark after the figure, its meaning in the tooltip", () => {
    const html = Html.render(t)
    expect(html).toMatch(/80\.00<sup class="mark few" title="interval on 60 pairs[^"]*">\u2021<\/sup>/)
    expect(html).not.toMatch(/70\.00<sup class="mark few"/)
  })

  it("LaTeX: \\ddagger after the figure, and the footnote's mark typeset", () => {
    const tex = Latex.render(t)
    expect(tex).toContain("80.00$^\\ddagger$")
    expect(tex).not.toContain("70.00$^\\ddagger$")
    expect(tex).toContain("\\textdaggerdbl{} an interval on fewer than 100 pairs")
  })
})

describe("the task's paper under every table, and a .bib beside LaTeX", () => {
  const citation = Registry.citationOf(Registry.get("sts2017")!)!
  const t = { ...Presets.preset("sts2017-table10", base(), { matrix: false }), citation }

  it("Markdown and HTML name it in a line under the table; LaTeX cites its key", () => {
    expect(citation.key).toBe("cer-etal-2017-semeval")
    const line = "Source: Cer et al. (2017), SemEval-2017 Task 1: Semantic Textual Similarity Multilingual and Crosslingual Focused Evaluation."
    expect(Markdown.render(t).trimEnd().split("\n").at(-1)).toBe(line)
    expect(Html.render(t)).toContain(`<p class="notes cite">${line}</p>`)
    expect(Latex.render(t)).toContain("{\\footnotesize Source: \\cite{cer-etal-2017-semeval}.\\par}")
    // a table without a paper says nothing
    expect(Markdown.render(base2017())).not.toContain("Source:")
  })

  it("a report folder writes the entry to references.bib beside its .tex files; a standalone document reads it", () => {
    const files = Folder.files("sts2017", [t, { ...t, id: "other" }], { formats: ["latex"], latex: { standalone: true } })
    const bib = files.find((f) => f.name === "references.bib")
    expect(bib?.text).toBe(`${citation.bibtex}\n`)
    const tex = files.find((f) => f.name === "sts2017-table10.tex")!.text
    expect(tex).toContain("\\bibliographystyle{plain}\n\\bibliography{references}\n\\end{document}")
    // Markdown only: no .bib
    expect(Folder.files("sts2017", [t], { formats: ["md"] }).some((f) => f.name.endsWith(".bib"))).toBe(false)
    expect(Table.bibliography([base2017()])).toBe("")
  })
})

function base2017() {
  return Presets.preset("sts2017-table10", base(), { matrix: false })
}
