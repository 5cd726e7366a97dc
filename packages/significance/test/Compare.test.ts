import { describe, expect, it } from "vitest"
import { Bootstrap, Compare, Datasets, Dependent, McNemar, TestResult } from "../src/index.js"
import { makeRuns } from "./data.js"

const ok = <A>(a: A | TestResult.InvalidInput): A => {
  if (TestResult.isInvalid(a)) throw a
  return a
}

describe("Compare.two", () => {
  const { gold, runs } = makeRuns(250, [1, 1.3], 17)
  it("williams1959 is Dependent.williams1959 on the runs' correlations", () => {
    const c = ok(Compare.two(gold, runs[0], runs[1], { test: "williams1959", alternative: "greater" }))
    const input = ok(Dependent.inputFromScores(gold, runs[0], runs[1]))
    const direct = ok(Dependent.tests.williams1959(input, { alternative: "greater" }))
    expect(c.pValue).toBe(direct.pValue)
    expect(c.statistic).toBe(direct.statistic)
    expect(c.df).toBe(247)
    expect([c.estimateA, c.estimateB]).toEqual([input.rJk, input.rJh])
  })
  it("zou2007 gives an interval and no p-value; bootstrap a signature", () => {
    const z = ok(Compare.two(gold, runs[0], runs[1], { test: "zou2007" }))
    expect(z.pValue).toBeUndefined()
    expect(z.ci![0]).toBeLessThan(z.ci![1])
    const b = ok(Compare.two(gold, runs[0], runs[1], { test: "bootstrap", resamples: 200, seed: 1 }))
    expect(b.signature).toBe("method:bootstrap|resamples:200|seed:1|metric:pearson|strata:none|rng:xoroshiro128plus|version:0.1.0")
  })
  it("analytic tests refuse multi-dataset strata and Spearman", () => {
    const strata = gold.map((_, i) => i % 2)
    expect(TestResult.isInvalid(Compare.two(gold, runs[0], runs[1], { test: "steiger1980", strata }))).toBe(true)
    // named explicitly: a cocor test compares Pearson correlations only (issue 21: with no test
    // named, Spearman is no longer refused but gets the bootstrap, tested below)
    expect(TestResult.isInvalid(Compare.two(gold, runs[0], runs[1], { metric: "spearman", test: "williams1959" }))).toBe(true)
    expect(TestResult.isInvalid(Compare.two(gold, runs[0], runs[1], { test: "nope" as never }))).toBe(true)
  })
})

describe("Compare.many", () => {
  // runs 0 and 1 nearly equal, 2 and 3 clearly worse; listed out of order to test the ranking
  const { gold, runs: r } = makeRuns(400, [1, 1.04, 2.2, 3.5], 23)
  const runs = [r[2], r[0], r[3], r[1]]
  it("ranks runs and marks those not significantly different from the best", () => {
    const m = ok(Compare.many(gold, runs))
    expect(m.ranking).toEqual([1, 3, 0, 2])
    expect(m.best).toEqual([1, 3])
    expect(m.comparisons.length).toBe(3)
    expect(m.comparisons.every((c) => c.a === 1)).toBe(true)
  })
  it("all pairs with Holm: adjusted p >= raw p, groups and rank ranges by position", () => {
    const m = ok(Compare.many(gold, runs, { against: "all", correction: "holm" }))
    expect(m.comparisons.length).toBe(6)
    for (const c of m.comparisons) expect(c.adjustedP!).toBeGreaterThanOrEqual(c.pValue!)
    expect(m.groups).toEqual([0, 0, 1, 2])
    expect(m.rankRanges![0]).toEqual({ lo: 0, hi: 1 })
  })
  it("every pair of 41 runs (--against all: rows through the laid-out table; best and a run: single spans) has the statistic and p of Compare.two, bit for bit, in its columns (what the CLI prints) and its comparison", () => {
    const many = makeRuns(97, Array.from({ length: 41 }, (_, k) => 0.3 + (k % 13) * 0.4), 23)
    for (const against of ["all", "best", 17] as const) {
      const m = ok(Compare.many(many.gold, many.runs, { against }))
      const { a, b, statistic, pValue } = m.figures
      expect(a.length).toBe(against === "all" ? 820 : 40)
      for (let p = 0; p < a.length; p++) {
        const one = ok(Compare.two(many.gold, many.runs[a[p]], many.runs[b[p]]))
        const c = m.comparisons[p]
        const same = [statistic![p], c.statistic, pValue![p], c.pValue].map((x, i) => Object.is(x, i < 2 ? one.statistic : one.pValue))
        expect(same, `${against}: ${a[p]} vs ${b[p]}`).toEqual([true, true, true, true])
      }
    }
  })
  it("bootstrap over all pairs resamples once and carries the signature", () => {
    const m = ok(Compare.many(gold, runs, { against: "all", test: "bootstrap", resamples: 500, seed: 3 }))
    expect(m.signature).toContain("method:bootstrap|resamples:500|seed:3")
    expect(m.best).toEqual([1, 3])
  })
  it("against one run", () => {
    const m = ok(Compare.many(gold, runs, { against: 2 }))
    expect(m.comparisons.length).toBe(3)
    expect(m.comparisons.every((c) => c.b === 2)).toBe(true)
    expect(TestResult.isInvalid(Compare.many(gold, runs, { against: 9 }))).toBe(true)
  })
})

describe("Datasets.join", () => {
  const t1 = { gold: Float64Array.from([1, 2, 3]), runs: [Float64Array.from([1, 1, 2]), Float64Array.from([3, 2, 1])] }
  const t2 = { gold: Float64Array.from([4, 5]), runs: [Float64Array.from([5, 4]), Float64Array.from([4, 4])] }
  it("joins tracks and labels each pair with its track for a mean, and none for pooled", () => {
    const j = ok(Datasets.join([t1, t2], "unweighted"))
    expect(Array.from(j.gold)).toEqual([1, 2, 3, 4, 5])
    expect(Array.from(j.runs[1])).toEqual([3, 2, 1, 4, 4])
    expect(Array.from(j.strata ?? [])).toEqual([0, 0, 0, 1, 1])
    expect(j.aggregate).toBe("unweighted")
    const pooled = ok(Datasets.join([t1, t2], "pooled"))
    expect([pooled.strata, pooled.aggregate, Array.from(pooled.runs[0])]).toEqual([undefined, undefined, [1, 1, 2, 5, 4]])
    expect(ok(Datasets.join([t1], "weighted"))).toEqual({ gold: t1.gold, runs: t1.runs })
  })
  it("refuses datasets that do not list the same runs, or none", () => {
    expect(TestResult.isInvalid(Datasets.join([t1, { ...t2, runs: [t2.runs[0]] }], "weighted"))).toBe(true)
    expect(TestResult.isInvalid(Datasets.join([t1, { ...t2, runs: [t2.runs[0], t2.runs[0].subarray(1)] }], "weighted"))).toBe(true)
    expect(TestResult.isInvalid(Datasets.join([], "weighted"))).toBe(true)
  })
})

describe("identical runs", () => {
  it("analytic tests answer p = 1 (cocor's formulas would be 0/0), zou2007 [0, 0]", () => {
    const { gold, runs } = makeRuns(50, [1], 2)
    const copy = Float64Array.from(runs[0])
    expect(TestResult.isInvalid(Dependent.tests.williams1959(ok(Dependent.inputFromScores(gold, runs[0], copy))))).toBe(true)
    const c = ok(Compare.two(gold, runs[0], copy))
    expect([c.pValue, c.statistic]).toEqual([1, 0])
    expect(ok(Compare.two(gold, runs[0], copy, { test: "zou2007" })).ci).toEqual([0, 0])
  })
})

describe("one public entry per job (issue 34)", () => {
  it("cocor's dependent tests only through Dependent.tests; the wrappers folded into another entry are gone", () => {
    for (const name of Dependent.testNames) expect(name in Dependent).toBe(false)
    expect(Dependent.testNames.every((name) => typeof Dependent.tests[name] === "function")).toBe(true)
    expect(["determinant" in Dependent, "compare" in Bootstrap, "discordant" in McNemar, "concatDatasets" in Compare]).toEqual([false, false, false, false])
  })
})
