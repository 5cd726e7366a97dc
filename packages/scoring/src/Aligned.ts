/**
 * Scored runs side by side, for significance tests: per dataset (SICK: relatedness), the gold and
 * every run's scores on the same pairs, taken from the runs' aligned scores (nothing is aligned or
 * parsed again), and the datasets that cannot be compared, with the reason. Also SICK entailment
 * labels, and how the edition combines datasets (the aggregate a resampling test stratifies by).
 *
 * @since 0.2.0
 */
import type { Registry } from "@stseval/formats"
import type { MetricValue } from "@stseval/metrics"
import type { Aligned, ScoredRun } from "./ScoredRun.js"

/**
 * @example
 * ```ts
 * import { Aligned, Engine } from "@stseval/scoring"
 *
 * declare const results: Engine.Results
 * const first: Aligned.DatasetScores | undefined = Aligned.datasets(results.edition, results.runs).datasets[0]
 * ```
 * @since 0.2.0
 */
export interface DatasetScores {
  readonly name: string
  readonly gold: Float64Array
  /** one array per run, in the order of the runs given */
  readonly runs: ReadonlyArray<Float64Array>
}

/**
 * @example
 * ```ts
 * import { Aligned, Engine } from "@stseval/scoring"
 *
 * declare const results: Engine.Results
 * const skipped: ReadonlyArray<Aligned.Skipped> = Aligned.datasets(results.edition, results.runs).skipped
 * ```
 * @since 0.2.0
 */
export interface Skipped {
  readonly dataset: string
  readonly reason: string
}

/**
 * @example
 * ```ts
 * import { Aligned, Engine } from "@stseval/scoring"
 *
 * declare const results: Engine.Results
 * const comparable: Aligned.Comparable = Aligned.datasets(results.edition, results.runs)
 * ```
 * @since 0.2.0
 */
export interface Comparable {
  readonly datasets: ReadonlyArray<DatasetScores>
  /** datasets left out, with the reason (naming the run that keeps them out) */
  readonly skipped: ReadonlyArray<Skipped>
}

const sameValues = (a: Float64Array, b: Float64Array): boolean => {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

interface Part {
  readonly status: string
  readonly reason: string | undefined
  readonly pearson: MetricValue.MetricValue
  readonly aligned: Aligned | undefined
}

const compareParts = (name: string, runs: ReadonlyArray<ScoredRun>, parts: ReadonlyArray<Part | undefined>): DatasetScores | Skipped => {
  if (parts.length === 0) return { dataset: name, reason: "no run to compare" }
  const bad = parts.findIndex((p) => p?.status !== "scored" || p.aligned === undefined)
  if (bad >= 0) return { dataset: name, reason: `${runs[bad].meta.id}: ${parts[bad]?.reason ?? "not scored"}` }
  const aligned = parts.map((p) => p!.aligned!)
  const gold = aligned[0].gold
  if (!aligned.every((a) => sameValues(a.gold, gold))) return { dataset: name, reason: "the runs were scored on different pairs" }
  // a run whose correlation with the gold has no value (a constant run) cannot be compared: its
  // own figure says why ("the run is constant"), as `score` does
  const undefinedAt = parts.findIndex((p) => p!.pearson._tag === "Undefined")
  if (undefinedAt >= 0) {
    const figure = parts[undefinedAt]!.pearson
    return {
      dataset: name,
      reason: `${runs[undefinedAt].meta.id}: its correlation with the gold is undefined (${figure._tag === "Undefined" ? figure.reason : ""})`
    }
  }
  return { name, gold, runs: aligned.map((a) => a.run) }
}

/**
 * The gold and every run's scores of each dataset all the runs have scored, on the same pairs
 * (SICK: the one dataset `relatedness`); `only` keeps one dataset. A dataset no run has a gold
 * for (`no-gold`: SemRel esp) is left out, not skipped.
 *
 * @example
 * ```ts
 * import { Aligned, Engine } from "@stseval/scoring"
 * import { Compare } from "@stseval/significance"
 *
 * declare const results: Engine.Results // two runs of an STS edition
 * const { datasets } = Aligned.datasets(results.edition, results.runs, "track5.en-en")
 * const d = datasets[0]
 * if (d !== undefined) Compare.two(d.gold, d.runs[0], d.runs[1]) // on the pairs both runs scored
 * ```
 * @since 0.2.0
 */
export const datasets = (edition: Registry.TaskEdition, runs: ReadonlyArray<ScoredRun>, only?: string): Comparable => {
  const out: Array<DatasetScores> = []
  const skipped: Array<Skipped> = []
  const add = (r: DatasetScores | Skipped) => ("gold" in r ? out.push(r) : skipped.push(r))
  if (edition.family === "sick") add(compareParts("relatedness", runs, runs.map((r) => r.relatedness)))
  else {
    for (const spec of edition.datasets) {
      if (only !== undefined && spec.name !== only) continue
      const parts = runs.map((r) => r.datasets.find((d) => d.dataset === spec.name))
      // no gold for anyone (SemRel esp): not a dataset that can be compared, nor one a run lacks
      if (parts.length > 0 && parts.every((p) => p?.status === "no-gold")) continue
      add(compareParts(spec.name, runs, parts))
    }
  }
  return { datasets: out, skipped }
}

/**
 * SICK entailment labels of two or more runs on the same pairs, or why they cannot be compared.
 *
 * @example
 * ```ts
 * import { Aligned, Engine } from "@stseval/scoring"
 * import { McNemar } from "@stseval/significance"
 *
 * declare const results: Engine.Results // two SICK runs
 * const labels = Aligned.entailment(results.runs)
 * if ("gold" in labels) McNemar.compareLabels(labels.gold, labels.runs[0], labels.runs[1])
 * ```
 * @since 0.2.0
 */
export const entailment = (
  runs: ReadonlyArray<ScoredRun>
): { readonly gold: ReadonlyArray<string>; readonly runs: ReadonlyArray<ReadonlyArray<string>> } | Skipped => {
  const bad = runs.findIndex((r) => r.entailment?.aligned === undefined)
  if (bad >= 0) return { dataset: "entailment", reason: `${runs[bad].meta.id}: ${runs[bad].entailment?.reason ?? "not scored"}` }
  const labels = runs.map((r) => r.entailment!.aligned!)
  return { gold: labels[0].gold, runs: labels.map((l) => l.run) }
}

/**
 * How the edition combines datasets, as the aggregate a resampling test over several datasets
 * uses: its official rule (`wmean` weighted, `mean` unweighted, `pooled` / `allnrm` all pairs as
 * one).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Aligned } from "@stseval/scoring"
 *
 * Aligned.aggregateOf(Registry.get("sts2014")!) // "weighted"
 * Aligned.aggregateOf(Registry.get("sts2017")!) // "unweighted"
 * ```
 * @since 0.2.0
 */
export const aggregateOf = (edition: Registry.TaskEdition): "weighted" | "unweighted" | "pooled" => {
  const rule = edition.ranking[0].aggregate
  return rule === "mean" ? "unweighted" : rule === "pooled" || rule === "allnrm" ? "pooled" : "weighted"
}
