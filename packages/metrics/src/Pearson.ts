/**
 * Pearson's product-moment correlation, as every STS and SICK scorer computes it:
 * r = sum((x-mx)(y-my)) / sqrt(sum((x-mx)^2) sum((y-my)^2)).
 *
 * Convention used throughout this package: `x` is the run (system scores), `y` is the gold,
 * aligned pair by pair (same index = same pair ID / line).
 *
 * Numerics: hand-written (no JS statistics library reports *why* r is undefined, or is
 * allocation-free over an index array for resampling). Means are taken relative to the first
 * element, and the second pass uses the corrected two-pass algorithm (Chan, Golub & LeVeque 1983):
 * sxx = sum(dx^2) - (sum dx)^2 / n, which removes the rounding error left in the mean. This stays
 * exact to ~1e-15 on scores offset by 1e9, where the one-pass textbook formula returns garbage.
 * Scores of extreme magnitude (1e300, subnormal 1e-320) are first brought to unit scale by an exact
 * power of two, and "constant" means every value equal: r is the same at any scale.
 *
 * @since 0.1.0
 */
import { anyNonFinite, rootProduct, sameLength, unitScale } from "./internal/check.js"
import { defined, Reason, undefined_ } from "./MetricValue.js"
import type { MetricValue } from "./MetricValue.js"
import type { ScoresMetric } from "./Metric.js"
import * as Moments from "./Moments.js"
import { correlationTraits } from "./internal/traits.js"
import { centred, centredSums, inOrder } from "./internal/centred.js"

// Why the last r is undefined (a `Reason`), or undefined when it is defined: the allocation-free
// path and the labelled path share one kernel.
let lastReason: string | undefined = undefined

const fail = (reason: string): number => {
  lastReason = reason
  return Number.NaN
}

// Pass 1's sums and extremes, kept here so that one loop serves the ordinary and the general path
// without allocating.
let sumX = 0
let sumY = 0
let minX = 0
let maxX = 0
let minY = 0
let maxY = 0

/** Pass 1 over the pairs `idx[0..n)`: the sums shifted to the first pair, and each side's extremes. */
const firstPass = (x: Float64Array, y: Float64Array, idx: Int32Array | Uint32Array, n: number): void => {
  const x0 = x[idx[0]]
  const y0 = y[idx[0]]
  let sx = 0
  let sy = 0
  let xmin = x0
  let xmax = x0
  let ymin = y0
  let ymax = y0
  for (let k = 0; k < n; k++) {
    const j = idx[k]
    const xi = x[j]
    const yi = y[j]
    sx += xi - x0
    sy += yi - y0
    if (xi < xmin) xmin = xi
    else if (xi > xmax) xmax = xi
    if (yi < ymin) ymin = yi
    else if (yi > ymax) ymax = yi
  }
  sumX = sx
  sumY = sy
  minX = xmin
  maxX = xmax
  minY = ymin
  maxY = ymax
}

/**
 * Pass 2 and r: the corrected two-pass sums (Chan, Golub & LeVeque) of the pairs brought to unit
 * scale by `px` / `py` (1 at ordinary scale: multiplying by 1 is exact), about the means `mx` / `my`.
 */
const fromMeans = (x: Float64Array, y: Float64Array, idx: Int32Array | Uint32Array, n: number, px: number, py: number, mx: number, my: number): number => {
  centredSums(x, y, idx, n, px, py, mx, my)
  const { cx, cy } = centred
  let { sxx, syy, sxy } = centred
  sxx -= (cx * cx) / n
  syy -= (cy * cy) / n
  sxy -= (cx * cy) / n
  // At unit scale two different values leave a sum of squares of at least ~2^-110: a side that
  // still has none is constant to within rounding (kept as a guard, not the definition).
  if (!(sxx > 0) || !(syy > 0)) {
    return fail(!(sxx > 0) && !(syy > 0) ? Reason.bothConstant : !(sxx > 0) ? Reason.runConstant : Reason.goldConstant)
  }
  lastReason = undefined
  const r = sxy / rootProduct(sxx, syy)
  // Rounding can push |r| a hair past 1 on perfectly collinear data.
  return r > 1 ? 1 : r < -1 ? -1 : r
}

/**
 * Everything but the ordinary case, after `firstPass`: a non-finite score, a constant side, or a
 * run or gold of extreme magnitude (1e300, subnormal 1e-320, one 1e308 outlier), brought to unit
 * scale by an exact power of two first (see `unitScale`), so r is the same at any scale.
 * "Constant" means every value equal (checked on the values, never inferred from a sum of squares
 * that underflowed).
 */
const general = (x: Float64Array, y: Float64Array, idx: Int32Array | Uint32Array, n: number): number => {
  const x0 = x[idx[0]]
  const y0 = y[idx[0]]
  // A sum that is not finite is a NaN / Infinity score, or finite extremes whose differences overflow.
  if ((!Number.isFinite(sumX) || !Number.isFinite(x0)) && anyNonFinite(x, idx, n)) return fail(Reason.runNotFinite)
  if ((!Number.isFinite(sumY) || !Number.isFinite(y0)) && anyNonFinite(y, idx, n)) return fail(Reason.goldNotFinite)
  const xc = minX === maxX
  const yc = minY === maxY
  if (xc || yc) return fail(xc && yc ? Reason.bothConstant : xc ? Reason.runConstant : Reason.goldConstant)
  const px = unitScale(Math.max(-minX, maxX))
  const py = unitScale(Math.max(-minY, maxY))
  let sx = sumX
  let sy = sumY
  if (px !== 1 || py !== 1) {
    sx = 0
    sy = 0
    for (let k = 0; k < n; k++) {
      const j = idx[k]
      sx += x[j] * px - x0 * px
      sy += y[j] * py - y0 * py
    }
  }
  return fromMeans(x, y, idx, n, px, py, x0 * px + sx / n, y0 * py + sy / n)
}

/** Finite, neither side constant, magnitudes where the plain sums are safe (scale 1). */
const ordinary = (): boolean =>
  Number.isFinite(sumX) &&
  Number.isFinite(sumY) &&
  minX !== maxX &&
  minY !== maxY &&
  unitScale(Math.max(-minX, maxX)) === 1 &&
  unitScale(Math.max(-minY, maxY)) === 1

/**
 * Pearson's r between the gold `y` and the run `x` (gold first, as every metric takes them), as a
 * plain number: NaN when undefined (fewer than 2 pairs, a constant side, a non-finite score).
 * Throws a RangeError when the lengths differ.
 *
 * @example
 * ```ts
 * import { Pearson } from "@stseval/metrics"
 *
 * // gold first; NaN (not a MetricValue) when undefined, for numeric loops
 * const r: number = Pearson.pearsonRaw(new Float64Array([1, 3, 2]), new Float64Array([1, 2, 3])) // 0.5
 * ```
 * @since 0.1.0
 */
export const pearsonRaw = (y: Float64Array, x: Float64Array): number => {
  sameLength("pearson", x, y)
  return pearsonAt(x, y, inOrder(x.length), x.length)
}

/**
 * Pearson's r between the gold and the run (gold first, as every metric takes them), or the
 * reason it is undefined: "fewer than 2 pairs", "the run is constant", "the gold is constant", a
 * non-finite score. Throws a RangeError when the lengths differ (a programmer error: align pairs
 * first).
 *
 * @example
 * ```ts
 * import { MetricValue, Pearson } from "@stseval/metrics"
 *
 * // hand-worked: gold 1 3 4 2, run 1 2 4 3: sxy = 4, sxx = syy = 5, r = 0.8
 * Pearson.pearson(new Float64Array([1, 3, 4, 2]), new Float64Array([1, 2, 4, 3])) // defined(0.8)
 * Pearson.pearson(new Float64Array([1, 2, 3]), new Float64Array([3, 3, 3])) // undefined_("the run is constant")
 * const r: number = MetricValue.getOrNaN(Pearson.pearson(new Float64Array([2, 4, 6]), new Float64Array([1, 2, 3]))) // 1
 * ```
 * @since 0.1.0
 */
export const pearson = (gold: Float64Array, run: Float64Array): MetricValue => {
  const r = pearsonRaw(gold, run)
  return lastReason === undefined ? defined(r) : undefined_(lastReason)
}

/**
 * Pearson's r over the pairs `idx[0..n)` (an index multiset, e.g. one bootstrap resample):
 * the hot kernel of resampling. Allocates nothing; returns NaN when undefined. Indices are not
 * bounds-checked (an out-of-range index reads `undefined` and gives NaN).
 *
 * @example
 * ```ts
 * import { Pearson } from "@stseval/metrics"
 *
 * const run = new Float64Array([1, 2, 4, 3])
 * const gold = new Float64Array([1, 3, 4, 2])
 * // r over one bootstrap resample of the pairs (pair 0 twice, pair 1 left out)
 * const r: number = Pearson.pearsonAt(run, gold, new Int32Array([0, 0, 2, 3]))
 * ```
 * @since 0.1.0
 */
export const pearsonAt = (
  x: Float64Array,
  y: Float64Array,
  idx: Int32Array | Uint32Array,
  n: number = idx.length
): number => {
  if (n < 2) return fail(Reason.fewerThanTwoPairs)
  firstPass(x, y, idx, n)
  if (!ordinary()) return general(x, y, idx, n)
  return fromMeans(x, y, idx, n, 1, 1, x[idx[0]] + sumX / n, y[idx[0]] + sumY / n)
}

/**
 * Pearson as a metric descriptor (`Metrics.get("pearson")`): resampled by its moments' sums.
 *
 * @example
 * ```ts
 * import { MetricValue, Pearson } from "@stseval/metrics"
 *
 * Pearson.metric.symbol // "r"
 * const r = MetricValue.getOrNaN(Pearson.metric.compute(new Float64Array([1, 3, 4, 2]), new Float64Array([1, 2, 4, 3]))) // 0.8
 * ```
 * @since 0.3.0
 */
export const metric: ScoresMetric = {
  name: "pearson",
  label: "Pearson",
  symbol: "r",
  description: "Pearson's product-moment correlation between the run's and the gold scores (every STS and SICK scorer)",
  ...correlationTraits,
  fewPairsCoverage: "percentile intervals of Pearson's r hold the true value less often than their level says (95% intervals: about 93% at 50 pairs, 91% at 30 and 10 on normal data)",
  compute: (gold, run) => pearson(gold, run),
  resampling: { by: "sums", statistics: () => Moments.count, pair: Moments.pair, figure: Moments.pearson, shape: "invariant", centred: true }
}
