/**
 * Linear rescaling of a run onto the task's scale, as the STS 2017 analysis did for systems that
 * output 0-1: s' = min + (max - min) (s - min s) / (max s - min s); with the defaults (0, 5) this is
 * the paper's s' = 5 (s - min s) / (max s - min s). Pearson is unchanged by it; MSE is not.
 *
 * @since 0.1.0
 */
import { unitScale as unitScaleOf } from "./internal/check.js"

/**
 * True when every score equals the first (such a run cannot be rescaled, and has no correlation).
 *
 * @example
 * ```ts
 * import { Rescale } from "@stseval/metrics"
 *
 * Rescale.isConstant(new Float64Array([0.3, 0.3, 0.3])) // true
 * ```
 * @since 0.1.0
 */
export const isConstant = (x: Float64Array): boolean => {
  const v = x[0]
  for (let i = 1; i < x.length; i++) if (x[i] !== v) return false
  return true
}

/**
 * Map the run's observed range [min s, max s] linearly onto [min, max] (default 0-5).
 * An empty run gives an empty array. Throws a RangeError on a constant run (the range is empty:
 * check `isConstant` first and report the run's correlation as undefined), on a non-finite score,
 * or when min >= max.
 *
 * @example
 * ```ts
 * import { Rescale } from "@stseval/metrics"
 *
 * // a 0-1 system onto the 0-5 scale, as the STS 2017 analysis did: 5 (s - min) / (max - min)
 * Rescale.rescale(new Float64Array([0.2, 0.6, 1])) // Float64Array [0, 2.5 (to rounding), 5]
 * ```
 * @since 0.1.0
 */
export const rescale = (x: Float64Array, min: number = 0, max: number = 5): Float64Array => {
  if (!(min < max) || !Number.isFinite(min) || !Number.isFinite(max)) {
    throw new RangeError(`rescale: the target scale must satisfy min < max (got ${min}, ${max})`)
  }
  const n = x.length
  const out = new Float64Array(n)
  if (n === 0) return out
  let lo = x[0]
  let hi = x[0]
  for (let i = 0; i < n; i++) {
    const v = x[i]
    if (!Number.isFinite(v)) throw new RangeError(`rescale: score ${i + 1} is not finite (${v})`)
    if (v < lo) lo = v
    else if (v > hi) hi = v
  }
  if (lo === hi) throw new RangeError(`rescale: the run is constant (every score is ${lo}); it cannot be rescaled`)
  // At unit scale (an exact power of two): -1e308..1e308 has a span that overflows, subnormal
  // scores one that has lost its bits.
  const p = unitScaleOf(Math.max(-lo, hi))
  const span = hi * p - lo * p
  const target = max - min
  for (let i = 0; i < n; i++) {
    // Pin the extremes exactly: (hi - lo) / span is 1 but floating point need not say so.
    const v = x[i]
    out[i] = v === hi ? max : v === lo ? min : min + (target * (v * p - lo * p)) / span
  }
  return out
}

/**
 * The exact power of two p that brings scores whose largest magnitude is `maxAbs` to unit scale
 * (maxAbs * p in [0.5, 4); near 2^-52 for a subnormal maxAbs, p being at most 2^1022), or 1 when they are already where squares and cross products of any
 * realistic number of them neither overflow nor underflow ([2^-100, 2^100]), or when `maxAbs` is 0
 * or not finite. Multiplying by a power of two is exact, so a correlation computed on scores times
 * p is the one on the scores, at any scale (1e300, subnormal 1e-320), and bit-identical on ordinary
 * scores, which keep p = 1. Pearson, weighted Pearson, the aggregates and significance's resampling
 * kernels all scale this way.
 *
 * @example
 * ```ts
 * import { Rescale } from "@stseval/metrics"
 *
 * Rescale.unitScale(Rescale.maxAbs(new Float64Array([1e200, -3e200]))) * 3e200 // in [0.5, 4): an exact power of two
 * Rescale.unitScale(4.5) // 1: ordinary scores keep every bit
 * ```
 * @since 0.3.0
 */
export const unitScale: (maxAbs: number) => number = unitScaleOf

/**
 * The largest |x[i]| for i in [from, to) (default the whole array); 0 for an empty range. NaN is
 * ignored; an infinite score gives Infinity (for which `unitScale` is 1).
 *
 * @example
 * ```ts
 * import { Rescale } from "@stseval/metrics"
 *
 * Rescale.maxAbs(new Float64Array([2, -7, 3])) // 7
 * ```
 * @since 0.3.0
 */
export const maxAbs = (x: ArrayLike<number>, from: number = 0, to: number = x.length): number => {
  let m = 0
  for (let i = from; i < to; i++) {
    const v = Math.abs(x[i])
    if (v > m) m = v
  }
  return m
}
