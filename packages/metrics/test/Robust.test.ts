/**
 * Scale invariance at the edges of the double range: scores multiplied by 1e300 or 1e-320 (a
 * subnormal), or one score of 1e308, must give the same figures as the plain scores (Pearson,
 * Spearman and the standardised MSE are invariant to a positive scale), and "constant" must mean
 * "every value equal", not "the variance underflowed".
 *
 * The references are computed here independently: every scaled value is turned back into an exact
 * small number (a multiple of 2^-1074, or an exact power-of-two rescaling) and fed to the textbook
 * formula in ordinary range.
 */
import { describe, expect, it } from "vitest"
import { Aggregate, Mse, MetricValue, Pearson, Rescale, Spearman, WeightedPearson } from "@stseval/metrics"
import { pearson as textbook } from "@stseval/vitest-config/reference"

const f = (xs: ReadonlyArray<number>) => Float64Array.from(xs)
const value = (m: MetricValue.MetricValue): number => {
  if (m._tag !== "Defined") throw new Error(`expected a value, got undefined: ${m.reason}`)
  return m.value
}

// Ten pairs of a SICK-like run (1-5 scale) and gold: r is about 0.8.
const RUN = [3.1, 4.2, 2.5, 4.9, 1.2, 3.8, 2.2, 4.4, 3.3, 1.9]
const GOLD = [3.0, 4.5, 3.2, 4.6, 1.0, 3.1, 2.9, 4.8, 2.7, 2.4]

// 2^1074 in two exact steps (it is not a double itself): a subnormal times it is an exact integer.
const fromSubnormal = (v: number) => v * 2 ** 537 * 2 ** 537
const scaled = (xs: ReadonlyArray<number>, k: number) => xs.map((v) => v * k)

describe("Pearson at the edges of the double range", () => {
  const r = textbook(RUN, GOLD)

  it("the reference r of the plain scores is about 0.8", () => {
    expect(value(Pearson.pearson(f(GOLD), f(RUN)))).toBeCloseTo(r, 14)
    expect(r).toBeGreaterThan(0.8)
  })

  it("scores multiplied by 1e300 (squares overflow) give the plain r", () => {
    // x * 1e300 is x rounded once at 1e300 scale: r is the plain r to rounding (1e-15 relative).
    expect(value(Pearson.pearson(f(GOLD), f(scaled(RUN, 1e300))))).toBeCloseTo(r, 13)
    expect(value(Pearson.pearson(f(scaled(GOLD, 1e300)), f(RUN)))).toBeCloseTo(r, 13)
    expect(value(Pearson.pearson(f(scaled(GOLD, -1e300)), f(scaled(RUN, 1e300))))).toBeCloseTo(-r, 13)
  })

  it("scores multiplied by an exact power of two near 1e300 give exactly the plain r", () => {
    expect(value(Pearson.pearson(f(GOLD), f(scaled(RUN, 2 ** 996))))).toBe(value(Pearson.pearson(f(GOLD), f(RUN))))
  })

  it("scores multiplied by 1e-320 (subnormal: squares underflow to 0) are not 'constant'", () => {
    const x = scaled(RUN, 1e-320)
    // Subnormals keep only ~11 bits here: the reference is r of the exact integers k in x = k 2^-1074.
    const reference = textbook(x.map(fromSubnormal), GOLD)
    expect(Math.abs(reference - r)).toBeLessThan(1e-3)
    expect(value(Pearson.pearson(f(GOLD), f(x)))).toBeCloseTo(reference, 13)
    expect(value(Pearson.pearson(f(x), f(GOLD)))).toBeCloseTo(reference, 13)
    expect(Pearson.pearsonAt(f(x), f(GOLD), Int32Array.from(RUN.keys()))).toBeCloseTo(reference, 13)
  })

  it("one score of 1e308 is a valid (if extreme) score, not 'non-finite'", () => {
    const x = [...RUN.slice(0, 9), 1e308]
    // Reference: divide by 2^1000 (exact), then the textbook formula in ordinary range.
    const reference = textbook(scaled(x, 2 ** -1000), GOLD)
    expect(value(Pearson.pearson(f(GOLD), f(x)))).toBeCloseTo(reference, 13)
    // Differences overflow too: 1e308 - (-1e308) is Infinity.
    const y = [-1e308, ...GOLD.slice(1)]
    expect(value(Pearson.pearson(f(y), f(x)))).toBeCloseTo(textbook(scaled(x, 2 ** -1000), scaled(y, 2 ** -1000)), 13)
    expect(Pearson.pearsonAt(f(x), f(y), Int32Array.from(RUN.keys()))).toBeCloseTo(textbook(scaled(x, 2 ** -1000), scaled(y, 2 ** -1000)), 13)
  })

  it("'constant' means every value equal, at any scale", () => {
    expect(Pearson.pearson(f([1, 2, 3]), f([5e-324, 5e-324, 5e-324]))).toEqual(MetricValue.undefined_(MetricValue.Reason.runConstant))
    expect(Pearson.pearson(f([1, 2, 3]), f([1e308, 1e308, 1e308]))).toEqual(MetricValue.undefined_(MetricValue.Reason.runConstant))
    // Two neighbouring subnormals differ: r is defined (here exactly 1: a line).
    expect(Pearson.pearson(f([1, 2, 3]), f([5e-324, 1e-323, 1.5e-323]))).toEqual(MetricValue.defined(1))
    expect(Pearson.pearsonAt(f([5e-324, 1e-323, 1.5e-323]), f([1, 2, 3]), Int32Array.of(0, 1, 2))).toBe(1)
  })

  it("NaN and Infinity are still non-finite", () => {
    expect(Pearson.pearson(f([1, 2, 3]), f([1, Infinity, 2]))).toEqual(MetricValue.undefined_(MetricValue.Reason.runNotFinite))
    expect(Pearson.pearson(f([1, NaN, 3]), f([1, 2, 3]))).toEqual(MetricValue.undefined_(MetricValue.Reason.goldNotFinite))
    expect(Pearson.pearsonAt(f([1, -Infinity, 2]), f([1, 2, 3]), Int32Array.of(0, 1, 2))).toBeNaN()
  })
})

describe("Spearman, weighted Pearson, MSE, rescaling and the pooled aggregates at the edges", () => {
  const rho = value(Spearman.spearman(f(GOLD), f(RUN)))

  it("Spearman is unchanged by 1e300, 1e-320 (ranks are kept) and a 1e308 outlier", () => {
    expect(value(Spearman.spearman(f(GOLD), f(scaled(RUN, 1e300))))).toBeCloseTo(rho, 14)
    expect(value(Spearman.spearman(f(GOLD), f(scaled(RUN, 1e-320))))).toBeCloseTo(rho, 14)
    // 4.9 is the largest run score: replacing it by 1e308 keeps every rank.
    expect(value(Spearman.spearman(f(GOLD), f(RUN.map((v) => (v === 4.9 ? 1e308 : v)))))).toBeCloseTo(rho, 14)
  })

  it("weighted Pearson with scaled scores and scaled weights gives the plain weighted r", () => {
    const w = f([100, 80, 60, 100, 90, 70, 50, 100, 40, 30])
    const plain = value(WeightedPearson.weightedPearson(f(GOLD), f(RUN), w))
    expect(value(WeightedPearson.weightedPearson(f(GOLD), f(scaled(RUN, 1e300)), w))).toBeCloseTo(plain, 13)
    expect(value(WeightedPearson.weightedPearson(f(scaled(GOLD, 2 ** -1000)), f(RUN), w))).toBeCloseTo(plain, 13)
    expect(value(WeightedPearson.weightedPearson(f(GOLD), f(RUN), f(scaled([...w], 1e306))))).toBeCloseTo(plain, 13)
    expect(WeightedPearson.weightedPearson(f([1, 2, 3]), f([1e-320, 1e-320, 1e-320]), f([1, 1, 1]))).toEqual(
      MetricValue.undefined_(MetricValue.Reason.runConstant)
    )
  })

  it("standardised MSE (= 2(1 - r)) is scale invariant", () => {
    const plain = value(Mse.standardisedMse(f(GOLD), f(RUN)))
    expect(plain).toBeCloseTo(2 * (1 - textbook(RUN, GOLD)), 13)
    expect(value(Mse.standardisedMse(f(GOLD), f(scaled(RUN, 1e300))))).toBeCloseTo(plain, 13)
    expect(value(Mse.standardisedMse(f(GOLD), f(scaled(RUN, 2 ** -1000))))).toBeCloseTo(plain, 13)
  })

  it("raw MSE: a huge but finite mean is given, one too large for a double says so", () => {
    // errors 1e200 on two of four pairs: mean square 0.5e400 overflows; 1e150: 0.5e300 does not.
    expect(value(Mse.mse(f([0, 0, 0, 0]), f([1e150, 0, -1e150, 0])))).toBeCloseTo(0.5e300, -285)
    expect(Mse.mse(f([0, 0, 0, 0]), f([1e200, 0, -1e200, 0]))).toEqual(MetricValue.undefined_(MetricValue.Reason.tooLarge))
    // 1e308 - (-1e308) overflows as a difference, but is finite input.
    expect(Mse.mse(f([-1e308]), f([1e308]))).toEqual(MetricValue.undefined_(MetricValue.Reason.tooLarge))
    expect(Mse.mse(f([1]), f([NaN]))).toEqual(MetricValue.undefined_(MetricValue.Reason.runNotFinite))
  })

  it("rescaling a run spanning -1e308..1e308 maps it onto 0-5", () => {
    expect(Array.from(Rescale.rescale(f([-1e308, 0, 1e308])))).toEqual([0, 2.5, 5])
    expect(Array.from(Rescale.rescale(f([5e-324, 1e-323, 1.5e-323])))).toEqual([0, 2.5, 5])
  })

  it("pooled and ALLnrm are scale invariant", () => {
    const xs = [f(RUN.slice(0, 5)), f(RUN.slice(5))]
    const ys = [f(GOLD.slice(0, 5)), f(GOLD.slice(5))]
    const pooled = value(Aggregate.pooled(xs, ys))
    const nrm = value(Aggregate.allNrm(xs, ys))
    const big = xs.map((x) => f(scaled([...x], 1e300)))
    const tiny = xs.map((x) => f(scaled([...x], 2 ** -1000)))
    expect(value(Aggregate.pooled(big, ys))).toBeCloseTo(pooled, 13)
    // ALLnrm fits each dataset's run to its gold: any scale of the run, per dataset, gives the same figure.
    expect(value(Aggregate.allNrm(big, ys))).toBeCloseTo(nrm, 13)
    expect(value(Aggregate.allNrm([big[0], tiny[1]], ys))).toBeCloseTo(nrm, 13)
    expect(value(Aggregate.allNrm(xs, ys.map((y) => f(scaled([...y], 1e300)))))).toBeCloseTo(nrm, 13)
  })
})
