/**
 * The SemEval-2024 Task 1 (SemRel) layout through the scoring engine, on a few synthetic runs: one
 * table per track (the registry names it), a column per language holding each run's Spearman and
 * its rank in that language, ranks worked out here from each run's Spearman, the mean
 * over languages labelled unofficial, esp absent with its reason; Markdown, LaTeX, HTML and JSON.
 */
import { Gold, Registry } from "@stseval/formats"
import type { Submissions } from "@stseval/formats"
import { Spearman } from "@stseval/metrics"
import { Engine, Rank, Uncertainty } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { FromScoring, Html, Json, Latex, Markdown, Presets, Table } from "../src/index.js"
import { rng } from "./helpers.js"

const edition = Registry.get("semrel2024-a")!
const enc = new TextEncoder()

// gold: eng 40 pairs, amh 30 pairs, scores in [0, 1]
const goldOf = (lang: string, n: number, seed: number) => {
  const u = rng(seed)
  return Array.from({ length: n }, (_, i) => ({ id: `${lang}-${i + 1}`, score: Math.round(u() * 100) / 100 }))
}
const golds: Record<string, ReadonlyArray<{ id: string; score: number }>> = { eng: goldOf("eng", 40, 1), amh: goldOf("amh", 30, 2) }
const gold = Gold.goldFromTexts(
  edition,
  Object.entries(golds).map(([lang, rows]) => ({
    dataset: lang,
    file: `${lang}_test_with_labels.csv`,
    content: `PairID,Text,Score\n${rows.map((r) => `${r.id},"one\ntwo",${r.score}\n`).join("")}`
  }))
)

// a run's predictions: the gold plus seeded noise of a given size
const predictions = (lang: string, noise: number, seed: number) => {
  const u = rng(seed)
  return golds[lang].map((r) => ({ id: r.id, score: r.score + noise * (u() - 0.5) }))
}
const submission = (team: string, noise: Partial<Record<string, number>>, seed: number): Submissions.Submission => {
  const files = Object.entries(noise).map(([lang, n]) => {
    const rows = predictions(lang, n!, seed + lang.length)
    return { name: `pred_${lang}.csv`, path: `subs/${team}/pred_${lang}.csv`, bytes: enc.encode(`PairID,Pred_Score\n${rows.map((r) => `${r.id},${r.score}\n`).join("")}`) }
  })
  return { meta: { id: `${team}/run1`, team, run: 1, primary: true, late: false, corrected: false, postDeadline: false }, path: `subs/${team}`, kind: "folder", files, issues: [] }
}

// the figures themselves are checked against a plain average-rank Spearman in scoring's SemRel test
const rho = (lang: string, noise: number, seed: number) => {
  const m = Spearman.spearman(Float64Array.from(golds[lang], (r) => r.score), Float64Array.from(predictions(lang, noise, seed + lang.length), (r) => r.score))
  if (m._tag !== "Defined") throw new Error(m.reason)
  return m.value
}

const teams: ReadonlyArray<readonly [string, Partial<Record<string, number>>, number]> = [
  ["Alpha", { eng: 0.2, amh: 0.9 }, 10],
  ["Beta", { eng: 0.6, amh: 0.3 }, 20],
  ["Gamma", { eng: 0.05 }, 30],
  ["Baseline-lexical", { eng: 0.8, amh: 0.8 }, 40]
]
const scored = await Effect.runPromise(Effect.forEach(teams, ([team, noise, seed]) => Engine.scoreSubmission({ edition, gold, goldPath: undefined }, submission(team, noise, seed))))
// ranked and marked as `stseval report` does (every run)
const engine = { edition, runs: scored, ranked: Rank.rank(scored, { primaryOnly: false }) }
const marks = Marks.compute(engine)
const results = FromScoring.fromResults(engine, { marks })
const table = Presets.preset("semrel2024-table", results, { significance: false })

const cellOf = (id: string, key: string) => {
  const row = Table.rows(table).find((r) => r.id === id)!
  return Table.cellText(row.cells[key], table.columns.find((c) => c.key === key)!)
}

describe("SemRel layout: one table per track, a column per language with the rank in it", () => {
  it("is the edition's published table (registry data)", () => {
    expect(Presets.forEdition(edition)).toEqual(["semrel2024-table"])
    expect(Presets.forEdition(Registry.get("semrel2024-c")!)).toEqual(["semrel2024-table"])
  })

  it("each language column: Spearman and the rank among the participants in that language", () => {
    // the edition's order of languages
    expect(table.columns.map((c) => c.key)).toEqual(["run", "amh", "eng", "mean"])
    for (const lang of ["eng", "amh"]) {
      // every run that entered the language is ranked there, the baseline too (as `stseval rank` ranks it)
      const entered = teams.filter(([, noise]) => noise[lang] !== undefined)
      const figures = entered.map(([team, noise, seed]) => ({ team, value: rho(lang, noise[lang]!, seed) })).sort((a, b) => b.value - a.value)
      figures.forEach(({ team, value }, i) => expect(cellOf(`${team}/run1`, lang)).toBe(`${value.toFixed(3)} (${i + 1})`))
    }
    // a language not entered is "-"
    expect(cellOf("Gamma/run1", "amh")).toBe("-")
  })

  it("the mean over the languages is labelled unofficial, only for runs that entered them all, and orders the rows", () => {
    const mean = table.columns.find((c) => c.key === "mean")!
    expect(mean.header).toBe("Mean (unofficial)")
    expect(mean.description).toMatch(/not an official figure/)
    expect(table.footnotes.some((f) => /Mean \(unofficial\)/.test(f) && /per language only/.test(f))).toBe(true)
    const alpha = (rho("eng", 0.2, 10) + rho("amh", 0.9, 10)) / 2
    const beta = (rho("eng", 0.6, 20) + rho("amh", 0.3, 20)) / 2
    expect(cellOf("Alpha/run1", "mean")).toBe(alpha.toFixed(3))
    expect(cellOf("Gamma/run1", "mean")).toBe("n/a")
    const order = table.sections[0].rows.map((r) => r.id)
    expect(order).toEqual(alpha > beta ? ["Alpha/run1", "Beta/run1", "Gamma/run1"] : ["Beta/run1", "Alpha/run1", "Gamma/run1"])
    expect(table.sections[1]).toMatchObject({ title: "Baselines" })
  })

  it("esp has no column; a footnote gives the reason", () => {
    expect(table.columns.some((c) => c.key === "esp")).toBe(false)
    expect(table.footnotes.some((f) => f.startsWith("esp: not scored, the organisers did not release the Spanish (esp) test labels"))).toBe(true)
  })

  it("renders in Markdown, LaTeX, HTML and JSON with the ranks", () => {
    const alphaEng = cellOf("Alpha/run1", "eng")
    expect(alphaEng).toMatch(/^0\.\d{3} \(\d\)$/)
    const md = Markdown.render(table)
    expect(md).toContain(alphaEng)
    expect(md).toContain("Mean (unofficial)")
    const tex = Latex.render(table)
    expect(tex).toContain(alphaEng)
    expect(tex).toContain("Mean (unofficial)")
    const html = Html.renderPage([table])
    expect(html).toContain(alphaEng)
    const json = JSON.parse(Json.renderReport(edition.id, [table], { extras: false })) as {
      tables: Array<{ sections: Array<{ rows: Array<{ id: string; cells: Record<string, { _tag: string; value?: number; rank?: number; display: string }> }> }> }>
    }
    const row = json.tables[0].sections[0].rows.find((r) => r.id === "Alpha/run1")!
    expect(row.cells["eng"]).toMatchObject({ _tag: "number", display: alphaEng })
    expect(row.cells["eng"].value).toBeCloseTo(rho("eng", 0.2, 10), 12)
    expect(row.cells["eng"].rank).toBe(Number(/\((\d)\)$/.exec(alphaEng)![1]))
  })
})

describe("SemRel layout: bold marks per language, from the marks scoring decided (the paired bootstrap on Spearman)", () => {
  const marked = Presets.preset("semrel2024-table", results)
  it("the best ranked run of each language is bold, named in a footnote with its test; runs far from it are not", () => {
    for (const lang of ["eng", "amh"]) {
      const m = marks.figures.find((f) => f.key === `${lang}:spearman`)!
      expect(m.test).toBe("bootstrap")
      const best = Table.rows(marked).find((r) => r.id === m.best)!
      expect(best.cells[lang].marks).toContain("tied")
      expect(best.cells[lang]).toMatchObject({ rank: 1 })
      for (const row of Table.rows(marked)) expect(row.cells[lang].marks.includes("tied")).toBe(m.tied.includes(row.id))
    }
    // Gamma (noise 0.05) is far better than Beta (noise 0.6) in eng
    expect(Table.rows(marked).find((r) => r.id === "Beta/run1")!.cells["eng"].marks).not.toContain("tied")
    expect(marked.footnotes).toContain("Bold: not significantly different from the best ranked run (paired bootstrap, 1,000 resamples (seed 12345), p by the normal approximation, Holm-adjusted, p > 0.05).")
  })
})

describe("SemRel layout with intervals (--ci): each language's rank interval beside its rank", () => {
  const ranked = Presets.rankedIds("semrel2024-table", results)
  const computed = Uncertainty.compute(engine, { level: 0.95, resamples: 400, seed: 7 })
  if (Uncertainty.isError(computed)) throw new Error(computed.message)
  const intervals = computed
  const withCi = Presets.preset("semrel2024-table", FromScoring.fromResults(engine, { intervals }), { significance: false })
  const cell = (id: string, key: string) => Table.rows(withCi).find((r) => r.id === id)!.cells[key]

  it("a ranked run's cell: its rank and the interval of that rank in the language, ≈ when it overlaps the best run's", () => {
    expect([...ranked].sort()).toEqual(["Alpha/run1", "Baseline-lexical/run1", "Beta/run1", "Gamma/run1"])
    let checked = 0
    for (const lang of ["eng", "amh"]) {
      const column = withCi.columns.find((c) => c.key === lang)!
      for (const id of ranked) {
        const c = cell(id, lang)
        const ri = Uncertainty.rankInterval(intervals, lang, id)
        if (c._tag !== "number") {
          // Gamma did not enter amh: no figure, no rank, no interval
          expect([id, lang]).toEqual(["Gamma/run1", "amh"])
          expect(ri).toBeUndefined()
          continue
        }
        expect(c.rankInterval).toEqual({ low: ri!.low, high: ri!.high })
        expect(c.rank).toBeGreaterThanOrEqual(ri!.low)
        expect(c.rank).toBeLessThanOrEqual(ri!.high)
        const range = ri!.low === ri!.high ? `${ri!.low}` : `${ri!.low}-${ri!.high}`
        expect(Table.cellText(c, column)).toBe(`${c.value.toFixed(3)} (${c.rank}; ${range})`)
        // ≈ on the runs whose interval overlaps the best's, never on the best itself (issue 32)
        expect(c.marks.includes("overlapsBest")).toBe(Uncertainty.runIntervals(intervals, lang, id)!.overlapsBest && c.rank !== 1)
        // eng 40 pairs, amh 30: the interval carries how few (issue 24)
        expect(c.ci).toEqual({ low: Uncertainty.rankedFigure(intervals, lang, id)!.ci!.low, high: Uncertainty.rankedFigure(intervals, lang, id)!.ci!.high, fewPairs: lang === "eng" ? 40 : 30 })
        checked++
      }
    }
    expect(checked).toBe(7)
    // Gamma (noise 0.05 in eng) is far better than the others there
    expect(cell("Gamma/run1", "eng")).toMatchObject({ rank: 1, rankInterval: { low: 1, high: 1 }, marks: [] })
    // the unofficial mean carries its interval; the table orders by it, which nothing ranks: no Rank range column
    expect(cell("Alpha/run1", "mean")).toMatchObject({ ci: { low: Uncertainty.aggregateFigure(intervals, "Alpha/run1", "mean")!.ci!.low } })
    expect(withCi.columns.some((c) => c.key === "rankRange")).toBe(false)
    expect(withCi.footnotes.some((f) => f.startsWith("(r; a-b) after a figure: the run's rank r in that column's own ranking and the 95% interval"))).toBe(true)
    // the ≈ footnote only when a run (other than the best) has the mark
    expect(withCi.footnotes.some((f) => f.startsWith("\u2248 the run's 95% rank interval overlaps the best run's"))).toBe(false)
  })

  it("renders the ranges in Markdown, LaTeX, HTML and JSON, and no ≈ on the best run itself (issue 32)", () => {
    // the fixture's best runs are far ahead: their intervals overlap only their own, which is no mark
    const gamma = Table.cellText(cell("Gamma/run1", "eng"), withCi.columns.find((c) => c.key === "eng")!)
    expect(gamma).toMatch(/^0\.\d{3} \(1; 1\)$/)
    // eng has 40 pairs: its interval is marked ‡ (few pairs); no ≈ on the best run itself
    expect(Markdown.render(withCi)).toContain(`${gamma}\u2021 |`)
    expect(Markdown.render(withCi)).not.toContain("\u2248")
    expect(Latex.render(withCi)).toContain(`${gamma}$^\\ddagger$`)
    expect(Latex.render(withCi)).not.toContain("\\approx")
    expect(Html.renderPage([withCi])).toMatch(new RegExp(`${gamma.replace(/[.()]/g, "\\$&")}<sup class="mark few" title="interval on 40 pairs[^"]*">\u2021</sup> <svg class="ci"`))
    expect(Html.renderPage([withCi])).not.toContain(">\u2248</sup>")
    const json = JSON.parse(Json.renderReport(edition.id, [withCi], { extras: false })) as {
      tables: Array<{ sections: Array<{ rows: Array<{ id: string; cells: Record<string, { rankInterval?: unknown; marks: Array<string>; display: string }> }> }> }>
    }
    const row = json.tables[0].sections[0].rows.find((r) => r.id === "Gamma/run1")!
    expect(row.cells["eng"]).toMatchObject({ rankInterval: { low: 1, high: 1 }, marks: [], display: gamma })
  })
})
