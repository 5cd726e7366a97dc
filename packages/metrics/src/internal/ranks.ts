/**
 * @internal Average ranks by an LSD radix sort of the scores' IEEE-754 bit patterns.
 *
 * Hand-written because no maintained JS package ranks a Float64Array with ties in O(n): sorting an
 * index array with a comparator closure costs ~400 ms at n = 1e6, and sorting a copy then
 * binary-searching each score ~500 ms (cache misses); this takes ~100 ms.
 *
 * Each double maps to an unsigned 64-bit key (hi, lo) that orders like the number: flip every bit
 * of a negative, flip only the sign bit of a positive; -0 is first normalised to +0 so the two tie.
 * Six stable counting passes over 11-bit digits sort (key, index) triples together, reading the
 * inputs sequentially. Equal keys are then exactly the ties. Below 1,024 scores a native sort of a
 * copy and binary searches are faster (the radix passes' fixed cost dominates there), and so is a
 * native sort for the first few rankings of a process, before V8 compiles the passes.
 *
 * Scores spread over their range, as runs' scores and correlations are, take a bucket sort by
 * value first (`spreadGroupsInto`), at every size several times faster than the radix passes and
 * than a native sort; those order what it gives up on. All give the one order, by (value, position).
 */

const BITS = 11
const RADIX = 1 << BITS
const MASK = RADIX - 1
const PASSES = 6

/**
 * Below this many scores the radix sort's fixed cost (six 2048-bucket histograms to clear and scan)
 * outweighs its passes: a native sort of a copy and a binary search per score is several times
 * faster (STS runs have 250 to 1,500 pairs, SICK 4,927).
 */
const SMALL = 1024

/**
 * Average 1-based ranks of x for small n: positions start+1 .. end of a tie in a sorted copy
 * average (start+1+end)/2, as below; -0 and +0 tie (they compare equal).
 */
const sortedAverageRanks = (x: Float64Array, out: Float64Array): void => {
  const n = x.length
  const sorted = x.slice().sort()
  for (let i = 0; i < n; i++) {
    const v = x[i]
    // first position with a value >= v, then first with a value > v
    let lo = 0
    let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (sorted[mid] < v) lo = mid + 1
      else hi = mid
    }
    const start = lo
    hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (sorted[mid] <= v) lo = mid + 1
      else hi = mid
    }
    out[i] = (start + 1 + lo) / 2
  }
}

/**
 * Average 1-based ranks of x for the first rankings of a process: a native sort of a copy, then
 * each tie's average rank looked up by value. Until V8 has compiled the radix passes they run in
 * its interpreter, and ranking a 4,927-pair SICK run and its gold that way took 9-13 ms against
 * 5 ms here; once compiled, the radix sort is three times faster than this. Map keys compare by
 * SameValueZero, so -0 and +0 tie, as they do in the sort.
 */
export const coldAverageRanks = (x: Float64Array, out: Float64Array): void => {
  const n = x.length
  const sorted = x.slice().sort()
  const rankOf = new Map<number, number>()
  let start = 0
  for (let i = 1; i <= n; i++) {
    if (i === n || sorted[i] !== sorted[start]) {
      rankOf.set(sorted[start], (start + 1 + i) / 2)
      start = i
    }
  }
  for (let i = 0; i < n; i++) out[i] = rankOf.get(x[i])!
}

/** How many rankings of a process take the native sort (`coldAverageRanks`) before the radix sort. */
const COLD_RANKINGS = 4
let rankings = 0

/** Average 1-based ranks of x, written into out. Caller guarantees x has no NaN. */
export const averageRanksInto = (x: Float64Array, out: Float64Array): void => {
  const n = x.length
  if (n === 0) return
  if (n === 1) {
    out[0] = 1
    return
  }
  if (n >= SMALL && rankings < COLD_RANKINGS) {
    rankings++
    return coldAverageRanks(x, out)
  }
  spreadAverageRanks(x, out)
}

/**
 * Scratch of the spread sort (`spreadGroupsInto`) and of the ranks taken from it, kept between
 * sorts of up to REUSED scores as the radix sort's; above that, fresh arrays (not held).
 */
let spread = new Int32Array(0)

/**
 * Two Int32Array views of n and n + 1 of the spread sort's scratch: half 0 the bucket of each score
 * and the bucket starts (`spreadGroupsInto`), half 1 the order and bounds it writes for
 * `spreadAverageRanks`. Above REUSED scores each half is fresh, so a ranking allocates 2n + 1 for
 * each half, not the whole scratch twice.
 */
const spreadScratch = (n: number, half: 0 | 1): readonly [Int32Array, Int32Array] => {
  if (n > REUSED) return [new Int32Array(n), new Int32Array(n + 1)]
  if (spread.length < 4 * n + 2) spread = new Int32Array(4 * Math.max(n, 1024) + 2)
  const at = half * (2 * n + 1)
  return [spread.subarray(at, at + n), spread.subarray(at + n, at + 2 * n + 1)]
}

/**
 * sortedGroupsInto's order and bounds for scores spread over their range (runs' scores,
 * correlations): each score counted into one of n buckets of equal width, the buckets laid out in
 * order with each one's scores by position, then an insertion sort, which moves a score only
 * within its bucket. About a fifth of the radix sort's time at 1,379 scores (2,000 STS-B runs: 46
 * against 212 ms), the same order. Undefined, leaving order and bounds to be overwritten, where it
 * would be slow or cannot place the scores: fewer than two distinct values, a range too wide or
 * too narrow for doubles (infinities, overflow), or scores crowded into few buckets (more than
 * 8 n moves).
 */
export const spreadGroupsInto = (x: Float64Array, order: Int32Array, bounds: Int32Array): number | undefined => {
  const n = x.length
  let min = x[0]
  let max = x[0]
  for (let i = 1; i < n; i++) {
    const v = x[i]
    if (v < min) min = v
    else if (v > max) max = v
  }
  // rounding is monotonic, so equal scores share a bucket and a larger score never has a lower one
  const scale = n / (max - min)
  if (!(scale > 0 && scale < Infinity)) return undefined
  const [bucket, starts] = spreadScratch(n, 0)
  starts.fill(0)
  for (let i = 0; i < n; i++) {
    const b = Math.min(n - 1, Math.floor((x[i] - min) * scale))
    bucket[i] = b
    starts[b + 1]++
  }
  for (let b = 0; b < n; b++) starts[b + 1] += starts[b]
  for (let i = 0; i < n; i++) order[starts[bucket[i]]++] = i
  // stable: an equal score is never passed, so a group stays in position order
  let moves = 0
  for (let j = 1; j < n; j++) {
    const o = order[j]
    const v = x[o]
    let k = j - 1
    if (x[order[k]] <= v) continue
    do {
      order[k + 1] = order[k]
      k--
    } while (k >= 0 && x[order[k]] > v)
    order[k + 1] = o
    moves += j - k
    if (moves > 8 * n) return undefined
  }
  // -0 and 0 compare equal: one group
  bounds[0] = 0
  let q = 1
  for (let j = 1; j < n; j++) if (x[order[j]] !== x[order[j - 1]]) bounds[q++] = j
  bounds[q] = n
  return q + 1
}

/**
 * Average 1-based ranks of x (at least 2 scores) by the spread sort, written into out; else by the
 * radix sort, or below SMALL scores a native sort. The spread sort is the fastest of the three at
 * every size measured: 20 to 1,000 scores 2 to 9 times faster than the native sort (0.8 against
 * 1.5 µs at 20, 19 against 172 µs at 1,000).
 */
export const spreadAverageRanks = (x: Float64Array, out: Float64Array): void => {
  const [order, bounds] = spreadScratch(x.length, 1)
  const groups = spreadGroupsInto(x, order, bounds)
  if (groups === undefined) return x.length < SMALL ? sortedAverageRanks(x, out) : radixAverageRanks(x, out)
  for (let q = 0; q + 1 < groups; q++) {
    const rank = (bounds[q] + 1 + bounds[q + 1]) / 2
    for (let k = bounds[q]; k < bounds[q + 1]; k++) out[order[k]] = rank
  }
}

/**
 * The radix sort's six arrays, kept between sorts of up to REUSED scores: allocating them for each
 * of 2,000 STS-B runs was a fifth of the ranking's time. Above that, fresh arrays (not held).
 */
const REUSED = 1 << 16
let scratch = new Uint32Array(0)
const counts = new Uint32Array(RADIX * PASSES)

/**
 * The (key, index) pairs of x sorted by key, stably, so by (value, position): `hi`, `lo` (the keys'
 * words) and `ix` (positions), each n long; views of the shared scratch for n <= REUSED, valid
 * until the next sort.
 */
const radixSorted = (x: Float64Array): { readonly hi: Uint32Array; readonly lo: Uint32Array; readonly ix: Uint32Array } => {
  const n = x.length
  let buffer = scratch
  if (n > REUSED) buffer = new Uint32Array(6 * n)
  else if (scratch.length < 6 * n) buffer = scratch = new Uint32Array(6 * Math.max(n, 1024))
  let hiA = buffer.subarray(0, n)
  let loA = buffer.subarray(n, 2 * n)
  let ixA = buffer.subarray(2 * n, 3 * n)
  let hiB = buffer.subarray(3 * n, 4 * n)
  let loB = buffer.subarray(4 * n, 5 * n)
  let ixB = buffer.subarray(5 * n, 6 * n)
  const f = new Float64Array(1)
  const u = new Uint32Array(f.buffer)
  // Little-endian: u[1] is the high word (sign, exponent, top of the mantissa). Node is LE on every
  // supported platform; checked once here so a big-endian host fails loudly rather than mis-ranks.
  f[0] = -0
  if (u[1] !== 0x80000000) throw new Error("averageRanks: big-endian hosts are not supported")
  counts.fill(0)
  for (let i = 0; i < n; i++) {
    const v = x[i]
    f[0] = v === 0 ? 0 : v
    let hi = u[1]
    let lo = u[0]
    if (hi & 0x80000000) {
      hi = ~hi >>> 0
      lo = ~lo >>> 0
    } else {
      hi = (hi | 0x80000000) >>> 0
    }
    hiA[i] = hi
    loA[i] = lo
    ixA[i] = i
    // One reading pass builds the histograms of all six digits.
    counts[lo & MASK]++
    counts[RADIX + ((lo >>> 11) & MASK)]++
    counts[2 * RADIX + ((lo >>> 22) | ((hi & 1) << 10))]++
    counts[3 * RADIX + ((hi >>> 1) & MASK)]++
    counts[4 * RADIX + ((hi >>> 12) & MASK)]++
    counts[5 * RADIX + (hi >>> 23)]++
  }
  for (let pass = 0; pass < PASSES; pass++) {
    const base = pass * RADIX
    // A digit shared by every key leaves the order unchanged: skip the pass.
    let skip = false
    let sum = 0
    for (let d = 0; d < RADIX; d++) {
      const c = counts[base + d]
      if (c === n) {
        skip = true
        break
      }
      counts[base + d] = sum
      sum += c
    }
    if (skip) continue
    // One loop per kind of digit, not a digit function called per score: cheaper for V8's
    // interpreter, which runs the first rankings of a process.
    if (pass < 2) {
      const shift = pass * BITS
      for (let i = 0; i < n; i++) {
        const lo = loA[i]
        const pos = counts[base + ((lo >>> shift) & MASK)]++
        hiB[pos] = hiA[i]
        loB[pos] = lo
        ixB[pos] = ixA[i]
      }
    } else if (pass === 2) {
      for (let i = 0; i < n; i++) {
        const hi = hiA[i]
        const lo = loA[i]
        const pos = counts[base + ((lo >>> 22) | ((hi & 1) << 10))]++
        hiB[pos] = hi
        loB[pos] = lo
        ixB[pos] = ixA[i]
      }
    } else {
      // passes 3-5: bits 1-11, 12-22 and 23-31 of the high word
      const shift = pass * BITS - 32
      for (let i = 0; i < n; i++) {
        const hi = hiA[i]
        const pos = counts[base + ((hi >>> shift) & MASK)]++
        hiB[pos] = hi
        loB[pos] = loA[i]
        ixB[pos] = ixA[i]
      }
    }
    let t = hiA
    hiA = hiB
    hiB = t
    t = loA
    loA = loB
    loB = t
    t = ixA
    ixA = ixB
    ixB = t
  }
  return { hi: hiA, lo: loA, ix: ixA }
}

/** Average 1-based ranks of x (at least 2 scores) by the radix sort, written into out. */
export const radixAverageRanks = (x: Float64Array, out: Float64Array): void => {
  const n = x.length
  const { hi: hiA, lo: loA, ix: ixA } = radixSorted(x)
  // Tie groups are runs of equal keys; positions start+1 .. end (1-based) average (start+1+end)/2.
  let start = 0
  while (start < n) {
    const hi = hiA[start]
    const lo = loA[start]
    let end = start + 1
    while (end < n && hiA[end] === hi && loA[end] === lo) end++
    const rank = (start + 1 + end) / 2
    for (let k = start; k < end; k++) out[ixA[k]] = rank
    start = end
  }
}

/**
 * Positions 0..n-1 of x in ascending order of (value, position) into order[0 .. n), and where each
 * group of equal values begins in that order (then n) into bounds[0 ..]: the radix sort's own
 * order, without ranks. Returns how many bounds were written (groups + 1); bounds needs room for
 * n + 1. -0 and 0 tie. Caller guarantees x has no NaN.
 */
export const sortedGroupsInto = (x: Float64Array, order: Int32Array, bounds: Int32Array): number => {
  const n = x.length
  bounds[0] = 0
  if (n === 0) return 1
  const groups = spreadGroupsInto(x, order, bounds)
  if (groups !== undefined) return groups
  const { hi, lo, ix } = radixSorted(x)
  order.set(ix.subarray(0, n))
  let q = 1
  for (let i = 1; i < n; i++) if (hi[i] !== hi[i - 1] || lo[i] !== lo[i - 1]) bounds[q++] = i
  bounds[q] = n
  return q + 1
}

/** `sortedGroupsInto` in arrays of their own, bounds exactly as long as written. */
export const sortedGroups = (x: Float64Array): { readonly order: Int32Array; readonly bounds: Int32Array } => {
  const order = new Int32Array(x.length)
  const room = new Int32Array(x.length + 1)
  const used = sortedGroupsInto(x, order, room)
  return { order, bounds: used === room.length ? room : room.slice(0, used) }
}
