// The Spearman walks of the intervals pass (internal/rankSums.ts): eight resamples per walk, in
// WebAssembly SIMD, chunks of resamples on worker threads. Whoever computes a chunk, every figure
// has the same bits; and each is the textbook Spearman (mid-ranks, then Pearson) of the resample's
// gathered pairs. Intervals.test.ts checks the intervals built on them.
import { describe, expect, it } from "vitest"
import { Kendall, MetricValue, Moments, Spearman } from "@stseval/metrics"
import { Intervals, TestResult } from "../src/index.js"
import * as Engine from "../src/internal/intervals.js"
import { checkDefinition, checkRuns, engineOf, layOut } from "../src/internal/job.js"
import * as Random from "../src/internal/random.js"
import * as RankSums from "../src/internal/rankSums.js"
import * as Threads from "../src/internal/threads.js"
import { mulberry32, spearman } from "./data.js"

const bits = (a: Float64Array) => Array.from(new Uint8Array(Float64Array.from(a).buffer))

/** A pass started and run through. */
const passOf = (...args: Parameters<typeof Engine.startWalks>) => Threads.interleave([Engine.passSteps(args[0], Engine.startWalks(...args))])[0]

/** The walks of a pass, joined: their samples. */
const resampled = (...args: Parameters<typeof RankSums.walks>) => {
  const walked = RankSums.walks(...args)
  walked.running.join()
  return walked
}

/** Three datasets, six runs: ties in the gold and in run 0, run 1 constant on dataset 0, run 2 lacking dataset 1. */
const data = () => {
  const sizes = [40, 25, 3]
  const D = sizes.length
  const K = 6
  const start = Int32Array.from([0, 40, 65, 68])
  const N = start[D]
  const rand = mulberry32(31)
  const gold = Float64Array.from({ length: N }, () => Math.round(rand() * 10) / 2)
  const x = new Float64Array(K * N)
  const has = new Uint8Array(K * D).fill(1)
  has[2 * D + 1] = 0
  for (let k = 0; k < K; k++) {
    for (let i = 0; i < N; i++) {
      const v = gold[i] + (rand() - 0.5) * (k + 1)
      x[k * N + i] = k === 0 ? Math.round(v) : k === 1 && i < start[1] ? 2 : has[k * D + (i < start[1] ? 0 : i < start[2] ? 1 : 2)] === 1 ? v : 0
    }
  }
  return { sizes, D, K, start, N, gold, x, has }
}

/** data() as the public input, with these metrics per dataset (named a, b, c). */
const inputOf = (metrics: ReadonlyArray<"pearson" | "spearman" | "kendall">, aggregates: ReadonlyArray<Intervals.Labelled> = []): Intervals.Input => {
  const { D, K, start, gold, x, has, N } = data()
  const names = ["a", "b", "c"]
  return {
    datasets: names.map((name, d) => ({ name, metric: metrics[d] })),
    runs: Array.from({ length: K }, (_, k) => ({
      id: `run${k}`,
      scores: Object.fromEntries(
        names.flatMap((name, d) =>
          has[k * D + d] === 1 ? [[name, { run: x.slice(k * N + start[d], k * N + start[d + 1]), gold: gold.slice(start[d], start[d + 1]) }]] : []
        )
      )
    })),
    official: "mean",
    missingDataset: "zero",
    aggregates
  }
}

/** data() walked for `walk` on every dataset, over 203 resamples: four chunks, the last one of 11 (a tile of three lanes). */
const walked = (walk: Engine.Metric) => {
  const d = data()
  const B = 203
  const FIG = d.D + 1
  const plan = RankSums.plan(d.start, [walk, walk, walk], d.K, d.has, d.gold, d.x)
  return { ...d, plan, B, FIG, KF: d.K * FIG, states: Random.chunkStates(17, Math.ceil(B / Random.CHUNK)) }
}

/**
 * For every resample of `samples` (data(), the documented draws of `states`), run and dataset the
 * run has: `check(figure, the run's gathered scores, the gold's, where)`; a dataset the run lacks,
 * and the row's aggregate, stay NaN (left for the intervals pass).
 */
const eachResample = (
  samples: Float64Array,
  states: Int32Array,
  B: number,
  check: (got: number, xs: Array<number>, gs: Array<number>, where: string) => void
) => {
  const { sizes, D, K, start, N, gold, x, has } = data()
  const FIG = D + 1
  const KF = K * FIG
  for (let c = 0; c * Random.CHUNK < B; c++) {
    const rng = Random.chunkRng(states, c)
    for (let b = c * Random.CHUNK; b < Math.min(B, (c + 1) * Random.CHUNK); b++) {
      const picks = sizes.map((n) => Array.from({ length: n }, () => Random.below(rng, n)))
      for (let k = 0; k < K; k++) {
        for (let d = 0; d < D; d++) {
          const got = samples[b * KF + k * FIG + d]
          if (has[k * D + d] === 0) expect(got).toBeNaN()
          else check(got, picks[d].map((i) => x[k * N + start[d] + i]), picks[d].map((i) => gold[start[d] + i]), `b ${b} run ${k} dataset ${d}`)
        }
        expect(samples[b * KF + k * FIG + D]).toBeNaN()
      }
    }
  }
}

describe("Spearman walks (intervals)", () => {
  it("give the same bits on worker threads, whoever computes which chunk, and equal the textbook Spearman", () => {
    const { sizes, start, gold, x, plan, B, FIG, KF, states } = walked("walk")
    const run = (options: RankSums.RunOptions) => resampled(plan, start, states, B, KF, FIG, options).samples
    const one = run({ threads: 1 })
    let helpers: Int32Array | undefined
    const workersOnly = run({ threads: 2, callerWorks: false, onDone: (s) => (helpers = s) })
    expect(bits(workersOnly)).toEqual(bits(one))
    // every chunk was computed by a helper thread (1 + its index), none by the caller
    expect(helpers !== undefined && helpers.length === 4 && helpers.every((t) => t >= 2)).toBe(true)
    expect(bits(run({ threads: 2 }))).toEqual(bits(one))

    // the textbook figure on the gathered pairs, resample by resample (the documented draws)
    const constant = (v: Array<number>) => v.every((y) => y === v[0])
    eachResample(one, states, B, (got, xs, gs, where) => {
      if (constant(xs) || constant(gs)) expect(got, where).toBeNaN()
      else expect(got, where).toBeCloseTo(spearman(xs, gs), 12)
    })
    // on the original pairs, into row 0
    const original = new Float64Array(KF).fill(Number.NaN)
    RankSums.original(plan, start, KF, FIG, original)
    expect(original[0]).toBeCloseTo(spearman(x.subarray(0, sizes[0]), gold.subarray(0, sizes[0])), 12)
    expect(original[FIG]).toBeNaN()
  })

  it("a run with a few ties (the WebAssembly walk between tied groups, issue 34) has the textbook Spearman", () => {
    // 40 pairs; run 0 without ties, runs 1-3 with tied groups of 2 to 7 (at most half of the pairs
    // tied: the walk of single pairs with its tied-group corrections), run 4 rounded (more than
    // half tied: the walk over every group), run 5 with a tie at each end
    const n = 40
    const K = 6
    const rand = mulberry32(5)
    const gold = Float64Array.from({ length: n }, () => Math.round(rand() * 8) / 2)
    const x = new Float64Array(K * n)
    for (let k = 0; k < K; k++) for (let i = 0; i < n; i++) x[k * n + i] = gold[i] + rand() * 3
    const tie = (k: number, ...at: Array<number>) => at.forEach((i) => (x[k * n + i] = x[k * n + at[0]]))
    tie(1, 3, 17)
    tie(2, 0, 5, 39)
    tie(3, 2, 8)
    tie(3, 11, 30, 31)
    tie(3, 1, 4, 6, 9, 12, 20, 25)
    for (let i = 0; i < n; i++) x[4 * n + i] = Math.round(x[4 * n + i])
    const lo = Math.min(...x.subarray(5 * n, 6 * n))
    x[5 * n + 7] = x[5 * n + 13] = lo - 1
    x[5 * n + 21] = x[5 * n + 22] = 99
    const start = Int32Array.from([0, n])
    const has = new Uint8Array(K).fill(1)
    const plan = RankSums.plan(start, ["walk"], K, has, gold, x)
    const B = 75
    const FIG = 2
    const KF = K * FIG
    const states = Random.chunkStates(3, Math.ceil(B / Random.CHUNK))
    const walkedSamples = resampled(plan, start, states, B, KF, FIG, { threads: 1 }).samples
    for (let c = 0; c * Random.CHUNK < B; c++) {
      const rng = Random.chunkRng(states, c)
      for (let b = c * Random.CHUNK; b < Math.min(B, (c + 1) * Random.CHUNK); b++) {
        const picks = Array.from({ length: n }, () => Random.below(rng, n))
        for (let k = 0; k < K; k++) {
          const want = spearman(picks.map((i) => x[k * n + i]), picks.map((i) => gold[i]))
          expect(walkedSamples[b * KF + k * FIG], `b ${b} run ${k}`).toBeCloseTo(want, 12)
        }
      }
    }
  })

  it("Intervals.compute: the same output on one thread and on two", () => {
    const input = inputOf(["spearman", "spearman", "spearman"])
    const one = Intervals.compute(input, { resamples: 300, seed: 4, threads: 1 })
    const two = Intervals.compute(input, { resamples: 300, seed: 4, threads: 2 })
    expect(two).toEqual(one)
    const bad = Intervals.compute(input, { threads: 0 })
    expect(TestResult.isInvalid(bad) && bad.field).toBe("threads")
  })

  it("a pass mixing Pearson and Spearman datasets (mean and weighted-mean aggregates over both, an odd resample count) has the same bits whoever computes the walks", () => {
    // The Pearson figures and the aggregates over both kinds are computed resample by resample on
    // the calling thread from rows whose Spearman figures the walks filled: a chunk computed by a
    // worker must leave every figure and count as one thread does. 201 resamples: three full
    // chunks and one of 9, whose last tile has one lane.
    const { D, K, start, gold, x, has } = data()
    const B = 201
    const job: Engine.Job = {
      start,
      metric: ["invariant", "walk", "invariant"],
      figure: [Moments.pearson, undefined, Moments.pearson],
      weight: Float64Array.from({ length: D }, (_, d) => start[d + 1] - start[d]),
      runs: K,
      has,
      gold,
      x,
      labelled: ["mean", "wmean"],
      official: "mean",
      missing: "zero"
    }
    const passWith = (options: Engine.PassOptions) => {
      const prepared = Engine.estimate(job)
      return passOf(prepared, B, 77, undefined, options)
    }
    const one = passWith({ threads: 1 })
    let helpers: Int32Array = new Int32Array(0)
    const two = passWith({ threads: 2, callerWorks: false, onDone: (s) => (helpers = s) })
    // every chunk on the worker (1 + its index), unless worker threads are unavailable here
    if (typeof SharedArrayBuffer === "function") expect(Array.from(helpers)).toEqual([2, 2, 2, 2])
    // D datasets, the two labelled aggregates, the official figure
    const FIG = D + 3
    expect(two.samples.length).toBe(B * K * FIG)
    expect(bits(two.samples)).toEqual(bits(one.samples))
    expect(Array.from(two.degenerate)).toEqual(Array.from(one.degenerate))
    // the figures are there: run 3's Pearson on dataset 0, its Spearman on dataset 1, its weighted mean
    for (const f of [0, 1, D + 1]) expect(Number.isFinite(one.samples[(B - 1) * K * FIG + 3 * FIG + f])).toBe(true)
    // run 1 is constant on dataset 0 (Pearson): undefined there in every resample
    expect(one.samples[(B - 1) * K * FIG + FIG]).toBeNaN()

    // the public function, on the same data: the same output on one thread and on two
    const input = inputOf(["pearson", "spearman", "pearson"], ["mean", "wmean"])
    const a = Intervals.compute(input, { resamples: B, seed: 77, threads: 1 })
    const b = Intervals.compute(input, { resamples: B, seed: 77, threads: 2 })
    expect(TestResult.isInvalid(a) ? a : undefined).toBeUndefined()
    expect(b).toEqual(a)
  })
})

describe("tile by tile of runs (issue 34)", () => {
  it("a tile's pass reuses the last tile's sums memory, walk memory and figures' buffer, with the figures of fresh buffers", () => {
    // two tiles of three runs (Pearson, Spearman, Pearson datasets), the second smaller in pairs'
    // figures than the first would be if its runs lacked datasets: here the same size; on one
    // thread and on two (shared buffers)
    const { D, K, start, N, gold, x, has } = data()
    const B = 130
    const jobOf = (k0: number, k1: number): Engine.Job => ({
      start,
      metric: ["invariant", "walk", "invariant"],
      figure: [Moments.pearson, undefined, Moments.pearson],
      weight: Float64Array.from({ length: D }, (_, d) => start[d + 1] - start[d]),
      runs: k1 - k0,
      has: has.slice(k0 * D, k1 * D),
      gold,
      x: x.slice(k0 * N, k1 * N),
      labelled: ["mean"],
      official: "mean",
      missing: "zero"
    })
    for (const threads of [1, 2]) {
      const fresh = [jobOf(0, 3), jobOf(3, K)].map((job) => passOf(Engine.estimate(job, "auto", { resamples: B, threads, runs: K }), B, 8, undefined, { threads }))
      const scratch = Engine.scratch()
      const tiles = [jobOf(0, 3), jobOf(3, K)].map((job) => {
        const pass = passOf(Engine.estimate(job, "auto", { resamples: B, threads, runs: K, scratch }), B, 8, undefined, { threads })
        // read before the next tile overwrites it
        return { bits: bits(pass.samples), buffer: pass.samples.buffer, sums: scratch.sums.memory, walks: scratch.walks.memory }
      })
      tiles.forEach((t, i) => expect(t.bits, `tile ${i}, ${threads} threads`).toEqual(bits(fresh[i].samples)))
      expect(tiles[1].buffer).toBe(tiles[0].buffer)
      expect(tiles[0].sums).toBeDefined()
      expect(tiles[1].sums).toBe(tiles[0].sums)
      expect(tiles[0].walks).toBeDefined()
      expect(tiles[1].walks).toBe(tiles[0].walks)
    }
  })
})

/** Kendall's tau-b by its definition, every pair of pairs (O(n^2)): scipy's variant b, NaN when a side is constant. */
const tauB = (x: ReadonlyArray<number>, y: ReadonlyArray<number>): number => {
  let s = 0
  let tx = 0
  let ty = 0
  let pairs = 0
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      pairs++
      s += Math.sign(x[i] - x[j]) * Math.sign(y[i] - y[j])
      if (x[i] === x[j]) tx++
      if (y[i] === y[j]) ty++
    }
  }
  return tx === pairs || ty === pairs ? Number.NaN : s / Math.sqrt((pairs - tx) * (pairs - ty))
}

describe("a job of rank metrics alone (issue 34)", () => {
  it("takes no threads for sums it does not have, whatever the threads asked for", () => {
    const { D, K, start, gold, x, has } = data()
    const job: Engine.Job = {
      start,
      metric: ["walk", "walk", "tau"],
      figure: [undefined, undefined, undefined],
      weight: Float64Array.from({ length: D }, (_, d) => start[d + 1] - start[d]),
      runs: K,
      has,
      gold,
      x,
      labelled: [],
      official: "mean",
      missing: "zero"
    }
    expect(K).toBeGreaterThan(2)
    expect(Engine.estimate(job, "auto", { resamples: 100, threads: 2 }).setup.sums).toBeUndefined()
  })
})

describe("Kendall walks (issue 34: one walk engine for the rank-based metrics)", () => {
  it("Kendall's tau-b resamples on the walks, as Spearman does, not on the generic path", () => {
    expect(engineOf(Kendall.metric)).toBe("tau")
    expect(engineOf(Spearman.metric)).toBe("walk")
  })

  it("give the same bits on worker threads as on one, and equal tau-b by its definition on each resample's gathered pairs", () => {
    const { sizes, start, gold, x, plan, B, FIG, KF, states } = walked("tau")
    const one = resampled(plan, start, states, B, KF, FIG, { threads: 1 }).samples
    expect(bits(resampled(plan, start, states, B, KF, FIG, { threads: 2, callerWorks: false }).samples)).toEqual(bits(one))
    eachResample(one, states, B, (got, xs, gs, where) => {
      const want = tauB(gs, xs)
      if (Number.isNaN(want)) expect(got, where).toBeNaN()
      else expect(Math.abs(got - want), where).toBeLessThan(1e-14)
    })
    // on the original pairs: tau-b of the data as they are
    const original = new Float64Array(KF).fill(Number.NaN)
    RankSums.original(plan, start, KF, FIG, original)
    const x0 = Array.from(x.subarray(0, sizes[0]))
    expect(Math.abs(original[0] - tauB(Array.from(gold.subarray(0, sizes[0])), x0))).toBeLessThan(1e-14)
    expect(original[FIG]).toBeNaN()
  })

  it("a mixed pass (Pearson, Kendall, Spearman) has the same intervals on one thread and on two, and Kendall's figures equal metrics' kendallAt bit for bit", () => {
    const input = inputOf(["pearson", "kendall", "spearman"], ["mean"])
    const a = Intervals.compute(input, { resamples: 130, seed: 5, threads: 1 })
    const b = Intervals.compute(input, { resamples: 130, seed: 5, threads: 2 })
    expect(TestResult.isInvalid(a) ? a : undefined).toBeUndefined()
    expect(b).toEqual(a)
    const { K, start, N, gold, x, has, D } = data()
    const plan = RankSums.plan(start, ["generic", "tau", "generic"], K, has, gold, x)
    const states = Random.chunkStates(9, 1)
    const FIG = D + 1
    const KF = K * FIG
    const got = resampled(plan, start, states, 20, KF, FIG, { threads: 1 }).samples
    const rng = Random.chunkRng(states, 0)
    const n = start[2] - start[1]
    for (let r = 0; r < 20; r++) {
      // the draws of dataset 0 come first in the stream
      for (let i = 0; i < start[1]; i++) Random.below(rng, start[1])
      const idx = Int32Array.from({ length: n }, () => Random.below(rng, n))
      for (let i = 0; i < start[3] - start[2]; i++) Random.below(rng, start[3] - start[2])
      for (let k = 0; k < K; k++) {
        if (has[k * D + 1] === 0) continue
        const want = Kendall.kendallAt(gold.subarray(start[1], start[2]), x.slice(k * N + start[1], k * N + start[2]), idx, n)
        expect(bits(Float64Array.of(got[r * KF + k * FIG + 1]))).toEqual(bits(Float64Array.of(want)))
      }
    }
  })
})

describe("the walks' exact limit (issue 34)", () => {
  // Every running sum of a Spearman walk is a multiple of 1/4 no larger than m^2 (m - 1) / 2 (m
  // pairs; rankSums.ts's file comment): exact while 2 m^2 (m - 1) <= 2^53, worked here in BigInt
  const limit = (() => {
    let m = 1n
    while (2n * (m + 1n) * (m + 1n) * m <= 2n ** 53n) m++
    return Number(m)
  })()

  it("is the largest dataset whose walk sums are exact, and a larger Spearman dataset takes the metric over the drawn pairs", () => {
    expect(limit).toBe(165_140)
    expect(RankSums.rhoPairs).toBe(limit)
    expect(engineOf(Spearman.metric, limit)).toBe("walk")
    expect(engineOf(Spearman.metric, limit + 1)).toBe("generic")
    // Kendall's walk sums integers below m^2: no such limit in reach
    expect(engineOf(Kendall.metric, 10 * limit)).toBe("tau")
    // the walks refuse a larger dataset rather than round: a defect of the caller's
    const start = Int32Array.from([0, limit + 1])
    expect(() => RankSums.plan(start, ["walk"], 0, new Uint8Array(0), new Float64Array(limit + 1), new Float64Array(0))).toThrow(/165,140 pairs/)
  })

  it("an interval pass over a Spearman dataset above it has the textbook Spearman of a resample's drawn pairs", () => {
    const n = limit + 1
    const rand = mulberry32(5)
    const gold = Float64Array.from({ length: n }, () => rand())
    const run = gold.map((g) => g + rand())
    const input: Intervals.Input = {
      datasets: [{ name: "big", metric: "spearman" }],
      runs: [{ id: "run", scores: { big: { run, gold } } }],
      official: "single",
      missingDataset: "no-official-score"
    }
    const metrics = checkDefinition(input)
    if (metrics instanceof TestResult.InvalidInput) throw new Error(metrics.message)
    const golds = checkRuns(input, metrics)
    if (golds instanceof TestResult.InvalidInput) throw new Error(golds.message)
    const job = layOut(input, metrics, golds)
    expect(job.metric).toEqual(["generic"])
    // one resample (the textbook reference takes seconds at this size); the documented draws
    const prepared = Engine.estimate(job, "auto", { resamples: 1, threads: 1 })
    expect(prepared.estimates[0]).toBe(MetricValue.getOrNaN(Spearman.spearman(gold, run)))
    const pass = passOf(prepared, 1, 9, undefined, { threads: 1 })
    const rng = Random.chunkRng(Random.chunkStates(9, 1), 0)
    const picks = Array.from({ length: n }, () => Random.below(rng, n))
    expect(pass.samples[0]).toBeCloseTo(spearman(picks.map((i) => run[i]), picks.map((i) => gold[i])), 12)
  })
})

describe("the walks tile by tile of runs: one plan and one walk memory, reused (issue 34)", () => {
  it("a plan written into a scratch reuses its buffers, in shared memory (the walks' threads get the one copy), and is the plan without it", () => {
    const d = data()
    const scratch: RankSums.Scratch = {}
    const fresh = RankSums.plan(d.start, ["walk", "tau", "walk"], d.K, d.has, d.gold, d.x)
    const first = RankSums.plan(d.start, ["walk", "tau", "walk"], d.K, d.has, d.gold, d.x, scratch)
    for (const key of ["dataset", "tau", "walkAt", "runOf", "order", "orderAt", "bounds", "boundsAt"] as const) {
      expect(Array.from(first[key]), key).toEqual(Array.from(fresh[key]))
    }
    expect(first.order.buffer).toBeInstanceOf(SharedArrayBuffer)
    expect(first.bounds.buffer).toBeInstanceOf(SharedArrayBuffer)
    // the next tile (fewer runs here): written where the first was
    const fewer = new Uint8Array(d.has.length)
    fewer.set(d.has.subarray(0, 2 * d.D))
    const second = RankSums.plan(d.start, ["walk", "tau", "walk"], 2, fewer, d.gold, d.x, scratch)
    expect(second.order.buffer).toBe(first.order.buffer)
    expect(second.bounds.buffer).toBe(first.bounds.buffer)
    const alone = RankSums.plan(d.start, ["walk", "tau", "walk"], 2, fewer, d.gold, d.x)
    expect(Array.from(second.order)).toEqual(Array.from(alone.order))
    expect(Array.from(second.bounds)).toEqual(Array.from(alone.bounds))
  })

  it("the estimates' walks and the resamples' share the scratch's walk memory, with the figures of walks without it", () => {
    const w = walked("walk")
    const scratch: RankSums.Scratch = {}
    const out = new Float64Array(w.KF).fill(Number.NaN)
    expect(RankSums.original(w.plan, w.start, w.KF, w.FIG, out, scratch)).toBe(true)
    const memory = scratch.memory
    expect(memory).toBeDefined()
    const alone = new Float64Array(w.KF).fill(Number.NaN)
    RankSums.original(w.plan, w.start, w.KF, w.FIG, alone)
    expect(bits(out)).toEqual(bits(alone))
    // the resamples' kernel finds the plan's addresses laid out by the estimates'
    expect(scratch.laid).toBe(w.plan.order)
    const samples = resampled(w.plan, w.start, w.states, w.B, w.KF, w.FIG, { threads: 1, scratch }).samples
    expect(scratch.memory).toBe(memory)
    expect(bits(samples)).toEqual(bits(resampled(w.plan, w.start, w.states, w.B, w.KF, w.FIG, { threads: 1 }).samples))
  })

  it.each([["walk"], ["tau"]] as const)("%s: the first tile's multiplicities kept are the draws, and the next tiles walk them rather than drawing", (walk) => {
    const w = walked(walk)
    const drawn = resampled(w.plan, w.start, w.states, w.B, w.KF, w.FIG, { threads: 1 }).samples
    const kept: RankSums.Kept = { counts: new Uint16Array(w.B * w.N), full: false }
    for (const threads of [1, 2]) {
      kept.full = false
      expect(bits(resampled(w.plan, w.start, w.states, w.B, w.KF, w.FIG, { threads, kept }).samples)).toEqual(bits(drawn))
      expect(kept.full).toBe(true)
      // every resample of every dataset holds its m draws
      for (let b = 0; b < w.B; b++) for (let d = 0; d < w.D; d++) expect(kept.counts.subarray(b * w.N + w.start[d], b * w.N + w.start[d + 1]).reduce((a, c) => a + c, 0)).toBe(w.start[d + 1] - w.start[d])
      expect(bits(resampled(w.plan, w.start, w.states, w.B, w.KF, w.FIG, { threads, kept }).samples)).toEqual(bits(drawn))
    }
    // read, not drawn again: other multiplicities (every pair once) give other figures
    kept.counts.fill(1)
    const read = resampled(w.plan, w.start, w.states, w.B, w.KF, w.FIG, { threads: 1, kept }).samples
    const once = new Float64Array(w.KF).fill(Number.NaN)
    RankSums.original(w.plan, w.start, w.KF, w.FIG, once)
    for (let b = 0; b < w.B; b++) expect(bits(read.subarray(b * w.KF, (b + 1) * w.KF))).toEqual(bits(once))
  })
})
