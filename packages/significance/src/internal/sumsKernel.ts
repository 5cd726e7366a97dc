// Sufficient statistics for the intervals engine (Intervals.ts): for a tile of TILE resamples and
// every (dataset, run), the weighted sums sum w x, sum w x^2 and sum w (x g) over the dataset's
// pairs, w being each pair's multiplicity in the resample. Every figure of a resample (per-dataset
// Pearson or accuracy, pooled, ALLnrm, the means) is a few operations on these sums, so this
// product, counts (TILE x pairs) times data (pairs x 2 values per run), is the whole cost of the
// pass: 100 runs x 7 tracks x 250 pairs x 1,000 resamples is 175 million (pair, run, resample)
// updates.
//
// The WebAssembly sums take each resample as a list of the pairs it drew (about 37% are drawn 0
// times) against blocks of RUNS runs side by side (see `sumsFunction`). The draws stay in
// JavaScript (random.ts): pairs x resamples, not x runs. Without WebAssembly SIMD there are no sums:
// the pass takes every figure by its metric over the drawn pairs (intervals.ts). A call takes a
// whole chunk's lists (16 tiles), the blocks of runs split over worker threads (threads.ts) in
// shared memory; neither changes a sum's order, so neither changes a bit.
import * as Threads from "./threads.js"
import { Body, compiled, instantiate, module, newMemory } from "./wasm.js"
import type { WasmMemory } from "./wasm.js"

/** Resamples per tile of multiplicities (and of the sums' output). */
export const TILE = 4

/** Doubles written per (dataset, run): sum w x, sum w x^2, sum w x g, each for TILE lanes. */
export const SUMS = 3 * TILE

/** Runs per register block of the WebAssembly sums (RUNS / 2 f64x2 lanes of each sum). */
export const RUNS = 8

/** Bytes of a block's data walked for every resample before the next pairs: what a core's first-level cache holds with room to spare. */
const SEGMENT_BYTES = 16 * 1024

const SEGMENT = Math.floor(SEGMENT_BYTES / (16 * RUNS))

/**
 * `sums(u, K1, padded, S, pD, pE, pCut, pOut, tiles, block, N, G, RS, pAcc)`: the sums of runs
 * u block .. (u + 1) block - 1 (at most `padded`, K1 rounded up to RUNS; sums are stored for runs
 * below K1) for the `tiles` tiles' resamples.
 *
 * A resample's pairs of multiplicity 0 (about 37% of them: e^-1) add nothing, so each resample
 * comes as a list of its other pairs (`pE`: 16 bytes per entry, the multiplicity as f64, then the
 * pair's byte offset in a block's data), and each entry is one splat of its multiplicity against
 * RUNS runs' x and x g, which sit side by side (`pD`: per block of RUNS runs, per pair, RUNS x then
 * RUNS x g). The pairs are walked SEGMENT at a time (their data stays in the first-level cache)
 * for every (resample, span) of the call, RS = tiles TILE S of them, whose running sums wait in
 * `pAcc` (a region per unit) between segments: (resample, span) rs's entries in segment g are
 * pCut[rs (G + 1) + g] .. pCut[rs (G + 1) + g + 1] - 1, G segments. Skipping a 0 w x term keeps every
 * sum's bits (x is finite and a sum is never -0), and each sum keeps its pair order.
 */
const sumsFunction = (): Body => {
  const f = new Body(14)
  const [U, K1, PADDED, S, pD, pE, pCut, pOut, TILES, BLOCK, N, G, RS, pAcc] = Array.from({ length: 14 }, (_, j) => j)
  const i = () => f.local("i32")
  const [kb, k1, base, tile, lane, s, c, q, end, p, o, g, stride, acc, a] = Array.from({ length: 15 }, i)
  const V = RUNS / 2
  const v = () => f.local("v128")
  const sx = Array.from({ length: V }, v)
  const sxx = Array.from({ length: V }, v)
  const sxg = Array.from({ length: V }, v)
  const sums = [...sx, ...sxx, ...sxg]
  const [w, xs, t] = [v(), v(), v()]
  /** for (x = 0; x < bound; x++) body, with bound a local */
  const upTo = (x: number, bound: () => void, body: () => void) => {
    f.i32(0).set(x)
    f.block((done) => {
      f.loop((again) => {
        f.get(x)
        bound()
        f.i32LtU().i32Eqz().brIf(done)
        body()
        f.get(x).i32(1).i32Add().set(x).br(again)
      })
    })
  }
  f.get(U).get(BLOCK).i32Mul().set(kb)
  // k1 = min(kb + block, padded)
  f.get(kb).get(BLOCK).i32Add().get(PADDED).get(kb).get(BLOCK).i32Add().get(PADDED).i32LtU().select().set(k1)
  f.get(G).i32(1).i32Add().i32(4).i32Mul().set(stride)
  f.get(pAcc).get(U).get(RS).i32Mul().i32(16 * 3 * V).i32Mul().i32Add().set(acc)
  f.block((allDone) => {
    f.loop((blocks) => {
      f.get(kb).get(k1).i32LtU().i32Eqz().brIf(allDone)
      f.get(pD).get(kb).get(N).i32Mul().i32(16).i32Mul().i32Add().set(base)
      upTo(g, () => f.get(G), () => {
        f.get(pCut).get(g).i32(4).i32Mul().i32Add().set(c)
        f.get(acc).set(a)
        upTo(tile, () => f.get(TILES), () => {
          upTo(lane, () => f.i32(TILE), () => {
            upTo(s, () => f.get(S), () => {
              f.get(pE).get(c).i32Load(0).i32(16).i32Mul().i32Add().set(q)
              f.get(pE).get(c).i32Load(4).i32(16).i32Mul().i32Add().set(end)
              // the running sums: 0 in the first segment, else where the last one left them
              for (const x of sums) f.f64(0).f64x2Splat().set(x)
              f.get(g)
              f.if(() => sums.forEach((x, j) => f.get(a).v128Load(16 * j).set(x)))
              f.get(q).get(end).i32LtU()
              f.if(() => {
                f.loop((more) => {
                  f.get(q).v128Load64Splat(0).set(w)
                  f.get(base).get(q).i32Load(8).i32Add().set(p)
                  for (let j = 0; j < V; j++) {
                    // t = w x; sx += t; sxx += t x; sxg += w (x g)
                    f.get(p).v128Load(16 * j).tee(xs).get(w).f64x2Mul().tee(t).get(sx[j]).f64x2Add().set(sx[j])
                    f.get(t).get(xs).f64x2Mul().get(sxx[j]).f64x2Add().set(sxx[j])
                    f.get(p).v128Load(8 * RUNS + 16 * j).get(w).f64x2Mul().get(sxg[j]).f64x2Add().set(sxg[j])
                  }
                  f.get(q).i32(16).i32Add().tee(q).get(end).i32LtU().brIf(more)
                })
              })
              sums.forEach((x, j) => f.get(a).get(x).v128Store(16 * j))
              // after the last segment: out[((tile S + s) K1 + k) SUMS + lane], for the block's runs below K1
              f.get(g).i32(1).i32Add().get(G).i32LtU().i32Eqz()
              f.if(() => {
                f.get(pOut).get(tile).get(S).i32Mul().get(s).i32Add().get(K1).i32Mul().get(kb).i32Add().i32(SUMS).i32Mul().get(lane).i32Add().i32(8).i32Mul().i32Add().set(o)
                for (let r = 0; r < RUNS; r++) {
                  f.get(kb).i32(r).i32Add().get(K1).i32LtU()
                  f.if(() => [sx, sxx, sxg].forEach((sum, m) => f.get(o).get(sum[r >> 1]).f64x2ExtractLane(r & 1).f64Store(8 * SUMS * r + 8 * TILE * m)))
                }
              })
              f.get(c).get(stride).i32Add().set(c)
              f.get(a).i32(16 * 3 * V).i32Add().set(a)
            })
          })
        })
      })
      f.get(kb).i32(RUNS).i32Add().set(kb)
      f.br(blocks)
    })
  })
  return f
}

/**
 * One job's sums: `list` each resample of a call in turn, `run` the call, read `out[tile]`
 * (`out[tile][(span * K1 + run) * SUMS + {0, TILE, 2 TILE} + lane]` = sum w x, sum w x^2, sum w x g;
 * resample r of the call is lane r mod TILE of tile r / TILE).
 */
export type Sums = NonNullable<ReturnType<typeof make>>

/** A call's lists: each entry's pair offset and multiplicity, and where each (resample, span)'s segments start. */
export type Saved = ReturnType<Sums["save"]>

const align = (n: number): number => Math.ceil(n / 64) * 64

/** Blocks of runs per thread: a thread that gets less CPU time (a shared machine) leaves its last blocks to the others. */
const BLOCKS_PER_THREAD = 4

/**
 * A call's saved lists (`save`) to the module's entries (`back`) or from them, in a function of the
 * module with its arrays for arguments: as loops of `make`'s closures, reading them from the
 * closure and from `saved`, the copies took twice as long (2,000 runs' --json: 60 ms, 32 ms so).
 */
const copyEntries = (E32: Int32Array, E64: Float64Array, pairs: Int32Array, counts: Float32Array, back: boolean): void => {
  for (let j = 0; j < pairs.length; j++) {
    if (back) {
      E32[4 * j + 2] = pairs[j]
      E64[2 * j] = counts[j]
    } else {
      pairs[j] = E32[4 * j + 2]
      counts[j] = E64[2 * j]
    }
  }
}

/**
 * Where pseudo-run k's values sit in the data: pair i's x at base(k) + i step, its x g `gap` after;
 * block by block of RUNS runs, pair by pair, the block's x side by side, then its x g.
 */
export type Layout = ReturnType<typeof byBlock>

const byBlock = (N: number) => ({ base: (k: number) => (k - (k % RUNS)) * N * 2 + (k % RUNS), step: 2 * RUNS, gap: RUNS })

/**
 * Sums over `spans` ([start, end) pair positions, two entries per span) for K1 pseudo-runs of N
 * pair positions that `write` writes (per pseudo-run, per pair position: x then x g) in the layout
 * it is given, into the module's memory directly, so that the data (2 x pairs x runs doubles: 44 MB
 * for 2,000 STS-B runs) are not held twice; up to `tiles` tiles of TILE resamples per `run`, on up
 * to `threads` threads (the caller included). Undefined without WebAssembly SIMD or its memory.
 */
export const make = (
  write: (F: Float64Array, layout: Layout) => void,
  N: number,
  K1: number,
  spans: Int32Array,
  tiles = 1,
  threads = 1,
  /** Tests only: false leaves every block of runs to the worker threads (when there are any). */
  callerWorks?: boolean,
  /** A memory to reuse when large enough (the last tile's, when a job is taken tile by tile of runs), and where this one is left. */
  reuse?: { memory?: WasmMemory | undefined }
) => {
  const S = spans.length / 2
  const shared = threads > 1 && typeof SharedArrayBuffer === "function"
  const wasm = compiled(shared ? "sums-shared" : "sums", () => module([{ name: "sums", body: sumsFunction() }], shared))
  if (wasm === null) return undefined
  // runs padded to whole register blocks; at most every pair of every resample in the lists
  const padded = Math.ceil(K1 / RUNS) * RUNS
  const entries = tiles * TILE * N
  const pD = 0
  const pE = align(pD + 8 * (S > 0 ? padded * N * 2 : 0))
  const G = Math.ceil(N / SEGMENT)
  const RS = tiles * TILE * S
  const units = shared ? Math.min(padded / RUNS, threads * BLOCKS_PER_THREAD) : 1
  const pCut = align(pE + 16 * entries)
  const pAcc = align(pCut + 4 * (G + 1) * RS)
  const pOut = align(pAcc + 16 * 3 * (RUNS / 2) * RS * units)
  const bytes = pOut + 8 * tiles * S * K1 * SUMS
  const pages = Math.ceil(bytes / 65536) + 1
  if (pages > 65536) return undefined
  try {
    const last = reuse?.memory
    const again = last !== undefined && shared === (typeof SharedArrayBuffer === "function" && last.buffer instanceof SharedArrayBuffer) && last.buffer.byteLength >= pages * 65536
    const memory = again ? last : newMemory(pages, shared)
    if (reuse !== undefined) reuse.memory = memory
    const sums = instantiate(wasm, memory).sums as (...args: Array<number>) => void
    const heap = memory.buffer
    // the data of runs lacking a dataset, and the padding runs, are never written: zero, as in a new memory
    const D = new Float64Array(heap, pD, S > 0 ? padded * N * 2 : 0)
    if (again) D.fill(0)
    if (S > 0) write(D, byBlock(N))
    const E64 = new Float64Array(heap, pE, 2 * entries)
    const E32 = new Int32Array(heap, pE, 4 * entries)
    // (resample, span) rs's entries in segment g: cuts[rs (G + 1) + g] .. cuts[rs (G + 1) + g + 1] - 1
    const cuts = new Int32Array(heap, pCut, (G + 1) * RS)
    const out = Array.from({ length: tiles }, (_, t) => new Float64Array(heap, pOut + t * 8 * S * K1 * SUMS, S * K1 * SUMS))
    // the resamples listed for the next call, and the entries they take
    let listed = 0
    let e = 0
    /**
     * Lists the call's next resample, pair i drawn `counts[i]` times: per span, its pairs drawn at
     * least once, in order; leaves `counts` 0 on the spans.
     */
    const list = (counts: Float64Array) => {
      let c = listed++ * S * (G + 1)
      for (let sp = 0; sp < S; sp++, c += G + 1) {
        const first = spans[2 * sp]
        const last = spans[2 * sp + 1]
        // segments that begin at or before the span's first pair start at its first entry
        let g = 0
        for (; g * SEGMENT <= first; g++) cuts[c + g] = e
        for (let i = first; i < last; ) {
          const stop = Math.min(last, g * SEGMENT)
          // every pair written, the next entry taking its place when its multiplicity is 0: no
          // branch on a coin flip (V8 compiles `w === 0 ? 0 : 1` to one, and this loop took twice
          // as long)
          for (; i < stop; i++) {
            const w = counts[i]
            E64[2 * e] = w
            E32[4 * e + 2] = i * 16 * RUNS
            e += +(w !== 0)
          }
          if (i < last) cuts[c + g++] = e
        }
        for (; g <= G; g++) cuts[c + g] = e
        counts.fill(0, first, last)
      }
    }
    // what `save` copies: the entries and the segments' cuts (multiplicities are counts of draws of
    // at most N, exact in a float32: from 2 tiles on, 4 GiB of lists and data hold N <= 2^24)
    let count = 0
    /**
     * The last `run`'s lists as `run` takes them back: a job taken tile by tile of runs draws each
     * chunk once, for the first tile (both have the same bits for the same draws).
     */
    const save = () => {
      const cut = cuts.slice(0, (G + 1) * Math.ceil(count / TILE) * TILE * S)
      const n = cut.length > 0 ? cut[cut.length - 1] : 0
      const pairs = new Int32Array(n)
      const multiplicities = new Float32Array(n)
      copyEntries(E32, E64, pairs, multiplicities, false)
      return { count, pairs, counts: multiplicities, cuts: cut }
    }
    const block = Math.ceil(padded / RUNS / units) * RUNS
    const blocks = Math.ceil(padded / block)
    return {
      out,
      list,
      save,
      /** The sums of the resamples listed since the last call (the lanes after the last one empty), or of those `saved` holds. */
      run: (saved?: ReturnType<typeof save>) => {
        if (saved === undefined) {
          // the last tile's lanes past the last resample: empty lists
          for (let j = listed * S * (G + 1); j < Math.ceil(listed / TILE) * TILE * S * (G + 1); j++) cuts[j] = e
          count = listed
        } else {
          copyEntries(E32, E64, saved.pairs, saved.counts, true)
          cuts.set(saved.cuts)
          count = saved.count
        }
        listed = 0
        e = 0
        const called = Math.ceil(count / TILE)
        const a = [K1, padded, S, pD, pE, pCut, pOut, called, block, N, G, called * TILE * S, pAcc]
        const message = () => ({ kind: "wasm", module: wasm, memory, args: a })
        Threads.start({ units: blocks, unit: (u) => sums(u, ...a), message, threads: blocks === 1 ? 1 : threads, callerWorks }).join()
      }
    }
  } catch {
    // no memory or instance
    return undefined
  }
}
