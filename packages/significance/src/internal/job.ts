// The one layout of a resampling job: the datasets' metrics resolved and checked, every run's
// scores checked and laid out by dataset (the gold of a dataset is its first run's) as the
// resampling pass reads them (intervals.ts). Intervals.compute and Bootstrap.resample build their
// jobs here, so both resample through the one pass.
import { MetricValue } from "@stseval/metrics"
import type { Metric as MetricDescriptor } from "@stseval/metrics"
import type { Input, Scores } from "../Intervals.js"
import { InvalidInput } from "../TestResult.js"
import type * as Engine from "./intervals.js"
import { isKendall, isPearson, isRankPearson, codeTable, resolve } from "./metric.js"
import { MAX_BELOW } from "./random.js"
import * as V from "./validate.js"
import { rhoPairs } from "./rankSums.js"

/** The rules (`Rule`); all but `single` may be labelled aggregates. */
const RULES: ReadonlyArray<string> = ["wmean", "mean", "pooled", "allnrm", "single"]
const LABELLED = RULES.filter((rule) => rule !== "single")
/** "a, b or c": what a refused rule or aggregate was expected to be, from its list. */
const either = (names: ReadonlyArray<string>) => `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`

export const invalid = (field: string, expected: string, found: string) => new InvalidInput({ field, expected, found })

const isNumeric = (s: Scores): s is Extract<Scores, { readonly run: Float64Array }> => s.run instanceof Float64Array && s.gold instanceof Float64Array

/** The datasets' metrics, resolved, and the rule checked against them. */
export const checkDefinition = (input: Input): InvalidInput | ReadonlyArray<MetricDescriptor.Metric> => {
  if (input.datasets.length === 0) return invalid("datasets", "at least one dataset", "none")
  const names = new Set<string>()
  const metrics: Array<MetricDescriptor.Metric> = []
  for (const [d, ds] of input.datasets.entries()) {
    if (typeof ds.name !== "string" || ds.name.length === 0) return invalid(`datasets[${d}].name`, "a dataset name", String(ds.name))
    if (names.has(ds.name)) return invalid(`datasets[${d}].name`, "a name not used by another dataset", ds.name)
    names.add(ds.name)
    const m = resolve(`datasets[${d}].metric`, ds.metric)
    if (m instanceof InvalidInput) return m
    // aggregates and ranks read every dataset's figure the same way round
    if (d > 0 && m.direction !== metrics[0].direction) {
      return invalid(
        `datasets[${d}].metric`,
        `a metric where ${metrics[0].direction} is better, as ${input.datasets[0].name}'s ${metrics[0].name} (aggregates and ranks need one direction)`,
        m.name
      )
    }
    metrics.push(m)
    if (ds.weight !== undefined && !(Number.isFinite(ds.weight) && ds.weight >= 0)) {
      return invalid(`datasets[${d}].weight`, "a weight >= 0 (the dataset's annotated gold pairs)", String(ds.weight))
    }
  }
  if (!RULES.includes(input.official)) return invalid("official", either(RULES), String(input.official))
  if (input.missingDataset !== "zero" && input.missingDataset !== "no-official-score") {
    return invalid("missingDataset", "zero or no-official-score", String(input.missingDataset))
  }
  const labelled = input.aggregates ?? []
  for (const [j, name] of labelled.entries()) {
    if (!LABELLED.includes(name)) return invalid(`aggregates[${j}]`, either(LABELLED), String(name))
    if (labelled.indexOf(name) !== j) return invalid(`aggregates[${j}]`, "each aggregate once", name)
  }
  if (input.official === "single" && input.datasets.length !== 1) {
    return invalid("official", "single only with exactly one dataset", `${input.datasets.length} datasets`)
  }
  // the zero rule enters a lacking dataset as the metric's missing value in the official mean
  if (input.missingDataset === "zero" && (input.official === "wmean" || input.official === "mean")) {
    const d = metrics.findIndex((m) => m.missingValue === undefined)
    if (d >= 0) {
      return invalid(
        "missingDataset",
        `no-official-score: ${metrics[d].name} has no value a dataset the run lacks could count as under zero`,
        `zero (${input.datasets[d].name} is ${metrics[d].name})`
      )
    }
  }
  for (const rule of [input.official, ...labelled]) {
    if (rule !== "pooled" && rule !== "allnrm") continue
    const field = rule === input.official ? "official" : "aggregates"
    // the pool is one correlation over every dataset's pairs: of one correlation metric
    const ref = metrics.find((m) => m.correlation)
    const d = metrics.findIndex((m) => m !== ref && (ref === undefined || m.name !== ref.name))
    if (ref === undefined || d >= 0) {
      const at = d >= 0 ? d : 0
      return invalid(
        field,
        ref === undefined ? `${rule} only over datasets of a correlation` : `${rule} only over ${ref.label} datasets`,
        `${input.datasets[at].name} is ${metrics[at].name}`
      )
    }
  }
  return metrics
}

const checkScores = (field: string, metric: MetricDescriptor.Metric, s: Scores, finite: WeakSet<Float64Array>): InvalidInput | undefined => {
  if (metric.kind === "labels") {
    if (!Array.isArray(s.run) || !Array.isArray(s.gold)) return invalid(field, `run and gold label arrays (${metric.name})`, "something else")
  } else if (!isNumeric(s)) {
    return invalid(field, `run and gold Float64Arrays (${metric.name})`, "something else")
  }
  if (s.run.length !== s.gold.length) return invalid(`${field}.run`, `${s.gold.length} scores (one per gold pair)`, String(s.run.length))
  const least = metric.correlation ? 3 : 1
  if (s.gold.length < least) {
    return invalid(`${field}.gold`, least === 1 ? "at least 1 pair" : "at least 3 pairs (a correlation of 2 points is always +-1)", String(s.gold.length))
  }
  if (s.gold.length > MAX_BELOW) return invalid(`${field}.gold`, `at most ${MAX_BELOW} pairs`, String(s.gold.length))
  if (!isNumeric(s)) return V.first(V.labels(`${field}.run`, s.run), V.labels(`${field}.gold`, s.gold))
  // an array found finite before is not read again: the gold a dataset's runs share, the scores computeEach's inputs share
  const bad = V.first(
    finite.has(s.run) ? undefined : V.finite(`${field}.run`, s.run),
    finite.has(s.gold) ? undefined : V.finite(`${field}.gold`, s.gold),
    s.confidence === undefined ? undefined : V.confidences(`${field}.confidence`, s.confidence, s.gold.length)
  )
  if (bad === undefined) finite.add(s.run).add(s.gold)
  return bad
}

/** Each dataset's gold (its first run's scores), one per dataset, `undefined` where no run has it. */
export type Golds = ReadonlyArray<Scores | undefined>

/** Checks every run against the definition, and that the runs of a dataset share its gold; `finite`: the score arrays found finite. */
export const checkRuns = (input: Input, metrics: ReadonlyArray<MetricDescriptor.Metric>, finite = new WeakSet<Float64Array>()): InvalidInput | Golds => {
  const { datasets, runs } = input
  const ids = new Set<string>()
  const reference: Array<{ readonly k: number; readonly s: Scores } | undefined> = datasets.map(() => undefined)
  for (const [k, run] of runs.entries()) {
    const where = `runs[${k}]`
    if (typeof run.id !== "string" || run.id.length === 0) return invalid(`${where}.id`, "a run id (e.g. its path)", String(run.id))
    if (ids.has(run.id)) return invalid(`${where}.id`, "an id not used by another run", run.id)
    ids.add(run.id)
    for (const name of Object.keys(run.scores)) {
      if (!datasets.some((ds) => ds.name === name)) {
        return invalid(`${where}.scores`, `only the datasets ${datasets.map((ds) => ds.name).join(", ")}`, name)
      }
    }
    for (const [d, ds] of datasets.entries()) {
      const s = run.scores[ds.name]
      if (s === undefined) continue
      const field = `${where} (${run.id}).scores[${JSON.stringify(ds.name)}]`
      const ref = reference[d]
      const bad = checkScores(field, metrics[d], s, finite)
      if (bad !== undefined) return bad
      if (ref === undefined) {
        reference[d] = { k, s }
        continue
      }
      if (ref.s.gold === s.gold) continue
      // all runs share the gold: one index multiset per dataset serves them all
      const expected = ref.s.gold
      if (expected.length !== s.gold.length) {
        return invalid(`${field}.gold`, `the gold of ${runs[ref.k].id} (${expected.length} pairs): every run of a dataset is scored on the same pairs`, `${s.gold.length} pairs`)
      }
      for (let i = 0; i < expected.length; i++) {
        if (expected[i] !== s.gold[i]) {
          return invalid(`${field}.gold[${i}]`, `${String(expected[i])}, as in the gold of ${runs[ref.k].id} (runs must be aligned with the same gold in the same order)`, String(s.gold[i]))
        }
      }
    }
  }
  return reference.map((r) => r?.s)
}

/**
 * Lays out runs [from, to) by dataset, as checked by `checkRuns`: Intervals.ts lays out tile by tile
 * of runs, each in the last one's buffer (`reuse`). `kernels` false: by the metric over the draws.
 */
export const layOut = (input: Input, metrics: ReadonlyArray<MetricDescriptor.Metric>, golds: Golds, from = 0, to = input.runs.length, kernels = true, reuse: { x?: Float64Array } = {}): Engine.Job => {
  const { datasets, runs } = input
  const D = datasets.length
  const K = to - from
  const kernel = metrics.map((m, d) => (kernels ? engineOf(m, golds[d]?.gold.length ?? 0) : "generic"))
  const labelCount = new Int32Array(D)
  const start = new Int32Array(D + 1)
  for (let d = 0; d < D; d++) start[d + 1] = start[d] + (golds[d]?.gold.length ?? 0)
  const N = start[D]
  const gold = new Float64Array(N)
  const x = reuse.x !== undefined && reuse.x.length >= K * N ? reuse.x.subarray(0, K * N).fill(0) : (reuse.x = new Float64Array(K * N))
  const has = new Uint8Array(K * D)
  // generic labels metrics read codes, one table per dataset; weighted Pearson its confidences
  const codesNeeded = metrics.some((m, d) => kernel[d] === "generic" && m.kind === "labels")
  const goldCodes = codesNeeded ? new Int32Array(N) : undefined
  const codes = codesNeeded ? new Int32Array(K * N) : undefined
  const confident = runs.slice(from, to).some((run) => datasets.some((ds, d) => kernel[d] === "generic" && (run.scores[ds.name] as { confidence?: Float64Array } | undefined)?.confidence !== undefined))
  const confidence = confident ? new Float64Array(K * N) : undefined
  const hasConfidence = confident ? new Uint8Array(K * D) : undefined
  for (let d = 0; d < D; d++) {
    const ref = golds[d]
    if (ref === undefined) continue
    const a = start[d]
    const accuracy = kernel[d] === "correct"
    const labels = metrics[d].kind === "labels"
    const { table, code } = codeTable()
    if (!labels) gold.set(ref.gold as Float64Array, a)
    else if (!accuracy) for (let i = 0; i < ref.gold.length; i++) goldCodes![a + i] = code(ref.gold[i] as string)
    for (let k = 0; k < K; k++) {
      const s = runs[from + k].scores[datasets[d].name]
      if (s === undefined) continue
      has[k * D + d] = 1
      if (accuracy) {
        for (let i = 0; i < s.gold.length; i++) x[k * N + a + i] = s.run[i] === s.gold[i] ? 1 : 0
      } else if (labels) {
        for (let i = 0; i < s.gold.length; i++) codes![k * N + a + i] = code(s.run[i] as string)
      } else {
        x.set(s.run as Float64Array, k * N + a)
        const c = (s as { confidence?: Float64Array }).confidence
        if (c !== undefined && confidence !== undefined) {
          confidence.set(c, k * N + a)
          hasConfidence![k * D + d] = 1
        }
      }
    }
    labelCount[d] = table.size
  }
  // the metric of `pooled` / `allnrm` when the sums kernel does not pool it (it pools Pearson):
  // checkDefinition made every dataset's metric the same correlation
  const rules = [input.official, ...(input.aggregates ?? [])]
  const first = metrics[0]
  const pooled = (rules.includes("pooled") || rules.includes("allnrm")) && !(kernels && isPearson(first)) && first.kind === "scores" ? first : undefined
  return {
    start,
    metric: kernel,
    figure: metrics.map((m, d) => (m.resampling.by === "sums" && kernel[d] !== "generic" ? m.resampling.figure : undefined)),
    weight: Float64Array.from(datasets, (ds, d) => ds.weight ?? start[d + 1] - start[d]),
    runs: K,
    has,
    gold,
    x,
    labelled: input.aggregates ?? [],
    official: input.official,
    missing: input.missingDataset,
    direction: metrics[0].direction,
    missingValue: Float64Array.from(metrics, (m) => m.missingValue ?? Number.NaN),
    generically: kernel.every((k) => k === "generic") ? undefined : () => layOut(input, metrics, golds, from, to, false),
    generic: kernel.includes("generic") || pooled !== undefined
      ? {
          metrics,
          goldCodes,
          codes,
          labels: labelCount,
          confidence,
          hasConfidence,
          original: (k: number, d: number) => MetricValue.getOrNaN(computeOn(metrics[d], runs[from + k].scores[datasets[d].name]!)),
          pooled
        }
      : undefined
  }
}

/**
 * Which resampling a dataset's metric declares (internal/intervals.ts's `Metric`), for a dataset
 * of `pairs` pairs: Spearman's walks are exact up to `rhoPairs` (rankSums.ts), beyond that the
 * metric over the drawn pairs.
 */
export const engineOf = (m: MetricDescriptor.Metric, pairs = 0): Engine.Metric => {
  const r = m.resampling
  if (r.by === "ranks") return isRankPearson(m) ? (pairs <= rhoPairs ? "walk" : "generic") : isKendall(m) ? "tau" : "generic"
  if (m.kind === "labels") return r.shape === "correct" ? "correct" : "generic"
  return r.shape === "invariant" || r.shape === "shifted" ? r.shape : "generic"
}

/**
 * Pearson, Spearman and accuracy, which had kernels before metrics declared their statistics: their
 * reasons and signatures are kept as printed.
 */
export const predates = (m: MetricDescriptor.Metric): boolean => isPearson(m) || isRankPearson(m) || engineOf(m) === "correct"

/** A dataset's figure on the original pairs: the metric's own `compute`, as `score` reports it. */
export const computeOn = (m: MetricDescriptor.Metric, s: Scores) =>
  m.kind === "labels"
    ? m.compute(s.gold as ReadonlyArray<string>, s.run as ReadonlyArray<string>)
    : m.compute(s.gold as Float64Array, s.run as Float64Array, (s as { confidence?: Float64Array }).confidence)
