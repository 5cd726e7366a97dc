// Input checks shared by the analytic tests; each returns an InvalidInput or undefined.
import { InvalidInput } from "../TestResult.js"
import type { TestOptions } from "../TestResult.js"

export const correlation = (field: string, r: number): InvalidInput | undefined =>
  Number.isFinite(r) && r >= -1 && r <= 1
    ? undefined
    : new InvalidInput({ field, expected: "a correlation in [-1, 1]", found: String(r) })

/** Open interval: Fisher z of +-1 is infinite, so tests built on atanh need |r| < 1. */
export const correlationOpen = (field: string, r: number): InvalidInput | undefined =>
  Number.isFinite(r) && r > -1 && r < 1
    ? undefined
    : new InvalidInput({ field, expected: "a correlation strictly between -1 and 1", found: String(r) })

/** Every test here divides by n - 3, so at least 4 pairs. */
export const sampleSize = (field: string, n: number): InvalidInput | undefined =>
  Number.isInteger(n) && n > 3
    ? undefined
    : new InvalidInput({ field, expected: "an integer number of pairs greater than 3", found: String(n) })

export const level = (field: string, p: number): InvalidInput | undefined =>
  Number.isFinite(p) && p > 0 && p < 1
    ? undefined
    : new InvalidInput({ field, expected: "a number strictly between 0 and 1", found: String(p) })

export const alternative = (a: string): InvalidInput | undefined =>
  a === "two.sided" || a === "greater" || a === "less"
    ? undefined
    : new InvalidInput({ field: "alternative", expected: "two.sided, greater or less", found: a })

/** An analytic test's options, by their defaults (two-sided, 95%) when left out. */
export const testOptions = (options: TestOptions | undefined): InvalidInput | undefined =>
  first(alternative(options?.alternative ?? "two.sided"), level("confLevel", options?.confLevel ?? 0.95))

export const first = (...checks: ReadonlyArray<InvalidInput | undefined>): InvalidInput | undefined => {
  for (const c of checks) if (c !== undefined) return c
  return undefined
}
