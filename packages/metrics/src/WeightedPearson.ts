/**
 * Confidence-weighted Pearson correlation, the STS 2013-2014 official scorer's variant
 * (Pozzi et al. 2012): each pair is weighted by the run's confidence w_i (0-100, the optional
 * second field of a run line). Weighted means mx = sum(w x) / sum(w); weighted (co)variances
 * cov_w(x, y) = sum(w (x - mx)(y - my)) / sum(w); r_w = cov_w(x, y) / sqrt(cov_w(x, x) cov_w(y, y)).
 * Constant (positive) weights give plain Pearson. Pairs with weight 0 do not count.
 *
 * Also serves resampling: a bootstrap resample given as per-pair counts is a weighted Pearson
 * with integer weights (`weightedPearsonRaw(x, gold, counts)`).
 *
 * @since 0.1.0
 */
import { rootProduct } from "./internal/check.js"
import { defined, Reason, undefined_ } from "./MetricValue.js"
import type { MetricValue } from "./MetricValue.js"

const OK = 0
const FEW = 1
const X_CONST = 2
const Y_CONST = 3
const BOTH = 4
const X_NF = 5
const Y_NF = 6
const W_BAD = 7
const W_ZERO = 8
let lastStatus = OK

const reasonOf = (s: number): string =>
  s === FEW
    ? Reason.fewerThanTwoPairs
    : s === X_CONST
      ? Reason.runConstant
      : s === Y_CONST
        ? Reason.goldConstant
        : s === BOTH
          ? Reason.bothConstant
          : s === X_NF
            ? Reason.runNotFinite
            : s === Y_NF
              ? Reason.goldNotFinite
              : s === W_BAD
                ? Reason.weightsNotValid
                : Reason.weightsZero

const fail = (s: number): number => {
  lastStatus = s
  return Number.NaN
}

/**
 * The weighted Pearson r as a plain number, NaN when undefined (see `weightedPearson`). Weights
 * may be any numeric array (Float64Array confidences, Uint32Array bootstrap counts). Allocates
 * nothing. Throws a RangeError when the lengths differ.
 *
 * @since 0.1.0
 */
export const weightedPearsonRaw = (
  y: Float64Array,
  x: Float64Array,
  w: Float64Array | Uint32Array | Int32Array
): number => {
  const n = x.length
  if (y.length !== n || w.length !== n) {
    throw new RangeError(`weightedPearson: lengths differ (run ${n}, gold ${y.length}, weights ${w.length})`)
  }
  // Pass 1: validate, shift origin to the first positively weighted pair, weighted sums.
  let first = -1
  let positives = 0
  let sw = 0
  let sx = 0
  let sy = 0
  let x0 = 0
  let y0 = 0
  let xmin = 0
  let xmax = 0
  let ymin = 0
  let ymax = 0
  for (let i = 0; i < n; i++) {
    const wi = w[i]
    if (!(wi >= 0) || wi === Infinity) return fail(W_BAD)
    if (wi === 0) continue
    const xi = x[i]
    const yi = y[i]
    if (first < 0) {
      first = i
      x0 = xmin = xmax = xi
      y0 = ymin = ymax = yi
    }
    positives++
    sw += wi
    sx += wi * (xi - x0)
    sy += wi * (yi - y0)
    if (xi < xmin) xmin = xi
    else if (xi > xmax) xmax = xi
    if (yi < ymin) ymin = yi
    else if (yi > ymax) ymax = yi
  }
  if (positives === 0) return fail(n === 0 ? FEW : W_ZERO)
  if (!Number.isFinite(sx) || !Number.isFinite(x0)) return fail(X_NF)
  if (!Number.isFinite(sy) || !Number.isFinite(y0)) return fail(Y_NF)
  if (positives < 2) return fail(FEW)
  const mx = x0 + sx / sw
  const my = y0 + sy / sw
  // Pass 2: corrected two-pass weighted (co)variances (the 1/sum(w) factors cancel in r_w).
  let sxx = 0
  let syy = 0
  let sxy = 0
  let cx = 0
  let cy = 0
  for (let i = 0; i < n; i++) {
    const wi = w[i]
    if (wi === 0) continue
    const dx = x[i] - mx
    const dy = y[i] - my
    cx += wi * dx
    cy += wi * dy
    sxx += wi * dx * dx
    syy += wi * dy * dy
    sxy += wi * dx * dy
  }
  sxx -= (cx * cx) / sw
  syy -= (cy * cy) / sw
  sxy -= (cx * cy) / sw
  const xc = xmin === xmax || !(sxx > 0)
  const yc = ymin === ymax || !(syy > 0)
  if (xc || yc) return fail(xc && yc ? BOTH : xc ? X_CONST : Y_CONST)
  lastStatus = OK
  const r = sxy / rootProduct(sxx, syy)
  return r > 1 ? 1 : r < -1 ? -1 : r
}

/**
 * Confidence-weighted Pearson between the gold `y` and the run `x` (gold first, as every metric
 * takes them) with weights `w`, or why it is undefined: a negative or non-finite weight, every
 * weight zero, fewer than 2 weighted pairs, a constant side among the weighted pairs, a non-finite
 * score.
 *
 * @example
 * weightedPearson(gold, run, new Float64Array(run.length).fill(100)) // same as pearson(gold, run)
 * @since 0.1.0
 */
export const weightedPearson = (
  y: Float64Array,
  x: Float64Array,
  w: Float64Array | Uint32Array | Int32Array
): MetricValue => {
  const r = weightedPearsonRaw(y, x, w)
  return lastStatus === OK ? defined(r) : undefined_(reasonOf(lastStatus))
}
