import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { agreesOnResamples } from "./support/resample.js"
import { MetricValue, Pearson } from "@stseval/metrics"

const f = (xs: ReadonlyArray<number>) => Float64Array.from(xs)
const score = fc.integer({ min: -50000, max: 50000 }).map((v) => v / 10000)
const value = (m: MetricValue.MetricValue): number => {
  if (m._tag !== "Defined") throw new Error(`expected a value, got undefined: ${m.reason}`)
  return m.value
}

// The textbook one-pass formula, kept here only to show the offset test below is demanding.
const onePass = (x: Float64Array, y: Float64Array): number => {
  const n = x.length
  let sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0
  for (let i = 0; i < n; i++) {
    sx += x[i]; sy += y[i]; sxx += x[i] * x[i]; syy += y[i] * y[i]; sxy += x[i] * y[i]
  }
  return (n * sxy - sx * sy) / Math.sqrt((n * sxx - sx * sx) * (n * syy - sy * sy))
}

describe("Pearson.pearson", () => {
  it("hand-worked: run [1,2,3], gold [1,3,2] gives 0.5", () => {
    // mx = my = 2; dx = [-1,0,1], dy = [-1,1,0]; sxy = 1, sxx = syy = 2; r = 1/2.
    expect(value(Pearson.pearson(f([1, 3, 2]), f([1, 2, 3])))).toBeCloseTo(0.5, 15)
  })

  it("hand-worked: run [1..5], gold [2,4,5,4,5] gives 6/sqrt(60)", () => {
    // mx = 3, my = 4; dx = [-2,-1,0,1,2], dy = [-2,0,1,0,1]; sxy = 6, sxx = 10, syy = 6.
    expect(value(Pearson.pearson(f([2, 4, 5, 4, 5]), f([1, 2, 3, 4, 5])))).toBeCloseTo(6 / Math.sqrt(60), 15)
  })

  it("gives +-1 on a line, never past it (clamped)", () => {
    expect(Pearson.pearson(f([0.3, 0.6, 0.9, 2.1]), f([0.1, 0.2, 0.3, 0.7]))).toEqual(MetricValue.defined(1))
    expect(Pearson.pearson(f([6, 4, 2]), f([1, 2, 3]))).toEqual(MetricValue.defined(-1))
  })

  it("says why it is undefined instead of returning 0 or NaN", () => {
    expect(Pearson.pearson(f([1, 2, 3]), f([3, 3, 3]))).toEqual(MetricValue.undefined_("the run is constant"))
    expect(Pearson.pearson(f([2, 2, 2]), f([1, 2, 3]))).toEqual(MetricValue.undefined_("the gold is constant"))
    expect(Pearson.pearson(f([2, 2]), f([1, 1]))).toEqual(
      MetricValue.undefined_(MetricValue.Reason.bothConstant)
    )
    expect(Pearson.pearson(f([2]), f([1]))).toEqual(MetricValue.undefined_("fewer than 2 pairs"))
    expect(Pearson.pearson(f([]), f([]))).toEqual(MetricValue.undefined_("fewer than 2 pairs"))
    expect(Pearson.pearson(f([1, 2, 3]), f([1, NaN, 3]))).toEqual(
      MetricValue.undefined_(MetricValue.Reason.runNotFinite)
    )
    expect(Pearson.pearson(f([1, Infinity, 3]), f([1, 2, 3]))).toEqual(
      MetricValue.undefined_(MetricValue.Reason.goldNotFinite)
    )
  })

  it("detects a constant run whose mean does not round back to the value", () => {
    // 0.1 * 3 / 3 != 0.1 in binary: a check on sxx === 0 alone would return a garbage r here.
    expect(Pearson.pearson(f([1, 2, 4]), f([0.1, 0.1, 0.1]))).toEqual(MetricValue.undefined_("the run is constant"))
  })

  it("throws a RangeError on unaligned input (programmer error)", () => {
    expect(() => Pearson.pearson(f([1, 2, 3]), f([1, 2]))).toThrow(RangeError)
  })

  it("is exact on scores offset by 1e9, where the one-pass formula fails", () => {
    // Integers + 1e9 are exactly representable, so the true r is that of the unshifted data.
    const n = 1000
    const x = new Float64Array(n)
    const y = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      x[i] = (i * 7) % 6 // 0..5
      y[i] = ((i * 7) % 6 + ((i * 13) % 5)) % 6
    }
    const r = value(Pearson.pearson(y, x))
    const xs = x.map((v) => v + 1e9)
    const ys = y.map((v) => v + 1e9)
    expect(value(Pearson.pearson(ys, xs))).toBeCloseTo(r, 12)
    expect(Pearson.pearsonAt(xs, ys, Int32Array.from({ length: n }, (_, i) => i))).toBeCloseTo(r, 12)
    // Guard: the naive formula really is wrong here, so this test can tell the two apart.
    expect(Math.abs(onePass(xs, ys) - r) > 1e-3 || Number.isNaN(onePass(xs, ys))).toBe(true)
  })

  it("is shift- and positive-scale invariant, symmetric, and within [-1, 1] (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 })), { minLength: 3, maxLength: 60 }),
        (pairs) => {
          const x = f(pairs.map((p) => p[0] / 10))
          const y = f(pairs.map((p) => p[1] / 10))
          const r = Pearson.pearson(y, x)
          if (r._tag === "Undefined") return
          expect(Math.abs(r.value)).toBeLessThanOrEqual(1)
          expect(value(Pearson.pearson(x, y))).toBeCloseTo(r.value, 12)
          expect(value(Pearson.pearson(y, x.map((v) => 3 * v + 1e6)))).toBeCloseTo(r.value, 8)
        }
      )
    )
  })
})

describe("Pearson.pearsonAt", () => {
  it("equals pearson on the gathered resample, duplicates included (property)", () => {
    // Scores as runs write them (-5..5, 4 decimals); arbitrary tiny doubles would test underflow instead.
    agreesOnResamples(score, 40, Uint32Array, Pearson.pearsonRaw, (x, y, idx) => Pearson.pearsonAt(x, y, idx))
  })

  it("uses only the first n indices and returns NaN on a constant resample", () => {
    const x = f([1, 2, 3, 10])
    const y = f([1, 3, 2, 0])
    expect(Pearson.pearsonAt(x, y, Int32Array.from([0, 1, 2, 3]), 3)).toBeCloseTo(0.5, 15)
    expect(Pearson.pearsonAt(x, y, Int32Array.from([1, 1, 1]))).toBeNaN()
    expect(Pearson.pearsonAt(x, y, Int32Array.from([1]))).toBeNaN()
  })
})
