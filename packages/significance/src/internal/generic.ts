// Resampling any metric through its descriptor's `at` (the figure over an index multiset), for
// the paired bootstrap, approximate randomisation and `Compare.many`'s estimates: the path of every
// metric without a dedicated kernel (Kendall, MSE, weighted Pearson, macro-F1, a task's own), and
// of accuracy outside the intervals engine. The draws are the documented stream of the kernels
// (random.ts: chunks of 64 resamples, per resample, per stratum in order, m draws of Lemire's
// bounded integer over the stratum's pairs), so with the same seed and strata a metric resampled
// here sees exactly the index multisets Pearson's kernel sees.
//
// One call of `at` per run, stratum and resample: the metric decides its own cost (Kendall's
// O(m log m) sort, MSE's gathered copy). Pairs are addressed by their original index, the strata's
// pairs in order (correlationKernel.ts's layout).
import type { Metric } from "@stseval/metrics"
import type { Aggregate, Layout } from "./correlationKernel.js"
import { layout } from "./correlationKernel.js"
import { atOf, encodeLabels } from "./metric.js"
import type { At } from "./metric.js"
import * as Random from "./random.js"

export interface Generic {
  readonly metric: Metric.Metric
  readonly at: At
  readonly layout: Layout
  /** scores, or label codes (one table for the gold and every run) */
  readonly gold: Float64Array | Int32Array
  readonly runs: ReadonlyArray<Float64Array | Int32Array>
  /** per run, its confidences (weighted Pearson), when given */
  readonly confidences: ReadonlyArray<Float64Array | undefined>
  /** per stratum, its pairs once each (original indices): the data as they are */
  readonly identity: ReadonlyArray<Int32Array>
}

/** The data of a generic job; labels (strings) are encoded to codes here, once. */
export const prepare = (
  metric: Metric.Metric,
  gold: Float64Array | ReadonlyArray<string>,
  runs: ReadonlyArray<Float64Array | ReadonlyArray<string>>,
  confidences: ReadonlyArray<Float64Array> | undefined,
  stratumOf: Int32Array,
  aggregate: Aggregate
): Generic => {
  const lay = layout(stratumOf, aggregate)
  const identity = Array.from({ length: lay.strata }, (_, s) => lay.position.subarray(lay.start[s], lay.start[s + 1]))
  const data =
    metric.kind === "labels"
      ? encodeLabels(gold as ReadonlyArray<string>, runs as ReadonlyArray<ReadonlyArray<string>>)
      : { gold: gold as Float64Array, runs: runs as ReadonlyArray<Float64Array> }
  return {
    metric,
    at: atOf(metric, "labels" in data ? data.labels.length : 0),
    layout: lay,
    gold: data.gold,
    runs: data.runs,
    confidences: runs.map((_, k) => confidences?.[k]),
    identity
  }
}

/**
 * The figure of `run` (with its confidences) over the index lists `idx[s]`, one per stratum,
 * combined with the strata's coefficients as the kernels combine correlations; NaN when a
 * stratum's figure is undefined.
 */
export const figure = (
  g: Generic,
  run: Float64Array | Int32Array,
  confidence: Float64Array | undefined,
  idx: ReadonlyArray<Int32Array>
): number => {
  const { coef, strata: S } = g.layout
  let out = 0
  for (let s = 0; s < S; s++) {
    const v = g.at(g.gold, run, idx[s], idx[s].length, confidence)
    if (v !== v) return Number.NaN
    out += coef[s] * v
  }
  return out
}

/** Each run's figure on the data as they are. */
export const estimates = (g: Generic): Float64Array => Float64Array.from(g.runs, (run, k) => figure(g, run, g.confidences[k], g.identity))

/**
 * Every run's figure in every resample, run-major (`samples[k * B + b]`; NaN = undefined), from
 * the documented stream for `seed`.
 */
export const samples = (g: Generic, B: number, seed: number, progress?: (done: number, total: number) => void): Float64Array => {
  const { start, position, strata: S, pairs: N } = g.layout
  const K = g.runs.length
  const out = new Float64Array(K * B)
  const idx = new Int32Array(N)
  const views = Array.from({ length: S }, (_, s) => idx.subarray(start[s], start[s + 1]))
  const states = Random.chunkStates(seed, Math.ceil(B / Random.CHUNK))
  const every = Math.max(1, Math.ceil(B / 100))
  let rng = Random.chunkRng(states, 0)
  for (let b = 0; b < B; b++) {
    if (b % Random.CHUNK === 0) rng = Random.chunkRng(states, b / Random.CHUNK)
    for (let s = 0; s < S; s++) {
      const a = start[s]
      const m = start[s + 1] - a
      for (let j = 0; j < m; j++) idx[a + j] = position[a + Random.below(rng, m)]
    }
    for (let k = 0; k < K; k++) out[k * B + b] = figure(g, g.runs[k], g.confidences[k], views)
    if (progress !== undefined && ((b + 1) % every === 0 || b + 1 === B)) progress(b + 1, B)
  }
  return out
}
