// Quantiles by selection, O(B), not sorting, O(B log B): all pairs of 44 runs need 946 percentile
// intervals of 10,000 differences.

const selectInPlace = (a: Float64Array, lo: number, hi: number, k: number): number => {
  while (hi > lo) {
    // median of three as pivot
    const mid = (lo + hi) >>> 1
    const x = a[lo]
    const y = a[mid]
    const z = a[hi]
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y)
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i] < pivot) i++
      while (a[j] > pivot) j--
      if (i <= j) {
        const t = a[i]
        a[i] = a[j]
        a[j] = t
        i++
        j--
      }
    }
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else return a[k]
  }
  return a[k]
}

/** Order statistics k and k + 1 (when k + 1 < n) of a[0..n) by selection; reorders `a`. */
const byQuickselect = (a: Float64Array, n: number, k: number): [number, number] => {
  const lower = selectInPlace(a, 0, n - 1, k)
  // after selection, everything right of k is >= a[k]: the next order statistic is their minimum
  let next = Number.POSITIVE_INFINITY
  for (let i = k + 1; i < n; i++) if (a[i] < next) next = a[i]
  return [lower, next]
}

/** Size of the systematic sample that brackets the wanted order statistics. */
const SAMPLE = 256

let window = new Float64Array(1024)
const sample = new Float64Array(SAMPLE)

/** Bracket [lo, up] of values around ranks k, k + 1 from the sample (+-3 sd margin). */
const bracket = (n: number, k: number, out: Float64Array, at: number): void => {
  const q = k / n
  const centre = ((k + 0.5) / n) * SAMPLE
  const margin = 3 * Math.sqrt(SAMPLE * q * (1 - q)) + 3
  const li = Math.floor(centre - margin)
  const hi = Math.ceil(centre + 1 + margin)
  // selection, not sorting: V8's typed-array sort of 256 values costs more than the pass itself
  out[at] = li < 0 ? Number.NEGATIVE_INFINITY : selectInPlace(sample, 0, SAMPLE - 1, li)
  out[at + 1] = hi >= SAMPLE ? Number.POSITIVE_INFINITY : selectInPlace(sample, 0, SAMPLE - 1, hi)
}

/**
 * Order statistics k and k + 1 of a[0..n) from `count` values of the window w that hold exactly
 * the order statistics below .. below + count - 1; quickselect on `a` when they are not in it.
 */
const fromWindow = (
  a: Float64Array,
  n: number,
  k: number,
  w: Float64Array,
  below: number,
  count: number
): [number, number] => {
  const wanted = k + 1 < n ? k + 1 : k
  if (below > k || wanted >= below + count || count > n / 4) return byQuickselect(a, n, k)
  const [lower, next] = byQuickselect(w, count, k - below)
  return [lower, k + 1 < n ? next : Number.POSITIVE_INFINITY]
}

const bounds = new Float64Array(4)
let window2 = new Float64Array(1024)

/**
 * Quantiles of the first `n` values of `a` by R's type 7 (linear interpolation between order
 * statistics at h = (n - 1) p); may reorder `a`. Large inputs: a sample brackets each rank, one
 * branch-free pass copies the bracket (quickselect's partitioning rounds dominated all-pairs
 * comparisons); a bracket that misses the rank, or holds too many ties, falls back to quickselect.
 */
export const quantiles = (a: Float64Array, n: number, ps: ReadonlyArray<number>): Array<number> => {
  if (n === 0) return ps.map(() => Number.NaN)
  const ks = ps.map((p) => Math.floor((n - 1) * p))
  const stats: Array<[number, number]> = []
  if (n < 2 * SAMPLE) {
    for (const k of ks) stats.push(byQuickselect(a, n, k))
  } else {
    for (let j = 0; j < SAMPLE; j++) sample[j] = a[Math.floor(((j + 0.5) * n) / SAMPLE)]
    if (window.length < n) {
      window = new Float64Array(n)
      window2 = new Float64Array(n)
    }
    const w = window
    const w2 = window2
    // two quantiles per pass (the usual interval's two; an odd last one is bracketed twice)
    for (let j = 0; j < ks.length; j += 2) {
      const pair = j + 1 < ks.length
      bracket(n, ks[j], bounds, 0)
      bracket(n, ks[pair ? j + 1 : j], bounds, 2)
      const lo1 = bounds[0]
      const up1 = bounds[1]
      const lo2 = bounds[2]
      const up2 = bounds[3]
      let below1 = 0
      let count1 = 0
      let below2 = 0
      let count2 = 0
      // branch-free: store every value, advance the window's end only when it belongs there
      for (let i = 0; i < n; i++) {
        const v = a[i]
        below1 += +(v < lo1)
        w[count1] = v
        count1 += +(v >= lo1) & +(v <= up1)
        below2 += +(v < lo2)
        w2[count2] = v
        count2 += +(v >= lo2) & +(v <= up2)
      }
      // a selection may reorder `a` (not its values), so the next pass and a fallback read it still
      stats.push(fromWindow(a, n, ks[j], w, below1, count1))
      if (pair) stats.push(fromWindow(a, n, ks[j + 1], w2, below2, count2))
    }
  }
  return ps.map((p, j) => type7(n, p, ks[j], stats[j][0], stats[j][1]))
}

/** The quantile at p from order statistics k = floor((n - 1) p) and k + 1. */
const type7 = (n: number, p: number, k: number, lower: number, next: number): number => {
  const h = (n - 1) * p
  return k + 1 >= n || h === k ? lower : lower + (h - k) * (next - lower)
}

let tally = new Int32Array(0)

/**
 * `quantiles` of the n integers at a[offset ..] (ranks: a narrow range), counted over their range
 * rather than selected: the same order statistics, so the same values.
 */
export const countedQuantiles = (a: Int32Array, offset: number, n: number, ps: ReadonlyArray<number>): Array<number> => {
  let min = a[offset]
  let max = min
  for (let i = offset; i < offset + n; i++) {
    const v = a[i]
    if (v < min) min = v
    if (v > max) max = v
  }
  if (tally.length <= max - min) tally = new Int32Array(max - min + 1)
  tally.fill(0, 0, max - min + 1)
  for (let i = offset; i < offset + n; i++) tally[a[i] - min]++
  // the order statistic k: the least value with more than k at or below it
  const stat = (k: number): number => {
    let v = 0
    for (let below = tally[0]; below <= k; below += tally[++v]);
    return min + v
  }
  return ps.map((p) => {
    const k = Math.floor((n - 1) * p)
    return type7(n, p, k, stat(k), k + 1 < n ? stat(k + 1) : Number.POSITIVE_INFINITY)
  })
}
