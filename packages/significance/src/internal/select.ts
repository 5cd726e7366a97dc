// Quantiles by selection, O(B log m), not sorting: all pairs of 44 runs need 946 percentile
// intervals of 10,000 differences. A type 7 quantile reads ranks k and k + 1 from one end, and
// the m values nearest that end are kept in a heap in one pass (a pair's, while its differences
// are taken: Bootstrap.ts): 26 of 1,000 at 95%.

/**
 * The m smallest values offered, a max-heap in h[0 .. size): m holds ranks k and k + 1 at p of any
 * n <= `most` values, from the lower end, or from the upper end (`high`, the values negated).
 */
export const tail = (most: number, p: number, high: boolean) => {
  const m = Math.max(1, high ? most - Math.floor((most - 1) * p) : Math.floor((most - 1) * p) + 2)
  return { h: new Float64Array(m), m, size: 0 }
}

type Tail = ReturnType<typeof tail>

const siftDown = (h: Float64Array, size: number, x: number): void => {
  let i = 0
  for (let c = 1; c < size; i = c, c = 2 * c + 1) {
    if (c + 1 < size && h[c + 1] > h[c]) c++
    if (h[c] <= x) break
    h[i] = h[c]
  }
  h[i] = x
}

/** Keeps x, in place of the largest once full (x below it); what the next value must be below. */
export const offer = (t: Tail, x: number): number => {
  const h = t.h
  let i = t.size
  if (i === t.m) siftDown(h, i, x)
  else {
    for (t.size++; i > 0 && h[(i - 1) >> 1] < x; i = (i - 1) >> 1) h[i] = h[(i - 1) >> 1]
    h[i] = x
  }
  return t.size === t.m ? h[0] : Number.POSITIVE_INFINITY
}

/** The type 7 quantile at p of the n values offered to `t` (`tail(.., p, high)`); empties it for the next values. */
export const fromTail = (t: Tail, n: number, p: number, high: boolean): number => {
  const size = t.size
  t.size = 0
  if (n === 0) return Number.NaN
  const k = Math.floor((n - 1) * p)
  // the tail's ranks r and r + 1, the larger ones popped: ranks k and k + 1, or negated k + 1 and k
  const r = high ? n - 2 - k : k
  let next = Number.POSITIVE_INFINITY
  for (let s = size; s > r + 1; s--) {
    next = t.h[0]
    siftDown(t.h, s - 1, t.h[s - 1])
  }
  return high ? type7(n, p, -next, -t.h[0]) : type7(n, p, t.h[0], next)
}

/**
 * The quantiles at p and q (an interval's bounds) of the defined values among a[from], a[from +
 * stride], .. (n of them, read in place) by R's type 7 (linear interpolation between order statistics
 * at h = (n - 1) p): p from the heap of the lower end, q from the upper end's, both in one pass (a
 * third less time than a pass each), into tails given or new: [low, high, the values defined].
 */
export const quantiles = (a: Float64Array, n: number, [p, q]: readonly [number, number], from = 0, stride = 1, low = tail(n, p, false), high = tail(n, q, true), out = new Float64Array(3)): Float64Array => {
  let top = Number.POSITIVE_INFINITY
  let bottom = Number.POSITIVE_INFINITY
  let defined = 0
  for (let i = from; i < from + n * stride; i += stride) {
    const v = a[i]
    if (v !== v) continue
    defined++
    if (v < top) top = offer(low, v)
    if (-v < bottom) bottom = offer(high, -v)
  }
  out[0] = fromTail(low, defined, p, false)
  out[1] = fromTail(high, defined, q, true)
  out[2] = defined
  return out
}

/** R's type 7 quantile at p of n values from their order statistics k = floor((n - 1) p) and k + 1. */
const type7 = (n: number, p: number, lower: number, next: number): number => {
  const h = (n - 1) * p
  const k = Math.floor(h)
  return k + 1 >= n || h === k ? lower : lower + (h - k) * (next - lower)
}

/**
 * `quantiles` of the integers a[from .. from + n), counted into `counts` (zero past the largest;
 * left zero): selection among a run's tied ranks took most of the rank intervals' time.
 */
export const integerQuantiles = (a: Int32Array, from: number, n: number, ps: ReadonlyArray<number>, counts: Int32Array): Array<number> => {
  let lo = a[from]
  for (let i = from; i < from + n; i++) {
    counts[a[i]]++
    lo = Math.min(lo, a[i])
  }
  const result = ps.map((p) => {
    const k = Math.floor((n - 1) * p)
    // v: order statistic k (`atMost` values are <= v); k + 1 is v too unless they end at k
    let v = lo
    let atMost = counts[v]
    while (atMost <= k) atMost += counts[++v]
    let next = v
    if (atMost === k + 1 && atMost < n) while (counts[++next] === 0) continue
    return type7(n, p, v, next)
  })
  for (let i = from; i < from + n; i++) counts[a[i]] = 0
  return result
}
