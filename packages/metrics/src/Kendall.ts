/**
 * Kendall's tau-b, as `scipy.stats.kendalltau(gold, run)` (its default variant b) computes it:
 * tau_b = (C - D) / sqrt((n0 - n1) (n0 - n2)), with n0 = n (n - 1) / 2 pairs of pairs, n1 / n2
 * those tied in the gold / the run, C concordant and D discordant ones; a pair of pairs tied in
 * both counts as neither (scipy: `con_minus_dis = tot - xtie - ytie + ntie - 2 dis`).
 *
 * Knight's algorithm (1966), hand-written (no npm package does scipy's ties in O(n log n), or over
 * an index multiset for resampling): each side is sorted once into integer keys below 2n, equal
 * exactly on ties; two counting-sort passes put the pairs in (run, gold) order, and the discordant
 * pairs are the inversions of the gold's keys (a Fenwick tree). Every count is an integer below
 * 2^53, exact until scipy's final division, (C - D) / sqrt(n0 - n1) / sqrt(n0 - n2).
 *
 * @since 0.3.0
 */
import { anyNonFinite, gatherFinite, sameLength } from "./internal/check.js"
import { averageRanksInto } from "./internal/ranks.js"
import { defined, Reason, undefined_ } from "./MetricValue.js"
import type { MetricValue } from "./MetricValue.js"
import type { ScoresMetric } from "./Metric.js"
import { correlationTraits } from "./internal/traits.js"

/**
 * Working arrays, reused between calls up to this many pairs (resampling calls `kendallAt` once
 * per run and resample); larger inputs get their own, so no large buffer outlives its call.
 */
const REUSE = 1 << 16

interface Scratch {
  readonly gold: Float64Array
  readonly run: Float64Array
  /** a side's sorted distinct values, or its average ranks */
  readonly rank: Float64Array
  /** 2 rank - 1 of each side: integers below 2n that order the values, equal exactly on ties */
  readonly keyGold: Int32Array
  readonly keyRun: Int32Array
  /** the pairs in (gold) and (run, gold) order */
  readonly order: Int32Array
  readonly seq: Int32Array
  readonly tmp: Int32Array
}

const allocate = (n: number): Scratch => ({
  gold: new Float64Array(n),
  run: new Float64Array(n),
  rank: new Float64Array(n),
  keyGold: new Int32Array(n),
  keyRun: new Int32Array(n),
  order: new Int32Array(n),
  seq: new Int32Array(n),
  tmp: new Int32Array(n)
})

let shared: Scratch = allocate(0)

/** Counting-sort buckets, zero between uses; reused up to the keys of REUSE pairs, as the scratch. */
let buckets = new Int32Array(0)
const bucketsFor = (keys: number): Int32Array => {
  if (keys > 2 * REUSE + 1) return new Int32Array(keys)
  if (buckets.length < keys) buckets = new Int32Array(keys)
  return buckets
}

const scratchFor = (n: number): Scratch => {
  if (n > REUSE) return allocate(n)
  if (shared.gold.length < n) shared = allocate(Math.max(n, Math.min(REUSE, 2 * shared.gold.length)))
  return shared
}

// Status of the last `tauOf`, for the reason of an undefined tau.
const OK = 0
const RUN_CONST = 1
const GOLD_CONST = 2
const BOTH_CONST = 3
let lastStatus = OK

/** From this many pairs the radix sort behind the average ranks beats sorting a copy (internal/ranks.ts). */
const RADIX = 1024

/**
 * Integer keys of v[0..n), below 2n, that order it and are equal exactly where the values tie.
 * Below RADIX pairs: the index of the value among the distinct values of a sorted copy (a binary
 * search each). From RADIX on: 2 r - 1 for the average rank r (a tie group at sorted positions
 * [a, e) has r = (a + 1 + e) / 2, so the key is a + e), from the package's radix ranking, O(n).
 * `values` is working space of exactly n doubles.
 */
const keysOf = (v: Float64Array, n: number, values: Float64Array, key: Int32Array): void => {
  if (n < RADIX) {
    values.set(n === v.length ? v : v.subarray(0, n))
    // a native numeric sort; -0 sorts before +0, but the two compare equal below and so tie
    values.sort()
    let m = 0
    let i = 0
    while (i < n) {
      const x = values[i]
      let j = i + 1
      while (j < n && values[j] === x) j++
      values[m++] = x
      i = j
    }
    for (let q = 0; q < n; q++) {
      const x = v[q]
      let lo = 0
      let hi = m - 1
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (values[mid] < x) lo = mid + 1
        else hi = mid
      }
      key[q] = lo
    }
    return
  }
  averageRanksInto(n === v.length ? v : v.subarray(0, n), values)
  for (let q = 0; q < n; q++) key[q] = 2 * values[q] - 1
}

/**
 * Discordant pairs of the pairs in (run, gold) order: those with a strictly lower run key and a
 * strictly higher gold key. Each group of equal run keys first asks a Fenwick tree over the gold
 * keys (a binary indexed tree of counts, Fenwick 1994) how many earlier pairs have a higher gold
 * key, then adds its own; O(n log G) in tight loops over a small array, about three times the speed
 * of counting the inversions with a merge sort, whose comparisons of fresh data mispredict.
 */
const discordances = (order: Int32Array, keyGold: Int32Array, keyRun: Int32Array, n: number, goldKeys: number): number => {
  const tree = bucketsFor(goldKeys + 1)
  let discordant = 0
  let inserted = 0
  let i = 0
  while (i < n) {
    const r = keyRun[order[i]]
    let j = i
    for (; j < n && keyRun[order[j]] === r; j++) {
      // earlier pairs with a gold key <= this one's: prefix sum up to key + 1 (the tree is 1-based)
      let atMost = 0
      for (let q = keyGold[order[j]] + 1; q > 0; q -= q & -q) atMost += tree[q]
      discordant += inserted - atMost
    }
    for (let q = i; q < j; q++) {
      for (let t = keyGold[order[q]] + 1; t <= goldKeys; t += t & -t) tree[t]++
    }
    inserted += j - i
    i = j
  }
  tree.fill(0, 0, goldKeys + 1)
  return discordant
}

/**
 * Stable counting sort of the positions `from[0..n)` by key[position] (keys below `keys`) into
 * `to`; returns the pairs of positions with equal keys (ties), the sum over keys of c (c - 1) / 2.
 */
const countingSort = (from: Int32Array, to: Int32Array, key: Int32Array, n: number, keys: number): number => {
  const count = bucketsFor(keys)
  for (let i = 0; i < n; i++) count[key[from[i]]]++
  let sum = 0
  let ties = 0
  for (let b = 0; b < keys; b++) {
    const c = count[b]
    ties += (c * (c - 1)) / 2
    count[b] = sum
    sum += c
  }
  for (let i = 0; i < n; i++) {
    const p = from[i]
    to[count[key[p]]++] = p
  }
  count.fill(0, 0, keys)
  return ties
}

/**
 * tau-b of n pairs given by their keys (integers that order each side and are equal exactly on
 * ties: keyGold below goldKeys, keyRun below runKeys), n >= 2; NaN with `lastStatus` set when a
 * side is constant.
 */
const tauOfKeys = (keyGold: Int32Array, keyRun: Int32Array, n: number, goldKeys: number, runKeys: number, s: Scratch): number => {
  const { order, seq, tmp } = s
  const total = (n * (n - 1)) / 2
  // the pairs in (run, gold) order: by the gold's key, then stably by the run's (LSD radix); each
  // pass counts its side's ties
  for (let i = 0; i < n; i++) tmp[i] = i
  const goldTies = countingSort(tmp, seq, keyGold, n, goldKeys)
  const runTies = countingSort(seq, order, keyRun, n, runKeys)
  if (goldTies === total || runTies === total) {
    lastStatus = goldTies === total && runTies === total ? BOTH_CONST : goldTies === total ? GOLD_CONST : RUN_CONST
    return Number.NaN
  }
  let bothTies = 0
  let i = 0
  while (i < n) {
    const r = keyRun[order[i]]
    const g = keyGold[order[i]]
    let j = i + 1
    while (j < n && keyRun[order[j]] === r && keyGold[order[j]] === g) j++
    const t = j - i
    bothTies += (t * (t - 1)) / 2
    i = j
  }
  const discordant = discordances(order, keyGold, keyRun, n, goldKeys)
  const conMinusDis = total - goldTies - runTies + bothTies - 2 * discordant
  lastStatus = OK
  const tau = conMinusDis / Math.sqrt(total - goldTies) / Math.sqrt(total - runTies)
  return tau > 1 ? 1 : tau < -1 ? -1 : tau
}

/**
 * tau-b of the gathered scores s.gold[0..n) and s.run[0..n) (finite, n >= 2); NaN with
 * `lastStatus` set when a side is constant.
 */
const tauOf = (s: Scratch, n: number): number => {
  const values = s.rank.subarray(0, n)
  keysOf(s.gold, n, values, s.keyGold)
  keysOf(s.run, n, values, s.keyRun)
  return tauOfKeys(s.keyGold, s.keyRun, n, 2 * n + 1, 2 * n + 1, s)
}

// ---------------------------------------------------------------------------------------------
// Resampling: keys of whole arrays, computed once

/**
 * The keys of a whole (finite) array, dense (0 .. keys - 1), and the copy they were computed from.
 * A resample of an array is a multiset of its elements, so their keys, looked up, order it and tie
 * exactly where it ties: `kendallAt` needs no sort of its own, only counting sorts.
 */
interface Keyed {
  readonly copy: Float64Array
  readonly key: Int32Array
  readonly keys: number
}

/**
 * Keys of the arrays `kendallAt` is called on, which resampling passes again and again (the gold,
 * each run). Checked against a copy of the array on every use, so an array changed since (as
 * approximate randomisation changes its shuffled runs) is keyed afresh, never read stale; held
 * weakly, so they go with their arrays.
 */
const keyed = new WeakMap<Float64Array, Keyed>()

const keyedOf = (v: Float64Array): Keyed | undefined => {
  const known = keyed.get(v)
  if (known !== undefined) {
    const { copy } = known
    let i = 0
    while (i < v.length && v[i] === copy[i]) i++
    if (i === v.length) return known
  }
  if (anyNonFinite(v)) return undefined
  const n = v.length
  const raw = new Int32Array(n)
  keysOf(v, n, new Float64Array(n), raw)
  // dense: the keys in use, in order, numbered from 0
  const slot = new Int32Array(2 * n + 1)
  for (let i = 0; i < n; i++) slot[raw[i]] = 1
  let keys = 0
  for (let k = 0; k < slot.length; k++) if (slot[k] === 1) slot[k] = keys++
  for (let i = 0; i < n; i++) raw[i] = slot[raw[i]]
  const entry = { copy: v.slice(), key: raw, keys }
  keyed.set(v, entry)
  return entry
}

const reasonOf = (status: number): string =>
  status === RUN_CONST ? Reason.runConstant : status === GOLD_CONST ? Reason.goldConstant : Reason.bothConstant

/**
 * Kendall's tau-b between the gold and the run (gold first, as every metric takes them), or why it
 * is undefined: fewer than 2 pairs, a constant side, a non-finite score. Equals
 * `scipy.stats.kendalltau(gold, run).statistic`. Throws a RangeError when the lengths differ.
 *
 * @example
 * ```ts
 * import { Kendall } from "@stseval/metrics"
 *
 * // scipy.stats.kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]).statistic: -0.47140452079103173
 * Kendall.kendall(new Float64Array([12, 2, 1, 12, 2]), new Float64Array([1, 4, 7, 1, 0]))
 * ```
 * @since 0.3.0
 */
export const kendall = (gold: Float64Array, run: Float64Array): MetricValue => {
  sameLength("kendall", run, gold)
  const n = gold.length
  if (n < 2) return undefined_(Reason.fewerThanTwoPairs)
  if (anyNonFinite(run)) return undefined_(Reason.runNotFinite)
  if (anyNonFinite(gold)) return undefined_(Reason.goldNotFinite)
  const s = scratchFor(n)
  s.gold.set(gold)
  s.run.set(run)
  const tau = tauOf(s, n)
  return lastStatus === OK ? defined(tau) : undefined_(reasonOf(lastStatus))
}

/**
 * Kendall's tau-b over the pairs `idx[0..n)` (an index multiset, e.g. one bootstrap resample:
 * a pair drawn twice is two tied pairs): the figure of resampling; NaN when undefined (fewer than
 * 2 pairs, a constant side, a non-finite score). The first call on an array ranks it whole and
 * keeps its keys (checked against a copy on every later call): each resample then costs two
 * counting sorts and the discordance count, O(n log n) with no comparison sort.
 *
 * @example
 * ```ts
 * import { Kendall } from "@stseval/metrics"
 *
 * const gold = new Float64Array([1, 2, 3, 4])
 * const run = new Float64Array([1, 3, 2, 4])
 * // one bootstrap resample: tau-b over pairs 0, 0, 2 and 3 (pair 0 drawn twice)
 * Kendall.kendallAt(gold, run, new Int32Array([0, 0, 2, 3]), 4)
 * ```
 * @since 0.3.0
 */
export const kendallAt = (gold: Float64Array, run: Float64Array, idx: Int32Array | Uint32Array, n: number = idx.length): number => {
  if (n < 2) return Number.NaN
  const s = scratchFor(n)
  const kg = keyedOf(gold)
  const kr = kg === undefined ? undefined : keyedOf(run)
  if (kg !== undefined && kr !== undefined) {
    const { keyGold, keyRun } = s
    for (let k = 0; k < n; k++) {
      const j = idx[k]
      keyGold[k] = kg.key[j]
      keyRun[k] = kr.key[j]
    }
    return tauOfKeys(keyGold, keyRun, n, kg.keys, kr.keys, s)
  }
  // a non-finite score somewhere in the arrays: gather the pairs and check them
  return gatherFinite(gold, run, idx, n, s.gold, s.run) ? tauOf(s, n) : Number.NaN
}

/**
 * Kendall's tau-b as a metric descriptor (`Metrics.get("kendall")`): a correlation, higher is
 * better, a missing dataset counts as 0 under the `zero` rule; resampled by `kendallAt`.
 *
 * @example
 * ```ts
 * import { Kendall } from "@stseval/metrics"
 *
 * // the descriptor an edition names with `metric: kendall` (Metrics.get("kendall")):
 * // one concordant pair more than discordant
 * Kendall.metric.compute(new Float64Array([1, 2, 3]), new Float64Array([1, 3, 2])) // tau-b = 1/3
 * ```
 * @since 0.3.0
 */
export const metric: ScoresMetric = {
  name: "kendall",
  label: "Kendall's tau-b",
  symbol: "tau",
  description: "Kendall's tau-b between the run's and the gold scores, ties handled as scipy.stats.kendalltau (variant b)",
  ...correlationTraits,
  compute: (gold, run) => kendall(gold, run),
  resampling: { by: "ranks", at: (gold, run, idx, n) => kendallAt(gold, run, idx, n) }
}
