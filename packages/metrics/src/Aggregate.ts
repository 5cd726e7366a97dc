/**
 * Aggregates of per-dataset figures across the datasets (tracks) of an edition. Output must
 * always say which one it shows:
 * - `wmean`: mean weighted by the number of scored pairs (the STS 2012-2016 official rule; a
 *   dataset the run did not submit enters with r = 0 and its full weight: the caller passes 0).
 * - `mean`: unweighted (the STS 2017 primary score over all seven tracks).
 * - `pooled`: Pearson over the concatenation of every dataset (STS 2012 "ALL").
 * - `allNrm`: each dataset's run least-squares fitted to its gold, then pooled (STS 2012 "ALLnrm").
 *
 * @since 0.1.0
 */
import { Reason, undefined_ } from "./MetricValue.js"
import type { MetricValue } from "./MetricValue.js"
import { pearson } from "./Pearson.js"
import { unitScale } from "./internal/check.js"
import { isConstant } from "./Rescale.js"
import { centred, centredSums, inOrder } from "./internal/centred.js"

/**
 * sum(v_i w_i) / sum(w_i), w_i = the dataset's scored pairs. NaN when the weights sum to 0
 * (no datasets); throws a RangeError when the lengths differ or a weight is negative.
 *
 * @example
 * ```ts
 * import { Aggregate } from "@stseval/metrics"
 *
 * // STS 2014's official figure: per-dataset r weighted by the pairs scored
 * Aggregate.wmean([0.7, 0.5], [750, 250]) // 0.65
 * ```
 * @since 0.1.0
 */
export const wmean = (values: ReadonlyArray<number>, weights: ReadonlyArray<number>): number => {
  if (values.length !== weights.length) {
    throw new RangeError(`wmean: ${values.length} values but ${weights.length} weights`)
  }
  let sw = 0
  let s = 0
  for (let i = 0; i < values.length; i++) {
    const w = weights[i]
    if (!(w >= 0)) throw new RangeError(`wmean: weight ${i + 1} is negative or NaN (${w})`)
    sw += w
    s += w * values[i]
  }
  return sw > 0 ? s / sw : Number.NaN
}

/**
 * Unweighted mean. NaN on an empty list.
 *
 * @example
 * ```ts
 * import { Aggregate } from "@stseval/metrics"
 *
 * // STS 2017's primary figure: the unweighted mean of the tracks
 * Aggregate.mean([0.7, 0.5, 0.6]) // 0.6
 * ```
 * @since 0.1.0
 */
export const mean = (values: ReadonlyArray<number>): number => {
  const n = values.length
  if (n === 0) return Number.NaN
  let s = 0
  for (let i = 0; i < n; i++) s += values[i]
  return s / n
}

const concat = (parts: ReadonlyArray<Float64Array>): Float64Array => {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Float64Array(n)
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

const checkParts = (what: string, xs: ReadonlyArray<Float64Array>, ys: ReadonlyArray<Float64Array>): void => {
  if (xs.length !== ys.length) throw new RangeError(`${what}: ${xs.length} runs but ${ys.length} golds`)
  for (let k = 0; k < xs.length; k++) {
    if (xs[k].length !== ys[k].length) {
      throw new RangeError(`${what}: dataset ${k + 1} has ${xs[k].length} run scores but ${ys[k].length} gold scores`)
    }
  }
}

/** A correlation of the gold and the run (gold first); Pearson unless a pooled figure names another. */
type Correlation = (gold: Float64Array, run: Float64Array) => MetricValue

/**
 * Pearson (or the `correlation` given, e.g. a metric descriptor's `compute`) over the
 * concatenation of every dataset's pairs (STS 2012 "ALL"): `xs[k]` is the run on dataset k, `ys[k]`
 * its gold.
 *
 * @example
 * ```ts
 * import { Aggregate } from "@stseval/metrics"
 *
 * // STS 2012 "ALL": Pearson over every dataset's pairs at once (runs first, then golds)
 * const all = Aggregate.pooled([new Float64Array([1, 2]), new Float64Array([4, 3])], [new Float64Array([1, 3]), new Float64Array([4, 2])])
 * ```
 * @since 0.1.0
 */
export const pooled = (xs: ReadonlyArray<Float64Array>, ys: ReadonlyArray<Float64Array>, correlation: Correlation = pearson): MetricValue => {
  checkParts("pooled", xs, ys)
  return correlation(concat(ys), concat(xs))
}

/**
 * Least-squares fit of the gold on the run within one dataset: the fitted values a + b x_i that
 * minimise sum((y_i - a - b x_i)^2), written into `out`. A constant run fits to the gold's mean
 * (the projection onto {1, x} is unique even when b is not). Corrected two-pass sums, at unit
 * scale (exact powers of two, see Pearson.ts), so runs and golds of any magnitude fit alike.
 */
const fitInto = (x: Float64Array, y: Float64Array, out: Float64Array, offset: number): void => {
  const n = x.length
  if (n === 0) return
  let xAbs = 0
  let yAbs = 0
  for (let i = 0; i < n; i++) {
    xAbs = Math.max(xAbs, Math.abs(x[i]))
    yAbs = Math.max(yAbs, Math.abs(y[i]))
  }
  const px = unitScale(xAbs)
  const py = unitScale(yAbs)
  const x0 = x[0] * px
  const y0 = y[0] * py
  let sx = 0
  let sy = 0
  for (let i = 0; i < n; i++) {
    sx += x[i] * px - x0
    sy += y[i] * py - y0
  }
  const mx = x0 + sx / n
  const my = y0 + sy / n
  centredSums(x, y, inOrder(n), n, px, py, mx, my)
  const { cx, cy } = centred
  const sxx = centred.sxx - (cx * cx) / n
  const sxy = centred.sxy - (cx * cy) / n
  // A constant run (every value equal) fits to the gold's mean.
  const b = sxx > 0 && !isConstant(x) ? sxy / sxx : 0
  const ym = my + cy / n
  const xm = mx + cx / n
  // Back to the gold's units: every dataset's fitted values are pooled with its gold.
  for (let i = 0; i < n; i++) out[offset + i] = (ym + b * (x[i] * px - xm)) / py
}

/**
 * The run of ALLnrm: within each dataset k the run `xs[k]` replaced by its least-squares fit to the
 * gold `ys[k]` (a + b x minimising sum (y - a - b x)^2; a constant run fits to the gold's mean),
 * concatenated in dataset order. ALLnrm is a correlation of these with the concatenated gold
 * (`allNrm`: Pearson's; significance takes another correlation metric's over the same values).
 * Scores are finite (checked by the caller).
 *
 * @example
 * ```ts
 * import { Aggregate } from "@stseval/metrics"
 *
 * Aggregate.fitted([new Float64Array([1, 2, 3])], [new Float64Array([2, 4, 6])]) // [2, 4, 6]
 * ```
 * @since 0.3.0
 */
export const fitted = (xs: ReadonlyArray<Float64Array>, ys: ReadonlyArray<Float64Array>): Float64Array => {
  checkParts("fitted", xs, ys)
  let n = 0
  for (const x of xs) n += x.length
  const out = new Float64Array(n)
  let o = 0
  for (let k = 0; k < xs.length; k++) {
    fitInto(xs[k], ys[k], out, o)
    o += xs[k].length
  }
  return out
}

/**
 * STS 2012 "ALLnrm": within each dataset the run's scores are replaced by their least-squares fit
 * to that dataset's gold (y ~ a + b x), then Pearson (or the `correlation` given) is taken over the
 * concatenation. A constant
 * run on a dataset contributes its gold's mean for every pair.
 *
 * @example
 * ```ts
 * import { Aggregate } from "@stseval/metrics"
 *
 * // STS 2012 "ALLnrm": each dataset's run fitted to its gold by least squares, then pooled
 * const allnrm = Aggregate.allNrm([new Float64Array([1, 2, 3]), new Float64Array([10, 30, 20])], [new Float64Array([1, 3, 2]), new Float64Array([2, 4, 3])])
 * ```
 * @since 0.1.0
 */
export const allNrm = (xs: ReadonlyArray<Float64Array>, ys: ReadonlyArray<Float64Array>, correlation: Correlation = pearson): MetricValue => {
  checkParts("allNrm", xs, ys)
  for (const x of xs) for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return undefined_(Reason.runNotFinite)
  for (const y of ys) for (let i = 0; i < y.length; i++) if (!Number.isFinite(y[i])) return undefined_(Reason.goldNotFinite)
  const r = correlation(concat(ys), fitted(xs, ys))
  // Every fitted dataset may collapse to its gold mean; say so in the run's terms.
  return r._tag === "Undefined" && r.reason === Reason.runConstant
    ? undefined_("every dataset's fitted run is constant (the run is constant within each dataset)")
    : r
}
