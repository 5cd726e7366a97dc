// Compare.many reads each score once to check it (issue 34): the bootstrap read every score three
// times (Compare.many's checkValues, the bootstrap's, the layout's), the analytic tests twice; and
// Intervals.computeEach once over inputs that share the scores (rank --json: Pearson's pass and
// Spearman's read each score twice). Counted by the scores validate.ts's `finite` reads, through
// which every check of a score goes.
import { describe, expect, it } from "vitest"
import { Compare, Intervals, TestResult } from "../src/index.js"
import { scoresRead } from "../src/internal/validate.js"
import { makeRuns } from "./data.js"

const n = 300
const { gold, runs } = makeRuns(n, [1, 1.2, 1.5, 2], 31)
const values = (runs.length + 1) * n

/** The scores checked while `f` runs. */
const finiteChecks = (f: () => unknown): number => {
  const before = scoresRead.count
  const out = f()
  expect(TestResult.isInvalid(out)).toBe(false)
  return scoresRead.count - before
}

describe("Compare.many checks each score once", () => {
  it("with the bootstrap", () => {
    const calls = finiteChecks(() => Compare.many(gold, runs, { test: "bootstrap", resamples: 50, seed: 1, against: "all" }))
    expect(calls).toBeGreaterThanOrEqual(values)
    expect(calls).toBeLessThan(1.5 * values)
  })
  it("with Williams' t", () => {
    const calls = finiteChecks(() => Compare.many(gold, runs, { against: "all", correction: "holm" }))
    expect(calls).toBeGreaterThanOrEqual(values)
    expect(calls).toBeLessThan(1.5 * values)
  })
  it("a bad score is still found, by its run and index, on either path", () => {
    const bad = runs.map((r) => r.slice())
    bad[2][7] = Number.NaN
    for (const test of ["bootstrap", "williams1959"] as const) {
      const out = Compare.many(gold, bad, { test, resamples: 50, against: "all" })
      expect(TestResult.isInvalid(out) && out.field).toBe("runs[2][7]")
    }
  })
})

describe("Intervals.computeEach checks each score once over inputs that share them", () => {
  const input = (metric: string, scored: ReadonlyArray<Float64Array>): Intervals.Input => ({
    datasets: [{ name: "d", metric }],
    runs: scored.map((run, k) => ({ id: `run${k}`, scores: { d: { run, gold } } })),
    official: "single",
    missingDataset: "no-official-score"
  })
  const options = { resamples: 50, seed: 1, threads: 1 }
  it("the Pearson and Spearman passes of the same runs", () => {
    const calls = finiteChecks(() => {
      const out = Intervals.computeEach([input("pearson", runs), input("spearman", runs)], options)
      return out.find(TestResult.isInvalid) ?? out
    })
    expect(calls).toBeGreaterThanOrEqual(values)
    expect(calls).toBeLessThan(1.5 * values)
  })
  it("a bad score in scores only the second input has is still found, by its run and index", () => {
    const bad = runs.map((r) => r.slice())
    bad[2][7] = Number.POSITIVE_INFINITY
    const [first, second] = Intervals.computeEach([input("pearson", runs), input("spearman", bad)], options)
    expect(TestResult.isInvalid(first)).toBe(false)
    expect(TestResult.isInvalid(second) && second.field).toBe('runs[2] (run2).scores["d"].run[7]')
  })
})
