// Checks of the resampling tests' (Bootstrap's, Permutation's) options and values.
import type { Metric } from "@stseval/metrics"
import type * as Bootstrap from "../Bootstrap.js"
import * as Signature from "../Signature.js"
import { InvalidInput } from "../TestResult.js"
import { resolve } from "./metric.js"
import { MAX_BELOW } from "./random.js"
import { denseStrata } from "./strata.js"
import * as V from "./validate.js"

/** Scores (a Float64Array) or labels (strings), as a metric of either kind reads them. */
export type Values = Float64Array | ReadonlyArray<string>

/**
 * The gold and the runs for `metric`: finite scores in Float64Arrays, or label strings, one per
 * gold pair; the runs' confidences when the metric needs them (or are given): finite, >= 0; last, at
 * most `most` pairs per dataset (the bootstrap's: the pairs Random.below draws from).
 */
export const checkValues = (
  metric: Metric.Metric,
  gold: Values,
  runs: ReadonlyArray<Values>,
  strata: ArrayLike<number> | undefined,
  stratumOf: Int32Array,
  confidences: ReadonlyArray<Float64Array> | undefined,
  most = Number.POSITIVE_INFINITY
): InvalidInput | undefined => {
  const scores = metric.kind === "scores"
  const what = scores ? `a Float64Array of scores (${metric.name})` : `an array of labels (${metric.name})`
  const n = gold.length
  const all = [["gold", gold] as const, ...runs.map((r, k) => [`runs[${k}]`, r] as const)]
  const wrong = all.find(([, v]) => !(scores ? v instanceof Float64Array : Array.isArray(v)))
  if (wrong !== undefined) return new InvalidInput({ field: wrong[0], expected: what, found: "something else" })
  if (runs.length === 0) return new InvalidInput({ field: "runs", expected: "at least one run", found: "none" })
  const short = runs.findIndex((r) => r.length !== n)
  if (short >= 0) return new InvalidInput({ field: `runs[${short}]`, expected: `${n} ${metric.kind} (one per gold pair)`, found: `${runs[short].length}` })
  if (strata !== undefined && strata.length !== n) return new InvalidInput({ field: "strata", expected: `${n} dataset indices`, found: `${strata.length}` })
  for (const [field, v] of all) {
    const bad = scores ? V.finite(field, v as Float64Array) : V.labels(field, v as ReadonlyArray<string>)
    if (bad !== undefined) return bad
  }
  // every dataset (stratum) has at least 3 pairs for a correlation (of 2 points it is always +-1); the gold at least `least`
  const least = metric.correlation ? 3 : 1
  const sizes = new Int32Array(n)
  for (let i = 0; i < n; i++) sizes[stratumOf[i]]++
  // dense ids: a dataset's id is below every later dataset's, and no dataset has 0 pairs
  const s = sizes.findIndex((size) => size > 0 && size < least)
  if (s >= 0) {
    return new InvalidInput({ field: "strata", expected: "at least 3 pairs per dataset (a correlation of 2 points is always +-1)", found: `${sizes[s]} pairs in dataset #${s}` })
  }
  if (n < least) return new InvalidInput({ field: "gold", expected: least === 3 ? "at least 3 pairs" : "at least 1 pair", found: String(n) })
  const big = sizes.findIndex((size) => size > most)
  const drawable = big < 0 ? undefined : new InvalidInput({ field: "gold", expected: `at most ${most} pairs`, found: `${sizes[big]} pairs in dataset #${big}` })
  if (!scores) return drawable
  if (confidences === undefined) {
    return metric.needsConfidence === true
      ? new InvalidInput({ field: "confidences", expected: `one confidence array per run (${metric.name} weighs each pair by the run's confidence)`, found: "none" })
      : drawable
  }
  if (confidences.length !== runs.length) return new InvalidInput({ field: "confidences", expected: `${runs.length} arrays (one per run)`, found: String(confidences.length) })
  return V.first(...confidences.map((c, j) => V.confidences(`confidences[${j}]`, c, n)), drawable)
}

/** A resampling test's options resolved (10,000 resamples, seed 12345, Pearson, weighted) and checked, in the order errors have always been reported. */
export const resampling = (
  method: Signature.Signature["method"],
  gold: Values,
  runs: ReadonlyArray<Values>,
  options: Pick<Bootstrap.Options, "resamples" | "seed" | "metric" | "strata" | "aggregate" | "confidences">,
  check: InvalidInput | undefined
) => {
  const resamples = options.resamples ?? 10_000
  const seed = options.seed ?? 12345
  const aggregate = options.aggregate ?? "weighted"
  const metric = resolve("metric", options.metric)
  if (metric instanceof InvalidInput) return metric
  const stratumOf = denseStrata(options.strata, gold.length)
  const error = V.first(
    V.count("resamples", resamples, 1),
    V.seed(seed),
    check,
    V.oneOf("aggregate", aggregate, ["weighted", "unweighted"], "weighted or unweighted"),
    checkValues(metric, gold, runs, options.strata, stratumOf, options.confidences, method === "bootstrap" ? MAX_BELOW : undefined)
  )
  if (error !== undefined) return error
  const strata = options.strata === undefined ? "none" : "dataset"
  const signature: Signature.Signature = { method, resamples, seed, metric: metric.name, strata, ...(strata === "none" ? {} : { aggregate }), rng: "xoroshiro128plus", version: Signature.VERSION }
  return { resamples, seed, metric, aggregate, stratumOf, signature }
}
