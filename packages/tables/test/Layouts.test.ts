import * as fs from "node:fs"
import * as path from "node:path"
import { Registry } from "@stseval/formats"
import { Pearson } from "@stseval/metrics"
import { describe, expect, it } from "vitest"
import { Layouts, Markdown, PresetIds, Presets, Table } from "../src/index.js"
import type { Results } from "../src/Results.js"
import type * as ResultsModule from "../src/Results.js"
import { hostileResults } from "./fixtures.js"
import { handIntervals, hasShared, marked, officialBy, pearson, ranked, readGold, runsWithCorrelations, runWithPearson, sharedDir, syntheticGold } from "./helpers.js"
import type { HandMade } from "./helpers.js"

if (!hasShared) console.warn("report: ../shared is absent; STS 2014 / 2017 layout tests use synthetic gold instead of the real gold files")

/** Gold of a dataset: the real file when ../shared is there, else synthetic gold of the same size. */
const gold = (file: string, n: number, seed: number): Float64Array => {
  const p = path.join(sharedDir, "data", file)
  return hasShared && fs.existsSync(p) ? readGold(p) : syntheticGold(n, seed)
}

const cell = (t: Table.Table, id: string, key: string): string => {
  const row = Table.rows(t).find((r) => r.id === id)
  if (row === undefined) throw new Error(`no row ${id}`)
  const col = t.columns.find((c) => c.key === key)
  if (col === undefined) throw new Error(`no column ${key}`)
  return Table.cellText(row.cells[key], col)
}
const marksOf = (t: Table.Table, id: string, key: string) => Table.rows(t).find((r) => r.id === id)?.cells[key]?.marks ?? []
const order = (t: Table.Table) => Table.rows(t).map((r) => r.id)

// ---------------------------------------------------------------------------------------------
// STS 2014 Table 3 (SPEC §1): LIPN-run1 without OnWN has 0.508; LIPN-run2 with deft-forum only,
// r = 0.084, has 0.010.
// ---------------------------------------------------------------------------------------------
const sts2014 = [
  ["deft-forum", 450],
  ["deft-news", 300],
  ["headlines", 750],
  ["images", 750],
  ["OnWN", 750],
  ["tweet-news", 750]
] as const

const sts2014Runs = (): HandMade => {
  const golds = sts2014.map(([d, n], i) => gold(`sts2014/test-en/STS.gs.${d}.txt`, n, 40 + i))
  const make = (id: string, team: string, run: string, rs: Partial<Record<string, number>>, official: number, extra: object = {}) => {
    const scores: Record<string, Float64Array> = {}
    const datasets: Record<string, { pearson: number; pairs: number }> = {}
    sts2014.forEach(([d], i) => {
      const r = rs[d]
      if (r === undefined) return
      scores[d] = runWithPearson(golds[i], r, 7 * i + id.length)
      // the figure the scoring engine would report, computed from the run's scores
      datasets[d] = { pearson: Pearson.pearsonRaw(golds[i], scores[d]), pairs: golds[i].length }
    })
    return { id, team, run, primary: true, datasets, aggregates: { official }, scores, ...extra }
  }
  const all = (r: number) => Object.fromEntries(sts2014.map(([d]) => [d, r]))
  return {
    edition: "sts2014",
    datasets: sts2014.map(([d, n], i) => ({ name: d, pairs: n, gold: golds[i] })),
    runs: [
      // Hand-worked weighted means (weights 450, 300, 750 x 4; total 3750):
      // five datasets at 0.635, OnWN missing = 0: 0.635 * 3000 / 3750 = 0.508
      make("LIPN-run1", "LIPN", "run1", { ...all(0.635), OnWN: undefined }, (0.635 * 3000) / 3750),
      // deft-forum only at 0.084: 0.084 * 450 / 3750 = 0.01008
      make("LIPN-run2", "LIPN", "run2", { "deft-forum": 0.084 }, (0.084 * 450) / 3750),
      // every dataset at 0.7: weighted mean 0.7; a late run
      make("Late-run1", "Late", "run1", all(0.7), 0.7, { late: true }),
      make("Tie-run1", "Tie", "run1", all(0.635), 0.508)
    ]
  }
}
/** ranked by the official figure, as scoring ranks (every run) */
const sts2014Results = (): Results => ranked(sts2014Runs())

describe("STS 2014 Table 3", () => {
  const t = Presets.preset("sts2014-table3", sts2014Results())
  it("prints per-dataset Pearson to 3 decimals, '-' for a dataset not submitted", () => {
    expect(cell(t, "LIPN-run1", "headlines")).toBe("0.635")
    expect(cell(t, "LIPN-run1", "OnWN")).toBe("-")
    expect(cell(t, "LIPN-run2", "deft-forum")).toBe("0.084")
    for (const d of ["deft-news", "headlines", "images", "OnWN", "tweet-news"]) expect(cell(t, "LIPN-run2", d)).toBe("-")
  })
  it("prints the published weighted means 0.508 and 0.010, ranks with ties (1, 2, 2, 4)", () => {
    expect(cell(t, "LIPN-run1", "wmean")).toBe("0.508")
    expect(cell(t, "LIPN-run2", "wmean")).toBe("0.010")
    expect(order(t)).toEqual(["Late-run1", "LIPN-run1", "Tie-run1", "LIPN-run2"])
    expect(order(t).map((id) => cell(t, id, "rank"))).toEqual(["1", "2", "2", "4"])
  })
  it("marks the late run with * and explains marks and '-' in footnotes", () => {
    expect(Table.rows(t).find((r) => r.id === "Late-run1")?.marks).toEqual(["late"])
    const md = Markdown.render(t)
    expect(md).toContain("Late/run1\\*")
    expect(t.footnotes).toContain("* late or corrected submission.")
    expect(t.footnotes.some((f) => f.startsWith("-:"))).toBe(true)
    expect(t.wide).toBe(true)
    expect(t.columns.map((c) => c.header)).toEqual(["Run", "deft-forum", "deft-news", "headlines", "images", "OnWN", "tweet-news", "Weighted mean", "Rank"])
  })
  it("options: choose and order columns, decimals, caption; a ranking of primary runs lists primary runs only", () => {
    const results = sts2014Runs()
    const r = ranked({ ...results, runs: results.runs.map((x) => (x.id === "LIPN-run2" ? { ...x, primary: false } : x)) }, [officialBy], { primaryOnly: true })
    const o = Presets.preset("sts2014-table3", r, { columns: ["rank", "run", "wmean"], decimals: 4, caption: "Mine" })
    expect(o.columns.map((c) => c.key)).toEqual(["rank", "run", "wmean"])
    expect(order(o)).not.toContain("LIPN-run2")
    expect(cell(o, "LIPN-run1", "wmean")).toBe("0.5080")
    expect(o.caption).toBe("Mine")
    expect(() => Presets.preset("sts2014-table3", r, { columns: ["nope"] })).toThrow(/unknown column nope/)
  })
  it("options: sort by another column: rows by its values (runs without it last); the ranks stay the ranking's (a layout never ranks)", () => {
    const o = Presets.preset("sts2014-table3", sts2014Results(), { sortBy: "OnWN" })
    expect(order(o)).toEqual(["Late-run1", "Tie-run1", "LIPN-run1", "LIPN-run2"])
    expect(order(o).map((id) => cell(o, id, "rank"))).toEqual(["1", "2", "2", "4"])
  })
  it("the order and ranks are the results' rankings, never sorted again: a post-deadline run with the best figure is listed last, unranked", () => {
    const runs = sts2014Runs()
    const late = ranked({ ...runs, runs: runs.runs.map((x) => (x.id === "LIPN-run2" ? { ...x, postDeadline: true, aggregates: { official: 0.9 } } : x)) })
    const t = Presets.preset("sts2014-table3", late)
    expect(order(t)).toEqual(["Late-run1", "LIPN-run1", "Tie-run1", "LIPN-run2"])
    expect(order(t).map((id) => cell(t, id, "rank"))).toEqual(["1", "2", "2", "-"])
    expect(cell(t, "LIPN-run2", "wmean")).toBe("0.900")
    // a ranking that orders runs otherwise than their figures is followed as it is
    const reversed: Results = { ...late, rankings: late.rankings.map((k) => ({ ...k, entries: [...k.entries].reverse() })) }
    expect(order(Presets.preset("sts2014-table3", reversed))).toEqual(["LIPN-run2", "Tie-run1", "LIPN-run1", "Late-run1"])
  })
})

// ---------------------------------------------------------------------------------------------
// STS 2017 Table 10: ECNU (primary 73.16) and the token cosine baseline (53.70), per track x 100.
// ---------------------------------------------------------------------------------------------
const tracks = ["track1.ar-ar", "track2.ar-en", "track3.es-es", "track4a.es-en", "track4b.es-en", "track5.en-en", "track6.tr-en"] as const
const ECNU = [74.4, 74.93, 85.59, 81.31, 33.63, 85.18, 77.06]
const BASELINE = [60.45, 51.55, 71.17, 62.2, 3.2, 72.78, 54.56]

const sts2017Results = (): Results => marked(ranked(sts2017Runs()))
const sts2017Runs = (): HandMade => {
  const golds = tracks.map((t, i) => gold(`sts2017/gold/STS.gs.${t}.txt`, 250, 70 + i))
  const make = (id: string, team: string, rs: ReadonlyArray<number | undefined>, extra: object = {}, forced: Record<string, Float64Array> = {}) => {
    const scores: Record<string, Float64Array> = {}
    const datasets: Record<string, { pearson: number }> = {}
    tracks.forEach((t, i) => {
      const r = rs[i]
      if (r === undefined) return
      scores[t] = forced[t] ?? runWithPearson(golds[i], r / 100, 31 * i + id.length)
      datasets[t] = { pearson: Pearson.pearsonRaw(golds[i], scores[t]) }
    })
    const full = rs.every((r) => r !== undefined)
    // the published Primary: unweighted mean of all seven tracks (SPEC §1)
    const primary = full ? (rs as Array<number>).reduce((a, b) => a + b, 0) / 700 : undefined
    return { id, team, run: "", primary: true, datasets, aggregates: { official: primary }, scores, ...extra }
  }
  const ecnu = make("ECNU", "ECNU", ECNU)
  return {
    edition: "sts2017",
    datasets: tracks.map((t, i) => ({ name: t, header: t.split(".")[1], pairs: 250, gold: golds[i] })),
    runs: [
      ecnu,
      // within 0.5 points of ECNU on en-en: not significantly different (bold)
      make("Close", "Close", [50, 50, 50, 50, 20, 84.68, 50]),
      // identical scores to ECNU on ar-ar: p = 1, bold
      make("Copy", "Copy", [74.4, 40, 40, 40, 10, 40, 40], {}, { "track1.ar-ar": ecnu.scores["track1.ar-ar"] }),
      // a late run without track 6: no primary, per-track cells kept
      make("Late", "Late", [60, 60, 60, 60, 10, 60, undefined], { late: true, corrected: true }),
      make("baseline", "baseline-tokencos", BASELINE, { section: "Baselines" })
    ]
  }
}

describe("STS 2017 Table 10", () => {
  const t = Presets.preset("sts2017-table10", sts2017Results(), { matrix: false })
  it("reproduces the published rows: r x 100 per track and the Primary column", () => {
    expect(tracks.map((d) => cell(t, "ECNU", d))).toEqual(["74.40", "74.93", "85.59", "81.31", "33.63", "85.18", "77.06"])
    expect(cell(t, "ECNU", "primary")).toBe("73.16")
    expect(tracks.map((d) => cell(t, "baseline", d))).toEqual(["60.45", "51.55", "71.17", "62.20", "3.20", "72.78", "54.56"])
    expect(cell(t, "baseline", "primary")).toBe("53.70")
  })
  it("a run without every track: no Primary, per-track cells kept, marked *", () => {
    expect(cell(t, "Late", "primary")).toBe("n/a")
    expect(cell(t, "Late", "track1.ar-ar")).toBe("60.00")
    expect(cell(t, "Late", "track6.tr-en")).toBe("-")
    expect(Table.rows(t).find((r) => r.id === "Late")?.marks).toEqual(["late"])
  })
  it("bullet on the best per track; bold for runs not significantly different (Williams' t)", () => {
    expect(marksOf(t, "ECNU", "track5.en-en")).toEqual(["best", "tied"])
    expect(marksOf(t, "Close", "track5.en-en")).toEqual(["tied"]) // 84.68 vs 85.18, n = 250
    expect(marksOf(t, "Late", "track5.en-en")).toEqual([]) // 60 vs 85.18
    expect(marksOf(t, "Copy", "track1.ar-ar")).toContain("tied") // identical to the best
    expect(marksOf(t, "baseline", "track5.en-en")).toEqual([])
    // each rule's footnote names its columns (issue 32): Williams' t in the tracks, the bootstrap in Primary
    expect(t.footnotes.filter((f) => f.startsWith("Bold"))).toEqual([
      "Bold in Primary: not significantly different from the best ranked run (paired bootstrap stratified by dataset (unweighted mean), 1,000 resamples (seed 12345), p by the normal approximation, Holm-adjusted, p > 0.05).",
      "Bold in ar-ar, ar-en, es-es, es-en, en-en, tr-en: not significantly different from the best ranked run (Williams' t, Holm-adjusted, p > 0.05)."
    ])
  })
  it("the Primary column gets its marks too: the stratified bootstrap of the mean over the tracks", () => {
    expect(marksOf(t, "ECNU", "primary")).toEqual(["best", "tied"])
    // 50.67 vs 73.16 over 1,750 pairs: far apart
    expect(marksOf(t, "Close", "primary")).toEqual([])
    // the footnote says the test, the resamples, the p-value's method and the correction (issue 35)
    expect(t.footnotes).toContain(
      "Bold in Primary: not significantly different from the best ranked run (paired bootstrap stratified by dataset (unweighted mean), 1,000 resamples (seed 12345), p by the normal approximation, Holm-adjusted, p > 0.05)."
    )
  })
  it("the bullet and the bold go to the best RANKED run: a post-deadline run with higher figures is listed last, never the best, never bold", () => {
    const runs = sts2017Runs()
    const ecnu = runs.runs[0]
    const late = marked(ranked({ ...runs, runs: [...runs.runs, { ...ecnu, id: "After", team: "After", postDeadline: true, aggregates: { official: 0.8 }, datasets: { ...ecnu.datasets, "track5.en-en": { pearson: 0.9 } } }] }))
    const t2 = Presets.preset("sts2017-table10", late, { matrix: false })
    // ranked by Primary first; then the runs not ranked, in run order (After: post-deadline; Late: no Primary)
    expect(t2.sections[0].rows.map((r) => r.id)).toEqual(["ECNU", "Close", "Copy", "After", "Late"])
    expect(marksOf(t2, "ECNU", "primary")).toContain("best")
    expect(marksOf(t2, "After", "primary")).not.toContain("best")
    expect(marksOf(t2, "ECNU", "track5.en-en")).toContain("best")
    // the same scores as ECNU's, yet not bold: a run the ranking does not rank is never compared
    expect(marksOf(t2, "After", "track5.en-en")).toEqual([])
    expect(late.marks?.["track5.en-en:pearson"]?.best).toBe("ECNU")
  })
  it("sections: participants first, baselines after under their own header (ranked as scoring ranks them)", () => {
    expect(t.sections.map((s) => s.title)).toEqual(["Participants", "Baselines"])
    expect(t.sections[0].rows.map((r) => r.id)).toEqual(["ECNU", "Close", "Copy", "Late"])
  })
})

describe("significance marks against cocor's reference (Williams' t)", () => {
  // cocor: r_jk 0.7, r_jh 0.6, r_kh 0.5, n 250 -> t 2.313232284, p 0.02153191539 (two-sided)
  const g = gold("sts2017/gold/STS.gs.track5.en-en.txt", 250, 5)
  const [A, B] = runsWithCorrelations(g, 0.7, 0.6, 0.5, 3)
  const hand: HandMade = {
    edition: "sts2017",
    datasets: [{ name: "track5.en-en", header: "en-en", gold: g }],
    runs: [
      { id: "A", team: "A", run: "", primary: true, datasets: { "track5.en-en": { pearson: pearson(A, g) } }, aggregates: {}, scores: { "track5.en-en": A } },
      { id: "B", team: "B", run: "", primary: true, datasets: { "track5.en-en": { pearson: pearson(B, g) } }, aggregates: {}, scores: { "track5.en-en": B } }
    ]
  }
  const byTrack = { ranking: "official", metric: "pearson", figures: ["track5.en-en:pearson", "aggregate:official"], value: (r: ResultsModule.RunResult) => r.datasets["track5.en-en"]?.["pearson"] as number | undefined }
  const results = ranked(hand, [byTrack])
  it("the fixture has cocor's correlations", () => {
    expect(pearson(A, g)).toBeCloseTo(0.7, 12)
    expect(pearson(B, g)).toBeCloseTo(0.6, 12)
    expect(pearson(A, B)).toBeCloseTo(0.5, 12)
  })
  it("p = 0.0215: B is not bold at alpha 0.05, bold at alpha 0.01; the matrix holds cocor's p", () => {
    const spec = Presets.sts2017Table10(results)
    const at05 = Layouts.build(marked(results, { matrix: 50 }), spec)
    expect(marksOf(at05, "B", "track5.en-en")).toEqual([])
    const at01 = Layouts.build(marked(results, { alpha: 0.01 }), spec)
    expect(marksOf(at01, "B", "track5.en-en")).toEqual(["tied"])
    expect(at01.footnotes).toContain("Bold: not significantly different from the best ranked run (Williams' t, Holm-adjusted, p > 0.01).")
    expect(at05.pValues?.[0]?.p[0][1]).toBeCloseTo(0.02153191539, 8)
    // marks are read, never computed: without them, no bold
    expect(Table.rows(Layouts.build(results, spec)).some((r) => Object.values(r.cells).some((c) => c.marks.includes("tied")))).toBe(false)
  })
})

// ---------------------------------------------------------------------------------------------
// SICK Tables 6 and 7, STS Benchmark Table 14: figures given as the scoring engine reports them.
// ---------------------------------------------------------------------------------------------
describe("SICK Tables 6 and 7", () => {
  // ECNU's primary-run figures as published: r 0.828, rho 0.769, MSE 0.325, accuracy 83.641
  const sick = (id: string, primary: boolean, rel: [number, number, number] | undefined, acc: number | undefined): Results["runs"][number] => ({
    id,
    team: id.split("_")[0],
    run: id.split("_")[1] ?? "",
    label: id,
    primary,
    datasets: {
      relatedness: rel === undefined ? { reason: "NA in every row" } : { pearson: rel[0], spearman: rel[1], mse: rel[2] },
      entailment: acc === undefined ? { reason: "NA in every row" } : { accuracy: acc }
    },
    aggregates: {}
  })
  const hand: HandMade = {
    edition: "sick2014",
    datasets: [{ name: "relatedness" }, { name: "entailment" }],
    runs: [
      sick("ECNU_run1", true, [0.8279, 0.7689, 0.3250], 83.641),
      sick("Yamraj_run1", true, [0.5353, 0.5406, 2.6649], 70.753),
      sick("ECNU_run2", false, [0.9, 0.9, 0.1], 90),
      sick("OnlyRel_run1", true, [0.6, 0.55, 0.8], undefined)
    ]
  }
  const sickRankings = [
    { ranking: "relatedness", metric: "pearson", figures: ["relatedness:pearson"], value: (r: ResultsModule.RunResult) => r.datasets["relatedness"]?.["pearson"] as number | undefined },
    { ranking: "entailment", metric: "accuracy", figures: ["entailment:accuracy"], value: (r: ResultsModule.RunResult) => r.datasets["entailment"]?.["accuracy"] as number | undefined }
  ]
  // as the papers: primary runs only
  const results = ranked(hand, sickRankings, { primaryOnly: true })
  it("Table 7: r, rho, MSE of primary runs, ranked by r; best MSE is the smallest", () => {
    const t = Presets.preset("sick2014-table7", results)
    expect(order(t)).toEqual(["ECNU_run1", "OnlyRel_run1", "Yamraj_run1"])
    expect(["pearson", "spearman", "mse"].map((k) => cell(t, "ECNU_run1", k))).toEqual(["0.828", "0.769", "0.325"])
    expect(cell(t, "Yamraj_run1", "mse")).toBe("2.665")
    expect(marksOf(t, "ECNU_run1", "mse")).toEqual(["best"])
    expect(t.columns.map((c) => c.header)).toEqual(["Run", "r", "\u03c1", "MSE", "Rank"])
  })
  it("Table 6: accuracy of primary runs, a run without entailment not ranked", () => {
    const t = Presets.preset("sick2014-table6", results)
    expect(order(t)).toEqual(["ECNU_run1", "Yamraj_run1", "OnlyRel_run1"])
    expect(cell(t, "ECNU_run1", "accuracy")).toBe("83.641")
    expect(cell(t, "OnlyRel_run1", "accuracy")).toBe("n/a")
    expect(cell(t, "OnlyRel_run1", "rank")).toBe("-")
    expect(cell(t, "Yamraj_run1", "rank")).toBe("2")
  })
  it("all runs when they were ranked so", () => {
    const t = Presets.preset("sick2014-table6", ranked(hand, sickRankings, { primaryOnly: false }))
    expect(order(t)[0]).toBe("ECNU_run2")
  })
})

describe("STS Benchmark Table 14", () => {
  const run = (id: string, section: string, dev: number, test: number) => ({
    id,
    team: id,
    run: "",
    primary: true,
    section,
    datasets: { dev: { pearson: dev }, test: { pearson: test } },
    aggregates: { official: test }
  })
  it("dev and test r x 100 grouped by section, sections in the given order", () => {
    const hand: HandMade = {
      edition: "stsb",
      datasets: [{ name: "dev" }, { name: "test" }],
      runs: [
        run("ECNU", "Participants", 0.847, 0.81),
        run("Doc2Vec", "Sentence-level baselines", 0.724, 0.698),
        run("Averaged word embeddings", "Averaged-embedding baselines", 0.52, 0.406),
        run("BIT", "Participants", 0.829, 0.809)
      ]
    }
    const results = ranked(hand, [{ ranking: "official", metric: "pearson", figures: ["test:pearson", "aggregate:official"], value: (r) => r.aggregates.official }])
    const t = Presets.preset("stsb-table14", results, { sectionOrder: ["Participants", "Sentence-level baselines", "Averaged-embedding baselines"] })
    expect(t.sections.map((s) => s.title)).toEqual(["Participants", "Sentence-level baselines", "Averaged-embedding baselines"])
    expect(t.sections[0].rows.map((r) => r.id)).toEqual(["ECNU", "BIT"])
    expect(cell(t, "ECNU", "dev")).toBe("84.70")
    expect(cell(t, "BIT", "test")).toBe("80.90")
    expect(marksOf(t, "ECNU", "test")).toEqual(["best"])
  })
})

describe("intervals (--ci) in a layout", () => {
  /** hostileResults with hand-made intervals: the best run [1, 1], h0 overlapping it, the rest not. */
  const withIntervals = (): ResultsModule.Results =>
    handIntervals(
      hostileResults(),
      (r, k) => ({
        ...r,
        aggregateIntervals: { official: { low: (r.aggregates.official ?? 0) - 0.02, high: (r.aggregates.official ?? 0) + 0.02 } },
        rankIntervals: { "aggregate:official": r.id === "best" ? { low: 1, high: 2, overlapsBest: true } : r.id === "h7" ? { low: 1, high: 3, overlapsBest: true } : { low: k, high: k + 2, overlapsBest: false } }
      }),
      "method:percentile-bootstrap|..."
    )

  it("adds a Rank range column (after the rank, or last), the interval on each figure, ≈ on the best group, and footnotes", () => {
    const t = Presets.preset("sts2017-table10", withIntervals())
    expect(t.columns.map((c) => c.key).slice(2, 4)).toEqual(["rank", "rankRange"])
    const rows = Table.rows(t)
    const best = rows.find((r) => r.id === "best")!
    expect(Table.cellText(best.cells["rankRange"], t.columns[3])).toBe("1-2")
    // the best run's own interval overlaps itself: no ≈ on it (issue 32), only on the others
    expect(best.marks).not.toContain("overlapsBest")
    expect(rows.find((r) => r.id === "h7")!.marks).toContain("overlapsBest")
    expect(rows.find((r) => r.id === "h0")!.marks).not.toContain("overlapsBest")
    const primary = best.cells["primary"]
    const ci = primary._tag === "number" ? primary.ci : undefined
    expect(ci?.low).toBeCloseTo(0.805, 12)
    expect(ci?.high).toBeCloseTo(0.845, 12)
    // the post-deadline run is not ranked: no rank range, no mark
    expect(rows.find((r) => r.id === "h2")!.cells["rankRange"]._tag).toBe("missing")
    expect(t.footnotes.some((f) => f.startsWith("\u2248 the run's 95% rank interval overlaps the best run's"))).toBe(true)
    expect(t.footnotes).toContain("Rank range and intervals: 95% percentile bootstrap over the pairs, resampled within each dataset (1000 resamples, seed 12345); not over annotators or datasets.")
  })

  it("no Rank range without intervals, with rankIntervals: false, or when sorted by a figure not ranked by the intervals", () => {
    expect(Presets.preset("sts2017-table10", hostileResults()).columns.map((c) => c.key)).not.toContain("rankRange")
    expect(Presets.preset("sts2017-table10", withIntervals(), { rankIntervals: false }).columns.map((c) => c.key)).not.toContain("rankRange")
    expect(Presets.preset("sts2017-table10", withIntervals(), { sortBy: "track5.en-en" }).columns.map((c) => c.key)).not.toContain("rankRange")
  })
})

describe("the layouts of an edition", () => {
  it("its published tables, else the generic table of each ranking, whatever its family", () => {
    const sick = Registry.get("sick2014")!
    expect(Presets.forEdition(sick)).toEqual(["sick2014-table7", "sick2014-table6"])
    // a SICK-family edition without published tables gets the generic tables, not SICK's
    expect(Presets.forEdition({ ...sick, published: { style: "r3" } })).toEqual(["generic:relatedness", "generic:entailment"])
    expect(Presets.forEdition(Registry.get("sts2015")!)).toEqual(["generic:similarity"])
    expect(Presets.runsOf("sick2014-table7")).toBe("primary")
    expect(Presets.runsOf("generic:similarity")).toBe("all")
  })

  it("the generic table of a ranking over several datasets: every metric it reports per dataset, headed by the metric's symbol, the official figure by its rule, the rank", () => {
    const hand: HandMade = {
      edition: "user-edition",
      datasets: ["a", "b"].map((name) => ({ name, metric: "spearman", metrics: ["spearman", "pearson"], subtask: "similarity" })),
      runs: [
        { id: "X", team: "X", run: "run1", primary: true, datasets: { a: { spearman: 0.8, pearson: 0.7 }, b: { spearman: 0.6, pearson: 0.65 } }, aggregates: { official: 0.7 } },
        { id: "Y", team: "Y", run: "run1", primary: true, datasets: { a: { spearman: 0.9, pearson: 0.85 }, b: { spearman: 0.7, pearson: 0.66 } }, aggregates: { official: 0.8 } }
      ]
    }
    const results = ranked(hand, [{ ranking: "official", metric: "spearman", figures: ["aggregate:official"], value: (r) => r.aggregates.official }])
    const t = Presets.preset("generic:similarity", { ...results, rankings: results.rankings.map((k) => ({ ...k, rule: "mean" })) })
    expect(t.columns.map((c) => [c.key, c.group ?? "", c.header])).toEqual([
      ["run", "", "Run"],
      ["a", "a", "rho"],
      ["a.pearson", "a", "r"],
      ["b", "b", "rho"],
      ["b.pearson", "b", "r"],
      ["official", "", "Mean (official)"],
      ["rank", "", "Rank"]
    ])
    expect(t.caption).toBe("Spearman, Pearson of the runs on each dataset, the official figure and the rank by Spearman (rho).")
    expect(order(t)).toEqual(["Y", "X"])
    expect(marksOf(t, "Y", "official")).toEqual(["best"])
    expect(marksOf(t, "Y", "a")).toEqual(["best"])
    // the bullet goes to the ranked metric only
    expect(marksOf(t, "Y", "a.pearson")).toEqual([])
  })
})

describe("PresetIds", () => {
  it("lists the presets' ids in their order (the CLI's help reads it without loading the layouts)", () => {
    expect(Object.keys(Presets.presets)).toEqual([...PresetIds.ids])
  })
})
