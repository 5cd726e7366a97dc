// Weighted mid-ranks for Spearman's rho on a bootstrap resample, given as multiplicities
// (counts) instead of a gathered copy. A value drawn c times occupies c consecutive positions of
// the resample; ties (equal values, including repeats of one pair) share the mean of their
// positions. Pairs with count 0 get a finite placeholder rank and carry no weight.

/** Positions of `values[start..end)` sorted ascending (stable), as absolute indices. */
export const sortedSegment = (values: Float64Array, start: number, end: number): Int32Array => {
  const idx = new Int32Array(end - start)
  for (let i = 0; i < idx.length; i++) idx[i] = start + i
  idx.sort((a, b) => values[a] - values[b] || a - b)
  return idx
}

/**
 * Writes into `out[i]` the mid-rank of pair i among the multiset given by weights `w`, minus the
 * mean rank (m + 1) / 2 where m = total weight, so the ranks come out centred.
 * `order` is the sorted segment from `sortedSegment`; values are read at `offset + order[j]`
 * (so a run inside the run-major matrix needs no view object per call).
 */
export const weightedMidRanks = (
  values: Float64Array,
  offset: number,
  order: Int32Array,
  w: Float64Array,
  out: Float64Array
): void => {
  const len = order.length
  let total = 0
  for (let j = 0; j < len; j++) total += w[order[j]]
  const centre = (total + 1) / 2
  let cumulative = 0
  let j = 0
  while (j < len) {
    const v = values[offset + order[j]]
    let end = j
    let weight = 0
    while (end < len && values[offset + order[end]] === v) {
      weight += w[order[end]]
      end++
    }
    const rank = cumulative + (weight + 1) / 2 - centre
    for (let t = j; t < end; t++) out[order[t]] = rank
    cumulative += weight
    j = end
  }
}
