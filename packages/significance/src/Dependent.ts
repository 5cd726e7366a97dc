/**
 * Two dependent, overlapping correlations, as cocor's `cocor.dep.groups.overlap` (Diedenhofen &
 * Musch 2015): j is the gold, k and h two runs on the same n pairs: r_jk = r(gold, A), r_jh =
 * r(gold, B), r_kh = r(A, B). A test gives an `InvalidInput` when a correlation is outside [-1, 1],
 * n <= 3, or the determinant |R| of their correlation matrix is not positive.
 *
 * @since 0.1.0
 */
import { phiInv, pValue, zouInterval } from "./internal/distributions.js"
import { cube, sq } from "./internal/powers.js"
import { against, r } from "./internal/cocorInputs.js"
import * as V from "./internal/validate.js"
import type { IntervalResult, Outcome, TestOptions, TestResult } from "./TestResult.js"
import { InvalidInput } from "./TestResult.js"

/**
 * What a test of two dependent overlapping correlations takes: rJk = r(gold, A), rJh = r(gold, B),
 * rKh = r(A, B) and the number of pairs n.
 *
 * @since 0.1.0
 */
export interface Input {
  readonly rJk: number
  readonly rJh: number
  readonly rKh: number
  readonly n: number
}

/**
 * The test input for two runs scored on the same pairs: r_jk = r(gold, A), r_jh = r(gold, B),
 * r_kh = r(A, B) (Pearson), n = number of pairs.
 *
 * @example
 * ```ts
 * import { Dependent, TestResult } from "@stseval/significance"
 *
 * // gold and two runs on the same pairs (the scoring package gives them aligned)
 * const input = Dependent.inputFromScores(Float64Array.of(1, 2, 3, 4, 5, 6), Float64Array.of(1, 3, 2, 4, 6, 5), Float64Array.of(2, 1, 3, 5, 4, 6))
 * if (!TestResult.isInvalid(input)) Dependent.tests.williams1959(input)
 * ```
 * @since 0.1.0
 */
export const inputFromScores = (gold: Float64Array, runA: Float64Array, runB: Float64Array): Outcome<Input> => inputsAgainst(gold, runA)(runB)

/**
 * The inputs of run A against each of many runs B, bit for bit `inputFromScores(gold, runA, runB)`:
 * the gold and A centred and r(gold, A) computed once, each B centred once when asked for, so a pair
 * costs one pass over B and two cross sums, not three passes and three (the marks compare every run
 * with the best: 2,000 runs).
 *
 * @example
 * ```ts
 * import { Dependent } from "@stseval/significance"
 *
 * const gold = Float64Array.of(1, 2, 3, 4, 5, 6)
 * const inputOf = Dependent.inputsAgainst(gold, Float64Array.of(1, 3, 2, 4, 6, 5))
 * const input = inputOf(Float64Array.of(2, 1, 3, 5, 4, 6)) // as inputFromScores(gold, A, B)
 * ```
 * @since 0.5.0
 */
export const inputsAgainst = (gold: Float64Array, runA: Float64Array): (runB: Float64Array) => Outcome<Input> => {
  const sideOf = against(gold)
  let a: ReturnType<typeof sideOf> | undefined
  return (runB) => {
    // the lengths before any centring: a refused pair costs no pass
    const [field, wrong] = runA.length !== gold.length ? ["runA", runA] : ["runB", runB]
    if (wrong.length !== gold.length) return new InvalidInput({ field, expected: `${gold.length} scores per run (one per pair of the gold)`, found: `${wrong.length} scores` })
    a ??= sideOf(runA)
    const b = sideOf(runB)
    return { rJk: a.r, rJh: b.r, rKh: r(a.side, b.side), n: gold.length }
  }
}

// |R|, the determinant of the 3x3 correlation matrix of j, k, h
const determinant = ({ rJh, rJk, rKh }: Input): number =>
  1 + 2 * rJk * rJh * rKh - rJk * rJk - rJh * rJh - rKh * rKh

const check = (input: Input, options: TestOptions | undefined): InvalidInput | undefined => {
  const det = determinant(input)
  // A positive determinant also implies |r| < 1 for all three, so atanh below is finite.
  return V.first(
    V.correlation("rJk", input.rJk),
    V.correlation("rJh", input.rJh),
    V.correlation("rKh", input.rKh),
    V.sampleSize("n", input.n),
    V.testOptions(options)
  ) ?? (det > 0 ? undefined : new InvalidInput({
    field: "rJk, rJh, rKh",
    expected: "a positive definite correlation matrix (determinant > 0); identical runs give rKh = 1",
    found: `determinant ${det}`
  }))
}

/** A cocor test of a z (normal) or t (df = n - 3) statistic of the input and its |R|, the input checked first; a z may come with its interval at `confLevel`. */
const analytic = (test: string, t: boolean, statistic: (input: Input, confLevel: number, det: number) => number | InvalidInput | readonly [number, readonly [number, number]]) =>
V.checked(check, (input, confLevel, alternative): Outcome<TestResult> => {
  const s = statistic(input, confLevel, determinant(input))
  if (s instanceof InvalidInput) return s
  const x = typeof s === "number" ? s : s[0]
  const df = input.n - 3
  return t
    ? { test, distribution: "t", statistic: x, df, pValue: pValue(x, alternative, df), alternative }
    : { test, distribution: "z", statistic: x, pValue: pValue(x, alternative), alternative, ...(typeof s === "number" ? {} : { ci: s[1], confLevel }) }
})

/**
 * Dunn & Clark's z on Fisher-transformed correlations, with covariance term `c`. The variance
 * 2 - 2c of the difference is an approximation and can come out at or below 0 (c >= 1) for
 * correlations that are possible together (the determinant is positive): Hittner, May and Silver's
 * pooled covariance does for two runs that agree with each other far more than with the gold
 * (checked in test/Underflow.test.ts). cocor then prints NaN; here the test says why.
 */
const dunnClark = (test: string, n: number, rJk: number, rJh: number, c: number): number | InvalidInput =>
  2 - 2 * c > 0
    ? Math.sqrt(n - 3) * (Math.atanh(rJk) - Math.atanh(rJh)) / Math.sqrt(2 - 2 * c)
    : new InvalidInput({
      field: test,
      expected: "a positive variance term 2 - 2c (c: the covariance of the two Fisher z's); use williams1959 or steiger1980",
      found: `c = ${c.toPrecision(6)}, so 2 - 2c = ${(2 - 2 * c).toPrecision(6)}: the test's approximation breaks down for these correlations (r(gold, A) ${rJk.toFixed(4)}, r(gold, B) ${rJh.toFixed(4)})`
    })

/** Covariance of the two z's when both correlations are replaced by one pooled value `r`. */
const pooledCovariance = (r: number, rKh: number): number =>
  (rKh * (1 - 2 * sq(r)) - 0.5 * sq(r) * (1 - 2 * sq(r) - sq(rKh))) / sq(1 - sq(r))

/**
 * Zou's (2007) confidence interval for r_jk - r_jh (two-sided at `confLevel`). The difference is
 * significant at 1 - confLevel when the interval excludes 0.
 *
 * @example
 * ```ts
 * import { Dependent } from "@stseval/significance"
 *
 * Dependent.zou2007({ rJk: 0.85, rJh: 0.8, rKh: 0.75, n: 250 }) // Zou's 95% interval of rJk - rJh: excludes 0 when they differ
 * ```
 * @since 0.1.0
 */
export const zou2007 = V.checked(check, ({ n, rJh, rJk, rKh }: Input, confLevel): IntervalResult => {
  const x = phiInv(1 - (1 - confLevel) / 2) * Math.sqrt(1 / (n - 3))
  const c = ((rKh - 0.5 * rJk * rJh) * (1 - sq(rJk) - sq(rJh) - sq(rKh)) + cube(rKh)) /
    ((1 - sq(rJk)) * (1 - sq(rJh)))
  return { test: "zou2007", ci: zouInterval(rJk, rJh, x, x, c), confLevel }
})

/**
 * cocor's tests of two dependent overlapping correlations that give a statistic and p-value, by
 * their names in R's cocor (author and year): z statistics, or t with df = n - 3.
 *
 * @example
 * ```ts
 * import { Dependent, TestResult } from "@stseval/significance"
 *
 * const input = { rJk: 0.85, rJh: 0.8, rKh: 0.75, n: 250 }
 * Dependent.tests.williams1959(input, { alternative: "greater" }) // STS 2017's test
 * const meng = Dependent.tests.meng1992(input)
 * if (!TestResult.isInvalid(meng)) meng.ci // on the Fisher-z scale, as cocor's
 * ```
 * @since 0.1.0
 */
export const tests = {
  // Pearson and Filon's z (1898)
  pearson1898: analytic("pearson1898", false, ({ n, rJh, rJk, rKh }) => {
    const k = rKh * (1 - sq(rJk) - sq(rJh)) - 0.5 * rJk * rJh * (1 - sq(rJk) - sq(rJh) - sq(rKh))
    return Math.sqrt(n) * (rJk - rJh) / Math.sqrt(sq(1 - sq(rJk)) + sq(1 - sq(rJh)) - 2 * k)
  }),
  // Hotelling's t (1940)
  hotelling1940: analytic("hotelling1940", true, ({ n, rJh, rJk, rKh }, _, det) =>
    (rJk - rJh) * Math.sqrt((n - 3) * (1 + rKh)) / Math.sqrt(2 * det)),
  // Williams' t (1959) in cocor's form (SPEC §4; no absolute values), STS 2017's test:
  // t = (r_jk - r_jh) sqrt((n-1)(1+r_kh) / (2 ((n-1)/(n-3)) |R| + rbar^2 (1-r_kh)^3))
  williams1959: analytic("williams1959", true, ({ n, rJh, rJk, rKh }, _, det) => {
    const rMean = (rJk + rJh) / 2
    return (rJk - rJh) *
      Math.sqrt(((n - 1) * (1 + rKh)) / (2 * ((n - 1) / (n - 3)) * det + sq(rMean) * cube(1 - rKh)))
  }),
  // Olkin's z (1967)
  olkin1967: analytic("olkin1967", false, ({ n, rJh, rJk, rKh }) =>
    (rJk - rJh) * Math.sqrt(n) /
    Math.sqrt(
      sq(1 - sq(rJk)) + sq(1 - sq(rJh)) - 2 * cube(rKh) -
        (2 * rKh - rJk * rJh) * (1 - sq(rJk) - sq(rJh) - sq(rKh))
    )),
  // Dunn and Clark's z (1969)
  dunn1969: analytic("dunn1969", false, ({ n, rJh, rJk, rKh }) => {
    const c = (rKh * (1 - sq(rJk) - sq(rJh)) - 0.5 * (rJk * rJh) * (1 - sq(rJk) - sq(rJh) - sq(rKh))) /
      ((1 - sq(rJk)) * (1 - sq(rJh)))
    return dunnClark("dunn1969", n, rJk, rJh, c)
  }),
  // Hendrickson, Stanley and Hills' (1970) modification of Williams' t
  hendrickson1970: analytic("hendrickson1970", true, ({ n, rJh, rJk, rKh }, _, det) =>
    (rJk - rJh) * Math.sqrt((n - 3) * (1 + rKh)) /
      Math.sqrt(2 * det + (sq(rJk - rJh) * cube(1 - rKh)) / (4 * (n - 1)))),
  // Steiger's (1980) modification of Dunn and Clark's z, pooling r_jk and r_jh by their mean
  steiger1980: analytic("steiger1980", false, ({ n, rJh, rJk, rKh }) =>
    dunnClark("steiger1980", n, rJk, rJh, pooledCovariance((rJk + rJh) / 2, rKh))),
  // Meng, Rosenthal and Rubin's z (1992); its `ci` is cocor's interval for atanh(r_jk) - atanh(r_jh)
  // (on the Fisher-z scale), two-sided at `confLevel`
  meng1992: analytic("meng1992", false, ({ n, rJh, rJk, rKh }, confLevel) => {
    const r2Mean = (sq(rJk) + sq(rJh)) / 2
    const f = Math.min(1, (1 - rKh) / (2 * (1 - r2Mean)))
    const h = (1 - f * r2Mean) / (1 - r2Mean)
    const zDifference = Math.atanh(rJk) - Math.atanh(rJh)
    const half = phiInv(1 - (1 - confLevel) / 2) * Math.sqrt((2 * (1 - rKh) * h) / (n - 3))
    return [zDifference * Math.sqrt((n - 3) / (2 * (1 - rKh) * h)), [zDifference - half, zDifference + half]]
  }),
  // Hittner, May and Silver's (2003), pooling by the back-transformed mean Fisher z
  hittner2003: analytic("hittner2003", false, ({ n, rJh, rJk, rKh }) =>
    dunnClark("hittner2003", n, rJk, rJh, pooledCovariance(Math.tanh((Math.atanh(rJk) + Math.atanh(rJh)) / 2), rKh)))
} as const

/**
 * A test of two dependent overlapping correlations, by its name in R's cocor package (author and
 * year).
 *
 * @since 0.1.0
 */
export type TestName = keyof typeof tests

/**
 * Names of the tests that give a statistic and p-value, in `tests`' order.
 *
 * @example
 * ```ts
 * import { Dependent } from "@stseval/significance"
 *
 * Dependent.testNames.includes("williams1959") // true
 * ```
 * @since 0.1.0
 */
export const testNames = Object.keys(tests) as ReadonlyArray<TestName>
