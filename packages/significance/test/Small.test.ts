// McNemar, Holm / Bonferroni, clusters and the Fisher-z interval, against hand-worked values.
import { describe, expect, it } from "vitest"
import { Cluster, Correction, CorrelationInterval, McNemar, TestResult } from "../src/index.js"

const ok = <A>(a: A | TestResult.InvalidInput): A => {
  if (TestResult.isInvalid(a)) throw a
  return a
}

describe("McNemar", () => {
  it("exact binomial when b + c < 25", () => {
    // b = 2, c = 8: 2 * P(X <= 2 | 10, 1/2) = 2 * (1 + 10 + 45) / 1024
    const r = ok(McNemar.test(2, 8))
    expect(r.method).toBe("exact")
    expect(r.pValue).toBeCloseTo(112 / 1024, 14)
    // b = 0, c = 5: 2 / 32
    expect(ok(McNemar.test(0, 5)).pValue).toBeCloseTo(1 / 16, 14)
    // b = c = 3: 2 * 42 / 64 > 1, capped
    expect(ok(McNemar.test(3, 3)).pValue).toBe(1)
    expect(ok(McNemar.test(0, 0)).pValue).toBe(1)
  })
  it("chi-square with continuity correction when b + c >= 25", () => {
    // (|10 - 20| - 1)^2 / 30 = 2.7; P(chi2_1 > 2.7) = erfc(sqrt(2.7 / 2)) = 0.10034824646229074
    const r = ok(McNemar.test(10, 20))
    expect(r.method).toBe("chisq")
    expect(r.statistic).toBeCloseTo(2.7, 14)
    expect(r.df).toBe(1)
    expect(r.pValue).toBeCloseTo(0.10034824646229074, 12)
    // (|40 - 15| - 1)^2 / 55 = 10.472727...
    expect(ok(McNemar.test(40, 15)).statistic).toBeCloseTo(576 / 55, 12)
  })
  it("the method can be forced", () => {
    expect(ok(McNemar.test(10, 20, { method: "exact" })).method).toBe("exact")
    // (|2 - 8| - 1)^2 / 10 = 2.5
    expect(ok(McNemar.test(2, 8, { method: "chisq" })).statistic).toBeCloseTo(25 / 10, 14)
  })
  it("discordant counts from labels", () => {
    const gold = ["ENTAILMENT", "NEUTRAL", "CONTRADICTION", "NEUTRAL", "NEUTRAL"]
    const a = ["ENTAILMENT", "NEUTRAL", "NEUTRAL", "ENTAILMENT", "NEUTRAL"]
    const b = ["NEUTRAL", "NEUTRAL", "CONTRADICTION", "ENTAILMENT", "CONTRADICTION"]
    expect(ok(McNemar.compareLabels(gold, a, b))).toMatchObject({ b: 2, c: 1, method: "exact", statistic: 2 })
    expect(TestResult.isInvalid(McNemar.compareLabels(gold, a, b.slice(1)))).toBe(true)
  })
  it("rejects negative or fractional counts", () => {
    expect(TestResult.isInvalid(McNemar.test(-1, 3))).toBe(true)
    expect(TestResult.isInvalid(McNemar.test(1.5, 3))).toBe(true)
  })
})

describe("Holm and Bonferroni", () => {
  // sorted: 0.005 (x4), 0.01 (x3), 0.03 (x2) -> 0.06, 0.04 (x1) -> max(0.06, 0.04)
  const p = [0.01, 0.04, 0.03, 0.005]
  it("Holm step-down", () => {
    Correction.holm(p).forEach((v, i) => expect(v).toBeCloseTo([0.03, 0.06, 0.06, 0.02][i], 14))
  })
  it("Bonferroni", () => {
    Correction.bonferroni(p).forEach((v, i) => expect(v).toBeCloseTo([0.04, 0.16, 0.12, 0.02][i], 14))
    expect(Correction.bonferroni([0.5, 0.3])).toEqual([1, 0.6])
  })
  it("Holm with ties (R: p.adjust(c(.02, .01, .02, .02, .5, .01, NA), \"holm\")) and, on 3,000 p-values with many ties and zeros, the textbook max over the ranks below, bit for bit", () => {
    const out = Correction.holm([0.02, 0.01, 0.02, 0.02, 0.5, 0.01, Number.NaN])
    out.slice(0, 6).forEach((v, i) => expect(v).toBeCloseTo([0.08, 0.06, 0.08, 0.08, 0.5, 0.06][i], 15))
    expect(out[6]).toBeNaN()
    const many = Array.from({ length: 3000 }, (_, i) => ((i * 7919) % 1000) / 4000 * ((i % 11) / 10))
    const order = many.map((_, i) => i).sort((a, b) => many[a] - many[b] || a - b)
    const textbook = new Array<number>(many.length)
    order.forEach((i, rank) => {
      let max = 0
      for (let j = 0; j <= rank; j++) max = Math.max(max, Math.min(1, (many.length - j) * many[order[j]]))
      textbook[i] = max
    })
    expect(Correction.holm(many)).toEqual(textbook)
  })
  it("NaN stays NaN and does not count", () => {
    const out = Correction.holm([0.01, Number.NaN, 0.02])
    expect(out[1]).toBeNaN()
    expect(out[0]).toBeCloseTo(0.02, 14)
    expect(out[2]).toBeCloseTo(0.02, 14)
  })
})

describe("clusters", () => {
  // 5 runs by rank; significant (p <= 0.05) only: 0-3, 0-4, 1-4, 2-4, and 1-3
  const sig = new Set(["0-3", "0-4", "1-4", "2-4", "1-3"])
  const p: Cluster.PValue = (i, j) => (sig.has(`${Math.min(i, j)}-${Math.max(i, j)}`) ? 0.01 : 0.5)
  it("best: runs not significantly different from the best", () => {
    expect(Cluster.best(5, p)).toEqual([0, 1, 2])
  })
  it("rank ranges grow outwards to the first significant difference", () => {
    expect(Cluster.rankRanges(5, p)).toEqual([
      { lo: 0, hi: 2 },
      { lo: 0, hi: 2 },
      { lo: 0, hi: 3 },
      { lo: 2, hi: 4 },
      { lo: 3, hi: 4 }
    ])
  })
  it("greedy contiguous groups of mutually indistinguishable runs", () => {
    expect(Cluster.groups(5, p)).toEqual([0, 0, 0, 1, 1])
  })
  it("fromComparisons builds a symmetric lookup", () => {
    const look = Cluster.fromComparisons(3, [{ a: 0, b: 2, pValue: 0.01 }])
    expect(look(2, 0)).toBe(0.01)
    expect(look(0, 1)).toBe(1)
  })
})

describe("Fisher-z interval for one correlation", () => {
  it("r = 0.5, n = 28: tanh(atanh(0.5) -+ 1.959964 / 5)", () => {
    const iv = ok(CorrelationInterval.fisher(0.5, 28))
    expect(iv.ci[0]).toBeCloseTo(0.15602836252908595, 9)
    expect(iv.ci[1]).toBeCloseTo(0.7358184794439376, 9)
  })
  it("rejects |r| = 1 and n <= 3", () => {
    expect(TestResult.isInvalid(CorrelationInterval.fisher(1, 28))).toBe(true)
    expect(TestResult.isInvalid(CorrelationInterval.fisher(0.5, 3))).toBe(true)
  })
})
