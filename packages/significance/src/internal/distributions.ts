// The analytic tests' distributions (@stdlib's, Student's t's common case our own), p-value rule and Zou's interval.
import normalCdf from "@stdlib/stats-base-dists-normal-cdf"
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile"
import tCdf from "@stdlib/stats-base-dists-t-cdf"
import type { Alternative } from "../TestResult.js"
import { sq } from "./powers.js"

/** The standard normal's CDF and quantile. */
export const phi = (x: number): number => normalCdf(x, 0, 1)
export const phiInv = (p: number): number => normalQuantile(p, 0, 1)

/** Stirling's series' coefficients B_2k / (2k (2k - 1)), k = 1..7 (A&S 6.1.40). */
const STIRLING = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156]

/**
 * ln B(a, 1/2) for a >= 15: ln sqrt(pi) - (ln Gamma(a + 1/2) - ln Gamma(a)), the difference taken
 * term by term of Stirling's series (A&S 6.1.40), a log1p(1 / 2a) + ln(a) / 2 - 1/2 + the sum of
 * c_k ((a + 1/2)^(1 - 2k) - a^(1 - 2k)): about 1e-15 absolute, where subtracting two ln Gamma of
 * 1,000 or more would lose twelve digits.
 */
const lnBetaHalf = (a: number): number => {
  const h = a + 0.5
  let series = 0
  let za = 1 / a
  let zh = 1 / h
  const a2 = za * za
  const h2 = zh * zh
  for (const c of STIRLING) {
    series += c * (zh - za)
    za *= a2
    zh *= h2
  }
  return 0.5 * Math.log(Math.PI) - (a * Math.log1p(0.5 / a) + 0.5 * Math.log(a) - 0.5 + series)
}

/**
 * The continued fraction of I_x(a, b) (A&S 26.5.8) by the modified Lentz method: I_x(a, b) =
 * x^a (1 - x)^b / (a B(a, b)) times this, converging fast for x < (a + 1) / (a + b + 2).
 */
const betaFraction = (a: number, b: number, x: number): number => {
  const tiny = 1e-300
  const qab = a + b
  const qap = a + 1
  const qam = a - 1
  // Lentz's start (c = 1, d = 1 / (1 - qab x / qap)) is the first step from c = infinity, d = 1
  let c = Number.POSITIVE_INFINITY
  let d = 1
  /** One term of Lentz's method: the fraction's factor for coefficient aa. */
  const step = (aa: number): number => {
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    return d * c
  }
  let h = step(-(qab * x) / qap)
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m
    // the even term, then the odd one, whose factor says when it has converged
    h *= step((m * (b - m) * x) / ((qam + m2) * (a + m2)))
    const del = step((-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2)))
    h *= del
    if (Math.abs(del - 1) < 1e-16) break
  }
  return h
}

/** `f` remembering its last df: all pairs of runs share one df, so ln B(df / 2, 1/2) is taken once. */
const lastDf = (f: (df: number) => number) => {
  let df = Number.NaN
  let value = Number.NaN
  return (x: number): number => (x === df ? value : ((df = x), (value = f(x))))
}
const studentLnBeta = lastDf((df) => lnBetaHalf(df / 2))

/**
 * Student t CDF. From 30 to 5,000 df, F(x) = I_w(df/2, 1/2) / 2 below 0 with w = df / (df + x^2)
 * (A&S 26.7.1), by the incomplete beta's continued fraction (A&S 26.5.8): within 1e-12 relative of
 * @stdlib's, a fifth of its time (all pairs of 500 runs are 124,750 Williams' tests). Else @stdlib's.
 */
export const studentT = (x: number, df: number): number => {
  if (!(df >= 30 && df <= 5000 && Number.isFinite(x) && x !== 0)) return tCdf(x, df)
  const a = df / 2
  const x2 = x * x
  // ln w and ln(1 - w) without forming 1 - w: w = df / (df + x^2)
  const lnW = -Math.log1p(x2 / df)
  const rest = x2 / (df + x2)
  const prefix = Math.exp(a * lnW + 0.5 * Math.log(rest) - studentLnBeta(df))
  // one tail, P(T < -|x|) = I_w(a, 1/2) / 2
  const tail = rest > 1.5 / (a + 2.5)
    ? (prefix * betaFraction(a, 0.5, 1 - rest)) / a / 2
    : (1 - (prefix * betaFraction(0.5, a, rest)) / 0.5) / 2
  return x < 0 ? tail : 1 - tail
}

/**
 * p-value of a statistic under the standard normal, or Student's t with `df` degrees of freedom.
 *
 * cocor computes upper tails as `1 - F(x)`, which rounds to 0 once F(x) is within 1e-16 of 1
 * (e.g. its p = 0 for z = 8.45). We take upper tails as F(-x) instead (the distributions are
 * symmetric), which agrees with cocor to rounding where cocor's value is representable and keeps
 * the tiny p-values meaningful where it is not.
 */
export const pValue = (statistic: number, alternative: Alternative, df?: number): number => {
  const cdf = (x: number) => (df === undefined ? phi(x) : studentT(x, df))
  return alternative === "two.sided" ? Math.min(1, 2 * cdf(-Math.abs(statistic))) : cdf(alternative === "greater" ? -statistic : statistic)
}

const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7]
/** ln Gamma(x), x > 0: Lanczos (g = 7, 9 terms; Numerical Recipes 3rd ed., 6.1), about 1e-15 relative. */
const lnGamma = (x: number): number => {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x)
  const y = x - 1
  let s = LANCZOS[0]
  for (let i = 1; i < 9; i++) s += LANCZOS[i] / (y + i)
  const t = y + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(s)
}

// lnUpperTail's ln B(df / 2, 1/2), by ln Gamma
const tailLnBeta = lastDf((df) => lnGamma(df / 2) + lnGamma(0.5) - lnGamma(df / 2 + 0.5))

/**
 * ln of the upper tail beyond |x| of the standard normal or Student's t with `df` degrees of freedom,
 * finite where the tail underflows to 0 (t = 92.8 on 1,376 df: about 1e-594). Below 1e-300, normal:
 * Mills' ratio's asymptotic series (A&S 26.2.12; below 1e-9 relative beyond |x| = 37); Student's t:
 * I_x(df/2, 1/2) / 2, x = df / (df + t^2), by the power series of A&S 26.5.4 with 15.1.1.
 */
const lnUpperTail = (x: number, df?: number): number => {
  const ax = Math.abs(x)
  const p = df === undefined ? phi(-ax) : studentT(-ax, df)
  if (p > 1e-300) return Math.log(p)
  if (df === undefined) {
    const z2 = ax * ax
    return -z2 / 2 - Math.log(ax * Math.sqrt(2 * Math.PI)) + Math.log(1 - 1 / z2 + 3 / (z2 * z2) - 15 / (z2 * z2 * z2))
  }
  const a = df / 2
  const b = 0.5
  const u = df / (df + ax * ax)
  let sum = 1
  let term = 1
  for (let n = 0; n < 10_000; n++) {
    term *= ((a + b + n) / (a + 1 + n)) * u
    sum += term
    if (term < 1e-17 * sum) break
  }
  return Math.log(0.5) + a * Math.log(u) + b * Math.log1p(-u) - Math.log(a) - tailLnBeta(df) + Math.log(sum)
}

/**
 * log10 of a p-value by the same rule as `pValue`, finite where p underflows to 0: the p-values of
 * JSON outputs carry it beside p once p is below 1e-300 (Williams' t = 92.8 gives p = 0 in doubles).
 */
export const log10PValue = (statistic: number, alternative: Alternative, df?: number): number => {
  const upper = lnUpperTail(statistic, df)
  // one-sided: the upper tail beyond |statistic| when it lies on the alternative's side, else its complement
  const ln = alternative === "two.sided" ? Math.min(0, Math.LN2 + upper) : (alternative === "greater" ? statistic > 0 : statistic < 0) ? upper : Math.log(1 - Math.exp(upper))
  return ln / Math.LN10
}

/** Zou's (2007) interval for r1 - r2 from each one's Fisher-z interval (half-widths h1, h2); `c`: the two estimates' correlation (0: independent groups). */
export const zouInterval = (r1: number, r2: number, h1: number, h2: number, c: number): readonly [number, number] => {
  const below1 = r1 - Math.tanh(Math.atanh(r1) - h1)
  const above1 = Math.tanh(Math.atanh(r1) + h1) - r1
  const below2 = r2 - Math.tanh(Math.atanh(r2) - h2)
  const above2 = Math.tanh(Math.atanh(r2) + h2) - r2
  return [r1 - r2 - Math.sqrt(sq(below1) + sq(above2) - 2 * c * below1 * above2), r1 - r2 + Math.sqrt(sq(above1) + sq(below2) - 2 * c * above1 * below2)]
}
