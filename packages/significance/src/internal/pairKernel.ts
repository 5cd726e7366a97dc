// The pairwise step of the paired bootstrap: for each pair of runs (a, b), from the resampled
// statistics of both (`Distribution.samples`), the shift-method p-value (a count) and the type 7
// percentile interval of the B differences. All pairs of 200 runs is 19,900 pairs x 10,000
// resamples, so this is written for speed, and `Bootstrap.ts` keeps the readable definition.
//
// One pass per pair. The two quantiles wanted (2.5% and 97.5% by default) lie in the tails, so
// instead of materialising all B differences and selecting in them, the pass keeps only the
// differences at or below a threshold for the lower quantile and at or above one for the upper
// (a systematic sample of 256 differences places each threshold a few binomial standard deviations
// beyond the wanted rank), counts the extreme ones for the p-value at the same time, and a small
// quickselect in each kept set finishes. Exact whatever the sample: when a kept set turns out not
// to hold the wanted ranks (a miss, or NaN resamples in either run), that pair falls back to the
// plain method (all differences, quickselect). Same order statistics, same arithmetic: identical
// results to the plain method (tested against a sort-based reference).
//
// Pairs are independent, so large jobs split them over worker threads (internal/threads.ts), in
// blocks; pairs are processed in tiles of runs (pairs among a few runs at a time) so that the
// runs' rows of samples are read from cache rather than memory.
import * as Threads from "./threads.js"

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
  tie: number
): (from: number, to: number) => void {
  // a systematic sample of SAMPLE differences places the thresholds (+-3 binomial sd beyond the
  // wanted ranks, as select.ts)
  const SAMPLE = 256
  const BINS = 1024
  // the differences kept at or below `up`, at or above `lo`, all of them, the sample, the few
  // around a wanted rank (separate arrays: two store streams into one measured 40% slower)
  const low = new Float64Array(B + 1)
  const high = new Float64Array(B + 1)
  const all = new Float64Array(B)
  const smp = new Float64Array(SAMPLE)
  const few = new Float64Array(B + 1)
  const counts = new Int32Array(BINS)
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
  // of the values (the bin index is monotone in the value, so bins are ordered), the bins that hold
  // ranks r and r + 1, then a sort of the few values in them. Branch-free but for that small sort.
  function rank(w: Float64Array, n: number, r: number): void {
    let mn = w[0]
    let mx = w[0]
    for (let i = 1; i < n; i++) {
      const v = w[i]
      mn = v < mn ? v : mn
      mx = v > mx ? v : mx
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
  function type7(w: Float64Array, n: number, offset: number, total: number, p: number): number {
    const h = (total - 1) * p
    const k = Math.floor(h)
    rank(w, n, k - offset)
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
      for (let j = 0; j < SAMPLE; j++) {
        const i = Math.floor(((j + 0.5) * n) / SAMPLE)
        smp[j] = S[oa + i] - S[ob + i]
      }
      // keep d <= up (ranks up to k1 + 1) and d >= lo (ranks from k2)
      const q1 = k1 / n
      const q2 = k2 / n
      const upRank = Math.ceil(((k1 + 0.5) / n) * SAMPLE + 1 + 3 * Math.sqrt(SAMPLE * q1 * (1 - q1)) + 3)
      const loRank = Math.floor(((k2 + 0.5) / n) * SAMPLE - 3 * Math.sqrt(SAMPLE * q2 * (1 - q2)) - 3)
      let up = Number.POSITIVE_INFINITY
      if (upRank < SAMPLE) {
        rank(smp, SAMPLE, upRank)
        up = rth
      }
      let lo = Number.NEGATIVE_INFINITY
      if (loRank >= 0) {
        rank(smp, SAMPLE, loRank)
        lo = rth
      }
      let nLow = 0
      let nHigh = 0
      let extreme = 0
      // branch-free: store every value, advance a kept set's end only when the value belongs; one
      // loop per kind of alternative, so that the loop has no per-element dispatch
      if (alt === 0) {
        for (let i = 0; i < n; i++) {
          const d = S[oa + i] - S[ob + i]
          low[nLow] = d
          nLow += +(d <= up)
          high[nHigh] = d
          nHigh += +(d >= lo)
          extreme += +(Math.abs(d - delta) >= limit)
        }
      } else {
        for (let i = 0; i < n; i++) {
          const d = S[oa + i] - S[ob + i]
          low[nLow] = d
          nLow += +(d <= up)
          high[nHigh] = d
          nHigh += +(d >= lo)
          extreme += +(sign * (d - delta) >= limit)
        }
      }
      // the kept sets hold the wanted ranks (k1 and k1 + 1 below, k2 and k2 + 1 above) unless missed
      const below = n - nHigh
      if ((nLow > k1 + 1 || nLow === n) && k2 >= below) {
        out[4 * p] = type7(low, nLow, 0, n, p1)
        out[4 * p + 1] = type7(high, nHigh, below, n, p2)
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
const TIE = 1e-12

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
  return (u, S, B, degenerate, estimates, pa, pb, out, alt, p1, p2, tie, P, id) => {
    if (job !== id) {
      job = id
      block = make(S, B, degenerate, estimates, pa, pb, out, alt, p1, p2, tie)
    }
    block(u * ${BLOCK}, Math.min(P, (u + 1) * ${BLOCK}))
  }
})()`

let jobs = 0

export interface PairsOptions {
  /** Threads including the caller; default: all available cores for large jobs, else 1. */
  readonly threads?: number | undefined
  /** Tests only (see threads.ts). */
  readonly callerWorks?: boolean
  readonly onDone?: (unitThreads: Int32Array) => void
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
  const S = shared(d.samples, share)
  const degenerate = shared(d.degenerate, share)
  const estimates = shared(d.estimates, share)
  // the pairs in tiles (see the file comment), written back in their own order at the end
  const order = tiled(pa, pb, B)
  const a = shared(order === undefined ? pa : order.map((i) => pa[i]), share)
  const b = shared(order === undefined ? pb : order.map((i) => pb[i]), share)
  const out = share ? new Float64Array(new SharedArrayBuffer(8 * STRIDE * P)) : new Float64Array(STRIDE * P)
  const block = pairKernel(S, B, degenerate, estimates, a, b, out, alt, p1, p2, TIE)
  const id = ++jobs
  Threads.run({
    units: Math.ceil(P / BLOCK),
    unit: (u) => block(u * BLOCK, Math.min(P, (u + 1) * BLOCK)),
    message: () => ({ kind: "js", source: WORKER_KERNEL, args: [S, B, degenerate, estimates, a, b, out, alt, p1, p2, TIE, P, id] }),
    threads: share ? threads : 1,
    ...(options.callerWorks !== undefined ? { callerWorks: options.callerWorks } : {}),
    ...(options.onDone !== undefined ? { onDone: options.onDone } : {})
  })
  if (order === undefined) return share ? out.slice() : out
  const inOrder = new Float64Array(STRIDE * P)
  for (let j = 0; j < P; j++) for (let c = 0; c < STRIDE; c++) inOrder[STRIDE * order[j] + c] = out[STRIDE * j + c]
  return inOrder
}
