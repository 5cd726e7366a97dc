/**
 * The tests' shared shapes, and the input error every test returns instead of throwing.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * The alternative hypothesis, as in R and cocor: `greater`, the first correlation is larger.
 *
 * @since 0.1.0
 */
export type Alternative = "two.sided" | "greater" | "less"

/**
 * Result of a test: `df` for t statistics, `ci` for a test that gives one (meng1992's on the
 * Fisher-z scale, as cocor's).
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
 * Result of an interval-only procedure (zou2007).
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
 * What every test returns: the result, or the input error (synchronous, never thrown).
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
 * Options common to the tests, the analytic ones and the comparisons of runs.
 *
 * @since 0.1.0
 */
export interface TestOptions {
  /** `greater`: the first correlation (run A) is larger. Default `"two.sided"`. */
  readonly alternative?: Alternative
  /** Confidence level of intervals (meng1992's, zou2007's, the bootstrap's difference). Default 0.95. */
  readonly confLevel?: number
}
