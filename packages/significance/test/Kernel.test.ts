// Checks of the optimised resampling code against straightforward implementations written here:
// the register-blocked WebAssembly / JavaScript Pearson kernel and its chunked random stream
// (internal/resampleKernel.ts, wasmKernel.ts), worker threads, and the sampled quantile selection.
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus"
import { describe, expect, it } from "vitest"
import { Bootstrap, TestResult } from "../src/index.js"
import * as Kernel from "../src/internal/correlationKernel.js"
import { pearsonSamples } from "../src/internal/resampleKernel.js"
import { quantiles } from "../src/internal/select.js"
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

  it("JavaScript, WebAssembly and worker threads give bit-identical samples", () => {
    const { gold: g, runs: rs } = makeRuns(300, [0.5, 1, 1.5, 2, 3], 23)
    const st = Int32Array.from({ length: 300 }, (_, i) => Math.floor(i / 100))
    const p = Kernel.prepare(g, rs, Kernel.denseStrata(st, 300), "pearson", "unweighted")
    const R = 1000
    const js = pearsonSamples(p, R, 99, { engine: "js" })
    const wasm = pearsonSamples(p, R, 99, { engine: "wasm", threads: 1 })
    let who: Int32Array | undefined
    const workers = pearsonSamples(p, R, 99, {
      engine: "wasm",
      threads: 2,
      callerWorks: false,
      onDone: (t) => (who = t)
    })
    expect(Array.from(wasm)).toEqual(Array.from(js))
    expect(Array.from(workers)).toEqual(Array.from(js))
    // every chunk was computed by a worker (thread index >= 1, stored as 1 + index)
    expect(who?.length).toBe(Math.ceil(R / 64))
    expect(Array.from(who ?? []).every((t) => t >= 2)).toBe(true)
    // and Bootstrap.resample uses the same path
    const d = ok(Bootstrap.resample(g, rs, { resamples: R, seed: 99, strata: st, aggregate: "unweighted" }))
    expect(Array.from(d.samples)).toEqual(Array.from(js))
  })

  it("WebAssembly's sparse kernel (runs in the lanes, undrawn pairs skipped) gives the JavaScript's bits", () => {
    // run counts around the kernel's block of runs (4), datasets of 3 to 41 pairs, B ending in a
    // partial chunk; a constant run and a copy of the gold (NaN and 1 in every resample)
    const rand = mulberry32(8)
    for (const K of [1, 2, 3, 4, 5, 7, 8, 13]) {
      const n = 3 + 41 + 19
      const { gold: g, runs } = makeRuns(n, Array.from({ length: K }, () => 0.2 + 3 * rand()), 40 + K)
      const rs = runs.map((r, k) => (k === 1 ? g.slice() : k === 2 ? r.fill(2.5) : r))
      const st = Int32Array.from({ length: n }, (_, i) => (i < 3 ? 0 : i % 2 === 0 ? 1 : 2))
      for (const aggregate of ["weighted", "unweighted"] as const) {
        const p = Kernel.prepare(g, rs, Kernel.denseStrata(st, n), "pearson", aggregate)
        const R = 131
        const js = Array.from(pearsonSamples(p, R, 7, { engine: "js" }))
        expect(Array.from(pearsonSamples(p, R, 7, { engine: "wasm", threads: 1, kernel: "sparse" }))).toEqual(js)
        expect(Array.from(pearsonSamples(p, R, 7, { engine: "wasm", threads: 1, kernel: "dense" }))).toEqual(js)
        const workers = pearsonSamples(p, R, 7, { engine: "wasm", threads: 2, callerWorks: false, kernel: "sparse" })
        expect(Array.from(workers)).toEqual(js)
        if (K > 2) expect(js.slice(2 * R, 3 * R).every((x) => Number.isNaN(x))).toBe(true)
      }
    }
    // 1,500 pairs: a chunk's resamples in two batches (56 and 8), the last chunk's in one of 2
    const { gold: g, runs } = makeRuns(1500, [0.4, 1, 2.2], 9)
    const p = Kernel.prepare(g, runs, Kernel.denseStrata(undefined, 1500), "pearson", "weighted")
    const js = Array.from(pearsonSamples(p, 130, 5, { engine: "js" }))
    expect(Array.from(pearsonSamples(p, 130, 5, { engine: "wasm", threads: 1, kernel: "sparse" }))).toEqual(js)
  })

  it("data whose products overflow (x g infinite) keep the dense kernel: undrawn pairs' terms are then NaN, not 0", () => {
    // two gold scores of +-1e160 (the centring leaves the rest small) against run scores of +-1e150:
    // x g overflows on those two pairs, g^2 too, so a resample that draws either has no gold
    // variance, and one that draws neither adds 0 x infinity = NaN: every resample is NaN, where
    // skipping the undrawn pairs would give a number in about one resample in eight
    // `prepare` now brings each side to unit scale (issue 22), so such products no longer arise
    // from scores; they are written into the prepared (centred, unstratified) arrays directly.
    const { gold: g, runs } = makeRuns(40, [0.5, 1, 2], 12)
    const p = Kernel.prepare(g, runs, Kernel.denseStrata(undefined, 40), "pearson", "weighted")
    p.gold[0] = 1e160
    p.gold[1] = -1e160
    runs.forEach((_, k) => ([p.x[k * 40], p.x[k * 40 + 1]] = [1e150, -1e150]))
    const js = Array.from(pearsonSamples(p, 200, 3, { engine: "js" }))
    expect(js.every((x) => Number.isNaN(x))).toBe(true)
    expect(Array.from(pearsonSamples(p, 200, 3, { engine: "wasm", threads: 1, kernel: "sparse" }))).toEqual(js)
  })

  it("quantiles (sampled bracket + selection) equal sort-based type 7 quantiles", () => {
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
    for (const n of [1, 2, 7, 1023, 1024, 2500, 10000]) {
      for (const shape of shapes) {
        const a = Float64Array.from({ length: n }, (_, i) => shape(i, n))
        const ps = [0.025, 0.975, 0.5, rand(), 0, 1]
        const expected = ps.map((p) => type7(a, p))
        expect(quantiles(Float64Array.from(a), n, ps)).toEqual(expected)
        expect(quantiles(Float64Array.from(a), n, ps.slice(0, 2))).toEqual(expected.slice(0, 2))
      }
    }
  })
})
