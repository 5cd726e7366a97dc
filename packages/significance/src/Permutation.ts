/**
 * Approximate randomisation (Noreen 1989; Riezler & Maxwell 2005) of two runs scored on the same
 * pairs: under H0 the runs are exchangeable pair by pair, so each shuffle swaps every pair's two
 * run scores with probability 1/2 and recomputes the difference of their figures (any metric, by
 * its declared statistics, `Metric.figureAt`). p = (count + 1) / (R + 1). Every metric sees the
 * same swaps for a seed.
 *
 * @since 0.1.0
 */
import { Rescale } from "@stseval/metrics"
import { resampling } from "./internal/inputs.js"
import type { Values } from "./internal/inputs.js"
import { atOf, codeTable, tieFor } from "./internal/metric.js"
import * as Random from "./internal/random.js"
import { layout } from "./internal/strata.js"
import * as V from "./internal/validate.js"
import type * as Bootstrap from "./Bootstrap.js"
import * as Signature from "./Signature.js"
import { InvalidInput } from "./TestResult.js"
import type { Outcome } from "./TestResult.js"

/**
 * Options of the permutation test: the bootstrap's (`resamples`: the shuffles R), and the alternative.
 *
 * @since 0.1.0
 */
export interface Options extends Omit<Bootstrap.Options, "confidences" | "threads">, Pick<Bootstrap.CompareOptions, "alternative"> {
  /** Run A's and run B's confidences (`weighted-pearson`): they move with the scores when a pair is swapped. */
  readonly confidences?: readonly [Float64Array, Float64Array]
}

/**
 * What the permutation test gives (`valid`: the shuffles with a defined difference), with the
 * signature that reproduces it.
 *
 * @since 0.1.0
 */
export interface Result extends Pick<Bootstrap.PairComparison, "estimateA" | "estimateB" | "difference" | "alternative" | "pValue" | "valid" | "degenerate"> {
  readonly signature: Signature.Signature
  readonly signatureText: string
}

/**
 * @example
 * ```ts
 * import { Permutation, TestResult } from "@stseval/significance"
 *
 * // gold and two runs on the same 40 pairs
 * const gold = Float64Array.from({ length: 40 }, (_, i) => (i * 7) % 11)
 * const runA = Float64Array.from(gold, (g, i) => g + ((i * 3) % 5) - 2)
 * const runB = Float64Array.from(gold, (g, i) => g + ((i * 5) % 9) - 4)
 * const result = Permutation.test(gold, runA, runB, { resamples: 1000, seed: 12345 })
 * const tau = Permutation.test(gold, runA, runB, { resamples: 1000, seed: 12345, metric: "kendall" })
 * if (!TestResult.isInvalid(result)) result.pValue
 * ```
 * @since 0.1.0
 */
export const test = (gold: Values, runA: Values, runB: Values, options: Options = {}): Outcome<Result> => {
  const alternative = options.alternative ?? "two.sided"
  const set = resampling("permutation", gold, [runA, runB], options, V.alternative(alternative))
  if (set instanceof InvalidInput) return set
  const { resamples: R, seed, metric, aggregate, stratumOf, signature } = set
  const { strata: S, start, position } = layout(stratumOf)
  // Run A's values then run B's (the gold twice, the confidences alike): a shuffle only picks, pair
  // by pair, which half each run reads, so no array changes between shuffles (kendallAt keys once)
  const { table, code } = codeTable()
  const data =
    metric.kind === "labels"
      ? { gold: Int32Array.from([...gold, ...gold] as Array<string>, code), runs: [Int32Array.from([...runA, ...runB] as Array<string>, code)] }
      : { gold: Float64Array.from([...gold, ...gold] as Array<number>), runs: [Float64Array.from([...runA, ...runB] as Array<number>)] }
  // A scale-invariant figure at unit scale (exact powers of two: one for the gold, one for both runs,
  // as a swap needs), so that scores whose squares overflow give the figures they give at unit scale
  if (metric.resampling.by === "sums" && metric.resampling.shape === "invariant" && metric.kind === "scores") {
    for (const v of [data.gold, data.runs[0]]) {
      const p = Rescale.unitScale(Rescale.maxAbs(v))
      for (let i = 0; i < v.length; i++) v[i] *= p
    }
  }
  const at = atOf(metric, table.size)
  const N = position.length
  const coef = Float64Array.from({ length: S }, (_, s) => (aggregate === "weighted" ? (start[s + 1] - start[s]) / N : 1 / S))
  const [confA, confB] = options.confidences ?? []
  const confidence = confA && confB && Float64Array.from([...confA, ...confB])
  // a run's figure over every stratum's picks, combined as the kernels combine them
  const figure = (picks: Int32Array): number => {
    let out = 0
    for (let s = 0; s < S; s++) {
      const v = at(data.gold, data.runs[0], picks.subarray(start[s], start[s + 1]), start[s + 1] - start[s], confidence)
      if (v !== v) return Number.NaN
      out += coef[s] * v
    }
    return out
  }
  const pa = position.slice()
  const pb = position.map((i) => i + N)
  const estimateA = figure(pa)
  const estimateB = figure(pb)
  const delta = estimateA - estimateB
  const tie = tieFor(metric, [estimateA, estimateB])
  const rng = Random.make(seed)
  const every = Math.max(1, Math.ceil(R / 100))
  let valid = 0
  let extreme = 0
  for (let r = 0; r < R; r++) {
    // the documented stream: per pair in stratum order, whether its two run scores trade places,
    // one bit each, the high 16 bits of each draw (the generator's strongest), lowest bit first
    let bits = 0
    for (let q = 0; q < N; q++) {
      if (q % 16 === 0) bits = rng.next() >>> 16
      const swap = (bits & 1) * N
      bits >>>= 1
      pa[q] = position[q] + swap
      pb[q] = position[q] + N - swap
    }
    const d = figure(pa) - figure(pb)
    if (d === d) {
      valid++
      if (alternative === "two.sided" ? Math.abs(d) >= Math.abs(delta) - tie : alternative === "greater" ? d >= delta - tie : d <= delta + tie) extreme++
    }
    if (options.progress !== undefined && ((r + 1) % every === 0 || r + 1 === R)) options.progress(r + 1, R)
  }
  return { estimateA, estimateB, difference: delta, alternative, pValue: (extreme + 1) / (valid + 1), valid, degenerate: R - valid, signature, signatureText: Signature.format(signature) }
}
