/**
 * Spearman's rho = Pearson's r of the **average ranks** (ties share the mean of their 1-based
 * positions), as R's `cor(method = "spearman")` and the SICK scorer compute it. Not the
 * 1 - 6 sum d^2 / (n (n^2 - 1)) shortcut, which is only right without ties.
 *
 * @since 0.1.0
 */
import { anyNonFinite, gatherFinite, sameLength } from "./internal/check.js"
import { averageRanksInto, sortedGroups as radixGroups, sortedGroupsInto as radixGroupsInto } from "./internal/ranks.js"
import { Reason, undefined_ } from "./MetricValue.js"
import type { MetricValue } from "./MetricValue.js"
import type { ScoresMetric } from "./Metric.js"
import { pearson, pearsonRaw } from "./Pearson.js"
import { correlationTraits } from "./internal/traits.js"

/**
 * Average ranks, 1-based: ties get the mean of the positions they occupy. O(n log n).
 * Throws a RangeError on NaN (NaN has no rank; check finiteness first).
 *
 * Hand-written (see internal/ranks.ts): scores spread over their range are sorted by value into as
 * many buckets as scores and by insertion within a bucket (2,000 STS-B runs of 1,379 scores in
 * 46 ms); other scores by an O(n) radix sort of their bit patterns, about 100 ms at n = 1e6 where
 * sorting an index array with a comparator takes ~400 ms, or below 1,024 scores a native sort of a
 * copy and a binary search per score.
 *
 * @example
 * ```ts
 * import { Spearman } from "@stseval/metrics"
 *
 * // ties share the mean of their positions
 * Spearman.averageRanks(new Float64Array([10, 20, 20, 30])) // Float64Array [1, 2.5, 2.5, 4]
 * ```
 * @since 0.1.0
 */
export const averageRanks = (x: Float64Array): Float64Array => {
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(x[i])) throw new RangeError(`averageRanks: NaN has no rank (element ${i + 1})`)
  }
  const ranks = new Float64Array(x.length)
  averageRanksInto(x, ranks)
  return ranks
}

/**
 * The positions of x in ascending order of (value, position), and where each group of equal values
 * begins in that order (`bounds`, ending with n): what a rank walk needs, from the sort behind
 * `averageRanks` without writing the ranks (significance's walk plan: 2,000 STS-B runs in 46 ms).
 * -0 and 0 tie. Caller guarantees x has no NaN.
 *
 * @example
 * ```ts
 * import { Spearman } from "@stseval/metrics"
 *
 * Spearman.sortedGroups(new Float64Array([30, 10, 20, 10])) // order [1, 3, 2, 0], bounds [0, 2, 3, 4]
 * ```
 * @since 0.5.0
 */
export const sortedGroups = (x: Float64Array): { readonly order: Int32Array; readonly bounds: Int32Array } => radixGroups(x)

/**
 * `sortedGroups` written into the caller's arrays: the order into order[0 .. n), the bounds into
 * bounds[0 ..] (room for n + 1); returns how many bounds were written (groups + 1). For a caller
 * that sorts many arrays into one buffer (significance's walk plan: 2,000 runs a tile, no array
 * of their own per run). -0 and 0 tie. Caller guarantees x has no NaN.
 *
 * @example
 * ```ts
 * import { Spearman } from "@stseval/metrics"
 *
 * const order = new Int32Array(4)
 * const bounds = new Int32Array(5)
 * Spearman.sortedGroupsInto(new Float64Array([30, 10, 20, 10]), order, bounds) // 4: order [1, 3, 2, 0], bounds [0, 2, 3, 4, 0]
 * ```
 * @since 0.6.0
 */
export const sortedGroupsInto = (x: Float64Array, order: Int32Array, bounds: Int32Array): number => radixGroupsInto(x, order, bounds)

/**
 * Spearman's rho between the gold `y` and the run `x` (gold first, as every metric takes them;
 * Pearson of average ranks), or why it is undefined (same reasons as `pearson`: a constant side
 * has constant ranks). Throws a RangeError when the lengths differ.
 *
 * @example
 * ```ts
 * import { MetricValue, Spearman } from "@stseval/metrics"
 *
 * // Pearson of the average ranks (not 1 - 6 sum d^2, wrong with ties)
 * const rho = MetricValue.getOrNaN(Spearman.spearman(new Float64Array([1, 3, 4, 2]), new Float64Array([10, 20, 40, 30]))) // 0.8
 * ```
 * @since 0.1.0
 */
export const spearman = (y: Float64Array, x: Float64Array): MetricValue => {
  sameLength("spearman", x, y)
  if (x.length < 2) return undefined_(Reason.fewerThanTwoPairs)
  if (anyNonFinite(x)) return undefined_(Reason.runNotFinite)
  // the gold ranked last, unchanged since, was finite then: one pass over it a run, not two
  const known = knownGoldRanks(y)
  if (known === undefined && anyNonFinite(y)) return undefined_(Reason.goldNotFinite)
  return pearson(known ?? goldRanks(y), runRanks(x))
}

/**
 * The run's ranks, in one array kept from run to run up to 65,536 scores: a table of 2,000 STS-B
 * runs ranked one after another left 22 MB of rank arrays to the collector.
 */
let runScratch = new Float64Array(0)

const runRanks = (x: Float64Array): Float64Array => {
  if (x.length > 1 << 16) return averageRanks(x)
  if (runScratch.length < x.length) runScratch = new Float64Array(Math.max(x.length, 1024))
  const ranks = runScratch.subarray(0, x.length)
  averageRanksInto(x, ranks)
  return ranks
}

/**
 * The last gold ranked by `spearman`, its copy and its ranks. Every run of a task is scored against
 * the same gold array, so a table of 2,000 runs ranked the gold 2,000 times (half of the Spearman
 * figures' time); the copy is compared on every use, so a gold changed since is ranked afresh,
 * never read stale. One entry: the gold of the task at hand, a few kilobytes.
 */
let lastGold: { readonly array: Float64Array; readonly copy: Float64Array; readonly ranks: Float64Array } | undefined

/** The ranks of `lastGold` when y is that very array with the same values, else undefined. */
const knownGoldRanks = (y: Float64Array): Float64Array | undefined => {
  const known = lastGold
  if (known === undefined || known.array !== y || known.copy.length !== y.length) return undefined
  const { copy } = known
  const n = y.length
  let i = 0
  while (i < n && y[i] === copy[i]) i++
  // -0 and 0 compare equal and rank alike, so a copy equal by === ranks the same
  return i === n ? known.ranks : undefined
}

/** y's ranks, kept as `lastGold` (y is finite: a copy holding NaN would never equal it again). */
const goldRanks = (y: Float64Array): Float64Array => {
  const ranks = averageRanks(y)
  lastGold = { array: y, copy: y.slice(), ranks }
  return ranks
}

/**
 * Spearman's rho over the pairs `idx[0..n)` (a resample): gathers the pairs into the caller's
 * scratch arrays (length >= n), re-ranks them, and returns NaN when undefined. Ranking a
 * resample needs the sort, so this allocates the rank arrays; use it per resample, not per pair.
 *
 * @example
 * ```ts
 * import { Spearman } from "@stseval/metrics"
 *
 * const run = new Float64Array([10, 20, 40, 30])
 * const gold = new Float64Array([1, 3, 4, 2])
 * // rho over a resample of the pairs, re-ranked: NaN when undefined
 * const rho: number = Spearman.spearmanAt(run, gold, new Int32Array([0, 1, 1, 3]))
 * ```
 * @since 0.1.0
 */
export const spearmanAt = (
  x: Float64Array,
  y: Float64Array,
  idx: Int32Array | Uint32Array,
  n: number = idx.length,
  scratchX: Float64Array = new Float64Array(n),
  scratchY: Float64Array = new Float64Array(n)
): number => {
  if (n < 2 || !gatherFinite(x, y, idx, n, scratchX, scratchY)) return Number.NaN
  const rx = averageRanks(scratchX.length === n ? scratchX : scratchX.subarray(0, n))
  const ry = averageRanks(scratchY.length === n ? scratchY : scratchY.subarray(0, n))
  return pearsonRaw(ry, rx)
}

/**
 * Spearman as a metric descriptor (`Metrics.get("spearman")`): resampled by significance's rank
 * walks.
 *
 * @example
 * ```ts
 * import { Spearman } from "@stseval/metrics"
 *
 * Spearman.metric.symbol // "ρ"
 * const rho = Spearman.metric.compute(new Float64Array([1, 3, 4, 2]), new Float64Array([10, 20, 40, 30])) // defined(0.8)
 * ```
 * @since 0.3.0
 */
export const metric: ScoresMetric = {
  name: "spearman",
  label: "Spearman",
  symbol: "rho",
  description: "Spearman's rho: Pearson of the average ranks (R's cor(method = \"spearman\"), scipy's spearmanr)",
  ...correlationTraits,
  fewPairsCoverage: "percentile intervals of Spearman's rho hold the true value more often than their level says, so they are wider than needed (95% intervals: 96-97% at 20-30 pairs, up to 99% at 10 on normal data)",
  compute: (gold, run) => spearman(gold, run),
  resampling: { by: "ranks", of: "pearson", at: (gold, run, idx, n) => spearmanAt(run, gold, idx, n) }
}
