/**
 * Issue 34: Student's t CDF of Williams' and Hotelling's tests, from 30 to 5,000 degrees of freedom
 * by the incomplete beta's continued fraction (a fifth of @stdlib's time: all pairs of 500 runs
 * are 124,750 tests), equal to @stdlib's (Boost's ibeta) to 1e-12 relative and to mpmath at 50
 * digits to 1e-13; outside that range, @stdlib's own value.
 */
import tCdf from "@stdlib/stats-base-dists-t-cdf"
import { describe, expect, it } from "vitest"
import { studentT } from "../src/internal/distributions.js"

/** The largest relative difference from @stdlib's over |x| from 1e-4 to 1e3, both signs. */
const worstAgainstStdlib = (df: number): number => {
  let worst = 0
  for (let e = -4; e <= 3; e += 0.02) {
    for (const x of [-(10 ** e), 10 ** e]) {
      const ref = tCdf(x, df)
      const got = studentT(x, df)
      // p past 1e-300 is printed with its log10 (Underflow.test.ts): here, only that it stays there
      if (ref < 1e-300) expect(got).toBeLessThan(1e-290)
      else worst = Math.max(worst, Math.abs(got - ref) / ref)
    }
  }
  return worst
}

describe("Student's t CDF", () => {
  it("equals @stdlib's to 1e-12 relative from 30 to 5,000 df (every df to 80, then the editions' sizes)", () => {
    const dfs = [...Array.from({ length: 51 }, (_, i) => 30 + i), 97, 247, 497, 1000, 1376, 2000, 4924, 5000]
    for (const df of dfs) expect(worstAgainstStdlib(df), `df ${df}`).toBeLessThan(1e-12)
  })

  it("agrees with mpmath at 50 digits (0.5 betainc(df/2, 1/2, 0, df / (df + x^2)) below 0) to 1e-13", () => {
    // mpmath 1.3, mp.dps = 50, rounded to doubles
    const cases: ReadonlyArray<readonly [number, number, number]> = [
      [1376, -3.5, 0.000240056139646306],
      [1376, -40, 4.742819864313535e-233],
      [1376, -0.25, 0.40131233328079374],
      [1376, 2, 0.9771517402260187],
      [47, -2.1, 0.02056156937473586],
      [247, -9.75, 1.6360577234372948e-19],
      [4924, -1.3, 0.09683090923980033],
      [30, -60, 4.1556548067661245e-33]
    ]
    for (const [df, x, mp] of cases) expect(Math.abs(studentT(x, df) - mp) / mp, `df ${df}, x ${x}`).toBeLessThan(1e-13)
  })

  it("is @stdlib's own value below 30 df, above 5,000, at 0 and at infinities", () => {
    for (const df of [1, 2.5, 4, 29, 29.5, 5001, 1e6]) {
      for (const x of [-50, -3, -0.1, 0.7, 4]) expect(studentT(x, df)).toBe(tCdf(x, df))
    }
    for (const x of [0, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, Number.NaN]) expect(studentT(x, 1376)).toBe(tCdf(x, 1376))
  })
})
