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

let window = new Float64Array(2048)
const sample = new Float64Array(SAMPLE)

/** Bracket [lo, up] of values around ranks k, k + 1 from the sample (+-3 sd margin). */
const bracket = (n: number, k: number): [number, number] => {
  const q = k / n
  const centre = ((k + 0.5) / n) * SAMPLE
  const margin = 3 * Math.sqrt(SAMPLE * q * (1 - q)) + 3
  const li = Math.floor(centre - margin)
  const hi = Math.ceil(centre + 1 + margin)
  // selection, not sorting: V8's typed-array sort of 256 values costs more than the pass itself
  return [li < 0 ? Number.NEGATIVE_INFINITY : selectInPlace(sample, 0, SAMPLE - 1, li), hi >= SAMPLE ? Number.POSITIVE_INFINITY : selectInPlace(sample, 0, SAMPLE - 1, hi)]
}

/**
 * Order statistics k and k + 1 of a[0..n) from `count` values of the window w that hold exactly
 * the order statistics below .. below + count - 1; quickselect on `a` when they are not in it.
 */
const fromWindow = (a: Float64Array, n: number, k: number, w: Float64Array, below: number, count: number): [number, number] => {
  const wanted = k + 1 < n ? k + 1 : k
  if (below > k || wanted >= below + count || count > n / 4) return byQuickselect(a, n, k)
  const [lower, next] = byQuickselect(w, count, k - below)
  return [lower, k + 1 < n ? next : Number.POSITIVE_INFINITY]
}

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
    if (window.length < 2 * n) window = new Float64Array(2 * n)
    const w = window
    // two quantiles per pass, into the window's two halves (the usual interval's two; an odd last one is bracketed twice)
    for (let j = 0; j < ks.length; j += 2) {
      const [lo1, up1] = bracket(n, ks[j])
      const [lo2, up2] = bracket(n, ks[Math.min(j + 1, ks.length - 1)])
      let below1 = 0
      let count1 = 0
      let below2 = 0
      let count2 = n
      // branch-free: store every value, advance the window's end only when it belongs there
      for (let i = 0; i < n; i++) {
        const v = a[i]
        below1 += +(v < lo1)
        w[count1] = v
        count1 += +(v >= lo1) & +(v <= up1)
        below2 += +(v < lo2)
        w[count2] = v
        count2 += +(v >= lo2) & +(v <= up2)
      }
      // a selection may reorder `a` (not its values), so the next pass and a fallback read it still
      stats.push(fromWindow(a, n, ks[j], w, below1, count1))
      if (j + 1 < ks.length) stats.push(fromWindow(a, n, ks[j + 1], w.subarray(n), below2, count2 - n))
    }
  }
  return ps.map((p, j) => type7(n, p, stats[j][0], stats[j][1]))
}

/** R's type 7 quantile at p of n values from their order statistics k = floor((n - 1) p) and k + 1. */
export const type7 = (n: number, p: number, lower: number, next: number): number => {
  const h = (n - 1) * p
  const k = Math.floor(h)
  return k + 1 >= n || h === k ? lower : lower + (h - k) * (next - lower)
}
