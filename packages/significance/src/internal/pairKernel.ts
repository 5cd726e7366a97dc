// The pairwise step of the paired bootstrap: for each pair of runs (a, b), from the resampled
// statistics of both (`Distribution.samples`), the shift-method p-value (a count) and the type 7
// percentile interval of the B differences. All pairs of 200 runs is 19,900 pairs x 10,000
// resamples, so this is written for speed, and `Bootstrap.ts` keeps the readable definition.
//
// One pass per pair. The two quantiles wanted (2.5% and 97.5% by default) lie in the tails, so
// instead of materialising all B differences and selecting in them, the pass keeps only the
// differences at or below a threshold for the lower quantile and at or above one for the upper
// (a systematic sample of 256 differences places each threshold a few binomial standard deviations
// beyond the wanted rank), counts the extreme ones for the p-value at the same time, and a count
// of each kept set (`rank`: a histogram, then a sort of the few values in the right bins) finishes. Exact whatever the sample: when a kept set turns out not
// to hold the wanted ranks (a miss, or NaN resamples in either run), that pair falls back to the
// plain method (all differences, quickselect). Same order statistics, same arithmetic: identical
// results to the plain method (tested against a sort-based reference).
//
// The pass over the B differences is most of the work (10,000 per pair), the counting most of the
// rest. Where WebAssembly with SIMD is available both run there (`tailsFunction`: two differences
// per instruction, no bounds checks, about three times the JavaScript loop's speed; `rankFunction`:
// about 1.4 times `rank`'s); the samples then live in the module's memory, with a scratch slot per
// thread for the kept sets, the sample and the counts. When the thresholds do not overlap (up < lo,
// nearly always), the pass keeps one set (d <= up or d >= lo) and leaves out the range, and a second
// pass over that set (about a seventh of the differences) splits it into the two: the same sets,
// a quarter less time per pair. Same comparisons and arithmetic in the same
// order, so the kept sets, and every result, are the same as the JavaScript's, which remains for
// hosts without WebAssembly, for an odd last difference, and for the plain method.
//
// Pairs are independent, so large jobs split them over worker threads (internal/threads.ts), in
// blocks; pairs are processed in tiles of runs (pairs among a few runs at a time) so that the
// runs' rows of samples are read from cache rather than memory.
import type { Engine } from "./threads.js"
import * as Threads from "./threads.js"
import { Body, compiled, forLoop, host, module, newMemory } from "./wasm.js"
import type { WasmMemory } from "./wasm.js"

/**
 * The kernel's tuning. SAMPLE: a systematic sample of that many differences places the thresholds
 * (+-3 binomial sd beyond the wanted ranks, as select.ts). BINS: the most histogram bins of `rank`.
 * An argument of the kernel, not a name it reads: the workers compile the kernel's source alone
 * (and a minifier renames outer names).
 */
const TUNING = { SAMPLE: 256, BINS: 1024 } as const

/** p-value alternatives as numbers for the kernel. */
export const ALTERNATIVE = { "two.sided": 0, greater: 1, less: -1 } as const

/** Results per pair, `out[4 p + j]`: lower, upper, extreme count, valid count. */
export const STRIDE = 4

/**
 * The kernel for one job: `block(from, to)` computes pairs from .. to - 1 of (pa, pb) into `out`
 * (STRIDE = 4 values per pair: lower, upper, extreme count, valid count). `alt` is 0 two-sided, 1
 * greater, -1 less; p1 and p2 the two quantiles. One self-contained function (the workers compile
 * it from its source): the arrays are constants of the closure, not arguments, because V8 then
 * keeps their base and length out of the inner loop (measured 2 ns per resample instead of 6).
 */
export function pairKernel(
  S: Float64Array,
  B: number,
  degenerate: Int32Array,
  estimates: Float64Array,
  pa: Int32Array,
  pb: Int32Array,
  out: Float64Array,
  alt: number,
  p1: number,
  p2: number,
  tie: number,
  tuning: typeof TUNING,
  wasm: PairWasm | undefined
): (from: number, to: number) => void {
  const { SAMPLE, BINS } = tuning
  // the differences kept at or below `up`, at or above `lo`, all of them, the sample, the few
  // around a wanted rank (separate arrays: two store streams into one measured 40% slower)
  // With WebAssembly, the kept sets are this thread's scratch slot of the module's memory (S is a
  // view of the same memory), and `tails` fills them; `res` receives its three counts and `range`
  // the least and greatest difference.
  let low: Float64Array
  let high: Float64Array
  let res = new Int32Array(0)
  let range = new Float64Array(0)
  let pLow = 0
  let pHigh = 0
  let pRes = 0
  let pSmp = 0
  let pFew = 0
  let pCounts = 0
  let pRank = 0
  let pIdx = 0
  let rankOut = new Float64Array(0)
  let tails: ((...args: Array<number>) => void) | undefined
  let rankW: ((...args: Array<number>) => void) | undefined
  let split: ((...args: Array<number>) => void) | undefined
  let both: ((...args: Array<number>) => void) | undefined
  // `both`'s kept set (in `rank`'s scratch for the few values, unused until the kept sets are split)
  let kept = new Float64Array(0)
  if (wasm === undefined) {
    low = new Float64Array(B + 1)
    high = new Float64Array(B + 1)
  } else {
    const buffer = wasm.memory.buffer
    const { slot } = wasm
    const base = wasm.scratch + Atomics.add(wasm.slots, 0, 1) * slot.bytes
    pLow = base + slot.low
    pHigh = base + slot.high
    pRes = base + slot.res
    pSmp = base + slot.sample
    pFew = base + slot.few
    pCounts = base + slot.counts
    pRank = base + slot.rank
    pIdx = base + slot.index
    low = new Float64Array(buffer, pLow, B + 1)
    high = new Float64Array(buffer, pHigh, B + 1)
    res = new Int32Array(buffer, pRes, 3)
    range = new Float64Array(buffer, pRes + 16, 2)
    rankOut = new Float64Array(buffer, pRank, 2)
    const wa = (globalThis as unknown as { WebAssembly: { Instance: new (m: object, i: object) => { exports: Record<string, unknown> } } }).WebAssembly
    const exports = new wa.Instance(wasm.module, { env: { memory: wasm.memory } }).exports
    tails = exports.tails as (...args: Array<number>) => void
    rankW = exports.rank as (...args: Array<number>) => void
    split = exports.split as (...args: Array<number>) => void
    both = exports.both as (...args: Array<number>) => void
    kept = new Float64Array(buffer, pFew, B + 1)
  }
  const all = new Float64Array(B)
  const smp = wasm === undefined ? new Float64Array(SAMPLE) : new Float64Array(wasm.memory.buffer, pSmp, SAMPLE)
  // the JavaScript rank's scratch (WebAssembly's is in the slot)
  const few = new Float64Array(rankW === undefined ? B + 1 : 0)
  const counts = new Int32Array(rankW === undefined ? BINS : 0)
  // rank() results: the order statistics r and r + 1
  let rth = 0
  let next = 0

  // Hoare quickselect, median-of-three pivot: w[k] of w[lo..hi] in order; reorders them. A copy of
  // select.ts's, because this function must be self-contained (the workers compile its source).
  function select(w: Float64Array, lo: number, hi: number, k: number): number {
    while (hi > lo) {
      const mid = (lo + hi) >>> 1
      const x = w[lo]
      const y = w[mid]
      const z = w[hi]
      const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y
      let i = lo
      let j = hi
      while (i <= j) {
        while (w[i] < pivot) i++
        while (w[j] > pivot) j--
        if (i <= j) {
          const t = w[i]
          w[i] = w[j]
          w[j] = t
          i++
          j--
        }
      }
      if (k <= j) hi = j
      else if (k >= i) lo = i
      else return w[k]
    }
    return w[k]
  }

  // Order statistics r and r + 1 (when r + 1 < n) of w[0 .. n) into rth and next, by counting
  // rather than quickselect, whose comparisons of fresh data mispredict about every other branch
  // (measured 20 us for 700 values, against 2 us when the data repeat): a histogram over the range
  // [mn, mx] that holds the values (the bin index is monotone in the value, so bins are ordered),
  // the bins that hold ranks r and r + 1, then a sort of the few values in them. Branch-free but for
  // that small sort. The caller knows the range (from the pass that made w), which saves a pass.
  // (With WebAssembly, `rank` in the module does the same at pw, the address of w.)
  function rank(w: Float64Array, pw: number, n: number, r: number, mn: number, mx: number): void {
    if (rankW !== undefined) {
      rankW(pw, n, r, mn, mx, pCounts, pFew, pRank, BINS, pIdx)
      rth = rankOut[0]
      next = rankOut[1]
      return
    }
    if (!(mx > mn)) {
      // all equal (or n = 1)
      rth = mn
      next = mn
      return
    }
    const bins = Math.max(16, Math.min(BINS, n >>> 2))
    const scale = bins / (mx - mn)
    counts.fill(0, 0, bins)
    for (let i = 0; i < n; i++) {
      const b = Math.floor((w[i] - mn) * scale)
      counts[b < bins ? b : bins - 1]++
    }
    // bins b1 (rank r) and b2 (rank r + 1, or r at the end); before = values below b1
    let before = 0
    let b1 = 0
    while (before + counts[b1] <= r) before += counts[b1++]
    let b2 = b1
    let upto = before + counts[b1]
    const r2 = r + 1 < n ? r + 1 : r
    while (upto <= r2) upto += counts[++b2]
    let m = 0
    for (let i = 0; i < n; i++) {
      const v = w[i]
      const b0 = Math.floor((v - mn) * scale)
      const b = b0 < bins ? b0 : bins - 1
      few[m] = v
      m += +(b >= b1) & +(b <= b2)
    }
    // insertion sort of the few (a handful: about n / bins per bin)
    for (let i = 1; i < m; i++) {
      const v = few[i]
      let j = i - 1
      while (j >= 0 && few[j] > v) {
        few[j + 1] = few[j]
        j--
      }
      few[j + 1] = v
    }
    rth = few[r - before]
    next = few[r2 - before]
  }

  // R's type 7 quantile p of `total` values from w[0 .. n) holding their order statistics
  // offset .. offset + n - 1 (in any order).
  function type7(w: Float64Array, pw: number, n: number, offset: number, total: number, p: number, mn: number, mx: number): number {
    const h = (total - 1) * p
    const k = Math.floor(h)
    rank(w, pw, n, k - offset, mn, mx)
    if (k + 1 >= total || h === k) return rth
    return rth + (h - k) * (next - rth)
  }

  // the shift method's count, as Bootstrap.ts: |d - delta| >= |delta| - tie (two-sided), or
  // s (d - delta) >= s delta - tie with s = 1 (greater) or -1 (less): negation is exact
  const sign = alt === 0 ? 1 : alt

  function pair(p: number): void {
    const a = pa[p]
    const b = pb[p]
    const oa = a * B
    const ob = b * B
    const delta = estimates[a] - estimates[b]
    const limit = alt === 0 ? Math.abs(delta) - tie : sign * delta - tie
    if (degenerate[a] === 0 && degenerate[b] === 0 && B >= 4 * SAMPLE) {
      const n = B
      const k1 = Math.floor((n - 1) * p1)
      const k2 = Math.floor((n - 1) * p2)
      let smin = Number.POSITIVE_INFINITY
      let smax = Number.NEGATIVE_INFINITY
      for (let j = 0; j < SAMPLE; j++) {
        const i = Math.floor(((j + 0.5) * n) / SAMPLE)
        const d = S[oa + i] - S[ob + i]
        smp[j] = d
        smin = d < smin ? d : smin
        smax = d > smax ? d : smax
      }
      // keep d <= up (ranks up to k1 + 1) and d >= lo (ranks from k2)
      const q1 = k1 / n
      const q2 = k2 / n
      const upRank = Math.ceil(((k1 + 0.5) / n) * SAMPLE + 1 + 3 * Math.sqrt(SAMPLE * q1 * (1 - q1)) + 3)
      const loRank = Math.floor(((k2 + 0.5) / n) * SAMPLE - 3 * Math.sqrt(SAMPLE * q2 * (1 - q2)) - 3)
      let up = Number.POSITIVE_INFINITY
      if (upRank < SAMPLE) {
        rank(smp, pSmp, SAMPLE, upRank, smin, smax)
        up = rth
      }
      let lo = Number.NEGATIVE_INFINITY
      if (loRank >= 0) {
        rank(smp, pSmp, SAMPLE, loRank, smin, smax)
        lo = rth
      }
      let nLow = 0
      let nHigh = 0
      let extreme = 0
      // the range of all differences: the kept sets' ranges for rank()
      let dmin = Number.POSITIVE_INFINITY
      let dmax = Number.NEGATIVE_INFINITY
      // the differences from `from` on are the JavaScript loop's: all of them without WebAssembly,
      // else the odd last one (WebAssembly takes them two at a time)
      let from = 0
      if (tails !== undefined && both !== undefined && split !== undefined && up < lo) {
        // one kept set (d <= up or d >= lo) in the pass over all differences, then the two sets
        // from it: the same sets in the same order as `tails` makes, and the same count and range
        // (the least difference is at most up, the greatest at least lo)
        const vectors = n >>> 1
        both(S.byteOffset + 8 * oa, S.byteOffset + 8 * ob, vectors, delta, limit, sign, up, lo, pFew, pRes, alt === 0 ? 1 : 0)
        let nBoth = res[0]
        extreme = res[2]
        for (let i = 2 * vectors; i < n; i++) {
          const d = S[oa + i] - S[ob + i]
          kept[nBoth] = d
          nBoth += +(d <= up || d >= lo)
          extreme += +(alt === 0 ? Math.abs(d - delta) >= limit : sign * (d - delta) >= limit)
        }
        const pairs = nBoth >>> 1
        split(pFew, 0, pairs, 0, 0, 0, up, lo, pLow, pHigh, pRes, 1)
        nLow = res[0]
        nHigh = res[1]
        dmin = range[0]
        dmax = range[1]
        for (let i = 2 * pairs; i < nBoth; i++) {
          const d = kept[i]
          low[nLow] = d
          nLow += +(d <= up)
          high[nHigh] = d
          nHigh += +(d >= lo)
          dmin = d < dmin ? d : dmin
          dmax = d > dmax ? d : dmax
        }
        from = n
      } else if (tails !== undefined) {
        const vectors = n >>> 1
        tails(S.byteOffset + 8 * oa, S.byteOffset + 8 * ob, vectors, delta, limit, sign, up, lo, pLow, pHigh, pRes, alt === 0 ? 1 : 0)
        nLow = res[0]
        nHigh = res[1]
        extreme = res[2]
        dmin = range[0]
        dmax = range[1]
        from = 2 * vectors
      }
      // branch-free: store every value, advance a kept set's end only when the value belongs; one
      // loop per kind of alternative, so that the loop has no per-element dispatch
      if (alt === 0) {
        for (let i = from; i < n; i++) {
          const d = S[oa + i] - S[ob + i]
          low[nLow] = d
          nLow += +(d <= up)
          high[nHigh] = d
          nHigh += +(d >= lo)
          extreme += +(Math.abs(d - delta) >= limit)
          dmin = d < dmin ? d : dmin
          dmax = d > dmax ? d : dmax
        }
      } else {
        for (let i = from; i < n; i++) {
          const d = S[oa + i] - S[ob + i]
          low[nLow] = d
          nLow += +(d <= up)
          high[nHigh] = d
          nHigh += +(d >= lo)
          extreme += +(sign * (d - delta) >= limit)
          dmin = d < dmin ? d : dmin
          dmax = d > dmax ? d : dmax
        }
      }
      // the kept sets hold the wanted ranks (k1 and k1 + 1 below, k2 and k2 + 1 above) unless missed
      const below = n - nHigh
      if ((nLow > k1 + 1 || nLow === n) && k2 >= below) {
        out[4 * p] = type7(low, pLow, nLow, 0, n, p1, dmin, up < dmax ? up : dmax)
        out[4 * p + 1] = type7(high, pHigh, nHigh, below, n, p2, lo > dmin ? lo : dmin, dmax)
        out[4 * p + 2] = extreme
        out[4 * p + 3] = n
        return
      }
    }
    // the plain method: every defined difference, then quickselect
    let valid = 0
    let extreme = 0
    for (let i = 0; i < B; i++) {
      const d = S[oa + i] - S[ob + i]
      if (d !== d) continue
      all[valid++] = d
      extreme += +(alt === 0 ? Math.abs(d - delta) >= limit : sign * (d - delta) >= limit)
    }
    out[4 * p] = valid > 0 ? quantile(valid, p1) : Number.NaN
    out[4 * p + 1] = valid > 0 ? quantile(valid, p2) : Number.NaN
    out[4 * p + 2] = extreme
    out[4 * p + 3] = valid
  }

  // type 7 quantile p of all[0 .. n) by quickselect (the plain method)
  function quantile(n: number, p: number): number {
    const h = (n - 1) * p
    const k = Math.floor(h)
    const lower = select(all, 0, n - 1, k)
    if (k + 1 >= n || h === k) return lower
    let after = Number.POSITIVE_INFINITY
    for (let i = k + 1; i < n; i++) if (all[i] < after) after = all[i]
    return lower + (h - k) * (after - lower)
  }

  return (from, to) => {
    for (let p = from; p < to; p++) pair(p)
  }
}

/** Pairs per unit of work a thread claims. */
const BLOCK = 32

/** Work (pairs x resamples) from which extra threads pay for themselves (~50 ms of work). */
const PAIR_WORK = 2e7

/** Ties within this distance count as at least as extreme (conservative); as Bootstrap.ts says. */
export const TIE = 1e-12

/**
 * What worker threads compile: `pairKernel` made once per job (the arrays arrive with the first
 * unit), then one block of pairs per unit. `__name` is the helper esbuild's keepNames (tsx, some
 * test transforms) may leave in a function's source; it is the identity.
 */
const WORKER_KERNEL = `(() => {
  const __name = (target) => target
  const make = ${pairKernel.toString()}
  let job
  let block
  return (u, S, B, degenerate, estimates, pa, pb, out, alt, p1, p2, tie, tuning, wasm, P, id) => {
    if (job !== id) {
      job = id
      block = make(S, B, degenerate, estimates, pa, pb, out, alt, p1, p2, tie, tuning, wasm)
    }
    block(u * ${BLOCK}, Math.min(P, (u + 1) * ${BLOCK}))
  }
})()`

let jobs = 0

/**
 * The WebAssembly side of a job: the compiled `tails` module, the memory holding the samples (at
 * byte 0) and, from `scratch`, one slot of `slotBytes` per thread (the two kept sets and the
 * counts), claimed through `slots[0]`.
 */
export interface PairWasm {
  readonly module: object
  readonly memory: WasmMemory
  readonly slots: Int32Array
  readonly scratch: number
  readonly slot: SlotLayout
}

/** One thread's scratch slot: byte offsets from its start, and its size. */
export interface SlotLayout {
  /** the kept sets, B + 1 values each */
  readonly low: number
  readonly high: number
  /** `tails`' counts (3 x i32) and range (2 x f64, at + 16) */
  readonly res: number
  /** the sample, SAMPLE values */
  readonly sample: number
  /** `rank`'s few values (B + 1), bin counts (BINS x i32), two results (f64) and each value's bin (B + 1 x i32) */
  readonly few: number
  readonly counts: number
  readonly rank: number
  readonly index: number
  readonly bytes: number
}

const slotLayout = (B: number): SlotLayout => {
  const up16 = (n: number) => Math.ceil(n / 16) * 16
  const kept = up16(8 * (B + 1))
  const low = 0
  const high = low + kept
  const res = high + kept
  const sample = res + 32
  const few = sample + up16(8 * TUNING.SAMPLE)
  const counts = few + kept
  const rank = counts + up16(4 * TUNING.BINS)
  const index = rank + 16
  return { low, high, res, sample, few, counts, rank, index, bytes: Math.ceil((index + up16(4 * (B + 1))) / 64) * 64 }
}

/**
 * `tails(pA, pB, vectors, delta, limit, sign, up, lo, pLow, pHigh, pRes, twoSided)`: the pass over
 * differences d = S[a][i] - S[b][i], i < 2 vectors (pA, pB: byte addresses of the two rows), two
 * at a time (f64x2), with exactly the JavaScript loop's operations: every d is stored at the end of
 * the low set and the end advances when d <= up (likewise the high set, d >= lo); the extreme count
 * adds |d - delta| >= limit (two-sided) or sign (d - delta) >= limit. Writes the low and high sets'
 * sizes and the count as i32 at pRes, the least and the greatest d as f64 at pRes + 16 and + 24.
 *
 * `split(pW, ...)`, the same over the 2 vectors values at pW (d = w[i]; pB, delta, limit and sign
 * unused, no count): it splits the set that `both` kept into the same two sets, in the same order.
 *
 * `both(pA, pB, vectors, delta, limit, sign, up, lo, pBoth, pRes, twoSided)`, for up < lo: one set
 * of the d with d <= up or d >= lo (in order), and the extreme count; its size and the count as i32
 * at pRes and pRes + 8. One kept set instead of two, and no least and greatest (the kept set holds
 * them), is a third less work per difference than `tails`; `split` then makes the two sets from the
 * few kept (about a seventh of the differences).
 */
const tailsFunction = (kind: "tails" | "split" | "both"): Body => {
  const f = new Body(kind === "both"
    ? ["i32", "i32", "i32", "f64", "f64", "f64", "f64", "f64", "i32", "i32", "i32"]
    : ["i32", "i32", "i32", "f64", "f64", "f64", "f64", "f64", "i32", "i32", "i32", "i32"], [])
  const [pA, pB, vectors, delta, limit, sign, up, lo] = [0, 1, 2, 3, 4, 5, 6, 7]
  const [pLow, pHigh, pRes, twoSided] = kind === "both" ? [8, -1, 9, 10] : [8, 9, 10, 11]
  const i = f.local("i32")
  const end = f.local("i32")
  const pl = f.local("i32")
  const ph = f.local("i32")
  const mask = f.local("i32")
  const d = f.local("v128")
  const ext = f.local("v128")
  const vDelta = f.local("v128")
  const vLimit = f.local("v128")
  const vSign = f.local("v128")
  const vUp = f.local("v128")
  const vLo = f.local("v128")
  const vMin = f.local("v128")
  const vMax = f.local("v128")
  f.f64(Number.POSITIVE_INFINITY).f64x2Splat().set(vMin)
  f.f64(Number.NEGATIVE_INFINITY).f64x2Splat().set(vMax)
  f.get(delta).f64x2Splat().set(vDelta)
  f.get(limit).f64x2Splat().set(vLimit)
  f.get(sign).f64x2Splat().set(vSign)
  f.get(up).f64x2Splat().set(vUp)
  f.get(lo).f64x2Splat().set(vLo)
  f.f64(0).f64x2Splat().set(ext)
  f.get(pLow).set(pl)
  if (kind !== "both") f.get(pHigh).set(ph)
  f.get(vectors).i32(16).i32Mul().set(end)
  // store both lanes of d at *at, advancing `at` by 8 for each lane whose mask bit is set
  const keep = (at: number, compare: () => void) => {
    f.get(d)
    compare()
    f.i64x2Bitmask().set(mask)
    f.get(at).get(d).f64x2ExtractLane(0).f64Store(0)
    f.get(at).get(mask).i32(1).i32And().i32(3).i32Shl().i32Add().set(at)
    f.get(at).get(d).f64x2ExtractLane(1).f64Store(0)
    f.get(at).get(mask).i32(1).i32ShrU().i32(3).i32Shl().i32Add().set(at)
  }
  const pass = (extreme: () => void) => {
    f.i32(0).set(i)
    f.block((done) => {
      f.loop((more) => {
        f.get(i).get(end).i32LtU().i32Eqz().brIf(done)
        if (kind === "split") f.get(pA).get(i).i32Add().v128Load(0).set(d)
        else {
          f.get(pA).get(i).i32Add().v128Load(0).get(pB).get(i).i32Add().v128Load(0).f64x2Sub().set(d)
          // ext -= mask (a true lane is all ones, -1 as an i64)
          f.get(ext)
          f.get(d).get(vDelta).f64x2Sub()
          extreme()
          f.get(vLimit).f64x2Ge().i64x2Sub().set(ext)
        }
        if (kind === "both") keep(pl, () => f.get(vUp).f64x2Le().get(d).get(vLo).f64x2Ge().v128Or())
        else {
          keep(pl, () => f.get(vUp).f64x2Le())
          keep(ph, () => f.get(vLo).f64x2Ge())
          f.get(vMin).get(d).f64x2Min().set(vMin)
          f.get(vMax).get(d).f64x2Max().set(vMax)
        }
        f.get(i).i32(16).i32Add().set(i).br(more)
      })
    })
  }
  f.get(twoSided)
  f.if(
    () => pass(() => f.f64x2Abs()),
    () => pass(() => f.get(vSign).f64x2Mul())
  )
  f.get(pRes).get(pl).get(pLow).i32Sub().i32(3).i32ShrU().i32Store(0)
  if (kind !== "both") f.get(pRes).get(ph).get(pHigh).i32Sub().i32(3).i32ShrU().i32Store(4)
  f.get(pRes).get(ext).i64x2ExtractLane(0).get(ext).i64x2ExtractLane(1).i64Add().i32WrapI64().i32Store(8)
  if (kind !== "both") {
    f.get(pRes).get(vMin).get(vMin).f64x2ExtractLane(1).f64x2Splat().f64x2Min().f64x2ExtractLane(0).f64Store(16)
    f.get(pRes).get(vMax).get(vMax).f64x2ExtractLane(1).f64x2Splat().f64x2Max().f64x2ExtractLane(0).f64Store(24)
  }
  return f
}

/**
 * `rank(pW, n, r, mn, mx, pCounts, pFew, pOut, maxBins, pIdx)`: the kernel's `rank` (order statistics r
 * and r + 1 of the n values at pW, all within [mn, mx], by a histogram of the range in at most
 * maxBins bins, the bins holding the two ranks, and an insertion sort of the few values in them),
 * with the same operations in the same order; writes the two values as f64 at pOut and pOut + 8. Counting is a third of a pair's work,
 * and here it runs without bounds checks or float-to-index conversions through JavaScript numbers.
 */
const rankFunction = (): Body => {
  const f = new Body(["i32", "i32", "i32", "f64", "f64", "i32", "i32", "i32", "i32", "i32"], [])
  const [pW, n, r, mn, mx, pCounts, pFew, pOut, maxBins, pIdx] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
  const i32 = () => f.local("i32")
  const bins = i32()
  const i = i32()
  const b = i32()
  const before = i32()
  const b1 = i32()
  const b2 = i32()
  const upto = i32()
  const r2 = i32()
  const m = i32()
  const j = i32()
  const addr = i32()
  const scale = f.local("f64")
  const v = f.local("f64")
  /** for (x = 0; x < to; x++) body (counts, so unsigned) */
  const upTo = (x: number, to: () => void, body: () => void) => forLoop(f, x, () => f.i32(0), to, body)
  /** b = the bin of v: floor((v - mn) scale), at most bins - 1 (and, for memory's sake, at least 0) */
  const binOfV = () => {
    f.get(v).get(mn).f64Sub().get(scale).f64Mul().f64Floor().i32TruncSatF64S().set(b)
    f.get(b).get(bins).i32(1).i32Sub().get(b).get(bins).i32LtS().select().set(b)
    f.get(b).i32(0).get(b).i32(0).i32GtS().select().set(b)
  }
  const loadW = () => f.get(pW).get(i).i32(8).i32Mul().i32Add().f64Load(0).set(v)
  const countAt = (bin: number) => f.get(pCounts).get(bin).i32(4).i32Mul().i32Add().i32Load(0)
  const fewAt = (k: () => void) => {
    f.get(pFew)
    k()
    f.i32(8).i32Mul().i32Add()
  }
  f.get(mx).get(mn).f64Gt()
  f.if(
    () => {
      // bins = max(16, min(maxBins, n >>> 2)); scale = bins / (mx - mn)
      f.get(n).i32(2).i32ShrU().set(bins)
      f.get(bins).get(maxBins).get(bins).get(maxBins).i32LtS().select().set(bins)
      f.get(bins).i32(16).get(bins).i32(16).i32GtS().select().set(bins)
      f.get(bins).f64ConvertI32S().get(mx).get(mn).f64Sub().f64Div().set(scale)
      f.get(pCounts).i32(0).get(bins).i32(4).i32Mul().memoryFill()
      upTo(i, () => f.get(n), () => {
        loadW()
        binOfV()
        f.get(pCounts).get(b).i32(4).i32Mul().i32Add().tee(addr).get(addr).i32Load(0).i32(1).i32Add().i32Store(0)
        // each value's bin, for the second pass
        f.get(pIdx).get(i).i32(4).i32Mul().i32Add().get(b).i32Store(0)
      })
      // b1: the bin of rank r, before: the values below it
      f.i32(0).set(before)
      f.i32(0).set(b1)
      f.block((found) => {
        f.loop((again) => {
          countAt(b1)
          f.get(before).i32Add().tee(upto).get(r).i32LeS().i32Eqz().brIf(found)
          f.get(upto).set(before)
          f.get(b1).i32(1).i32Add().set(b1).br(again)
        })
      })
      // b2: the bin of rank r2 = r + 1 (r at the end)
      f.get(b1).set(b2)
      countAt(b1)
      f.get(before).i32Add().set(upto)
      f.get(r).i32(1).i32Add().get(r).get(r).i32(1).i32Add().get(n).i32LtS().select().set(r2)
      f.block((found) => {
        f.loop((again) => {
          f.get(upto).get(r2).i32LeS().i32Eqz().brIf(found)
          f.get(b2).i32(1).i32Add().set(b2)
          countAt(b2)
          f.get(upto).i32Add().set(upto).br(again)
        })
      })
      // the few values in bins b1..b2, then their insertion sort
      f.i32(0).set(m)
      upTo(i, () => f.get(n), () => {
        fewAt(() => f.get(m))
        loadW()
        f.get(v).f64Store(0)
        // b1 <= b <= b2, as one unsigned comparison of b - b1 with b2 - b1
        f.get(pIdx).get(i).i32(4).i32Mul().i32Add().i32Load(0).get(b1).i32Sub().get(b2).get(b1).i32Sub().i32LeU().get(m).i32Add().set(m)
      })
      f.i32(1).set(i)
      f.block((sorted) => {
        f.loop((nextI) => {
          f.get(i).get(m).i32LtS().i32Eqz().brIf(sorted)
          fewAt(() => f.get(i))
          f.f64Load(0).set(v)
          f.get(i).i32(1).i32Sub().set(j)
          f.block((placed) => {
            f.loop((shift) => {
              f.get(j).i32(0).i32LtS().brIf(placed)
              fewAt(() => f.get(j))
              f.f64Load(0).get(v).f64Gt().i32Eqz().brIf(placed)
              fewAt(() => f.get(j).i32(1).i32Add())
              fewAt(() => f.get(j))
              f.f64Load(0).f64Store(0)
              f.get(j).i32(1).i32Sub().set(j).br(shift)
            })
          })
          fewAt(() => f.get(j).i32(1).i32Add())
          f.get(v).f64Store(0)
          f.get(i).i32(1).i32Add().set(i).br(nextI)
        })
      })
      f.get(pOut)
      fewAt(() => f.get(r).get(before).i32Sub())
      f.f64Load(0).f64Store(0)
      f.get(pOut)
      fewAt(() => f.get(r2).get(before).i32Sub())
      f.f64Load(0).f64Store(8)
    },
    () => {
      // all equal (or n = 1)
      f.get(pOut).get(mn).f64Store(0)
      f.get(pOut).get(mn).f64Store(8)
    }
  )
  return f
}

/** The compiled `tails` module (shared memory for worker threads, or not), or null without WebAssembly. */
const tailsModule = (shared: boolean): object | null => compiled(`pairs:${shared}`, () => module([
    { name: "tails", body: tailsFunction("tails") },
    { name: "rank", body: rankFunction() },
    { name: "split", body: tailsFunction("split") },
    { name: "both", body: tailsFunction("both") }
  ], shared))

/**
 * The job's samples in a WebAssembly memory with a scratch slot per thread, or undefined (no
 * WebAssembly, no SIMD, or no memory that large): the caller then keeps the JavaScript loop.
 */
const wasmJob = (samples: Float64Array, B: number, threads: number, shared: boolean): { readonly S: Float64Array; readonly wasm: PairWasm } | undefined => {
  const mod = host === undefined ? null : tailsModule(shared)
  if (mod === null) return undefined
  const scratch = Math.ceil(samples.byteLength / 64) * 64
  const slot = slotLayout(B)
  const pages = Math.ceil((scratch + threads * slot.bytes) / 65536)
  if (pages > 65536) return undefined
  try {
    const memory = newMemory(pages, shared)
    const S = new Float64Array(memory.buffer, 0, samples.length)
    S.set(samples)
    const slots = shared ? new Int32Array(new SharedArrayBuffer(4)) : new Int32Array(1)
    return { S, wasm: { module: mod, memory, slots, scratch, slot } }
  } catch {
    return undefined
  }
}

export interface PairsOptions {
  /** "auto" (default): WebAssembly when available, else JavaScript; the results do not depend on it. */
  readonly engine?: Engine | undefined
  /** Threads including the caller; default: all available cores for large jobs, else 1. */
  readonly threads?: number | undefined
  /** Tests only (see threads.ts). */
  readonly callerWorks?: boolean
  readonly onDone?: (unitThreads: Int32Array) => void
  /** Differences within this of the observed one count as extreme (default TIE, for correlations). */
  readonly tie?: number | undefined
}

/**
 * The order in which to process pairs: by tile (the pair's two runs divided by T, with 2 T runs'
 * samples about 1 MB, a core's L2 cache), then as given. Undefined when there is nothing to gain.
 */
const tiled = (pa: Int32Array, pb: Int32Array, B: number): Int32Array | undefined => {
  const P = pa.length
  const T = Math.max(1, Math.min(16, Math.floor(2 ** 16 / B)))
  if (P <= BLOCK || P >= 2 ** 21) return undefined
  let runs = 0
  for (let i = 0; i < P; i++) runs = Math.max(runs, pa[i] + 1, pb[i] + 1)
  const tiles = Math.ceil(runs / T)
  // tile key and position in one exactly representable number, so a numeric sort does it
  const keys = new Float64Array(P)
  for (let i = 0; i < P; i++) {
    const x = Math.floor(Math.min(pa[i], pb[i]) / T)
    const y = Math.floor(Math.max(pa[i], pb[i]) / T)
    keys[i] = (x * tiles + y) * 2 ** 21 + i
  }
  keys.sort()
  return Int32Array.from(keys, (k) => k % 2 ** 21)
}

const shared = <A extends Float64Array | Int32Array>(a: A, share: boolean): A => {
  if (!share) return a
  const copy = new (a.constructor as new (buffer: SharedArrayBuffer) => A)(new SharedArrayBuffer(a.byteLength))
  copy.set(a)
  return copy
}

/**
 * For each pair p of (pa[p], pb[p]): `out[STRIDE p ..]` = lower and upper bounds of the
 * (confLevel) percentile interval of the differences, the count of extreme differences, and the
 * number of defined differences.
 */
export const pairStats = (
  d: { readonly samples: Float64Array; readonly resamples: number; readonly estimates: Float64Array; readonly degenerate: Int32Array },
  pa: Int32Array,
  pb: Int32Array,
  alternative: keyof typeof ALTERNATIVE,
  confLevel: number,
  options: PairsOptions = {}
): Float64Array => {
  const P = pa.length
  const B = d.resamples
  const alpha = 1 - confLevel
  const p1 = alpha / 2
  const p2 = 1 - alpha / 2
  const alt = ALTERNATIVE[alternative]
  const threads = Math.max(1, Math.min(64, Math.floor(options.threads ?? Threads.defaultThreads(P * B, PAIR_WORK))))
  const share = threads > 1 && P > BLOCK && typeof SharedArrayBuffer === "function"
  const engine = options.engine ?? "auto"
  const job = engine === "js" ? undefined : wasmJob(d.samples, B, share ? threads : 1, share)
  if (engine === "wasm" && job === undefined) throw new Error("WebAssembly (with SIMD) is not available")
  const S = job?.S ?? shared(d.samples, share)
  const wasm = job?.wasm
  const degenerate = shared(d.degenerate, share)
  const estimates = shared(d.estimates, share)
  // the pairs in tiles (see the file comment), written back in their own order at the end
  const order = tiled(pa, pb, B)
  const a = shared(order === undefined ? pa : order.map((i) => pa[i]), share)
  const b = shared(order === undefined ? pb : order.map((i) => pb[i]), share)
  const out = share ? new Float64Array(new SharedArrayBuffer(8 * STRIDE * P)) : new Float64Array(STRIDE * P)
  const tie = options.tie ?? TIE
  const block = pairKernel(S, B, degenerate, estimates, a, b, out, alt, p1, p2, tie, TUNING, wasm)
  const id = ++jobs
  Threads.run({
    units: Math.ceil(P / BLOCK),
    unit: (u) => block(u * BLOCK, Math.min(P, (u + 1) * BLOCK)),
    message: () => ({ kind: "js", source: WORKER_KERNEL, args: [S, B, degenerate, estimates, a, b, out, alt, p1, p2, tie, TUNING, wasm, P, id] }),
    threads: share ? threads : 1,
    ...(options.callerWorks !== undefined ? { callerWorks: options.callerWorks } : {}),
    ...(options.onDone !== undefined ? { onDone: options.onDone } : {})
  })
  if (order === undefined) return share ? out.slice() : out
  const inOrder = new Float64Array(STRIDE * P)
  for (let j = 0; j < P; j++) for (let c = 0; c < STRIDE; c++) inOrder[STRIDE * order[j] + c] = out[STRIDE * j + c]
  return inOrder
}
