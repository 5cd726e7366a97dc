import { describe, expect, it } from "vitest"
import { Pearson, MetricValue, Rescale } from "@stseval/metrics"

const f = (xs: ReadonlyArray<number>) => Float64Array.from(xs)

describe("Rescale.rescale", () => {
  it("hand-worked: s' = 5 (s - min s) / (max s - min s)", () => {
    // min 1, max 5, span 4: 1 -> 0, 3 -> 5*2/4 = 2.5, 5 -> 5, 2 -> 1.25
    expect(Array.from(Rescale.rescale(f([1, 3, 5, 2])))).toEqual([0, 2.5, 5, 1.25])
  })

  it("maps a 0-1 system onto 0-5 with the extremes pinned exactly", () => {
    const out = Rescale.rescale(f([0.2, 0.6, 1]))
    expect(out[0]).toBe(0)
    expect(out[2]).toBe(5)
    expect(out[1]).toBeCloseTo(2.5, 12)
  })

  it("maps onto another scale (STS 2014 Spanish is 0-4)", () => {
    expect(Array.from(Rescale.rescale(f([10, 20, 30]), 0, 4))).toEqual([0, 2, 4])
    expect(Array.from(Rescale.rescale(f([10, 20, 30]), 1, 5))).toEqual([1, 3, 5])
  })

  it("leaves Pearson unchanged", () => {
    const x = f([0.12, 0.5, 0.33, 0.9, 0.41])
    const gold = f([1, 3.2, 2.2, 4.8, 2.5])
    expect(MetricValue.getOrNaN(Pearson.pearson(gold, Rescale.rescale(x)))).toBeCloseTo(
      MetricValue.getOrNaN(Pearson.pearson(gold, x)),
      12
    )
  })

  it("throws on a constant run, a non-finite score or an empty scale; empty run gives empty", () => {
    expect(Rescale.isConstant(f([2, 2, 2]))).toBe(true)
    expect(Rescale.isConstant(f([2, 2, 3]))).toBe(false)
    expect(() => Rescale.rescale(f([2, 2, 2]))).toThrow(/constant/)
    expect(() => Rescale.rescale(f([1, NaN]))).toThrow(RangeError)
    expect(() => Rescale.rescale(f([1, 2]), 5, 5)).toThrow(RangeError)
    expect(Rescale.rescale(f([])).length).toBe(0)
  })
})

describe("Rescale.unitScale and maxAbs", () => {
  it("a power of two that brings extreme magnitudes into [0.5, 4); 1 in the safe range", () => {
    for (const m of [5e200, 1.7e308, 3e-300, 2 ** 101, 2 ** -101]) {
      const p = Rescale.unitScale(m)
      expect(Math.log2(p)).toBe(Math.round(Math.log2(p)))
      expect(m * p).toBeGreaterThanOrEqual(0.5)
      expect(m * p).toBeLessThan(4)
    }
    // a subnormal maximum: p stays a finite double (2^1022), which leaves it near 2^-52, far from underflow
    expect(4e-320 * Rescale.unitScale(4e-320)).toBeGreaterThan(2 ** -60)
    for (const m of [4.5, 1, 2 ** 100, 2 ** -100, 0, Infinity, Number.NaN]) expect(Rescale.unitScale(m)).toBe(1)
  })
  it("maxAbs over a range, NaN ignored", () => {
    expect(Rescale.maxAbs(f([2, -7, 3]))).toBe(7)
    expect(Rescale.maxAbs(f([2, -7, 3, 9]), 0, 3)).toBe(7)
    expect(Rescale.maxAbs(f([2, -7, 3]), 2)).toBe(3)
    expect(Rescale.maxAbs(f([Number.NaN, 1]))).toBe(1)
    expect(Rescale.maxAbs(f([]))).toBe(0)
  })
})
