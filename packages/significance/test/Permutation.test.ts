import { describe, expect, it } from "vitest"
import { Permutation, TestResult } from "../src/index.js"
import { makeRuns, pearson } from "./data.js"

const ok = <A>(a: A | TestResult.InvalidInput): A => {
  if (TestResult.isInvalid(a)) throw a
  return a
}

describe("approximate randomisation", () => {
  it("identical runs: p = 1", () => {
    const { gold, runs } = makeRuns(100, [1], 1)
    const r = ok(Permutation.test(gold, runs[0], Float64Array.from(runs[0]), { resamples: 500 }))
    expect(r.pValue).toBe(1)
    expect(r.difference).toBe(0)
  })

  it("agrees with the exact permutation distribution on 10 pairs (all 2^10 swaps)", () => {
    const { gold, runs } = makeRuns(10, [0.8, 1.6], 31)
    const [a, b] = runs
    const delta = pearson(gold, a) - pearson(gold, b)
    let extreme = 0
    for (let mask = 0; mask < 1024; mask++) {
      const x = a.map((v, i) => ((mask >> i) & 1 ? b[i] : v))
      const y = b.map((v, i) => ((mask >> i) & 1 ? a[i] : v))
      if (Math.abs(pearson(gold, x) - pearson(gold, y)) >= Math.abs(delta) - 1e-12) extreme++
    }
    const exact = extreme / 1024
    const r = ok(Permutation.test(gold, a, b, { resamples: 20000, seed: 4 }))
    expect(r.difference).toBeCloseTo(delta, 12)
    // Monte Carlo error sd <= sqrt(0.25 / 20000) = 0.0035
    expect(Math.abs(r.pValue - exact)).toBeLessThan(0.015)
  })

  it("a clearly worse run gives a small p; one-sided directions", () => {
    const { gold, runs } = makeRuns(400, [1, 2], 3)
    const two = ok(Permutation.test(gold, runs[0], runs[1], { resamples: 2000 }))
    expect(two.pValue).toBeLessThan(0.01)
    expect(ok(Permutation.test(gold, runs[0], runs[1], { resamples: 2000, alternative: "less" })).pValue)
      .toBeGreaterThan(0.9)
  })

  it("is reproducible by seed and prints its signature", () => {
    const { gold, runs } = makeRuns(60, [1, 1.1], 3)
    const s = [5, 5, 6].map((seed) => ok(Permutation.test(gold, runs[0], runs[1], { resamples: 3000, seed })).pValue)
    expect(s[0]).toBe(s[1])
    expect(s[0]).not.toBe(s[2])
    const r = ok(Permutation.test(gold, runs[0], runs[1], { resamples: 10, strata: gold.map((_, i) => i % 2) }))
    expect(r.signatureText).toBe(
      "method:permutation|resamples:10|seed:12345|metric:pearson|strata:dataset|aggregate:weighted|rng:xoroshiro128plus|version:0.1.0"
    )
  })
})
