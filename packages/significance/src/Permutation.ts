/**
 * Approximate randomisation (Noreen 1989; Riezler & Maxwell 2005) for two runs scored on the same
 * pairs, at the correlation level: under H0 the two runs are exchangeable pair by pair, so each
 * shuffle swaps every pair's two run scores with probability 1/2 and recomputes
 * r(gold, A*) - r(gold, B*) (or the stratified aggregate). p = (count + 1) / (R + 1).
 *
 * Pearson only: swapping changes the runs' ranks, so a Spearman version would re-rank both runs
 * every shuffle; use the paired bootstrap for Spearman.
 *
 * @since 0.1.0
 */
import { Rescale } from "@stseval/metrics"
import * as Kernel from "./internal/correlationKernel.js"
import { checkCount, checkData, checkSeed } from "./internal/inputs.js"
import * as Random from "./internal/random.js"
import * as V from "./internal/validate.js"
import * as Signature from "./Signature.js"
import { InvalidInput } from "./TestResult.js"
import type { Alternative, Outcome } from "./TestResult.js"

/**
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
  readonly progress?: (done: number, total: number) => void
}

/**
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

const TIE = 1e-12

/**
 * @since 0.1.0
 */
export const test = (
  gold: Float64Array,
  runA: Float64Array,
  runB: Float64Array,
  options: Options = {}
): Outcome<Result> => {
  const R = options.resamples ?? 10_000
  const seed = options.seed ?? 12345
  const alternative = options.alternative ?? "two.sided"
  const aggregate = options.aggregate ?? "weighted"
  const stratumOf = Kernel.denseStrata(options.strata, gold.length)
  const error = V.first(
    checkCount("resamples", R, 1),
    checkSeed(seed),
    V.alternative(alternative),
    aggregate === "weighted" || aggregate === "unweighted"
      ? undefined
      : new InvalidInput({ field: "aggregate", expected: "weighted or unweighted", found: String(aggregate) }),
    checkData(gold, [runA, runB], options.strata, stratumOf)
  )
  if (error !== undefined) return error

  const p = Kernel.prepare(gold, [runA, runB], stratumOf, "pearson", aggregate)
  const { pairs: N, position, start, strata: S } = p
  // Both runs shifted by the same per-dataset constant (their pooled mean), so that swapping a
  // pair's two scores swaps the original values up to one common shift, which Pearson ignores;
  // and scaled by one exact power of two (1 for ordinary scores), which brings scores of any
  // magnitude to unit scale as the kernel does the gold (a swap needs one scale for both runs).
  const scale = Rescale.unitScale(Math.max(Rescale.maxAbs(runA), Rescale.maxAbs(runB)))
  const base = new Float64Array(2 * N)
  for (let s = 0; s < S; s++) {
    let mean = 0
    for (let q = start[s]; q < start[s + 1]; q++) mean += runA[position[q]] * scale + runB[position[q]] * scale
    mean /= 2 * (start[s + 1] - start[s])
    for (let q = start[s]; q < start[s + 1]; q++) {
      base[q] = runA[position[q]] * scale - mean
      base[N + q] = runB[position[q]] * scale - mean
    }
  }
  const w = new Float64Array(N).fill(1)
  const buf = Kernel.scratch(p)
  const out = new Float64Array(2)
  Kernel.evaluate(p, w, out, buf, base)
  const estimateA = out[0]
  const estimateB = out[1]
  const delta = estimateA - estimateB

  const rng = Random.make(seed)
  const shuffled = new Float64Array(2 * N)
  const every = Math.max(1, Math.ceil(R / 100))
  let valid = 0
  let extreme = 0
  for (let r = 0; r < R; r++) {
    let bits = 0
    let left = 0
    for (let q = 0; q < N; q++) {
      if (left === 0) {
        bits = rng.next() >>> 16 // the generator's high bits are its strongest
        left = 16
      }
      const swap = bits & 1
      bits >>>= 1
      left--
      const a = base[q]
      const b = base[N + q]
      shuffled[q] = swap ? b : a
      shuffled[N + q] = swap ? a : b
    }
    Kernel.evaluate(p, w, out, buf, shuffled)
    const d = out[0] - out[1]
    if (d === d) {
      valid++
      if (alternative === "two.sided") {
        if (Math.abs(d) >= Math.abs(delta) - TIE) extreme++
      } else if (alternative === "greater") {
        if (d >= delta - TIE) extreme++
      } else if (d <= delta + TIE) extreme++
    }
    if (options.progress !== undefined && ((r + 1) % every === 0 || r + 1 === R)) options.progress(r + 1, R)
  }
  const signature: Signature.Signature = {
    method: "permutation",
    resamples: R,
    seed,
    metric: "pearson",
    strata: options.strata === undefined ? "none" : "dataset",
    ...(options.strata === undefined ? {} : { aggregate }),
    rng: "xoroshiro128plus",
    version: Signature.VERSION
  }
  return {
    estimateA,
    estimateB,
    difference: delta,
    alternative,
    pValue: (extreme + 1) / (valid + 1),
    valid,
    degenerate: R - valid,
    signature,
    signatureText: Signature.format(signature)
  }
}
