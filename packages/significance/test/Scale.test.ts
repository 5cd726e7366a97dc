// Scores of any magnitude (issue 22, "Wrong statistics at extreme scale"): `score` brings each
// side to unit scale by an exact power of two, so every correlation is the same at any scale;
// the resampling and test kernels here must do the same. Each test compares a run (or the gold)
// multiplied by 1e200, 1e160 or 1e-200 with the same scores at unit scale.
import { describe, expect, it } from "vitest"
import { Bootstrap, Compare, Intervals, Permutation, TestResult } from "../src/index.js"
import { makeRuns } from "./data.js"

const ok = <A>(a: A | TestResult.InvalidInput): A => {
  if (TestResult.isInvalid(a)) throw a
  return a
}

const times = (x: Float64Array, c: number) => x.map((v) => v * c)
const SCALES = [1e200, 1e160, 1e-200, 3e-300] as const

const { gold, runs } = makeRuns(120, [0.8, 1.1, 2.5], 91)
const [a, b, c] = runs

describe("the analytic tests (cocor's inputs) at any scale", () => {
  for (const s of SCALES) {
    it(`Williams' t on runs (and gold) x ${s} equals it at unit scale`, () => {
      const unit = ok(Compare.two(gold, a, b))
      const scaled = ok(Compare.two(gold, times(a, s), times(b, s)))
      expect(scaled.estimateA).toBeCloseTo(unit.estimateA, 12)
      expect(scaled.estimateB).toBeCloseTo(unit.estimateB, 12)
      expect(scaled.pValue!).toBeCloseTo(unit.pValue!, 10)
      const goldScaled = ok(Compare.two(times(gold, s), a, times(b, 1 / s)))
      expect(goldScaled.estimateA).toBeCloseTo(unit.estimateA, 12)
      expect(goldScaled.pValue!).toBeCloseTo(unit.pValue!, 10)
    })
  }

  it("a run equal to another x 1e200 has the same r, and no difference (p = 1), as the run and a copy", () => {
    const copy = ok(Compare.two(gold, a, Float64Array.from(a)))
    for (const s of [2, 1e200, 1e-200]) {
      const r = ok(Compare.two(gold, a, times(a, s)))
      expect(r.estimateB).toBeCloseTo(r.estimateA, 14)
      expect(r.estimateA).toBeCloseTo(copy.estimateA, 14)
      expect([r.pValue, r.statistic]).toEqual([1, 0])
    }
  })

  it("`significance`: a run x 1e200 ranks with the run it copies and is not significantly worse than the best", () => {
    const m = ok(Compare.many(gold, [c, times(a, 1e200), a, b]))
    expect(m.estimates[1]).toBeCloseTo(m.estimates[2], 14)
    expect(m.ranking.slice(0, 2).sort()).toEqual([1, 2])
    expect(m.best).toContain(1)
    expect(m.best).toContain(2)
  })
})

describe("the paired bootstrap and approximate randomisation at any scale", () => {
  const unit = ok(Bootstrap.resample(gold, [a, b], { resamples: 300, seed: 5 }))
  for (const s of SCALES) {
    it(`Pearson and Spearman resamples of runs x ${s} (and of a gold x ${s}) equal those at unit scale`, () => {
      for (const [g, x, y] of [[gold, times(a, s), times(b, s)], [times(gold, s), a, b]] as const) {
        const d = ok(Bootstrap.resample(g, [x, y], { resamples: 300, seed: 5 }))
        expect(Array.from(d.degenerate)).toEqual([0, 0])
        for (let i = 0; i < d.samples.length; i++) expect(d.samples[i]).toBeCloseTo(unit.samples[i], 12)
        expect(Bootstrap.comparePairs(d)[0].pValue).toBe(Bootstrap.comparePairs(unit)[0].pValue)
      }
      const rho = ok(Bootstrap.resample(gold, [times(a, s), b], { resamples: 100, seed: 5, metric: "spearman" }))
      const rhoUnit = ok(Bootstrap.resample(gold, [a, b], { resamples: 100, seed: 5, metric: "spearman" }))
      for (let i = 0; i < rho.samples.length; i++) expect(rho.samples[i]).toBeCloseTo(rhoUnit.samples[i], 12)
    })

    it(`approximate randomisation of runs x ${s} equals it at unit scale`, () => {
      const p = ok(Permutation.test(gold, a, b, { resamples: 300, seed: 8 }))
      const q = ok(Permutation.test(times(gold, s), times(a, s), times(b, s), { resamples: 300, seed: 8 }))
      expect(q.estimateA).toBeCloseTo(p.estimateA, 12)
      expect(q.difference).toBeCloseTo(p.difference, 12)
      expect(q.pValue).toBe(p.pValue)
    })
  }
})

describe("intervals (`--ci`) at any scale", () => {
  const tracks = makeRuns(80, [0.9, 1.6], 44)
  const inputOf = (s: number, g: number): Intervals.Input => ({
    datasets: [
      { name: "t1", metric: "pearson" },
      { name: "t2", metric: "pearson" }
    ],
    runs: [
      { id: "A", scores: { t1: { run: times(a, s), gold: times(gold, g) }, t2: { run: times(tracks.runs[0], s), gold: times(tracks.gold, g) } } },
      { id: "B", scores: { t1: { run: b, gold: times(gold, g) }, t2: { run: tracks.runs[1], gold: times(tracks.gold, g) } } }
    ],
    official: "wmean",
    missingDataset: "zero",
    aggregates: ["mean", "pooled", "allnrm"]
  })
  const unit = ok(Intervals.compute(inputOf(1, 1), { resamples: 200, seed: 3 }))
  for (const s of SCALES) {
    it(`a run x ${s}, and a gold x ${s}: every figure, interval and rank as at unit scale`, () => {
      for (const [rs, gs] of [[s, 1], [1, s]]) {
        const r = ok(Intervals.compute(inputOf(rs, gs), { resamples: 200, seed: 3 }))
        expect(r.notes).toEqual([])
        r.runs.forEach((run, k) => {
          const u = unit.runs[k]
          const figures = [...run.datasets, run.official, run.aggregates.mean!, run.aggregates.pooled!, run.aggregates.allnrm!]
          const expected = [...u.datasets, u.official, u.aggregates.mean!, u.aggregates.pooled!, u.aggregates.allnrm!]
          figures.forEach((f, i) => {
            expect(f.reason).toBeUndefined()
            expect(f.value!).toBeCloseTo(expected[i].value!, 12)
            expect(f.ci!.low).toBeCloseTo(expected[i].ci!.low, 12)
            expect(f.ci!.high).toBeCloseTo(expected[i].ci!.high, 12)
          })
          expect([run.rank, run.rankInterval]).toEqual([u.rank, u.rankInterval])
        })
      }
    })
  }
})
