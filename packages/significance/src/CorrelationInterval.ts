/**
 * Confidence interval for one correlation via Fisher's z: tanh(atanh(r) +- z_{1-a/2} / sqrt(n - 3)).
 *
 * @since 0.1.0
 */
import { phiInv } from "./internal/distributions.js"
import * as V from "./internal/validate.js"
import type { IntervalResult, Outcome } from "./TestResult.js"

/**
 * @example
 * ```ts
 * import { CorrelationInterval, TestResult } from "@stseval/significance"
 *
 * // a 95% interval on r = 0.8 from 250 pairs, by Fisher's z
 * const interval = CorrelationInterval.fisher(0.8, 250)
 * if (!TestResult.isInvalid(interval)) interval.ci
 * ```
 * @since 0.1.0
 */
export const fisher = (r: number, n: number, confLevel = 0.95): Outcome<IntervalResult> => {
  const error = V.first(V.correlationOpen("r", r), V.sampleSize("n", n), V.level("confLevel", confLevel))
  if (error !== undefined) return error
  const half = phiInv(1 - (1 - confLevel) / 2) / Math.sqrt(n - 3)
  const z = Math.atanh(r)
  return { test: "fisher", ci: [Math.tanh(z - half), Math.tanh(z + half)], confLevel }
}
