// Competition ranks of the ranked runs, in every resample (from the official figures Intervals.ts
// keeps) and on the original pairs.
import { Spearman } from "@stseval/metrics"
import type * as Threads from "./threads.js"

/** A resample's defined figures, their runs and buckets, the buckets' members and bounds (or the radix sort's order and groups): kept between calls. */
let values = new Float64Array(0)
let grouped = new Float64Array(0)
let which = new Int32Array(0)
let bucket = new Int32Array(0)
let order = new Int32Array(0)
let bounds = new Int32Array(0)

/** Comparisons within buckets per figure beyond which a resample is ranked by the radix sort (2,000 STS-B runs: about 4). */
const CROWDED = 16

/**
 * Competition ranks (1 + runs strictly better; undefined figures last) of `ranked` in
 * row[base + k * FIG + f]: higher is better, or with `lower` lower is better (MSE). Counted: each
 * figure falls in one of n buckets over [min, max] (a map rounding keeps monotone), beaten by the
 * buckets above and the larger few of its own; ties or a tight cluster crowd the buckets, and that
 * resample takes metrics' radix sort (alone three times as long on 2,000 runs x 1,000 resamples).
 */
export const rankInto = (
  ranked: Int32Array,
  row: Float64Array,
  base: number,
  FIG: number,
  f: number,
  ranks: Int32Array,
  B: number,
  b: number,
  rankDegenerate: Int32Array,
  lower: boolean
): void => {
  if (which.length < ranked.length) {
    values = new Float64Array(ranked.length)
    grouped = new Float64Array(ranked.length)
    which = new Int32Array(ranked.length)
    bucket = new Int32Array(ranked.length)
    order = new Int32Array(ranked.length)
    bounds = new Int32Array(ranked.length + 1)
  }
  let n = 0
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  for (let j = 0; j < ranked.length; j++) {
    const v = row[base + ranked[j] * FIG + f]
    if (v !== v) continue
    // negated when lower is better: higher is better from here on
    const u = lower ? -v : v
    values[n] = u
    which[n++] = j
    min = Math.min(min, u)
    max = Math.max(max, u)
  }
  // bounds[q]: bucket q's start, then (members placed in `grouped`) its end; an infinite span or
  // scale puts every figure in bucket 0 (NaN | 0), still monotone
  const scale = n / (max - min)
  bounds.fill(0, 0, n + 1)
  for (let i = 0; i < n; i++) bounds[(bucket[i] = Math.min(n - 1, Math.floor((values[i] - min) * scale)) | 0) + 1]++
  let work = 0
  for (let q = 0; q < n; q++) {
    work += bounds[q + 1] * bounds[q + 1]
    bounds[q + 1] += bounds[q]
  }
  if (work <= CROWDED * n) {
    // each bucket's figures side by side: each of them reads its bucket's without a look-up
    for (let i = 0; i < n; i++) grouped[bounds[bucket[i]]++] = values[i]
    for (let i = 0; i < n; i++) {
      const q = bucket[i]
      const e = bounds[q]
      const v = values[i]
      let beaten = n - e
      for (let m = q === 0 ? 0 : bounds[q - 1]; m < e; m++) beaten += +(grouped[m] > v)
      ranks[which[i] * B + b] = 1 + beaten
    }
  } else {
    // a group at sorted positions [a, e) has n - e runs above it and a below it
    const groups = Spearman.sortedGroupsInto(values.subarray(0, n), order, bounds) - 1
    for (let q = 0; q < groups; q++) {
      const rank = 1 + n - bounds[q + 1]
      for (let i = bounds[q]; i < bounds[q + 1]; i++) ranks[which[order[i]] * B + b] = rank
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

/**
 * `rankInto` of every resample b (official figures at officials[b * K ..]) into ranks[j * B + b], in
 * steps every 64 resamples (Threads.interleave): another pass whose walks are done starts its next
 * ones between them (`rank --json`: Pearson's ranks of 2,000 runs, a tenth of a second, left the
 * helper walking Spearman's waiting).
 */
export function* ranksInSteps(ranked: Int32Array, officials: Float64Array, K: number, ranks: Int32Array, B: number, rankDegenerate: Int32Array, lower: boolean): Threads.Steps<void> {
  for (let b = 0; b < B; b++) {
    if (b % RANKED_AT_ONCE === 0) yield undefined
    rankInto(ranked, officials, b * K, 1, 0, ranks, B, b, rankDegenerate, lower)
  }
}

/** Resamples ranked between two steps of `ranksInSteps` (2,000 runs: about 5 ms). */
export const RANKED_AT_ONCE = 64
