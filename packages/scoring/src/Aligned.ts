/**
 * Scored runs side by side, for significance tests and intervals: per dataset, the gold and every
 * run's values on the same pairs (from the runs' aligned pairs: nothing is parsed again), and the
 * datasets that cannot be compared, with the reason. The one builder `significance`, `compare`,
 * the marks and the intervals read.
 *
 * @since 0.2.0
 */
import { Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import { rankingName } from "./internal/edition.js"
import type { ScoredRun } from "./ScoredRun.js"

/**
 * One dataset's graded scores: the gold and each run's, pair by pair.
 *
 * @since 0.2.0
 */
export interface DatasetScores {
  readonly kind: "scores"
  readonly name: string
  readonly gold: Float64Array
  /** one array per run, in the order of the runs given */
  readonly runs: ReadonlyArray<Float64Array>
}

/**
 * One dataset's labels: the gold and each run's, pair by pair.
 *
 * @since 0.3.0
 */
export interface DatasetLabels {
  readonly kind: "labels"
  readonly name: string
  readonly gold: ReadonlyArray<string>
  readonly runs: ReadonlyArray<ReadonlyArray<string>>
  /** the label set, in the order tables show it */
  readonly labels: ReadonlyArray<string>
}

/**
 * One dataset's values, graded scores or labels, the gold's and each run's.
 *
 * @since 0.3.0
 */
export type DatasetValues = DatasetScores | DatasetLabels

/**
 * A dataset left out of a comparison, and why (naming the run that keeps it out).
 *
 * @since 0.2.0
 */
export interface Skipped {
  readonly dataset: string
  readonly reason: string
}

/**
 * The scored runs side by side: per comparable dataset the gold and every run's values on the same
 * pairs, the metric they are compared by, and the datasets left out, with the reason.
 *
 * @since 0.2.0
 */
export interface Comparable {
  /** the metric the runs are compared by (the ranking's, unless another was asked for) */
  readonly metric: string
  readonly datasets: ReadonlyArray<DatasetValues>
  /** datasets left out, with the reason (naming the run that keeps them out) */
  readonly skipped: ReadonlyArray<Skipped>
}

const sameValues = <A>(a: ArrayLike<A>, b: ArrayLike<A>): boolean => {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Every dataset of a ranking that all the runs have scored, with the gold and each run's values;
 * `only` keeps one. A `no-gold` dataset is left out; a run whose figure is undefined on a dataset
 * keeps it out, with its own reason.
 *
 * @example
 * ```ts
 * import { Aligned, Engine } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const comparable = Aligned.datasets(results.edition, results.runs, { ranking: results.edition.ranking[0] })
 * comparable.datasets[0]?.gold // the gold of the first dataset every run scored, pair by pair
 * comparable.skipped // the others, each with the reason
 * ```
 * @since 0.2.0
 */
export const datasets = (
  edition: Registry.TaskEdition,
  runs: ReadonlyArray<ScoredRun>,
  options: { readonly ranking?: Registry.Ranking | undefined; readonly metric?: string | undefined; readonly only?: string | undefined } = {}
): Comparable => {
  const ranking = options.ranking ?? edition.ranking[0]
  const metric = options.metric ?? ranking.metric
  const label = Metrics.get(metric)?.label ?? metric
  const out: Array<DatasetValues> = []
  const skipped: Array<Skipped> = []
  for (const spec of Registry.datasetsOf(edition, ranking)) {
    if (options.only !== undefined && spec.name !== options.only) continue
    const parts = runs.map((r) => r.datasets.find((d) => d.dataset === spec.name))
    // no gold for anyone (SemRel esp): not a dataset that can be compared, nor one a run lacks
    if (parts.length > 0 && parts.every((p) => p?.status === "no-gold")) continue
    if (parts.length === 0) {
      skipped.push({ dataset: spec.name, reason: "no run to compare" })
      continue
    }
    const bad = parts.findIndex((p) => p?.status !== "scored" || p.aligned === undefined)
    if (bad >= 0) {
      skipped.push({ dataset: spec.name, reason: `${runs[bad].meta.id}: ${parts[bad]?.reason ?? "not scored"}` })
      continue
    }
    const aligned = parts.map((p) => p!.aligned!)
    const first = aligned[0]
    if (!aligned.every((a) => a.kind === first.kind && sameValues<number | string>(a.gold, first.gold))) {
      skipped.push({ dataset: spec.name, reason: "the runs were scored on different pairs" })
      continue
    }
    const undefinedAt = parts.findIndex((p) => p!.figures[metric]?._tag === "Undefined")
    if (undefinedAt >= 0) {
      const figure = parts[undefinedAt]!.figures[metric]
      skipped.push({
        dataset: spec.name,
        reason: `${runs[undefinedAt].meta.id}: its ${label} with the gold is undefined (${figure._tag === "Undefined" ? figure.reason : ""})`
      })
      continue
    }
    if (first.kind === "scores") {
      out.push({ kind: "scores", name: spec.name, gold: first.gold, runs: aligned.map((a) => (a.kind === "scores" ? a.run : new Float64Array(0))) })
    } else {
      out.push({ kind: "labels", name: spec.name, gold: first.gold, runs: aligned.map((a) => (a.kind === "labels" ? a.run : [])), labels: first.labels })
    }
  }
  return { metric, datasets: out, skipped }
}

/**
 * How a ranking combines its datasets, as the aggregate a resampling test over several datasets
 * uses: its official rule (`wmean` weighted, `mean` unweighted, `pooled` / `allnrm` all pairs as
 * one).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Aligned } from "@stseval/scoring"
 *
 * Aligned.aggregateOf(Registry.get("sts2014")!.ranking[0]) // "weighted"
 * Aligned.aggregateOf(Registry.get("sts2017")!.ranking[0]) // "unweighted"
 * Aligned.aggregateOf(Registry.get("sts2012")!.ranking[0]) // "pooled"
 * ```
 * @since 0.2.0
 */
export const aggregateOf = (ranking: Registry.Ranking): "weighted" | "unweighted" | "pooled" => {
  const rule = ranking.aggregate
  return rule === "mean" ? "unweighted" : rule === "pooled" || rule === "allnrm" ? "pooled" : "weighted"
}

/**
 * One ranking of the ranked result as a test sees it: its name in `results.ranked` (`official`,
 * `relatedness`, or the dataset of a ranking per dataset), the edition's ranking it comes from, and
 * the one dataset it covers when ranked per dataset (`Aligned.datasets`' `only`).
 *
 * @since 0.3.0
 */
export interface Scope {
  readonly name: string
  readonly ranking: Registry.Ranking
  readonly only?: string | undefined
}

/**
 * The rankings of an edition, in the order and with the names `Rank` gives them: one per ranking,
 * or one per dataset of a ranking per dataset (SemRel's languages), so that a test runs where the
 * ranking is (and never on an aggregate that ranks no one).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Aligned } from "@stseval/scoring"
 *
 * Aligned.scopes(Registry.get("sick2014")!).map((s) => s.name) // ["relatedness", "entailment"]
 * Aligned.scopes(Registry.get("sts2017")!).map((s) => s.name) // ["official"]
 * ```
 * @since 0.3.0
 */
export const scopes = (edition: Registry.TaskEdition): ReadonlyArray<Scope> =>
  edition.ranking.flatMap((ranking): ReadonlyArray<Scope> =>
    Registry.isRankedPerDataset(ranking)
      ? Registry.datasetsOf(edition, ranking).map((d) => ({ name: d.name, ranking, only: d.name }))
      : [{ name: rankingName(edition, ranking), ranking }]
  )

/**
 * Which of some runs can be compared on a ranking's datasets: a run that lacks one, failed on one,
 * or whose figure is undefined on one is left out with its reasons (a lacking dataset entered its
 * figure as the missing value, which no resampling reproduces); the rest are aligned side by side.
 * The marks and `significance` both decide it here.
 *
 * @example
 * ```ts
 * import { Aligned, Engine } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const { kept, left, aligned } = Aligned.comparable(results.edition, results.runs, (r) => r, { ranking: results.edition.ranking[0] })
 * const why = left.map((l) => `${l.item.meta.id}: ${l.skipped.map((s) => s.dataset).join(", ")}`)
 * ```
 * @since 0.4.0
 */
export const comparable = <A>(
  edition: Registry.TaskEdition,
  items: ReadonlyArray<A>,
  runOf: (item: A) => ScoredRun,
  options: { readonly ranking?: Registry.Ranking | undefined; readonly metric?: string | undefined; readonly only?: string | undefined } = {}
): { readonly kept: ReadonlyArray<A>; readonly left: ReadonlyArray<{ readonly item: A; readonly skipped: ReadonlyArray<Skipped> }>; readonly aligned: Comparable } => {
  const kept: Array<A> = []
  const left: Array<{ readonly item: A; readonly skipped: ReadonlyArray<Skipped> }> = []
  for (const item of items) {
    const own = datasets(edition, [runOf(item)], options)
    if (own.skipped.length > 0 || own.datasets.length === 0) left.push({ item, skipped: own.skipped })
    else kept.push(item)
  }
  return { kept, left, aligned: datasets(edition, kept.map(runOf), options) }
}
