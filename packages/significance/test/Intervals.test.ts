// Intervals on every figure and rank, checked against a plain implementation written here: the
// documented random stream drawn with pure-rand directly, each resample gathered into copies,
// figures from textbook formulas and @stseval/metrics' aggregates (pooled, ALLnrm), the edition's
// rules written out, ranks by counting, percentiles by a full sort. Plus known behaviour: a run far
// ahead of the rest ranks [1, 1]; bootstrap intervals of a correlation and of an accuracy agree
// with their textbook normal-theory widths within Monte-Carlo error.
import { Aggregate, MetricValue } from "@stseval/metrics"
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus"
import { describe, expect, it } from "vitest"
import { Bootstrap, Intervals, TestResult } from "../src/index.js"
import { makeRuns, mulberry32, normals, pearson, spearman } from "./data.js"
import { sameFigures } from "./engineCases.js"

const ok = <A>(a: A | TestResult.InvalidInput): A => {
  if (TestResult.isInvalid(a)) throw a
  return a
}

// ---------------------------------------------------------------------------------------------
// The plain implementation

/** Per resample, per dataset, the drawn indices (the stream documented in random.ts). */
const draws = (seed: number, B: number, sizes: ReadonlyArray<number>): Array<Array<Array<number>>> => {
  const out: Array<Array<Array<number>>> = []
  const rng = xoroshiro128plus(seed)
  for (let b0 = 0; b0 < B; b0 += 64) {
    const chunk = rng.clone()
    rng.jump()
    for (let b = b0; b < Math.min(B, b0 + 64); b++) {
      out.push(
        sizes.map((n) => {
          const picks: Array<number> = []
          for (let j = 0; j < n; j++) {
            for (;;) {
              // Lemire: the high word of u32 * n, unless the low word falls below 2^32 mod n
              const x = (chunk.next() >>> 0) * n
              if (x % 4294967296 >= (4294967296 - n) % n) {
                picks.push(Math.floor(x / 4294967296))
                break
              }
            }
          }
          return picks
        })
      )
    }
  }
  return out
}

const constant = (v: ArrayLike<number>): boolean => {
  for (let i = 1; i < v.length; i++) if (v[i] !== v[0]) return false
  return true
}

type Numeric = { run: Float64Array; gold: Float64Array }
type Labels = { run: ReadonlyArray<string>; gold: ReadonlyArray<string> }

/** One figure of one dataset on the pairs `idx`; NaN when undefined (a constant side). */
const datasetFigure = (metric: Intervals.Metric, s: Intervals.Scores, idx: ReadonlyArray<number>): number => {
  if (metric === "accuracy") {
    const l = s as Labels
    return (100 * idx.filter((i) => l.run[i] === l.gold[i]).length) / idx.length
  }
  const x = idx.map((i) => (s as Numeric).run[i])
  const y = idx.map((i) => (s as Numeric).gold[i])
  if (constant(x) || constant(y)) return Number.NaN
  return metric === "pearson" ? pearson(x, y) : spearman(x, y)
}

const gathered = (s: Intervals.Scores, idx: ReadonlyArray<number>) => ({
  run: Float64Array.from(idx, (i) => (s as Numeric).run[i]),
  gold: Float64Array.from(idx, (i) => (s as Numeric).gold[i])
})

/** Every figure of every run (datasets, labelled aggregates, official) on one resample. */
const figuresOf = (input: Intervals.Input, idx: ReadonlyArray<ReadonlyArray<number>>): Array<Array<number>> =>
  input.runs.map((run) => {
    const per = input.datasets.map((ds, d) => {
      const s = run.scores[ds.name]
      return s === undefined ? Number.NaN : datasetFigure(ds.metric, s, idx[d])
    })
    const present = input.datasets.map((ds, d) => ({ ds, d, s: run.scores[ds.name] })).filter((p) => p.s !== undefined)
    const withFigure = input.datasets.map((_, d) => d).filter((d) => !Number.isNaN(per[d]))
    const size = (d: number) => idx[d].length
    const pooledOf = (nrm: boolean, over: typeof present) => {
      if (over.length === 0) return Number.NaN
      const parts = over.map((p) => gathered(p.s as Intervals.Scores, idx[p.d]))
      const f = nrm ? Aggregate.allNrm : Aggregate.pooled
      return MetricValue.getOrNaN(f(parts.map((p) => p.run), parts.map((p) => p.gold)))
    }
    const labelled = (input.aggregates ?? []).map((name) => {
      if (name === "pooled" || name === "allnrm") return pooledOf(name === "allnrm", present)
      if (withFigure.length === 0) return Number.NaN
      return name === "wmean"
        ? Aggregate.wmean(withFigure.map((d) => per[d]), withFigure.map(size))
        : Aggregate.mean(withFigure.map((d) => per[d]))
    })
    let official: number
    if (present.length === 0) official = Number.NaN
    else if (input.official === "single") official = per[0]
    else if (input.official === "pooled" || input.official === "allnrm") {
      official = present.length === input.datasets.length ? pooledOf(input.official === "allnrm", present) : Number.NaN
    } else if (input.missingDataset === "no-official-score" && withFigure.length < input.datasets.length) {
      official = Number.NaN
    } else {
      // ScoredRun.officialMean: a dataset without a figure enters as 0 with its (annotated) weight
      const values = per.map((v) => (Number.isNaN(v) ? 0 : v))
      const weights = input.datasets.map((ds, d) => (Number.isNaN(per[d]) ? (ds.weight ?? size(d)) : size(d)))
      official = input.official === "wmean" ? Aggregate.wmean(values, weights) : Aggregate.mean(values)
    }
    return [...per, ...labelled, official]
  })

const type7 = (values: ReadonlyArray<number>, p: number): number => {
  const s = [...values].sort((a, b) => a - b)
  const h = (s.length - 1) * p
  const lo = Math.floor(h)
  return lo + 1 < s.length ? s[lo] + (h - lo) * (s[lo + 1] - s[lo]) : s[lo]
}

/** Competition rank: 1 + the number of strictly better values; undefined values rank last. */
const competitionRanks = (values: ReadonlyArray<number>): Array<number> => {
  const defined = values.filter((v) => !Number.isNaN(v))
  return values.map((v) => (Number.isNaN(v) ? defined.length + 1 : 1 + defined.filter((u) => u > v).length))
}

interface Expected {
  readonly estimates: Array<Array<number>>
  readonly ci: Array<Array<readonly [number, number] | undefined>>
  readonly degenerate: Array<Array<number>>
  readonly used: Array<Array<number>>
  readonly ranks: Map<number, number>
  readonly rankIntervals: Map<number, readonly [number, number]>
}

const reference = (input: Intervals.Input, B: number, seed: number, level: number): Expected => {
  const sizes = input.datasets.map((ds) => {
    const s = input.runs.map((r) => r.scores[ds.name]).find((x) => x !== undefined)
    return s === undefined ? 0 : s.gold.length
  })
  const identity = sizes.map((n) => Array.from({ length: n }, (_, i) => i))
  const estimates = figuresOf(input, identity)
  const resampled = draws(seed, B, sizes).map((idx) => figuresOf(input, idx))
  const D = input.datasets.length
  const L = (input.aggregates ?? []).length
  const rule = input.official
  // a correlation entering the figure was undefined (though defined originally), per the rule
  const hit = (k: number, f: number, row: Array<number>): boolean => {
    const orig = estimates[k]
    const datasetHit = (d: number) => Number.isNaN(row[d]) && !Number.isNaN(orig[d])
    if (f < D) return datasetHit(f)
    const name = f < D + L ? (input.aggregates ?? [])[f - D] : rule
    if (name === "pooled" || name === "allnrm") return Number.isNaN(row[f]) && !Number.isNaN(orig[f])
    if (name === "single") return datasetHit(0)
    return input.datasets.some((ds, d) => input.runs[k].scores[ds.name] !== undefined && datasetHit(d))
  }
  const alpha = 1 - level
  const ci = estimates.map((row, k) =>
    row.map((value, f) => {
      if (Number.isNaN(value)) return undefined
      const values = resampled.map((r) => r[k][f]).filter((v) => !Number.isNaN(v))
      if (B - values.length > Math.floor(alpha * B + 1e-9)) return undefined
      return [type7(values, alpha / 2), type7(values, 1 - alpha / 2)] as const
    })
  )
  const degenerate = estimates.map((row, k) => row.map((_, f) => (Number.isNaN(row[f]) ? 0 : resampled.filter((r) => hit(k, f, r[k])).length)))
  const used = estimates.map((row, k) => row.map((_, f) => (Number.isNaN(row[f]) ? 0 : resampled.filter((r) => !Number.isNaN(r[k][f])).length)))
  const OFF = D + L
  const rankedRuns = input.runs.map((_, k) => k).filter((k) => input.runs[k].ranked !== false && !Number.isNaN(estimates[k][OFF]))
  const originalRanks = competitionRanks(rankedRuns.map((k) => estimates[k][OFF]))
  const perResample = resampled.map((r) => competitionRanks(rankedRuns.map((k) => r[k][OFF])))
  const ranks = new Map(rankedRuns.map((k, j) => [k, originalRanks[j]]))
  const rankIntervals = new Map(
    rankedRuns.map((k, j) => {
      const rs = perResample.map((r) => r[j])
      return [k, [Math.floor(type7(rs, alpha / 2)), Math.ceil(type7(rs, 1 - alpha / 2))] as const]
    })
  )
  return { estimates, ci, degenerate, used, ranks, rankIntervals }
}

/** Every figure of a result in the reference's order: datasets, labelled aggregates, official. */
const figuresOfResult = (input: Intervals.Input, r: Intervals.RunIntervals): Array<Intervals.Figure> => [
  ...r.datasets,
  ...(input.aggregates ?? []).map((name) => r.aggregates[name] as Intervals.Figure),
  r.official
]

const expectMatches = (input: Intervals.Input, result: Intervals.Result, expected: Expected) => {
  result.runs.forEach((run, k) => {
    const figures = figuresOfResult(input, run)
    expect(figures.length).toBe(expected.estimates[k].length)
    figures.forEach((fig, f) => {
      const where = `${run.id} figure ${f}`
      const value = expected.estimates[k][f]
      if (Number.isNaN(value)) {
        expect(fig.value, where).toBeUndefined()
        expect(fig.reason, where).toBeTypeOf("string")
      } else {
        expect(fig.value, where).toBeCloseTo(value, 12)
      }
      const ci = expected.ci[k][f]
      if (ci === undefined) expect(fig.ci, where).toBeUndefined()
      else {
        expect(fig.ci?.low, where).toBeCloseTo(ci[0], 10)
        expect(fig.ci?.high, where).toBeCloseTo(ci[1], 10)
        expect(fig.ci?.level, where).toBe(result.level)
      }
      expect(fig.degenerate, where).toBe(expected.degenerate[k][f])
      expect(fig.used, where).toBe(expected.used[k][f])
    })
    expect(run.rank, run.id).toBe(expected.ranks.get(k))
    const ri = expected.rankIntervals.get(k)
    expect(run.rankInterval, run.id).toEqual(ri === undefined ? undefined : { low: ri[0], high: ri[1] })
  })
}

/** Each interval contains its estimate (true of these well-behaved runs, not of every statistic). */
const expectContainsEstimates = (input: Intervals.Input, result: Intervals.Result) => {
  for (const run of result.runs) {
    for (const fig of figuresOfResult(input, run)) {
      if (fig.ci === undefined || fig.value === undefined) continue
      expect(fig.ci.low).toBeLessThanOrEqual(fig.value)
      expect(fig.ci.high).toBeGreaterThanOrEqual(fig.value)
    }
    if (run.rankInterval !== undefined && run.rank !== undefined) {
      expect(run.rankInterval.low).toBeLessThanOrEqual(run.rank)
      expect(run.rankInterval.high).toBeGreaterThanOrEqual(run.rank)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Data built here

/** Datasets of the given sizes; run k on dataset d = gold + noise[k] * N(0, 1). */
const stsLike = (sizes: ReadonlyArray<number>, noise: ReadonlyArray<number>, seed: number) =>
  sizes.map((n, d) => makeRuns(n, noise, seed + 31 * d))

const stsInput = (
  sizes: ReadonlyArray<number>,
  noise: ReadonlyArray<number>,
  seed: number,
  rest: Pick<Intervals.Input, "official" | "missingDataset" | "aggregates">,
  lacks: ReadonlyArray<readonly [run: number, dataset: number]> = [],
  metric: Intervals.Metric = "pearson"
): Intervals.Input => {
  const data = stsLike(sizes, noise, seed)
  const names = sizes.map((_, d) => `track${d + 1}`)
  return {
    datasets: names.map((name) => ({ name, metric })),
    runs: noise.map((_, k) => ({
      id: `team${k}_run1`,
      scores: Object.fromEntries(
        names
          .map((name, d) => [name, { run: data[d].runs[k], gold: data[d].gold }] as const)
          .filter((_, d) => !lacks.some(([kk, dd]) => kk === k && dd === d))
      )
    })),
    ...rest
  }
}

// ---------------------------------------------------------------------------------------------

describe("Intervals: the fewest resamples a level needs (issue 24: --resamples 1 gave intervals that missed their own figure)", () => {
  // (B - 1)(1 - level) / 2 >= 1 in exact arithmetic: the level as a fraction of integers
  const exact = (percentTimes100: number) => {
    const alphaTimes10000 = 10_000 - percentTimes100
    for (let B = 2; ; B++) if ((B - 1) * alphaTimes10000 >= 2 * 10_000) return B
  }
  it("is 1 + 2 / (1 - level), computed without the doubles' error of 1 - level", () => {
    for (const [level, hundredths] of [[0.95, 9500], [0.9, 9000], [0.99, 9900], [0.999, 9990], [0.9999, 9999], [0.5, 5000], [0.8, 8000], [0.975, 9750]] as const) {
      expect(Intervals.minimumResamples(level)).toBe(exact(hundredths))
    }
    expect(Intervals.minimumResamples(0.95)).toBe(41)
  })

  it("compute refuses one resample fewer, naming the minimum and the level, and accepts the minimum", () => {
    const input = stsInput([30], [0.8, 1.2], 0, { official: "single", missingDataset: "no-official-score" })
    for (const level of [0.95, 0.99, 0.9]) {
      const least = Intervals.minimumResamples(level)
      const refused = Intervals.compute(input, { resamples: least - 1, level })
      expect(TestResult.isInvalid(refused)).toBe(true)
      if (TestResult.isInvalid(refused)) {
        expect(refused.field).toBe("resamples")
        expect(refused.expected).toContain(`at least ${least} for a ${Intervals.formatLevel(level)} interval`)
      }
      const r = ok(Intervals.compute(input, { resamples: least, level }))
      // with the minimum, each bound has a resample beyond it, and the interval holds the figure here
      const f = r.runs[0].official
      expect(f.ci!.low).toBeLessThanOrEqual(f.value!)
      expect(f.ci!.high).toBeGreaterThanOrEqual(f.value!)
    }
    expect(TestResult.isInvalid(Intervals.compute(input, { resamples: 1 }))).toBe(true)
  })
})

describe("Intervals", () => {
  it("the single rule with labelled aggregates: the official figure, read from its one dataset's percentiles, equals the plain implementation", () => {
    const input = stsInput([40], [0.3, 1, 2.5], 17, { official: "single", missingDataset: "zero", aggregates: ["mean", "wmean", "pooled"] })
    const B = 200
    const result = ok(Intervals.compute(input, { resamples: B, seed: 21 }))
    expectMatches(input, result, reference(input, B, 21, 0.95))
    for (const run of result.runs) {
      const { value, ci, degenerate, used } = run.datasets[0]
      expect(ci).toBeDefined()
      expect(run.official).toMatchObject({ value, ci, degenerate, used })
    }
  })

  it("STS 2012-2016 rule (wmean, zero): every figure, aggregate and rank interval equals the plain implementation", () => {
    // run 3 lacks dataset 2: it enters the official weighted mean as r = 0 with weight 35
    const input: Intervals.Input = {
      ...stsInput([40, 25, 30], [0.8, 1.2, 1.6, 1.0], 3, {
        official: "wmean",
        missingDataset: "zero",
        aggregates: ["wmean", "mean", "pooled", "allnrm"]
      }, [[3, 2]]),
      datasets: [
        { name: "track1", metric: "pearson" },
        { name: "track2", metric: "pearson" },
        { name: "track3", metric: "pearson", weight: 35 }
      ]
    }
    const B = 150
    const result = ok(Intervals.compute(input, { resamples: B, seed: 99, level: 0.9 }))
    expectMatches(input, result, reference(input, B, 99, 0.9))
    expectContainsEstimates(input, result)
    // the zero rule by hand on the original pairs
    const lacking = result.runs[3]
    const [r1, r2] = lacking.datasets.map((d) => d.value ?? Number.NaN)
    expect(lacking.datasets[2].value).toBeUndefined()
    expect(lacking.datasets[2].reason).toMatch(/no scores for track3/)
    expect(lacking.official.value).toBeCloseTo((r1 * 40 + r2 * 25) / (40 + 25 + 35), 12)
    expect(lacking.official.ci).toBeDefined()
    expect(result.signatureText).toBe(
      "method:percentile-bootstrap|resamples:150|seed:99|level:0.9|strata:dataset|quantile:type7|official:wmean|missing:zero|rng:xoroshiro128plus|version:0.1.0"
    )
  })

  it("STS 2017 rule (mean, no-official-score): a run lacking a track has no official interval, says why, and is not ranked", () => {
    const base = stsInput([30, 30, 30, 30], [0.7, 1, 1.3, 0.9], 5, { official: "mean", missingDataset: "no-official-score" }, [[1, 3]])
    // run 3 is not primary: intervals on its figures, but it stays out of the ranking
    const input = { ...base, runs: base.runs.map((r, k) => (k === 3 ? { ...r, ranked: false } : r)) }
    const B = 100
    const result = ok(Intervals.compute(input, { resamples: B, seed: 4 }))
    expectMatches(input, result, reference(input, B, 4, 0.95))
    expect(result.runs[3].official.ci).toBeDefined()
    expect(result.runs[3].rankInterval).toBeUndefined()
    expect(result.runs[3].rankReason).toMatch(/not ranked/)
    expect([result.runs[0].rank, result.runs[2].rank].sort()).toEqual([1, 2])
    const run = result.runs[1]
    expect(run.official.value).toBeUndefined()
    expect(run.official.ci).toBeUndefined()
    expect(run.official.reason).toMatch(/no official score: it needs every dataset, and track4 \(the run has no scores for track4\)/)
    expect(run.rank).toBeUndefined()
    expect(run.rankInterval).toBeUndefined()
    expect(run.rankReason).toMatch(/no official figure/)
    // its per-track figures keep their intervals
    expect(run.datasets.slice(0, 3).every((d) => d.ci !== undefined)).toBe(true)
  })

  it("STS 2012 rule (pooled) and Spearman datasets (ties included) follow the plain implementation", () => {
    const base2012 = stsInput([25, 35], [0.5, 1, 2], 8, { official: "pooled", missingDataset: "zero", aggregates: ["allnrm", "wmean"] })
    // a fourth run is constant on track1: no Pearson there, but it still pools (ALLnrm fits it to the gold's mean)
    const track2 = base2012.runs[2].scores.track2 as Numeric
    const gold1 = (base2012.runs[0].scores.track1 as Numeric).gold
    const pooled: Intervals.Input = {
      ...base2012,
      runs: [...base2012.runs, { id: "constant", scores: { track1: { run: gold1.map(() => 3), gold: gold1 }, track2 } }]
    }
    const result = ok(Intervals.compute(pooled, { resamples: 120, seed: 1 }))
    expectMatches(pooled, result, reference(pooled, 120, 1, 0.95))
    expect(result.runs[3].datasets[0].value).toBeUndefined()
    expect(result.runs[3].aggregates.allnrm?.ci).toBeDefined()
    // Spearman on scores rounded to whole points: many ties, within and across resampled copies
    const base = stsInput([30, 20], [0.8, 1.5, 3], 9, { official: "wmean", missingDataset: "zero", aggregates: ["mean"] }, [], "spearman")
    const rounded: Intervals.Input = {
      ...base,
      runs: base.runs.map((r) => ({
        ...r,
        scores: Object.fromEntries(Object.entries(r.scores).map(([name, s]) => {
          const n = s as Numeric
          return [name, { run: n.run.map(Math.round), gold: n.gold.map((g) => Math.round(g * 2) / 2) }]
        }))
      }))
    }
    expectMatches(rounded, ok(Intervals.compute(rounded, { resamples: 120, seed: 2 })), reference(rounded, 120, 2, 0.95))
  })

  it("a run much better than the others ranks [1, 1] and is alone in the group overlapping the best", () => {
    const input = stsInput([60, 60], [0.05, 2, 2.2, 2.4, 2.05], 11, { official: "mean", missingDataset: "no-official-score" })
    const result = ok(Intervals.compute(input, { resamples: 300, seed: 3 }))
    expect(result.runs[0].rank).toBe(1)
    expect(result.runs[0].rankInterval).toEqual({ low: 1, high: 1 })
    expect(result.bestGroup).toEqual(["team0_run1"])
    expect(result.runs.slice(1).every((r) => !r.overlapsBest && (r.rankInterval?.low ?? 0) >= 2)).toBe(true)
    // two runs of equal quality are indistinguishable: both intervals overlap the best one's
    const close = stsInput([60, 60], [1, 1.02, 3], 12, { official: "mean", missingDataset: "no-official-score" })
    const two = ok(Intervals.compute(close, { resamples: 300, seed: 3 }))
    expect([...two.bestGroup].sort()).toEqual(["team0_run1", "team1_run1"])
    expect(two.runs[2].overlapsBest).toBe(false)
    expectMatches(close, two, reference(close, 300, 3, 0.95))
  })

  it("the same seed gives the same output, another seed differs; the generic path (engine js) agrees with WebAssembly to 1e-12, ranks identical", () => {
    const input = stsInput([30, 40], [0.6, 1, 1.4], 13, { official: "wmean", missingDataset: "zero", aggregates: ["pooled"] })
    const calls: Array<number> = []
    const a = ok(Intervals.compute(input, { resamples: 200, seed: 21, progress: (done, total) => calls.push(done / total) }))
    expect(calls.at(-1)).toBe(1)
    expect(calls.every((c, i) => i === 0 || c > calls[i - 1])).toBe(true)
    const b = ok(Intervals.compute(input, { resamples: 200, seed: 21 }))
    const c = ok(Intervals.compute(input, { resamples: 200, seed: 22 }))
    const strip = (r: Intervals.Result) => ({ ...r, engine: undefined })
    expect(strip(b)).toEqual(strip(a))
    expect(c.runs[0].official.ci).not.toEqual(a.runs[0].official.ci)
    expect(c.runs[0].official.value).toBe(a.runs[0].official.value)
    const js = ok(Intervals.compute(input, { resamples: 200, seed: 21, engine: "js" }))
    expect(js.engine).toBe("js")
    sameFigures(js, a)
  })

  it("draws the same resamples as Bootstrap.resample (compare), so its intervals agree with Bootstrap.runInterval", () => {
    const input = stsInput([30, 45], [0.6, 1, 1.4], 14, { official: "wmean", missingDataset: "zero" })
    const result = ok(Intervals.compute(input, { resamples: 256, seed: 5, level: 0.9 }))
    const gold = Float64Array.from([...(input.runs[0].scores.track1 as Numeric).gold, ...(input.runs[0].scores.track2 as Numeric).gold])
    const runs = input.runs.map((r) => Float64Array.from([...(r.scores.track1 as Numeric).run, ...(r.scores.track2 as Numeric).run]))
    const strata = Int32Array.from(gold, (_, i) => (i < 30 ? 0 : 1))
    const d = ok(Bootstrap.resample(gold, runs, { resamples: 256, seed: 5, strata, aggregate: "weighted" }))
    runs.forEach((_, k) => {
      const ri = Bootstrap.runInterval(d, k, 0.9)
      expect(result.runs[k].official.ci?.low).toBeCloseTo(ri.ci[0], 12)
      expect(result.runs[k].official.ci?.high).toBeCloseTo(ri.ci[1], 12)
    })
  })

  it("SICK entailment: accuracy intervals equal the plain implementation and have the binomial width", () => {
    const n = 400
    const rand = mulberry32(77)
    const labels = ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"]
    const gold = Array.from({ length: n }, () => labels[Math.floor(rand() * 3)])
    // run k labels a pair correctly with probability p[k], else with another label
    const p = [0.8, 0.6, 0.58]
    const runs = p.map((pk) => gold.map((g) => (rand() < pk ? g : labels[(labels.indexOf(g) + 1 + Math.floor(rand() * 2)) % 3])))
    const input: Intervals.Input = {
      datasets: [{ name: "entailment", metric: "accuracy" }],
      runs: runs.map((run, k) => ({ id: `run${k}`, scores: { entailment: { run, gold } } })),
      official: "single",
      missingDataset: "no-official-score"
    }
    const B = 1000
    const result = ok(Intervals.compute(input, { resamples: B, seed: 8 }))
    expectMatches(input, result, reference(input, B, 8, 0.95))
    expectContainsEstimates(input, result)
    expect(result.signature.strata).toBe("none")
    for (const run of result.runs) {
      const acc = (run.official.value ?? 0) / 100
      const ci = run.official.ci as Intervals.Interval
      // normal approximation 2 * 1.96 sqrt(p (1 - p) / n) in percent; the bootstrap width's MC error
      // at B = 1000 is a few per cent of it
      const width = 2 * 1.96 * Math.sqrt((acc * (1 - acc)) / n) * 100
      expect(Math.abs(ci.high - ci.low - width) / width).toBeLessThan(0.12)
    }
    expect(result.runs[0].rankInterval).toEqual({ low: 1, high: 1 })
    expect(result.bestGroup).toEqual(["run0"])
  })

  it("a Pearson interval matches the Fisher-z interval on bivariate normal pairs (Monte-Carlo error)", () => {
    const n = 250
    const rho = 0.6
    const normal = normals(mulberry32(123))
    const gold = new Float64Array(n)
    const run = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const z1 = normal()
      const z2 = normal()
      gold[i] = z1
      run[i] = rho * z1 + Math.sqrt(1 - rho * rho) * z2
    }
    const input: Intervals.Input = {
      datasets: [{ name: "test", metric: "pearson" }],
      runs: [{ id: "A", scores: { test: { run, gold } } }],
      official: "single",
      missingDataset: "no-official-score"
    }
    const result = ok(Intervals.compute(input, { resamples: 2000, seed: 17 }))
    const r = result.runs[0].official.value ?? Number.NaN
    const z = Math.atanh(r)
    const half = 1.959964 / Math.sqrt(n - 3)
    const ci = result.runs[0].official.ci as Intervals.Interval
    expect(ci.low).toBeCloseTo(Math.tanh(z - half), 1)
    expect(ci.high).toBeCloseTo(Math.tanh(z + half), 1)
    expect(Math.abs(ci.high - ci.low - (Math.tanh(z + half) - Math.tanh(z - half)))).toBeLessThan(0.025)
  })

  it("counts degenerate resamples (a run constant on a resampled dataset) and applies the rule to them", () => {
    // on track2 (8 pairs) run 1 has one distinct score on a single pair: about (7/8)^8 = 34% of
    // resamples leave it constant there, so its Pearson is undefined in those
    const input = stsInput([20, 8], [0.5, 1], 15, { official: "wmean", missingDataset: "zero", aggregates: ["mean"] })
    const s = input.runs[1].scores.track2 as Numeric
    const run = Float64Array.from(s.run, (_, i) => (i === 0 ? 4 : 2))
    const input2: Intervals.Input = {
      ...input,
      runs: [input.runs[0], { ...input.runs[1], scores: { ...input.runs[1].scores, track2: { run, gold: s.gold } } }]
    }
    const B = 200
    const result = ok(Intervals.compute(input2, { resamples: B, seed: 6 }))
    const expected = reference(input2, B, 6, 0.95)
    expectMatches(input2, result, expected)
    const track2 = result.runs[1].datasets[1]
    expect(track2.degenerate).toBeGreaterThan(40)
    expect(track2.used).toBe(B - track2.degenerate)
    // undefined in far more than 5% of resamples: no interval, and the reason says so
    expect(track2.ci).toBeUndefined()
    expect(track2.reason).toMatch(/undefined in \d+ of 200 resamples/)
    // the official weighted mean counts it as 0 there (the zero rule), so it keeps every resample
    expect(result.runs[1].official.degenerate).toBe(track2.degenerate)
    expect(result.runs[1].official.used).toBe(B)
    expect(result.notes.some((n) => n.includes("team1_run1, track2 Pearson"))).toBe(true)
  })

  it("rejects bad input with the field, what was expected and what was found", () => {
    const input = stsInput([10, 10], [1, 2], 16, { official: "mean", missingDataset: "zero" })
    const other = { ...(input.runs[1].scores.track2 as Numeric) }
    other.gold = Float64Array.from(other.gold, (g, i) => (i === 4 ? g + 1 : g))
    const bad = { ...input, runs: [input.runs[0], { ...input.runs[1], scores: { ...input.runs[1].scores, track2: other } }] }
    const e = Intervals.compute(bad)
    expect(e).toBeInstanceOf(TestResult.InvalidInput)
    expect((e as TestResult.InvalidInput).field).toBe('runs[1] (team1_run1).scores["track2"].gold[4]')
    expect((e as TestResult.InvalidInput).message).toMatch(/as in the gold of team0_run1/)
    const unknown = { ...input, runs: [{ id: "x", scores: { track9: input.runs[0].scores.track1 } }] }
    expect((Intervals.compute(unknown) as TestResult.InvalidInput).found).toBe("track9")
    expect((Intervals.compute(input, { level: 95 }) as TestResult.InvalidInput).field).toBe("level")
    const accuracyPooled: Intervals.Input = { ...input, datasets: [{ name: "track1", metric: "accuracy" }, { name: "track2", metric: "pearson" }], official: "pooled" }
    expect((Intervals.compute(accuracyPooled) as TestResult.InvalidInput).expected).toBe("pooled only over Pearson datasets")
    // the rules and labelled aggregates accepted, each said in full
    expect((Intervals.compute({ ...input, official: "median" as Intervals.Input["official"] }) as TestResult.InvalidInput).expected).toBe("wmean, mean, pooled, allnrm or single")
    expect((Intervals.compute({ ...input, aggregates: ["single" as "mean"] }) as TestResult.InvalidInput).expected).toBe("wmean, mean, pooled or allnrm")
    const short = { ...input, runs: [{ id: "x", scores: { track1: { run: new Float64Array(2), gold: new Float64Array(2) } } }] }
    expect((Intervals.compute(short) as TestResult.InvalidInput).field).toBe('runs[0] (x).scores["track1"].gold')
  })
})

describe("Intervals on no runs (the watcher's dry run that checks its settings)", () => {
  // With no runs there are no pairs: the sums kernel's group of tiles was Infinity, which
  // WebAssembly's i32 reads as 0, and its loop over groups never ended (the watcher hung at start).
  it.each(["wasm", "js"] as const)("ends with no figures (engine %s, one thread and two)", (engine) => {
    for (const threads of [1, 2]) {
      const r = Intervals.compute(
        { datasets: [{ name: "a", metric: "pearson", weight: 10 }], runs: [], official: "mean", missingDataset: "zero", aggregates: [] },
        { level: 0.95, resamples: 1000, seed: 12345, engine, threads }
      )
      expect(TestResult.isInvalid(r), `${engine}, ${threads} thread(s)`).toBe(false)
      if (!TestResult.isInvalid(r)) expect(r.runs).toEqual([])
    }
  }, 20_000)
})
