// Kendall's tau-b against scipy.stats.kendalltau: the figures in fixtures/kendall.scipy.json were
// computed by scipy (fixtures/kendall_scipy.py), never by this package. Plus an O(n^2) oracle
// written from the definition for random inputs with heavy ties, and the resampling form.
import * as fs from "node:fs"
import * as path from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Kendall, Metric, Metrics, MetricValue } from "@stseval/metrics"
import { alignByLine, hasShared, lines, readRun, readStsGold, sharedDir } from "./support/Readers.js"

interface Case {
  readonly name: string
  readonly gold: ReadonlyArray<number>
  readonly run: ReadonlyArray<number>
  readonly tau: number | null
}
interface Fixture {
  readonly scipy: string
  readonly cases: ReadonlyArray<Case>
  readonly large: ReadonlyArray<{ readonly n: number; readonly tau: number }>
  readonly shared: ReadonlyArray<{ readonly name: string; readonly pairs: number; readonly tau: number }>
}

const fixture = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures/kendall.scipy.json"), "utf8")) as Fixture
const f = (xs: ReadonlyArray<number>) => Float64Array.from(xs)

/** tau-b from its definition, pair of pairs by pair of pairs (the test's independent oracle). */
const naive = (y: ArrayLike<number>, x: ArrayLike<number>): number => {
  let s = 0
  let tiesY = 0
  let tiesX = 0
  const n = y.length
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dy = Math.sign(y[i] - y[j])
      const dx = Math.sign(x[i] - x[j])
      s += dx * dy
      if (dy === 0) tiesY++
      if (dx === 0) tiesX++
    }
  }
  const n0 = (n * (n - 1)) / 2
  return s / Math.sqrt((n0 - tiesY) * (n0 - tiesX))
}

describe("Kendall.kendall against scipy.stats.kendalltau", () => {
  it(`the fixture was made by scipy (${fixture.scipy}) and holds the cases`, () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(15)
    expect(fixture.cases.some((c) => c.tau === null)).toBe(true)
  })

  for (const c of fixture.cases) {
    it(c.name, () => {
      const tau = Kendall.kendall(f(c.gold), f(c.run))
      if (c.tau === null) {
        expect(tau._tag).toBe("Undefined")
      } else {
        expect(tau._tag).toBe("Defined")
        expect(Math.abs(MetricValue.getOrNaN(tau) - c.tau)).toBeLessThanOrEqual(1e-15)
      }
    })
  }

  it("undefined like Pearson: the reason names the constant side, or fewer than 2 pairs", () => {
    expect(Kendall.kendall(f([4]), f([2]))).toEqual(MetricValue.undefined_(MetricValue.Reason.fewerThanTwoPairs))
    expect(Kendall.kendall(f([]), f([]))).toEqual(MetricValue.undefined_(MetricValue.Reason.fewerThanTwoPairs))
    expect(Kendall.kendall(f([3, 3, 3]), f([1, 2, 3]))).toEqual(MetricValue.undefined_(MetricValue.Reason.goldConstant))
    expect(Kendall.kendall(f([1, 2, 3]), f([0, 0, 0]))).toEqual(MetricValue.undefined_(MetricValue.Reason.runConstant))
    expect(Kendall.kendall(f([2, 2]), f([1, 1]))).toEqual(MetricValue.undefined_(MetricValue.Reason.bothConstant))
    expect(Kendall.kendall(f([1, 2, 3]), f([1, Number.NaN, 3]))).toEqual(MetricValue.undefined_(MetricValue.Reason.runNotFinite))
    expect(Kendall.kendall(f([1, Infinity, 3]), f([1, 2, 3]))).toEqual(MetricValue.undefined_(MetricValue.Reason.goldNotFinite))
    expect(() => Kendall.kendall(f([1, 2]), f([1]))).toThrow(RangeError)
  })

  for (const { n, tau } of fixture.large) {
    it(`large n = ${n}, many ties (scipy ${tau})`, () => {
      // as kendall_scipy.py: integers, exact in both languages
      const gold = Float64Array.from({ length: n }, (_, i) => ((i * 7919) % 1009) / 4)
      const run = Float64Array.from({ length: n }, (_, i) => (((i * 104729) % 997) + (i % 13)) / 2)
      expect(Math.abs(MetricValue.getOrNaN(Kendall.kendall(gold, run)) - tau)).toBeLessThanOrEqual(1e-15)
    })
  }
})

if (!hasShared) {
  console.warn(`[metrics] ${sharedDir} not found: skipping Kendall's tau on real STS / SICK data (set STSEVAL_SHARED to run it)`)
}

describe.skipIf(!hasShared)("Kendall.kendall on real data (../shared) against scipy", () => {
  const expected = (name: string) => {
    const row = fixture.shared.find((s) => s.name === name)
    if (row === undefined) throw new Error(`fixtures/kendall.scipy.json has no "${name}": regenerate it with ../shared present`)
    return row
  }

  it("SICK 2014 test, overlap baseline (4,927 pairs, gold on a 1-5 scale with many ties)", () => {
    const row = expected("SICK 2014 test, overlap baseline")
    const gold = lines(path.join(sharedDir, "data/sick2014/SICK_test_annotated.txt")).slice(1).map((l) => l.split("\t"))
    const run = new Map(lines(path.join(sharedDir, "reference/sick-test.overlap-baseline.txt")).slice(1).map((l) => l.split("\t")).map((r) => [r[0], Number(r[2])]))
    const y = Float64Array.from(gold, (g) => Number(g[3]))
    const x = Float64Array.from(gold, (g) => run.get(g[0])!)
    expect(y.length).toBe(row.pairs)
    expect(Math.abs(MetricValue.getOrNaN(Kendall.kendall(y, x)) - row.tau)).toBeLessThanOrEqual(1e-15)
  })

  it("STS 2012 MSRpar, synthetic run (750 pairs)", () => {
    const row = expected("STS 2012 MSRpar, synthetic run")
    const { x, y } = alignByLine(
      readRun(path.join(sharedDir, "data/runs/sts-synthetic/sts2012/STS.output.MSRpar.txt")),
      readStsGold(path.join(sharedDir, "data/sts2012/test/STS.gs.MSRpar.txt"))
    )
    expect(y.length).toBe(row.pairs)
    expect(Math.abs(MetricValue.getOrNaN(Kendall.kendall(y, x)) - row.tau)).toBeLessThanOrEqual(1e-15)
  })
})

describe("Kendall against its definition", () => {
  // coarse values so that ties (in either side and in both) are frequent
  const coarse = fc.array(fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: 0, max: 4 })), { minLength: 2, maxLength: 60 })

  it("equals the O(n^2) definition of tau-b (fast-check, heavy ties)", () => {
    fc.assert(
      fc.property(coarse, (pairs) => {
        const gold = Float64Array.from(pairs, ([g]) => g / 2)
        const run = Float64Array.from(pairs, ([, r]) => r * 1.5)
        const tau = Kendall.kendall(gold, run)
        const constant = new Set(gold).size === 1 || new Set(run).size === 1
        if (constant) return tau._tag === "Undefined"
        return tau._tag === "Defined" && Math.abs(tau.value - naive(gold, run)) < 1e-12
      }),
      { numRuns: 300 }
    )
  })

  it("kendallAt over an index multiset equals kendall on the gathered pairs (a pair drawn twice is a tie)", () => {
    fc.assert(
      fc.property(coarse, fc.array(fc.nat(), { minLength: 2, maxLength: 80 }), (pairs, picks) => {
        const gold = Float64Array.from(pairs, ([g]) => g)
        const run = Float64Array.from(pairs, ([, r]) => r)
        const idx = Int32Array.from(picks, (p) => p % pairs.length)
        const at = Kendall.kendallAt(gold, run, idx, idx.length)
        const gathered = MetricValue.getOrNaN(Kendall.kendall(Float64Array.from(idx, (i) => gold[i]), Float64Array.from(idx, (i) => run[i])))
        return Object.is(at, gathered) || at === gathered
      }),
      { numRuns: 300 }
    )
    // n < 2, and a NaN among the picked pairs
    expect(Kendall.kendallAt(f([1, 2]), f([2, 1]), new Int32Array([1]), 1)).toBeNaN()
    expect(Kendall.kendallAt(f([1, 2, 3]), f([2, Number.NaN, 1]), new Int32Array([0, 1, 2]), 3)).toBeNaN()
    // pairs 0, 2, 2: gold 1, 3, 3 against run 2, 1, 1 (scipy: -0.9999999999999999, the formula rounded)
    expect(Kendall.kendallAt(f([1, 2, 3]), f([2, Number.NaN, 1]), new Int32Array([0, 2, 2]), 3)).toBe(-0.9999999999999999)
  })

  it("kendallAt keeps an array's keys between calls, but never past a change to the array", () => {
    const gold = f([1, 3, 3, 4, 2, 5, 5, 0, 2.5])
    const run = f([2, 3, 1, 4, 4, 5, 6, 0.5, 1])
    const idx = new Int32Array([0, 1, 1, 2, 4, 6, 7, 8, 8])
    const gathered = () => MetricValue.getOrNaN(Kendall.kendall(Float64Array.from(idx, (i) => gold[i]), Float64Array.from(idx, (i) => run[i])))
    expect(Kendall.kendallAt(gold, run, idx, idx.length)).toBe(gathered())
    // in place, as approximate randomisation shuffles a run: a swap of two scores, then a new tie
    ;[run[0], run[7]] = [run[7], run[0]]
    const swapped = gathered()
    expect(Kendall.kendallAt(gold, run, idx, idx.length)).toBe(swapped)
    run[2] = 3
    expect(Kendall.kendallAt(gold, run, idx, idx.length)).toBe(gathered())
    expect(gathered()).not.toBe(swapped)
  })

  it("depends on the order only: the same at any scale or offset", () => {
    const gold = f([1, 3, 3, 4, 2, 5, 5, 0])
    const run = f([2, 3, 1, 4, 4, 5, 6, 0.5])
    const tau = MetricValue.getOrNaN(Kendall.kendall(gold, run))
    expect(MetricValue.getOrNaN(Kendall.kendall(gold.map((v) => v * 1e-300), run.map((v) => v * 1e300)))).toBe(tau)
    expect(MetricValue.getOrNaN(Kendall.kendall(gold.map((v) => v + 1e6), run.map((v) => -v)))).toBe(-tau)
  })
})

describe("Kendall's descriptor", () => {
  it("is in the registry under `kendall`: a correlation, higher is better, 0 for a missing dataset", () => {
    const m = Metrics.getOrThrow("kendall")
    expect(m).toBe(Kendall.metric)
    expect(m).toMatchObject({ kind: "scores", direction: "higher", missingValue: 0, correlation: true, display: { style: "correlation" } })
    expect(m.resampling.by).toBe("ranks")
    const gold = f([12, 2, 1, 12, 2])
    const run = f([1, 4, 7, 1, 0])
    expect(Kendall.metric.compute(gold, run)).toEqual(Kendall.kendall(gold, run))
    expect(Metric.figureAt(Kendall.metric, gold, run, new Int32Array([0, 1, 2, 3, 4]), 5)).toBe(MetricValue.getOrNaN(Kendall.kendall(gold, run)))
  })
})
