/**
 * The moments of a pair, [1, x, x^2, g, g^2, x g] (x the run's value, g the gold's), and the
 * figures over their sums that several metrics share: what Pearson, standardised MSE and Lin's
 * CCC declare to resample (`Metric.Sums`), and the one place their resampled formulas live.
 *
 * @since 0.5.0
 */

/**
 * Moments per pair.
 *
 * @since 0.5.0
 */
export const count = 6

/**
 * Writes pair (g, x)'s moments at out[o ..].
 *
 * @example
 * ```ts
 * import { Moments } from "@stseval/metrics"
 *
 * const out = new Float64Array(Moments.count)
 * Moments.pair(4, 3, Number.NaN, out, 0) // out = [1, 3, 9, 4, 16, 12]
 * ```
 * @since 0.5.0
 */
export const pair = (gold: number, run: number, _confidence: number, out: Float64Array, o: number): void => {
  out[o] = 1
  out[o + 1] = run
  out[o + 2] = run * run
  out[o + 3] = gold
  out[o + 4] = gold * gold
  out[o + 5] = run * gold
}

/** Relative threshold below which a variance from sums counts as zero (a constant side). */
const EPS = 1e-13

/**
 * Pearson's r from the moments' sums [m, sx, sxx, sg, sgg, sxg] at s[o ..]: NaN when either side is
 * constant (its variance below 1e-13 of its sum of squares) or fewer than two pairs. `m` may be a
 * sum of weights (weighted Pearson's sums have this shape). The sums may
 * be about any centres (r does not change): significance's kernels centre each dataset first.
 *
 * @example
 * ```ts
 * import { Moments } from "@stseval/metrics"
 *
 * // gold 1 3 4 2, run 1 2 4 3: r = 0.8
 * Moments.pearson(Float64Array.of(4, 10, 30, 10, 30, 29), 0) // 0.8
 * ```
 * @since 0.5.0
 */
export const pearson = (s: Float64Array, o: number): number => {
  const m = s[o]
  const sx = s[o + 1]
  const sxx = s[o + 2]
  const sg = s[o + 3]
  const sgg = s[o + 4]
  const vx = m * sxx - sx * sx
  const vg = m * sgg - sg * sg
  // one pair (or none) leaves both variances 0
  if (!(vx > EPS * m * sxx) || !(vg > EPS * m * sgg)) return Number.NaN
  const r = (m * s[o + 5] - sx * sg) / Math.sqrt(vx * vg)
  return r > 1 ? 1 : r < -1 ? -1 : r
}

/**
 * Lin's concordance correlation coefficient from the moments' raw sums (population moments, as Lin
 * 1989): 2 s_xg / (s_x^2 + s_g^2 + (mean x - mean g)^2) = 2 (m sxg - sx sg) / ((m sxx - sx^2) +
 * (m sgg - sg^2) + (sx - sg)^2); NaN for fewer than two pairs, or when the run and the gold are
 * the same constant.
 *
 * @example
 * ```ts
 * import { Moments } from "@stseval/metrics"
 *
 * // gold 1 3 4 2, run 1 2 4 3: 2 * 4 / (5 + 5 + 0) = 0.8
 * Moments.ccc(Float64Array.of(4, 10, 30, 10, 30, 29), 0) // 0.8
 * ```
 * @since 0.5.0
 */
export const ccc = (s: Float64Array, o: number): number => {
  const m = s[o]
  const sx = s[o + 1]
  const sg = s[o + 3]
  const vx = m * s[o + 2] - sx * sx
  const vg = m * s[o + 4] - sg * sg
  const d = sx - sg
  const denominator = (vx > 0 ? vx : 0) + (vg > 0 ? vg : 0) + d * d
  if (!(m >= 2) || !(denominator > 0)) return Number.NaN
  return (2 * (m * s[o + 5] - sx * sg)) / denominator
}
