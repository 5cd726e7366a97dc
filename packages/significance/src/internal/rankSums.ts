// The rank-based metrics on bootstrap resamples given as multiplicities, for the one resampling
// pass (tests and intervals alike): Spearman's rho, one pass per run over its values in sorted
// order, O(n) per run and resample; Kendall's tau-b, one pass over the gold's order with a Fenwick
// tree of the run's groups, O(n log n) (`tauWalks`); both exact, on worker threads for large jobs.
//
// The resample is a multiset: pair i appears w_i times. Its mid-ranks (ties share the mean of
// their positions, a pair drawn c times being c tied copies) follow from the original sorted
// order: pairs with equal values form fixed groups (the values never change, only the weights),
// and a group of total weight t after `cum` lighter copies has mid-rank cum + (t + 1) / 2. So per
// run and resample it is enough to walk the groups once, summing t and sum w rg (rg: the gold's
// centred mid-ranks in this resample); and the run's sum of squared centred ranks needs no pass at
// all: (m^3 - m - sum over groups (t^3 - t)) / 12, an integer identity, exact in doubles while
// m^3 < 2^53. Writing every rank out and then taking three weighted sums would be two passes;
// this fuses both into the one walk.
//
// Every number in the walks is exact: weights are integers, mid-ranks half-integers, so every
// product and partial sum below is a multiple of 1/4, and the sums are exact whatever their order
// while they stay within 2^51 (2^53 quarters). The largest: a running sum of (cum + cum') s (or
// 2 cum s + w s, or a tied group's correction), at most 2m sum |s| <= 2m sum w |rg| / 2 <=
// m^2 (m - 1) / 2 (|rg| <= (m - 1) / 2, sum w = m); so the walks are exact up to m = 165,140 pairs
// per dataset (`rhoPairs`), where 2 m^2 (m - 1) <= 2^53. A larger Spearman dataset is resampled
// by the metric over each resample's drawn pairs instead (job.ts), and `plan` refuses one: beyond
// it sums would round, and differently in the two walks (`single` and `walk` add in different
// orders), so the bits would depend on which engine a tile or a thread got. That lets a walk do
// the least per group: with cum' = cum + t,
// (mid-rank - centre) = (cum + cum') / 2 + 1/2 - centre, and the second part drops out because
// sum w rg = 0 exactly; so per group sxy += (cum + cum') s (s: the group's sum of w rg / 2), and
// sum t^3.
//
// This walk is the dearest part of an intervals pass (175 million (pair, run, resample) steps for
// 100 runs x 7 STS 2017 tracks), hence:
// - eight resamples per walk (TILE lanes): each group bound and sort position is loaded once for
//   eight resamples, and the lanes' running sums are independent addition chains the processor
//   interleaves; exact (above), so the bits do not depend on the tiling;
// - a pair's eight multiplicities and eight w rg / 2 side by side (one 128-byte row), so a run's
//   walk, in its own order, reads one row per pair;
// - the gold's side, w rg, is multiplied once per resample and pair rather than once per run;
// - the runs' walks in WebAssembly SIMD (below; without it the pass takes the metric over
//   each resample's drawn pairs, intervals.ts);
// - a run with few ties (at most half of its pairs tied; real-valued scores) walks pair by pair
//   (`single`): sxy = sum (2 cum + t) s = 2 sum cum s + sum t s, and over groups of one pair
//   t s = w s and t^3 = w^3, whose sums over all pairs are the gold's (once per resample), so per
//   pair the walk only adds cum s and w, and tied groups add t s - sum w s and t^3 - sum w^3; the
//   same exact sums, so the same bits, for a third of the operations per pair;
// - chunks of CHUNK resamples, independent given their random stream (random.ts), are units for
//   worker threads (threads.ts).
import { Spearman } from "@stseval/metrics"
import type { Metric } from "./intervals.js"
import { CHUNK } from "./random.js"
import * as Threads from "./threads.js"
import { Body, compiled, module } from "./wasm.js"
import type { WasmApi } from "./wasm.js"

/**
 * The walked datasets of a job, flattened for the kernel. Walk g (gold or run) of walked
 * dataset s: s's walks are g = walkAt[s] (the gold) .. walkAt[s + 1] - 1 (its runs, `runOf[g]`);
 * sort order order[orderAt[g] ..] (n positions) and groups bounds[boundsAt[g] .. boundsAt[g + 1]).
 */
export interface Plan {
  /** dataset index of each walked dataset */
  readonly dataset: Int32Array
  /** 1 where that dataset is Kendall's tau-b, 0 Spearman's rho */
  readonly tau: Uint8Array
  readonly walkAt: Int32Array
  /** the run of each walk (-1: the gold) */
  readonly runOf: Int32Array
  readonly order: Int32Array
  readonly orderAt: Int32Array
  readonly bounds: Int32Array
  readonly boundsAt: Int32Array
}

/**
 * The most pairs of a Spearman dataset whose walk sums are exact (the file comment: the
 * largest m with 2 m^2 (m - 1) <= 2^53). Kendall's walks sum integers below m^2: no limit in reach.
 */
export const rhoPairs = 165_140

/** An Int32Array of at least n, the scratch's own when large enough (shared memory when there is any). */
const room = (last: Int32Array | undefined, n: number): Int32Array => {
  if (last !== undefined && last.length >= n) return last
  return typeof SharedArrayBuffer === "function" ? new Int32Array(new SharedArrayBuffer(4 * Math.max(1, n))) : new Int32Array(n)
}

/**
 * The plan for the walked datasets of a job, those of `walk` and `tau` (start: dataset d is pair positions [start[d],
 * start[d + 1]); `has[k * D + d]`: run k has dataset d; x run-major [k * N + position]). Datasets
 * without pairs are left out. Its order and bounds are views of `scratch`'s buffers when given
 * (valid until the next plan written there).
 */
export const plan = (
  start: Int32Array,
  walks: ReadonlyArray<Metric>,
  runs: number,
  has: Uint8Array,
  gold: Float64Array,
  x: Float64Array,
  scratch: Scratch = {}
): Plan => {
  const D = walks.length
  const N = start[D]
  const dataset: Array<number> = []
  const tau: Array<number> = []
  const walkAt: Array<number> = [0]
  const runOf: Array<number> = []
  let positions = 0
  for (let d = 0; d < D; d++) {
    const a = start[d]
    const n = start[d + 1] - a
    if ((walks[d] !== "walk" && walks[d] !== "tau") || n === 0) continue
    if (walks[d] === "walk" && n > rhoPairs) {
      throw new Error(`rankSums: a Spearman walk over ${n.toLocaleString("en-US")} pairs; its sums are exact up to ${rhoPairs.toLocaleString("en-US")} pairs (job.ts resamples a larger dataset by its metric)`)
    }
    dataset.push(d)
    tau.push(walks[d] === "tau" ? 1 : 0)
    runOf.push(-1)
    for (let k = 0; k < runs; k++) if (has[k * D + d] === 1) runOf.push(k)
    positions += n * (runOf.length - walkAt[walkAt.length - 1])
    walkAt.push(runOf.length)
  }
  const walksCount = runOf.length
  // each walk's order, and its bounds (at most n + 1 of them), sorted straight into the buffers
  const order = (scratch.order = room(scratch.order, positions)).subarray(0, positions)
  const bounds = (scratch.bounds = room(scratch.bounds, positions + walksCount))
  const orderAt = new Int32Array(walksCount + 1)
  const boundsAt = new Int32Array(walksCount + 1)
  for (let s = 0, i = 0; s < dataset.length; s++) {
    const a = start[dataset[s]]
    const n = start[dataset[s] + 1] - a
    for (; i < walkAt[s + 1]; i++) {
      const values = runOf[i] < 0 ? gold.subarray(a, a + n) : x.subarray(runOf[i] * N + a, runOf[i] * N + a + n)
      orderAt[i + 1] = orderAt[i] + n
      // By (value, position): metrics' own order (`sortedGroupsInto`: a bucket sort by value, else
      // the radix sort of the values' bit patterns), several times faster than sorting positions
      // with a comparator, and than taking the average ranks and counting-sorting them. -0 and 0 tie.
      boundsAt[i + 1] = boundsAt[i] + Spearman.sortedGroupsInto(values, order.subarray(orderAt[i], orderAt[i + 1]), bounds.subarray(boundsAt[i]))
    }
  }
  return { dataset: Int32Array.from(dataset), tau: Uint8Array.from(tau), walkAt: Int32Array.from(walkAt), runOf: Int32Array.from(runOf), order, orderAt, bounds: bounds.subarray(0, boundsAt[walksCount]), boundsAt }
}

// The kernel's set-up per run, in functions of the module: as loops of the kernel (called once per
// job) they ran unoptimised, and as its closures (made anew each job) V8 entered them unoptimised and
// through on-stack replacement at every call (5,000 times a job of 2,000 runs' --json).
/** Run walk h's tied groups: sets fewTies[h], returns the entries its tied list takes. */
function countTies({ bounds, boundsAt, orderAt }: Plan, fewTies: Uint8Array, h: number): number {
  let count = 2
  let tied = 0
  const e = boundsAt[h + 1]
  for (let q = boundsAt[h]; q + 1 < e; q++) {
    const size = bounds[q + 1] - bounds[q]
    if (size === 1) continue
    count += 2
    tied += size
  }
  fewTies[h] = 2 * tied <= orderAt[h + 1] - orderAt[h] ? 1 : 0
  return count
}

/** Walk h's addresses (dataset at a): its pairs' rows, its group bounds and its tied groups in its order (at pOrder). */
function addresses({ order, orderAt, bounds, boundsAt }: Plan, tiedAt: Int32Array, ob: Int32Array, bb: Int32Array, tb: Int32Array, h: number, a: number, pW: number, pOrder: number, rowBytes: number): void {
  for (let j = orderAt[h]; j < orderAt[h + 1]; j++) ob[j] = pW + (a + order[j]) * rowBytes
  const base = pOrder + 4 * orderAt[h]
  const e = boundsAt[h + 1]
  for (let q = boundsAt[h]; q < e; q++) bb[q] = base + 4 * bounds[q]
  let i = tiedAt[h]
  for (let q = boundsAt[h]; q + 1 < e; q++) {
    if (bounds[q + 1] - bounds[q] === 1) continue
    tb[i++] = base + 4 * bounds[q]
    tb[i++] = base + 4 * bounds[q + 1]
  }
  tb[i] = tb[i + 1] = base + 4 * (orderAt[h + 1] - orderAt[h])
}

/**
 * The kernel of one job: `chunk(c)` draws chunk c's multiplicities (the documented stream: per
 * resample, per dataset, n draws of Lemire's bounded integer from xoroshiro128+ at `states[4 c ..]`,
 * as random.ts) and writes each run's Spearman (Kendall) of each walked dataset to
 * out[b * KF + k * FIG + d]; `original(out)` does the same for the original pairs (every
 * multiplicity 1) at b = 0. One self-contained function but for its set-up's two: worker threads
 * compile them from their source (no imports; constants written out). Undefined without the walk's
 * memory (or beyond 2 GiB of it: its addresses are i32).
 */
export function rankSumsKernel(
  start: Int32Array,
  plan: Plan,
  states: Int32Array,
  // resample b's multiplicities at kept[b * N ..], read when `full` is 1, else kept as drawn (none: empty)
  kept: Uint16Array,
  full: number,
  B: number,
  KF: number,
  FIG: number,
  samples: Float64Array,
  walkModule: object,
  // a memory to reuse when large enough, and where this one is left (the caller's scratch; a worker's own)
  reuse?: { memory?: { buffer: ArrayBuffer } | undefined; laid?: Int32Array | undefined }
): { readonly chunk: (c: number) => void; readonly original: (out: Float64Array) => void } | undefined {
  // resamples per walk (lanes of W); CHUNK as random.ts (checked below the function)
  const TILE = 8
  const CHUNK = 64
  const { dataset, tau, walkAt, runOf, order, orderAt, bounds, boundsAt } = plan
  const D = start.length - 1
  const N = start[D]
  // one row of ROW doubles per position: the multiplicities of the TILE lanes, then the gold's side
  // w rg / 2 of each lane (W[position * ROW + lane], W[position * ROW + TILE + lane]); in this
  // thread's own WebAssembly memory with the walk module, after the runs' sort orders as the
  // addresses of their rows, their group bounds and their tied groups as addresses in those orders
  const ROW = 2 * TILE
  const pOrder = 0
  // per run walk h, the WebAssembly walk's tied groups (of two pairs or more) as the addresses of
  // their first and past-the-last pairs in its order, then (end, end): tied[tiedAt[h] ..]
  const tiedAt = new Int32Array(runOf.length + 1)
  // 1 where a run's tied pairs are at most half of its pairs: its walk is `single` (below); a tied
  // pair costs it about three untied ones, the walk over every group two
  const fewTies = new Uint8Array(runOf.length)
  for (let h = 0; h < runOf.length; h++) tiedAt[h + 1] = tiedAt[h] + countTies(plan, fewTies, h)
  // wasm.ts' host, as a type only: workers compile this function's source, which imports nothing
  const wa = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly
  const align = (n: number) => Math.ceil(n / 64) * 64
  const pBounds = align(pOrder + 4 * order.length)
  const pTied = align(pBounds + 4 * bounds.length)
  const pW = align(pTied + 4 * tiedAt[runOf.length])
  const pSums = align(pW + 8 * ROW * N)
  if (pSums + 8 * 3 * TILE >= 2 ** 31) return undefined
  let memory: { buffer: ArrayBuffer }
  let exports: Record<string, unknown>
  try {
    const pages = Math.ceil((pSums + 8 * 3 * TILE) / 65536)
    const last = reuse?.memory
    memory = last !== undefined && last.buffer.byteLength >= pages * 65536 ? last : new wa.Memory({ initial: pages })
    exports = new wa.Instance(walkModule, { env: { memory } }).exports
  } catch {
    return undefined
  }
  // the estimates' kernel of this plan (its order) laid out its addresses in this memory already
  const laid = reuse !== undefined && reuse.memory === memory && reuse.laid === order
  if (reuse !== undefined) Object.assign(reuse, { memory, laid: order })
  const walk = exports.walk as (...args: Array<number>) => void
  const single = exports.single as (...args: Array<number>) => void
  const heap = memory.buffer
  const ob = new Int32Array(heap, pOrder, order.length)
  const bb = new Int32Array(heap, pBounds, bounds.length)
  const tb = new Int32Array(heap, pTied, tiedAt[runOf.length])
  for (let s = 0; !laid && s < dataset.length; s++) {
    const a = start[dataset[s]]
    for (let h = walkAt[s]; h < walkAt[s + 1]; h++) addresses(plan, tiedAt, ob, bb, tb, h, a, pW, pOrder, ROW * 8)
  }
  const W = new Float64Array(heap, pW, N * ROW)
  const sums = new Float64Array(heap, pSums, 3 * TILE)
  /** Per lane: the gold's sum of squared centred ranks, and sum w s and sum w^3 over the dataset's pairs. */
  const gss = new Float64Array(TILE)
  const ws = new Float64Array(TILE)
  const w3 = new Float64Array(TILE)

  // Kendall's walks: per run walk, the run's group of each pair in the gold's sorted order
  // (runGroup[orderAt[h] + j]: the j-th pair of the gold's order), so a walk reads it in sequence;
  // only as far as the last Kendall dataset's walks (none for a job of Spearman alone)
  let widest = 0
  let walked = 0
  for (let s = 0; s < dataset.length; s++) if (tau[s] === 1) walked = orderAt[walkAt[s + 1]]
  const runGroup = new Int32Array(walked)
  for (let s = 0; s < dataset.length; s++) {
    if (tau[s] === 0) continue
    const g = walkAt[s]
    const where = new Int32Array(orderAt[g + 1] - orderAt[g])
    for (let j = 0; j < where.length; j++) where[order[orderAt[g] + j]] = j
    for (let h = g + 1; h < walkAt[s + 1]; h++) {
      widest = Math.max(widest, boundsAt[h + 1] - boundsAt[h])
      for (let q = boundsAt[h]; q + 1 < boundsAt[h + 1]; q++) {
        for (let j = orderAt[h] + bounds[q]; j < orderAt[h] + bounds[q + 1]; j++) runGroup[orderAt[h] + where[order[j]]] = q - boundsAt[h]
      }
    }
  }
  /** The drawn weights in the gold's order; per run group its weight so far, and their Fenwick tree. */
  const goldWeight = new Float64Array(widest === 0 ? 0 : N)
  const groupWeight = new Float64Array(widest)
  const tree = new Float64Array(widest + 1)

  /**
   * Kendall's tau-b of each run of walked dataset s (at a, n pairs) in lane `lane`, into out at f
   * (+ the run's offset). A walk over the gold's groups in order: each drawn pair adds its weight w
   * times (weight before it with a lower run group) - (with a higher one), from a Fenwick tree
   * (Fenwick 1994) of the weights by run group; the pairs of a gold group are counted before any of
   * them is added, so gold ties count as neither. That is C - D (a pair drawn c times is c tied
   * copies), an integer, as are the tie counts: metrics' kendallAt on the drawn pairs has the same
   * integers and ends with the same division (scipy's), so the same bits.
   */
  function tauWalks(out: Float64Array, f: number, s: number, a: number, lane: number): void {
    const g = walkAt[s]
    const ord = orderAt[g]
    let m = 0
    let goldTies = 0
    for (let q = boundsAt[g]; q + 1 < boundsAt[g + 1]; q++) {
      let t = 0
      for (let j = bounds[q]; j < bounds[q + 1]; j++) {
        const w = W[(a + order[ord + j]) * ROW + lane]
        goldWeight[j] = w
        t += w
      }
      goldTies += (t * (t - 1)) / 2
      m += t
    }
    const total = (m * (m - 1)) / 2
    for (let h = g + 1; h < walkAt[s + 1]; h++) {
      const groups = boundsAt[h + 1] - boundsAt[h] - 1
      const rg = orderAt[h]
      let cmd = 0
      let before = 0
      for (let q = boundsAt[g]; q + 1 < boundsAt[g + 1]; q++) {
        const e = bounds[q + 1]
        for (let j = bounds[q]; j < e; j++) {
          const w = goldWeight[j]
          if (w === 0) continue
          const r = runGroup[rg + j]
          let lower = 0
          for (let p = r; p > 0; p -= p & -p) lower += tree[p]
          // higher = before - lower - groupWeight[r]
          cmd += w * (2 * lower + groupWeight[r] - before)
        }
        for (let j = bounds[q]; j < e; j++) {
          const w = goldWeight[j]
          if (w === 0) continue
          const r = runGroup[rg + j]
          groupWeight[r] += w
          before += w
          for (let p = r + 1; p <= groups; p += p & -p) tree[p] += w
        }
      }
      let runTies = 0
      for (let r = 0; r < groups; r++) {
        const t = groupWeight[r]
        runTies += (t * (t - 1)) / 2
      }
      groupWeight.fill(0, 0, groups)
      tree.fill(0, 0, groups + 1)
      let v = Number.NaN
      if (goldTies !== total && runTies !== total) {
        v = cmd / Math.sqrt(total - goldTies) / Math.sqrt(total - runTies)
        v = v > 1 ? 1 : v < -1 ? -1 : v
      }
      out[f + runOf[h] * FIG] = v
    }
  }

  // the gold's side per lane (`goldSide`) and the draws per resample (`resample`) are functions of
  // their own: as loops of `figures` and `chunk` (called per chunk), V8 left their on-stack
  // replacement at each loop's end
  /** The gold (walk g, its dataset at a) in lane `lane` (one walk in a hundred): its centred mid-ranks rg in the resample, kept as s = w rg / 2, with w s and w^3 and their sums over the dataset. */
  function goldSide(g: number, a: number, centre: number, cube: number, lane: number): void {
    const ord = orderAt[g]
    let cum = 0
    let ties = 0
    let sws = 0
    let sw3 = 0
    for (let q = boundsAt[g]; q + 1 < boundsAt[g + 1]; q++) {
      const e = ord + bounds[q + 1]
      let t = 0
      for (let j = ord + bounds[q]; j < e; j++) t += W[(a + order[j]) * ROW + lane]
      const r = (cum + (t + 1) / 2 - centre) / 2
      for (let j = ord + bounds[q]; j < e; j++) {
        const o = (a + order[j]) * ROW + lane
        const w = W[o]
        const sw = w * r
        W[o + TILE] = sw
        sws += w * sw
        sw3 += w * w * w
      }
      ties += t * t * t - t
      cum += t
    }
    gss[lane] = (cube - ties) / 12
    ws[lane] = sws
    w3[lane] = sw3
  }

  /** The walked figures of the resamples in W's first `lanes` lanes, as resamples b .. b + lanes - 1 of `out`. */
  function figures(out: Float64Array, b: number, lanes: number): void {
    for (let s = 0; s < dataset.length; s++) {
      const d = dataset[s]
      const a = start[d]
      if (tau[s] === 1) {
        for (let lane = 0; lane < lanes; lane++) tauWalks(out, (b + lane) * KF + d, s, a, lane)
        continue
      }
      const m = start[d + 1] - a
      const centre = (m + 1) / 2
      const cube = m * m * m - m
      const g = walkAt[s]
      for (let lane = 0; lane < TILE; lane++) goldSide(g, a, centre, cube, lane)
      // each run: one walk over its groups, its mid-ranks times the gold's w rg, TILE lanes at once
      for (let h = g + 1; h < walkAt[s + 1]; h++) {
        const f = b * KF + runOf[h] * FIG + d
        if (fewTies[h] === 1) {
          single(pOrder + 4 * orderAt[h], pOrder + 4 * orderAt[h + 1], pTied + 4 * tiedAt[h], pSums)
          // sxy = 2 sum cum s + sum t s, sum t^3 = sum w^3 + the tied groups' corrections (file comment)
          for (let lane = 0; lane < lanes; lane++) {
            const sxy = 2 * sums[lane] + ws[lane] + sums[TILE + lane]
            out[f + lane * KF] = rho(sxy, (cube - (w3[lane] + sums[2 * TILE + lane] - m)) / 12, gss[lane])
          }
          continue
        }
        walk(pOrder + 4 * orderAt[h], pBounds + 4 * (boundsAt[h] + 1), pBounds + 4 * boundsAt[h + 1], pSums)
        for (let lane = 0; lane < lanes; lane++) out[f + lane * KF] = rho(sums[lane], (cube - sums[TILE + lane]) / 12, gss[lane])
      }
    }
  }

  /** NaN when either side is constant in the resample. */
  function rho(sxy: number, sxx: number, gss: number): number {
    if (!(sxx > 0) || !(gss > 0)) return Number.NaN
    const r = sxy / Math.sqrt(sxx * gss)
    return r > 1 ? 1 : r < -1 ? -1 : r
  }

  /** The stream's state between resamples. */
  const state = new Int32Array(4)
  /** Resample b's multiplicities into lane r of W (zero), drawn or kept (`full`); kept as drawn. */
  function resample(b: number, r: number): void {
    const o = b * N
    if (full === 1) for (let i = 0; i < N; i++) W[i * ROW + r] = kept[o + i]
    let [s00, s01, s10, s11] = state
    for (let d = 0; full === 0 && d < D; d++) {
      const a = start[d]
      const n = start[d + 1] - a
      if (n === 0) continue
      const thr = (4294967296 - n) % n
      for (let j = 0; j < n; j++) {
        let mm: number
        // xoroshiro128+ on 32-bit halves and Lemire's multiply-and-reject, inlined (this
        // function cannot import random.ts); the same stream
        do {
          mm = ((s00 + s10) >>> 0) * n
          const a0 = s10 ^ s00
          const a1 = s11 ^ s01
          const t0 = s00
          const t1 = s01
          s00 = (t0 << 24) ^ (t1 >>> 8) ^ a0 ^ (a0 << 16)
          s01 = (t1 << 24) ^ (t0 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16))
          s10 = (a1 << 5) ^ (a0 >>> 27)
          s11 = (a0 << 5) ^ (a1 >>> 27)
        } while (mm >>> 0 < thr)
        W[(a + Math.floor(mm / 4294967296)) * ROW + r] += 1
      }
    }
    state.set([s00, s01, s10, s11])
    if (full === 0 && kept.length > 0) for (let i = 0; i < N; i++) kept[o + i] = W[i * ROW + r]
  }

  function chunk(c: number): void {
    state.set(states.subarray(4 * c, 4 * c + 4))
    const b0 = c * CHUNK
    const count = Math.min(CHUNK, B - b0)
    for (let tile = 0; tile < count; tile += TILE) {
      const lanes = Math.min(TILE, count - tile)
      // kept multiplicities overwrite every lane read (the gold's side is written by `figures`)
      if (full === 0 || lanes < TILE) W.fill(0)
      for (let r = 0; r < lanes; r++) resample(b0 + tile + r, r)
      figures(samples, b0 + tile, lanes)
    }
  }

  function original(out: Float64Array): void {
    W.fill(0)
    for (let i = 0; i < N; i++) W[i * ROW] = 1
    figures(out, 0, 1)
  }

  return { chunk, original }
}

/**
 * What worker threads compile: `rankSumsKernel` made once per job (its arrays arrive with the first
 * unit), then one chunk per unit; the walk memory kept from job to job (tile to tile of runs), as
 * the caller's is. `__name` is the helper esbuild's keepNames (tsx, some test transforms) may leave
 * in a function's source; it is the identity.
 */
const WORKER_KERNEL = `(() => {
  const __name = (target) => target
  ${countTies.toString()}
  ${addresses.toString()}
  const make = ${rankSumsKernel.toString()}
  const reuse = {}
  let job
  let kernel
  return (u, id, ...args) => {
    if (job !== id) {
      job = id
      kernel = make(...args, reuse)
    }
    kernel.chunk(u)
  }
})()`

let jobs = 0

/** Lanes per walk: the kernel's TILE (written out there, as CHUNK is: it cannot import them). */
const LANES = 8
if (CHUNK !== 64) throw new Error("rankSums: CHUNK mismatch")

/**
 * One run's walk over its groups for the eight lanes, in WebAssembly SIMD (two lanes per f64x2):
 * walk(j, q, qEnd, pOut) with j the address of its sort order (the addresses of its pairs' rows:
 * eight multiplicities, then eight w rg / 2), q .. qEnd the addresses of its group ends in that
 * order; writes sum (cum + cum') s and sum (t^3 - t) per lane at pOut (8 + 8 doubles), exact.
 */
const walkFunction = (): Body => {
  const f = new Body(4)
  const [J, Q, QE, OUT] = [0, 1, 2, 3]
  const e = f.local("i32")
  const o = f.local("i32")
  const v = () => f.local("v128")
  // one temporary for every pair of lanes: 5 x 4 + 1 vectors, the fewest for eight lanes
  const after = v()
  const pairs = Array.from({ length: LANES / 2 }, () => ({ t: v(), s: v(), cum: v(), cube: v(), sxy: v() }))
  for (const p of pairs) for (const x of [p.cum, p.cube, p.sxy]) f.f64(0).f64x2Splat().set(x)
  f.block((done) => {
    f.loop((group) => {
      f.get(Q).get(QE).i32LtU().i32Eqz().brIf(done)
      f.get(Q).i32Load(0).set(e)
      for (const p of pairs) for (const x of [p.t, p.s]) f.f64(0).f64x2Splat().set(x)
      // a group is never empty: do-while over its members
      f.loop((member) => {
        f.get(J).i32Load(0).set(o)
        pairs.forEach((p, i) => {
          f.get(p.t).get(o).v128Load(16 * i).f64x2Add().set(p.t)
          f.get(p.s).get(o).v128Load(8 * LANES + 16 * i).f64x2Add().set(p.s)
        })
        f.get(J).i32(4).i32Add().tee(J).get(e).i32LtU().brIf(member)
      })
      for (const { t, s, cum, cube, sxy } of pairs) {
        // after = cum + t; sxy += (cum + after) * s; cube += t * t * t; cum = after
        f.get(cum).get(t).f64x2Add().set(after)
        f.get(sxy).get(cum).get(after).f64x2Add().get(s).f64x2Mul().f64x2Add().set(sxy)
        f.get(cube).get(t).get(t).f64x2Mul().get(t).f64x2Mul().f64x2Add().set(cube)
        f.get(after).set(cum)
      }
      f.get(Q).i32(4).i32Add().set(Q)
      f.br(group)
    })
  })
  // sum (t^3 - t) = sum t^3 - m, m = cum at the end
  pairs.forEach((p, i) => {
    f.get(OUT).get(p.sxy).v128Store(16 * i)
    f.get(OUT).get(p.cube).get(p.cum).f64x2Sub().v128Store(8 * LANES + 16 * i)
  })
  return f
}

/**
 * The walk of a run with few ties (`single`), in WebAssembly SIMD (two lanes per f64x2):
 * single(j, jEnd, tied, pOut) with j .. jEnd the addresses of its sort order (the addresses of its
 * pairs' rows: eight multiplicities w, eight s = w rg / 2, eight w s, eight w^3), `tied` the
 * address of its tied groups (first and past-the-last addresses in that order, then jEnd, jEnd);
 * writes per lane at pOut sum cum s, then over the tied groups sum (t s - sum w s) and
 * sum (t^3 - sum w^3) (8 + 8 + 8 doubles). Between tied groups, one pair
 * per step (nearly every pair of a run of real-valued scores): two loads, a multiply and two
 * additions per lane pair, the running sums (8 vectors) in registers, no group bounds read.
 */
const singleFunction = (): Body => {
  const f = new Body(4)
  const [J, JE, T, OUT] = [0, 1, 2, 3]
  const ts = f.local("i32")
  const te = f.local("i32")
  const o = f.local("i32")
  const k = f.local("i32")
  const v = () => f.local("v128")
  const pairs = Array.from({ length: LANES / 2 }, () => ({ cum: v(), acc: v() }))
  // a tied group's sums, one lane pair at a time
  const [t, s, ws, w3, w, sw] = [v(), v(), v(), v(), v(), v()]
  const S = 8 * LANES
  for (const p of pairs) for (const x of [p.cum, p.acc]) f.f64(0).f64x2Splat().set(x)
  for (let i = 0; i < LANES / 2; i++) {
    f.get(OUT).f64(0).f64x2Splat().v128Store(S + 16 * i)
    f.get(OUT).f64(0).f64x2Splat().v128Store(2 * S + 16 * i)
  }
  f.block((done) => {
    f.loop((group) => {
      f.get(T).i32Load(0).set(ts)
      f.get(T).i32Load(4).set(te)
      // the pairs before the next tied group: acc += cum s; cum += w
      f.block((last) => {
        f.loop((single) => {
          f.get(J).get(ts).i32LtU().i32Eqz().brIf(last)
          f.get(J).i32Load(0).set(o)
          pairs.forEach((p, i) => {
            f.get(p.acc).get(p.cum).get(o).v128Load(S + 16 * i).f64x2Mul().f64x2Add().set(p.acc)
            f.get(p.cum).get(o).v128Load(16 * i).f64x2Add().set(p.cum)
          })
          f.get(J).i32(4).i32Add().set(J)
          f.br(single)
        })
      })
      f.get(ts).get(JE).i32LtU().i32Eqz().brIf(done)
      // a tied group: per lane pair, its t, s, sum w s, sum w^3 over its members
      pairs.forEach((p, i) => {
        for (const x of [t, s, ws, w3]) f.f64(0).f64x2Splat().set(x)
        f.get(ts).set(k)
        f.loop((member) => {
          f.get(k).i32Load(0).set(o)
          // t += w; s += ws' (the row's s); sum w s += w ws'; sum w^3 += w w w
          f.get(o).v128Load(16 * i).set(w)
          f.get(o).v128Load(S + 16 * i).set(sw)
          f.get(t).get(w).f64x2Add().set(t)
          f.get(s).get(sw).f64x2Add().set(s)
          f.get(ws).get(w).get(sw).f64x2Mul().f64x2Add().set(ws)
          f.get(w3).get(w).get(w).f64x2Mul().get(w).f64x2Mul().f64x2Add().set(w3)
          f.get(k).i32(4).i32Add().tee(k).get(te).i32LtU().brIf(member)
        })
        // acc += cum s; cum += t; corrections t s - sum w s, t^3 - sum w^3
        f.get(p.acc).get(p.cum).get(s).f64x2Mul().f64x2Add().set(p.acc)
        f.get(p.cum).get(t).f64x2Add().set(p.cum)
        f.get(OUT).get(OUT).v128Load(S + 16 * i).get(t).get(s).f64x2Mul().get(ws).f64x2Sub().f64x2Add().v128Store(S + 16 * i)
        f.get(OUT).get(OUT).v128Load(2 * S + 16 * i).get(t).get(t).f64x2Mul().get(t).f64x2Mul().get(w3).f64x2Sub().f64x2Add().v128Store(2 * S + 16 * i)
      })
      f.get(te).set(J)
      f.get(T).i32(8).i32Add().set(T)
      f.br(group)
    })
  })
  pairs.forEach((p, i) => f.get(OUT).get(p.acc).v128Store(16 * i))
  return f
}

/** The compiled walk module, or undefined without WebAssembly SIMD. */
export const walkModule = (): object | undefined => compiled("rankSums", () => module([{ name: "walk", body: walkFunction() }, { name: "single", body: singleFunction() }], false)) ?? undefined

/** Work (resamples x pairs x walks) from which a second thread pays for its start-up (~70 ms of work). */
const THREAD_WORK = 5e7

/** A chunk of resamples is a unit of `Threads.start`: its progress (chunks done) and its tests' hooks. */
export interface RunOptions extends Pick<Threads.Job, "progress" | "callerWorks" | "onDone"> {
  /** Threads including the caller; default: all available cores for large jobs, else 1. */
  readonly threads?: number | undefined
  /** Tile by tile of runs: the last tile's buffers, reused when large enough. */
  readonly scratch?: Scratch | undefined
  /** Tile by tile of runs: the pass's multiplicities, drawn by the first tile and read by the next. */
  readonly kept?: Kept | undefined
}

/** A pass's multiplicities (b's at counts[b * N ..]), kept by its first tile of runs (`full` after it) for the next, as the sums' lists are; shared memory where there is any, as workers fill them. */
export interface Kept { readonly counts: Uint16Array; full: boolean }

/**
 * What a tile's walks leave to the next: the plan's buffers, the caller's walk memory (the
 * estimates' walks and the resamples' alike) and the samples' buffer. The plan's are in shared
 * memory where there is any, so the walks' threads are sent the one copy, not each their own; all
 * are reused while large enough, so that a pass tile by tile (2,000 STS-B runs: 8 tiles) leaves the
 * collector nothing to free, in the calling thread nor in a worker.
 */
export interface Scratch {
  order?: Int32Array | undefined
  bounds?: Int32Array | undefined
  memory?: { buffer: ArrayBuffer } | undefined
  /** the plan order whose addresses the memory holds */
  laid?: Int32Array | undefined
  samples?: Float64Array | undefined
}

/** `rankSumsKernel`'s arguments (as the workers get them) but the walk module and memory. */
const kernelArgs = (p: Plan, start: Int32Array, states: Int32Array, B: number, KF: number, FIG: number, out: Float64Array, kept?: Kept) =>
  [start, p, states, kept?.counts ?? new Uint16Array(0), kept?.full === true ? 1 : 0, B, KF, FIG, out] as const

/**
 * Each run's Spearman of each Spearman dataset on the original pairs, into out[k * FIG + d]; in
 * the walk memory of `scratch` when given (left there for the resamples' walks). False when there
 * are walks and no WebAssembly SIMD or memory for them.
 */
export const original = (p: Plan, start: Int32Array, KF: number, FIG: number, out: Float64Array, scratch?: Scratch): boolean => {
  if (p.dataset.length === 0) return true
  const m = walkModule()
  const kernel = m === undefined ? undefined : rankSumsKernel(...kernelArgs(p, start, new Int32Array(0), 1, KF, FIG, out), m, scratch)
  kernel?.original(out)
  return kernel !== undefined
}

/**
 * The samples matrix of a pass, [b * KF + k * FIG + f], NaN everywhere but the walked figures of
 * the B resamples (seed's chunk states `states`), once `running` is joined (shared memory when
 * threads help). Throws without the walks' WebAssembly (`original` says whether they have it).
 */
export const walks = (p: Plan, start: Int32Array, states: Int32Array, B: number, KF: number, FIG: number, options: RunOptions = {}) => {
  const units = Math.ceil(B / CHUNK)
  const threads = Threads.count(options.threads, B * p.order.length, THREAD_WORK)
  const share = p.dataset.length > 0 && threads > 1 && units > 1 && typeof SharedArrayBuffer === "function"
  const last = options.scratch?.samples
  const again = last !== undefined && last.length >= B * KF && (typeof SharedArrayBuffer === "function" && last.buffer instanceof SharedArrayBuffer) === share
  const samples = again ? last.subarray(0, B * KF) : share ? new Float64Array(new SharedArrayBuffer(8 * B * KF)) : new Float64Array(B * KF)
  if (options.scratch !== undefined && !again) options.scratch.samples = samples
  samples.fill(Number.NaN)
  if (p.dataset.length === 0) return { samples, running: { done: () => true, join: () => {} } }
  const m = walkModule()
  const args = kernelArgs(p, start, states, B, KF, FIG, samples, options.kept)
  const kernel = m === undefined ? undefined : rankSumsKernel(...args, m, options.scratch)
  if (kernel === undefined) throw new Error("WebAssembly (with SIMD) is not available, or no memory for the rank walks")
  const id = ++jobs
  const running = Threads.start({
    units,
    unit: kernel.chunk,
    message: () => ({ kind: "js", source: WORKER_KERNEL, args: [id, ...args, m] }),
    threads: share ? threads : 1,
    progress: options.progress,
    callerWorks: options.callerWorks,
    onDone: options.onDone
  })
  // read by the next tile's walks, which start once these are joined
  if (options.kept !== undefined) options.kept.full = true
  return { samples, running }
}
