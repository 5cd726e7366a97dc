/**
 * Approximate randomisation (Noreen 1989; Riezler & Maxwell 2005) for two runs scored on the same
 * pairs, at the correlation level: under H0 the two runs are exchangeable pair by pair, so each
 * shuffle swaps every pair's two run scores with probability 1/2 and recomputes
 * r(gold, A*) - r(gold, B*) (or the stratified aggregate). p = (count + 1) / (R + 1).
 *
 * Any metric (Pearson, the default, Spearman, Kendall, MSE, a descriptor) by its declared
 * statistics on the shuffled runs (`Metric.figureAt`), which re-ranks them for a rank correlation.
 * Every metric sees the same swaps for a seed.
 *
 * @since 0.1.0
 */
import { Rescale } from "@stseval/metrics"
import type { Metric } from "@stseval/metrics"
import * as Generic from "./internal/generic.js"
import { resampling } from "./internal/inputs.js"
import type { Values } from "./internal/inputs.js"
import { tieFor } from "./internal/metric.js"
import * as Random from "./internal/random.js"
import * as V from "./internal/validate.js"
import * as Signature from "./Signature.js"
import { InvalidInput } from "./TestResult.js"
import type { Alternative, Outcome } from "./TestResult.js"

/**
 * Options of the permutation test: shuffles, seed, alternative, the strata (datasets) to shuffle
 * within and how they combine, and the metric.
 *
 * @since 0.1.0
 */
export interface Options {
  /** Number of shuffles R. Default 10,000. */
  readonly resamples?: number
  /** Default 12345. */
  readonly seed?: number
  /** `greater`: run A is better. Default `"two.sided"`. */
  readonly alternative?: Alternative
  readonly strata?: ArrayLike<number>
  /** Default `"weighted"` (by pairs). */
  readonly aggregate?: "weighted" | "unweighted"
  /**
   * The metric, a registry name or a descriptor; default `"pearson"`: its declared figure on the
   * shuffled runs.
   *
   * @since 0.3.0
   */
  readonly metric?: string | Metric.Metric
  /**
   * Run A's and run B's confidences (weighted Pearson needs them); a pair's confidence moves with
   * its score when the pair is swapped.
   *
   * @since 0.3.0
   */
  readonly confidences?: readonly [Float64Array, Float64Array]
  readonly progress?: (done: number, total: number) => void
}

/**
 * What the permutation test gives: the two runs' figures and their difference, the p-value, how
 * many shuffles counted, and the signature that reproduces it.
 *
 * @since 0.1.0
 */
export interface Result {
  readonly estimateA: number
  readonly estimateB: number
  readonly difference: number
  readonly alternative: Alternative
  readonly pValue: number
  /** Shuffles with a defined difference. */
  readonly valid: number
  readonly degenerate: number
  readonly signature: Signature.Signature
  readonly signatureText: string
}

/**
 * Approximate randomisation of run A against run B: the difference of their figures, against R
 * shuffles that swap each pair's two run scores with probability 1/2.
 *
 * @example
 * ```ts
 * import { Permutation, TestResult } from "@stseval/significance"
 *
 * // gold and two runs on the same 40 pairs (the scoring package gives them aligned)
 * const gold = Float64Array.from({ length: 40 }, (_, i) => (i * 7) % 11)
 * const runA = Float64Array.from(gold, (g, i) => g + ((i * 3) % 5) - 2)
 * const runB = Float64Array.from(gold, (g, i) => g + ((i * 5) % 9) - 4)
 * // approximate randomisation: each pair's two run scores swapped with probability 1/2
 * const result = Permutation.test(gold, runA, runB, { resamples: 1000, seed: 12345 })
 * const tau = Permutation.test(gold, runA, runB, { resamples: 1000, seed: 12345, metric: "kendall" })
 * if (!TestResult.isInvalid(result)) result.pValue
 * ```
 * @since 0.1.0
 */
export const test = (
  gold: Values,
  runA: Values,
  runB: Values,
  options: Options = {}
): Outcome<Result> => {
  const alternative = options.alternative ?? "two.sided"
  const set = resampling("permutation", gold, [runA, runB], options, V.alternative(alternative))
  if (set instanceof InvalidInput) return set
  const { resamples: R, seed, metric, aggregate, stratumOf, signature } = set
  const [g, a, b] = atUnitScale(metric, gold, runA, runB)
  const counted = shuffles(Generic.prepare(metric, g, [a, b], options.confidences, stratumOf, aggregate), R, seed, alternative, options.progress)
  const { estimateA, estimateB, valid, extreme } = counted
  return {
    estimateA,
    estimateB,
    difference: estimateA - estimateB,
    alternative,
    pValue: (extreme + 1) / (valid + 1),
    valid,
    degenerate: R - valid,
    signature,
    signatureText: Signature.format(signature)
  }
}

/**
 * A scale-invariant figure (a correlation of the moments) takes the gold, and both runs by one
 * factor (a swap needs one scale), times an exact power of two to unit scale (1 for ordinary
 * scores), so scores like 1e200 or 1e-200, whose squares overflow or underflow, give the same figures.
 */
const atUnitScale = (metric: Metric.Metric, gold: Values, runA: Values, runB: Values): readonly [Values, Values, Values] => {
  if (metric.resampling.by !== "sums" || metric.resampling.shape !== "invariant" || !(gold instanceof Float64Array)) return [gold, runA, runB]
  const a = runA as Float64Array
  const b = runB as Float64Array
  const g = Rescale.unitScale(Rescale.maxAbs(gold))
  const x = Rescale.unitScale(Math.max(Rescale.maxAbs(a), Rescale.maxAbs(b)))
  return g === 1 && x === 1 ? [gold, a, b] : [gold.map((v) => v * g), a.map((v) => v * x), b.map((v) => v * x)]
}

interface Counted {
  readonly estimateA: number
  readonly estimateB: number
  readonly valid: number
  readonly extreme: number
}

/**
 * R shuffles of the documented stream for `seed`: `differenceOf(swaps)` gives each shuffle's
 * difference (NaN: undefined); counts the defined ones and those at least as extreme as the observed
 * `delta` (ties within `tie` count, conservatively).
 */
const countShuffles = (
  R: number,
  seed: number,
  N: number,
  delta: number,
  alternative: Alternative,
  tie: number,
  progress: ((done: number, total: number) => void) | undefined,
  differenceOf: (swaps: Uint8Array) => number
): { readonly valid: number; readonly extreme: number } => {
  const rng = Random.make(seed)
  const every = Math.max(1, Math.ceil(R / 100))
  const swaps = new Uint8Array(N)
  let valid = 0
  let extreme = 0
  for (let r = 0; r < R; r++) {
    drawSwaps(rng, swaps)
    const d = differenceOf(swaps)
    if (d === d) {
      valid++
      if (alternative === "two.sided" ? Math.abs(d) >= Math.abs(delta) - tie : alternative === "greater" ? d >= delta - tie : d <= delta + tie) extreme++
    }
    if (progress !== undefined && ((r + 1) % every === 0 || r + 1 === R)) progress(r + 1, R)
  }
  return { valid, extreme }
}

/**
 * One shuffle of the documented stream: per pair in stratum order, whether its two run scores
 * trade places (1), one bit each, the high 16 bits of each draw, lowest bit first.
 */
const drawSwaps = (rng: Random.Rng, swaps: Uint8Array): void => {
  let bits = 0
  let left = 0
  for (let q = 0; q < swaps.length; q++) {
    if (left === 0) {
      bits = rng.next() >>> 16 // the generator's high bits are its strongest
      left = 16
    }
    swaps[q] = bits & 1
    bits >>>= 1
    left--
  }
}

/** The metric's figures of the shuffled runs by its declared statistics (`Metric.figureAt`). */
const shuffles = (
  g: Generic.Generic,
  R: number,
  seed: number,
  alternative: Alternative,
  progress: ((done: number, total: number) => void) | undefined
): Counted => {
  const [runA, runB] = g.runs
  const [confA, confB] = g.confidences
  const estimateA = Generic.figure(g, runA, confA, g.identity)
  const estimateB = Generic.figure(g, runB, confB, g.identity)
  const tie = tieFor(g.metric, [estimateA, estimateB])
  const { position } = g.layout
  const N = position.length
  const a = runA.slice()
  const b = runB.slice()
  const ca = confA?.slice()
  const cb = confB?.slice()
  const counts = countShuffles(R, seed, N, estimateA - estimateB, alternative, tie, progress, (swaps) => {
    for (let q = 0; q < N; q++) {
      const i = position[q]
      const swapped = swaps[q] === 1
      a[i] = swapped ? runB[i] : runA[i]
      b[i] = swapped ? runA[i] : runB[i]
      if (ca !== undefined && cb !== undefined) {
        ca[i] = swapped ? confB![i] : confA![i]
        cb[i] = swapped ? confA![i] : confB![i]
      }
    }
    return Generic.figure(g, a, ca, g.identity) - Generic.figure(g, b, cb, g.identity)
  })
  return { estimateA, estimateB, ...counts }
}
