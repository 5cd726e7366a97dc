// Sufficient statistics for the intervals engine (Intervals.ts): for a tile of TILE resamples and
// every (dataset, run), the weighted sums sum w x, sum w x^2 and sum w (x g) over the dataset's
// pairs, w being each pair's multiplicity in the resample. Every figure of a resample (per-dataset
// Pearson or accuracy, pooled, ALLnrm, the means) is a few operations on these sums, so this
// product, counts (TILE x pairs) times data (pairs x 2 values per run), is the whole cost of the
// pass: 100 runs x 7 tracks x 250 pairs x 1,000 resamples is 175 million (pair, run, resample)
// updates.
//
// The inner loop is register-blocked (TILE = 4 resamples share every load of x and x g; six f64x2
// accumulators); the draws stay in JavaScript (random.ts), since they are 2 per cent
// of the work here (pairs x resamples, not x runs). The paired bootstrap runs on it too
// (figures.ts): one engine for every resampled figure.
//
// The JavaScript version, one resample at a time, adds in the same order within each resample, so
// both give the same bits; it is the fallback without WebAssembly SIMD. With thousands of runs the
// data sits in no cache, so a call takes a whole chunk's multiplicities (up to 16 tiles) and
// streams each run's data once per group of tiles, the runs split in blocks over worker threads
// (threads.ts) in shared memory; neither changes a sum's order, so neither changes a bit.
import * as Threads from "./threads.js"
import type { Engine } from "./threads.js"
import { Body, compiled, host, instantiate, module, newMemory } from "./wasm.js"
import type { WasmMemory } from "./wasm.js"

/** Resamples per register tile (two f64x2 lanes). */
export const TILE = 4

/** Doubles written per (dataset, run): sum w x, sum w x^2, sum w x g, each for TILE lanes. */
export const SUMS = 3 * TILE

/**
 * `sums(u, count, b0, N, K1, S, pF, pSpans, pW, pOut, tiles, block, group)`: the sums of runs
 * u block .. (u + 1) block - 1 (at most K1) for `tiles` tiles of multiplicities (tile t's W at
 * pW + t N TILE 8, its sums at pOut + t S K1 SUMS 8); `count` and `b0` unused (threads.ts' unit
 * arguments). Tiles are taken `group` at a time, each run's data streamed once per group (the
 * group's multiplicities stay in cache): streamed once per tile, tens of megabytes of runs made
 * the kernel wait on memory. Each sum keeps its pair order, so the bits do not depend on it.
 */
const sumsFunction = (): Body => {
  const f = new Body(["i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32"], [])
  const [U, , , N, K1, S, pF, pSpans, pW, pOut, TILES, BLOCK, GROUP] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
  const i = () => f.local("i32")
  const [s, k, a, e, p, end, q, o, tile, k0, k1, g0, g1] = [i(), i(), i(), i(), i(), i(), i(), i(), i(), i(), i(), i(), i()]
  const v = () => f.local("v128")
  const [sx0, sx1, sxx0, sxx1, sxg0, sxg1] = [v(), v(), v(), v(), v(), v()]
  const [xs, gs, w0, w1, t] = [v(), v(), v(), v(), v()]
  /** x = min(a, b) (unsigned) from two pushers */
  const minInto = (x: number, left: () => void, right: () => void) => {
    left()
    right()
    left()
    right()
    f.i32LtU().select().set(x)
  }
  /** for (x = from; x < bound; x++) body, with from and bound locals */
  const range = (x: number, from: number, bound: number, body: () => void) => {
    f.get(from).set(x)
    f.block((done) => {
      f.loop((again) => {
        f.get(x).get(bound).i32LtU().i32Eqz().brIf(done)
        body()
        f.get(x).i32(1).i32Add().set(x).br(again)
      })
    })
  }
  const zero = f.local("i32")
  f.i32(0).set(zero)
  f.get(U).get(BLOCK).i32Mul().set(k0)
  minInto(k1, () => f.get(k0).get(BLOCK).i32Add(), () => f.get(K1))
  f.i32(0).set(g0)
  f.block((allDone) => {
    f.loop((groups) => {
      f.get(g0).get(TILES).i32LtU().i32Eqz().brIf(allDone)
      minInto(g1, () => f.get(g0).get(GROUP).i32Add(), () => f.get(TILES))
      range(k, k0, k1, () => {
        range(s, zero, S, () => {
          f.get(pSpans).get(s).i32(8).i32Mul().i32Add().tee(o).i32Load(0).set(a)
          f.get(o).i32Load(4).set(e)
          range(tile, g0, g1, () => {
            for (const x of [sx0, sx1, sxx0, sxx1, sxg0, sxg1]) f.f64(0).f64x2Splat().set(x)
            f.get(pF).get(k).get(N).i32Mul().get(a).i32Add().i32(16).i32Mul().i32Add().set(p)
            f.get(pF).get(k).get(N).i32Mul().get(e).i32Add().i32(16).i32Mul().i32Add().set(end)
            // this tile's multiplicities, from the dataset's first pair
            f.get(pW).get(tile).get(N).i32Mul().get(a).i32Add().i32(TILE * 8).i32Mul().i32Add().set(q)
            // while (p < end), as a guarded do-while: one branch per pair
            f.get(p).get(end).i32LtU()
            f.if(() => {
              f.loop((more) => {
                // the pair's x and x g (at p) and the TILE resamples' multiplicities w (at q)
                f.get(p).v128Load64Splat(0).set(xs)
                f.get(p).v128Load64Splat(8).set(gs)
                f.get(q).v128Load(0).set(w0)
                f.get(q).v128Load(16).set(w1)
                // t = w x; sx += t; sxx += t x; sxg += w (x g)
                f.get(w0).get(xs).f64x2Mul().tee(t).get(sx0).f64x2Add().set(sx0)
                f.get(t).get(xs).f64x2Mul().get(sxx0).f64x2Add().set(sxx0)
                f.get(w0).get(gs).f64x2Mul().get(sxg0).f64x2Add().set(sxg0)
                f.get(w1).get(xs).f64x2Mul().tee(t).get(sx1).f64x2Add().set(sx1)
                f.get(t).get(xs).f64x2Mul().get(sxx1).f64x2Add().set(sxx1)
                f.get(w1).get(gs).f64x2Mul().get(sxg1).f64x2Add().set(sxg1)
                // the next pair's weights (p steps in the loop's condition)
                f.get(q).i32(TILE * 8).i32Add().set(q)
                f.get(p).i32(16).i32Add().tee(p).get(end).i32LtU().brIf(more)
              })
            })
            // out[((tile S + s) K1 + k) SUMS]
            f.get(pOut).get(tile).get(S).i32Mul().get(s).i32Add().get(K1).i32Mul().get(k).i32Add().i32(SUMS * 8).i32Mul().i32Add().set(o)
            const stores = [sx0, sx1, sxx0, sxx1, sxg0, sxg1]
            stores.forEach((x, i) => f.get(o).get(x).v128Store(16 * i))
          })
        })
      })
      f.get(g1).set(g0)
      f.br(groups)
    })
  })
  return f
}

/**
 * The JavaScript fallback: one lane at a time. Each lane's three sums are accumulated pair by pair
 * in the same order as the WebAssembly tile, whose lanes are independent, so the bits agree.
 */
const jsSums = (F: Float64Array, N: number, K1: number, spans: Int32Array, W: Float64Array, out: Float64Array, tiles: number): void => {
  const S = spans.length / 2
  for (let tile = 0; tile < tiles; tile++) {
    const w0 = tile * N * TILE
    for (let s = 0; s < S; s++) {
      const a = spans[2 * s]
      const e = spans[2 * s + 1]
      for (let k = 0; k < K1; k++) {
        const base = k * N * 2
        const o = ((tile * S + s) * K1 + k) * SUMS
        for (let lane = 0; lane < TILE; lane++) {
          let sx = 0
          let sxx = 0
          let sxg = 0
          for (let i = a; i < e; i++) {
            const w = W[w0 + i * TILE + lane]
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
}

const compile = (shared: boolean): object | null =>
  compiled(shared ? "sums-shared" : "sums", () => module([{ name: "sums", body: sumsFunction() }], shared))

/**
 * One job's sums: fill the multiplicities of up to `tiles` tiles (`W[tile]`, `W[tile][pair * TILE +
 * lane]`), call `run(count)` for the first `count` tiles, read `out[tile]`
 * (`out[tile][(span * K1 + run) * SUMS + {0, TILE, 2 TILE} + lane]` = sum w x, sum w x^2, sum w x g).
 */
export interface Sums {
  readonly W: ReadonlyArray<Float64Array>
  readonly out: ReadonlyArray<Float64Array>
  readonly run: (count?: number) => void
  readonly engine: "js" | "wasm"
  /** threads the WebAssembly sums run on (the caller included) */
  readonly threads: number
}

const align = (n: number): number => Math.ceil(n / 64) * 64

/** Bytes of multiplicities a group of tiles may take: what a core's second-level cache holds with room to spare. */
const GROUP_BYTES = 512 * 1024

/** Blocks of runs per thread: a thread that gets less CPU time (a shared machine) leaves its last blocks to the others. */
const BLOCKS_PER_THREAD = 4

/**
 * Sums over `spans` ([start, end) pair positions, two entries per span) for the K1 pseudo-runs of
 * `F` (per pseudo-run, per pair position: x then x g; N positions each; none without spans), for up
 * to `tiles` tiles of TILE resamples per `run`, on up to `threads` threads (the caller included;
 * WebAssembly only). `F` may be a function that writes it: into the module's memory directly, so
 * that the data (2 x pairs x runs doubles: 44 MB for 2,000 STS-B runs) are not held twice.
 */
export const make = (
  data: Float64Array | ((F: Float64Array) => void),
  N: number,
  K1: number,
  spans: Int32Array,
  engine: Engine = "auto",
  tiles = 1,
  threads = 1,
  /** Tests only: false leaves every block of runs to the worker threads (when there are any). */
  callerWorks?: boolean,
  /** A memory to reuse when large enough (the last tile's, when a job is taken tile by tile of runs), and where this one is left. */
  reuse?: { memory?: WasmMemory | undefined; shared?: boolean | undefined }
): Sums => {
  const S = spans.length / 2
  const length = S > 0 ? K1 * N * 2 : 0
  const write = (F: Float64Array) => (typeof data === "function" ? data(F) : F.set(data.subarray(0, length)))
  const views = (wHeap: ArrayBufferLike, pW: number, outHeap: ArrayBufferLike, pOut: number) => ({
    W: Array.from({ length: tiles }, (_, t) => new Float64Array(wHeap, pW + t * 8 * N * TILE, N * TILE)),
    out: Array.from({ length: tiles }, (_, t) => new Float64Array(outHeap, pOut + t * 8 * S * K1 * SUMS, S * K1 * SUMS))
  })
  const shared = threads > 1 && typeof SharedArrayBuffer === "function"
  const wasm = engine === "js" ? null : compile(shared)
  if (wasm !== null && host !== undefined) {
    const pF = 0
    const pSpans = align(pF + 8 * length)
    const pW = align(pSpans + 4 * spans.length)
    const pOut = align(pW + 8 * tiles * N * TILE)
    const bytes = pOut + 8 * tiles * S * K1 * SUMS
    const pages = Math.ceil(bytes / 65536) + 1
    if (pages <= 65536) {
      try {
        const last = reuse?.memory
        const again = last !== undefined && reuse?.shared === shared && last.buffer.byteLength >= pages * 65536
        const memory = again ? last : newMemory(pages, shared)
        if (reuse !== undefined) {
          reuse.memory = memory
          reuse.shared = shared
        }
        const sums = instantiate(wasm, memory).sums as (...args: Array<number>) => void
        const heap = memory.buffer
        const F = new Float64Array(heap, pF, length)
        // the data of runs lacking a dataset are never written: zero, as in a new memory
        if (again) F.fill(0)
        write(F)
        new Int32Array(heap, pSpans, spans.length).set(spans)
        // at most every tile: with no pairs (N = 0, a dry run on no runs that checks the settings)
        // the quotient is Infinity, which WebAssembly's i32 reads as 0, and the groups' loop never ended
        const group = Math.max(1, Math.min(tiles, Math.floor(GROUP_BYTES / (8 * N * TILE))))
        const units = shared ? Math.min(K1, threads * BLOCKS_PER_THREAD) : 1
        const block = Math.ceil(K1 / units)
        const blocks = Math.ceil(K1 / block)
        const args = (count: number) => [N, K1, S, pF, pSpans, pW, pOut, count, block, group]
        return {
          ...views(heap, pW, heap, pOut),
          run: (count = 1) => {
            const a = args(count)
            if (blocks === 1) sums(0, 1, 0, ...a)
            else {
              Threads.run({
                units: blocks,
                unit: (u) => sums(u, 1, u, ...a),
                message: () => ({ kind: "wasm", module: wasm, memory, chunk: 1, resamples: blocks, args: a, name: "sums" }),
                threads,
                callerWorks
              })
            }
          },
          engine: "wasm",
          threads: blocks === 1 ? 1 : threads
        }
      } catch {
        // no memory or instance: fall back to JavaScript below
      }
    }
  }
  if (engine === "wasm") throw new Error("WebAssembly (with SIMD) is not available")
  const W = new Float64Array(tiles * N * TILE)
  const out = new Float64Array(tiles * S * K1 * SUMS)
  const F = new Float64Array(length)
  write(F)
  return { ...views(W.buffer, 0, out.buffer, 0), run: (count = 1) => jsSums(F, N, K1, spans, W, out, count), engine: "js", threads: 1 }
}
