// The sums behind the intervals' Pearson and accuracy figures (internal/sumsKernel.ts): a chunk of
// tiles per call, each run's data streamed once per group of tiles, blocks of runs on worker
// threads. Whoever computes a block and whichever engine, every sum has the same bits, and each is
// the plain weighted sum.
import { describe, expect, it } from "vitest"
import { Intervals, TestResult } from "../src/index.js"
import * as SumsKernel from "../src/internal/sumsKernel.js"
import { mulberry32 } from "./data.js"

const { TILE, SUMS } = SumsKernel
const bits = (a: Float64Array) => Array.from(new Uint8Array(Float64Array.from(a).buffer))

/** K1 pseudo-runs over two spans of N positions, and `tiles` tiles of multiplicities 0-3. */
const data = (K1: number, tiles: number) => {
  const rand = mulberry32(5)
  const spans = Int32Array.from([0, 37, 37, 90])
  const N = 90
  const F = Float64Array.from({ length: K1 * N * 2 }, () => rand() * 4 - 2)
  const W = Array.from({ length: tiles }, () => Float64Array.from({ length: N * TILE }, () => Math.floor(rand() * 4)))
  return { spans, N, F, W }
}

const sumsOf = (K1: number, tiles: number, engine: "js" | "wasm" | "auto", threads: number, callerWorks?: boolean) => {
  const { spans, N, F, W } = data(K1, tiles)
  const sums = SumsKernel.make(F, N, K1, spans, engine, tiles, threads, callerWorks)
  W.forEach((w, t) => sums.W[t].set(w))
  sums.run(tiles)
  return { sums, N, F, W, spans }
}

describe("the intervals' sums kernel", () => {
  it("gives every tile's plain weighted sums, with the same bits in JavaScript, in WebAssembly and on worker threads", () => {
    const K1 = 23
    const tiles = 7
    const one = sumsOf(K1, tiles, "js", 1)
    const { N, F, W, spans } = one
    // the plain sums, pair by pair in order
    for (let t = 0; t < tiles; t++) {
      for (let s = 0; s < 2; s++) {
        for (let k = 0; k < K1; k++) {
          for (let lane = 0; lane < TILE; lane++) {
            let sx = 0
            let sxx = 0
            let sxg = 0
            for (let i = spans[2 * s]; i < spans[2 * s + 1]; i++) {
              const w = W[t][i * TILE + lane]
              const x = F[k * N * 2 + 2 * i]
              sx += w * x
              sxx += w * x * x
              sxg += w * F[k * N * 2 + 2 * i + 1]
            }
            const o = (s * K1 + k) * SUMS + lane
            expect(one.sums.out[t][o]).toBe(sx)
            expect(one.sums.out[t][o + TILE]).toBe(sxx)
            expect(one.sums.out[t][o + 2 * TILE]).toBe(sxg)
          }
        }
      }
    }
    const expected = one.sums.out.map(bits)
    const wasm = sumsOf(K1, tiles, "wasm", 1)
    expect(wasm.sums.engine).toBe("wasm")
    expect(wasm.sums.out.map(bits)).toEqual(expected)
    // every block of runs computed by a worker thread
    const workers = sumsOf(K1, tiles, "wasm", 2, false)
    expect(workers.sums.threads).toBe(2)
    expect(workers.sums.out.map(bits)).toEqual(expected)
    const both = sumsOf(K1, tiles, "auto", 3)
    expect(both.sums.out.map(bits)).toEqual(expected)
  })

  it("computes only the tiles asked for", () => {
    const { sums } = sumsOf(5, 3, "wasm", 1)
    const before = sums.out[2].slice()
    sums.W[2].fill(1)
    sums.run(2)
    expect(bits(sums.out[2])).toEqual(bits(before))
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
    const js = Intervals.compute(input, { resamples: 201, seed: 3, engine: "js" })
    expect({ ...js, engine: "" }).toEqual({ ...one, engine: "" })
  })
})
