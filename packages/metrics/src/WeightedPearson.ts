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
import { rootProduct, unitScale } from "./internal/check.js"
import * as Moments from "./Moments.js"
import { defined, Reason, undefined_ } from "./MetricValue.js"
import type { MetricValue } from "./MetricValue.js"
import type { ScoresMetric } from "./Metric.js"
import { correlationTraits } from "./internal/traits.js"

// Why the last r_w is undefined (a `Reason`), or undefined when it is defined.
let lastReason: string | undefined = undefined

const fail = (reason: string): number => {
  lastReason = reason
  return Number.NaN
}

/**
 * The weighted Pearson r as a plain number, NaN when undefined (see `weightedPearson`). Weights
 * may be any numeric array (Float64Array confidences, Uint32Array bootstrap counts). Allocates
 * nothing. Throws a RangeError when the lengths differ.
 *
 * @example
 * ```ts
 * import { WeightedPearson } from "@stseval/metrics"
 *
 * const gold = new Float64Array([1, 3, 4, 2])
 * const run = new Float64Array([1, 2, 4, 3])
 * // confidences 0-100 (STS 2013-2014): NaN when undefined
 * const r: number = WeightedPearson.weightedPearsonRaw(gold, run, new Float64Array([100, 50, 100, 0]))
 * ```
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
  // Pass 1: validate weights, find the first positively weighted pair, extremes of each side.
  let first = -1
  let positives = 0
  let wmax = 0
  let xmin = 0
  let xmax = 0
  let ymin = 0
  let ymax = 0
  let xBad = false
  let yBad = false
  for (let i = 0; i < n; i++) {
    const wi = w[i]
    if (!(wi >= 0) || wi === Infinity) return fail(Reason.weightsNotValid)
    if (wi === 0) continue
    const xi = x[i]
    const yi = y[i]
    if (first < 0) {
      first = i
      xmin = xmax = xi
      ymin = ymax = yi
    }
    positives++
    if (wi > wmax) wmax = wi
    if (!Number.isFinite(xi)) xBad = true
    if (!Number.isFinite(yi)) yBad = true
    if (xi < xmin) xmin = xi
    else if (xi > xmax) xmax = xi
    if (yi < ymin) ymin = yi
    else if (yi > ymax) ymax = yi
  }
  if (positives === 0) return fail(n === 0 ? Reason.fewerThanTwoPairs : Reason.weightsZero)
  if (xBad) return fail(Reason.runNotFinite)
  if (yBad) return fail(Reason.goldNotFinite)
  if (positives < 2) return fail(Reason.fewerThanTwoPairs)
  // "Constant" = every weighted value equal; extreme magnitudes (scores or weights) are brought to
  // unit scale by exact powers of two (see Pearson.ts), so r_w is the same at any scale.
  const xc = xmin === xmax
  const yc = ymin === ymax
  if (xc || yc) return fail(xc && yc ? Reason.bothConstant : xc ? Reason.runConstant : Reason.goldConstant)
  const px = unitScale(Math.max(-xmin, xmax))
  const py = unitScale(Math.max(-ymin, ymax))
  const pw = unitScale(wmax)
  // Pass 2: weighted sums shifted to the first weighted pair.
  const x0 = x[first] * px
  const y0 = y[first] * py
  let sw = 0
  let sx = 0
  let sy = 0
  for (let i = first; i < n; i++) {
    const wi = w[i] * pw
    if (wi === 0) continue
    sw += wi
    sx += wi * (x[i] * px - x0)
    sy += wi * (y[i] * py - y0)
  }
  const mx = x0 + sx / sw
  const my = y0 + sy / sw
  // Pass 3: corrected two-pass weighted (co)variances (the 1/sum(w) factors cancel in r_w).
  let sxx = 0
  let syy = 0
  let sxy = 0
  let cx = 0
  let cy = 0
  for (let i = first; i < n; i++) {
    const wi = w[i] * pw
    if (wi === 0) continue
    const dx = x[i] * px - mx
    const dy = y[i] * py - my
    cx += wi * dx
    cy += wi * dy
    sxx += wi * dx * dx
    syy += wi * dy * dy
    sxy += wi * dx * dy
  }
  sxx -= (cx * cx) / sw
  syy -= (cy * cy) / sw
  sxy -= (cx * cy) / sw
  // A guard only (see Pearson.ts): at unit scale different values leave a positive sum of squares.
  const xz = !(sxx > 0)
  const yz = !(syy > 0)
  if (xz || yz) return fail(xz && yz ? Reason.bothConstant : xz ? Reason.runConstant : Reason.goldConstant)
  lastReason = undefined
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
 * ```ts
 * import { WeightedPearson } from "@stseval/metrics"
 *
 * const gold = new Float64Array([1, 3, 4, 2])
 * const run = new Float64Array([1, 2, 4, 3])
 * // equal confidences give plain Pearson: defined(0.8)
 * WeightedPearson.weightedPearson(gold, run, new Float64Array(run.length).fill(100))
 * ```
 * @since 0.1.0
 */
export const weightedPearson = (
  y: Float64Array,
  x: Float64Array,
  w: Float64Array | Uint32Array | Int32Array
): MetricValue => {
  const r = weightedPearsonRaw(y, x, w)
  return lastReason === undefined ? defined(r) : undefined_(lastReason)
}

/**
 * The confidence-weighted Pearson of STS 2013-2014 as a metric descriptor
 * (`Metrics.get("weighted-pearson")`): it needs the run's confidences, and has no figure without
 * them.
 *
 * @example
 * ```ts
 * import { WeightedPearson } from "@stseval/metrics"
 *
 * const gold = new Float64Array([1, 3, 4, 2])
 * const run = new Float64Array([1, 2, 4, 3])
 * WeightedPearson.metric.compute(gold, run, new Float64Array([100, 100, 100, 100])) // defined(0.8)
 * WeightedPearson.metric.compute(gold, run) // undefined: no confidences
 * ```
 * @since 0.3.0
 */
export const metric: ScoresMetric = {
  name: "weighted-pearson",
  label: "Weighted Pearson",
  symbol: "r_w",
  description: "Pearson with each pair weighted by the run's confidence (0-100), as the STS 2013-2014 scorer computes it (Pozzi et al. 2012)",
  ...correlationTraits,
  needsConfidence: true,
  compute: (gold, run, confidence) =>
    confidence === undefined ? undefined_("the run gives no confidence on its lines") : weightedPearson(gold, run, confidence),
  // [1 if the confidence is not a weight, 1 if it is positive, w, w x, w x^2, w g, w g^2, w x g]
  resampling: {
    by: "sums",
    statistics: () => 8,
    pair: (gold, run, c, out, o) => {
      const bad = !(c >= 0) || c === Infinity
      const w = bad ? 0 : c
      out[o] = bad ? 1 : 0
      out[o + 1] = w > 0 ? 1 : 0
      out[o + 2] = w
      out[o + 3] = w * run
      out[o + 4] = w * run * run
      out[o + 5] = w * gold
      out[o + 6] = w * gold * gold
      out[o + 7] = w * run * gold
    },
    figure: (s, o) => (s[o] > 0 || s[o + 1] < 2 ? Number.NaN : Moments.pearson(s, o + 2)),
    centred: true
  }
}
