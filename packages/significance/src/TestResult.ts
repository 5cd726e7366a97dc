/**
 * Shared shapes for the analytic tests: the alternative hypothesis, a test's result, an interval,
 * and the typed input error every test returns instead of throwing.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * The alternative hypothesis, named as in R and cocor. `greater` means the first correlation
 * (r_jk, or r1) is larger than the second.
 *
 * @since 0.1.0
 */
export type Alternative = "two.sided" | "greater" | "less"

/**
 * Result of a test with a statistic and a p-value. `df` is present for t statistics;
 * `ci` for tests that also give an interval (meng1992: on the Fisher-z scale, as cocor reports it).
 *
 * @since 0.1.0
 */
export interface TestResult {
  readonly test: string
  readonly distribution: "z" | "t"
  readonly statistic: number
  readonly df?: number
  readonly pValue: number
  readonly alternative: Alternative
  readonly ci?: readonly [lower: number, upper: number]
  readonly confLevel?: number
}

/**
 * Result of an interval-only procedure (zou2007): a confidence interval for r1 - r2.
 *
 * @since 0.1.0
 */
export interface IntervalResult {
  readonly test: string
  readonly ci: readonly [lower: number, upper: number]
  readonly confLevel: number
}

/**
 * Bad input to a test: which field, what was expected, what was found.
 *
 * @example
 * ```ts
 * import { Independent, TestResult } from "@stseval/significance"
 *
 * const result = Independent.fisher1925({ r1: 1.2, r2: 0.5, n1: 100, n2: 100 })
 * if (result instanceof TestResult.InvalidInput) console.error(result.message) // a correlation outside [-1, 1]
 * ```
 * @since 0.1.0
 */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  field: Schema.String,
  expected: Schema.String,
  found: Schema.String
}) {
  override get message() {
    return `${this.field}: expected ${this.expected}, found ${this.found}`
  }
}

/**
 * What every analytic test returns: the result, or the input error (tests never throw; the
 * numeric kernels stay synchronous). The error is the codebase's tagged error (`Schema.TaggedError`,
 * yieldable in an `Effect.gen`). Narrow with `isInvalid`.
 *
 * @since 0.1.0
 */
export type Outcome<A> = A | InvalidInput

/**
 * @example
 * ```ts
 * import { Independent, TestResult } from "@stseval/significance"
 *
 * const result = Independent.fisher1925({ r1: 0.7, r2: 0.6, n1: 2, n2: 100 })
 * TestResult.isInvalid(result) // true: n1 must be more than 3
 * ```
 * @since 0.1.0
 */
export const isInvalid = (u: unknown): u is InvalidInput => u instanceof InvalidInput


/**
 * Options common to the analytic tests.
 *
 * @since 0.1.0
 */
export interface TestOptions {
  /** Default `"two.sided"`. */
  readonly alternative?: Alternative
  /** Confidence level of intervals (meng1992, zou2007). Default 0.95. */
  readonly confLevel?: number
}
