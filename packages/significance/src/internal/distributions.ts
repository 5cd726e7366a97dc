// Thin typed wrappers over @stdlib's distribution functions, plus the p-value rule shared by
// every analytic test.
import normalCdf from "@stdlib/stats-base-dists-normal-cdf"
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile"
import tCdf from "@stdlib/stats-base-dists-t-cdf"
import type { Alternative } from "../TestResult.js"

/** Standard normal CDF. */
export const phi = (x: number): number => normalCdf(x, 0, 1)

/** Standard normal quantile. */
export const phiInv = (p: number): number => normalQuantile(p, 0, 1)

/** Student t CDF. */
export const studentT = (x: number, df: number): number => tCdf(x, df)

/**
 * p-value of a statistic under a symmetric null distribution with CDF `cdf`.
 *
 * cocor computes upper tails as `1 - F(x)`, which rounds to 0 once F(x) is within 1e-16 of 1
 * (e.g. its p = 0 for z = 8.45). We take upper tails as F(-x) instead (the distributions are
 * symmetric), which agrees with cocor to rounding where cocor's value is representable and keeps
 * the tiny p-values meaningful where it is not.
 */
export const pValue = (statistic: number, alternative: Alternative, cdf: (x: number) => number): number => {
  switch (alternative) {
    case "two.sided":
      return Math.min(1, 2 * cdf(-Math.abs(statistic)))
    case "greater":
      return cdf(-statistic)
    case "less":
      return cdf(statistic)
  }
}

/** Fisher's r-to-z transform. */
export const fisherZ = (r: number): number => Math.atanh(r)

/** Inverse of Fisher's transform. */
export const fisherR = (z: number): number => Math.tanh(z)
