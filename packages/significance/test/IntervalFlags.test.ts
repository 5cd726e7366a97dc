/**
 * Interval flags (issue 35): no interval where the resamples cannot give one (fewer than
 * `minimumPairs` pairs, or a zero-width interval), with the reason; a Pearson figure on skewed data
 * carries `skewed` (its percentile interval covers 90-93% for 95% on lognormal data:
 * bench/coverage.py skewed), and one on normal data does not.
 */
import { describe, expect, it } from "vitest"
import { Intervals } from "@stseval/significance"
import { mulberry32 } from "@stseval/vitest-config/random"

const compute = (gold: Float64Array, run: Float64Array, metric = "pearson") => {
  const r = Intervals.compute(
    { datasets: [{ name: "d", metric }], official: "single", missingDataset: "zero", runs: [{ id: "A", scores: { d: { run, gold } } }] },
    { level: 0.95, resamples: 1000, seed: 3 }
  )
  if (!("runs" in r)) throw new Error(r.message)
  return r.runs[0].datasets[0]
}

/** Standard normal pairs with correlation 0.8 (Box-Muller on the tests' own generator). */
const pairs = (n: number, seed: number, map: (x: number) => number = (x) => x) => {
  const u = mulberry32(seed)
  const normal = () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u())
  const gold = new Float64Array(n)
  const run = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const z1 = normal()
    const z2 = 0.8 * z1 + 0.6 * normal()
    gold[i] = map(z1)
    run[i] = map(z2)
  }
  return { gold, run }
}

describe("no interval where the resamples cannot give one", () => {
  it("5 pairs: no interval, and the reason names the minimum (the old code gave [1.000, 1.000]-like intervals)", () => {
    const f = compute(new Float64Array([1, 2, 3, 4, 5]), new Float64Array([1.1, 2.3, 2.9, 4.2, 5.1]))
    expect(f.value).toBeGreaterThan(0.9)
    expect(f.ci).toBeUndefined()
    expect(f.reason).toMatch(/5 pairs: fewer than 6/)
    expect(Intervals.minimumPairs).toBe(6)
  })
  it("a zero-width interval: none, with the reason", () => {
    // the run is the gold: r = 1 on every resample
    const g = Float64Array.from({ length: 40 }, (_, i) => (i * 7) % 11)
    const f = compute(g, Float64Array.from(g, (x) => 2 * x + 1))
    expect(f.value).toBeCloseTo(1, 12)
    expect(f.ci).toBeUndefined()
    expect(f.reason).toMatch(/zero-width/)
  })
  it("6 pairs and more with spread: an interval", () => {
    const { gold, run } = pairs(30, 1)
    expect(compute(gold, run).ci).toBeDefined()
  })
})

describe("Pearson on skewed data is marked", () => {
  it("lognormal pairs: skewed (the larger |sample skewness| of gold and run); normal pairs: not", () => {
    const ln = pairs(200, 7, Math.exp)
    const f = compute(ln.gold, ln.run)
    expect(f.ci).toBeDefined()
    expect(f.skewed).toBeGreaterThan(Intervals.skewLimit)
    // by hand: g1 = m3 / m2^1.5 of each
    const g1 = (x: Float64Array) => {
      const m = x.reduce((a, b) => a + b, 0) / x.length
      const m2 = x.reduce((a, b) => a + (b - m) ** 2, 0) / x.length
      return x.reduce((a, b) => a + (b - m) ** 3, 0) / x.length / m2 ** 1.5
    }
    expect(f.skewed).toBeCloseTo(Math.max(Math.abs(g1(ln.gold)), Math.abs(g1(ln.run))), 10)
    const normal = pairs(200, 7)
    expect(compute(normal.gold, normal.run).skewed).toBeUndefined()
    // Spearman reads ranks: the same lognormal data are not marked
    expect(compute(ln.gold, ln.run, "spearman").skewed).toBeUndefined()
  })
})
