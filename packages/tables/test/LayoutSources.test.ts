// Layouts' sources and footnote rules a page of several rankings needs (the leaderboard's page is
// built by Layouts.build): a Rank column per named ranking, the primary and text columns, a
// column's name in the footnotes, notes that explain marks, the intervals' signature, a dataset
// without gold. Every expectation is worked by hand from the results below.
import type * as Marks from "@stseval/scoring/Marks"
import { describe, expect, it } from "vitest"
import { Layouts, Markdown, Table } from "../src/index.js"
import type { Results } from "../src/Results.js"

const tied = (key: string, ranking: string, ids: ReadonlyArray<string>, test: Marks.FigureMarks["test"] = "williams1959"): Marks.FigureMarks => ({
  key,
  ranking,
  metric: "pearson",
  test,
  ...(test === "bootstrap" ? { resamples: 1000, seed: 1 } : {}),
  alpha: 0.05,
  correction: "holm",
  best: ids[0],
  tied: ids,
  compared: 2,
  failed: []
})

// two rankings that order the runs differently: A/run1 first by `a`, B/run1 first by `b`
const results: Results = {
  edition: "made",
  datasets: [
    { name: "a", metric: "pearson" },
    { name: "b", metric: "pearson" },
    { name: "c", metric: "pearson" }
  ],
  runs: [
    { id: "A/run1", label: "A/run1", team: "A", run: "run1", primary: true, late: true, datasets: { a: { pearson: 0.9 }, b: { pearson: 0.5 }, c: { state: "noFigure" } }, aggregates: {}, texts: { status: "scored", note: "" } },
    { id: "B/run1", label: "B/run1", team: "B", run: "run1", primary: false, datasets: { a: { pearson: 0.7 }, b: { pearson: 0.8 }, c: { state: "noFigure" } }, aggregates: {}, texts: { status: "scored", note: "see run.json" } },
    { id: "C/run1", label: "C/run1", team: "C", run: "run1", primary: true, failed: true, datasets: { a: { state: "failed" }, b: { state: "failed" }, c: { state: "noFigure" } }, aggregates: {}, texts: { status: "failed", note: "c.txt:2: bad" } }
  ],
  rankings: [
    { ranking: "a", metric: "pearson", direction: "higher", figures: ["a:pearson"], entries: [{ id: "A/run1", rank: 1 }, { id: "B/run1", rank: 2 }, { id: "C/run1", rank: undefined, reason: "failed" }] },
    { ranking: "b", metric: "pearson", direction: "higher", figures: ["b:pearson"], entries: [{ id: "B/run1", rank: 1 }, { id: "A/run1", rank: 2 }, { id: "C/run1", rank: undefined, reason: "failed" }] }
  ],
  marks: { "a:pearson": tied("a:pearson", "a", ["A/run1"]), "b:pearson": tied("b:pearson", "b", ["B/run1", "A/run1"], "bootstrap") }
}

const spec: Layouts.LayoutSpec = {
  id: "board",
  title: "Board",
  caption: "",
  label: "tab:board",
  wide: false,
  columns: [
    { key: "run", header: "Run", source: { _tag: "label" } },
    { key: "primary", header: "Primary", source: { _tag: "primary" }, align: "center" },
    { key: "a.rank", header: "Rank", source: { _tag: "rank", ranking: "a" }, group: "a" },
    { key: "a.value", header: "Pearson", name: "a (Pearson)", source: { _tag: "metric", dataset: "a", metric: "pearson" }, group: "a", number: { decimals: 2 }, markBest: true, markTied: true },
    { key: "b.rank", header: "Rank", source: { _tag: "rank", ranking: "b" }, group: "b" },
    { key: "b.value", header: "Pearson", name: "b (Pearson)", source: { _tag: "metric", dataset: "b", metric: "pearson" }, group: "b", number: { decimals: 2 }, markBest: true, markTied: true },
    { key: "c", header: "c", source: { _tag: "metric", dataset: "c", metric: "pearson" }, number: { decimals: 2 } },
    { key: "status", header: "Status", source: { _tag: "text", name: "status" }, align: "left" },
    { key: "note", header: "Note", source: { _tag: "text", name: "note" }, align: "left", prose: true }
  ],
  sortBy: "a.value",
  runs: "all"
}

const text = (t: Table.Table, id: string, key: string) => Table.cellText(Table.rows(t).find((r) => r.id === id)?.cells[key], t.columns.find((c) => c.key === key)!)

describe("a layout of several rankings", () => {
  const table = Layouts.build(results, spec)

  it("each Rank column shows its own ranking's ranks; the rows follow the sort column's ranking", () => {
    expect(Table.rows(table).map((r) => r.id)).toEqual(["A/run1", "B/run1", "C/run1"])
    expect(["A/run1", "B/run1", "C/run1"].map((id) => text(table, id, "a.rank"))).toEqual(["1", "2", "-"])
    expect(["A/run1", "B/run1", "C/run1"].map((id) => text(table, id, "b.rank"))).toEqual(["2", "1", "-"])
    expect(table.columns.find((c) => c.key === "b.rank")?.shows).toEqual({ kind: "rank", ranking: "b" })
  })

  it("primary and text columns: yes on a primary run, the run's own texts; prose kept on the column", () => {
    expect(["A/run1", "B/run1"].map((id) => text(table, id, "primary"))).toEqual(["yes", ""])
    expect(["A/run1", "B/run1", "C/run1"].map((id) => text(table, id, "note"))).toEqual(["", "see run.json", "c.txt:2: bad"])
    expect(text(table, "C/run1", "status")).toBe("failed")
    expect(table.columns.find((c) => c.key === "note")?.prose).toBe(true)
    expect(table.columns.find((c) => c.key === "status")?.prose).toBeUndefined()
  })

  it("footnotes name a column by its name, not its header (both figure columns are headed Pearson)", () => {
    const bold = table.footnotes.filter((f) => f.startsWith("Bold"))
    expect(bold).toEqual([
      "Bold in a (Pearson): not significantly different from the best ranked run (Williams' t, Holm-adjusted, p > 0.05).",
      "Bold in b (Pearson): not significantly different from the best ranked run (paired bootstrap, 1,000 resamples (seed 1), p by the normal approximation, Holm-adjusted, p > 0.05)."
    ])
  })

  it("a dataset without gold prints - and says it has no figure; a failed run's figure x", () => {
    expect(text(table, "A/run1", "c")).toBe("-")
    expect(text(table, "C/run1", "a.value")).toBe("x")
    expect(table.footnotes).toContain("-: no figure.")
    expect(table.footnotes).not.toContain("n/a: scored, but the figure is undefined (a constant run; an official figure that needs a dataset the run has no figure for).")
  })

  it("notes that explain marks replace the generated footnotes for them", () => {
    expect(table.footnotes.slice(0, 2)).toEqual(["\u2022 best figure in the column among the ranked runs.", expect.stringMatching(/^Bold in/)])
    expect(table.footnotes).toContain("* late or corrected submission.")
    const explained = Layouts.build(results, { ...spec, notes: ["* late, \u2020 after the deadline.", "\u2022 best."], explained: ["best", "late", "postDeadline", "zeroed"] })
    expect(explained.footnotes[0]).toBe("* late, \u2020 after the deadline.")
    expect(explained.footnotes[1]).toBe("\u2022 best.")
    expect(explained.footnotes).not.toContain("* late or corrected submission.")
    expect(explained.footnotes).not.toContain("\u2022 best figure in the column among the ranked runs.")
  })

  it("a Rank range column of a named ranking; the intervals' signature after their footnote when asked", () => {
    const withCi: Results = {
      ...results,
      intervals: { level: 0.95, resamples: 100, seed: 7, signature: "bootstrap|n=100|seed=7" },
      runs: results.runs.map((r) => (r.id === "B/run1" ? { ...r, rankIntervals: { "b:pearson": { low: 1, high: 2, overlapsBest: false } } } : r))
    }
    const columns = [...spec.columns.slice(0, 5), { key: "b.range", header: "Rank range", source: { _tag: "rankInterval", ranking: "b" } } as const, ...spec.columns.slice(5)]
    const t = Layouts.build(withCi, { ...spec, columns, intervalsSignature: true }, { rankIntervals: false })
    expect(["B/run1", "A/run1", "C/run1"].map((id) => text(t, id, "b.range"))).toEqual(["1-2", "-", "-"])
    const at = t.footnotes.findIndex((f) => f.startsWith("Rank range and intervals"))
    expect(at).toBeGreaterThan(0)
    expect(t.footnotes[at + 1]).toBe("Intervals' signature: bootstrap|n=100|seed=7")
    expect(Layouts.build(withCi, { ...spec, columns }, { rankIntervals: false }).footnotes.some((f) => f.startsWith("Intervals' signature"))).toBe(false)
  })

  it("no runs: one empty section, so a page still has its table body", () => {
    const empty = Layouts.build({ ...results, runs: [], rankings: results.rankings.map((r) => ({ ...r, entries: [] })) }, spec)
    expect(empty.sections).toEqual([{ title: undefined, rows: [] }])
    expect(Markdown.render(empty)).toContain("| Run")
  })
})
