/**
 * Marks: the best RANKED run of each figure and the runs tied with it, decided once. The p-value of
 * Williams' t is checked against cocor's own output (../shared/reference, also written here so the
 * test runs without it); which test each figure gets follows its metric.
 */
import { Pearson } from "@stseval/metrics"
import { Rank } from "@stseval/scoring"
import { Compare } from "@stseval/significance"
import * as Marks from "@stseval/scoring/Marks"
import type { ScoredRun } from "@stseval/scoring"
import { describe, expect, it } from "vitest"
import { runsWithCorrelations } from "@stseval/vitest-config/random"
import { goldOf, lines, mulberry32, scoreRun, semrelToyEdition, submission, toyEdition } from "./helpers.js"

const results = (edition: ReturnType<typeof toyEdition>, runs: ReadonlyArray<ScoredRun.ScoredRun>) => ({ edition, runs, ranked: Rank.rank(runs, { primaryOnly: false }) })

// one dataset: the official figure is that dataset's
const single = toyEdition({
  datasets: [{ name: "a", gold: "STS.gs.a.txt", goldFormat: "sts-gs", run: "STS.output.a.txt" }],
  ranking: [{ subtask: "similarity", metric: "pearson", aggregate: "single" }]
})
const rand = mulberry32(11)
const goldA = Float64Array.from({ length: 250 }, () => Math.round(rand() * 50) / 10)
const goldSingle = goldOf(single, { a: lines(Array.from(goldA)) })
const runOf = (team: string, scores: Float64Array, meta: object = {}) =>
  scoreRun(single, goldSingle, submission({ "STS.output.a.txt": lines(Array.from(scores)) }, { team, ...meta }))

describe("Marks on one dataset (Williams' t, as STS 2017)", () => {
  // cocor (../shared/reference/cocor-dependent-overlapping.tsv): r_jk 0.7, r_jh 0.6, r_kh 0.5, n 250,
  // two-sided williams1959: t 2.313232284, p 0.02153191539
  const [A, B] = runsWithCorrelations(goldA, 0.7, 0.6, 0.5, 3)
  const scored = [runOf("A", A), runOf("B", B)]

  it("the fixture has cocor's correlations", () => {
    expect(Pearson.pearsonRaw(goldA, A)).toBeCloseTo(0.7, 12)
    expect(Pearson.pearsonRaw(goldA, B)).toBeCloseTo(0.6, 12)
    expect(Pearson.pearsonRaw(A, B)).toBeCloseTo(0.5, 12)
  })

  it("p = 0.0215: B is not tied at alpha 0.05, tied at 0.01; the matrix holds cocor's p", () => {
    const at05 = Marks.find(Marks.compute(results(single, scored), { matrix: 10 }), "a:pearson")!
    expect(at05).toMatchObject({ ranking: "official", dataset: "a", metric: "pearson", test: "williams1959", best: "A/run1", tied: ["A/run1"], compared: 1, failed: [] })
    expect(at05.matrix?.runs).toEqual(["A/run1", "B/run1"])
    expect(at05.matrix?.p[0][1]).toBeCloseTo(0.02153191539, 8)
    const at01 = Marks.find(Marks.compute(results(single, scored), { alpha: 0.01 }), "a:pearson")!
    expect(at01.tied).toEqual(["A/run1", "B/run1"])
  })

  it("the best is the best RANKED run: a post-deadline run with the higher figure is neither the best nor compared", () => {
    const late = [runOf("A", A, { postDeadline: true }), runOf("B", B)]
    const r = results(single, late)
    // the ranking lists A (post-deadline) unranked, after B
    expect(r.ranked.rankings[0].entries.map((e) => [e.meta.id, e.rank])).toEqual([["B/run1", 1], ["A/run1", undefined]])
    const m = Marks.find(Marks.compute(r, { alpha: 0.01 }), "a:pearson")!
    expect(m.best).toBe("B/run1")
    // at alpha 0.01 A would be tied with B (p = 0.0215), but a run not ranked is never compared
    expect(m.tied).toEqual(["B/run1"])
    expect(m.compared).toBe(0)
  })

  it("Holm over the comparisons with the best (default), or none", () => {
    // three runs against the best: a p-value of 0.0215 among three is not significant after Holm
    const [, C] = runsWithCorrelations(goldA, 0.7, 0.3, 0.2, 5)
    const three = [runOf("A", A), runOf("B", B), runOf("C", C), runOf("D", A.map((x) => 2 * x + 1))]
    const holm = Marks.find(Marks.compute(results(single, three)), "a:pearson")!
    const none = Marks.find(Marks.compute(results(single, three), { correction: "none" }), "a:pearson")!
    expect(holm.correction).toBe("holm")
    // D is A up to a linear map: p = 1, tied either way; C is far (p tiny) and never tied
    expect(none.tied).toEqual(["A/run1", "D/run1"])
    // Holm: p_B (0.0215) is the middle of three p-values (C's tiny, D's 1): 2 x 0.0215 = 0.043 < 0.05, still different
    expect(holm.tied).toEqual(["A/run1", "D/run1"])
    const holm01 = Marks.find(Marks.compute(results(single, three), { alpha: 0.04 }), "a:pearson")!
    const none01 = Marks.find(Marks.compute(results(single, three), { alpha: 0.04, correction: "none" }), "a:pearson")!
    expect(none01.tied).toEqual(["A/run1", "D/run1"])
    // in ranking order: D (r 0.7, as A) before B (0.6)
    expect(holm01.tied).toEqual(["A/run1", "D/run1", "B/run1"])
    expect(holm.compared).toBe(3)
  })

  it("a test asked for is used where it applies; a failed run is not compared", () => {
    const failed = scoreRun(single, goldSingle, submission({ "STS.output.a.txt": "x\n" }, { team: "Bad" }))
    const m = Marks.find(Marks.compute(results(single, [runOf("A", A), runOf("B", B), failed]), { test: "steiger1980" }), "a:pearson")!
    expect(m.test).toBe("steiger1980")
    expect(m.compared).toBe(1)
    expect(m.tied).not.toContain("Bad/run1")
  })
})

describe("the test follows the figure (testFor)", () => {
  it("Pearson on one dataset: Williams' t; any other metric: the paired bootstrap; several datasets: the stratified bootstrap", () => {
    expect(Compare.testFor("pearson", 1)).toBe("williams1959")
    expect(Compare.testFor("spearman", 1)).toBe("bootstrap")
    expect(Compare.testFor("pearson", 7)).toBe("bootstrap")
    expect(Compare.testFor("spearman", 1, "steiger1980")).toBe("bootstrap")
    expect(Compare.testFor("pearson", 1, "permutation")).toBe("permutation")
    // any other metric of the registry: the paired bootstrap on it (labels included)
    expect(Compare.testFor("mse", 1)).toBe("bootstrap")
    expect(Compare.testFor("kendall", 1)).toBe("bootstrap")
    expect(Compare.testFor("accuracy", 1)).toBe("bootstrap")
  })
})

describe("the rule in words (describe)", () => {
  it("writes the resamples with their digits grouped as en-US does (without Intl)", () => {
    for (const resamples of [1, 999, 1000, 9999, 10_000, 123_456, 1_000_000, 10_000_000, 2 ** 53 - 1, 1000.5]) {
      const rule = Marks.describe({ test: "bootstrap", correction: "holm", alpha: 0.05, resamples, seed: 12345, pMethod: "normal" })
      expect(rule).toBe(`paired bootstrap, ${resamples.toLocaleString("en-US")} resamples (seed 12345), p by the normal approximation, Holm-adjusted, p > 0.05`)
    }
  })
})

describe("the official figure over several datasets gets marks (the stratified bootstrap of its rule)", () => {
  const edition = toyEdition({ ranking: [{ subtask: "similarity", metric: "pearson", aggregate: "mean" }], missingDataset: "no-official-score" })
  const u = mulberry32(5)
  const g = { a: Float64Array.from({ length: 120 }, () => Math.round(u() * 50) / 10), b: Float64Array.from({ length: 120 }, () => Math.round(u() * 50) / 10) }
  const gold = goldOf(edition, { a: lines(Array.from(g.a)), b: lines(Array.from(g.b)) })
  const noisy = (x: Float64Array, size: number, seed: number) => {
    const r = mulberry32(seed)
    return x.map((v) => v + size * (r() + r() + r() - 1.5))
  }
  // Close2 is Close1 with a little more noise of its own: close figures, strongly related runs
  const run = (team: string, size: number, seed: number, extra = 0, only?: "a") =>
    scoreRun(
      edition,
      gold,
      submission(
        {
          "STS.output.a.txt": lines(Array.from(noisy(noisy(g.a, size, seed), extra, seed + 10))),
          ...(only === undefined ? { "STS.output.b.txt": lines(Array.from(noisy(noisy(g.b, size, seed + 1), extra, seed + 11))) } : {})
        },
        { team }
      )
    )
  const runs = [run("Close1", 1, 1), run("Close2", 1, 1, 0.25), run("Far", 6, 5), run("OneTrack", 1, 7, 0, "a")]
  const m = Marks.find(Marks.compute(results(edition, runs)), "aggregate:official")!

  it("bootstrap over both datasets, unweighted as the rule; close runs tied, a far run not", () => {
    expect(m).toMatchObject({ ranking: "official", metric: "pearson", test: "bootstrap", aggregate: "unweighted" })
    const ranked = results(edition, runs).ranked.rankings[0].entries.filter((e) => e.rank !== undefined).map((e) => e.meta.id)
    expect(m.best).toBe(ranked[0])
    expect(m.tied).toContain("Close1/run1")
    expect(m.tied).toContain("Close2/run1")
    expect(m.tied).not.toContain("Far/run1")
    expect(m.signature).toMatch(/bootstrap/)
  })

  it("a run without an official figure is not compared; every dataset's own figure is marked too", () => {
    expect(m.compared).toBe(2)
    expect([...m.tied, ...m.failed.map((f) => f.id)]).not.toContain("OneTrack/run1")
    expect(Marks.find(Marks.compute(results(edition, runs)), "a:pearson")?.test).toBe("williams1959")
    expect(Marks.compute(results(edition, runs)).figures.map((f) => f.key)).toEqual(["aggregate:official", "a:pearson", "b:pearson"])
  })

  it("on a dataset, a run unranked only for lacking the official figure is compared there, never the best; a post-deadline run is not", () => {
    const late = scoreRun(edition, gold, submission({ "STS.output.a.txt": lines(Array.from(noisy(g.a, 1, 1))), "STS.output.b.txt": lines(Array.from(noisy(g.b, 1, 2))) }, { team: "Late", postDeadline: true }))
    const r = results(edition, [...runs, late])
    const a = Marks.find(Marks.compute(r), "a:pearson")!
    expect(a.best).toBe("Close1/run1")
    // Close2, Far and OneTrack (no official figure: it lacks b); not Late, which has Close1's very scores
    expect(a.compared).toBe(3)
    expect(a.tied).toContain("OneTrack/run1")
    expect(a.tied).not.toContain("Late/run1")
    expect(Marks.find(Marks.compute(r), "aggregate:official")!.compared).toBe(2)
  })

  it("seeded: the same results give the same marks", () => {
    expect(Marks.compute(results(edition, runs))).toEqual(Marks.compute(results(edition, runs)))
  })
})

describe("a ranking per dataset (SemRel): each language its own best and marks, by Spearman", () => {
  const edition = semrelToyEdition()
  const u = mulberry32(3)
  const ids = Array.from({ length: 60 }, (_, i) => `eng-${i + 1}`)
  const g = ids.map(() => Math.round(u() * 100) / 100)
  const gold = goldOf(edition, { eng: `PairID,Text,Score\n${ids.map((id, i) => `${id},"a\nb",${g[i]}\n`).join("")}` })
  const run = (team: string, size: number, meta: object = {}) => {
    const r = mulberry32(team.length * 7)
    return scoreRun(edition, gold, submission({ "pred_eng.csv": `PairID,Pred_Score\n${ids.map((id, i) => `${id},${g[i] + size * (r() - 0.5)}\n`).join("")}` }, { team, ...meta }))
  }
  const runs = [run("Sharp", 0.05, { postDeadline: true }), run("Nile", 0.3), run("Rough", 2)]
  const marks = Marks.compute(results(edition, runs))

  it("the figures are per language, keyed by dataset and metric; the bootstrap on Spearman; the post-deadline run is never the best", () => {
    expect(marks.figures.map((f) => f.key)).toEqual(["eng:spearman", "amh:spearman", "esp:spearman"])
    const eng = Marks.find(marks, "eng:spearman")!
    expect(eng).toMatchObject({ ranking: "eng", test: "bootstrap", best: "Nile/run1" })
    expect(eng.tied).not.toContain("Rough/run1")
    expect(Marks.find(marks, "amh:spearman")!.reason).toBe("no run is ranked by this figure")
  })
})
