// Metrics as callers name them: a registry name (`"kendall"`, looked up in @stseval/metrics'
// `Metrics`) or a descriptor (`Metric.Metric`, e.g. a task's own). Everything here that resamples
// or tests a metric resolves it once with `resolve`, then reads what it declares (`resampling`):
// Pearson's moments go to the SIMD sums kernels, Spearman's and Kendall's ranks to the rank walks,
// any other declaration to the sums of its statistics (`Metric.figureAt`) over the same index multisets (internal/generic.ts, the intervals' generic figures). No metric name decides.
import { Kendall, Metric as MetricFns, Metrics, Moments, Pearson } from "@stseval/metrics"
import type { Metric } from "@stseval/metrics"
import { InvalidInput } from "../TestResult.js"

/** A metric by registry name, or a descriptor. */
export type MetricRef = string | Metric.Metric

const isDescriptor = (m: unknown): m is Metric.Metric => {
  if (typeof m !== "object" || m === null) return false
  const d = m as Partial<Metric.Metric>
  return (
    typeof d.name === "string" &&
    (d.kind === "scores" || d.kind === "labels") &&
    (d.direction === "higher" || d.direction === "lower") &&
    typeof d.compute === "function" &&
    (d.resampling?.by === "sums" || d.resampling?.by === "ranks")
  )
}

/** The metric when a caller names none (every test and resampling reads it here): Pearson's r, STS's and SICK's figure. */
export const defaultMetric: Metric.Metric = Pearson.metric

/** The descriptor a caller means (`defaultMetric` when none), or an InvalidInput naming `field` and the known names. */
export const resolve = (field: string, ref: MetricRef = defaultMetric): Metric.Metric | InvalidInput => {
  if (typeof ref === "string") {
    const m = Metrics.get(ref)
    if (m !== undefined) return m
    return new InvalidInput({ field, expected: `a metric name (${Metrics.names.join(", ")}) or a metric descriptor`, found: ref })
  }
  if (isDescriptor(ref)) return ref
  return new InvalidInput({ field, expected: "a metric name or a metric descriptor (name, kind, direction, compute, resampling)", found: String(ref) })
}

/**
 * A metric declared by Pearson's moments and figure (Pearson's r, or a copy of its descriptor under
 * another name): the cocor tests and the SIMD correlation kernels are for it alone.
 */
export const isPearson = (m: Metric.Metric): boolean =>
  m.resampling.by === "sums" && m.resampling.figure === Moments.pearson && m.resampling.pair === Moments.pair

/** A metric declared as Pearson of the ranks (Spearman's rho): the rank walks resample it. */
export const isRankPearson = (m: Metric.Metric): boolean => m.resampling.by === "ranks" && m.resampling.of === "pearson"

/** Kendall's tau-b (its descriptor, or a copy under another name): the rank walks resample it too. */
export const isKendall = (m: Metric.Metric): boolean => {
  const kendall = Kendall.metric.resampling
  return m.resampling.by === "ranks" && kendall.by === "ranks" && m.resampling.at === kendall.at
}

/**
 * Label strings as codes, indices into one table shared by the gold and every run (what a labels
 * metric's `at` reads), the table in order of first appearance.
 */
export const encodeLabels = (
  gold: ReadonlyArray<string>,
  runs: ReadonlyArray<ReadonlyArray<string>>
): { readonly gold: Int32Array; readonly runs: ReadonlyArray<Int32Array>; readonly labels: ReadonlyArray<string> } => {
  const table = new Map<string, number>()
  const code = (v: ReadonlyArray<string>) =>
    Int32Array.from(v, (l) => {
      let c = table.get(l)
      if (c === undefined) {
        c = table.size
        table.set(l, c)
      }
      return c
    })
  const g = code(gold)
  const r = runs.map(code)
  return { gold: g, runs: r, labels: [...table.keys()] }
}

/** A metric's figure over an index multiset, one signature for both kinds (labels metrics read codes and no confidence). */
export type At = (
  gold: Float64Array | Int32Array,
  run: Float64Array | Int32Array,
  idx: Int32Array,
  n: number,
  confidence: Float64Array | undefined
) => number

/** The figure from the metric's declaration; `labels`: the size of the label table its codes index. */
export const atOf = (m: Metric.Metric, labels = 0): At => {
  // one scratch per function: the resampling loops call it once per run, stratum and resample
  const scratch = new Float64Array(m.resampling.by === "sums" ? 2 * m.resampling.statistics(labels) : 0)
  return m.kind === "scores"
    ? (gold, run, idx, n, confidence) => MetricFns.figureAt(m, gold, run, idx, n, confidence, 0, scratch)
    : (gold, run, idx, n) => MetricFns.figureAt(m, gold, run, idx, n, undefined, labels, scratch)
}

/** Ties within this distance of the observed difference count as at least as extreme (conservative), for a correlation. */
export const TIE = 1e-12

/**
 * How close to the observed difference a resampled one counts as at least as extreme (the
 * p-values' ties): 1e-12 for a correlation (|r| <= 1), as always; for any other metric 1e-12 of
 * the largest figure, so that an MSE's p-value is the same whatever the scale of the scores.
 */
export const tieFor = (m: Metric.Metric, estimates: ArrayLike<number>): number => {
  if (m.correlation) return TIE
  let largest = 0
  for (let i = 0; i < estimates.length; i++) {
    const v = Math.abs(estimates[i])
    if (v > largest) largest = v
  }
  return 1e-12 * largest
}
