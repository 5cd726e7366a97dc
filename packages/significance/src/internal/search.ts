// Binary searches in an ascending Float64Array (Holm's adjusted p, competition ranks).

/** The first index in sorted[0, n) whose value is >= v; n when there is none. */
export const firstAtLeast = (sorted: Float64Array, v: number, n: number): number => {
  let lo = 0
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid] < v) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The first index in sorted[0, n) whose value is > v; n when there is none. */
export const firstAbove = (sorted: Float64Array, v: number, n: number): number => {
  let lo = 0
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid] > v) hi = mid
    else lo = mid + 1
  }
  return lo
}
