import { describe, expect, it } from "vitest"
import { Aggregate, MetricValue } from "@stseval/metrics"

const f = (xs: ReadonlyArray<number>) => Float64Array.from(xs)

describe("Aggregate.wmean", () => {
  it("hand-worked: (0.5 * 250 + 0.8 * 750) / 1000 = 0.725", () => {
    expect(Aggregate.wmean([0.5, 0.8], [250, 750])).toBeCloseTo(0.725, 15)
  })

  it("reproduces STS 2014 Table 3: LIPN-run2 with deft-forum only (r = 0.084) has 0.010", () => {
    // 2014 English datasets: deft-forum 450, deft-news 300, headlines 750, images 750, OnWN 750,
    // tweet-news 750 pairs; missing datasets count as r = 0. 0.084 * 450 / 3750 = 0.01008.
    const w = Aggregate.wmean([0.084, 0, 0, 0, 0, 0], [450, 300, 750, 750, 750, 750])
    expect(w.toFixed(3)).toBe("0.010")
  })

  it("is NaN with no weight and throws on bad input", () => {
    expect(Aggregate.wmean([], [])).toBeNaN()
    expect(() => Aggregate.wmean([1], [])).toThrow(RangeError)
    expect(() => Aggregate.wmean([1], [-1])).toThrow(RangeError)
  })
})

describe("Aggregate.mean", () => {
  it("reproduces the STS 2017 baseline primary score 53.70 from its seven tracks", () => {
    // Published per-track Pearson x 100 of baseline-tokencos (SemEval-2017 Task 1, Table 10).
    const tracks = [60.45, 51.55, 71.17, 62.2, 3.2, 72.78, 54.56]
    expect(Aggregate.mean(tracks).toFixed(2)).toBe("53.70")
    expect(Aggregate.mean([])).toBeNaN()
  })
})

describe("Aggregate.pooled", () => {
  it("hand-worked: Pearson over the concatenation (STS 2012 ALL)", () => {
    // run [1,2 | 3,4], gold [1,2 | 4,3]: means 2.5; dx = [-1.5,-0.5,0.5,1.5], dy = [-1.5,-0.5,1.5,0.5]
    // sxy = 2.25 + 0.25 + 0.75 + 0.75 = 4; sxx = syy = 5; r = 0.8.
    const r = Aggregate.pooled([f([1, 2]), f([3, 4])], [f([1, 2]), f([4, 3])])
    expect(MetricValue.getOrNaN(r)).toBeCloseTo(0.8, 15)
  })

  it("throws on misaligned datasets", () => {
    expect(() => Aggregate.pooled([f([1, 2])], [f([1])])).toThrow(RangeError)
    expect(() => Aggregate.pooled([f([1, 2])], [])).toThrow(RangeError)
  })
})

describe("Aggregate.allNrm", () => {
  it("is 1 when each dataset's run is a line in its gold, whatever the slope", () => {
    // Fits are exact (slope 2 and slope -1), so the fitted run equals the gold.
    const r = Aggregate.allNrm([f([1, 2, 3]), f([1, 2, 3])], [f([2, 4, 6]), f([3, 2, 1])])
    expect(MetricValue.getOrNaN(r)).toBeCloseTo(1, 14)
    // ... while the plain pooled figure is not.
    const p = Aggregate.pooled([f([1, 2, 3]), f([1, 2, 3])], [f([2, 4, 6]), f([3, 2, 1])])
    expect(MetricValue.getOrNaN(p)).toBeLessThan(0.9)
  })

  it("hand-worked, with a constant run on one dataset", () => {
    // Dataset 1: run [1,2,3], gold [1,3,2]: slope = sxy/sxx = 1/2, fitted 2 + (x-2)/2 = [1.5, 2, 2.5].
    // Dataset 2: run [7,7] is constant: fitted = gold mean = [2, 2].
    // Pooled: fitted [1.5,2,2.5,2,2], gold [1,3,2,0,4]; both means 2.
    // df = [-0.5,0,0.5,0,0], dg = [-1,1,0,-2,2]: sxy = 0.5, sxx = 0.5, syy = 10; r = 0.5/sqrt(5).
    const r = Aggregate.allNrm([f([1, 2, 3]), f([7, 7])], [f([1, 3, 2]), f([0, 4])])
    expect(MetricValue.getOrNaN(r)).toBeCloseTo(0.5 / Math.sqrt(5), 14)
  })

  it("is undefined when the run is constant within every dataset", () => {
    const r = Aggregate.allNrm([f([1, 1]), f([5, 5])], [f([0, 4]), f([1, 3])])
    expect(r._tag).toBe("Undefined")
  })
})
