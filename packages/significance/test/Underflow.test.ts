/**
 * Issue 35: p-values that underflow, and a test that cannot be computed. A p below 1e-300 carries
 * its log10 (checked against mpmath at 50 digits: the regularised incomplete beta for Student's t,
 * erfc for the normal); Hittner, May and Silver's z (and Dunn and Clark's) with a variance term
 * 2 - 2c at or below 0 says why instead of returning NaN; the bootstrap's normal-approximation p
 * (the marks' rule) is not floored at 1 / (B + 1).
 */
import { describe, expect, it } from "vitest"
import { Bootstrap, Compare, Dependent, TestResult } from "@stseval/significance"
import { log10PValue, pValue } from "../src/internal/distributions.js"

describe("log10 of p-values past a double's range", () => {
  it("Student's t and the normal, against mpmath", () => {
    // mpmath: log10(betainc(688, 0.5, 0, 1376 / (1376 + 92.8^2), regularized)) = -593.902272743586...
    expect(log10PValue(92.8, "two.sided", 1376)).toBeCloseTo(-593.902272743586, 9)
    // mpmath: log10(erfc(40 / sqrt 2)) = -349.135976463681..., erfc(50 / sqrt 2): -544.665305866332...
    expect(log10PValue(40, "two.sided")).toBeCloseTo(-349.135976463682, 9)
    expect(log10PValue(50, "two.sided")).toBeCloseTo(-544.665305866333, 9)
    // where p is representable, the same as log10 of it (mpmath: -14.905112555353173, -14.581799268675313)
    expect(log10PValue(8, "two.sided")).toBeCloseTo(-14.90511255535317, 11)
    expect(log10PValue(8, "two.sided", 1376)).toBeCloseTo(-14.581799268675313, 11)
  })

  it("Williams' t far in the tail: p is 0 (or subnormal) in doubles, the comparison carries log10P", () => {
    const gold = Float64Array.from({ length: 1379 }, (_, i) => Math.sin(i * 1.7) + Math.cos(i * 0.37))
    const a = Float64Array.from(gold, (g, i) => g + 0.05 * Math.sin(i * 12.9898))
    const b = Float64Array.from(gold, (g, i) => 0.1 * g + Math.sin(i * 78.233))
    const cmp = Compare.two(gold, a, b)
    if (TestResult.isInvalid(cmp)) throw new Error(cmp.message)
    expect(cmp.pValue).toBeLessThan(1e-300)
    expect(cmp.log10P).toBeCloseTo(log10PValue(cmp.statistic!, "two.sided", cmp.df), 12)
    expect(cmp.log10P).toBeLessThan(-300)
  })
})

describe("a test that cannot be computed says why", () => {
  // the determinant is positive (the three correlations can come from one data set), but the
  // pooled covariance of the two Fisher z's is 1.09: the variance 2 - 2c is negative
  const input = { rJk: 0.99, rJh: 0.96, rKh: 0.914, n: 100 }
  it("hittner2003: an InvalidInput naming the variance term, never a NaN statistic", () => {
    // |R| = 1 + 2 rJk rJh rKh - rJk^2 - rJh^2 - rKh^2, by hand
    expect(1 + 2 * 0.99 * 0.96 * 0.914 - 0.99 ** 2 - 0.96 ** 2 - 0.914 ** 2).toBeGreaterThan(0)
    const r = Dependent.tests.hittner2003(input)
    expect(TestResult.isInvalid(r)).toBe(true)
    if (TestResult.isInvalid(r)) expect(r.message).toMatch(/hittner2003.*2 - 2c = -0\.\d+/)
    // Williams' t takes the same correlations
    expect(TestResult.isInvalid(Dependent.tests.williams1959(input))).toBe(false)
  })
})

describe("the bootstrap's p by the normal approximation (the marks' rule)", () => {
  it("is not floored at 1 / (B + 1), and agrees with a hand computation from the resamples", () => {
    const gold = Float64Array.from({ length: 300 }, (_, i) => Math.sin(i * 0.9) * 2 + (i % 7))
    const a = Float64Array.from(gold, (g, i) => g + 0.3 * Math.sin(i * 12.9898))
    const b = Float64Array.from(gold, (g, i) => g + 3 * Math.sin(i * 78.233))
    const d = Bootstrap.resample(gold, [a, b], { resamples: 200, seed: 5 })
    if (TestResult.isInvalid(d)) throw new Error(d.message)
    const [shift] = Bootstrap.comparePairs(d)
    expect(shift.pValue).toBeCloseTo(1 / 201, 12)
    const [normal] = Bootstrap.comparePairs(d, { bootstrapP: "normal" })
    // by hand: z = delta / the standard deviation of the 200 resampled differences
    const diffs = Array.from({ length: 200 }, (_, i) => d.samples[i] - d.samples[200 + i])
    const mean = diffs.reduce((s, x) => s + x, 0) / 200
    const sd = Math.sqrt(diffs.reduce((s, x) => s + (x - mean) ** 2, 0) / 199)
    const z = (d.estimates[0] - d.estimates[1]) / sd
    expect(normal.pValue / pValue(z, "two.sided")).toBeCloseTo(1, 9)
    expect(normal.pValue).toBeLessThan(1e-10)
    const many = Compare.many(gold, [a, b], { test: "bootstrap", resamples: 200, seed: 5, bootstrapP: "normal" })
    if (TestResult.isInvalid(many)) throw new Error(many.message)
    expect(many.comparisons[0]).toMatchObject({ pMethod: "normal" })
    expect(many.comparisons[0].pValue).toBe(normal.pValue)
  })

  it("comparePairs takes it in its own pass over the differences: a hand computation's p-value and log10, the rest as the shift method's", () => {
    // the gold itself against noisy runs on 6,000 pairs: p-values below 1e-300
    const gold = Float64Array.from({ length: 6000 }, (_, i) => Math.sin(i * 0.9) * 2 + (i % 7))
    const noise = [0, 0.3, 3, 3.01].map((w, k) => Float64Array.from(gold, (g, i) => g + w * Math.sin(i * (12.9898 + 31 * k))))
    // a run constant but on a few pairs: some resamples leave its correlation undefined
    const flat = Float64Array.from(gold, (_, i) => (i % 2000 === 7 ? 1 : 0))
    const d = Bootstrap.resample(gold, [...noise, flat], { resamples: 500, seed: 9 })
    if (TestResult.isInvalid(d)) throw new Error(d.message)
    // by hand: z = delta / the standard deviation of the defined resampled differences
    const zOf = (a: number, b: number): number => {
      const diffs = Array.from({ length: 500 }, (_, r) => d.samples[a * 500 + r] - d.samples[b * 500 + r]).filter((x) => !Number.isNaN(x))
      const mean = diffs.reduce((s, x) => s + x, 0) / diffs.length
      return (d.estimates[a] - d.estimates[b]) / Math.sqrt(diffs.reduce((s, x) => s + (x - mean) ** 2, 0) / (diffs.length - 1))
    }
    let tiny = 0
    for (const alternative of ["two.sided", "greater", "less"] as const) {
      const shift = Bootstrap.comparePairs(d, { alternative })
      const normal = Bootstrap.comparePairs(d, { alternative, bootstrapP: "normal" })
      normal.forEach((c, i) => {
        const z = zOf(c.a, c.b)
        if (c.log10P === undefined) expect(c.pValue / pValue(z, alternative), `${c.a} ${c.b} ${alternative}`).toBeCloseTo(1, 6)
        else expect(c.log10P / log10PValue(z, alternative)).toBeCloseTo(1, 9)
        expect(c.log10P === undefined).toBe(c.pValue >= 1e-300)
        tiny += +(c.log10P !== undefined)
        expect({ ...c, pValue: 0, log10P: 0 }).toEqual({ ...shift[i], pValue: 0, log10P: 0 })
      })
    }
    expect(d.degenerate[4]).toBeGreaterThan(0)
    expect(tiny).toBeGreaterThan(0)
  })
})
