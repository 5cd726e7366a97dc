import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { MetricValue, Pearson, WeightedPearson } from "@stseval/metrics"

const f = (xs: ReadonlyArray<number>) => Float64Array.from(xs)
// Scores as runs write them: 0-5 with up to 4 decimals. (Arbitrary doubles such as 1e-162 would
// test IEEE underflow of squared deviations, not the weighting.)
const score = fc.integer({ min: 0, max: 50000 }).map((v) => v / 10000)
const pairArb = fc.array(fc.tuple(score, score), { minLength: 2, maxLength: 50 })

describe("WeightedPearson.weightedPearson", () => {
  it("hand-worked: run [1,2,3], gold [1,3,2], confidences [1,1,2] gives 1/sqrt(5.5)", () => {
    // Weighted means: mx = (1 + 2 + 2*3)/4 = 2.25, my = (1 + 3 + 2*2)/4 = 2.
    // dx = [-1.25, -0.25, 0.75], dy = [-1, 1, 0]
    // sum w dx dy = 1.25 - 0.25 + 0 = 1; sum w dx^2 = 1.5625 + 0.0625 + 2*0.5625 = 2.75;
    // sum w dy^2 = 1 + 1 + 0 = 2. The 1/sum(w) factors cancel: r_w = 1 / sqrt(2.75 * 2).
    const r = WeightedPearson.weightedPearson(f([1, 3, 2]), f([1, 2, 3]), f([1, 1, 2]))
    expect(MetricValue.getOrNaN(r)).toBeCloseTo(1 / Math.sqrt(5.5), 15)
  })

  it("with constant weights equals plain Pearson (property)", () => {
    fc.assert(
      fc.property(pairArb, fc.integer({ min: 1, max: 100 }), (pairs, c) => {
        const x = f(pairs.map((p) => p[0]))
        const y = f(pairs.map((p) => p[1]))
        const plain = Pearson.pearson(y, x)
        const weighted = WeightedPearson.weightedPearson(y, x, new Float64Array(x.length).fill(c))
        if (plain._tag === "Undefined") expect(weighted).toEqual(plain)
        else expect(MetricValue.getOrNaN(weighted)).toBeCloseTo(plain.value, 12)
      })
    )
  })

  it("with integer weights equals Pearson over the pairs repeated that many times (property)", () => {
    fc.assert(
      fc.property(pairArb, fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 50, maxLength: 50 }), (pairs, ws) => {
        const x = f(pairs.map((p) => p[0]))
        const y = f(pairs.map((p) => p[1]))
        const counts = Uint32Array.from(pairs, (_, i) => ws[i])
        const idx: Array<number> = []
        counts.forEach((c, i) => {
          for (let k = 0; k < c; k++) idx.push(i)
        })
        const expected = Pearson.pearsonAt(x, y, Int32Array.from(idx))
        const got = WeightedPearson.weightedPearsonRaw(y, x, counts)
        if (Number.isNaN(expected)) expect(got).toBeNaN()
        else expect(got).toBeCloseTo(expected, 12)
      })
    )
  })

  it("ignores zero-weight pairs and explains undefined cases", () => {
    // The pair with confidence 0 would make r negative; without it the run is a line.
    const r = WeightedPearson.weightedPearson(f([1, 2, 3, 0]), f([1, 2, 3, 9]), f([50, 50, 50, 0]))
    expect(MetricValue.getOrNaN(r)).toBeCloseTo(1, 15)
    expect(WeightedPearson.weightedPearson(f([1, 2]), f([1, 2]), f([0, 0]))).toEqual(
      MetricValue.undefined_(MetricValue.Reason.weightsZero)
    )
    expect(WeightedPearson.weightedPearson(f([1, 2]), f([1, 2]), f([1, -1]))).toEqual(
      MetricValue.undefined_(MetricValue.Reason.weightsNotValid)
    )
    expect(WeightedPearson.weightedPearson(f([1, 2, 3]), f([1, 2, 5]), f([1, 0, 0]))).toEqual(
      MetricValue.undefined_("fewer than 2 pairs")
    )
    // Constant among the weighted pairs, though not overall.
    expect(WeightedPearson.weightedPearson(f([1, 2, 3]), f([4, 4, 5]), f([1, 1, 0]))).toEqual(
      MetricValue.undefined_("the run is constant")
    )
    expect(() => WeightedPearson.weightedPearson(f([1, 2]), f([1, 2]), f([1]))).toThrow(RangeError)
  })

  it("is accurate on scores offset by 1e9", () => {
    const x = f([0, 1, 2, 3, 4, 5, 1, 2])
    const y = f([1, 1, 2, 4, 3, 5, 0, 2])
    const w = f([10, 20, 30, 40, 50, 60, 70, 80])
    const r = WeightedPearson.weightedPearsonRaw(y, x, w)
    expect(WeightedPearson.weightedPearsonRaw(y.map((v) => v + 1e9), x.map((v) => v + 1e9), w)).toBeCloseTo(r, 12)
  })
})
