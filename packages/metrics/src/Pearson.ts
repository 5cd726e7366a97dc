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

// Status codes of the raw kernel, so the allocation-free path and the labelled path share one loop.
const OK = 0
const FEW = 1
const X_CONST = 2
const Y_CONST = 3
const BOTH_CONST = 4
const X_NONFINITE = 5
const Y_NONFINITE = 6

let lastStatus = OK

const reasonOf = (status: number): string => {
  switch (status) {
    case FEW:
      return Reason.fewerThanTwoPairs
    case X_CONST:
      return Reason.runConstant
    case Y_CONST:
      return Reason.goldConstant
    case BOTH_CONST:
      return Reason.bothConstant
    case X_NONFINITE:
      return Reason.runNotFinite
    default:
      return Reason.goldNotFinite
  }
}

/**
 * The general kernel behind `pearsonRaw` and `pearsonAt`: pairs `idx[0..n)` (or `0..n)` without
 * `idx`). Sets `lastStatus`; returns NaN when r is undefined. The two exported functions run their
 * own monomorphic copy of the ordinary case (finite, non-constant, ordinary magnitude: the same
 * arithmetic as here with a scale of 1) and come here for everything else.
 *
 * "Constant" means every value equal (checked on the values, never inferred from a sum of squares
 * that underflowed), and a run or gold of extreme magnitude (1e300, subnormal 1e-320, one 1e308
 * outlier) is brought to unit scale by an exact power of two first (see `unitScale`), so r is
 * the same at any scale.
 */
const general = (x: Float64Array, y: Float64Array, idx: Int32Array | Uint32Array | undefined, n: number): number => {
  if (n < 2) {
    lastStatus = FEW
    return Number.NaN
  }
  const j0 = idx === undefined ? 0 : idx[0]
  const x0 = x[j0]
  const y0 = y[j0]
  // Pass 1: extremes and the shifted sums of the mean (reused as is at ordinary scale).
  let sx = 0
  let sy = 0
  let xmin = x0
  let xmax = x0
  let ymin = y0
  let ymax = y0
  for (let k = 0; k < n; k++) {
    const j = idx === undefined ? k : idx[k]
    const xi = x[j]
    const yi = y[j]
    sx += xi - x0
    sy += yi - y0
    if (xi < xmin) xmin = xi
    else if (xi > xmax) xmax = xi
    if (yi < ymin) ymin = yi
    else if (yi > ymax) ymax = yi
  }
  // A sum that is not finite is a NaN / Infinity score, or finite extremes whose differences overflow.
  if ((!Number.isFinite(sx) || !Number.isFinite(x0)) && anyNonFinite(x, idx, n)) {
    lastStatus = X_NONFINITE
    return Number.NaN
  }
  if ((!Number.isFinite(sy) || !Number.isFinite(y0)) && anyNonFinite(y, idx, n)) {
    lastStatus = Y_NONFINITE
    return Number.NaN
  }
  const xc = xmin === xmax
  const yc = ymin === ymax
  if (xc || yc) {
    lastStatus = xc && yc ? BOTH_CONST : xc ? X_CONST : Y_CONST
    return Number.NaN
  }
  const px = unitScale(Math.max(-xmin, xmax))
  const py = unitScale(Math.max(-ymin, ymax))
  if (px !== 1 || py !== 1) {
    sx = 0
    sy = 0
    for (let k = 0; k < n; k++) {
      const j = idx === undefined ? k : idx[k]
      sx += x[j] * px - x0 * px
      sy += y[j] * py - y0 * py
    }
  }
  const mx = x0 * px + sx / n
  const my = y0 * py + sy / n
  // Pass 2: corrected two-pass sums (Chan, Golub & LeVeque) at unit scale.
  let sxx = 0
  let syy = 0
  let sxy = 0
  let cx = 0
  let cy = 0
  for (let k = 0; k < n; k++) {
    const j = idx === undefined ? k : idx[k]
    const dx = x[j] * px - mx
    const dy = y[j] * py - my
    cx += dx
    cy += dy
    sxx += dx * dx
    syy += dy * dy
    sxy += dx * dy
  }
  return finish(n, sxx, syy, sxy, cx, cy)
}

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
  const n = x.length
  if (n < 2) return general(x, y, undefined, n)
  const x0 = x[0]
  const y0 = y[0]
  let sx = 0
  let sy = 0
  let xmin = x0
  let xmax = x0
  let ymin = y0
  let ymax = y0
  for (let i = 0; i < n; i++) {
    const xi = x[i]
    const yi = y[i]
    sx += xi - x0
    sy += yi - y0
    if (xi < xmin) xmin = xi
    else if (xi > xmax) xmax = xi
    if (yi < ymin) ymin = yi
    else if (yi > ymax) ymax = yi
  }
  if (!ordinary(sx, sy, xmin, xmax, ymin, ymax)) return general(x, y, undefined, n)
  const mx = x0 + sx / n
  const my = y0 + sy / n
  let sxx = 0
  let syy = 0
  let sxy = 0
  let cx = 0
  let cy = 0
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx
    const dy = y[i] - my
    cx += dx
    cy += dy
    sxx += dx * dx
    syy += dy * dy
    sxy += dx * dy
  }
  return finish(n, sxx, syy, sxy, cx, cy)
}

/** Finite, neither side constant, magnitudes where the plain sums are safe (scale 1). */
const ordinary = (sx: number, sy: number, xmin: number, xmax: number, ymin: number, ymax: number): boolean =>
  Number.isFinite(sx) &&
  Number.isFinite(sy) &&
  xmin !== xmax &&
  ymin !== ymax &&
  unitScale(Math.max(-xmin, xmax)) === 1 &&
  unitScale(Math.max(-ymin, ymax)) === 1

/** r from the corrected two-pass sums, or NaN with the status of the side without spread. */
const finish = (n: number, sxx: number, syy: number, sxy: number, cx: number, cy: number): number => {
  sxx -= (cx * cx) / n
  syy -= (cy * cy) / n
  sxy -= (cx * cy) / n
  // At unit scale two different values leave a sum of squares of at least ~2^-110: a side that
  // still has none is constant to within rounding (kept as a guard, not the definition).
  if (!(sxx > 0) || !(syy > 0)) {
    lastStatus = !(sxx > 0) && !(syy > 0) ? BOTH_CONST : !(sxx > 0) ? X_CONST : Y_CONST
    return Number.NaN
  }
  lastStatus = OK
  const r = sxy / rootProduct(sxx, syy)
  // Rounding can push |r| a hair past 1 on perfectly collinear data.
  return r > 1 ? 1 : r < -1 ? -1 : r
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
  return lastStatus === OK ? defined(r) : undefined_(reasonOf(lastStatus))
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
  if (n < 2) return Number.NaN
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
  if (!ordinary(sx, sy, xmin, xmax, ymin, ymax)) return general(x, y, idx, n)
  const mx = x0 + sx / n
  const my = y0 + sy / n
  let sxx = 0
  let syy = 0
  let sxy = 0
  let cx = 0
  let cy = 0
  for (let k = 0; k < n; k++) {
    const j = idx[k]
    const dx = x[j] - mx
    const dy = y[j] - my
    cx += dx
    cy += dy
    sxx += dx * dx
    syy += dy * dy
    sxy += dx * dy
  }
  return finish(n, sxx, syy, sxy, cx, cy)
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
  compute: (gold, run) => pearson(gold, run),
  resampling: { by: "sums", statistics: () => Moments.count, pair: Moments.pair, figure: Moments.pearson, shape: "invariant", centred: true }
}
