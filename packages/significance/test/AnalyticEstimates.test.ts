// Compare.many's analytic tests rank by the runs' r(gold, run) from the cocor sides they compute
// anyway (issue 34): the resampling pass's set-up (every run laid out, centred and summed in
// WebAssembly for one resample) cost 50-85 ms of `significance --against all` on 500 STS-B runs.
// The estimates keep the bits of the pass's (Figures.estimates), at any scale, and are Pearson's r.
import { afterEach, describe, expect, it, vi } from "vitest"
import { Metrics, Pearson } from "@stseval/metrics"
import { Compare, TestResult } from "../src/index.js"
import * as Figures from "../src/internal/figures.js"
import * as Engine from "../src/internal/intervals.js"
import { makeRuns, pearson as textbook } from "./data.js"

afterEach(() => vi.restoreAllMocks())

/** Gold and runs of several scales and shapes: noise, integers (ties), 1e200 and 1e-200 (squares out of range), a reversed run. */
const cases = () => {
  const { gold, runs } = makeRuns(257, [0.2, 0.7, 1.3, 2.5, 4], 5)
  const integers = runs.map((r) => r.map((x) => Math.round(x)))
  return [
    { name: "noise", gold, runs },
    { name: "integer scores", gold: gold.map((g) => Math.round(g)), runs: integers },
    { name: "runs at 1e200 and 1e-200, one reversed", gold, runs: [runs[0].map((x) => x * 1e200), runs[1].map((x) => x * 1e-200), runs[2].map((x) => -x), runs[3]] }
  ]
}

describe("Compare.many's analytic estimates", () => {
  it("are the resampling pass's figures bit for bit, and Pearson's r, for every analytic test", () => {
    for (const { gold, runs, name } of cases()) {
      const stratumOf = new Int32Array(gold.length)
      const pass = Figures.estimates({ metric: Metrics.getOrThrow("pearson"), gold, runs, confidences: undefined, stratumOf, aggregate: "weighted" })
      if (pass instanceof TestResult.InvalidInput) throw new Error(pass.expected)
      for (const test of ["williams1959", "steiger1980", "zou2007"] as const) {
        for (const against of ["all", "best", 1] as const) {
          const out = Compare.many(gold, runs, { test, against })
          if (TestResult.isInvalid(out)) throw new Error(out.expected)
          out.estimates.forEach((e, k) => {
            expect(Object.is(e, pass[k]), `${name}, ${test}, against ${against}, run ${k}: ${e} vs ${pass[k]}`).toBe(true)
            expect(Math.abs(e - Pearson.pearsonRaw(gold, runs[k]))).toBeLessThan(1e-15)
          })
          // each comparison's estimates are its runs' (the same r, not a second computation)
          for (const c of out.comparisons) expect([c.estimateA, c.estimateB]).toEqual([out.estimates[c.a], out.estimates[c.b]])
        }
      }
      // the textbook formula on the last run (unscaled in every case: its squares stay in range)
      const last = runs.length - 1
      expect(Math.abs(pass[last] - textbook(Array.from(gold), Array.from(runs[last])))).toBeLessThan(1e-14)
    }
  })

  it("need no resampling set-up (the bootstrap still takes one)", () => {
    const { gold, runs } = makeRuns(120, [0.5, 1, 2], 9)
    // the resampling pass's set-up, counted
    const estimate = vi.spyOn(Engine, "estimate")
    expect(TestResult.isInvalid(Compare.many(gold, runs, { against: "all", correction: "holm" }))).toBe(false)
    expect(TestResult.isInvalid(Compare.many(gold, runs, { test: "zou2007", against: "best" }))).toBe(false)
    expect(estimate).toHaveBeenCalledTimes(0)
    expect(TestResult.isInvalid(Compare.many(gold, runs, { test: "bootstrap", resamples: 20, against: "all" }))).toBe(false)
    expect(estimate).toHaveBeenCalledTimes(1)
  })

  it("a gold too short is refused as before, on either path", () => {
    const gold = Float64Array.of(1, 2)
    const runs = [Float64Array.of(1, 3), Float64Array.of(2, 1)]
    for (const test of ["williams1959", "bootstrap"] as const) {
      const out = Compare.many(gold, runs, { test, resamples: 20 })
      expect(TestResult.isInvalid(out) && out.expected).toMatch(/at least 3 pairs/)
    }
  })
})
