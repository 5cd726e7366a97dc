import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { Ccc, Metric, Metrics, MetricValue, Moments } from "../src/index.js"

const f = (xs: ReadonlyArray<number>) => Float64Array.from(xs)

describe("Lin's concordance correlation coefficient", () => {
  it("hand-worked: gold 1 3 4 2, run 1 2 4 3 (same means) gives Pearson's 0.8; the run shifted by 1 gives 4/7", () => {
    // sums of squares and products about the means: sxg = 4, sxx = sgg = 5 (n = 4)
    // CCC = 2 sxg / (sxx + sgg + n (mean x - mean g)^2) = 8 / 10, then 8 / (10 + 4 * 1) = 4 / 7
    expect(Ccc.ccc(f([1, 3, 4, 2]), f([1, 2, 4, 3]))).toEqual(MetricValue.defined(0.8))
    expect(MetricValue.getOrNaN(Ccc.ccc(f([1, 3, 4, 2]), f([2, 3, 5, 4])))).toBeCloseTo(4 / 7, 15)
    // the run = the gold: 1; the run = 2 x the gold: 2 * 2 * 5/4 / (5/4 + 4 * 5/4 + 2.5^2) = 5 / 12.5
    expect(Ccc.ccc(f([1, 3, 4, 2]), f([1, 3, 4, 2]))).toEqual(MetricValue.defined(1))
    expect(MetricValue.getOrNaN(Ccc.ccc(f([1, 3, 4, 2]), f([2, 6, 8, 4])))).toBeCloseTo(0.4, 15)
  })

  it("is undefined on fewer than 2 pairs, non-finite scores, or the same constant; a constant run off the gold's mean gives 0", () => {
    expect(Ccc.ccc(f([1]), f([1]))._tag).toBe("Undefined")
    expect(Ccc.ccc(f([1, 2]), f([Number.NaN, 1]))).toEqual(MetricValue.undefined_(MetricValue.Reason.runNotFinite))
    expect(Ccc.ccc(f([3, 3, 3]), f([3, 3, 3]))).toEqual(MetricValue.undefined_(MetricValue.Reason.bothConstant))
    expect(Ccc.ccc(f([1, 2, 3]), f([2, 2, 2]))).toEqual(MetricValue.defined(0))
  })

  it("equals NumPy's moments (np.cov bias=True, np.var) to 1e-15 relative (a few units in the last place: NumPy sums pairwise), by `compute` and by its declared statistics", () => {
    const file = path.join(import.meta.dirname, "fixtures/ccc.numpy.json")
    const { cases } = JSON.parse(fs.readFileSync(file, "utf8")) as { cases: Array<{ name: string; gold: Array<number>; run: Array<number>; ccc: number }> }
    expect(cases.length).toBe(4)
    for (const c of cases) {
      const gold = f(c.gold)
      const run = f(c.run)
      const value = MetricValue.getOrNaN(Ccc.ccc(gold, run))
      expect(Math.abs(value - c.ccc), c.name).toBeLessThanOrEqual(1e-15 * Math.abs(c.ccc))
      const idx = Int32Array.from(gold, (_, i) => i)
      // the raw sums lose a few digits to cancellation: 1e-13 is the declared path's due
      expect(Math.abs(Metric.figureAt(Ccc.metric, gold, run, idx, idx.length) - c.ccc), c.name).toBeLessThanOrEqual(1e-13 * Math.abs(c.ccc))
    }
  })

  it("is a registry metric declared by its statistics alone: the moments and a figure of their sums", () => {
    const m = Metrics.getOrThrow("ccc")
    expect(m).toBe(Ccc.metric)
    expect(m.resampling).toMatchObject({ by: "sums", pair: Moments.pair, figure: Moments.ccc, shape: "shifted" })
    expect(m).toMatchObject({ kind: "scores", direction: "higher", correlation: true, missingValue: 0 })
  })
})
