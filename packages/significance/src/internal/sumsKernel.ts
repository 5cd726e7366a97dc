// Sufficient statistics for the intervals engine (Intervals.ts): for a tile of TILE resamples and
// every (dataset, run), the weighted sums sum w x, sum w x^2 and sum w (x g) over the dataset's
// pairs, w being each pair's multiplicity in the resample. Every figure of a resample (per-dataset
// Pearson or accuracy, pooled, ALLnrm, the means) is a few operations on these sums, so this
// product, counts (TILE x pairs) times data (pairs x 2 values per run), is the whole cost of the
// pass: 100 runs x 7 tracks x 250 pairs x 1,000 resamples is 175 million (pair, run, resample)
// updates.
//
// Why not the Pearson bootstrap kernel (resampleKernel.ts / wasmKernel.ts): it folds the datasets
// into one aggregate per run inside the loop and writes only that, where intervals need each
// dataset's figure, the raw sums for pooled / ALLnrm, and runs that lack datasets. The inner loop
// is the same register-blocked one (TILE = 4 resamples share every load of x and x g; six f64x2
// accumulators), emitted by the same `pairStep`; the draws stay in JavaScript
// (random.ts), since they are 2 per cent of the work here (pairs x resamples, not x runs).
//
// The JavaScript version, one resample at a time, adds in the same order within each resample, so
// both give the same bits; it is the fallback where WebAssembly SIMD is unavailable.
import type { Engine } from "./resampleKernel.js"
import { Body, compiled, host, instantiate, module, newMemory } from "./wasm.js"
import { pairStep, TILE } from "./wasmKernel.js"

export { TILE }

/** Doubles written per (dataset, run): sum w x, sum w x^2, sum w x g, each for TILE lanes. */
export const SUMS = 3 * TILE

const sumsFunction = (): Body => {
  const f = new Body(["i32", "i32", "i32", "i32", "i32", "i32", "i32"], [])
  const [N, K1, S, pF, pSpans, pW, pOut] = [0, 1, 2, 3, 4, 5, 6]
  const s = f.local("i32")
  const k = f.local("i32")
  const a = f.local("i32")
  const e = f.local("i32")
  const p = f.local("i32")
  const end = f.local("i32")
  const q = f.local("i32")
  const o = f.local("i32")
  const v = () => f.local("v128")
  const [sx0, sx1, sxx0, sxx1, sxg0, sxg1] = [v(), v(), v(), v(), v(), v()]
  const [xs, gs, w0, w1, t] = [v(), v(), v(), v(), v()]
  /** for (x = 0; x < bound; x++) body */
  const upTo = (x: number, bound: number, body: () => void) => {
    f.i32(0).set(x)
    f.block((done) => {
      f.loop((again) => {
        f.get(x).get(bound).i32LtU().i32Eqz().brIf(done)
        body()
        f.get(x).i32(1).i32Add().set(x).br(again)
      })
    })
  }
  upTo(s, S, () => {
    f.get(pSpans).get(s).i32(8).i32Mul().i32Add().tee(o).i32Load(0).set(a)
    f.get(o).i32Load(4).set(e)
    upTo(k, K1, () => {
      for (const x of [sx0, sx1, sxx0, sxx1, sxg0, sxg1]) f.f64(0).f64x2Splat().set(x)
      f.get(pF).get(k).get(N).i32Mul().get(a).i32Add().i32(16).i32Mul().i32Add().set(p)
      f.get(pF).get(k).get(N).i32Mul().get(e).i32Add().i32(16).i32Mul().i32Add().set(end)
      f.get(pW).get(a).i32(TILE * 8).i32Mul().i32Add().set(q)
      // while (p < end), as a guarded do-while: one branch per pair
      f.get(p).get(end).i32LtU()
      f.if(() => {
        f.loop((more) => {
          pairStep(f, { p, q, xs, gs, w0, w1, t, sx0, sx1, sxx0, sxx1, sxg0, sxg1 })
          f.get(p).i32(16).i32Add().tee(p).get(end).i32LtU().brIf(more)
        })
      })
      f.get(pOut).get(s).get(K1).i32Mul().get(k).i32Add().i32(SUMS * 8).i32Mul().i32Add().set(o)
      const stores = [sx0, sx1, sxx0, sxx1, sxg0, sxg1]
      stores.forEach((x, i) => f.get(o).get(x).v128Store(16 * i))
    })
  })
  return f
}

/**
 * The JavaScript fallback: one lane at a time. Each lane's three sums are accumulated pair by pair
 * in the same order as the WebAssembly tile, whose lanes are independent, so the bits agree.
 */
const jsSums = (F: Float64Array, N: number, K1: number, spans: Int32Array, W: Float64Array, out: Float64Array): void => {
  const S = spans.length / 2
  for (let s = 0; s < S; s++) {
    const a = spans[2 * s]
    const e = spans[2 * s + 1]
    for (let k = 0; k < K1; k++) {
      const base = k * N * 2
      const o = (s * K1 + k) * SUMS
      for (let lane = 0; lane < TILE; lane++) {
        let sx = 0
        let sxx = 0
        let sxg = 0
        for (let i = a; i < e; i++) {
          const w = W[i * TILE + lane]
          const x = F[base + 2 * i]
          const t = w * x
          sx += t
          sxx += t * x
          sxg += w * F[base + 2 * i + 1]
        }
        out[o + lane] = sx
        out[o + TILE + lane] = sxx
        out[o + 2 * TILE + lane] = sxg
      }
    }
  }
}

const compile = (): object | null => compiled("sums", () => module([{ name: "sums", body: sumsFunction() }], false))

/**
 * One job's sums: fill `W` (multiplicities, `W[pair * TILE + lane]`), call `run()`, read `out`
 * (`out[(span * K1 + run) * SUMS + {0, TILE, 2 TILE} + lane]` = sum w x, sum w x^2, sum w x g).
 */
export interface Sums {
  readonly W: Float64Array
  readonly out: Float64Array
  readonly run: () => void
  readonly engine: "js" | "wasm"
}

const align = (n: number): number => Math.ceil(n / 64) * 64

/**
 * Sums over `spans` ([start, end) pair positions, two entries per span) for the K1 pseudo-runs of
 * `F` (per pseudo-run, per pair position: x then x g; N positions each).
 */
export const make = (F: Float64Array, N: number, K1: number, spans: Int32Array, engine: Engine = "auto"): Sums => {
  const S = spans.length / 2
  const wasm = engine === "js" ? null : compile()
  if (wasm !== null && host !== undefined) {
    const pF = 0
    const pSpans = align(pF + 8 * F.length)
    const pW = align(pSpans + 4 * spans.length)
    const pOut = align(pW + 8 * N * TILE)
    const bytes = pOut + 8 * S * K1 * SUMS
    const pages = Math.ceil(bytes / 65536) + 1
    if (pages <= 65536) {
      try {
        const memory = newMemory(pages, false)
        const sums = instantiate(wasm, memory).sums as (...args: Array<number>) => void
        const heap = memory.buffer
        new Float64Array(heap, pF, F.length).set(F)
        new Int32Array(heap, pSpans, spans.length).set(spans)
        return {
          W: new Float64Array(heap, pW, N * TILE),
          out: new Float64Array(heap, pOut, S * K1 * SUMS),
          run: () => sums(N, K1, S, pF, pSpans, pW, pOut),
          engine: "wasm"
        }
      } catch {
        // no memory or instance: fall back to JavaScript below
      }
    }
  }
  if (engine === "wasm") throw new Error("WebAssembly (with SIMD) is not available")
  const W = new Float64Array(N * TILE)
  const out = new Float64Array(S * K1 * SUMS)
  return { W, out, run: () => jsSums(F, N, K1, spans, W, out), engine: "js" }
}
