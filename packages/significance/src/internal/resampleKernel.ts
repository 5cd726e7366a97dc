// The Pearson paired bootstrap's resampling loop: B resamples x every run's (aggregated)
// correlation, written to samples[run * B + b]. This is the package's hot path (all-pairs
// comparison of 44 STS runs, or of 20 SICK runs on 4927 pairs, at 10,000 resamples), so it is
// written for speed; `Bootstrap.ts` keeps the readable outline, and Spearman keeps the general
// kernel in `correlationKernel.ts` (its ranks change with every resample).
//
// Formulation. With multiplicities w (how often each pair was drawn), centred gold g and a run x,
// the resampled Pearson needs m = sum w, sum w g, sum w g^2 (once per resample) and, per run,
// sum w x, sum w x^2, sum w x g. Those are a matrix product W (B x N) . [x, x^2, x g] (N x 3K): we
// precompute x g per run once, so each (run, pair, resample) costs three multiplies and three adds,
// and the gold is treated as one more "run" with x = g and "x g" = 1.
//
// Loop order ("register blocking", as in a GEMM micro-kernel): multiplicities are drawn for
// TILE = 4 resamples at a time into W[pair][lane]; then for each stratum and run the pairs are
// streamed once, each loaded x and x g updating twelve accumulators (3 sums x 4 resamples) that stay
// in registers. Loading each value once per tile instead of once per resample and running twelve
// independent addition chains is what makes the scalar version ~1.5-2x faster than one resample at
// a time; the WebAssembly version (`wasmKernel.ts`) does the same with f64x2 instructions.
//
// From 24 runs WebAssembly's kernel is `sparse` (wasmKernel.ts): runs rather than resamples in the
// lanes, skipping the pairs a resample did not draw (about 37% of them; their terms are +-0), about
// a fifth less time for 44 to 200 runs; the same sums in the same order, so the same bits.
//
// Random stream (random.ts): resamples come in chunks of CHUNK = 64, chunk c drawing from the
// seeded xoroshiro128+ generator advanced by c jumps, in the documented order (per resample, per
// stratum, m draws of Lemire's bounded integer). A chunk's output depends only on (seed, c), so
// chunks can run in any order on any thread with bit-identical results.
//
// Threads. Large jobs also run chunks on worker threads (internal/threads.ts) sharing one
// WebAssembly memory; the calling thread works too and then waits (Atomics.wait) for the rest, so
// `Bootstrap.resample` stays synchronous. JavaScript, single-thread WebAssembly and multi-thread
// WebAssembly give identical samples (tested).
import type { Prepared } from "./correlationKernel.js"
import { CHUNK, chunkStates } from "./random.js"
import * as Threads from "./threads.js"
import * as Wasm from "./wasm.js"
import * as WasmKernel from "./wasmKernel.js"

// Local copies: an imported binding can compile to a property read (a getter under CommonJS
// interop) on every use inside the hot loops.
const TILE = 4
const EPS = WasmKernel.EPS
if (WasmKernel.TILE !== TILE) throw new Error("resampleKernel: TILE mismatch")

export type Engine = "auto" | "js" | "wasm"

export interface RunOptions {
  /** "auto": WebAssembly when available, else JavaScript. */
  readonly engine?: Engine
  /** Threads including the caller; default: all available cores for large jobs, else 1. */
  readonly threads?: number
  readonly progress?: ((done: number, total: number) => void) | undefined
  /** Tests only: false leaves every chunk to the worker threads (when there are any). */
  readonly callerWorks?: boolean
  /**
   * Tests only: WebAssembly's `sparse` kernel (the default from 24 runs, when the data are finite)
   * or the dense `chunk`; the samples do not depend on it.
   */
  readonly kernel?: "dense" | "sparse"
  /** Tests only: per chunk, 1 + the index of the thread that computed it (0 = the caller). */
  readonly onDone?: (chunkThreads: Int32Array) => void
}

/** Per pseudo-run (0 = gold, k + 1 = run k), per pair: [x, x g]; for the gold [g, 1]. */
const packData = (p: Prepared): Float64Array => {
  const { pairs: N, runs: K, gold: g, x } = p
  const F = new Float64Array((K + 1) * N * 2)
  for (let i = 0; i < N; i++) {
    F[2 * i] = g[i]
    F[2 * i + 1] = 1
  }
  for (let k = 0; k < K; k++) {
    const o = (k + 1) * N * 2
    for (let i = 0; i < N; i++) {
      const xi = x[k * N + i]
      F[o + 2 * i] = xi
      F[o + 2 * i + 1] = xi * g[i]
    }
  }
  return F
}

// ---------------------------------------------------------------------------------------------
// JavaScript kernel: the reference for the WebAssembly one (same operations in the same order, so
// the same bits) and the fallback where WebAssembly is unavailable.

interface JsScratch {
  readonly W: Float64Array
  readonly acc: Float64Array
  readonly gold: Float64Array
}

const jsChunk = (
  p: Prepared,
  F: Float64Array,
  states: Int32Array,
  c: number,
  B: number,
  samples: Float64Array,
  buf: JsScratch
): void => {
  const { pairs: N, runs: K, strata: S, start, coef } = p
  const { W, acc, gold } = buf
  const b0 = c * CHUNK
  const count = Math.min(CHUNK, B - b0)
  let s00 = states[4 * c]
  let s01 = states[4 * c + 1]
  let s10 = states[4 * c + 2]
  let s11 = states[4 * c + 3]
  for (let tile = 0; tile < count; tile += TILE) {
    const lanes = Math.min(TILE, count - tile)
    W.fill(0)
    acc.fill(0)
    for (let r = 0; r < lanes; r++) {
      for (let s = 0; s < S; s++) {
        const a = start[s]
        const m = start[s + 1] - a
        const thr = (4294967296 - m) % m
        const base = a * TILE + r
        for (let j = 0; j < m; j++) {
          let mm: number
          // xoroshiro128+ on 32-bit halves, inlined (pure-rand's next(), without a call or object
          // writes per draw), then Lemire's multiply-and-reject.
          do {
            mm = ((s00 + s10) >>> 0) * m
            const a0 = s10 ^ s00
            const a1 = s11 ^ s01
            const t0 = s00
            const t1 = s01
            s00 = (t0 << 24) ^ (t1 >>> 8) ^ a0 ^ (a0 << 16)
            s01 = (t1 << 24) ^ (t0 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16))
            s10 = (a1 << 5) ^ (a0 >>> 27)
            s11 = (a0 << 5) ^ (a1 >>> 27)
          } while (mm >>> 0 < thr)
          W[base + Math.floor(mm / 4294967296) * TILE] += 1
        }
      }
    }
    for (let s = 0; s < S; s++) {
      const a = start[s]
      const e = start[s + 1]
      const cf = coef[s]
      for (let k = 0; k <= K; k++) {
        let sx0 = 0
        let sx1 = 0
        let sx2 = 0
        let sx3 = 0
        let sxx0 = 0
        let sxx1 = 0
        let sxx2 = 0
        let sxx3 = 0
        let sxg0 = 0
        let sxg1 = 0
        let sxg2 = 0
        let sxg3 = 0
        const o = k * N * 2
        for (let i = a; i < e; i++) {
          const xi = F[o + 2 * i]
          const gi = F[o + 2 * i + 1]
          const q = i * TILE
          const w0 = W[q]
          const w1 = W[q + 1]
          const w2 = W[q + 2]
          const w3 = W[q + 3]
          let t = w0 * xi
          sx0 += t
          sxx0 += t * xi
          sxg0 += w0 * gi
          t = w1 * xi
          sx1 += t
          sxx1 += t * xi
          sxg1 += w1 * gi
          t = w2 * xi
          sx2 += t
          sxx2 += t * xi
          sxg2 += w2 * gi
          t = w3 * xi
          sx3 += t
          sxx3 += t * xi
          sxg3 += w3 * gi
        }
        if (k === 0) {
          setGold(gold, 0, sx0, sxx0, sxg0)
          setGold(gold, 1, sx1, sxx1, sxg1)
          setGold(gold, 2, sx2, sxx2, sxg2)
          setGold(gold, 3, sx3, sxx3, sxg3)
        } else {
          const o = (k - 1) * TILE
          acc[o] = next(acc[o], gold, 0, cf, sx0, sxx0, sxg0)
          acc[o + 1] = next(acc[o + 1], gold, 1, cf, sx1, sxx1, sxg1)
          acc[o + 2] = next(acc[o + 2], gold, 2, cf, sx2, sxx2, sxg2)
          acc[o + 3] = next(acc[o + 3], gold, 3, cf, sx3, sxx3, sxg3)
        }
      }
    }
    for (let k = 0; k < K; k++) {
      for (let r = 0; r < lanes; r++) samples[k * B + b0 + tile + r] = acc[k * TILE + r]
    }
  }
}

/** Gold sums of one lane -> [m, sum w g, variance, ok] at gold[4 lane ..]. */
const setGold = (gold: Float64Array, lane: number, sg: number, sgg: number, m: number): void => {
  const vg = m * sgg - sg * sg
  gold[4 * lane] = m
  gold[4 * lane + 1] = sg
  gold[4 * lane + 2] = vg
  gold[4 * lane + 3] = vg > EPS * m * sgg ? 1 : 0
}

/** The aggregate after one more stratum: acc + c r, or NaN when r is undefined. */
const next = (
  acc: number,
  gold: Float64Array,
  lane: number,
  cf: number,
  sx: number,
  sxx: number,
  sxg: number
): number => {
  const m = gold[4 * lane]
  const vx = m * sxx - sx * sx
  if (gold[4 * lane + 3] === 1 && vx > EPS * m * sxx) {
    let r = (m * sxg - sx * gold[4 * lane + 1]) / Math.sqrt(vx * gold[4 * lane + 2])
    if (r > 1) r = 1
    else if (r < -1) r = -1
    return acc + cf * r
  }
  return Number.NaN
}

// ---------------------------------------------------------------------------------------------
// WebAssembly and threads.

type ChunkFn = (...args: Array<number>) => void

const compile = (shared: boolean): object | null => Wasm.compiled(`bootstrap:${shared}`, () => WasmKernel.bytes(shared))


/** Runs from which WebAssembly's `sparse` kernel is the faster. */
const SPARSE_RUNS = 24

/** Work (resamples x pairs x runs) from which extra threads pay for their start-up (~50 ms of work). */
const THREAD_WORK = 5e7

const align = (n: number): number => Math.ceil(n / 64) * 64

/** Every run's resampled statistic, run-major, for seed and B resamples (Pearson only). */
export const pearsonSamples = (p: Prepared, B: number, seed: number, options: RunOptions = {}): Float64Array => {
  const engine = options.engine ?? "auto"
  const { pairs: N, runs: K } = p
  const chunks = Math.ceil(B / CHUNK)
  const states = chunkStates(seed, chunks)
  const F = packData(p)
  const progress = makeProgress(B, options.progress)
  const threads = Math.max(1, Math.min(64, Math.floor(options.threads ?? Threads.defaultThreads(B * N * (K + 1), THREAD_WORK))))

  if (engine !== "js" && Wasm.host !== undefined) {
    const shared = threads > 1 && typeof SharedArrayBuffer === "function"
    const attempts = shared ? [true, false] : [false]
    for (const sharedMemory of attempts) {
      const samples = wasmRun(p, B, F, states, sharedMemory ? threads : 1, sharedMemory, options, progress)
      if (samples !== undefined) return samples
    }
  }
  if (engine === "wasm") throw new Error("WebAssembly (with SIMD) is not available")
  const samples = new Float64Array(K * B)
  const buf = { W: new Float64Array(N * TILE), acc: new Float64Array(K * TILE), gold: new Float64Array(4 * TILE) }
  for (let c = 0; c < chunks; c++) {
    jsChunk(p, F, states, c, B, samples, buf)
    progress(Math.min(B, (c + 1) * CHUNK))
  }
  return samples
}

/** The WebAssembly path; undefined when the module or its memory cannot be had. */
const wasmRun = (
  p: Prepared,
  B: number,
  F: Float64Array,
  states: Int32Array,
  threads: number,
  shared: boolean,
  options: RunOptions,
  progress: (done: number) => void
): Float64Array | undefined => {
  const { pairs: N, runs: K, strata: S } = p
  const chunks = states.length / 4
  const wasm = compile(shared)
  if (wasm === null || Wasm.host === undefined) return undefined
  // `sparse` skips the terms of undrawn pairs, which add +-0 only when the data are finite (x g can
  // overflow where x and g do not)
  let finite = true
  for (let i = 0; i < F.length; i++) if (!Number.isFinite(F[i])) finite = false
  // with few runs the lists cost more than the skipped terms save (measured: 8 runs 1.2 times the
  // dense kernel's time, 20 runs the same, 44 runs 0.85, 200 runs 0.8)
  const sparse = finite && (options.kernel ?? (K >= SPARSE_RUNS ? "sparse" : "dense")) === "sparse"
  const Kp = Math.ceil(K / WasmKernel.BLOCK_RUNS) * WasmKernel.BLOCK_RUNS

  // Memory layout (byte offsets): data F (dense) or, for `sparse`, the runs' data by blocks of
  // BLOCK_RUNS runs and the gold (one ROW_BYTES row per pair each); stratum starts, coefficients,
  // chunk states, samples, chunk status + control words, then per thread the scratch: W (N x
  // TILE) and accumulators (K x TILE + gold) for `chunk`; counts, the drawn pairs' lists and their
  // starts, accumulators (CHUNK x Kp) and the gold's figures for `sparse`.
  const rows = WasmKernel.ROW_BYTES
  const dataBytes = sparse ? (Kp / WasmKernel.BLOCK_RUNS + 1) * N * rows : F.byteLength
  const pF = 0
  const pStart = align(pF + dataBytes)
  const pCoef = align(pStart + 4 * (S + 1))
  const pState = align(pCoef + 8 * S)
  const pSamples = align(pState + states.byteLength)
  const pStatus = align(pSamples + 8 * K * B)
  const pControl = align(pStatus + 4 * chunks)
  const pScratch = align(pControl + 8)
  // dense scratch
  const wBytes = align(8 * N * TILE)
  // sparse scratch
  const sCounts = 0
  const sOff = align(4 * N)
  const sWt = sOff + align(4 * CHUNK * N)
  const sLstart = sWt + align(8 * CHUNK * N)
  const sAcc = sLstart + align(4 * CHUNK * (S + 1))
  const sGold = sAcc + align(8 * CHUNK * Kp)
  const scratchBytes = sparse ? sGold + align(CHUNK * WasmKernel.GOLD_BYTES + 16) : wBytes + align(8 * K * TILE + 144)
  const pages = Math.ceil((pScratch + threads * scratchBytes) / 65536)
  if (pages > 65536) return undefined
  let memory: Wasm.WasmMemory
  let exports: Record<string, unknown>
  try {
    memory = Wasm.newMemory(pages, shared)
    exports = Wasm.instantiate(wasm, memory)
  } catch {
    return undefined
  }
  const heap = memory.buffer
  if (sparse) {
    // block kb, pair i: x of runs 4 kb .. 4 kb + 3, then their x g (zero runs pad the last block);
    // the gold's g at the start of its row, after the blocks
    const X = new Float64Array(heap, pF, dataBytes / 8)
    const per = rows / 8
    const half = WasmKernel.BLOCK_RUNS
    for (let k = 0; k < K; k++) {
      const o = (k + 1) * N * 2
      const at = Math.floor(k / half) * N * per + (k % half)
      for (let i = 0; i < N; i++) {
        X[at + i * per] = F[o + 2 * i]
        X[at + i * per + half] = F[o + 2 * i + 1]
      }
    }
    const gAt = (Kp / half) * N * per
    for (let i = 0; i < N; i++) X[gAt + i * per] = F[2 * i]
  } else new Float64Array(heap, pF, F.length).set(F)
  new Int32Array(heap, pStart, S + 1).set(p.start)
  new Float64Array(heap, pCoef, S).set(p.coef)
  new Int32Array(heap, pState, states.length).set(states)
  const args = (t: number): Array<number> => {
    const scratch = pScratch + t * scratchBytes
    if (!sparse) return [N, K, S, B, pF, pStart, pCoef, pState, pSamples, scratch, scratch + wBytes]
    return [N, K, S, B, pF, pF + (Kp / WasmKernel.BLOCK_RUNS) * N * rows, pStart, pCoef, pState, pSamples,
      scratch + sCounts, scratch + sOff, scratch + sWt, scratch + sLstart, scratch + sAcc, scratch + sGold, Kp, batch]
  }
  // resamples per batch of `sparse`: their lists (about 0.63 N x 12 bytes each) in about 640 KB
  const batch = Math.max(1, Math.min(CHUNK, Math.floor(640_000 / (7.6 * N))))
  const name = sparse ? "sparse" : "chunk"
  const chunk = exports[name] as ChunkFn
  const mine = args(0)
  Threads.run({
    units: chunks,
    unit: (c) => chunk(c, Math.min(CHUNK, B - c * CHUNK), c * CHUNK, ...mine),
    message: (t) => ({ kind: "wasm", module: wasm, memory, chunk: CHUNK, resamples: B, args: args(t), name }),
    control: { buffer: heap, control: pControl, status: pStatus },
    threads,
    progress: (done) => progress(Math.min(B, done * CHUNK)),
    ...(options.callerWorks !== undefined ? { callerWorks: options.callerWorks } : {}),
    ...(options.onDone !== undefined ? { onDone: options.onDone } : {})
  })
  progress(B)
  return new Float64Array(heap, pSamples, K * B).slice()
}

/**
 * Calls `report(t, B)` for t = every, 2 every, ... and B (every = ceil(B / 100)), as the done count
 * passes them: the same calls as reporting after each resample, bunched by chunk.
 */
const makeProgress = (B: number, report: RunOptions["progress"]) => {
  const every = Math.max(1, Math.ceil(B / 100))
  let next = Math.min(every, B)
  return (done: number) => {
    if (report === undefined) return
    while (next <= done) {
      report(next, B)
      next = next === B ? B + 1 : Math.min(next + every, B)
    }
  }
}
