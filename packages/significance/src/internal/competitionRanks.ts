// Competition ranks of the ranked runs, in every resample (from the official figures Intervals.ts
// keeps) and on the original pairs.
import type { Job } from "./intervals.js"
import { firstAbove, firstAtLeast } from "./search.js"

/**
 * Competition ranks (1 + runs strictly better; undefined figures last) of `ranked` in
 * row[base + k * FIG + f]: higher is better, or with `lower` lower is better (MSE).
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
  let n = 0
  for (let j = 0; j < ranked.length; j++) {
    const v = row[base + ranked[j] * FIG + f]
    if (v === v) sorted[n++] = v
  }
  const view = sorted.subarray(0, n)
  view.sort()
  for (let j = 0; j < ranked.length; j++) {
    const v = row[base + ranked[j] * FIG + f]
    if (v !== v) {
      ranks[j * B + b] = n + 1
      rankDegenerate[j]++
      continue
    }
    // ascending order: higher is better, everything from the first value > v on is strictly
    // better; lower is better, everything before the first value >= v is
    ranks[j * B + b] = lower ? 1 + firstAtLeast(view, v, n) : 1 + n - firstAbove(view, v, n)
  }
}

/** Competition ranks of the ranked runs on the original data. */
export const originalRanks = (job: { readonly ranked: Int32Array } & Pick<Job, "direction">, estimates: Float64Array, FIG: number): Int32Array => {
  const n = job.ranked.length
  const ranks = new Int32Array(n)
  rankInto(job.ranked, estimates, 0, FIG, FIG - 1, new Float64Array(n), ranks, 1, 0, new Int32Array(n), job.direction === "lower")
  return ranks
}
