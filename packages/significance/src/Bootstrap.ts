/**
 * Paired bootstrap of many runs scored on the same pairs: one index multiset per resample, shared
 * by the gold and every run; each run's statistic once per resample, every comparison derived from
 * them. With `strata`, pairs are drawn within each dataset. Undefined statistics are NaN, counted
 * in `degenerate` and left out.
 *
 * @since 0.1.0
 */
import type { Metric } from "@stseval/metrics"
import { fromTail, offer, quantiles, tail } from "./internal/select.js"
import * as Figures from "./internal/figures.js"
import { TIE, tieFor } from "./internal/metric.js"
import { resampling } from "./internal/inputs.js"
import * as V from "./internal/validate.js"
import type * as Inputs from "./internal/inputs.js"
import * as Distributions from "./internal/distributions.js"
import * as Signature from "./Signature.js"
import { InvalidInput } from "./TestResult.js"
import type { Alternative, Outcome, TestOptions } from "./TestResult.js"

/**
 * Options of the paired bootstrap.
 *
 * @since 0.1.0
 */
export interface Options {
  /** Number of resamples B. Default 10,000. */
  readonly resamples?: number
  /** Seed of the xoroshiro128+ generator (0 .. 2^32 - 1). Default 12345. */
  readonly seed?: number
  /** A registry name (`Metrics.names`) or a descriptor; default `"pearson"`. */
  readonly metric?: string | Metric.Metric
  /** Dataset / track index of each pair; resampling is then stratified. */
  readonly strata?: ArrayLike<number>
  /** Aggregate of per-dataset figures with strata. Default `"weighted"` (by pairs). */
  readonly aggregate?: "weighted" | "unweighted"
  /** Per run, its confidence of each pair (`weighted-pearson`). */
  readonly confidences?: ReadonlyArray<Float64Array>
  /** Called about every 1% of resamples, and at the end. */
  readonly progress?: (done: number, total: number) => void
  /** Threads, the caller included (at most 64); default all cores for large jobs. Results do not depend on it. */
  readonly threads?: number
}

/**
 * Scores (`Float64Array`), or label strings for a metric of labels, aligned with the gold.
 *
 * @since 0.3.0
 */
export type Values = Inputs.Values

/**
 * The bootstrap distribution of every run's statistic.
 *
 * @since 0.1.0
 */
export interface Distribution {
  readonly signature: Signature.Signature
  /** `Signature.format(signature)`. */
  readonly signatureText: string
  readonly resamples: number
  readonly runs: number
  readonly pairs: number
  /** Each run's statistic on the original data. */
  readonly estimates: Float64Array
  /** Resampled statistics, run-major: `samples[run * resamples + b]`; NaN = undefined. */
  readonly samples: Float64Array
  /** Per run, how many resamples gave an undefined statistic. */
  readonly degenerate: Int32Array
  /** Differences within this of the observed one count as extreme (1e-12 x the largest |estimate| but for a correlation). */
  readonly tie?: number
}

/**
 * Every run's statistic on B resamples, by the intervals' pass; every metric sees the same
 * resamples for a seed.
 *
 * @example
 * ```ts
 * import { Bootstrap, TestResult } from "@stseval/significance"
 *
 * // gold and two runs on the same 40 pairs
 * const gold = Float64Array.from({ length: 40 }, (_, i) => (i * 7) % 11)
 * const runA = Float64Array.from(gold, (g, i) => g + ((i * 3) % 5) - 2)
 * const runB = Float64Array.from(gold, (g, i) => g + ((i * 5) % 9) - 4)
 * const d = Bootstrap.resample(gold, [runA, runB], { resamples: 1000, seed: 12345 })
 * const tau = Bootstrap.resample(gold, [runA, runB], { metric: "kendall", resamples: 1000, seed: 12345 })
 * if (!TestResult.isInvalid(d)) Bootstrap.comparePairs(d)
 * ```
 * @since 0.1.0
 */
export const resample = (gold: Values, runs: ReadonlyArray<Values>, options: Options = {}): Outcome<Distribution> => {
  const set = resampling("bootstrap", gold, runs, options, options.threads === undefined ? undefined : V.count("threads", options.threads, 1))
  if (set instanceof InvalidInput) return set
  const { resamples: B, seed, metric, aggregate, stratumOf, signature } = set
  const { estimates, samples, pairs: N } = Figures.resample({ metric, gold, runs, confidences: options.confidences, stratumOf, aggregate }, B, seed, options)
  const K = runs.length
  const degenerate = new Int32Array(K)
  for (let k = 0; k < K; k++) for (let b = 0; b < B; b++) if (samples[k * B + b] !== samples[k * B + b]) degenerate[k]++
  const tie = tieFor(metric, estimates)
  return { signature, signatureText: Signature.format(signature), resamples: B, runs: K, pairs: N, estimates, samples, degenerate, ...(tie !== TIE ? { tie } : {}) }
}

/**
 * Percentile interval of one run's statistic.
 *
 * @since 0.1.0
 */
export interface RunInterval {
  readonly run: number
  readonly estimate: number
  readonly ci: readonly [lower: number, upper: number]
  readonly confLevel: number
  readonly valid: number
  readonly degenerate: number
}

/**
 * @example
 * ```ts
 * import { Bootstrap } from "@stseval/significance"
 *
 * declare const d: Bootstrap.Distribution // Bootstrap.resample's
 * Bootstrap.runInterval(d, 1, 0.9).ci // 90% percentile interval of run 1's statistic
 * ```
 * @since 0.1.0
 */
export const runInterval = (d: Distribution, run: number, confLevel = 0.95): RunInterval => {
  const B = d.resamples
  const values = d.samples.subarray(run * B, (run + 1) * B).filter((v) => v === v)
  const [lower, upper] = quantiles(values, values.length, [(1 - confLevel) / 2, 1 - (1 - confLevel) / 2])
  return { run, estimate: d.estimates[run], ci: [lower, upper], confLevel, valid: values.length, degenerate: B - values.length }
}

/**
 * Comparison of run A with run B from one bootstrap distribution.
 *
 * @since 0.1.0
 */
export interface PairComparison {
  readonly a: number
  readonly b: number
  readonly estimateA: number
  readonly estimateB: number
  readonly difference: number
  readonly ci: readonly [lower: number, upper: number]
  readonly confLevel: number
  readonly alternative: Alternative
  readonly pValue: number
  readonly valid: number
  readonly degenerate: number
  /** log10 of the normal p-value once it is below 1e-300 (`bootstrapP: "normal"`) */
  readonly log10P?: number
}

/**
 * The alternative hypothesis, the level of the difference's interval, and which pairs.
 *
 * @since 0.1.0
 */
export interface CompareOptions extends TestOptions {
  /** The pairs [a, b] to compare; default every a < b. */
  readonly pairs?: ReadonlyArray<readonly [number, number]>
  /** The p-value: `shift` (default, floored at 1 / (B + 1)) or `normal` (the normal approximation's, not floored). */
  readonly bootstrapP?: "shift" | "normal"
}

/**
 * The normal p-value of delta from Welford's sums of its n differences: Wald's with the bootstrap
 * standard error, z = delta / sd(d*) (Efron & Tibshirani 1993, ch. 6 and 16). Not floored at 1 / (B + 1),
 * as Holm's correction over hundreds of comparisons needs; the marks' rule decides with it.
 */
const normalOf = (delta: number, n: number, m2: number, alternative: Alternative): { pValue: number; log10P?: number } => {
  const se = n > 1 ? Math.sqrt(m2 / (n - 1)) : Number.NaN
  // no spread: the same difference in every resample
  const z = se !== se ? Number.NaN : se > 0 ? delta / se : delta === 0 ? 0 : Math.sign(delta) * Number.POSITIVE_INFINITY
  if (z !== z) return { pValue: Number.NaN }
  const pValue = Distributions.pValue(z, alternative)
  return pValue < 1e-300 && Number.isFinite(z) ? { pValue, log10P: Distributions.log10PValue(z, alternative) } : { pValue }
}

// The defined differences of runs a and b: those at least as far from delta as delta from 0 (the
// shift method: Berg-Kirkpatrick et al. 2012; Efron & Tibshirani 1993, 16.4), or with `normal`
// Welford's sums; and the smallest into `low`, the largest negated into `high` (the interval's tails).
const differences = (d: Distribution, a: number, b: number, alternative: Alternative, normal: boolean, low: ReturnType<typeof tail>, high: ReturnType<typeof tail>) => {
  const B = d.resamples
  const S = d.samples
  const sign = alternative === "less" ? -1 : 1
  const tie = d.tie ?? TIE
  const delta = d.estimates[a] - d.estimates[b]
  const limit = alternative === "two.sided" ? Math.abs(delta) - tie : sign * delta - tie
  let valid = 0
  let extreme = 0
  let mean = 0
  let m2 = 0
  let lowTop = Number.POSITIVE_INFINITY
  let highTop = Number.POSITIVE_INFINITY
  for (let r = 0; r < B; r++) {
    const x = S[a * B + r] - S[b * B + r]
    if (x !== x) continue
    valid++
    if (normal) {
      const dx = x - mean
      mean += dx / valid
      m2 += dx * (x - mean)
    } else extreme += +(alternative === "two.sided" ? Math.abs(x - delta) >= limit : sign * (x - delta) >= limit)
    if (x < lowTop) lowTop = offer(low, x)
    if (-x < highTop) highTop = offer(high, -x)
  }
  return { delta, valid, extreme, m2 }
}

/**
 * Compares run a with run b (indices into the runs given to `resample`) for every pair a < b, or
 * the given pairs.
 *
 * @example
 * ```ts
 * import { Bootstrap } from "@stseval/significance"
 *
 * declare const d: Bootstrap.Distribution // Bootstrap.resample's
 * Bootstrap.comparePairs(d).map((c) => [c.a, c.b, c.pValue])
 * Bootstrap.comparePairs(d, { pairs: [[0, 1]], alternative: "greater" })[0].pValue // +1 smoothed
 * ```
 * @since 0.1.0
 */
export const comparePairs = (d: Distribution, options: CompareOptions = {}): Array<PairComparison> => {
  const alternative = options.alternative ?? "two.sided"
  const confLevel = options.confLevel ?? 0.95
  const B = d.resamples
  const ps = [(1 - confLevel) / 2, 1 - (1 - confLevel) / 2]
  const normal = options.bootstrapP === "normal"
  const low = tail(B, ps[0], false)
  const high = tail(B, ps[1], true)
  const out: Array<PairComparison> = []
  const compare = (a: number, b: number): void => {
    const { delta, valid, extreme, m2 } = differences(d, a, b, alternative, normal, low, high)
    const ci = [fromTail(low, valid, ps[0], false), fromTail(high, valid, ps[1], true)] as const
    const { pValue, log10P } = normal ? normalOf(delta, valid, m2, alternative) : { pValue: (extreme + 1) / (valid + 1) }
    out.push({ a, b, estimateA: d.estimates[a], estimateB: d.estimates[b], difference: delta, ci, confLevel, alternative, pValue, valid, degenerate: B - valid, ...(log10P === undefined ? {} : { log10P }) })
  }
  if (options.pairs !== undefined) for (const [a, b] of options.pairs) compare(a, b)
  else for (let a = 0; a < d.runs; a++) for (let b = a + 1; b < d.runs; b++) compare(a, b)
  return out
}
