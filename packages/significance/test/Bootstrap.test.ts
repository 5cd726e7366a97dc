import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { Bootstrap, Compare, Permutation, Signature, TestResult } from "../src/index.js"
import * as Random from "../src/internal/random.js"
import { makeRuns, mulberry32, pearson, spearman } from "./data.js"
import { Spearman } from "@stseval/metrics"

const ok = <A>(a: A | TestResult.InvalidInput): A => {
  if (TestResult.isInvalid(a)) throw a
  return a
}

// resample two runs and compare them
const paired = (gold: Float64Array, a: Float64Array, b: Float64Array, options: Bootstrap.Options & Bootstrap.CompareOptions) =>
  Bootstrap.comparePairs(ok(Bootstrap.resample(gold, [a, b], options)), { ...options, pairs: [[0, 1]] })[0]

const percentile = (values: Array<number>, p: number): number => {
  const s = [...values].sort((a, b) => a - b)
  const h = (s.length - 1) * p
  const lo = Math.floor(h)
  return s[lo] + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]) - s[lo])
}

describe("paired bootstrap", () => {
  it("identical runs: two-sided p = 1 and the CI of the difference is [0, 0]", () => {
    const { gold, runs } = makeRuns(200, [1], 1)
    const c = ok(paired(gold, runs[0], Float64Array.from(runs[0]), { resamples: 999, seed: 7 }))
    expect(c.pValue).toBe(1)
    expect(c.ci).toEqual([0, 0])
    expect(c.difference).toBe(0)
    expect(c.valid).toBe(999)
  })

  it("the p-value of a run against a clearly worse one falls as n grows", () => {
    const B = 2000
    const ps = [25, 50, 100, 200, 400].map((n) => {
      const { gold, runs } = makeRuns(n, [1, 1.6], 11)
      return ok(paired(gold, runs[0], runs[1], { resamples: B, seed: 3, alternative: "greater" })).pValue
    })
    // strictly falling until it reaches the floor 1 / (B + 1) of the +1-smoothed p-value
    for (let i = 1; i < ps.length; i++) {
      if (ps[i - 1] > 1 / (B + 1)) expect(ps[i]).toBeLessThan(ps[i - 1])
      else expect(ps[i]).toBe(1 / (B + 1))
    }
    expect(ps[0]).toBeGreaterThan(0.01)
    expect(ps[ps.length - 1]).toBe(1 / (B + 1))
  })

  it("one-sided p-values point the right way and two-sided is about twice the smaller", () => {
    const { gold, runs } = makeRuns(150, [1, 1.25], 5)
    const opts = { resamples: 4000, seed: 9 }
    const greater = ok(paired(gold, runs[0], runs[1], { ...opts, alternative: "greater" }))
    const less = ok(paired(gold, runs[0], runs[1], { ...opts, alternative: "less" }))
    const two = ok(paired(gold, runs[0], runs[1], opts))
    expect(greater.difference).toBeGreaterThan(0)
    expect(greater.pValue).toBeLessThan(0.5)
    expect(less.pValue).toBeGreaterThan(0.5)
    expect(two.pValue).toBeGreaterThan(greater.pValue)
    expect(Math.abs(two.pValue - 2 * greater.pValue)).toBeLessThan(0.05)
  })

  it("same seed gives identical output, a different seed different output", () => {
    const { gold, runs } = makeRuns(100, [1, 1.2, 1.4], 2)
    const a = ok(Bootstrap.resample(gold, runs, { resamples: 500, seed: 42 }))
    const b = ok(Bootstrap.resample(gold, runs, { resamples: 500, seed: 42 }))
    const c = ok(Bootstrap.resample(gold, runs, { resamples: 500, seed: 43 }))
    expect(Array.from(a.samples)).toEqual(Array.from(b.samples))
    expect(Bootstrap.comparePairs(a)).toEqual(Bootstrap.comparePairs(b))
    expect(Array.from(a.samples)).not.toEqual(Array.from(c.samples))
    expect(a.signatureText).toBe(
      "method:bootstrap|resamples:500|seed:42|metric:pearson|strata:none|rng:xoroshiro128plus|version:0.1.0"
    )
  })

  it("PAIRING: run B = run A + small noise gives a narrow CI; an unpaired bootstrap gives a much wider one", () => {
    const n = 300
    const rand = mulberry32(99)
    const { gold, runs } = makeRuns(n, [1.2], 4)
    const runA = runs[0]
    const runB = runA.map((x) => x + 0.15 * (rand() - 0.5))
    const B = 2000
    const ours = ok(paired(gold, runA, runB, { resamples: B, seed: 1 }))

    // Deliberately wrong: resample (gold, A) and (gold, B) with independent index multisets.
    const draw = () => Int32Array.from({ length: n }, () => Math.floor(rand() * n))
    const pick = (v: Float64Array, idx: Int32Array) => Float64Array.from(idx, (i) => v[i])
    const unpaired: Array<number> = []
    for (let b = 0; b < B; b++) {
      const i1 = draw()
      const i2 = draw()
      unpaired.push(pearson(pick(gold, i1), pick(runA, i1)) - pearson(pick(gold, i2), pick(runB, i2)))
    }
    const unpairedWidth = percentile(unpaired, 0.975) - percentile(unpaired, 0.025)
    const ourWidth = ours.ci[1] - ours.ci[0]
    expect(ourWidth).toBeLessThan(0.01)
    expect(unpairedWidth).toBeGreaterThan(0.05)
    expect(ourWidth * 10).toBeLessThan(unpairedWidth)
    expect(ours.ci[0]).toBeLessThanOrEqual(ours.difference)
    expect(ours.ci[1]).toBeGreaterThanOrEqual(ours.difference)
  })

  it("each resample equals Pearson / Spearman of the gathered resample (multiplicity kernel check)", () => {
    // Ties in the gold and runs exercise the mid-rank code.
    const { gold: g0, runs: r0 } = makeRuns(40, [0.8, 2], 8)
    const gold = g0.map((v) => Math.round(v))
    const runs = r0.map((r) => r.map((v) => Math.round(v * 2) / 2))
    const strataIds = Int32Array.from({ length: 40 }, (_, i) => (i < 15 ? 4 : 9))
    for (const metric of ["pearson", "spearman"] as const) {
      const B = 5
      const d = ok(Bootstrap.resample(gold, runs, { resamples: B, seed: 77, metric, strata: strataIds }))
      // replay the documented draw order: per resample, per dataset (first appearance order), m draws
      const rng = Random.make(77)
      const members = [[...Array(15).keys()], [...Array(25).keys()].map((i) => i + 15)]
      const f = metric === "pearson" ? pearson : spearman
      for (let b = 0; b < B; b++) {
        const picks = members.map((ms) => Array.from({ length: ms.length }, () => ms[Random.below(rng, ms.length)]))
        for (let k = 0; k < runs.length; k++) {
          const perDataset = picks.map((idx) => f(idx.map((i) => gold[i]), idx.map((i) => runs[k][i])))
          const expected = (15 * perDataset[0] + 25 * perDataset[1]) / 40
          if (Number.isNaN(expected)) expect(d.samples[k * B + b]).toBeNaN()
          else expect(d.samples[k * B + b]).toBeCloseTo(expected, 12)
        }
      }
      const est = runs.map((r) =>
        (15 * f(gold.slice(0, 15), r.slice(0, 15)) + 25 * f(gold.slice(15), r.slice(15))) / 40
      )
      est.forEach((e, k) => expect(d.estimates[k]).toBeCloseTo(e, 12))
    }
  })

  it("stratified unweighted aggregate: estimate is the plain mean of per-dataset Pearsons", () => {
    const { gold, runs } = makeRuns(90, [1], 12)
    const strata = Int32Array.from({ length: 90 }, (_, i) => (i < 10 ? 0 : i < 40 ? 1 : 2))
    const d = ok(Bootstrap.resample(gold, runs, { resamples: 10, strata, aggregate: "unweighted" }))
    const parts = [[0, 10], [10, 40], [40, 90]].map(([a, b]) => pearson(gold.slice(a, b), runs[0].slice(a, b)))
    expect(d.estimates[0]).toBeCloseTo((parts[0] + parts[1] + parts[2]) / 3, 12)
    expect(d.signatureText).toContain("strata:dataset|aggregate:unweighted")
  })

  it("degenerate resamples (undefined correlation) are counted and left out, not used", () => {
    // Dataset 1 has 3 pairs with gold 1, 1, 2: a resample drawing only the 1s has constant gold.
    const gold = Float64Array.from([1, 1, 2, 0, 1, 2, 3, 4, 5, 1, 3])
    const runA = Float64Array.from([1.1, 0.9, 2.2, 0.3, 1.1, 2.5, 2.9, 4.2, 4.7, 1.4, 2.9])
    const runB = Float64Array.from([1.5, 0.2, 1.9, 1.0, 0.4, 2.0, 3.5, 3.1, 4.9, 2.0, 2.2])
    const strata = [1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2]
    const B = 3000
    const d = ok(Bootstrap.resample(gold, [runA, runB], { resamples: B, seed: 5, strata }))
    const nan = Array.from(d.samples.subarray(0, B)).filter(Number.isNaN).length
    expect(d.degenerate[0]).toBe(nan)
    // P(all three draws hit a gold-1 pair) = (2/3)^3 = 8/27 ~ 0.30 (plus draws where a run is constant)
    expect(d.degenerate[0] / B).toBeGreaterThan(0.25)
    const [c] = Bootstrap.comparePairs(d, { pairs: [[0, 1]] })
    expect(c.valid + c.degenerate).toBe(B)
    expect(c.degenerate).toBeGreaterThanOrEqual(d.degenerate[0])
    expect(Number.isFinite(c.ci[0]) && Number.isFinite(c.ci[1])).toBe(true)
    expect(c.pValue).toBeGreaterThan(0)
    expect(c.pValue).toBeLessThanOrEqual(1)
  })

  it("percentile interval of each run's r covers its estimate and shrinks with n", () => {
    const small = makeRuns(50, [1], 3)
    const large = makeRuns(2000, [1], 3)
    const ws = [small, large].map(({ gold, runs }) => {
      const d = ok(Bootstrap.resample(gold, runs, { resamples: 1000 }))
      const iv = Bootstrap.runInterval(d, 0)
      expect(iv.ci[0]).toBeLessThan(iv.estimate)
      expect(iv.ci[1]).toBeGreaterThan(iv.estimate)
      return iv.ci[1] - iv.ci[0]
    })
    expect(ws[1]).toBeLessThan(ws[0] / 3)
  })

  it("Spearman of a monotone transform is exactly 1 in every resample", () => {
    const { gold } = makeRuns(60, [], 6)
    const d = ok(Bootstrap.resample(gold, [gold.map((g) => Math.exp(g))], { resamples: 200, metric: "spearman" }))
    expect(d.estimates[0]).toBeCloseTo(1, 14)
    for (const v of d.samples) expect(v).toBeCloseTo(1, 12)
  })

  it("reports progress about every 1% and ends with (B, B)", () => {
    const { gold, runs } = makeRuns(30, [1], 1)
    const calls: Array<[number, number]> = []
    ok(Bootstrap.resample(gold, runs, { resamples: 1000, progress: (d, t) => calls.push([d, t]) }))
    expect(calls.length).toBe(100)
    expect(calls[calls.length - 1]).toEqual([1000, 1000])
  })

  it("all pairs: n(n-1)/2 comparisons consistent with the pairs asked for", () => {
    const { gold, runs } = makeRuns(80, [1, 1.3, 1.6, 3], 21)
    const d = ok(Bootstrap.resample(gold, runs, { resamples: 300 }))
    const all = Bootstrap.comparePairs(d)
    expect(all.length).toBe(6)
    expect(all[4]).toEqual(Bootstrap.comparePairs(d, { pairs: [[1, 3]] })[0])
  })

  it("rejects mismatched lengths, non-finite scores and tiny datasets", () => {
    const gold = Float64Array.from([1, 2, 3, 4])
    expect(TestResult.isInvalid(Bootstrap.resample(gold, [Float64Array.from([1, 2, 3])]))).toBe(true)
    expect(TestResult.isInvalid(Bootstrap.resample(gold, [Float64Array.from([1, 2, Number.NaN, 4])]))).toBe(true)
    expect(TestResult.isInvalid(Bootstrap.resample(gold, [gold], { strata: [0, 0, 1, 1] }))).toBe(true)
    expect(TestResult.isInvalid(Bootstrap.resample(gold, [gold], { resamples: 0 }))).toBe(true)
  })

  it("Spearman ranks the scores as given: values 1 ulp apart are not tied (as metrics' Spearman, what score prints)", () => {
    // the deleted kernel ranked centred scores, where x - mean rounds 0.14433756729740643 and
    // 0.14433756729740646 to one value (SemRel 2024 eng runs have 24 such pairs)
    const n = 40
    const gold = Float64Array.from({ length: n }, (_, i) => ((i * 7) % 11) / 2)
    const run = Float64Array.from({ length: n }, (_, i) => (i % 4 === 0 ? 0.14433756729740643 : i % 4 === 1 ? 0.14433756729740646 : ((i * 5) % 9) / 1.6 + 1))
    const d = ok(Bootstrap.resample(gold, [run], { resamples: 50, seed: 1, metric: "spearman" }))
    const rho = Spearman.metric.compute(gold, run)
    expect(rho._tag === "Defined" && Math.abs(d.estimates[0] - rho.value)).toBeLessThan(1e-15)
  })

  it("a dataset of more pairs than the draws reach (2^21) is an InvalidInput naming it, not a thrown error", () => {
    const n = 2 ** 21 + 1
    const gold = Float64Array.from({ length: n }, (_, i) => i % 5)
    const run = Float64Array.from({ length: n }, (_, i) => (i * 7) % 5)
    const d = Bootstrap.resample(gold, [run], { resamples: 1 })
    expect(TestResult.isInvalid(d) && d.expected).toBe(`at most ${2 ** 21} pairs`)
    // checked after the values' other checks: a doubly bad input names its values first, as it always has
    const unweighed = Bootstrap.resample(gold, [run], { resamples: 1, confidences: [] })
    expect(TestResult.isInvalid(unweighed) && unweighed.field).toBe("confidences")
  })

  it("tests that draw no pairs take a dataset beyond 2^21 pairs: the analytic tests and the permutation test", () => {
    const n = 2 ** 21 + 1
    const gold = Float64Array.from({ length: n }, (_, i) => i % 5)
    const rand = mulberry32(3)
    const runs = [1, 2].map(() => Float64Array.from(gold, (g) => g + 4 * rand()))
    expect(TestResult.isInvalid(Compare.many(gold, runs))).toBe(false)
    expect(TestResult.isInvalid(Permutation.test(gold, runs[0], runs[1], { resamples: 1 }))).toBe(false)
  })

  it("VERSION in signatures matches package.json", () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as {
      version: string
    }
    expect(Signature.VERSION).toBe(pkg.version)
  })
})
