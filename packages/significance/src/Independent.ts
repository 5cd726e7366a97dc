/**
 * Two correlations from independent groups, as cocor's `cocor.indep.groups`: Fisher's z test
 * (1925; STS 2014's, one-tailed) and Zou's interval (2007).
 *
 * @since 0.1.0
 */
import { phiInv, pValue, zouInterval } from "./internal/distributions.js"
import * as V from "./internal/validate.js"
import type { IntervalResult, InvalidInput, TestOptions, TestResult } from "./TestResult.js"

/**
 * Two correlations from independent groups of sizes n1 and n2.
 *
 * @since 0.1.0
 */
export interface Input {
  readonly r1: number
  readonly r2: number
  readonly n1: number
  readonly n2: number
}

const check = (input: Input, options: TestOptions | undefined): InvalidInput | undefined =>
  V.first(
    V.correlationOpen("r1", input.r1),
    V.correlationOpen("r2", input.r2),
    V.sampleSize("n1", input.n1),
    V.sampleSize("n2", input.n2),
    V.testOptions(options)
  )

/**
 * Fisher's z: Z = (atanh r1 - atanh r2) / sqrt(1/(n1-3) + 1/(n2-3)), standard normal under H0.
 *
 * @example
 * ```ts
 * import { Independent, TestResult } from "@stseval/significance"
 *
 * // STS 2014's test: one-tailed Fisher z on independent correlations
 * const result = Independent.fisher1925({ r1: 0.76, r2: 0.71, n1: 750, n2: 450 }, { alternative: "greater" })
 * if (!TestResult.isInvalid(result)) result.pValue
 * ```
 * @since 0.1.0
 */
export const fisher1925 = V.checked(check, (input: Input, _, alternative): TestResult => {
  const statistic = (Math.atanh(input.r1) - Math.atanh(input.r2)) / Math.sqrt(1 / (input.n1 - 3) + 1 / (input.n2 - 3))
  return { test: "fisher1925", distribution: "z", statistic, pValue: pValue(statistic, alternative), alternative }
})

/**
 * Zou's (2007) interval for r1 - r2 from the two Fisher-z intervals; two-sided, as cocor's.
 *
 * @example
 * ```ts
 * import { Independent, TestResult } from "@stseval/significance"
 *
 * const interval = Independent.zou2007({ r1: 0.76, r2: 0.71, n1: 750, n2: 450 })
 * if (!TestResult.isInvalid(interval)) interval.ci // 95% interval of r1 - r2
 * ```
 * @since 0.1.0
 */
export const zou2007 = V.checked(check, ({ n1, n2, r1, r2 }: Input, confLevel): IntervalResult => {
  const z = phiInv(1 - (1 - confLevel) / 2)
  return { test: "zou2007", ci: zouInterval(r1, r2, z * Math.sqrt(1 / (n1 - 3)), z * Math.sqrt(1 / (n2 - 3)), 0), confLevel }
})
