// Metrics without a dedicated kernel (issue 21): intervals, bootstrap p-values and ranks of Kendall's
// tau-b, MSE, weighted Pearson and macro-F1, checked against fixtures/generic.reference.json, which
// fixtures/generic_reference.py computed with NumPy and SciPy over the index multisets of the
// documented random stream (reimplemented there in Python, not read from this package). Then: a
// copy of Pearson's descriptor without its kernel gives Pearson's intervals, bootstrap and
// randomisation (the generic path draws the very resamples the kernels draw); lower-is-better
// ranking; the zero rule's and the pooled rule's refusals; metrics by name.
import * as fs from "node:fs"
import * as path from "node:path"
import { Accuracy, Ccc, Metrics, MetricValue, Moments, Mse, Pearson } from "@stseval/metrics"
import type { Metric } from "@stseval/metrics"
import { describe, expect, it } from "vitest"
import { Bootstrap, Compare, Intervals, Permutation, TestResult } from "../src/index.js"
import { makeRuns } from "./data.js"

const ok = <A>(a: A | TestResult.InvalidInput): A => {
  if (TestResult.isInvalid(a)) throw a
  return a
}

interface JsonScores {
  readonly gold: ReadonlyArray<number | string>
  readonly run: ReadonlyArray<number | string>
  readonly confidence?: ReadonlyArray<number>
}
interface JsonCase {
  readonly datasets: ReadonlyArray<{ readonly name: string; readonly metric: string; readonly weight?: number }>
  readonly runs: ReadonlyArray<{ readonly id: string; readonly ranked?: boolean; readonly scores: Record<string, JsonScores> }>
  readonly official: Intervals.Rule
  readonly missingDataset: "zero" | "no-official-score"
  readonly aggregates?: ReadonlyArray<Intervals.Labelled>
}
interface JsonFigure {
  readonly value: number | null
  readonly ci: readonly [number, number] | null
  readonly used: number
}
interface Fixture {
  readonly intervals: ReadonlyArray<{
    readonly case: JsonCase
    readonly resamples: number
    readonly seed: number
    readonly level: number
    readonly expected: ReadonlyArray<{ readonly id: string; readonly figures: ReadonlyArray<JsonFigure>; readonly rank?: number; readonly rankInterval?: readonly [number, number] }>
  }>
  readonly bootstrap: ReadonlyArray<{
    readonly metric: string
    readonly gold: ReadonlyArray<number>
    readonly runs: ReadonlyArray<ReadonlyArray<number>>
    readonly confidences?: ReadonlyArray<ReadonlyArray<number>>
    readonly strata?: ReadonlyArray<number>
    readonly aggregate?: "weighted" | "unweighted"
    readonly resamples: number
    readonly seed: number
    readonly expected: {
      readonly estimates: ReadonlyArray<number>
      readonly pairs: ReadonlyArray<{ readonly a: number; readonly b: number; readonly pValue: number; readonly ci: readonly [number, number]; readonly valid: number }>
    }
  }>
}

const fixture = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures/generic.reference.json"), "utf8")) as Fixture

const scoresOf = (s: JsonScores): Intervals.Scores =>
  typeof s.gold[0] === "string"
    ? { gold: s.gold as ReadonlyArray<string>, run: s.run as ReadonlyArray<string> }
    : {
        gold: Float64Array.from(s.gold as ReadonlyArray<number>),
        run: Float64Array.from(s.run as ReadonlyArray<number>),
        ...(s.confidence !== undefined ? { confidence: Float64Array.from(s.confidence) } : {})
      }

const inputOf = (c: JsonCase): Intervals.Input => ({
  ...c,
  runs: c.runs.map((r) => ({ ...r, scores: Object.fromEntries(Object.entries(r.scores).map(([k, s]) => [k, scoresOf(s)])) }))
})

/** Datasets, then the labelled aggregates in the input's order, then the official figure (the reference's order). */
const figuresOf = (input: Intervals.Input, run: Intervals.RunIntervals): Array<Intervals.Figure> => [
  ...run.datasets,
  ...(input.aggregates ?? []).map((a) => run.aggregates[a]!),
  run.official
]

describe("intervals of metrics without a kernel, against NumPy / SciPy on the same resamples", () => {
  for (const { case: c, resamples, seed, level, expected } of fixture.intervals) {
    const metric = c.datasets[0].metric
    it(`${metric}: ${c.datasets.length} dataset(s), ${c.runs.length} runs, official ${c.official} (${c.missingDataset}), ${resamples} resamples`, () => {
      const input = inputOf(c)
      const result = ok(Intervals.compute(input, { resamples, seed, level }))
      expect(result.signatureText).toContain(`metrics:${metric}|`)
      result.runs.forEach((run, k) => {
        const want = expected[k]
        expect(run.id).toBe(want.id)
        const figures = figuresOf(input, run)
        expect(figures.length).toBe(want.figures.length)
        figures.forEach((f, i) => {
          const w = want.figures[i]
          if (w.value === null) expect(f.value).toBeUndefined()
          else expect(Math.abs(f.value! - w.value)).toBeLessThan(1e-12)
          if (w.ci === null) {
            expect(f.ci).toBeUndefined()
          } else {
            expect(f.used).toBe(w.used)
            expect(Math.abs(f.ci!.low - w.ci[0])).toBeLessThan(1e-12)
            expect(Math.abs(f.ci!.high - w.ci[1])).toBeLessThan(1e-12)
          }
        })
        expect(run.rank).toBe(want.rank)
        expect(run.rankInterval === undefined ? undefined : [run.rankInterval.low, run.rankInterval.high]).toEqual(want.rankInterval)
      })
    })
  }

  it("the reference is not trivial: a run lacking a dataset, an unranked run, MSE ranked lowest first", () => {
    const [kendall, mse] = fixture.intervals
    expect(kendall.expected[3].figures[1].value).toBeNull()
    expect(kendall.expected[1].rank).toBeUndefined()
    // MSE: run1 has the lowest official mean (rank 1), run2 the highest (rank 3)
    const official = mse.expected.map((r) => r.figures[r.figures.length - 1].value!)
    expect(mse.expected.map((r) => r.rank)).toEqual(official.map((v) => 1 + official.filter((u) => u < v).length))
    expect(mse.expected.find((r) => r.rank === 1)!.id).toBe("run1")
  })
})

describe("the paired bootstrap on metrics without a kernel, against NumPy / SciPy on the same resamples", () => {
  for (const b of fixture.bootstrap) {
    it(`${b.metric}: ${b.runs.length} runs${b.strata !== undefined ? ", stratified" : ""}, ${b.resamples} resamples`, () => {
      const d = ok(
        Bootstrap.resample(Float64Array.from(b.gold), b.runs.map((r) => Float64Array.from(r)), {
          metric: b.metric,
          resamples: b.resamples,
          seed: b.seed,
          ...(b.strata !== undefined ? { strata: b.strata, aggregate: b.aggregate } : {}),
          ...(b.confidences !== undefined ? { confidences: b.confidences.map((c) => Float64Array.from(c)) } : {})
        })
      )
      expect(d.signature.metric).toBe(b.metric)
      b.expected.estimates.forEach((e, k) => expect(Math.abs(d.estimates[k] - e)).toBeLessThan(1e-12))
      const pairs = Bootstrap.comparePairs(d)
      expect(pairs.length).toBe(b.expected.pairs.length)
      pairs.forEach((p, i) => {
        const w = b.expected.pairs[i]
        expect([p.a, p.b, p.valid]).toEqual([w.a, w.b, w.valid])
        expect(p.pValue).toBe(w.pValue)
        expect(Math.abs(p.ci[0] - w.ci[0])).toBeLessThan(1e-12)
        expect(Math.abs(p.ci[1] - w.ci[1])).toBeLessThan(1e-12)
      })
    })
  }
})

// ---------------------------------------------------------------------------------------------

/**
 * Pearson's descriptor under another name, its moments declared with a figure of their own (not
 * Pearson's, and no shape): the generic path computes it, by the sums of its statistics.
 */
const pearsonCopy: Metric.ScoresMetric = {
  ...Pearson.metric,
  name: "pearson-copy",
  resampling: { by: "sums", statistics: () => Moments.count, pair: Moments.pair, figure: (s, o) => Moments.pearson(s, o) }
}

const close = (a: number | undefined, b: number | undefined, digits = 1e-12) => {
  if (a === undefined || b === undefined) expect(a).toBe(b)
  else expect(Math.abs(a - b)).toBeLessThan(digits)
}

const sameFigure = (f: Intervals.Figure, g: Intervals.Figure) => {
  close(f.value, g.value)
  close(f.ci?.low, g.ci?.low)
  close(f.ci?.high, g.ci?.high)
  expect([f.used, f.degenerate, f.reason]).toEqual([g.used, g.degenerate, g.reason])
}

describe("a copy of Pearson's descriptor declared by its statistics alone gives Pearson's figures: the generic path shares the kernels' resamples", () => {
  const t1 = makeRuns(40, [0.7, 1.2, 2, 1], 31)
  const t2 = makeRuns(25, [0.9, 0.8, 1.5, 3], 32)
  // run 3 lacks t2 (the zero rule), run 1 is not ranked
  const inputWith = (m1: Intervals.Metric, m2: Intervals.Metric, aggregates: ReadonlyArray<Intervals.Labelled>): Intervals.Input => ({
    datasets: [
      { name: "t1", metric: m1 },
      { name: "t2", metric: m2, weight: 30 }
    ],
    runs: [0, 1, 2, 3].map((k) => ({
      id: `run${k}`,
      ...(k === 1 ? { ranked: false } : {}),
      scores: {
        t1: { run: t1.runs[k], gold: t1.gold },
        ...(k === 3 ? {} : { t2: { run: t2.runs[k], gold: t2.gold } })
      }
    })),
    official: "wmean",
    missingDataset: "zero",
    aggregates
  })
  const options = { resamples: 300, seed: 21, level: 0.9 }

  it("in one call beside a Pearson dataset: the copy's dataset has Pearson's intervals there, the Pearson dataset its bits", () => {
    const pearson = ok(Intervals.compute(inputWith("pearson", "pearson", ["mean", "wmean"]), options))
    const mixed = ok(Intervals.compute(inputWith("pearson", pearsonCopy, ["mean", "wmean"]), options))
    expect(mixed.signatureText).toBe(`${pearson.signatureText.replace("|rng:", "|metrics:pearson+pearson-copy|rng:")}`)
    mixed.runs.forEach((run, k) => {
      const p = pearson.runs[k]
      expect(run.datasets[0]).toEqual(p.datasets[0])
      expect(run.datasets[1].metric).toBe("pearson-copy")
      sameFigure(run.datasets[1], p.datasets[1])
      sameFigure(run.official, p.official)
      sameFigure(run.aggregates.mean!, p.aggregates.mean!)
      expect([run.rank, run.rankInterval, run.overlapsBest]).toEqual([p.rank, p.rankInterval, p.overlapsBest])
    })
  })

  it("a generic dataset's figures do not depend on which kernels run beside it (Spearman's walks draw their own, the same stream)", () => {
    const withSpearman = ok(Intervals.compute({ ...inputWith("spearman", "kendall", ["mean"]), missingDataset: "no-official-score" }, options))
    const withPearson = ok(Intervals.compute({ ...inputWith("pearson", "kendall", ["mean"]), missingDataset: "no-official-score" }, options))
    const alone = ok(Intervals.compute({ ...inputWith("kendall", "kendall", ["mean"]), missingDataset: "no-official-score" }, options))
    withSpearman.runs.forEach((run, k) => {
      expect(run.datasets[1]).toEqual(withPearson.runs[k].datasets[1])
      expect(run.datasets[1]).toEqual(alone.runs[k].datasets[1])
    })
    expect(withSpearman.runs[0].datasets[1].ci).toBeDefined()
  })

  it("pooled and ALLnrm of the copy (its figure over the pooled draws) equal Pearson's sums", () => {
    const input = (m: Intervals.Metric) => ({ ...inputWith(m, m, ["pooled", "allnrm"]), official: "pooled" as const })
    const pearson = ok(Intervals.compute(input("pearson"), options))
    const copy = ok(Intervals.compute(input(pearsonCopy), options))
    copy.runs.forEach((run, k) => {
      const p = pearson.runs[k]
      run.datasets.forEach((f, d) => sameFigure(f, p.datasets[d]))
      sameFigure(run.aggregates.pooled!, p.aggregates.pooled!)
      sameFigure(run.aggregates.allnrm!, p.aggregates.allnrm!)
      sameFigure(run.official, p.official)
      expect([run.rank, run.rankInterval]).toEqual([p.rank, p.rankInterval])
    })
    // run 3 lacks t2: no official pooled figure, a labelled one over t1 alone
    expect(copy.runs[3].official.value).toBeUndefined()
    expect(copy.runs[3].aggregates.pooled!.value).toBeCloseTo(MetricValue.getOrNaN(Pearson.pearson(t1.gold, t1.runs[3])), 12)
  })

  it("the paired bootstrap and approximate randomisation", () => {
    const runs = t1.runs.slice(0, 3)
    const strata = Int32Array.from({ length: 40 }, (_, i) => (i < 15 ? 0 : 1))
    const p = ok(Bootstrap.resample(t1.gold, runs, { resamples: 500, seed: 4, strata, aggregate: "unweighted" }))
    const c = ok(Bootstrap.resample(t1.gold, runs, { resamples: 500, seed: 4, strata, aggregate: "unweighted", metric: pearsonCopy }))
    for (let i = 0; i < p.samples.length; i++) close(c.samples[i], p.samples[i])
    const [pp, cc] = [Bootstrap.comparePairs(p), Bootstrap.comparePairs(c)]
    cc.forEach((x, i) => {
      expect(x.pValue).toBe(pp[i].pValue)
      close(x.ci[0], pp[i].ci[0])
      close(x.ci[1], pp[i].ci[1])
    })
    const q = ok(Permutation.test(t1.gold, runs[0], runs[1], { resamples: 500, seed: 6 }))
    const r = ok(Permutation.test(t1.gold, runs[0], runs[1], { resamples: 500, seed: 6, metric: pearsonCopy }))
    close(r.estimateA, q.estimateA)
    close(r.difference, q.difference)
    expect([r.pValue, r.valid]).toEqual([q.pValue, q.valid])
    expect(r.signature.metric).toBe("pearson-copy")
  })
})

describe("Lin's CCC, declared by the moments alone, is resampled by the moments kernel in intervals", () => {
  const t1 = makeRuns(60, [0.7, 1.2, 2, 1], 41)
  const t2 = makeRuns(45, [0.9, 0.8, 1.5, 3], 42)
  // the same statistics and figure without a shape: summed pair by pair over each resample's draws
  const cccByStatistics: Metric.ScoresMetric = {
    ...Ccc.metric,
    name: "ccc-by-statistics",
    resampling: { by: "sums", statistics: () => Moments.count, pair: Moments.pair, figure: Moments.ccc, centred: true }
  }
  const input = (m: Intervals.Metric): Intervals.Input => ({
    // run 1 shifted by 0.8: CCC, unlike Pearson, sees it
    datasets: [{ name: "t1", metric: m }, { name: "t2", metric: m }],
    runs: [0, 1, 2, 3].map((k) => ({
      id: `run${k}`,
      scores: { t1: { run: t1.runs[k].map((x) => x + (k === 1 ? 0.8 : 0)), gold: t1.gold }, t2: { run: t2.runs[k], gold: t2.gold } }
    })),
    official: "mean",
    missingDataset: "no-official-score"
  })
  it("gives the intervals, ranks and rank intervals of the same statistics summed per resample, to 1e-12; its estimates are `compute`'s", () => {
    const options = { resamples: 400, seed: 5 }
    const kernel = ok(Intervals.compute(input("ccc"), options))
    const summed = ok(Intervals.compute(input(cccByStatistics), options))
    kernel.runs.forEach((run, k) => {
      const p = summed.runs[k]
      run.datasets.forEach((f, d) => sameFigure(f, p.datasets[d]))
      sameFigure(run.official, p.official)
      expect([run.rank, run.rankInterval]).toEqual([p.rank, p.rankInterval])
      const gold = t1.gold
      const value = MetricValue.getOrNaN(Ccc.ccc(gold, t1.runs[k].map((x) => x + (k === 1 ? 0.8 : 0))))
      expect(Math.abs(run.datasets[0].value! - value)).toBeLessThan(1e-13)
    })
    // the shifted run loses to the unshifted ones of similar noise
    expect(kernel.runs[1].datasets[0].value!).toBeLessThan(MetricValue.getOrNaN(Ccc.ccc(t1.gold, t1.runs[1])) - 0.05)
  })
})

describe("lower is better (MSE)", () => {
  const { gold, runs } = makeRuns(60, [0.4, 1.5, 0.5, 2.5], 41)
  it("Compare.many ranks by increasing MSE and marks the runs tied with the lowest", () => {
    const m = ok(Compare.many(gold, runs, { metric: "mse", resamples: 400, seed: 2 }))
    const mse = runs.map((r) => MetricValue.getOrNaN(Mse.mse(gold, r)))
    expect(m.ranking).toEqual([0, 2, 1, 3])
    m.estimates.forEach((e, k) => expect(e).toBeCloseTo(mse[k], 12))
    expect(m.comparisons.every((c) => c.test === "bootstrap" && c.a === 0)).toBe(true)
    expect(m.best).toContain(0)
    expect(m.best).not.toContain(3)
    expect(m.signature).toContain("metric:mse")
  })

  it("Intervals ranks the lowest official figure first", () => {
    const result = ok(
      Intervals.compute(
        { datasets: [{ name: "t", metric: "mse" }], official: "single", missingDataset: "zero", runs: runs.map((run, k) => ({ id: `r${k}`, scores: { t: { run, gold } } })) },
        { resamples: 200, seed: 3 }
      )
    )
    expect(result.runs.map((r) => r.rank)).toEqual([1, 3, 2, 4])
    expect(result.bestGroup[0]).toBe("r0")
  })
})

describe("refusals and names", () => {
  const { gold, runs } = makeRuns(30, [1, 2], 51)
  const two = (m1: Intervals.Metric, m2: Intervals.Metric, rest: Partial<Intervals.Input> = {}): Intervals.Input => ({
    datasets: [
      { name: "a", metric: m1 },
      { name: "b", metric: m2 }
    ],
    runs: runs.map((run, k) => ({ id: `r${k}`, scores: { a: { run, gold }, b: { run, gold } } })),
    official: "mean",
    missingDataset: "no-official-score",
    ...rest
  })
  const invalid = (x: unknown) => {
    expect(x).toBeInstanceOf(TestResult.InvalidInput)
    return x as TestResult.InvalidInput
  }

  it("the zero rule needs the metric's missing value: refused for MSE in an official mean, accepted where it does not apply", () => {
    const e = invalid(Intervals.compute(two("mse", "mse", { official: "wmean", missingDataset: "zero" })))
    expect(e.field).toBe("missingDataset")
    expect(e.message).toMatch(/mse has no value/)
    ok(Intervals.compute(two("mse", "mse", { official: "mean", missingDataset: "no-official-score" }), { resamples: 50 }))
    ok(Intervals.compute({ ...two("mse", "mse"), datasets: [{ name: "a", metric: "mse" }], official: "single", missingDataset: "zero", runs: [{ id: "r", scores: { a: { run: runs[0], gold } } }] }, { resamples: 50 }))
  })

  it("pooled and allnrm only over datasets of one correlation", () => {
    expect(invalid(Intervals.compute(two("mse", "mse", { official: "pooled" }))).expected).toBe("pooled only over datasets of a correlation")
    expect(invalid(Intervals.compute(two("kendall", "pearson", { aggregates: ["allnrm"] }))).expected).toBe("allnrm only over Kendall's tau-b datasets")
    expect(invalid(Intervals.compute(two("kendall", "pearson", { aggregates: ["allnrm"] }))).field).toBe("aggregates")
    ok(Intervals.compute(two("kendall", "kendall", { official: "pooled", aggregates: ["allnrm"] }), { resamples: 50 }))
  })

  it("one direction for aggregates and ranks", () => {
    const e = invalid(Intervals.compute(two("pearson", "mse")))
    expect(e.field).toBe("datasets[1].metric")
    expect(e.found).toBe("mse")
  })

  it("an unknown metric name is an InvalidInput naming the field and the known names", () => {
    const e = invalid(Intervals.compute(two("pearson", "tau")))
    expect(e.field).toBe("datasets[1].metric")
    expect(e.expected).toContain(Metrics.names.join(", "))
    expect(invalid(Bootstrap.resample(gold, runs, { metric: "tau" })).field).toBe("metric")
    expect(invalid(Compare.two(gold, runs[0], runs[1], { metric: "tau" })).field).toBe("metric")
    expect(invalid(Compare.many(gold, runs, { metric: "tau" })).field).toBe("metric")
    expect(invalid(Permutation.test(gold, runs[0], runs[1], { metric: "tau" })).field).toBe("metric")
  })

  it("weighted Pearson needs the runs' confidences; labels need label arrays", () => {
    expect(invalid(Bootstrap.resample(gold, runs, { metric: "weighted-pearson" })).field).toBe("confidences")
    expect(invalid(Bootstrap.resample(gold, runs, { metric: "accuracy" })).field).toBe("gold")
    // without confidences an Intervals figure is undefined, and says why
    const r = ok(Intervals.compute({ ...two("weighted-pearson", "weighted-pearson") }, { resamples: 50 }))
    expect(r.runs[0].datasets[0].reason).toBe("Weighted Pearson is undefined on a (the run gives no confidence on its lines)")
  })
})

describe("the default test follows the metric (no refusal for a metric the cocor tests cannot take)", () => {
  const { gold, runs } = makeRuns(80, [1, 1.4], 61)
  it("Pearson: Williams' t; any other metric, or an aggregate: the paired bootstrap", () => {
    expect(Compare.testFor("pearson")).toBe("williams1959")
    for (const m of ["spearman", "kendall", "mse", "accuracy", "macro-f1", "ccc"]) expect(Compare.testFor(m)).toBe("bootstrap")
    expect(Compare.testFor(pearsonCopy)).toBe("bootstrap")
    // a copy of Pearson's declaration (moments and figure) under another name is Pearson: no name decides
    expect(Compare.testFor({ ...Pearson.metric, name: "r" })).toBe("williams1959")
    expect(Compare.testFor("pearson", 3)).toBe("bootstrap")
    expect(Compare.testFor("pearson", 1, "steiger1980")).toBe("steiger1980")
    expect(Compare.testFor("kendall", 1, "steiger1980")).toBe("bootstrap")
  })

  it("Compare.two with Spearman or Kendall and no test named: the bootstrap on that metric, with its signature", () => {
    for (const metric of ["spearman", "kendall"]) {
      const c = ok(Compare.two(gold, runs[0], runs[1], { metric, resamples: 300, seed: 1 }))
      expect(c.test).toBe("bootstrap")
      expect(c.signature).toBe(`method:bootstrap|resamples:300|seed:1|metric:${metric}|strata:none|rng:xoroshiro128plus|version:0.1.0`)
      const m = Metrics.getOrThrow(metric)
      if (m.kind !== "scores") throw new Error(`${metric} is a metric of scores`)
      expect(c.estimateA).toBeCloseTo(MetricValue.getOrNaN(m.compute(gold, runs[0])), 12)
    }
    // approximate randomisation takes any metric too
    const p = ok(Compare.two(gold, runs[0], runs[1], { metric: "kendall", test: "permutation", resamples: 200, seed: 1 }))
    expect(p.signature).toContain("metric:kendall")
  })

  it("labels: accuracy by the bootstrap over label strings", () => {
    const labels = ["E", "N", "C"]
    const g = Array.from({ length: 60 }, (_, i) => labels[(i * 7) % 3])
    const a = g.map((l, i) => (i % 4 === 0 ? labels[(labels.indexOf(l) + 1) % 3] : l))
    const b = g.map((l, i) => (i % 3 === 0 ? labels[(labels.indexOf(l) + 1) % 3] : l))
    const c = ok(Compare.two(g, a, b, { metric: "accuracy", resamples: 300, seed: 2 }))
    expect(c.test).toBe("bootstrap")
    expect(c.estimateA).toBeCloseTo(Accuracy.accuracy(g, a).accuracy, 12)
    expect(c.estimateB).toBeCloseTo(Accuracy.accuracy(g, b).accuracy, 12)
  })
})
