// Input checks of the tests and intervals: an InvalidInput or undefined.
import { InvalidInput } from "../TestResult.js"
import type { Alternative, TestOptions } from "../TestResult.js"

const unless = (ok: boolean, field: string, expected: string, found: unknown): InvalidInput | undefined =>
  ok ? undefined : new InvalidInput({ field, expected, found: String(found) })

export const correlation = (field: string, r: number): InvalidInput | undefined =>
  unless(Number.isFinite(r) && r >= -1 && r <= 1, field, "a correlation in [-1, 1]", r)

/** Open: Fisher z of +-1 is infinite. */
export const correlationOpen = (field: string, r: number): InvalidInput | undefined =>
  unless(Number.isFinite(r) && r > -1 && r < 1, field, "a correlation strictly between -1 and 1", r)

/** Every test here divides by n - 3. */
export const sampleSize = (field: string, n: number): InvalidInput | undefined =>
  unless(Number.isInteger(n) && n > 3, field, "an integer number of pairs greater than 3", n)

export const level = (field: string, p: number): InvalidInput | undefined =>
  unless(Number.isFinite(p) && p > 0 && p < 1, field, "a number strictly between 0 and 1", p)

export const oneOf = (field: string, v: string, allowed: ReadonlyArray<string>, expected: string): InvalidInput | undefined =>
  unless(allowed.includes(v), field, expected, v)

export const alternative = (a: string): InvalidInput | undefined => oneOf("alternative", a, ["two.sided", "greater", "less"], "two.sided, greater or less")

export const count = (field: string, v: number, min: number): InvalidInput | undefined =>
  unless(Number.isInteger(v) && v >= min && v <= 10_000_000, field, `an integer from ${min} to 10,000,000`, v)

export const seed = (v: number): InvalidInput | undefined =>
  unless(Number.isInteger(v) && v >= 0 && v <= 0xffffffff, "seed", "an integer from 0 to 4294967295", v)

/** Tests only: the scores `finite` has read (every check of a score is one of its reads). */
export const scoresRead = { count: 0 }

/**
 * The first score of `v` that is not finite, at `field[i]`: v - v is 0 exactly when v is finite. A
 * plain loop (findIndex with a callback was most of this check), no Number.isFinite call a score
 * (uninlined in V8's first tiers: 26 ms of `rank --ci 95 --json` on 2,000 STS-B runs).
 */
export const finite = (field: string, v: Float64Array): InvalidInput | undefined => {
  const n = v.length
  let i = 0
  while (i < n && v[i] - v[i] === 0) i++
  scoresRead.count += Math.min(n, i + 1)
  return unless(i === n, `${field}[${i}]`, "a finite score", v[i])
}

export const labels = (field: string, v: ReadonlyArray<unknown>): InvalidInput | undefined => {
  const i = v.findIndex((l) => typeof l !== "string")
  return unless(i < 0, `${field}[${i}]`, "a label", v[i])
}

export const confidences = (field: string, c: unknown, n: number): InvalidInput | undefined => {
  if (!(c instanceof Float64Array) || c.length !== n) {
    return new InvalidInput({ field, expected: `a Float64Array of ${n} confidences`, found: c instanceof Float64Array ? String(c.length) : "something else" })
  }
  const i = c.findIndex((w) => !(Number.isFinite(w) && w >= 0))
  return unless(i < 0, `${field}[${i}]`, "a finite confidence >= 0", c[i])
}

/** An analytic test's options, by their defaults (two-sided, 95%) when left out. */
export const testOptions = (options: TestOptions | undefined): InvalidInput | undefined =>
  first(alternative(options?.alternative ?? "two.sided"), level("confLevel", options?.confLevel ?? 0.95))

/** An analytic test: its input and options checked (`check`), then `f` at the options' level and alternative (by default 95%, two-sided). */
export const checked = <I, A>(check: (input: I, options?: TestOptions) => InvalidInput | undefined, f: (input: I, confLevel: number, alternative: Alternative) => A) =>
(input: I, options?: TestOptions): A | InvalidInput => check(input, options) ?? f(input, options?.confLevel ?? 0.95, options?.alternative ?? "two.sided")

export const first = (...checks: ReadonlyArray<InvalidInput | undefined>): InvalidInput | undefined => checks.find((c) => c !== undefined)
