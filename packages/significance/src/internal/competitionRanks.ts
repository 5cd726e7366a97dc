// Competition ranks of the ranked runs, in every resample (from the official figures Intervals.ts
// keeps) and on the original pairs.
import type { Job } from "./intervals.js"
import { Spearman } from "@stseval/metrics"

/**
 * Which ranked run each defined figure of a resample is, its bucket, the buckets' bounds and
 * members, and the radix sort's order and groups (`rankInto`): kept between calls.
 */
let which = new Int32Array(0)
let bucket = new Int32Array(0)
let ends = new Int32Array(0)
let members = new Int32Array(0)
let order = new Int32Array(0)
let bounds = new Int32Array(0)

/** Comparisons within buckets per figure beyond which a resample is ranked by the radix sort (2,000 STS-B runs: about 4). */
const CROWDED = 16

/**
 * Competition ranks (1 + runs strictly better; undefined figures last) of `ranked` in
 * row[base + k * FIG + f]: higher is better, or with `lower` lower is better (MSE). Counted, not
 * sorted: each figure falls in one of n buckets over [min, max] by a map that rounding keeps
 * monotone, so a run is beaten by every figure of the buckets above its own and by the few of its
 * own that are larger. Ties or a tight cluster crowd the buckets: that resample is sorted by
 * metrics' radix sort, whose groups of equal values are the ties. (The radix sort alone took three
 * times as long on 2,000 runs x 1,000 resamples; a native sort then a binary search, six times.)
 */
export const rankInto = (
  ranked: Int32Array,
  row: Float64Array,
  base: number,
  FIG: number,
  f: number,
  values: Float64Array,
  ranks: Int32Array,
  B: number,
  b: number,
  rankDegenerate: Int32Array,
  lower: boolean
): void => {
  if (which.length < ranked.length) {
    which = new Int32Array(ranked.length)
    bucket = new Int32Array(ranked.length)
    ends = new Int32Array(ranked.length + 1)
    members = new Int32Array(ranked.length)
    order = new Int32Array(ranked.length)
    bounds = new Int32Array(ranked.length + 1)
  }
  let n = 0
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  for (let j = 0; j < ranked.length; j++) {
    const v = row[base + ranked[j] * FIG + f]
    if (v === v) {
      values[n] = v
      which[n++] = j
      if (v < min) min = v
      if (v > max) max = v
    }
  }
  // an infinite span or scale puts every figure in bucket 0 (NaN | 0): still monotone
  const scale = n / (max - min)
  ends.fill(0, 0, n + 1)
  for (let i = 0; i < n; i++) {
    const q = Math.min(n - 1, Math.floor((values[i] - min) * scale)) | 0
    bucket[i] = q
    ends[q + 1]++
  }
  let work = 0
  for (let q = 0; q < n; q++) {
    work += ends[q + 1] * ends[q + 1]
    ends[q + 1] += ends[q]
  }
  if (work <= CROWDED * n) {
    // ends[q] is bucket q's start, and after the members are placed its end
    for (let i = 0; i < n; i++) members[ends[bucket[i]]++] = i
    for (let i = 0; i < n; i++) {
      const q = bucket[i]
      const a = q === 0 ? 0 : ends[q - 1]
      const e = ends[q]
      const v = values[i]
      let beaten = lower ? a : n - e
      for (let m = a; m < e; m++) beaten += lower ? +(values[members[m]] < v) : +(values[members[m]] > v)
      ranks[which[i] * B + b] = 1 + beaten
    }
  } else {
    // a group at sorted positions [a, e) has n - e runs above it and a below it
    const groups = Spearman.sortedGroupsInto(values.subarray(0, n), order, bounds) - 1
    for (let q = 0; q < groups; q++) {
      const a = bounds[q]
      const e = bounds[q + 1]
      const rank = lower ? 1 + a : 1 + n - e
      for (let i = a; i < e; i++) ranks[which[order[i]] * B + b] = rank
    }
  }
  // undefined figures: after every defined one
  for (let j = 0; n < ranked.length && j < ranked.length; j++) {
    const v = row[base + ranked[j] * FIG + f]
    if (v === v) continue
    ranks[j * B + b] = n + 1
    rankDegenerate[j]++
  }
}

/** Competition ranks of the ranked runs on the original data. */
export const originalRanks = (job: { readonly ranked: Int32Array } & Pick<Job, "direction">, estimates: Float64Array, FIG: number): Int32Array => {
  const n = job.ranked.length
  const ranks = new Int32Array(n)
  rankInto(job.ranked, estimates, 0, FIG, FIG - 1, new Float64Array(n), ranks, 1, 0, new Int32Array(n), job.direction === "lower")
  return ranks
}
