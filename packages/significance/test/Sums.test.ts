// The sums behind the intervals' Pearson and accuracy figures (internal/sumsKernel.ts): a chunk of
// tiles per call, each run's data streamed once per group of tiles, blocks of runs on worker
// threads. Whoever computes a block, every sum has the same bits, and each is the plain weighted
// sum.
import { describe, expect, it } from "vitest"
import { Intervals, TestResult } from "../src/index.js"
import * as SumsKernel from "../src/internal/sumsKernel.js"
import * as Threads from "../src/internal/threads.js"
import { mulberry32 } from "./data.js"
import { sameFigures } from "./engineCases.js"

const { TILE, SUMS } = SumsKernel
const bits = (a: Float64Array) => Array.from(new Uint8Array(Float64Array.from(a).buffer))

/** K1 pseudo-runs over two spans of N positions (by default 90, in spans 0-36 and 37-89), and `tiles` tiles of resamples, each pair drawn 0-3 times. */
const data = (K1: number, tiles: number, layout = { N: 90, spans: [0, 37, 37, 90] }) => {
  const rand = mulberry32(5)
  const spans = Int32Array.from(layout.spans)
  const N = layout.N
  const F = Float64Array.from({ length: K1 * N * 2 }, () => rand() * 4 - 2)
  const counts = Array.from({ length: tiles * TILE }, () => Float64Array.from({ length: N }, () => Math.floor(rand() * 4)))
  return { spans, N, F, counts }
}

/** The sums of `resamples` (default all) of `data`'s resamples, listed one by one. */
const sumsOf = (K1: number, tiles: number, threads: number, callerWorks?: boolean, layout?: { N: number; spans: Array<number> }, resamples = tiles * TILE) => {
  const { spans, N, F, counts } = data(K1, tiles, layout)
  const write = (D: Float64Array, { base, step, gap }: SumsKernel.Layout) => {
    for (let k = 0; k < K1; k++) {
      for (let i = 0; i < N; i++) {
        D[base(k) + i * step] = F[(k * N + i) * 2]
        D[base(k) + i * step + gap] = F[(k * N + i) * 2 + 1]
      }
    }
  }
  const sums = SumsKernel.make(write, N, K1, spans, tiles, threads, callerWorks)
  if (sums === undefined) throw new Error("no WebAssembly SIMD")
  for (const c of counts.slice(0, resamples)) sums.list(c.slice())
  sums.run()
  return { sums, N, F, counts, spans }
}

/** The plain sums, pair by pair in order, of every tile, span, pseudo-run and lane, as `out` lays them (resamples from `resamples` on: none drawn). */
const plainSums = (K1: number, tiles: number, layout?: { N: number; spans: Array<number> }, resamples = tiles * TILE) => {
  const { N, F, counts, spans } = data(K1, tiles, layout)
  const S = spans.length / 2
  return Array.from({ length: tiles }, (_, t) => {
    const out = new Float64Array(S * K1 * SUMS)
    for (let s = 0; s < S; s++) {
      for (let k = 0; k < K1; k++) {
        for (let lane = 0; lane < TILE; lane++) {
          let sx = 0
          let sxx = 0
          let sxg = 0
          for (let i = spans[2 * s]; i < spans[2 * s + 1]; i++) {
            const w = t * TILE + lane < resamples ? counts[t * TILE + lane][i] : 0
            const x = F[k * N * 2 + 2 * i]
            sx += w * x
            sxx += w * x * x
            sxg += w * F[k * N * 2 + 2 * i + 1]
          }
          const o = (s * K1 + k) * SUMS + lane
          out[o] = sx
          out[o + TILE] = sxx
          out[o + 2 * TILE] = sxg
        }
      }
    }
    return out
  })
}

describe("the intervals' sums kernel", () => {
  // 700 pairs: the WebAssembly sums walk them a segment at a time (128 pairs for 8 runs per block),
  // the spans start and end inside segments and leave pairs 250-259 out; 13 pseudo-runs fill one
  // block of runs and part of a second; a quarter of the multiplicities are 0 (skipped)
  const wide = { N: 700, spans: [0, 250, 260, 700] }

  it("gives the plain sums across segments of pairs, spans inside them and a part-filled block of runs, on one thread and on workers", () => {
    const expected = plainSums(13, 3, wide).map(bits)
    for (const threads of [1, 2]) {
      const before = Threads.sent.instances
      const { sums } = sumsOf(13, 3, threads, threads === 2 ? false : undefined, wide)
      // the workers were sent the job (each keeps its instance)
      expect(Threads.sent.instances > before).toBe(threads === 2)
      expect(sums.out.map(bits)).toEqual(expected)
    }
  })

  it("saves a call's lists and sums them again from what it saved", () => {
    const expected = plainSums(13, 3, wide).map(bits)
    const { sums } = sumsOf(13, 3, 1, undefined, wide)
    const saved = sums.save()
    expect(saved).toBeDefined()
    for (const o of sums.out) o.fill(0)
    sums.run(saved)
    expect(sums.out.map(bits)).toEqual(expected)
  })

  it("gives every tile's plain weighted sums, with the same bits on worker threads", () => {
    const K1 = 23
    const tiles = 7
    const expected = plainSums(K1, tiles).map(bits)
    expect(sumsOf(K1, tiles, 1).sums.out.map(bits)).toEqual(expected)
    // every block of runs computed by a worker thread
    const before = Threads.sent.instances
    const workers = sumsOf(K1, tiles, 2, false)
    expect(Threads.sent.instances).toBeGreaterThan(before)
    expect(workers.sums.out.map(bits)).toEqual(expected)
    expect(sumsOf(K1, tiles, 3).sums.out.map(bits)).toEqual(expected)
  })

  it("sums the resamples listed, the lanes after the last one as drawn 0 times, and leaves each list's counts 0 on the spans", () => {
    // 10 resamples: two tiles and two lanes of a third
    expect(sumsOf(5, 3, 1, undefined, undefined, 10).sums.out.map(bits)).toEqual(plainSums(5, 3, undefined, 10).map(bits))
    const write = () => undefined
    const sums = SumsKernel.make(write, 90, 2, Int32Array.from([0, 37, 40, 90]), 1)!
    const counts = new Float64Array(90).fill(2)
    sums.list(counts)
    expect(Array.from(counts).map((c, i) => (i >= 37 && i < 40 ? 0 : c))).toEqual(new Array(90).fill(0))
    expect(counts[38]).toBe(2)
  })

  it("Intervals.compute: Pearson and accuracy figures, aggregates and ranks are the same on one thread and on two", () => {
    const rand = mulberry32(9)
    const gold = Float64Array.from({ length: 60 }, () => Math.round(rand() * 50) / 10)
    const labels = ["E", "N", "C"]
    const goldLabels = Array.from({ length: 45 }, () => labels[Math.floor(rand() * 3)])
    const input: Intervals.Input = {
      datasets: [{ name: "a", metric: "pearson" }, { name: "b", metric: "accuracy" }],
      official: "mean",
      missingDataset: "zero",
      aggregates: ["wmean"],
      runs: Array.from({ length: 12 }, (_, k) => ({
        id: `run${k}`,
        scores: {
          a: { run: Float64Array.from(gold, (g) => g + (rand() - 0.5) * (1 + k / 3)), gold },
          b: { run: goldLabels.map((l) => (rand() < 0.5 + k / 30 ? l : labels[(labels.indexOf(l) + 1) % 3])), gold: goldLabels }
        }
      }))
    }
    // 201 resamples: three full chunks and one of 9, whose last tile has one lane
    const one = Intervals.compute(input, { resamples: 201, seed: 3, threads: 1 })
    const two = Intervals.compute(input, { resamples: 201, seed: 3, threads: 2 })
    expect(TestResult.isInvalid(one)).toBe(false)
    expect(two).toEqual(one)
    // without the kernels: every figure by its metric over the drawn pairs, to 1e-12, the same ranks
    const generic = Intervals.compute(input, { resamples: 201, seed: 3, engine: "js" })
    sameFigures(generic, one)
  })
})
