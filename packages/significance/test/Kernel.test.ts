// Checks of the paired bootstrap (on the one resampling pass, internal/figures.ts) against
// straightforward implementations written here: its chunked random stream and the figures of each
// resample's gathered copy, worker threads, and the sampled quantile selection.
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus"
import { describe, expect, it } from "vitest"
import { Bootstrap, TestResult } from "../src/index.js"
import { integerQuantiles, quantiles, tail } from "../src/internal/select.js"
import { makeRuns, mulberry32, pearson, spearman } from "./data.js"

const ok = <A>(a: A | TestResult.InvalidInput): A => {
  if (TestResult.isInvalid(a)) throw a
  return a
}

/**
 * The documented stream, from pure-rand directly: resample b belongs to chunk floor(b / 64), which
 * draws from the seeded generator after floor(b / 64) jumps; within a chunk, per resample, per
 * dataset (in order of first appearance), m draws of Lemire's bounded integer. Returns each
 * resample's drawn pair indices.
 */
const referenceDraws = (seed: number, B: number, members: ReadonlyArray<ReadonlyArray<number>>) => {
  const out: Array<Array<number>> = []
  const rng = xoroshiro128plus(seed)
  for (let b = 0; b < B; b += 64) {
    const chunk = rng.clone()
    rng.jump()
    for (let r = b; r < Math.min(B, b + 64); r++) {
      const picks: Array<number> = []
      for (const ms of members) {
        const m = ms.length
        for (let j = 0; j < m; j++) {
          // Lemire: accept the high word of u32 * m unless its low word falls below 2^32 mod m
          for (;;) {
            const x = (chunk.next() >>> 0) * m
            if (x % 4294967296 >= (4294967296 - m) % m) {
              picks.push(ms[Math.floor(x / 4294967296)])
              break
            }
          }
        }
      }
      out.push(picks)
    }
  }
  return out
}

/** Gathered-copy statistic of every run for every resample, aggregated over datasets. */
const reference = (
  gold: Float64Array,
  runs: ReadonlyArray<Float64Array>,
  members: ReadonlyArray<ReadonlyArray<number>>,
  coef: ReadonlyArray<number>,
  draws: ReadonlyArray<ReadonlyArray<number>>,
  f: (x: ArrayLike<number>, y: ArrayLike<number>) => number
): Array<Array<number>> =>
  runs.map((run) =>
    draws.map((picks) => {
      let offset = 0
      let total = 0
      members.forEach((ms, s) => {
        const idx = picks.slice(offset, offset + ms.length)
        offset += ms.length
        total += coef[s] * f(idx.map((i) => gold[i]), idx.map((i) => run[i]))
      })
      return total
    })
  )

describe("optimised resampling kernel", () => {
  // Two datasets (12 and 20 pairs, interleaved), three runs; B = 150 spans three stream chunks
  // (the last one partial) and ends in a partial tile of resamples.
  const { gold, runs } = makeRuns(32, [0.6, 1, 2.5], 17)
  const strata = Int32Array.from({ length: 32 }, (_, i) => (i % 8 < 3 ? 5 : 2))
  const members = [5, 2].map((id) => [...strata.keys()].filter((i) => strata[i] === id))
  const B = 150
  const seed = 2024

  for (const aggregate of ["weighted", "unweighted"] as const) {
    it(`Pearson samples equal a gathered-copy reference on the same draws (${aggregate})`, () => {
      const d = ok(Bootstrap.resample(gold, runs, { resamples: B, seed, strata, aggregate }))
      const coef = members.map((ms) => (aggregate === "weighted" ? ms.length / 32 : 1 / 2))
      const expected = reference(gold, runs, members, coef, referenceDraws(seed, B, members), pearson)
      for (let k = 0; k < runs.length; k++) {
        for (let b = 0; b < B; b++) expect(d.samples[k * B + b]).toBeCloseTo(expected[k][b], 12)
      }
    })
  }

  it("Spearman (general kernel) follows the same chunked stream", () => {
    const d = ok(Bootstrap.resample(gold, runs, { resamples: B, seed, strata, metric: "spearman" }))
    const coef = members.map((ms) => ms.length / 32)
    const expected = reference(gold, runs, members, coef, referenceDraws(seed, B, members), spearman)
    for (let k = 0; k < runs.length; k++) {
      for (let b = 0; b < B; b++) expect(d.samples[k * B + b]).toBeCloseTo(expected[k][b], 12)
    }
  })

  it("one thread and worker threads give bit-identical samples", () => {
    const { gold: g, runs: rs } = makeRuns(300, [0.5, 1, 1.5, 2, 3], 23)
    const st = Int32Array.from({ length: 300 }, (_, i) => Math.floor(i / 100))
    for (const metric of ["pearson", "spearman"]) {
      const one = ok(Bootstrap.resample(g, rs, { resamples: 1000, seed: 99, strata: st, aggregate: "unweighted", metric, threads: 1 }))
      const two = ok(Bootstrap.resample(g, rs, { resamples: 1000, seed: 99, strata: st, aggregate: "unweighted", metric, threads: 2 }))
      expect(Array.from(two.samples)).toEqual(Array.from(one.samples))
    }
  })

  it("quantiles (from the heap of the nearer end) equal sort-based type 7 quantiles", () => {
    const rand = mulberry32(5)
    const type7 = (values: Float64Array, p: number) => {
      const s = Array.from(values).sort((a, b) => a - b)
      const h = (s.length - 1) * p
      const lo = Math.floor(h)
      return lo + 1 < s.length ? s[lo] + (h - lo) * (s[lo + 1] - s[lo]) : s[lo]
    }
    const shapes: Array<(i: number, n: number) => number> = [
      () => rand(),
      () => Math.round(rand() * 4), // heavy ties
      (i) => i, // sorted: a systematic sample is not random
      (i, n) => n - i,
      () => 0,
      () => rand() ** 8 - (rand() < 0.3 ? 1 : 0)
    ]
    for (const n of [1, 2, 7, 511, 512, 1000, 1023, 1024, 2500, 10000]) {
      for (const shape of shapes) {
        const a = Float64Array.from({ length: n }, (_, i) => shape(i, n))
        const ps = [0.025, 0.975, 0.5, rand(), 0, 1]
        const expected = ps.map((p) => type7(a, p))
        // any two, either way round, each from its own end or both from one
        for (const [i, j] of [[0, 1], [1, 0], [2, 3], [4, 5], [5, 4], [0, 2], [1, 5]]) {
          expect(Array.from(quantiles(Float64Array.from(a), n, [ps[i], ps[j]]))).toEqual([expected[i], expected[j], n])
        }
      }
    }
  })

  it("quantiles read in place (a column of a matrix, its undefined values skipped, the tails kept from call to call) equal those of the defined values", () => {
    const rand = mulberry32(7)
    const count = 1000
    const ps = [0.025, 0.975] as const
    const [low, high, bounds] = [tail(count, ps[0], false), tail(count, ps[1], true), new Float64Array(3)]
    for (const columns of [1, 3]) {
      for (const undefinedShare of [0, 0.05, 0.5, 1]) {
        const a = Float64Array.from({ length: count * columns }, () => (rand() < undefinedShare ? Number.NaN : Math.round(rand() * 50) / 7))
        for (let column = 0; column < columns; column++) {
          const defined = Float64Array.from({ length: count }, (_, b) => a[b * columns + column]).filter((v) => v === v)
          expect(quantiles(a, count, ps, column, columns, low, high, bounds)).toBe(bounds)
          expect(Array.from(bounds)).toEqual([...(defined.length === 0 ? [Number.NaN, Number.NaN] : quantiles(defined, defined.length, ps).subarray(0, 2)), defined.length])
        }
      }
    }
  })

  it("integer quantiles (by counting, as the rank intervals take them) equal quantiles, and leave the counts zero", () => {
    const rand = mulberry32(11)
    const counts = new Int32Array(64)
    for (const n of [1, 2, 3, 7, 1000, 1001]) {
      for (const spread of [0, 1, 3, 40]) {
        const from = 5
        const a = Int32Array.from({ length: from + n }, (_, i) => (i < from ? 63 : 1 + Math.floor(rand() * (spread + 1))))
        const ps = [0.025, 0.975, 0.5, rand(), 0, 1]
        const values = Float64Array.from(a.subarray(from))
        const expected = [0, 2, 4].flatMap((i) => Array.from(quantiles(values, n, [ps[i], ps[i + 1]]).subarray(0, 2)))
        expect(integerQuantiles(a, from, n, ps, counts)).toEqual(expected)
        expect(counts.every((c) => c === 0)).toBe(true)
      }
    }
  })
})
