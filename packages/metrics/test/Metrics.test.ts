import { describe, expect, it } from "vitest"
import { Accuracy, Ccc, Kendall, Metric, Metrics, MetricValue, Mse, Pearson, Spearman, WeightedPearson } from "../src/index.js"

const gold = new Float64Array([1, 3, 4, 2, 5, 2.5])
const run = new Float64Array([1, 2, 4, 3, 4.5, 2])
const conf = new Float64Array([100, 50, 80, 20, 100, 60])
const identity = Int32Array.from(gold, (_, i) => i)

describe("Metrics registry", () => {
  it("finds every descriptor by its own name, once", () => {
    expect(new Set(Metrics.names).size).toBe(Metrics.all.length)
    for (const m of Metrics.all) expect(Metrics.get(m.name)).toBe(m)
    expect(Metrics.get("nope")).toBeUndefined()
    expect(() => Metrics.getOrThrow("nope")).toThrow(/unknown metric "nope" \(known: pearson, spearman/)
  })

  it("a scores descriptor computes what its module's function computes", () => {
    expect(Metrics.getOrThrow("pearson").kind).toBe("scores")
    expect(Pearson.metric.compute(gold, run)).toEqual(Pearson.pearson(gold, run))
    expect(Spearman.metric.compute(gold, run)).toEqual(Spearman.spearman(gold, run))
    expect(Mse.metric.compute(gold, run)).toEqual(Mse.mse(gold, run))
    expect(Mse.standardisedMetric.compute(gold, run)).toEqual(Mse.standardisedMse(gold, run))
    expect(WeightedPearson.metric.compute(gold, run, conf)).toEqual(WeightedPearson.weightedPearson(gold, run, conf))
    expect(WeightedPearson.metric.compute(gold, run)).toEqual(MetricValue.undefined_("the run gives no confidence on its lines"))
  })

  it("the figure from the declared statistics (or ranks) over every pair once equals `compute` to 1e-12", () => {
    for (const m of [Pearson.metric, Spearman.metric, Kendall.metric, Mse.metric, Mse.standardisedMetric, WeightedPearson.metric, Ccc.metric]) {
      const expected = MetricValue.getOrNaN(m.compute(gold, run, conf))
      expect(Number.isFinite(expected), m.name).toBe(true)
      expect(Math.abs(Metric.figureAt(m, gold, run, identity, identity.length, conf) - expected), m.name).toBeLessThanOrEqual(1e-12 * Math.abs(expected))
    }
    // pairs 0, 0, 2, 4 (a resample): MSE of (1,1), (1,1), (4,4), (4.5,5) = 0.25 / 4
    expect(Metric.figureAt(Mse.metric, gold, run, new Int32Array([0, 0, 2, 4]), 4)).toBe(0.0625)
    expect(Metric.figureAt(Pearson.metric, gold, run, new Int32Array([0]), 1)).toBeNaN()
    // a constant run over the resample, and weighted Pearson without confidences: no figure
    expect(Metric.figureAt(Pearson.metric, gold, run, new Int32Array([0, 1, 0]), 3)).toBeCloseTo(1, 15)
    expect(Metric.figureAt(Pearson.metric, gold, run, new Int32Array([1, 5]), 2)).toBeNaN()
    expect(Metric.figureAt(WeightedPearson.metric, gold, run, identity, identity.length)).toBeNaN()
  })

  it("every built-in metric declares how it resamples; only the rank metrics need ranks", () => {
    for (const m of Metrics.all) expect(["sums", "ranks"], m.name).toContain(m.resampling.by)
    expect(Metrics.all.filter((m) => m.resampling.by === "ranks").map((m) => m.name)).toEqual(["spearman", "kendall"])
    expect(Metrics.all.some((m) => "kernel" in m || "at" in m)).toBe(false)
  })

  it("label descriptors: accuracy in percent and macro-F1, by strings and by codes", () => {
    const g = ["A", "B", "B", "C"]
    const r = ["A", "B", "A", "A"]
    expect(Accuracy.metric.compute(g, r)).toEqual(MetricValue.defined(50))
    // F1: A 2*1/(1+3) = 0.5, B 2*1/(2+1) = 2/3, C 0 -> mean 7/18
    expect(MetricValue.getOrNaN(Accuracy.macroF1Metric.compute(g, r))).toBeCloseTo(7 / 18, 15)
    const code = (l: string) => ["A", "B", "C"].indexOf(l)
    const gc = Int32Array.from(g, code)
    const rc = Int32Array.from(r, code)
    const all = new Int32Array([0, 1, 2, 3])
    expect(Metric.figureAt(Accuracy.metric, gc, rc, all, 4, undefined, 3)).toBe(50)
    expect(Metric.figureAt(Accuracy.macroF1Metric, gc, rc, all, 4, undefined, 3)).toBeCloseTo(7 / 18, 15)
    // pairs 1, 1, 3: B/B, B/B, C/A -> 2 of 3 correct; F1: A 0 (0 + 1), B 2*2/(2+2) = 1, C 0 (1 + 0) -> 1/3
    expect(Metric.figureAt(Accuracy.metric, gc, rc, new Int32Array([1, 1, 3]), 3, undefined, 3)).toBeCloseTo(200 / 3, 12)
    expect(Metric.figureAt(Accuracy.macroF1Metric, gc, rc, new Int32Array([1, 1, 3]), 3, undefined, 3)).toBeCloseTo(1 / 3, 15)
    expect(Accuracy.metric.compute([], [])).toEqual(MetricValue.undefined_("no pairs"))
  })

  it("what few pairs do to a metric's percentile intervals is said by its descriptor (measured for Pearson and Spearman only), not looked up by its name elsewhere", () => {
    expect(Pearson.metric.fewPairsCoverage).toContain("less often than their level says")
    expect(Spearman.metric.fewPairsCoverage).toContain("more often than their level says")
    for (const m of Metrics.all.filter((d) => d !== Pearson.metric && d !== Spearman.metric)) expect(m.fewPairsCoverage, m.name).toBeUndefined()
  })
})
