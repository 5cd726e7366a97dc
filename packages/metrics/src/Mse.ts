/**
 * Mean squared error between the run and the gold.
 *
 * `mse` is the official SICK figure: the organisers' R scorer computes mean((x-y)^2) on the **raw**
 * scores (this reproduces every published MSE, e.g. ECNU 0.325). The guidelines speak of
 * "standardized scores": that variant is `standardisedMse`, a separate, labelled metric; on
 * z-scores with the population SD it equals 2(1 - r).
 *
 * @since 0.1.0
 */
import { anyNonFinite, sameLength, unitScale } from "./internal/check.js"
import * as Moments from "./Moments.js"
import { defined, Reason, undefined_ } from "./MetricValue.js"
import type { MetricValue } from "./MetricValue.js"
import type { ScoresMetric } from "./Metric.js"
import { isConstant } from "./Rescale.js"
import { squaredErrorTraits } from "./internal/traits.js"

/**
 * mean((x - y)^2) between the gold `y` and the run `x` (gold first, as every metric takes them)
 * on the raw scores: the official SICK MSE. Undefined on zero pairs, a non-finite score, or a mean
 * too large for a double (scores near 1e200); throws a RangeError when the lengths differ.
 *
 * @example
 * ```ts
 * import { Mse } from "@stseval/metrics"
 *
 * // raw scores, as the official SICK scorer: mean((gold - run)^2)
 * Mse.mse(new Float64Array([1, 2, 3]), new Float64Array([1, 2, 5])) // defined(1.3333...)
 * ```
 * @since 0.1.0
 */
export const mse = (y: Float64Array, x: Float64Array): MetricValue => {
  sameLength("mse", x, y)
  const n = x.length
  if (n === 0) return undefined_(Reason.noPairs)
  let s = 0
  for (let i = 0; i < n; i++) {
    const d = x[i] - y[i]
    s += d * d
  }
  if (Number.isFinite(s)) return defined(s / n)
  if (anyNonFinite(x)) return undefined_(Reason.runNotFinite)
  if (anyNonFinite(y)) return undefined_(Reason.goldNotFinite)
  // Finite scores whose squared errors overflow: sum again at unit scale, then scale back.
  let maxAbs = 0
  for (let i = 0; i < n; i++) maxAbs = Math.max(maxAbs, Math.abs(x[i]), Math.abs(y[i]))
  const p = unitScale(maxAbs)
  s = 0
  for (let i = 0; i < n; i++) {
    const d = x[i] * p - y[i] * p
    s += d * d
  }
  const m = s / n / p / p
  return Number.isFinite(m) ? defined(m) : undefined_(Reason.tooLarge)
}

// Population mean and SD, corrected two-pass (see Pearson.ts), of x scaled by p (an exact power of
// two, so that scores of any magnitude neither overflow nor underflow). sd = 0 for a constant side.
const moments = (x: Float64Array, p: number, out: Float64Array): void => {
  const n = x.length
  const x0 = x[0] * p
  let s = 0
  for (let i = 0; i < n; i++) s += x[i] * p - x0
  const m = x0 + s / n
  let ss = 0
  let c = 0
  for (let i = 0; i < n; i++) {
    const d = x[i] * p - m
    c += d
    ss += d * d
  }
  ss -= (c * c) / n
  out[0] = m + c / n
  out[1] = ss > 0 ? Math.sqrt(ss / n) : 0
}

const maxAbsOf = (x: Float64Array): number => {
  let m = 0
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]))
  return m
}


/**
 * MSE on z-scores between the gold `y` and the run `x` (gold first), each side standardised with
 * its own mean and **population** SD. Equals 2(1 - r). Labelled separately from the official raw
 * `mse`. Undefined when a side is constant (no z-scores), on fewer than 2 pairs, or on a
 * non-finite score.
 *
 * @example
 * ```ts
 * import { Mse } from "@stseval/metrics"
 *
 * // MSE of the z-scores: 2 (1 - r) with population standard deviations
 * Mse.standardisedMse(new Float64Array([1, 3, 4, 2]), new Float64Array([1, 2, 4, 3])) // defined(0.4)
 * ```
 * @since 0.1.0
 */
export const standardisedMse = (y: Float64Array, x: Float64Array): MetricValue => {
  sameLength("standardisedMse", x, y)
  const n = x.length
  if (n < 2) return undefined_(Reason.fewerThanTwoPairs)
  for (let i = 0; i < n; i++) if (!Number.isFinite(x[i])) return undefined_(Reason.runNotFinite)
  for (let i = 0; i < n; i++) if (!Number.isFinite(y[i])) return undefined_(Reason.goldNotFinite)
  const mx = new Float64Array(2)
  const my = new Float64Array(2)
  // z-scores do not depend on the scale: each side is standardised at unit scale.
  const px = unitScale(maxAbsOf(x))
  const py = unitScale(maxAbsOf(y))
  moments(x, px, mx)
  moments(y, py, my)
  const xc = isConstant(x) || mx[1] === 0
  const yc = isConstant(y) || my[1] === 0
  if (xc || yc) return undefined_(xc && yc ? Reason.bothConstant : xc ? Reason.runConstant : Reason.goldConstant)
  let s = 0
  for (let i = 0; i < n; i++) {
    const d = (x[i] * px - mx[0]) / mx[1] - (y[i] * py - my[0]) / my[1]
    s += d * d
  }
  return defined(s / n)
}

/**
 * The official SICK MSE as a metric descriptor (`Metrics.get("mse")`): lower is better, and a
 * missing dataset has no value to count as.
 *
 * @example
 * ```ts
 * import { Metric, Mse } from "@stseval/metrics"
 *
 * Mse.metric.direction // "lower": the smallest MSE is the best
 * Metric.better(Mse.metric, 0.32, 0.75) // true
 * ```
 * @since 0.3.0
 */
export const metric: ScoresMetric = {
  name: "mse",
  label: "MSE",
  symbol: "MSE",
  description: "mean squared error on the raw scores, mean((run - gold)^2), as the official SemEval-2014 Task 1 R scorer computes it",
  ...squaredErrorTraits,
  compute: (gold, run) => mse(gold, run),
  // [1, (x - g)^2]: the mean of the squared errors, with no cancellation
  resampling: {
    by: "sums",
    statistics: () => 2,
    pair: (gold, run, _c, out, o) => {
      const e = run - gold
      out[o] = 1
      out[o + 1] = e * e
    },
    figure: (s, o) => (s[o] > 0 ? s[o + 1] / s[o] : Number.NaN)
  }
}

/**
 * The MSE of z-scores as a metric descriptor (`Metrics.get("standardised-mse")`), labelled apart
 * from the official MSE.
 *
 * @example
 * ```ts
 * import { Mse } from "@stseval/metrics"
 *
 * const label: string = Mse.standardisedMetric.label
 * const value = Mse.standardisedMetric.compute(new Float64Array([1, 3, 4, 2]), new Float64Array([1, 2, 4, 3])) // defined(0.4)
 * ```
 * @since 0.3.0
 */
export const standardisedMetric: ScoresMetric = {
  name: "standardised-mse",
  label: "MSE (z-scores)",
  symbol: "MSE (z)",
  description: "mean squared error of the z-scores (population SD) = 2(1 - r); the task guidelines' 'standardized scores', not the official figure",
  ...squaredErrorTraits,
  compute: (gold, run) => standardisedMse(gold, run),
  // the MSE of population z-scores is 2 (1 - r): Pearson's moments
  resampling: { by: "sums", statistics: () => Moments.count, pair: Moments.pair, figure: (s, o) => 2 * (1 - Moments.pearson(s, o)), shape: "invariant", centred: true }
}
