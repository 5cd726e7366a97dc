// A metric as callers name it (a registry name or a descriptor), resolved once; what it declares
// (`resampling`), not its name, decides how it is resampled.
import { Kendall, Metric as MetricFns, Metrics, Moments, Pearson, Rescale } from "@stseval/metrics"
import type { Metric } from "@stseval/metrics"
import { InvalidInput } from "../TestResult.js"

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

/** The descriptor a caller means (Pearson's r when none), or an InvalidInput naming `field` and the known names. */
export const resolve = (field: string, ref: string | Metric.Metric = Pearson.metric): Metric.Metric | InvalidInput => {
  if (typeof ref === "string") {
    const m = Metrics.get(ref)
    if (m !== undefined) return m
    return new InvalidInput({ field, expected: `a metric name (${Metrics.names.join(", ")}) or a metric descriptor`, found: ref })
  }
  if (isDescriptor(ref)) return ref
  return new InvalidInput({ field, expected: "a metric name or a metric descriptor (name, kind, direction, compute, resampling)", found: String(ref) })
}

/** Declared by Pearson's moments and figure (under any name): the cocor tests and the SIMD kernels are for it alone. */
export const isPearson = (m: Metric.Metric): boolean =>
  m.resampling.by === "sums" && m.resampling.figure === Moments.pearson && m.resampling.pair === Moments.pair

/** Pearson of the ranks (Spearman's rho): the rank walks resample it. */
export const isRankPearson = (m: Metric.Metric): boolean => m.resampling.by === "ranks" && m.resampling.of === "pearson"

/** Kendall's tau-b (under any name): the rank walks resample it too. */
export const isKendall = (m: Metric.Metric): boolean =>
  m.resampling.by === "ranks" && Kendall.metric.resampling.by === "ranks" && m.resampling.at === Kendall.metric.resampling.at

/** A code table: each key's code, a new key the next code, in order of first appearance (labels, strata). */
export const codeTable = <K = string>() => {
  const table = new Map<K, number>()
  const code = (l: K): number => {
    const c = table.get(l)
    if (c !== undefined) return c
    table.set(l, table.size)
    return table.size - 1
  }
  return { table, code }
}

/** A metric's figure over an index multiset (a labels metric reads codes and no confidence). */
export type At = (
  gold: Float64Array | Int32Array,
  run: Float64Array | Int32Array,
  idx: Int32Array,
  n: number,
  confidence: Float64Array | undefined
) => number

/** The figure by the metric's declaration; `labels`: the size of the label table. */
export const atOf = (m: Metric.Metric, labels = 0): At => {
  // one scratch per function: the resampling loops call it once per run, stratum and resample
  const scratch = new Float64Array(m.resampling.by === "sums" ? 2 * m.resampling.statistics(labels) : 0)
  return m.kind === "scores"
    ? (gold, run, idx, n, confidence) => MetricFns.figureAt(m, gold, run, idx, n, confidence, 0, scratch)
    : (gold, run, idx, n) => MetricFns.figureAt(m, gold, run, idx, n, undefined, labels, scratch)
}

/** A correlation's tie: differences this close to the observed one count as at least as extreme. */
export const TIE = 1e-12

/** The p-values' tie: `TIE` for a correlation, else 1e-12 of the largest figure (an MSE's p ignores the scores' scale). */
export const tieFor = (m: Metric.Metric, estimates: ArrayLike<number>): number => (m.correlation ? TIE : 1e-12 * Rescale.maxAbs(estimates))
