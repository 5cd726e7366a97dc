import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { MetricValue, Mse, Pearson } from "@stseval/metrics"

const f = (xs: ReadonlyArray<number>) => Float64Array.from(xs)
// Scores as runs write them: 0-5 with up to 4 decimals.
const score = fc.integer({ min: 0, max: 50000 }).map((v) => v / 10000)

describe("Mse.mse (raw, the official SICK figure)", () => {
  it("hand-worked: run [1,2,3], gold [1,2,5] gives 4/3", () => {
    // Squared errors 0, 0, 4; mean 4/3.
    expect(MetricValue.getOrNaN(Mse.mse(f([1, 2, 5]), f([1, 2, 3])))).toBeCloseTo(4 / 3, 15)
  })

  it("is not shift invariant (unlike the standardised variant)", () => {
    // Every error is 1, so MSE = 1; standardised MSE = 2(1 - 1) = 0.
    expect(Mse.mse(f([1, 2, 3]), f([2, 3, 4]))).toEqual(MetricValue.defined(1))
    expect(MetricValue.getOrNaN(Mse.standardisedMse(f([1, 2, 3]), f([2, 3, 4])))).toBeCloseTo(0, 15)
  })

  it("is undefined on no pairs or a non-finite score, and throws on unaligned input", () => {
    expect(Mse.mse(f([]), f([]))).toEqual(MetricValue.undefined_("no pairs"))
    expect(Mse.mse(f([1]), f([NaN]))).toEqual(MetricValue.undefined_(MetricValue.Reason.runNotFinite))
    expect(Mse.mse(f([Infinity]), f([1]))).toEqual(MetricValue.undefined_(MetricValue.Reason.goldNotFinite))
    expect(() => Mse.mse(f([1, 2]), f([1]))).toThrow(RangeError)
  })
})

describe("Mse.standardisedMse", () => {
  it("hand-worked: run [1,2,3], gold [1,3,2] gives 1 = 2(1 - 0.5)", () => {
    // Population SD of both sides = sqrt(2/3); z_run = [-1,0,1]/sqrt(2/3), z_gold = [-1,1,0]/sqrt(2/3).
    // Differences [0, -1, 1]/sqrt(2/3), squares [0, 1.5, 1.5], mean 1.
    expect(MetricValue.getOrNaN(Mse.standardisedMse(f([1, 3, 2]), f([1, 2, 3])))).toBeCloseTo(1, 14)
  })

  it("says which side is constant", () => {
    expect(Mse.standardisedMse(f([1, 2]), f([1, 1]))).toEqual(MetricValue.undefined_("the run is constant"))
    expect(Mse.standardisedMse(f([3, 3]), f([1, 2]))).toEqual(MetricValue.undefined_("the gold is constant"))
    expect(Mse.standardisedMse(f([3]), f([1]))).toEqual(MetricValue.undefined_("fewer than 2 pairs"))
  })

  it("equals 2(1 - r) (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(score, score), { minLength: 2, maxLength: 80 }),
        (pairs) => {
          const x = f(pairs.map((p) => p[0]))
          const y = f(pairs.map((p) => p[1]))
          const r = Pearson.pearson(y, x)
          const s = Mse.standardisedMse(y, x)
          if (r._tag === "Undefined") {
            expect(s._tag).toBe("Undefined")
            return
          }
          expect(MetricValue.getOrNaN(s)).toBeCloseTo(2 * (1 - r.value), 9)
        }
      )
    )
  })
})
