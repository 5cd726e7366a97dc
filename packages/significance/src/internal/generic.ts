// A metric's figure of given runs over index lists, one per stratum, combined with the strata's
// coefficients: what approximate randomisation computes for each shuffle (Permutation.ts), through
// the metric's declared statistics (`Metric.figureAt`), whatever the metric. Pairs are addressed
// by their original index, the strata's pairs in order (strata.ts's layout).
import type { Metric } from "@stseval/metrics"
import type { Aggregate, Layout } from "./strata.js"
import { layout } from "./strata.js"
import { atOf, encodeLabels } from "./metric.js"
import type { At } from "./metric.js"

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

