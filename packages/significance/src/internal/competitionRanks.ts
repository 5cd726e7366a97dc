// Competition ranks of the ranked runs, in every resample (from the official figures Intervals.ts
// keeps) and on the original pairs.
import type { Job } from "./intervals.js"
import { Spearman } from "@stseval/metrics"

/**
 * Which ranked run each defined figure of a resample is, and the figures' sorted order and groups
 * (`rankInto`): kept between calls, not two arrays per resample.
 */
let which = new Int32Array(0)
let order = new Int32Array(0)
let bounds = new Int32Array(0)

/**
 * Competition ranks (1 + runs strictly better; undefined figures last) of `ranked` in
 * row[base + k * FIG + f]: higher is better, or with `lower` lower is better (MSE). The defined
 * figures are sorted once by metrics' radix sort, whose groups of equal values are the ties:
 * a group at sorted positions [a, e) has n - e runs above it and a below it. (A native sort then a
 * binary search per run took twice as long: 2,000 runs x 1,000 resamples.)
 */
export const rankInto = (
  ranked: Int32Array,
  row: Float64Array,
  base: number,
  FIG: number,
  f: number,
  sorted: Float64Array,
  ranks: Int32Array,
  B: number,
  b: number,
  rankDegenerate: Int32Array,
  lower: boolean
): void => {
  if (which.length < ranked.length) {
    which = new Int32Array(ranked.length)
    order = new Int32Array(ranked.length)
    bounds = new Int32Array(ranked.length + 1)
  }
  let n = 0
  for (let j = 0; j < ranked.length; j++) {
    const v = row[base + ranked[j] * FIG + f]
    if (v === v) {
      sorted[n] = v
      which[n++] = j
    }
  }
  const groups = Spearman.sortedGroupsInto(sorted.subarray(0, n), order, bounds) - 1
  for (let q = 0; q < groups; q++) {
    const a = bounds[q]
    const e = bounds[q + 1]
    const rank = lower ? 1 + a : 1 + n - e
    for (let i = a; i < e; i++) ranks[which[order[i]] * B + b] = rank
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
