// Compare.many's comparisons as columns (`figures`, issue 34): the analytic tests keep no object per
// pair (124,750 for 500 runs, whose garbage collection cost more than their tests) and make
// `comparisons` again when they are read. The columns hold every comparison's figures bit for bit,
// and the comparisons made late are the ones a test of the pair alone gives.
import { describe, expect, it } from "vitest"
import { Compare, TestResult } from "../src/index.js"
import { makeRuns } from "./data.js"

const columns = ["pValue", "adjustedP", "statistic", "ciLow", "ciHigh", "log10P"] as const
const fieldOf = (c: Compare.Comparison & { readonly adjustedP?: number }, column: (typeof columns)[number]): number | undefined =>
  column === "ciLow" ? c.ci?.[0] : column === "ciHigh" ? c.ci?.[1] : c[column]

describe("Compare.many's figures", () => {
  const { gold, runs } = makeRuns(120, [0.3, 0.6, 0.6, 1.1, 2], 7)
  // a run equal to another: p = 1 and statistic 0, without df
  const all = [...runs, runs[1].slice()]
  const cases = [
    ...(["williams1959", "steiger1980", "meng1992", "zou2007"] as const).flatMap((test) => [
      { test, against: "all" as const, correction: "holm" as const },
      { test, against: "best" as const, correction: "none" as const },
      { test, against: 2, correction: "bonferroni" as const }
    ]),
    { test: "bootstrap" as const, against: "all" as const, correction: "holm" as const },
    { test: "permutation" as const, against: "best" as const, correction: "holm" as const }
  ]

  it("are the comparisons' figures, bit for bit, each column present when a comparison has it", () => {
    for (const { test, against, correction } of cases) {
      const out = Compare.many(gold, all, { test, against, correction, resamples: 200, seed: 3 })
      if (TestResult.isInvalid(out)) throw new Error(out.expected)
      const what = `${test} against ${against}`
      const { comparisons, figures } = out
      expect(Array.from(figures.a), what).toEqual(comparisons.map((c) => c.a))
      expect(Array.from(figures.b), what).toEqual(comparisons.map((c) => c.b))
      for (const column of columns) {
        const values = comparisons.map((c) => fieldOf(c, column))
        const kept = figures[column]
        expect(kept !== undefined, `${what}: ${column}`).toBe(values.some((v) => v !== undefined))
        if (kept !== undefined) expect(Array.from(kept), `${what}: ${column}`).toEqual(values.map((v) => v ?? Number.NaN))
      }
      // made once when read
      expect(out.comparisons).toBe(comparisons)
    }
  })

  it("makes the analytic tests' comparisons as each pair's test alone gives them", () => {
    for (const { test, against, correction } of cases.filter((c) => c.test !== "bootstrap" && c.test !== "permutation")) {
      const out = Compare.many(gold, all, { test, against, correction })
      if (TestResult.isInvalid(out)) throw new Error(out.expected)
      for (const c of out.comparisons) {
        const alone = Compare.two(gold, all[c.a], all[c.b], { test })
        if (TestResult.isInvalid(alone)) throw new Error(alone.expected)
        const { adjustedP, ...made } = c
        expect(made, `${test}: ${c.a} vs ${c.b}`).toEqual({ ...alone, a: c.a, b: c.b })
        expect(adjustedP === undefined).toBe(c.pValue === undefined)
      }
    }
  })
})
