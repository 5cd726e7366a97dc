// Validation of gold / runs / strata shared by Bootstrap and Permutation.
import type { Metric } from "@stseval/metrics"
import type * as Bootstrap from "../Bootstrap.js"
import * as Signature from "../Signature.js"
import { InvalidInput } from "../TestResult.js"
import { resolve } from "./metric.js"
import { denseStrata } from "./strata.js"
import * as V from "./validate.js"

export const checkData = (
  gold: Float64Array,
  runs: ReadonlyArray<Float64Array>,
  strata: ArrayLike<number> | undefined,
  stratumOf: Int32Array,
  least: 1 | 3 = 3
): InvalidInput | undefined => {
  const n = gold.length
  if (runs.length === 0) return new InvalidInput({ field: "runs", expected: "at least one run", found: "none" })
  for (let k = 0; k < runs.length; k++) {
    if (runs[k].length !== n) {
      return new InvalidInput({
        field: `runs[${k}]`,
        expected: `${n} scores (one per gold pair)`,
        found: `${runs[k].length}`
      })
    }
  }
  if (strata !== undefined && strata.length !== n) {
    return new InvalidInput({ field: "strata", expected: `${n} dataset indices`, found: `${strata.length}` })
  }
  const bad = (values: Float64Array) => values.findIndex((v) => !Number.isFinite(v))
  const gi = bad(gold)
  if (gi >= 0) return new InvalidInput({ field: `gold[${gi}]`, expected: "a finite score", found: String(gold[gi]) })
  for (let k = 0; k < runs.length; k++) {
    const i = bad(runs[k])
    if (i >= 0) {
      return new InvalidInput({ field: `runs[${k}][${i}]`, expected: "a finite score", found: String(runs[k][i]) })
    }
  }
  return checkSizes(n, stratumOf, least)
}

/** Every dataset (stratum) has at least `least` pairs: 3 for a correlation (of 2 points it is always +-1), else 1. */
const checkSizes = (n: number, stratumOf: Int32Array, least: 1 | 3): InvalidInput | undefined => {
  const sizes = new Map<number, number>()
  for (let i = 0; i < n; i++) sizes.set(stratumOf[i], (sizes.get(stratumOf[i]) ?? 0) + 1)
  for (const [s, size] of sizes) {
    if (size < least) {
      return new InvalidInput({
        field: "strata",
        expected: least === 3 ? "at least 3 pairs per dataset (a correlation of 2 points is always +-1)" : "at least 1 pair per dataset",
        found: `${size} pairs in dataset #${s}`
      })
    }
  }
  if (n < least) return new InvalidInput({ field: "gold", expected: least === 3 ? "at least 3 pairs" : "at least 1 pair", found: String(n) })
  return undefined
}

/** Scores (a Float64Array) or labels (strings), as a metric of either kind reads them. */
export type Values = Float64Array | ReadonlyArray<string>

const isLabels = (v: unknown): v is ReadonlyArray<string> => Array.isArray(v)

/**
 * The gold and the runs for `metric`: Float64Arrays of finite scores for a scores metric, arrays
 * of label strings for a labels metric; the runs' confidences when the metric needs them (or are
 * given): one finite, non-negative array per run.
 */
export const checkValues = (
  metric: Metric.Metric,
  gold: Values,
  runs: ReadonlyArray<Values>,
  strata: ArrayLike<number> | undefined,
  stratumOf: Int32Array,
  confidences: ReadonlyArray<Float64Array> | undefined
): InvalidInput | undefined => {
  const least = metric.correlation ? 3 : 1
  if (metric.kind === "scores") {
    if (!(gold instanceof Float64Array)) return new InvalidInput({ field: "gold", expected: `a Float64Array of scores (${metric.name})`, found: "something else" })
    const k = runs.findIndex((r) => !(r instanceof Float64Array))
    if (k >= 0) return new InvalidInput({ field: `runs[${k}]`, expected: `a Float64Array of scores (${metric.name})`, found: "something else" })
    const bad = checkData(gold, runs as ReadonlyArray<Float64Array>, strata, stratumOf, least)
    if (bad !== undefined) return bad
    if (confidences === undefined) {
      return metric.needsConfidence === true
        ? new InvalidInput({ field: "confidences", expected: `one confidence array per run (${metric.name} weighs each pair by the run's confidence)`, found: "none" })
        : undefined
    }
    if (confidences.length !== runs.length) return new InvalidInput({ field: "confidences", expected: `${runs.length} arrays (one per run)`, found: String(confidences.length) })
    for (let j = 0; j < confidences.length; j++) {
      const c = confidences[j]
      if (!(c instanceof Float64Array) || c.length !== gold.length) {
        return new InvalidInput({ field: `confidences[${j}]`, expected: `a Float64Array of ${gold.length} confidences`, found: c instanceof Float64Array ? `${c.length}` : "something else" })
      }
      const i = c.findIndex((w) => !(Number.isFinite(w) && w >= 0))
      if (i >= 0) return new InvalidInput({ field: `confidences[${j}][${i}]`, expected: "a finite confidence >= 0", found: String(c[i]) })
    }
    return undefined
  }
  if (!isLabels(gold)) return new InvalidInput({ field: "gold", expected: `an array of labels (${metric.name})`, found: "something else" })
  if (runs.length === 0) return new InvalidInput({ field: "runs", expected: "at least one run", found: "none" })
  for (const [field, v] of [["gold", gold] as const, ...runs.map((r, k) => [`runs[${k}]`, r] as const)]) {
    if (!isLabels(v)) return new InvalidInput({ field, expected: `an array of labels (${metric.name})`, found: "something else" })
    if (v.length !== gold.length) return new InvalidInput({ field, expected: `${gold.length} labels (one per gold pair)`, found: String(v.length) })
    const i = v.findIndex((l) => typeof l !== "string")
    if (i >= 0) return new InvalidInput({ field: `${field}[${i}]`, expected: "a label", found: String(v[i]) })
  }
  if (strata !== undefined && strata.length !== gold.length) {
    return new InvalidInput({ field: "strata", expected: `${gold.length} dataset indices`, found: `${strata.length}` })
  }
  return checkSizes(gold.length, stratumOf, least)
}

export const checkCount = (field: string, v: number, min: number): InvalidInput | undefined =>
  Number.isInteger(v) && v >= min && v <= 10_000_000
    ? undefined
    : new InvalidInput({ field, expected: `an integer from ${min} to 10,000,000`, found: String(v) })

export const checkSeed = (seed: number): InvalidInput | undefined =>
  Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff
    ? undefined
    : new InvalidInput({ field: "seed", expected: "an integer from 0 to 4294967295", found: String(seed) })

/** The settings a resampling test (Bootstrap, Permutation) reads from its options, defaults applied. */
export type ResamplingOptions = Pick<Bootstrap.Options, "resamples" | "seed" | "metric" | "strata" | "aggregate" | "confidences">

/** A resampling test's checked settings and the signature that reproduces it. */
export interface Resampling {
  readonly resamples: number
  readonly seed: number
  readonly metric: Metric.Metric
  readonly aggregate: "weighted" | "unweighted"
  readonly stratumOf: Int32Array
  readonly signature: Signature.Signature
}

/**
 * Resolves and checks a resampling test's options (10,000 resamples, seed 12345, Pearson, weighted
 * by default) in the order its errors have always been reported: the metric, the resample count,
 * the seed, the test's own `check` (threads, alternative), the aggregate, then the values.
 */
export const resampling = (
  method: Signature.Signature["method"],
  gold: Values,
  runs: ReadonlyArray<Values>,
  options: ResamplingOptions,
  check: InvalidInput | undefined
): Resampling | InvalidInput => {
  const resamples = options.resamples ?? 10_000
  const seed = options.seed ?? 12345
  const aggregate = options.aggregate ?? "weighted"
  const metric = resolve("metric", options.metric)
  if (metric instanceof InvalidInput) return metric
  const stratumOf = denseStrata(options.strata, gold.length)
  const error = V.first(
    checkCount("resamples", resamples, 1),
    checkSeed(seed),
    check,
    aggregate === "weighted" || aggregate === "unweighted"
      ? undefined
      : new InvalidInput({ field: "aggregate", expected: "weighted or unweighted", found: String(aggregate) }),
    checkValues(metric, gold, runs, options.strata, stratumOf, options.confidences)
  )
  if (error !== undefined) return error
  const signature: Signature.Signature = {
    method,
    resamples,
    seed,
    metric: metric.name,
    strata: options.strata === undefined ? "none" : "dataset",
    ...(options.strata === undefined ? {} : { aggregate }),
    rng: "xoroshiro128plus",
    version: Signature.VERSION
  }
  return { resamples, seed, metric, aggregate, stratumOf, signature }
}
