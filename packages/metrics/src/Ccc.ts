/**
 * Lin's concordance correlation coefficient (Lin 1989, "A concordance correlation coefficient to
 * evaluate reproducibility", Biometrics 45: 255-268): how far the pairs lie from the line run =
 * gold, 2 s_xg / (s_x^2 + s_g^2 + (mean x - mean g)^2) with population (1/n) moments. Unlike
 * Pearson's r it penalises a shift or a change of scale. A metric declared by its statistics alone
 * (the moments of `Moments.ts`): significance resamples it with no other line of code.
 *
 * @since 0.5.0
 */
import { sameLength } from "./internal/check.js"
import { defined, Reason, undefined_ } from "./MetricValue.js"
import type { MetricValue } from "./MetricValue.js"
import type { ScoresMetric } from "./Metric.js"
import * as Moments from "./Moments.js"
import { correlationTraits } from "./internal/traits.js"
import { centred, centredSums, inOrder } from "./internal/centred.js"

/**
 * CCC of the run against the gold (gold first, as every metric takes them), by two passes (means,
 * then centred sums); undefined for fewer than 2 pairs, a non-finite score, or a run and a gold
 * that are the same constant.
 *
 * @example
 * ```ts
 * import { Ccc } from "@stseval/metrics"
 *
 * // hand-worked: gold 1 3 4 2, run 1 2 4 3: s_xg = 4/4, s_x^2 = s_g^2 = 5/4, same means: 0.8
 * Ccc.ccc(new Float64Array([1, 3, 4, 2]), new Float64Array([1, 2, 4, 3])) // defined(0.8)
 * // a shift by 1 costs: 2 * 4/4 / (5/4 + 5/4 + 1) = 4/7
 * Ccc.ccc(new Float64Array([1, 3, 4, 2]), new Float64Array([2, 4, 5, 3]))
 * ```
 * @since 0.5.0
 */
export const ccc = (gold: Float64Array, run: Float64Array): MetricValue => {
  sameLength("ccc", run, gold)
  const n = run.length
  if (n < 2) return undefined_(Reason.fewerThanTwoPairs)
  let mx = 0
  let mg = 0
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(run[i])) return undefined_(Reason.runNotFinite)
    if (!Number.isFinite(gold[i])) return undefined_(Reason.goldNotFinite)
    mx += run[i]
    mg += gold[i]
  }
  mx /= n
  mg /= n
  // the plain centred sums (CCC's definition: no correction for the rounding left in the means)
  centredSums(run, gold, inOrder(n), n, 1, 1, mx, mg)
  const { sxx, syy: sgg, sxy: sxg } = centred
  const shift = mx - mg
  const denominator = sxx + sgg + n * shift * shift
  if (!(denominator > 0)) return undefined_(Reason.bothConstant)
  const value = (2 * sxg) / denominator
  return Number.isFinite(value) ? defined(value) : undefined_(Reason.tooLarge)
}

/**
 * CCC as a metric descriptor (`Metrics.get("ccc")`): resampled by its moments' sums (`shifted`:
 * the centres matter, unlike Pearson's).
 *
 * @example
 * ```ts
 * import { Ccc } from "@stseval/metrics"
 *
 * Ccc.metric.symbol // "CCC"
 * ```
 * @since 0.5.0
 */
export const metric: ScoresMetric = {
  name: "ccc",
  label: "Lin's CCC",
  symbol: "CCC",
  description: "Lin's concordance correlation coefficient, 2 s_xg / (s_x^2 + s_g^2 + (mean x - mean g)^2) with population moments (Lin 1989): agreement with the line run = gold",
  ...correlationTraits,
  compute: (gold, run) => ccc(gold, run),
  resampling: { by: "sums", statistics: () => Moments.count, pair: Moments.pair, figure: Moments.ccc, shape: "shifted", centred: true }
}
