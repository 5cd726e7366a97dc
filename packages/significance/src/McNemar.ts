/**
 * McNemar's test for paired accuracy (two runs' labels on the same pairs), on the discordant pairs:
 * b = pairs run A got right and run B wrong, c = the reverse.
 *
 * @since 0.1.0
 */
import binomialCdf from "@stdlib/stats-base-dists-binomial-cdf"
import { phi } from "./internal/distributions.js"
import { InvalidInput } from "./TestResult.js"
import type { Outcome } from "./TestResult.js"

/**
 * Which form: the exact binomial test, the continuity-corrected chi-square, or (default) either.
 *
 * @since 0.1.0
 */
export interface Options {
  /** `auto` (default): exact when b + c < 25. */
  readonly method?: "auto" | "exact" | "chisq"
}

/**
 * What McNemar's test gives (a two-sided p-value).
 *
 * @since 0.1.0
 */
export interface Result {
  readonly method: "exact" | "chisq"
  readonly b: number
  readonly c: number
  /** b for `exact` */
  readonly statistic: number
  readonly df?: number
  readonly pValue: number
}

/**
 * The exact binomial test when b + c < 25 (`auto`), else (|b - c| - 1)^2 / (b + c) on 1 df.
 *
 * @example
 * ```ts
 * import { McNemar, TestResult } from "@stseval/significance"
 *
 * const result = McNemar.test(40, 18)
 * if (!TestResult.isInvalid(result)) result.pValue
 * ```
 * @since 0.1.0
 */
export const test = (b: number, c: number, options: Options = {}): Outcome<Result> => {
  const bad = ([["b", b], ["c", c]] as const).find(([, v]) => !Number.isInteger(v) || v < 0)
  if (bad !== undefined) return new InvalidInput({ field: bad[0], expected: "a non-negative integer count", found: String(bad[1]) })
  const n = b + c
  const method = options.method ?? "auto"
  if (method === "exact" || (method === "auto" && n < 25)) {
    // two-sided exact: twice the smaller tail, capped at 1 (as R's binom.test for p = 1/2)
    const pValue = n === 0 ? 1 : Math.min(1, 2 * binomialCdf(Math.min(b, c), n, 0.5))
    return { method: "exact", b, c, statistic: b, pValue }
  }
  if (n === 0) return { method: "chisq", b, c, statistic: 0, df: 1, pValue: 1 }
  // as R's mcnemar.test(correct = TRUE): (|b - c| - 1)^2 / (b + c), also when b = c
  const d = Math.abs(b - c) - 1
  const statistic = (d * d) / n
  return { method: "chisq", b, c, statistic, df: 1, pValue: Math.min(1, 2 * phi(-Math.sqrt(statistic))) }
}

/**
 * The discordant counts b and c of two runs' labels against the gold's, then `test`: what
 * `compare` runs on labels (the result holds b and c).
 *
 * @example
 * ```ts
 * import { McNemar, TestResult } from "@stseval/significance"
 *
 * // two SICK runs' entailment labels against the gold
 * const result = McNemar.compareLabels(["NEUTRAL", "ENTAILMENT", "NEUTRAL"], ["NEUTRAL", "ENTAILMENT", "ENTAILMENT"], ["NEUTRAL", "NEUTRAL", "NEUTRAL"])
 * if (!TestResult.isInvalid(result)) result.pValue
 * ```
 * @since 0.2.0
 */
export const compareLabels = (
  gold: ReadonlyArray<string>,
  runA: ReadonlyArray<string>,
  runB: ReadonlyArray<string>,
  options: Options = {}
): Outcome<Result> => {
  if (runA.length !== gold.length || runB.length !== gold.length) {
    return new InvalidInput({ field: "labels", expected: `${gold.length} labels per run`, found: `${runA.length} and ${runB.length}` })
  }
  let b = 0
  let c = 0
  for (let i = 0; i < gold.length; i++) {
    const a = runA[i] === gold[i]
    const bb = runB[i] === gold[i]
    if (a && !bb) b++
    else if (!a && bb) c++
  }
  return test(b, c, options)
}
